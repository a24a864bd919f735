//! One score step of the diagonal-transition recurrence: which diagonals a step reaches
//! ([`Reach`]), and the step itself over a run of them ([`super::kernel::step`]).
//!
//! Cells are counted by prefix lengths: `(I, J)` is the cell after `I` bytes of `x` (the rows)
//! and `J` of `y`, on diagonal `k = J - I`, `-m <= k <= n`. `F[t][k]` is the furthest row
//! reached on diagonal `k` at cost `t`: the largest `I` with `D(I, I + k) <= t`. Costs never
//! fall along a diagonal, so `D(I, I + k) <= t` exactly when `I <= F[t][k]`.
//!
//! - Edit distance: `F[t][k] = slide(min(max(F[t-1][k] + 1, F[t-1][k+1] + 1, F[t-1][k-1]),
//!   limit(k)))` (a substitution, a byte of `x` alone, a byte of `y` alone), `limit(k) =
//!   min(m, n - k)` the diagonal's last row;
//! - LCS, as the indel distance (no substitution): only diagonals of the step's parity exist,
//!   `F[t][k] = slide(min(max(F[t-1][k+1] + 1, F[t-1][k-1]), limit(k)))`, and the LCS is
//!   `(m + n - s) / 2` for the final cost `s`;
//!
//! where `slide` follows the matches from the row reached ([`super::compare`]). The walk is
//! over when `F[s][n - m] = m`. Clipping at `limit(k)` is exact: a candidate past the matrix's
//! edge only ever comes from a neighbour at that edge, whose cell is within one edit of the
//! clipped one.
//!
//! [`Reach`] keeps only what can matter: a step reaches `|k| <= t`, and when the final cost is
//! known to be at most `bound`, only the diagonals with `t + |k - (n - m)| <= bound` (a path
//! through them costs at least that). Nothing outside can influence a cell inside, so the
//! values kept are exact; with a bound near the cost the work is about half the full
//! wavefronts'.
//!
//! Cost of a step over `w` diagonals: a vectorised pass of three loads, two maxima and a
//! minimum per diagonal, then a pass that compares eight bytes where a diagonal's next bytes
//! match (a quarter of random DNA's diagonals), calling the kernel for longer runs.

use crate::problem::Problem;

use super::compare::prefix_words;

/// The value of a diagonal a step does not reach: far below every row, so that `+1` keeps it
/// there and every maximum ignores it.
pub const NONE: i32 = i32::MIN / 2;

/// Longest sequence the wave engine takes: rows and columns fit an `i32` with room to spare.
pub const MAX_LEN: usize = (i32::MAX / 2) as usize;

/// Which diagonals each step of an `m x n` matrix (`m <= n`) reaches, for `problem`, when the
/// final cost is at most `bound`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    pub problem: Problem,
    pub m: usize,
    pub n: usize,
    pub bound: usize,
}

impl Reach {
    /// The steps of `problem` on an `m x n` matrix, bounded by `bound` (at most the trivial
    /// bound: every cost is at most `n` for the edit distance, `m + n` for the indel
    /// distance).
    pub fn new(problem: Problem, m: usize, n: usize, bound: usize) -> Reach {
        debug_assert!(m <= n && n <= MAX_LEN);
        Reach {
            problem,
            m,
            n,
            bound: bound.min(trivial_bound(problem, m, n)),
        }
    }

    /// Diagonals between two of a step: 1, or 2 for the LCS (only one parity per step).
    pub fn stride(&self) -> i64 {
        match self.problem {
            Problem::Edit => 1,
            Problem::Lcs => 2,
        }
    }

    /// The diagonal of the last cell, `(m, n)`.
    pub fn end(&self) -> i64 {
        (self.n - self.m) as i64
    }

    /// The first and last diagonal step `t` reaches, or `None` past the bound.
    pub fn range(&self, t: usize) -> Option<(i64, i64)> {
        let left = self.bound.checked_sub(t)? as i64;
        let (t, m, n, d) = (t as i64, self.m as i64, self.n as i64, self.end());
        let mut lo = (-t).max(-m).max(d - left);
        let mut hi = t.min(n).min(d + left);
        if self.problem == Problem::Lcs {
            lo += (lo - t).rem_euclid(2);
            hi -= (hi - t).rem_euclid(2);
        }
        (lo <= hi).then_some((lo, hi))
    }

    /// Diagonals step `t` reaches.
    pub fn count(&self, t: usize) -> usize {
        self.range(t)
            .map_or(0, |(lo, hi)| ((hi - lo) / self.stride()) as usize + 1)
    }

