//! The messages of a `pairs` run:
//!
//! - the header rank 0 broadcasts first ([`Header`]): its verdict (an exit code, 0 when it read
//!   the files) and the shape of what follows: per file the number of sequences, their bytes in
//!   all, and whether it was FASTA (the sequences follow as their lengths, then their bytes in
//!   pieces; the names stay on rank 0, the only rank that writes);
//! - a rank's values, delivered to rank 0 in counted `control` messages ([`values_bytes`]): its
//!   length in bytes first, so that pieces can be joined, then the form and the count, then the
//!   values: every value of the rank's items in the plan's order, four little-endian bytes each
//!   (rank 0 knows the order from the plan), or only the pairs that pass the bound, twelve bytes
//!   each (query, target, value);
//! - the pairs within a bound, which may outgrow any one buffer, travel as a stream instead: a
//!   first message of the same header and the first pairs ([`passing_first`]), then messages of
//!   pairs alone ([`passing_more`]), each of at most [`PASSING_PIECE`] pairs, until the count the
//!   header announced has come: rank 0 takes each as it comes, holding one at a time.
//!
//! Every decoder checks the lengths it reads and answers `None` for a malformed message.

use super::words::{of_bytes, Reader};
/// A pair within the bound: (query, target, value).
pub type Pair = [u32; 3];

/// Bytes of a [`Pair`] as it travels (and as a rank spills it): three little-endian `u32`s.
pub const PAIR_BYTES: usize = 12;

/// Pairs a message of pairs within the bound carries at most: 3 MiB.
pub const PASSING_PIECE: usize = 1 << 18;

/// What rank 0 broadcasts before anything else of a pairs run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// Rank 0's exit code: 0 when what follows is there.
    pub code: u8,
    pub queries: u64,
    pub query_bytes: u64,
    pub queries_fasta: bool,
    /// Whether a file of targets was given (else all against all).
    pub has_targets: bool,
    pub targets: u64,
    pub target_bytes: u64,
    pub targets_fasta: bool,
}

impl Header {
    /// Words of a header.
    pub const WORDS: usize = 8;

    pub fn to_words(&self) -> [u64; Header::WORDS] {
        [
            u64::from(self.code),
            self.queries,
            self.query_bytes,
            u64::from(self.queries_fasta),
            u64::from(self.has_targets),
            self.targets,
            self.target_bytes,
            u64::from(self.targets_fasta),
        ]
    }

    pub fn of_words(words: &[u64; Header::WORDS]) -> Option<Header> {
        let mut r = Reader::new(words);
        Some(Header {
            code: u8::try_from(r.word()?).ok()?,
            queries: r.word()?,
            query_bytes: r.word()?,
            queries_fasta: r.flag()?,
            has_targets: r.flag()?,
            targets: r.word()?,
            target_bytes: r.word()?,
            targets_fasta: r.flag()?,
        })
    }
}

/// A rank's values, as they travel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Values {
    /// Every value of the rank's items, in the plan's order.
    Every(Vec<u32>),
    /// The pairs that pass the bound: (query, target, value), input numbers.
    Passing(Vec<[u32; 3]>),
}

/// Bytes before the values: the length, the form, the count.
pub const VALUES_HEADER_BYTES: usize = 24;

/// The bytes of [`Values`] (see the module doc).
pub fn values_bytes(values: &Values) -> Vec<u8> {
    let (form, count, width) = match values {
        Values::Every(v) => (0u64, v.len(), 4),
        Values::Passing(p) => (1u64, p.len(), 12),
    };
    let len = VALUES_HEADER_BYTES + count * width;
    let mut out = Vec::with_capacity(len);
    for word in [len as u64, form, count as u64] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    match values {
        Values::Every(v) => v
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        Values::Passing(p) => p
            .iter()
            .flatten()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
    }
    out
}

/// A message of every value of a share, written as the values come ([`Values::Every`]'s
/// bytes, without a vector of them first).
pub struct EveryWriter {
    bytes: Vec<u8>,
}

impl EveryWriter {
    /// A message for about `count` values.
    pub fn new(count: usize) -> EveryWriter {
        let mut bytes = Vec::with_capacity(VALUES_HEADER_BYTES + 4 * count);
        bytes.resize(VALUES_HEADER_BYTES, 0);
        EveryWriter { bytes }
    }

    pub fn push(&mut self, values: &[u32]) {
        for v in values {
            self.bytes.extend_from_slice(&v.to_le_bytes());
        }
    }

    /// The message's bytes, its header filled in.
    pub fn finish(mut self) -> Vec<u8> {
        let len = self.bytes.len();
        let count = (len - VALUES_HEADER_BYTES) / 4;
        for (k, word) in [len as u64, 0, count as u64].iter().enumerate() {
            self.bytes[8 * k..8 * k + 8].copy_from_slice(&word.to_le_bytes());
        }
        self.bytes
    }
}

/// The values of a message of every value, as their little-endian bytes (four a value), when
/// it is one and whole: read in place by rank 0, without a copy.
pub fn every_of(bytes: &[u8]) -> Option<&[u8]> {
    let head = of_bytes(bytes.get(..VALUES_HEADER_BYTES)?)?;
    let mut r = Reader::new(&head);
    let (len, form, count) = (r.size()?, r.word()?, r.size()?);
    let payload = &bytes[VALUES_HEADER_BYTES..];
    (len == bytes.len() && form == 0 && count.checked_mul(4)? == payload.len()).then_some(payload)
}

/// The length in bytes of the values message whose first bytes are `start`, once they hold
/// its first word.
pub fn values_len(start: &[u8]) -> Option<usize> {
    let word: [u8; 8] = start.get(..8)?.try_into().ok()?;
    usize::try_from(u64::from_le_bytes(word)).ok()
}

