//! A set of units of patterns ready to scan a text ([`Searcher`]), and the search of a text
//! held in memory ([`find`]): the units run over one part of it from its warm-up, and every
//! match located. The MPI engine streams a file through a `Searcher`; the Python package and
//! the tests call [`find`] on bytes they hold, one part per thread.
//!
//! Cost: each unit's kernel over the part and its warm-up (`m + k - 1` bytes of the longest
//! pattern before it); the starts' windows, `m + k` bytes before each slice of hits.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::alphabet::Alphabet;
use super::chunks::{self, Class, Unit};
use super::lanes::{self, Compiled, Group, Hit, Lane, Simd};
use super::sifted::Sifted;
use super::starts;
use super::strips::Strips;
use super::Match;

/// A rank's units, ready to scan.
pub struct Searcher {
    simd: Simd,
    u8s: Vec<Group<u8, 32>>,
    u16s: Vec<Group<u16, 16>>,
    u32s: Vec<Group<u32, 8>>,
    u64s: Vec<Group<u64, 4>>,
    strips: Vec<Strips>,
    /// Every pattern, through the sieve, where they all take it ([`Searcher::sifts`]).
    sifted: Option<Sifted>,
}

impl Searcher {
    /// Whether patterns of `lengths` within `k` edits, bytes matching as `alphabet` says, go
    /// through the sieve ([`super::sifted`]) rather than their units' kernels: with exact bytes,
    /// when every pattern takes it.
    pub fn sifts(lengths: impl IntoIterator<Item = usize>, k: usize, alphabet: Alphabet) -> bool {
        alphabet == Alphabet::Exact && Sifted::takes(lengths, k)
    }

    /// The searcher of `units` of `patterns` (numbered as `units` say), within `k` edits,
    /// with the `simd` compilation.
    pub fn new(
        units: &[Unit],
        patterns: &[Vec<u8>],
        (k, alphabet): (usize, Alphabet),
        simd: Simd,
    ) -> Searcher {
        let mut s = Searcher {
            simd,
            u8s: Vec::new(),
            u16s: Vec::new(),
            u32s: Vec::new(),
            u64s: Vec::new(),
            strips: Vec::new(),
            sifted: None,
        };
        let lengths = units
            .iter()
            .flat_map(|u| u.patterns.iter().map(|&p| patterns[p].len()));
        if Searcher::sifts(lengths, k, alphabet) {
            let numbered: Vec<(usize, &[u8])> = units
                .iter()
                .flat_map(|u| u.patterns.iter().map(|&p| (p, &patterns[p][..])))
                .collect();
            s.sifted = Some(Sifted::new(&numbered, k));
            return s;
        }
        for unit in units {
            let numbered: Vec<(usize, &[u8])> = unit
                .patterns
                .iter()
                .map(|&p| (p, &patterns[p][..]))
                .collect();
            match unit.class {
                Class::U8 => s.u8s.push(Group::new(&numbered, k, alphabet)),
                Class::U16 => s.u16s.push(Group::new(&numbered, k, alphabet)),
                Class::U32 => s.u32s.push(Group::new(&numbered, k, alphabet)),
                Class::U64 => s.u64s.push(Group::new(&numbered, k, alphabet)),
                Class::Strip => {
                    let (number, bytes) = numbered[0];
                    s.strips.push(Strips::new(number, bytes, k, alphabet))
                }
            }
        }
        s
    }

    /// Back to a column with no text before it.
    pub fn reset(&mut self) {
        self.u8s.iter_mut().for_each(Group::reset);
        self.u16s.iter_mut().for_each(Group::reset);
        self.u32s.iter_mut().for_each(Group::reset);
        self.u64s.iter_mut().for_each(Group::reset);
        self.strips.iter_mut().for_each(Strips::reset);
        self.sifted.iter_mut().for_each(Sifted::reset);
    }

    /// Bytes the units hold.
    pub fn bytes(&self) -> u64 {
        let groups = self.u8s.len() + self.u16s.len() + self.u32s.len() + self.u64s.len();
        groups as u64 * (lanes::VECTOR_BYTES * 263) as u64
            + self.strips.iter().map(Strips::bytes).sum::<u64>()
            + self.sifted.as_ref().map_or(0, Sifted::bytes)
    }

    /// Calls sieved and calls computed whole, where the patterns go through the sieve.
    pub fn sieve_calls(&self) -> Option<(u64, u64)> {
        self.sifted.as_ref().map(|s| (s.sieved, s.whole))
    }

    /// Scans `text` with every unit, as [`lanes::scan`] does.
    pub fn scan(&mut self, text: &[u8], base: u64, from: usize, hits: &mut Vec<Hit>) {
        let simd = self.simd;
        scan_groups(simd, &mut self.u8s, text, base, from, hits);
        scan_groups(simd, &mut self.u16s, text, base, from, hits);
        scan_groups(simd, &mut self.u32s, text, base, from, hits);
        scan_groups(simd, &mut self.u64s, text, base, from, hits);
        for strips in &mut self.strips {
            strips.scan(simd, text, base, from, hits);
        }
        if let Some(sifted) = &mut self.sifted {
            sifted.scan(simd, text, base, from, hits);
        }
    }
}

/// Groups of one width over `text`, [`lanes::INTERLEAVE`] at a time. A group left alone goes
/// as two halves of the text stepped together ([`lanes::scan_halves`]) on AVX2 and plain
/// arrays, where that hides the step's latency; AVX-512 steps it whole, which is faster there
/// (`cargo bench --bench kernel -- search`; the figures are in `docs/performance.md`).
fn scan_groups<T: Lane + Compiled<T, L>, const L: usize>(
    simd: Simd,
    groups: &mut [Group<T, L>],
    text: &[u8],
    base: u64,
    from: usize,
    hits: &mut Vec<Hit>,
) {
    const _: () = assert!(lanes::INTERLEAVE == 2);
    for pair in groups.chunks_mut(2) {
        match pair {
            [a, b] => lanes::scan(simd, [a, b], text, base, from, hits),
            [a] if simd == Simd::Avx512 => lanes::scan(simd, [a], text, base, from, hits),
            [a] => lanes::scan_halves(simd, a, text, base, from, hits),
            _ => unreachable!("chunks of one or two"),
        }
    }
}

