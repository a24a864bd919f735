//! The sequential reference: the oracle every distributed run is checked against, for both
//! problems. It walks by the rule of [`crate::problem`], as every engine does, so all of them give
//! the identical path (the same LCS string, the same alignment), not just one of the same length
//! or cost.
//!
//! [`align`] fills with the bit-parallel step of [`crate::bitpar`] over one run of words spanning
//! every column and keeps, per cell, the bits the walk asks at a mismatch: "up?" for the LCS,
//! "substitute?" and "up?" for the edit distance, each plane row-major with every row starting on
//! a fresh word ([`traceback_bytes`]). [`align_scalar`] fills the same bits by the plain
//! cell-by-cell recurrence over two rows of `u32` values, an independent check; [`align_banded`]
//! fills only a diagonal band ([`crate::diagonal_band`]).
//!
//! Cost: [`align`] `O(m * n / 64)` word operations, [`align_scalar`] `O(m * n)` cell updates; the
//! traceback `O(m + n)`. Memory: the bit planes (`m * ceil(n / 64) * 8` bytes each) plus a row or
//! two of state and, for [`align`], `ceil(n / 64)` words of masks per distinct byte of `x`.
//!
//! ```
//! use lcs_core::reference;
//!
//! let lcs = reference::lcs(b"AGGTAB", b"GXTXAYB");
//! assert_eq!(lcs.length, 4);
//! assert_eq!(lcs.lcs, b"GTAB");
//! assert_eq!(lcs, reference::lcs_scalar(b"AGGTAB", b"GXTXAYB"));
//! ```

use crate::bitpar::{self, Edit, Masks, Row, WORD_BITS};
use crate::diagonal_band::{Band, BandChoice, BandSearch};
use crate::problem::{Move, Path, Problem};

/// The result of an LCS computation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lcs {
    /// Length of the longest common subsequence; always `lcs.len()`.
    pub length: usize,
    /// The subsequence chosen by the traceback described in the module documentation.
    pub lcs: Vec<u8>,
}

impl Lcs {
    /// The LCS an LCS run's `path` over rows `x` spells.
    pub fn of_path(path: &Path, x: &[u8]) -> Lcs {
        let lcs = path.matched(x);
        Lcs {
            length: lcs.len(),
            lcs,
        }
    }
}

/// Number of `u64` words one row of traceback bits occupies.
fn words_per_row(n: usize) -> usize {
    n.div_ceil(WORD_BITS)
}

/// Bytes one plane of traceback bits needs for `m` rows and `n` columns. Computed in `u64` so
/// it cannot overflow on targets where `usize` is 32 bits.
pub fn traceback_bytes(m: usize, n: usize) -> u64 {
    (m as u64) * (words_per_row(n) as u64) * (u64::BITS as u64 / 8)
}

/// Bytes [`align`] allocates for `problem` on `x` and `y`: the bit planes, the match masks of
/// the bytes of `x`, and the row state (`V`, or `Pv` and `Mv`).
pub fn memory_bytes(problem: Problem, x: &[u8], y: &[u8]) -> u64 {
    let distinct = bitpar::distinct_bytes(x) as u64;
    let row = words_per_row(y.len()) as u64 * 8;
    let planes = problem.planes() as u64;
    planes * traceback_bytes(x.len(), y.len()) + (distinct + planes) * row
}

/// The walk's bits per cell, one plane per bit, row-major, every row starting at a word
/// boundary.
struct TraceBits {
    planes: [Vec<u64>; 2],
    /// Words per row.
    w: usize,
    m: usize,
    n: usize,
}

impl TraceBits {
    fn new(problem: Problem, m: usize, n: usize) -> Self {
        let w = words_per_row(n);
        let len = m
            .checked_mul(w)
            .expect("traceback bit matrix does not fit in the address space");
        // All zeros, so the allocator can hand out untouched pages.
        let plane = |p: usize| {
            if p < problem.planes() {
                vec![0; len]
            } else {
                Vec::new()
            }
        };
        TraceBits {
            planes: [plane(0), plane(1)],
            w,
            m,
            n,
        }
    }

    /// Index of the word holding the bits of cell `(i, j)`.
    #[inline]
    fn idx(&self, i: usize, j: usize) -> usize {
        debug_assert!(i < self.m, "row {i} out of range (m = {})", self.m);
        debug_assert!(j < self.n, "column {j} out of range (n = {})", self.n);
        i * self.w + j / WORD_BITS
    }

    /// The bits of mismatch cell `(i, j)`. Meaningless for match cells.
    #[inline]
    fn bits(&self, i: usize, j: usize) -> [bool; 2] {
        let at = self.idx(i, j);
        let bit = |p: &Vec<u64>| p.get(at).is_some_and(|w| (w >> (j % WORD_BITS)) & 1 == 1);
        [bit(&self.planes[0]), bit(&self.planes[1])]
    }

