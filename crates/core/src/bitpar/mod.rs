//! The bit-parallel row steps over a run of whole 64-bit words, and the match masks they read:
//! shared by the sequential reference (one run spanning every column) and the bands engine (one
//! run per band, the runs of a row chained by what crosses a word edge).
//!
//! Rows are the bytes of `x`, processed in order; columns are the bytes of `y`, column `j` bit
//! `j % 64` of word `j / 64`. A row is a few bit vectors over the columns and row `i` is computed
//! from row `i - 1` and the match mask of `x[i]` (bit `j` set iff `y[j] == x[i]`, [`Masks`])
//! with word-wide operations; within a row, information flows only towards higher columns, and
//! between two words only through a small carry. A run of whole words (a band) therefore needs
//! from the words to its left one carry per row and gives one to the words to its right: that
//! carry is all that crosses a band edge.
//!
//! - [`lcs`] — the LCS row (`M[i][j]`, LCS length of `x[..=i]` and `y[..=j]`): one bit per
//!   column, the carry one bit (the addition's carry, 0 at column 0). Its functions are
//!   re-exported here: [`step`], [`step_traced`], [`step4`], [`step4_traced`], [`lcs_length`].
//! - [`edit`] — the edit-distance row (`D(i, j)`, Levenshtein distance of `x[..=i]` and
//!   `y[..=j]`; Myers 1999 in Hyyrö's block form): two bits per column (the +1 and -1
//!   horizontal deltas), the carry a vertical delta in {-1, 0, +1}, two bits, +1 at column 0
//!   ([`edit::Delta`]).
//!
//! Both come in the same four variants: one row (`step`), the same writing the bits the
//! traceback asks (`step_traced`), and four consecutive rows per call (`step4`,
//! `step4_traced`; [`FUSED_ROWS`]), stepped together over the words so that their carry chains
//! overlap; and both give the length or distance alone in `O(n / 64)` memory ([`lcs_length`],
//! [`edit::distance`]). The four-row steps have several kernels ([`Kernel`]): portable code,
//! and on x86-64, chosen at run time, the four rows as the lanes of one AVX2 or AVX-512 vector
//! in a wavefront (`four_rows`), two to four times faster.
//!
//! Padding bits (columns `>= n` in the last word) have match bit 0: they behave as columns of a
//! `y` extended with bytes that match nothing, and never affect a real column.

use crate::problem::Problem;

pub mod edit;
#[cfg(target_arch = "x86_64")]
mod four_rows;
pub mod lcs;

pub use lcs::{lcs_length, step, step4, step4_traced, step4_traced_with, step4_with, step_traced};

/// Columns per word.
pub const WORD_BITS: usize = u64::BITS as usize;

/// Bytes per word.
pub const WORD_BYTES: u64 = (u64::BITS / 8) as u64;

/// Rows the fused steps ([`step4`], [`edit::step4`]) advance in one call.
pub const FUSED_ROWS: usize = 4;

/// Which implementation of the fused steps (four rows per call) runs: the portable one, compiled
/// everywhere, or one that needs CPU features and is chosen at run time where the CPU has them
/// (the memchr model). Every kernel gives the same bits; [`Kernel::detected`] is what
/// [`step4`], [`edit::step4`] and their traced siblings use, and the `_with` functions take
/// one explicitly so that the tests and the micro-benchmark run each on the same inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Plain 64-bit words: for the LCS four rows per pass, for the edit distance two passes of
    /// two rows.
    Portable,
    /// The four rows as the four 64-bit lanes of a 256-bit vector, in a wavefront (`four_rows`),
    /// each word step in AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// The same wavefront with AVX-512's three-input logic, funnel shift and lane alignment on
    /// 256-bit vectors (AVX-512F, VL and VBMI2): fewer instructions per step.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// The narrowest row the vector kernels take for `problem` (see [`Kernel::for_words`]).
/// `cargo bench --bench kernel -- narrow`, four rows fused, ns per word, portable against
/// AVX-512: LCS 1.12 / 5.43 at 3 words, 0.98 / 1.89 at 16, 0.69 / 0.88 at 32, 0.67 / 0.58 at
/// 48; edit 3.29 / 7.67 at 3 words, 2.88 / 3.25 at 12, 1.93 / 1.40 at 16.
pub const fn wave_min_words(problem: Problem) -> usize {
    match problem {
        Problem::Lcs => 48,
        Problem::Edit => 16,
    }
}

