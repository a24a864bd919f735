//! One rank's band: its row state (the LCS's `V`, or the edit distance's `Pv` and `Mv`, `width`
//! words each), its masks, and what its part of the traceback needs ([`Checkpoint`]): either every
//! owned cell's bits (`Full`, `planes * m * width * 8` bytes, read directly), or (`Every(K)`) the
//! state every `K` rows, each row's carry in, and the carry into every `f`-th word of the band
//! (its seams, [`BandPlan::seam_words`]); the walk then recomputes a block of `K` rows locally,
//! over the words from the seam at or before the one it needs, into one reused buffer
//! ([`RecomputeStats`] counts it). [`BandStore::walk`] ([`super::walker`]) follows the
//! reference's rule until the walk leaves the matrix ([`Exit::Done`]) or the band, only ever to
//! the left ([`Exit::Hop`]).
//!
//! Memory ([`holding`], exact: every word allocated is written): `planes * (floor((m-1)/K) *
//! width + (min(K, m) + 1) * min(width, f) + (s + 1) * ceil(m/64)) * 8` bytes besides the state
//! and the masks (`s = floor((width - 1) / f)` seams), the checkpoints smallest near
//! `K = sqrt(m)` ([`Checkpoint::leanest`]); on a diagonal band the checkpoints and seams hold
//! only the rows' windows ([`super::kept`]). The recompute is never more than one more fill.
//! `docs/algorithms.md#what-the-traceback-keeps-checkpoints`.

use std::ops::Range;
use std::time::Instant;

use super::carry::{self, Seams};
use super::kept::{planes_of, Kept};
use super::kernel::{self, Planes};
use super::plan::{window_in, BandPlan};
use crate::engines::holding::Holding;
use lcs_core::bitpar::{distinct_bytes, Masks, WORD_BITS, WORD_BYTES};
use lcs_core::problem::Move;

/// What a band keeps for the traceback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checkpoint {
    /// The walk's bits of every owned cell.
    Full,
    /// The state every `K` rows plus each row's carries in, at the band's first word and at
    /// every seam; blocks of `K` rows recomputed on demand, from seam to seam.
    Every(usize),
}

/// Nothing fits the memory budget (see [`Checkpoint::auto`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the bands store needs at least {needed} bytes on rank {rank} (checkpoints every {k} rows), \
     more than the {budget}-byte budget"
)]
pub struct NoFit {
    pub rank: usize,
    /// The smallest estimate over all checkpoint intervals.
    pub needed: u64,
    /// The interval that gives it.
    pub k: usize,
    pub budget: u64,
}

impl Checkpoint {
    /// The mode for `rank` within `budget` bytes: `Full` when the full bits fit, else the
    /// `Every(K)` of least memory if that fits.
    ///
    /// `Every(K)` keeps `floor((m-1)/K)` checkpoints, each its row's window of words, a block
    /// of `min(K, m)` rows of at most `f` words and seams every `f` words (`f` growing with
    /// `K`, [`BandPlan::seam_words`]), on top of parts that do not depend on `K`; the least
    /// over every `K` is found by trying them all (ties go to the smaller `K`: a smaller block,
    /// the same recompute work). The choice is for rows under
    /// [`AUTO_CHECKPOINT_ROWS`] (O(m log m) with a diagonal band, O(m) without); longer runs
    /// take [`Checkpoint::for_walk`]. Each rank may get its own `K`.
    pub fn auto(plan: &BandPlan, rank: usize, x: &[u8], budget: u64) -> Result<Checkpoint, NoFit> {
        if estimate_bytes(plan, rank, x, Checkpoint::Full) <= budget {
            return Ok(Checkpoint::Full);
        }
        let (k, needed) = (1..=plan.rows().max(1))
            .map(|k| (k, estimate_bytes(plan, rank, x, Checkpoint::Every(k))))
            .min_by_key(|&(_, bytes)| bytes)
            .expect("at least one interval");
        if needed <= budget {
            Ok(Checkpoint::Every(k))
        } else {
            Err(NoFit {
                rank,
                needed,
                k,
                budget,
            })
        }
    }
}

