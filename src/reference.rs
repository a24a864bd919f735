//! Sequential reference LCS: the oracle every distributed run is checked against.
//!
//! # Recurrence
//!
//! Rows are `x` (length `m`), columns are `y` (length `n`), with `m <= n`. Cells are 0-indexed
//! and `M[i][j]` is the LCS length of `x[..=i]` and `y[..=j]`; any cell with `i < 0` or `j < 0`
//! is 0.
//!
//! ```text
//! M[i][j] = M[i-1][j-1] + 1                 if x[i] == y[j]
//!         = max(M[i-1][j], M[i][j-1])       otherwise
//! ```
//!
//! # Traceback and tie-breaking
//!
//! The walk starts at `(m-1, n-1)` and runs while `i >= 0 && j >= 0`:
//!
//! * `x[i] == y[j]`: prepend `x[i]`, go diagonally to `(i-1, j-1)`;
//! * else if `M[i-1][j] >= M[i][j-1]`: go up to `(i-1, j)` (ties go up);
//! * else: go left to `(i, j-1)`.
//!
//! It stops only when it leaves the matrix, never on reaching row 0 or column 0, because a
//! match further left in row 0 (or further up in column 0) still belongs to the answer. The
//! distributed engine walks by the same rule, so both produce the identical string, not just a
//! string of the same length.
//!
//! # Storage
//!
//! The walk needs one bit per cell: whether a mismatch cell goes up. Match cells need no bit,
//! since a match is known from the sequences. The bits are packed row-major into `u64` words and
//! each row starts at a word boundary, so row `i` is words `[i*W, (i+1)*W)` with
//! `W = ceil(n/64)`; the matrix takes `m * W * 8` bytes ([`traceback_bytes`]), about 320 MB
//! for 50,000 x 50,000. The values themselves are never kept beyond the row being filled.
//!
//! # Fill
//!
//! [`lcs`] fills the bits with the bit-parallel formulation of Allison–Dix and Hyyrö. Row `i`
//! is the bit vector `V_i` with bit `j` clear iff `M[i][j] - M[i][j-1] = 1` (`V_{-1}` is all
//! ones), and with `P` the positions of `x[i]` in `y` and `U = V_{i-1} & P`,
//!
//! ```text
//! V_i = (V_{i-1} + U) | (V_{i-1} & !P)
//! ```
//!
//! where `+` is addition over the whole `n`-bit vector. The carry out of bit `j` of that sum
//! is exactly the vertical difference `M[i][j] - M[i-1][j]` (the bit-by-bit case analysis is in
//! [`crate::engine::bitpar`], whose step this fill runs over one run of words). In a mismatch cell `M[i][j]` equals the larger neighbour and each
//! neighbour is `M[i][j]` or `M[i][j] - 1`, so "go up" (`M[i-1][j] >= M[i][j-1]`) holds iff
//! `M[i-1][j] == M[i][j]`, i.e. iff that carry is 0. One word step therefore settles 64 cells.
//!
//! [`lcs_scalar`] fills the same bits with the plain cell-by-cell recurrence over two rows of
//! `u32` values; it exists as an independent check on the bit-parallel fill.
//!
//! # Cost
//!
//! * [`lcs`]: `O(m * n / 64)` word operations; memory is the bit matrix plus `W` words for `V`
//!   and `W` words of match positions per distinct byte of `x` (at most the size of the bit
//!   matrix, since `x` has at most `m` distinct bytes).
//! * [`lcs_scalar`]: `O(m * n)` cell updates; memory is the bit matrix plus two `u32` rows of
//!   length `n`.
//! * The traceback is `O(m + n)` for both.

/// The result of an LCS computation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lcs {
    /// Length of the longest common subsequence; always `lcs.len()`.
    pub length: usize,
    /// The subsequence chosen by the traceback described in the module documentation.
    pub lcs: Vec<u8>,
}

use crate::engine::bitpar::{self, Masks, WORD_BITS};

/// Number of `u64` words one row of traceback bits occupies.
fn words_per_row(n: usize) -> usize {
    n.div_ceil(WORD_BITS)
}

/// Bytes the traceback bit matrix needs for `m` rows and `n` columns, so a caller can check
/// available memory before calling [`lcs`]. Computed in `u64` so it cannot overflow on targets
/// where `usize` is 32 bits.
pub fn traceback_bytes(m: usize, n: usize) -> u64 {
    (m as u64) * (words_per_row(n) as u64) * (u64::BITS as u64 / 8)
}

