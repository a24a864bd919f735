//! What one compilation of the pairs kernels does with a vector of lanes (the lane types and
//! what every lanes kernel does, [`Base`], are the search's): the portable compilation over
//! plain arrays here, the AVX2 and AVX-512 ones in `x86`. The search kernel's vector
//! ([`crate::search::lanes::Vector`]) has the step of a free start row only; these kernels
//! also carry bits from one word of a lane to the next (a sequence longer than a word), move a
//! window down each step (the band) and count with saturation.

pub use crate::search::lanes::{Base, Lane};

/// What one compilation of the pairs kernels does with a vector of `L` lanes of `T`, beyond
/// what every lanes kernel does ([`Base`]).
pub trait Vector<T: Lane, const L: usize>: Base<T, L> {
    fn splat(value: T) -> Self {
        Self::load(&[value; L])
    }
    /// Lane-wise addition that stops at the lane's largest value (8- and 16-bit lanes; wider
    /// lanes never reach it here and wrap).
    fn add_saturating(self, other: Self) -> Self;
    /// Each lane's top bit moved to bit 0, the others clear: 0 or 1 per lane.
    fn top(self) -> Self;
    /// Each lane shifted down by one bit, a zero in at the top.
    fn shr1(self) -> Self;
    /// The lanes of `self` greater than the same lane of `other` (unsigned; in 64-bit lanes,
    /// values below 2^63), as a mask of their bytes: lane `l` sets bits
    /// `l * size..(l + 1) * size`, as a byte movemask does.
    fn above(self, other: Self) -> u32;
    /// `a | (b & !c)`.
    fn or_andnot(a: Self, b: Self, c: Self) -> Self;
}

/// The mask [`Vector::above`] gives when every lane is above.
pub fn every_lane<T, const L: usize>() -> u32 {
    let bits = L * std::mem::size_of::<T>();
    (((1u64) << bits) - 1) as u32
}

/// The portable compilation: plain arrays, lane by lane (the compiler vectorizes what the
/// baseline instruction set allows; [`Base`]'s part is the search's).
impl<T: Lane, const L: usize> Vector<T, L> for [T; L] {
    #[inline(always)]
    fn add_saturating(self, o: [T; L]) -> [T; L] {
        std::array::from_fn(|l| {
            let sum = self[l].wrapping_add(o[l]);
            if T::BITS <= 16 && sum < self[l] {
                T::MAX
            } else {
                sum
            }
        })
    }
    #[inline(always)]
    fn top(self) -> [T; L] {
        std::array::from_fn(|l| self[l] >> (T::BITS - 1))
    }
    #[inline(always)]
    fn shr1(self) -> [T; L] {
        std::array::from_fn(|l| self[l] >> 1)
    }
    #[inline(always)]
    fn above(self, o: [T; L]) -> u32 {
        let size = std::mem::size_of::<T>();
        let lane = ((1u64 << size) - 1) as u32;
        (0..L)
            .filter(|&l| self[l] > o[l])
            .fold(0, |mask, l| mask | lane << (l * size))
    }
    #[inline(always)]
    fn or_andnot(a: [T; L], b: [T; L], c: [T; L]) -> [T; L] {
        std::array::from_fn(|l| a[l] | (b[l] & !c[l]))
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;
