//! Patterns searched through the sieve ([`super::sieve`]): each call's text is sieved for the
//! patterns' grams, and each pattern's strips ([`super::strips`]) compute only the ends its grams
//! name, each stretch of them from its warm-up before it; every other end is above `k`, so the
//! hits are exactly the plain scan's.
//!
//! **Across calls.** The record's last bytes before the call (the *tail*, the longest warm-up)
//! give the grams that straddle the call's start and the warm-ups of the first ends; the ends a
//! gram names past the call's text wait for the next call (*pending*). A gram lies within its
//! match, so the ends it names come after it: none lies before the call in which the gram is
//! whole.
//!
//! **Where grams are many** (a repeat, a text with few distinct keys), the sieve costs more than
//! it saves: a call whose grams pass one per [`DENSE`] bytes is computed whole, as are the next
//! [`REST`] calls, and the call after a whole one sieves its tail again (a gram there can name
//! ends in it).
//!
//! Cost: the sieve's scan of each call, then each pattern's strips over its stretches of ends,
//! about `m + 3k` columns for a lone gram; the stretches closer than a warm-up are joined.

use super::chunks;
use super::lanes::{Hit, Simd};
use super::sieve::{Sieve, GRAM};
use super::strips::{self, Job, Strips};

/// A call whose grams pass more than one per this many bytes is computed whole.
pub const DENSE: usize = 16;

/// Calls computed whole after a dense one, before the sieve is tried again.
pub const REST: usize = 16;

/// Sieved patterns, their strips and the record's state between calls.
pub struct Sifted {
    sieve: Sieve,
    /// Each pattern's strips, in the sieve's order.
    strips: Vec<Strips>,
    patterns: Vec<Vec<u8>>,
    k: usize,
    /// The record's last bytes before the next call: the longest warm-up (`keep`).
    tail: Vec<u8>,
    keep: usize,
    /// The record's bytes seen since its start (or the searcher's).
    seen: u64,
    /// Candidate ends past the calls so far: pattern, first and last end (counted as `seen`).
    pending: Vec<(usize, u64, u64)>,
    /// Calls to compute whole before the sieve is tried again.
    rest: usize,
    /// Whether the next call sieves its whole tail (the call before it was computed whole).
    again: bool,
    /// Calls sieved, and calls computed whole.
    pub sieved: u64,
    pub whole: u64,
}

impl Sifted {
    /// Patterns `(number, bytes)` (each one [`Sieve::takes`]) within `k` edits, exact bytes.
    pub fn new(patterns: &[(usize, &[u8])], k: usize) -> Sifted {
        let bytes: Vec<&[u8]> = patterns.iter().map(|&(_, b)| b).collect();
        let strips = patterns
            .iter()
            .map(|&(number, b)| Strips::new(number, b, k, super::alphabet::Alphabet::Exact))
            .collect();
        Sifted {
            sieve: Sieve::new(&bytes, k),
            strips,
            keep: chunks::overlap(bytes.iter().map(|b| b.len()), k) as usize,
            patterns: bytes.iter().map(|b| b.to_vec()).collect(),
            k,
            tail: Vec::new(),
            seen: 0,
            pending: Vec::new(),
            rest: 0,
            again: false,
            sieved: 0,
            whole: 0,
        }
    }

    /// Whether patterns of `lengths` within `k` edits, exact bytes, go through the sieve: each
    /// one takes it.
    pub fn takes(lengths: impl IntoIterator<Item = usize>, k: usize) -> bool {
        lengths.into_iter().all(|m| Sieve::takes(m, k))
    }

    /// Back to a column with no text before it (a record's start).
    pub fn reset(&mut self) {
        self.tail.clear();
        self.pending.clear();
        self.seen = 0;
        self.again = false;
    }

    /// Bytes held: see [`Sifted::held`].
    pub fn bytes(&self) -> u64 {
        Sifted::held(self.patterns.iter().map(Vec::len), self.k)
    }

    /// Bytes patterns of `lengths` within `k` edits hold through the sieve: the sieve, each
    /// pattern, its strips (what each holds while it runs), and the tail.
    pub fn held(lengths: impl IntoIterator<Item = usize> + Clone, k: usize) -> u64 {
        let warm = |m: usize| chunks::overlap([m], k) as usize;
        let strips: u64 = (lengths.clone().into_iter())
            .map(|m| m as u64 + Strips::held(m, m.min(256), warm(m)))
            .sum();
        let grams = lengths.clone().into_iter().count() * (k + 1);
        Sieve::held(grams) + strips + chunks::overlap(lengths, k)
    }

