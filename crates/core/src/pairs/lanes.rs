//! Many pairs in the lanes of one vector: up to `L` sequences side by side, one per lane, each
//! against the same target, which is scanned one byte per step (the search's lanes kernel,
//! [`crate::search::lanes`], with the global boundary instead of the free start row).
//!
//! # Orientation
//!
//! A lane's sequence `a` (`m` bytes) is the bit dimension: bit `i` of the lane is row `i` of
//! the DP, byte `a[i]`, from bit 0 up; one step consumes one byte `b[j]` of the target (a
//! column). A sequence longer than a lane's bits spans `W` words of 64-bit lanes, word `w`
//! holding rows `64 w ..= 64 w + 63`; the bits above `m` are padding rows that match nothing.
//! Every operation below moves information up the bits only, so padding never reaches a real
//! row.
//!
//! # The edit distance (Myers 1999, global)
//!
//! `D[i][j]`, prefix lengths, `D[i][0] = i`, `D[0][j] = j`. A lane holds a column's vertical
//! deltas `D[i][j] - D[i-1][j]` as `pv` (+1) and `mv` (-1), all `+1` before the first column.
//! With `eq` the lane's bits equal to the target byte, per word:
//!
//! ```text
//! xv = eq | mv                       xh = (((eq & pv) + pv + c) ^ pv) | eq
//! ph = mv | !(xh | pv)               mh = pv & xh                 (horizontal +1 / -1)
//! ph' = (ph << 1) | ph_in            mh' = (mh << 1) | c
//! pv = mh' | !(xv | ph')             mv = ph' & xv
//! ```
//!
//! Into word 0 comes the top row's horizontal delta, `+1` (`D[0][j] = j`: `ph_in = 1`, `c = 0`);
//! into word `w > 0` the top bits of word `w - 1`'s `ph` and `mh`. The carry of the addition out
//! of a word is its `mh`'s top bit (see `bitpar::edit`), so that one bit is both the next word's
//! carry and its shifted-in `-1`. After the last column the distance is
//! `D[m][n] = n + Σ (pv - mv)` over the real rows: two population counts per word, once per
//! pair, instead of a score kept at every step.
//!
//! # The LCS length (Allison–Dix, Hyyrö)
//!
//! `V` over the rows, bit `i` clear where `M[i][j] - M[i-1][j] = 1`, all ones before the first
//! column; with `eq` as above, `u = V & eq`, `V = (V + u + c) | (V & !eq)`, the addition carried
//! from word to word (`c` out of a word: the top bit of `u | (V & !sum)`). The length is the
//! number of clear real bits after the last column.
//!
//! # Lanes, words and interleaving
//!
//! Lanes of 8, 16 and 32 bits hold sequences of up to that many bytes in one word ([`Class`]);
//! 64-bit lanes hold up to [`MAX_WORDS`] words. A vector is 32 bytes: 32, 16, 8 or 4 lanes. A
//! step's chain waits on the addition and, across words, on the carry; [`scan`] steps `N` groups
//! of one class over the same byte, whose chains overlap ([`interleave`]). The match table is 256 rows (one per
//! byte) of `W` vectors; a byte no lane holds reads a row of zeros.
//!
//! Cost: per target byte and group, about a dozen vector operations per word; per pair, two
//! population counts per word at the end. An empty lane, or an empty sequence, costs what a
//! full one does and answers the other's length (the LCS: 0).

use super::vector::{Lane, Vector};
use crate::problem::Problem;
use crate::search::lanes::{Simd, VECTOR_BYTES};

/// Words a 64-bit lane holds at most: sequences of up to `64 * MAX_WORDS` bytes go in lanes,
/// longer ones through the bit-parallel rows ([`super::rows`]).
pub const MAX_WORDS: usize = 8;

/// Groups stepped together per target byte (see the module doc): four of one word, whose
/// step is one chain of a dozen operations; two of several words, whose words already overlap
/// (`cargo bench --bench kernel -- pairs`; the figures are in `docs/performance.md`).
pub const fn interleave(words: usize) -> usize {
    match words {
        1 => 4,
        _ => 2,
    }
}

/// How a sequence sits in lanes: its lane width in bits and its words (more than one only for
/// 64-bit lanes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Class {
    pub bits: u32,
    pub words: usize,
}

