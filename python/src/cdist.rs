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
//! Cost: the plan's (`docs/pairs.md`); the matrix, four bytes a pair, built in place.

use std::sync::atomic::{AtomicBool, Ordering};

use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;

use crate::align::{cutoff, problem_of};
use crate::seqs::{self, Seq};
use crate::work;
use lcs_core::pairs::plan::{Ask, Plan, Side};
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
    // Queries in the lanes, two sets: the values go in the plan's order (a lane's row, its
    // targets side by side, so that a unit's values for the next target land in the cache
    // lines of the last), and are put in the caller's order at the end, in place, in one pass:
    // the rows a cycle at a time, each row's columns put in order as it moves. No second
    // matrix to allocate and touch.
    let in_plan_order = !ask.all_against_all && plan.lane_side == Side::Queries;
    let mut values = vec![ask.default_value(); rows * cols];
    let cells = Cells(values.as_mut_ptr());
    let shares = plan.shares(threads);
    std::thread::scope(|scope| {
        for jobs in &shares {
            let (share, plan, cells) = (&share, &plan, &cells);
            scope.spawn(move || {
                for job in jobs {
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    share::run(share, std::slice::from_ref(job), &mut |item, got| {
                        // SAFETY: every pair is an item's member once, in one share (the
                        // plan's shares are disjoint), so no two threads write one cell; all
                        // against all the mirror cell is this pair's alone too.
                        let members = item.members.clone().zip(got);
                        if in_plan_order {
                            // The item's column, a row a member.
                            let column = item.target;
                            for (p, &v) in members {
                                unsafe { cells.set(p * cols + column, v) };
                            }
                            return;
                        }
                        for (p, &v) in members {
                            let (q, c) = plan.pair(p, item.target);
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
    if in_plan_order {
        to_caller_order(&mut values, cols, &plan.lanes, &plan.scanned);
        return values;
    }
    if ask.all_against_all {
        for (i, s) in queries.iter().enumerate() {
            values[i * cols + i] = self_value(ask, s.len());
        }
    }
    values
}

/// Puts `values` (rows of `cols` in the plan's order) in the caller's, in place: row `p` goes
/// to row `rows[p]`, and column `t` of every row to column `cols_to[t]` (both permutations).
/// Each cycle of the rows' permutation with one row held aside, each row read once and its
/// columns scattered into its new place; a row that stays is put in order through the held
/// one.
fn to_caller_order(values: &mut [u32], cols: usize, rows: &[usize], cols_to: &[usize]) {
    let scatter = |from: &[u32], to: &mut [u32]| {
        for (&v, &c) in from.iter().zip(cols_to) {
            to[c] = v;
        }
    };
    let mut from = vec![0; rows.len()];
    for (p, &q) in rows.iter().enumerate() {
        from[q] = p;
    }
    let mut placed = vec![false; rows.len()];
    let mut held = vec![0; cols];
    for start in 0..rows.len() {
        if placed[start] {
            continue;
        }
        held.copy_from_slice(&values[start * cols..(start + 1) * cols]);
        let mut q = start;
        while from[q] != start {
            let p = from[q];
            // Rows p and q differ: split the matrix between them.
            let (low, high) = values.split_at_mut(p.max(q) * cols);
            let (source, target) = match p < q {
                true => (&low[p * cols..(p + 1) * cols], &mut high[..cols]),
                false => (&high[..cols], &mut low[q * cols..(q + 1) * cols]),
            };
            scatter(source, target);
            placed[q] = true;
            q = p;
        }
        scatter(&held, &mut values[q * cols..(q + 1) * cols]);
        placed[q] = true;
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
