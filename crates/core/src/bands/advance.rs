//! How a band advances through a batch: its rows in order, four at a time through the fused
//! step ([`super::kernel`]) where they share a window and no checkpoint falls between them,
//! each row fed the carry from the band on its left, its carries out packed into the message
//! for the band on its right ([`super::carry`]), and what the traceback needs written as it
//! goes ([`super::store`]).

use std::ops::Range;

use crate::bitpar;

use super::carry;
use super::kept::Kept;
use super::kernel::{
    left_edge, step, step4, step4_seams, step_seams, words_of, Planes, FUSED_ROWS,
};
use super::store::{BandStore, Trace};

/// With checkpoints every `k` rows: after row `i`, copies the state's words `window` (the
/// row's) into its checkpoint if row `i` ends a block that another block follows (the last
/// block's end needs no copy). The recompute reads no other word (see `store`).
#[inline]
fn keep_checkpoint(
    (k, m): (usize, usize),
    (i, window): (usize, Range<usize>),
    state: &Planes,
    checkpoints: &mut Kept,
) {
    if (i + 1).is_multiple_of(k) && i + 1 < m {
        let c = (i + 1) / k - 1;
        for (to, from) in checkpoints.span_mut(c, 1).into_iter().zip(state) {
            if !from.is_empty() {
                to.copy_from_slice(&from[window.clone()]);
            }
        }
    }
}

