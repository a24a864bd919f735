//! The bands engine's pipeline as a class sees it: its bands of whole words, its batches of rows,
//! the stages in which the batches flow from band to band (band `k` computes batch `b` at stage
//! `k + b`, after band `k − 1`'s batch `b` and its own batch `b − 1`), the message of carries each
//! band sends per batch, and a timeline of each rank's work, recorded by a run or, for a schedule,
//! modelled.
//!
//! A [`Pipeline`] is the engine's [`BandPlan`] (the same split, batches, messages and bytes) with
//! one difference a teacher may ask for: the number of columns in a word.
//! `schedule --engine bands --word 4` draws the same pipeline with words of 4 columns so that a
//! small matrix still shows every rank (every page and picture says so); a word of 64 gives exactly
//! the engine's plan (tested).

use std::ops::Range;

use crate::comm::protocol::Kind;
use crate::comm::trace::{Event, Span, SpanKind};
use crate::engines::bands::BandPlan;
use lcs_core::bitpar::{WORD_BITS, WORD_BYTES};
use lcs_core::problem::Problem;
use lcs_core::split::Split;

/// Columns in a word of the engine.
pub const ENGINE_WORD: usize = WORD_BITS;

/// The bands, batches and messages of a bands run (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pipeline {
    m: usize,
    n: usize,
    ranks: usize,
    batch: usize,
    word: usize,
    problem: Problem,
}

impl Pipeline {
    /// The engine's own pipeline for `plan`.
    pub fn of_plan(plan: &BandPlan) -> Pipeline {
        Pipeline {
            m: plan.rows(),
            n: plan.cols(),
            ranks: plan.ranks(),
            batch: plan.batch(),
            word: ENGINE_WORD,
            problem: plan.problem(),
        }
    }

    /// The pipeline of `plan` with words of `word >= 1` columns (a teaching word when not 64).
    pub fn with_word(plan: &BandPlan, word: usize) -> Pipeline {
        assert!(word >= 1, "a word holds at least one column");
        Pipeline {
            word,
            ..Pipeline::of_plan(plan)
        }
    }

    /// The same pipeline with batches of `batch >= 1` rows.
    pub fn with_batch(&self, batch: usize) -> Pipeline {
        assert!(batch >= 1, "a batch holds at least one row");
        Pipeline { batch, ..*self }
    }

    pub fn rows(&self) -> usize {
        self.m
    }

    pub fn cols(&self) -> usize {
        self.n
    }

    pub fn ranks(&self) -> usize {
        self.ranks
    }

    pub fn batch(&self) -> usize {
        self.batch
    }

    pub fn problem(&self) -> Problem {
        self.problem
    }

    /// Columns per word.
    pub fn word(&self) -> usize {
        self.word
    }

    /// Whether the words are narrower than the engine's, for teaching.
    pub fn teaching(&self) -> bool {
        self.word != ENGINE_WORD
    }

    pub fn total_words(&self) -> usize {
        self.n.div_ceil(self.word)
    }

    fn split(&self) -> Split {
        Split::new(self.total_words(), self.ranks)
    }

    /// Ranks that own at least one word.
    pub fn active_ranks(&self) -> usize {
        self.split().active()
    }

    /// Words of rank `k`.
    pub fn words(&self, k: usize) -> Range<usize> {
        self.split().range(k)
    }

    /// Columns of rank `k`.
    pub fn cols_of(&self, k: usize) -> Range<usize> {
        let w = self.words(k);
        (w.start * self.word).min(self.n)..(w.end * self.word).min(self.n)
    }

    /// The rank owning column `j < n`.
    pub fn owner_of_col(&self, j: usize) -> usize {
        self.split().owner(j / self.word)
    }

    pub fn batches(&self) -> usize {
        self.m.div_ceil(self.batch)
    }

    pub fn batch_rows(&self, b: usize) -> Range<usize> {
        let start = b * self.batch;
        start..(start + self.batch).min(self.m)
    }

    /// Stages of the fill: `batches + active − 1` (none without rows).
    pub fn stages(&self) -> usize {
        match self.batches() {
            0 => 0,
            b => b + self.active_ranks() - 1,
        }
    }

    /// Bytes of batch `b`'s message: one bit per row and carry plane, in 64-bit words.
    pub fn message_bytes(&self, b: usize) -> u64 {
        let words = self.batch_rows(b).len().div_ceil(WORD_BITS) * self.problem.planes();
        words as u64 * WORD_BYTES
    }

    /// Ranks that send (to the next rank): every active rank but the last.
    pub fn senders(&self) -> Range<usize> {
        0..self.active_ranks().saturating_sub(1)
    }

    /// `(active − 1) · ceil(m / B)`.
    pub fn predicted_messages(&self) -> u64 {
        (self.senders().len() * self.batches()) as u64
    }

    /// The messages' distinct sizes, each with how many messages have it, largest first: every
    /// batch's size but a shorter last batch's.
    pub fn message_sizes(&self) -> Vec<(u64, u64)> {
        let mut sizes: Vec<(u64, u64)> = Vec::new();
        let senders = self.senders().len() as u64;
        for b in 0..self.batches() {
            match sizes
                .iter_mut()
                .find(|(bytes, _)| *bytes == self.message_bytes(b))
            {
                Some((_, count)) => *count += senders,
                None => sizes.push((self.message_bytes(b), senders)),
            }
        }
        sizes.retain(|&(_, count)| count > 0);
        sizes.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        sizes
    }

