//! The bit-parallel LCS row step over a run of whole 64-bit words (Allison & Dix 1986,
//! doi:10.1016/0020-0190(86)90091-8, in the form of Crochemore, Iliopoulos, Pinzon & Reid 2001,
//! doi:10.1016/S0020-0190(01)00182-X; Hyyrö 2004, "Bit-parallel LCS-length computation revisited",
//! revisits both): one bit per column of a row, one carry bit between runs.
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
//! bit `j` is `M[i][j] - M[i-1][j]`, so at a mismatch the walk goes up iff it is 0;
//! [`step_traced`] stores those "go up" bits, the complement of the carries `u | (old & !sum)`.
//! Padding columns start at 1 with match bit 0 and stay 1.
//!
//! Cost: per word two loads, four operations and a store (one more store traced), no branch; the
//! carry is the only dependency between words, so [`step4`] overlaps four rows' chains (portable,
//! or the four lanes of one vector where the CPU has AVX2 or AVX-512, [`Kernel`]);
//! [`step_seams`] and [`step4_seams`] also report the carries out of chosen words as they go
//! ([`super::seams`]). Masks: `distinct(x) * words * 8` bytes. The case analysis:
//! `docs/algorithms.md#the-bit-parallel-lcs-step`.

use crate::problem::Problem;

#[cfg(target_arch = "x86_64")]
use super::four_rows;
use super::kernel::{Kernel, FUSED_ROWS};
use super::masks::Masks;
use super::seams::{self, Carries4, SeamWords};

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

/// One word of the row step: the new `V` word, the "go up" bits and the carry out.
#[inline(always)]
fn word_step(old: u64, p: u64, carry: bool) -> (u64, u64, bool) {
    let u = old & p;
    let (partial, c1) = old.overflowing_add(u);
    let (sum, c2) = partial.overflowing_add(u64::from(carry));
    // At most one of the two additions can overflow, so `|` is the carry out.
    (sum | (old & !p), !(u | (old & !sum)), c1 | c2)
}

/// Advances the band's `v` by one row with match mask `pm` (the band's words of the mask of
/// `x[i]`) and the carry into the band's first word; returns the carry out of its last word.
#[inline]
pub fn step(v: &mut [u64], pm: &[u64], carry_in: bool) -> bool {
    debug_assert_eq!(v.len(), pm.len(), "mask and band widths differ");
    let mut carry = carry_in;
    for (vk, &p) in v.iter_mut().zip(pm) {
        let (new, _, c) = word_step(*vk, p, carry);
        *vk = new;
        carry = c;
    }
    carry
}

/// [`step`] that also writes the row's "go up" bits into `up` (one word per band word; the
/// bits are meaningful at mismatch cells of real columns only).
#[inline]
pub fn step_traced(v: &mut [u64], pm: &[u64], carry_in: bool, up: &mut [u64]) -> bool {
    debug_assert_eq!(v.len(), pm.len(), "mask and band widths differ");
    debug_assert_eq!(v.len(), up.len(), "traceback row and band widths differ");
    let mut carry = carry_in;
    for ((vk, &p), out) in v.iter_mut().zip(pm).zip(up.iter_mut()) {
        let (new, go_up, c) = word_step(*vk, p, carry);
        *vk = new;
        *out = go_up;
        carry = c;
    }
    carry
}

/// Four consecutive rows in one pass over the band: the same as four [`step`]s with masks
/// `pm[0..4]` and carries `carry_in[0..4]`, returning the four carries out. Runs the fastest
/// [`Kernel`] this CPU has (see the module doc's cost).
#[inline]
pub fn step4(v: &mut [u64], pm: [&[u64]; 4], carry_in: [bool; 4]) -> [bool; 4] {
    step4_with(Kernel::for_words(Problem::Lcs, v.len()), v, pm, carry_in)
}

/// [`step4`] that also writes the four rows' "go up" bits (see [`step_traced`]).
#[inline]
pub fn step4_traced(
    v: &mut [u64],
    pm: [&[u64]; 4],
    carry_in: [bool; 4],
    up: [&mut [u64]; 4],
) -> [bool; 4] {
    step4_traced_with(
        Kernel::for_words(Problem::Lcs, v.len()),
        v,
        pm,
        carry_in,
        up,
    )
}

