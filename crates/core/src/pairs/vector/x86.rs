//! The AVX2 and AVX-512 compilations of the pairs kernels: the lanes kernels' shared vectors
//! (`crate::search::lanes::x86`: [`Avx2`], [`Avx512`], one 256-bit register each, with what
//! every lanes kernel does) and here what the pairs add: the saturating count, the top bit,
//! the shift by one and the unsigned comparison. AVX-512 (with VL and BW, on 256-bit
//! registers) does each three-input operation in one ternary-logic instruction and has a
//! 64-bit arithmetic shift. These functions are only ever inlined into the kernels'
//! `#[target_feature]` bodies, which are called only once the CPU is known to have the
//! features.

use super::Vector;
use std::arch::x86_64::*;
use std::marker::PhantomData;

pub use crate::search::lanes::x86::{Avx2, Avx512};

/// `a | (b & !c)` as a ternary-logic table (a = 0xF0, b = 0xCC, c = 0xAA).
const OR_ANDNOT: i32 = 0xF4;

/// The pairs' [`Vector`] for `$v` of lanes `$t`, `$l` of them; `$ternary` where AVX-512's
/// ternary logic is there.
macro_rules! vector {
    ($v:ident, $t:ty, $l:literal, $ternary:literal, adds $adds:ident,
     |$x:ident| top $top:expr, shr1 $shr1:expr,
     |$a:ident, $b:ident| above $above:expr) => {
        impl Vector<$t, $l> for $v<$t> {
            #[inline(always)]
            fn add_saturating(self, o: Self) -> Self {
                // SAFETY: see the module doc (here and below).
                $v(unsafe { $adds(self.0, o.0) }, PhantomData)
            }
            #[inline(always)]
            fn top(self) -> Self {
                let $x = self.0;
                $v(unsafe { $top }, PhantomData)
            }
            #[inline(always)]
            fn shr1(self) -> Self {
                let $x = self.0;
                $v(unsafe { $shr1 }, PhantomData)
            }
            #[inline(always)]
            fn above(self, o: Self) -> u32 {
                let ($a, $b) = (self.0, o.0);
                unsafe { _mm256_movemask_epi8($above) as u32 }
            }
            #[inline(always)]
            fn or_andnot(a: Self, b: Self, c: Self) -> Self {
                if $ternary {
                    // SAFETY: AVX-512 VL (the module doc).
                    $v(
                        unsafe { _mm256_ternarylogic_epi32::<OR_ANDNOT>(a.0, b.0, c.0) },
                        PhantomData,
                    )
                } else {
                    $v(
                        unsafe { _mm256_or_si256(a.0, _mm256_andnot_si256(c.0, b.0)) },
                        PhantomData,
                    )
                }
            }
        }
    };
}

/// Lanes above others, unsigned: `max(a, b) != b`, as all-ones lanes.
macro_rules! above_unsigned {
    ($max:ident, $eq:ident, $a:ident, $b:ident) => {
        _mm256_xor_si256($eq($max($a, $b), $b), _mm256_set1_epi32(-1))
    };
}

macro_rules! widths {
    ($v:ident, $ternary:literal) => {
        vector!(
            $v, u8, 32, $ternary, adds _mm256_adds_epu8,
            |x| top _mm256_and_si256(_mm256_srli_epi16::<7>(x), _mm256_set1_epi8(1)),
            shr1 _mm256_and_si256(_mm256_srli_epi16::<1>(x), _mm256_set1_epi8(0x7f)),
            |a, b| above above_unsigned!(_mm256_max_epu8, _mm256_cmpeq_epi8, a, b)
        );
        vector!(
            $v, u16, 16, $ternary, adds _mm256_adds_epu16,
            |x| top _mm256_srli_epi16::<15>(x), shr1 _mm256_srli_epi16::<1>(x),
            |a, b| above above_unsigned!(_mm256_max_epu16, _mm256_cmpeq_epi16, a, b)
        );
        vector!(
            $v, u32, 8, $ternary, adds _mm256_add_epi32,
            |x| top _mm256_srli_epi32::<31>(x), shr1 _mm256_srli_epi32::<1>(x),
            |a, b| above above_unsigned!(_mm256_max_epu32, _mm256_cmpeq_epi32, a, b)
        );
        // 64-bit lanes compare signed: their values stay below 2^63.
        vector!(
            $v, u64, 4, $ternary, adds _mm256_add_epi64,
            |x| top _mm256_srli_epi64::<63>(x), shr1 _mm256_srli_epi64::<1>(x),
            |a, b| above _mm256_cmpgt_epi64(a, b)
        );
    };
}

widths!(Avx2, false);
widths!(Avx512, true);
