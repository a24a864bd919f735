//! The bit-parallel row steps over a run of whole 64-bit words, and the match masks they read:
//! shared by the sequential reference (one run spanning every column) and the bands engine (one
//! run per band, the runs of a row chained by what crosses a word edge).
//!
//! Rows are the bytes of `x`, processed in order; columns are the bytes of `y`, column `j` bit
//! `j % 64` of word `j / 64`. A row is a few bit vectors over the columns and row `i` is computed
//! from row `i - 1` and the match mask of `x[i]` (bit `j` set iff `y[j] == x[i]`, [`Masks`])
//! with word-wide operations; within a row, information flows only towards higher columns, and
//! between two words only through a small carry. A run of whole words (a band) therefore needs
//! from the words to its left one carry per row and gives one to the words to its right: that
//! carry is all that crosses a band edge.
//!
//! - [`lcs`] — the LCS row (`M[i][j]`, LCS length of `x[..=i]` and `y[..=j]`): one bit per
//!   column, the carry one bit (the addition's carry, 0 at column 0). Its functions are
//!   re-exported here: [`step`], [`step_traced`], [`step4`], [`step4_traced`], [`lcs_length`].
//! - [`edit`] — the edit-distance row (`D(i, j)`, Levenshtein distance of `x[..=i]` and
//!   `y[..=j]`; Myers 1999 in Hyyrö's block form): two bits per column (the +1 and -1
//!   horizontal deltas), the carry a vertical delta in {-1, 0, +1}, two bits, +1 at column 0
//!   ([`edit::Delta`]).
//!
//! Both come in the same four variants: one row (`step`), the same writing the bits the
//! traceback asks (`step_traced`), and four consecutive rows per call (`step4`,
//! `step4_traced`; [`FUSED_ROWS`]), stepped together over the words so that their carry chains
//! overlap; and both give the length or distance alone in `O(n / 64)` memory ([`lcs_length`],
//! [`edit::distance`]). The four-row steps have several kernels ([`Kernel`]): portable code,
//! and on x86-64, chosen at run time, the four rows as the lanes of one AVX2 or AVX-512 vector
//! in a wavefront (`four_rows`), two to four times faster.
//!
//! Padding bits (columns `>= n` in the last word) have match bit 0: they behave as columns of a
//! `y` extended with bytes that match nothing, and never affect a real column.

pub mod edit;
#[cfg(target_arch = "x86_64")]
mod four_rows;
pub mod kernel;
pub mod lcs;
pub mod masks;

pub use kernel::{vector_min_words, Kernel, FUSED_ROWS};
pub use lcs::{lcs_length, step, step4, step4_traced, step4_traced_with, step4_with, step_traced};
pub use masks::{distinct_bytes, Masks, WORD_BITS, WORD_BYTES};