impl Class {
    /// The narrowest class that holds `m` bytes, `None` beyond [`MAX_WORDS`] words.
    pub fn of(m: usize) -> Option<Class> {
        let (bits, words) = match m {
            0..=8 => (8, 1),
            9..=16 => (16, 1),
            17..=32 => (32, 1),
            _ => (64, m.div_ceil(64)),
        };
        (words <= MAX_WORDS).then_some(Class { bits, words })
    }

    /// Lanes of one vector.
    pub fn lanes(self) -> usize {
        VECTOR_BYTES * 8 / self.bits as usize
    }
}

/// Up to `L` sequences of up to `W` words of `T`, side by side, with their match table.
pub struct Lanes<T: Lane, const L: usize, const W: usize> {
    /// Row `b`: each lane's bits equal to byte `b`, word by word.
    table: Box<[[[T; L]; W]; 256]>,
    /// Each lane's length (an empty lane: 0), and its real rows, word by word.
    lens: [usize; L],
    real: [[T; L]; W],
}

impl<T: Lane, const L: usize, const W: usize> Lanes<T, L, W> {
    /// The lanes of `sequences` (at most `L`, each of at most `W * T::BITS` bytes), in order.
    pub fn new(sequences: &[&[u8]]) -> Lanes<T, L, W> {
        assert!(
            L * std::mem::size_of::<T>() == VECTOR_BYTES,
            "a vector is 32 bytes"
        );
        assert!(W == 1 || T::BITS == 64, "only 64-bit lanes span words");
        assert!(
            sequences.len() <= L,
            "{} sequences in {L} lanes",
            sequences.len()
        );
        let mut table: Box<[[[T; L]; W]; 256]> = Box::new([[[T::ZERO; L]; W]; 256]);
        let mut lens = [0; L];
        let bits = T::BITS as usize;
        for (lane, a) in sequences.iter().enumerate() {
            assert!(a.len() <= W * bits, "a sequence of {} bytes", a.len());
            for (i, &byte) in a.iter().enumerate() {
                let word = &mut table[usize::from(byte)][i / bits][lane];
                *word = *word | (T::ONE << (i % bits) as u32);
            }
            lens[lane] = a.len();
        }
        let real = std::array::from_fn(|w| {
            std::array::from_fn(|lane| match lens[lane].saturating_sub(w * bits) {
                0 => T::ZERO,
                r if r >= bits => T::MAX,
                r => (T::ONE << r as u32).wrapping_sub(T::ONE),
            })
        });
        Lanes { table, lens, real }
    }

    /// Bytes held: the table.
    pub fn bytes() -> u64 {
        (256 * W * VECTOR_BYTES) as u64
    }
}

/// The real rows of `v` (a group's words, masked by `V`), population-counted lane by lane.
#[inline(always)]
fn counts<T: Lane, const L: usize, const W: usize, V: Vector<T, L>>(
    v: &[V; W],
    real: &[[T; L]; W],
) -> [u32; L] {
    let mut out = [0u32; L];
    for w in 0..W {
        let masked = v[w].and(V::load(&real[w])).store();
        for (o, x) in out.iter_mut().zip(masked) {
            *o += x.get().count_ones();
        }
    }
    out
}

/// The edit distance of every lane of `N` groups against `target` (see the module doc).
#[inline(always)]
fn edit_body<T: Lane, const L: usize, const W: usize, const N: usize, V: Vector<T, L>>(
    groups: [&Lanes<T, L, W>; N],
    target: &[u8],
) -> [[u32; L]; N] {
    let zero = V::splat(T::ZERO);
    let one = V::splat(T::ONE);
    let mut pv = [[V::splat(T::MAX); W]; N];
    let mut mv = [[zero; W]; N];
    let tables: [&[[[T; L]; W]; 256]; N] = std::array::from_fn(|g| &*groups[g].table);
    for &b in target {
        for g in 0..N {
            let row = &tables[g][usize::from(b)];
            let (mut ph_in, mut c) = (one, zero);
            for w in 0..W {
                let (p, m) = (pv[g][w], mv[g][w]);
                let eq = V::load(&row[w]);
                let xv = eq.or(m);
                let xh = V::xor_or(eq.and(p).add(p).add(c), p, eq);
                let ph = V::or_nor(m, xh, p);
                let mh = p.and(xh);
                let ph_s = ph.add(ph).or(ph_in);
                let mh_s = mh.add(mh).or(c);
                pv[g][w] = V::or_nor(mh_s, xv, ph_s);
                mv[g][w] = ph_s.and(xv);
                if w + 1 < W {
                    (ph_in, c) = (ph.top(), mh.top());
                }
            }
        }
    }
    let n = target.len() as u32;
    std::array::from_fn(|g| {
        let (p, m) = (
            counts(&pv[g], &groups[g].real),
            counts(&mv[g], &groups[g].real),
        );
        std::array::from_fn(|l| n + p[l] - m[l])
    })
}

