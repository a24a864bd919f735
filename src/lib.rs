//! mpi-lcs: the longest common subsequence of two byte sequences, computed over MPI ranks
//! with the diagonal (wavefront) schedule, one point-to-point message per boundary cell, and a
//! traceback that forwards the subsequence found so far backwards through the owning ranks.
//!
//! The library holds all logic; the binary only parses arguments and dispatches. Modules
//! without MPI calls (`input`, `schedule`, `reference`, `store`, `report`, `render`) can be used
//! and tested in one process; `fill`, `traceback` and `engine` are the MPI side.

pub mod bands;
pub mod cli;
pub mod engine;
pub mod error;
pub mod fill;
pub mod generate;
pub mod input;
pub mod mem;
pub mod plot;
pub mod progress;
pub mod reference;
pub mod render;
pub mod report;
pub mod schedule;
pub mod store;
pub mod trace;
pub mod traceback;
