//! `search --both-strands`: each pattern searched as given (strand `+`) and as its reverse
//! complement (strand `-`), for a DNA text of which the file holds one strand. The kernels, the
//! split among the ranks and the starts know nothing of it: before the plan the patterns are
//! expanded, the file's pattern `i` becoming the searched patterns `2i` (as given) and `2i + 1`
//! (its reverse complement), and the listing reads the numbers back. Matches sorted by the searched
//! number are so listed by the file's pattern, then strand, `+` first. Both strands' matches lie
//! on the text as it is: a `-` match's start and end are offsets of the forward text.
//!
//! The complement is base pairing, `A`↔`T` and `C`↔`G`, with `U` (RNA) read as `T`'s partner `A`,
//! and IUPAC's ambiguity codes to their partners (`R`↔`Y`, `K`↔`M`, `B`↔`V`, `D`↔`H`; `S`, `W`,
//! `N` their own), lower case kept lower; any other byte is its own complement, so a pattern of
//! other bytes is only reversed. Reversing the complement twice gives the pattern back, but for
//! `U`, which comes back as `T`. `docs/search.md#both-strands`.

/// The partner of the nucleotide (or IUPAC code) `b`, in its case; any other byte itself.
pub fn complement(b: u8) -> u8 {
    let upper = match b.to_ascii_uppercase() {
        b'A' => b'T',
        b'T' | b'U' => b'A',
        b'C' => b'G',
        b'G' => b'C',
        b'R' => b'Y',
        b'Y' => b'R',
        b'K' => b'M',
        b'M' => b'K',
        b'B' => b'V',
        b'V' => b'B',
        b'D' => b'H',
        b'H' => b'D',
        // S, W and N pair with themselves, as every other byte does.
        _ => return b,
    };
    match b.is_ascii_lowercase() {
        true => upper.to_ascii_lowercase(),
        false => upper,
    }
}

/// `pattern` read on the other strand: reversed, each byte complemented.
pub fn reverse_complement(pattern: &[u8]) -> Vec<u8> {
    pattern.iter().rev().map(|&b| complement(b)).collect()
}

/// The patterns searched on both strands: each pattern followed by its reverse complement.
pub fn both(patterns: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let mut both = Vec::with_capacity(2 * patterns.len());
    for pattern in patterns {
        let other = reverse_complement(&pattern);
        both.push(pattern);
        both.push(other);
    }
    both
}

/// The file's pattern and the strand (`'+'` or `'-'`) of the searched pattern `number`, of a
/// search on `strands` strands (1 or 2).
pub fn of_searched(number: usize, strands: usize) -> (usize, char) {
    match number % strands {
        0 => (number / strands, '+'),
        _ => (number / strands, '-'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_and_iupac_codes_pair_in_their_case_and_other_bytes_stay() {
        let pairs = [
            (b'A', b'T'),
            (b'C', b'G'),
            (b'R', b'Y'),
            (b'K', b'M'),
            (b'B', b'V'),
            (b'D', b'H'),
        ];
        for (x, y) in pairs {
            assert_eq!(complement(x), y);
            assert_eq!(complement(y), x);
            let (lx, ly) = (x.to_ascii_lowercase(), y.to_ascii_lowercase());
            assert_eq!(complement(lx), ly);
            assert_eq!(complement(ly), lx);
        }
        for own in *b"SWNswn" {
            assert_eq!(complement(own), own);
        }
        assert_eq!(complement(b'U'), b'A');
        assert_eq!(complement(b'u'), b'a');
        for other in *b"-.*XxEe0 \t>\xff\x00" {
            assert_eq!(complement(other), other, "{other}");
        }
        assert_eq!(reverse_complement(b"GATTACA"), b"TGTAATC");
        assert_eq!(reverse_complement(b"acgRYkmBVdhSWN-x"), b"x-NWSdhBVkmRYcgt");
        assert_eq!(reverse_complement(b"ACGU"), b"ACGT");
        assert_eq!(reverse_complement(b""), b"");
    }

    #[test]
    fn the_reverse_complement_of_the_reverse_complement_is_the_pattern() {
        // Every byte but U and u, which come back as T and t.
        let every: Vec<u8> = (0..=255u8).filter(|b| !b"Uu".contains(b)).collect();
        assert_eq!(reverse_complement(&reverse_complement(&every)), every);
        for b in every {
            assert_eq!(complement(complement(b)), b, "{b}");
        }
        // A palindrome is its own reverse complement, and still searched twice.
        assert_eq!(reverse_complement(b"GAATTC"), b"GAATTC");
        let both = both(vec![b"GAATTC".to_vec(), b"AACG".to_vec()]);
        assert_eq!(both, [&b"GAATTC"[..], b"GAATTC", b"AACG", b"CGTT"]);
    }

    #[test]
    fn searched_numbers_read_back_as_the_file_pattern_and_strand() {
        assert_eq!(of_searched(0, 1), (0, '+'));
        assert_eq!(of_searched(7, 1), (7, '+'));
        assert_eq!(of_searched(0, 2), (0, '+'));
        assert_eq!(of_searched(1, 2), (0, '-'));
        assert_eq!(of_searched(6, 2), (3, '+'));
        assert_eq!(of_searched(7, 2), (3, '-'));
    }
}
