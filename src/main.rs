//! `mpi-lcs`: the command line, run by the library.

fn main() -> std::process::ExitCode {
    mpi_lcs::commands::main()
}
