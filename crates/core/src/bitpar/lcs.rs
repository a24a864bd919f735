//! The bit-parallel LCS row (Allison & Dix 1986, doi:10.1016/0020-0190(86)90091-8, in the form
//! of Crochemore, Iliopoulos, Pinzon & Reid 2001, doi:10.1016/S0020-0190(01)00182-X; Hyyrö 2004,
//! "Bit-parallel LCS-length computation revisited", revisits both): one bit per column of a row,
//! one carry bit between words. The step family is [`Row`]'s; this is the LCS's word step.
//!
//! Row `i` is the bit vector `V_i` over the columns (bit `j` clear iff `M[i][j] - M[i][j-1] = 1`),
//! `V_{-1}` all ones. With `P` the match mask of `x[i]` and `U = V_{i-1} & P`,
//!
//! ```text
//! V_i = (V_{i-1} + U) | (V_{i-1} & !P)
//! ```
//!
//! with `+` a multi-word addition whose carry in comes from the words to the left (0 at column 0)
//! and whose carry out goes to the right: the one bit per row a band passes on. The carry out of
//! bit `j` is `M[i][j] - M[i-1][j]`, so at a mismatch the walk goes up iff it is 0; the traced
//! steps store those "go up" bits, the complement of the carries `u | (old & !sum)`. Padding
//! columns start at 1 with match bit 0 and stay 1.
//!
//! Cost: per word two loads, four operations and a store (one more store traced), no branch; the
//! carry is the only dependency between words, so the fused four rows overlap their chains
//! (portable, or the four lanes of one vector where the CPU has AVX2 or AVX-512). Masks:
//! `distinct(x) * words * 8` bytes. The case analysis: `docs/algorithms.md#the-bit-parallel-lcs-step`.

use super::carry::Carried;
#[cfg(target_arch = "x86_64")]
use super::four_rows::LaneCarry;
use super::kernel::FUSED_ROWS;
use super::masks::Masks;
use super::row::{Planes, Row};
use crate::problem::Problem;
use crate::recurrence::Lcs;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

impl Carried for Lcs {
    type Carry = bool;
}

impl Row<1> for Lcs {
    const PROBLEM: Problem = Problem::Lcs;
    const EDGE: bool = false;
    type Kept = bool;

    #[inline(always)]
    fn keep(carry: bool) -> bool {
        carry
    }

    #[inline(always)]
    fn give(kept: bool) -> bool {
        kept
    }

    #[inline(always)]
    fn payload(carry: bool) -> u8 {
        u8::from(carry)
    }

    #[inline(always)]
    fn of_payload(payload: u8) -> bool {
        payload & 1 == 1
    }

    /// The new `V` word and its "go up" bits.
    #[inline(always)]
    fn word([old]: [u64; 1], p: u64, carry: &mut bool) -> ([u64; 1], [u64; 1]) {
        let u = old & p;
        let (partial, c1) = old.overflowing_add(u);
        let (sum, c2) = partial.overflowing_add(u64::from(*carry));
        // At most one of the two additions can overflow, so `|` is the carry out.
        *carry = c1 | c2;
        ([sum | (old & !p)], [!(u | (old & !sum))])
    }

    /// The words in turn, over the slices' iterators, which the compiler keeps tighter here
    /// than the default's pointers.
    #[inline(always)]
    fn row<const TRACED: bool>(
        [v]: Planes<'_, 1>,
        pm: &[u64],
        carry: bool,
        [up]: Planes<'_, 1>,
    ) -> bool {
        assert_eq!(v.len(), pm.len(), "mask and band widths differ");
        let mut carry = carry;
        if TRACED {
            assert_eq!(v.len(), up.len(), "traceback row and band widths differ");
            for ((vk, &p), out) in v.iter_mut().zip(pm).zip(up.iter_mut()) {
                ([*vk], [*out]) = Lcs::word([*vk], p, &mut carry);
            }
        } else {
            for (vk, &p) in v.iter_mut().zip(pm) {
                [*vk] = Lcs::word([*vk], p, &mut carry).0;
            }
        }
        carry
    }

    /// One pass over the words stepping the four rows in turn, their carry chains
    /// overlapping in the core, `V` loaded and stored once per four rows; written over the
    /// slices' iterators, which the compiler keeps tighter here than the default's indices.
    #[inline(always)]
    fn portable4<const TRACED: bool>(
        [v]: Planes<'_, 1>,
        pm: [&[u64]; 4],
        carry: [bool; 4],
        trace: [Planes<'_, 1>; 4],
    ) -> [bool; 4] {
        let [mut c0, mut c1, mut c2, mut c3] = carry;
        let masks = pm[0].iter().zip(pm[1]).zip(pm[2]).zip(pm[3]);
        let step = |old, p, c: &mut bool| {
            let ([new], [up]) = Lcs::word([old], p, c);
            (new, up)
        };
        if TRACED {
            let [[u0], [u1], [u2], [u3]] = trace;
            let outs = u0.iter_mut().zip(u1).zip(u2).zip(u3);
            for ((vk, (((&p0, &p1), &p2), &p3)), (((o0, o1), o2), o3)) in
                v.iter_mut().zip(masks).zip(outs)
            {
                let (a, g0) = step(*vk, p0, &mut c0);
                let (b, g1) = step(a, p1, &mut c1);
                let (d, g2) = step(b, p2, &mut c2);
                let (e, g3) = step(d, p3, &mut c3);
                (*o0, *o1, *o2, *o3, *vk) = (g0, g1, g2, g3, e);
            }
        } else {
            for (vk, (((&p0, &p1), &p2), &p3)) in v.iter_mut().zip(masks) {
                let (a, _) = step(*vk, p0, &mut c0);
                let (b, _) = step(a, p1, &mut c1);
                let (d, _) = step(b, p2, &mut c2);
                let (e, _) = step(d, p3, &mut c3);
                *vk = e;
            }
        }
        [c0, c1, c2, c3]
    }

    #[cfg(target_arch = "x86_64")]
    type Avx2 = avx2::Avx2;
    #[cfg(target_arch = "x86_64")]
    type Avx512 = avx512::Avx512;
}

#[cfg(target_arch = "x86_64")]
impl LaneCarry<1> for Lcs {
    fn carry_words(carry: bool) -> [u64; 1] {
        [u64::from(carry) << 63]
    }

