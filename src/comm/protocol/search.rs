//! The messages of a search, each a run of 64-bit words (see [`super::words`]):
//!
//! - the header rank 0 broadcasts first ([`Header`]): its verdict (an exit code, 0 when it
//!   read the patterns and checked the text) and the shape of what follows (the patterns, and
//!   the text's bytes when rank 0 read it whole);
//! - a FASTA text part's summary, gathered to rank 0 ([`summary_words`]), and every part's
//!   start, broadcast back ([`starts_words`]);
//! - a rank's matches, delivered to rank 0 in counted `control` messages of at most
//!   [`PIECE_MATCHES`] matches each ([`piece_bytes`]), three words per match
//!   ([`Packed::words`]), then one message of the names of their records ([`names_bytes`]):
//!   their count, and per name its record, its length and its bytes. The names' message, on a
//!   tag of its own, ends the rank's delivery.
//!
//! - while the ranks scan a plain text, a rank that has scanned all it had asks another for
//!   work (an empty message) and gets part of the text that rank had not scanned yet, as two
//!   words, its first offset and its end ([`given_words`]), or an empty range for none.
//!
//! Every decoder checks the lengths it reads and answers `None` for a malformed message.

use std::ops::Range;

use lcs_core::search::{Packed, PACKED_BYTES};

use super::words::{of_bytes, pack, to_bytes, Reader};
use crate::input::text::{Start, Summary};

/// What rank 0 broadcasts before anything else of a search.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// Rank 0's exit code: 0 when what follows is there.
    pub code: u8,
    pub patterns: u64,
    /// The patterns' bytes, all together.
    pub pattern_bytes: u64,
    pub patterns_fasta: bool,
    pub text_size: u64,
    pub text_fasta: bool,
    /// The text's sequence area (file offsets).
    pub area: Range<u64>,
    /// The text was read whole by rank 0, whose bytes follow the patterns'.
    pub text_whole: bool,
}

impl Header {
    /// Words of a header.
    pub const WORDS: usize = 9;

    pub fn to_words(&self) -> [u64; Header::WORDS] {
        [
            u64::from(self.code),
            self.patterns,
            self.pattern_bytes,
            u64::from(self.patterns_fasta),
            self.text_size,
            u64::from(self.text_fasta),
            self.area.start,
            self.area.end,
            u64::from(self.text_whole),
        ]
    }

    pub fn of_words(words: &[u64; Header::WORDS]) -> Option<Header> {
        let mut r = Reader::new(words);
        Some(Header {
            code: u8::try_from(r.word()?).ok()?,
            patterns: r.word()?,
            pattern_bytes: r.word()?,
            patterns_fasta: r.flag()?,
            text_size: r.word()?,
            text_fasta: r.flag()?,
            area: r.word()?..r.word()?,
            text_whole: r.flag()?,
        })
    }
}

/// A text part's summary: lead, line start, headers, tail, ends in header, the last name's
/// length, then the name.
pub fn summary_words(s: &Summary) -> Vec<u64> {
    let mut out = vec![
        s.lead,
        u64::from(s.line_start),
        s.headers,
        s.tail,
        u64::from(s.ends_in_header),
        s.last_name.len() as u64,
    ];
    pack(&s.last_name, &mut out);
    out
}

/// The summary of [`summary_words`].
pub fn summary_of(words: &[u64]) -> Option<Summary> {
    let mut r = Reader::new(words);
    let (lead, line_start, headers, tail, ends_in_header) =
        (r.word()?, r.flag()?, r.word()?, r.word()?, r.flag()?);
    let len = r.size()?;
    let last_name = r.bytes(len)?;
    r.is_done().then_some(Summary {
        lead,
        line_start,
        headers,
        last_name,
        tail,
        ends_in_header,
    })
}

/// Every text part's start, in order: per part whether it begins in a header, its record
/// plus one (0 before the first header), its offset, the name's length, then the name.
pub fn starts_words(starts: &[Start]) -> Vec<u64> {
    let mut out = Vec::new();
    for start in starts {
        out.extend([
            u64::from(start.in_header),
            start.record.map_or(0, |r| r + 1),
            start.offset,
            start.name.len() as u64,
        ]);
        pack(&start.name, &mut out);
    }
    out
}

/// The starts of [`starts_words`].
pub fn starts_of(words: &[u64]) -> Option<Vec<Start>> {
    let mut r = Reader::new(words);
    let mut out = Vec::new();
    while !r.is_done() {
        let (in_header, record, offset) = (r.flag()?, r.word()?, r.word()?);
        let len = r.size()?;
        out.push(Start {
            in_header,
            record: record.checked_sub(1),
            name: r.bytes(len)?,
            offset,
        });
    }
    Some(out)
}

/// Records' names: the record, then its name's bytes.
pub type Names = Vec<(u64, Vec<u8>)>;

/// Matches per message of a rank's delivery: 768 KiB, so that neither end holds more than
/// that beside the matches themselves.
pub const PIECE_MATCHES: usize = 1 << 15;

