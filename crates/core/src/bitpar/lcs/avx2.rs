//! The LCS word step in AVX2, four rows at once, for the wavefront of
//! [`crate::bitpar::four_rows`]: the scalar step with the addition's carry kept as the word whose
//! bit 63 it is (`u | (old & !sum)`, see [`super`]), since AVX2 has no add with carry; nine
//! operations, the "go up" bits one more.

#![deny(unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::*;

use crate::bitpar::four_rows::{self, Out, Step};
use crate::recurrence::Lcs;

/// The AVX2 kernel.
pub struct Avx2;

impl Step<1> for Avx2 {
    type Row = Lcs;

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn word4<const TRACED: bool>(
        [old]: [__m256i; 1],
        p: __m256i,
        [carry]: &mut [__m256i; 1],
    ) -> Out<1> {
        let u = _mm256_and_si256(old, p);
        let sum = _mm256_add_epi64(_mm256_add_epi64(old, u), _mm256_srli_epi64::<63>(*carry));
        // V = sum | (old & !p); the carries out of every bit: u | (old & !sum).
        let v = _mm256_or_si256(sum, _mm256_andnot_si256(p, old));
        *carry = _mm256_or_si256(u, _mm256_andnot_si256(sum, old));
        let up = if TRACED {
            _mm256_xor_si256(*carry, _mm256_set1_epi64x(-1))
        } else {
            v
        };
        Out {
            state: [v],
            bits: [up],
        }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn down(o: __m256i, w: u64) -> __m256i {
        four_rows::down_avx2(o, w)
    }
}
