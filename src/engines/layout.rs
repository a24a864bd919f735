//! How a pair is split among the ranks on the chosen engine, and one pair's run on it.

use crate::comm::world::World;

use lcs_core::diagonal_band::{Band, BandChoice, BandSearch};
use lcs_core::problem::Problem;

use crate::comm::traffic::{Predicted, Traffic};
use crate::engines::bands::{self, BandPlan, Checkpoint};
use crate::engines::config::{Method, RunConfig};
use crate::engines::device::Placement;
use crate::engines::diagonal::{self, schedule::Schedule, store::StoreKind};
use crate::engines::holding::{Holding, Room};
use crate::engines::outcome::{GaveWay, Ran, RankOutcome};
use crate::engines::wave::{self, plan::WavePlan};
use crate::engines::{budget, choice};
use crate::input::Pair;
use lcs_gpu::Gpu;

/// How the matrix is split among the ranks, as this rank will run it.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// The diagonal schedule, and where each rank keeps its cells.
    Diagonal(Schedule, StoreKind),
    /// Column bands, and what this rank keeps for its traceback. The plan's diagonal band is
    /// the one the run expects to fill last ([`Band::expected`]): what the memory pre-check
    /// counts; each fill of the band search sets its own.
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
                let band = match band_choice(config) {
                    BandChoice::Off => Band::whole(m, n),
                    choice => Band::expected(config.problem, &pair.x, &pair.y, choice),
                };
                let plan = BandPlan::new(m, n, ranks, batch)
                    .with_problem(config.problem)
                    .with_band(band);
                // What the band may take: the limit less what the rank holds and the margin.
                let budget = limit.map(|l| budget::room(l, baseline, 0));
                let mode = match Checkpoint::choose(&plan, rank, &pair.x, checkpoint, budget) {
                    // A device writes checkpoints, never every bit.
                    Checkpoint::Full if config.device != Placement::Cpu => {
                        Checkpoint::for_walk(&plan)
                    }
                    mode => mode,
                };
                Layout::Bands(plan, mode)
            }
            Method::Wave { cut_off, halo } => {
                let bound = choice::wave_bound(config.problem, pair, cut_off);
                let plan =
                    WavePlan::new(config.problem, m, n, ranks, bound).with_halo_steps(halo.steps());
                // What the checkpoints may take: the limit less what the rank holds and the
                // margin. The ranks then agree on the widest spacing any of them needs.
                let budget = limit.map(|l| budget::room(l, baseline, 0));
                Layout::Wave(budget::wave_spacing(plan, rank, budget))
            }
            Method::Auto { .. } => unreachable!("--engine auto is resolved before the layout"),
        }
    }

    /// The layout a run of `config` falls back to where this one does not fit: with
    /// `--checkpoint auto`, bands that keep the interval of least memory where this one keeps a
    /// shorter one ([`Checkpoint::for_walk`]). `None` otherwise.
    pub fn leanest(&self, config: &RunConfig) -> Option<Layout> {
        let (Layout::Bands(plan, mode), Method::Bands { checkpoint, .. }) = (*self, config.method)
        else {
            return None;
        };
        Checkpoint::fallback(&plan, checkpoint, mode).map(|leanest| Layout::Bands(plan, leanest))
    }

    /// What this rank's engine will hold for `problem` (see `budget`): for the bands engine,
    /// on the band it expects to fill last.
    pub fn holding(&self, problem: Problem, pair: &Pair, rank: usize) -> Holding {
        match self {
            Layout::Diagonal(schedule, store) => {
                budget::diagonal_holding(schedule, store.estimate_bytes(problem, schedule, rank))
            }
            Layout::Bands(plan, mode) => budget::bands_holding(plan, rank, &pair.x, *mode),
            Layout::Wave(plan) => budget::wave_holding(plan, rank),
        }
    }

    /// Why the run of `config` does not fit `limit`, and what would.
    pub fn advice(&self, config: &RunConfig, pair: &Pair, limit: u64, baseline: u64) -> String {
        match self {
            Layout::Diagonal(schedule, store) => {
                budget::diagonal_advice(config.problem, schedule, *store, limit, baseline)
            }
            Layout::Bands(plan, mode) => {
                budget::bands_advice(plan, &pair.x, *mode, (limit, baseline))
            }
            Layout::Wave(plan) => {
                // A bound that is `auto`'s cut-off, not a cost the pair is known to be within.
                let cut_off = matches!(config.method,
                    Method::Wave { cut_off: Some(t), .. } if t == plan.bound());
                budget::wave_advice(plan, pair, (limit, baseline), cut_off)
            }
        }
    }

    /// Boundary messages a run predicts: the layout's ([`Layout::predicted`]), and those of a
    /// wave run it `gave_way` from.
    pub fn predicted_run(
        &self,
        band: Option<&BandSearch>,
        cost: Option<usize>,
        gave_way: Option<&GaveWay>,
    ) -> Predicted {
        let mut predicted = self.predicted(band, cost);
        if let Some(gave_way) = gave_way {
            predicted.plus(&gave_way.plan.predicted_cut_off());
        }
        predicted
    }

    /// Boundary messages the layout predicts, for a bands run that filled the diagonal bands
    /// of `band` (each fill a pipeline of its own, but the first ones made alone; without a
    /// search, one fill of the whole matrix), or a wave run of final cost `cost`.
    pub fn predicted(&self, band: Option<&BandSearch>, cost: Option<usize>) -> Predicted {
        match (self, band) {
            (Layout::Diagonal(schedule, _), _) => schedule.predicted_messages(),
            // Fills made alone, side by side (`bands::alone`), send nothing.
            (Layout::Bands(plan, _), Some(search)) => {
                plan.predicted_fills(&search.fills[search.alone..])
            }
            (Layout::Bands(plan, _), None) => plan
                .with_band(Band::whole(plan.rows(), plan.cols()))
                .predicted(),
            (Layout::Wave(plan), _) => match (plan.rows(), cost) {
                (0, _) | (_, None) => Predicted::none(plan.ranks()),
                (_, Some(cost)) => plan.predicted(cost),
            },
        }
    }

    /// Cells of the matrix this rank owns (its share of the matrix's size, whatever it
    /// computes; the wave engine's share is an even one, as it owns diagonals, not cells).
    pub fn cells(&self, rank: usize) -> u64 {
        match self {
            Layout::Diagonal(schedule, _) => schedule.rank_cells(rank),
            Layout::Bands(plan, _) => plan.rank_cells(rank),
            Layout::Wave(plan) => {
                let all = plan.rows() as u64 * plan.cols() as u64;
                let p = plan.ranks() as u64;
                all / p + u64::from((rank as u64) < all % p)
            }
        }
    }
}

