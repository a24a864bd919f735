//! The pigeonhole filter: where in a text a match within `k` edits can end at all. Cut a pattern
//! of `m` bytes into `k + 1` disjoint pieces of `m / (k + 1)` bytes: each edit of an alignment
//! touches at most one piece, so a match within `k` holds at least one piece unedited, and with
//! it that piece's first [`GRAM`] bytes as they are (the partition into exact search of Wu and
//! Manber's agrep, 1992, and Baeza-Yates and Navarro, 1999). The sieve finds every place where
//! one of those grams occurs, and each names the only ends a match holding it can have: a gram
//! at pattern offset `a` found at text offset `p` leaves `m - a` pattern bytes from `p` on, with
//! at most `k` edits among them, so the match ends in `[p + m - a - k, p + m - a + k]` (and past
//! the gram). Only those ends need computing ([`super::sifted`]); the rest of the text holds
//! none.
//!
//! **The keys.** A gram is found by a 16-bit key of its eight bytes, two bits of each:
//! `(b >> 1) & 3`, which tells `A`, `C`, `G` and `T` apart in either case. On DNA the key is the
//! gram; on other bytes it is a hash whose collisions cost a verification, never a match. A map of
//! the 65,536 keys (8 KiB, in the first-level cache) says which are grams.
//!
//! **The scan.** With AVX2, 32 positions at a time: the 8-bit keys of the grams' first and last
//! four bytes, each looked up in a 256-bit set of the grams' halves with `pshufb` (two
//! look-ups and a blend, then the bit of the high nibble); only where both halves are members
//! does the whole key go to the map. Portably, the key rolls a byte at a time. On random DNA a
//! position passes both halves with probability about `(keys / 256)^2` at most, and the map
//! with `keys / 65536`.
//!
//! Cost: about 1.3 vector operations a byte with AVX2, a few scalar ones a byte portably, and a
//! look-up of the map at each position both halves pass. Memory: the map, the halves' tables
//! (64 bytes, or 256 as permutations), twelve bytes a gram.

use super::lanes::Simd;

/// Bytes ahead of the scan that a vector scan fetches into the cache: the hardware's stream
/// prefetchers stop at a page's end, and on a text mapped in place every page starts cold.
const PREFETCH: usize = 4096;

/// Bytes of a gram: the key holds two bits of each.
pub const GRAM: usize = 8;

/// How a scan computes: with AVX-512 where the CPU also has VBMI and GFNI (a byte's bits moved
/// by one affine transform, a set looked up by one permutation), with AVX-512, AVX2, or a byte
/// at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Gfni,
    Avx512,
    Avx2,
    Portable,
}

impl Way {
    /// The best way for the `simd` compilation on this CPU.
    fn of(simd: Simd) -> Way {
        match simd {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512
                if std::arch::is_x86_feature_detected!("avx512vbmi")
                    && std::arch::is_x86_feature_detected!("gfni") =>
            {
                Way::Gfni
            }
            Simd::Avx512 => Way::Avx512,
            Simd::Avx2 => Way::Avx2,
            Simd::Portable => Way::Portable,
        }
    }

    /// Every way this CPU runs (for the tests).
    #[cfg(test)]
    fn available() -> Vec<Way> {
        let mut ways: Vec<Way> = Simd::available().into_iter().map(Way::of).collect();
        if ways.contains(&Way::Gfni) {
            ways.push(Way::Avx512);
        }
        ways
    }
}

/// A piece's gram: its key, the pattern it belongs to (the caller's index) and its offset there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Gram {
    pub key: u16,
    pub pattern: u32,
    pub offset: u32,
}

/// The grams of a set of patterns, ready to scan a text for them.
#[derive(Clone)]
pub struct Sieve {
    /// Bit `key` set when a gram has that key.
    map: Vec<u64>,
    /// The sets of the grams' first and last four bytes' keys, 256 bits each, as two `pshufb`
    /// tables: byte `l` of the first table holds bit `h` for the key `16 h + l` (`h < 8`), of
    /// the second bit `h - 8` (`h >= 8`).
    halves: [[[u8; 16]; 2]; 2],
    /// The same sets as 128-byte tables for `vpermt2b`: byte `i` holds at bit 6 whether `i` is
    /// a member, at bit 7 whether `i + 128` is.
    permuted: [[u8; 128]; 2],
    /// Every gram, sorted by key.
    grams: Vec<Gram>,
}

