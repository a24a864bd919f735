//! `cdist`: the value of every pair of two sets of sequences (or of one set against itself) as a
//! NumPy matrix, rapidfuzz's `process.cdist` with `Levenshtein.distance` or
//! `LCSseq.similarity`: the same values, the same `score_cutoff` rule (a distance above the
//! cut-off is `score_cutoff + 1`; an LCS below it is 0) and the same `workers` (-1: every
//! core).
//!
//! The work is the CLI's `pairs` command's, without MPI: one plan of units (short sequences side
//! by side in the lanes of a vector, a band of `2k + 1` diagonals under a cut-off, long ones by
//! the bit-parallel rows), its shares taken by `workers` threads in place of ranks, each writing
//! its pairs' values straight into the matrix. With `choices=None` the set is compared with
//! itself: each pair once, the matrix made symmetric, its diagonal each sequence against itself.
//!
//! The matrix is `uint32`, as rapidfuzz's is for these scorers; `dtype` converts it.
//!
//! Cost: the plan's (`docs/pairs.md`); the matrix, four bytes a pair, and a block of each
//! thread's job (its members by its targets, four bytes each).

use std::sync::atomic::{AtomicBool, Ordering};

use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;

use crate::align::{cutoff, problem_of};
use crate::seqs::{self, Seq};
use crate::work;
use lcs_core::pairs::plan::{Ask, Job, Plan, Side};
use lcs_core::pairs::work::{self as share, Share};
use lcs_core::problem::Problem;
use lcs_core::search::lanes::Simd;

/// Every pair's value as a len(queries) x len(choices) NumPy matrix, rapidfuzz's
/// `process.cdist` with `Levenshtein.distance` (problem="edit") or `LCSseq.similarity`
/// (problem="lcs").
///
/// queries, choices: iterables of sequences (bytes-like, or all str); choices=None compares
///     the queries with themselves (symmetric, each pair computed once).
/// score_cutoff: a distance above it is score_cutoff + 1; an LCS below it is 0.
/// workers: threads (-1: every core).
/// dtype: the matrix's NumPy dtype (uint32 by default, as rapidfuzz).
///
/// >>> m = mpi_lcs.cdist([b"kitten", b"sitting"], [b"sitting"])
/// >>> m.shape, m.dtype.name, int(m[0, 0]), int(m[1, 0])
/// ((2, 1), 'uint32', 3, 0)
#[pyfunction]
#[pyo3(signature = (queries, choices = None, problem = "edit", score_cutoff = None, workers = 1, dtype = None))]
pub fn cdist<'py>(
    py: Python<'py>,
    queries: Bound<'py, PyAny>,
    choices: Option<Bound<'py, PyAny>>,
    problem: &str,
    score_cutoff: Option<i64>,
    workers: i64,
    dtype: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let problem = problem_of(problem)?;
    let bound = cutoff(score_cutoff, "score_cutoff")?;
    let threads = work::threads(workers)?;
    let mut named = seqs::items("queries", &queries)?;
    let rows = named.len();
    let all_against_all = choices.is_none();
    if let Some(choices) = &choices {
        named.extend(seqs::items("choices", choices)?);
    }
    let seqs = seqs::seqs(&named)?.items;
    let cols = if all_against_all {
        rows
    } else {
        seqs.len() - rows
    };
    let cells = rows as u64 * cols as u64;
    work::check_memory(
        cells * 4 + seqs.iter().map(|s| s.len() as u64).sum::<u64>(),
        "the matrix",
    )?;
    let work_cells: u64 = estimate(&seqs, rows, all_against_all);
    let inline = work_cells < work::INLINE_WORK && threads == 1;
    let ask = Ask {
        problem,
        bound,
        all_against_all,
    };
    let values = work::run(py, inline, move |cancel| {
        matrix(ask, &seqs, rows, threads, cancel)
    })?;
    let array = values.into_pyarray(py).reshape([rows, cols])?;
    let array = array.into_any();
    match dtype {
        None => Ok(array),
        Some(dtype) => array.call_method1("astype", (dtype,)),
    }
}

/// DP cells of every pair, to tell small work from large.
fn estimate(seqs: &[Seq], rows: usize, all_against_all: bool) -> u64 {
    let (queries, choices) = match all_against_all {
        true => (seqs, seqs),
        false => seqs.split_at(rows),
    };
    let q: u64 = queries.iter().map(|s| s.len() as u64 + 1).sum();
    let c: u64 = choices.iter().map(|s| s.len() as u64 + 1).sum();
    q.saturating_mul(c)
}