    fn carry_of([word]: [u64; 1]) -> bool {
        word >> 63 == 1
    }

    // The carry is kept as it is.
    const COMPLEMENTED: u8 = 0;
}

/// Length of the LCS of `x` and `y` (either may be the longer; columns are `y`) in
/// `O(n / 64)` memory: the rows stepped over one run spanning every column, four at a time,
/// then the zero bits of the last `V` counted (the +1 steps along the last row; padding bits
/// stay 1). No traceback bits: it checks a run's length where no traceback fits (10^6 x 10^6
/// in one process).
pub fn lcs_length(x: &[u8], y: &[u8]) -> usize {
    let masks = Masks::new(x, y);
    let mut v = vec![u64::MAX; masks.width()];
    // Four rows per pass where possible, as the engine's fill does.
    let mut rows = x.chunks_exact(FUSED_ROWS);
    for r in rows.by_ref() {
        Lcs::step4(
            [&mut v],
            [0, 1, 2, 3].map(|d| masks.of(r[d])),
            [Lcs::EDGE; 4],
        );
    }
    for &b in rows.remainder() {
        Lcs::step([&mut v], masks.of(b), Lcs::EDGE);
    }
    v.iter().map(|w| w.count_zeros() as usize).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;

    #[test]
    fn carry_is_the_vertical_difference() {
        // Row by row against the plain DP: bit j of the "go up" word is set iff
        // M[i][j] == M[i-1][j], and V's clear bits are the +1 steps along the row.
        let mut rng = Random::new(9);
        for (m, n) in [(1usize, 1usize), (5, 64), (40, 130), (64, 200)] {
            let x: Vec<u8> = (0..m).map(|_| b"acgt"[rng.below(4)]).collect();
            let y: Vec<u8> = (0..n).map(|_| b"acgt"[rng.below(4)]).collect();
            let table = crate::reference::full_table(&x, &y);
            let masks = Masks::new(&x, &y);
            let mut v = vec![u64::MAX; n.div_ceil(64)];
            for i in 0..m {
                let mut up = vec![0; v.len()];
                Lcs::step_traced([&mut v], masks.of(x[i]), false, [&mut up]);
                for j in 0..n {
                    let above = if i == 0 { 0 } else { table[i - 1][j] };
                    let left = if j == 0 { 0 } else { table[i][j - 1] };
                    let bit = |w: &[u64]| (w[j / 64] >> (j % 64)) & 1 == 1;
                    assert_eq!(bit(&up), table[i][j] == above, "({i}, {j})");
                    assert_eq!(!bit(&v), table[i][j] == left + 1, "({i}, {j})");
                }
                // Padding stays 1.
                if n % 64 != 0 {
                    assert_eq!(v[n / 64] >> (n % 64), u64::MAX >> (n % 64));
                }
            }
        }
    }

    #[test]
    fn agrees_with_the_reference() {
        let mut rng = Random::new(0x1e4);
        let all: Vec<u8> = (0..=255).collect();
        let alphabets: [&[u8]; 4] = [b"ab", b"ACGT", b"abcdefghijklmnopqrstuvwxyz", &all];
        for alphabet in alphabets {
            for _ in 0..60 {
                let la = rng.below(300);
                let lb = la + rng.below(301 - la);
                let mut gen = |len| -> Vec<u8> {
                    (0..len)
                        .map(|_| alphabet[rng.below(alphabet.len())])
                        .collect()
                };
                let (x, y) = (gen(la), gen(lb));
                let want = crate::reference::lcs(&x, &y).length;
                assert_eq!(lcs_length(&x, &y), want, "x={x:?} y={y:?}");
                // Symmetric: the longer sequence may be the rows too.
                assert_eq!(lcs_length(&y, &x), want);
            }
        }
    }

    #[test]
    fn edge_cases() {
        assert_eq!(lcs_length(b"", b""), 0);
        assert_eq!(lcs_length(b"", b"abc"), 0);
        assert_eq!(lcs_length(b"abc", b""), 0);
        assert_eq!(lcs_length(b"a", b"a"), 1);
        assert_eq!(lcs_length(&[7; 64], &[7; 64]), 64);
        assert_eq!(lcs_length(&[7; 65], &[7; 130]), 65);
        assert_eq!(lcs_length(b"abc", b"xyz"), 0);
    }
}
