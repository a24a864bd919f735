//! The bands engine: the bit-parallel LCS split by columns into bands of whole words, one band
//! per rank, rows pipelined in batches. Laid out as the diagonal engine is: the plan of who
//! owns what ([`plan`]), how a band advances its rows ([`kernel`]), what it keeps for the
//! traceback ([`store`]), the MPI fill ([`fill`]), and its walker ([`walk`]); [`local`] runs
//! the whole engine in one process.
//!
//! # Recurrence
//!
//! Rows are `x` (the shorter, `m`), columns `y` (`n >= m`). Row `i` is the bit vector `V_i`
//! over the columns, bit `j` clear iff `M[i][j] - M[i][j-1] = 1`, `V_{-1}` all ones; with `P`
//! the match mask of `x[i]` and `U = V_{i-1} & P`,
//! `V_i = (V_{i-1} + U) | (V_{i-1} & !P)`, the `+` a multi-word addition ([`lcs_core::bitpar`]). The only
//! dependency between the words of a row is that addition's carry.
//!
//! # Ownership and pipeline ([`plan`])
//!
//! With `W = ceil(n / 64)` words and `p = min(P, W)` active ranks, rank `k` owns a contiguous,
//! balanced run of whole words (the first `W mod p` ranks one word more); ranks `>= p` own
//! nothing. Per row a band needs one bit from the band on its left: the carry into its first
//! word (0 for band 0). Rows go in batches of `B`: band `k` computes a batch, sends the batch's
//! carry-outs to band `k + 1` as one message of `ceil(len / 64)` words ([`carry`]), and goes on
//! with the next batch while band `k + 1` computes this one. Boundary messages:
//! `(p - 1) * ceil(m / B)` exactly (0 for an empty `x`). The pipeline fills in `p - 1` batches,
//! so a smaller `B` starts the last band sooner at the price of more messages.
//!
//! # The diagonal band ([`lcs_core::diagonal_band`])
//!
//! A fill may compute only a diagonal band: row `i` steps only its *window*, the words holding
//! the band's columns, within each rank's own words ([`BandPlan::window`]); the other words keep
//! what the last row that reached them left (or the initial state), and the carry into a window
//! that starts inside a rank is the matrix's left-edge carry. Only the batches holding a row
//! whose window spans an edge send a message on it ([`BandPlan::edge_batches`]); a rank skips
//! the batches in which it has no work. [`run`] fills band after band until one proves itself,
//! each fill a pipeline of its own, the ranks summing their shares of the answer after each.
//!
//! # Traceback ([`store`])
//!
//! At a mismatch cell the walk goes up iff the carry out of bit `j` in row `i`'s addition is 0
//! (the bit `reference` stores), so the walk and its tie-breaking are exactly `reference`'s and
//! the LCS string is byte for byte the same. It starts at `(m-1, n-1)` in the last band and
//! only moves up and left, so it leaves a band only to its left: at most `p - 1` hops, each
//! carrying the subsequence found so far. A band keeps either every cell's bit (`Full`) or `V`
//! every `K` rows plus each row's carry-in, at the band's first word and at every `G`-th word
//! inside it (`Every(K)`), recomputing a block of `K` rows, locally, over the segment of `G`
//! words the walk is in, up to the walk's column, and over the next segment to the left when
//! the walk drifts into it.
//!
//! # Costs, per rank with `w` band words
//!
//! * fill: `m * w` word steps of a few instructions each, no branch, four rows per pass;
//! * messages: `ceil(m / B)` sent and received, `ceil(B / 64) * 8` bytes each;
//! * memory ([`store::holding`]): masks `distinct(x) * w * 8` bytes, `V` `w * 8`, plus `Full`:
//!   `m * w * 8`, or `Every(K)`: `floor((m-1)/K) * w * 8` of checkpoints, `(min(K, m) + 1) *
//!   min(w, G) * 8` of block, `ceil(m/64) * 8` of carries and about `m * w / (8 G)` of seams,
//!   smallest near `K = sqrt(m)`: for 10^6 x 10^6 on 2 ranks, about 999 * 7813 * 8 bytes = 62
//!   MB, plus 2 MB of block and 4 MB of seams (`G = 256`); twice all that for the edit
//!   distance. On a diagonal band the kept rows and the seams hold only the rows' windows, a
//!   few words each, so a 10^6 pair at 0.1% of edits keeps a few MB;
//! * traceback: `O(m + n)` steps plus, with checkpoints, about `G / 2` word steps per row the
//!   walk crosses (more where it drifts far left within a block), never more than one more fill
//!   of the band.
//!
//! [`lcs_core::bitpar::lcs_length`] gives the length alone in `O(n / 64)` memory, to check
//! a run.

pub mod advance;
pub mod carry;
pub mod fill;
pub mod kept;
pub mod kernel;
pub mod local;
pub mod plan;
pub mod store;
pub mod walker;

use std::time::Instant;

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use mpi::collective::SystemOperation;

