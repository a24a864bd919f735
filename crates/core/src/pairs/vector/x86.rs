//! The AVX2 and AVX-512 compilations of the pairs kernels: one 256-bit register per vector.
//! AVX-512 (with VL and BW, on 256-bit registers) does each three-input operation in one
//! ternary-logic instruction and has a 64-bit arithmetic shift. These functions are only ever
//! inlined into the kernels' `#[target_feature]` bodies, which are called only once the CPU is
//! known to have the features.

use super::{Lane, Vector};
use std::arch::x86_64::*;
use std::marker::PhantomData;

/// A vector for AVX2.
#[derive(Clone, Copy)]
pub struct Avx2<T>(__m256i, PhantomData<T>);

/// A vector for AVX-512 VL and BW.
#[derive(Clone, Copy)]
pub struct Avx512<T>(__m256i, PhantomData<T>);

/// `(a ^ b) | c`, `a | !(b | c)` and `a | (b & !c)` as ternary-logic tables (a = 0xF0,
/// b = 0xCC, c = 0xAA).
const XOR_OR: i32 = 0xBE;
const OR_NOR: i32 = 0xF1;
const OR_ANDNOT: i32 = 0xF4;

macro_rules! vector {
    ($v:ident, $t:ty, $l:literal, $ternary:literal,
     add $add:ident, sub $sub:ident, adds $adds:ident,
     |$x:ident| top $top:expr, shr1 $shr1:expr,
     |$a:ident, $b:ident| above $above:expr) => {
        impl Vector<$t, $l> for $v<$t> {
            #[inline(always)]
            fn load(lanes: &[$t; $l]) -> Self {
                // SAFETY: 32 bytes are read from a 32-byte array; the CPU has the features
                // (see the module doc).
                $v(
                    unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) },
                    PhantomData,
                )
            }
            #[inline(always)]
            fn store(self) -> [$t; $l] {
                let mut out = [<$t as Lane>::ZERO; $l];
                // SAFETY: 32 bytes are written to a 32-byte array.
                unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) };
                out
            }
            #[inline(always)]
            fn and(self, o: Self) -> Self {
                // SAFETY: see the module doc (here and below).
                $v(unsafe { _mm256_and_si256(self.0, o.0) }, PhantomData)
            }
            #[inline(always)]
            fn or(self, o: Self) -> Self {
                $v(unsafe { _mm256_or_si256(self.0, o.0) }, PhantomData)
            }
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                $v(unsafe { $add(self.0, o.0) }, PhantomData)
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                $v(unsafe { $sub(self.0, o.0) }, PhantomData)
            }
            #[inline(always)]
            fn add_saturating(self, o: Self) -> Self {
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
            fn xor_or(a: Self, b: Self, c: Self) -> Self {
                if $ternary {
                    // SAFETY: AVX-512 VL (the module doc).
                    $v(
                        unsafe { _mm256_ternarylogic_epi32::<XOR_OR>(a.0, b.0, c.0) },
                        PhantomData,
                    )
                } else {
                    $v(
                        unsafe { _mm256_or_si256(_mm256_xor_si256(a.0, b.0), c.0) },
                        PhantomData,
                    )
                }
            }
            #[inline(always)]
            fn or_nor(a: Self, b: Self, c: Self) -> Self {
                if $ternary {
                    $v(
                        unsafe { _mm256_ternarylogic_epi32::<OR_NOR>(a.0, b.0, c.0) },
                        PhantomData,
                    )
                } else {
                    $v(
                        unsafe {
                            let ones = _mm256_set1_epi32(-1);
                            let nor = _mm256_xor_si256(_mm256_or_si256(b.0, c.0), ones);
                            _mm256_or_si256(a.0, nor)
                        },
                        PhantomData,
                    )
                }
            }
            #[inline(always)]
            fn or_andnot(a: Self, b: Self, c: Self) -> Self {
                if $ternary {
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
            $v, u8, 32, $ternary,
            add _mm256_add_epi8, sub _mm256_sub_epi8, adds _mm256_adds_epu8,
            |x| top _mm256_and_si256(_mm256_srli_epi16::<7>(x), _mm256_set1_epi8(1)),
            shr1 _mm256_and_si256(_mm256_srli_epi16::<1>(x), _mm256_set1_epi8(0x7f)),
            |a, b| above above_unsigned!(_mm256_max_epu8, _mm256_cmpeq_epi8, a, b)
        );
        vector!(
            $v, u16, 16, $ternary,
            add _mm256_add_epi16, sub _mm256_sub_epi16, adds _mm256_adds_epu16,
            |x| top _mm256_srli_epi16::<15>(x), shr1 _mm256_srli_epi16::<1>(x),
            |a, b| above above_unsigned!(_mm256_max_epu16, _mm256_cmpeq_epi16, a, b)
        );
        vector!(
            $v, u32, 8, $ternary,
            add _mm256_add_epi32, sub _mm256_sub_epi32, adds _mm256_add_epi32,
            |x| top _mm256_srli_epi32::<31>(x), shr1 _mm256_srli_epi32::<1>(x),
            |a, b| above above_unsigned!(_mm256_max_epu32, _mm256_cmpeq_epi32, a, b)
        );
        // 64-bit lanes compare signed: their values stay below 2^63.
        vector!(
            $v, u64, 4, $ternary,
            add _mm256_add_epi64, sub _mm256_sub_epi64, adds _mm256_add_epi64,
            |x| top _mm256_srli_epi64::<63>(x), shr1 _mm256_srli_epi64::<1>(x),
            |a, b| above _mm256_cmpgt_epi64(a, b)
        );
    };
}

widths!(Avx2, false);
widths!(Avx512, true);