/// The values of [`values_bytes`].
pub fn values_of(bytes: &[u8]) -> Option<Values> {
    let head = of_bytes(bytes.get(..VALUES_HEADER_BYTES)?)?;
    let mut r = Reader::new(&head);
    let (len, form, count) = (r.size()?, r.word()?, r.size()?);
    let width = match form {
        0 => 4,
        1 => 12,
        _ => return None,
    };
    if len != bytes.len() || count.checked_mul(width)? != len - VALUES_HEADER_BYTES {
        return None;
    }
    let mut numbers = bytes[VALUES_HEADER_BYTES..]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    Some(match form {
        0 => Values::Every(numbers.collect()),
        _ => Values::Passing(
            (0..count)
                .map(|_| std::array::from_fn(|_| numbers.next().unwrap_or(0)))
                .collect(),
        ),
    })
}

/// The first message of a rank's `count` pairs within the bound: the header of [`values_bytes`]
/// (the length of the whole stream, the form, the count) and `pairs`, the first of them.
pub fn passing_first(count: u64, pairs: &[Pair]) -> Vec<u8> {
    let len = VALUES_HEADER_BYTES as u64 + PAIR_BYTES as u64 * count;
    let mut out = Vec::with_capacity(VALUES_HEADER_BYTES + PAIR_BYTES * pairs.len());
    for word in [len, 1, count] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend(passing_more(pairs));
    out
}

/// A later message of pairs within the bound: the pairs alone.
pub fn passing_more(pairs: &[Pair]) -> Vec<u8> {
    pairs
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

/// The count a first message announces and its pairs, or `None` when it is not one.
pub fn passing_of_first(bytes: &[u8]) -> Option<(u64, Vec<Pair>)> {
    let head = of_bytes(bytes.get(..VALUES_HEADER_BYTES)?)?;
    let mut r = Reader::new(&head);
    let (len, form, count) = (r.word()?, r.word()?, r.word()?);
    let whole = (VALUES_HEADER_BYTES as u64).checked_add(count.checked_mul(PAIR_BYTES as u64)?)?;
    let pairs = pairs_of(&bytes[VALUES_HEADER_BYTES..])?;
    (form == 1 && len == whole && pairs.len() as u64 <= count).then_some((count, pairs))
}

/// The pairs of a later message, or `None` when it is not whole pairs.
pub fn pairs_of(bytes: &[u8]) -> Option<Vec<Pair>> {
    bytes.len().is_multiple_of(PAIR_BYTES).then(|| {
        bytes
            .chunks_exact(PAIR_BYTES)
            .map(|c| {
                std::array::from_fn(|k| {
                    u32::from_le_bytes(c[4 * k..4 * k + 4].try_into().expect("four bytes"))
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pairs_message_round_trips_and_refuses_a_cut() {
        let header = Header {
            code: 0,
            queries: 3,
            query_bytes: 70,
            queries_fasta: true,
            has_targets: true,
            targets: 1 << 33,
            target_bytes: 5,
            targets_fasta: false,
        };
        assert_eq!(Header::of_words(&header.to_words()), Some(header.clone()));
        let mut bad = header.to_words();
        bad[4] = 2;
        assert_eq!(Header::of_words(&bad), None);

        for values in [
            Values::Every(vec![0, 7, u32::MAX]),
            Values::Every(vec![]),
            Values::Passing(vec![[1, 2, 3], [u32::MAX, 0, 9]]),
        ] {
            let bytes = values_bytes(&values);
            assert_eq!(values_len(&bytes), Some(bytes.len()));
            assert_eq!(values_of(&bytes), Some(values.clone()));
            assert_eq!(values_of(&bytes[..bytes.len() - 4]), None);
            assert_eq!(values_of(&bytes[..bytes.len() - 1]), None);
        }
        let mut writer = EveryWriter::new(1);
        writer.push(&[0, 7]);
        writer.push(&[u32::MAX]);
        let written = writer.finish();
        assert_eq!(written, values_bytes(&Values::Every(vec![0, 7, u32::MAX])));
        assert_eq!(every_of(&written), Some(&written[VALUES_HEADER_BYTES..]));
        assert_eq!(every_of(&written[..written.len() - 4]), None);
        let passing = values_bytes(&Values::Passing(vec![[1, 2, 3]]));
        assert_eq!(every_of(&passing), None);
        let mut odd = values_bytes(&Values::Every(vec![1]));
        odd[8] = 2;
        assert_eq!(values_of(&odd), None);
        assert_eq!(values_len(&[0; 7]), None);
    }

    /// A stream of pairs: the first message announces them all and may carry some; the later
    /// ones carry whole pairs; nothing else is taken for either.
    #[test]
    fn a_stream_of_passing_pairs_round_trips_and_refuses_a_cut() {
        let pairs = vec![[1, 2, 3], [u32::MAX, 0, 9], [4, 5, 0]];
        let first = passing_first(5, &pairs[..2]);
        assert_eq!(passing_of_first(&first), Some((5, pairs[..2].to_vec())));
        assert_eq!(passing_of_first(&passing_first(0, &[])), Some((0, vec![])));
        // The same header as a whole message of the pairs.
        let whole = values_bytes(&Values::Passing(pairs.clone()));
        assert_eq!(passing_first(3, &pairs), whole);
        assert_eq!(passing_of_first(&first[..first.len() - 1]), None);
        assert_eq!(passing_of_first(&passing_first(1, &pairs[..2])), None);
        assert_eq!(
            passing_of_first(&values_bytes(&Values::Every(vec![7]))),
            None
        );
        let more = passing_more(&pairs[2..]);
        assert_eq!(pairs_of(&more), Some(pairs[2..].to_vec()));
        assert_eq!(pairs_of(&more[..11]), None);
    }
}
