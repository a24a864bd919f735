//! Errors that end a run, and the exit codes they map to.
//!
//! Every error a user can cause has its own variant whose message names the file or flag at
//! fault; the binary prints it once (on rank 0 under MPI) and exits with
//! [`Error::exit_code`]. The codes are documented in every `--help` and in the README.
//!
//! Every line this program prints on standard error goes through [`say`]: the whole line, its
//! newline included, in one `write` call. Ranks that fail together each print their own line,
//! and the launcher passes each rank's writes on as they come, so a line written in pieces (as
//! `eprintln!` writes its format's pieces) can be cut by another rank's.

use std::io::Write;
use std::path::PathBuf;

use crate::input::InputError;

/// Exit status of a successful run.
pub const EXIT_OK: u8 = 0;
/// An unexpected failure (a bug, or MPI itself failing).
pub const EXIT_INTERNAL: u8 = 1;
/// Bad command-line usage (clap's own code), or a request beyond a documented limit.
pub const EXIT_USAGE: u8 = 2;
/// The input file is missing, unreadable or malformed.
pub const EXIT_INPUT: u8 = 3;
/// The run would not fit in memory.
pub const EXIT_MEMORY: u8 = 4;
/// An output file cannot be written, or standard output failed.
pub const EXIT_OUTPUT: u8 = 5;
/// The launcher started another number of processes than the MPI world holds: the binary and
/// the launcher belong to different MPI libraries.
pub const EXIT_MISMATCH: u8 = 6;

/// An error that ends a run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Input(#[from] InputError),

    #[error("{0}")]
    Memory(String),

    /// An output path refused before any work.
    #[error("{flag} '{}': {problem}", path.display())]
    OutputRefused {
        flag: &'static str,
        path: PathBuf,
        problem: String,
    },

    #[error("cannot write '{}': {source}", path.display())]
    Output {
        path: PathBuf,
        source: std::io::Error,
    },

    /// Writing to standard output failed (other than its reader going away).
    #[error("cannot write to standard output: {0}")]
    Stdout(std::io::Error),

    #[error("{0}")]
    Usage(String),

    /// No device for `--device gpu`, or its kernels did not build: a setup failure, as a
    /// usage error is.
    #[error("{0}")]
    Device(String),

    /// The launcher and the MPI library disagree on how many processes there are.
    #[error(
        "the launcher started {launched} processes (it says so in {variable}) but MPI sees a \
         world of {world}: this binary is built against another MPI library ({library}) than \
         the launcher's; build it against the launcher's MPI (see the README, \"Both MPI \
         families\") or use that MPI's launcher"
    )]
    Mismatch {
        launched: usize,
        variable: &'static str,
        world: usize,
        library: String,
    },

    #[error(transparent)]
    Internal(#[from] anyhow::Error),

    /// Another rank (rank 0) reported the error; this rank leaves with the same status and
    /// prints nothing.
    #[error("error reported by rank 0")]
    Peer(u8),
}

impl Error {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Input(_) => EXIT_INPUT,
            Error::Memory(_) => EXIT_MEMORY,
            Error::OutputRefused { .. } | Error::Output { .. } | Error::Stdout(_) => EXIT_OUTPUT,
            Error::Usage(_) | Error::Device(_) => EXIT_USAGE,
            Error::Mismatch { .. } => EXIT_MISMATCH,
            Error::Internal(_) => EXIT_INTERNAL,
            Error::Peer(code) => *code,
        }
    }
}

/// Prints `line` and a newline on standard error in one `write` call (see the module doc). A
/// standard error that cannot be written is not worth another error.
pub fn say(line: &str) {
    let _ = say_to(&mut std::io::stderr(), line);
}

/// Writes `line` and a newline to `out` with a single `write_all` (one `write` call on an
/// unbuffered stream such as standard error, unless the stream itself cuts it).
fn say_to(out: &mut impl Write, line: &str) -> std::io::Result<()> {
    let mut whole = String::with_capacity(line.len() + 1);
    whole.push_str(line);
    whole.push('\n');
    out.write_all(whole.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the calls a writer gets.
    #[derive(Default)]
    struct Calls {
        writes: Vec<Vec<u8>>,
    }

    impl Write for Calls {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.writes.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_line_goes_out_in_one_write() {
        let mut out = Calls::default();
        let e = Error::Usage("pattern 1 is empty".into());
        say_to(&mut out, &format!("mpi-lcs: error: rank {}: {e:#}", 3)).unwrap();
        assert_eq!(
            out.writes,
            [b"mpi-lcs: error: rank 3: pattern 1 is empty\n".to_vec()]
        );
        // What `eprintln!` does with the same line: a write per piece.
        let mut pieces = Calls::default();
        writeln!(pieces, "mpi-lcs: error: rank {}: {e:#}", 3).unwrap();
        assert!(pieces.writes.len() > 1);
    }
}
