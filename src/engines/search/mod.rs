//! Approximate search (`search`) over ranks: every place where each of many patterns occurs in a
//! long text with at most `k` edits (the problem and the kernels are [`lcs_core::search`]'s), the
//! text (and, when the text is short for the patterns, the patterns) split among the ranks as
//! [`lcs_core::search::chunks`] plans it.
//!
//! - [`scan`] — one rank's share, without MPI: its units of patterns over its range of the text,
//!   the warm-up first, and every match located;
//! - [`run`] — the MPI run: rank 0 reads the patterns and checks the text, every rank reads its
//!   own byte range of the text (so the text must be on a file system all ranks see), and the
//!   matches are delivered to rank 0 in counted `control` messages.
//!
//! Memory per rank is bounded whatever the text's size: its units' tables, a few blocks of the
//! text (`input::text`), the windows of the starts and the matches it found.
//! `docs/algorithms.md#approximate-search`.

pub mod run;
pub mod scan;