/// A piece of a rank's matches (at most [`PIECE_MATCHES`] of them, see the module doc).
pub fn piece_bytes(matches: &[Packed]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(matches.len() * PACKED_BYTES);
    for m in matches {
        for word in m.words() {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
    }
    bytes
}

/// Appends the matches of a [`piece_bytes`] message to `out`; `None` (and nothing appended)
/// for a message that is not whole matches.
pub fn piece_of(bytes: &[u8], out: &mut Vec<Packed>) -> Option<()> {
    if !bytes.len().is_multiple_of(PACKED_BYTES) {
        return None;
    }
    let word = |c: &[u8]| u64::from_le_bytes(c.try_into().expect("8 bytes"));
    let decoded = bytes
        .chunks_exact(PACKED_BYTES)
        .map(|c| Packed::of_words([word(&c[..8]), word(&c[8..16]), word(&c[16..])]))
        .collect::<Option<Vec<Packed>>>()?;
    out.extend(decoded);
    Some(())
}

/// The names of a rank's records with matches (see the module doc).
pub fn names_bytes(names: &[(u64, Vec<u8>)]) -> Vec<u8> {
    let mut words = vec![names.len() as u64];
    for (record, name) in names {
        words.extend([*record, name.len() as u64]);
        pack(name, &mut words);
    }
    to_bytes(&words)
}

/// The names of [`names_bytes`].
pub fn names_of(bytes: &[u8]) -> Option<Names> {
    let words = of_bytes(bytes)?;
    let mut r = Reader::new(&words);
    let count = r.size()?;
    if count > words.len() / 2 {
        return None;
    }
    let mut names = Vec::with_capacity(count);
    for _ in 0..count {
        let record = r.word()?;
        let len = r.size()?;
        names.push((record, r.bytes(len)?));
    }
    r.is_done().then_some(names)
}

/// The part of the text a rank gives another that asked for work (see the module doc).
pub fn given_words(given: &Range<u64>) -> [u64; 2] {
    [given.start, given.end]
}

/// The part of [`given_words`]; `None` unless two words that make a range.
pub fn given_of(words: &[u64]) -> Option<Range<u64>> {
    match *words {
        [start, end] if start <= end => Some(start..end),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_search_message_round_trips_and_refuses_a_cut() {
        let header = Header {
            code: 0,
            patterns: 3,
            pattern_bytes: 70,
            patterns_fasta: true,
            text_size: 1 << 33,
            text_fasta: false,
            area: 5..(1 << 33),
            text_whole: true,
        };
        assert_eq!(Header::of_words(&header.to_words()), Some(header.clone()));
        let mut bad = header.to_words();
        bad[3] = 2;
        assert_eq!(Header::of_words(&bad), None);

        let summary = Summary {
            lead: 4,
            line_start: true,
            headers: 2,
            last_name: b"chr\xff2".to_vec(),
            tail: 9,
            ends_in_header: false,
        };
        let words = summary_words(&summary);
        assert_eq!(summary_of(&words), Some(summary));
        assert_eq!(summary_of(&words[..words.len() - 1]), None);

        let starts = vec![
            Start::default(),
            Start {
                in_header: true,
                record: Some(0),
                name: b"a long record name".to_vec(),
                offset: 12,
            },
        ];
        let words = starts_words(&starts);
        assert_eq!(starts_of(&words), Some(starts));
        assert_eq!(starts_of(&words[..words.len() - 1]), None);

        let matches: Vec<Packed> = [(1, 0, 3, 9, 2), (0, 1 << 40, 0, 1, 0), (7, 2, 5, 5, 0)]
            .iter()
            .map(|&(pattern, record, start, end, distance)| {
                Packed::new(&lcs_core::search::Match {
                    pattern,
                    record,
                    start,
                    end,
                    distance,
                })
            })
            .collect();
        assert_eq!(given_of(&given_words(&(7..1 << 40))), Some(7..1 << 40));
        assert_eq!(given_of(&given_words(&(9..9))), Some(9..9));
        assert_eq!(given_of(&[9, 8]), None);
        assert_eq!(given_of(&[1]), None);

        let bytes = piece_bytes(&matches);
        assert_eq!(bytes.len(), 3 * 24);
        let mut got = vec![matches[2]];
        assert_eq!(piece_of(&bytes, &mut got), Some(()));
        assert_eq!(got[1..], matches[..]);
        assert_eq!(piece_of(&bytes[..bytes.len() - 1], &mut got), None);
        assert_eq!(piece_of(&bytes[..bytes.len() - 8], &mut got), None);
        assert_eq!(got.len(), 4, "nothing appended from a cut piece");
        assert_eq!(piece_of(&[], &mut got), Some(()));
        // A length that reaches before the record's start.
        let mut bad = piece_bytes(&matches[..1]);
        bad[16..24].copy_from_slice(&1u64.to_le_bytes());
        assert_eq!(piece_of(&bad, &mut got), None);
        let names = vec![
            (0, b"r0".to_vec()),
            (1 << 40, vec![]),
            (9, b"chr\xff9 long".to_vec()),
        ];
        let bytes = names_bytes(&names);
        assert_eq!(names_of(&bytes), Some(names));
        assert_eq!(names_of(&bytes[..bytes.len() - 8]), None);
        assert_eq!(names_of(&bytes[..bytes.len() - 1]), None);
        assert_eq!(names_of(&u64::MAX.to_le_bytes()), None);
        assert_eq!(names_of(&[]), None);
    }
}
