//! The wave engine's algorithm: diagonal transition, whose work follows the difference `s`
//! of two sequences rather than their size, `O((m + n) s)` at worst and about `s^2 / 2`
//! diagonal steps on similar sequences.
//!
//! Instead of the matrix's cells, each score step `t` keeps, per diagonal, the furthest row
//! reached at cost `t` ([`front`]), slid along the matches that follow for free
//! ([`compare`]); the fill stops when the last cell is reached. For the edit distance this is
//! Ukkonen's and Landau–Vishkin's algorithm and WFA's edit mode (Ukkonen 1985,
//! doi:10.1016/S0019-9958(85)80046-2; Landau & Vishkin 1989,
//! doi:10.1016/0196-6774(89)90010-2; Marco-Sola et al. 2021,
//! doi:10.1093/bioinformatics/btaa777); for the LCS it is Myers' O(ND) difference algorithm
//! on the indel distance (Myers 1986, doi:10.1007/BF01840446). A cheap upper bound ([`bound`])
//! keeps every step to the diagonals a path of that cost can use.
//!
//! The traceback ([`walk`]) is the walk every engine takes, each of its questions a look-up in
//! the kept wavefronts, so the path, the CIGAR and the LCS are the other engines', move for
//! move. [`align`] runs it all in one process; the MPI engine splits each step's diagonals
//! among ranks.
//!
//! ```
//! use lcs_core::problem::Problem;
//! use lcs_core::wave::align::align;
//! let a = align(Problem::Edit, b"kitten", b"sitting");
//! assert_eq!(a.cost, 3);
//! ```

pub mod align;
pub mod bound;
pub mod compare;
pub mod front;
#[cfg(target_arch = "x86_64")]
mod gather;
pub mod kept;
pub mod kernel;
pub mod seqs;
pub mod walk;
