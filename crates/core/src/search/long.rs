//! The search kernel for patterns longer than a word: Myers' block form (the pattern in
//! `ceil(m / 64)` words, one delta passing from each word to the next, as edlib's
//! `calculateBlock`), stepped by [`Edit::step`](crate::bitpar::Row::step) itself with the text as `x` and `hin` 0 (row 0
//! free), with Ukkonen's cut-off (Ukkonen 1985, doi:10.1016/S0019-9958(85)80046-2): only the words
//! down to the last one that can hold a distance within the limit are computed, the cells below
//! taken as `score + 1, score + 2, ...`, never less than the truth and exact within the limit.
//!
//! Cost: per text byte, the words down to the last one computed: about `k / 64 + 2` on random
//! text. The argument: `docs/algorithms.md#long-patterns-ukkonens-cut-off`.

use crate::bitpar::edit::{self, Delta};
use crate::bitpar::{Edit, Row, WORD_BITS};
use crate::search::lanes::Hit;

/// A pattern of more than 64 bytes, with its match masks and its column state.
#[derive(Clone)]
pub struct LongPattern {
    /// The caller's number of the pattern.
    number: usize,
    words: usize,
    /// Padding bits below the pattern's first byte.
    pad: usize,
    /// Row `slot[b]` of `masks` is byte `b`'s mask (`words` words); the last row is the mask of
    /// the bytes absent from the pattern (padding bits only).
    slot: [u32; 256],
    masks: Vec<u64>,
    pv: Vec<u64>,
    mv: Vec<u64>,
    last: usize,
    score: usize,
    limit: usize,
}

impl LongPattern {
    /// Pattern `number`, `bytes` long (more than 64 bytes), reporting distances up to `k`.
    pub fn new(number: usize, bytes: &[u8], k: usize) -> LongPattern {
        let m = bytes.len();
        assert!(
            m > WORD_BITS,
            "a long pattern has more than {WORD_BITS} bytes"
        );
        let words = m.div_ceil(WORD_BITS);
        let pad = words * WORD_BITS - m;
        let mut slot = [u32::MAX; 256];
        let mut distinct = 0u32;
        for &b in bytes {
            if slot[usize::from(b)] == u32::MAX {
                slot[usize::from(b)] = distinct;
                distinct += 1;
            }
        }
        for s in slot.iter_mut().filter(|s| **s == u32::MAX) {
            *s = distinct;
        }
        let padding = (1u64 << pad) - 1;
        let mut masks = vec![0u64; (distinct as usize + 1) * words];
        for row in masks.chunks_mut(words) {
            row[0] = padding;
        }
        for (q, &b) in bytes.iter().enumerate() {
            let bit = pad + q;
            masks[slot[usize::from(b)] as usize * words + bit / WORD_BITS] |=
                1 << (bit % WORD_BITS);
        }
        let mut pattern = LongPattern {
            number,
            words,
            pad,
            slot,
            masks,
            pv: vec![0; words],
            mv: vec![0; words],
            last: 0,
            score: 0,
            limit: k.min(m),
        };
        pattern.reset();
        pattern
    }

    /// Bytes held (masks and state).
    pub fn bytes(&self) -> u64 {
        (self.masks.len() + 2 * self.words) as u64 * 8 + 256 * 4
    }

    /// The caller's number of the pattern.
    pub fn number(&self) -> usize {
        self.number
    }

    /// Back to a column with no text before it: `D[i] = i` on the pattern's rows, the words
    /// down to row `k` computed.
    pub fn reset(&mut self) {
        self.pv.fill(u64::MAX);
        self.pv[0] = u64::MAX << self.pad;
        self.mv.fill(0);
        // Row r (1-based) is bit pad + r - 1; rows up to the limit hold distances within it.
        self.last = ((self.limit + self.pad).saturating_sub(1) / WORD_BITS).min(self.words - 1);
        self.score = (self.last + 1) * WORD_BITS - self.pad;
    }

    /// The current distance at the pattern's last row, when the cut-off computes it (else it
    /// is above the limit).
    pub fn score(&self) -> Option<usize> {
        (self.last == self.words - 1).then_some(self.score)
    }

