//! lcs-core: the sequential algorithms of mpi-lcs, with no MPI dependency. Three problems on byte
//! sequences, each with the bit-parallel kernels that make it fast and a plain DP that checks them:
//!
//! - the **longest common subsequence** of two sequences: the string itself, not only its length;
//! - the **edit (Levenshtein) distance** of two sequences with an optimal alignment, as a CIGAR;
//! - **approximate search**: every place where each of many patterns occurs in a text with at most
//!   `k` edits.
//!
//! The modules (each opens with its recurrence and cost; the derivations are in
//! `docs/algorithms.md`):
//!
//! - [`problem`] — the two pair problems, the walk's rule and the path it takes;
//! - [`recurrence`] — each problem's cell recurrence, as the diagonal engine's stores compute it;
//! - [`bitpar`] — the bit-parallel row steps (LCS and edit distance) and their kernels;
//! - [`diagonal_band`] — Ukkonen's diagonal band with doubling;
//! - [`bands`] — the bands engine's fill by columns, its stores and checkpoints, the walk, and
//!   its run in one process;
//! - [`cost`] — what the bands and wave engines should take: `auto`'s choice and cut-off;
//! - [`reference`](mod@reference) — the sequential oracle: either problem's path, bit-parallel;
//! - [`alignment`] — a path as a CIGAR, a PAF line and the three-line view;
//! - [`search`] — the search's kernels, how ranks share it, where a match starts, its oracle;
//! - [`split`] — the balanced contiguous split of the engines;
//! - [`traffic`], [`holding`] — the boundary messages a plan predicts, and the working memory
//!   a rank will hold, part by part;
//! - [`random`], [`exhaustive`] — seeded random sequences, and the tests' exhaustive cases.
//!
//! ```
//! use lcs_core::alignment::Alignment;
//! use lcs_core::problem::Problem;
//! use lcs_core::reference;
//!
//! // The rows are the shorter sequence.
//! let lcs = reference::lcs(b"AGGTAB", b"GXTXAYB");
//! assert_eq!(lcs.lcs, b"GTAB");
//!
//! let path = reference::align(Problem::Edit, b"kitten", b"sitting");
//! assert_eq!(Alignment::of_path(&path, false).cigar(), "1X3=1X1=1D");
//! ```

pub mod alignment;
pub mod bands;
pub mod bitpar;
pub mod cost;
pub mod diagonal_band;
pub mod exhaustive;
pub mod holding;
pub mod pairs;
pub mod problem;
pub mod random;
pub mod recurrence;
pub mod reference;
pub mod search;
pub mod split;
pub mod traffic;
pub mod wave;
