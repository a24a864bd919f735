//! How a band advances: its rows in order, four at a time through the fused bit-parallel step
//! ([`bitpar::step4`]) where it can, each row fed the carry out of the band to its left, and
//! what the band keeps for the traceback written as it goes (every row's "go up" bits, or a
//! checkpoint every `K` rows and each row's carry-in; see [`super::store`]).
//!
//! The MPI driver ([`super::fill`]) calls [`BandStore::run_batch`], which has a whole batch's
//! carry-ins at hand and so runs four rows per pass of the kernel, except across a checkpoint,
//! which must see `V` after its own row. A batch's carries out, one bit per row
//! ([`super::carry`]), are the message to the band on the right.
//!
//! Cost per row: one step over the band's words (a few instructions per word, see
//! [`bitpar`]), plus one stored word per band word with every bit kept, or one bit with
//! checkpoints.

use super::carry;
use super::store::{BandStore, Trace};
use crate::engine::bitpar;

/// With checkpoints every `k` rows: after row `i`, copies `v` into its checkpoint slot if
/// row `i` ends a block that another block follows (the last block's end needs no copy).
#[inline]
fn keep_checkpoint(k: usize, m: usize, i: usize, v: &[u64], checkpoints: &mut [u64]) {
    if (i + 1).is_multiple_of(k) && i + 1 < m {
        let c = (i + 1) / k - 1;
        checkpoints[c * v.len()..(c + 1) * v.len()].copy_from_slice(v);
    }
}

impl BandStore<'_> {
    /// Computes row `i` (rows go `0..m` in order) with `carry_in`, the carry into the band's
    /// first word (false on the first band); returns the carry out of its last word.
    pub fn row(&mut self, i: usize, carry_in: bool) -> bool {
        debug_assert_eq!(i, self.next_row, "rows must be computed in order");
        let pm = self.masks.of(self.x[i]);
        let m = self.plan.rows();
        let carry_out = match &mut self.trace {
            Trace::Full { bits } => {
                let row = &mut bits[i * self.width..(i + 1) * self.width];
                bitpar::step_traced(&mut self.v, pm, carry_in, row)
            }
            Trace::Every {
                k,
                checkpoints,
                carries,
                ..
            } => {
                carry::set(carries, i, carry_in);
                let carry_out = bitpar::step(&mut self.v, pm, carry_in);
                keep_checkpoint(*k, m, i, &self.v, checkpoints);
                carry_out
            }
        };
        self.next_row += 1;
        carry_out
    }

    /// Whether rows `i..i + 4` (all in the matrix) can go through the fused kernel: with
    /// checkpoints, only if none is due after the first three of them.
    fn fusable(&self, i: usize) -> bool {
        match &self.trace {
            Trace::Full { .. } => true,
            // The first checkpoint row at or after i is (i+1).div_ceil(k) * k - 1.
            Trace::Every { k, .. } => (i + 1).div_ceil(*k) * *k >= i + bitpar::FUSED_ROWS,
        }
    }

    /// Rows `i..i + 4` in one pass ([`bitpar::step4`]); same contract as four [`Self::row`]s.
    fn rows4(&mut self, i: usize, carry_in: [bool; 4]) -> [bool; 4] {
        debug_assert_eq!(i, self.next_row, "rows must be computed in order");
        debug_assert!(i + 4 <= self.plan.rows() && self.fusable(i));
        let (masks, x, w, m) = (&self.masks, self.x, self.width, self.plan.rows());
        let pm = [0, 1, 2, 3].map(|d| masks.of(x[i + d]));
        let carry_out = match &mut self.trace {
            Trace::Full { bits } => {
                let rows = &mut bits[i * w..(i + 4) * w];
                let (r0, rest) = rows.split_at_mut(w);
                let (r1, rest) = rest.split_at_mut(w);
                let (r2, r3) = rest.split_at_mut(w);
                bitpar::step4_traced(&mut self.v, pm, carry_in, [r0, r1, r2, r3])
            }
            Trace::Every {
                k,
                checkpoints,
                carries,
                ..
            } => {
                for (d, &c) in carry_in.iter().enumerate() {
                    carry::set(carries, i + d, c);
                }
                let carry_out = bitpar::step4(&mut self.v, pm, carry_in);
                keep_checkpoint(*k, m, i + 3, &self.v, checkpoints);
                carry_out
            }
        };
        self.next_row += 4;
        carry_out
    }

    /// Computes batch `b` with the carries from the band to the left (`None` on the first
    /// band: all 0), writing this band's carries out to `outgoing` (`plan.carry_words(b)`
    /// words, the message to the band on the right). Rows go four at a time through the fused
    /// kernel where they can.
    pub fn run_batch(&mut self, b: usize, incoming: Option<&[u64]>, outgoing: &mut [u64]) {
        let rows = self.plan.batch_rows(b);
        debug_assert_eq!(outgoing.len(), self.plan.carry_words(b));
        debug_assert!(incoming.is_none_or(|w| w.len() == self.plan.carry_words(b)));
        // Bits past the batch are 0, so a message is a function of its rows alone.
        outgoing.fill(0);
        let carry_in = |t: usize| incoming.is_some_and(|w| carry::get(w, t));
        let mut i = rows.start;
        while i < rows.end {
            let t = i - rows.start;
            if i + bitpar::FUSED_ROWS <= rows.end && self.fusable(i) {
                let out = self.rows4(i, [0, 1, 2, 3].map(|d| carry_in(t + d)));
                for (d, c) in out.into_iter().enumerate() {
                    carry::set(outgoing, t + d, c);
                }
                i += bitpar::FUSED_ROWS;
            } else {
                let c = self.row(i, carry_in(t));
                carry::set(outgoing, t, c);
                i += 1;
            }
        }
    }

    /// Number of +1 steps of the latest row within this band (zero bits of `V` over real
    /// columns): after the last row, the bands' counts add up to the LCS length.
    pub fn plus_steps(&self) -> usize {
        // Padding bits are 1, so counting zeros over whole words counts real columns only.
        self.v.iter().map(|w| w.count_zeros() as usize).sum()
    }
}