/// Reports write `"full"` or the interval `K`.
impl serde::Serialize for Checkpoint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Checkpoint::Full => s.serialize_str("full"),
            Checkpoint::Every(k) => s.serialize_u64(*k as u64),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Checkpoint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Checkpoint, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Checkpoint;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("\"full\" or a number of rows")
            }
            fn visit_u64<E: serde::de::Error>(self, k: u64) -> Result<Checkpoint, E> {
                Ok(Checkpoint::Every(k as usize))
            }
            fn visit_i64<E: serde::de::Error>(self, k: i64) -> Result<Checkpoint, E> {
                u64::try_from(k)
                    .map_err(|_| E::custom("a negative checkpoint interval"))
                    .and_then(|k| self.visit_u64(k))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Checkpoint, E> {
                match s {
                    "full" => Ok(Checkpoint::Full),
                    _ => s
                        .parse()
                        .map(Checkpoint::Every)
                        .map_err(|_| E::custom(format!("'{s}' is not \"full\" or a number"))),
                }
            }
        }
        d.deserialize_any(Visit)
    }
}

impl Checkpoint {
    /// The interval that keeps fewest rows for `m` rows, the same for every band: the `K`
    /// among the multiples of four that makes `floor((m-1)/K) + min(K, m)` least, near
    /// `sqrt(m)` (`K + floor(N/K)` is smallest near `K = sqrt(N)`, where it is about
    /// `2 sqrt(N)`; since it is at least `K`, no `K` above `2 sqrt(N) + 2` can win). A
    /// multiple of four puts each checkpoint after the last of four rows the fill steps
    /// together, so that no row of the fill goes alone (a checkpoint must see the state after
    /// its own row). A band's checkpoints hold only their windows, its block at most the words
    /// between two seams, and its seams depend on `K`, so [`Checkpoint::auto`]'s exact least
    /// may differ; this one is found in O(sqrt m) at any length.
    pub fn leanest(m: usize) -> Checkpoint {
        if m == 0 {
            return Checkpoint::Every(kernel::FUSED_ROWS);
        }
        let g = |k: usize| (m - 1) / k + k.min(m);
        let limit = m.min(2 * (m - 1).isqrt() + 2).max(kernel::FUSED_ROWS);
        let fused = (kernel::FUSED_ROWS..=limit).step_by(kernel::FUSED_ROWS);
        Checkpoint::Every(fused.min_by_key(|&k| g(k)).unwrap_or(kernel::FUSED_ROWS))
    }
}

/// How a run of the bands engine keeps its traceback, as the command line asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckpointChoice {
    /// `--checkpoint auto`: see [`Checkpoint::choose`].
    Auto,
    /// `--checkpoint full`: a bit per cell.
    Full,
    /// `--checkpoint K`.
    Every(usize),
}

/// Rows from which `auto` keeps checkpoints even when every bit would fit: writing a bit per
/// cell (faulting in a page every 32,768 cells) costs more than recomputing the blocks the
/// walk visits (measured on 50,000 x 50,000: `docs/performance.md`, "What makes it fast").
pub const AUTO_CHECKPOINT_ROWS: usize = 4096;

/// Rows from which `auto` halves its interval on a narrow diagonal band
/// ([`Checkpoint::for_walk`]): `sqrt(m)` is then 512 rows or more, so the walk drifts eight
/// words or more across each block.
pub const HALF_INTERVAL_ROWS: usize = 1 << 18;

/// The widest window, in words, of a diagonal band on which `auto` halves its interval
/// ([`Checkpoint::for_walk`]).
pub const HALF_INTERVAL_WORDS: usize = 1024;

impl Checkpoint {
    /// The mode of `rank` for `choice` within `budget` bytes for its band (`None`: no limit
    /// known). `auto` checkpoints from [`AUTO_CHECKPOINT_ROWS`] rows
    /// ([`Checkpoint::for_walk`]); below that it keeps every bit when they fit, and
    /// checkpoints otherwise. The caller checks that the result fits.
    pub fn choose(
        plan: &BandPlan,
        rank: usize,
        x: &[u8],
        choice: CheckpointChoice,
        budget: Option<u64>,
    ) -> Checkpoint {
        match choice {
            CheckpointChoice::Full => Checkpoint::Full,
            CheckpointChoice::Every(k) => Checkpoint::Every(k),
            CheckpointChoice::Auto if plan.rows() >= AUTO_CHECKPOINT_ROWS => {
                Checkpoint::for_walk(plan)
            }
            CheckpointChoice::Auto => Checkpoint::auto(plan, rank, x, budget.unwrap_or(u64::MAX))
                .unwrap_or_else(|_| Checkpoint::leanest(plan.rows())),
        }
    }

