//! A wave run as a class sees it, score step by score step: each step's diagonals `k = j − i`
//! with the row the step's edit reaches on each (before the slide) and its furthest row
//! `F[s][k]` (after it), the rank that owns each diagonal, each rank's run of diagonals, every
//! halo message the ranks exchanged with the step it belongs to, and each cell's cost: the
//! step that first reached it.
//!
//! The ranks computed the steps spread over themselves; rank 0 computes them again here in one
//! piece, with the engine's own step (`lcs_core::wave::front`) on the same bound, and checks
//! that they end at the run's final cost, that every slide runs along matching bytes, and that
//! every halo message the run recorded has the size of the values the plan says it carried. The
//! messages are the run's own: rank `r` sends each neighbour one message per exchange step
//! while both take part, so the `n`-th message from `r` to `q` is the `n`-th exchange step's
//! ([`WavePlan::exchanges`], [`WavePlan::sends`]). A cell
//! `(i, j)` is the point after `i + 1` bytes of `x` and `j + 1` of `y`; its cost is the first
//! step `s` with `F[s][j − i] ≥ i + 1`: its edit distance (or indel distance, for the LCS).
//! Cost: the steps' diagonals, `O(s²)`, and the matrix's cells once.

use crate::comm::protocol::wave::HEADER;
use crate::comm::protocol::Kind;
use crate::comm::trace::Event;
use crate::engines::wave::plan::{Run, WavePlan, MIN_SHARE};
use crate::error::Error;
use lcs_core::problem::Problem;
use lcs_core::wave::align::reaches_end;
use lcs_core::wave::front::{seed, step_words, Prev, NONE, PAD};

/// A cell no step reached.
pub const UNREACHED: u32 = u32::MAX;

/// One diagonal of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    pub k: i64,
    /// The row the step's edit reaches (the recurrence's maximum, clipped to the matrix).
    pub start: i64,
    /// The furthest row, `F[s][k]`: `start` slid along the matches that follow.
    pub end: i64,
    /// The rank that computed it.
    pub owner: usize,
}

/// One score step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub points: Vec<Point>,
    /// Each rank's run of the step's diagonals (`None`: it owns none).
    pub ranges: Vec<Option<(i64, i64)>>,
}

/// A halo message of the run, placed on its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Halo {
    pub step: usize,
    pub from: usize,
    pub to: usize,
    pub bytes: u64,
    /// Values carried (after the header of [`HEADER`] words).
    pub values: usize,
    /// The diagonals those values belong to.
    pub diagonals: Option<(i64, i64)>,
}

/// A wave run, step by step (see the module doc).
#[derive(Debug, Clone)]
pub struct Wavefronts {
    pub problem: Problem,
    pub rows: usize,
    pub cols: usize,
    pub ranks: usize,
    /// The bound every step was kept within, and the final cost.
    pub bound: usize,
    pub cost: usize,
    /// Diagonals between two of a step: 1, or 2 for the LCS.
    pub stride: i64,
    pub steps: Vec<Step>,
    pub halos: Vec<Halo>,
    /// The most steps between two exchanges (`--halo-steps`; 1: an exchange every step).
    pub halo_steps: usize,
    costs: Vec<u32>,
}

fn internal<T>(what: String) -> Result<T, Error> {
    Err(Error::Internal(anyhow::anyhow!("wave picture: {what}")))
}

