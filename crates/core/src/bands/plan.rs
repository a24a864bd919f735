//! The bands plan: which rank owns which columns, how rows are batched, and how many boundary
//! messages the pipeline sends. Pure arithmetic: O(1) per query (O(log m) with a band), no
//! allocation.
//!
//! The `W = ceil(n / 64)` words go to `p = min(P, W)` ranks in balanced contiguous runs of whole
//! words ([`crate::split`]); batch `b` is rows `[b * B, min((b + 1) * B, m))`, after which each
//! active rank but the last sends one message of `ceil(len / 64)` words per plane of carry:
//! `(p - 1) * ceil(m / B)` for the whole matrix. A checkpointed band keeps the carry into every
//! `f`-th of its words ([`BandPlan::seam_words`]). With a diagonal band ([`BandPlan::with_band`])
//! row `i` computes only its window ([`BandPlan::window`]), band `k` works on the rows whose window
//! touches its words ([`BandPlan::work_rows`]), and only batches with a row whose window spans an
//! edge send on it ([`BandPlan::edge_batches`]). On a diagonal band too narrow for that to keep
//! the ranks busy together, each rank holds several narrower bands, band `v` on rank `v mod P`
//! ([`BandPlan::laps`]). `docs/algorithms.md#the-bands-engine`.

use std::ops::Range;

use crate::bitpar::{WORD_BITS, WORD_BYTES};
use crate::diagonal_band::Band;
use crate::problem::Problem;
use crate::split::Split;
use crate::traffic::Predicted;

/// Rows per batch when `--batch` is not given (measured: see `docs/performance.md`).
pub const DEFAULT_BATCH: usize = 256;

/// The fewest words between two seams a checkpointed band keeps (`f`, [`BandPlan::seam_words`]).
/// The traceback recomputes a block of rows over the words from the seam at or before the walk's
/// word to that word, `f / 2` words on average; the fill, whose kernel reports the carries at
/// the seams as it steps the row (`crate::bitpar::seams`), spends a few instructions per row
/// at each, and each holds a bit per row and plane. Below 16 the fill's cost grows (seams
/// closer than `crate::bitpar::seams::LOGGED_APART` leave the vector kernels) while the walk
/// gains little: its narrow windows cost their calls more than their words (the figures are in
/// `docs/performance.md`).
pub const SEAM_WORDS: usize = 16;

/// Seams hold at most `1 / SEAM_SHARE` of the checkpoints' memory ([`BandPlan::seam_words`]).
const SEAM_SHARE: usize = 4;

/// Bands a row's window spans when the bands lap ([`BandPlan::laps`]): each window then holds
/// words of both ranks' bands (with two ranks), so they compute side by side.
const LAP_SPAN: usize = 2;

/// The fewest words of a band when the bands lap: every row costs each band it touches a call
/// of the kernel, about what 30 words cost, so narrower bands lose more than the ranks gain.
const LAP_WORDS: usize = 128;

/// The most bands the laps may make: the walk hops once per band edge it crosses, each hop
/// carrying the path found so far.
const LAP_BANDS: usize = 64;

/// Column ownership and row batching of an `m x n` bands run on `ranks` ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BandPlan {
    m: usize,
    n: usize,
    ranks: usize,
    /// Bands per rank ([`Self::laps`]).
    laps: usize,
    batch: usize,
    problem: Problem,
    /// The seams' spacing, when a test or a measurement fixes it ([`Self::seam_words`]).
    seam: Option<usize>,
    /// The diagonal band the fill computes ([`crate::diagonal_band`]).
    band: Band,
}

impl BandPlan {
    /// A plan for `m` rows and `n >= m` columns on `ranks >= 1` ranks, `batch >= 1` rows per
    /// boundary message.
    pub fn new(m: usize, n: usize, ranks: usize, batch: usize) -> BandPlan {
        assert!(m <= n, "rows must be the shorter sequence ({m} > {n})");
        assert!(ranks >= 1, "at least one rank");
        assert!(batch >= 1, "a batch holds at least one row");
        BandPlan {
            m,
            n,
            ranks,
            laps: 1,
            batch,
            problem: Problem::Lcs,
            seam: None,
            band: Band::whole(m, n),
        }
    }

