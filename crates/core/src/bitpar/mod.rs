//! The bit-parallel row steps over a run of whole 64-bit words, and the match masks they read:
//! shared by the sequential reference (one run spanning every column) and the bands engine (one
//! run per band, the runs of a row chained by what crosses a word edge).
//!
//! Rows are the bytes of `x`; column `j` (a byte of `y`) is bit `j % 64` of word `j / 64`. Row `i`
//! is computed from row `i - 1` and the match mask of `x[i]` ([`Masks`]) with word-wide
//! operations; information flows only towards higher columns, and between two words only through
//! a small carry, which is all that crosses a band edge. Padding columns (`>= n`) match nothing
//! and never affect a real column.
//!
//! One step family serves both problems ([`Row`], in [`row`]): a problem says how one word of
//! its row steps, and the family steps runs of words with it.
//!
//! - [`lcs`] — the LCS row ([`Lcs`]): one bit per column, a one-bit carry (0 at column 0);
//! - [`edit`] — the edit-distance row ([`Edit`]): two bits per column, the carry a vertical
//!   delta in {-1, 0, +1} ([`edit::Delta`], +1 at column 0).
//!
//! Both come as one row (`step`), the same writing the walk's bits (`step_traced`), and four rows
//! per call (`step4`, `step4_traced`; [`FUSED_ROWS`]) whose carry chains overlap, on the
//! [`Kernel`] chosen at run time: portable, or on x86-64 the four rows as the lanes of one AVX2 or
//! AVX-512 vector in a wavefront; and both as steps that also report the carries out of chosen
//! words of the run as they go (`step_seams`, `step4_seams`; [`seams`]). Both give the length or
//! distance alone in `O(n / 64)` memory ([`lcs_length`], [`edit::distance`]). The derivations:
//! `docs/algorithms.md#the-bit-parallel-lcs-step` and the two sections after it.
//!
//! ```
//! use lcs_core::bitpar::{edit, lcs_length};
//!
//! assert_eq!(lcs_length(b"AGGTAB", b"GXTXAYB"), 4);
//! assert_eq!(edit::distance(b"kitten", b"sitting"), 3);
//! ```

pub mod carry;
pub mod edit;
#[cfg(target_arch = "x86_64")]
mod four_rows;
pub mod kernel;
pub mod lcs;
pub mod masks;
pub mod row;
pub mod seams;

pub use crate::recurrence::{Edit, Lcs};
pub use carry::Carried;
pub use kernel::{vector_min_words, Kernel, FUSED_ROWS};
pub use lcs::lcs_length;
pub use masks::{distinct_bytes, Masks, WORD_BITS, WORD_BYTES};
pub use row::{Planes, Row};
pub use seams::{Carries4, SeamWords};
