//! mpi-lcs: the longest common subsequence, the edit distance with its alignment, and
//! approximate search, computed over MPI ranks with every message, byte and second counted.
//!
//! The algorithms themselves live in the `lcs_core` crate, which has no MPI; this crate runs
//! them over ranks and writes what they find. The binary only calls [`commands::main`]. The
//! layers, each using only itself and those below it (checked on the source by the
//! `structure` tests):
//!
//! 1. the command line: [`cli`] (what is accepted), [`options`] (validated, with the
//!    environment: with [`launch`], the only modules that read it), [`commands`] (what each
//!    subcommand does);
//! 2. what comes out: [`report`] (one model for JSON, CSV rows and the summary), [`paf`],
//!    [`matches`] (a search's TSV, report and rows), [`scores`] (a pairs run's TSV, report and
//!    rows) and [`npy`] (its matrix), [`export`] (files written atomically),
//!    [`render`] (the classroom's pictures and page), [`plot`], [`runs`] and [`table`] (result
//!    sets), [`generate`] (random inputs);
//! 3. the engines over ranks: [`engines`] (diagonal, bands, search, pairs, side by side);
//! 4. how ranks talk: [`comm`] (the messages, their counting and recording, waiting, sharing
//!    and gathering);
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
