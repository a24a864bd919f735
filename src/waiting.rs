//! How a rank waits for the messages it needs: inside MPI, or by testing and yielding its core
//! between tests when its host runs more ranks than it has cores.
//!
//! MPI's waits poll. A rank that waits for its neighbour keeps its core busy until the message
//! arrives, which is the fastest way to wait when every rank has a core of its own. When ranks
//! share cores, the waiting rank may hold the very core its neighbour needs to compute the
//! message: the neighbour then runs only when the scheduler takes the core away, once per time
//! slice (milliseconds). Open MPI's `mpirun` notices an oversubscribed host and makes its waits
//! yield; MPICH's do not, and a diagonal fill, which waits once per diagonal, then runs hundreds
//! of times slower. So on an oversubscribed host every wait of the fill and the traceback tests
//! its request and yields the core between two tests, and the few collectives of a run are
//! entered through a yielding barrier ([`Waiting::gate`]).

use mpi::point_to_point::Status;
use mpi::request::{Request, Scope};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// How a rank waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// In MPI's own wait (every rank has a core).
    Spin,
    /// Testing, and yielding the core between tests (ranks share cores).
    Yield,
}

impl Waiting {
    /// `Yield` when this rank's host runs more of the world's ranks than it has cores online,
    /// else `Spin`; `forced` overrides. Collective: every rank must call it.
    pub fn for_world(world: &SimpleCommunicator, forced: Option<Waiting>) -> Waiting {
        let here = world.split_shared(0).size() as usize;
        let cores = crate::provenance::online_cores();
        let chosen = if here > cores {
            Waiting::Yield
        } else {
            Waiting::Spin
        };
        log::debug!("{here} ranks on {cores} cores here: waiting by {chosen:?}");
        forced.unwrap_or(chosen)
    }

    /// Waits for `request` to complete.
    pub fn wait<'a, D: ?Sized, S: Scope<'a>>(self, request: Request<'a, D, S>) -> Status {
        match self {
            Waiting::Spin => request.wait(),
            Waiting::Yield => {
                let mut request = request;
                loop {
                    match request.test() {
                        Ok(status) => return status,
                        Err(pending) => request = pending,
                    }
                    std::thread::yield_now();
                }
            }
        }
    }

    /// Waits until every rank of `world` has got here, yielding the core meanwhile, before a
    /// collective: the collective then finds every rank present and waits inside MPI only
    /// briefly. Nothing when every rank has a core. Collective.
    pub fn gate(self, world: &SimpleCommunicator) {
        if self == Waiting::Yield {
            self.wait(world.immediate_barrier());
        }
    }

    /// Receives the next message from any rank, with any tag.
    pub fn receive_any(self, world: &SimpleCommunicator) -> (Vec<u8>, Status) {
        match self {
            Waiting::Spin => world.any_process().receive_vec::<u8>(),
            Waiting::Yield => loop {
                if let Some(probed) = world.any_process().immediate_matched_probe() {
                    return probed.matched_receive_vec::<u8>();
                }
                std::thread::yield_now();
            },
        }
    }
}