    /// Row `i` of both planes (the second empty for one plane).
    fn rows_mut(&mut self, i: usize) -> (&mut [u64], &mut [u64]) {
        debug_assert!(i < self.m, "row {i} out of range (m = {})", self.m);
        let range = i * self.w..(i + 1) * self.w;
        let [a, b] = &mut self.planes;
        let b = b.get_mut(range.clone()).unwrap_or_default();
        (&mut a[range], b)
    }
}

/// The path of `problem` on `x` and `y`, with `x` the shorter (`x.len() <= y.len()`; panics
/// otherwise), by the bit-parallel fill; identical to [`align_scalar`]'s.
pub fn align(problem: Problem, x: &[u8], y: &[u8]) -> Path {
    align_timed(problem, x, y).0
}

/// [`align`], with the seconds its fill and its traceback took.
pub fn align_timed(problem: Problem, x: &[u8], y: &[u8]) -> (Path, f64, f64) {
    check_lengths(x, y);
    let started = std::time::Instant::now();
    let bits = fill_bit_parallel(problem, x, y);
    let fill = started.elapsed().as_secs_f64();
    let started = std::time::Instant::now();
    let path = traceback(problem, x, y, |i, j| bits.bits(i, j));
    (path, fill, started.elapsed().as_secs_f64())
}

/// The path of `problem` by the cell-by-cell recurrence; same contract and same result as
/// [`align`], one cell per step instead of 64. Kept as an independent check on [`align`].
pub fn align_scalar(problem: Problem, x: &[u8], y: &[u8]) -> Path {
    check_lengths(x, y);
    let bits = fill_scalar(problem, x, y);
    traceback(problem, x, y, |i, j| bits.bits(i, j))
}

/// LCS of `x` and `y`, with `x` the shorter (`x.len() <= y.len()`; panics otherwise).
pub fn lcs(x: &[u8], y: &[u8]) -> Lcs {
    Lcs::of_path(&align(Problem::Lcs, x, y), x)
}

/// [`lcs`] by the cell-by-cell recurrence.
pub fn lcs_scalar(x: &[u8], y: &[u8]) -> Lcs {
    Lcs::of_path(&align_scalar(Problem::Lcs, x, y), x)
}

fn check_lengths(x: &[u8], y: &[u8]) {
    assert!(
        x.len() <= y.len(),
        "the reference needs the shorter sequence as rows: x.len() = {} > y.len() = {}",
        x.len(),
        y.len()
    );
}

/// Fills the walk's bits with the bit-parallel step over one run of words spanning every
/// column (the carry into column 0: 0 for the LCS, +1 for the edit distance).
fn fill_bit_parallel(problem: Problem, x: &[u8], y: &[u8]) -> TraceBits {
    let (m, n) = (x.len(), y.len());
    let mut bits = TraceBits::new(problem, m, n);
    let masks = Masks::new(x, y);
    let w = bits.w;
    let tail_mask = match n % WORD_BITS {
        0 => u64::MAX,
        r => (1 << r) - 1,
    };
    match problem {
        Problem::Lcs => {
            let mut v = vec![u64::MAX; w];
            for (i, &xi) in x.iter().enumerate() {
                let (row, _) = bits.rows_mut(i);
                bitpar::Lcs::step_traced([&mut v], masks.of(xi), bitpar::Lcs::EDGE, [row]);
            }
        }
        Problem::Edit => {
            let (mut pv, mut mv) = (vec![u64::MAX; w], vec![0u64; w]);
            for (i, &xi) in x.iter().enumerate() {
                let (sub, up) = bits.rows_mut(i);
                let eq = masks.of(xi);
                Edit::step_traced([&mut pv, &mut mv], eq, Edit::EDGE, [sub, up]);
            }
        }
    }
    // Keep the padding bits zero so the matrix is deterministic.
    for plane in bits.planes.iter_mut().filter(|p| !p.is_empty()) {
        for row in plane.chunks_exact_mut(w) {
            row[w - 1] &= tail_mask;
        }
    }
    bits
}

/// The walk's bits of a diagonal band's fill ([`crate::diagonal_band`]): row `i` holds only
/// its window's words, rows laid one after the other.
struct BandBits {
    band: Band,
    planes: [Vec<u64>; 2],
    /// Row `i` starts at word `offsets[i]` of each plane.
    offsets: Vec<usize>,
}

