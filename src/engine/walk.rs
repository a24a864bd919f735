//! The distributed traceback: the subsequence found so far travels backwards through the ranks
//! that own the cells of the walk.
//!
//! The walk starts at `(m-1, n-1)`. At a cell `(i, j)` its owner prepends `x[i]` and moves to
//! `(i-1, j-1)` on a match; otherwise it moves up when `M[i-1][j] >= M[i][j-1]` and left when
//! not (the store answers that from what it kept). The walk ends when it *leaves* the matrix
//! (`i < 0` or `j < 0`): stopping at row or column 0, as the report's pseudo-code does, would
//! lose a match further along that row or column.
//!
//! When the next cell belongs to another rank, the owner sends that rank one `traceback`
//! message ([`crate::engine::protocol::encode_hop`]): the next cell and the subsequence found so far.
//! The rank where the walk leaves the matrix sends the LCS to rank 0 (a `control` message,
//! unless it is rank 0), and rank 0 tells every other rank that the walk is over (one empty
//! `control` message each). Every rank other than the one holding the start simply serves
//! incoming messages until that notice arrives, so no rank is left waiting. Cost: O(m + n)
//! steps in all, one message per hop, each as long as the subsequence found so far.
//!
//! The protocol does not depend on how a rank walks its own cells: an engine provides a
//! [`Walker`], and [`run`] moves the walk between ranks.

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::engine::fault::{Fault, Phase};
use crate::engine::protocol::{decode_hop, encode_hop, tag, Kind};
use crate::engine::traffic::Traffic;
use crate::engine::waiting::Waiting;

/// Where a rank's part of the walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The walk left the matrix: the subsequence is complete.
    Done,
    /// The walk continues at `(i, j)`, owned by rank `to`.
    Hop { to: usize, i: usize, j: usize },
}

/// How one rank walks its own cells.
pub trait Walker {
    /// Walks from `cell` while the cells are this rank's, pushing each matched byte onto
    /// `found_rev` (which so holds the subsequence found so far, last byte first) and each
    /// visited cell onto `visited` when given.
    fn walk(
        &mut self,
        cell: (usize, usize),
        found_rev: &mut Vec<u8>,
        visited: Option<&mut Vec<(u64, u64)>>,
    ) -> Exit;
}

/// The whole walk over walkers held in one process (one per rank), starting on rank `start`
/// at `cell`: for tests and single-process checks. Returns the LCS and the number of hops.
pub fn walk_all<W: Walker>(
    walkers: &mut [W],
    start: Option<(usize, (usize, usize))>,
) -> (Vec<u8>, usize) {
    let mut found_rev = Vec::new();
    let mut hops = 0;
    if let Some((mut rank, mut cell)) = start {
        while let Exit::Hop { to, i, j } = walkers[rank].walk(cell, &mut found_rev, None) {
            (rank, cell) = (to, (i, j));
            hops += 1;
        }
    }
    found_rev.reverse();
    (found_rev, hops)
}

/// What a rank's share of the traceback produced.
pub struct Outcome {
    /// The LCS, on rank 0 only.
    pub lcs: Option<Vec<u8>>,
    /// Hops this rank made: moves of the walk from one of its cells onto another rank's.
    pub hops: u64,
}

/// Runs this rank's part of the distributed traceback (see the module doc for the protocol).
/// `start` is the rank owning `(m-1, n-1)` and that cell, or `None` for an empty matrix;
/// `fault` is the fault planted for this rank's traceback, if any.
pub fn run<W: Walker>(
    world: &SimpleCommunicator,
    start: Option<(usize, (usize, usize))>,
    walker: &mut W,
    traffic: &mut Traffic,
    fault: Option<Fault>,
    waiting: Waiting,
) -> Outcome {
    let rank = world.rank() as usize;
    let ranks = world.size() as usize;
    debug_assert!(fault.is_none_or(|f| f.phase == Phase::Traceback && f.rank == rank));
    let mut hops = 0;
    // Continue the walk from `cell`, forwarding it when it hops; the LCS when it ends here.
    let mut advance = |cell: (usize, usize), mut found_rev: Vec<u8>, traffic: &mut Traffic| {
        if let Some(f) = fault.filter(|f| cell.0 + cell.1 <= f.step) {
            f.trigger(cell.0 + cell.1);
        }
        let visited = traffic.recording.as_mut().map(|r| &mut r.walk);
        match walker.walk(cell, &mut found_rev, visited) {
            Exit::Hop { to, i, j } => {
                hops += 1;
                let msg = encode_hop(i, j, &found_rev);
                traffic.sent(Kind::Traceback, to, msg.len(), Some((i, j)));
                world
                    .process_at_rank(to as i32)
                    .send_with_tag(&msg[..], tag::HOP);
                None
            }
            Exit::Done => {
                found_rev.reverse();
                Some(found_rev)
            }
        }
    };

    let mut finished = match start {
        Some((owner, cell)) if owner == rank => advance(cell, Vec::new(), traffic),
        None if rank == 0 => Some(Vec::new()),
        _ => None,
    };

    let mut lcs = None;
    loop {
        if let Some(found) = finished.take() {
            if rank == 0 {
                lcs = Some(found);
                for to in 1..ranks {
                    traffic.sent(Kind::Control, to, 0, None);
                    world
                        .process_at_rank(to as i32)
                        .send_with_tag(&[0u8; 0][..], tag::DONE);
                }
                break;
            }
            traffic.sent(Kind::Control, 0, found.len(), None);
            world
                .process_at_rank(0)
                .send_with_tag(&found[..], tag::RESULT);
        }
        let (msg, status) = waiting.receive_any(world);
        match status.tag() {
            tag::HOP => {
                traffic.received(Kind::Traceback, msg.len());
                let (cell, found_rev) = decode_hop(&msg).expect("a hop message has its header");
                finished = advance(cell, found_rev, traffic);
            }
            tag::RESULT => {
                traffic.received(Kind::Control, msg.len());
                finished = Some(msg);
            }
            tag::DONE => {
                traffic.received(Kind::Control, msg.len());
                break;
            }
            other => unreachable!("unexpected message tag {other} in the traceback"),
        }
    }
    Outcome { lcs, hops }
}
