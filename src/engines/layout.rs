//! How a pair is split among the ranks on the chosen engine, and one pair's run on it.

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use lcs_core::diagonal_band::{BandChoice, BandSearch};
use lcs_core::problem::Problem;

use crate::comm::traffic::{Predicted, Traffic};
use crate::engines::bands::{self, BandPlan, Checkpoint};
use crate::engines::config::{Method, RunConfig};
use crate::engines::diagonal::{self, schedule::Schedule, store::StoreKind};
use crate::engines::outcome::RankOutcome;
use crate::engines::wave::{self, plan::WavePlan};
use crate::engines::{budget, choice};
use crate::input::Pair;

/// How the matrix is split among the ranks, as this rank will run it.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// The diagonal schedule, and where each rank keeps its cells.
    Diagonal(Schedule, StoreKind),
    /// Column bands, and what this rank keeps for its traceback.
    Bands(BandPlan, Checkpoint),
    /// Each score step's diagonals split among the ranks.
    Wave(WavePlan),
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
            Method::Wave => {
                let bound = lcs_core::wave::bound::upper_bound(config.problem, (&pair.x, &pair.y));
                let plan = WavePlan::new(config.problem, m, n, ranks, bound);
                // What the checkpoints may take: the limit less what the rank holds and the
                // margin. The ranks then agree on the widest spacing any of them needs.
                let budget = limit.map(|l| l.saturating_sub(budget::need(baseline, 0)));
                Layout::Wave(budget::wave_spacing(plan, rank, budget))
            }
            Method::Auto { .. } => unreachable!("--engine auto is resolved before the layout"),
        }
    }

    /// The bytes this rank's engine will occupy for `problem` (see `budget`).
    pub fn working_bytes(&self, problem: Problem, pair: &Pair, rank: usize) -> u64 {
        match self {
            Layout::Diagonal(schedule, store) => {
                budget::diagonal_working(schedule, store.estimate_bytes(problem, schedule, rank))
            }
            Layout::Bands(plan, mode) => budget::bands_working(plan, rank, &pair.x, *mode),
            Layout::Wave(plan) => plan.working_bytes(rank),
        }
    }

    /// Why the run of `problem` does not fit `limit`, and what would.
    pub fn advice(&self, problem: Problem, pair: &Pair, limit: u64, baseline: u64) -> String {
        match self {
            Layout::Diagonal(schedule, store) => {
                budget::diagonal_advice(problem, schedule, *store, limit, baseline)
            }
            Layout::Bands(plan, _) => budget::bands_advice(plan, &pair.x, limit, baseline),
            Layout::Wave(plan) => budget::wave_advice(plan, limit, baseline),
        }
    }

    /// Boundary messages the layout predicts, for a bands run that filled the diagonal bands
    /// of `band` (each fill a pipeline of its own; without a search, one fill of the whole
    /// matrix), or a wave run of final cost `cost`.
    pub fn predicted(&self, band: Option<&BandSearch>, cost: Option<usize>) -> Predicted {
        match (self, band) {
            (Layout::Diagonal(schedule, _), _) => schedule.predicted_messages(),
            (Layout::Bands(plan, _), Some(search)) => plan.predicted_fills(&search.fills),
            (Layout::Bands(plan, _), None) => plan.predicted(),
            (Layout::Wave(plan), _) => match (plan.rows(), cost) {
                (0, _) | (_, None) => Predicted::none(plan.ranks()),
                (_, Some(cost)) => plan.predicted(cost),
            },
        }
    }

    /// Cells this rank owns (the wave engine's: none; it counts what it touched).
    pub fn cells(&self, rank: usize) -> u64 {
        match self {
            Layout::Diagonal(schedule, _) => schedule.rank_cells(rank),
            Layout::Bands(plan, _) => plan.rank_cells(rank),
            Layout::Wave(_) => 0,
        }
    }
}

/// Runs the fill and the traceback of `pair` on this rank, with no memory limit for the
/// layout's choices (and `--engine auto` resolved for the pair). Collective.
pub fn run_pair(
    world: &SimpleCommunicator,
    pair: &Pair,
    config: &RunConfig,
) -> (Layout, RankOutcome) {
    let (ranks, rank) = (world.size() as usize, world.rank() as usize);
    let (method, _) = choice::resolve(config.method, config.problem, pair, ranks);
    let config = &RunConfig { method, ..*config };
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
        Layout::Wave(plan) => wave::run(world, &plan, pair, traffic, config),
    };
    // The wave engine's cells are those it touched: every diagonal step and byte slid.
    let cells = match &ran.wave {
        Some(w) => w.diagonals + w.slid,
        None => layout.cells(rank),
    };
    ran.finish(cells)
}