/// The diagonal band a run asks for: `--band`, but the whole matrix for a recorded run (a
/// trace, a picture or a page: small inputs), which keeps every cell's step.
fn band_choice(config: &RunConfig) -> BandChoice {
    match config.method {
        Method::Bands { band, .. } if !config.recording => band,
        _ => BandChoice::Off,
    }
}

/// Runs the fill and the traceback of `pair` on this rank, with no memory limit for the
/// layout's choices (and `--engine auto` resolved for the pair, a wave run with the bands
/// engine to give way to). Collective.
pub fn run_pair(world: &World, pair: &Pair, config: &RunConfig) -> (Layout, RankOutcome) {
    let (ranks, rank) = (world.size() as usize, world.rank() as usize);
    let (method, _) = choice::resolve(
        config.method,
        config.problem,
        pair,
        (ranks, config.switches.several_hosts),
    );
    let bands = RunConfig {
        method: choice::bands_of(config.method),
        ..*config
    };
    let config = &RunConfig { method, ..*config };
    let layout = Layout::new(config, pair, ranks, rank, None, 0);
    let fallback = matches!(
        config.method,
        Method::Wave {
            cut_off: Some(_),
            ..
        }
    )
    .then(|| (Layout::new(&bands, pair, ranks, rank, None, 0), bands));
    let fallback = fallback.as_ref().map(|(l, c)| (l, c));
    let outcome = run_layout(world, pair, &layout, config, (None, None), fallback);
    let layout = match (&outcome.gave_way, fallback) {
        (Some(_), Some((bands, _))) => *bands,
        _ => layout,
    };
    (layout, outcome)
}

