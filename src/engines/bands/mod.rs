//! The bands engine over MPI: the bands of [`lcs_core::bands`] (the bit-parallel steps split by
//! columns into bands of whole 64-bit words) one per rank, rows pipelined in batches of `B`:
//! after each batch a rank sends the band on its right one message of carries (one bit per row
//! for the LCS, two for the edit distance). On similar sequences a fill computes only a diagonal
//! band ([`lcs_core::diagonal_band`]), band after band until one proves itself, the two
//! narrowest side by side, each on one rank alone ([`alone`]). The walk is the reference's, so
//! the answer is the same byte for byte.
//!
//! What runs in one process lives in `lcs-core` and is re-exported here under its old paths:
//! [`plan`] says who owns which words and predicts the messages; [`kernel`], [`advance`] and
//! [`carry`] step a band through a batch; [`store`] holds a rank's band and what the traceback
//! keeps ([`kept`]), which [`checkpoint`] chooses and counts; [`local`] is the whole engine in
//! one process. Here: [`fill`] is the MPI pipeline, [`on_device`] a rank's bands on its GPU,
//! [`walker`] the walk from rank to rank, and `run` a rank's fills and walk.
//!
//! Cost per rank with `w` band words: `m * w` word steps, `ceil(m / B)` messages each way
//! (`(p - 1) * ceil(m / B)` in all for the whole matrix), the traceback `O(m + n)` steps and at
//! most `p - 1` hops. `docs/algorithms.md#the-bands-engine`.

pub mod alone;
pub mod fill;
pub mod length;
pub mod on_device;
pub mod walker;

pub use lcs_core::bands::{advance, carry, checkpoint, kept, kernel, local, plan, store};

use std::time::Instant;

use crate::comm::world::World;

use mpi::collective::SystemOperation;

use crate::comm::agree::agree;
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::engines::config::{RunConfig, Switches};
use crate::engines::device::{self, Placement};
use crate::engines::holding::Room;
use crate::engines::outcome::{Ran, Widening};
use crate::engines::record::FillTimes;
use crate::engines::traceback::Start;
use crate::error::Error;
use crate::input::Pair;
use crate::progress::Progress;
use alone::Alone;
use lcs_core::diagonal_band::{self, Band, BandChoice, BandSearch};
use lcs_gpu::Gpu;
use on_device::DeviceBands;
use walker::BandWalker;

pub use checkpoint::{
    estimate_bytes, holding, Checkpoint, CheckpointChoice, NoFit, AUTO_CHECKPOINT_ROWS,
};
pub use local::{run_in_process, run_search, InProcess};
pub use plan::{BandPlan, DEFAULT_BATCH};
pub use store::{BandStore, Exit, RecomputeStats};

/// Before the fill of a wider band than the pre-check counted: whether every rank has room
/// for what its band will hold, decided together (one all-reduce). `None` when all fit.
fn recheck(
    world: &World,
    waiting: Waiting,
    plan: &BandPlan,
    (x, mode): (&[u8], Checkpoint),
    room: Room,
) -> Option<(u64, u64)> {
    let rank = world.rank() as usize;
    let held = checkpoint::holding(plan, rank, x, mode);
    let (need, fits) = room.admits(&held);
    let over = room.limit.filter(|_| !fits).map_or([0, 0], |l| [need, l]);
    let mut worst = [0u64; 2];
    waiting.all_reduce_each(world, &over[..], &mut worst[..], SystemOperation::max());
    (worst[0] > 0).then_some((worst[0], worst[1]))
}

