//! The dense store: values of the last three diagonals in flat row-indexed arrays, and the walk's
//! bits for every owned cell (one per cell for the LCS, two for the edit distance, packed 64 to a
//! word per plane, written when a diagonal is sealed).
//!
//! Diagonal `d` lives in buffer `d mod 3`, slot `i + 1` holding row `i` (slot 0 the virtual row
//! -1), and `y` is stored reversed, so a rank's segment is one straight loop over rows with no
//! hashing, no branch and no ownership test, which the compiler vectorises (AVX2 chosen at run
//! time). Values are `u16` when every value fits with room for one more
//! ([`lcs_core::recurrence::narrow`]), else `u32`.
//!
//! Memory per rank: `planes * cells / 8` bytes of bits plus three diagonals of values: an LCS of
//! 50,000 x 50,000 on one rank about 313 MB, an edit distance about 625 MB. The buffers, the
//! borders and the sealing: `docs/algorithms.md#the-stores`.

use std::marker::PhantomData;
use std::ops::Range;

use super::cells::{Seqs, Store};
use crate::engines::diagonal::schedule::Schedule;
use lcs_core::problem::{Move, Problem};
use lcs_core::recurrence::{self, Recurrence, Value};

/// Whether `problem`'s values on `schedule` fit in `u16`.
pub fn narrow(problem: Problem, schedule: &Schedule) -> bool {
    recurrence::narrow(problem, schedule.rows(), schedule.cols())
}

/// Three diagonals of values and the walk's bits of every owned cell.
pub struct DenseStore<V: Value, R: Recurrence> {
    schedule: Schedule,
    rank: usize,
    /// Value buffers for diagonals `d mod 3`; slot `i + 1` is row `i`.
    bufs: [Vec<V>; 3],
    /// The walk's bits, one vector per plane: for row `i` of diagonal `d`, bit
    /// `i - rows.start` of the run starting at word `word_start[d - first]`.
    planes: [Vec<u64>; 2],
    word_start: Vec<usize>,
    first: usize,
    recurrence: PhantomData<R>,
}

