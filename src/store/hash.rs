//! The hash store: the report's design, one hash map from cell to value holding every cell the
//! rank owns and every boundary value it receives.
//!
//! A cell `(i, j)` is keyed `i << 32 | j` (so sequences up to 2^32 bytes). Its three
//! predecessors are looked up, missing only when they lie outside the matrix (value 0). The
//! map's capacity is reserved up front from the schedule (owned cells plus predicted received
//! cells), so it never rehashes during the fill. Cost: three lookups and one insert per cell,
//! about 16 bytes per entry plus the table's control bytes and spare capacity.

use std::ops::Range;

use hashbrown::HashMap;

use super::{Seqs, Store, StoreKind};
use crate::schedule::Schedule;

/// Every owned and received cell, in one map.
pub struct HashStore {
    cells: HashMap<u64, u32>,
}

fn key(i: usize, j: usize) -> u64 {
    debug_assert!(i < 1 << 32 && j < 1 << 32);
    (i as u64) << 32 | j as u64
}

impl HashStore {
    pub fn new(schedule: &Schedule, rank: usize) -> HashStore {
        HashStore {
            cells: HashMap::with_capacity(Self::entries(schedule, rank) as usize),
        }
    }

    /// Cells the map will hold on `rank`: owned plus received.
    fn entries(schedule: &Schedule, rank: usize) -> u64 {
        // Values arrive from the diagonal before the rank's first one up to its last but one.
        let diagonals = schedule.rank_diagonals(rank);
        let received: u64 = (diagonals.start.saturating_sub(1)..diagonals.end)
            .map(|e| schedule.receives_on(e, rank).len() as u64)
            .sum();
        schedule.rank_cells(rank) + received
    }

    /// Bytes the map allocates on `rank`: hashbrown rounds capacity * 8/7 up to a power of two
    /// buckets, each a 16-byte entry plus one control byte.
    pub fn estimate_bytes(schedule: &Schedule, rank: usize) -> u64 {
        let entries = Self::entries(schedule, rank);
        if entries == 0 {
            return 0;
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
        buckets * 17 + 16
    }

    fn get(&self, i: isize, j: isize) -> u32 {
        if i < 0 || j < 0 {
            return 0;
        }
        match self.cells.get(&key(i as usize, j as usize)) {
            Some(&v) => v,
            None => panic!("cell ({i},{j}) is neither owned nor received"),
        }
    }
}

impl Store for HashStore {
    fn kind(&self) -> StoreKind {
        StoreKind::Hash
    }

    fn put_received(&mut self, d: usize, i: usize, value: u32) {
        self.cells.insert(key(i, d - i), value);
    }

    fn compute(&mut self, d: usize, rows: Range<usize>, seqs: &Seqs<'_>) {
        for i in rows {
            let j = d - i;
            let (ii, jj) = (i as isize, j as isize);
            let v = if seqs.x[i] == seqs.y[j] {
                self.get(ii - 1, jj - 1) + 1
            } else {
                self.get(ii - 1, jj).max(self.get(ii, jj - 1))
            };
            self.cells.insert(key(i, j), v);
        }
    }

    fn value(&self, d: usize, i: usize) -> u32 {
        self.get(i as isize, (d - i) as isize)
    }

    fn goes_up(&self, i: usize, j: usize) -> bool {
        let (i, j) = (i as isize, j as isize);
        self.get(i - 1, j) >= self.get(i, j - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_store_matches_reference() {
        crate::store::tests::check_against_reference(HashStore::new);
    }

    #[test]
    fn capacity_covers_every_cell_without_rehash() {
        let s = Schedule::new(40, 90, 4);
        let x = vec![b'a'; 40];
        let y = vec![b'b'; 90];
        let seqs = Seqs::new(&x, &y);
        let stores = crate::store::tests::fill_in_process(&s, &seqs, |k| HashStore::new(&s, k));
        for (k, store) in stores.iter().enumerate() {
            assert_eq!(store.cells.len() as u64, HashStore::entries(&s, k));
            assert!(store.cells.capacity() as u64 >= HashStore::entries(&s, k));
        }
    }
}
