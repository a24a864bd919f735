//! The edit distance within a bound `k` in the lanes of one vector: Hyyrö's banded step
//! (Hyyrö 2003, "A bit-vector algorithm for computing Levenshtein and Damerau edit distances";
//! rapidfuzz's `levenshtein_hyrroe2003_small_band` is a readable model), one pair per lane,
//! the lanes' sequences against one target scanned a byte per step, as in [`super::lanes`].
//!
//! # The band
//!
//! Rows are the lane's sequence `a` (`m` bytes), columns the target `b` (`n`), 0-based cells
//! `D(r, c)` (`D(r, -1) = r + 1`, `D(-1, c) = c + 1`). A path of cost at most `k` never leaves
//! the diagonals `|r - c| <= k`, and a pair with `|m - n| > k` is above `k` without a step. A
//! lane of `B >= 2k + 1` bits holds a window of `B` rows that moves down one row per column:
//! at column `c` bit `t` is row `c + k + 1 - B + t`, the top bit row `c + k`. Rows above the
//! sequence (`r < 0`) hold no match and start with zero deltas, which keeps them at the top
//! border's values; rows below it (`r >= m`) match nothing. Per column, with `x` the lane's
//! match bits of `b[c]` in the window:
//!
//! ```text
//! d0 = (((x & vp) + vp) ^ vp) | x | vn      (D(r, c) = D(r-1, c-1))
//! hp = vn | !(d0 | vp)    hn = d0 & vp      (horizontal +1 / -1)
//! vp = hn | !((d0 >> 1) | hp)    vn = (d0 >> 1) & hp
//! ```
//!
//! the usual step with the vertical deltas moved down one bit for the next window (the
//! diagonal move). Cells outside the windows take values of real paths or more, so the band's
//! values `D'` are at least `D`, and equal it on every cell of an optimal path that stays in the
//! band: within `k`, `D'(m-1, n-1)` is the distance; above `k`, it is above `k` too.
//!
//! # The score and the early exit
//!
//! The top cell `t = (c + k, c)` moves along a diagonal, so `D'(t)` grows by `1 - d0`'s top bit
//! per column, from `D(k-1, -1) = k`. Any cell `(r, c)` of the window is at most `c + k - r`
//! below it in value, and an optimal path through `(r, c)` still owes `|(m - n) - (r - c)|`;
//! so an answer within `k` needs `D'(t) <= 2k + n - m`, and a group stops as soon as every lane
//! is past that ([`STRIDE`] columns between looks: the score never falls). After the last column
//! the answer is read from the top cell: `D'(m-1, n-1) = D'(t) - Σ` of the vertical deltas of
//! rows `m ..= n - 1 + k`, two population counts per pair.
//!
//! # Lanes and tables
//!
//! The lane width is the narrowest that holds `2k + 1` bits: 32 lanes of 8 bits for `k <= 3`,
//! 16 of 16 to 7, 8 of 32 to 15, 4 of 64 to 31 ([`lane_bits`]); a wider band is no lane's. A
//! lane's match bits are a window of its sequence's, a shift that depends on the column alone;
//! the group keeps them shifted already, one row per column for each byte its sequences hold
//! (`(distinct + 1) * (longest + k)` vectors), so a step loads one vector as the unbanded kernel
//! does. Scores count with saturation in 8- and 16-bit lanes (only whether they pass `3k`
//! matters there).
//!
//! Cost: about a dozen vector operations per target byte and group, until every lane of the
//! group is past its bound.

use super::vector::{every_lane, Lane, Vector};
use crate::search::lanes::{Simd, VECTOR_BYTES};

/// Columns between two looks at the scores for the early exit.
pub const STRIDE: usize = 16;

/// The bits of the narrowest lane that holds a band of `2k + 1` diagonals, `None` beyond 64.
pub fn lane_bits(k: usize) -> Option<u32> {
    match 2 * k + 1 {
        0..=8 => Some(8),
        9..=16 => Some(16),
        17..=32 => Some(32),
        33..=64 => Some(64),
        _ => None,
    }
}

/// Up to `L` sequences side by side, with their windows' match bits for a band of `k`.
pub struct Banded<T: Lane, const L: usize> {
    k: usize,
    /// Byte -> slot of `table` (0: a byte no lane holds).
    slot: Box<[u16; 256]>,
    /// Columns per slot: the longest sequence plus `k` (no target longer is within `k`).
    cols: usize,
    /// `table[s * cols + c]`: each lane's window of column `c` matching the byte of slot `s`.
    table: Vec<[T; L]>,
    lens: [usize; L],
    lanes: usize,
}