use crate::comm::stats::FillTimes;
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::engines::config::{RunConfig, Switches};
use crate::engines::holding::{Holding, Room};
use crate::engines::outcome::{Ran, Widening};
use crate::engines::traceback::Start;
use crate::input::Pair;
use crate::progress::Progress;
use lcs_core::diagonal_band::{self, BandChoice};
use lcs_core::problem::Problem;
use walker::{BandWalker, Idle};

pub use local::{run_in_process, run_search, InProcess};
pub use plan::BandPlan;
pub use store::{
    estimate_bytes, holding, BandStore, Checkpoint, CheckpointChoice, Exit, NoFit, RecomputeStats,
    AUTO_CHECKPOINT_ROWS,
};

/// Before the fill of a wider band than the pre-check counted: whether every rank has room
/// for what its band will hold, decided together (one all-reduce). `None` when all fit.
fn recheck(
    world: &SimpleCommunicator,
    waiting: Waiting,
    plan: &BandPlan,
    (x, mode): (&[u8], Checkpoint),
    room: Room,
) -> Option<(u64, u64)> {
    let rank = world.rank() as usize;
    let held = match rank < plan.active_ranks() {
        true => store::holding(plan, rank, x, mode),
        false => Holding::new(),
    };
    let (need, fits) = room.admits(&held);
    let over = room.limit.filter(|_| !fits).map_or([0, 0], |l| [need, l]);
    let mut worst = [0u64; 2];
    waiting.all_reduce(world, &over[..], &mut worst[..], SystemOperation::max());
    (worst[0] > 0).then_some((worst[0], worst[1]))
}

/// Runs this rank's fills and traceback of `pair` on `plan`, keeping `mode` for the
/// traceback, with the diagonal band `choice` asks: one fill per band until one proves itself
/// ([`lcs_core::diagonal_band::search`]), each a pipeline of its own; after each, every rank adds
/// up the bands' shares of the answer (one all-reduce) and all decide alike whether to widen.
/// A fixed band that does not prove itself ends without a walk (no path). With `room`, every
/// fill after the first (whose band the pre-check counted, or a narrower one) is first checked
/// against it ([`recheck`]): a band some rank cannot hold ends the search there, without a
/// walk, as [`Ran::refused`] says. Collective; ranks that own no words only take part in the
/// sums and serve the traceback's notices.
pub(super) fn run(
    world: &SimpleCommunicator,
    plan: &BandPlan,
    (mode, choice): (Checkpoint, BandChoice),
    pair: &Pair,
    mut traffic: Traffic,
    config: &RunConfig,
    room: Option<Room>,
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
    let searched = diagonal_band::search(problem, (&pair.x, &pair.y), choice, |b| {
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
        let mut store = (rank < plan.active_ranks())
            .then(|| BandStore::new(&plan, rank, &pair.x, &pair.y, mode));
        let times = fill::run(
            world,
            &plan,
            store.as_mut(),
            &mut traffic,
            &mut progress,
            config.switches,
        );
        fill.add(&times);
        if store.is_some() {
            cells += plan.computed_cells(rank);
        }
        // The answer: the bands' shares added up (D' less m for the edit distance). On a
        // diagonal band a rank may wait here while the others compute most of their rows.
        let share = store.as_ref().map_or(0, BandStore::row_share);
        let mut total = 0i64;
        let started = Instant::now();
        idle(b).all_reduce(world, &share, &mut total, SystemOperation::sum());
        fill.wait_receive += started.elapsed().as_secs_f64();
        let base = match problem {
            Problem::Lcs => 0,
            Problem::Edit => m as i64,
        };
        let value = usize::try_from(base + total).expect("a non-negative answer");
        let took = began.elapsed().as_secs_f64();
        log::debug!("fill of band {:?}: {value} in {took:.4} s", b.margin());
        Ok((value, (plan, store)))
    });
    let (search, store) = match searched {
        Ok(done) => done,
        Err((search, refused)) => {
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
                cells,
                refused: Some(refused),
            };
        }
    };
    let (plan, mut store) = store;
    let walk_waiting = idle(plan.band());
    progress.finish();
    let seconds_fill = started.elapsed().as_secs_f64();
    log::debug!("fills done in {seconds_fill:.3} s: {search:?}");

    let started = Instant::now();
    let start = match m {
        0 => Start::NoRows { cols: n },
        m => Start::At {
            rank: plan.active_ranks() - 1,
            cell: (m - 1, n - 1),
        },
    };
    let switches = Switches {
        waiting: Some(walk_waiting),
        ..config.switches
    };
    let outcome = match store.as_mut() {
        _ if !search.proven => None,
        Some(store) => {
            let walker = &mut BandWalker { store };
            Some(crate::engines::traceback::run(
                world,
                start,
                walker,
                &mut traffic,
                switches,
            ))
        }
        None => Some(crate::engines::traceback::run(
            world,
            start,
            &mut Idle,
            &mut traffic,
            switches,
        )),
    };
    if let Some(s) = &store {
        seconds_recompute += s.recompute_stats().seconds;
    }
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
        cells,
        refused: None,
    }
}
