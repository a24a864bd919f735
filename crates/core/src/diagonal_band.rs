//! Ukkonen's diagonal band with doubling (Ukkonen 1985, doi:10.1016/S0019-9958(85)80046-2; the
//! doubling as edlib does it, Šošić & Šikić 2017, doi:10.1093/bioinformatics/btw753): compute
//! only the cells near the diagonals that join the matrix's corners, widen until the answer proves
//! itself optimal. Pure arithmetic, shared by the sequential reference and the bands engine (whose
//! *column* bands, one per rank, are another thing).
//!
//! The band of margin `k` is the cells with `-k <= j - i <= (n - m) + k`. Row `i` computes the
//! window of whole words holding the band's columns of its group of four rows ([`Band::words`]);
//! cells outside the windows take the values of straight moves, never better than the truth. A
//! fill proves itself ([`Band::proves`]) when its edit distance `D'` is at most `(n - m) + 2k`, or
//! its LCS `M'` has `m - M' <= k`: every optimal path then lies in the band, the answer is exact,
//! and the banded walk is the whole matrix's walk, move for move. `--band auto`
//! ([`BandChoice::Auto`]) starts at [`AUTO_START`] and at least doubles ([`Band::next`]); it fills
//! the whole matrix once the band would hold [`WHOLE_SHARE`] of its words, or from the start when
//! [`SAMPLES`] samples of the pair say so ([`sampled_margin`]).
//!
//! Cost of a fill of margin `k`: about `m * ((n - m) + 2k + 128) / 64` word steps. The proofs and
//! the doubling rule: `docs/algorithms.md#ukkonens-diagonal-band`.

use std::ops::Range;

use crate::bitpar::WORD_BITS;
use crate::problem::Problem;

/// How a run chooses its band (`--band auto|off|K`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BandChoice {
    /// Start at [`AUTO_START`] and widen until a fill proves itself.
    #[default]
    Auto,
    /// The whole matrix, in one fill.
    Off,
    /// One fill of this margin; a run whose fill does not prove itself is refused.
    Fixed(usize),
}

impl std::fmt::Display for BandChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BandChoice::Auto => f.write_str("auto"),
            BandChoice::Off => f.write_str("off"),
            BandChoice::Fixed(k) => write!(f, "{k}"),
        }
    }
}

/// The margin of the first fill of `--band auto`: one word's worth of diagonals either side.
pub const AUTO_START: usize = 64;

/// The share of the whole matrix's words from which `auto` fills the whole matrix instead of a
/// band: a band this wide saves little, and the whole matrix needs no proof.
pub const WHOLE_SHARE: f64 = 0.5;

/// Bytes of `x` in each of the samples `auto` looks at before its first fill
/// ([`sampled_margin`]), and how many samples: four bit-parallel DPs of 1,024 x 1,024 cells.
pub const SAMPLE_ROWS: usize = 1024;
pub const SAMPLES: usize = 4;

/// How far past the current margin `auto` jumps at once to the margin its bound proves
/// before it has seen the bound settle ([`Band::next`]).
pub const JUMP_REACH: usize = 4;

/// Rows that share a window: the rows the fused kernel steps in one pass.
pub const WINDOW_ROWS: usize = crate::bitpar::FUSED_ROWS;

/// A band of an `m x n` matrix (`m <= n`): a margin, or the whole matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    m: usize,
    n: usize,
    /// `None`: the whole matrix.
    margin: Option<usize>,
}

impl Band {
    /// The band of margin `margin` (`None`: the whole matrix) of an `m x n` matrix. A margin
    /// that covers every cell is the whole matrix.
    pub fn new(m: usize, n: usize, margin: Option<usize>) -> Band {
        debug_assert!(m <= n, "rows must be the shorter sequence");
        let margin = margin.filter(|&k| k < m.saturating_sub(1));
        Band { m, n, margin }
    }

    /// The whole `m x n` matrix.
    pub fn whole(m: usize, n: usize) -> Band {
        Band::new(m, n, None)
    }

    /// The margin, `None` for the whole matrix.
    pub fn margin(&self) -> Option<usize> {
        self.margin
    }

