//! Errors that end a run, and the exit codes they map to.
//!
//! Every error a user can cause has its own variant whose message names the file or flag at
//! fault; the binary prints it once (on rank 0 under MPI) and exits with
//! [`Error::exit_code`]. The codes are documented in every `--help` and in the README.

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
            Error::Usage(_) => EXIT_USAGE,
            Error::Mismatch { .. } => EXIT_MISMATCH,
            Error::Internal(_) => EXIT_INTERNAL,
            Error::Peer(code) => *code,
        }
    }
}
