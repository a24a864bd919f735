//! The traceback over the wavefronts: the walk every engine takes ([`crate::problem`]), each
//! of its questions answered by a look-up.
//!
//! A cell `(I, J)` of cost `d` on diagonal `k = J - I`; its neighbours' costs differ from `d`
//! by at most one, and `D(I', I' + k') <= t` exactly when `F[t][k'] >= I'`. So at a mismatch:
//!
//! - edit distance: a substitution when `D(I-1, J-1) = d - 1`, i.e. `F[d-1][k] >= I - 1`; else
//!   up (a byte of `x` alone) when `D(I-1, J) = d - 1`, i.e. `F[d-1][k+1] >= I - 1`; else left;
//! - LCS (indel cost `e`): up when `M(I-1, J) >= M(I, J-1)`, which at a mismatch is
//!   `E(I-1, J) = e - 1`, i.e. `F[e-1][k+1] >= I - 1`; else left;
//!
//! and a match goes diagonally at the same cost, so a run of matches is taken at once
//! ([`Compare::suffix`]). The cells the walk visits lie on optimal paths, so they and the
//! look-ups they make are inside every step's [`super::front::Reach`]. Only the step `d - 1`
//! of the cell's own cost is read: a holder of the step-`d` cells of diagonal `k` (which read
//! `F[d-1]` on `k - 1..=k + 1` to compute them) answers it alone. Cost: one look-up or two per
//! edit, one compare per run of matches.

use crate::problem::{Move, Path, Problem};

use super::compare::Compare;

/// Where the wavefronts are kept.
pub trait Fronts {
    /// `F[t][k]`, or [`super::front::NONE`] where step `t` does not reach `k`. Asked only of
    /// steps `t` and diagonals next to the cells the holder owns at step `t + 1`.
    fn value(&mut self, t: usize, k: i64) -> i32;
}

/// A point of the walk: the cell after `i` bytes of `x` and `j` of `y`, and its cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub i: usize,
    pub j: usize,
    pub cost: usize,
}

impl At {
    /// The cell's diagonal.
    pub fn diagonal(&self) -> i64 {
        self.j as i64 - self.i as i64
    }
}

/// Where a walk stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It left the matrix; the path is complete.
    Done,
    /// It reached a cell another holder owns.
    Away(At),
}

/// What a walk reads: the problem, the compare kernel and the sequences.
#[derive(Clone, Copy)]
pub struct Walk<'a> {
    pub problem: Problem,
    pub compare: Compare,
    pub x: &'a [u8],
    pub y: &'a [u8],
}

impl Walk<'_> {
    /// Walks from `at` while `owns(cost, diagonal)` says the cell is this holder's, pushing
    /// each move onto `path` and each visited cell (0-indexed, as the engines count) onto
    /// `visited`.
    pub fn walk(
        &self,
        fronts: &mut impl Fronts,
        mut at: At,
        owns: impl Fn(usize, i64) -> bool,
        path: &mut Path,
        mut visited: Option<&mut Vec<(u64, u64)>>,
    ) -> Stop {
        let (x, y) = (self.x, self.y);
        loop {
            if at.i == 0 || at.j == 0 {
                path.leave((at.i.checked_sub(1), at.j.checked_sub(1)));
                return Stop::Done;
            }
            let k = at.diagonal();
            if !owns(at.cost, k) {
                return Stop::Away(at);
            }
            let run = self.compare.suffix(&x[..at.i], &y[..at.j]);
            if run > 0 {
                if let Some(v) = visited.as_deref_mut() {
                    v.extend((0..run).map(|r| ((at.i - 1 - r) as u64, (at.j - 1 - r) as u64)));
                }
                path.push_n(Move::Match, run);
                (at.i, at.j) = (at.i - run, at.j - run);
                continue;
            }
            if let Some(v) = visited.as_deref_mut() {
                v.push(((at.i - 1) as u64, (at.j - 1) as u64));
            }
            let t = at.cost.checked_sub(1).expect("a mismatch costs an edit");
            let row = at.i as i32 - 1;
            let up = fronts.value(t, k + 1) >= row;
            let step = match self.problem {
                Problem::Edit if fronts.value(t, k) >= row => Move::Sub,
                _ if up => Move::Up,
                _ => Move::Left,
            };
            path.push(step);
            match step {
                Move::Sub => (at.i, at.j) = (at.i - 1, at.j - 1),
                Move::Up => at.i -= 1,
                _ => at.j -= 1,
            }
            at.cost = t;
        }
    }
}
