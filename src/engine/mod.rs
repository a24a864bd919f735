//! The MPI layer: two engines that compute the same LCS over ranks, and what they share.
//!
//! - [`diagonal`] — the report's design: each rank computes a contiguous share of every
//!   anti-diagonal ([`diagonal::schedule`]), keeps its cells in a store ([`diagonal::store`]),
//!   and sends each boundary value as its own message ([`diagonal::fill`]).
//! - [`bands`] — each rank owns a band of whole 64-bit words of columns ([`bands::plan`]),
//!   advances its rows 64 cells per word operation ([`bands::kernel`]) and sends one message of
//!   carries per batch of rows ([`bands::fill`]); on similar sequences it fills only a
//!   diagonal band around the corners' diagonals, widened until the answer proves itself
//!   ([`band`], which the sequential reference shares).
//!
//! Both engines are laid out alike: the plan of who owns what ([`diagonal::schedule`] / [`bands::plan`]), the
//! store of what a rank keeps, the MPI fill, and the walker that answers the traceback's
//! questions on the rank's own cells (`walk`). What they share lives here: the balanced split
//! of a run of cells among ranks ([`split`]), the bit-parallel row step ([`bitpar`], also the
//! sequential reference's), the message tags and kinds ([`protocol`]), the counting of every
//! message ([`traffic`]), the way a rank waits ([`waiting`]) given the cores its host's ranks
//! may use ([`host`]), the distributed traceback that
//! moves the walk between ranks ([`walk`]), the gathering of every rank's record to rank 0
//! ([`stats`]), the memory budget ([`budget`]), the closed-form estimate of either engine's
//! time ([`cost`]) and the tests' planted faults ([`fault`]).
//!
//! A run is driven from [`run::solve`]: rank 0 reads the input and [`share`] broadcasts it, every rank
//! checks the memory it will need, runs the layout ([`run_pair`]), and the records are gathered
//! to rank 0, which gets a [`run::Solved`] back. Nothing here writes a file or formats a
//! report: the command does that with the result.

pub mod bands;
pub mod budget;
pub mod cost;
pub mod diagonal;
pub mod fault;
pub mod host;
pub mod protocol;
pub mod run;
pub mod search;
pub mod share;
pub mod stats;
pub mod traffic;
pub mod waiting;
pub mod walk;

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::input::Pair;
use crate::mem;
use crate::provenance::HostInfo;
use bands::{BandPlan, Checkpoint, CheckpointChoice};
use diagonal::schedule::Schedule;
use diagonal::store::StoreKind;
use fault::Fault;
use lcs_core::diagonal_band::{BandChoice, BandSearch};
use lcs_core::problem::{Path, Problem};
use stats::{FillTimes, RankStats};
use traffic::{Predicted, Traffic};
use waiting::Waiting;

/// Which engine a run uses, with its settings: only valid combinations can be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Diagonal {
        store: StoreKind,
    },
    Bands {
        batch: usize,
        checkpoint: CheckpointChoice,
        /// The diagonal band (`--band`).
        band: BandChoice,
    },
}

/// Switches that change how the engine runs, not what it computes: the tests' faults and
/// synchronous sends, and how ranks wait for messages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Switches {
    pub fault: Option<Fault>,
    pub synchronous_sends: bool,
    /// How ranks wait: a choice made by the caller, else (`None`) chosen from the host's
    /// ranks and cores once MPI has started.
    pub waiting: Option<Waiting>,
}

impl Switches {
    /// How ranks wait (inside MPI until a choice is made).
    pub fn waiting(&self) -> Waiting {
        self.waiting.unwrap_or(Waiting::Spin)
    }
}

/// How a rank runs one pair.
#[derive(Debug, Clone, Copy)]
pub struct RunConfig {
    pub problem: Problem,
    pub method: Method,
    pub switches: Switches,
    /// Record every message, value and walk cell (for traces and pictures).
    pub recording: bool,
    /// Show a progress bar on rank 0, as this says.
    pub progress: Option<crate::progress::Show>,
}

/// How the matrix is split among the ranks, as this rank will run it.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// The diagonal schedule, and where each rank keeps its cells.
    Diagonal(Schedule, StoreKind),
    /// Column bands, and what this rank keeps for its traceback.
    Bands(BandPlan, Checkpoint),
}

impl Layout {
    /// The layout of `pair` on `ranks` ranks as `rank` runs it. For the bands engine the
    /// checkpoint mode may depend on the memory `limit` (less the `baseline` already used).
    pub fn new(
        config: &RunConfig,
        pair: &Pair,
        ranks: usize,
        rank: usize,
        limit: Option<u64>,
        baseline: u64,
    ) -> Layout {
        let (m, n) = (pair.x.len(), pair.y.len());
        match config.method {
            Method::Diagonal { store } => Layout::Diagonal(Schedule::new(m, n, ranks), store),
            Method::Bands {
                batch, checkpoint, ..
            } => {
                let plan = BandPlan::new(m, n, ranks, batch).with_problem(config.problem);
                // What the band may take: the limit less what the rank holds and the margin.
                let budget = limit.map(|l| l.saturating_sub(budget::need(baseline, 0)));
                let mode = Checkpoint::choose(&plan, rank, &pair.x, checkpoint, budget);
                Layout::Bands(plan, mode)
            }
        }
    }