    /// The plan whose fill computes only `band`'s windows (see the module doc), its bands
    /// lapping as `laps_for` says.
    pub fn with_band(self, band: Band) -> BandPlan {
        let plan = BandPlan { band, ..self };
        plan.with_laps(plan.laps_for(band))
    }

    /// This plan on one rank alone: the same matrix, batches, problem, seams and band, all of
    /// it one band (`alone`).
    pub fn alone(self) -> BandPlan {
        BandPlan {
            ranks: 1,
            laps: 1,
            ..self
        }
    }

    /// The plan with `laps >= 1` bands per rank ([`Self::laps`]); more than one only on two
    /// ranks or more, so a band's left neighbour is always another rank's.
    pub fn with_laps(self, laps: usize) -> BandPlan {
        assert!(laps >= 1, "a rank holds at least one band");
        assert!(
            laps == 1 || self.ranks >= 2,
            "bands lap over two ranks or more"
        );
        BandPlan { laps, ..self }
    }

    /// Bands per rank: band `v` of `P * laps` belongs to rank `v mod P` ([`Self::rank_of`]).
    /// One, but on a diagonal band narrow enough that, with one band per rank, the ranks
    /// would take its rows in turn (`laps_for`).
    pub fn laps(&self) -> usize {
        self.laps
    }

    /// The laps for `band`: on a diagonal band with `P >= 2`, bands a `1 / LAP_SPAN` of a
    /// row's window wide ([`LAP_SPAN`]), so the ranks share each row's work instead of taking
    /// the rows in turn; one band per rank when those would be narrower than [`LAP_WORDS`]
    /// (the band is too narrow to share) or more than [`LAP_BANDS`].
    fn laps_for(&self, band: Band) -> usize {
        if self.ranks < 2 || band.is_whole() || self.m == 0 {
            return 1;
        }
        let window = band.words(self.m / 2).len();
        let words = window / LAP_SPAN;
        if words < LAP_WORDS {
            return 1;
        }
        let bands = self.total_words().div_ceil(words);
        match bands > LAP_BANDS {
            true => 1,
            false => (bands / self.ranks).max(1),
        }
    }

    /// All bands: `P * laps`.
    pub fn bands(&self) -> usize {
        self.ranks * self.laps
    }

    /// The rank that holds band `v`.
    pub fn rank_of(&self, v: usize) -> usize {
        v % self.ranks
    }

    /// The bands rank `k` holds that own words, from left to right.
    pub fn bands_of(&self, k: usize) -> impl Iterator<Item = usize> {
        (k..self.active_bands()).step_by(self.ranks)
    }

    /// The band the fill computes (the whole matrix unless [`Self::with_band`] says).
    pub fn band(&self) -> Band {
        self.band
    }

    /// The words of band `k` that row `i` computes, counted from the band's first
    /// word: the row's window ([`Band::words`]) within the band; empty when the window misses
    /// it.
    pub fn window(&self, k: usize, i: usize) -> Range<usize> {
        window_in(self.band, &self.words(k), i)
    }

    /// Whether row `i`'s carry into band `k` comes from band `k - 1` (the row's window
    /// starts left of the band): otherwise it is the matrix's left-edge carry.
    pub fn carried_in(&self, k: usize, i: usize) -> bool {
        k > 0 && self.band.words(i).start < self.words(k).start
    }

    /// Rows on which band `k` computes any word: a run, since windows only move right.
    pub fn work_rows(&self, k: usize) -> Range<usize> {
        let own = self.words(k);
        if own.is_empty() {
            return 0..0;
        }
        let first = self.band.first_row(|w| w.end > own.start);
        let end = self.band.first_row(|w| w.start >= own.end);
        first..end.max(first)
    }