impl<T: Lane, const L: usize> Banded<T, L> {
    /// The lanes of `sequences` (at most `L`) for a band of `k` (`2k + 1 <= T::BITS`).
    pub fn new(sequences: &[&[u8]], k: usize) -> Banded<T, L> {
        assert!(
            L * std::mem::size_of::<T>() == VECTOR_BYTES,
            "a vector is 32 bytes"
        );
        assert!(
            2 * k < T::BITS as usize,
            "a band of {k} in lanes of {}",
            T::BITS
        );
        assert!(
            sequences.len() <= L,
            "{} sequences in {L} lanes",
            sequences.len()
        );
        let mut slot = Box::new([0u16; 256]);
        let mut bytes = Vec::new();
        for a in sequences {
            for &b in a.iter() {
                if slot[usize::from(b)] == 0 {
                    bytes.push(b);
                    slot[usize::from(b)] = bytes.len() as u16;
                }
            }
        }
        let longest = sequences.iter().map(|a| a.len()).max().unwrap_or(0);
        let cols = longest + k;
        let bits = T::BITS as usize;
        let mut table = vec![[T::ZERO; L]; (bytes.len() + 1) * cols];
        let mut lens = [0; L];
        for (lane, a) in sequences.iter().enumerate() {
            lens[lane] = a.len();
            for (s, &byte) in bytes.iter().enumerate() {
                // Bit `r + 64` of `peq` is row `r`: windows start at most 63 rows above row 0
                // and end at most `k` rows below the last column.
                let mut peq = vec![0u64; (cols + k + 2 * 64).div_ceil(64) + 1];
                for (r, _) in a.iter().enumerate().filter(|(_, &x)| x == byte) {
                    peq[(r + 64) / 64] |= 1 << ((r + 64) % 64);
                }
                for c in 0..cols {
                    let start = c + k + 1 + 64 - bits;
                    let (w, sh) = (start / 64, start % 64);
                    let mut window = peq[w] >> sh;
                    if sh > 0 {
                        window |= peq[w + 1] << (64 - sh);
                    }
                    if bits < 64 {
                        window &= (1 << bits) - 1;
                    }
                    table[(s + 1) * cols + c][lane] = T::of(window as usize);
                }
            }
        }
        Banded {
            k,
            slot,
            cols,
            table,
            lens,
            lanes: sequences.len(),
        }
    }

    /// The most bytes a group holds for a band of `k` over sequences of up to `longest`
    /// bytes holding `distinct` byte values: a table row per value (and one of zeros) and
    /// column, and the slots.
    pub fn table_bytes(distinct: usize, longest: usize, k: usize) -> u64 {
        ((distinct.min(256) + 1) * (longest + k) * VECTOR_BYTES + 512) as u64
    }
}

/// The banded values of every lane of `N` groups against `target`: the distance when it is
/// at most `k`, else `k + 1` (see the module doc); and the columns stepped.
#[inline(always)]
fn body<T: Lane, const L: usize, const N: usize, V: Vector<T, L>>(
    groups: [&Banded<T, L>; N],
    target: &[u8],
) -> ([[u32; L]; N], usize) {
    let n = target.len();
    let k = groups[0].k;
    let bits = T::BITS as usize;
    let beyond = (k + 1) as u32;
    // Per lane: the bound of the early exit (`2k + n - m`), or none for a lane out of reach.
    let reach: [[Option<usize>; L]; N] = std::array::from_fn(|g| {
        std::array::from_fn(|l| {
            let m = groups[g].lens[l];
            (l < groups[g].lanes && m.abs_diff(n) <= k).then(|| 2 * k + n - m)
        })
    });
    if reach.iter().flatten().all(Option::is_none) {
        return ([[beyond; L]; N], 0);
    }
    let bound: [V; N] =
        std::array::from_fn(|g| V::load(&std::array::from_fn(|l| T::of(reach[g][l].unwrap_or(0)))));
    let mut score: [V; N] = std::array::from_fn(|g| {
        V::load(&std::array::from_fn(|l| {
            T::of(reach[g][l].map_or(1, |_| k))
        }))
    });
    let mut vp = [V::splat(T::MAX << (bits - k - 1) as u32); N];
    let mut vn = [V::splat(T::ZERO); N];
    let one = V::splat(T::ONE);
    let every = every_lane::<T, L>();
    for (c, &b) in target.iter().enumerate() {
        for g in 0..N {
            let group = groups[g];
            // A group none of whose lanes is within reach may have fewer columns.
            let x = match c < group.cols {
                true => {
                    V::load(&group.table[usize::from(group.slot[usize::from(b)]) * group.cols + c])
                }
                false => V::splat(T::ZERO),
            };
            let d0 = V::xor_or(x.and(vp[g]).add(vp[g]), vp[g], x).or(vn[g]);
            let hp = V::or_nor(vn[g], d0, vp[g]);
            let hn = d0.and(vp[g]);
            score[g] = score[g].add_saturating(one).sub(d0.top());
            let d0s = d0.shr1();
            vp[g] = V::or_nor(hn, d0s, hp);
            vn[g] = d0s.and(hp);
        }
        if c % STRIDE == STRIDE - 1 && (0..N).all(|g| score[g].above(bound[g]) == every) {
            return ([[beyond; L]; N], c + 1);
        }
    }
    let values = std::array::from_fn(|g| {
        let (s, p, m) = (score[g].store(), vp[g].store(), vn[g].store());
        std::array::from_fn(|l| {
            let Some(bound) = reach[g][l] else {
                return beyond;
            };
            let top = s[l].get();
            if top > bound {
                return beyond;
            }
            // Rows m ..= n - 1 + k: bits lo ..= B - 2.
            let lo = groups[g].lens[l] + bits - n - k - 1;
            let mask = (u64::MAX >> (64 - bits + 1)) & !((1u64 << lo) - 1);
            let count = |v: T| (v.get() as u64 & mask).count_ones() as usize;
            let d = top + count(m[l]) - count(p[l]);
            if d <= k {
                d as u32
            } else {
                beyond
            }
        })
    });
    (values, n)
}