impl<V: Value, R: Recurrence> DenseStore<V, R> {
    pub fn new(schedule: &Schedule, rank: usize) -> DenseStore<V, R> {
        let (m, n) = (schedule.rows(), schedule.cols());
        assert!(
            R::PROBLEM.max_value(m, n) <= V::MAX,
            "values too narrow for {} on {m} x {n}",
            R::PROBLEM
        );
        let diagonals = schedule.rank_diagonals(rank);
        let mut word_start = Vec::with_capacity(diagonals.len() + 1);
        let mut words = 0usize;
        for d in diagonals.clone() {
            word_start.push(words);
            words += schedule.rank_rows(d, rank).len().div_ceil(64);
        }
        word_start.push(words);
        let slots = m + 1;
        let plane = |p: usize| {
            if p < R::PLANES {
                vec![0; words]
            } else {
                Vec::new()
            }
        };
        DenseStore {
            schedule: *schedule,
            rank,
            bufs: [
                vec![V::default(); slots],
                vec![V::default(); slots],
                vec![V::default(); slots],
            ],
            planes: [plane(0), plane(1)],
            word_start,
            first: diagonals.start,
            recurrence: PhantomData,
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

/// Bytes the dense store allocates on `rank` for `problem` (with the value width it will
/// use); the fill writes all of it.
pub fn estimate_bytes(problem: Problem, schedule: &Schedule, rank: usize) -> u64 {
    let diagonals = schedule.rank_diagonals(rank);
    let words: u64 = diagonals
        .clone()
        .map(|d| schedule.rank_rows(d, rank).len().div_ceil(64) as u64)
        .sum();
    bytes(problem, schedule, words, diagonals.len() as u64)
}

/// An upper bound of [`estimate_bytes`] over every rank, in closed form: each diagonal's run
/// of bits costs at most one word more than its cells need.
pub fn busiest_bytes(problem: Problem, schedule: &Schedule) -> u64 {
    let diagonals = schedule.diagonals() as u64;
    bytes(
        problem,
        schedule,
        schedule.busiest_cells() / 64 + diagonals,
        diagonals,
    )
}

/// Bits in `words` words per plane, the start of each of `diagonals` runs, and three
/// diagonals of values.
fn bytes(problem: Problem, schedule: &Schedule, words: u64, diagonals: u64) -> u64 {
    let width = if narrow(problem, schedule) { 2 } else { 4 };
    let planes = match problem {
        Problem::Lcs => 1,
        Problem::Edit => 2,
    };
    let values = 3 * width * (schedule.rows() as u64 + 1);
    planes * words * 8 + (diagonals + 1) * 8 + values
}

/// The segment kernel: `out[t]` from `up[t]`, `left[t]`, `diag[t]` and whether `xs[t]` and
/// `ys[t]` match, by `R`'s recurrence. All slices have `out`'s length.
#[inline(always)]
fn values_body<V: Value, R: Recurrence>(
    out: &mut [V],
    up: &[V],
    left: &[V],
    diag: &[V],
    xs: &[u8],
    ys: &[u8],
) {
    let len = out.len();
    let (up, left, diag, xs, ys) = (
        &up[..len],
        &left[..len],
        &diag[..len],
        &xs[..len],
        &ys[..len],
    );
    for t in 0..len {
        out[t] = R::cell(up[t], left[t], diag[t], xs[t] == ys[t]);
    }
}

/// Packs plane `P` of the walk's bits of a segment (see [`Recurrence::bits`]), 64 to a word.
#[inline(always)]
fn bits_body<V: Value, R: Recurrence, const P: usize>(
    cur: &[V],
    up: &[V],
    left: &[V],
    diag: &[V],
    words: &mut [u64],
) {
    let len = cur.len();
    debug_assert_eq!(words.len(), len.div_ceil(64));
    let (up, left, diag) = (&up[..len], &left[..len], &diag[..len]);
    let bit = |t: usize| R::bits(cur[t], up[t], left[t], diag[t])[P] as u64;
    let full = len / 64;
    for (w, word) in words[..full].iter_mut().enumerate() {
        let mut acc = 0u64;
        for b in 0..64 {
            acc |= bit(w * 64 + b) << b;
        }
        *word = acc;
    }
    if full < words.len() {
        let mut acc = 0u64;
        for (b, t) in (full * 64..len).enumerate() {
            acc |= bit(t) << b;
        }
        words[full] = acc;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn values_avx2<V: Value, R: Recurrence>(
    out: &mut [V],
    up: &[V],
    left: &[V],
    diag: &[V],
    xs: &[u8],
    ys: &[u8],
) {
    values_body::<V, R>(out, up, left, diag, xs, ys)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn bits_avx2<V: Value, R: Recurrence, const P: usize>(
    cur: &[V],
    up: &[V],
    left: &[V],
    diag: &[V],
    words: &mut [u64],
) {
    bits_body::<V, R, P>(cur, up, left, diag, words)
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
pub fn segment_values<V: Value, R: Recurrence>(
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
        return unsafe { values_avx2::<V, R>(out, up, left, diag, xs, ys) };
    }
    values_body::<V, R>(out, up, left, diag, xs, ys)
}

/// Packs plane `P` of a segment's walk bits (see `bits_body`), with AVX2 where the CPU has
/// it. Public for the micro-benchmark.
pub fn segment_bits<V: Value, R: Recurrence, const P: usize>(
    cur: &[V],
    up: &[V],
    left: &[V],
    diag: &[V],
    words: &mut [u64],
) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { bits_avx2::<V, R, P>(cur, up, left, diag, words) };
    }
    bits_body::<V, R, P>(cur, up, left, diag, words)
}

impl<V: Value, R: Recurrence> Store for DenseStore<V, R> {
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
        // The border values are those of cells of the matrix's first row or column, so they
        // fit the store's width; they are made only where a segment touches one (on the last
        // diagonals of a long matrix, `d + 1` would not fit in 16 bits).
        let borders = || {
            (
                V::from_u32(R::border(d as isize - 1)),
                V::from_u32(R::border(d as isize - 2)),
            )
        };
        if lo == 0 {
            // Row 0: its up and diagonal predecessors lie in the virtual row -1.
            (prev[0], prev2[0]) = borders();
        }
        if hi == d + 1 {
            // Row d of diagonal d is column 0: its left and diagonal predecessors lie in the
            // virtual column -1.
            (prev[d + 1], prev2[d]) = borders();
        }
        segment_values::<V, R>(
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
        // Diagonal d and the two before it: d's buffer, then d - 1's, then d - 2's.
        let cur = &self.bufs[d % 3][lo + 1..hi + 1];
        let prev = &self.bufs[(d + 2) % 3];
        let prev2 = &self.bufs[(d + 1) % 3];
        let (up, left, diag) = (&prev[lo..hi], &prev[lo + 1..hi + 1], &prev2[lo..hi]);
        let [plane0, plane1] = &mut self.planes;
        segment_bits::<V, R, 0>(cur, up, left, diag, &mut plane0[start..end]);
        if R::PLANES > 1 {
            segment_bits::<V, R, 1>(cur, up, left, diag, &mut plane1[start..end]);
        }
    }

    fn value(&self, d: usize, i: usize) -> u32 {
        self.bufs[d % 3][i + 1].to_u32()
    }

    fn step(&self, i: usize, j: usize) -> Move {
        let d = i + j;
        let rows = self.schedule.rank_rows(d, self.rank);
        debug_assert!(
            rows.contains(&i),
            "({i},{j}) is not owned by rank {}",
            self.rank
        );
        let t = i - rows.start;
        let word = self.word_start[d - self.first] + t / 64;
        let bit = |plane: &Vec<u64>| plane.get(word).is_some_and(|w| (w >> (t % 64)) & 1 == 1);
        R::step([bit(&self.planes[0]), bit(&self.planes[1])])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::diagonal::store::tests::{check_against_reference, fill_in_process, walk};
    use lcs_core::recurrence::{Edit, Lcs};

    #[test]
    fn dense_store_matches_reference_with_u16_values() {
        check_against_reference(Problem::Lcs, DenseStore::<u16, Lcs>::new);
        check_against_reference(Problem::Edit, DenseStore::<u16, Edit>::new);
    }

    #[test]
    fn dense_store_matches_reference_with_u32_values() {
        check_against_reference(Problem::Lcs, DenseStore::<u32, Lcs>::new);
        check_against_reference(Problem::Edit, DenseStore::<u32, Edit>::new);
    }

    /// The kernels of `R` against a plain loop, on values near the `u16` limit.
    fn kernels_agree<R: Recurrence>() {
        // Lengths around the 64-bit word and SIMD widths.
        for len in [0usize, 1, 15, 16, 17, 63, 64, 65, 130, 1000] {
            let gen = |seed: usize| -> Vec<u16> {
                (0..len)
                    .map(|t| (65_000 + (t * 7 + seed * 13) % 500) as u16)
                    .collect()
            };
            let (up, left, diag, cur) = (gen(1), gen(2), gen(3), gen(4));
            let xs: Vec<u8> = (0..len).map(|t| b"ACGT"[t * 5 % 4]).collect();
            let ys: Vec<u8> = (0..len).map(|t| b"ACGT"[t * 3 % 4]).collect();
            let mut out = vec![0u16; len];
            segment_values::<u16, R>(&mut out, &up, &left, &diag, &xs, &ys);
            let mut words = [vec![0u64; len.div_ceil(64)], vec![0u64; len.div_ceil(64)]];
            segment_bits::<u16, R, 0>(&cur, &up, &left, &diag, &mut words[0]);
            segment_bits::<u16, R, 1>(&cur, &up, &left, &diag, &mut words[1]);
            for t in 0..len {
                let matched = xs[t] == ys[t];
                let want = match R::PROBLEM {
                    Problem::Lcs if matched => diag[t] + 1,
                    Problem::Lcs => up[t].max(left[t]),
                    Problem::Edit if matched => diag[t],
                    Problem::Edit => 1 + up[t].min(left[t]).min(diag[t]),
                };
                assert_eq!(out[t], want, "{} len {len} t {t}", R::PROBLEM);
                let bits = R::bits(cur[t], up[t], left[t], diag[t]);
                for (p, plane) in words.iter().enumerate() {
                    assert_eq!((plane[t / 64] >> (t % 64)) & 1 == 1, bits[p]);
                }
            }
        }
    }

    #[test]
    fn sixteen_bits_serve_a_distance_whose_diagonals_outnumber_them() {
        // 4 x 65,534: every distance fits in 16 bits, but the last diagonals' numbers do not.
        let (m, n) = (4, u16::MAX as usize - 1);
        assert!(narrow(Problem::Edit, &Schedule::new(m, n, 1)) && m + n > u16::MAX as usize + 1);
        let x = b"acgt".to_vec();
        let y: Vec<u8> = b"tgca".iter().copied().cycle().take(n).collect();
        let expected = lcs_core::reference::align(Problem::Edit, &x, &y);
        for p in [1, 2] {
            let s = Schedule::new(m, n, p);
            let seqs = Seqs::new(&x, &y);
            let stores = fill_in_process(&s, &seqs, |k| DenseStore::<u16, Edit>::new(&s, k));
            let got = walk(&s, &seqs, &stores);
            assert_eq!(got, expected, "P={p}");
        }
    }

    #[test]
    fn kernels_agree_with_a_plain_loop() {
        kernels_agree::<Lcs>();
        kernels_agree::<Edit>();
    }

    #[test]
    fn the_busiest_bound_covers_every_rank() {
        for problem in [Problem::Lcs, Problem::Edit] {
            for (m, n) in [(1, 1), (5, 8), (40, 90), (300, 1000)] {
                for p in [1, 2, 3, 7, 16, 80] {
                    let s = Schedule::new(m, n, p);
                    let bound = busiest_bytes(problem, &s);
                    for k in 0..p {
                        assert!(
                            estimate_bytes(problem, &s, k) <= bound,
                            "{m}x{n} P={p} k={k}"
                        );
                    }
                }
            }
        }
    }

    fn allocated<V: Value, R: Recurrence>(s: &Schedule, k: usize) -> u64 {
        let st = DenseStore::<V, R>::new(s, k);
        let words = st.planes[0].len() + st.planes[1].len() + st.word_start.len();
        (words * 8 + 3 * st.bufs[0].len() * std::mem::size_of::<V>()) as u64
    }

    #[test]
    fn estimate_matches_allocation() {
        for (m, n) in [(300, 1000), (70_000, 70_001)] {
            let s = Schedule::new(m, n, 3);
            for k in 0..3 {
                let lcs = if narrow(Problem::Lcs, &s) {
                    allocated::<u16, Lcs>(&s, k)
                } else {
                    allocated::<u32, Lcs>(&s, k)
                };
                assert_eq!(estimate_bytes(Problem::Lcs, &s, k), lcs);
                let edit = if narrow(Problem::Edit, &s) {
                    allocated::<u16, Edit>(&s, k)
                } else {
                    allocated::<u32, Edit>(&s, k)
                };
                assert_eq!(estimate_bytes(Problem::Edit, &s, k), edit);
            }
        }
    }
}
