//! Cell stores: where a rank keeps the values it computes and receives, and what the traceback
//! reads back. The fill drives a store diagonal by diagonal ([`Store::put_received`],
//! [`Store::compute`], [`Store::value`]); the walk asks [`Store::step`] at each mismatch cell the
//! rank owns. Two implementations, each written once against the problem's
//! [`Recurrence`](lcs_core::recurrence::Recurrence): [`hash::HashStore`], the report's design (one
//! hash table of every owned and received cell), and [`dense::DenseStore`], the report's proposed
//! improvement (three diagonals of values and the walk's bits of every owned cell). Both give the
//! same values, messages and path: the tie-breaking lives in the walk's rule ([`Problem::step`]).

mod cells;
pub mod dense;
pub mod hash;

pub use cells::{Seqs, Store};

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::engines::diagonal::schedule::Schedule;
use lcs_core::problem::Problem;

/// Which store a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum StoreKind {
    /// Three diagonals of values plus the walk's bits of every owned cell.
    Dense,
    /// A hash map of every owned and received cell (the report's design).
    Hash,
}

impl fmt::Display for StoreKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StoreKind::Dense => "dense",
            StoreKind::Hash => "hash",
        })
    }
}

impl StoreKind {
    /// Bytes of memory the store occupies on rank `rank` (the cells it owns and receives),
    /// without the sequences themselves: O(diagonals).
    pub fn estimate_bytes(self, problem: Problem, schedule: &Schedule, rank: usize) -> u64 {
        match self {
            StoreKind::Dense => dense::estimate_bytes(problem, schedule, rank),
            StoreKind::Hash => hash::estimate_bytes(schedule, rank),
        }
    }

    /// An upper bound of [`StoreKind::estimate_bytes`] over every rank, in O(1): what the
    /// memory advice compares across stores and rank counts.
    pub fn busiest_bytes(self, problem: Problem, schedule: &Schedule) -> u64 {
        match self {
            StoreKind::Dense => dense::busiest_bytes(problem, schedule),
            StoreKind::Hash => hash::busiest_bytes(schedule),
        }
    }

    /// The other store.
    pub fn other(self) -> StoreKind {
        match self {
            StoreKind::Dense => StoreKind::Hash,
            StoreKind::Hash => StoreKind::Dense,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! Store-level checks without MPI: a single rank per store must give the reference's LCS,
    //! and so must all ranks of a multi-rank schedule driven in one process with the boundary
    //! values handed over directly, as the fill would send them.

    use super::*;
    use crate::engines::diagonal::walker::DiagonalWalker;
    use crate::engines::traceback::walk_all;
    use crate::generate::Random;

    /// Runs the whole schedule in one process: one store per rank, boundary values copied
    /// between them exactly as the MPI fill would send them.
    pub(crate) fn fill_in_process<S: Store>(
        s: &Schedule,
        seqs: &Seqs<'_>,
        mut make: impl FnMut(usize) -> S,
    ) -> Vec<S> {
        let mut stores: Vec<S> = (0..s.ranks()).map(&mut make).collect();
        for d in 0..s.diagonals() {
            for (k, store) in stores.iter_mut().enumerate() {
                let rows = s.rank_rows(d, k);
                if !rows.is_empty() {
                    // In pieces, as the fill computes them.
                    let mid = rows.start + rows.len() / 2;
                    store.compute(d, mid..rows.end, seqs);
                    store.compute(d, rows.start..mid, seqs);
                    store.seal(d, rows);
                }
            }
            for k in 0..s.active_ranks(d) {
                for send in s.sends_from(d, k).iter() {
                    let v = stores[k].value(d, send.row);
                    stores[send.peer].put_received(d, send.row, v);
                }
            }
        }
        stores
    }

    /// The paths of `problem` from stores `make` builds, over every rank count, equal the
    /// reference's, on random pairs and near-identical ones.
    /// The path the walkers of `stores`, filled in process, walk from the last cell.
    pub(crate) fn walk<S: Store>(
        s: &Schedule,
        seqs: &Seqs<'_>,
        stores: &[S],
    ) -> lcs_core::problem::Path {
        let mut walkers: Vec<_> = stores
            .iter()
            .enumerate()
            .map(|(rank, store)| DiagonalWalker {
                schedule: s,
                seqs,
                store,
                rank,
            })
            .collect();
        let start = (0, (s.rows() - 1, s.cols() - 1));
        walk_all(&mut walkers, Some(start)).0
    }

    pub(crate) fn check_against_reference<S: Store>(
        problem: Problem,
        make: impl Fn(&Schedule, usize) -> S,
    ) {
        let mut rng = Random::new(7);
        for case in 0..150 {
            let alphabet: &[u8] = [&b"ab"[..], b"acgt", b"abcdefghijklmnopqrstuvwxyz"][case % 3];
            let (a, b) = (rng.below(60), rng.below(60));
            let pair = crate::generate::random_pair(&mut rng, a, b, alphabet);
            let (x, mut y) = (pair.x, pair.y);
            if case % 4 == 3 {
                // Near-identical: y is x with one byte changed and one appended.
                y = x.clone();
                if let Some(first) = y.first_mut() {
                    *first = b'z';
                }
                y.push(b'a');
            }
            let expected = lcs_core::reference::align(problem, &x, &y);
            for p in [1, 2, 3, 5] {
                if x.is_empty() {
                    continue;
                }
                let s = Schedule::new(x.len(), y.len(), p);
                let seqs = Seqs::new(&x, &y);
                let stores = fill_in_process(&s, &seqs, |k| make(&s, k));
                let mut walkers: Vec<_> = stores
                    .iter()
                    .enumerate()
                    .map(|(rank, store)| DiagonalWalker {
                        schedule: &s,
                        seqs: &seqs,
                        store,
                        rank,
                    })
                    .collect();
                let start = (0, (x.len() - 1, y.len() - 1));
                let (got, hops) = walk_all(&mut walkers, Some(start));
                assert!(hops <= x.len() + y.len());
                assert_eq!(
                    got,
                    expected,
                    "{problem}: x={:?} y={:?} P={p}",
                    String::from_utf8_lossy(&x),
                    String::from_utf8_lossy(&y)
                );
            }
        }
    }

    #[test]
    fn every_small_pair_walks_the_references_path() {
        use crate::engines::diagonal::store::dense::DenseStore;
        use crate::engines::diagonal::store::hash::HashStore;
        use lcs_core::recurrence::{Edit, Lcs, Recurrence};

        fn check<R: Recurrence>(x: &[u8], y: &[u8]) {
            let expected = lcs_core::reference::align(R::PROBLEM, x, y);
            for p in 1..=3 {
                let s = Schedule::new(x.len(), y.len(), p);
                let seqs = Seqs::new(x, y);
                let dense = fill_in_process(&s, &seqs, |k| DenseStore::<u16, R>::new(&s, k));
                let hash = fill_in_process(&s, &seqs, |k| HashStore::<R>::new(&s, k));
                let what = format!("{} x={x:?} y={y:?} P={p}", R::PROBLEM);
                assert_eq!(walk(&s, &seqs, &dense), expected, "dense {what}");
                assert_eq!(walk(&s, &seqs, &hash), expected, "hash {what}");
            }
        }
        for (x, y) in lcs_core::exhaustive::short_pairs(6)
            .into_iter()
            .filter(|(x, _)| !x.is_empty())
        {
            check::<Lcs>(&x, &y);
            check::<Edit>(&x, &y);
        }
    }
}