    /// `auto`'s interval from [`AUTO_CHECKPOINT_ROWS`] rows: the interval of least memory
    /// ([`Checkpoint::leanest`]), but half of it (a multiple of four) when `plan`'s band is a
    /// diagonal band whose windows are at most [`HALF_INTERVAL_WORDS`] wide, from
    /// [`HALF_INTERVAL_ROWS`] rows. A walk along the diagonal drifts `K / 64` words left
    /// across each block and recomputes about `f / 2 + K / 64` words a row (`f`, the seams'
    /// spacing, follows `K`): half the interval, half the recompute. The checkpoints hold only
    /// the windows, so twice as many cost little; the fill steps past twice as many seams, a
    /// cost that grows with the window, hence its bound. A run the half does not fit falls
    /// back to the leanest (`Layout::leanest`).
    pub fn for_walk(plan: &BandPlan) -> Checkpoint {
        let (m, band) = (plan.rows(), plan.band());
        let leanest = Checkpoint::leanest(m);
        let narrow = !band.is_whole() && band.words(m / 2).len() <= HALF_INTERVAL_WORDS;
        match leanest {
            Checkpoint::Every(k) if m >= HALF_INTERVAL_ROWS && narrow => {
                let fused = kernel::FUSED_ROWS;
                Checkpoint::Every((k / 2 / fused * fused).max(fused))
            }
            _ => leanest,
        }
    }

    /// What `choice`, which gave `mode` on `plan`, falls back to where `mode` does not fit: for
    /// `auto` from [`AUTO_CHECKPOINT_ROWS`] rows, the interval of least memory in place of the
    /// shorter one [`Checkpoint::for_walk`] took. `None` otherwise.
    pub fn fallback(
        plan: &BandPlan,
        choice: CheckpointChoice,
        mode: Checkpoint,
    ) -> Option<Checkpoint> {
        let leanest = Checkpoint::leanest(plan.rows());
        let auto = choice == CheckpointChoice::Auto && plan.rows() >= AUTO_CHECKPOINT_ROWS;
        (auto && mode != leanest).then_some(leanest)
    }
}

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

/// Number of checkpoints `Every(k)` keeps: one before each block but the first.
fn checkpoint_count(m: usize, k: usize) -> usize {
    if m == 0 {
        0
    } else {
        (m - 1) / k
    }
}

/// The rows whose state `Every(k)` keeps: `k-1, 2k-1, …`, one before each block but the first.
fn checkpoint_rows(m: usize, k: usize) -> impl ExactSizeIterator<Item = usize> {
    (1..checkpoint_count(m, k) + 1).map(move |c| c * k - 1)
}

/// Bytes of the [`Seams`] of `rank`'s band, seams every `f` words ([`seam_groups`]): O(1) for
/// the whole matrix, else O(m / 64).
fn seams_bytes(plan: &BandPlan, rank: usize, planes: usize, f: usize) -> u64 {
    match plan.band().is_whole() {
        true => {
            let groups = plan.rows().div_ceil(WORD_BITS) as u64;
            let seams = plan.seams(rank, f) as u64;
            (planes as u64 * groups * seams + 2 * groups + 1) * WORD_BYTES
        }
        false => Seams::bytes(seam_groups(plan, rank, f), planes),
    }
}

/// The seams each group of 64 rows of `rank`'s band may write, seams every `f` words (see
/// [`Seams`]): those strictly inside its rows' windows (windows only move right, so the
/// group's first and last rows with work bound them). Every seam of the band for the whole
/// matrix.
fn seam_groups(
    plan: &BandPlan,
    rank: usize,
    f: usize,
) -> impl ExactSizeIterator<Item = Range<usize>> + '_ {
    let work = plan.work_rows(rank);
    (0..plan.rows().div_ceil(WORD_BITS)).map(move |q| {
        let first = (q * WORD_BITS).max(work.start);
        let last = ((q + 1) * WORD_BITS).min(work.end);
        if first >= last {
            return 0..0;
        }
        let (a, b) = (plan.window(rank, first), plan.window(rank, last - 1));
        // Seam s (at word (s + 1) f) is written by a row whose window has
        // start < (s + 1) f < end.
        a.start / f..((b.end - 1) / f).max(a.start / f)
    })
}

/// What [`BandStore::new`] allocates for each band of `rank` (not counting the sequences), part
/// by part, the bands added up: exact (`band_holding`). Nothing for a rank with no band.
pub fn holding(plan: &BandPlan, rank: usize, x: &[u8], mode: Checkpoint) -> Holding {
    // `x` read once for all the bands (with bands that lap, a rank may hold dozens).
    let distinct = distinct_bytes(x);
    plan.bands_of(rank)
        .map(|v| band_holding(plan, v, distinct, mode))
        .fold(Holding::new(), |all, band| all.plus(&band))
}