/// The compilations, one per instruction set, of the banded kernel for lanes of `T`.
pub trait Compiled<T: Lane, const L: usize> {
    /// The banded values of `N` groups' lanes against `target` with the compilation `simd`,
    /// which the CPU must have, and the columns stepped.
    fn scan<const N: usize>(
        simd: Simd,
        groups: [&Banded<T, L>; N],
        target: &[u8],
    ) -> ([[u32; L]; N], usize);
}

macro_rules! compiled {
    ($t:ty, $l:literal) => {
        impl Compiled<$t, $l> for $t {
            fn scan<const N: usize>(
                simd: Simd,
                groups: [&Banded<$t, $l>; N],
                target: &[u8],
            ) -> ([[u32; $l]; N], usize) {
                #[cfg(target_arch = "x86_64")]
                #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
                fn avx512<const N: usize>(
                    groups: [&Banded<$t, $l>; N],
                    target: &[u8],
                ) -> ([[u32; $l]; N], usize) {
                    use super::vector::x86::Avx512;
                    body::<$t, $l, N, Avx512<$t>>(groups, target)
                }
                #[cfg(target_arch = "x86_64")]
                #[target_feature(enable = "avx2")]
                fn avx2<const N: usize>(
                    groups: [&Banded<$t, $l>; N],
                    target: &[u8],
                ) -> ([[u32; $l]; N], usize) {
                    use super::vector::x86::Avx2;
                    body::<$t, $l, N, Avx2<$t>>(groups, target)
                }
                match simd {
                    #[cfg(target_arch = "x86_64")]
                    Simd::Avx512 => {
                        assert!(Simd::detect() == Simd::Avx512, "the CPU has no AVX-512");
                        // SAFETY: the CPU has AVX-512 F, BW and VL, and AVX2: checked above.
                        unsafe { avx512(groups, target) }
                    }
                    #[cfg(target_arch = "x86_64")]
                    Simd::Avx2 => {
                        assert!(Simd::detect() <= Simd::Avx2, "the CPU has no AVX2");
                        // SAFETY: the CPU has AVX2: checked just above.
                        unsafe { avx2(groups, target) }
                    }
                    _ => body::<$t, $l, N, [$t; $l]>(groups, target),
                }
            }
        }
    };
}

compiled!(u8, 32);
compiled!(u16, 16);
compiled!(u32, 8);
compiled!(u64, 4);

