//! Seeded random choices: the same stream for the same seed, on every machine and release.
//!
//! ChaCha8 seeded from a `u64` (`rand_chacha`; ChaCha's output is fixed by its specification),
//! with the sampling spelled out here ([`Random::below`]) rather than borrowed from `rand`,
//! whose sampling algorithms change between releases. So a seed names a sequence for good:
//! generated inputs can be regenerated and checked instead of trusted.
//!
//! ```
//! use lcs_core::random::Random;
//! let a = Random::new(7).bytes(16, b"ACGT");
//! assert_eq!(a, Random::new(7).bytes(16, b"ACGT"));
//! assert!(a.iter().all(|b| b"ACGT".contains(b)));
//! ```

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded stream of random choices.
pub struct Random(ChaCha8Rng);

impl Random {
    pub fn new(seed: u64) -> Random {
        Random(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform integer in `0..n` (`n >= 1`): the high half of a 64 x 64-bit product,
    /// rejecting the few draws whose low half would bias it (the choices `rand` 0.8 made, so
    /// the committed inputs keep their bytes).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "cannot choose from nothing");
        let range = n as u64;
        let zone = (range << range.leading_zeros()).wrapping_sub(1);
        loop {
            let wide = u128::from(self.0.next_u64()) * u128::from(range);
            let (hi, lo) = ((wide >> 64) as u64, wide as u64);
            if lo <= zone {
                return hi as usize;
            }
        }
    }

    /// 64 random bits.
    pub fn word(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// `words` words of every kind a match mask has: random, sparse, empty, and all ones
    /// (which carry across words in the bit-parallel steps).
    pub fn masks(&mut self, words: usize) -> Vec<u64> {
        (0..words)
            .map(|_| match self.below(4) {
                0 => self.word(),
                1 => self.word() & self.word(),
                2 => 0,
                _ => u64::MAX,
            })
            .collect()
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.word() & 1 == 1
    }

    /// `len` bytes drawn uniformly and independently from `alphabet`. A byte listed twice is
    /// twice as likely.
    pub fn bytes(&mut self, len: usize, alphabet: &[u8]) -> Vec<u8> {
        assert!(
            len == 0 || !alphabet.is_empty(),
            "cannot draw a sequence from an empty alphabet"
        );
        (0..len)
            .map(|_| alphabet[self.below(alphabet.len())])
            .collect()
    }
}

/// The seed of the mutation stream of `seed`.
const EDIT_SEED: u64 = 0x6d75_7461_7465_2121;

/// A mutated copy of the `len` bytes that `Random::new(seed)` draws from `alphabet`: each
/// byte, with probability `rate`, is substituted (by another byte of the alphabet, where it
/// has another), deleted or preceded by an inserted byte, the three alike likely. The copy's
/// source is drawn again from its own stream and the mutations come from a second stream
/// seeded from `seed`, so the copy is made byte by byte in constant memory and names one
/// sequence for good. Its length is random: between 0 and twice `len`.
pub struct MutatedCopy<'a> {
    copy: Random,
    edits: Random,
    alphabet: &'a [u8],
    /// `rate` in parts of 2^32.
    threshold: u64,
    len: u64,
    /// Bytes of the source copied so far.
    at: u64,
    /// A byte made but not yet given out (the copied byte after an insertion).
    pending: Option<u8>,
}

impl<'a> MutatedCopy<'a> {
    pub fn new(len: usize, rate: f64, alphabet: &'a [u8], seed: u64) -> MutatedCopy<'a> {
        assert!(
            len == 0 || !alphabet.is_empty(),
            "cannot draw from an empty alphabet"
        );
        assert!((0.0..=1.0).contains(&rate), "a rate is a probability");
        MutatedCopy {
            copy: Random::new(seed),
            edits: Random::new(seed ^ EDIT_SEED),
            alphabet,
            threshold: (rate * 4_294_967_296.0).round() as u64,
            len: len as u64,
            at: 0,
            pending: None,
        }
    }
}

impl Iterator for MutatedCopy<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if let Some(b) = self.pending.take() {
            return Some(b);
        }
        loop {
            if self.at == self.len {
                return None;
            }
            self.at += 1;
            let b = self.alphabet[self.copy.below(self.alphabet.len())];
            if self.edits.word() >> 32 >= self.threshold {
                return Some(b);
            }
            match self.edits.below(3) {
                0 => {
                    let other = self.alphabet.iter().any(|&a| a != b);
                    let mut c = b;
                    while other && c == b {
                        c = self.alphabet[self.edits.below(self.alphabet.len())];
                    }
                    return Some(c);
                }
                1 => continue,
                _ => {
                    self.pending = Some(b);
                    return Some(self.alphabet[self.edits.below(self.alphabet.len())]);
                }
            }
        }
    }
}

/// `len` random bytes of `alphabet` from `seed` and their [`MutatedCopy`] at `rate`: a pair of
/// similar sequences.
pub fn mutated_pair(len: usize, rate: f64, alphabet: &[u8], seed: u64) -> (Vec<u8>, Vec<u8>) {
    let x = Random::new(seed).bytes(len, alphabet);
    let y = MutatedCopy::new(len, rate, alphabet, seed).collect();
    (x, y)
}