/// [`step4`] on the given kernel, which must be available ([`Kernel::is_available`]; panics
/// otherwise): for the tests and the micro-benchmark, which run every kernel.
#[inline]
pub fn step4_with(
    kernel: Kernel,
    v: &mut [u64],
    pm: [&[u64]; 4],
    carry_in: [bool; 4],
) -> [bool; 4] {
    debug_assert!(
        pm.iter().all(|p| p.len() == v.len()),
        "mask and band widths differ"
    );
    let none = || [&mut [][..], &mut [][..], &mut [][..], &mut [][..]];
    match kernel {
        Kernel::Portable => step4_portable::<false>(v, pm, carry_in, none()),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            assert!(kernel.is_available(), "this CPU has no AVX2");
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { avx2::step4::<false>(v, pm, carry_in, none()) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            assert!(kernel.is_available(), "this CPU has no AVX-512");
            // SAFETY: the CPU has AVX-512, checked just above.
            unsafe { avx512::step4::<false>(v, pm, carry_in, none()) }
        }
    }
}

/// [`step4_traced`] on the given kernel, which must be available (see [`step4_with`]).
#[inline]
pub fn step4_traced_with(
    kernel: Kernel,
    v: &mut [u64],
    pm: [&[u64]; 4],
    carry_in: [bool; 4],
    up: [&mut [u64]; 4],
) -> [bool; 4] {
    debug_assert!(
        pm.iter().all(|p| p.len() == v.len()),
        "mask and band widths differ"
    );
    debug_assert!(
        up.iter().all(|u| u.len() == v.len()),
        "traceback and band widths differ"
    );
    match kernel {
        Kernel::Portable => step4_portable::<true>(v, pm, carry_in, up),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            assert!(kernel.is_available(), "this CPU has no AVX2");
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { avx2::step4::<true>(v, pm, carry_in, up) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            assert!(kernel.is_available(), "this CPU has no AVX-512");
            // SAFETY: the CPU has AVX-512, checked just above.
            unsafe { avx512::step4::<true>(v, pm, carry_in, up) }
        }
    }
}

/// [`step`] that also reports the carry out of each word of `seams` (below the run's width):
/// `seam(t, carry)` for each such word `t` in increasing order, the carry into word `t + 1` (see
/// [`super::seams`]).
#[inline]
pub fn step_seams(
    v: &mut [u64],
    pm: &[u64],
    carry_in: bool,
    seams: SeamWords,
    seam: impl FnMut(usize, bool),
) -> bool {
    debug_assert_eq!(v.len(), pm.len(), "mask and band widths differ");
    let step = |words: std::ops::Range<usize>, c| step(&mut v[words.clone()], &pm[words], c);
    seams::in_pieces(pm.len(), seams, carry_in, step, seam)
}

/// [`step4`] that also reports the four rows' carries out of each word of `seams` (below the
/// run's width): `seam(t, carries)` for each such word `t` in increasing order, the carries
/// packed ([`Carries4`]: bit `r` row `i + r`'s). The same four rows and carries out as
/// [`step4`], on the same kernel.
#[inline]
pub fn step4_seams(
    v: &mut [u64],
    pm: [&[u64]; 4],
    carry_in: [bool; 4],
    seams: SeamWords,
    seam: impl FnMut(usize, Carries4),
) -> [bool; 4] {
    let kernel = Kernel::for_words(Problem::Lcs, v.len());
    step4_seams_with(kernel, v, pm, carry_in, seams, seam)
}