impl Kernel {
    /// The fastest kernel this CPU runs. The feature tests are a load and a bit test each after
    /// the first call (the standard library caches what `cpuid` said).
    #[inline]
    pub fn detected() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        for kernel in [Kernel::Avx512, Kernel::Avx2] {
            if kernel.is_available() {
                return kernel;
            }
        }
        Kernel::Portable
    }

    /// The kernel for four rows of `words` words of `problem`: [`Kernel::detected`], or the
    /// portable one for a row narrower than [`wave_min_words`], where the wavefront's three
    /// extra steps and its lanes' loads cost more than four plain carry chains side by side (a
    /// narrow diagonal band's windows).
    #[inline]
    pub fn for_words(problem: Problem, words: usize) -> Kernel {
        match words < wave_min_words(problem) {
            true => Kernel::Portable,
            false => Kernel::detected(),
        }
    }

    /// Whether this CPU can run the kernel.
    #[inline]
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512vbmi2")
            }
        }
    }

    /// Every kernel this CPU can run, the portable one first.
    pub fn available() -> Vec<Kernel> {
        let all = [
            Kernel::Portable,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512,
        ];
        all.into_iter().filter(|k| k.is_available()).collect()
    }

    /// A short lower-case name, for the benchmark's lines.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => "avx512",
        }
    }
}

/// Marks a byte of the 256-entry slot table that does not occur in `x`.
const ABSENT: u32 = u32::MAX;

/// Match masks over one band's columns, for the bytes that occur in `x` only: a 256-entry
/// table would cost 32 bytes per column and could dwarf everything else when `x` is short.
pub struct Masks {
    /// Row `slot[b]` of `words` is the mask of byte `b`; `width` words per row.
    slot: [u32; 256],
    words: Vec<u64>,
    width: usize,
}

/// Number of distinct bytes in `x`: how many mask rows a band keeps.
pub fn distinct_bytes(x: &[u8]) -> usize {
    let mut seen = [false; 256];
    for &b in x {
        seen[usize::from(b)] = true;
    }
    seen.iter().filter(|&&s| s).count()
}

impl Masks {
    /// Masks of the bytes of `x` over `band`, the band's columns of `y` (column `t` of the band
    /// is bit `t % 64` of word `t / 64`); one word per 64 columns, padding bits 0.
    pub fn new(x: &[u8], band: &[u8]) -> Masks {
        let width = band.len().div_ceil(WORD_BITS);
        let mut slot = [ABSENT; 256];
        let mut distinct = 0u32;
        for &b in x {
            if slot[usize::from(b)] == ABSENT {
                slot[usize::from(b)] = distinct;
                distinct += 1;
            }
        }
        let mut words = vec![0u64; distinct as usize * width];
        for (t, &b) in band.iter().enumerate() {
            let s = slot[usize::from(b)];
            if s != ABSENT {
                words[s as usize * width + t / WORD_BITS] |= 1 << (t % WORD_BITS);
            }
        }
        Masks { slot, words, width }
    }

    /// Bytes [`Masks::new`] allocates for `x` over a band of `width` words.
    pub fn estimate_bytes(x: &[u8], width: usize) -> u64 {
        distinct_bytes(x) as u64 * width as u64 * 8
    }

    /// Bytes held (the mask words).
    pub fn bytes(&self) -> u64 {
        self.words.capacity() as u64 * 8
    }

    /// Words per mask.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The mask of `byte`, which must occur in `x`.
    #[inline]
    pub fn of(&self, byte: u8) -> &[u64] {
        let s = self.slot[usize::from(byte)];
        debug_assert!(s != ABSENT, "byte {byte:#04x} does not occur in x");
        let start = s as usize * self.width;
        &self.words[start..start + self.width]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_rows_go_to_the_portable_kernel() {
        for problem in [Problem::Lcs, Problem::Edit] {
            let least = wave_min_words(problem);
            assert_eq!(Kernel::for_words(problem, least - 1), Kernel::Portable);
            assert_eq!(Kernel::for_words(problem, least), Kernel::detected());
        }
    }

    #[test]
    fn masks_cover_only_the_bytes_of_x() {
        let masks = Masks::new(b"ba", b"abcab");
        assert_eq!(masks.width(), 1);
        assert_eq!(masks.bytes(), 2 * 8);
        assert_eq!(masks.of(b'a'), [0b01001]);
        assert_eq!(masks.of(b'b'), [0b10010]);
        assert_eq!(Masks::estimate_bytes(b"ba", 1), masks.bytes());
        let all: Vec<u8> = (0..=255).collect();
        let wide: Vec<u8> = (0..130).map(|t| (t * 37 % 256) as u8).collect();
        let masks = Masks::new(&all, &wide);
        assert_eq!(masks.width(), 3);
        assert_eq!(masks.bytes(), Masks::estimate_bytes(&all, 3));
        for (t, &b) in wide.iter().enumerate() {
            assert_eq!((masks.of(b)[t / 64] >> (t % 64)) & 1, 1);
        }
        assert_eq!(distinct_bytes(b""), 0);
        assert_eq!(distinct_bytes(b"aabbc"), 3);
        assert_eq!(Masks::new(b"", b"abc").bytes(), 0);
    }
}
