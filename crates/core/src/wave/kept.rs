//! What a fill keeps of its wavefronts for the walk, and the walk's look-ups in it.
//!
//! Keeping every step costs four bytes per diagonal step, `s^2 / 2` of them, and writing them
//! to fresh memory costs the fill as much as computing them. So a fill keeps a *checkpoint*
//! every so many steps ([`EVERY`] unless memory asks for more; the step's values over the
//! diagonals it had, [`Kept::keep`]), and
//! the walk recomputes what it reads: when it needs step `t` of block `[c, c + EVERY)`, the
//! steps from checkpoint `c` are computed again over a *window* of diagonals around the walk's
//! ([`Recall`]). Within a block the walk's cost falls by less than [`EVERY`] and each edit
//! moves it one diagonal at most, and a value `t - c` steps past the checkpoint depends only on
//! the checkpoint's diagonals within `t - c` of its own, so a window `2 * EVERY + 3` wide on
//! each side answers the whole block; a look-up outside the part of the window that is exact
//! recomputes a window around it. A holder may also keep steps whole (a split that cannot keep
//! checkpoints for a block keeps every step of it): those are read directly.
//!
//! Memory: `1 / EVERY` of the wavefronts, plus a window. Time: each block the walk crosses is
//! computed again over about `4 * EVERY` diagonals, `O(s * EVERY)` in all.

use crate::problem::Problem;

use super::compare::Compare;
use super::front::{Prev, Reach, Work, NONE, PAD};
use super::kernel;
use super::seqs::Seqs;
use super::walk::Fronts;

/// Steps between two checkpoints, unless memory asks for more.
pub const EVERY: usize = 32;

/// Diagonals on either side of the walk's that a window recomputed from checkpoints `every`
/// steps apart spans.
pub const fn window(every: usize) -> i64 {
    2 * every as i64 + 3
}

/// Where a kept step's values are.
#[derive(Debug, Clone, Copy)]
struct Slot {
    first: i64,
    start: usize,
    len: usize,
}

/// The kept steps of one holder's fill.
#[derive(Debug, Clone)]
pub struct Kept {
    reach: Reach,
    every: usize,
    slots: Vec<Option<Slot>>,
    values: Vec<i32>,
}

impl Kept {
    /// What a fill of `reach` keeps, its checkpoints `every` steps apart.
    pub fn new(reach: Reach, every: usize) -> Kept {
        Kept {
            reach,
            every,
            slots: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Steps between two checkpoints.
    pub fn every(&self) -> usize {
        self.every
    }

    /// Whether a fill keeps step `t` as a checkpoint.
    pub fn is_checkpoint(&self, t: usize) -> bool {
        t.is_multiple_of(self.every)
    }

    /// Keeps step `t`'s `values` of the diagonals from `first` (every stride).
    pub fn keep(&mut self, t: usize, first: i64, values: &[i32]) {
        if self.slots.len() <= t {
            self.slots.resize(t + 1, None);
        }
        let start = self.values.len();
        self.values.resize(start + PAD, NONE);
        self.values.extend_from_slice(values);
        self.values.resize(self.values.len() + PAD, NONE);
        self.slots[t] = Some(Slot {
            first,
            start,
            len: values.len(),
        });
    }

    /// Step `t` as kept, if it is.
    fn kept(&self, t: usize) -> Option<Prev<'_>> {
        let slot = (*self.slots.get(t)?)?;
        Some(Prev {
            first: slot.first,
            values: &self.values[slot.start..slot.start + slot.len + 2 * PAD],
        })
    }

    /// The diagonals step `t` was kept over, first and last.
    fn span(&self, t: usize) -> Option<(i64, i64)> {
        let slot = (*self.slots.get(t)?)?;
        Some((
            slot.first,
            slot.first + self.reach.stride() * (slot.len as i64 - 1),
        ))
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        (self.values.capacity() * 4 + self.slots.capacity() * std::mem::size_of::<Option<Slot>>())
            as u64
    }

    /// Values kept.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Steps `base..base + len` recomputed over a window, one padded run per step.
#[derive(Debug, Default)]
struct Block {
    base: usize,
    /// Per step: its first diagonal and its padded values.
    steps: Vec<(i64, Vec<i32>)>,
    /// The checkpoint's diagonals known exactly, and whether the window was cut short of the
    /// step's reach on either side (unknown diagonals beyond, so inexact values near there).
    known: (i64, i64),
    cut: (bool, bool),
}

impl Block {
    /// The value of `(t, k)`, if the block holds it exactly.
    fn value(&self, t: usize, k: i64, stride: i64) -> Option<i32> {
        let at = t.checked_sub(self.base)?;
        let (first, values) = self.steps.get(at)?;
        let reach = at as i64;
        if (self.cut.0 && k - reach < self.known.0) || (self.cut.1 && k + reach > self.known.1) {
            return None;
        }
        Some(
            Prev {
                first: *first,
                values,
            }
            .get(k, stride),
        )
    }
}

/// The walk's look-ups in what a fill kept: kept steps read directly, others recomputed from
/// their block's checkpoint.
pub struct Recall<'a> {
    kept: &'a Kept,
    problem: Problem,
    compare: Compare,
    seqs: &'a Seqs,
    block: Block,
    /// The work of the recomputations.
    pub work: Work,
}

impl<'a> Recall<'a> {
    pub fn new(kept: &'a Kept, compare: Compare, seqs: &'a Seqs) -> Recall<'a> {
        Recall {
            kept,
            problem: kept.reach.problem,
            compare,
            seqs,
            block: Block::default(),
            work: Work::default(),
        }
    }

