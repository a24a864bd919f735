//! The wave engine over MPI ranks: each score step's diagonals split among the ranks
//! ([`plan`]), one message each way between neighbours per step ([`fill`]), and the walk moved
//! between the ranks that keep what it reads ([`walker`]). The algorithm is
//! `lcs_core::wave`'s: diagonal transition, the furthest row reached on each diagonal at each
//! cost, slid along the matches, every step kept within an upper bound of the final cost.
//!
//! # Costs, per rank of `P`
//!
//! * fill: about `s^2 / (2 P)` diagonal steps for a final cost `s` (half as many diagonals per
//!   step for the LCS's indel distance), and the slides along the matches;
//! * messages: one each way per neighbour and exchange, every `h` steps at most
//!   (`--halo-steps`), about `2 (P - 1) (s / h + 1)` and a few more while the end is passed
//!   on; about `2 h` values each, more every `E` steps (a checkpoint's halo), and about `s h`
//!   diagonal steps computed again in the cones around each rank's run;
//! * memory: the sequences, two steps' runs and the checkpoints, about `s^2 / (2 P E)` values,
//!   the spacing `E` 32 steps or, where the memory limit asks for it, more;
//! * traceback: `O(m + n)` steps, each block of `E` steps it crosses computed again over a
//!   window of about `4 E` diagonals, and a hop where the walk strays far into another rank's
//!   diagonals.

pub mod fill;
pub mod plan;
pub mod walker;

use std::time::Instant;

use crate::comm::world::World;

use lcs_core::problem::Path;
use lcs_core::wave::compare::Compare;
use lcs_core::wave::kept::Recall;
use lcs_core::wave::seqs::Seqs;
use lcs_core::wave::walk::Walk;

use crate::comm::traffic::Traffic;
use crate::engines::config::RunConfig;
use crate::engines::outcome::{Ran, WaveRun};
use crate::engines::record::FillTimes;
use crate::engines::traceback::{self, Start};
use crate::input::Pair;
use crate::progress::Progress;
use plan::WavePlan;
use walker::WaveWalker;

/// Runs this rank's fill and traceback of `pair` on `plan`. Collective.
pub(super) fn run(
    world: &World,
    plan: &WavePlan,
    pair: &Pair,
    mut traffic: Traffic,
    config: &RunConfig,
) -> Ran {
    let rank = world.rank() as usize;
    let (m, n) = (plan.rows(), plan.cols());
    let compare = Compare::detected();
    let started = Instant::now();
    if m == 0 {
        // No rows: the cost is n, the path runs along the border, and nothing is filled.
        let outcome = traceback::run(
            world,
            Start::NoRows { cols: n },
            &mut walker::Idle,
            &mut traffic,
            config.switches,
        );
        return Ran {
            path: outcome.path,
            traffic,
            fill: FillTimes::default(),
            seconds_fill: 0.0,
            seconds_traceback: started.elapsed().as_secs_f64(),
            seconds_recompute: 0.0,
            hops: outcome.hops,
            band: None,
            wave: Some(WaveRun {
                cost: plan.bound(),
                bound: plan.bound(),
                ..WaveRun::default()
            }),
            cells: 0,
            refused: None,
            failed: None,
        };
    }
    let seqs = Seqs::new(&pair.x, &pair.y);
    let mut progress = Progress::new(
        config.progress.filter(|_| rank == 0),
        plan.bound(),
        "score steps",
    );
    let filled = fill::run(
        world,
        plan,
        &seqs,
        compare,
        &mut traffic,
        &mut progress,
        config.switches,
    );
    progress.finish();
    let seconds_fill = started.elapsed().as_secs_f64();
    log::debug!("wave fill: cost {:?} in {seconds_fill:.3} s", filled.cost);
    let Some(cost) = filled.cost else {
        // Past a cut-off: no path; the caller runs the bands engine instead.
        return Ran {
            path: None,
            traffic,
            fill: filled.times,
            seconds_fill,
            seconds_traceback: 0.0,
            seconds_recompute: 0.0,
            hops: 0,
            band: None,
            wave: Some(WaveRun {
                cost: plan.bound(),
                gave_way: true,
                bound: plan.bound(),
                diagonals: filled.work.diagonals,
                slid: filled.work.slid,
            }),
            cells: filled.work.diagonals + filled.work.slid,
            refused: None,
            failed: None,
        };
    };

    let started = Instant::now();
    let mut walker = WaveWalker {
        plan,
        rank,
        cost,
        walk: Walk {
            problem: plan.problem(),
            compare,
            x: seqs.x(),
            y: seqs.y(),
        },
        recall: Recall::new(&filled.kept, compare, &seqs),
    };
    let start = Start::At {
        rank: plan.finder(cost),
        cell: (m - 1, n - 1),
    };
    let outcome = traceback::run(world, start, &mut walker, &mut traffic, config.switches);
    let seconds_traceback = started.elapsed().as_secs_f64();
    let recomputed = walker.recall.work;
    let (diagonals, slid) = (
        filled.work.diagonals + recomputed.diagonals,
        filled.work.slid + recomputed.slid,
    );
    Ran {
        path: outcome.path.map(|p: Path| p),
        traffic,
        fill: filled.times,
        seconds_fill,
        seconds_traceback,
        seconds_recompute: 0.0,
        hops: outcome.hops,
        band: None,
        wave: Some(WaveRun {
            cost,
            gave_way: false,
            bound: plan.bound(),
            diagonals,
            slid,
        }),
        // The cells it computed: every diagonal step and every byte slid.
        cells: diagonals + slid,
        refused: None,
        failed: None,
    }
}