    /// Rows whose window spans the edge between band `k` and band `k + 1`: the rows whose
    /// carry crosses it, a run.
    fn edge_rows(&self, k: usize) -> Range<usize> {
        let edge = self.words(k + 1).start;
        let first = self.band.first_row(|w| w.end > edge);
        let end = self.band.first_row(|w| w.start >= edge);
        first..end.max(first)
    }

    /// Batches whose boundary message crosses the edge from band `k` to band `k + 1`: those
    /// holding a row whose window spans it (for the whole matrix, every batch).
    pub fn edge_batches(&self, k: usize) -> Range<usize> {
        if k + 1 >= self.active_bands() {
            return 0..0;
        }
        let rows = self.edge_rows(k);
        if rows.is_empty() {
            return 0..0;
        }
        self.batch_of_row(rows.start)..self.batch_of_row(rows.end - 1) + 1
    }

    /// The plan whose checkpointed bands keep a seam every `f >= 1` words
    /// ([`Self::seam_words`]), whatever their checkpoint interval.
    pub fn with_seam_words(self, f: usize) -> BandPlan {
        assert!(f >= 1, "seams at least a word apart");
        BandPlan {
            seam: Some(f),
            ..self
        }
    }

    /// Words between the seams of a band checkpointed every `k` rows (`f`): the words whose
    /// carry in the band keeps, `f, 2f, …` counted from its first word. At least
    /// [`SEAM_WORDS`] and `k / 16`: seams keep `m / f` bits per word and plane, the checkpoints
    /// `64 m / k`, so the seams hold at most a quarter of that; or the spacing
    /// [`Self::with_seam_words`] fixed.
    pub fn seam_words(&self, k: usize) -> usize {
        let least = SEAM_WORDS.max(k.div_ceil(WORD_BITS / SEAM_SHARE));
        self.seam.unwrap_or(least)
    }

    /// Seams of band `k` with seams every `f` words (the words `f, 2f, …` of the band but
    /// its first): `floor((w - 1) / f)` for `w` words (0 for a rank that owns nothing).
    pub fn seams(&self, k: usize, f: usize) -> usize {
        self.words(k).len().saturating_sub(1) / f
    }

    /// The plan for `problem`: the same bands and batches, with `problem`'s carries (one bit
    /// per row for the LCS, two for the edit distance).
    pub fn with_problem(self, problem: Problem) -> BandPlan {
        BandPlan { problem, ..self }
    }

    pub fn problem(&self) -> Problem {
        self.problem
    }