impl BandBits {
    /// The bits of mismatch cell `(i, j)`, which must lie in row `i`'s window.
    fn bits(&self, i: usize, j: usize) -> [bool; 2] {
        let window = self.band.words(i);
        let w = j / WORD_BITS;
        assert!(
            window.contains(&w),
            "({i}, {j}) lies outside row {i}'s window: the band did not prove itself"
        );
        let at = self.offsets[i] + w - window.start;
        let bit = |p: &Vec<u64>| p.get(at).is_some_and(|w| (w >> (j % WORD_BITS)) & 1 == 1);
        [bit(&self.planes[0]), bit(&self.planes[1])]
    }
}

/// Bytes the banded fill allocates for `band` (its windows' bits, their offsets, the masks and
/// the row state).
pub fn band_memory_bytes(problem: Problem, x: &[u8], y: &[u8], band: Band) -> u64 {
    if band.is_whole() {
        return memory_bytes(problem, x, y);
    }
    let distinct = bitpar::distinct_bytes(x) as u64;
    let row = words_per_row(y.len()) as u64 * 8;
    let planes = problem.planes() as u64;
    planes * band.total_words() * 8 + (x.len() as u64 + 1) * 8 + (distinct + planes) * row
}

/// Fills `band`'s windows row by row over one run of words per row, the carry into each
/// window's first word the matrix's left-edge carry, words outside the windows left as the
/// last row that computed them (see [`crate::diagonal_band`]). Returns the bits and the fill's
/// answer, `M'(m-1, n-1)` or `D'(m-1, n-1)`.
fn fill_band(problem: Problem, x: &[u8], y: &[u8], band: Band) -> (BandBits, usize) {
    let (m, n) = (x.len(), y.len());
    let w = words_per_row(n);
    let mut offsets = Vec::with_capacity(m + 1);
    let mut total = 0;
    for i in 0..m {
        offsets.push(total);
        total += band.words(i).len();
    }
    offsets.push(total);
    let plane = |p: usize| {
        if p < problem.planes() {
            vec![0u64; total]
        } else {
            Vec::new()
        }
    };
    let mut planes = [plane(0), plane(1)];
    let masks = Masks::new(x, y);
    let (mut a, mut b) = (vec![u64::MAX; w], vec![0u64; w]);
    for (i, &xi) in x.iter().enumerate() {
        let window = band.words(i);
        let eq = &masks.of(xi)[window.clone()];
        let out = offsets[i]..offsets[i + 1];
        let [p0, p1] = &mut planes;
        match problem {
            Problem::Lcs => {
                bitpar::Lcs::step_traced([&mut a[window]], eq, bitpar::Lcs::EDGE, [&mut p0[out]]);
            }
            Problem::Edit => {
                let (pv, mv) = (&mut a[window.clone()], &mut b[window]);
                let (sub, up) = (&mut p0[out.clone()], &mut p1[out]);
                Edit::step_traced([pv, mv], eq, Edit::EDGE, [sub, up]);
            }
        }
    }
    let value = match problem {
        // Padding bits stay 1: the zeros are the real columns' +1 steps.
        Problem::Lcs => a.iter().map(|v| v.count_zeros() as usize).sum(),
        Problem::Edit => {
            let sum = m as i64 + bitpar::edit::delta_sum(&a, &b, n);
            usize::try_from(sum).expect("an edit distance is never negative")
        }
    };
    let bits = BandBits {
        band,
        planes,
        offsets,
    };
    (bits, value)
}

/// The path of `problem` on `x` and `y` (`x.len() <= y.len()`) with the diagonal band
/// `choice` asks ([`crate::diagonal_band`]): `off` is [`align`]; `auto` widens the band until a
/// fill proves itself, so its path is [`align`]'s move for move; a fixed band's fill that does
/// not prove itself gives no path (`None`) and an unproven search. `check` sees each fill's
/// bytes ([`band_memory_bytes`]) before it allocates them, and may refuse. Also returns the
/// seconds of the fills and of the traceback.
pub fn align_banded<E>(
    problem: Problem,
    x: &[u8],
    y: &[u8],
    choice: BandChoice,
    check: impl Fn(u64) -> Result<(), E>,
) -> Result<(Option<Path>, BandSearch, f64, f64), E> {
    check_lengths(x, y);
    let mut band = Band::first_for(problem, x, y, choice);
    let mut search = BandSearch::default();
    let mut previous = None;
    let started = std::time::Instant::now();
    loop {
        check(band_memory_bytes(problem, x, y, band))?;
        search.fills.push(band.margin());
        if band.is_whole() {
            let bits = fill_bit_parallel(problem, x, y);
            let fill = started.elapsed().as_secs_f64();
            let started = std::time::Instant::now();
            let path = traceback(problem, x, y, |i, j| bits.bits(i, j));
            search.proven = true;
            return Ok((Some(path), search, fill, started.elapsed().as_secs_f64()));
        }
        let (bits, value) = fill_band(problem, x, y, band);
        if band.proves(problem, value) {
            let fill = started.elapsed().as_secs_f64();
            let started = std::time::Instant::now();
            let path = traceback(problem, x, y, |i, j| bits.bits(i, j));
            search.proven = true;
            return Ok((Some(path), search, fill, started.elapsed().as_secs_f64()));
        }
        if choice != BandChoice::Auto {
            return Ok((None, search, started.elapsed().as_secs_f64(), 0.0));
        }
        drop(bits);
        let next = band.next(problem, value, previous);
        previous = Some(band.needed(problem, value));
        band = next;
    }
}

