//! The LCS word step in AVX-512 on 256-bit vectors (AVX-512VL), four rows at once, for the
//! wavefront of [`crate::bitpar::four_rows`]: the AVX2 step ([`super::avx2`]) with `vpternlogq`
//! for `V` and the carries and `valignq` to pass the state down a lane; six operations, the "go
//! up" bits one more.

#![deny(unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::*;

use crate::bitpar::four_rows::{self, Out, Step};
use crate::recurrence::Lcs;

/// The AVX-512 kernel.
pub struct Avx512;

/// Truth tables of `vpternlogq`'s three inputs: an expression in them is the immediate of
/// the same function of the inputs.
const A: i32 = 0xf0;
const B: i32 = 0xcc;
const C: i32 = 0xaa;

impl Step<1> for Avx512 {
    type Row = Lcs;

    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    unsafe fn word4<const TRACED: bool>(
        [old]: [__m256i; 1],
        p: __m256i,
        [carry]: &mut [__m256i; 1],
    ) -> Out<1> {
        let u = _mm256_and_si256(old, p);
        let sum = _mm256_add_epi64(_mm256_add_epi64(old, u), _mm256_srli_epi64::<63>(*carry));
        // V = sum | (old & !p); the carries out of every bit: u | (old & !sum).
        let v = _mm256_ternarylogic_epi64::<{ A | (B & !C & 0xff) }>(sum, old, p);
        *carry = _mm256_ternarylogic_epi64::<{ A | (B & !C & 0xff) }>(u, old, sum);
        let up = if TRACED {
            _mm256_ternarylogic_epi64::<{ !(A | (B & !C)) & 0xff }>(u, old, sum)
        } else {
            v
        };
        Out {
            state: [v],
            bits: [up],
        }
    }

    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    unsafe fn down(o: __m256i, w: u64) -> __m256i {
        four_rows::down_avx512(o, w)
    }
}
