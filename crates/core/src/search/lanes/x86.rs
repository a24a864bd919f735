//! The AVX2 and AVX-512 compilations of the lanes kernels (the search's and the pairs'): one
//! 256-bit register per vector ([`Avx2`], [`Avx512`]). AVX-512 (with VL and BW, on 256-bit
//! registers) does each three-input operation in one ternary-logic instruction, which shortens
//! the search step's chain from about eleven instructions to seven. What both kernels do
//! ([`Base`]) is written here once for every lane width; the search's own operations
//! ([`Vector`]) follow, the pairs' are in `crate::pairs::vector::x86`. These functions are
//! only ever inlined into the kernels' `#[target_feature]` bodies, which are called only once
//! the CPU is known to have the features.

use super::vector::{Base, Lane, Vector};
use std::arch::x86_64::*;
use std::marker::PhantomData;

/// A vector for AVX2.
#[derive(Clone, Copy)]
pub struct Avx2<T>(pub(crate) __m256i, pub(crate) PhantomData<T>);

/// A vector for AVX-512 VL and BW.
#[derive(Clone, Copy)]
pub struct Avx512<T>(pub(crate) __m256i, pub(crate) PhantomData<T>);

/// `(a ^ b) | c` and `a | !(b | c)` as ternary-logic tables (a = 0xF0, b = 0xCC, c = 0xAA).
const XOR_OR: i32 = 0xBE;
const OR_NOR: i32 = 0xF1;

/// [`Base`] for the vector `$v` of lanes `$t`, `$l` of them, with the lanes' addition and
/// subtraction; `$ternary` where AVX-512's ternary logic is there.
macro_rules! base {
    ($v:ident, $t:ty, $l:literal, $add:ident, $sub:ident, $ternary:literal) => {
        impl Base<$t, $l> for $v<$t> {
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
        }
    };
}

/// The search's [`Vector`] for `$v` of lanes `$t`: the lanes' minimum, equality and sign.
macro_rules! vector {
    ($v:ident, $t:ty, $l:literal, $min:ident, $eq:ident, |$s:ident| $sign:expr) => {
        impl Vector<$t, $l> for $v<$t> {
            #[inline(always)]
            fn sign(self) -> Self {
                let $s = self.0;
                // SAFETY: see the module doc (here and below).
                $v(unsafe { $sign }, PhantomData)
            }
            #[inline(always)]
            fn min(self, o: Self) -> Self {
                $v(unsafe { $min(self.0, o.0) }, PhantomData)
            }
            #[inline(always)]
            fn at_most(self, o: Self) -> u32 {
                unsafe {
                    let low = $min(self.0, o.0);
                    _mm256_movemask_epi8($eq(low, self.0)) as u32
                }
            }
        }
    };
}

macro_rules! widths {
    ($v:ident, $ternary:literal) => {
        base!($v, u8, 32, _mm256_add_epi8, _mm256_sub_epi8, $ternary);
        base!($v, u16, 16, _mm256_add_epi16, _mm256_sub_epi16, $ternary);
        base!($v, u32, 8, _mm256_add_epi32, _mm256_sub_epi32, $ternary);
        base!($v, u64, 4, _mm256_add_epi64, _mm256_sub_epi64, $ternary);
        vector!($v, u8, 32, _mm256_min_epu8, _mm256_cmpeq_epi8, |x| {
            _mm256_cmpgt_epi8(_mm256_setzero_si256(), x)
        });
        vector!($v, u16, 16, _mm256_min_epu16, _mm256_cmpeq_epi16, |x| {
            _mm256_srai_epi16::<15>(x)
        });
        vector!($v, u32, 8, _mm256_min_epu32, _mm256_cmpeq_epi32, |x| {
            _mm256_srai_epi32::<31>(x)
        });
        // Scores and lowest scores stay below 2^16 (at most 64, or NEVER), so the 32-bit
        // minimum is the 64-bit one: the high halves are zero on both sides.
        vector!($v, u64, 4, _mm256_min_epu32, _mm256_cmpeq_epi64, |x| {
            _mm256_cmpgt_epi64(_mm256_setzero_si256(), x)
        });
    };
}

widths!(Avx2, false);
widths!(Avx512, true);
