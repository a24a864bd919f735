//! The LCS word step in AVX2, four rows at once, for the wavefront of
//! [`crate::bitpar::four_rows`]: the scalar step with the addition's carry kept as the word whose
//! bit 63 it is (`u | (old & !sum)`, see [`super`]), since AVX2 has no add with carry; nine
//! operations, the "go up" bits one more.

#![deny(unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::*;

use crate::bitpar::four_rows::{self, Out, Step};

/// The AVX2 kernel.
pub(super) struct Avx2;

impl Step<1> for Avx2 {
    type Carry = bool;

    fn carry_words(carry: bool) -> [u64; 1] {
        [u64::from(carry) << 63]
    }

    fn carry_of([word]: [u64; 1]) -> bool {
        word >> 63 == 1
    }

    // The carry is kept as it is.
    const COMPLEMENTED: u8 = 0;

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

/// [`four_rows::step4`] in AVX2.
///
/// # Safety
///
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn step4<const TRACED: bool>(
    v: &mut [u64],
    pm: [&[u64]; 4],
    carry_in: [bool; 4],
    up: [&mut [u64]; 4],
) -> [bool; 4] {
    // SAFETY: the caller promised AVX2.
    unsafe { four_rows::step4::<Avx2, 1, TRACED>([v], pm, carry_in, [up]) }
}

/// [`four_rows::step4_logged`] in AVX2.
///
/// # Safety
///
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn step4_logged(
    v: &mut [u64],
    pm: [&[u64]; 4],
    carry_in: [bool; 4],
    log: four_rows::Logged<'_>,
) -> [bool; 4] {
    // SAFETY: the caller promised AVX2.
    unsafe { four_rows::step4_logged::<Avx2, 1>([v], pm, carry_in, log) }
}
