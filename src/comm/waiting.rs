//! How a rank waits for the messages it needs: inside MPI, or by testing and yielding its core
//! between tests when its host runs more ranks than the cores they may use ([`super::host`]: their
//! affinity masks and CPU quota, not the CPUs online).
//!
//! MPI's waits poll, the fastest way to wait when every rank has a core of its own. When ranks
//! share cores, a waiting rank may hold the very core its neighbour needs to compute the message,
//! which then runs once per scheduler time slice; Open MPI's `mpirun` makes its waits yield on an
//! oversubscribed host, MPICH's do not. So there every wait of the fill and the traceback tests its
//! request and yields between tests, and the run's collectives are started non-blocking and waited
//! for the same way. A wait that may last as long as a person or a pipe takes (rank 0 reading
//! standard input) sleeps between its tests instead, a little longer each time up to [`MAX_SLEEP`],
//! after a first couple of milliseconds of yielding, in which a file's read ends
//! ([`Waiting::Sleep`]): it costs no core. What it buys:
//! `docs/mpi-families.md#what-oversubscription-costs`.

use std::time::{Duration, Instant};

use mpi::collective::Operation;
use mpi::datatype::PartitionMut;
use mpi::point_to_point::Status;
use mpi::request::{Request, Scope};
use mpi::traits::*;
use mpi::Count;

use super::world::World;

/// How a rank waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// In MPI's own wait (every rank has a core).
    Spin,
    /// Testing, and yielding the core between tests (ranks share cores).
    Yield,
    /// Testing, and yielding between tests for [`YIELD_FIRST`], then sleeping, from
    /// [`MIN_SLEEP`] up to [`MAX_SLEEP`], each sleep a quarter longer than the one before (a
    /// wait that may be long: never chosen for a host, asked for by the wait).
    Sleep,
    /// Testing, and sleeping between tests, from [`MIN_SLEEP`] up to [`MAX_DOZE`], growing as
    /// [`Waiting::Sleep`]'s: a wait known to last while another rank computes a long stretch
    /// of work (the bands engine's waits on a diagonal band, whose ranks take the rows in
    /// turn), which should leave the core to the ranks that work and still end within a
    /// millisecond.
    Doze,
}

/// How long [`Waiting::Sleep`] yields between its tests before it starts to sleep: rank 0's
/// read of a file ends within that, and a sleep would outlast it, holding up the broadcast
/// that follows (`docs/performance.md`, "Where the milliseconds go").
pub const YIELD_FIRST: Duration = Duration::from_millis(2);
/// The first sleep of [`Waiting::Sleep`].
pub const MIN_SLEEP: Duration = Duration::from_micros(50);
/// The longest sleep of [`Waiting::Sleep`]: the most it adds to a wait.
pub const MAX_SLEEP: Duration = Duration::from_millis(10);
/// The longest sleep of [`Waiting::Doze`].
pub const MAX_DOZE: Duration = Duration::from_millis(1);

/// What a rank does between two tests of what it waits for.
struct Pause {
    waiting: Waiting,
    sleep: Duration,
    began: Instant,
}

impl Pause {
    fn new(waiting: Waiting) -> Pause {
        Pause {
            waiting,
            sleep: MIN_SLEEP,
            began: Instant::now(),
        }
    }

    fn pause(&mut self) {
        match self.waiting {
            Waiting::Sleep if self.began.elapsed() < YIELD_FIRST => std::thread::yield_now(),
            Waiting::Sleep | Waiting::Doze => {
                std::thread::sleep(self.sleep);
                let most = match self.waiting {
                    Waiting::Doze => MAX_DOZE,
                    _ => MAX_SLEEP,
                };
                // A quarter longer each time, not twice: the last sleep may outlast what it
                // waits for by as much as it lasts, so a wait ends at most about a quarter
                // later than its cause (doubling could oversleep by as long again as the
                // wait had lasted, e.g. while rank 0 reads the input), for a few more
                // wake-ups.
                self.sleep = (self.sleep * 5 / 4).min(most);
            }
            Waiting::Spin | Waiting::Yield => std::thread::yield_now(),
        }
    }
}

