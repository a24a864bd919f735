//! Packed carry bits: the payload of a bands boundary message, and the store's record of each row's
//! carry in. Row `start + t` is bit `t % 64` of word `t / 64` of each plane (one plane for the
//! LCS's carry, two for the edit distance's delta), the planes laid one after the other, so a batch
//! of `len` rows travels as `planes * ceil(len / 64)` `u64` words with the bits past `len` zero
//! ([`get_payload`], [`set_payload`]: O(1) per bit). [`Seams`] keeps the same payloads at the seams
//! inside a band, packed so that the fill, which writes all seams of a few rows at a time, touches
//! one short run of words per 64 rows, each group of 64 rows keeping only the seams its windows hold.

use std::ops::Range;

use crate::bitpar::{Carries4, WORD_BITS, WORD_BYTES};

/// Bit `t` of `words`.
#[inline]
pub fn get(words: &[u64], t: usize) -> bool {
    debug_assert!(t / WORD_BITS < words.len(), "carry bit {t} out of range");
    (words[t / WORD_BITS] >> (t % WORD_BITS)) & 1 == 1
}

/// Sets bit `t` of `words` to `bit`.
#[inline]
pub fn set(words: &mut [u64], t: usize, bit: bool) {
    debug_assert!(t / WORD_BITS < words.len(), "carry bit {t} out of range");
    let mask = 1u64 << (t % WORD_BITS);
    let word = &mut words[t / WORD_BITS];
    // Branch-free: clear the bit, then or in the new value.
    *word = (*word & !mask) | (u64::from(bit) << (t % WORD_BITS));
}

/// Row `t`'s payload from `planes` planes of `words` words each.
#[inline]
pub fn get_payload(packed: &[u64], words: usize, planes: usize, t: usize) -> u8 {
    (0..planes).fold(0u8, |acc, p| {
        acc | (u8::from(get(&packed[p * words..(p + 1) * words], t)) << p)
    })
}

/// Sets row `t`'s payload in `planes` planes of `words` words each.
#[inline]
pub fn set_payload(packed: &mut [u64], words: usize, planes: usize, t: usize, payload: u8) {
    for p in 0..planes {
        set(
            &mut packed[p * words..(p + 1) * words],
            t,
            (payload >> p) & 1 == 1,
        );
    }
}

/// Packs `bits` into `ceil(len / 64)` words.
pub fn pack(bits: &[bool]) -> Vec<u64> {
    let mut words = vec![0u64; bits.len().div_ceil(WORD_BITS)];
    for (t, &bit) in bits.iter().enumerate() {
        set(&mut words, t, bit);
    }
    words
}

/// The first `len` bits of `words`.
pub fn unpack(words: &[u64], len: usize) -> Vec<bool> {
    debug_assert!(len <= words.len() * WORD_BITS);
    (0..len).map(|t| get(words, t)).collect()
}

/// The carry payload into seams (places inside a band) for each row, `planes` bits each. Rows
/// go in groups of 64, and a group keeps the seams its rows may write only (on a diagonal band,
/// the seams inside its rows' windows; for the whole matrix, all of them): group `q` keeps
/// seams `firsts[q]..` and word `offsets[q] + (s - firsts[q]) * planes + p` holds, at bit
/// `r % 64`, bit `p` of row `r`'s payload at seam `s`. The seams of 64 consecutive rows lie
/// together.
#[derive(Debug, Clone, Default)]
pub struct Seams {
    words: Vec<u64>,
    /// Per group, its first seam.
    firsts: Vec<usize>,
    /// Per group, where its words begin; one more for the end of the last.
    offsets: Vec<usize>,
    planes: usize,
}

impl Seams {
    /// All payloads 0, group `q` keeping the seams `groups[q]` (rows `64 q..64 q + 64`).
    pub fn new(groups: impl ExactSizeIterator<Item = Range<usize>>, planes: usize) -> Seams {
        let mut firsts = Vec::with_capacity(groups.len());
        let mut offsets = Vec::with_capacity(groups.len() + 1);
        offsets.push(0);
        let mut total = 0;
        for seams in groups {
            firsts.push(seams.start);
            total += seams.len() * planes;
            offsets.push(total);
        }
        Seams {
            words: vec![0; total],
            firsts,
            offsets,
            planes,
        }
    }

