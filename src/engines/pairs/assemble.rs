//! What rank 0 keeps of a pairs run's values, and what that costs in memory.
//!
//! - [`Kept::Matrix`] — every pair's value in a dense matrix ([`Dense`]): `4 |Q| |T|` bytes
//!   (all against all `4 N^2`), filled with the bound's default first (a pair no unit computes
//!   is beyond the bound) and then with each rank's values where the plan says they belong.
//!   The `.npy` output, and the TSV without a bound, are written from it, a row at a time in the
//!   files' order.
//! - [`Kept::Passing`] — only the pairs that pass the bound, as (query, target, value),
//!   sorted: the TSV with a bound (a similarity join), whose size the run cannot foresee, kept
//!   in memory up to what the limit leaves and spilled to disk beyond ([`Passing`]).
//!
//! The dense matrix is kept in the plan's order, queries by targets each sorted by length as
//! the plan sorts them, not in the files' order: a unit's item writes its members' values
//! to a few neighbouring places there (a unit's members are neighbours in the sorted lane
//! side, its targets follow one another), where in the files' order they would land at random
//! across the whole matrix, a cache miss each. A row of the files' order is then gathered from
//! one row of the sorted matrix ([`Dense::row`]). All against all, the pairs are computed with
//! the shorter sequence first in the sorted order; the matrix is made symmetric once every
//! value is in ([`Kept::finish`]).

use std::io;

use lcs_core::pairs::plan::{Job, Plan, Side};
use lcs_core::pairs::work::Item;

use super::passing::{Pair, Passing};

/// Rank 0's values of a run.
pub enum Kept {
    Matrix(Dense),
    /// (query, target, value), by query then target once finished.
    Passing(Passing),
}

/// How rank 0 keeps the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keeping {
    Matrix,
    Passing,
}

/// Every pair's value, queries by targets, each in the plan's sorted order (see the module
/// doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dense {
    /// Queries and targets (all against all: the sequences, twice).
    pub rows: usize,
    pub cols: usize,
    values: Vec<u32>,
    /// A query's sorted place, and a target's.
    row_of: Vec<usize>,
    col_of: Vec<usize>,
    /// Whether the queries are the plan's lane side (else its scanned side).
    queries_in_lanes: bool,
}

impl Dense {
    /// The place of the pair of lane-side position `p` and scanned position `t`.
    fn at(&self, p: usize, t: usize) -> usize {
        match self.queries_in_lanes {
            true => p * self.cols + t,
            false => t * self.cols + p,
        }
    }

    /// Query `q`'s values, every target in the file's order, into `out`.
    pub fn row(&self, q: usize, out: &mut Vec<u32>) {
        let row = &self.values[self.row_of[q] * self.cols..][..self.cols];
        out.clear();
        out.extend(self.col_of.iter().map(|&c| row[c]));
    }
}

/// The shape of the dense matrix of `plan`: queries by targets (all against all, `N x N`).
pub fn shape(plan: &Plan) -> (usize, usize) {
    let (lanes, scanned) = (plan.lanes.len(), plan.scanned.len());
    match plan.lane_side {
        Side::Queries => (lanes, scanned),
        Side::Targets => (scanned, lanes),
    }
}

/// Bytes of the dense matrix of `plan`, `None` beyond this machine's address space.
pub fn matrix_bytes(plan: &Plan) -> Option<u64> {
    let (rows, cols) = shape(plan);
    (rows as u64).checked_mul(cols as u64)?.checked_mul(4)
}

/// The inverse of an order: where each number sits.
fn places(order: &[usize]) -> Vec<usize> {
    let mut place = vec![0; order.len()];
    for (at, &n) in order.iter().enumerate() {
        place[n] = at;
    }
    place
}

/// The pairs of one item's values that pass the bound, as (query, target, value).
pub fn passing_of<'a>(
    plan: &'a Plan,
    item: &'a Item,
    values: &'a [u32],
) -> impl Iterator<Item = Pair> + 'a {
    item.members
        .clone()
        .zip(values)
        .filter(|&(_, &v)| plan.ask.passes(v))
        .map(|(p, &v)| {
            let (a, b) = plan.pair(p, item.target);
            [a as u32, b as u32, v]
        })
}

