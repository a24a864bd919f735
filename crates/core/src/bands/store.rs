//! One rank's band: its row state (the LCS's `V`, or the edit distance's `Pv` and `Mv`, `width`
//! words each), its masks, and what its part of the traceback needs, as its [`Checkpoint`] mode
//! says ([`super::checkpoint`]): either every owned cell's bits (`Full`, read directly), or
//! (`Every(K)`) the state every `K` rows, each row's carry in, and the carry into every `f`-th
//! word of the band (its seams, [`BandPlan::seam_words`]); the walk then recomputes a block of `K`
//! rows locally, over the words from the seam at or before the one it needs, into one reused
//! buffer ([`RecomputeStats`] counts it). [`BandStore::walk`] ([`super::walk`]) follows the
//! reference's rule until the walk leaves the matrix ([`Exit::Done`]) or the band, only ever to
//! the left ([`Exit::Hop`]). What it allocates is counted, exactly, by
//! [`super::checkpoint::holding`]; the recompute is never more than one more fill.

use std::ops::Range;
use std::time::Instant;

use super::carry::{self, Seams};
use super::checkpoint::{checkpoint_rows, seam_groups};
// What a band keeps, and how it is chosen and counted, live beside the store; their paths through
// the store still work.
pub use super::checkpoint::{
    estimate_bytes, holding, Checkpoint, CheckpointChoice, NoFit, AUTO_CHECKPOINT_ROWS,
    HALF_INTERVAL_ROWS, HALF_INTERVAL_WORDS,
};
use super::kept::{planes_of, Kept};
use super::kernel::{self, Planes};
use super::plan::{window_in, BandPlan};
use crate::bitpar::{Masks, WORD_BITS};
use crate::problem::Move;

/// Where a band's part of the walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The walk left the matrix: the path is complete.
    Done,
    /// The walk continues at `(i, j)`, in the band to the left (rank `k - 1`).
    Hop { i: usize, j: usize },
}

/// Work the checkpointed traceback spent recomputing blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RecomputeStats {
    /// Blocks the walk entered (each recomputed over one window or more).
    pub blocks: u64,
    /// Windows recomputed: a block's rows over a run of words near the walk.
    pub windows: u64,
    /// Row-words stepped (one kernel word step each).
    pub words: u64,
    /// Wall time spent recomputing.
    pub seconds: f64,
}

impl RecomputeStats {
    /// Adds `other`'s work to this.
    pub fn add(&mut self, other: RecomputeStats) {
        self.blocks += other.blocks;
        self.windows += other.windows;
        self.words += other.words;
        self.seconds += other.seconds;
    }
}

/// The window of one block recomputed for the walk.
#[derive(Debug, Clone, Copy)]
pub(super) struct Loaded {
    /// Rows `first..=last` over the band's words `lo..hi` are in the buffer, `hi - lo` words
    /// per row and plane.
    first: usize,
    last: usize,
    lo: usize,
    hi: usize,
}

impl Loaded {
    fn holds(&self, i: usize, w: usize) -> bool {
        self.first <= i && i <= self.last && self.lo <= w && w < self.hi
    }
}

/// The traceback state of each mode.
// One per band, so the larger variant's few words of bookkeeping do not matter.
#[allow(clippy::large_enum_variant)]
pub(super) enum Trace {
    Full {
        /// Every row's bits over its window.
        bits: Kept,
    },
    Every {
        k: usize,
        /// The state after rows `k-1, 2k-1, …` (`floor((m-1)/k)` of them), each over its
        /// row's window.
        checkpoints: Kept,
        /// The carry into the band of every row, packed: `planes` planes of `ceil(m/64)`
        /// words ([`carry::get_payload`]).
        carries: Vec<u64>,
        /// Words between seams ([`BandPlan::seam_words`]).
        f: usize,
        /// The carry into every `f`-th word of the band but its first, for every row whose
        /// window holds that seam: `planes` bits per row and seam ([`seam_groups`]).
        seams: Seams,
        /// Per plane `min(k, m) * min(width, f)` words of recomputed bits.
        block: Planes,
        /// Per state plane `min(width, f)` words: the state the recompute advances.
        scratch: Planes,
        loaded: Option<Loaded>,
    },
}

