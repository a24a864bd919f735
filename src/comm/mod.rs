//! How ranks talk: the messages and their wire formats, the counting of every message, the
//! recording of a run, how a rank waits, sharing the input and gathering what every rank
//! measured, and the tests' planted faults.

pub mod fault;
pub mod host;
pub mod protocol;
pub mod share;
pub mod stats;
pub mod trace;
pub mod traffic;
pub mod waiting;
