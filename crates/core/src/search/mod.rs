//! Approximate search: every place where each of many patterns occurs in a text with at most
//! `k` edits (Sellers' semi-global DP, computed by Myers' bit-parallel step).

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
