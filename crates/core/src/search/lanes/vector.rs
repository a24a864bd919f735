//! A lane of the search's vectors (a pattern of up to its bits, one bit per byte), and what
//! one compilation of a kernel does with a vector of lanes: what the lanes kernels share
//! ([`Base`]) and what the search's adds ([`Vector`]); the portable compilation over plain
//! arrays here, the x86 ones in `x86`.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

/// One lane of a vector: a pattern of up to [`Lane::BITS`] bytes, one bit per byte.
pub trait Lane:
    Copy
    + Default
    + Eq
    + Ord
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Send
    + Sync
    + 'static
{
    const BITS: u32;
    const ZERO: Self;
    const ONE: Self;
    const MAX: Self;
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    /// `v` in the lane (`v` fits: a length or a distance up to the lane's bits, or 0).
    fn of(v: usize) -> Self;
    fn get(self) -> usize;
}

macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const MAX: $t = <$t>::MAX;
            #[inline(always)]
            fn wrapping_add(self, other: $t) -> $t {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: $t) -> $t {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn of(v: usize) -> $t {
                debug_assert!(v <= <$t>::MAX as usize);
                v as $t
            }
            #[inline(always)]
            fn get(self) -> usize {
                self as usize
            }
        }
    };
}

lane!(u8);
lane!(u16);
lane!(u32);
lane!(u64);

/// What every compilation of a lanes kernel does with a vector of `L` lanes of `T` (the
/// search's and the pairs'): loads and stores, the bitwise and the lane-wise arithmetic both
/// need. Each kernel's own vector extends it ([`Vector`], `crate::pairs::vector::Vector`).
pub trait Base<T: Lane, const L: usize>: Copy {
    fn load(lanes: &[T; L]) -> Self;
    fn store(self) -> [T; L];
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// Lane-wise wrapping addition and subtraction.
    fn add(self, other: Self) -> Self;
    fn sub(self, other: Self) -> Self;
    /// `(a ^ b) | c`.
    fn xor_or(a: Self, b: Self, c: Self) -> Self;
    /// `a | !(b | c)`.
    fn or_nor(a: Self, b: Self, c: Self) -> Self;
}

/// What one compilation of the search kernel does with a vector of `L` lanes of `T`, beyond
/// [`Base`].
pub trait Vector<T: Lane, const L: usize>: Base<T, L> {
    /// All ones in the lanes whose top bit is set, zero in the others.
    fn sign(self) -> Self;
    /// Lane-wise unsigned minimum (of values below 2^16 in 64-bit lanes).
    fn min(self, other: Self) -> Self;
    /// The lanes of `self` at most the same lane of `other`, as a mask of their bytes: lane
    /// `l` sets bits `l * size..(l + 1) * size` (`size` the lane's bytes), as a byte movemask
    /// does.
    fn at_most(self, other: Self) -> u32;
}

/// The portable compilation: plain arrays, lane by lane (the compiler vectorizes what the
/// baseline instruction set allows).
impl<T: Lane, const L: usize> Base<T, L> for [T; L] {
    #[inline(always)]
    fn load(lanes: &[T; L]) -> [T; L] {
        *lanes
    }
    #[inline(always)]
    fn store(self) -> [T; L] {
        self
    }
    #[inline(always)]
    fn and(self, o: [T; L]) -> [T; L] {
        std::array::from_fn(|l| self[l] & o[l])
    }
    #[inline(always)]
    fn or(self, o: [T; L]) -> [T; L] {
        std::array::from_fn(|l| self[l] | o[l])
    }
    #[inline(always)]
    fn add(self, o: [T; L]) -> [T; L] {
        std::array::from_fn(|l| self[l].wrapping_add(o[l]))
    }
    #[inline(always)]
    fn sub(self, o: [T; L]) -> [T; L] {
        std::array::from_fn(|l| self[l].wrapping_sub(o[l]))
    }
    #[inline(always)]
    fn xor_or(a: [T; L], b: [T; L], c: [T; L]) -> [T; L] {
        std::array::from_fn(|l| (a[l] ^ b[l]) | c[l])
    }
    #[inline(always)]
    fn or_nor(a: [T; L], b: [T; L], c: [T; L]) -> [T; L] {
        std::array::from_fn(|l| a[l] | !(b[l] | c[l]))
    }
}

impl<T: Lane, const L: usize> Vector<T, L> for [T; L] {
    #[inline(always)]
    fn sign(self) -> [T; L] {
        std::array::from_fn(|l| T::ZERO.wrapping_sub(self[l] >> (T::BITS - 1)))
    }
    #[inline(always)]
    fn min(self, o: [T; L]) -> [T; L] {
        std::array::from_fn(|l| self[l].min(o[l]))
    }
    #[inline(always)]
    fn at_most(self, o: [T; L]) -> u32 {
        let size = std::mem::size_of::<T>();
        let lane = (1u64 << size) as u32 - 1;
        (0..L)
            .filter(|&l| self[l] <= o[l])
            .fold(0, |mask, l| mask | lane << (l * size))
    }
}
