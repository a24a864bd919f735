//! The messages ranks exchange: one fixed tag per kind of message, the kinds as every report
//! counts them, and the encoding of a traceback hop.
//!
//! Tags never carry a diagonal or row number: `MPI_TAG_UB` may be as small as 32767, and a
//! 50,000 x 50,000 matrix has 99,999 diagonals. Each kind has one fixed tag, and MPI's
//! non-overtaking rule (messages between one pair of ranks with one tag arrive in the order
//! they were sent) keeps them in step.
//!
//! Counted kinds, spelled the same in the JSON report, the CSV rows and the trace:
//! - `boundary`: what a neighbour needs during the fill: one cell's value (a `u32`) in the
//!   diagonal engine, a batch's carry bits (`ceil(B / 64)` words) in the bands engine;
//! - `traceback`: a hop of the walk onto another rank: the next cell (two little-endian `u64`)
//!   followed by the subsequence found so far, in reading order;
//! - `control`: the finished LCS delivered to rank 0, and the end-of-walk notice to every
//!   other rank (empty).

use serde::{Deserialize, Serialize};

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

/// Bytes of a hop message before the subsequence: the next cell's coordinates.
pub const HOP_HEADER_BYTES: usize = 16;

/// Encodes a hop to cell `(i, j)`; `found_rev` is the subsequence found so far, last byte
/// first (the order the walk finds it in), and travels in reading order.
pub fn encode_hop(i: usize, j: usize, found_rev: &[u8]) -> Vec<u8> {
    let mut msg = Vec::with_capacity(HOP_HEADER_BYTES + found_rev.len());
    msg.extend_from_slice(&(i as u64).to_le_bytes());
    msg.extend_from_slice(&(j as u64).to_le_bytes());
    msg.extend(found_rev.iter().rev());
    msg
}

/// Decodes a hop: the next cell and the subsequence found so far, last byte first. `None`
/// for a message shorter than its header.
pub fn decode_hop(msg: &[u8]) -> Option<((usize, usize), Vec<u8>)> {
    let word = |at: usize| -> Option<usize> {
        let bytes: [u8; 8] = msg.get(at..at + 8)?.try_into().ok()?;
        usize::try_from(u64::from_le_bytes(bytes)).ok()
    };
    let cell = (word(0)?, word(8)?);
    let found_rev = msg[HOP_HEADER_BYTES..].iter().rev().copied().collect();
    Some((cell, found_rev))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hop_round_trip() {
        let msg = encode_hop(7, 1 << 40, b"tac");
        assert_eq!(msg.len(), HOP_HEADER_BYTES + 3);
        assert_eq!(&msg[HOP_HEADER_BYTES..], b"cat");
        let (cell, found_rev) = decode_hop(&msg).unwrap();
        assert_eq!(cell, (7, 1 << 40));
        assert_eq!(found_rev, b"tac");
        assert_eq!(decode_hop(&msg[..15]), None);
    }

    #[test]
    fn kinds_are_spelled_once() {
        for kind in Kind::ALL {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, kind.name());
        }
    }
}