/// Text bytes [`find`] scans at a time: the hits of a slice wait for their starts together.
const SLICE: usize = 1 << 16;

/// Every match of `patterns` within `k` edits (bytes matching as `alphabet` says) whose end
/// lies in `part` of `text` (one record),
/// in the order found: slice by slice, within a slice by pattern and end. The part is scanned
/// from its warm-up, so the parts of a split of the text together find every match once
/// ([`chunks::text_range`]). Stops early, with what it found so far, once `cancel` is set.
pub fn find(
    patterns: &[Vec<u8>],
    (k, alphabet): (usize, Alphabet),
    text: &[u8],
    part: Range<usize>,
    simd: Simd,
    cancel: &AtomicBool,
) -> Vec<Match> {
    let lengths: Vec<usize> = patterns.iter().map(Vec::len).collect();
    let units = chunks::units(&lengths, k);
    let mut searcher = Searcher::new(&units, patterns, (k, alphabet), simd);
    let warm = chunks::warm_up(
        part.start as u64,
        chunks::overlap(lengths.iter().copied(), k),
    );
    let keep = chunks::window(lengths.iter().copied(), k);
    let mut hits = Vec::new();
    let before = &text[part.start - warm as usize..part.start];
    searcher.scan(before, part.start as u64 - warm, before.len(), &mut hits);
    debug_assert!(hits.is_empty(), "the warm-up reports nothing");
    let mut found = Vec::new();
    let mut at = part.start;
    while at < part.end && !cancel.load(Ordering::Relaxed) {
        let end = (at + SLICE).min(part.end);
        hits.clear();
        searcher.scan(&text[at..end], at as u64, 0, &mut hits);
        if !hits.is_empty() {
            let from = at.saturating_sub(keep);
            let window = (&text[from..end], from as u64);
            locate((patterns, k, alphabet), &mut hits, 0, window, |m| {
                found.push(m)
            });
        }
        at = end;
    }
    found
}

/// The matches of `hits` (found in `record`), with their starts from `window` (the record's
/// bytes from offset `from` on), each handed to `emit`: by pattern, then end.
pub fn locate(
    (patterns, k, alphabet): (&[Vec<u8>], usize, Alphabet),
    hits: &mut [Hit],
    record: u64,
    (window, from): (&[u8], u64),
    mut emit: impl FnMut(Match),
) {
    hits.sort_unstable();
    for run in hits.chunk_by(|a, b| a.pattern == b.pattern) {
        let pattern = (&patterns[run[0].pattern][..], alphabet);
        let starts = starts::locate(pattern, k, window, from, run);
        for (h, start) in run.iter().zip(starts) {
            emit(Match {
                pattern: h.pattern,
                record,
                start,
                end: h.end,
                distance: h.distance,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;
    use crate::search::oracle;
    use crate::split::Split;

    /// Patterns of every class, planted with an edit, over a text cut into 1 to 5 parts: the
    /// parts' matches together are the plain DP's, none lost or doubled at the cuts. With IUPAC
    /// codes in the patterns and the text, by that alphabet's relation.
    fn check(alphabet: Alphabet, symbols: &[u8], seed: u64) {
        let mut rng = Random::new(seed);
        let never = AtomicBool::new(false);
        let simd = Simd::detect();
        for _ in 0..40 {
            let patterns: Vec<Vec<u8>> = (0..1 + rng.below(6))
                .map(|_| {
                    let m =
                        [1 + rng.below(8), 1 + rng.below(60), 65 + rng.below(150)][rng.below(3)];
                    rng.bytes(m, symbols)
                })
                .collect();
            let k = rng.below(6);
            let len = rng.below(5000);
            let mut text = rng.bytes(len, symbols);
            for p in &patterns {
                let mut copy = p.clone();
                let at = rng.below(copy.len());
                copy[at] = b'T';
                let at = rng.below(text.len() + 1);
                text.splice(at..at, copy);
            }
            let mut want = Vec::new();
            for (pattern, p) in patterns.iter().enumerate() {
                for (start, end, distance) in oracle::matches_in(p, &text, k, alphabet) {
                    let (start, end, record) = (start as u64, end as u64, 0);
                    want.push(Match {
                        pattern,
                        record,
                        start,
                        end,
                        distance,
                    });
                }
            }
            want.sort();
            let parts = 1 + rng.below(5);
            let split = Split::new(text.len(), parts);
            let mut got: Vec<Match> = (0..parts)
                .flat_map(|i| {
                    find(
                        &patterns,
                        (k, alphabet),
                        &text,
                        split.range(i),
                        simd,
                        &never,
                    )
                })
                .collect();
            got.sort();
            assert_eq!(got, want, "{alphabet:?} k {k}, {parts} parts");
        }
    }

    #[test]
    fn the_parts_of_a_text_in_memory_find_what_the_plain_dp_finds() {
        check(Alphabet::Exact, b"ACGT", 41);
    }

    /// Mostly bases, some codes: `N` and `R` in patterns and text, lower case, a byte that is
    /// no code.
    #[test]
    fn iupac_codes_match_as_the_plain_dp_with_their_relation_says() {
        check(Alphabet::Iupac, b"ACGTACGTACGTNRYacgtn-", 43);
    }
}