    /// Bits of carry per row that cross a band edge: 1 (LCS) or 2 (edit distance), each a
    /// plane of its own in a message.
    pub fn carry_planes(&self) -> usize {
        self.problem.planes()
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

    /// Rows per batch (`B`).
    pub fn batch(&self) -> usize {
        self.batch
    }

    /// Words in a whole row: `W = ceil(n / 64)`.
    pub fn total_words(&self) -> usize {
        self.n.div_ceil(WORD_BITS)
    }

    /// The split of a row's words among the bands.
    fn split(&self) -> Split {
        Split::new(self.total_words(), self.bands())
    }

    /// Bands that own at least one word: `min(P * laps, W)`.
    pub fn active_bands(&self) -> usize {
        self.split().active()
    }

    /// Ranks that hold a band with at least one word: `min(P, W)`.
    pub fn active_ranks(&self) -> usize {
        self.active_bands().min(self.ranks)
    }

    /// Words `[s, e)` of a row owned by band `k`; empty (at the end of the row) for a band
    /// that owns nothing.
    pub fn words(&self, k: usize) -> Range<usize> {
        self.split().range(k)
    }

    /// Columns owned by band `k`: its words, clipped to `n`.
    pub fn cols_of(&self, k: usize) -> Range<usize> {
        let Range { start, end } = self.words(k);
        (start * WORD_BITS).min(self.n)..(end * WORD_BITS).min(self.n)
    }

    /// The band that owns word `w < W`.
    pub fn owner_of_word(&self, w: usize) -> usize {
        self.split().owner(w)
    }

    /// The band that owns column `j < n`.
    pub fn owner_of_col(&self, j: usize) -> usize {
        debug_assert!(j < self.n, "column {j} out of range (n = {})", self.n);
        self.owner_of_word(j / WORD_BITS)
    }

    /// Number of batches: `ceil(m / B)`.
    pub fn batches(&self) -> usize {
        self.m.div_ceil(self.batch)
    }

    /// Rows of batch `b`.
    pub fn batch_rows(&self, b: usize) -> Range<usize> {
        debug_assert!(b < self.batches(), "batch {b} out of range");
        let start = b * self.batch;
        start..(start + self.batch).min(self.m)
    }

    /// Batch holding row `i`.
    pub fn batch_of_row(&self, i: usize) -> usize {
        debug_assert!(i < self.m, "row {i} out of range (m = {})", self.m);
        i / self.batch
    }

    /// Words of one plane of carry bits in batch `b`'s boundary message: one bit per row.
    pub fn carry_words(&self, b: usize) -> usize {
        self.batch_rows(b).len().div_ceil(WORD_BITS)
    }

    /// Words of batch `b`'s boundary message: every plane of carries.
    pub fn message_words(&self, b: usize) -> usize {
        self.carry_planes() * self.carry_words(b)
    }

    /// Words of the longest boundary message (the first batch's): what a band's message
    /// buffers need, sized by the rows there are rather than by the batch asked for.
    pub fn longest_message_words(&self) -> usize {
        if self.batches() == 0 {
            0
        } else {
            self.message_words(0)
        }
    }

    /// Bytes of batch `b`'s boundary message.
    pub fn message_bytes(&self, b: usize) -> u64 {
        self.message_words(b) as u64 * WORD_BYTES
    }

    /// Bands `k` that send boundary messages (to band `k + 1`): every active band but the
    /// last.
    pub fn senders(&self) -> Range<usize> {
        0..self.active_bands().saturating_sub(1)
    }

    /// Boundary messages of one fill: `(active - 1) * ceil(m / B)` for the whole matrix, the
    /// batches whose rows' windows span each edge for a band ([`Self::edge_batches`]).
    pub fn predicted_messages(&self) -> u64 {
        self.senders()
            .map(|k| self.edge_batches(k).len() as u64)
            .sum()
    }

    /// Boundary messages per pair of ranks of one fill: [`Self::edge_batches`] on every band
    /// edge `k -> k + 1`, sent by the rank of band `k` to that of band `k + 1`.
    pub fn predicted(&self) -> Predicted {
        let mut predicted = Predicted::none(self.ranks);
        self.add_predicted(&mut predicted);
        predicted
    }

    fn add_predicted(&self, predicted: &mut Predicted) {
        for k in self.senders() {
            let (from, to) = (self.rank_of(k), self.rank_of(k + 1));
            predicted.add(from, to, self.edge_batches(k).len() as u64);
        }
    }

    /// Boundary messages of a run that filled the bands of `fills` in turn (margins, `None`
    /// for the whole matrix): each fill is a pipeline of its own.
    pub fn predicted_fills(&self, fills: &[Option<usize>]) -> Predicted {
        let mut predicted = Predicted::none(self.ranks);
        for &margin in fills {
            self.with_band(Band::new(self.m, self.n, margin))
                .add_predicted(&mut predicted);
        }
        predicted
    }

    /// Cells rank `k` owns: every row of its bands' columns.
    pub fn rank_cells(&self, k: usize) -> u64 {
        let cols: usize = self.bands_of(k).map(|v| self.cols_of(v).len()).sum();
        self.m as u64 * cols as u64
    }

    /// Cells rank `k` computes in one fill: [`Self::computed_cells`] of each of its bands.
    pub fn rank_computed_cells(&self, k: usize) -> u64 {
        self.bands_of(k).map(|v| self.computed_cells(v)).sum()
    }

    /// Cells band `k` computes in one fill of the plan's band: the columns of each row's window
    /// ([`Self::window`]; whole words, so a little more than the band's own cells), all of its
    /// cells for the whole matrix. O(1) for the whole matrix, else O(m).
    pub fn computed_cells(&self, k: usize) -> u64 {
        if self.band.is_whole() {
            return self.rank_cells(k);
        }
        let first = self.words(k).start;
        self.work_rows(k)
            .map(|i| {
                let w = self.window(k, i);
                let cols = ((first + w.end) * WORD_BITS).min(self.n);
                cols.saturating_sub((first + w.start) * WORD_BITS) as u64
            })
            .sum()
    }

    /// Boundary bytes of one fill: every message on every sending edge.
    pub fn predicted_bytes(&self) -> u64 {
        // All batches but the last are full; only the last message can be shorter.
        let full = (self.carry_planes() * self.batch.div_ceil(WORD_BITS)) as u64 * WORD_BYTES;
        self.senders()
            .map(|k| {
                let batches = self.edge_batches(k);
                let last = batches.end.checked_sub(1);
                batches.len() as u64 * full - last.map_or(0, |b| full - self.message_bytes(b))
            })
            .sum()
    }
}

/// Row `i`'s window of `band` within the band words `own`, counted from `own.start`
/// ([`BandPlan::window`]; a band's store asks it with the words it keeps at hand).
#[inline]
pub(super) fn window_in(band: Band, own: &Range<usize>, i: usize) -> Range<usize> {
    let window = band.words(i);
    let (lo, hi) = (window.start.max(own.start), window.end.min(own.end));
    if lo < hi {
        lo - own.start..hi - own.start
    } else {
        0..0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Column counts around word edges, up to 21 words, with every P up to 12.
    fn shapes() -> impl Iterator<Item = (usize, usize)> {
        let widths = (0..=20usize).flat_map(|w| [w * 64, w * 64 + 1, w * 64 + 33, w * 64 + 63]);
        widths.flat_map(|n| (1..=12).map(move |p| (n, p)))
    }

    #[test]
    fn every_column_owned_once_in_whole_balanced_words() {
        // Exhaustive over n up to 21 words.
        for (n, p) in (0..=21 * 64).flat_map(|n| (1..=12).map(move |p| (n, p))) {
            let plan = BandPlan::new(0, n, p, 1);
            let w = n.div_ceil(64);
            assert_eq!(plan.total_words(), w);
            assert_eq!(plan.active_ranks(), p.min(w));
            // Brute force: walk the ranks' word ranges and count owners per word and column.
            let mut word_owner = vec![usize::MAX; w];
            let mut col_owner = vec![usize::MAX; n];
            let mut sizes = Vec::new();
            let mut next = 0;
            for k in 0..p + 3 {
                let words = plan.words(k);
                let cols = plan.cols_of(k);
                if k >= plan.active_ranks() {
                    assert!(words.is_empty() && cols.is_empty(), "n={n} P={p} k={k}");
                    continue;
                }
                assert!(
                    !words.is_empty(),
                    "active rank {k} owns nothing (n={n} P={p})"
                );
                assert_eq!(words.start, next, "bands are contiguous, in rank order");
                next = words.end;
                sizes.push(words.len());
                assert_eq!(
                    cols.start,
                    words.start * 64,
                    "bands start at a word boundary"
                );
                assert_eq!(cols.end, (words.end * 64).min(n));
                for t in words {
                    assert_eq!(word_owner[t], usize::MAX);
                    word_owner[t] = k;
                }
                for j in cols {
                    assert_eq!(col_owner[j], usize::MAX, "column {j} owned twice");
                    col_owner[j] = k;
                }
            }
            assert_eq!(next, w, "n={n} P={p}: words left unowned");
            assert!(
                col_owner.iter().all(|&k| k < p),
                "n={n} P={p}: column unowned"
            );
            if let (Some(&hi), Some(&lo)) = (sizes.iter().max(), sizes.iter().min()) {
                assert!(hi - lo <= 1, "n={n} P={p}: unbalanced {sizes:?}");
                // The larger bands come first.
                assert!(sizes.windows(2).all(|s| s[0] >= s[1]), "{sizes:?}");
            }
            for (t, &k) in word_owner.iter().enumerate() {
                assert_eq!(plan.owner_of_word(t), k, "n={n} P={p} word {t}");
            }
            for (j, &k) in col_owner.iter().enumerate() {
                assert_eq!(plan.owner_of_col(j), k, "n={n} P={p} column {j}");
            }
        }
    }

    #[test]
    fn batches_cover_the_rows_in_order() {
        for m in 0..=300 {
            for b in [1, 2, 7, 63, 64, 65, 128, 200, 1000] {
                let plan = BandPlan::new(m, 300, 3, b);
                assert_eq!(plan.batches(), m.div_ceil(b));
                let mut next = 0;
                for t in 0..plan.batches() {
                    let rows = plan.batch_rows(t);
                    assert_eq!(rows.start, next);
                    assert!(!rows.is_empty() && rows.len() <= b);
                    if t + 1 < plan.batches() {
                        assert_eq!(rows.len(), b, "only the last batch is short");
                    }
                    assert_eq!(plan.carry_words(t), rows.len().div_ceil(64));
                    assert_eq!(plan.message_bytes(t), 8 * rows.len().div_ceil(64) as u64);
                    for i in rows.clone() {
                        assert_eq!(plan.batch_of_row(i), t);
                    }
                    next = rows.end;
                }
                assert_eq!(next, m);
            }
        }
    }

    #[test]
    fn predicted_messages_equal_a_count_per_batch_per_edge() {
        for m in [0, 1, 2, 63, 64, 65, 199, 200, 201, 1000] {
            for (n, p) in shapes().filter(|&(n, _)| n >= m) {
                for b in [1, 63, 64, 200] {
                    let plan = BandPlan::new(m, n, p, b);
                    // Brute force: an edge k -> k+1 carries messages only if both own columns.
                    let (mut messages, mut bytes) = (0u64, 0u64);
                    for batch in 0..plan.batches() {
                        for k in 0..p.saturating_sub(1) {
                            if !plan.cols_of(k).is_empty() && !plan.cols_of(k + 1).is_empty() {
                                messages += 1;
                                bytes += 8 * plan.batch_rows(batch).len().div_ceil(64) as u64;
                            }
                        }
                    }
                    assert_eq!(
                        plan.predicted_messages(),
                        messages,
                        "m={m} n={n} P={p} B={b}"
                    );
                    assert_eq!(plan.predicted_bytes(), bytes, "m={m} n={n} P={p} B={b}");
                    let active = p.min(n.div_ceil(64)) as u64;
                    let expected = active.saturating_sub(1) * m.div_ceil(b) as u64;
                    assert_eq!(plan.predicted_messages(), expected);
                }
            }
        }
    }

    #[test]
    fn large_plan_arithmetic() {
        // 10^6 x 10^6 on 2 ranks: 15,625 words, 7,813 + 7,812.
        let plan = BandPlan::new(1_000_000, 1_000_000, 2, 4096);
        assert_eq!(plan.words(0), 0..7813);
        assert_eq!(plan.words(1), 7813..15_625);
        assert_eq!(plan.cols_of(1), 7813 * 64..1_000_000);
        assert_eq!(plan.batches(), 245);
        assert_eq!(plan.predicted_messages(), 245);
        assert_eq!(
            plan.carry_words(244),
            (1_000_000 - 244 * 4096usize).div_ceil(64)
        );
    }

    #[test]
    fn computed_cells_are_the_windows_columns() {
        for (m, n, p, margin) in [
            (300, 1000, 3, Some(40)),
            (200, 200, 2, Some(1)),
            (64, 64, 1, None),
        ] {
            let plan = BandPlan::new(m, n, p, 16).with_band(Band::new(m, n, margin));
            let mut total = 0;
            for k in 0..p {
                // Brute force: every cell of every row's window, within the matrix.
                let own = plan.words(k).start;
                let want: u64 = (0..m)
                    .map(|i| {
                        let w = plan.window(k, i);
                        ((own + w.start) * 64..(own + w.end) * 64)
                            .filter(|&j| j < n)
                            .count() as u64
                    })
                    .sum();
                assert_eq!(plan.computed_cells(k), want, "{m} x {n} P={p} rank {k}");
                total += want;
            }
            match margin {
                None => assert_eq!(total, (m * n) as u64),
                Some(_) => assert!(total < (m * n) as u64),
            }
        }
    }

    #[test]
    fn bands_lap_on_diagonal_bands_wide_enough_to_share() {
        let plan = |m, n, p| BandPlan::new(m, n, p, 256);
        let band = |m, n, k| Band::new(m, n, Some(k));
        // 50,000^2 with a margin of 12,935: windows of 404 words, bands of 202 wanted, so
        // 4 bands of the row's 782 words, two per rank; on 3 ranks one each.
        let large = plan(50_000, 50_000, 2).with_band(band(50_000, 50_000, 12_935));
        assert_eq!(
            (large.laps(), large.bands(), large.active_ranks()),
            (2, 4, 2)
        );
        assert_eq!(large.bands_of(0).collect::<Vec<_>>(), [0, 2]);
        assert_eq!(large.bands_of(1).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(large.rank_of(3), 1);
        let three = plan(50_000, 50_000, 3).with_band(band(50_000, 50_000, 12_935));
        assert_eq!(three.laps(), 1);
        // 10^6^2 with a margin of 47,475: bands of 742 words, 22 of them.
        let near = plan(1_000_000, 1_000_000, 2).with_band(band(1_000_000, 1_000_000, 47_475));
        assert_eq!(near.laps(), 11);
        // Windows of 156 words: bands of 78 would cost more calls than they share.
        let narrow = plan(1_000_000, 1_000_000, 2).with_band(band(1_000_000, 1_000_000, 4985));
        assert_eq!(narrow.laps(), 1);
        // The whole matrix, or one rank: one band per rank.
        assert_eq!(plan(50_000, 50_000, 2).laps(), 1);
        let one = plan(50_000, 50_000, 1).with_band(band(50_000, 50_000, 12_935));
        assert_eq!(one.laps(), 1);
        // Back to the whole matrix: the laps go with the band.
        let whole = large.with_band(Band::whole(50_000, 50_000));
        assert_eq!(whole.laps(), 1);
    }

    #[test]
    fn lapping_bands_own_every_word_once_and_send_around_the_ring() {
        let (m, n) = (3000, 64 * 90);
        for (p, laps) in [(2, 2), (2, 5), (3, 2), (4, 3)] {
            let plan = BandPlan::new(m, n, p, 64)
                .with_band(Band::new(m, n, Some(700)))
                .with_laps(laps);
            let mut owner = vec![usize::MAX; plan.total_words()];
            let mut cells = 0;
            for k in 0..p {
                for v in plan.bands_of(k) {
                    assert_eq!(plan.rank_of(v), k);
                    for w in plan.words(v) {
                        assert_eq!(owner[w], usize::MAX, "word {w} owned twice");
                        owner[w] = v;
                        assert_eq!(plan.owner_of_word(w), v);
                    }
                }
                cells += plan.rank_cells(k);
            }
            assert!(owner.iter().all(|&v| v < p * laps), "P={p} laps {laps}");
            assert_eq!(cells, (m * n) as u64);
            // Brute force: a message per edge batch, from each band's rank to the next's.
            let predicted = plan.predicted();
            let mut pairs = vec![vec![0u64; p]; p];
            for v in plan.senders() {
                pairs[v % p][(v + 1) % p] += plan.edge_batches(v).len() as u64;
            }
            assert_eq!(predicted.pairs(), pairs, "P={p} laps {laps}");
            assert_eq!(predicted.total, plan.predicted_messages());
            assert_eq!(
                predicted.ring > 0,
                p > 2,
                "P={p} laps {laps}: {predicted:?}"
            );
        }
    }

    #[test]
    #[should_panic(expected = "at least one row")]
    fn zero_batch_is_rejected() {
        BandPlan::new(3, 5, 2, 0);
    }

    #[test]
    #[should_panic(expected = "at least one rank")]
    fn zero_ranks_is_rejected() {
        BandPlan::new(3, 5, 0, 4);
    }
}
