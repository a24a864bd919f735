//! The distributed traceback: the path found so far travels backwards through the ranks that own
//! the cells of the walk. At each cell its owner takes one step by the problem's rule
//! ([`lcs_core::problem`]); when the next cell belongs to another rank it sends that rank one
//! `traceback` message ([`crate::comm::protocol::encode_hop`]: the next cell and the path so far).
//! The rank where the walk leaves the matrix sends the path to rank 0 (a `control` message, unless
//! it is rank 0), and rank 0 sends every other rank an empty end-of-walk notice; until then every
//! rank serves incoming messages, so none is left waiting in a receive. Every wait goes as
//! [`Waiting`](crate::comm::waiting::Waiting) says. An engine provides a [`Walker`] for its own
//! cells; [`run`] moves the walk between ranks.
//!
//! Messages are probed for the traceback's own tags only (a rank already on its next pair may be
//! sending that fill's messages), then received into a buffer of their size.
//!
//! Cost: O(m + n) steps in all, one message per hop, each a quarter of a byte per step walked so
//! far. `docs/algorithms.md#the-distributed-traceback`.

use crate::comm::world::World;
use mpi::traits::*;

use crate::comm::fault::{Fault, Phase};
use crate::comm::protocol::{decode_hop, encode_hop, tag, Kind};
use crate::comm::traffic::Traffic;
use crate::engines::config::Switches;
use lcs_core::problem::Path;

/// Where a rank's part of the walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The walk left the matrix: the path is complete.
    Done,
    /// The walk continues at `(i, j)`, owned by rank `to`.
    Hop { to: usize, i: usize, j: usize },
}

/// How one rank walks its own cells.
pub trait Walker {
    /// Walks from `cell` while the cells are this rank's, pushing each move onto `path` (the
    /// path found so far) and each visited cell onto `visited` when given. When the walk
    /// leaves the matrix the walker completes the path along the border ([`Path::leave`]).
    fn walk(
        &mut self,
        cell: (usize, usize),
        path: &mut Path,
        visited: Option<&mut Vec<(u64, u64)>>,
    ) -> Exit;
}

/// The whole walk over walkers held in one process (one per rank), starting on rank `start`
/// at `cell`: for tests and single-process checks. Returns the path and the number of hops.
pub fn walk_all<W: Walker>(
    walkers: &mut [W],
    start: Option<(usize, (usize, usize))>,
) -> (Path, usize) {
    let mut path = Path::new();
    let mut hops = 0;
    if let Some((mut rank, mut cell)) = start {
        while let Exit::Hop { to, i, j } = walkers[rank].walk(cell, &mut path, None) {
            (rank, cell) = (to, (i, j));
            hops += 1;
        }
    }
    (path, hops)
}

/// What a rank's share of the traceback produced.
pub struct Outcome {
    /// The whole path, on rank 0 only.
    pub path: Option<Path>,
    /// Hops this rank made: moves of the walk from one of its cells onto another rank's.
    pub hops: u64,
}

/// Where the walk starts: the rank owning `(m-1, n-1)` and that cell, or, for a matrix with no
/// rows, the number of columns (the whole path then runs along the border, on rank 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    At { rank: usize, cell: (usize, usize) },
    NoRows { cols: usize },
}

/// Runs this rank's part of the distributed traceback from `start` (see the module doc for
/// the protocol), with the fault `switches` plant in this rank's traceback, if any, and
/// waiting as they say.
pub fn run<W: Walker>(
    world: &World,
    start: Start,
    walker: &mut W,
    traffic: &mut Traffic,
    switches: Switches,
) -> Outcome {
    let rank = world.rank() as usize;
    let ranks = world.size() as usize;
    let fault = Fault::for_rank(switches.fault, Phase::Traceback, rank);
    let waiting = switches.waiting();
    let send = |to: usize, msg: &[u8], tag: mpi::Tag| {
        mpi::request::scope(|scope| {
            let dest = world.process_at_rank(to as i32);
            waiting.wait(dest.immediate_send_with_tag(scope, msg, tag));
        });
    };
    let mut hops = 0;
    // Continue the walk from `cell`, forwarding it when it hops; the path when it ends here.
    let mut advance = |cell: (usize, usize), mut path: Path, traffic: &mut Traffic| {
        if let Some(f) = fault.filter(|f| cell.0 + cell.1 <= f.step) {
            f.trigger(cell.0 + cell.1);
        }
        let visited = traffic.recording.as_mut().map(|r| &mut r.walk);
        match walker.walk(cell, &mut path, visited) {
            Exit::Hop { to, i, j } => {
                hops += 1;
                let msg = encode_hop(i, j, &path);
                traffic.sent(Kind::Traceback, to, msg.len(), Some((i, j)));
                send(to, &msg, tag::HOP);
                None
            }
            Exit::Done => Some(path),
        }
    };

    let mut finished = match start {
        Start::At { rank: owner, cell } if owner == rank => advance(cell, Path::new(), traffic),
        Start::NoRows { cols } if rank == 0 => Some(Path::of_no_rows(cols)),
        _ => None,
    };

    let mut result = None;
    loop {
        if let Some(path) = finished.take() {
            if rank == 0 {
                result = Some(path);
                for to in 1..ranks {
                    traffic.sent(Kind::Control, to, 0, None);
                    send(to, &[], tag::DONE);
                }
                break;
            }
            let mut msg = Vec::with_capacity(path.encoded_len());
            path.encode(&mut msg);
            traffic.sent(Kind::Control, 0, msg.len(), None);
            send(0, &msg, tag::RESULT);
        }
        let (msg, status) = waiting.receive_any_of(world, &[tag::HOP, tag::RESULT, tag::DONE]);
        match status.tag() {
            tag::HOP => {
                traffic.received(Kind::Traceback, msg.len());
                let (cell, path) = decode_hop(&msg).expect("a hop message is a cell and a path");
                finished = advance(cell, path, traffic);
            }
            tag::RESULT => {
                traffic.received(Kind::Control, msg.len());
                finished = Some(Path::decode(&msg).expect("a result message is a path"));
            }
            tag::DONE => {
                traffic.received(Kind::Control, msg.len());
                break;
            }
            other => unreachable!("unexpected message tag {other} in the traceback"),
        }
    }
    Outcome { path: result, hops }
}
