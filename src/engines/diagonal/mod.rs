//! The diagonal engine, the design of the report *Parallel computing 2021 — Longest Common
//! Subsequence problem* (Marco Mariotto and Luca Crema): every rank computes a contiguous share of
//! every anti-diagonal ([`schedule`]), keeps the cells it owns and receives in a store ([`store`]:
//! the report's hash table, or dense diagonals with the walk's bits per cell), sends each boundary
//! value to the neighbour that needs it as its own message ([`fill`]), and answers the walk's
//! questions on its own cells ([`walker`]) while the walk is forwarded backwards through the
//! owning ranks ([`crate::engines::traceback`]).
//!
//! Cost per rank: its share of the `m * n` cells, one message per boundary cell (the count is
//! predicted exactly from `(m, n, P)`), and one synchronisation with its neighbours per diagonal:
//! `m + n - 1` in all. `docs/algorithms.md#the-diagonal-engine`.

pub mod fill;
pub mod schedule;
pub mod store;
pub mod walker;

use std::time::Instant;

use crate::comm::world::World;

use crate::comm::traffic::Traffic;
use crate::engines::config::RunConfig;
use crate::engines::outcome::Ran;
use crate::engines::traceback::Start;
use crate::input::Pair;
use crate::progress::Progress;
use lcs_core::problem::Problem;
use lcs_core::recurrence::{Edit, Lcs, Recurrence};
use schedule::Schedule;
use store::dense::{self, DenseStore};
use store::hash::HashStore;
use store::{Seqs, Store, StoreKind};
use walker::DiagonalWalker;

/// Runs this rank's fill and traceback of `pair` for `problem` with the store `kind`.
/// Collective.
pub(super) fn run(
    world: &World,
    schedule: &Schedule,
    kind: StoreKind,
    pair: &Pair,
    traffic: Traffic,
    config: &RunConfig,
) -> Ran {
    match config.problem {
        Problem::Lcs => run_problem::<Lcs>(world, schedule, kind, pair, traffic, config),
        Problem::Edit => run_problem::<Edit>(world, schedule, kind, pair, traffic, config),
    }
}

fn run_problem<R: Recurrence>(
    world: &World,
    schedule: &Schedule,
    kind: StoreKind,
    pair: &Pair,
    traffic: Traffic,
    config: &RunConfig,
) -> Ran {
    let rank = world.rank() as usize;
    let seqs = Seqs::new(&pair.x, &pair.y);
    match kind {
        StoreKind::Dense if dense::narrow(R::PROBLEM, schedule) => {
            let store = DenseStore::<u16, R>::new(schedule, rank);
            run_with(world, schedule, &seqs, store, traffic, config)
        }
        StoreKind::Dense => {
            let store = DenseStore::<u32, R>::new(schedule, rank);
            run_with(world, schedule, &seqs, store, traffic, config)
        }
        StoreKind::Hash => {
            let store = HashStore::<R>::new(schedule, rank);
            run_with(world, schedule, &seqs, store, traffic, config)
        }
    }
}

fn run_with<S: Store>(
    world: &World,
    schedule: &Schedule,
    seqs: &Seqs<'_>,
    mut store: S,
    mut traffic: Traffic,
    config: &RunConfig,
) -> Ran {
    let rank = world.rank() as usize;
    let started = Instant::now();
    let mut progress = Progress::new(
        config.progress.filter(|_| rank == 0),
        schedule.diagonals(),
        "diagonals",
    );
    let fill = fill::run(
        world,
        schedule,
        seqs,
        &mut store,
        &mut traffic,
        &mut progress,
        config.switches,
    );
    progress.finish();
    let seconds_fill = started.elapsed().as_secs_f64();
    log::debug!("fill done in {seconds_fill:.3} s");

    let started = Instant::now();
    let mut walker = DiagonalWalker {
        schedule,
        seqs,
        store: &store,
        rank,
    };
    let start = match schedule.rows() {
        0 => Start::NoRows {
            cols: schedule.cols(),
        },
        m => Start::At {
            rank: 0,
            cell: (m - 1, schedule.cols() - 1),
        },
    };
    let outcome =
        crate::engines::traceback::run(world, start, &mut walker, &mut traffic, config.switches);
    let seconds_traceback = started.elapsed().as_secs_f64();
    log::debug!("traceback done in {seconds_traceback:.3} s");
    Ran {
        path: outcome.path,
        traffic,
        fill,
        seconds_fill,
        seconds_traceback,
        seconds_recompute: 0.0,
        hops: outcome.hops,
        band: None,
        wave: None,
        cells: schedule.rank_cells(rank),
        refused: None,
        failed: None,
    }
}
