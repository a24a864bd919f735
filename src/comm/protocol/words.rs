//! Messages built of 64-bit words: bytes packed eight to a word, and a reader that takes a
//! message's words in order and answers `None` when the message runs out, so that a short or
//! garbled message is refused, never read past its end.

/// Bytes appended to `out` eight to a word, little-endian, the last word padded with zeros.
pub fn pack(bytes: &[u8], out: &mut Vec<u64>) {
    out.extend(bytes.chunks(8).map(|c| {
        let mut word = [0u8; 8];
        word[..c.len()].copy_from_slice(c);
        u64::from_le_bytes(word)
    }));
}

/// The first `len` bytes of `words` (packed by [`pack`]); `None` when the words hold fewer.
pub fn unpack(words: &[u64], len: usize) -> Option<Vec<u8>> {
    let mut out: Vec<u8> = words
        .get(..len.div_ceil(8))?
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    out.truncate(len);
    Some(out)
}

/// Words as the bytes of a message, little-endian.
pub fn to_bytes(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The words of a message's bytes; `None` when its length is not a whole number of words.
pub fn of_bytes(bytes: &[u8]) -> Option<Vec<u64>> {
    bytes.len().is_multiple_of(8).then(|| {
        bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect()
    })
}

/// Takes a message's words in order.
pub struct Reader<'a> {
    words: &'a [u64],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(words: &'a [u64]) -> Reader<'a> {
        Reader { words, at: 0 }
    }

    /// The next word.
    pub fn word(&mut self) -> Option<u64> {
        let w = *self.words.get(self.at)?;
        self.at += 1;
        Some(w)
    }

    /// The next word as a count or an index of this machine.
    pub fn size(&mut self) -> Option<usize> {
        usize::try_from(self.word()?).ok()
    }

    /// The next word as a flag: 0 or 1, nothing else.
    pub fn flag(&mut self) -> Option<bool> {
        match self.word()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    /// The next `len` bytes, packed eight to a word.
    pub fn bytes(&mut self, len: usize) -> Option<Vec<u8>> {
        let out = unpack(self.words.get(self.at..)?, len)?;
        self.at += len.div_ceil(8);
        Some(out)
    }

    /// Whether every word has been taken.
    pub fn is_done(&self) -> bool {
        self.at == self.words.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_short_messages_are_refused() {
        let mut words = vec![7];
        pack(b"abcdefghij", &mut words);
        assert_eq!(words.len(), 3);
        let mut r = Reader::new(&words);
        assert_eq!(r.word(), Some(7));
        assert_eq!(r.bytes(10).as_deref(), Some(&b"abcdefghij"[..]));
        assert!(r.is_done());
        assert_eq!(r.word(), None);
        assert_eq!(Reader::new(&words[..2]).bytes(17), None);
        assert_eq!(Reader::new(&[2]).flag(), None);
        assert_eq!(unpack(&words[1..], 16).map(|b| b.len()), Some(16));
        assert_eq!(unpack(&words[1..], 17), None);
        assert_eq!(of_bytes(&to_bytes(&words)), Some(words));
        assert_eq!(of_bytes(&[0; 9]), None);
    }
}
