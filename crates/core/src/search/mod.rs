//! Approximate search: every place where each of many patterns occurs in a text with at most `k`
//! edits. Sellers' semi-global DP (Sellers 1980, doi:10.1016/0196-6774(80)90016-4): `D[0][j] = 0`,
//! so a match may start anywhere, `D[i][0] = i` and the unit-cost edit recurrence; an end `e` with
//! `D[m][e] <= k` is a match, and its start is where the edit distance's walk from `(m, e)` reaches
//! row 0. Computed by Myers' bit-vector step (Myers 1999, doi:10.1145/316542.316550).
//!
//! - [`lanes`] — patterns of up to 64 bytes, many side by side in the lanes of one vector;
//! - [`strips`] — one pattern of any length alone, the text as the bit dimension, many
//!   stretches of the text side by side, with Ukkonen's cut-off turned sideways;
//! - [`sieve`] and [`sifted`] — the pigeonhole filter: the few places a match of a pattern
//!   searched alone can end, found by exact grams of its pieces, and only those computed;
//! - [`starts`] — where a match starts, from a window of columns recomputed for it;
//! - [`searcher`] — units ready to scan, and the search of a text held in memory;
//! - [`chunks`] — how ranks share the work: units of patterns, the grid, the text's parts and the
//!   warm-up that finds every match exactly once;
//! - [`oracle`] — the plain O(mn) DP every kernel is checked against.
//!
//! The arguments: `docs/algorithms.md#approximate-search`.
//!
//! ```
//! use lcs_core::search::alphabet::Alphabet;
//! use lcs_core::search::lanes::{scan, Group, Simd};
//! use lcs_core::search::{oracle, starts};
//!
//! let (pattern, text, k) = (&b"GATTACA"[..], &b"TTGATTCATTGATTACAG"[..], 1);
//! let mut group = Group::<u8, 32>::new(&[(0, pattern)], k, Alphabet::Exact);
//! let mut hits = Vec::new();
//! scan(Simd::detect(), [&mut group], text, 0, 0, &mut hits);
//! let begins = starts::locate((pattern, Alphabet::Exact), k, text, 0, &hits);
//! let found: Vec<(usize, usize, usize)> = (hits.iter().zip(begins))
//!     .map(|(hit, start)| (start as usize, hit.end as usize, hit.distance))
//!     .collect();
//! assert_eq!(found, oracle::matches(pattern, text, k));
//! assert!(found.contains(&(10, 17, 0)));
//! ```

pub mod alphabet;
pub mod chunks;
pub mod lanes;
pub mod oracle;
pub mod searcher;
pub mod sieve;
pub mod sifted;
pub mod starts;
pub mod strips;

/// A match: pattern (its number), record (counted from 0), start and end (exclusive) in the
/// record, distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Match {
    pub pattern: usize,
    pub record: u64,
    pub start: u64,
    pub end: u64,
    pub distance: usize,
}

/// A [`Match`] in 24 bytes (a `Match` takes 40), as the ranks of a search hold, send and sort
/// them: the pattern's number in 32 bits, the match's length (`end - start`) and its distance
/// in 16 each, the record and the end in 64. A match spans at most its pattern's length plus
/// its distance, and its distance is at most the pattern's length, so patterns of up to
/// [`MAX_PACKED_PATTERN`] bytes always fit. Ordered as the matches are listed: by pattern,
/// record, end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Packed {
    // The order of the fields is the order of the listing (derived `Ord`).
    pattern: u32,
    record: u64,
    end: u64,
    length: u16,
    distance: u16,
}

/// The longest pattern whose matches [`Packed`] holds: a match spans at most twice its
/// pattern.
pub const MAX_PACKED_PATTERN: usize = (u16::MAX / 2) as usize;

/// Bytes of a [`Packed`] match.
pub const PACKED_BYTES: usize = std::mem::size_of::<Packed>();

impl Packed {
    /// `m` packed; panics on a match no pattern of [`MAX_PACKED_PATTERN`] bytes can have.
    pub fn new(m: &Match) -> Packed {
        let field = |v: u64, what: &str| {
            u16::try_from(v).unwrap_or_else(|_| panic!("a match's {what} of {v} does not fit"))
        };
        Packed {
            pattern: u32::try_from(m.pattern).expect("fewer than 2^32 patterns"),
            record: m.record,
            end: m.end,
            length: field(m.end - m.start, "length"),
            distance: field(m.distance as u64, "distance"),
        }
    }

    pub fn pattern(&self) -> usize {
        self.pattern as usize
    }

    pub fn record(&self) -> u64 {
        self.record
    }

    /// The match, unpacked.
    pub fn unpack(&self) -> Match {
        Match {
            pattern: self.pattern as usize,
            record: self.record,
            start: self.end - u64::from(self.length),
            end: self.end,
            distance: self.distance as usize,
        }
    }

    /// Three words: the pattern, length and distance in one, the record, the end.
    pub fn words(&self) -> [u64; 3] {
        let head = (u64::from(self.pattern) << 32)
            | (u64::from(self.length) << 16)
            | u64::from(self.distance);
        [head, self.record, self.end]
    }

    /// The match of [`Packed::words`]; `None` when its length reaches before the record's
    /// start.
    pub fn of_words([head, record, end]: [u64; 3]) -> Option<Packed> {
        let length = (head >> 16) as u16;
        (u64::from(length) <= end).then_some(Packed {
            pattern: (head >> 32) as u32,
            record,
            end,
            length,
            distance: head as u16,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_matches_keep_every_field_and_the_listing_s_order() {
        let matches = [
            Match {
                pattern: 0,
                record: 1 << 40,
                start: (1 << 35) - 16_384,
                end: 1 << 35,
                distance: 8192,
            },
            Match {
                pattern: 3,
                record: 0,
                start: 9,
                end: 12,
                distance: 1,
            },
            Match {
                pattern: 3,
                record: 0,
                start: 0,
                end: 0,
                distance: 0,
            },
            Match {
                pattern: u32::MAX as usize,
                record: u64::MAX,
                start: u64::MAX - 1,
                end: u64::MAX,
                distance: 1,
            },
        ];
        assert_eq!(PACKED_BYTES, 24);
        let mut packed: Vec<Packed> = matches.iter().map(Packed::new).collect();
        for (p, m) in packed.iter().zip(&matches) {
            assert_eq!(p.unpack(), *m);
            assert_eq!(Packed::of_words(p.words()), Some(*p));
            assert_eq!((p.pattern(), p.record()), (m.pattern, m.record));
        }
        packed.sort();
        let mut listed = matches.to_vec();
        listed.sort_by_key(|m| (m.pattern, m.record, m.end));
        let unpacked: Vec<Match> = packed.iter().map(Packed::unpack).collect();
        assert_eq!(unpacked, listed);
        // A length past the record's start is not a match.
        assert_eq!(Packed::of_words([5 << 16, 0, 4]), None);
    }

    #[test]
    #[should_panic(expected = "length of 65536 does not fit")]
    fn a_match_too_long_to_pack_is_a_bug() {
        Packed::new(&Match {
            pattern: 0,
            record: 0,
            start: 0,
            end: 65_536,
            distance: 0,
        });
    }
}
