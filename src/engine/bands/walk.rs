//! The bands engine's walker: the walk inside one band, by the rule of `reference` (at a
//! match prepend `x[i]` and go to `(i-1, j-1)`, else up if the band's "go up" bit says so, else
//! left), until it leaves the matrix or the band. A band can only be left to its left (the walk
//! moves up and left), so a walk crosses at most `P - 1` band edges; the hop carries the
//! subsequence found so far as [`crate::engine::walk`] says.

use super::store::{BandStore, Exit};
use crate::engine::walk::{self, Walker};

impl BandStore<'_> {
    /// Walks from `(i, j)`, a cell of this band, while the cells stay in it, appending each
    /// matched byte to `found_rev` (so it holds the subsequence found so far, last byte
    /// first).
    pub fn walk(&mut self, cell: (usize, usize), found_rev: &mut Vec<u8>) -> Exit {
        self.walk_recording(cell, found_rev, None)
    }

    /// [`BandStore::walk`], pushing every visited cell onto `visited` when given.
    pub fn walk_recording(
        &mut self,
        (mut i, mut j): (usize, usize),
        found_rev: &mut Vec<u8>,
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
            let next = if self.x[i] == self.y[j] {
                found_rev.push(self.x[i]);
                (i.checked_sub(1), j.checked_sub(1))
            } else if self.goes_up(i, j) {
                (i.checked_sub(1), Some(j))
            } else {
                (Some(i), j.checked_sub(1))
            };
            let (Some(ni), Some(nj)) = next else {
                return Exit::Done;
            };
            if nj < self.cols.start {
                return Exit::Hop { i: ni, j: nj };
            }
            (i, j) = (ni, nj);
        }
    }
}

/// A band as the traceback sees it: the walk's moves inside the band, and its hops to the band
/// on the left.
pub struct BandWalker<'s, 'a> {
    pub store: &'s mut BandStore<'a>,
}

impl Walker for BandWalker<'_, '_> {
    fn walk(
        &mut self,
        cell: (usize, usize),
        found_rev: &mut Vec<u8>,
        visited: Option<&mut Vec<(u64, u64)>>,
    ) -> walk::Exit {
        let exit = self.store.walk_recording(cell, found_rev, visited);
        match exit {
            Exit::Done => walk::Exit::Done,
            Exit::Hop { i, j } => walk::Exit::Hop {
                to: self.store.rank() - 1,
                i,
                j,
            },
        }
    }
}

/// The walker of a rank that owns no words: the walk never reaches it.
pub struct Idle;

impl Walker for Idle {
    fn walk(
        &mut self,
        cell: (usize, usize),
        _: &mut Vec<u8>,
        _: Option<&mut Vec<(u64, u64)>>,
    ) -> walk::Exit {
        unreachable!("the walk reached {cell:?} on a rank with no band")
    }
}