    /// Rows the strips computed, and strips (for the tests and the cost model).
    pub fn work(&self) -> (u64, u64) {
        let rows = self.strips.iter().map(|s| s.rows).sum();
        (rows, self.strips.iter().map(|s| s.strips).sum())
    }

    /// Scans `text`, continuing the record from the previous call; as
    /// [`super::lanes::scan`] for `base`, `from` and `hits`, with the `simd` compilation.
    pub fn scan(&mut self, simd: Simd, text: &[u8], base: u64, from: usize, hits: &mut Vec<Hit>) {
        let (t, n) = (self.tail.len(), text.len());
        // Virtual columns: the tail, then the text; `origin` counts column 0 as `seen` does.
        let origin = self.seen - t as u64;
        // The ends reported now, as `seen` counts them (an end is its column plus one).
        let first = self.seen + from as u64 + 1;
        let last = self.seen + n as u64;
        let mut candidates = Vec::new();
        let sieved = self.rest == 0 && self.grams(simd, text, origin, &mut candidates);
        let mut jobs: Vec<Vec<Job>> = vec![Vec::new(); self.strips.len()];
        if sieved {
            self.sieved += 1;
            candidates.append(&mut self.pending);
            candidates.sort_unstable();
            let mut joined: Vec<(usize, u64, u64)> = Vec::new();
            for (p, lo, hi) in candidates {
                match joined.last_mut() {
                    Some(j) if j.0 == p && lo <= j.2 + self.strips[p].warm() as u64 => {
                        j.2 = j.2.max(hi)
                    }
                    _ => joined.push((p, lo, hi)),
                }
            }
            for (p, lo, hi) in joined {
                let (now_lo, now_hi) = (lo.max(first), hi.min(last));
                if now_lo <= now_hi {
                    let columns = (now_lo - 1 - origin) as usize..(now_hi - origin) as usize;
                    strips::jobs_for(columns, self.strips[p].warm(), &mut jobs[p]);
                }
                if hi > last {
                    self.pending.push((p, lo.max(last + 1), hi));
                }
            }
        } else {
            self.whole += 1;
            self.rest = match self.rest {
                0 => REST,
                r => r - 1,
            };
            self.again = true;
            // Every end of the call is computed; those past it wait as they did.
            self.pending.retain_mut(|(_, lo, hi)| {
                *lo = (*lo).max(last + 1);
                *hi > last
            });
            if first <= last {
                for (strips, jobs) in self.strips.iter().zip(jobs.iter_mut()) {
                    strips::jobs_for(t + from..t + n, strips.warm(), jobs);
                }
            }
        }
        for (strips, jobs) in self.strips.iter_mut().zip(&jobs) {
            strips.run(simd, (&self.tail, text), jobs, base, hits);
        }
        self.seen += n as u64;
        if n >= self.keep {
            self.tail.clear();
            self.tail.extend_from_slice(&text[n - self.keep..]);
        } else {
            self.tail.extend_from_slice(text);
            let drop = self.tail.len().saturating_sub(self.keep);
            self.tail.drain(..drop);
        }
    }