/// The matrix's values, row by row (`rows` queries first in `seqs`, then the choices).
fn matrix(ask: Ask, seqs: &[Seq], rows: usize, threads: usize, cancel: &AtomicBool) -> Vec<u32> {
    let (queries, choices): (Vec<&[u8]>, Vec<&[u8]>) = match ask.all_against_all {
        true => (seqs.iter().map(|s| &s[..]).collect(), Vec::new()),
        false => (
            seqs[..rows].iter().map(|s| &s[..]).collect(),
            seqs[rows..].iter().map(|s| &s[..]).collect(),
        ),
    };
    let targets = if ask.all_against_all {
        &queries
    } else {
        &choices
    };
    let cols = targets.len();
    let lengths = |set: &[&[u8]]| set.iter().map(|s| s.len()).collect::<Vec<_>>();
    let plan = Plan::new(ask, &lengths(&queries), &lengths(targets));
    let (lane_side, scanned_side) = match plan.lane_side {
        Side::Queries => (&queries, targets),
        Side::Targets => (targets, &queries),
    };
    let share = Share {
        plan: &plan,
        lane_side,
        scanned_side,
        simd: Simd::detect(),
    };
    // Queries in the lanes, two sets: each job's values go first into a block of its own (its
    // members' rows, its targets side by side in the plan's order, so that a unit's values for
    // the next target land in the cache lines of the last), and the block, still in the cache,
    // is scattered into the caller's rows and columns once the job is done. No second pass over
    // the matrix.
    let in_blocks = !ask.all_against_all && plan.lane_side == Side::Queries;
    let mut values = vec![ask.default_value(); rows * cols];
    let cells = Cells(values.as_mut_ptr());
    let shares = plan.shares(threads);
    std::thread::scope(|scope| {
        for jobs in &shares {
            let (share, plan, cells) = (&share, &plan, &cells);
            scope.spawn(move || {
                let mut block = Vec::new();
                for job in jobs {
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    if in_blocks {
                        in_block(share, job, &mut block, cols, cells);
                        continue;
                    }
                    share::run(share, std::slice::from_ref(job), &mut |item, got| {
                        for (p, &v) in item.members.clone().zip(got) {
                            let (q, c) = plan.pair(p, item.target);
                            // SAFETY: every pair is an item's member once, in one share (the
                            // plan's shares are disjoint), so no two threads write one cell;
                            // all against all the mirror cell is this pair's alone too.
                            unsafe { cells.set(q * cols + c, v) };
                            if ask.all_against_all {
                                unsafe { cells.set(c * cols + q, v) };
                            }
                        }
                    });
                }
            });
        }
    });
    if ask.all_against_all {
        for (i, s) in queries.iter().enumerate() {
            values[i * cols + i] = self_value(ask, s.len());
        }
    }
    values
}

/// Runs one job of two sets with the queries in the lanes: its values into `block` (a row a
/// member, a column a target, in the plan's order), then each row into the caller's row of
/// the matrix (`cols` wide), each value at its target's column.
fn in_block(share: &Share<'_>, job: &Job, block: &mut Vec<u32>, cols: usize, cells: &Cells) {
    let plan = share.plan;
    let members = plan.units[job.unit].members.clone();
    let width = job.targets.len();
    // Every pair of the job is an item's member once (two sets: each of the job's targets with
    // every member), so each cell of the block is written before it is read: the last job's
    // values need no clearing.
    let need = members.len() * width;
    if block.len() < need {
        block.resize(need, 0);
    }
    let block = &mut block[..need];
    share::run(share, std::slice::from_ref(job), &mut |item, got| {
        let column = item.target - job.targets.start;
        for (p, &v) in item.members.clone().zip(got) {
            block[(p - members.start) * width + column] = v;
        }
    });
    let columns = &plan.scanned[job.targets.clone()];
    for (row, p) in block.chunks_exact(width).zip(members) {
        let start = plan.lanes[p] * cols;
        for (&v, &c) in row.iter().zip(columns) {
            // SAFETY: the job's pairs are its own (the plan's shares are disjoint), so no other
            // thread writes these cells.
            unsafe { cells.set(start + c, v) };
        }
    }
}

/// A sequence against itself: distance 0, or its whole length as the LCS (0 below the
/// cut-off).
fn self_value(ask: Ask, len: usize) -> u32 {
    match (ask.problem, ask.bound) {
        (Problem::Edit, _) => 0,
        (Problem::Lcs, Some(l)) if len < l => 0,
        (Problem::Lcs, _) => len as u32,
    }
}

/// The matrix's cells, written by the threads each at its own pairs.
struct Cells(*mut u32);

// SAFETY: the threads write disjoint cells (see `matrix`), and the matrix outlives the scope.
unsafe impl Sync for Cells {}

impl Cells {
    /// # Safety
    /// `at` is in the matrix and no other thread writes it.
    unsafe fn set(&self, at: usize, v: u32) {
        unsafe { *self.0.add(at) = v };
    }
}