    pub fn predicted_bytes(&self) -> u64 {
        let per_edge: u64 = (0..self.batches()).map(|b| self.message_bytes(b)).sum();
        self.senders().len() as u64 * per_edge
    }

    /// The messages as a run records them: batch `b`'s carries from band `k`, marked with
    /// the batch's first row and the band's last column, in trace order.
    pub fn messages(&self) -> Vec<Event> {
        let mut events: Vec<Event> = (0..self.batches())
            .flat_map(|b| {
                self.senders().map(move |k| {
                    let cell = (self.batch_rows(b).start, self.cols_of(k).end - 1);
                    Event::new(
                        Kind::Boundary,
                        k,
                        k + 1,
                        Some(cell),
                        self.message_bytes(b) as usize,
                    )
                })
            })
            .collect();
        events.sort_by_key(|e| (e.diagonal, e.from));
        events
    }

    /// The batch a boundary message of this pipeline carries, from its cell.
    pub fn batch_of_message(&self, e: &Event) -> Option<usize> {
        let (i, _) = e.cell()?;
        (i < self.m).then(|| i / self.batch)
    }

    /// A timeline for a pipeline that did not run: one unit of time per row and word computed,
    /// messages arriving at once, each rank waiting for the carries it needs. Only a model of
    /// the order, which the page labels as such.
    pub fn model_spans(&self) -> Vec<Span> {
        let p = self.active_ranks();
        let mut done = vec![0.0f64; p];
        let mut spans = Vec::new();
        for b in 0..self.batches() {
            for k in 0..p {
                let ready = if k == 0 { 0.0 } else { done[k - 1] };
                let start = done[k].max(ready);
                if start > done[k] {
                    spans.push(span(k, b, SpanKind::Wait, done[k], start));
                }
                let cost = (self.batch_rows(b).len() * self.words(k).len()) as f64;
                spans.push(span(k, b, SpanKind::Compute, start, start + cost));
                done[k] = start + cost;
            }
        }
        spans.sort_by_key(|s| (s.rank, s.batch));
        spans
    }
}

fn span(rank: usize, batch: usize, kind: SpanKind, start: f64, end: f64) -> Span {
    Span {
        rank,
        batch,
        kind,
        start,
        end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_word_gives_the_engines_plan() {
        for (m, n, p, b) in [
            (0, 10, 2, 3),
            (11, 13, 3, 4),
            (64, 200, 3, 8),
            (50, 1000, 8, 7),
        ] {
            for problem in [Problem::Lcs, Problem::Edit] {
                let plan = BandPlan::new(m, n, p, b).with_problem(problem);
                let pipe = Pipeline::of_plan(&plan);
                assert!(!pipe.teaching());
                assert_eq!(pipe.active_ranks(), plan.active_ranks());
                for k in 0..p + 1 {
                    assert_eq!(pipe.cols_of(k), plan.cols_of(k), "{m}x{n} P={p} k={k}");
                }
                for j in 0..n {
                    assert_eq!(pipe.owner_of_col(j), plan.owner_of_col(j));
                }
                assert_eq!(pipe.predicted_messages(), plan.predicted_messages());
                assert_eq!(pipe.predicted_bytes(), plan.predicted_bytes());
                assert_eq!(pipe.messages().len() as u64, plan.predicted_messages());
                for e in pipe.messages() {
                    let b = pipe.batch_of_message(&e).unwrap();
                    assert_eq!(e.bytes, plan.message_bytes(b));
                    assert_eq!(e.cell().unwrap().1, plan.cols_of(e.from).end - 1);
                }
            }
        }
    }

    #[test]
    fn a_teaching_word_gives_every_rank_a_band_of_a_small_matrix() {
        let plan = BandPlan::new(11, 13, 3, 4);
        assert_eq!(plan.active_ranks(), 1, "13 columns are one word of 64");
        let pipe = Pipeline::with_word(&plan, 4);
        assert!(pipe.teaching());
        assert_eq!(pipe.total_words(), 4);
        assert_eq!(
            (0..3).map(|k| pipe.cols_of(k)).collect::<Vec<_>>(),
            [0..8, 8..12, 12..13]
        );
        assert_eq!(pipe.batches(), 3);
        assert_eq!(pipe.stages(), 5);
        assert_eq!(pipe.predicted_messages(), 6);
        // The model: band 1 waits for band 0's first batch, then keeps pace.
        let spans = pipe.model_spans();
        let compute = |k: usize, b: usize| {
            spans
                .iter()
                .find(|s| s.rank == k && s.batch == b && s.kind == SpanKind::Compute)
                .copied()
                .unwrap()
        };
        assert_eq!((compute(0, 0).start, compute(0, 0).end), (0.0, 8.0));
        assert_eq!(compute(1, 0).start, 8.0);
        assert!(compute(2, 2).start >= compute(1, 2).end);
    }
}
