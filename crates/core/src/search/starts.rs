//! Where a match starts: the walk of [`crate::problem`] from the match's last cell back to row 0,
//! on columns recomputed for it. A match that ends at `e` within `k` edits spans at most `m + k`
//! text bytes, so a window of `m + k` bytes ending at `e`, computed from a column with no text
//! before it, gives the true walk: its values are never below the truth and equal it on the walk.
//! The window's columns are [`Edit::step_traced`](crate::bitpar::Row::step_traced)'s rows (the text as `x`, the pattern as `y`,
//! `hin` 0); matches of one pattern whose windows overlap share one ([`locate`]).
//!
//! Cost per window: its columns times `ceil(m / 64)` traced word steps, and two words per column
//! and pattern word of memory (at most [`MAX_WINDOW`] columns at a time). The argument:
//! `docs/algorithms.md#where-a-match-starts`.

use crate::bitpar::edit::Delta;
use crate::bitpar::{Edit, Masks, Row, WORD_BITS};
use crate::search::alphabet::Alphabet;
use crate::search::lanes::Hit;

/// Longest window computed at once, in text bytes beyond `m + k`: a longer run of matches is
/// cut into windows of this many ends.
pub const MAX_WINDOW: usize = 4096;

/// One pattern's window: the traced columns over `text`, the first at record offset `offset`.
struct Window<'a> {
    pattern: &'a [u8],
    alphabet: Alphabet,
    text: &'a [u8],
    offset: u64,
    words: usize,
    /// Per text byte: the horizontal deltas +1 (`pv`) after it, and the substitution bits.
    pv: Vec<u64>,
    sub: Vec<u64>,
}

impl<'a> Window<'a> {
    fn new(pattern: &'a [u8], alphabet: Alphabet, text: &'a [u8], offset: u64) -> Window<'a> {
        let masks = match alphabet {
            Alphabet::Exact => Masks::new(text, pattern),
            _ => Masks::with(text, pattern, |t, p| alphabet.matches(p, t)),
        };
        let words = masks.width();
        let (mut pv, mut mv) = (vec![u64::MAX; words], vec![0u64; words]);
        let mut up = vec![0u64; words];
        let mut sub = vec![0u64; words];
        let mut all_pv = Vec::with_capacity(text.len() * words);
        let mut all_sub = Vec::with_capacity(text.len() * words);
        for &b in text {
            Edit::step_traced(
                [&mut pv, &mut mv],
                masks.of(b),
                Delta::Zero,
                [&mut sub, &mut up],
            );
            all_pv.extend_from_slice(&pv);
            all_sub.extend_from_slice(&sub);
        }
        Window {
            pattern,
            alphabet,
            text,
            offset,
            words,
            pv: all_pv,
            sub: all_sub,
        }
    }

    fn bit(plane: &[u64], words: usize, i: usize, j: usize) -> bool {
        (plane[i * words + j / WORD_BITS] >> (j % WORD_BITS)) & 1 == 1
    }

    /// The start of the match that ends at record offset `end` (its walk, see the module
    /// doc).
    fn start(&self, end: u64) -> u64 {
        let mut i = (end - 1 - self.offset) as isize;
        let mut j = self.pattern.len() as isize - 1;
        while j >= 0 {
            if i < 0 {
                // The window's first column: what is left of the pattern is deleted (only at a
                // record's start).
                return self.offset;
            }
            let (iu, ju) = (i as usize, j as usize);
            if self.alphabet.matches(self.pattern[ju], self.text[iu])
                || Self::bit(&self.sub, self.words, iu, ju)
            {
                (i, j) = (i - 1, j - 1);
            } else if Self::bit(&self.pv, self.words, iu, ju) {
                j -= 1;
            } else {
                i -= 1;
            }
        }
        self.offset + (i + 1) as u64
    }
}

