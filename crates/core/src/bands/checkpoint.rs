//! What a band keeps for its part of the traceback ([`Checkpoint`]), what that holds, and how
//! `--checkpoint` chooses it ([`CheckpointChoice`]): either every owned cell's bits (`Full`), or
//! (`Every(K)`) the state every `K` rows, each row's carry in, and the carry into every `f`-th
//! word of the band (its seams, [`BandPlan::seam_words`]), from which the walk recomputes a block
//! of `K` rows at a time ([`super::store`]). `auto` keeps every bit when it fits and the rows are
//! few ([`Checkpoint::auto`]), else the interval of least memory ([`Checkpoint::leanest`]), half
//! of it on a long, narrow diagonal band ([`Checkpoint::for_walk`]).
//!
//! Memory ([`holding`], exact: every word allocated is written): `planes * (floor((m-1)/K) *
//! width + (min(K, m) + 1) * min(width, f) + (s + 1) * ceil(m/64)) * 8` bytes besides the state
//! and the masks (`s = floor((width - 1) / f)` seams), the checkpoints smallest near
//! `K = sqrt(m)` ([`Checkpoint::leanest`]); on a diagonal band the checkpoints and seams hold
//! only the rows' windows ([`super::kept`]). The recompute is never more than one more fill.
//! `docs/algorithms.md#what-the-traceback-keeps-checkpoints`.

use std::ops::Range;

use super::carry::Seams;
use super::kept::Kept;
use super::kernel;
use super::plan::BandPlan;
use crate::bitpar::{distinct_bytes, Masks, WORD_BITS, WORD_BYTES};
use crate::holding::Holding;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoFit {
    pub rank: usize,
    /// The smallest estimate over all checkpoint intervals.
    pub needed: u64,
    /// The interval that gives it.
    pub k: usize,
    pub budget: u64,
}

impl std::fmt::Display for NoFit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let NoFit {
            rank,
            needed,
            k,
            budget,
        } = self;
        write!(
            f,
            "the bands store needs at least {needed} bytes on rank {rank} (checkpoints every \
             {k} rows), more than the {budget}-byte budget"
        )
    }
}

impl std::error::Error for NoFit {}

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

/// Number of checkpoints `Every(k)` keeps: one before each block but the first.
fn checkpoint_count(m: usize, k: usize) -> usize {
    if m == 0 {
        0
    } else {
        (m - 1) / k
    }
}

/// The rows whose state `Every(k)` keeps: `k-1, 2k-1, …`, one before each block but the first.
pub(super) fn checkpoint_rows(m: usize, k: usize) -> impl ExactSizeIterator<Item = usize> {
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
pub(super) fn seam_groups(
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

/// What the store allocates for each band of `rank` ([`BandStore::new`]; not counting the
/// sequences), part by part, the bands added up: exact (`band_holding`). Nothing for a rank
/// with no band.
///
/// [`BandStore::new`]: super::store::BandStore::new
pub fn holding(plan: &BandPlan, rank: usize, x: &[u8], mode: Checkpoint) -> Holding {
    // `x` read once for all the bands (with bands that lap, a rank may hold dozens).
    let distinct = distinct_bytes(x);
    plan.bands_of(rank)
        .map(|v| band_holding(plan, v, distinct, mode))
        .fold(Holding::new(), |all, band| all.plus(&band))
}

/// What the store allocates for band `rank` of rows with `distinct` distinct bytes, part by
/// part. The state and the masks span the band's words; the kept rows and the seams
/// only the rows' windows; the block and the scratch row at most the words between two seams.
pub(super) fn band_holding(
    plan: &BandPlan,
    rank: usize,
    distinct: usize,
    mode: Checkpoint,
) -> Holding {
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::problem::Problem;

    /// `len` bytes of `alphabet`, drawn from `seed`.
    pub(in super::super) fn seq(len: usize, alphabet: &[u8], seed: u64) -> Vec<u8> {
        let mut rng = crate::random::Random::new(seed);
        (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect()
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
        let banded = big.with_band(crate::diagonal_band::Band::new(
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
        use crate::diagonal_band::Band;
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
}