impl Wavefronts {
    /// The steps of `plan` on `x` (the rows) and `y` up to the run's final `cost`, with the
    /// run's recorded messages `events`.
    pub fn of_run(
        plan: &WavePlan,
        (x, y): (&[u8], &[u8]),
        cost: usize,
        events: &[Event],
    ) -> Result<Wavefronts, Error> {
        let (m, n) = (plan.rows(), plan.cols());
        if x.len() != m || y.len() != n {
            return internal(format!("{} x {} sequences for {m} x {n}", x.len(), y.len()));
        }
        let reach = plan.reach();
        let (problem, stride) = (plan.problem(), reach.stride());
        let (mut prev_first, mut prev) = seed(problem);
        let mut steps = Vec::with_capacity(cost + 1);
        let mut costs = vec![UNREACHED; m * n];
        // The last row reached on each diagonal, by its index `k + m`.
        let mut reached: Vec<i64> = (-(m as i64)..=n as i64).map(|k| (-k).max(0)).collect();
        for t in 0..=cost {
            let Some((lo, _)) = reach.range(t) else {
                return internal(format!("step {t} of a run of cost {cost} reaches nothing"));
            };
            let mut out = vec![0i32; reach.count(t)];
            let before = Prev {
                first: prev_first,
                values: &prev,
            };
            step_words(problem, before, lo, &mut out, (x, y));
            if reaches_end(&reach, lo, &out) != (t == cost) {
                return internal(format!(
                    "the steps again do not end at the run's cost {cost}"
                ));
            }
            let mut points = Vec::with_capacity(out.len());
            for (q, &end) in out.iter().enumerate() {
                let k = lo + stride * q as i64;
                let get = |k: i64| i64::from(before.get(k, stride));
                let edited = match problem {
                    Problem::Edit => (get(k) + 1).max(get(k + 1) + 1).max(get(k - 1)),
                    Problem::Lcs => (get(k + 1) + 1).max(get(k - 1)),
                };
                let start = edited.min((m as i64).min(n as i64 - k));
                let end = i64::from(end);
                let slid = (start..end).all(|i| x[i as usize] == y[(i + k) as usize]);
                if start < (-k).max(0) || end < start || !slid {
                    return internal(format!("step {t}, diagonal {k}: {start} slides to {end}"));
                }
                let owner = plan.owner(t, k);
                let row = &mut reached[(k + m as i64) as usize];
                for i in *row + 1..=end {
                    costs[(i - 1) as usize * n + (i + k - 1) as usize] = t as u32;
                }
                *row = (*row).max(end);
                points.push(Point {
                    k,
                    start,
                    end,
                    owner,
                });
            }
            let ranges = (0..plan.ranks())
                .map(|r| plan.own(t, r).map(|run| (*run.start(), *run.end())))
                .collect();
            steps.push(Step { points, ranges });
            prev_first = lo;
            prev.clear();
            prev.resize(PAD, NONE);
            prev.extend_from_slice(&out);
            prev.resize(prev.len() + PAD, NONE);
        }
        Ok(Wavefronts {
            problem,
            rows: m,
            cols: n,
            ranks: plan.ranks(),
            bound: plan.bound(),
            cost,
            stride,
            steps,
            halos: halos(plan, events)?,
            halo_steps: plan.halo_steps(),
            costs,
        })
    }

    /// The step that first reached cell `(i, j)`, or [`UNREACHED`].
    pub fn cost_of(&self, i: usize, j: usize) -> u32 {
        self.costs[i * self.cols + j]
    }

    /// Each row's costs.
    pub fn cost_rows(&self) -> Vec<Vec<u32>> {
        self.costs
            .chunks(self.cols.max(1))
            .take(self.rows)
            .map(<[u32]>::to_vec)
            .collect()
    }

    /// The rank that computed cell `(i, j)`: the owner of its diagonal at its step (`None`:
    /// unreached).
    pub fn owner(&self, i: usize, j: usize) -> Option<usize> {
        let t = self.cost_of(i, j);
        let k = j as i64 - i as i64;
        let step = self.steps.get(t as usize)?;
        step.ranges
            .iter()
            .position(|r| r.is_some_and(|(a, b)| (a..=b).contains(&k)))
    }

    /// The steps the page plays: every score step, and those after the last in which ranks
    /// still pass on that the fill is over (their halos are empty).
    pub fn units(&self) -> usize {
        let last = self.halos.iter().map(|h| h.step + 1).max().unwrap_or(0);
        self.steps.len().max(last)
    }

    /// Cells some step reached.
    pub fn reached(&self) -> usize {
        self.costs.iter().filter(|&&c| c != UNREACHED).count()
    }

    /// Ranks that own diagonals at some step.
    pub fn ranks_used(&self) -> usize {
        self.steps
            .iter()
            .map(|s| s.ranges.iter().filter(|r| r.is_some()).count())
            .max()
            .unwrap_or(1)
    }

    /// Diagonals of the widest step.
    pub fn widest(&self) -> usize {
        self.steps.iter().map(|s| s.points.len()).max().unwrap_or(0)
    }

    /// Diagonals per rank a step needs before it is shared.
    pub fn min_share(&self) -> usize {
        MIN_SHARE
    }

    /// How often the ranks exchange, in words: "at every step", or "every few steps".
    pub fn exchange_words(&self) -> String {
        match self.halo_steps {
            1 => "at every step".to_owned(),
            h => format!(
                "every {h} steps at most (each halo carrying what the neighbour reads until the \
                 next, which both compute)"
            ),
        }
    }

    /// Halo messages sent from `from` to `to` in all.
    pub fn between(&self, from: usize, to: usize) -> usize {
        self.halos
            .iter()
            .filter(|h| h.from == from && h.to == to)
            .count()
    }
}