    /// Bytes [`Seams::new`] allocates for the same groups, its index included.
    pub fn bytes(groups: impl Iterator<Item = Range<usize>>, planes: usize) -> u64 {
        let (mut count, mut seams) = (0u64, 0u64);
        for group in groups {
            count += 1;
            seams += group.len() as u64;
        }
        (planes as u64 * seams + 2 * count + 1) * WORD_BYTES
    }

    /// Words held (the capacities, the index included).
    pub fn capacity(&self) -> usize {
        self.words.capacity() + self.firsts.capacity() + self.offsets.capacity()
    }

    #[inline]
    fn at(&self, s: usize, r: usize) -> usize {
        let q = r / WORD_BITS;
        let first = self.firsts[q];
        debug_assert!(
            first <= s && (s - first) * self.planes < self.offsets[q + 1] - self.offsets[q],
            "seam {s} is not kept for row {r}"
        );
        self.offsets[q] + (s - first) * self.planes
    }

    /// Where seam `s` of row `r` would be, unchecked: a run of seams starting there may write
    /// none (each seam it writes is checked as it is written).
    #[inline]
    fn would_be_at(&self, s: usize, r: usize) -> usize {
        let q = r / WORD_BITS;
        let from_first = s.wrapping_sub(self.firsts[q]).wrapping_mul(self.planes);
        self.offsets[q].wrapping_add(from_first)
    }

    /// The words of groups `groups` (rows `64 q..64 q + 64` each), one group after the other:
    /// where a device's seams are copied in.
    pub fn group_words_mut(&mut self, groups: Range<usize>) -> &mut [u64] {
        &mut self.words[self.offsets[groups.start]..self.offsets[groups.end]]
    }

    /// Row `r`'s payload at seam `s`.
    #[inline]
    pub fn get(&self, s: usize, r: usize) -> u8 {
        let at = self.at(s, r);
        (0..self.planes).fold(0u8, |acc, p| {
            acc | ((((self.words[at + p] >> (r % WORD_BITS)) & 1) as u8) << p)
        })
    }

    /// The payloads of rows `r..r + 4` at seam `s`, packed ([`Carries4`]; see [`Seams::set4`]).
    #[inline]
    pub fn get4(&self, s: usize, r: usize) -> Carries4 {
        let shift = r % WORD_BITS;
        if shift > WORD_BITS - 4 {
            return Carries4::of_payloads([0, 1, 2, 3].map(|d| self.get(s, r + d)));
        }
        let at = self.at(s, r);
        let words = &self.words[at..at + self.planes];
        let byte = words.iter().enumerate().fold(0, |acc, (p, w)| {
            acc | ((((w >> shift) & 0xf) as u8) << (4 * p))
        });
        Carries4(byte)
    }

    /// Sets row `r`'s payload at seam `s`.
    #[inline]
    pub fn set(&mut self, s: usize, r: usize, payload: u8) {
        let at = self.at(s, r);
        for p in 0..self.planes {
            set(
                &mut self.words[at + p..],
                r % WORD_BITS,
                (payload >> p) & 1 == 1,
            );
        }
    }

    /// Sets the payloads of rows `r..r + 4` at seam `s`, packed as the four-row kernels
    /// report them ([`Carries4`]: bit `4 p + d` is bit `p` of row `r + d`'s).
    #[inline]
    pub fn set4(&mut self, s: usize, r: usize, carries: Carries4) {
        self.run4(r, s).put(carries);
    }

    /// Writes row `r`'s payloads at seams `s, s + 1, …` in turn ([`Run1::put`]).
    #[inline]
    pub fn run1(&mut self, r: usize, s: usize) -> Run1<'_> {
        Run1 {
            at: self.would_be_at(s, r),
            bit: 1 << (r % WORD_BITS),
            seams: self,
            #[cfg(debug_assertions)]
            r,
            #[cfg(debug_assertions)]
            s,
        }
    }

    /// Writes the payloads of rows `r..r + 4` at seams `s, s + 1, …` in turn
    /// ([`Run4::put`]): the seams one after the other in memory, a nibble per plane, one write
    /// each when the four rows share a word, as they do but for one start in sixteen.
    #[inline]
    pub fn run4(&mut self, r: usize, s: usize) -> Run4<'_> {
        let shift = r % WORD_BITS;
        let at = (shift <= WORD_BITS - 4).then(|| self.would_be_at(s, r));
        Run4 {
            seams: self,
            r,
            s,
            at,
            shift,
        }
    }
}

