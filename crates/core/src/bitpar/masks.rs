//! Words of columns, and the match masks the row steps read: bit `j` of the mask of byte `b`
//! is set iff `y[j] == b`.

/// Columns per word.
pub const WORD_BITS: usize = u64::BITS as usize;

/// Bytes per word.
pub const WORD_BYTES: u64 = (u64::BITS / 8) as u64;

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

    /// [`Masks::new`] for a relation other than equality: bit `t` of the mask of byte `b` is set
    /// iff `same(b, band[t])` (the search's alphabets). Cost: a call per distinct byte of `x`
    /// and column.
    pub fn with(x: &[u8], band: &[u8], same: impl Fn(u8, u8) -> bool) -> Masks {
        let mut masks = Masks::new(x, &[]);
        let width = band.len().div_ceil(WORD_BITS);
        let distinct = masks.slot.iter().filter(|&&s| s != ABSENT).count();
        masks.words = vec![0u64; distinct * width];
        masks.width = width;
        for (b, &s) in masks.slot.iter().enumerate() {
            if s == ABSENT {
                continue;
            }
            for (t, &c) in band.iter().enumerate() {
                if same(b as u8, c) {
                    masks.words[s as usize * width + t / WORD_BITS] |= 1 << (t % WORD_BITS);
                }
            }
        }
        masks
    }

    /// Bytes [`Masks::new`] allocates for `x` over a band of `width` words.
    pub fn estimate_bytes(x: &[u8], width: usize) -> u64 {
        Masks::bytes_for(distinct_bytes(x), width)
    }

    /// Bytes [`Masks::new`] allocates for an `x` of `distinct` distinct bytes
    /// ([`distinct_bytes`]) over a band of `width` words: for estimates over many bands, which
    /// read `x` once.
    pub fn bytes_for(distinct: usize, width: usize) -> u64 {
        distinct as u64 * width as u64 * 8
    }

    /// Bytes held (the mask words).
    pub fn bytes(&self) -> u64 {
        self.words.capacity() as u64 * 8
    }

    /// Words per mask.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The slot of each byte (`u32::MAX` for one not in `x`) and the slots' masks, `width`
    /// words each: the table as a device takes it.
    pub fn table(&self) -> (&[u32; 256], &[u64]) {
        (&self.slot, &self.words)
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