/// [`step4_seams`] on the given kernel, which must be available (see [`step4_with`]); for
/// words closer than [`LOGGED_APART`](seams::LOGGED_APART), on the portable one.
#[inline]
pub fn step4_seams_with(
    kernel: Kernel,
    v: &mut [u64],
    pm: [&[u64]; 4],
    carry_in: [bool; 4],
    seams: SeamWords,
    mut seam: impl FnMut(usize, Carries4),
) -> [bool; 4] {
    debug_assert!(
        pm.iter().all(|p| p.len() == v.len()),
        "mask and band widths differ"
    );
    // The portable kernel stops at close words for nothing; the vector ones would stop often.
    let kernel = match seams.every < seams::LOGGED_APART {
        true => Kernel::Portable,
        false => kernel,
    };
    match kernel {
        Kernel::Portable => {
            let none = || [&mut [][..], &mut [][..], &mut [][..], &mut [][..]];
            let width = v.len();
            let step = |words: std::ops::Range<usize>, c| {
                let pm = pm.map(|p| &p[words.clone()]);
                step4_portable::<false>(&mut v[words], pm, c, none())
            };
            let report = |t, c: [bool; 4]| seam(t, Carries4::of_payloads(c.map(u8::from)));
            seams::in_pieces(width, seams, carry_in, step, report)
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            assert!(kernel.is_available(), "this CPU has no AVX2");
            let width = v.len();
            let none = || [&mut [][..], &mut [][..], &mut [][..], &mut [][..]];
            let step = |words: std::ops::Range<usize>, c, log: Option<four_rows::Logged<'_>>| {
                let (v, pm) = (&mut v[words.clone()], pm.map(|p| &p[words.clone()]));
                // SAFETY: the CPU has AVX2, checked just above.
                unsafe {
                    match log {
                        Some(log) => avx2::step4_logged(v, pm, c, log),
                        None => avx2::step4::<false>(v, pm, c, none()),
                    }
                }
            };
            // SAFETY: `step4_logged` writes what it promises.
            unsafe {
                four_rows::seams_in_pieces::<avx2::Avx2, 1>(width, carry_in, seams, step, seam)
            }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            assert!(kernel.is_available(), "this CPU has no AVX-512");
            let width = v.len();
            let none = || [&mut [][..], &mut [][..], &mut [][..], &mut [][..]];
            let step = |words: std::ops::Range<usize>, c, log: Option<four_rows::Logged<'_>>| {
                let (v, pm) = (&mut v[words.clone()], pm.map(|p| &p[words.clone()]));
                // SAFETY: the CPU has AVX-512, checked just above.
                unsafe {
                    match log {
                        Some(log) => avx512::step4_logged(v, pm, c, log),
                        None => avx512::step4::<false>(v, pm, c, none()),
                    }
                }
            };
            // SAFETY: `step4_logged` writes what it promises.
            unsafe {
                four_rows::seams_in_pieces::<avx512::Avx512, 1>(width, carry_in, seams, step, seam)
            }
        }
    }
}

