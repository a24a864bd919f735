//! The step of [`super::front`] compiled for AVX2, eight diagonals at a time: the recurrence
//! in eight lanes, then the first four bytes of every diagonal's slide from two gathers (the
//! diagonals of one step lie far apart along the sequences, so a scalar loop spends most of its
//! instructions reaching them), and only the diagonals whose four bytes all match followed on
//! one by one. Same values as the portable step (the tests compare them). Cost per eight
//! diagonals: three loads, two gathers and about twenty vector operations, plus a call of the
//! compare kernel per diagonal that slides four bytes or more.

use std::arch::x86_64::*;

use crate::problem::Problem;

use super::compare::prefix_avx2;
use super::front::{Prev, PAD};
use super::seqs::Seqs;

/// The step over `out` (diagonals from `first`), from `prev`; returns the bytes slid.
///
/// # Safety
/// The CPU has AVX2 and BMI1.
#[target_feature(enable = "avx2,bmi1")]
pub unsafe fn step_avx2(
    problem: Problem,
    prev: Prev<'_>,
    first: i64,
    out: &mut [i32],
    seqs: &Seqs,
) -> u64 {
    let (x, y) = (seqs.x(), seqs.y());
    let (xp, yp) = seqs.padded();
    let (m, n) = (x.len() as i32, y.len() as i32);
    let len = out.len();
    let (stride, base, taps) = match problem {
        Problem::Edit => (1i32, (first - 1 - prev.first + PAD as i64) as usize, 3),
        Problem::Lcs => (
            2i32,
            ((first - 1 - prev.first) / 2 + PAD as i64) as usize,
            2,
        ),
    };
    let p = &prev.values[base..base + len + taps - 1];
    let nf = (y.len() as i64 - first) as i32;
    let k0 = first as i32;
    let mut slid = 0u64;
    let whole = len - len % 8;
    // SAFETY: every load reads 8 values at most `taps - 1` after `q` of `p` (whose length is
    // `len + taps - 1`, and `q + 8 <= len`), every store writes `out[q..q + 8]`, and every
    // gather reads four bytes at an offset of at most `m` in `xp` and `n` in `yp`, which have
    // `SLACK` more.
    unsafe {
        let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let one = _mm256_set1_epi32(1);
        let zero = _mm256_setzero_si256();
        let (vm, vn) = (_mm256_set1_epi32(m), _mm256_set1_epi32(n));
        let masks = [
            _mm256_set1_epi32(0xff),
            _mm256_set1_epi32(0xffff),
            _mm256_set1_epi32(0xff_ffff),
        ];
        let mut total = zero;
        let mut q = 0;
        while q < whole {
            let at = p.as_ptr().add(q);
            let load = |d: usize| _mm256_loadu_si256(at.add(d).cast::<__m256i>());
            let v = match problem {
                Problem::Edit => _mm256_max_epi32(
                    load(0),
                    _mm256_add_epi32(_mm256_max_epi32(load(1), load(2)), one),
                ),
                Problem::Lcs => _mm256_max_epi32(load(0), _mm256_add_epi32(load(1), one)),
            };
            // The diagonals' offsets from `first`, in strides.
            let steps = _mm256_mullo_epi32(
                _mm256_add_epi32(_mm256_set1_epi32(q as i32), lanes),
                _mm256_set1_epi32(stride),
            );
            let limit = _mm256_min_epi32(vm, _mm256_sub_epi32(_mm256_set1_epi32(nf), steps));
            let v = _mm256_min_epi32(v, limit);
            let valid = _mm256_cmpgt_epi32(v, _mm256_set1_epi32(-1));
            let i = _mm256_max_epi32(v, zero);
            let j = _mm256_max_epi32(
                _mm256_add_epi32(i, _mm256_add_epi32(_mm256_set1_epi32(k0), steps)),
                zero,
            );
            let gx = _mm256_i32gather_epi32::<1>(xp.as_ptr().cast::<i32>(), i);
            let gy = _mm256_i32gather_epi32::<1>(yp.as_ptr().cast::<i32>(), j);
            let d = _mm256_xor_si256(gx, gy);
            // Equal leading bytes, 0 to 4: each all-ones compare counts -1.
            let mut run = _mm256_cmpeq_epi32(d, zero);
            for mask in masks {
                run = _mm256_add_epi32(run, _mm256_cmpeq_epi32(_mm256_and_si256(d, mask), zero));
            }
            let run = _mm256_sub_epi32(zero, run);
            let room = _mm256_min_epi32(_mm256_sub_epi32(vm, i), _mm256_sub_epi32(vn, j));
            let run = _mm256_and_si256(_mm256_min_epi32(run, room), valid);
            _mm256_storeu_si256(
                out.as_mut_ptr().add(q).cast::<__m256i>(),
                _mm256_add_epi32(v, run),
            );
            total = _mm256_add_epi32(total, run);
            let mut longer = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(
                run,
                _mm256_set1_epi32(4),
            ))) as u32;
            while longer != 0 {
                let l = longer.trailing_zeros() as usize;
                longer &= longer - 1;
                let i = out[q + l] as usize;
                let j = (i as i64 + first + i64::from(stride) * (q + l) as i64) as usize;
                let more = prefix_avx2(&x[i..], &y[j..]);
                out[q + l] += more as i32;
                slid += more as u64;
            }
            q += 8;
        }
        let mut lanes_total = [0i32; 8];
        _mm256_storeu_si256(lanes_total.as_mut_ptr().cast::<__m256i>(), total);
        slid += lanes_total.iter().map(|&t| t as u64).sum::<u64>();
    }
    if whole < len {
        let tail_first = first + i64::from(stride) * whole as i64;
        slid += super::front::step_words(problem, prev, tail_first, &mut out[whole..], (x, y));
    }
    slid
}