/// Row `r` of [`Seams`], written seam after seam ([`Seams::run1`]).
pub struct Run1<'a> {
    seams: &'a mut Seams,
    /// Where the next seam's first plane is.
    at: usize,
    bit: u64,
    #[cfg(debug_assertions)]
    r: usize,
    #[cfg(debug_assertions)]
    s: usize,
}

impl Run1<'_> {
    /// Writes the next seam's payload.
    #[inline(always)]
    pub fn put(&mut self, payload: u8) {
        #[cfg(debug_assertions)]
        {
            debug_assert_eq!(self.at, self.seams.at(self.s, self.r));
            self.s += 1;
        }
        let planes = self.seams.planes;
        for (p, word) in self.seams.words[self.at..self.at + planes]
            .iter_mut()
            .enumerate()
        {
            let value = u64::from((payload >> p) & 1) * self.bit;
            *word = (*word & !self.bit) | value;
        }
        self.at += planes;
    }
}

/// Rows `r..r + 4` of [`Seams`], written seam after seam ([`Seams::run4`]).
pub struct Run4<'a> {
    seams: &'a mut Seams,
    r: usize,
    /// The next seam.
    s: usize,
    /// Where the next seam's first plane is, if the four rows share a word.
    at: Option<usize>,
    shift: usize,
}

