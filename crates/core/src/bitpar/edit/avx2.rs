//! The edit-distance word step in AVX2, four rows at once, for the wavefront of
//! [`crate::bitpar::four_rows`]: the `-1` bit of `hin` added as the sum's carry, the `+1` side kept
//! complemented so that each or-not is one and-not; 18 operations, the traceback bits five more
//! (`docs/algorithms.md#the-four-row-vector-wavefront`).

#![deny(unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::*;

use crate::bitpar::four_rows::{self, Out, Step};
use crate::recurrence::Edit;

/// The AVX2 kernel.
pub struct Avx2;

/// `(a << 1) | (before >> 63)`: a word moved up one bit, bit 0 from the word before.
#[inline]
#[target_feature(enable = "avx2")]
fn up_one(a: __m256i, before: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi64::<1>(a), _mm256_srli_epi64::<63>(before))
}

impl Step<2> for Avx2 {
    type Row = Edit;

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn word4<const TRACED: bool>(
        [pv, mv]: [__m256i; 2],
        eq: __m256i,
        [c_nph, c_mh]: &mut [__m256i; 2],
    ) -> Out<2> {
        let xv = _mm256_or_si256(eq, mv);
        // Xh = (((Eq & Pv) + Pv + [hin = -1]) ^ Pv) | Eq; the carry out of the sum is Mh[63].
        let sum = _mm256_add_epi64(_mm256_and_si256(eq, pv), pv);
        let sum = _mm256_add_epi64(sum, _mm256_srli_epi64::<63>(*c_mh));
        let xh = _mm256_or_si256(_mm256_xor_si256(sum, pv), eq);
        // !Ph = !Mv & (Xh | Pv); Mh = Pv & Xh.
        let nph = _mm256_andnot_si256(mv, _mm256_or_si256(xh, pv));
        let mh = _mm256_and_si256(pv, xh);
        // !Ph_s = (!Ph << 1) | [hin != +1]; Mh_s = (Mh << 1) | [hin = -1].
        let nph_s = up_one(nph, *c_nph);
        let mh_s = up_one(mh, *c_mh);
        (*c_nph, *c_mh) = (nph, mh);
        // Mv' = Ph_s & Xv; Pv' = Mh_s | (!Xv & !Ph_s).
        let mv_new = _mm256_andnot_si256(nph_s, xv);
        let pv_new = _mm256_or_si256(mh_s, _mm256_andnot_si256(xv, nph_s));
        let (up, sub) = if TRACED {
            let ones = _mm256_set1_epi64x(-1);
            // sub = (Pv' ^ Ph_s) & !(Mv' | Mh_s) = !((Pv' ^ !Ph_s) | Mv' | Mh_s).
            let any = _mm256_or_si256(_mm256_xor_si256(pv_new, nph_s), mv_new);
            let sub = _mm256_xor_si256(_mm256_or_si256(any, mh_s), ones);
            (_mm256_xor_si256(nph, ones), sub)
        } else {
            (pv_new, mv_new)
        };
        Out {
            state: [pv_new, mv_new],
            bits: [sub, up],
        }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn down(o: __m256i, w: u64) -> __m256i {
        four_rows::down_avx2(o, w)
    }
}
