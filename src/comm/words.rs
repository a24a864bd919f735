//! Fixed-size records as plain 64-bit words, the form in which ranks gather them ([`Words`]):
//! no MPI datatype is created (MPICH reports every derived datatype as leaked at finalisation).
//!
//! A record is declared once, with `record!`: its fields in order are its words in order, each
//! field as many words as its type takes (a `u64`, a `usize`, an `f64`'s bits or a kernel's
//! number one; a host's name eight; a nested record its own, as [`RankHost`]). The struct and
//! both directions of its wire form come from that one list, so they cannot disagree; each
//! engine declares its own record beside itself, and `stats` gathers any of them.

use lcs_core::search::lanes::Simd;

use crate::provenance::HostInfo;

/// A fixed-size record as 64-bit words, for gathering.
pub trait Words: Sized {
    /// Words per record.
    const WORDS: usize;
    /// Appends the record's words to `out`.
    fn put(&self, out: &mut Vec<u64>);
    /// The record from its [`Self::WORDS`] words.
    fn take(words: &[u64]) -> Self;
}

/// Reads a record's words in order, a field at a time.
pub struct Reader<'a>(&'a [u64]);

impl<'a> Reader<'a> {
    /// A reader of `words`, from the first.
    pub fn new(words: &'a [u64]) -> Reader<'a> {
        Reader(words)
    }

    /// The next field.
    pub fn field<T: Words>(&mut self) -> T {
        assert!(self.0.len() >= T::WORDS, "a whole record");
        let (field, rest) = self.0.split_at(T::WORDS);
        self.0 = rest;
        T::take(field)
    }
}

/// Declares a record and its [`Words`] from one list of fields, in the order of its words.
/// Attributes (docs, derives) pass through to the struct and its fields.
macro_rules! record {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$field_meta:meta])* $field_vis:vis $field:ident: $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$field_meta])* $field_vis $field: $ty, )*
        }

        impl $crate::comm::words::Words for $name {
            const WORDS: usize = 0 $( + <$ty as $crate::comm::words::Words>::WORDS )*;

            fn put(&self, out: &mut Vec<u64>) {
                $( $crate::comm::words::Words::put(&self.$field, out); )*
            }

            fn take(words: &[u64]) -> $name {
                let mut reader = $crate::comm::words::Reader::new(words);
                $name {
                    $( $field: reader.field(), )*
                }
            }
        }
    };
}
pub(crate) use record;

impl Words for u64 {
    const WORDS: usize = 1;

    fn put(&self, out: &mut Vec<u64>) {
        out.push(*self);
    }

    fn take(words: &[u64]) -> u64 {
        words[0]
    }
}

impl Words for usize {
    const WORDS: usize = 1;

    fn put(&self, out: &mut Vec<u64>) {
        out.push(*self as u64);
    }

    fn take(words: &[u64]) -> usize {
        words[0] as usize
    }
}

/// A float as its bits.
impl Words for f64 {
    const WORDS: usize = 1;

    fn put(&self, out: &mut Vec<u64>) {
        out.push(self.to_bits());
    }

    fn take(words: &[u64]) -> f64 {
        f64::from_bits(words[0])
    }
}

/// The search kernel's compilations, by their number in a record.
const SIMDS: [Simd; 3] = [Simd::Avx512, Simd::Avx2, Simd::Portable];

/// A kernel's compilation as its number: AVX-512, AVX2, portable.
impl Words for Simd {
    const WORDS: usize = 1;

    fn put(&self, out: &mut Vec<u64>) {
        out.push(SIMDS.iter().position(|s| s == self).unwrap_or(2) as u64);
    }

    fn take(words: &[u64]) -> Simd {
        SIMDS[words[0] as usize % SIMDS.len()]
    }
}

record! {
    /// The host a rank ran on, as its record keeps it: the cores the ranks there may use, and
    /// the host's name.
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub struct RankHost {
        cores: u64,
        name: Name,
    }
}

impl RankHost {
    /// The record of `host`.
    pub fn of(host: &HostInfo) -> RankHost {
        RankHost {
            cores: host.cores as u64,
            name: Name::of(&host.name),
        }
    }

    /// The host, as the record keeps it (its name cut to [`HOST_BYTES`] bytes).
    pub fn info(&self) -> HostInfo {
        HostInfo {
            name: self.name.text(),
            cores: self.cores as usize,
        }
    }
}

/// Bytes of a host name in a record (Linux allows 64).
pub const HOST_BYTES: usize = 64;

/// A name as a record keeps it (a host's, a device's): its first [`HOST_BYTES`] bytes,
/// zero-padded; eight words, each eight bytes little-endian.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name([u8; HOST_BYTES]);

impl Default for Name {
    fn default() -> Name {
        Name([0; HOST_BYTES])
    }
}

impl Name {
    pub fn of(text: &str) -> Name {
        let mut name = [0u8; HOST_BYTES];
        let bytes = text.as_bytes();
        let len = bytes.len().min(HOST_BYTES);
        name[..len].copy_from_slice(&bytes[..len]);
        Name(name)
    }

    /// The name, up to its first zero byte.
    pub fn text(&self) -> String {
        let len = self.0.iter().position(|&b| b == 0).unwrap_or(HOST_BYTES);
        String::from_utf8_lossy(&self.0[..len]).into_owned()
    }
}

impl Words for Name {
    const WORDS: usize = HOST_BYTES / 8;

    fn put(&self, out: &mut Vec<u64>) {
        out.extend(
            self.0
                .chunks(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))),
        );
    }

    fn take(words: &[u64]) -> Name {
        let mut name = [0u8; HOST_BYTES];
        for (chunk, word) in name.chunks_mut(8).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        Name(name)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A record's words, as many as its type says.
    pub fn words<T: Words>(record: &T) -> Vec<u64> {
        let mut words = Vec::new();
        record.put(&mut words);
        assert_eq!(words.len(), T::WORDS);
        words
    }

    /// A host, and its words in a record: its cores, then its name's bytes, eight a word.
    pub fn host() -> (RankHost, Vec<u64>) {
        let host = RankHost::of(&HostInfo {
            name: "node-01.example".into(),
            cores: 48,
        });
        let mut expected = vec![48];
        expected.extend([*b"node-01.", *b"example\0"].map(u64::from_le_bytes));
        expected.extend([0; 6]);
        (host, expected)
    }

    #[test]
    fn a_host_survives_its_words_its_name_cut_to_its_bytes() {
        let (host, expected) = host();
        assert_eq!(words(&host), expected);
        assert_eq!(RankHost::take(&expected), host);
        assert_eq!(host.info().name, "node-01.example");
        let long = HostInfo {
            name: "n".repeat(HOST_BYTES + 6),
            cores: 2,
        };
        let back = RankHost::take(&words(&RankHost::of(&long))).info();
        assert_eq!((back.name.len(), back.cores), (HOST_BYTES, 2));
    }

    #[test]
    fn numbers_and_kernels_take_a_word_each() {
        assert_eq!(words(&7u64), [7]);
        assert_eq!(words(&9usize), [9]);
        assert_eq!(words(&0.5f64), [0.5f64.to_bits()]);
        let kernels = [Simd::Avx512, Simd::Avx2, Simd::Portable];
        assert_eq!(kernels.map(|s| words(&s)[0]), [0, 1, 2]);
        assert_eq!(kernels.map(|s| Simd::take(&words(&s))), kernels);
        assert_eq!(Simd::default(), Simd::Portable);
    }
}
