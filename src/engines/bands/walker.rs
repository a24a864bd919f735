//! The bands engine's walker: the walk inside one band, by the rule of `reference` (a match
//! goes diagonally; otherwise the band's bits say: for the LCS up or left, for the edit
//! distance a substitution, up or left), until it leaves the matrix or the band. A band can
//! only be left to its left (the walk moves up and left), so a walk crosses at most one edge
//! per band but the first (`P - 1` with a band per rank); the hop to another rank's band carries
//! the path found so far as [`crate::engines::traceback`] says.

use super::plan::BandPlan;
use super::store::{BandStore, Exit};
use crate::engines::traceback::{self, Walker};
use lcs_core::problem::{Move, Path};

impl BandStore<'_> {
    /// Walks from `(i, j)`, a cell of this band, while the cells stay in it, pushing each move
    /// onto `path` (and completing it along the border when the walk leaves the matrix).
    pub fn walk(&mut self, cell: (usize, usize), path: &mut Path) -> Exit {
        self.walk_recording(cell, path, None)
    }

    /// [`BandStore::walk`], pushing every visited cell onto `visited` when given.
    pub fn walk_recording(
        &mut self,
        (mut i, mut j): (usize, usize),
        path: &mut Path,
        mut visited: Option<&mut Vec<(u64, u64)>>,
    ) -> Exit {
        loop {
            debug_assert!(
                self.cols.contains(&j),
                "({i}, {j}) is not in band {}",
                self.rank
            );
            if let Some(v) = visited.as_deref_mut() {
                v.push((i as u64, j as u64));
            }
            let step = if self.x[i] == self.y[j] {
                Move::Match
            } else {
                self.step(i, j)
            };
            path.push(step);
            let next = step.from(i, j);
            let (Some(ni), Some(nj)) = next else {
                path.leave(next);
                return Exit::Done;
            };
            if nj < self.cols.start {
                return Exit::Hop { i: ni, j: nj };
            }
            (i, j) = (ni, nj);
        }
    }
}

/// A rank's bands as the traceback sees them: the walk's moves inside each, and its hops to the
/// band on the left, which is another rank's (with bands that lap, the rank on the left's next
/// band). A rank with no band is never reached.
pub struct BandWalker<'s, 'a> {
    pub plan: &'s BandPlan,
    /// The rank's bands, left to right.
    pub stores: &'s mut [BandStore<'a>],
}

impl Walker for BandWalker<'_, '_> {
    fn walk(
        &mut self,
        cell: (usize, usize),
        path: &mut Path,
        visited: Option<&mut Vec<(u64, u64)>>,
    ) -> traceback::Exit {
        let v = self.plan.owner_of_col(cell.1);
        let store = self
            .stores
            .iter_mut()
            .find(|s| s.rank() == v)
            .unwrap_or_else(|| panic!("the walk reached {cell:?}, not in this rank's bands"));
        // The band on the left is always another rank's (`BandPlan::with_laps`).
        match store.walk_recording(cell, path, visited) {
            Exit::Done => traceback::Exit::Done,
            Exit::Hop { i, j } => traceback::Exit::Hop {
                to: self.plan.rank_of(v - 1),
                i,
                j,
            },
        }
    }
}