/// The LCS length of every lane of `N` groups and `target` (see the module doc).
#[inline(always)]
fn lcs_body<T: Lane, const L: usize, const W: usize, const N: usize, V: Vector<T, L>>(
    groups: [&Lanes<T, L, W>; N],
    target: &[u8],
) -> [[u32; L]; N] {
    let zero = V::splat(T::ZERO);
    let mut v = [[V::splat(T::MAX); W]; N];
    let tables: [&[[[T; L]; W]; 256]; N] = std::array::from_fn(|g| &*groups[g].table);
    for &b in target {
        for g in 0..N {
            let row = &tables[g][usize::from(b)];
            let mut c = zero;
            for w in 0..W {
                let old = v[g][w];
                let eq = V::load(&row[w]);
                let u = old.and(eq);
                let sum = old.add(u).add(c);
                v[g][w] = V::or_andnot(sum, old, eq);
                if w + 1 < W {
                    c = V::or_andnot(u, old, sum).top();
                }
            }
        }
    }
    std::array::from_fn(|g| {
        let ones = counts(&v[g], &groups[g].real);
        std::array::from_fn(|l| groups[g].lens[l] as u32 - ones[l])
    })
}

#[inline(always)]
fn body<T: Lane, const L: usize, const W: usize, const N: usize, V: Vector<T, L>>(
    problem: Problem,
    groups: [&Lanes<T, L, W>; N],
    target: &[u8],
) -> [[u32; L]; N] {
    match problem {
        Problem::Edit => edit_body::<T, L, W, N, V>(groups, target),
        Problem::Lcs => lcs_body::<T, L, W, N, V>(groups, target),
    }
}

/// The compilations, one per instruction set, of the kernel for lanes of `T`.
pub trait Compiled<T: Lane, const L: usize> {
    /// The values of `N` groups' lanes against `target` with the compilation `simd`, which the
    /// CPU must have.
    fn scan<const W: usize, const N: usize>(
        simd: Simd,
        problem: Problem,
        groups: [&Lanes<T, L, W>; N],
        target: &[u8],
    ) -> [[u32; L]; N];
}

macro_rules! compiled {
    ($t:ty, $l:literal) => {
        impl Compiled<$t, $l> for $t {
            fn scan<const W: usize, const N: usize>(
                simd: Simd,
                problem: Problem,
                groups: [&Lanes<$t, $l, W>; N],
                target: &[u8],
            ) -> [[u32; $l]; N] {
                #[cfg(target_arch = "x86_64")]
                #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
                fn avx512<const W: usize, const N: usize>(
                    problem: Problem,
                    groups: [&Lanes<$t, $l, W>; N],
                    target: &[u8],
                ) -> [[u32; $l]; N] {
                    use super::vector::x86::Avx512;
                    body::<$t, $l, W, N, Avx512<$t>>(problem, groups, target)
                }
                #[cfg(target_arch = "x86_64")]
                #[target_feature(enable = "avx2")]
                fn avx2<const W: usize, const N: usize>(
                    problem: Problem,
                    groups: [&Lanes<$t, $l, W>; N],
                    target: &[u8],
                ) -> [[u32; $l]; N] {
                    use super::vector::x86::Avx2;
                    body::<$t, $l, W, N, Avx2<$t>>(problem, groups, target)
                }
                match simd {
                    #[cfg(target_arch = "x86_64")]
                    Simd::Avx512 => {
                        assert!(Simd::detect() == Simd::Avx512, "the CPU has no AVX-512");
                        // SAFETY: the CPU has AVX-512 F, BW and VL, and AVX2: checked above.
                        unsafe { avx512(problem, groups, target) }
                    }
                    #[cfg(target_arch = "x86_64")]
                    Simd::Avx2 => {
                        assert!(Simd::detect() <= Simd::Avx2, "the CPU has no AVX2");
                        // SAFETY: the CPU has AVX2: checked just above.
                        unsafe { avx2(problem, groups, target) }
                    }
                    _ => body::<$t, $l, W, N, [$t; $l]>(problem, groups, target),
                }
            }
        }
    };
}

