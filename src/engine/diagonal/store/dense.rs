//! The dense store: values of the last three diagonals in flat row-indexed arrays, and one
//! traceback bit per owned cell.
//!
//! Diagonal `d` lives in buffer `d mod 3`, slot `i + 1` holding row `i` (slot 0 is the virtual
//! row -1, always 0). A cell `(i, j)` on `d` reads `up = (i-1, j)` and `left = (i, j-1)` from
//! buffer `d - 1` at slots `i` and `i + 1`, and `diag = (i-1, j-1)` from buffer `d - 2` at slot
//! `i`; with `y` reversed, `y[d - i]` is read forwards too, so a rank's segment is one straight
//! loop over rows with no hashing, no branch and no ownership test, which the compiler turns
//! into SIMD code (AVX2 when the CPU has it, chosen at run time). Received boundary values are
//! written into the same buffers; a rank reads only slots it computed or received (the schedule
//! guarantees it), so the arrays need no clearing between diagonals.
//!
//! Values are `u16` when the LCS cannot exceed 65,534 (fewer rows than that), else `u32`: half
//! the memory traffic, twice the SIMD lanes.
//!
//! The traceback needs only, at a mismatch, whether `M[i-1][j] >= M[i][j-1]`: one bit per owned
//! cell, packed 64 to a word, each diagonal's run starting on a fresh word. Memory per rank:
//! `cells / 8` bytes of bits plus three diagonals of values, so 50,000 x 50,000 on one rank
//! needs about 313 MB.

use std::ops::Range;

use super::{Seqs, Store};
use crate::engine::diagonal::schedule::Schedule;

/// A cell value: `u16` or `u32`.
pub trait Value: Copy + Ord + Default + Send + Sync + 'static {
    /// The largest LCS length this width holds with room for one more.
    const MAX_ROWS: usize;
    fn from_u32(v: u32) -> Self;
    fn to_u32(self) -> u32;
    /// `self + 1`; never overflows for matrices within `MAX_ROWS` rows.
    fn succ(self) -> Self;
}

impl Value for u16 {
    const MAX_ROWS: usize = u16::MAX as usize - 1;
    fn from_u32(v: u32) -> Self {
        debug_assert!(v <= u16::MAX as u32);
        v as u16
    }
    fn to_u32(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn succ(self) -> Self {
        self.wrapping_add(1)
    }
}

impl Value for u32 {
    const MAX_ROWS: usize = u32::MAX as usize - 1;
    fn from_u32(v: u32) -> Self {
        v
    }
    fn to_u32(self) -> u32 {
        self
    }
    #[inline(always)]
    fn succ(self) -> Self {
        self.wrapping_add(1)
    }
}

/// Whether a schedule's values fit in `u16`.
pub fn narrow(schedule: &Schedule) -> bool {
    schedule.rows() <= u16::MAX_ROWS
}

/// Two diagonals of values (plus the one being written) and one traceback bit per owned cell.
pub struct DenseStore<V: Value> {
    schedule: Schedule,
    rank: usize,
    /// Value buffers for diagonals `d mod 3`; slot `i + 1` is row `i`.
    bufs: [Vec<V>; 3],
    /// Traceback bits: for row `i` of diagonal `d`, bit `i - rows.start` of the run starting at
    /// word `word_start[d - first]`.
    bits: Vec<u64>,
    word_start: Vec<usize>,
    first: usize,
}

impl<V: Value> DenseStore<V> {
    pub fn new(schedule: &Schedule, rank: usize) -> DenseStore<V> {
        assert!(schedule.rows() <= V::MAX_ROWS, "values too narrow");
        let diagonals = schedule.rank_diagonals(rank);
        let mut word_start = Vec::with_capacity(diagonals.len() + 1);
        let mut words = 0usize;
        for d in diagonals.clone() {
            word_start.push(words);
            words += schedule.rank_rows(d, rank).len().div_ceil(64);
        }
        word_start.push(words);
        let slots = schedule.rows() + 1;
        DenseStore {
            schedule: *schedule,
            rank,
            bufs: [
                vec![V::default(); slots],
                vec![V::default(); slots],
                vec![V::default(); slots],
            ],
            bits: vec![0; words],
            word_start,
            first: diagonals.start,
        }
    }