impl Waiting {
    /// How to wait, when this is the host's way, for a wait that lasts while another rank
    /// computes a long stretch of work: ranks that share cores doze ([`Waiting::Doze`]), to
    /// leave the core to the rank that works; a rank with a core of its own keeps spinning,
    /// which wakes at once (faster on a diagonal band's turns: `docs/performance.md`).
    pub fn while_others_work(self) -> Waiting {
        match self {
            Waiting::Spin => Waiting::Spin,
            _ => Waiting::Doze,
        }
    }

    /// `Yield` when this rank's host runs more of the world's ranks (`here`) than the `cores`
    /// they may use there (their affinity and quota, see `host`), else `Spin`; `forced`
    /// overrides.
    pub fn for_host(here: usize, cores: usize, forced: Option<Waiting>) -> Waiting {
        let chosen = if here > cores {
            Waiting::Yield
        } else {
            Waiting::Spin
        };
        let cores_text = if cores == 1 {
            "1 core"
        } else {
            &format!("{cores} cores")
        };
        log::debug!("{here} ranks may use {cores_text} between them: waiting by {chosen:?}");
        forced.unwrap_or(chosen)
    }

    /// Waits for `request` to complete.
    pub fn wait<'a, D: ?Sized, S: Scope<'a>>(self, request: Request<'a, D, S>) -> Status {
        if self == Waiting::Spin {
            return request.wait();
        }
        let mut pause = Pause::new(self);
        let mut request = request;
        loop {
            match request.test() {
                Ok(status) => return status,
                Err(pending) => request = pending,
            }
            pause.pause();
        }
    }

    /// Tests `ready` until it gives a value, pausing between tests as this way of waiting
    /// does (spinning: not at all). For a wait that must also serve what comes meanwhile (a
    /// rank that asks for work and answers the asks it gets), which one request cannot say.
    pub fn until<T>(self, mut ready: impl FnMut() -> Option<T>) -> T {
        let mut pause = Pause::new(self);
        loop {
            if let Some(value) = ready() {
                return value;
            }
            match self {
                Waiting::Spin => std::hint::spin_loop(),
                _ => pause.pause(),
            }
        }
    }

    /// Waits until every rank of `world` has got here. Collective.
    pub fn barrier(self, world: &World) {
        if let Some(world) = world.mpi() {
            self.wait(world.immediate_barrier());
        }
    }

    /// Rank 0's `buffer` into every rank's. Collective.
    pub fn broadcast<B: BufferMut + ?Sized>(self, world: &World, buffer: &mut B) {
        if world.size() > 1 {
            let root = world.process_at_rank(0);
            mpi::request::scope(|scope| {
                self.wait(root.immediate_broadcast_into(scope, buffer));
            });
        }
    }

    /// Every rank's `send`, in rank order, into `receive` on rank 0 (which alone passes one).
    /// Collective.
    pub fn gather<T: Equivalence + Clone>(
        self,
        world: &World,
        send: &[T],
        receive: Option<&mut [T]>,
    ) {
        if world.size() == 1 {
            if let Some(receive) = receive {
                receive.clone_from_slice(send);
            }
            return;
        }
        let root = world.process_at_rank(0);
        mpi::request::scope(|scope| match receive {
            Some(receive) => {
                self.wait(root.immediate_gather_into_root(scope, send, receive));
            }
            None => {
                self.wait(root.immediate_gather_into(scope, send));
            }
        });
    }

    /// [`Waiting::gather`] of another number of words from every rank, into `receive`'s
    /// partition on `root`. Collective.
    fn gather_varcount(
        self,
        root: &impl Root,
        send: &[u64],
        receive: Option<&mut PartitionMut<'_, [u64], Vec<Count>, Vec<Count>>>,
    ) {
        mpi::request::scope(|scope| match receive {
            Some(receive) => {
                self.wait(root.immediate_gather_varcount_into_root(scope, send, receive));
            }
            None => {
                self.wait(root.immediate_gather_varcount_into(scope, send));
            }
        });
    }