/// The run's boundary messages, each placed on its step (see the module doc) with the values
/// it carried.
fn halos(plan: &WavePlan, events: &[Event]) -> Result<Vec<Halo>, Error> {
    let p = plan.ranks();
    let mut sent = vec![0usize; p * p];
    let mut exchanges: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for e in events.iter().filter(|e| e.kind == Kind::Boundary) {
        if e.from >= p || e.to >= p || e.from.abs_diff(e.to) != 1 {
            return internal(format!("a halo from p{} to p{}", e.from, e.to));
        }
        let nth = sent[e.from * p + e.to];
        sent[e.from * p + e.to] += 1;
        // The n-th message between two ranks is the n-th exchange step's.
        while exchanges.len() <= nth {
            let next = exchanges.last().map_or(0, |&e| plan.next_exchange(e));
            exchanges.push(next);
        }
        let step = exchanges[nth];
        let words = (e.bytes / 4) as usize;
        if e.bytes % 4 != 0 || words < HEADER {
            return internal(format!("a halo of {} bytes", e.bytes));
        }
        let values = words - HEADER;
        let diagonals = match values {
            0 => None,
            _ => {
                let run: Option<Run> = plan.sends(step, e.from, e.to);
                match run {
                    Some(run) if plan.len(&run) == values => Some((*run.start(), *run.end())),
                    run => {
                        return internal(format!(
                            "p{} sent p{} {values} values at step {step}, the plan {run:?}",
                            e.from, e.to
                        ))
                    }
                }
            }
        };
        out.push(Halo {
            step,
            from: e.from,
            to: e.to,
            bytes: e.bytes,
            values,
            diagonals,
        });
    }
    out.sort_by_key(|h| (h.step, h.from, h.to));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcs_core::reference;

    /// The messages a run of `plan` to `cost` sends: one each way per neighbour and step
    /// while both take part, empty (a header) once the end is known.
    fn events(plan: &WavePlan, cost: usize) -> Vec<Event> {
        let mut out = Vec::new();
        for r in 0..plan.ranks() {
            for q in [r.wrapping_sub(1), r + 1] {
                if q >= plan.ranks() {
                    continue;
                }
                let last = plan.last_step(cost, r).min(plan.last_step(cost, q));
                for t in plan.exchanges().take_while(|&t| t <= last) {
                    let values = match t < cost {
                        true => plan.sends(t, r, q).map_or(0, |run| plan.len(&run)),
                        false => 0,
                    };
                    let bytes = 4 * (HEADER + values);
                    out.push(Event::new(Kind::Boundary, r, q, None, bytes));
                }
            }
        }
        out
    }

    #[test]
    fn every_cells_cost_is_its_distance_and_the_steps_end_at_the_cost() {
        let (x, y) = (b"GATTACAGATC".as_slice(), b"GCATTACAGTTAC".as_slice());
        for problem in [Problem::Edit, Problem::Lcs] {
            let table = reference::full_table_of(problem, x, y);
            let path = reference::align(problem, x, y);
            let cost = match problem {
                Problem::Edit => path.edits(),
                Problem::Lcs => x.len() + y.len() - 2 * path.matched(x).len(),
            };
            let bound = lcs_core::wave::bound::upper_bound(problem, (x, y));
            for ranks in [1, 2, 3] {
                let plan = WavePlan::new(problem, x.len(), y.len(), ranks, bound);
                let w = Wavefronts::of_run(&plan, (x, y), cost, &events(&plan, cost)).unwrap();
                assert_eq!(w.steps.len(), cost + 1);
                for (i, row) in table.iter().enumerate() {
                    for (j, &v) in row.iter().enumerate() {
                        let c = w.cost_of(i, j);
                        if c == UNREACHED {
                            continue;
                        }
                        let want = match problem {
                            Problem::Edit => v,
                            Problem::Lcs => (i + j + 2) as u32 - 2 * v,
                        };
                        assert_eq!(c, want, "{problem:?} ({i}, {j})");
                    }
                }
                // The last cell, at the final cost.
                assert_eq!(w.cost_of(x.len() - 1, y.len() - 1), cost as u32);
                assert_eq!(w.halos.len() as u64, plan.predicted(cost).total);
                for h in &w.halos {
                    assert!(h.step <= cost + ranks, "{h:?}");
                }
                assert!(w.owner(0, 0).is_some());
            }
        }
    }

    #[test]
    fn a_wrong_cost_or_a_stray_message_is_an_internal_error() {
        let (x, y) = (b"ACGT".as_slice(), b"AGGTC".as_slice());
        let plan = WavePlan::new(Problem::Edit, 4, 5, 2, 5);
        assert!(Wavefronts::of_run(&plan, (x, y), 1, &[]).is_err());
        assert!(Wavefronts::of_run(&plan, (x, y), 2, &[]).is_ok());
        let stray = [Event::new(Kind::Boundary, 0, 1, None, 4 * HEADER + 8)];
        assert!(Wavefronts::of_run(&plan, (x, y), 2, &stray).is_err());
    }
}