    /// The buffers of diagonals `d`, `d - 1` and `d - 2`.
    fn buffers(&mut self, d: usize) -> (&mut Vec<V>, &mut Vec<V>, &mut Vec<V>) {
        let [b0, b1, b2] = &mut self.bufs;
        match d % 3 {
            0 => (b0, b2, b1),
            1 => (b1, b0, b2),
            _ => (b2, b1, b0),
        }
    }
}

/// Bytes the dense store allocates on `rank` (with the value width it will use); the fill
/// writes all of it.
pub fn estimate_bytes(schedule: &Schedule, rank: usize) -> u64 {
    let diagonals = schedule.rank_diagonals(rank);
    let words: u64 = diagonals
        .clone()
        .map(|d| schedule.rank_rows(d, rank).len().div_ceil(64) as u64)
        .sum();
    bytes(schedule, words, diagonals.len() as u64)
}

/// An upper bound of [`estimate_bytes`] over every rank, in closed form: each diagonal's run
/// of bits costs at most one word more than its cells need.
pub fn busiest_bytes(schedule: &Schedule) -> u64 {
    let diagonals = schedule.diagonals() as u64;
    bytes(
        schedule,
        schedule.busiest_cells() / 64 + diagonals,
        diagonals,
    )
}

/// Bits in `words` words, the start of each of `diagonals` runs, and three diagonals of
/// values.
fn bytes(schedule: &Schedule, words: u64, diagonals: u64) -> u64 {
    let width = if narrow(schedule) { 2 } else { 4 };
    let values = 3 * width * (schedule.rows() as u64 + 1);
    words * 8 + (diagonals + 1) * 8 + values
}

/// The segment kernel: `out[t] = diag[t] + 1` where `xs[t] == ys[t]`, else
/// `max(up[t], left[t])`. All slices have `out`'s length.
#[inline(always)]
fn values_body<V: Value>(out: &mut [V], up: &[V], left: &[V], diag: &[V], xs: &[u8], ys: &[u8]) {
    let len = out.len();
    let (up, left, diag, xs, ys) = (
        &up[..len],
        &left[..len],
        &diag[..len],
        &xs[..len],
        &ys[..len],
    );
    for t in 0..len {
        let matched = diag[t].succ();
        let best = up[t].max(left[t]);
        out[t] = if xs[t] == ys[t] { matched } else { best };
    }
}

/// Packs the traceback bits `up[t] >= left[t]` of a segment, 64 to a word.
#[inline(always)]
fn bits_body<V: Value>(up: &[V], left: &[V], words: &mut [u64]) {
    let len = up.len();
    debug_assert_eq!(words.len(), len.div_ceil(64));
    let left = &left[..len];
    let full = len / 64;
    for (w, word) in words[..full].iter_mut().enumerate() {
        let u: &[V; 64] = up[w * 64..w * 64 + 64].try_into().unwrap();
        let l: &[V; 64] = left[w * 64..w * 64 + 64].try_into().unwrap();
        let mut acc = 0u64;
        for b in 0..64 {
            acc |= ((u[b] >= l[b]) as u64) << b;
        }
        *word = acc;
    }
    if full < words.len() {
        let mut acc = 0u64;
        for (b, t) in (full * 64..len).enumerate() {
            acc |= ((up[t] >= left[t]) as u64) << b;
        }
        words[full] = acc;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn values_avx2<V: Value>(out: &mut [V], up: &[V], left: &[V], diag: &[V], xs: &[u8], ys: &[u8]) {
    values_body(out, up, left, diag, xs, ys)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn bits_avx2<V: Value>(up: &[V], left: &[V], words: &mut [u64]) {
    bits_body(up, left, words)
}

fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The segment kernel (see `values_body`), with AVX2 where the CPU has it. Public for the
/// micro-benchmark.
pub fn segment_values<V: Value>(
    out: &mut [V],
    up: &[V],
    left: &[V],
    diag: &[V],
    xs: &[u8],
    ys: &[u8],
) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { values_avx2(out, up, left, diag, xs, ys) };
    }
    values_body(out, up, left, diag, xs, ys)
}

/// Packs a segment's traceback bits (see `bits_body`), with AVX2 where the CPU has it.
pub fn segment_bits<V: Value>(up: &[V], left: &[V], words: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { bits_avx2(up, left, words) };
    }
    bits_body(up, left, words)
}

impl<V: Value> Store for DenseStore<V> {
    fn put_received(&mut self, d: usize, i: usize, value: u32) {
        self.bufs[d % 3][i + 1] = V::from_u32(value);
    }

