//! The bands engine's walker: the walk from band to band as the traceback sees it. Inside one
//! band the walk is the store's ([`BandStore::walk`], in `lcs-core`); the hop to another rank's
//! band carries the path found so far as [`crate::engines::traceback`] says.

use crate::engines::traceback::{self, Walker};
use lcs_core::bands::plan::BandPlan;
use lcs_core::bands::store::{BandStore, Exit};
use lcs_core::problem::Path;

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
