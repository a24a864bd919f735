//! How ranks talk: [`world`] (the ranks: MPI's, or one process alone without MPI), [`protocol`]
//! (every message and wire format, one tag per kind), [`traffic`] (counting every message),
//! [`trace`] (the recording of a run), [`waiting`] (how a rank waits, with [`host`]: the cores its
//! host's ranks may use), [`share`] (the input's broadcast), [`stats`] (gathering what every rank
//! measured), [`words`] (fixed-size records as 64-bit words, how ranks gather them), [`agree`] (a
//! failure decided over all ranks) and [`fault`] (the tests' planted faults).

pub mod agree;
pub mod fault;
pub mod host;
pub mod protocol;
pub mod share;
pub mod stats;
pub mod trace;
pub mod traffic;
pub mod waiting;
pub mod words;
pub mod world;