    fn compute(&mut self, d: usize, rows: Range<usize>, seqs: &Seqs<'_>) {
        debug_assert!({
            let mine = self.schedule.rank_rows(d, self.rank);
            mine.start <= rows.start && rows.end <= mine.end
        });
        let Range { start: lo, end: hi } = rows;
        let (cur, prev, prev2) = self.buffers(d);
        if hi == d + 1 {
            // Row d of diagonal d is column 0: its left and diagonal predecessors lie in the
            // virtual column -1, whose slots in the previous two buffers must read 0.
            prev[d + 1] = V::default();
            prev2[d] = V::default();
        }
        segment_values(
            &mut cur[lo + 1..hi + 1],
            &prev[lo..hi],
            &prev[lo + 1..hi + 1],
            &prev2[lo..hi],
            &seqs.x[lo..hi],
            seqs.y_along(d, rows),
        );
    }

    fn seal(&mut self, d: usize, rows: Range<usize>) {
        let at = d - self.first;
        let (lo, hi) = (rows.start, rows.end);
        let (start, end) = (self.word_start[at], self.word_start[at + 1]);
        let prev = &self.bufs[(d + 2) % 3];
        segment_bits(
            &prev[lo..hi],
            &prev[lo + 1..hi + 1],
            &mut self.bits[start..end],
        );
    }

    fn value(&self, d: usize, i: usize) -> u32 {
        self.bufs[d % 3][i + 1].to_u32()
    }

    fn goes_up(&self, i: usize, j: usize) -> bool {
        let d = i + j;
        let rows = self.schedule.rank_rows(d, self.rank);
        debug_assert!(
            rows.contains(&i),
            "({i},{j}) is not owned by rank {}",
            self.rank
        );
        let t = i - rows.start;
        let word = self.bits[self.word_start[d - self.first] + t / 64];
        (word >> (t % 64)) & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_store_matches_reference_with_u16_values() {
        crate::engine::diagonal::store::tests::check_against_reference(DenseStore::<u16>::new);
    }

    #[test]
    fn dense_store_matches_reference_with_u32_values() {
        crate::engine::diagonal::store::tests::check_against_reference(DenseStore::<u32>::new);
    }

    #[test]
    fn kernels_agree_with_a_plain_loop() {
        // Lengths around the 64-bit word and SIMD widths, values near the u16 limit.
        for len in [0usize, 1, 15, 16, 17, 63, 64, 65, 130, 1000] {
            let gen = |seed: usize| -> Vec<u16> {
                (0..len)
                    .map(|t| (65_000 + (t * 7 + seed * 13) % 500) as u16)
                    .collect()
            };
            let (up, left, diag) = (gen(1), gen(2), gen(3));
            let xs: Vec<u8> = (0..len).map(|t| b"ACGT"[t * 5 % 4]).collect();
            let ys: Vec<u8> = (0..len).map(|t| b"ACGT"[t * 3 % 4]).collect();
            let mut out = vec![0u16; len];
            segment_values(&mut out, &up, &left, &diag, &xs, &ys);
            let mut words = vec![0u64; len.div_ceil(64)];
            segment_bits(&up, &left, &mut words);
            for t in 0..len {
                let want = if xs[t] == ys[t] {
                    diag[t] + 1
                } else {
                    up[t].max(left[t])
                };
                assert_eq!(out[t], want, "len {len} t {t}");
                assert_eq!((words[t / 64] >> (t % 64)) & 1 == 1, up[t] >= left[t]);
            }
        }
    }

    #[test]
    fn the_busiest_bound_covers_every_rank() {
        for (m, n) in [(1, 1), (5, 8), (40, 90), (300, 1000)] {
            for p in [1, 2, 3, 7, 16, 80] {
                let s = Schedule::new(m, n, p);
                let bound = busiest_bytes(&s);
                for k in 0..p {
                    assert!(estimate_bytes(&s, k) <= bound, "{m}x{n} P={p} k={k}");
                }
            }
        }
    }

    #[test]
    fn estimate_matches_allocation() {
        for (m, n) in [(300, 1000), (70_000, 70_001)] {
            let s = Schedule::new(m, n, 3);
            for k in 0..3 {
                let width = if narrow(&s) { 2 } else { 4 };
                let (bits, starts, slots) = if narrow(&s) {
                    let st = DenseStore::<u16>::new(&s, k);
                    (st.bits.len(), st.word_start.len(), st.bufs[0].len())
                } else {
                    let st = DenseStore::<u32>::new(&s, k);
                    (st.bits.len(), st.word_start.len(), st.bufs[0].len())
                };
                let allocated = bits * 8 + starts * 8 + 3 * slots * width;
                assert_eq!(estimate_bytes(&s, k), allocated as u64);
            }
        }
    }
}