/// The edit distance of every lane of `N` groups against `target` when it is at most the
/// groups' `k` (one `k` for all), else `k + 1`, with the compilation `simd` (which the CPU must
/// have): `[g][l]` for lane `l` of group `g`; a lane with no sequence answers `k + 1`. Also the
/// columns stepped before every lane was past its bound (the early exit), or the target's
/// length.
pub fn scan<T: Lane + Compiled<T, L>, const L: usize, const N: usize>(
    simd: Simd,
    groups: [&Banded<T, L>; N],
    target: &[u8],
) -> ([[u32; L]; N], usize) {
    assert!(
        groups.iter().all(|g| g.k == groups[0].k),
        "one band for all"
    );
    T::scan::<N>(simd, groups, target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::oracle;
    use crate::random::{mutated_pair, Random};

    /// Every lane width, every compilation, near and far pairs: the plain DP's distance when
    /// it is within `k`, `k + 1` otherwise.
    fn check<T: Lane + Compiled<T, L>, const L: usize>(rng: &mut Random, alphabet: &[u8]) {
        let widest = (T::BITS as usize - 1) / 2;
        for round in 0..10 {
            let k = [0, widest, rng.below(widest + 1)][round % 3];
            let n = [0, 1, 2 * k + 3, rng.below(90)][round % 4];
            let target = rng.bytes(n, alphabet);
            let groups: [Vec<Vec<u8>>; 2] = std::array::from_fn(|_| {
                (0..rng.below(L + 1))
                    .map(|_| match rng.below(3) {
                        // A near copy, within k or just past it.
                        0 => {
                            let mut a = target.clone();
                            for _ in 0..rng.below(k + 2) {
                                let at = rng.below(a.len() + 1);
                                match rng.below(3) {
                                    0 if at < a.len() => {
                                        a[at] = alphabet[rng.below(alphabet.len())]
                                    }
                                    1 => a.insert(at, alphabet[rng.below(alphabet.len())]),
                                    _ if at < a.len() => {
                                        a.remove(at);
                                    }
                                    _ => {}
                                }
                            }
                            a
                        }
                        1 => {
                            let m = n.saturating_sub(k) + rng.below(2 * k + 1);
                            rng.bytes(m, alphabet)
                        }
                        _ => {
                            let m = rng.below(100);
                            rng.bytes(m, alphabet)
                        }
                    })
                    .collect()
            });
            let lanes: [Banded<T, L>; 2] = std::array::from_fn(|g| {
                let seqs: Vec<&[u8]> = groups[g].iter().map(Vec::as_slice).collect();
                Banded::new(&seqs, k)
            });
            let want = |g: usize, l: usize| match groups[g].get(l) {
                None => k as u32 + 1,
                Some(a) => oracle::edit_distance(a, &target).min(k as u32 + 1),
            };
            for simd in Simd::available() {
                let (two, _) = scan(simd, [&lanes[0], &lanes[1]], &target);
                let (one, _) = scan(simd, [&lanes[0]], &target);
                let (four, _) = scan(simd, [&lanes[1], &lanes[0], &lanes[0], &lanes[1]], &target);
                assert_eq!(
                    four,
                    [two[1], two[0], two[0], two[1]],
                    "{simd:?} k {k} four"
                );
                for l in 0..L {
                    let shown = |g: usize| {
                        groups[g]
                            .get(l)
                            .map(|a| String::from_utf8_lossy(a).into_owned())
                    };
                    assert_eq!(
                        two[0][l],
                        want(0, l),
                        "{simd:?} k {k} lane {l} {:?}",
                        shown(0)
                    );
                    assert_eq!(
                        two[1][l],
                        want(1, l),
                        "{simd:?} k {k} lane {l} {:?}",
                        shown(1)
                    );
                    assert_eq!(one[0][l], want(0, l), "{simd:?} k {k} alone");
                }
            }
        }
    }

    #[test]
    fn every_lane_width_and_compilation_gives_the_plain_dp_within_k() {
        let mut rng = Random::new(2003);
        for alphabet in [&b"AC"[..], b"ACGT", b"abcdefghijklmnopqrstuvwxyz"] {
            check::<u8, 32>(&mut rng, alphabet);
            check::<u16, 16>(&mut rng, alphabet);
            check::<u32, 8>(&mut rng, alphabet);
            check::<u64, 4>(&mut rng, alphabet);
        }
    }

    /// Long near copies (the band far from the top border) and the early exit on unrelated
    /// reads.
    #[test]
    fn long_near_copies_and_unrelated_reads() {
        let mut rng = Random::new(7);
        for seed in 0..20u64 {
            let (a, b) = mutated_pair(150 + rng.below(400), 0.04, b"ACGT", seed);
            let c = rng.bytes(a.len(), b"ACGT");
            let lanes = Banded::<u64, 4>::new(&[&a, &c, &b], 31);
            for simd in Simd::available() {
                let ([got], _) = scan(simd, [&lanes], &b);
                assert_eq!(
                    got[0],
                    oracle::edit_distance(&a, &b).min(32),
                    "{simd:?} {seed}"
                );
                assert_eq!(got[1], 32);
                assert_eq!(got[2], 0);
                assert_eq!(got[3], 32);
            }
        }
        assert_eq!(lane_bits(3), Some(8));
        assert_eq!(lane_bits(4), Some(16));
        assert_eq!(lane_bits(31), Some(64));
        assert_eq!(lane_bits(32), None);
    }
}