/// The key of the [`GRAM`] bytes from the start of `bytes`: byte `j`'s code at bits `2j`.
#[inline(always)]
pub fn key(bytes: &[u8]) -> u16 {
    let word = u64::from_le_bytes(bytes[..GRAM].try_into().expect("a gram's bytes"));
    // Each byte's code, then pairs, fours and eights of codes gathered side by side.
    let mut y = (word >> 1) & 0x0303_0303_0303_0303;
    y = (y | (y >> 6)) & 0x000f_000f_000f_000f;
    y = (y | (y >> 12)) & 0x0000_00ff_0000_00ff;
    ((y | (y >> 24)) & 0xffff) as u16
}

impl Sieve {
    /// Whether a pattern of `m` bytes searched within `k` edits can be sieved: each of its
    /// `k + 1` pieces holds a gram.
    pub fn takes(m: usize, k: usize) -> bool {
        m >= GRAM * (k + 1)
    }

    /// The sieve of `patterns` (each one [`Sieve::takes`]) within `k` edits.
    pub fn new(patterns: &[&[u8]], k: usize) -> Sieve {
        let mut grams = Vec::new();
        for (number, pattern) in patterns.iter().enumerate() {
            let m = pattern.len();
            assert!(
                Sieve::takes(m, k),
                "a pattern of {m} bytes within {k} edits"
            );
            let piece = m / (k + 1);
            grams.extend((0..=k).map(|j| Gram {
                key: key(&pattern[j * piece..]),
                pattern: number as u32,
                offset: (j * piece) as u32,
            }));
        }
        grams.sort_unstable();
        grams.dedup();
        let mut map = vec![0u64; 1 << 10];
        let mut halves = [[[0u8; 16]; 2]; 2];
        for g in &grams {
            map[usize::from(g.key >> 6)] |= 1 << (g.key & 63);
            for (half, byte) in halves.iter_mut().zip([g.key & 255, g.key >> 8]) {
                let (h, l) = (usize::from(byte >> 4), usize::from(byte & 15));
                half[h / 8][l] |= 1 << (h % 8);
            }
        }
        let mut sieve = Sieve {
            map,
            halves,
            permuted: [[0; 128]; 2],
            grams,
        };
        for half in 0..2 {
            sieve.permuted[half] = std::array::from_fn(|i| {
                let member = |b: usize| u8::from(sieve.member(half, b as u16));
                member(i) << 6 | member(i + 128) << 7
            });
        }
        sieve
    }

    /// Grams held (distinct ones).
    pub fn grams(&self) -> usize {
        self.grams.len()
    }

    /// Bytes a sieve of `grams` grams holds: the map, the halves' tables in both forms, the
    /// grams.
    pub fn held(grams: usize) -> u64 {
        (8 << 10) + 64 + 256 + (grams * std::mem::size_of::<Gram>()) as u64
    }

    /// Whether `byte` is in half `half`'s set.
    fn member(&self, half: usize, byte: u16) -> bool {
        let (h, l) = (usize::from(byte >> 4), usize::from(byte & 15));
        self.halves[half][h / 8][l] >> (h % 8) & 1 == 1
    }

    /// The grams found in `bytes` starting at `first` or later (each whole in `bytes`), by
    /// position, each handed to `found` with its position; stops early, returning `false`,
    /// once `found` returns `false`.
    pub fn scan(
        &self,
        simd: super::lanes::Simd,
        bytes: &[u8],
        first: usize,
        found: impl FnMut(usize, &Gram) -> bool,
    ) -> bool {
        self.scan_by(Way::of(simd), bytes, first, found)
    }

