//! Approximate search: every place where each of many patterns occurs in a text with at most
//! `k` edits (Sellers' semi-global DP, computed by Myers' bit-parallel step).

pub mod chunks;
pub mod lanes;
pub mod long;
pub mod oracle;
pub mod starts;