/// Runs the fill and the traceback of `pair` on this rank as `layout` says; with `room`, a
/// band search checks each wider band against it before its fill (see `bands::run`), which
/// every rank must then be given. A wave run that passes its cut-off gives way to `fallback`
/// (`--engine auto`'s bands engine), which runs on the same counters: the outcome is the
/// bands run's, with the wave's steps in [`RankOutcome::gave_way`] and its time and cells
/// counted in the fill's. The bands engine computes on `gpu` where the run asks for a device.
/// Collective.
pub fn run_layout(
    world: &World,
    pair: &Pair,
    layout: &Layout,
    config: &RunConfig,
    (room, mut gpu): (Option<Room>, Option<&mut Gpu>),
    fallback: Option<(&Layout, &RunConfig)>,
) -> RankOutcome {
    let rank = world.rank() as usize;
    let traffic = Traffic::new(rank, world.size() as usize, config.recording);
    let ran = run_one(
        world,
        pair,
        layout,
        config,
        (room, gpu.as_deref_mut()),
        traffic,
    );
    let (Some(attempt), Layout::Wave(plan)) = (ran.wave.filter(|w| w.gave_way), layout) else {
        return ran.finish(layout.cells(rank));
    };
    let (bands, bands_config) =
        fallback.expect("a wave run with a cut-off has the bands engine to give way to");
    let mut after = run_one(world, pair, bands, bands_config, (room, gpu), ran.traffic);
    after.fill.add(&ran.fill);
    after.seconds_fill += ran.seconds_fill;
    after.cells += ran.cells;
    let mut outcome = after.finish(bands.cells(rank));
    outcome.gave_way = Some(GaveWay {
        plan: *plan,
        wave: attempt,
        seconds: ran.seconds_fill,
    });
    outcome
}

/// One engine's fill and traceback, counting on `traffic`.
fn run_one(
    world: &World,
    pair: &Pair,
    layout: &Layout,
    config: &RunConfig,
    (room, gpu): (Option<Room>, Option<&mut Gpu>),
    traffic: Traffic,
) -> Ran {
    match *layout {
        Layout::Diagonal(schedule, store) => {
            diagonal::run(world, &schedule, store, pair, traffic, config)
        }
        Layout::Bands(plan, mode) => {
            let choice = band_choice(config);
            bands::run(
                world,
                &plan,
                (mode, choice),
                pair,
                traffic,
                config,
                (room, gpu),
            )
        }
        Layout::Wave(plan) => wave::run(world, &plan, pair, traffic, config),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::bands::CheckpointChoice;
    use crate::engines::config::Switches;

    fn bands(checkpoint: CheckpointChoice) -> RunConfig {
        RunConfig {
            problem: Problem::Edit,
            method: Method::Bands {
                batch: 256,
                checkpoint,
                band: BandChoice::Auto,
            },
            switches: Switches::default(),
            recording: false,
            progress: None,
            device: Placement::Cpu,
        }
    }

    #[test]
    fn a_halved_auto_interval_falls_back_to_the_leanest() {
        let m = 1_000_000;
        let plan = BandPlan::new(m, m, 2, 256)
            .with_problem(Problem::Edit)
            .with_band(Band::new(m, m, Some(4985)));
        let auto = bands(CheckpointChoice::Auto);
        let halved = Layout::Bands(plan, Checkpoint::for_walk(&plan));
        assert!(matches!(halved, Layout::Bands(_, Checkpoint::Every(500))));
        let Some(Layout::Bands(same, mode)) = halved.leanest(&auto) else {
            panic!("an auto interval of 500 falls back");
        };
        assert_eq!((same, mode), (plan, Checkpoint::Every(1000)));
        // The leanest has nothing to fall back to; nor has an interval the run asked for.
        let lean = Layout::Bands(plan, Checkpoint::Every(1000));
        assert!(lean.leanest(&auto).is_none());
        let asked = bands(CheckpointChoice::Every(500));
        assert!(halved.leanest(&asked).is_none());
        let diagonal = Layout::Diagonal(Schedule::new(10, 10, 2), StoreKind::Dense);
        assert!(diagonal.leanest(&auto).is_none());
    }
}
