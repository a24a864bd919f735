//! The wave engine's walker: the walk of `lcs_core::wave::walk` on the checkpoints and steps a
//! rank kept, while the rank can answer it ([`WavePlan::serves`]); where it cannot, the walk
//! hops to the rank that owns the cell's diagonal at its cost, which always can. A cell's cost
//! is the final cost less the edits the path made so far.

use std::cell::Cell;

use lcs_core::problem::Path;
use lcs_core::wave::kept::Recall;
use lcs_core::wave::walk::{At, Stop, Walk};

use super::plan::WavePlan;
use crate::engines::traceback::{Exit, Walker};

/// A rank's part of the walk.
pub struct WaveWalker<'a> {
    pub plan: &'a WavePlan,
    pub rank: usize,
    /// The final cost.
    pub cost: usize,
    pub walk: Walk<'a>,
    pub recall: Recall<'a>,
}

impl Walker for WaveWalker<'_> {
    fn walk(
        &mut self,
        cell: (usize, usize),
        path: &mut Path,
        visited: Option<&mut Vec<(u64, u64)>>,
    ) -> Exit {
        let (plan, rank) = (self.plan, self.rank);
        let at = At {
            i: cell.0 + 1,
            j: cell.1 + 1,
            cost: self.cost - path.edits(),
        };
        // Whether the block of the walk's look-ups keeps checkpoints, for the last block asked.
        let block = Cell::new((usize::MAX, false));
        let serves = |d: usize, k: i64| {
            let c = d.saturating_sub(1) - d.saturating_sub(1) % plan.every();
            if block.get().0 != c {
                block.set((c, plan.checkpointed(c)));
            }
            plan.serves(rank, d, k, block.get().1)
        };
        match self.walk.walk(&mut self.recall, at, serves, path, visited) {
            Stop::Done => Exit::Done,
            Stop::Away(at) => Exit::Hop {
                to: plan.owner(at.cost, at.diagonal()),
                i: at.i - 1,
                j: at.j - 1,
            },
        }
    }
}

/// The walker of a run with no rows: the whole path runs along the border, on rank 0.
pub struct Idle;

impl Walker for Idle {
    fn walk(&mut self, _: (usize, usize), _: &mut Path, _: Option<&mut Vec<(u64, u64)>>) -> Exit {
        unreachable!("a matrix with no rows has no cell to walk")
    }
}