/// Bytes [`lcs`] allocates for `x` and `y`: the bit matrix, the match masks of the bytes of `x`,
/// and the row vector `V`.
pub fn memory_bytes(x: &[u8], y: &[u8]) -> u64 {
    let distinct = bitpar::distinct_bytes(x) as u64;
    let row = words_per_row(y.len()) as u64 * 8;
    traceback_bytes(x.len(), y.len()) + (distinct + 1) * row
}

/// One "go up" bit per cell, row-major, every row starting at a word boundary.
struct TraceBits {
    words: Vec<u64>,
    /// Words per row.
    w: usize,
    m: usize,
    n: usize,
}

impl TraceBits {
    fn new(m: usize, n: usize) -> Self {
        let w = words_per_row(n);
        let len = m
            .checked_mul(w)
            .expect("traceback bit matrix does not fit in the address space");
        // All zeros, so the allocator can hand out untouched pages.
        TraceBits {
            words: vec![0; len],
            w,
            m,
            n,
        }
    }

    /// Index of the word holding the bit of cell `(i, j)`.
    #[inline]
    fn idx(&self, i: usize, j: usize) -> usize {
        debug_assert!(i < self.m, "row {i} out of range (m = {})", self.m);
        debug_assert!(j < self.n, "column {j} out of range (n = {})", self.n);
        i * self.w + j / WORD_BITS
    }

    /// Whether mismatch cell `(i, j)` goes up. Meaningless for match cells.
    #[inline]
    fn go_up(&self, i: usize, j: usize) -> bool {
        (self.words[self.idx(i, j)] >> (j % WORD_BITS)) & 1 == 1
    }

    fn row_mut(&mut self, i: usize) -> &mut [u64] {
        debug_assert!(i < self.m, "row {i} out of range (m = {})", self.m);
        &mut self.words[i * self.w..(i + 1) * self.w]
    }
}

/// LCS of `x` and `y`, with `x` the shorter (`x.len() <= y.len()`; panics otherwise).
///
/// Uses the bit-parallel fill; the result is identical to [`lcs_scalar`].
pub fn lcs(x: &[u8], y: &[u8]) -> Lcs {
    check_lengths(x, y);
    if x.is_empty() {
        return Lcs::default();
    }
    let (bits, length) = fill_bit_parallel(x, y);
    let result = traceback(x, y, &bits);
    debug_assert_eq!(result.length, length, "traceback disagrees with the fill");
    result
}

/// [`lcs`], with the seconds its fill and its traceback took.
pub fn lcs_timed(x: &[u8], y: &[u8]) -> (Lcs, f64, f64) {
    check_lengths(x, y);
    if x.is_empty() {
        return (Lcs::default(), 0.0, 0.0);
    }
    let started = std::time::Instant::now();
    let (bits, length) = fill_bit_parallel(x, y);
    let fill = started.elapsed().as_secs_f64();
    let started = std::time::Instant::now();
    let result = traceback(x, y, &bits);
    debug_assert_eq!(result.length, length, "traceback disagrees with the fill");
    (result, fill, started.elapsed().as_secs_f64())
}

/// LCS of `x` and `y` by the cell-by-cell recurrence; same contract and same result as [`lcs`],
/// more than ten times slower. Kept as an independent check on [`lcs`].
pub fn lcs_scalar(x: &[u8], y: &[u8]) -> Lcs {
    check_lengths(x, y);
    if x.is_empty() {
        return Lcs::default();
    }
    let bits = fill_scalar(x, y);
    traceback(x, y, &bits)
}

fn check_lengths(x: &[u8], y: &[u8]) {
    assert!(
        x.len() <= y.len(),
        "reference LCS needs the shorter sequence as rows: x.len() = {} > y.len() = {}",
        x.len(),
        y.len()
    );
}

/// Fills the traceback bits with the bit-parallel recurrence ([`bitpar`]: one run of words
/// spanning every column, carry 0 into column 0) and returns them together with the LCS
/// length (the number of +1 steps along the last row).
fn fill_bit_parallel(x: &[u8], y: &[u8]) -> (TraceBits, usize) {
    let (m, n) = (x.len(), y.len());
    let mut bits = TraceBits::new(m, n);
    let masks = Masks::new(x, y);
    let mut v = vec![u64::MAX; bits.w];
    let tail_mask = match n % WORD_BITS {
        0 => u64::MAX,
        r => (1 << r) - 1,
    };
    for (i, &xi) in x.iter().enumerate() {
        let row = bits.row_mut(i);
        bitpar::step_traced(&mut v, masks.of(xi), false, row);
        // Keep the padding bits zero so the matrix is deterministic.
        if let Some(last) = row.last_mut() {
            *last &= tail_mask;
        }
    }
    // Padding bits of v are 1, so counting zeros over whole words counts only real columns.
    let length = v.iter().map(|vk| vk.count_zeros() as usize).sum();
    (bits, length)
}