    pub fn is_whole(&self) -> bool {
        self.margin.is_none()
    }

    /// Words of a whole row.
    fn row_words(&self) -> usize {
        self.n.div_ceil(WORD_BITS)
    }

    /// The band's own columns on row `i < m`: `j` with `-k <= j - i <= (n - m) + k`.
    pub fn cols(&self, i: usize) -> Range<usize> {
        debug_assert!(i < self.m, "row {i} of {}", self.m);
        match self.margin {
            None => 0..self.n,
            Some(k) => {
                let hi = i.saturating_add(self.n - self.m).saturating_add(k);
                i.saturating_sub(k)..hi.min(self.n - 1) + 1
            }
        }
    }

    /// The words row `i < m` computes: those holding the band's columns of every row of its
    /// group of [`WINDOW_ROWS`]. Both ends are non-decreasing in `i`.
    pub fn words(&self, i: usize) -> Range<usize> {
        debug_assert!(i < self.m, "row {i} of {}", self.m);
        if self.margin.is_none() {
            return 0..self.row_words();
        }
        let first = i - i % WINDOW_ROWS;
        let last = (first + WINDOW_ROWS - 1).min(self.m - 1);
        self.cols(first).start / WORD_BITS..(self.cols(last).end - 1) / WORD_BITS + 1
    }

    /// Word steps of a fill: the windows' words over all rows. O(log n): the windows' ends
    /// summed in closed form, as floors of lines over the groups of rows.
    pub fn total_words(&self) -> u64 {
        match self.margin {
            None => self.m as u64 * self.row_words() as u64,
            Some(k) => self.sums(k).words,
        }
    }

    /// Cells a fill computes: its windows' columns within the matrix, every row's (whole
    /// words, so a little more than the band's own cells; `m * n` for the whole matrix).
    /// O(log n), as [`Band::total_words`].
    pub fn cells(&self) -> u64 {
        match self.margin {
            None => self.m as u64 * self.n as u64,
            Some(k) => {
                let sums = self.sums(k);
                let past = (self.row_words() * WORD_BITS - self.n) as u64;
                WORD_BITS as u64 * sums.words - past * sums.rows_at_last_word
            }
        }
    }

    /// The windows of margin `k` summed over the rows. Rows go in groups of [`WINDOW_ROWS`]
    /// (`G` whole ones, then `r` rows), and group `g` computes words `[s(g), e(g))` with
    /// `s(g) = max(0, 4g - k) / 64` and `e(g) = min(n - 1, 4g + 3 + (n - m) + k) / 64 + 1`
    /// (the last, partial group reaches the last word): both are floors of linear functions
    /// of `g` over the stretch where no clamp applies, which [`floor_sum`] adds up at once.
    fn sums(&self, k: usize) -> Sums {
        let (m, n) = (self.m as u64, self.n as u64);
        let (g, w, b) = (
            WINDOW_ROWS as u64,
            WORD_BITS as u64,
            self.row_words() as u64,
        );
        let (groups, r) = (m / g, m % g);
        let k = k as u64;
        // Starts: 0 until 4g >= k, then floor((4g - k) / 64).
        let first = k.div_ceil(g).min(groups);
        let starts = floor_sum(groups - first, w, g, (g * first).saturating_sub(k));
        // Ends: floor((4g + c) / 64) + 1 while 4g + c <= n - 1, then the last word.
        let c = (g - 1) + (n - m) + k;
        let free = match (n - 1).checked_sub(c) {
            Some(room) => (room / g + 1).min(groups),
            None => 0,
        };
        let ends = floor_sum(free, w, g, c) + free + (groups - free) * b;
        let start_of_last = (g * groups).saturating_sub(k) / w;
        // Groups reaching the last word: 4g + c >= 64 (b - 1).
        let at_last = ((w * (b - 1)).saturating_sub(c).div_ceil(g)).min(groups);
        Sums {
            words: g * (ends - starts) + r * (b - start_of_last),
            rows_at_last_word: g * (groups - at_last) + r,
        }
    }