/// The portable four rows in one pass, writing the "go up" bits if `TRACED` (otherwise `up`
/// is not read and may be empty).
///
/// One row's carry chain (`setb`, move, `adc` per word) is a latency chain of about three
/// cycles per word that leaves most of the core idle. Word `t` of row `i + 1` needs only word
/// `t` of row `i` and its own carry from word `t - 1`, so the four rows' chains are independent
/// and the core overlaps them; `V` is also loaded and stored once per four rows.
#[inline(always)]
fn step4_portable<const TRACED: bool>(
    v: &mut [u64],
    pm: [&[u64]; 4],
    carry_in: [bool; 4],
    up: [&mut [u64]; 4],
) -> [bool; 4] {
    let [mut c0, mut c1, mut c2, mut c3] = carry_in;
    let masks = pm[0].iter().zip(pm[1]).zip(pm[2]).zip(pm[3]);
    if TRACED {
        let [u0, u1, u2, u3] = up;
        let outs = u0.iter_mut().zip(u1).zip(u2).zip(u3);
        for ((vk, (((&p0, &p1), &p2), &p3)), (((o0, o1), o2), o3)) in
            v.iter_mut().zip(masks).zip(outs)
        {
            let (a, g, c) = word_step(*vk, p0, c0);
            (c0, *o0) = (c, g);
            let (b, g, c) = word_step(a, p1, c1);
            (c1, *o1) = (c, g);
            let (d, g, c) = word_step(b, p2, c2);
            (c2, *o2) = (c, g);
            let (e, g, c) = word_step(d, p3, c3);
            (c3, *o3) = (c, g);
            *vk = e;
        }
    } else {
        for (vk, (((&p0, &p1), &p2), &p3)) in v.iter_mut().zip(masks) {
            let (a, _, c) = word_step(*vk, p0, c0);
            c0 = c;
            let (b, _, c) = word_step(a, p1, c1);
            c1 = c;
            let (d, _, c) = word_step(b, p2, c2);
            c2 = c;
            let (e, _, c) = word_step(d, p3, c3);
            c3 = c;
            *vk = e;
        }
    }
    [c0, c1, c2, c3]
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
        step4(&mut v, [0, 1, 2, 3].map(|d| masks.of(r[d])), [false; 4]);
    }
    for &b in rows.remainder() {
        step(&mut v, masks.of(b), false);
    }
    v.iter().map(|w| w.count_zeros() as usize).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;

    /// The whole-row step as `reference` writes it: one carry chain over all words.
    fn whole_row(v: &mut [u64], pm: &[u64]) -> Vec<u64> {
        let mut up = vec![0; v.len()];
        step_traced(v, pm, false, &mut up);
        up
    }

    #[test]
    fn split_bands_chained_by_carry_equal_the_whole_row() {
        // A row cut into bands, each band's carry-in the previous band's carry-out, must give
        // the same V and the same traceback bits as one chain over the whole row.
        let mut rng = Random::new(3);
        for words in [1usize, 2, 3, 5, 9] {
            for _ in 0..200 {
                let v0: Vec<u64> = (0..words).map(|_| rng.word()).collect();
                // Sparse and dense masks, and all-ones runs that carry across words.
                let pm: Vec<u64> = (0..words)
                    .map(|_| match rng.below(3) {
                        0 => rng.word(),
                        1 => rng.word() & rng.word(),
                        _ => u64::MAX,
                    })
                    .collect();
                let mut whole = v0.clone();
                let up_whole = whole_row(&mut whole, &pm);
                for cut in 0..=words {
                    let mut v = v0.clone();
                    let mut up = vec![0; words];
                    let (vl, vr) = v.split_at_mut(cut);
                    let (ul, ur) = up.split_at_mut(cut);
                    let c = step_traced(vl, &pm[..cut], false, ul);
                    step_traced(vr, &pm[cut..], c, ur);
                    assert_eq!(v, whole, "words {words} cut {cut}");
                    assert_eq!(up, up_whole, "words {words} cut {cut}");
                    // The untraced step computes the same V and carry.
                    let mut v2 = v0.clone();
                    let (a, b) = v2.split_at_mut(cut);
                    let c2 = step(a, &pm[..cut], false);
                    assert_eq!(c2, c);
                    step(b, &pm[cut..], c2);
                    assert_eq!(v2, whole);
                }
            }
        }
    }

    #[test]
    fn four_fused_rows_equal_four_steps_on_every_kernel() {
        // Every kernel this CPU runs (the portable one always), on the same random states,
        // masks and carries; widths around the vector kernels' prologue and epilogue (nine
        // steps each) and their two-step loop, and a band of large_3 (782 words).
        let kernels = Kernel::available();
        assert_eq!(kernels[0], Kernel::Portable);
        let mut rng = Random::new(4);
        for words in [
            0usize, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 19, 64, 65, 782,
        ] {
            let tries = if words > 100 { 20 } else { 200 };
            for _ in 0..tries {
                let v0: Vec<u64> = (0..words).map(|_| rng.word()).collect();
                // Sparse and dense masks, and all-ones words that carry across words.
                let pm: Vec<Vec<u64>> = (0..4)
                    .map(|_| {
                        (0..words)
                            .map(|_| match rng.below(3) {
                                0 => rng.word(),
                                1 => rng.word() & rng.word(),
                                _ => u64::MAX,
                            })
                            .collect()
                    })
                    .collect();
                let cin: [bool; 4] = [rng.coin(), rng.coin(), rng.coin(), rng.coin()];
                let mut one = v0.clone();
                let mut up_one = vec![vec![0; words]; 4];
                let mut cout = [false; 4];
                for r in 0..4 {
                    cout[r] = step_traced(&mut one, &pm[r], cin[r], &mut up_one[r]);
                }
                let masks = [&pm[0][..], &pm[1][..], &pm[2][..], &pm[3][..]];
                for &kernel in &kernels {
                    let mut four = v0.clone();
                    let got = step4_with(kernel, &mut four, masks, cin);
                    assert_eq!(got, cout, "{kernel:?} at {words} words");
                    assert_eq!(four, one, "{kernel:?} at {words} words");
                    let mut traced = v0.clone();
                    let mut up = vec![vec![u64::MAX; words]; 4];
                    let [a, b, c, d] = &mut up[..] else {
                        unreachable!()
                    };
                    let got = step4_traced_with(kernel, &mut traced, masks, cin, [a, b, c, d]);
                    assert_eq!(got, cout, "{kernel:?} traced at {words} words");
                    assert_eq!(traced, one, "{kernel:?} traced at {words} words");
                    assert_eq!(up, up_one, "{kernel:?} traced at {words} words");
                }
                // And the dispatching entry points.
                let mut four = v0.clone();
                assert_eq!(step4(&mut four, masks, cin), cout);
                assert_eq!(four, one);
            }
        }
    }

    /// Each row stepped one word at a time: the state after the four rows and, per row, the
    /// carry out of every word.
    fn word_by_word(v0: &[u64], pm: &[Vec<u64>], cin: [bool; 4]) -> (Vec<u64>, Vec<Vec<bool>>) {
        let mut v = v0.to_vec();
        let outs = (0..4)
            .map(|r| {
                let mut c = cin[r];
                (0..v.len())
                    .map(|t| {
                        c = step(&mut v[t..t + 1], &pm[r][t..t + 1], c);
                        c
                    })
                    .collect()
            })
            .collect();
        (v, outs)
    }

    #[test]
    fn seam_steps_report_the_carries_of_single_steps_on_every_kernel() {
        // Every kernel this CPU runs, and the single-row step, against rows stepped a word at
        // a time: widths around the wavefront's prologue and epilogue, a band of
        // large_3, and a run the vector kernels step in pieces (256 words asked, 10 apart).
        let mut rng = Random::new(0x5ea5);
        let widths = (0..20).chain([64, 65, 256, 782, 2600]);
        for words in widths {
            let tries = if words > 100 { 6 } else { 60 };
            for _ in 0..tries {
                let v0: Vec<u64> = (0..words).map(|_| rng.word()).collect();
                let pm: Vec<Vec<u64>> = (0..4)
                    .map(|_| {
                        (0..words)
                            .map(|_| match rng.below(3) {
                                0 => rng.word(),
                                1 => rng.word() & rng.word(),
                                _ => u64::MAX,
                            })
                            .collect()
                    })
                    .collect();
                let cin: [bool; 4] = [rng.coin(), rng.coin(), rng.coin(), rng.coin()];
                let (want_v, outs) = word_by_word(&v0, &pm, cin);
                let cout = [0, 1, 2, 3].map(|r| outs[r].last().map_or(cin[r], |&c| c));
                let masks = [&pm[0][..], &pm[1][..], &pm[2][..], &pm[3][..]];
                for seams in seams::tested_seam_words(words) {
                    let SeamWords { first, every } = seams;
                    let want: Vec<(usize, Carries4)> = (first..words)
                        .step_by(every)
                        .map(|t| {
                            let rows = [0, 1, 2, 3].map(|r| u8::from(outs[r][t]));
                            (t, Carries4::of_payloads(rows))
                        })
                        .collect();
                    let what = format!("{words} words, {seams:?}");
                    for kernel in Kernel::available() {
                        let mut v = v0.clone();
                        let mut got = Vec::new();
                        let c = step4_seams_with(kernel, &mut v, masks, cin, seams, |t, c| {
                            got.push((t, c))
                        });
                        assert_eq!(c, cout, "{kernel:?} at {what}");
                        assert_eq!(v, want_v, "{kernel:?} at {what}");
                        assert_eq!(got, want, "{kernel:?} at {what}");
                    }
                    // The dispatching entry point, and one row.
                    let mut v = v0.clone();
                    let mut got = Vec::new();
                    step4_seams(&mut v, masks, cin, seams, |t, c| got.push((t, c)));
                    assert_eq!((v, got), (want_v.clone(), want.clone()), "{what}");
                    let mut v = v0.clone();
                    let mut got = Vec::new();
                    let c = step_seams(&mut v, masks[0], cin[0], seams, |t, c| got.push((t, c)));
                    assert_eq!(c, outs[0].last().map_or(cin[0], |&c| c), "one row, {what}");
                    let want_one: Vec<(usize, bool)> =
                        want.iter().map(|&(t, _)| (t, outs[0][t])).collect();
                    assert_eq!(got, want_one, "one row, {what}");
                }
            }
        }
    }

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
                step_traced(&mut v, masks.of(x[i]), false, &mut up);
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
