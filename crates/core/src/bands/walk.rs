//! The walk inside one band, by the rule of `reference` (a match goes diagonally; otherwise the
//! band's bits say: for the LCS up or left, for the edit distance a substitution, up or left),
//! until it leaves the matrix or the band. A band can only be left to its left (the walk moves
//! up and left), so a walk crosses at most one edge per band but the first (`P - 1` with a band
//! per rank). Cost: one step per move, plus the recompute of the blocks it enters
//! ([`super::store`]).

use super::store::{BandStore, Exit};
use crate::problem::{Move, Path};

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
