//! Who computes which diagonals of each score step of the wave engine, what each rank sends its
//! neighbours, and how many messages a run takes: pure arithmetic, no MPI.
//!
//! Step `t` reaches the diagonals [`Reach::range`] gives (the final cost's bound keeps them to
//! those a path of that cost can use). They are split among the first `p(t)` ranks as the other
//! engines split a run of items ([`Split`]), `p(t) = min(P, max(1, count / MIN_SHARE))`: each
//! rank a contiguous run, in diagonal order, the first ranks one more. As the wavefront widens
//! and narrows the split follows it step by step, so every step is balanced; a boundary then
//! moves at most one diagonal per step, except where `p` changes, and a rank always finds the
//! diagonals it needs next in its own run or its neighbours' (the tests check it).
//!
//! Computing its run of step `t + 1` a rank reads step `t` on its run one diagonal wider each
//! way ([`WavePlan::input`]). The ranks exchange after step 0 and then every few steps, at most
//! [`WavePlan::halo_steps`] apart ([`WavePlan::exchanges`]; ghost zones): after an exchange step
//! `e` each rank holds what it reads over the whole block of steps to the next exchange `e'`,
//! its run of step `e' ` widened by one, of step `e' - 1` by two and so on back to `e`
//! ([`WavePlan::cones`]), and computes the diagonals of that cone outside its run again at each
//! step of the block, as its neighbours compute them. Each exchange step every rank sends each
//! neighbour one message with the values of its run that the neighbour holds next
//! ([`WavePlan::sends`]), empty when there is nothing to pass: a run of `s` steps takes about
//! `s / h` messages each way for `h` steps a block, each about `2 h` values. With `h = 1` every
//! step is an exchange step and the cone is the next step's input. A block is cut short where
//! its cones would reach past a neighbour's run or where the last cell's diagonal changes owner
//! within it ([`WavePlan::block_fits`]). A checkpoint step inside a block is computed whole by
//! the rank that keeps it, halo and all, its cone widened to it over the steps before.
//!
//! Every so many steps the message also carries [`WavePlan::halo`] diagonals around the
//! neighbour's run, so that each rank keeps a checkpoint the walk can recompute its windows from
//! ([`WavePlan::kept`]); a block of steps where the split moves too much for that keeps every
//! step a rank read instead.
//!
//! The fill ends when the rank owning the last cell's diagonal reaches it at step `s`: its
//! messages of the first exchange from `s` say so, each neighbour passes it on at its next
//! exchange and stops after it, so rank `r` makes its last exchange `|r - o|` exchanges after
//! the first from `s` (`o` the rank that found it), and the boundary messages between ranks `r`
//! and `r + 1` are one each way per exchange up to the earlier of their last
//! ([`WavePlan::predicted`]): with `h = 1`, `2 * (s + min(|r - o|, |r + 1 - o|) + 1)`.

use std::ops::RangeInclusive;

use lcs_core::problem::Problem;
use lcs_core::split::Split;
use lcs_core::wave::front::{Reach, PAD};
use lcs_core::wave::kept::{window, EVERY};
use lcs_core::wave::seqs::SLACK;

use crate::comm::traffic::Predicted;
use crate::engines::holding::Holding;

/// Diagonals a rank owns at least when it shares a step with others.
pub const MIN_SHARE: usize = 16;

/// A run of diagonals of one step: first and last, every stride.
pub type Run = RangeInclusive<i64>;

/// How the wave engine splits a pair among `ranks` ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WavePlan {
    reach: Reach,
    ranks: usize,
    every: usize,
    /// The most steps between two exchanges.
    halo_steps: usize,
}

impl WavePlan {
    /// The plan of `problem` on an `m x n` matrix (`m <= n`) over `ranks` ranks, its steps kept
    /// within `bound` (at least the final cost).
    pub fn new(problem: Problem, m: usize, n: usize, ranks: usize, bound: usize) -> WavePlan {
        WavePlan {
            reach: Reach::new(problem, m, n, bound),
            ranks,
            every: EVERY,
            halo_steps: 1,
        }
    }

