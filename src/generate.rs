//! Seeded random inputs, for the committed benchmark inputs, the tests and the self-test.
//!
//! The stream is ChaCha8 seeded from a `u64` (`rand_chacha`; ChaCha's output is fixed by its
//! specification), and each byte is a uniform pick from the alphabet by [`Random::below`], a
//! rejection sampler spelled out here rather than borrowed from `rand`, whose sampling
//! algorithms change between releases. So a `(len, len2, alphabet, seed)` tuple names one file
//! byte for byte, for good: the files in `inputs/` can be regenerated and checked instead of
//! trusted.
//!
//! Files are written in the plain format that [`crate::input`] reads, and never one that
//! reading would misunderstand: an alphabet with a line break is refused by the options, and a
//! pair whose first line would begin with `>` (read as FASTA) is refused here.

use std::path::Path;

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::Error;
use crate::input::{Format, Pair};

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

    /// Two sequences of lengths `a` and `b` from `alphabet`, oriented as the DP matrix wants
    /// them (the shorter as rows).
    pub fn pair(&mut self, a: usize, b: usize, alphabet: &[u8]) -> Pair {
        let first = self.bytes(a, alphabet);
        let second = self.bytes(b, alphabet);
        Pair::from_file_order(first, second, Format::Plain)
    }
}

/// Two sequences of lengths `len` and `len2`, both drawn from one generator seeded with `seed`
/// (first all of X, then all of Y), so the pair depends on nothing but the arguments.
pub fn generate_pair(len: usize, len2: usize, alphabet: &[u8], seed: u64) -> (Vec<u8>, Vec<u8>) {
    let mut rng = Random::new(seed);
    let x = rng.bytes(len, alphabet);
    let y = rng.bytes(len2, alphabet);
    (x, y)
}

/// The plain-format file of `x` and `y`: `X\nY\n`.
pub fn plain_file(x: &[u8], y: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(x.len() + y.len() + 2);
    for s in [x, y] {
        bytes.extend_from_slice(s);
        bytes.push(b'\n');
    }
    bytes
}

/// Writes `x` and `y` in the plain format to `path`, atomically. Refused when the file would
/// not read back as the same pair.
pub fn write_pair(path: &Path, x: &[u8], y: &[u8]) -> Result<(), Error> {
    let bytes = plain_file(x, y);
    match crate::input::parse(&bytes, crate::input::FormatChoice::Auto) {
        Ok((a, b, Format::Plain)) if a == x && b == y => {}
        _ => {
            return Err(Error::Usage(format!(
                "this pair would not read back as written (its first line begins with '>', \
                 which reads as FASTA); choose another --seed or an --alphabet without '>' \
                 (nothing written to '{}')",
                path.display()
            )))
        }
    }
    crate::export::write_atomic(path, &bytes)
}

/// The pairs the self-test and the store tests check: a fixed list of edge shapes, then
/// random pairs of lengths `0..=max_len` over alphabets of 2, 4 and 26 letters and of all
/// 256 bytes.
pub fn test_pairs(seed: u64, random: usize, max_len: usize) -> Vec<Pair> {
    let edges: [(&[u8], &[u8]); 9] = [
        (b"ACG", b"TTACGGATCA"),
        (b"G", b"ACGTTGCA"),
        (b"A", b"A"),
        (b"A", b"C"),
        (b"GATTACAGATTACA", b"GATTACAGATTACA"),
        (b"AAAAAAA", b"CCCCCCCCCC"),
        (b"", b"ACGT"),
        (b"", b""),
        (&[0xff, 0x00, 0xfe, 0x41], &[0x00, 0xff, 0xfe, 0x41, 0x41]),
    ];
    let all_bytes: Vec<u8> = (0..=255).collect();
    let alphabets: [&[u8]; 4] = [b"AB", b"ACGT", b"abcdefghijklmnopqrstuvwxyz", &all_bytes];
    let mut rng = Random::new(seed);
    let mut pairs: Vec<Pair> = edges
        .iter()
        .map(|(x, y)| Pair::from_file_order(x.to_vec(), y.to_vec(), Format::Plain))
        .collect();
    for case in 0..random {
        let (a, b) = (rng.below(max_len + 1), rng.below(max_len + 1));
        pairs.push(rng.pair(a, b, alphabets[case % alphabets.len()]));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_uniform_and_in_range() {
        let mut rng = Random::new(1);
        let mut counts = [0usize; 5];
        for _ in 0..50_000 {
            counts[rng.below(5)] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
        assert_eq!(Random::new(9).below(1), 0);
    }

    #[test]
    fn same_seed_same_pair() {
        let a = generate_pair(100, 120, b"ACGT", 42);
        let b = generate_pair(100, 120, b"ACGT", 42);
        assert_eq!(a, b);
        assert_ne!(a, generate_pair(100, 120, b"ACGT", 43));
        assert!(a.0.iter().chain(&a.1).all(|c| b"ACGT".contains(c)));
    }

    /// The committed inputs are what the generator makes of the lengths and seeds in
    /// `scripts/make-inputs.sh`, byte for byte.
    #[test]
    fn committed_inputs_are_reproduced() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let script = std::fs::read_to_string(root.join("scripts/make-inputs.sh")).unwrap();
        let table: Vec<(String, usize, usize, u64)> = script
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                match f.as_slice() {
                    [name, len, len2, seed] if name.ends_with(".txt") => Some((
                        name.to_string(),
                        len.parse().ok()?,
                        len2.parse().ok()?,
                        seed.parse().ok()?,
                    )),
                    _ => None,
                }
            })
            .collect();
        assert_eq!(table.len(), 6, "{script}");
        // huge.txt is made on demand, not committed.
        for (name, len, len2, seed) in table.into_iter().filter(|t| t.0 != "huge.txt") {
            let (x, y) = generate_pair(len, len2, b"ACGT", seed);
            let committed = std::fs::read(root.join("inputs").join(&name)).unwrap();
            assert!(plain_file(&x, &y) == committed, "{name} differs");
        }
    }

    #[test]
    fn a_pair_that_would_read_as_fasta_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        assert!(write_pair(&path, b">A", b"AA").is_err());
        assert!(write_pair(&path, b"", b">A").is_err());
        assert!(!path.exists());
        write_pair(&path, b"A>", b">").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"A>\n>\n");
    }

    #[test]
    fn test_pairs_cover_the_edges_and_every_alphabet() {
        let pairs = test_pairs(5, 40, 50);
        assert_eq!(pairs.len(), 49);
        assert!(pairs.iter().any(|p| p.x.is_empty() && p.y.is_empty()));
        assert!(pairs.iter().any(|p| p.swapped));
        assert!(pairs
            .iter()
            .all(|p| p.x.len() <= p.y.len() && p.y.len() <= 50));
        assert!(pairs.iter().any(|p| p.y.iter().any(|&b| b >= 0x80)));
    }
}