    /// The first row `>= 0` for which `pred` holds, `m` if none, for a `pred` that is false
    /// then true along the rows (as `words(i).end > s` and `words(i).start >= s` are).
    pub fn first_row(&self, pred: impl Fn(Range<usize>) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.m);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(self.words(mid)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// Whether a fill of this band whose answer is `value` (`M'(m-1, n-1)` for the LCS,
    /// `D'(m-1, n-1)` for the edit distance) has the exact answer (see the module doc).
    pub fn proves(&self, problem: Problem, value: usize) -> bool {
        match self.margin {
            None => true,
            Some(k) => self.needed(problem, value) <= k,
        }
    }

    /// The smallest margin a fill's `value` would prove: `m - M'` for the LCS,
    /// `ceil((D' - (n - m)) / 2)` for the edit distance.
    pub fn needed(&self, problem: Problem, value: usize) -> usize {
        match problem {
            Problem::Lcs => self.m.saturating_sub(value),
            Problem::Edit => value.saturating_sub(self.n - self.m).div_ceil(2),
        }
    }

    /// The band `auto` fills after this one, whose answer `value` did not prove itself;
    /// `previous` is what the fill before this one would have proved ([`Band::needed`]), if
    /// there was one. The whole matrix once the band `value` proves would hold
    /// [`WHOLE_SHARE`] of its words. Otherwise the margin at least doubles, and jumps at once to
    /// what `value` proves when that is near (within [`JUMP_REACH`] times this margin) or when
    /// the bound has settled (it shrank by less than a fifth since the fill before): a band
    /// that cuts the optimal path off gives a loose bound, which a doubled band tightens for
    /// less than the loose bound's band would cost.
    pub fn next(&self, problem: Problem, value: usize, previous: Option<usize>) -> Band {
        let Some(k) = self.margin else {
            return *self;
        };
        let needed = self.needed(problem, value);
        let jump = Band::new(self.m, self.n, Some(needed.max(k.saturating_mul(2)).max(1)));
        let whole = Band::whole(self.m, self.n).total_words() as f64;
        if jump.total_words() as f64 >= WHOLE_SHARE * whole {
            return Band::whole(self.m, self.n);
        }
        let settled = previous.is_some_and(|p| needed.saturating_mul(5) >= p.saturating_mul(4));
        if needed <= k.saturating_mul(JUMP_REACH) || settled {
            jump
        } else {
            Band::new(self.m, self.n, Some(k.saturating_mul(2).max(1)))
        }
    }

    /// The first band a run with `choice` fills on `x` (rows) and `y`: for `auto`, the whole
    /// matrix when the pair's samples ask for a band of [`WHOLE_SHARE`] of its words or more.
    pub fn first_for(problem: Problem, x: &[u8], y: &[u8], choice: BandChoice) -> Band {
        let (m, n) = (x.len(), y.len());
        let band = Band::first(m, n, choice);
        if choice != BandChoice::Auto || band.is_whole() {
            return band;
        }
        let whole = Band::whole(m, n).total_words() as f64;
        match sampled_margin(problem, x, y) {
            Some(k) if Band::new(m, n, Some(k)).total_words() as f64 >= WHOLE_SHARE * whole => {
                Band::whole(m, n)
            }
            _ => band,
        }
    }

    /// The band a run with `choice` on `x` (rows) and `y` expects its last fill to be, to
    /// estimate its memory before any fill: for `auto`, its first band widened to the margin
    /// its samples ask for ([`sampled_margin`]; the whole matrix once that holds
    /// [`WHOLE_SHARE`] of its words); otherwise the one band it fills. A search that widens
    /// past it learns so only as it goes (the samples are an estimate).
    pub fn expected(problem: Problem, x: &[u8], y: &[u8], choice: BandChoice) -> Band {
        let first = Band::first_for(problem, x, y, choice);
        let (m, n) = (x.len(), y.len());
        match (choice, first.margin(), sampled_margin(problem, x, y)) {
            (BandChoice::Auto, Some(k), Some(sampled)) if sampled > k => {
                let band = Band::new(m, n, Some(sampled));
                let whole = Band::whole(m, n);
                match band.total_words() as f64 >= WHOLE_SHARE * whole.total_words() as f64 {
                    true => whole,
                    false => band,
                }
            }
            _ => first,
        }
    }

    /// The first band a run with `choice` fills on an `m x n` matrix, before any sample.
    pub fn first(m: usize, n: usize, choice: BandChoice) -> Band {
        let band = match choice {
            BandChoice::Off => Band::whole(m, n),
            BandChoice::Fixed(k) => Band::new(m, n, Some(k)),
            BandChoice::Auto => Band::new(m, n, Some(AUTO_START)),
        };
        let whole = Band::whole(m, n);
        match choice {
            BandChoice::Auto
                if band.total_words() as f64 >= WHOLE_SHARE * whole.total_words() as f64 =>
            {
                whole
            }
            _ => band,
        }
    }
}

/// The margin the whole `x` x `y` matrix would need by the mean of [`SAMPLES`] samples: each
/// the [`Band::needed`] margin of [`SAMPLE_ROWS`] bytes of `x` against as many of `y` at the
/// same place along the strip (evenly spaced, the last at the end), times `m / SAMPLE_ROWS`.
/// `None` for matrices with fewer than `SAMPLES * SAMPLE_ROWS` rows, whose fills are cheap.
pub fn sampled_margin(problem: Problem, x: &[u8], y: &[u8]) -> Option<usize> {
    let (m, n, rows) = (x.len(), y.len(), SAMPLE_ROWS);
    if m < SAMPLES * rows {
        return None;
    }
    let needed: usize = (0..SAMPLES)
        .map(|s| {
            let a = s * (m - rows) / (SAMPLES - 1);
            // The same fraction of the way along y's free columns as a is along x's rows.
            let b = (a as u128 * (n - rows) as u128 / (m - rows) as u128) as usize;
            let (xs, ys) = (&x[a..a + rows], &y[b..b + rows]);
            let sample = Band::whole(rows, rows);
            let value = match problem {
                Problem::Lcs => crate::bitpar::lcs_length(xs, ys),
                Problem::Edit => crate::bitpar::edit::distance(xs, ys),
            };
            sample.needed(problem, value)
        })
        .sum();
    Some((needed as u128 * m as u128).div_ceil((SAMPLES * rows) as u128) as usize)
}

/// The bands a run filled, in order, and how it ended: what reports record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BandSearch {
    /// The margin of every fill, `None` for the whole matrix; the last is the answer's.
    pub fills: Vec<Option<usize>>,
    /// Whether the last fill proved itself (always, but for a fixed band that did not).
    pub proven: bool,
    /// How many of the first fills ran each on one rank alone, side by side (an MPI run's
    /// business: [`search`] leaves it 0).
    pub alone: usize,
}