    /// The plan with at most `steps` score steps between two exchanges (at least 1): each
    /// exchange then carries what the receiver reads over the steps to the next one.
    pub fn with_halo_steps(self, steps: usize) -> WavePlan {
        WavePlan {
            halo_steps: steps.max(1),
            ..self
        }
    }

    /// The most steps between two exchanges.
    pub fn halo_steps(&self) -> usize {
        self.halo_steps
    }

    /// The plan with checkpoints `every` steps apart (more keeps less memory).
    pub fn with_every(self, every: usize) -> WavePlan {
        WavePlan { every, ..self }
    }

    /// Steps between two checkpoints.
    pub fn every(&self) -> usize {
        self.every
    }

    /// The walk's window on either side of its diagonal.
    fn window(&self) -> i64 {
        window(self.every)
    }

    /// Diagonals beyond a rank's own that it keeps of a checkpoint: the walk's window around
    /// any diagonal the rank owns within the block.
    pub fn halo(&self) -> i64 {
        self.every as i64 + self.window() + 2
    }

    pub fn reach(&self) -> Reach {
        self.reach
    }

    pub fn ranks(&self) -> usize {
        self.ranks
    }

    pub fn problem(&self) -> Problem {
        self.reach.problem
    }

    pub fn rows(&self) -> usize {
        self.reach.m
    }

    pub fn cols(&self) -> usize {
        self.reach.n
    }

    /// The bound every step is kept within.
    pub fn bound(&self) -> usize {
        self.reach.bound
    }

    /// Ranks sharing step `t`.
    pub fn active(&self, t: usize) -> usize {
        self.active_of(self.reach.count(t))
    }

    /// Ranks sharing a step of `count` diagonals.
    fn active_of(&self, count: usize) -> usize {
        (count / MIN_SHARE).clamp(1, self.ranks)
    }

    /// Step `t`'s first diagonal and split, or `None` past the bound: the step's reach is
    /// worked out once (the fill asks this many times a step).
    fn split(&self, t: usize) -> Option<(i64, Split)> {
        let (lo, hi) = self.reach.range(t)?;
        // The stride is 1 or 2: a shift, not a division.
        let count = ((hi - lo) >> (self.reach.stride() - 1)) as usize + 1;
        Some((lo, Split::new(count, self.active_of(count))))
    }

    /// Rank `r`'s diagonals of step `t`, or `None`.
    pub fn own(&self, t: usize, r: usize) -> Option<Run> {
        let (lo, split) = self.split(t)?;
        let items = split.range(r);
        let s = self.reach.stride();
        (!items.is_empty()).then(|| lo + s * items.start as i64..=lo + s * (items.end as i64 - 1))
    }

    /// The rank owning diagonal `k` of step `t` (which the step reaches).
    pub fn owner(&self, t: usize, k: i64) -> usize {
        let (lo, split) = self.split(t).expect("a reached step");
        let item = ((k - lo) >> (self.reach.stride() - 1)) as usize;
        split.owner(item)
    }

    /// The diagonals of step `t` within `run` widened by `by` each way, inside the step's
    /// reach, of the step's stride.
    fn widen(&self, t: usize, run: &Run, by: i64) -> Option<Run> {
        let (lo, hi) = self.reach.range(t)?;
        let s = self.reach.stride();
        let mut a = (run.start() - by).max(lo);
        let mut b = (run.end() + by).min(hi);
        a += (a - lo).rem_euclid(s);
        b -= (b - lo).rem_euclid(s);
        (a <= b).then_some(a..=b)
    }

    /// What rank `r` reads of step `t - 1` to compute its diagonals of step `t`: its run one
    /// diagonal wider each way.
    pub fn input(&self, t: usize, r: usize) -> Option<Run> {
        let own = self.own(t, r)?;
        self.widen(t.checked_sub(1)?, &own, 1)
    }

