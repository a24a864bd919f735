//! The diagonal engine's walker: a rank's part of the traceback over the cells it owns,
//! asking its store "up or left?" at each mismatch (the rule of `reference`; the walk moves
//! between ranks as [`crate::engine::walk`] says).

use super::schedule::Schedule;
use super::store::{Seqs, Store};
use crate::engine::walk::{Exit, Walker};

/// The diagonal engine's walker: a rank's store, asked "up or left?" at each mismatch.
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
        found_rev: &mut Vec<u8>,
        mut visited: Option<&mut Vec<(u64, u64)>>,
    ) -> Exit {
        let (x, y) = (self.seqs.x, self.seqs.y);
        loop {
            debug_assert_eq!(self.schedule.cell_proc(i, j), self.rank);
            if let Some(v) = visited.as_deref_mut() {
                v.push((i as u64, j as u64));
            }
            let next = if x[i] == y[j] {
                found_rev.push(x[i]);
                (i.checked_sub(1), j.checked_sub(1))
            } else if self.store.goes_up(i, j) {
                (i.checked_sub(1), Some(j))
            } else {
                (Some(i), j.checked_sub(1))
            };
            let (Some(ni), Some(nj)) = next else {
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
