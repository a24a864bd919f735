//! The hash store: the report's design, one hash table holding every cell the rank owns and
//! every boundary value it receives, looked up by cell (`i << 32 | j`, so sequences up to 2^32
//! bytes): three lookups and one insert per cell, as in the report. The capacity is reserved up
//! front from the schedule, so the table never grows during the fill; an entry takes 16 bytes
//! plus a control byte in a power-of-two table at most 7/8 full, about 20 to 39 bytes per cell.
//!
//! The hash of a cell is its place in the rank's own cells in diagonal order (two spare slots at
//! each end of each diagonal for received cells), plus mixed bits in the top seven bits, which
//! the table uses to filter candidates: the cells the fill touches together sit together in the
//! table, where the report's hash scattered them. `docs/algorithms.md#the-stores`.

use std::ops::Range;

use hashbrown::HashTable;

use std::marker::PhantomData;

use super::cells::{Seqs, Store};
use crate::engines::diagonal::schedule::Schedule;
use lcs_core::problem::Move;
use lcs_core::recurrence::Recurrence;

/// Spare slots before and after each diagonal's run, for received cells.
const PAD: u64 = 2;

/// Where each of the rank's diagonals starts in the hash order.
#[derive(Debug)]
struct Layout {
    /// First diagonal laid out (one before the rank's first: it may receive cells there).
    first: usize,
    /// Per diagonal: first row of the rank's segment and the run's start.
    row_lo: Vec<u64>,
    base: Vec<u64>,
}

impl Layout {
    fn new(schedule: &Schedule, rank: usize) -> Layout {
        let diagonals = schedule.rank_diagonals(rank);
        let first = diagonals.start.saturating_sub(1);
        let mut row_lo = Vec::with_capacity(diagonals.end - first);
        let mut base = Vec::with_capacity(diagonals.end - first);
        let mut next = 0u64;
        for d in first..diagonals.end {
            let rows = schedule.rank_rows(d, rank);
            row_lo.push(rows.start as u64);
            base.push(next);
            next += rows.len() as u64 + 2 * PAD;
        }
        Layout {
            first,
            row_lo,
            base,
        }
    }

    /// The hash of cell `(i, j)`.
    #[inline(always)]
    fn hash(&self, i: usize, j: usize) -> u64 {
        let at = (i + j).wrapping_sub(self.first);
        let slot = match (self.base.get(at), self.row_lo.get(at)) {
            (Some(&base), Some(&lo)) => base.wrapping_add(PAD + i as u64).wrapping_sub(lo),
            _ => i as u64 ^ (j as u64) << 20,
        };
        // Top seven bits: a multiplicative mix, so that candidates in a probed group differ.
        slot & (u64::MAX >> 7) | slot.wrapping_mul(0x9E37_79B9_7F4A_7C15) & !(u64::MAX >> 7)
    }
}

/// Bytes a table of `entries` entries occupies when its cells land in its first `positions`
/// buckets, with a layout of `diagonals` diagonals.
fn touched_bytes(entries: u64, positions: u64, diagonals: u64) -> u64 {
    let layout = 16 * diagonals;
    if entries == 0 {
        return layout;
    }
    let buckets = if entries < 8 {
        if entries < 4 {
            4
        } else {
            8
        }
    } else {
        (entries * 8).div_ceil(7).next_power_of_two()
    };
    buckets + 16 + positions.min(buckets) * 16 + layout
}

fn key(i: usize, j: usize) -> u64 {
    debug_assert!(i < 1 << 32 && j < 1 << 32);
    (i as u64) << 32 | j as u64
}

/// Every owned and received cell, in one table.
pub struct HashStore<R: Recurrence> {
    cells: HashTable<(u64, u32)>,
    layout: Layout,
    recurrence: PhantomData<R>,
}

/// Cells the table will hold on `rank`: owned plus received.
fn entries(schedule: &Schedule, rank: usize) -> u64 {
    // Values arrive from the diagonal before the rank's first one up to its last but one.
    let diagonals = schedule.rank_diagonals(rank);
    let received: u64 = (diagonals.start.saturating_sub(1)..diagonals.end)
        .map(|e| schedule.receives_on(e, rank).len() as u64)
        .sum();
    schedule.rank_cells(rank) + received
}

/// Bytes of memory the table occupies on `rank`: its control bytes (one per bucket, all
/// written when the table is made) and the entries its cells land in, plus the layout.
/// hashbrown rounds the capacity * 8/7 up to a power of two buckets of 16-byte entries, but
/// a cell's bucket is its place in the diagonal-order layout, so only the first
/// `positions` entries are ever written: the rest of the allocation is never touched and
/// takes no memory.
pub fn estimate_bytes(schedule: &Schedule, rank: usize) -> u64 {
    let diagonals = schedule.rank_diagonals(rank).len() as u64 + 1;
    let positions = schedule.rank_cells(rank) + 2 * PAD * diagonals;
    touched_bytes(entries(schedule, rank), positions, diagonals)
}