    /// Whether the block of steps from `c` (a multiple of the spacing) keeps checkpoints: while
    /// each rank's run stays within its run of step `c` widened by `halo - window - 1`, and every
    /// rank's wider run at `c` lies within its neighbours' runs (so one message brings it).
    pub fn checkpointed(&self, c: usize) -> bool {
        let (every, halo) = (self.every, self.halo());
        let spare = halo - self.window() - 1;
        (0..self.ranks).all(|r| {
            let Some(base) = self.own(c, r) else {
                return (c..=c + every).all(|t| self.own(t, r).is_none());
            };
            let covered = match self.widen(c, &base, halo) {
                Some(wide) => {
                    let from = |q: usize| self.own(c, q);
                    let left = r
                        .checked_sub(1)
                        .and_then(from)
                        .map_or(*base.start(), |o| *o.start());
                    let right = from(r + 1).map_or(*base.end(), |o| *o.end());
                    left <= *wide.start() && *wide.end() <= right
                }
                None => true,
            };
            covered
                && (c + 1..=c + every).all(|t| match self.own(t, r) {
                    Some(run) => {
                        *run.start() >= base.start() - spare && *run.end() <= base.end() + spare
                    }
                    None => true,
                })
        })
    }

    /// What rank `r` keeps of step `t` for the walk: at a checkpoint of a checkpointed block,
    /// its run with [`WavePlan::halo`] diagonals each way; in a block that is not, what it reads for the
    /// next step; else nothing.
    pub fn kept(&self, t: usize, r: usize) -> Option<Run> {
        self.kept_in(t, r, self.checkpointed(t - t % self.every))
    }

    /// [`Self::kept`], given whether the step's block is checkpointed.
    pub fn kept_in(&self, t: usize, r: usize, checkpointed: bool) -> Option<Run> {
        match checkpointed {
            true if t.is_multiple_of(self.every) => self.widen(t, &self.own(t, r)?, self.halo()),
            true => None,
            false => self.input(t + 1, r),
        }
    }

    /// The exchange that follows the one after step `e` (itself an exchange step): as many
    /// steps on as [`WavePlan::halo_steps`] allows, and no further than every rank can go on
    /// what one exchange brings ([`WavePlan::block_fits`]).
    pub fn next_exchange(&self, e: usize) -> usize {
        let most = e + self.halo_steps;
        (e + 2..=most)
            .rev()
            .find(|&end| self.block_fits(e, end))
            .unwrap_or(e + 1)
    }