/// The starts of `hits` (all of pattern `pattern`, in the order of their ends, within `k`
/// edits, its bytes matching the text's as `alphabet` says), from `text`, the record's bytes
/// from record offset `offset` on; `text` must begin
/// `m + k` bytes before the first end, or at the record's start (`offset` 0). Returns one
/// start per hit, in order.
pub fn locate(
    (pattern, alphabet): (&[u8], Alphabet),
    k: usize,
    text: &[u8],
    offset: u64,
    hits: &[Hit],
) -> Vec<u64> {
    let span = (pattern.len() + k.min(pattern.len())) as u64;
    let mut starts = Vec::with_capacity(hits.len());
    let mut at = 0;
    while at < hits.len() {
        // A run of ends whose windows overlap, at most MAX_WINDOW of them.
        let first = hits[at].end;
        let mut last = at;
        while last + 1 < hits.len()
            && hits[last + 1].end <= hits[last].end + span
            && hits[last + 1].end - first <= MAX_WINDOW as u64
        {
            last += 1;
        }
        let from = first.saturating_sub(span).max(offset);
        debug_assert!(
            from == 0 || first - from >= span,
            "the window holds the walk"
        );
        let bytes = &text[(from - offset) as usize..(hits[last].end - offset) as usize];
        let window = Window::new(pattern, alphabet, bytes, from);
        starts.extend(hits[at..=last].iter().map(|h| window.start(h.end)));
        at = last + 1;
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;
    use crate::search::oracle;

    /// Random texts with mutated copies planted, every match located from windows over a
    /// piece of the text that starts at the record's start or `m + k` bytes before: the same
    /// starts as the plain DP's walk over the whole text.
    #[test]
    fn windows_give_the_walk_over_the_whole_text() {
        let mut rng = Random::new(33);
        for alphabet in [&b"AC"[..], b"ACGT"] {
            for _ in 0..300 {
                let m = 1 + [rng.below(8), rng.below(70), rng.below(150)][rng.below(3)];
                let p = rng.bytes(m, alphabet);
                let len = rng.below(200);
                let mut text = rng.bytes(len, alphabet);
                for _ in 0..rng.below(4) {
                    let mut copy = p.clone();
                    for _ in 0..rng.below(4) {
                        match rng.below(3) {
                            0 if !copy.is_empty() => {
                                let at = rng.below(copy.len());
                                copy.remove(at);
                            }
                            1 => copy.insert(rng.below(copy.len() + 1), alphabet[0]),
                            _ if !copy.is_empty() => {
                                let at = rng.below(copy.len());
                                copy[at] = alphabet[rng.below(alphabet.len())];
                            }
                            _ => {}
                        }
                    }
                    let at = rng.below(text.len() + 1);
                    text.splice(at..at, copy);
                }
                let k = rng
                    .below(m.min(6) + 1)
                    .min(m.saturating_sub(1).max(rng.below(2)));
                let want = oracle::matches(&p, &text, k);
                let hits: Vec<Hit> = want
                    .iter()
                    .map(|&(_, e, d)| Hit {
                        pattern: 0,
                        end: e as u64,
                        distance: d,
                    })
                    .collect();
                // From the record's start, and from a piece that starts just early enough.
                let starts = locate((&p, Alphabet::Exact), k, &text, 0, &hits);
                let got: Vec<usize> = starts.iter().map(|&s| s as usize).collect();
                let expected: Vec<usize> = want.iter().map(|&(s, _, _)| s).collect();
                assert_eq!(got, expected, "{p:?} in {text:?}, k {k}");
                if let Some(first) = hits.first() {
                    let span = (m + k.min(m)) as u64;
                    let cut = first.end.saturating_sub(span);
                    let starts =
                        locate((&p, Alphabet::Exact), k, &text[cut as usize..], cut, &hits);
                    assert_eq!(
                        starts.iter().map(|&s| s as usize).collect::<Vec<_>>(),
                        expected
                    );
                }
            }
        }
    }
}
