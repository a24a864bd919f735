//! lcs-core: the sequential algorithms of mpi-lcs, with no MPI.
//!
//! Three problems on two byte sequences: the longest common subsequence, the edit
//! (Levenshtein) distance with an optimal alignment, and approximate search of many patterns
//! in a text.

pub mod alignment;
pub mod bitpar;
pub mod diagonal_band;
pub mod exhaustive;
pub mod pairs;
pub mod problem;
pub mod random;
pub mod recurrence;
pub mod reference;
pub mod search;
pub mod split;
