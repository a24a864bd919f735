//! The carries out of chosen words of a run, reported while the run is stepped: what the bands
//! engine keeps at the seams inside a band so that its traceback can recompute any few words of a
//! row from the seam at or before them, not from the band's first word.
//!
//! A seam step ([`Row::step_seams`](super::Row::step_seams), [`Row::step4_seams`](super::Row::step4_seams))
//! steps its run as the plain step does and calls `seam(t, carries)` for each word `t` of
//! [`SeamWords`] below the run's width, in increasing order: the carry out of word `t`, which is
//! the carry into word `t + 1`. One row reports its carry as the plain step returns it; four rows
//! report theirs packed into a byte ([`Carries4`]).
//!
//! The portable kernels and the single-row steps step the run in pieces that end at the reported
//! words (`in_pieces`): their carry is a scalar between words, so a piece costs nothing more.
//! The vector kernels (`four_rows`) cannot stop without paying their prologue and epilogue again;
//! they step the whole run in one call and take the reported words' carries off their lanes as
//! they go, for words at least [`LOGGED_APART`] apart; closer words go through the portable
//! kernel.

use std::ops::Range;

/// The closest words the vector kernels report in one call: they take a word's four carries
/// at four steps 3 apart (the wavefront's lag), and closer words would interleave those steps.
/// Closer words are reported by the portable kernel.
pub const LOGGED_APART: usize = 10;

/// The words whose carries out a seam step reports: `first`, `first + every`, … (those below
/// the run's width; none when `first` is past it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeamWords {
    pub first: usize,
    /// At least 1.
    pub every: usize,
}

/// The carry payloads of four consecutive rows `i..i + 4` out of one word, packed into a byte:
/// bit `4 p + r` is bit `p` of row `i + r`'s payload, `u8::from(carry)` for the LCS (bits 0–3
/// only) and `Delta::to_bits` for the edit distance (the `+1` flags in bits 0–3, the `-1` flags
/// in bits 4–7). So [`Carries4::plane`] is the nibble a packed store of one bit per row takes
/// as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Carries4(pub u8);

impl Carries4 {
    /// The four rows' payloads packed (only their two low bits are read).
    #[inline]
    pub fn of_payloads(payloads: [u8; 4]) -> Carries4 {
        let mut byte = 0;
        for (r, p) in payloads.into_iter().enumerate() {
            byte |= (p & 1) << r | ((p >> 1) & 1) << (4 + r);
        }
        Carries4(byte)
    }

    /// Row `i + r`'s payload.
    #[inline]
    pub fn payload(self, r: usize) -> u8 {
        debug_assert!(r < 4);
        ((self.0 >> r) & 1) | (((self.0 >> (4 + r)) & 1) << 1)
    }

    /// Bit `p` of the four rows' payloads: bit `r` for row `i + r`.
    #[inline]
    pub fn plane(self, p: usize) -> u8 {
        debug_assert!(p < 2);
        (self.0 >> (4 * p)) & 0xf
    }
}

/// Steps a run of `width` words in pieces that end just after each word of `seams`: `step(words,
/// carry)` steps the words `words` from `carry` and returns the carry out of the last, and
/// `seam(t, carry)` reports the carry out of word `t`. For kernels whose carry is a scalar
/// between words (one row, or the portable four rows), where a piece costs no set-up.
#[inline(always)]
pub(super) fn in_pieces<C: Copy>(
    width: usize,
    seams: SeamWords,
    carry: C,
    mut step: impl FnMut(Range<usize>, C) -> C,
    mut seam: impl FnMut(usize, C),
) -> C {
    assert!(seams.every >= 1, "seams at least a word apart");
    let (mut start, mut t, mut carry) = (0, seams.first, carry);
    while t < width {
        carry = step(start..t + 1, carry);
        seam(t, carry);
        start = t + 1;
        t += seams.every;
    }
    if start < width {
        carry = step(start..width, carry);
    }
    carry
}

/// The words the kernels' tests ask seam steps for, one `SeamWords` per entry for a run of
/// `words` words: every word, words closer than the vector kernels log (the portable kernel
/// reports them) and just as far, the engine's spacings, and none (a `first` past the width).
#[cfg(test)]
pub(super) fn tested_seam_words(words: usize) -> [SeamWords; 9] {
    // A `first` of `100 + d` is `d` past the width.
    [
        (0, 1),
        (2, 5),
        (1, 9),
        (4, 10),
        (15, 16),
        (0, 32),
        (63, 64),
        (100, 3),
        (104, 1),
    ]
    .map(|(first, every)| SeamWords {
        first: match first >= 100 {
            true => words + first - 100,
            false => first,
        },
        every,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_round_trip_through_the_byte() {
        for code in 0..81u32 {
            let payloads = [0, 1, 2, 3].map(|r| (code / 3u32.pow(r) % 3) as u8);
            let packed = Carries4::of_payloads(payloads);
            assert_eq!([0, 1, 2, 3].map(|r| packed.payload(r)), payloads);
            for p in 0..2 {
                let nibble = (0..4).fold(0, |acc, r| acc | ((payloads[r] >> p) & 1) << r);
                assert_eq!(packed.plane(p), nibble, "{payloads:?} plane {p}");
            }
        }
    }

    #[test]
    fn pieces_end_after_each_reported_word() {
        for width in 0..12 {
            for first in 0..6 {
                for every in 1..5 {
                    let seams = SeamWords { first, every };
                    let (mut pieces, mut reported) = (Vec::new(), Vec::new());
                    // The carry counts the words stepped so far.
                    let out = in_pieces(
                        width,
                        seams,
                        0usize,
                        |words, c| {
                            assert_eq!(words.start, c, "pieces in order, none skipped");
                            pieces.push(words.clone());
                            words.end
                        },
                        |t, c| reported.push((t, c)),
                    );
                    assert_eq!(out, width);
                    let want: Vec<usize> = (first..width).step_by(every).collect();
                    let got: Vec<usize> = reported.iter().map(|&(t, _)| t).collect();
                    assert_eq!(got, want, "width {width} {seams:?}");
                    assert!(reported.iter().all(|&(t, c)| c == t + 1));
                    assert!(pieces.iter().all(|p| !p.is_empty()));
                }
            }
        }
    }
}
