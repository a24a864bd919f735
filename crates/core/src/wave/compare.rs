//! How far two sequences agree from a point on: the slide of the diagonal-transition
//! recurrence (forwards, [`Compare::prefix`]) and the runs of matches its walk takes at once
//! (backwards, [`Compare::suffix`]).
//!
//! Two kernels, the memchr model: eight bytes at a time in plain 64-bit words (the first
//! differing byte found from the XOR of two words), compiled everywhere; and, on x86-64 where
//! the CPU has AVX2 (chosen at run time), 32 bytes at a time (a byte compare and a movemask).
//! Both give the same lengths; the tests run each on the same inputs against a byte loop.
//! Cost: one compare per 8 (32) agreeing bytes, plus one for the first difference.

/// Which kernel compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compare {
    /// Plain 64-bit words.
    Words,
    /// 32-byte AVX2 vectors.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Compare {
    /// The fastest kernel this CPU runs.
    pub fn detected() -> Compare {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Compare::Avx2;
        }
        Compare::Words
    }

    /// Every kernel this CPU runs, the portable one first.
    pub fn available() -> Vec<Compare> {
        let mut out = vec![Compare::Words];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            out.push(Compare::Avx2);
        }
        out
    }

    /// The kernel's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Compare::Words => "words",
            #[cfg(target_arch = "x86_64")]
            Compare::Avx2 => "avx2",
        }
    }

    /// The length of the longest common prefix of `a` and `b`.
    #[inline]
    pub fn prefix(self, a: &[u8], b: &[u8]) -> usize {
        match self {
            Compare::Words => prefix_words(a, b),
            // SAFETY: `Avx2` is only made where the CPU has AVX2 (`detected`, `available`).
            #[cfg(target_arch = "x86_64")]
            Compare::Avx2 => unsafe { prefix_avx2(a, b) },
        }
    }

    /// The length of the longest common suffix of `a` and `b`.
    #[inline]
    pub fn suffix(self, a: &[u8], b: &[u8]) -> usize {
        match self {
            Compare::Words => suffix_words(a, b),
            // SAFETY: as for `prefix`.
            #[cfg(target_arch = "x86_64")]
            Compare::Avx2 => unsafe { suffix_avx2(a, b) },
        }
    }
}

/// A little-endian word of `s` at `at` (which has eight bytes).
#[inline(always)]
fn word(s: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(s[at..at + 8].try_into().expect("eight bytes"))
}

/// [`Compare::prefix`] eight bytes at a time.
#[inline]
pub fn prefix_words(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= len {
        let diff = word(a, i) ^ word(b, i);
        if diff != 0 {
            return i + (diff.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < len && a[i] == b[i] {
        i += 1;
    }
    i
}

/// [`Compare::suffix`] eight bytes at a time.
#[inline]
pub fn suffix_words(a: &[u8], b: &[u8]) -> usize {
    let (la, lb) = (a.len(), b.len());
    let len = la.min(lb);
    let mut i = 0;
    while i + 8 <= len {
        let diff = word(a, la - i - 8) ^ word(b, lb - i - 8);
        if diff != 0 {
            return i + (diff.leading_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < len && a[la - 1 - i] == b[lb - 1 - i] {
        i += 1;
    }
    i
}

#[cfg(target_arch = "x86_64")]
pub use x86::{prefix_avx2, suffix_avx2};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{__m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8};

    /// A mask of the bytes where 32 bytes of `a` at `i` and of `b` at `j` differ (bit `t` for
    /// byte `t`).
    ///
    /// # Safety
    /// The CPU has AVX2, and both slices hold 32 bytes from there.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn differ(a: &[u8], i: usize, b: &[u8], j: usize) -> u32 {
        debug_assert!(i + 32 <= a.len() && j + 32 <= b.len());
        // SAFETY: in bounds (above); unaligned loads.
        unsafe {
            let va = _mm256_loadu_si256(a.as_ptr().add(i).cast::<__m256i>());
            let vb = _mm256_loadu_si256(b.as_ptr().add(j).cast::<__m256i>());
            !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(va, vb)) as u32)
        }
    }

    /// # Safety
    /// The CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn prefix_avx2(a: &[u8], b: &[u8]) -> usize {
        let len = a.len().min(b.len());
        let mut i = 0;
        while i + 32 <= len {
            // SAFETY: 32 bytes from `i` in both.
            let diff = unsafe { differ(a, i, b, i) };
            if diff != 0 {
                return i + diff.trailing_zeros() as usize;
            }
            i += 32;
        }
        i + super::prefix_words(&a[i..len], &b[i..len])
    }

    /// # Safety
    /// The CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn suffix_avx2(a: &[u8], b: &[u8]) -> usize {
        let (la, lb) = (a.len(), b.len());
        let len = la.min(lb);
        let mut i = 0;
        while i + 32 <= len {
            // SAFETY: 32 bytes ending `i` bytes before either end.
            let diff = unsafe { differ(a, la - i - 32, b, lb - i - 32) };
            if diff != 0 {
                return i + diff.leading_zeros() as usize;
            }
            i += 32;
        }
        i + super::suffix_words(&a[..la - i], &b[..lb - i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;

    fn prefix_bytes(a: &[u8], b: &[u8]) -> usize {
        a.iter().zip(b).take_while(|(x, y)| x == y).count()
    }

    fn suffix_bytes(a: &[u8], b: &[u8]) -> usize {
        a.iter()
            .rev()
            .zip(b.iter().rev())
            .take_while(|(x, y)| x == y)
            .count()
    }

    #[test]
    fn every_kernel_finds_the_first_difference_at_every_place() {
        let mut rng = Random::new(3);
        let base = rng.bytes(200, b"ACGT");
        for compare in Compare::available() {
            for len in [0usize, 1, 7, 8, 9, 31, 32, 33, 64, 100, 200] {
                for cut in 0..=len {
                    let a = &base[..len];
                    let mut b = a.to_vec();
                    if cut < len {
                        b[cut] ^= 0x20;
                    }
                    assert_eq!(compare.prefix(a, &b), prefix_bytes(a, &b), "{compare:?}");
                    assert_eq!(compare.suffix(a, &b), suffix_bytes(a, &b), "{compare:?}");
                    // Unequal lengths: the shorter bounds the run.
                    let longer = [&b[..], b"xyz"].concat();
                    assert_eq!(compare.prefix(a, &longer), prefix_bytes(a, &longer));
                    let longer = [&b"xyz"[..], &b].concat();
                    assert_eq!(compare.suffix(a, &longer), suffix_bytes(a, &longer));
                }
            }
        }
        assert_eq!(Compare::available()[0], Compare::Words);
        assert!(Compare::available().contains(&Compare::detected()));
    }
}
