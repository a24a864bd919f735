//! The diagonal engine's walker: a rank's part of the traceback over the cells it owns,
//! asking its store for the move at each mismatch (the rule of `reference`; the walk moves
//! between ranks as [`crate::engines::traceback`] says).

use super::schedule::Schedule;
use super::store::{Seqs, Store};
use crate::engines::traceback::{Exit, Walker};
use lcs_core::problem::{Move, Path};

/// The diagonal engine's walker: a rank's store, asked for the move at each mismatch.
pub struct DiagonalWalker<'a, S> {
    pub schedule: &'a Schedule,
    pub seqs: &'a Seqs<'a>,
    pub store: &'a S,
    pub rank: usize,
}

impl<S: Store> Walker for DiagonalWalker<'_, S> {
    fn walk(
        &mut self,
        (mut i, mut j): (usize, usize),
        path: &mut Path,
        mut visited: Option<&mut Vec<(u64, u64)>>,
    ) -> Exit {
        let (x, y) = (self.seqs.x, self.seqs.y);
        loop {
            debug_assert_eq!(self.schedule.cell_proc(i, j), self.rank);
            if let Some(v) = visited.as_deref_mut() {
                v.push((i as u64, j as u64));
            }
            let step = if x[i] == y[j] {
                Move::Match
            } else {
                self.store.step(i, j)
            };
            path.push(step);
            let next = step.from(i, j);
            let (Some(ni), Some(nj)) = next else {
                path.leave(next);
                return Exit::Done;
            };
            let owner = self.schedule.cell_proc(ni, nj);
            if owner != self.rank {
                return Exit::Hop {
                    to: owner,
                    i: ni,
                    j: nj,
                };
            }
            (i, j) = (ni, nj);
        }
    }
}