/// One rank's band of columns.
pub struct BandStore<'a> {
    pub(super) plan: BandPlan,
    pub(super) rank: usize,
    pub(super) x: &'a [u8],
    pub(super) y: &'a [u8],
    /// Columns owned; starts at a multiple of 64.
    pub(super) cols: Range<usize>,
    /// Words owned.
    pub(super) width: usize,
    /// The words owned, counted in the whole row.
    pub(super) own: Range<usize>,
    pub(super) masks: Masks,
    /// The state of the latest row computed: `width` words per plane (`V`; or `Pv`, `Mv`).
    pub(super) state: Planes,
    /// Rows computed so far.
    pub(super) next_row: usize,
    pub(super) trace: Trace,
    pub(super) recompute: RecomputeStats,
}

/// The first word of the window the walk's recompute covers when it needs word `w`: the
/// seam at or before `w` (every `f` words, where the fill kept the carries). The window is
/// `[start, w]`, 1 to `f` words; a walk that drifts further left enters the window to the
/// left, recomputed for the rows it still needs.
pub(super) fn window_start(f: usize, w: usize) -> usize {
    w / f * f
}

impl<'a> BandStore<'a> {
    /// The band of `rank` for rows `x` and columns `y` (the plan's `m` and `n`), for the
    /// plan's problem.
    pub fn new(
        plan: &BandPlan,
        rank: usize,
        x: &'a [u8],
        y: &'a [u8],
        mode: Checkpoint,
    ) -> BandStore<'a> {
        assert_eq!(x.len(), plan.rows(), "x is not the plan's rows");
        assert_eq!(y.len(), plan.cols(), "y is not the plan's columns");
        let m = plan.rows();
        let planes = plan.problem().planes();
        let cols = plan.cols_of(rank);
        let width = plan.words(rank).len();
        let trace = match mode {
            Checkpoint::Full => Trace::Full {
                bits: Kept::new(plan, rank, 0..m, planes),
            },
            Checkpoint::Every(k) => {
                assert!(k >= 1, "checkpoint interval must be at least 1 row");
                let f = plan.seam_words(k);
                let window = width.min(f);
                let block = k
                    .min(m)
                    .checked_mul(window)
                    .expect("band does not fit in the address space");
                Trace::Every {
                    k,
                    checkpoints: Kept::new(plan, rank, checkpoint_rows(m, k), planes),
                    carries: vec![0; planes * m.div_ceil(WORD_BITS)],
                    f,
                    seams: Seams::new(seam_groups(plan, rank, f), planes),
                    block: planes_of(planes, block),
                    scratch: planes_of(planes, window),
                    loaded: None,
                }
            }
        };
        let state = kernel::fresh(plan.problem(), width);
        BandStore {
            plan: *plan,
            rank,
            x,
            y,
            masks: Masks::new(x, &y[cols.clone()]),
            cols,
            width,
            own: plan.words(rank),
            state,
            next_row: 0,
            trace,
            recompute: RecomputeStats::default(),
        }
    }

    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The plan the band is part of.
    pub fn plan(&self) -> &BandPlan {
        &self.plan
    }

    /// The state of the latest row computed: `width` words per plane (`V`; or `Pv`, `Mv`).
    pub fn state(&self) -> &Planes {
        &self.state
    }

    /// Columns this band owns.
    pub fn cols(&self) -> Range<usize> {
        self.cols.clone()
    }

    /// Rows computed so far.
    pub fn rows_done(&self) -> usize {
        self.next_row
    }

    /// Row `i`'s window in this band ([`BandPlan::window`]), from the words kept at hand.
    #[inline]
    pub(super) fn window(&self, i: usize) -> Range<usize> {
        window_in(self.plan.band(), &self.own, i)
    }

    /// Rows up to `row` hold no word of this band's work: the fill goes on from `row`.
    pub fn skip_to(&mut self, row: usize) {
        debug_assert!(self.next_row <= row && row <= self.plan.rows());
        debug_assert!(
            (self.next_row..row).all(|r| self.window(r).is_empty()),
            "rows {}..{row} hold work of band {}",
            self.next_row,
            self.rank
        );
        self.next_row = row;
    }

    /// Work spent recomputing blocks for the walk so far.
    pub fn recompute_stats(&self) -> RecomputeStats {
        self.recompute
    }

    /// At mismatch cell `(i, j)` of this band (after the fill): the walk's move. With
    /// checkpoints, recomputes a window of the block of `i` when the loaded rows or words do
    /// not cover the cell, so any order of queries is correct; in the walk's order (up and
    /// left) no row-word is recomputed twice.
    #[inline]
    pub fn step(&mut self, i: usize, j: usize) -> Move {
        debug_assert_eq!(self.next_row, self.plan.rows(), "traceback before the fill");
        debug_assert!(i < self.plan.rows(), "row {i} out of range");
        debug_assert!(
            self.cols.contains(&j),
            "column {j} not in band {:?}",
            self.cols
        );
        let t = j - self.cols.start;
        let w = t / WORD_BITS;
        debug_assert!(
            self.window(i).contains(&w),
            "({i}, {j}) lies outside row {i}'s window: the band did not prove itself"
        );
        let at = match &self.trace {
            Trace::Full { bits } => bits.start(i) + w - self.window(i).start,
            Trace::Every { loaded, .. } => {
                let l = match *loaded {
                    Some(l) if l.holds(i, w) => l,
                    _ => self.load_window(i, w),
                };
                (i - l.first) * (l.hi - l.lo) + (w - l.lo)
            }
        };
        let (Trace::Full {
            bits: Kept { planes: bits, .. },
        }
        | Trace::Every { block: bits, .. }) = &self.trace;
        let bit = |plane: &Vec<u64>| {
            plane
                .get(at)
                .is_some_and(|w| (w >> (t % WORD_BITS)) & 1 == 1)
        };
        self.plan.problem().step([bit(&bits[0]), bit(&bits[1])])
    }

    /// Recomputes the walk's bits of rows `first..=i` of `i`'s block over a window of words
    /// ending at word `w` ([`window_start`]), from the checkpoint before the block and the
    /// carries kept into the window's first word. Row `r` is recomputed over the words of the
    /// window that its own fill window held, `[max(lo_r, a), min(hi_r, w + 1))` with `a` the
    /// seam at or before `w`: the same words, carries and neighbours as the fill. Not inlined:
    /// the walk's step, which calls it, stays small.
    #[inline(never)]
    fn load_window(&mut self, i: usize, w: usize) -> Loaded {
        let started = Instant::now();
        let problem = self.plan.problem();
        let (plan, band, own) = (self.plan, self.plan.band(), self.own.clone());
        let window = |r: usize| window_in(band, &own, r);
        let (m, width) = (plan.rows(), self.width);
        let Trace::Every {
            k,
            checkpoints,
            carries,
            f,
            seams,
            block,
            scratch,
            loaded,
        } = &mut self.trace
        else {
            unreachable!("only checkpointed bands recompute")
        };
        debug_assert!(w < width);
        let first = i / *k * *k;
        let f = *f;
        let lo = window_start(f, w);
        let (hi, stride) = (w + 1, w + 1 - lo);
        let [s0, s1] = scratch;
        let (s0, s1) = (&mut s0[..stride], s1.get_mut(..stride).unwrap_or_default());
        // The state before row `first` over words lo..hi: the checkpoint's words where row
        // first - 1 computed them, the initial state where no row had yet (further right);
        // words left of its window are never read (later windows start no further left).
        kernel::initial(problem, [&mut *s0, &mut *s1]);
        if first > 0 {
            let kept = window(first - 1);
            let (a, b) = (kept.start.max(lo), kept.end.min(hi));
            let row = checkpoints.row(first / *k - 1);
            for (to, from) in [&mut *s0, &mut *s1].into_iter().zip(row) {
                if !to.is_empty() && a < b {
                    to[a - lo..b - lo].copy_from_slice(&from[a - kept.start..b - kept.start]);
                }
            }
        }
        let carry_words = m.div_ceil(WORD_BITS);
        let planes = problem.planes();
        // The buffer holds min(k, m) rows of min(width, f) words per plane, so at least
        // i - first + 1 rows of `stride` words.
        let [b0, b1] = block;
        let mut rows = (b0.chunks_exact_mut(stride), b1.chunks_exact_mut(stride));
        let mut next = || -> [&mut [u64]; 2] {
            let a = rows.0.next().expect("block buffer holds the block");
            [a, rows.1.next().unwrap_or_default()]
        };
        let mut stepped = 0;
        let mut r = first;
        while r <= i {
            let own = window(r);
            let (a, b) = (own.start.max(lo), own.end.min(hi));
            // Into the window's first word, the carry the fill used there (from the band on
            // the left, or the left edge); anywhere else, the one kept at its seam.
            let cin = |r: usize| match a == own.start {
                true => carry::get_payload(carries, carry_words, planes, r),
                false => seams.get(a / f - 1, r),
            };
            let cin4 = |r: usize| match a == own.start {
                true => [0, 1, 2, 3].map(|d| cin(r + d)),
                false => {
                    let c = seams.get4(a / f - 1, r);
                    [0, 1, 2, 3].map(|d| c.payload(d))
                }
            };
            let four = r + kernel::FUSED_ROWS <= i + 1 && own == window(r + kernel::FUSED_ROWS - 1);
            let count = if four { kernel::FUSED_ROWS } else { 1 };
            if a >= b {
                // The row's window misses these words: nothing the walk can ask.
                for _ in 0..count {
                    next();
                }
            } else if four {
                let eq = [0, 1, 2, 3].map(|d| &self.masks.of(self.x[r + d])[a..b]);
                let out =
                    [next(), next(), next(), next()].map(|p| kernel::words_of(p, a - lo..b - lo));
                let state = kernel::words_of([&mut *s0, &mut *s1], a - lo..b - lo);
                kernel::step4(problem, state, eq, cin4(r), Some(out));
            } else {
                let eq = &self.masks.of(self.x[r])[a..b];
                let out = kernel::words_of(next(), a - lo..b - lo);
                let state = kernel::words_of([&mut *s0, &mut *s1], a - lo..b - lo);
                kernel::step(problem, state, eq, cin(r), Some(out));
            }
            stepped += count * b.saturating_sub(a);
            r += count;
        }
        if loaded.is_none_or(|l| l.first != first) {
            self.recompute.blocks += 1;
        }
        let l = Loaded {
            first,
            last: i,
            lo,
            hi,
        };
        *loaded = Some(l);
        self.recompute.windows += 1;
        self.recompute.words += stepped as u64;
        self.recompute.seconds += started.elapsed().as_secs_f64();
        l
    }

    /// Bytes held by the store's buffers (capacities), for checking [`estimate_bytes`].
    #[cfg(test)]
    fn allocated_bytes(&self) -> u64 {
        let count = |p: &Planes| p[0].capacity() + p[1].capacity();
        let words = match &self.trace {
            Trace::Full { bits } => bits.capacity(),
            Trace::Every {
                checkpoints,
                carries,
                seams,
                block,
                scratch,
                ..
            } => {
                checkpoints.capacity()
                    + carries.capacity()
                    + seams.capacity()
                    + count(block)
                    + count(scratch)
            }
        };
        (words + count(&self.state)) as u64 * crate::bitpar::WORD_BYTES + self.masks.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::super::checkpoint::band_holding;
    use super::super::checkpoint::tests::seq;
    use super::*;
    use crate::bitpar::distinct_bytes;
    use crate::problem::{Path, Problem};

    #[test]
    fn estimate_matches_allocation() {
        for (m, n, problem) in [(0, 0), (0, 100), (1, 1), (5, 64), (100, 1000), (300, 4000)]
            .into_iter()
            .flat_map(|(m, n)| [(m, n, Problem::Lcs), (m, n, Problem::Edit)])
        {
            let x = seq(m, b"acgtn", 1);
            let y = seq(n, b"acgtn", 2);
            for (ranks, f) in [1, 2, 3, 8]
                .into_iter()
                .flat_map(|p| [(p, 1), (p, 3), (p, 16), (p, 64)])
            {
                let plan = BandPlan::new(m, n, ranks, 64)
                    .with_problem(problem)
                    .with_seam_words(f);
                for rank in 0..ranks {
                    for mode in [
                        Checkpoint::Full,
                        Checkpoint::Every(1),
                        Checkpoint::Every(7),
                        Checkpoint::Every(m + 5),
                    ] {
                        let store = BandStore::new(&plan, rank, &x, &y, mode);
                        assert_eq!(
                            band_holding(&plan, rank, distinct_bytes(&x), mode).total(),
                            store.allocated_bytes(),
                            "m={m} n={n} P={ranks} f={f} rank {rank} {mode:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_ranks_estimate_adds_up_its_lapping_bands() {
        let (m, n) = (300, 4000);
        let (x, y) = (seq(m, b"acgt", 3), seq(n, b"acgt", 4));
        let band = crate::diagonal_band::Band::new(m, n, Some(50));
        for (ranks, laps) in [(2, 3), (3, 2), (1, 1)] {
            let plan = BandPlan::new(m, n, ranks, 16)
                .with_problem(Problem::Edit)
                .with_band(band)
                .with_laps(laps);
            for mode in [Checkpoint::Full, Checkpoint::Every(9)] {
                let mut all = 0;
                for rank in 0..ranks {
                    let stores: u64 = plan
                        .bands_of(rank)
                        .map(|v| BandStore::new(&plan, v, &x, &y, mode).allocated_bytes())
                        .sum();
                    assert_eq!(plan.bands_of(rank).count(), laps, "P={ranks} rank {rank}");
                    assert_eq!(estimate_bytes(&plan, rank, &x, mode), stores, "P={ranks}");
                    all += stores;
                }
                assert!(all > 0);
            }
        }
    }

    #[test]
    fn recompute_is_a_fraction_of_the_fill_and_reuses_the_block() {
        let x = seq(1000, b"acgt", 5);
        let y = seq(64 * 64, b"acgt", 6);
        for problem in [Problem::Lcs, Problem::Edit] {
            // Seams as far apart as the band is wide: the window always starts at the band's
            // first word, which bounds the work by one fill (each row recomputed once at most).
            let plan = BandPlan::new(1000, 64 * 64, 1, 64).with_problem(problem);
            let fill = 1000 * 64;
            let (whole, path) = walk_recomputing(&plan.with_seam_words(64), &x, &y, 23);
            assert_eq!(path, crate::reference::align(problem, &x, &y));
            assert!(whole.blocks >= 1 && whole.blocks <= 1000usize.div_ceil(23) as u64);
            assert_eq!(whole.windows, whole.blocks, "{whole:?}");
            assert!(whole.words <= fill, "{whole:?}");
            assert!(whole.words * 4 > fill, "{whole:?}: about half a fill");
            // Seams every 4 words: about 2 words a row, plus the walk's drift within a block.
            let (windowed, path) = walk_recomputing(&plan.with_seam_words(4), &x, &y, 23);
            assert_eq!(path, crate::reference::align(problem, &x, &y));
            assert_eq!(windowed.blocks, whole.blocks);
            assert!(windowed.windows >= windowed.blocks);
            assert!(windowed.words * 10 < fill, "{windowed:?}");
        }
    }

    /// Fills a one-band store of `plan` with checkpoints every `k` rows and walks it from the
    /// last cell; checks that the block buffer is reused.
    fn walk_recomputing(plan: &BandPlan, x: &[u8], y: &[u8], k: usize) -> (RecomputeStats, Path) {
        let mut store = BandStore::new(plan, 0, x, y, Checkpoint::Every(k));
        let edge = crate::bands::kernel::left_edge(plan.problem());
        for i in 0..plan.rows() {
            store.row(i, edge);
        }
        let block_ptr = match &store.trace {
            Trace::Every { block, .. } => block[0].as_ptr(),
            Trace::Full { .. } => unreachable!(),
        };
        let mut path = Path::new();
        let end = (plan.rows() - 1, plan.cols() - 1);
        assert_eq!(store.walk(end, &mut path), Exit::Done);
        match &store.trace {
            Trace::Every { block, .. } => assert_eq!(block[0].as_ptr(), block_ptr),
            Trace::Full { .. } => unreachable!(),
        }
        (store.recompute_stats(), path)
    }

    #[test]
    fn random_order_queries_agree_with_full_bits() {
        // Checkpointed bits are recomputed whatever the order of the questions. The full store
        // goes row by row, the checkpointed ones batch by batch through the fused kernel, so
        // this also checks the fused fill, its checkpoints and its carries out, for both
        // problems.
        let x = seq(150, b"ab", 1);
        let y = seq(300, b"ab", 2);
        for problem in [Problem::Lcs, Problem::Edit] {
            let edge = crate::bands::kernel::left_edge(problem);
            let planes = problem.planes();
            for ranks in [1, 3] {
                let plan = BandPlan::new(150, 300, ranks, 10).with_problem(problem);
                for (rank, f) in (0..plan.active_ranks()).flat_map(|r| [(r, 1), (r, 2), (r, 64)]) {
                    let plan = plan.with_seam_words(f);
                    for k in [1, 2, 3, 4, 5, 8, 13, 150] {
                        let mut full = BandStore::new(&plan, rank, &x, &y, Checkpoint::Full);
                        let mut every = BandStore::new(&plan, rank, &x, &y, Checkpoint::Every(k));
                        // Carry-ins as the bands to the left would give them.
                        let mut lefts: Vec<BandStore<'_>> = (0..rank)
                            .map(|k| BandStore::new(&plan, k, &x, &y, Checkpoint::Full))
                            .collect();
                        for b in 0..plan.batches() {
                            let rows = plan.batch_rows(b);
                            let words = plan.carry_words(b);
                            let cin: Vec<u8> = rows
                                .clone()
                                .map(|i| lefts.iter_mut().fold(edge, |c, s| s.row(i, c)))
                                .collect();
                            let cout: Vec<u8> = rows
                                .clone()
                                .map(|i| full.row(i, cin[i - rows.start]))
                                .collect();
                            let pack = |payloads: &[u8]| {
                                let mut out = vec![0; plan.message_words(b)];
                                for (t, &p) in payloads.iter().enumerate() {
                                    carry::set_payload(&mut out, words, planes, t, p);
                                }
                                out
                            };
                            let mut msg = vec![0; plan.message_words(b)];
                            let incoming = (rank > 0).then(|| pack(&cin));
                            every.run_batch(b, incoming.as_deref(), &mut msg);
                            let what = format!("{problem} rank {rank} f={f} K={k} batch {b}");
                            assert_eq!(msg, pack(&cout), "{what}");
                        }
                        assert_eq!(every.state, full.state);
                        let cols = plan.cols_of(rank);
                        for q in 0..3000usize {
                            let i = (q * 7919) % 150;
                            let j = cols.start + (q * 104_729) % cols.len();
                            if x[i] != y[j] {
                                assert_eq!(every.step(i, j), full.step(i, j), "({i}, {j})");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "at least 1 row")]
    fn zero_interval_is_rejected() {
        let plan = BandPlan::new(1, 1, 1, 1);
        BandStore::new(&plan, 0, b"a", b"a", Checkpoint::Every(0));
    }
}