    /// The steps after which the ranks exchange, from step 0 on, without end.
    pub fn exchanges(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(0), |&e| Some(self.next_exchange(e)))
    }

    /// Whether the ranks can compute steps `e + 1 ..= end` on what the exchange after step `e`
    /// brings: every rank's need at `e` ([`WavePlan::need_in`]) lies in its own run and its
    /// neighbours', and one rank owns the last cell's diagonal at every step of the block that
    /// has it, so that the first to see the last cell reached is its owner at the final cost.
    pub fn block_fits(&self, e: usize, end: usize) -> bool {
        let k = self.reach.end();
        let mut finder = None;
        for t in e + 1..=end {
            if self.reaches(t, k) {
                let o = self.owner(t, k);
                if finder.is_some_and(|f| f != o) {
                    return false;
                }
                finder = Some(o);
            }
        }
        let cp = self.checkpointed(e - e % self.every);
        (0..self.ranks).all(|r| match self.need_in(e, r, cp, end) {
            Some(need) => self.held_nearby(e, r, &need),
            None => true,
        })
    }

    /// Whether step `t` reaches diagonal `k`.
    pub fn reaches(&self, t: usize, k: i64) -> bool {
        self.reach
            .range(t)
            .is_some_and(|(lo, hi)| lo <= k && k <= hi && (k - lo) % self.reach.stride() == 0)
    }

    /// Whether `run` of step `t` lies within the runs of rank `r` and its neighbours.
    fn held_nearby(&self, t: usize, r: usize, run: &Run) -> bool {
        let runs = [r.checked_sub(1), Some(r), Some(r + 1)]
            .into_iter()
            .flatten()
            .filter(|&q| q < self.ranks)
            .filter_map(|q| self.own(t, q));
        hull_of(runs).is_some_and(|held| held.start() <= run.start() && run.end() <= held.end())
    }

    /// What rank `r` reads of steps `e ..= end - 1` to compute its runs of the steps after
    /// each without an exchange, the block from exchange step `e` to the next, `end`: entry
    /// `t - e` is step `t`'s, the diagonals the rank computes at step `t + 1` widened by one
    /// each way (at `end`, its run; before, its run, what it reads at that step and what it
    /// keeps of it: [`WavePlan::computed`]).
    pub fn cones(&self, e: usize, r: usize, end: usize) -> Vec<Option<Run>> {
        let mut out = vec![None; end - e];
        let mut next: Option<Run> = None;
        let mut block = (usize::MAX, false);
        for t in (e..end).rev() {
            let u = t + 1;
            let computed = match u < end {
                true => {
                    let c = u - u % self.every;
                    if block.0 != c {
                        block = (c, self.checkpointed(c));
                    }
                    self.computed(u, r, next.take(), block.1)
                }
                false => self.own(u, r),
            };
            next = computed.and_then(|run| self.widen(t, &run, 1));
            out[t - e] = next.clone();
        }
        out
    }

    /// What rank `r` computes of step `t` inside a block (not an exchange step), given what it
    /// reads of it (`cone`, [`WavePlan::cones`]) and whether its block of checkpoints is
    /// checkpointed: its run, the cone and what it keeps, which may be a checkpoint's halo
    /// ([`WavePlan::kept_in`]), all from the step before.
    pub fn computed(
        &self,
        t: usize,
        r: usize,
        cone: Option<Run>,
        checkpointed: bool,
    ) -> Option<Run> {
        hull(hull(self.own(t, r), cone), self.kept_in(t, r, checkpointed))
    }

    /// The diagonals of step `t` rank `r` must hold after it, in the block of steps up to the
    /// exchange step `end` (`t < end`): what it reads for the steps to `end`, and what it keeps
    /// ([`WavePlan::kept_in`]), given whether the step's block of checkpoints is checkpointed.
    /// With one step a block, what it reads is [`WavePlan::input`] of step `t + 1`.
    pub fn need_in(&self, t: usize, r: usize, checkpointed: bool, end: usize) -> Option<Run> {
        let cone = self.cones(t, r, end).swap_remove(0);
        hull(cone, self.kept_in(t, r, checkpointed))
    }

    /// [`Self::need_in`] at the exchange step `e`, its block worked out.
    pub fn need(&self, e: usize, r: usize) -> Option<Run> {
        let cp = self.checkpointed(e - e % self.every);
        self.need_in(e, r, cp, self.next_exchange(e))
    }

    /// The values rank `from` sends its neighbour `to` at the exchange step `e`: its own run's
    /// part of what `to` must hold.
    pub fn sends(&self, e: usize, from: usize, to: usize) -> Option<Run> {
        let cp = self.checkpointed(e - e % self.every);
        self.sends_in(e, from, to, cp, self.next_exchange(e))
    }

    /// [`Self::sends`], given whether the step's block is checkpointed and the next exchange.
    pub fn sends_in(
        &self,
        e: usize,
        from: usize,
        to: usize,
        checkpointed: bool,
        end: usize,
    ) -> Option<Run> {
        let own = self.own(e, from)?;
        let need = self.need_in(e, to, checkpointed, end)?;
        let a = *own.start().max(need.start());
        let b = *own.end().min(need.end());
        (a <= b).then_some(a..=b)
    }

    /// Whether rank `r` can answer the walk at a cell of cost `d` on diagonal `k` (its
    /// look-ups in step `d - 1`), given whether that step's block is checkpointed: from a
    /// checkpoint that holds a whole window around `k`, or from the step it kept whole. The
    /// owner of `(d, k)` always can; a walk stays on a rank while it can, so that it hops only
    /// when it strays well into another rank's diagonals.
    pub fn serves(&self, r: usize, d: usize, k: i64, checkpointed: bool) -> bool {
        let Some(t) = d.checked_sub(1) else {
            return true;
        };
        let step = match checkpointed {
            true => t - t % self.every,
            false => t,
        };
        let (Some(held), Some((lo, hi))) =
            (self.kept_in(step, r, checkpointed), self.reach.range(step))
        else {
            return false;
        };
        let reach = match checkpointed {
            true => self.window() + 1,
            false => 1,
        };
        *held.start() <= (k - reach).max(lo) && (k + reach).min(hi) <= *held.end()
    }

    /// Values in `run` (every stride).
    pub fn len(&self, run: &Run) -> usize {
        ((run.end() - run.start()) / self.reach.stride()) as usize + 1
    }

    /// The rank that finds the end: the owner of the last cell's diagonal at step `cost`.
    pub fn finder(&self, cost: usize) -> usize {
        self.owner(cost, self.reach.end())
    }

    /// The last step whose exchange rank `r` takes part in, for a run of final cost `cost`:
    /// the finder tells its neighbours at the first exchange from `cost`, and each rank the
    /// next one out at its next exchange.
    pub fn last_step(&self, cost: usize, r: usize) -> usize {
        let hops = r.abs_diff(self.finder(cost));
        self.exchanges()
            .skip_while(|&e| e < cost)
            .nth(hops)
            .expect("the exchanges go on")
    }

    /// Exchanges at steps up to `last`, inclusive.
    pub fn exchanges_to(&self, last: usize) -> u64 {
        self.exchanges().take_while(|&e| e <= last).count() as u64
    }

    /// Boundary messages of a run of final cost `cost`, per neighbouring pair: one each way
    /// per exchange both take part in.
    pub fn predicted(&self, cost: usize) -> Predicted {
        let mut predicted = Predicted::none(self.ranks);
        for r in 0..self.ranks.saturating_sub(1) {
            let last = self.last_step(cost, r).min(self.last_step(cost, r + 1));
            let exchanges = self.exchanges_to(last);
            predicted.add(r, r + 1, exchanges);
            predicted.add(r + 1, r, exchanges);
        }
        predicted
    }

    /// The exchange after which a run past its bound, a cut-off, ends: an end found within
    /// the bound is told at the first exchange from the bound at the latest, and reaches every
    /// rank `P - 1` exchanges later (see `fill`).
    pub fn cut_off_step(&self) -> usize {
        self.exchanges()
            .skip_while(|&e| e < self.bound())
            .nth(self.ranks - 1)
            .expect("the exchanges go on")
    }

    /// Boundary messages of a run that passed its bound, a cut-off: every rank makes every
    /// exchange up to [`WavePlan::cut_off_step`], one each way per neighbouring pair.
    pub fn predicted_cut_off(&self) -> Predicted {
        let mut predicted = Predicted::none(self.ranks);
        let exchanges = self.exchanges_to(self.cut_off_step());
        for r in 0..self.ranks.saturating_sub(1) {
            predicted.add(r, r + 1, exchanges);
            predicted.add(r + 1, r, exchanges);
        }
        predicted
    }

    /// Diagonals rank `r` computes up to step `cost`: the measure of its share of the work.
    pub fn diagonals(&self, cost: usize, r: usize) -> u64 {
        (0..=cost)
            .filter_map(|t| self.own(t, r))
            .map(|run| self.len(&run) as u64)
            .sum()
    }
}