impl BandSearch {
    /// The margin of the last fill (`None`: the whole matrix, or no fill).
    pub fn last(&self) -> Option<usize> {
        self.fills.last().copied().flatten()
    }

    /// Fills after the first: how many times the band widened.
    pub fn doublings(&self) -> usize {
        self.fills.len().saturating_sub(1)
    }
}

/// The search `choice` makes on the matrix of `x` (rows) and `y`, with `fill(band)` running
/// one fill and giving its answer (`M'` or `D'`): fills until one proves itself, or, for a
/// fixed band, once. Returns the search and the last fill's result; a fill that refuses (an
/// `Err`: its band does not fit, say) ends the search with the fills made before it.
pub fn search<T, E>(
    problem: Problem,
    (x, y): (&[u8], &[u8]),
    choice: BandChoice,
    fill: impl FnMut(Band) -> Result<(usize, T), E>,
) -> Result<(BandSearch, T), (BandSearch, E)> {
    let first = Band::first_for(problem, x, y, choice);
    search_from(problem, first, choice, fill)
}

/// [`search`] from its first band `first`, [`Band::first_for`] worked out already.
pub fn search_from<T, E>(
    problem: Problem,
    first: Band,
    choice: BandChoice,
    mut fill: impl FnMut(Band) -> Result<(usize, T), E>,
) -> Result<(BandSearch, T), (BandSearch, E)> {
    let mut band = first;
    let mut fills = Vec::new();
    let mut previous = None;
    loop {
        let (value, result) = match fill(band) {
            Ok(filled) => filled,
            Err(e) => {
                let proven = false;
                return Err((
                    BandSearch {
                        fills,
                        proven,
                        alone: 0,
                    },
                    e,
                ));
            }
        };
        fills.push(band.margin());
        let proven = band.proves(problem, value);
        if proven || choice != BandChoice::Auto {
            return Ok((
                BandSearch {
                    fills,
                    proven,
                    alone: 0,
                },
                result,
            ));
        }
        let next = band.next(problem, value, previous);
        previous = Some(band.needed(problem, value));
        band = next;
    }
}