/// What [`BandStore::new`] allocates for band `rank` of rows with `distinct` distinct bytes,
/// part by part. The state and the masks span the band's words; the kept rows and the seams
/// only the rows' windows; the block and the scratch row at most the words between two seams.
fn band_holding(plan: &BandPlan, rank: usize, distinct: usize, mode: Checkpoint) -> Holding {
    let m = plan.rows();
    let planes = plan.problem().planes();
    let width = plan.words(rank).len();
    let held = Holding::new()
        .with("masks", Masks::bytes_for(distinct, width))
        .with("state", (planes * width) as u64 * WORD_BYTES);
    match mode {
        Checkpoint::Full => held.with("bits", Kept::bytes(plan, rank, 0..m, planes)),
        Checkpoint::Every(k) => {
            assert!(k >= 1, "checkpoint interval must be at least 1 row");
            let rows = checkpoint_rows(m, k);
            let f = plan.seam_words(k);
            let window = width.min(f) as u64 * WORD_BYTES;
            held.with("checkpoints", Kept::bytes(plan, rank, rows, planes))
                .with(
                    "carries",
                    (planes * m.div_ceil(WORD_BITS)) as u64 * WORD_BYTES,
                )
                .with("seams", seams_bytes(plan, rank, planes, f))
                .with("block", planes as u64 * (k.min(m) as u64 + 1) * window)
        }
    }
}