    /// Diagonals of every step up to `steps`, inclusive.
    pub fn total(&self, steps: usize) -> u64 {
        (0..=steps).map(|t| self.count(t) as u64).sum()
    }
}

/// The largest cost a pair can have: `n` for the edit distance (`m` substitutions and
/// `n - m` insertions), `m + n` for the indel distance.
pub fn trivial_bound(problem: Problem, m: usize, n: usize) -> usize {
    match problem {
        Problem::Edit => n.max(m),
        Problem::Lcs => m + n,
    }
}

/// The step before step 0, as step 0 reads it: its one value gives `F[0][0] = 0` before the
/// slide (edit: `F[-1][0] + 1`; LCS: `F[-1][1] + 1`).
pub fn seed(problem: Problem) -> (i64, Vec<i32>) {
    let mut values = vec![NONE; 2 * PAD + 1];
    values[PAD] = -1;
    let first = match problem {
        Problem::Edit => 0,
        Problem::Lcs => 1,
    };
    (first, values)
}

/// What a step did: diagonals computed, and bytes slid along matches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    pub diagonals: u64,
    pub slid: u64,
}

impl Work {
    pub fn add(&mut self, other: Work) {
        self.diagonals += other.diagonals;
        self.slid += other.slid;
    }

    /// Cells the steps touched: one per diagonal computed, one per byte slid.
    pub fn cells(&self) -> u64 {
        self.diagonals + self.slid
    }
}

/// [`NONE`]s on each side of a run of values: a step reaches at most one diagonal beyond the
/// last on either side, whose neighbour beyond is two diagonals out.
pub const PAD: usize = 2;

/// Step `t - 1`'s values over a run of its diagonals, as the next step reads them: `values`
/// holds [`PAD`] [`NONE`]s, one value per diagonal from `first` (every `stride`), and [`PAD`]
/// [`NONE`]s.
#[derive(Debug, Clone, Copy)]
pub struct Prev<'a> {
    pub first: i64,
    pub values: &'a [i32],
}

impl Prev<'_> {
    /// The value of diagonal `k` (of the run's parity), [`NONE`] outside the run.
    pub fn get(&self, k: i64, stride: i64) -> i32 {
        let at = (k - self.first).div_euclid(stride) + PAD as i64;
        match usize::try_from(at) {
            Ok(at) if (k - self.first) % stride == 0 && at < self.values.len() => self.values[at],
            _ => NONE,
        }
    }
}

/// The step ([`super::kernel::step`]) in plain code, one diagonal at a time; returns the
/// bytes slid.
pub fn step_words(
    problem: Problem,
    prev: Prev<'_>,
    first: i64,
    out: &mut [i32],
    xy: (&[u8], &[u8]),
) -> u64 {
    body(problem, prev, first, out, xy)
}

/// The step: the recurrence over `out`, then the slides. Returns the bytes slid.
#[inline(always)]
fn body(
    problem: Problem,
    prev: Prev<'_>,
    first: i64,
    out: &mut [i32],
    (x, y): (&[u8], &[u8]),
) -> u64 {
    let m = x.len() as i32;
    let nf = (y.len() as i64 - first) as i32;
    let stride = match problem {
        Problem::Edit => {
            // Padded index of diagonal first - 1.
            let base = (first - 1 - prev.first + PAD as i64) as usize;
            let p = &prev.values[base..base + out.len() + 2];
            for (q, ((o, w), &c)) in out.iter_mut().zip(p.windows(2)).zip(&p[2..]).enumerate() {
                let v = w[0].max(w[1] + 1).max(c + 1);
                *o = v.min((nf - q as i32).min(m));
            }
            1
        }
        Problem::Lcs => {
            let base = ((first - 1 - prev.first) / 2 + PAD as i64) as usize;
            let p = &prev.values[base..base + out.len() + 1];
            for (q, (o, w)) in out.iter_mut().zip(p.windows(2)).enumerate() {
                let v = w[0].max(w[1] + 1);
                *o = v.min((nf - 2 * q as i32).min(m));
            }
            2
        }
    };
    slide(out, (first, stride), (x, y))
}

/// Diagonals ahead whose bytes [`slide`] asks the cache for: a step's diagonals lie far apart
/// along the sequences (each lags its neighbour by a run of matches), so each reads two lines
/// that are rarely cached; asking early overlaps those reads.
const AHEAD: usize = 32;

