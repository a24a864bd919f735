//! Approximate search: every place where each of many patterns occurs in a text with at most `k`
//! edits. Sellers' semi-global DP (Sellers 1980, doi:10.1016/0196-6774(80)90016-4): `D[0][j] = 0`,
//! so a match may start anywhere, `D[i][0] = i` and the unit-cost edit recurrence; an end `e` with
//! `D[m][e] <= k` is a match, and its start is where the edit distance's walk from `(m, e)` reaches
//! row 0. Computed by Myers' bit-vector step (Myers 1999, doi:10.1145/316542.316550).
//!
//! - [`lanes`] — patterns of up to 64 bytes, many side by side in the lanes of one vector;
//! - [`long`] — longer patterns in blocks of words, with Ukkonen's cut-off;
//! - [`starts`] — where a match starts, from a window of columns recomputed for it;
//! - [`chunks`] — how ranks share the work: units of patterns, the grid, the text's parts and the
//!   warm-up that finds every match exactly once;
//! - [`oracle`] — the plain O(mn) DP every kernel is checked against.
//!
//! The arguments: `docs/algorithms.md#approximate-search`.
//!
//! ```
//! use lcs_core::search::lanes::{scan, Group, Simd};
//! use lcs_core::search::{oracle, starts};
//!
//! let (pattern, text, k) = (&b"GATTACA"[..], &b"TTGATTCATTGATTACAG"[..], 1);
//! let mut group = Group::<u8, 32>::new(&[(0, pattern)], k);
//! let mut hits = Vec::new();
//! scan(Simd::detect(), [&mut group], text, 0, 0, &mut hits);
//! let begins = starts::locate(pattern, k, text, 0, &hits);
//! let found: Vec<(usize, usize, usize)> = (hits.iter().zip(begins))
//!     .map(|(hit, start)| (start as usize, hit.end as usize, hit.distance))
//!     .collect();
//! assert_eq!(found, oracle::matches(pattern, text, k));
//! assert!(found.contains(&(10, 17, 0)));
//! ```

pub mod chunks;
pub mod lanes;
pub mod long;
pub mod oracle;
pub mod starts;

/// A match: pattern (its number), record (counted from 0), start and end (exclusive) in the
/// record, distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Match {
    pub pattern: usize,
    pub record: u64,
    pub start: u64,
    pub end: u64,
    pub distance: usize,
}