    /// [`Sieve::scan`] the `way` given.
    fn scan_by(
        &self,
        way: Way,
        bytes: &[u8],
        first: usize,
        mut found: impl FnMut(usize, &Gram) -> bool,
    ) -> bool {
        let mut at = first;
        #[cfg(target_arch = "x86_64")]
        {
            let done = match way {
                Way::Gfni => {
                    assert!(Way::of(super::lanes::Simd::Avx512) == Way::Gfni);
                    // SAFETY: the CPU has AVX-512 F, BW and VBMI and GFNI: checked just above.
                    unsafe { self.scan_gfni(bytes, at, &mut found) }
                }
                Way::Avx512 => {
                    assert!(Simd::detect() == Simd::Avx512, "the CPU has no AVX-512");
                    // SAFETY: the CPU has AVX-512 F and BW: checked just above.
                    unsafe { self.scan_avx512(bytes, at, &mut found) }
                }
                Way::Avx2 => {
                    assert!(Simd::detect() <= Simd::Avx2, "the CPU has no AVX2");
                    // SAFETY: the CPU has AVX2: checked just above.
                    unsafe { self.scan_avx2(bytes, at, &mut found) }
                }
                Way::Portable => Some(at),
            };
            match done {
                Some(next) => at = next,
                None => return false,
            }
        }
        let _ = way;
        while at + GRAM <= bytes.len() {
            let k = key(&bytes[at..]);
            if self.member(0, k & 255) && self.member(1, k >> 8) && !self.hits(at, k, &mut found) {
                return false;
            }
            at += 1;
        }
        true
    }

    /// The grams of key `k` found at `at`, if any, handed to `found`; `false` once it says stop.
    #[inline(always)]
    fn hits(&self, at: usize, k: u16, found: &mut impl FnMut(usize, &Gram) -> bool) -> bool {
        if self.map[usize::from(k >> 6)] >> (k & 63) & 1 == 0 {
            return true;
        }
        let from = self.grams.partition_point(|g| g.key < k);
        self.grams[from..]
            .iter()
            .take_while(|g| g.key == k)
            .all(|g| found(at, g))
    }