/// Slides every value of `out` (diagonals `first` every `stride`) along its matches; returns
/// the bytes slid.
#[inline(always)]
fn slide(out: &mut [i32], (first, stride): (i64, i64), (x, y): (&[u8], &[u8])) -> u64 {
    let (m, n) = (x.len(), y.len());
    let mut slid = 0u64;
    if m < 8 || n < 8 {
        for (q, o) in out.iter_mut().enumerate() {
            if *o >= 0 {
                let (i, j) = (
                    *o as usize,
                    (i64::from(*o) + first + stride * q as i64) as usize,
                );
                let run = prefix_words(&x[i..], &y[j..]);
                *o += run as i32;
                slid += run as u64;
            }
        }
        return slid;
    }
    // The last places where a word can be read whole.
    let (last_i, last_j) = ((m - 8) as u64, (n - 8) as u64);
    for q in 0..out.len() {
        if let Some(&ahead) = out.get(q + AHEAD) {
            let at = i64::from(ahead);
            prefetch(x, at);
            prefetch(y, at + first + stride * (q + AHEAD) as i64);
        }
        let i = i64::from(out[q]);
        let j = i + first + stride * q as i64;
        // Negative values (diagonals not reached) wrap far past the ends.
        let run = if i as u64 <= last_i && j as u64 <= last_j {
            let (i, j) = (i as usize, j as usize);
            // SAFETY: eight bytes from `i` in `x` and from `j` in `y` (checked above).
            let (a, b) = unsafe {
                (
                    x.as_ptr().add(i).cast::<u64>().read_unaligned(),
                    y.as_ptr().add(j).cast::<u64>().read_unaligned(),
                )
            };
            match u64::from_le(a) ^ u64::from_le(b) {
                0 => 8 + prefix_words(&x[i + 8..], &y[j + 8..]),
                diff => (diff.trailing_zeros() / 8) as usize,
            }
        } else if i >= 0 {
            prefix_words(&x[i as usize..], &y[j as usize..])
        } else {
            0
        };
        out[q] += run as i32;
        slid += run as u64;
    }
    slid
}

/// Asks the cache for the line holding byte `at` of `s` (a hint: any `at` is harmless).
#[inline(always)]
fn prefetch(s: &[u8], at: i64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and faults on no address; the pointer is never
    // dereferenced.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(s.as_ptr().wrapping_offset(at as isize).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, at);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_reaches_its_diagonals_within_the_bound_and_the_matrix() {
        let r = Reach::new(Problem::Edit, 5, 8, 100);
        assert_eq!(r.bound, 8, "never above the trivial bound");
        assert_eq!(r.range(0), Some((0, 0)));
        // t + |k - 3| <= 8.
        assert_eq!(r.range(3), Some((-2, 3)));
        assert_eq!(r.range(6), Some((1, 5)));
        assert_eq!(r.range(9), None);
        // Unbounded on a square matrix, the edges clip: |k| <= t, -3 <= k <= 3.
        let r = Reach::new(Problem::Edit, 3, 3, usize::MAX);
        assert_eq!(r.range(1), Some((-1, 1)));
        assert_eq!(r.range(2), Some((-1, 1)), "t + |k| <= 3");
        // Bounded: t + |k - 3| <= 4.
        let r = Reach::new(Problem::Edit, 5, 8, 4);
        assert_eq!(r.range(0), Some((0, 0)));
        assert_eq!(r.range(2), Some((1, 2)));
        assert_eq!(r.range(4), Some((3, 3)));
        assert_eq!(r.count(1), 2);
        assert_eq!(r.total(4), 1 + 2 + 2 + 2 + 1);
        // The LCS keeps the step's parity.
        let r = Reach::new(Problem::Lcs, 5, 8, 13);
        assert_eq!(r.range(3), Some((-3, 3)));
        assert_eq!(r.count(3), 4);
        assert_eq!(r.range(4), Some((-4, 4)));
        let r = Reach::new(Problem::Lcs, 5, 8, 5);
        assert_eq!(r.range(2), Some((0, 2)), "t + |k - 3| <= 5, even");
        assert_eq!(r.range(5), Some((3, 3)));
        assert_eq!(trivial_bound(Problem::Lcs, 5, 8), 13);
    }

    #[test]
    fn prev_reads_its_run_and_none_around_it() {
        let values = [NONE, NONE, 4, 7, 9, NONE, NONE];
        let p = Prev {
            first: -1,
            values: &values,
        };
        assert_eq!(p.get(0, 1), 7);
        assert_eq!(p.get(-2, 1), NONE);
        assert_eq!(p.get(2, 1), NONE);
        let p = Prev {
            first: -2,
            values: &values,
        };
        assert_eq!(p.get(2, 2), 9);
        assert_eq!(p.get(1, 2), NONE, "the other parity");
    }
}