compiled!(u8, 32);
compiled!(u16, 16);
compiled!(u32, 8);
compiled!(u64, 4);

/// The value of `problem` (the edit distance, or the LCS length) of every lane of `N` groups
/// against `target`, with the compilation `simd` (which the CPU must have:
/// [`Simd::detect`]): `[g][l]` for lane `l` of group `g`.
pub fn scan<T: Lane + Compiled<T, L>, const L: usize, const W: usize, const N: usize>(
    simd: Simd,
    problem: Problem,
    groups: [&Lanes<T, L, W>; N],
    target: &[u8],
) -> [[u32; L]; N] {
    T::scan::<W, N>(simd, problem, groups, target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::oracle;
    use crate::random::Random;

    /// Every shape, every compilation, both problems: the plain DP's values, lane for lane,
    /// with empty lanes, empty sequences and an empty target among them.
    fn check<T: Lane + Compiled<T, L>, const L: usize, const W: usize>(
        rng: &mut Random,
        alphabet: &[u8],
    ) {
        let longest = W * T::BITS as usize;
        for round in 0..6 {
            let groups: [Vec<Vec<u8>>; 2] = std::array::from_fn(|_| {
                let count = rng.below(L + 1);
                (0..count)
                    .map(|_| {
                        let m = match rng.below(4) {
                            0 => longest,
                            1 => rng.below(4),
                            _ => rng.below(longest + 1),
                        };
                        rng.bytes(m, alphabet)
                    })
                    .collect()
            });
            let n = [0, 1, longest + 3, rng.below(3 * longest)][round % 4];
            let target = rng.bytes(n, alphabet);
            let lanes: [Lanes<T, L, W>; 2] = std::array::from_fn(|g| {
                let seqs: Vec<&[u8]> = groups[g].iter().map(Vec::as_slice).collect();
                Lanes::new(&seqs)
            });
            for problem in [Problem::Edit, Problem::Lcs] {
                let want = |g: usize, l: usize| {
                    let empty = Vec::new();
                    let a = groups[g].get(l).unwrap_or(&empty);
                    oracle::value(problem, a, &target)
                };
                for simd in Simd::available() {
                    let two = scan(simd, problem, [&lanes[0], &lanes[1]], &target);
                    let one = scan(simd, problem, [&lanes[1]], &target);
                    let four = scan(
                        simd,
                        problem,
                        [&lanes[0], &lanes[1], &lanes[1], &lanes[0]],
                        &target,
                    );
                    assert_eq!(four, [two[0], two[1], two[1], two[0]], "{simd:?} four");
                    for l in 0..L {
                        assert_eq!(two[0][l], want(0, l), "{simd:?} {problem:?} W {W} lane {l}");
                        assert_eq!(two[1][l], want(1, l), "{simd:?} {problem:?} W {W} lane {l}");
                        assert_eq!(one[0][l], want(1, l), "{simd:?} {problem:?} alone");
                    }
                }
            }
        }
    }

    #[test]
    fn every_class_and_compilation_gives_the_plain_dp_values() {
        let mut rng = Random::new(28);
        for alphabet in [&b"AC"[..], b"ACGT", b"abcdefghijklmnopqrstuvwxyz"] {
            check::<u8, 32, 1>(&mut rng, alphabet);
            check::<u16, 16, 1>(&mut rng, alphabet);
            check::<u32, 8, 1>(&mut rng, alphabet);
            check::<u64, 4, 1>(&mut rng, alphabet);
            check::<u64, 4, 2>(&mut rng, alphabet);
            check::<u64, 4, 3>(&mut rng, alphabet);
            check::<u64, 4, 8>(&mut rng, alphabet);
        }
    }

    #[test]
    fn classes_hold_their_lengths() {
        assert_eq!(Class::of(0), Some(Class { bits: 8, words: 1 }));
        assert_eq!(Class::of(8).map(Class::lanes), Some(32));
        assert_eq!(Class::of(9), Some(Class { bits: 16, words: 1 }));
        assert_eq!(Class::of(33), Some(Class { bits: 64, words: 1 }));
        assert_eq!(Class::of(65), Some(Class { bits: 64, words: 2 }));
        assert_eq!(Class::of(64 * MAX_WORDS).map(|c| c.words), Some(MAX_WORDS));
        assert_eq!(Class::of(64 * MAX_WORDS + 1), None);
    }
}