impl BandStore<'_> {
    /// Computes row `i` over its window (rows go `0..m` in order, skipping none: a row
    /// outside the band's work computes nothing) with `carry_in`, the payload of the carry
    /// into the window's first word ([`left_edge`] where the window starts in this band);
    /// returns the payload out of its last word.
    pub fn row(&mut self, i: usize, carry_in: u8) -> u8 {
        debug_assert_eq!(i, self.next_row, "rows must be computed in order");
        let problem = self.plan.problem();
        let window = self.window(i);
        self.next_row += 1;
        if window.is_empty() {
            return left_edge(problem);
        }
        let eq = &self.masks.of(self.x[i])[window.clone()];
        let m = self.plan.rows();
        match &mut self.trace {
            Trace::Full { bits } => {
                let out = bits.span_mut(i, 1);
                let state = words_of(self.state.each_mut().map(|p| &mut p[..]), window);
                step(problem, state, eq, carry_in, Some(out))
            }
            Trace::Every {
                k,
                checkpoints,
                carries,
                f,
                seams,
                ..
            } => {
                let words = m.div_ceil(bitpar::WORD_BITS);
                carry::set_payload(carries, words, problem.planes(), i, carry_in);
                let eq = self.masks.of(self.x[i]);
                let at = (i, window.clone());
                let kept = (*f, seams);
                let carry_out = step_seams(problem, &mut self.state, eq, carry_in, kept, at);
                keep_checkpoint((*k, m), (i, window), &self.state, checkpoints);
                carry_out
            }
        }
    }

    /// Whether rows `i..i + 4` (all in the matrix) can go through the fused kernel: they
    /// share one window that holds words of this band, and with checkpoints none is due after
    /// the first three of them.
    fn fusable(&self, i: usize) -> bool {
        let window = self.window(i);
        if window.is_empty() || window != self.window(i + FUSED_ROWS - 1) {
            return false;
        }
        match &self.trace {
            Trace::Full { .. } => true,
            // The first checkpoint row at or after i is (i+1).div_ceil(k) * k - 1.
            Trace::Every { k, .. } => (i + 1).div_ceil(*k) * *k >= i + FUSED_ROWS,
        }
    }

    /// Rows `i..i + 4` in one pass ([`step4`]); same contract as four [`Self::row`]s.
    fn rows4(&mut self, i: usize, carry_in: [u8; 4]) -> [u8; 4] {
        debug_assert_eq!(i, self.next_row, "rows must be computed in order");
        debug_assert!(i + 4 <= self.plan.rows() && self.fusable(i));
        let problem = self.plan.problem();
        let (masks, x, m) = (&self.masks, self.x, self.plan.rows());
        let window = self.window(i);
        let eq = [0, 1, 2, 3].map(|d| masks.of(x[i + d]));
        let carry_out = match &mut self.trace {
            Trace::Full { bits } => {
                // The four rows share the window: its words, four times over.
                let [b0, b1] = bits.span_mut(i, FUSED_ROWS);
                let mut p0 = b0.chunks_exact_mut(window.len());
                let mut p1 = b1.chunks_exact_mut(window.len());
                let mut next = || [p0.next().unwrap(), p1.next().unwrap_or_default()];
                let out = [next(), next(), next(), next()];
                let state = words_of(self.state.each_mut().map(|p| &mut p[..]), window.clone());
                let eq = eq.map(|e| &e[window.clone()]);
                step4(problem, state, eq, carry_in, Some(out))
            }
            Trace::Every {
                k,
                checkpoints,
                carries,
                f,
                seams,
                ..
            } => {
                let words = m.div_ceil(bitpar::WORD_BITS);
                for (d, &c) in carry_in.iter().enumerate() {
                    carry::set_payload(carries, words, problem.planes(), i + d, c);
                }
                let at = (i, window.clone());
                let kept = (*f, seams);
                let carry_out = step4_seams(problem, &mut self.state, eq, carry_in, kept, at);
                keep_checkpoint((*k, m), (i + 3, window), &self.state, checkpoints);
                carry_out
            }
        };
        self.next_row += 4;
        carry_out
    }

    /// Computes batch `b` with the carries from the band to the left (`None` when no
    /// message came: the first band, or a batch none of whose windows spans the band's left
    /// edge), writing this band's carries out to `outgoing` (`plan.message_words(b)` words,
    /// the message to the band on the right; 0 for rows whose window does not reach its last
    /// word). A row whose window starts in this band takes the matrix's left-edge carry (see
    /// `band`). Rows go four at a time through the fused kernel where they can.
    pub fn run_batch(&mut self, b: usize, incoming: Option<&[u64]>, outgoing: &mut [u64]) {
        let rows = self.plan.batch_rows(b);
        if self.next_row < rows.start {
            self.skip_to(rows.start);
        }
        let (words, planes) = (self.plan.carry_words(b), self.plan.carry_planes());
        debug_assert_eq!(outgoing.len(), self.plan.message_words(b));
        debug_assert!(incoming.is_none_or(|w| w.len() == self.plan.message_words(b)));
        // Bits past the batch are 0, so a message is a function of its rows alone.
        outgoing.fill(0);
        let edge = left_edge(self.plan.problem());
        let (band, first, start) = (self.plan.band(), self.own.start, rows.start);
        // From the left only where the row's window starts left of this band (`carried_in`).
        let carry_in = |t: usize| match incoming {
            Some(w) if band.words(start + t).start < first => {
                carry::get_payload(w, words, planes, t)
            }
            _ => edge,
        };
        let mut i = rows.start;
        while i < rows.end {
            let t = i - rows.start;
            if i + FUSED_ROWS <= rows.end && self.fusable(i) {
                let out = self.rows4(i, [0, 1, 2, 3].map(|d| carry_in(t + d)));
                for (d, c) in out.into_iter().enumerate() {
                    carry::set_payload(outgoing, words, planes, t + d, c);
                }
                i += FUSED_ROWS;
            } else {
                let c = self.row(i, carry_in(t));
                carry::set_payload(outgoing, words, planes, t, c);
                i += 1;
            }
        }
    }

    /// This band's share of the latest row's answer over its real columns: for the LCS the
    /// +1 steps (zero bits of `V`), for the edit distance the sum of the horizontal deltas.
    /// After the last row the bands' shares add up to the LCS length, or to the distance less
    /// `m` (`D(m-1, -1) = m`).
    pub fn row_share(&self) -> i64 {
        let [a, b] = &self.state;
        super::kernel::share(self.plan.problem(), [a, b], self.cols.len())
    }
}