    /// Recomputes the block holding step `t` over a window around diagonal `k`.
    fn recompute(&mut self, t: usize, k: i64) {
        let reach = self.kept.reach;
        let every = self.kept.every;
        let base = t - t % every;
        let (lo, hi) = self
            .kept
            .span(base)
            .unwrap_or_else(|| panic!("no checkpoint at step {base} for step {t}"));
        let stride = reach.stride();
        let (reach_lo, reach_hi) = reach.range(base).expect("a kept step is reached");
        // Whole strides from the checkpoint's first diagonal.
        let from = (k - window(every)).max(lo);
        let from = from + (from - lo).rem_euclid(stride);
        let to = (k + window(every)).min(hi);
        let to = to - (to - lo).rem_euclid(stride);
        let checkpoint = self.kept.kept(base).expect("kept");
        let skip = ((from - checkpoint.first) / stride) as usize;
        let count = ((to - from) / stride) as usize + 1;
        let mut first_values = vec![NONE; PAD];
        first_values.extend_from_slice(&checkpoint.values[PAD + skip..PAD + skip + count]);
        first_values.resize(count + 2 * PAD, NONE);
        let mut steps = vec![(from, first_values)];
        let last = (base + every - 1).min(reach.bound);
        for step in base + 1..=last {
            let Some((step_lo, step_hi)) = reach.range(step) else {
                break;
            };
            let (prev_first, prev_values) = steps.last().expect("the checkpoint");
            let prev_last = prev_first + stride * (prev_values.len() - 2 * PAD) as i64 - stride;
            // One diagonal further each way than the step before, inside the step's reach.
            let mut a = (prev_first - 1).max(step_lo);
            let mut b = (prev_last + 1).min(step_hi);
            a += (a - step_lo).rem_euclid(stride);
            b -= (b - step_lo).rem_euclid(stride);
            let mut values = vec![NONE; PAD];
            if a <= b {
                let count = ((b - a) / stride) as usize + 1;
                values.resize(PAD + count, 0);
                let prev = Prev {
                    first: *prev_first,
                    values: prev_values,
                };
                self.work.add(kernel::step(
                    self.problem,
                    self.compare,
                    prev,
                    a,
                    &mut values[PAD..],
                    self.seqs,
                ));
            }
            values.resize(values.len() + PAD, NONE);
            steps.push((a, values));
        }
        self.block = Block {
            base,
            steps,
            known: (from, to),
            cut: (from > reach_lo, to < reach_hi),
        };
    }
}

impl Fronts for Recall<'_> {
    fn value(&mut self, t: usize, k: i64) -> i32 {
        let stride = self.kept.reach.stride();
        if let Some(step) = self.kept.kept(t) {
            return step.get(k, stride);
        }
        if t > self.kept.reach.bound {
            return NONE;
        }
        if let Some(v) = self.block.value(t, k, stride) {
            return v;
        }
        self.recompute(t, k);
        self.block.value(t, k, stride).unwrap_or_else(|| {
            panic!("step {t} diagonal {k} lies outside the checkpoint's kept diagonals")
        })
    }
}
