//! mpi-lcs: the longest common subsequence, the edit distance with its alignment, and approximate
//! search, computed over MPI ranks with every message, byte and second counted.
//!
//! The algorithms live in the [`lcs_core`] crate, which has no MPI; this crate runs them over ranks
//! and writes what they find, and the binary only calls [`commands::main`]. The map of the files is
//! the README's "Layout"; each module's doc says the rest. The modules form layers, each using only
//! itself and those below it (checked by the `structure` tests):
//!
//! 1. the command line: [`cli`], [`options`] and [`launch`] (the only readers of the environment),
//!    [`commands`];
//! 2. the outputs: [`report`], [`paf`], [`matches`](mod@matches), [`scores`] and [`npy`] (a pairs
//!    run's), [`export`], [`render`], [`plot`], [`runs`], [`table`], [`generate`];
//! 3. the engines over ranks: [`engines`];
//! 4. how ranks talk: [`comm`];
//! 5. the ground: [`input`], [`error`], [`mem`], [`cgroup`], [`cpus`], [`provenance`],
//!    [`progress`].

pub mod cgroup;
pub mod cli;
pub mod comm;
pub mod commands;
pub mod cpus;
pub mod engines;
pub mod error;
pub mod export;
pub mod generate;
pub mod input;
pub mod launch;
pub mod matches;
pub mod mem;
pub mod npy;
pub mod options;
pub mod paf;
pub mod plot;
pub mod progress;
pub mod provenance;
pub mod render;
pub mod report;
pub mod runs;
pub mod scores;
pub mod table;

#[cfg(test)]
mod structure;