    /// The bytes this rank's engine will occupy for `problem` (see `budget`).
    pub fn working_bytes(&self, problem: Problem, pair: &Pair, rank: usize) -> u64 {
        match self {
            Layout::Diagonal(schedule, store) => {
                budget::diagonal_working(schedule, store.estimate_bytes(problem, schedule, rank))
            }
            Layout::Bands(plan, mode) => budget::bands_working(plan, rank, &pair.x, *mode),
        }
    }

    /// Why the run of `problem` does not fit `limit`, and what would.
    pub fn advice(&self, problem: Problem, pair: &Pair, limit: u64, baseline: u64) -> String {
        match self {
            Layout::Diagonal(schedule, store) => {
                budget::diagonal_advice(problem, schedule, *store, limit, baseline)
            }
            Layout::Bands(plan, _) => budget::bands_advice(plan, &pair.x, limit, baseline),
        }
    }

    /// Boundary messages the layout predicts, for a bands run that filled the diagonal bands
    /// of `band` (each fill a pipeline of its own; without a search, one fill of the whole
    /// matrix).
    pub fn predicted(&self, band: Option<&BandSearch>) -> Predicted {
        match (self, band) {
            (Layout::Diagonal(schedule, _), _) => schedule.predicted_messages(),
            (Layout::Bands(plan, _), Some(search)) => plan.predicted_fills(&search.fills),
            (Layout::Bands(plan, _), None) => plan.predicted(),
        }
    }

    /// Cells this rank owns.
    pub fn cells(&self, rank: usize) -> u64 {
        match self {
            Layout::Diagonal(schedule, _) => schedule.rank_cells(rank),
            Layout::Bands(plan, _) => plan.rank_cells(rank),
        }
    }
}

/// What one rank's run produced.
pub struct RankOutcome {
    /// The walk's path, on rank 0 (none anywhere when a fixed diagonal band did not prove
    /// itself).
    pub path: Option<Path>,
    pub stats: RankStats,
    pub traffic: Traffic,
    /// The diagonal bands a bands run filled (the same on every rank).
    pub band: Option<BandSearch>,
}

/// Runs the fill and the traceback of `pair` on this rank, with no memory limit for the
/// layout's choices. Collective.
pub fn run_pair(
    world: &SimpleCommunicator,
    pair: &Pair,
    config: &RunConfig,
) -> (Layout, RankOutcome) {
    let (ranks, rank) = (world.size() as usize, world.rank() as usize);
    let layout = Layout::new(config, pair, ranks, rank, None, 0);
    let outcome = run_layout(world, pair, &layout, config);
    (layout, outcome)
}

/// Runs the fill and the traceback of `pair` on this rank as `layout` says. Collective.
pub fn run_layout(
    world: &SimpleCommunicator,
    pair: &Pair,
    layout: &Layout,
    config: &RunConfig,
) -> RankOutcome {
    let rank = world.rank() as usize;
    let traffic = Traffic::new(rank, world.size() as usize, config.recording);
    let ran = match *layout {
        Layout::Diagonal(schedule, store) => {
            diagonal::run(world, &schedule, store, pair, traffic, config)
        }
        Layout::Bands(plan, mode) => {
            // A recorded run (for a trace, a picture or a page: small inputs) keeps every
            // cell's step, so it fills the whole matrix.
            let choice = match config.method {
                Method::Bands { band, .. } if !config.recording => band,
                _ => BandChoice::Off,
            };
            bands::run(world, &plan, (mode, choice), pair, traffic, config)
        }
    };
    ran.finish(layout, rank)
}

/// What an engine's fill and traceback produced on one rank, before its cell count and
/// memory are filled in.
struct Ran {
    path: Option<Path>,
    traffic: Traffic,
    fill: FillTimes,
    seconds_fill: f64,
    seconds_traceback: f64,
    seconds_recompute: f64,
    hops: u64,
    band: Option<BandSearch>,
}

impl Ran {
    fn finish(self, layout: &Layout, rank: usize) -> RankOutcome {
        let mut stats = RankStats::new(&self.traffic, &HostInfo::here());
        stats.cells = layout.cells(rank);
        stats.hops = self.hops;
        stats.peak_rss_bytes = mem::peak_rss_bytes();
        stats.seconds_fill = self.seconds_fill;
        stats.fill = self.fill;
        stats.seconds_traceback = self.seconds_traceback;
        stats.seconds_recompute = self.seconds_recompute;
        RankOutcome {
            path: self.path,
            stats,
            traffic: self.traffic,
            band: self.band,
        }
    }
}