impl Run4<'_> {
    /// Writes the next seam's payloads.
    #[inline(always)]
    pub fn put(&mut self, carries: Carries4) {
        let planes = self.seams.planes;
        match &mut self.at {
            Some(at) => {
                debug_assert_eq!(*at, self.seams.at(self.s, self.r));
                let words = &mut self.seams.words[*at..*at + planes];
                for (p, word) in words.iter_mut().enumerate() {
                    let nibble = u64::from(carries.plane(p));
                    *word = (*word & !(0xf << self.shift)) | (nibble << self.shift);
                }
                *at += planes;
            }
            None => self.put_apart(carries),
        }
        self.s += 1;
    }

    /// [`Run4::put`] for rows in two groups: a row at a time.
    #[cold]
    #[inline(never)]
    fn put_apart(&mut self, carries: Carries4) {
        for d in 0..4 {
            self.seams.set(self.s, self.r + d, carries.payload(d));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seams_keep_each_payload_apart() {
        for planes in [1, 2] {
            let (rows, seams) = (200, 3);
            let payload = |s: usize, r: usize| ((r * 7 + s * 5 + r / 3) % (1 << planes)) as u8;
            let groups = || (0..4).map(|_| 0..seams);
            let mut one = Seams::new(groups(), planes);
            let mut four = Seams::new(groups(), planes);
            assert_eq!(one.words.len(), 4 * seams * planes);
            assert_eq!(one.capacity() as u64 * 8, Seams::bytes(groups(), planes));
            // Over stale bits: both ways of writing must clear as well as set.
            four.words.fill(u64::MAX);
            for s in 0..seams {
                for r in 0..rows {
                    one.set(s, r, payload(s, r));
                }
                // Starts at every offset within a word, across the word edges too.
                let mut r = 0;
                for step in [1, 4, 4, 3, 4, 4].into_iter().cycle() {
                    if r + 4 > rows {
                        break;
                    }
                    if step == 4 {
                        four.set4(
                            s,
                            r,
                            Carries4::of_payloads([0, 1, 2, 3].map(|d| payload(s, r + d))),
                        );
                    } else {
                        for d in 0..step {
                            four.set(s, r + d, payload(s, r + d));
                        }
                    }
                    r += step;
                }
                for r in r..rows {
                    four.set(s, r, payload(s, r));
                }
            }
            for s in 0..seams {
                for r in 0..rows {
                    assert_eq!(
                        one.get(s, r),
                        payload(s, r),
                        "planes {planes} seam {s} row {r}"
                    );
                    assert_eq!(
                        four.get(s, r),
                        payload(s, r),
                        "planes {planes} seam {s} row {r}"
                    );
                }
            }
        }
    }

    #[test]
    fn runs_write_what_single_sets_write() {
        // Rows written seam after seam, one at a time (run1) or four at a time (run4, at every
        // offset within a word, across word edges too), over stale bits, read back one row
        // and four rows at a time.
        for planes in [1, 2] {
            let (rows, seams) = (200, 5);
            let payload = |s: usize, r: usize| ((r * 5 + s * 3 + r / 7) % (1 << planes)) as u8;
            let groups = || (0..4).map(|_| 0..seams);
            let mut by_runs = Seams::new(groups(), planes);
            by_runs.words.fill(u64::MAX);
            let mut r = 0;
            for step in [1, 4, 4, 3, 4, 1, 4].into_iter().cycle() {
                if r + step > rows {
                    break;
                }
                // From seam 1: seam 0 written one row at a time.
                for d in 0..step {
                    by_runs.set(0, r + d, payload(0, r + d));
                }
                if step == 4 {
                    let mut run = by_runs.run4(r, 1);
                    for s in 1..seams {
                        run.put(Carries4::of_payloads(
                            [0, 1, 2, 3].map(|d| payload(s, r + d)),
                        ));
                    }
                } else {
                    for d in 0..step {
                        let mut run = by_runs.run1(r + d, 1);
                        (1..seams).for_each(|s| run.put(payload(s, r + d)));
                    }
                }
                r += step;
            }
            for s in 0..seams {
                for r in 0..r {
                    assert_eq!(
                        by_runs.get(s, r),
                        payload(s, r),
                        "planes {planes} ({s}, {r})"
                    );
                }
                for r in 0..r.saturating_sub(3) {
                    let want = Carries4::of_payloads([0, 1, 2, 3].map(|d| payload(s, r + d)));
                    assert_eq!(by_runs.get4(s, r), want, "planes {planes} ({s}, {r}..)");
                }
            }
        }
    }

    #[test]
    fn groups_keep_only_their_own_seams() {
        // Rows 0..64 keep no seam, 64..128 seams 2..4, 128..150 seam 7.
        let groups = [0..0, 2..4, 7..8];
        let mut seams = Seams::new(groups.iter().cloned(), 2);
        assert_eq!(seams.words.len(), 2 * 3);
        for r in 64..128 {
            seams.set(2, r, (r % 4) as u8);
            seams.set(3, r, 3 - (r % 4) as u8);
        }
        for r in 128..150 {
            seams.set(7, r, 1);
        }
        for r in 64..128 {
            assert_eq!(seams.get(2, r), (r % 4) as u8);
            assert_eq!(seams.get(3, r), 3 - (r % 4) as u8);
        }
        assert!((128..150).all(|r| seams.get(7, r) == 1));
    }

    #[test]
    fn payloads_spread_over_planes() {
        let words = 2;
        let mut packed = vec![0u64; 2 * words];
        for t in 0..100 {
            set_payload(&mut packed, words, 2, t, (t % 3) as u8);
        }
        for t in 0..100 {
            assert_eq!(get_payload(&packed, words, 2, t), (t % 3) as u8);
            assert_eq!(get(&packed[..words], t), t % 3 == 1, "plane 0 holds bit 0");
            assert_eq!(get(&packed[words..], t), t % 3 == 2, "plane 1 holds bit 1");
        }
        assert_eq!(
            get_payload(&packed, words, 1, 2),
            0,
            "one plane reads bit 0 only"
        );
    }

    #[test]
    fn pack_unpack_round_trip_at_word_edges() {
        for len in [0usize, 1, 2, 63, 64, 65, 127, 128, 129, 200] {
            let bits: Vec<bool> = (0..len).map(|t| (t * 7 + t / 3) % 5 < 2).collect();
            let words = pack(&bits);
            assert_eq!(words.len(), len.div_ceil(64), "len {len}");
            assert_eq!(unpack(&words, len), bits, "len {len}");
            // Bits past the batch are zero, so a message's content is a function of its rows.
            if len % 64 != 0 {
                assert_eq!(words[len / 64] >> (len % 64), 0);
            }
        }
    }

    #[test]
    fn set_overwrites_both_ways() {
        let mut words = vec![0u64; 2];
        set(&mut words, 70, true);
        assert!(get(&words, 70));
        assert_eq!(words, [0, 1 << 6]);
        set(&mut words, 70, false);
        assert_eq!(words, [0, 0]);
        set(&mut words, 0, true);
        set(&mut words, 63, true);
        assert_eq!(words[0], 1 | (1 << 63));
    }
}
