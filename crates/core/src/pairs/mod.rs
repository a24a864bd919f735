//! Many pairs at once: the edit distance (Levenshtein, unit costs) or the LCS length of every
//! pair of two sets of sequences, or of every two sequences of one set, for a run over ranks
//! to share.
//!
//! Pairs are independent, so the work is in how many a core computes per step and how evenly
//! the ranks share them:
//!
//! - [`lanes`] — many short pairs in the lanes of one vector: up to 32 sequences side by side,
//!   each against the same target scanned a byte per step (the search's lanes kernel with the
//!   global boundary), sequences longer than a lane in lanes of several words with the carry
//!   between words; AVX-512, AVX2 or plain arrays, chosen at run time ([`vector`]);
//! - [`banded`] — with a most number of edits `k`: Hyyrö's band of `2k + 1` diagonals in a lane,
//!   and an early exit once every lane is past `k`;
//! - [`rows`] — a pair too long for the lanes: the bit-parallel rows of
//!   [`crate::bitpar`], banded when there is a bound;
//! - [`plan`] — which kernel computes which pairs, in which order, at which estimated cost, and
//!   the ranks' shares of that order;
//! - [`work`] — one share run without MPI, every value handed on in the plan's order;
//! - [`oracle`] — the plain O(m n) DPs the kernels are tested against.
//!
//! The values are rapidfuzz's: `Levenshtein.distance` and `LCSseq.similarity`. With a bound a
//! value that does not pass it is the bound's default: `k + 1` for the edit distance (as
//! rapidfuzz's `score_cutoff` gives), 0 for an LCS shorter than the least length.

pub mod banded;
pub mod lanes;
pub mod oracle;
pub mod plan;
pub mod rows;
pub mod vector;
pub mod work;
