//! The distributed traceback: the subsequence found so far travels backwards through the ranks
//! that own the cells of the walk.
//!
//! The walk starts at `(m-1, n-1)`, which rank 0 owns. At a cell `(i, j)` its owner prepends
//! `x[i]` and moves to `(i-1, j-1)` on a match; otherwise it moves up when
//! `M[i-1][j] >= M[i][j-1]` and left when not (the store answers that from what it kept). The
//! walk ends when it *leaves* the matrix (`i < 0` or `j < 0`): stopping at row or column 0, as
//! the report's pseudo-code does, would lose a match further along that row or column.
//!
//! When the next cell belongs to another rank, the owner sends that rank one `traceback`
//! message: the next cell's coordinates (two little-endian u64) followed by the subsequence
//! found so far. The rank where the walk leaves the matrix sends the LCS to rank 0 (a `control`
//! message, unless it is rank 0), and rank 0 tells every other rank that the walk is over (one
//! empty `control` message each). Every rank other than 0 simply serves incoming messages until
//! that notice arrives, so no rank is left waiting. Cost: O(m + n) steps in all, one message per
//! hop, each as long as the subsequence found so far.

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::engine::{tag, Fault, Phase};
use crate::report::{Kind, Traffic};
use crate::schedule::Schedule;
use crate::store::{Seqs, Store};

/// Where a rank's part of the walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The walk left the matrix: the subsequence is complete.
    Done,
    /// The walk continues at `(i, j)`, owned by rank `to`.
    Hop { to: usize, i: usize, j: usize },
}

/// Walks from `(i, j)` while the cells belong to `rank`, appending each matched byte to
/// `found_rev` (so it holds the subsequence found so far, last byte first).
pub fn walk_local<S: Store>(
    schedule: &Schedule,
    seqs: &Seqs<'_>,
    store: &S,
    rank: usize,
    (mut i, mut j): (usize, usize),
    found_rev: &mut Vec<u8>,
) -> Exit {
    loop {
        debug_assert_eq!(schedule.cell_proc(i, j), rank);
        let next = if seqs.x[i] == seqs.y[j] {
            found_rev.push(seqs.x[i]);
            (i.checked_sub(1), j.checked_sub(1))
        } else if store.goes_up(i, j) {
            (i.checked_sub(1), Some(j))
        } else {
            (Some(i), j.checked_sub(1))
        };
        let (Some(ni), Some(nj)) = next else {
            return Exit::Done;
        };
        let owner = schedule.cell_proc(ni, nj);
        if owner != rank {
            return Exit::Hop {
                to: owner,
                i: ni,
                j: nj,
            };
        }
        (i, j) = (ni, nj);
    }
}

/// The whole walk over stores held in one process (one per rank): for tests and the
/// single-process paths. Returns the LCS.
pub fn walk_all<S: Store>(schedule: &Schedule, seqs: &Seqs<'_>, stores: &[S]) -> Vec<u8> {
    let mut found_rev = Vec::new();
    if schedule.cells() > 0 {
        let (mut rank, mut cell) = (0, (schedule.rows() - 1, schedule.cols() - 1));
        while let Exit::Hop { to, i, j } =
            walk_local(schedule, seqs, &stores[rank], rank, cell, &mut found_rev)
        {
            (rank, cell) = (to, (i, j));
        }
    }
    found_rev.reverse();
    found_rev
}

/// What a rank's share of the traceback produced.
pub struct Outcome {
    /// The LCS, on rank 0 only.
    pub lcs: Option<Vec<u8>>,
    /// Hops this rank made: moves of the walk from one of its cells onto another rank's.
    pub hops: u64,
}

fn encode(i: usize, j: usize, found_rev: &[u8]) -> Vec<u8> {
    let mut msg = Vec::with_capacity(16 + found_rev.len());
    msg.extend_from_slice(&(i as u64).to_le_bytes());
    msg.extend_from_slice(&(j as u64).to_le_bytes());
    msg.extend(found_rev.iter().rev());
    msg
}

fn decode(msg: &[u8]) -> ((usize, usize), Vec<u8>) {
    let word = |at: usize| u64::from_le_bytes(msg[at..at + 8].try_into().unwrap()) as usize;
    let mut found_rev = msg[16..].to_vec();
    found_rev.reverse();
    ((word(0), word(8)), found_rev)
}

/// Runs this rank's part of the distributed traceback (see the module doc for the protocol).
pub fn run<S: Store>(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    seqs: &Seqs<'_>,
    store: &S,
    traffic: &mut Traffic,
) -> Outcome {
    let rank = world.rank() as usize;
    let ranks = world.size() as usize;
    let mut hops = 0;
    let fault = Fault::from_env(Phase::Traceback, rank);
    // Continue the walk from `cell`, forwarding it when it hops; the LCS when it ends here.
    let mut advance = |cell: (usize, usize), mut found_rev: Vec<u8>, traffic: &mut Traffic| {
        if let Some(f) = fault.filter(|f| cell.0 + cell.1 <= f.diagonal) {
            f.trigger(rank, f.diagonal);
        }
        match walk_local(schedule, seqs, store, rank, cell, &mut found_rev) {
            Exit::Hop { to, i, j } => {
                hops += 1;
                let msg = encode(i, j, &found_rev);
                traffic.sent(Kind::Traceback, to, msg.len(), Some((i, j)));
                world
                    .process_at_rank(to as i32)
                    .send_with_tag(&msg[..], tag::TRACE);
                None
            }
            Exit::Done => {
                found_rev.reverse();
                Some(found_rev)
            }
        }
    };

    let mut finished = if rank == 0 && schedule.cells() > 0 {
        let start = (schedule.rows() - 1, schedule.cols() - 1);
        advance(start, Vec::new(), traffic)
    } else if rank == 0 {
        Some(Vec::new())
    } else {
        None
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
        let (msg, status) = world.any_process().receive_vec::<u8>();
        match status.tag() {
            tag::TRACE => {
                traffic.received(Kind::Traceback, msg.len());
                let (cell, found_rev) = decode(&msg);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_round_trip() {
        let msg = encode(7, 1 << 40, b"tac");
        assert_eq!(&msg[16..], b"cat");
        let (cell, found_rev) = decode(&msg);
        assert_eq!(cell, (7, 1 << 40));
        assert_eq!(found_rev, b"tac");
    }
}
