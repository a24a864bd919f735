//! The dense store: values of the last three diagonals in flat row-indexed arrays, and one
//! traceback bit per owned cell.
//!
//! Diagonal `d` lives in buffer `d mod 3`, slot `i + 1` holding row `i` (slot 0 is the virtual
//! row -1, always 0). A cell `(i, j)` on `d` reads `up = (i-1, j)` and `left = (i, j-1)` from
//! buffer `d - 1` at slots `i` and `i + 1`, and `diag = (i-1, j-1)` from buffer `d - 2` at slot
//! `i`; with `y` reversed, `y[d - i]` is read forwards too, so a rank's segment is one straight
//! loop over rows with no hashing and no ownership test. Received boundary values are written
//! into the same buffers; a rank reads only slots it computed or received (the schedule
//! guarantees it), so the arrays need no clearing between diagonals.
//!
//! The traceback needs only, at a mismatch, whether `M[i-1][j] >= M[i][j-1]`: one bit per owned
//! cell, packed 64 to a word, each diagonal's run starting on a fresh word. Memory per rank:
//! `cells / 8` bytes of bits plus `3 * 4 * (m + 1)` bytes of values, so 50,000 x 50,000 on one
//! rank needs about 313 MB.

use std::ops::Range;

use super::{Seqs, Store, StoreKind};
use crate::schedule::Schedule;

/// Two diagonals of values (plus the one being written) and one traceback bit per owned cell.
pub struct DenseStore {
    schedule: Schedule,
    rank: usize,
    /// Value buffers for diagonals `d mod 3`; slot `i + 1` is row `i`.
    bufs: [Vec<u32>; 3],
    /// Traceback bits: for row `i` of diagonal `d`, bit `i - rows.start` of the run starting at
    /// word `word_start[d - first]`.
    bits: Vec<u64>,
    word_start: Vec<usize>,
    first: usize,
}

impl DenseStore {
    pub fn new(schedule: &Schedule, rank: usize) -> DenseStore {
        let diagonals = schedule.rank_diagonals(rank);
        let mut word_start = Vec::with_capacity(diagonals.len() + 1);
        let mut words = 0usize;
        for d in diagonals.clone() {
            word_start.push(words);
            words += schedule.rank_rows(d, rank).len().div_ceil(64);
        }
        word_start.push(words);
        let slots = schedule.rows() + 1;
        DenseStore {
            schedule: *schedule,
            rank,
            bufs: [vec![0; slots], vec![0; slots], vec![0; slots]],
            bits: vec![0; words],
            word_start,
            first: diagonals.start,
        }
    }

    /// Bytes this store allocates on `rank`.
    pub fn estimate_bytes(schedule: &Schedule, rank: usize) -> u64 {
        let diagonals = schedule.rank_diagonals(rank);
        let words: u64 = diagonals
            .clone()
            .map(|d| schedule.rank_rows(d, rank).len().div_ceil(64) as u64)
            .sum();
        let values = 3 * 4 * (schedule.rows() as u64 + 1);
        words * 8 + (diagonals.len() as u64 + 1) * 8 + values
    }
}

/// One diagonal segment: `out[t] = diag[t] + 1` on a match, else `max(up[t], left[t])`, where
/// `up`, `left` and `diag` are the cell's three predecessors; also packs the traceback bits
/// `up[t] >= left[t]` into `bits`.
fn segment(
    out: &mut [u32],
    up: &[u32],
    left: &[u32],
    diag: &[u32],
    xs: &[u8],
    ys: &[u8],
    bits: &mut [u64],
) {
    let len = out.len();
    debug_assert!(up.len() == len && left.len() == len && diag.len() == len);
    debug_assert!(xs.len() == len && ys.len() == len && bits.len() == len.div_ceil(64));
    for t in 0..len {
        let m = diag[t] + 1;
        let g = up[t].max(left[t]);
        out[t] = if xs[t] == ys[t] { m } else { g };
    }
    for (w, word) in bits.iter_mut().enumerate() {
        let lo = w * 64;
        let hi = (lo + 64).min(len);
        let mut acc = 0u64;
        for (b, (u, l)) in up[lo..hi].iter().zip(&left[lo..hi]).enumerate() {
            acc |= ((u >= l) as u64) << b;
        }
        *word = acc;
    }
}

impl Store for DenseStore {
    fn kind(&self) -> StoreKind {
        StoreKind::Dense
    }

    fn put_received(&mut self, d: usize, i: usize, value: u32) {
        self.bufs[d % 3][i + 1] = value;
    }

    fn compute(&mut self, d: usize, rows: Range<usize>, seqs: &Seqs<'_>) {
        debug_assert_eq!(rows, self.schedule.rank_rows(d, self.rank));
        let Range { start: lo, end: hi } = rows;
        let [b0, b1, b2] = &mut self.bufs;
        let (cur, prev, prev2) = match d % 3 {
            0 => (b0, b2, b1),
            1 => (b1, b0, b2),
            _ => (b2, b1, b0),
        };
        if hi == d + 1 {
            // Row d of diagonal d is column 0: its left and diagonal predecessors lie in the
            // virtual column -1, whose slots in the previous two buffers must read 0.
            prev[d + 1] = 0;
            prev2[d] = 0;
        }
        let at = d - self.first;
        let words = &mut self.bits[self.word_start[at]..self.word_start[at + 1]];
        segment(
            &mut cur[lo + 1..hi + 1],
            &prev[lo..hi],
            &prev[lo + 1..hi + 1],
            &prev2[lo..hi],
            &seqs.x[lo..hi],
            seqs.y_along(d, rows),
            words,
        );
    }

    fn value(&self, d: usize, i: usize) -> u32 {
        self.bufs[d % 3][i + 1]
    }

    fn goes_up(&self, i: usize, j: usize) -> bool {
        let d = i + j;
        let rows = self.schedule.rank_rows(d, self.rank);
        debug_assert!(
            rows.contains(&i),
            "({i},{j}) is not owned by rank {}",
            self.rank
        );
        let t = i - rows.start;
        let word = self.bits[self.word_start[d - self.first] + t / 64];
        (word >> (t % 64)) & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_store_matches_reference() {
        crate::store::tests::check_against_reference(DenseStore::new);
    }

    #[test]
    fn estimate_matches_allocation() {
        let s = Schedule::new(300, 1000, 3);
        for k in 0..3 {
            let store = DenseStore::new(&s, k);
            let allocated = store.bits.len() * 8
                + store.word_start.len() * 8
                + store.bufs.iter().map(|b| b.len() * 4).sum::<usize>();
            assert_eq!(DenseStore::estimate_bytes(&s, k), allocated as u64);
        }
    }
}