    /// The vector scans' loop, `W` positions a step: `quarter(at)` the keys of the four bytes
    /// from each of the `W` positions from `at` (loads from `at + 3` at most), `both(now, next)`
    /// the mask of the positions whose two halves are members, from the quarters at `at` and
    /// `at + W` (those at `at + 4` lie between them); the next position to look at, or `None`
    /// once `found` said stop.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn sweep<V: Copy, const W: usize>(
        &self,
        bytes: &[u8],
        first: usize,
        found: &mut impl FnMut(usize, &Gram) -> bool,
        quarter: impl Fn(usize) -> V,
        both: impl Fn(V, V) -> u64,
    ) -> Option<usize> {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let mut at = first;
        let fits = |at: usize| at + 2 * W + 3 <= bytes.len();
        let mut quarters = fits(at).then(|| quarter(at));
        while let Some(now) = quarters.filter(|_| fits(at)) {
            // The streams' prefetchers stop at a page's end: fetch a page ahead.
            // SAFETY: a prefetch is a hint; it reads nothing and faults on no address.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(bytes.as_ptr().wrapping_add(at + PREFETCH).cast())
            };
            let next = quarter(at + W);
            quarters = Some(next);
            let mut mask = both(now, next);
            while mask != 0 {
                let p = at + mask.trailing_zeros() as usize;
                if !self.hits(p, key(&bytes[p..]), found) {
                    return None;
                }
                mask &= mask - 1;
            }
            at += W;
        }
        Some(at)
    }

    /// The AVX2 part of [`Sieve::scan`]: the positions from `first` whose 32 positions' loads
    /// stay in `bytes`; the next position to look at, or `None` once `found` said stop.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn scan_avx2(
        &self,
        bytes: &[u8],
        first: usize,
        found: &mut impl FnMut(usize, &Gram) -> bool,
    ) -> Option<usize> {
        use std::arch::x86_64::*;
        let six = _mm256_set1_epi8(6);
        let nibble = _mm256_set1_epi8(15);
        let bit = _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64,
            -128, 1, 2, 4, 8, 16, 32, 64, -128,
        );
        let table = |t: &[u8; 16]| _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()));
        let tables = self.halves.map(|[low, high]| (table(&low), table(&high)));
        let ptr = bytes.as_ptr();
        // The keys of the four bytes from each of 32 positions: byte j's code at bits 2j (the
        // 16-bit shifts move no bit of a byte's code into its neighbour).
        let quarter = |at: usize| {
            let load = |j: usize| _mm256_and_si256(_mm256_loadu_si256(ptr.add(at + j).cast()), six);
            let (c0, c1) = (_mm256_srli_epi16(load(0), 1), _mm256_slli_epi16(load(1), 1));
            let (c2, c3) = (_mm256_slli_epi16(load(2), 3), _mm256_slli_epi16(load(3), 5));
            _mm256_or_si256(_mm256_or_si256(c0, c1), _mm256_or_si256(c2, c3))
        };
        let member = |x: __m256i, (low, high): (__m256i, __m256i)| {
            let l = _mm256_and_si256(x, nibble);
            let h = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
            let row =
                _mm256_blendv_epi8(_mm256_shuffle_epi8(low, l), _mm256_shuffle_epi8(high, l), x);
            let b = _mm256_shuffle_epi8(bit, h);
            _mm256_cmpeq_epi8(_mm256_and_si256(row, b), b)
        };
        let both = |now: __m256i, next: __m256i| {
            // Bytes 16 to 47 of `now, next`, then 4 to 35.
            let middle = _mm256_permute2x128_si256(now, next, 0x21);
            let after = _mm256_alignr_epi8(middle, now, 4);
            let both = _mm256_and_si256(member(now, tables[0]), member(after, tables[1]));
            u64::from(_mm256_movemask_epi8(both) as u32)
        };
        self.sweep::<_, 32>(bytes, first, found, quarter, both)
    }

    /// [`Sieve::scan_avx512`] with VBMI and GFNI: each load's codes moved into place by one
    /// affine transform of its bytes, each set looked up by one permutation of 128 bytes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
    unsafe fn scan_gfni(
        &self,
        bytes: &[u8],
        first: usize,
        found: &mut impl FnMut(usize, &Gram) -> bool,
    ) -> Option<usize> {
        use std::arch::x86_64::*;
        // Output bit `i` of the transform is the parity of the input's bits in the matrix's
        // byte `7 - i`: bits 1 and 2 of the byte `j` further on go to bits `2j` and `2j + 1`.
        let moves: [__m512i; 4] = std::array::from_fn(|j| {
            let row = |out: usize, bit: u64| bit << (8 * (7 - out));
            _mm512_set1_epi64((row(2 * j, 2) | row(2 * j + 1, 4)) as i64)
        });
        let tables = self.permuted.map(|t| {
            (
                _mm512_loadu_si512(t.as_ptr().cast()),
                _mm512_loadu_si512(t.as_ptr().add(64).cast()),
            )
        });
        let ptr = bytes.as_ptr();
        let quarter = |at: usize| {
            let code = |j: usize| {
                let b = _mm512_loadu_si512(ptr.add(at + j).cast());
                _mm512_gf2p8affine_epi64_epi8(b, moves[j], 0)
            };
            // 0xfe: a | b | c.
            _mm512_or_si512(
                _mm512_ternarylogic_epi32(code(0), code(1), code(2), 0xfe),
                code(3),
            )
        };
        let member = |x: __m512i, (low, high): (__m512i, __m512i)| {
            let r = _mm512_permutex2var_epi8(low, x, high);
            // Bit 7 of `x ? r : r + r`: bit 7 of the entry for a high byte, bit 6 for a low.
            _mm512_movepi8_mask(_mm512_ternarylogic_epi32(x, r, _mm512_add_epi8(r, r), 0xca))
        };
        let both = |now: __m512i, next: __m512i| {
            let after = _mm512_alignr_epi32(next, now, 1);
            member(now, tables[0]) & member(after, tables[1])
        };
        self.sweep::<_, 64>(bytes, first, found, quarter, both)
    }

    /// [`Sieve::scan_avx2`] with AVX-512: 64 positions at a time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn scan_avx512(
        &self,
        bytes: &[u8],
        first: usize,
        found: &mut impl FnMut(usize, &Gram) -> bool,
    ) -> Option<usize> {
        use std::arch::x86_64::*;
        let six = _mm512_set1_epi8(6);
        let nibble = _mm512_set1_epi8(15);
        let bit = _mm512_broadcast_i32x4(_mm_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
        ));
        let table = |t: &[u8; 16]| _mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr().cast()));
        let tables = self.halves.map(|[low, high]| (table(&low), table(&high)));
        let ptr = bytes.as_ptr();
        let quarter = |at: usize| {
            let load = |j: usize| _mm512_and_si512(_mm512_loadu_si512(ptr.add(at + j).cast()), six);
            let (c0, c1) = (_mm512_srli_epi16(load(0), 1), _mm512_slli_epi16(load(1), 1));
            let (c2, c3) = (_mm512_slli_epi16(load(2), 3), _mm512_slli_epi16(load(3), 5));
            // 0xfe: a | b | c.
            _mm512_or_si512(_mm512_ternarylogic_epi32(c0, c1, c2, 0xfe), c3)
        };
        let member = |x: __m512i, (low, high): (__m512i, __m512i)| {
            let l = _mm512_and_si512(x, nibble);
            let h = _mm512_and_si512(_mm512_srli_epi16(x, 4), nibble);
            let row = _mm512_mask_blend_epi8(
                _mm512_movepi8_mask(x),
                _mm512_shuffle_epi8(low, l),
                _mm512_shuffle_epi8(high, l),
            );
            _mm512_test_epi8_mask(row, _mm512_shuffle_epi8(bit, h))
        };
        let both = |now: __m512i, next: __m512i| {
            let after = _mm512_alignr_epi32(next, now, 1);
            member(now, tables[0]) & member(after, tables[1])
        };
        self.sweep::<_, 64>(bytes, first, found, quarter, both)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;

    #[test]
    fn keys_hold_two_bits_of_each_byte_in_order() {
        assert_eq!(key(b"AAAAAAAA"), 0);
        // C is 1, T 2, G 3; lower case the same.
        assert_eq!(key(b"CAAAAAAA"), 1);
        assert_eq!(key(b"AAAAAAAT"), 2 << 14);
        assert_eq!(key(b"gtcaGTCA"), key(b"GTCAgtca"));
        assert_eq!(key(b"ACGTACGTxx"), 0b10_11_01_00_10_11_01_00);
    }

    /// Every compilation finds exactly the positions whose key is a gram's, each gram once per
    /// position, by position, from `first` on; and stops when told.
    #[test]
    fn the_scan_finds_every_gram_and_only_grams() {
        let mut rng = Random::new(5);
        for round in 0..60 {
            let symbols: &[u8] = if round % 3 == 0 { b"ACGTN" } else { b"ACGT" };
            let n = rng.below(400);
            let text = rng.bytes(n, symbols);
            let k = rng.below(3);
            let patterns: Vec<Vec<u8>> = (0..1 + rng.below(6))
                .map(|_| {
                    let m = GRAM * (k + 1) + rng.below(9);
                    match (n > m, rng.coin()) {
                        (true, true) => {
                            let at = rng.below(n - m);
                            text[at..at + m].to_vec()
                        }
                        _ => rng.bytes(m, b"ACGT"),
                    }
                })
                .collect();
            let refs: Vec<&[u8]> = patterns.iter().map(|p| &p[..]).collect();
            let sieve = Sieve::new(&refs, k);
            let first = rng.below(40);
            let mut want = Vec::new();
            for at in first..n.saturating_sub(GRAM - 1) {
                for g in &sieve.grams {
                    if g.key == key(&text[at..]) {
                        want.push((at, *g));
                    }
                }
            }
            for way in Way::available() {
                let mut got = Vec::new();
                assert!(sieve.scan_by(way, &text, first, |at, g| {
                    got.push((at, *g));
                    true
                }));
                assert_eq!(got, want, "round {round}, {way:?}");
                if let Some(&stop) = want.first() {
                    let mut seen = Vec::new();
                    let done = sieve.scan_by(way, &text, first, |at, g| {
                        seen.push((at, *g));
                        false
                    });
                    assert!(!done);
                    assert_eq!(seen, [stop]);
                }
            }
        }
    }

    #[test]
    fn a_pattern_takes_the_sieve_when_each_piece_holds_a_gram() {
        assert!(Sieve::takes(32, 3));
        assert!(!Sieve::takes(31, 3));
        assert!(Sieve::takes(8, 0));
        assert!(Sieve::takes(200, 10));
        let sieve = Sieve::new(&[b"ACGTACGTTTTTTTTTGGGGGGGGCCCCCCCC"], 3);
        assert_eq!(sieve.grams(), 4);
        assert_eq!(
            sieve.grams.iter().map(|g| g.offset).collect::<Vec<_>>(),
            [24, 8, 0, 16],
            "sorted by key: CCCCCCCC, TTTTTTTT, ACGTACGT, GGGGGGGG"
        );
    }
}
