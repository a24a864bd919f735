//! `mpi-lcs`: parses the command line and hands it to the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    mpi_lcs::cli::run(mpi_lcs::cli::Cli::parse())
}