/// The bytes of [`holding`], all parts together.
pub fn estimate_bytes(plan: &BandPlan, rank: usize, x: &[u8], mode: Checkpoint) -> u64 {
    holding(plan, rank, x, mode).total()
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
        let mut state = planes_of(planes, width);
        let [s0, s1] = &mut state;
        kernel::initial(plan.problem(), [s0, s1]);
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
        (words + count(&self.state)) as u64 * WORD_BYTES + self.masks.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcs_core::problem::{Path, Problem};

    fn seq(len: usize, alphabet: &[u8], seed: u64) -> Vec<u8> {
        let mut rng = crate::generate::Random::new(seed);
        (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect()
    }

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
        let band = lcs_core::diagonal_band::Band::new(m, n, Some(50));
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
    fn checkpoint_memory_formula() {
        // 1000 rows, rank 0 of 8 owns 2 of 16 words, x has 4 distinct bytes: masks of 2 words
        // for each, a state of 2 words per plane.
        let x: Vec<u8> = b"acgt".iter().copied().cycle().take(1000).collect();
        let plan = BandPlan::new(1000, 1024, 8, 64);
        let (masks, state) = (4 * 2 * 8, 2 * 8);
        // Every bit: 1000 rows of 2 words, and an index word per row and one more.
        assert_eq!(
            estimate_bytes(&plan, 0, &x, Checkpoint::Full),
            masks + state + (1000 * 2 + 1001) * 8
        );
        // K = 32: 31 checkpoints of 2 words (and their index), 16 words of carry-ins, the
        // seams' index of 16 groups (no seam: seams every 16 words), a 32-row block and the
        // scratch row of the band's 2 words.
        let every = |planes: u64| {
            (planes * 31 * 2 + 32) * 8 + planes * 16 * 8 + 33 * 8 + planes * 33 * 2 * 8
        };
        assert_eq!(
            estimate_bytes(&plan, 0, &x, Checkpoint::Every(32)),
            masks + state + every(1)
        );
        // The edit distance keeps two planes of everything but the indexes.
        let edit = plan.with_problem(Problem::Edit);
        assert_eq!(
            estimate_bytes(&edit, 0, &x, Checkpoint::Every(32)),
            masks + 2 * state + every(2)
        );
        // With seams every word the second word is a seam, which every group keeps: 16 more
        // words per plane; the block and the scratch row are a word wide.
        assert_eq!(plan.seam_words(32), 16);
        assert_eq!(plan.seams(0, 16), 0);
        let narrow = plan.with_seam_words(1);
        assert_eq!(narrow.seam_words(32), 1);
        assert_eq!(narrow.seams(0, 1), 1);
        let narrowed = |planes: u64| {
            (planes * 31 * 2 + 32) * 8 + planes * 16 * 8 + (planes * 16 + 33) * 8 + planes * 33 * 8
        };
        assert_eq!(
            estimate_bytes(&narrow, 0, &x, Checkpoint::Every(32)),
            masks + state + narrowed(1)
        );
        let narrow_edit = narrow.with_problem(Problem::Edit);
        assert_eq!(
            estimate_bytes(&narrow_edit, 0, &x, Checkpoint::Every(32)),
            masks + 2 * state + narrowed(2)
        );
        assert_eq!(
            estimate_bytes(&narrow, 0, &x, Checkpoint::Full),
            estimate_bytes(&plan, 0, &x, Checkpoint::Full)
        );
        // 10^6 x 10^6 on 2 ranks, K = 1000: 7,813 words, seams every 63 words (1000 / 16),
        // 124 of them, 10^6 bits each.
        let big = BandPlan::new(1_000_000, 1_000_000, 2, 256);
        assert_eq!(big.seam_words(1000), 63);
        assert_eq!(big.seams(0, 63), 124);
        let part = |plan: &BandPlan, name: &str| {
            let held = holding(plan, 0, b"ACGT", Checkpoint::Every(1000));
            held.parts().iter().find(|(p, _)| *p == name).unwrap().1
        };
        let index = (2 * 15_625 + 1) * 8;
        assert_eq!(part(&big, "seams"), 124 * 15_625 * 8 + index);
        let edit = big.with_problem(Problem::Edit);
        assert_eq!(part(&edit, "seams"), 2 * 124 * 15_625 * 8 + index);
        // A quarter of the checkpoints' words at most.
        assert_eq!(part(&big, "checkpoints"), (999 * 7813 + 1000) * 8);
        assert!(4 * part(&big, "seams") <= part(&big, "checkpoints") + 4 * index);
        assert_eq!(part(&big, "block"), 1001 * 63 * 8);
        // On a diagonal band of 100 diagonals: the checkpoints hold their windows, a few
        // words each, and a group of rows keeps a seam only where its windows cross one.
        let banded = big.with_band(lcs_core::diagonal_band::Band::new(
            1_000_000,
            1_000_000,
            Some(100),
        ));
        let windows: u64 = (1..1000)
            .map(|c| banded.window(0, c * 1000 - 1).len() as u64)
            .sum();
        assert!(windows < 999 * 6, "{windows}");
        assert_eq!(part(&banded, "checkpoints"), (windows + 1000) * 8);
        assert!(
            part(&banded, "seams") < index + 2_000 * 8,
            "{}",
            part(&banded, "seams")
        );
        assert!(part(&banded, "seams") > index);
    }

    #[test]
    fn auto_picks_full_when_it_fits_else_the_least_memory() {
        let x = seq(10_000, b"acgt", 0);
        let plan = BandPlan::new(10_000, 64 * 200, 5, 64);
        let full = estimate_bytes(&plan, 0, &x, Checkpoint::Full);
        assert_eq!(Checkpoint::auto(&plan, 0, &x, full), Ok(Checkpoint::Full));
        let Ok(Checkpoint::Every(k)) = Checkpoint::auto(&plan, 0, &x, full - 1) else {
            panic!("expected checkpoints");
        };
        // The chosen K is the exact minimum over every K.
        let best = (1..=10_000)
            .map(|k| estimate_bytes(&plan, 0, &x, Checkpoint::Every(k)))
            .min()
            .unwrap();
        assert_eq!(estimate_bytes(&plan, 0, &x, Checkpoint::Every(k)), best);
        // Near sqrt(m w / f) = 158, where the checkpoints (m / K rows of the band's 40 words)
        // and the block (K rows of the seams' 16) weigh the same.
        assert_eq!(plan.seam_words(k), 16);
        assert!((140..=180).contains(&k), "K = {k} is not near 158");
        let err = Checkpoint::auto(&plan, 0, &x, best - 1).unwrap_err();
        assert_eq!((err.needed, err.k, err.rank), (best, k, 0));
        assert!(err.to_string().contains(&best.to_string()));
        // The exact minimum for every small m.
        for m in 1..=400 {
            let x = seq(m, b"ab", 3);
            let y = seq(m.max(64), b"ab", 4);
            let plan = BandPlan::new(m, y.len(), 1, 64);
            let best = (1..=m + 3)
                .map(|k| estimate_bytes(&plan, 0, &x, Checkpoint::Every(k)))
                .min()
                .unwrap();
            match Checkpoint::auto(&plan, 0, &x, best) {
                Ok(Checkpoint::Every(k)) => {
                    assert_eq!(estimate_bytes(&plan, 0, &x, Checkpoint::Every(k)), best)
                }
                Ok(Checkpoint::Full) => {
                    assert!(estimate_bytes(&plan, 0, &x, Checkpoint::Full) <= best)
                }
                Err(e) => panic!("m = {m}: {e}"),
            }
        }
        // No rows: the full store holds the state's word and its index's.
        let plan = BandPlan::new(0, 10, 1, 1);
        assert_eq!(Checkpoint::auto(&plan, 0, b"", 16), Ok(Checkpoint::Full));
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
            assert_eq!(path, lcs_core::reference::align(problem, &x, &y));
            assert!(whole.blocks >= 1 && whole.blocks <= 1000usize.div_ceil(23) as u64);
            assert_eq!(whole.windows, whole.blocks, "{whole:?}");
            assert!(whole.words <= fill, "{whole:?}");
            assert!(whole.words * 4 > fill, "{whole:?}: about half a fill");
            // Seams every 4 words: about 2 words a row, plus the walk's drift within a block.
            let (windowed, path) = walk_recomputing(&plan.with_seam_words(4), &x, &y, 23);
            assert_eq!(path, lcs_core::reference::align(problem, &x, &y));
            assert_eq!(windowed.blocks, whole.blocks);
            assert!(windowed.windows >= windowed.blocks);
            assert!(windowed.words * 10 < fill, "{windowed:?}");
        }
    }

    /// Fills a one-band store of `plan` with checkpoints every `k` rows and walks it from the
    /// last cell; checks that the block buffer is reused.
    fn walk_recomputing(plan: &BandPlan, x: &[u8], y: &[u8], k: usize) -> (RecomputeStats, Path) {
        let mut store = BandStore::new(plan, 0, x, y, Checkpoint::Every(k));
        let edge = crate::engines::bands::kernel::left_edge(plan.problem());
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
            let edge = crate::engines::bands::kernel::left_edge(problem);
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
    fn leanest_checkpoints_fall_after_fused_rows() {
        // A multiple of four, keeping at most two rows more than the least over every K.
        for m in (0..2000).chain([50_000, 1_000_000]) {
            let Checkpoint::Every(k) = Checkpoint::leanest(m) else {
                panic!("checkpoints");
            };
            assert!(k.is_multiple_of(4), "m = {m}: K = {k}");
            if m > 0 {
                let g = |k: usize| (m - 1) / k + k.min(m);
                let best = (1..=m).map(g).min().unwrap();
                assert!(g(k) <= best + 2, "m = {m}: K = {k} keeps {} > {best}", g(k));
            }
        }
        assert_eq!(Checkpoint::leanest(50_000), Checkpoint::Every(212));
        assert_eq!(Checkpoint::leanest(1_000_000), Checkpoint::Every(1000));
    }

    #[test]
    fn auto_halves_the_interval_on_long_narrow_diagonal_bands() {
        use lcs_core::diagonal_band::Band;
        let x = b"ACGT";
        let auto = |plan: &BandPlan, budget: Option<u64>| {
            Checkpoint::choose(plan, 0, x, CheckpointChoice::Auto, budget)
        };
        let on = |m: usize, n: usize, margin: Option<usize>| {
            BandPlan::new(m, n, 2, 256)
                .with_problem(Problem::Edit)
                .with_band(Band::new(m, n, margin))
        };
        // 10^6 rows: the leanest interval is 1000; a band of 4,985 diagonals has windows of
        // 157 words, so the interval halves (a multiple of four).
        let m = 1_000_000;
        assert_eq!(auto(&on(m, m, Some(4985)), None), Checkpoint::Every(500));
        let near = on(999_983, 1_000_000, Some(517));
        assert_eq!(auto(&near, None), Checkpoint::Every(496));
        // Not on the whole matrix, on windows wider than the bound, or below its rows.
        assert_eq!(auto(&on(m, m, None), None), Checkpoint::Every(1000));
        let wide = on(m, m, Some(64 * HALF_INTERVAL_WORDS / 2 + 64));
        assert!(wide.band().words(m / 2).len() > HALF_INTERVAL_WORDS);
        assert_eq!(auto(&wide, None), Checkpoint::Every(1000));
        let short = HALF_INTERVAL_ROWS - 1;
        assert_eq!(
            auto(&on(short, short, Some(64)), None),
            Checkpoint::leanest(short)
        );
    }

    #[test]
    #[should_panic(expected = "at least 1 row")]
    fn zero_interval_is_rejected() {
        let plan = BandPlan::new(1, 1, 1, 1);
        BandStore::new(&plan, 0, b"a", b"a", Checkpoint::Every(0));
    }
}