/// An upper bound of [`estimate_bytes`] over every rank, in closed form: the
/// busiest rank's cells, at most four received values per diagonal, and every diagonal.
pub fn busiest_bytes(schedule: &Schedule) -> u64 {
    let cells = schedule.busiest_cells();
    let diagonals = schedule.diagonals() as u64 + 1;
    touched_bytes(
        cells + 4 * diagonals,
        cells + 2 * PAD * diagonals,
        diagonals,
    )
}

impl<R: Recurrence> HashStore<R> {
    pub fn new(schedule: &Schedule, rank: usize) -> HashStore<R> {
        HashStore {
            cells: HashTable::with_capacity(entries(schedule, rank) as usize),
            layout: Layout::new(schedule, rank),
            recurrence: PhantomData,
        }
    }

    fn get(&self, i: isize, j: isize) -> u32 {
        if i < 0 || j < 0 {
            return R::border(i + j);
        }
        let (i, j) = (i as usize, j as usize);
        let k = key(i, j);
        match self.cells.find(self.layout.hash(i, j), |e| e.0 == k) {
            Some(&(_, v)) => v,
            None => panic!("cell ({i},{j}) is neither owned nor received"),
        }
    }

    fn insert(&mut self, i: usize, j: usize, value: u32) {
        let layout = &self.layout;
        self.cells
            .insert_unique(layout.hash(i, j), (key(i, j), value), |e| {
                layout.hash((e.0 >> 32) as usize, e.0 as u32 as usize)
            });
    }
}

impl<R: Recurrence> Store for HashStore<R> {
    fn put_received(&mut self, d: usize, i: usize, value: u32) {
        self.insert(i, d - i, value);
    }

    fn compute(&mut self, d: usize, rows: Range<usize>, seqs: &Seqs<'_>) {
        for i in rows {
            let j = d - i;
            let (ii, jj) = (i as isize, j as isize);
            let up = self.get(ii - 1, jj);
            let left = self.get(ii, jj - 1);
            let diag = self.get(ii - 1, jj - 1);
            let v = R::cell(up, left, diag, seqs.x[i] == seqs.y[j]);
            self.insert(i, j, v);
        }
    }

    fn value(&self, d: usize, i: usize) -> u32 {
        self.get(i as isize, (d - i) as isize)
    }

    fn step(&self, i: usize, j: usize) -> Move {
        let (i, j) = (i as isize, j as isize);
        let bits = R::bits(
            self.get(i, j),
            self.get(i - 1, j),
            self.get(i, j - 1),
            self.get(i - 1, j - 1),
        );
        R::step(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_store_matches_reference() {
        use crate::engines::diagonal::store::tests::check_against_reference;
        use lcs_core::problem::Problem;
        use lcs_core::recurrence::{Edit, Lcs};
        check_against_reference(Problem::Lcs, HashStore::<Lcs>::new);
        check_against_reference(Problem::Edit, HashStore::<Edit>::new);
    }

    #[test]
    fn capacity_covers_every_cell_without_growing() {
        let s = Schedule::new(40, 90, 4);
        let x = vec![b'a'; 40];
        let y = vec![b'b'; 90];
        let seqs = Seqs::new(&x, &y);
        let stores = crate::engines::diagonal::store::tests::fill_in_process(&s, &seqs, |k| {
            HashStore::<lcs_core::recurrence::Lcs>::new(&s, k)
        });
        for (k, store) in stores.iter().enumerate() {
            assert_eq!(store.cells.len() as u64, entries(&s, k));
            assert!(store.cells.capacity() as u64 >= entries(&s, k));
        }
    }

    #[test]
    fn the_busiest_bound_covers_every_rank() {
        for (m, n) in [(1, 1), (5, 8), (40, 90), (64, 200)] {
            for p in [1, 2, 3, 7, 16, 80] {
                let s = Schedule::new(m, n, p);
                let bound = busiest_bytes(&s);
                for k in 0..p {
                    assert!(estimate_bytes(&s, k) <= bound, "{m}x{n} P={p} k={k}");
                }
            }
        }
        // Tight where it matters: for large matrices, within a few percent of rank 0's.
        let s = Schedule::new(2000, 3000, 4);
        let exact = estimate_bytes(&s, 0) as f64;
        assert!(busiest_bytes(&s) as f64 <= exact * 1.05);
    }

    #[test]
    fn owned_cells_hash_to_distinct_consecutive_slots() {
        let s = Schedule::new(50, 80, 3);
        for k in 0..3 {
            let layout = Layout::new(&s, k);
            let low = |h: u64| h & (u64::MAX >> 7);
            let slots: Vec<u64> = s
                .rank_cell_list(k)
                .map(|(i, j)| low(layout.hash(i, j)))
                .collect();
            assert!(slots.windows(2).all(|w| w[0] < w[1]), "rank {k}");
        }
    }
}