/// A band's windows summed over its rows ([`Band::sums`]).
struct Sums {
    /// Word steps: the windows' words over all rows.
    words: u64,
    /// Rows whose window reaches the row's last word.
    rows_at_last_word: u64,
}

/// `sum over i < count of floor((a i + b) / m)`, in O(log m) steps: the floors of a line
/// counted as lattice points under it, the line's slope reduced and the roles of `a` and `m`
/// swapped until nothing is left, as Euclid's algorithm does.
fn floor_sum(count: u64, m: u64, a: u64, b: u64) -> u64 {
    let (mut count, mut m, mut a, mut b) = (count as u128, m as u128, a as u128, b as u128);
    let mut sum = 0u128;
    while count > 0 {
        if a >= m {
            sum += count * (count - 1) / 2 * (a / m);
            a %= m;
        }
        if b >= m {
            sum += count * (b / m);
            b %= m;
        }
        let top = a * count + b;
        if top < m {
            break;
        }
        (count, b) = (top / m, top % m);
        (m, a) = (a, m);
    }
    sum as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sums_in_closed_form_are_the_rows_added_up() {
        for (count, m, a, b) in [
            (0, 5, 3, 7),
            (1, 64, 4, 0),
            (10, 64, 4, 61),
            (1000, 7, 13, 5),
        ] {
            let plain: u64 = (0..count).map(|i| (a * i + b) / m).sum();
            assert_eq!(floor_sum(count, m, a, b), plain, "{count} {m} {a} {b}");
        }
        let mut rng = crate::random::Random::new(17);
        for _ in 0..3000 {
            let m = 1 + rng.below(700);
            let n = m + rng.below(700);
            let k = rng.below(m + 2);
            let band = Band::new(m, n, Some(k));
            let words: u64 = (0..m).map(|i| band.words(i).len() as u64).sum();
            let cells: u64 = (0..m)
                .map(|i| {
                    let w = band.words(i);
                    ((w.end * WORD_BITS).min(n) - w.start * WORD_BITS) as u64
                })
                .sum();
            assert_eq!(band.total_words(), words, "{m} x {n}, margin {k}");
            assert_eq!(band.cells(), cells, "{m} x {n}, margin {k}");
        }
    }

    #[test]
    fn samples_send_unrelated_pairs_whole_and_keep_near_ones_banded() {
        let mut rng = crate::random::Random::new(11);
        let x = rng.bytes(20_000, b"ACGT");
        let unrelated = rng.bytes(20_000, b"ACGT");
        // One byte in 500 changed.
        let mut near = x.clone();
        for i in (0..near.len()).step_by(500) {
            near[i] = if near[i] == b'A' { b'C' } else { b'A' };
        }
        for problem in [Problem::Lcs, Problem::Edit] {
            let far = sampled_margin(problem, &x, &unrelated).unwrap();
            let close = sampled_margin(problem, &x, &near).unwrap();
            // About 35% (LCS) and 26% (edit) of the rows for unrelated DNA; one edit in 500.
            assert!(far > 20_000 / 5, "{problem}: {far}");
            assert!(close <= 20_000 / 250, "{problem}: {close}");
            let first = Band::first_for(problem, &x, &near, BandChoice::Auto);
            assert_eq!(first.margin(), Some(AUTO_START));
            assert_eq!(
                Band::first_for(problem, &x, &unrelated, BandChoice::Off),
                Band::whole(20_000, 20_000)
            );
        }
        assert!(Band::first_for(Problem::Lcs, &x, &unrelated, BandChoice::Auto).is_whole());
        // The edit distance of unrelated sequences is still tried in a band.
        let first = Band::first_for(Problem::Edit, &x, &unrelated, BandChoice::Auto);
        assert_eq!(first.margin(), Some(AUTO_START));
        // Too short to sample.
        assert_eq!(sampled_margin(Problem::Lcs, &x[..4095], &unrelated), None);
        // What a search expects to end with: the sampled margin, or its first band.
        for problem in [Problem::Lcs, Problem::Edit] {
            let expected = Band::expected(problem, &x, &near, BandChoice::Auto);
            let sampled = sampled_margin(problem, &x, &near).unwrap();
            assert_eq!(
                expected.margin(),
                Some(sampled.max(AUTO_START)),
                "{problem}"
            );
            let fixed = Band::expected(problem, &x, &near, BandChoice::Fixed(7));
            assert_eq!(fixed.margin(), Some(7));
        }
        assert!(Band::expected(Problem::Lcs, &x, &unrelated, BandChoice::Auto).is_whole());
        // An edit distance of unrelated sequences asks for about 45% of the words.
        let far = sampled_margin(Problem::Edit, &x, &unrelated);
        let expected = Band::expected(Problem::Edit, &x, &unrelated, BandChoice::Auto);
        assert_eq!(expected.margin(), far);
    }

    #[test]
    fn windows_hold_the_band_and_only_move_right() {
        for (m, n) in [
            (1, 1),
            (1, 300),
            (5, 5),
            (64, 64),
            (100, 130),
            (300, 300),
            (257, 1000),
        ] {
            for k in [0, 1, 3, 63, 64, 65, 200, 10_000] {
                let band = Band::new(m, n, Some(k));
                let mut last = 0..0;
                for i in 0..m {
                    let cols = band.cols(i);
                    let words = band.words(i);
                    assert!(words.start * 64 <= cols.start && cols.end <= words.end * 64);
                    assert!(words.end * 64 < n + 64, "no word past the row");
                    // Every column of the band, with every cell's diagonal inside it.
                    for j in 0..n {
                        let d = j as i64 - i as i64;
                        let inside = -(k as i64) <= d && d <= (n - m) as i64 + k as i64;
                        assert_eq!(cols.contains(&j), inside || band.is_whole(), "({i}, {j})");
                    }
                    if i > 0 {
                        assert!(last.start <= words.start && last.end <= words.end);
                    }
                    if i % WINDOW_ROWS != 0 {
                        assert_eq!(words, last, "a group of rows shares its window");
                    }
                    last = words;
                }
                // The corners' cells are always in the band.
                assert!(band.cols(0).contains(&0) && band.cols(m - 1).contains(&(n - 1)));
            }
        }
    }

    #[test]
    fn a_margin_that_covers_everything_is_the_whole_matrix() {
        assert!(Band::new(10, 20, Some(9)).is_whole());
        assert!(!Band::new(10, 20, Some(8)).is_whole());
        assert!(Band::new(1, 20, Some(0)).is_whole());
        assert!(Band::new(0, 0, Some(0)).is_whole());
        let band = Band::new(10, 20, Some(8));
        assert_eq!(band.cols(9), 1..20);
        assert_eq!(band.cols(0), 0..19);
        assert_eq!(Band::whole(200, 300).total_words(), 200 * 5);
        assert_eq!(Band::whole(200, 300).cells(), 200 * 300);
        // Two words a row but the last few (columns 64 to 127 hold the band's), clipped at 100.
        let narrow = Band::new(100, 100, Some(2));
        let brute: u64 = (0..100)
            .map(|i| {
                let w = narrow.words(i);
                (w.start * 64..w.end * 64).filter(|&j| j < 100).count() as u64
            })
            .sum();
        assert_eq!(narrow.cells(), brute);
        assert!(narrow.cells() < 100 * 100);
    }

    #[test]
    fn proofs_follow_the_bound_on_a_path_s_drift() {
        let band = Band::new(100, 110, Some(5));
        // LCS: m - M' <= k.
        assert!(band.proves(Problem::Lcs, 95));
        assert!(!band.proves(Problem::Lcs, 94));
        assert_eq!(band.needed(Problem::Lcs, 94), 6);
        // Edit: D' <= (n - m) + 2k = 20.
        assert!(band.proves(Problem::Edit, 20));
        assert!(!band.proves(Problem::Edit, 21));
        assert_eq!(band.needed(Problem::Edit, 21), 6);
        assert!(Band::whole(100, 110).proves(Problem::Edit, 1000));
    }

    #[test]
    fn auto_at_least_doubles_and_jumps_to_what_the_bound_proves() {
        let (m, n) = (100_000, 100_000);
        let band = Band::new(m, n, Some(64));
        assert_eq!(band.next(Problem::Lcs, m - 65, None).margin(), Some(128));
        assert_eq!(band.next(Problem::Lcs, m - 200, None).margin(), Some(200));
        // Far: double, unless the bound has settled.
        assert_eq!(band.next(Problem::Lcs, m - 1000, None).margin(), Some(128));
        assert_eq!(
            band.next(Problem::Lcs, m - 1000, Some(1200)).margin(),
            Some(1000)
        );
        assert_eq!(
            band.next(Problem::Lcs, m - 1000, Some(1300)).margin(),
            Some(128)
        );
        assert_eq!(
            band.next(Problem::Edit, 3001, Some(1501)).margin(),
            Some(1501)
        );
        // A bound as far as unrelated sequences give: the whole matrix.
        assert!(band.next(Problem::Lcs, m / 2, None).is_whole());
        assert!(band.next(Problem::Edit, m * 7 / 10, None).is_whole());
        // A distance of half the rows proves a band of a quarter: 44% of the cells.
        let settled = Some(m / 4);
        assert_eq!(
            band.next(Problem::Edit, m / 2, settled).margin(),
            Some(m / 4)
        );
        // Short matrices start whole.
        assert!(Band::first(100, 100, BandChoice::Auto).is_whole());
        assert_eq!(
            Band::first(m, n, BandChoice::Auto).margin(),
            Some(AUTO_START)
        );
        assert!(Band::first(m, n, BandChoice::Off).is_whole());
        assert_eq!(Band::first(m, n, BandChoice::Fixed(7)).margin(), Some(7));
    }

    #[test]
    fn the_search_stops_at_the_first_proof() {
        let m = 100_000;
        // Identical sequences, whose samples keep the search's start.
        let seq = vec![b'a'; m];
        // A fake problem whose value proves itself from margin 1000: the LCS is m - 1000 once
        // the band holds it, less before.
        let mut seen = Vec::new();
        let searched = search(Problem::Lcs, (&seq, &seq), BandChoice::Auto, |band| {
            let k = band.margin().unwrap_or(m);
            seen.push(k);
            let value = if k >= 1000 {
                m - 1000
            } else {
                m - 1000 - (1000 - k)
            };
            Ok::<_, ()>((value, k))
        });
        let (search, last) = searched.unwrap();
        // A bound of 1936 is far from 64: double to 128, whose bound (1872) has settled: jump.
        assert_eq!(search.fills, [Some(64), Some(128), Some(1872)]);
        assert!(search.proven);
        assert_eq!(search.doublings(), 2);
        assert_eq!(last, 1872);
        assert_eq!(seen, [64, 128, 1872]);
        // A fixed band is filled once, proven or not.
        let fixed = super::search(Problem::Lcs, (&seq, &seq), BandChoice::Fixed(10), |_| {
            Ok::<_, ()>((0, ()))
        });
        let (fixed, ()) = fixed.unwrap();
        assert_eq!((fixed.fills, fixed.proven), (vec![Some(10)], false));
        // A fill that refuses ends the search with the fills before it.
        let refused = super::search(
            Problem::Lcs,
            (&seq, &seq),
            BandChoice::Auto,
            |band| match band.margin() {
                Some(64) => Ok((m - 100, ())),
                other => Err(other),
            },
        );
        let (before, refusal) = refused.unwrap_err();
        assert_eq!((before.fills, before.proven), (vec![Some(64)], false));
        assert_eq!(refusal, Some(128));
    }
}
