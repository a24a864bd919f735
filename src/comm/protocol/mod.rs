//! The messages ranks exchange: one fixed tag per kind of message ([`tag`]), the kinds as every
//! report counts them ([`Kind`]: `boundary`, `traceback`, `control`), and every message's wire
//! format: a traceback hop ([`hop`]), the search's messages ([`search`]) and the pairs run's
//! ([`pairs`]), built from 64-bit words and bytes ([`words`]), the wave engine's halo ([`wave`]).
//! Every decoder checks lengths and answers `None` for a message that is not what it claims.
//!
//! Tags never carry a diagonal or row number (`MPI_TAG_UB` may be as small as 32767, and a
//! 50,000 x 50,000 matrix has 99,999 diagonals): each kind has one fixed tag, and MPI's
//! non-overtaking rule (messages between one pair of ranks with one tag arrive in the order they
//! were sent) keeps them in step. What each kind holds, in bytes: `docs/report.md#what-is-counted`.

use serde::{Deserialize, Serialize};

pub mod hop;
pub mod pairs;
pub mod search;
pub mod wave;
pub mod words;

pub use hop::{decode_hop, encode_hop, HOP_HEADER_BYTES};

/// Message tags, one per kind of message.
pub mod tag {
    use mpi::Tag;
    /// A boundary value of the diagonal fill.
    pub const BOUNDARY: Tag = 1;
    /// A hop of the traceback: next cell and the subsequence found so far.
    pub const HOP: Tag = 2;
    /// The finished LCS, sent to rank 0.
    pub const RESULT: Tag = 3;
    /// The walk is over.
    pub const DONE: Tag = 4;
    /// A batch of carry bits of the bands engine.
    pub const CARRIES: Tag = 5;
    /// A piece of a search's matches, delivered to rank 0.
    pub const MATCHES: Tag = 6;
    /// The names of the records of a rank's matches: the last message of its delivery.
    pub const NAMES: Tag = 7;
    /// A score step's halo of the wave engine.
    pub const HALO: Tag = 8;
    /// A pairs run's values, delivered to rank 0 (in pieces when large).
    pub const VALUES: Tag = 9;
    /// A search rank that has scanned all it had asks another for part of its text.
    pub const SHARE_ASK: Tag = 10;
    /// The answer: the part of the text given, empty for none.
    pub const SHARE_GIVE: Tag = 11;
}

/// Posts a send of a fill message: standard (`MPI_Isend`), or synchronous (`MPI_Issend`, it
/// completes only once the receive is posted) when the tests' switch asks for it, to prove
/// that the exchange does not rely on MPI's buffering.
pub fn post_send<'a, D, Sc, Buf>(
    dest: &D,
    scope: Sc,
    buf: &'a Buf,
    tag: mpi::Tag,
    synchronous: bool,
) -> mpi::request::Request<'a, Buf, Sc>
where
    D: mpi::point_to_point::Destination,
    Sc: mpi::request::Scope<'a>,
    Buf: 'a + mpi::datatype::Buffer + ?Sized,
{
    if synchronous {
        dest.immediate_synchronous_send_with_tag(scope, buf, tag)
    } else {
        dest.immediate_send_with_tag(scope, buf, tag)
    }
}

/// A kind of counted message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Boundary,
    Traceback,
    Control,
}

impl Kind {
    /// Every kind, in the order of a run.
    pub const ALL: [Kind; 3] = [Kind::Boundary, Kind::Traceback, Kind::Control];

    /// The kind's name in reports and traces.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Boundary => "boundary",
            Kind::Traceback => "traceback",
            Kind::Control => "control",
        }
    }
}

/// Bytes of one boundary message: the value as a `u32`.
pub const VALUE_BYTES: usize = std::mem::size_of::<u32>();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_spelled_once() {
        for kind in Kind::ALL {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, kind.name());
        }
    }
}