impl Kept {
    /// The dense matrix rank 0 starts with, filled with the default value.
    pub fn matrix(plan: &Plan) -> Kept {
        let (rows, cols) = shape(plan);
        let queries_in_lanes = plan.lane_side == Side::Queries;
        let (lanes, scanned) = (places(&plan.lanes), places(&plan.scanned));
        let (row_of, col_of) = match queries_in_lanes {
            true => (lanes, scanned),
            false => (scanned, lanes),
        };
        Kept::Matrix(Dense {
            rows,
            cols,
            values: vec![plan.ask.default_value(); rows * cols],
            row_of,
            col_of,
            queries_in_lanes,
        })
    }

    /// Places one item's values (rank 0's own, as they are computed).
    pub fn place(&mut self, plan: &Plan, item: &Item, values: &[u32]) {
        match self {
            Kept::Matrix(dense) => {
                for (p, &v) in item.members.clone().zip(values) {
                    let at = dense.at(p, item.target);
                    dense.values[at] = v;
                }
            }
            Kept::Passing(pairs) => pairs.extend(passing_of(plan, item, values)),
        }
    }

    /// Places every value of another rank's share `jobs`, in the plan's order, from their
    /// little-endian bytes (four a value); `false` when there are more or fewer values than the
    /// share's items hold.
    pub fn place_every(&mut self, plan: &Plan, jobs: &[Job], bytes: &[u8]) -> bool {
        let Kept::Matrix(dense) = self else {
            return false;
        };
        if plan.jobs_values(jobs) * 4 != bytes.len() as u64 {
            return false;
        }
        let mut values = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        for job in jobs {
            for target in job.targets.clone() {
                for p in plan.valid(job.unit, target) {
                    let at = dense.at(p, target);
                    dense.values[at] = values.next().unwrap_or_default();
                }
            }
        }
        true
    }

    /// Once every value is in: the pairs in query then target order (which may read back and
    /// merge what was spilled: an error is the disk's); all against all, the matrix made
    /// symmetric (each pair was placed once, above the diagonal in the sorted order), with a
    /// zero diagonal.
    pub fn finish(&mut self, plan: &Plan) -> io::Result<()> {
        match self {
            Kept::Passing(pairs) => return pairs.finish(),
            Kept::Matrix(dense) if plan.ask.all_against_all => {
                let n = dense.rows;
                // In tiles, so that reads and writes both stay in cache.
                const TILE: usize = 64;
                for r0 in (0..n).step_by(TILE) {
                    for c0 in (r0..n).step_by(TILE) {
                        for r in r0..(r0 + TILE).min(n) {
                            for c in c0.max(r + 1)..(c0 + TILE).min(n) {
                                dense.values[c * n + r] = dense.values[r * n + c];
                            }
                        }
                    }
                }
                for d in 0..n {
                    dense.values[d * n + d] = 0;
                }
            }
            Kept::Matrix(_) => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcs_core::pairs::plan::Ask;
    use lcs_core::problem::Problem;

    /// Values placed in the sorted order read back in the files' order, either side in lanes,
    /// and all against all symmetric.
    #[test]
    fn rows_come_back_in_the_files_order() {
        let queries = [5, 1, 300, 40, 2];
        for (targets, all) in [
            (vec![9usize, 3, 100], false),
            (vec![1; 40], false),
            (vec![], true),
        ] {
            let ask = Ask {
                problem: Problem::Edit,
                bound: None,
                all_against_all: all,
            };
            let plan = Plan::new(ask, &queries, &targets);
            let mut kept = Kept::matrix(&plan);
            let value = |a: usize, b: usize| (100 * a + b) as u32;
            for jobs in plan.shares(1) {
                for job in &jobs {
                    for t in job.targets.clone() {
                        let members = plan.valid(job.unit, t);
                        let values: Vec<u32> = members
                            .clone()
                            .map(|p| {
                                let (a, b) = plan.pair(p, t);
                                value(a, b)
                            })
                            .collect();
                        let item = Item {
                            unit: job.unit,
                            target: t,
                            members,
                        };
                        kept.place(&plan, &item, &values);
                    }
                }
            }
            kept.finish(&plan).unwrap();
            let Kept::Matrix(dense) = &kept else {
                panic!("a matrix")
            };
            let mut row = Vec::new();
            for q in 0..dense.rows {
                dense.row(q, &mut row);
                for (t, &v) in row.iter().enumerate() {
                    let want = match all {
                        true if q == t => 0,
                        true => value(q.min(t), q.max(t)),
                        false => value(q, t),
                    };
                    assert_eq!(v, want, "({q}, {t}) all {all}");
                }
            }
        }
    }
}