/// Fills the walk's bits cell by cell, keeping only the previous and current rows of values.
fn fill_scalar(problem: Problem, x: &[u8], y: &[u8]) -> TraceBits {
    let (m, n) = (x.len(), y.len());
    assert!(
        u32::try_from(n + 1).is_ok(),
        "values of a {m} x {n} matrix do not fit in u32"
    );
    let mut bits = TraceBits::new(problem, m, n);
    let border = |e: isize| problem.border(e);
    // Row -1.
    let mut prev: Vec<u32> = (0..n).map(|j| border(j as isize - 1)).collect();
    let mut cur = vec![0u32; n];
    for (i, &xi) in x.iter().enumerate() {
        let (p0, p1) = bits.rows_mut(i);
        // Column -1 of rows i - 1 and i.
        let mut diag = border(i as isize - 2);
        let mut left = border(i as isize - 1);
        for (j, &yj) in y.iter().enumerate() {
            let up = prev[j];
            let matched = xi == yj;
            let (value, b) = match problem {
                Problem::Lcs => {
                    let v = if matched { diag + 1 } else { up.max(left) };
                    (v, [up >= left, false])
                }
                Problem::Edit => {
                    let v = if matched {
                        diag
                    } else {
                        1 + up.min(left).min(diag)
                    };
                    (v, [diag + 1 == v, up + 1 == v])
                }
            };
            let (word, bit) = (j / WORD_BITS, j % WORD_BITS);
            p0[word] |= u64::from(b[0]) << bit;
            if let Some(w) = p1.get_mut(word) {
                *w |= u64::from(b[1]) << bit;
            }
            cur[j] = value;
            diag = up;
            left = value;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    bits
}

/// Walks from `(m-1, n-1)` until it leaves the matrix, by `problem`'s rule, then along the
/// border.
fn traceback(
    problem: Problem,
    x: &[u8],
    y: &[u8],
    bits: impl Fn(usize, usize) -> [bool; 2],
) -> Path {
    let mut path = Path::new();
    // (i, j) is one past the current cell, so "left the matrix" is i == 0 || j == 0 without
    // signed indices.
    let (mut i, mut j) = (x.len(), y.len());
    while i > 0 && j > 0 {
        let (r, c) = (i - 1, j - 1);
        let step = if x[r] == y[c] {
            Move::Match
        } else {
            problem.step(bits(r, c))
        };
        path.push(step);
        match step {
            Move::Match | Move::Sub => (i, j) = (r, c),
            Move::Up => i = r,
            Move::Left => j = c,
        }
    }
    path.push_n(Move::Left, j);
    path.push_n(Move::Up, i);
    path
}

/// The whole value matrix of `problem` (rows `x`, columns `y`), for pictures of small
/// matrices: the plain DP, O(m * n) memory.
pub fn full_table_of(problem: Problem, x: &[u8], y: &[u8]) -> Vec<Vec<u32>> {
    let (m, n) = (x.len(), y.len());
    let mut table = vec![vec![0u32; n]; m];
    let at = |t: &Vec<Vec<u32>>, i: isize, j: isize| -> u32 {
        if i < 0 || j < 0 {
            problem.border(i + j)
        } else {
            t[i as usize][j as usize]
        }
    };
    for i in 0..m {
        for j in 0..n {
            let (ii, jj) = (i as isize, j as isize);
            let (up, left, diag) = (
                at(&table, ii - 1, jj),
                at(&table, ii, jj - 1),
                at(&table, ii - 1, jj - 1),
            );
            table[i][j] = match (problem, x[i] == y[j]) {
                (Problem::Lcs, true) => diag + 1,
                (Problem::Lcs, false) => up.max(left),
                (Problem::Edit, true) => diag,
                (Problem::Edit, false) => 1 + up.min(left).min(diag),
            };
        }
    }
    table
}

/// The LCS value matrix `M` (see [`full_table_of`]).
pub fn full_table(x: &[u8], y: &[u8]) -> Vec<Vec<u32>> {
    full_table_of(Problem::Lcs, x, y)
}

/// The cells the traceback visits in `table` (from [`full_table`]), in walk order, with the
/// same tie-breaking as [`lcs`].
pub fn walk_path(x: &[u8], y: &[u8], table: &[Vec<u32>]) -> Vec<(usize, usize)> {
    let mut path = Vec::new();
    if x.is_empty() || y.is_empty() {
        return path;
    }
    let value = |i: Option<usize>, j: Option<usize>| match (i, j) {
        (Some(i), Some(j)) => table[i][j],
        _ => 0,
    };
    let (mut i, mut j) = (x.len() - 1, y.len() - 1);
    loop {
        path.push((i, j));
        let next = if x[i] == y[j] {
            (i.checked_sub(1), j.checked_sub(1))
        } else if value(i.checked_sub(1), Some(j)) >= value(Some(i), j.checked_sub(1)) {
            (i.checked_sub(1), Some(j))
        } else {
            (Some(i), j.checked_sub(1))
        };
        match next {
            (Some(a), Some(b)) => (i, j) = (a, b),
            _ => return path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;

    /// Full (m+1) x (n+1) table; entry [i+1][j+1] is M[i][j], so row 0 and column 0 hold the
    /// zeros outside the matrix.
    fn naive_table(x: &[u8], y: &[u8]) -> Vec<Vec<u32>> {
        let mut t = vec![vec![0u32; y.len() + 1]; x.len() + 1];
        for i in 1..=x.len() {
            for j in 1..=y.len() {
                t[i][j] = if x[i - 1] == y[j - 1] {
                    t[i - 1][j - 1] + 1
                } else {
                    t[i - 1][j].max(t[i][j - 1])
                };
            }
        }
        t
    }

    /// Naive traceback with the same tie-breaking, on the padded table.
    fn naive_lcs(x: &[u8], y: &[u8]) -> (Vec<u8>, u32) {
        let t = naive_table(x, y);
        let mut out = Vec::new();
        let (mut i, mut j) = (x.len(), y.len());
        while i > 0 && j > 0 {
            if x[i - 1] == y[j - 1] {
                out.insert(0, x[i - 1]);
                i -= 1;
                j -= 1;
            } else if t[i - 1][j] >= t[i][j - 1] {
                i -= 1;
            } else {
                j -= 1;
            }
        }
        (out, t[x.len()][y.len()])
    }

    fn is_subsequence(s: &[u8], of: &[u8]) -> bool {
        let mut it = of.iter();
        s.iter().all(|c| it.any(|d| d == c))
    }

    /// Checks both fills against the naive DP and the subsequence property.
    fn check(x: &[u8], y: &[u8]) {
        let (expected, len) = naive_lcs(x, y);
        for (name, got) in [("lcs", lcs(x, y)), ("lcs_scalar", lcs_scalar(x, y))] {
            assert_eq!(got.lcs, expected, "{name}: x = {x:?}, y = {y:?}");
            assert_eq!(got.length, got.lcs.len(), "{name}");
            assert_eq!(
                got.length, len as usize,
                "{name}: length vs naive M[m-1][n-1]"
            );
            assert!(
                is_subsequence(&got.lcs, x),
                "{name}: not a subsequence of x"
            );
            assert!(
                is_subsequence(&got.lcs, y),
                "{name}: not a subsequence of y"
            );
        }
    }

    #[test]
    fn random_pairs_match_naive() {
        let alphabets: [&[u8]; 3] = [b"ab", b"ACGT", b"abcdefghijklmnopqrstuvwxyz"];
        let mut rng = Random::new(0x1c5_2024);
        let mut longest = 0;
        let mut empty = 0;
        for alphabet in alphabets {
            for _ in 0..80 {
                let la = rng.below(150);
                let lb = rng.below(150);
                let a = rng.bytes(la, alphabet);
                let b = rng.bytes(lb, alphabet);
                // Either sequence may have come out longer; the shorter one becomes the rows.
                let (x, y) = if a.len() <= b.len() { (a, b) } else { (b, a) };
                check(&x, &y);
                let length = lcs(&x, &y).length;
                longest = longest.max(length);
                empty += usize::from(length == 0);
            }
        }
        // The draws cover both ends: pairs with nothing in common and long common runs.
        assert!(
            empty > 0 && longest > 60,
            "empty {empty}, longest {longest}"
        );
    }

    #[test]
    fn word_boundary_lengths() {
        // Lengths around multiples of 64 exercise the carry between words and the padding.
        let mut rng = Random::new(64);
        let lens = [1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193];
        for &la in &lens {
            for &lb in lens.iter().filter(|&&lb| lb >= la) {
                for alphabet in [&b"ab"[..], b"ACGT"] {
                    let x = rng.bytes(la, alphabet);
                    let y = rng.bytes(lb, alphabet);
                    check(&x, &y);
                }
            }
        }
    }

    #[test]
    fn all_byte_values() {
        let alphabet: Vec<u8> = (0..=255).collect();
        let mut rng = Random::new(255);
        for _ in 0..20 {
            let la = rng.below(300);
            let lb = la + rng.below(400 - la);
            check(&rng.bytes(la, &alphabet), &rng.bytes(lb, &alphabet));
        }
    }

    #[test]
    fn zero_and_ff_bytes() {
        let x = [0x00, 0xff, 0x00];
        let y = [0xff, 0x00, 0xff, 0x00];
        assert_eq!(lcs(&x, &y).lcs, vec![0x00, 0xff, 0x00]);
        check(&x, &y);
        check(&[0xff], &[0x00, 0xff]);
        check(&[0x00; 70], &[0x00; 130]);
        check(&[0xff; 70], &[0x00; 130]);
    }

    #[test]
    fn fills_agree_on_mismatch_bits() {
        // Stronger than comparing strings: every bit the traceback could read must agree.
        let mut rng = Random::new(7);
        for alphabet in [&b"ab"[..], b"ACGT", b"abcdefghijklmnopqrstuvwxyz"] {
            let x = rng.bytes(700, alphabet);
            let y = rng.bytes(1500, alphabet);
            for problem in [Problem::Lcs, Problem::Edit] {
                let fast = fill_bit_parallel(problem, &x, &y);
                let slow = fill_scalar(problem, &x, &y);
                for (i, &xi) in x.iter().enumerate() {
                    for (j, &yj) in y.iter().enumerate() {
                        if xi != yj {
                            assert_eq!(fast.bits(i, j), slow.bits(i, j), "{problem} ({i}, {j})");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn longer_differential() {
        let mut rng = Random::new(11);
        for alphabet in [&b"ab"[..], b"ACGT"] {
            let x = rng.bytes(2000, alphabet);
            let y = rng.bytes(3001, alphabet);
            let fast = lcs(&x, &y);
            assert_eq!(fast, lcs_scalar(&x, &y));
            assert!(is_subsequence(&fast.lcs, &x) && is_subsequence(&fast.lcs, &y));
        }
    }

    #[test]
    fn empty_inputs() {
        let empty = Lcs {
            length: 0,
            lcs: Vec::new(),
        };
        assert_eq!(lcs(b"", b""), empty);
        assert_eq!(lcs(b"", b"abc"), empty);
        assert_eq!(lcs_scalar(b"", b""), empty);
        assert_eq!(lcs_scalar(b"", b"abc"), empty);
    }

    #[test]
    #[should_panic(expected = "shorter sequence as rows")]
    fn longer_x_is_rejected() {
        lcs(b"abc", b"ab");
    }

    #[test]
    fn single_row() {
        assert_eq!(lcs(b"b", b"abc").lcs, b"b");
        assert_eq!(lcs(b"z", b"abc").lcs, b"");
        assert_eq!(lcs(b"a", b"a").lcs, b"a");
        check(b"c", b"abc");
        check(b"a", b"aaaa");
    }

    #[test]
    fn identical_sequences() {
        let s = b"GATTACAGATTACA";
        assert_eq!(lcs(s, s).lcs, s);
        let long: Vec<u8> = (0..1000u32).map(|k| (k * 7 % 251) as u8).collect();
        assert_eq!(lcs(&long, &long).lcs, long);
    }

    #[test]
    fn no_common_byte() {
        let r = lcs(b"abc", b"xyzxyz");
        assert_eq!((r.length, r.lcs), (0, Vec::new()));
        check(b"abc", b"xyzxyz");
    }

    #[test]
    fn walk_continues_along_row_zero() {
        // (0,1) is a mismatch with M[-1][1] = 0 < M[0][0] = 1: the walk goes left along row 0
        // to the match at (0,0); stopping on reaching row 0 would lose it.
        assert_eq!(lcs(b"a", b"ab").lcs, b"a");
        assert_eq!(lcs(b"a", b"bbba").lcs, b"a");
        assert_eq!(lcs(b"a", b"abbb").lcs, b"a");
        check(b"a", b"ab");
    }

    #[test]
    fn walk_continues_along_column_zero() {
        // (1,1): a vs b, up M[0][1] = 0 < left M[1][0] = 1, so left to (1,0), a match.
        assert_eq!(lcs(b"xa", b"ab").lcs, b"a");
        check(b"xa", b"ab");
        // Up column 0 past several rows to the match at (0,0).
        assert_eq!(lcs(b"abbb", b"accc").lcs, b"a");
        check(b"abbb", b"accc");
    }

    #[test]
    fn ties_go_up() {
        // (1,1): b vs a, M[0][1] = 1 = M[1][0]; the tie goes up to (0,1) and picks "a",
        // the left move would have found "b".
        assert_eq!(lcs(b"ab", b"ba").lcs, b"a");
        assert_eq!(lcs(b"ba", b"ab").lcs, b"b");
        assert_eq!(lcs(b"abc", b"cba").lcs, b"a");
        check(b"ab", b"ba");
        check(b"ba", b"ab");
    }

    #[test]
    fn traceback_bytes_matches_layout() {
        assert_eq!(traceback_bytes(0, 0), 0);
        assert_eq!(traceback_bytes(0, 100), 0);
        assert_eq!(traceback_bytes(1, 1), 8);
        assert_eq!(traceback_bytes(1, 64), 8);
        assert_eq!(traceback_bytes(1, 65), 16);
        assert_eq!(traceback_bytes(3, 129), 72);
        assert_eq!(traceback_bytes(50_000, 50_000), 50_000 * 782 * 8);
        let bits = TraceBits::new(Problem::Lcs, 3, 129);
        assert_eq!(bits.planes[0].len() as u64 * 8, traceback_bytes(3, 129));
        assert!(bits.planes[1].is_empty());
        let bits = TraceBits::new(Problem::Edit, 3, 129);
        assert_eq!(bits.planes[1].len() as u64 * 8, traceback_bytes(3, 129));
    }

    #[test]
    #[ignore = "allocates about 600 MB; run with --ignored"]
    fn more_cells_than_u32() {
        // 70,000 x 70,000 = 4.9e9 cells, past u32::MAX.
        let mut rng = Random::new(70_000);
        let x = rng.bytes(70_000, b"ACGT");
        let y = rng.bytes(70_000, b"ACGT");
        let r = lcs(&x, &y);
        assert!(is_subsequence(&r.lcs, &x) && is_subsequence(&r.lcs, &y));
        // Expected LCS fraction for random 4-letter strings is about 0.65.
        assert!(r.length > 40_000 && r.length < 50_000, "{}", r.length);
    }

    #[test]
    fn full_table_path_spells_the_lcs() {
        let (x, y) = (b"GATTACA".as_slice(), b"TAGACCATA".as_slice());
        let table = full_table(x, y);
        let path = walk_path(x, y, &table);
        let spelled: Vec<u8> = path
            .iter()
            .rev()
            .filter(|&&(i, j)| x[i] == y[j])
            .map(|&(i, _)| x[i])
            .collect();
        assert_eq!(spelled, lcs(x, y).lcs);
        assert_eq!(path[0], (6, 8));
        assert_eq!(table[6][8] as usize, lcs(x, y).length);
    }

    /// The edit distance's plain DP on the padded `(m+1) x (n+1)` table and its walk by the
    /// walk's rule, as moves: the oracle of the oracle.
    pub(crate) fn naive_edit(x: &[u8], y: &[u8]) -> (usize, Vec<Move>) {
        let (m, n) = (x.len(), y.len());
        let mut t = vec![vec![0usize; n + 1]; m + 1];
        for (i, row) in t.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in t[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=m {
            for j in 1..=n {
                t[i][j] = if x[i - 1] == y[j - 1] {
                    t[i - 1][j - 1]
                } else {
                    1 + t[i - 1][j - 1].min(t[i - 1][j]).min(t[i][j - 1])
                };
            }
        }
        let mut moves = Vec::new();
        let (mut i, mut j) = (m, n);
        while i > 0 && j > 0 {
            let d = t[i][j];
            if x[i - 1] == y[j - 1] {
                moves.push(Move::Match);
                (i, j) = (i - 1, j - 1);
            } else if t[i - 1][j - 1] + 1 == d {
                moves.push(Move::Sub);
                (i, j) = (i - 1, j - 1);
            } else if t[i - 1][j] + 1 == d {
                moves.push(Move::Up);
                i -= 1;
            } else {
                moves.push(Move::Left);
                j -= 1;
            }
        }
        moves.extend(std::iter::repeat_n(Move::Left, j));
        moves.extend(std::iter::repeat_n(Move::Up, i));
        (t[m][n], moves)
    }

    fn check_edit(x: &[u8], y: &[u8]) {
        let (distance, moves) = naive_edit(x, y);
        for (name, path) in [
            ("align", align(Problem::Edit, x, y)),
            ("align_scalar", align_scalar(Problem::Edit, x, y)),
        ] {
            assert_eq!(
                path.iter().collect::<Vec<_>>(),
                moves,
                "{name}: x = {x:?}, y = {y:?}"
            );
            assert_eq!(path.edits(), distance, "{name}");
            assert!(path.spans(x, y), "{name}");
        }
    }

    #[test]
    fn edit_paths_match_the_plain_dp() {
        let mut rng = Random::new(0xed17);
        for alphabet in [&b"ab"[..], b"ACGT", b"abcdefghijklmnopqrstuvwxyz"] {
            for _ in 0..60 {
                let (la, lb) = (rng.below(140), rng.below(140));
                let (a, b) = (rng.bytes(la, alphabet), rng.bytes(lb, alphabet));
                let (x, y) = if a.len() <= b.len() { (a, b) } else { (b, a) };
                check_edit(&x, &y);
                // A near-identical pair: y with a few edits.
                let mut z = y.clone();
                for _ in 0..3 {
                    if !z.is_empty() {
                        let at = rng.below(z.len());
                        match rng.below(3) {
                            0 => z[at] = alphabet[rng.below(alphabet.len())],
                            1 => {
                                z.remove(at);
                            }
                            _ => z.insert(at, alphabet[rng.below(alphabet.len())]),
                        }
                    }
                }
                let (p, q) = if z.len() <= y.len() { (z, y) } else { (y, z) };
                check_edit(&p, &q);
            }
        }
    }

    #[test]
    fn edit_paths_of_every_small_pair() {
        // Every pair over {a, b} up to length 6.
        for (x, y) in crate::exhaustive::short_pairs(6) {
            check_edit(&x, &y);
        }
    }

    #[test]
    fn edit_edges() {
        check_edit(b"", b"");
        check_edit(b"", b"abc");
        check_edit(b"a", b"a");
        check_edit(b"a", b"b");
        check_edit(b"kitten", b"sitting");
        let (d, _) = naive_edit(b"kitten", b"sitting");
        assert_eq!(d, 3);
        assert_eq!(align(Problem::Edit, b"", b"abc").edits(), 3);
        assert_eq!(
            memory_bytes(Problem::Edit, b"ab", &[0; 64]),
            2 * 2 * 8 + (2 + 2) * 8
        );
    }

    #[test]
    fn banded_paths_equal_the_whole_matrix() {
        use crate::diagonal_band::{BandChoice, AUTO_START};
        let ok = |_: u64| Ok::<(), ()>(());
        for (s, rate) in [0.001, 0.01, 0.1, 0.3].into_iter().enumerate() {
            let (a, b) = crate::random::mutated_pair(4000, rate, b"ACGT", 70 + s as u64);
            let (x, y) = if a.len() <= b.len() { (a, b) } else { (b, a) };
            for problem in [Problem::Lcs, Problem::Edit] {
                let want = align(problem, &x, &y);
                let (path, search, _, _) =
                    align_banded(problem, &x, &y, BandChoice::Auto, ok).unwrap();
                assert_eq!(path.as_ref(), Some(&want), "{problem} rate {rate}");
                assert!(search.proven && search.fills[0] == Some(AUTO_START));
                if rate < 0.05 {
                    assert!(search.last().is_some(), "{problem} rate {rate}: a band");
                }
                let (path, search, _, _) =
                    align_banded(problem, &x, &y, BandChoice::Off, ok).unwrap();
                assert_eq!((path, search.fills), (Some(want.clone()), vec![None]));
                // A fixed band: the whole matrix's path, or none.
                for k in [0, 3, 40, 300] {
                    let (path, search, _, _) =
                        align_banded(problem, &x, &y, BandChoice::Fixed(k), ok).unwrap();
                    assert_eq!(path.is_some(), search.proven);
                    if let Some(path) = path {
                        assert_eq!(path, want, "{problem} rate {rate} K={k}");
                    }
                }
            }
        }
        // Each fill's memory is asked for before it is allocated, and may be refused.
        let (x, y) = crate::random::mutated_pair(3000, 0.01, b"ACGT", 5);
        let (x, y) = if x.len() <= y.len() { (x, y) } else { (y, x) };
        let asked = std::cell::RefCell::new(Vec::new());
        let refuse_whole = |bytes: u64| {
            asked.borrow_mut().push(bytes);
            if bytes >= memory_bytes(Problem::Lcs, &x, &y) {
                Err("too much")
            } else {
                Ok(())
            }
        };
        let done = align_banded(Problem::Lcs, &x, &y, BandChoice::Auto, refuse_whole);
        assert!(done.is_ok(), "a band fits where the whole matrix does not");
        assert!(asked
            .borrow()
            .iter()
            .all(|&b| b < memory_bytes(Problem::Lcs, &x, &y)));
        let off = align_banded(Problem::Lcs, &x, &y, BandChoice::Off, refuse_whole);
        assert_eq!(off.unwrap_err(), "too much");
    }
}