    /// The candidate ends of the grams that end in `text` (and start in the tail or in it) and
    /// whose whole pieces the text holds (or may, past its end): `(pattern, first end, last
    /// end)`, counted as `seen` with column 0 at `origin`. `false` when they pass one per
    /// [`DENSE`] bytes, or the grams one per four: the call is then computed whole.
    fn grams(
        &mut self,
        simd: Simd,
        text: &[u8],
        origin: u64,
        out: &mut Vec<(usize, u64, u64)>,
    ) -> bool {
        let t = self.tail.len();
        let budget = text.len() / DENSE + 64;
        let (patterns, k, tail) = (&self.patterns, self.k, &self.tail[..]);
        // Grams whose pieces differ cost a comparison each: a quarter of the bytes at most.
        let mut grams = text.len() / 4 + 64;
        let mut push = |at: usize, pattern: usize, offset: usize| {
            grams -= 1;
            if grams == 0 {
                return false;
            }
            // The gram's whole piece, where the text holds it: a piece that differs is no
            // match's unedited one.
            let bytes = &patterns[pattern];
            let piece = &bytes[offset..offset + bytes.len() / (k + 1)];
            let differs = match at.checked_sub(t) {
                Some(i) => text.get(i..i + piece.len()).is_some_and(|b| b != piece),
                None => {
                    let mut held = tail[at..].iter().chain(text);
                    at + piece.len() <= t + text.len()
                        && !piece.iter().eq(held.by_ref().take(piece.len()))
                }
            };
            if differs {
                return true;
            }
            // The gram at column `at` leaves `m - offset` pattern bytes from it on.
            let (at, rest) = (origin + at as u64, (bytes.len() - offset) as u64);
            let lo = (at + rest).saturating_sub(k as u64).max(at + GRAM as u64);
            out.push((pattern, lo, at + rest + k as u64));
            out.len() <= budget
        };
        // The grams that start in the tail: from its first byte after a call computed whole,
        // else those the last call could not see whole.
        let from = if self.again {
            0
        } else {
            t.saturating_sub(GRAM - 1)
        };
        self.again = false;
        let mut joined = self.tail[from..].to_vec();
        joined.extend_from_slice(&text[..text.len().min(GRAM - 1)]);
        let sieve = &self.sieve;
        sieve.scan(simd, &joined, 0, |at, g| {
            push(from + at, g.pattern as usize, g.offset as usize)
        }) && sieve.scan(simd, text, 0, |at, g| {
            push(t + at, g.pattern as usize, g.offset as usize)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;
    use crate::search::oracle;

    /// The plain DP's hits of `patterns` over `text` (whole), from byte `from` on.
    fn want(patterns: &[Vec<u8>], text: &[u8], k: usize, from: usize) -> Vec<Hit> {
        let mut out: Vec<Hit> = patterns
            .iter()
            .enumerate()
            .flat_map(|(p, bytes)| {
                oracle::ends(bytes, text, k)
                    .into_iter()
                    .filter(move |&(e, _)| e > from)
                    .map(move |(e, d)| Hit {
                        pattern: 10 + p,
                        end: e as u64,
                        distance: d,
                    })
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// A copy of `bytes` with up to `edits` random edits.
    fn edited(rng: &mut Random, bytes: &[u8], edits: usize, symbols: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        for _ in 0..rng.below(edits + 1) {
            let at = rng.below(out.len());
            let b = symbols[rng.below(symbols.len())];
            match rng.below(3) {
                0 => out[at] = b,
                1 => out.insert(at, b),
                _ if out.len() > 1 => {
                    out.remove(at);
                }
                _ => {}
            }
        }
        out
    }

    /// Patterns planted with up to `k` edits (some near the calls' cuts), over a text cut into
    /// calls at random places, every compilation: exactly the plain DP's hits, none doubled.
    /// Some rounds repeat a gram all over the text, so that calls are computed whole and the
    /// sieve comes back after them.
    #[test]
    fn the_sifted_scan_finds_what_the_plain_dp_finds() {
        let mut rng = Random::new(23);
        for round in 0..200 {
            let symbols: &[u8] = match round % 4 {
                0 => b"ACGTN",
                1 => b"acgtACGT",
                _ => b"ACGT",
            };
            let k = rng.below(4);
            let count = 1 + rng.below(4);
            let patterns: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    let m = GRAM * (k + 1) + rng.below(20);
                    rng.bytes(m, b"ACGT")
                })
                .collect();
            let n = rng.below(3000);
            let mut text = rng.bytes(n, symbols);
            if round % 5 == 4 && n > 400 {
                // A repeat of the first pattern's first gram over a stretch: dense calls.
                let gram = patterns[0][..GRAM].to_vec();
                let at = rng.below(n - 400);
                for i in 0..40 {
                    text[at + i * GRAM..at + (i + 1) * GRAM].copy_from_slice(&gram);
                }
            }
            for _ in 0..rng.below(12) {
                let p = &patterns[rng.below(count)];
                let planted = edited(&mut rng, p, k, b"ACGT");
                if planted.len() < text.len() {
                    let at = rng.below(text.len() - planted.len());
                    text[at..at + planted.len()].copy_from_slice(&planted);
                }
            }
            let numbered: Vec<(usize, &[u8])> = patterns
                .iter()
                .enumerate()
                .map(|(p, b)| (10 + p, &b[..]))
                .collect();
            for simd in Simd::available() {
                let mut sifted = Sifted::new(&numbered, k);
                // A warm-up call reporting nothing, then calls of random lengths.
                let warm = rng.below(text.len() / 3 + 1);
                let mut got = Vec::new();
                sifted.scan(simd, &text[..warm], 0, warm, &mut got);
                assert!(got.is_empty(), "round {round}: the warm-up reports nothing");
                let mut at = warm;
                while at < text.len() {
                    let len = match rng.below(4) {
                        0 => rng.below(8),
                        1 => rng.below(100),
                        _ => rng.below(1500),
                    };
                    let end = (at + len).min(text.len());
                    sifted.scan(simd, &text[at..end], at as u64, 0, &mut got);
                    at = end;
                }
                got.sort_unstable();
                assert_eq!(
                    got,
                    want(&patterns, &text, k, warm),
                    "round {round}, {simd:?}"
                );
            }
        }
    }

    /// Matches at the sieve's edges: exactly one piece unedited (each in turn) and every other
    /// piece with one edit of each kind, at the piece's first or last byte, insertions at the
    /// pieces' boundaries among them; the match's ends at the extremes a gram names. Each is
    /// found at the distance the plain DP gives, with the same ends.
    #[test]
    fn matches_with_one_piece_unedited_are_found() {
        let mut rng = Random::new(31);
        let mut found = 0;
        for round in 0..300 {
            let k = 1 + rng.below(4);
            let m = GRAM * (k + 1) + rng.below(12);
            let pattern = rng.bytes(m, b"ACGT");
            let piece = m / (k + 1);
            let kept = rng.below(k + 1);
            // Edits from the last piece back, so that earlier offsets stay put.
            let mut planted = pattern.clone();
            for j in (0..=k).rev().filter(|&j| j != kept) {
                let at = match rng.coin() {
                    true => j * piece,
                    false => j * piece + piece - 1,
                };
                match rng.below(3) {
                    0 => planted[at] = if planted[at] == b'A' { b'C' } else { b'A' },
                    1 => planted.insert(at + usize::from(rng.coin()), b"ACGT"[rng.below(4)]),
                    _ => {
                        planted.remove(at);
                    }
                }
            }
            let (b, a) = (rng.below(200), rng.below(200));
            let (before, after) = (rng.bytes(b, b"ACGT"), rng.bytes(a, b"ACGT"));
            let text = [&before[..], &planted, &after].concat();
            let numbered = [(10, &pattern[..])];
            let mut sifted = Sifted::new(&numbered, k);
            let mut got = Vec::new();
            let cut = rng.below(text.len() + 1);
            sifted.scan(Simd::detect(), &text[..cut], 0, 0, &mut got);
            sifted.scan(Simd::detect(), &text[cut..], cut as u64, 0, &mut got);
            got.sort_unstable();
            let want = want(std::slice::from_ref(&pattern), &text, k, 0);
            let end = (before.len() + planted.len()) as u64;
            let here = want.iter().any(|h| h.end == end);
            assert!(here, "round {round}: the planted match ends within k");
            found += usize::from(got.iter().any(|h| h.end == end));
            assert_eq!(got, want, "round {round}: k {k}, piece {kept} kept");
        }
        assert_eq!(found, 300);
    }

    /// On random DNA the strips compute a small part of the text; a repeat of a gram makes the
    /// calls whole, and the sieve comes back after them.
    #[test]
    fn the_sieve_skips_most_of_random_text_and_rests_on_repeats() {
        let mut rng = Random::new(29);
        let pattern = rng.bytes(32, b"ACGT");
        let text = rng.bytes(1 << 20, b"ACGT");
        let mut sifted = Sifted::new(&[(0, &pattern[..])], 3);
        let mut hits = Vec::new();
        for call in text.chunks(1 << 16) {
            sifted.scan(Simd::detect(), call, 0, 0, &mut hits);
        }
        let (_, strips) = sifted.work();
        assert!(
            strips * (strips::STRIP as u64) < (text.len() / 50) as u64,
            "{strips} strips for {} bytes",
            text.len()
        );
        assert_eq!((sifted.sieved, sifted.whole), (16, 0));
        let repeat: Vec<u8> = pattern[..GRAM].repeat((1 << 16) / GRAM);
        let mut sifted = Sifted::new(&[(0, &pattern[..])], 3);
        for call in [&repeat[..], &text[..1 << 16]]
            .into_iter()
            .chain(text.chunks(1 << 16))
        {
            sifted.scan(Simd::detect(), call, 0, 0, &mut hits);
        }
        assert_eq!(sifted.whole, 1 + REST as u64);
        assert_eq!(sifted.sieved, 18 - 1 - REST as u64);
    }
}
