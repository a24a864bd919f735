//! The edit-distance word step in AVX-512 on 256-bit vectors (AVX-512VL and VBMI2), four rows at
//! once, for the wavefront of [`crate::bitpar::four_rows`]: the AVX2 step ([`super::avx2`]) with
//! `vpternlogq` (any function of three inputs), `vpshldq` (the funnel shift across words) and
//! `valignq` (the state passed down a lane); 13 operations, the traceback bits three more
//! (`docs/algorithms.md#the-four-row-vector-wavefront`).

#![deny(unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::*;

use crate::bitpar::four_rows::{self, Out, Step};
use crate::recurrence::Edit;

/// The AVX-512 kernel.
pub struct Avx512;

/// Truth tables of `vpternlogq`'s three inputs: an expression in them is the immediate of
/// the same function of the inputs.
const A: i32 = 0xf0;
const B: i32 = 0xcc;
const C: i32 = 0xaa;

impl Step<2> for Avx512 {
    type Row = Edit;

    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512vbmi2")]
    unsafe fn word4<const TRACED: bool>(
        [pv, mv]: [__m256i; 2],
        eq: __m256i,
        [c_nph, c_mh]: &mut [__m256i; 2],
    ) -> Out<2> {
        // Xh = (((Eq & Pv) + Pv + [hin = -1]) ^ Pv) | Eq; the carry out of the sum is Mh[63].
        let sum = _mm256_add_epi64(_mm256_and_si256(eq, pv), pv);
        let sum = _mm256_add_epi64(sum, _mm256_srli_epi64::<63>(*c_mh));
        let xh = _mm256_ternarylogic_epi64::<{ (A ^ B) | C }>(sum, pv, eq);
        // !Ph = !Mv & (Xh | Pv); Mh = Pv & Xh.
        let nph = _mm256_ternarylogic_epi64::<{ !A & (B | C) & 0xff }>(mv, xh, pv);
        let mh = _mm256_and_si256(pv, xh);
        // !Ph_s = (!Ph << 1) | [hin != +1]; Mh_s = (Mh << 1) | [hin = -1].
        let nph_s = _mm256_shldi_epi64::<1>(nph, *c_nph);
        let mh_s = _mm256_shldi_epi64::<1>(mh, *c_mh);
        (*c_nph, *c_mh) = (nph, mh);
        // Mv' = Ph_s & Xv; Pv' = Mh_s | (!Xv & !Ph_s).
        let xv = _mm256_or_si256(eq, mv);
        let mv_new = _mm256_andnot_si256(nph_s, xv);
        let pv_new = _mm256_ternarylogic_epi64::<{ A | (!B & C & 0xff) }>(mh_s, xv, nph_s);
        let (up, sub) = if TRACED {
            // sub = (Pv' ^ Ph_s) & !(Mv' | Mh_s) = !((Pv' ^ !Ph_s) | Mv' | Mh_s).
            let any = _mm256_ternarylogic_epi64::<{ (A ^ B) | C }>(pv_new, nph_s, mv_new);
            let sub = _mm256_ternarylogic_epi64::<{ !(A | B) & 0xff }>(any, mh_s, mh_s);
            (
                _mm256_ternarylogic_epi64::<{ !A & 0xff }>(nph, nph, nph),
                sub,
            )
        } else {
            (pv_new, mv_new)
        };
        Out {
            state: [pv_new, mv_new],
            bits: [sub, up],
        }
    }

    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512vbmi2")]
    unsafe fn down(o: __m256i, w: u64) -> __m256i {
        four_rows::down_avx512(o, w)
    }
}
