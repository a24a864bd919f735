//! The ranks a run spans: an MPI communicator, or one process started without a launcher, which
//! runs the same engines without starting MPI at all (MPI's start-up alone, a singleton's, takes
//! longer than a small input's whole run). A process alone is rank 0 of 1: it has no peer to send
//! to, and every collective of [`super::waiting::Waiting`] is the identity on it.

use mpi::topology::{AnyProcess, Process, SimpleCommunicator};
use mpi::traits::*;

/// The ranks of a run.
#[derive(Clone, Copy)]
pub enum World<'a> {
    /// Every rank the launcher started, through MPI.
    Mpi(&'a SimpleCommunicator),
    /// One process, without MPI.
    Alone,
}

impl<'a> World<'a> {
    /// This process's rank.
    pub fn rank(&self) -> i32 {
        match self {
            World::Mpi(world) => world.rank(),
            World::Alone => 0,
        }
    }

    /// How many ranks the run has.
    pub fn size(&self) -> i32 {
        match self {
            World::Mpi(world) => world.size(),
            World::Alone => 1,
        }
    }

    /// The communicator, when the run has MPI.
    pub fn mpi(&self) -> Option<&'a SimpleCommunicator> {
        match self {
            World::Mpi(world) => Some(world),
            World::Alone => None,
        }
    }

    /// Rank `r`, to send to or receive from. Only a run of several ranks has a peer: the engines
    /// send nothing on one rank.
    pub fn process_at_rank(&self, r: i32) -> Process<'a> {
        self.peers().process_at_rank(r)
    }

    /// Any rank, to receive from.
    pub fn any_process(&self) -> AnyProcess<'a> {
        self.peers().any_process()
    }

    /// How many of the run's ranks share this one's host (one, for a process alone).
    /// Collective.
    pub fn ranks_on_host(&self) -> usize {
        match self {
            World::Mpi(world) => world.split_shared(0).size() as usize,
            World::Alone => 1,
        }
    }

    fn peers(&self) -> &'a SimpleCommunicator {
        match self {
            World::Mpi(world) => world,
            World::Alone => unreachable!("a process alone has no peer to message"),
        }
    }
}