    /// Scans `text`, continuing from the state and leaving it at the text's end; as
    /// [`super::lanes::scan`] for `base`, `from` and `hits`.
    pub fn scan(&mut self, text: &[u8], base: u64, from: usize, hits: &mut Vec<Hit>) {
        let (words, limit) = (self.words, self.limit);
        let (mut last, mut score) = (self.last, self.score);
        for (i, &c) in text.iter().enumerate() {
            let at = self.slot[usize::from(c)] as usize * words;
            let eq = &self.masks[at..at + words];
            let before = score;
            let hout = Edit::step(
                [&mut self.pv[..=last], &mut self.mv[..=last]],
                &eq[..=last],
                Delta::Zero,
            );
            score = before.wrapping_add_signed(isize::from(hout.value()));
            let next = last + 1;
            if next < words
                && (score < limit || before < limit || (before == limit && eq[next] & 1 == 1))
            {
                self.pv[next] = u64::MAX;
                self.mv[next] = 0;
                let h = Edit::step(
                    [&mut self.pv[next..=next], &mut self.mv[next..=next]],
                    &eq[next..=next],
                    hout,
                );
                score = (before + WORD_BITS).wrapping_add_signed(isize::from(h.value()));
                last = next;
            } else {
                while last > 0 && score >= limit + WORD_BITS {
                    let sum =
                        edit::delta_sum(&self.pv[last..=last], &self.mv[last..=last], WORD_BITS);
                    score = score.wrapping_add_signed(-(sum as isize));
                    last -= 1;
                }
            }
            if last == words - 1 && score <= limit && i >= from {
                hits.push(Hit {
                    pattern: self.number,
                    end: base + i as u64 + 1,
                    distance: score,
                });
            }
        }
        (self.last, self.score) = (last, score);
    }
}

/// The mask of `byte` over the pattern's words (for tests).
#[cfg(test)]
impl LongPattern {
    fn mask_of(&self, byte: u8) -> Vec<u64> {
        let at = self.slot[usize::from(byte)] as usize * self.words;
        self.masks[at..at + self.words].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;
    use crate::search::oracle;

    #[test]
    fn long_patterns_find_what_the_plain_dp_finds() {
        let mut rng = Random::new(7);
        for alphabet in [&b"AC"[..], b"ACGT", b"abcdefghijklmnopqrstuvwxyz"] {
            for _ in 0..40 {
                let m = 65 + rng.below(200);
                let p = rng.bytes(m, alphabet);
                // Text with copies of the pattern, some mutated, so that the cut-off grows
                // and shrinks.
                let len = rng.below(300);
                let mut text = rng.bytes(len, alphabet);
                for _ in 0..3 {
                    let mut copy = p.clone();
                    for _ in 0..rng.below(8) {
                        let at = rng.below(copy.len());
                        copy[at] = alphabet[rng.below(alphabet.len())];
                    }
                    text.extend(copy);
                    let gap = rng.below(100);
                    text.extend(rng.bytes(gap, alphabet));
                }
                let k = [0, 1, 3, 10, 70, m][rng.below(6)];
                let from = rng.below(text.len() / 2 + 1);
                let want: Vec<Hit> = oracle::ends(&p, &text, k)
                    .into_iter()
                    .filter(|&(e, _)| e > from)
                    .map(|(e, d)| Hit {
                        pattern: 9,
                        end: e as u64 + 5,
                        distance: d,
                    })
                    .collect();
                let mut long = LongPattern::new(9, &p, k);
                let mut got = Vec::new();
                let cut = rng.below(text.len() + 1);
                long.scan(&text[..cut], 5, from, &mut got);
                long.scan(
                    &text[cut..],
                    5 + cut as u64,
                    from.saturating_sub(cut),
                    &mut got,
                );
                assert_eq!(got, want, "m {m} k {k}");
                let d = oracle::table(&p, &text);
                if let Some(score) = long.score() {
                    assert_eq!(score, d[m][text.len()]);
                } else {
                    assert!(d[m][text.len()] > k.min(m));
                }
            }
        }
    }

    #[test]
    fn masks_hold_the_padding_and_the_bytes() {
        let p = [b'a'; 70];
        let long = LongPattern::new(0, &p, 2);
        assert_eq!((long.words, long.pad), (2, 58));
        let padding = (1u64 << 58) - 1;
        assert_eq!(long.mask_of(b'z'), vec![padding, 0]);
        assert_eq!(long.mask_of(b'a'), vec![u64::MAX, u64::MAX]);
        let mut q = [b'a'; 70];
        q[69] = b'b';
        let long = LongPattern::new(0, &q, 2);
        assert_eq!(long.mask_of(b'b'), vec![padding, 1 << 63]);
        // Rows 1 and 2 (bits 58, 59) are within k = 2 at column 0: word 0 only.
        assert_eq!((long.last, long.score), (0, 6));
        assert!(long.bytes() > 0 && long.number() == 0);
    }
}