impl WavePlan {
    /// What rank `r` holds while running this plan to its bound, part by part: the sequences'
    /// padded copies, two steps' wavefronts, the steps it keeps for the walk, a recomputed
    /// window and the path. O(bound).
    pub fn holding(&self, r: usize) -> Holding {
        let (m, n) = (self.rows() as u64, self.cols() as u64);
        let mut widest = 0u64;
        let mut kept = 0u64;
        let mut block = (usize::MAX, false);
        let mut e = 0;
        while e <= self.bound() {
            let end = self.next_exchange(e);
            for (t, cone) in (e..end.min(self.bound() + 1)).zip(self.cones(e, r, end)) {
                let c = t - t % self.every;
                if block.0 != c {
                    block = (c, self.checkpointed(c));
                }
                let need = hull(cone, self.kept_in(t, r, block.1));
                let held = [self.own(t, r), need]
                    .into_iter()
                    .flatten()
                    .map(|run| self.len(&run) as u64)
                    .sum::<u64>();
                widest = widest.max(held);
                if let Some(run) = self.kept_in(t, r, block.1) {
                    kept += self.len(&run) as u64 + 2 * PAD as u64;
                }
            }
            e = end;
        }
        // A furthest row per diagonal: an `i32`.
        let reach = std::mem::size_of::<i32>() as u64;
        let fronts = 2 * (widest + 2 * PAD as u64);
        let window = (2 * self.window() as u64 + 2 * self.every as u64 + 2) * self.every as u64;
        Holding::new()
            .with("padded sequences", m + n + 2 * SLACK as u64)
            .with("wavefronts", reach * fronts)
            .with("kept steps", reach * kept)
            .with("recomputed window", reach * window)
            .with("path", (m + n) / 4)
    }