    /// Every rank's `send`, however many words each, on rank 0 (each rank's in rank order;
    /// `None` elsewhere): the counts gathered first, then the words. Collective.
    pub fn gather_words(self, world: &World, send: &[u64]) -> Option<Vec<Vec<u64>>> {
        if world.size() == 1 {
            return Some(vec![send.to_vec()]);
        }
        let root = world.process_at_rank(0);
        let count = send.len() as Count;
        if world.rank() != 0 {
            self.gather(world, &[count], None);
            self.gather_varcount(&root, send, None);
            return None;
        }
        let mut counts = vec![0 as Count; world.size() as usize];
        self.gather(world, &[count], Some(&mut counts[..]));
        let displs: Vec<Count> = counts
            .iter()
            .scan(0, |at, &c| {
                let d = *at;
                *at += c;
                Some(d)
            })
            .collect();
        let mut all = vec![0u64; counts.iter().sum::<Count>() as usize];
        let mut partition = PartitionMut::new(&mut all[..], counts.clone(), displs.clone());
        self.gather_varcount(&root, send, Some(&mut partition));
        let per_rank = displs
            .iter()
            .zip(&counts)
            .map(|(&d, &c)| all[d as usize..(d + c) as usize].to_vec())
            .collect();
        Some(per_rank)
    }

    /// Every rank's `send` combined by `op` into every rank's `receive`. Collective.
    pub fn all_reduce<T, O>(self, world: &World, send: &T, receive: &mut T, op: O)
    where
        T: Equivalence + Copy,
        O: Operation,
    {
        self.all_reduce_each(
            world,
            std::slice::from_ref(send),
            std::slice::from_mut(receive),
            op,
        );
    }

    /// Every rank's `send` combined by `op`, element by element, into every rank's `receive`
    /// (as long as `send`). Collective.
    pub fn all_reduce_each<T, O>(self, world: &World, send: &[T], receive: &mut [T], op: O)
    where
        T: Equivalence + Copy,
        O: Operation,
    {
        match world.mpi().filter(|w| w.size() > 1) {
            Some(world) => mpi::request::scope(|scope| {
                self.wait(world.immediate_all_reduce_into(scope, send, receive, op));
            }),
            None => receive.copy_from_slice(send),
        }
    }

    /// Receives the next message from any rank, with any tag: probed, then received into a
    /// buffer of its size by a non-blocking matched receive that is waited for like any
    /// request, so a large message (above the library's eager limit) does not spin either.
    pub fn receive_any(self, world: &World) -> (Vec<u8>, Status) {
        let (message, status) = match self {
            Waiting::Spin => world.any_process().matched_probe(),
            Waiting::Yield | Waiting::Sleep | Waiting::Doze => {
                let mut pause = Pause::new(self);
                loop {
                    if let Some(probed) = world.any_process().immediate_matched_probe() {
                        break probed;
                    }
                    pause.pause();
                }
            }
        };
        self.receive_probed(message, status)
    }

    /// Receives a message probed and matched, into a buffer of its size.
    fn receive_probed(
        self,
        message: mpi::point_to_point::Message,
        status: Status,
    ) -> (Vec<u8>, Status) {
        let len = usize::try_from(status.count(u8::equivalent_datatype()))
            .expect("a message has a non-negative size");
        let mut buffer = vec![0u8; len];
        mpi::request::scope(|scope| {
            self.wait(message.immediate_matched_receive_into(scope, &mut buffer[..]));
        });
        (buffer, status)
    }

    /// Receives the next message from any rank with one of `tags`, as [`Waiting::receive_any`]
    /// does; messages with other tags stay queued for whoever waits for them (a rank that
    /// has moved on to its next pair may already be sending its fill's messages).
    pub fn receive_any_of(self, world: &World, tags: &[mpi::Tag]) -> (Vec<u8>, Status) {
        let mut pause = Pause::new(self);
        let (message, status) = loop {
            let probed = tags
                .iter()
                .find_map(|&tag| world.any_process().immediate_matched_probe_with_tag(tag));
            if let Some(probed) = probed {
                break probed;
            }
            if self != Waiting::Spin {
                pause.pause();
            }
        };
        self.receive_probed(message, status)
    }
}
