//! Approximate search (`search`) over ranks: every place where
//! each of many patterns occurs in a long text with at most `k` edits, the text (and, when
//! the text is short for the patterns, the patterns) split among the ranks.
//!
//! # The problem
//!
//! Sellers' semi-global DP: for a pattern `p` of `m` bytes and a text `t`, `D[i][j]` is the
//! least edit distance between `p[..i]` and any substring of `t` ending at `j`: `D[0][j] = 0`
//! (a match may start anywhere), `D[i][0] = i`, and the unit-cost edit recurrence.
//! Every end `e` (exclusive, `1 <= e <= n`) with `D[m][e] <= k` is a match, with distance
//! `D[m][e]`; its start is where the edit distance's walk from `(m, e)` reaches row 0. A FASTA
//! text's records are searched apart: no match spans two records.
//!
//! # The parts
//!
//! - [`lanes`] — the kernel for patterns of up to 64 bytes: Myers' step with the pattern as
//!   the bit dimension and the text scanned a byte per step, many patterns side by side in the
//!   lanes of one 256-bit vector (AVX-512, AVX2 or plain arrays, chosen at run time), and why
//!   it is not `bitpar::edit::step`;
//! - [`long`] — longer patterns in blocks of words, stepped by `bitpar::edit::step` itself, with
//!   Ukkonen's cut-off;
//! - [`chunks`] — pure arithmetic: patterns packed into units, the grid of text parts by
//!   pattern parts, the text's parts and the warm-up before each (`m + k - 1` bytes) that
//!   makes every match found exactly once by the part that holds its last byte;
//! - [`starts`] — where a match starts: the walk over a window of `m + k` columns recomputed
//!   for it (the scan keeps only the current column);
//! - [`scan`] — one rank's share, without MPI: its units over its text range, the warm-up first;
//! - [`run`] — the MPI run: rank 0 reads the patterns and checks the text, every rank reads its
//!   own byte range of the text (so the text must be on a file system all ranks see), and the
//!   matches are delivered to rank 0 in counted `control` messages.
//!
//! Reading the text: each rank reads its range in blocks of a megabyte (`input::text`), so
//! memory is bounded whatever the text's size: a rank holds its units' tables, a few blocks,
//! the windows of the starts, and the matches it found.

pub mod run;
pub mod scan;