/// Runs this rank's fills and traceback of `pair` on `plan`, keeping `mode` for the
/// traceback, with the diagonal band `choice` asks: one fill per band until one proves itself
/// ([`lcs_core::diagonal_band::search`]), each a pipeline of its own but the first two of
/// `auto` ([`Alone`]); after each, every rank adds up the bands' shares of the answer (one
/// all-reduce) and all decide alike whether to widen.
/// A fixed band that does not prove itself ends without a walk (no path). With `room`, every
/// fill after the first (whose band the pre-check counted, or a narrower one) is first checked
/// against it ([`recheck`]): a band some rank cannot hold ends the search there, without a
/// walk, as [`Ran::refused`] says. Collective; ranks that own no words only take part in the
/// sums and serve the traceback's notices. Where the run asks for a device, a rank with `gpu`
/// computes its bands there; a device that fails ends the run on every rank without a walk
/// ([`Ran::failed`]).
pub(super) fn run(
    world: &World,
    plan: &BandPlan,
    (mode, choice): (Checkpoint, BandChoice),
    pair: &Pair,
    mut traffic: Traffic,
    config: &RunConfig,
    (room, mut gpu): (Option<Room>, Option<&mut Gpu>),
) -> Ran {
    let rank = world.rank() as usize;
    let started = Instant::now();
    let (m, n) = (plan.rows(), plan.cols());
    let problem = plan.problem();
    let waiting = config.switches.waiting();
    let mut progress = Progress::new(config.progress.filter(|_| rank == 0), m, "rows");
    let mut fill = FillTimes::default();
    // How a rank waits when the others may hold the work for long: on a diagonal band the
    // ranks take the rows, and the walk, in turn (see `fill`).
    let idle = |b: diagonal_band::Band| match b.is_whole() {
        true => waiting,
        false => waiting.while_others_work(),
    };
    let mut seconds_recompute = 0.0;
    let (mut cells, mut last) = (0u64, None);
    let first = Band::first_for(problem, &pair.x, &pair.y, choice);
    let mut alone = Alone::run(
        world,
        plan,
        (first, choice),
        (&pair.x, &pair.y),
        (mode, config.switches),
        &mut fill,
    );
    let mut taken_alone = 0;
    let asked = config.device != Placement::Cpu;
    let mut failed: Option<Error> = None;
    let searched = diagonal_band::search_from(problem, first, choice, |b| {
        // One of the first two fills, made side by side: its answer, and where it is held.
        if let Some(t) = alone.as_mut().and_then(|a| a.take(b, rank)) {
            last = Some(b.margin());
            taken_alone += 1;
            cells += t.cells;
            return Ok((t.value, (t.plan, t.stores, Some(t.owner))));
        }
        let began = Instant::now();
        let plan = plan.with_band(b);
        if let (Some(room), Some(from)) = (room, last) {
            if let Some((need, limit)) = recheck(world, waiting, &plan, (&pair.x, mode), room) {
                let to = b.margin();
                return Err(Widening {
                    from,
                    to,
                    need,
                    limit,
                });
            }
        }
        last = Some(b.margin());
        let mut stores: Vec<BandStore<'_>> = plan
            .bands_of(rank)
            .map(|v| BandStore::new(&plan, v, &pair.x, &pair.y, mode))
            .collect();
        // The bands on the device, decided by every rank before the fill.
        let mut on_device = None;
        if asked {
            let opened = gpu
                .as_deref_mut()
                .map(|g| DeviceBands::open(g, &plan, &stores));
            match agree(
                world,
                waiting,
                opened.transpose().map_err(device::setup_error),
            ) {
                Ok(d) => on_device = d,
                Err(e) => {
                    failed = Some(e);
                    return Ok((0, (plan, stores, None)));
                }
            }
        }
        let times = fill::run(
            world,
            &plan,
            &mut stores,
            &mut traffic,
            &mut progress,
            (config.switches, on_device.as_mut()),
        );
        fill.add(&times);
        if asked {
            let done = on_device.map_or(Ok(()), |d| d.finish(&mut stores));
            if let Err(e) = agree(world, waiting, done.map_err(device::run_error)) {
                failed = Some(e);
                return Ok((0, (plan, stores, None)));
            }
        }
        cells += plan.rank_computed_cells(rank);
        // The answer: the bands' shares added up (D' less m for the edit distance). On a
        // diagonal band a rank may wait here while the others compute most of their rows.
        let share: i64 = stores.iter().map(BandStore::row_share).sum();
        let mut total = 0i64;
        let started = Instant::now();
        idle(b).all_reduce(world, &share, &mut total, SystemOperation::sum());
        fill.wait_receive += started.elapsed().as_secs_f64();
        let value = local::answer(problem, m, total);
        let took = began.elapsed().as_secs_f64();
        log::debug!("fill of band {:?}: {value} in {took:.4} s", b.margin());
        Ok((value, (plan, stores, None)))
    });
    // A fill made alone that the search did not take (its first band proved itself) is of no
    // more use.
    drop(alone);
    let with_alone = |search| BandSearch {
        alone: taken_alone,
        ..search
    };
    if let Some(e) = failed {
        progress.finish();
        return Ran {
            failed: Some(e),
            ..Ran::empty(traffic, fill, started.elapsed().as_secs_f64(), cells)
        };
    }
    let (search, stores) = match searched {
        Ok((search, held)) => (with_alone(search), held),
        Err((search, refused)) => {
            let search = with_alone(search);
            progress.finish();
            return Ran {
                path: None,
                traffic,
                fill,
                seconds_fill: started.elapsed().as_secs_f64(),
                seconds_traceback: 0.0,
                seconds_recompute,
                hops: 0,
                band: Some(search),
                wave: None,
                cells,
                refused: Some(refused),
                failed: None,
            };
        }
    };
    let (plan, mut stores, owner) = stores;
    let walk_waiting = idle(plan.band());
    progress.finish();
    let seconds_fill = started.elapsed().as_secs_f64();
    log::debug!("fills done in {seconds_fill:.3} s: {search:?}");

    let started = Instant::now();
    let start = match m {
        0 => Start::NoRows { cols: n },
        m => Start::At {
            rank: owner.unwrap_or_else(|| plan.rank_of(plan.active_bands() - 1)),
            cell: (m - 1, n - 1),
        },
    };
    let switches = Switches {
        waiting: Some(walk_waiting),
        ..config.switches
    };
    let outcome = search.proven.then(|| {
        let walker = &mut BandWalker {
            plan: &plan,
            stores: &mut stores,
        };
        crate::engines::traceback::run(world, start, walker, &mut traffic, switches)
    });
    seconds_recompute += stores
        .iter()
        .map(|s| s.recompute_stats().seconds)
        .sum::<f64>();
    let seconds_traceback = started.elapsed().as_secs_f64();
    let (path, hops) = outcome.map_or((None, 0), |o| (o.path, o.hops));
    Ran {
        path,
        traffic,
        fill,
        seconds_fill,
        seconds_traceback,
        seconds_recompute,
        hops,
        band: Some(search),
        wave: None,
        cells,
        refused: None,
        failed: None,
    }
}