/// Fills the traceback bits cell by cell, keeping only the previous and current rows of values.
fn fill_scalar(x: &[u8], y: &[u8]) -> TraceBits {
    let (m, n) = (x.len(), y.len());
    assert!(
        u32::try_from(m).is_ok(),
        "LCS values of a {m}-row matrix do not fit in u32"
    );
    let mut bits = TraceBits::new(m, n);
    let mut prev = vec![0u32; n];
    let mut cur = vec![0u32; n];

    for (i, &xi) in x.iter().enumerate() {
        let row = bits.row_mut(i);
        // Values left of column 0 (diagonal and left neighbours) are 0.
        let mut diag = 0u32;
        let mut left = 0u32;
        // Walking y, prev and cur in 64-column chunks alongside the row's words keeps the
        // inner loop free of bounds checks and lets the word be built in a register.
        let chunks = y
            .chunks(WORD_BITS)
            .zip(prev.chunks(WORD_BITS))
            .zip(cur.chunks_mut(WORD_BITS));
        for (((yc, pc), cc), out) in chunks.zip(row.iter_mut()) {
            let mut word = 0u64;
            for (k, ((&yj, &up), c)) in yc.iter().zip(pc).zip(cc.iter_mut()).enumerate() {
                // Stored for match cells too; the traceback ignores it there.
                word |= u64::from(up >= left) << k;
                // On a match diag + 1 already bounds both neighbours, so the recurrence is
                // max(match ? diag + 1 : up, left); only the final max depends on `left`,
                // which keeps the chain carried from cell to cell short.
                let cand = if yj == xi { diag + 1 } else { up };
                let val = cand.max(left);
                *c = val;
                diag = up;
                left = val;
            }
            *out = word;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    bits
}

/// Walks from `(m-1, n-1)` until it leaves the matrix, using the rule in the module docs.
fn traceback(x: &[u8], y: &[u8], bits: &TraceBits) -> Lcs {
    let mut rev = Vec::with_capacity(x.len());
    // (i, j) is one past the current cell, so "left the matrix" is i == 0 || j == 0 without
    // signed indices.
    let (mut i, mut j) = (x.len(), y.len());
    while i > 0 && j > 0 {
        let (r, c) = (i - 1, j - 1);
        if x[r] == y[c] {
            rev.push(x[r]);
            i -= 1;
            j -= 1;
        } else if bits.go_up(r, c) {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    rev.reverse();
    Lcs {
        length: rev.len(),
        lcs: rev,
    }
}

/// The whole value matrix `M` (rows `x`, columns `y`), for pictures of small matrices: the
/// plain DP, O(m * n) memory.
pub fn full_table(x: &[u8], y: &[u8]) -> Vec<Vec<u32>> {
    let (m, n) = (x.len(), y.len());
    let mut table = vec![vec![0u32; n]; m];
    let at = |t: &Vec<Vec<u32>>, i: usize, j: usize, di: usize, dj: usize| -> u32 {
        if i < di || j < dj {
            0
        } else {
            t[i - di][j - dj]
        }
    };
    for i in 0..m {
        for j in 0..n {
            table[i][j] = if x[i] == y[j] {
                at(&table, i, j, 1, 1) + 1
            } else {
                at(&table, i, j, 1, 0).max(at(&table, i, j, 0, 1))
            };
        }
    }
    table
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
    use crate::generate::Random;

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
            let fast = fill_bit_parallel(&x, &y).0;
            let slow = fill_scalar(&x, &y);
            for (i, &xi) in x.iter().enumerate() {
                for (j, &yj) in y.iter().enumerate() {
                    if xi != yj {
                        assert_eq!(fast.go_up(i, j), slow.go_up(i, j), "cell ({i}, {j})");
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
        let bits = TraceBits::new(3, 129);
        assert_eq!(bits.words.len() as u64 * 8, traceback_bytes(3, 129));
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
}
