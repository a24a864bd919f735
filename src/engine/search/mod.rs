//! Approximate search (`search`, DESIGN §11): every place where each of many patterns occurs
//! in a long text with at most `k` edits, the text split among the ranks.

pub mod chunks;
pub mod lanes;
pub mod long;
#[cfg(test)]
mod oracle;
pub mod scan;
pub mod starts;
