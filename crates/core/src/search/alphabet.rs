//! When a pattern byte matches a text byte. `exact`: when they are equal. `iupac`: also when
//! both are nucleotide codes of IUPAC whose bases meet, in either case, as sassy's IUPAC
//! profile and the read mappers read them: `N` matches every base and every code, `R` (A or G)
//! matches `A`, `G`, `R`, `N`, `S`, `K`, `M`, …, `U` is `T`. Any other byte matches itself
//! only.
//!
//! The relation is not an equivalence (`R` matches `A` and `G`, which do not match each other),
//! so the kernels take it as a table: each pattern byte's set of text bytes
//! ([`Alphabet::matching`]), built once per pattern. Cost: 256 look-ups a pattern byte.

/// How pattern bytes match text bytes (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Alphabet {
    /// A byte matches itself only.
    #[default]
    Exact,
    /// Nucleotide codes match when their bases meet (`N` matches every base).
    Iupac,
}

/// The bases each byte stands for (A 1, C 2, G 4, T 8), 0 for a byte that is no IUPAC code.
const BASES: [u8; 256] = {
    let mut t = [0u8; 256];
    let codes: [(u8, u8); 16] = [
        (b'A', 1),
        (b'C', 2),
        (b'G', 4),
        (b'T', 8),
        (b'U', 8),
        (b'R', 1 | 4),
        (b'Y', 2 | 8),
        (b'S', 2 | 4),
        (b'W', 1 | 8),
        (b'K', 4 | 8),
        (b'M', 1 | 2),
        (b'B', 2 | 4 | 8),
        (b'D', 1 | 4 | 8),
        (b'H', 1 | 2 | 8),
        (b'V', 1 | 2 | 4),
        (b'N', 1 | 2 | 4 | 8),
    ];
    let mut i = 0;
    while i < codes.len() {
        let (code, bases) = codes[i];
        t[code as usize] = bases;
        t[code.to_ascii_lowercase() as usize] = bases;
        i += 1;
    }
    t
};

impl Alphabet {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Alphabet::Exact => "exact",
            Alphabet::Iupac => "iupac",
        }
    }

    /// Whether pattern byte `p` matches text byte `t`.
    #[inline]
    pub fn matches(self, p: u8, t: u8) -> bool {
        p == t || (self == Alphabet::Iupac && BASES[usize::from(p)] & BASES[usize::from(t)] != 0)
    }

    /// The text bytes pattern byte `p` matches, in increasing order.
    pub fn matching(self, p: u8) -> Vec<u8> {
        match self {
            Alphabet::Exact => vec![p],
            Alphabet::Iupac => (0..=255u8).filter(|&t| self.matches(p, t)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_when_their_bases_meet() {
        let iupac = Alphabet::Iupac;
        for (p, t, want) in [
            (b'A', b'A', true),
            (b'A', b'a', true),
            (b'A', b'C', false),
            (b'N', b'G', true),
            (b'G', b'N', true),
            (b'R', b'A', true),
            (b'R', b'G', true),
            (b'R', b'C', false),
            (b'R', b'Y', false),
            (b'R', b'S', true),
            (b'U', b'T', true),
            (b'B', b'A', false),
            (b'-', b'-', true),
            (b'-', b'N', false),
            (b'x', b'X', false),
        ] {
            assert_eq!(iupac.matches(p, t), want, "{} {}", p as char, t as char);
            assert_eq!(iupac.matches(t, p), want, "symmetric");
        }
        assert!(!Alphabet::Exact.matches(b'N', b'A'));
        assert!(!Alphabet::Exact.matches(b'A', b'a'));
        assert_eq!(Alphabet::Exact.matching(b'Q'), vec![b'Q']);
        // N: the 15 codes and U, in both cases.
        assert_eq!(iupac.matching(b'N').len(), 32);
        assert_eq!(iupac.matching(b'A'), b"ADHMNRVWadhmnrvw".to_vec());
    }
}