    /// The bytes of [`WavePlan::holding`], all parts together.
    pub fn working_bytes(&self, r: usize) -> u64 {
        self.holding(r).total()
    }
}

/// The smallest run holding both.
pub fn hull(a: Option<Run>, b: Option<Run>) -> Option<Run> {
    match (a, b) {
        (Some(a), Some(b)) => Some(*a.start().min(b.start())..=*a.end().max(b.end())),
        (a, b) => a.or(b),
    }
}

/// The smallest run holding all of `runs`.
fn hull_of(runs: impl Iterator<Item = Run>) -> Option<Run> {
    runs.fold(None, |acc, run| hull(acc, Some(run)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape the split goes through: narrow and wide, growing and shrinking, bounded
    /// or not, both problems, one to nine ranks.
    fn plans() -> Vec<WavePlan> {
        let mut out = Vec::new();
        for problem in [Problem::Lcs, Problem::Edit] {
            for (m, n, bound) in [
                (40, 40, 200),
                (300, 300, 90),
                (500, 520, 240),
                (1000, 1000, 700),
                (200, 900, 1100),
                (3, 5, 8),
            ] {
                for ranks in 1..=9 {
                    out.push(WavePlan::new(problem, m, n, ranks, bound));
                }
            }
        }
        out
    }

    #[test]
    fn every_diagonal_of_every_step_has_one_owner_in_order() {
        for plan in plans() {
            for t in 0..=plan.bound() {
                let Some((lo, hi)) = plan.reach.range(t) else {
                    continue;
                };
                let mut next = lo;
                for r in 0..plan.ranks() {
                    if let Some(run) = plan.own(t, r) {
                        assert_eq!(*run.start(), next, "{plan:?} step {t}");
                        for k in (*run.start()..=*run.end()).step_by(plan.reach.stride() as usize) {
                            assert_eq!(plan.owner(t, k), r);
                        }
                        next = run.end() + plan.reach.stride();
                    }
                }
                assert_eq!(next, hi + plan.reach.stride(), "{plan:?} step {t}");
            }
        }
    }

    #[test]
    fn what_a_rank_must_hold_comes_from_itself_or_its_neighbours() {
        for plan in plans() {
            for t in 0..plan.bound() {
                for r in 0..plan.ranks() {
                    let Some(need) = plan.need(t, r) else {
                        continue;
                    };
                    let own = |q: usize| plan.own(t, q);
                    // What the neighbours send, with its own run, is all of it.
                    let mut got = 0;
                    for q in [r.wrapping_sub(1), r, r + 1] {
                        let part = match q == r {
                            true => own(r).and_then(|o| {
                                let a = *o.start().max(need.start());
                                let b = *o.end().min(need.end());
                                (a <= b).then_some(a..=b)
                            }),
                            false if q < plan.ranks() => plan.sends(t, q, r),
                            false => None,
                        };
                        got += part.map_or(0, |p| plan.len(&p));
                    }
                    assert_eq!(got, plan.len(&need), "{plan:?} step {t} rank {r}");
                }
            }
        }
    }

    /// Whether `inner` lies within `outer` (nothing lies within nothing).
    fn within(inner: &Option<Run>, outer: &Option<Run>) -> bool {
        match (inner, outer) {
            (None, _) => true,
            (Some(i), Some(o)) => o.start() <= i.start() && i.end() <= o.end(),
            (Some(_), None) => false,
        }
    }

    /// Every block of every plan at several block lengths, rank by rank: what the exchange
    /// brings comes from the rank and its neighbours, every step of the block reads only what
    /// the rank holds from the step before, and what it keeps for the walk is held.
    #[test]
    fn a_block_of_steps_runs_on_what_one_exchange_brings() {
        for plan in plans() {
            for h in [1, 2, 5, 32, 100] {
                let plan = plan.with_halo_steps(h);
                let mut e = 0;
                while e <= plan.bound() {
                    let end = plan.next_exchange(e);
                    assert!(e < end && end <= e + h, "{plan:?}: {e} to {end}");
                    if h == 1 {
                        assert_eq!(end, e + 1);
                    }
                    for r in 0..plan.ranks() {
                        let what = format!("{plan:?}: block {e} to {end}, rank {r}");
                        let cp = |t: usize| plan.checkpointed(t - t % plan.every());
                        let cones = plan.cones(e, r, end);
                        let need = plan.need(e, r);
                        if let Some(need) = &need {
                            assert!(plan.held_nearby(e, r, need), "{what}");
                        }
                        let mut held = hull(plan.own(e, r), need);
                        for t in e + 1..=end {
                            let computed = match t == end {
                                true => plan.own(t, r),
                                false => plan.computed(t, r, cones[t - e].clone(), cp(t)),
                            };
                            let reads = computed.as_ref().and_then(|c| plan.widen(t - 1, c, 1));
                            assert!(within(&reads, &held), "{what}: step {t}");
                            if t < end {
                                let kept = plan.kept_in(t, r, cp(t));
                                assert!(within(&kept, &computed), "{what}: kept at {t}");
                                held = computed;
                            }
                        }
                    }
                    e = end;
                }
            }
        }
    }

    /// The first rank to see the last cell reached is its owner at the final cost: the
    /// diagonal's owners at the steps that have it are neighbours from one such step to the
    /// next, so the news of an end reaches the next owner before it computes.
    #[test]
    fn the_last_cells_diagonal_moves_to_a_neighbour_at_most() {
        for plan in plans() {
            let k = plan.reach().end();
            let owners: Vec<usize> = (0..=plan.bound())
                .filter(|&t| plan.reaches(t, k))
                .map(|t| plan.owner(t, k))
                .collect();
            for pair in owners.windows(2) {
                assert!(pair[0].abs_diff(pair[1]) <= 1, "{plan:?}: {owners:?}");
            }
        }
    }

    /// With blocks of `h` steps a wide run exchanges about `s / h` times each way.
    #[test]
    fn blocks_of_steps_divide_the_messages() {
        let one = WavePlan::new(Problem::Edit, 100_000, 100_000, 2, 4_000);
        let cost = 3_000;
        for h in [4, 16, 32] {
            let plan = one.with_halo_steps(h);
            let total = plan.predicted(cost).total;
            let most = 2 * (cost / h + 1) as u64;
            assert!(
                total <= most + 2 * 40 && total >= 2 * (cost / h) as u64,
                "h {h}: {total} messages, about {most}"
            );
            assert_eq!(
                plan.exchanges_to(cost),
                plan.exchanges().take_while(|&e| e <= cost).count() as u64
            );
        }
        assert_eq!(one.with_halo_steps(1).predicted(cost), one.predicted(cost));
    }

    #[test]
    fn wide_runs_keep_checkpoints_and_messages_follow_the_last_steps() {
        let plan = WavePlan::new(Problem::Edit, 100_000, 100_000, 2, 4_000);
        let blocks = (0..4_000)
            .step_by(plan.every())
            .filter(|&c| plan.checkpointed(c))
            .count();
        assert!(
            blocks > 4_000 / plan.every() - 10,
            "{blocks} checkpointed blocks"
        );
        // The end's diagonal, 0, is the middle one: rank 0's (the first ranks hold one more).
        let cost = 3_000;
        assert_eq!(plan.finder(cost), 0);
        assert_eq!(plan.predicted(cost).total, 2 * (cost as u64 + 1));
        let four = WavePlan::new(Problem::Lcs, 100_000, 100_000, 4, 4_000);
        let o = four.finder(cost);
        let want: u64 = (0..3)
            .map(|r: usize| 2 * (cost + r.abs_diff(o).min((r + 1).abs_diff(o)) + 1) as u64)
            .sum();
        assert_eq!(four.predicted(cost).total, want);
        assert_eq!(
            (0..4).map(|r| four.diagonals(cost, r)).sum::<u64>(),
            four.reach.total(cost)
        );
    }
}
