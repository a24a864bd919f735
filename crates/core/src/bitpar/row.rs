//! One bit-parallel row step family for both problems: a problem says how one 64-bit word of
//! its row steps ([`Row::word`]) — its state in `P` planes of words (the LCS's `V`; the edit
//! distance's `Pv` and `Mv`), the walk's bits in as many planes, and the carry that crosses a
//! word edge — and [`Row`]'s provided methods step a run of words with it: one row, four rows
//! fused, traced (writing the walk's bits) or reporting the carries out of chosen words as they
//! go (`*_seams`, [`super::seams`]), on the [`Kernel`] chosen at run time or the one given
//! (`*_with`, for the tests and the micro-benchmark). Each problem's file keeps only what
//! differs: its word step, its carry, its fused portable loop where a better one exists, and
//! its word step in each vector instruction set (`four_rows`).
//!
//! Runs chained left to right, each's carry out the next one's carry in, compute the same row
//! as one run over every word: a band of the bands engine is a run, and what crosses a band
//! edge is the carry. Padding columns match nothing and never affect a real one.
//!
//! ```
//! use lcs_core::bitpar::{Edit, Lcs, Masks, Row};
//!
//! let masks = Masks::new(b"GATTACA", b"GCATGCU");
//! let mut v = vec![u64::MAX; masks.width()];
//! // Four rows fused, then the rest one at a time: the carry into column 0 is the edge's.
//! let carries = Lcs::step4([&mut v], [b'G', b'A', b'T', b'T'].map(|b| masks.of(b)), [Lcs::EDGE; 4]);
//! assert_eq!(carries.len(), 4);
//! let (mut pv, mut mv) = (vec![u64::MAX; masks.width()], vec![0; masks.width()]);
//! Edit::step([&mut pv, &mut mv], masks.of(b'G'), Edit::EDGE);
//! ```

use super::carry::Carried;
#[cfg(target_arch = "x86_64")]
use super::four_rows;
use super::kernel::Kernel;
use super::seams::{self, Carries4, SeamWords};
use crate::problem::Problem;

/// `R` rows of `P` planes of a run's words, borrowed (the walk's bits of fused rows).
pub type Planes<'a, const P: usize> = [&'a mut [u64]; P];

/// A problem's bit-parallel row step over runs of 64-bit words, `P` planes of state and of
/// the walk's bits (see the module doc). The required items are what differs between the
/// problems; the provided methods are the step family, written once.
pub trait Row<const P: usize>: Carried {
    /// Which problem this is (the vector kernels' narrowest row is per problem:
    /// [`Kernel::for_words`]).
    const PROBLEM: Problem;

    /// The carry into a run that starts at column 0.
    const EDGE: Self::Carry;

    /// The carry as the word step keeps it from one word to the next.
    type Kept: Copy;

    fn keep(carry: Self::Carry) -> Self::Kept;

    fn give(kept: Self::Kept) -> Self::Carry;

    /// The carry as a payload: at most two bits, as a message or [`Carries4`] carries it.
    fn payload(carry: Self::Carry) -> u8;

    /// The carry a payload carries ([`Row::payload`]).
    fn of_payload(payload: u8) -> Self::Carry;

    /// One word of the row: the row before's `state` and the match mask `eq` of the word give
    /// the new state and the walk's bits; `carry` goes from the carry into the word to the
    /// carry out of it. The bits cost nothing where they are not used: the callers that drop
    /// them inline this.
    fn word(state: [u64; P], eq: u64, carry: &mut Self::Kept) -> ([u64; P], [u64; P]);

    /// The four fused rows on plain words, writing the walk's bits if `TRACED` (otherwise
    /// `trace` is not read and may be empty slices): by default one pass over the words
    /// stepping the four rows in turn, whose carry chains are independent and overlap in the
    /// core, and the state loaded and stored once per four rows.
    #[inline(always)]
    fn portable4<const TRACED: bool>(
        state: Planes<'_, P>,
        eq: [&[u64]; 4],
        carry: [Self::Carry; 4],
        trace: [Planes<'_, P>; 4],
    ) -> [Self::Carry; 4] {
        let width = eq[0].len();
        assert!(eq.iter().all(|e| e.len() == width) && state.iter().all(|s| s.len() == width));
        assert!(!TRACED || trace.iter().flatten().all(|t| t.len() == width));
        let [mut k0, mut k1, mut k2, mut k3] = carry.map(Self::keep);
        let (mut state, mut trace) = (state, trace);
        let st = state.each_mut().map(|p| p.as_mut_ptr());
        let tr = trace
            .each_mut()
            .map(|r| r.each_mut().map(|p| p.as_mut_ptr()));
        let [e0, e1, e2, e3] = eq.map(<[u64]>::as_ptr);
        for k in 0..width {
            // SAFETY: every slice is `width` words long (asserted above), and k < width.
            unsafe {
                let words = std::array::from_fn(|p| *st[p].add(k));
                let (a, ta) = Self::word(words, *e0.add(k), &mut k0);
                let (b, tb) = Self::word(a, *e1.add(k), &mut k1);
                let (c, tc) = Self::word(b, *e2.add(k), &mut k2);
                let (d, td) = Self::word(c, *e3.add(k), &mut k3);
                for p in 0..P {
                    *st[p].add(k) = d[p];
                    if TRACED {
                        *tr[0][p].add(k) = ta[p];
                        *tr[1][p].add(k) = tb[p];
                        *tr[2][p].add(k) = tc[p];
                        *tr[3][p].add(k) = td[p];
                    }
                }
            }
        }
        [k0, k1, k2, k3].map(Self::give)
    }

    /// One row over the run, writing the walk's bits if `TRACED` (otherwise `trace` is not
    /// read and may be empty slices): by default the word step over the words in turn.
    #[inline(always)]
    fn row<const TRACED: bool>(
        state: Planes<'_, P>,
        eq: &[u64],
        carry: Self::Carry,
        trace: Planes<'_, P>,
    ) -> Self::Carry {
        let width = eq.len();
        assert!(
            state.iter().all(|s| s.len() == width),
            "state and mask widths differ"
        );
        assert!(
            !TRACED || trace.iter().all(|t| t.len() == width),
            "trace and mask widths differ"
        );
        let (mut state, mut trace) = (state, trace);
        let st = state.each_mut().map(|p| p.as_mut_ptr());
        let tr = trace.each_mut().map(|p| p.as_mut_ptr());
        let mut kept = Self::keep(carry);
        for (k, &e) in eq.iter().enumerate() {
            // SAFETY: every slice is `width` words long (asserted above), and k < width.
            unsafe {
                let (next, bits) = Self::word(std::array::from_fn(|p| *st[p].add(k)), e, &mut kept);
                for p in 0..P {
                    *st[p].add(k) = next[p];
                    if TRACED {
                        *tr[p].add(k) = bits[p];
                    }
                }
            }
        }
        Self::give(kept)
    }

    /// The word step in AVX2, as the four-row wavefront runs it.
    #[cfg(target_arch = "x86_64")]
    #[doc(hidden)]
    type Avx2: four_rows::Step<P, Row = Self>;

    /// The word step in AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[doc(hidden)]
    type Avx512: four_rows::Step<P, Row = Self>;

    /// Advances a run's `state` by one row, with `eq` the run's words of the match mask of the
    /// row's byte and `carry` the carry into the run's first word; returns the carry out of its
    /// last word.
    #[inline]
    fn step(state: Planes<'_, P>, eq: &[u64], carry: Self::Carry) -> Self::Carry {
        Self::row::<false>(state, eq, carry, empty())
    }

    /// [`Row::step`] that also writes the row's walk bits into `trace`, one word per run word
    /// per plane (meaningful at mismatch cells of real columns only).
    #[inline]
    fn step_traced(
        state: Planes<'_, P>,
        eq: &[u64],
        carry: Self::Carry,
        trace: Planes<'_, P>,
    ) -> Self::Carry {
        Self::row::<true>(state, eq, carry, trace)
    }

    /// Four consecutive rows in one call: the same as four [`Row::step`]s with the masks `eq`
    /// and the carries `carry`, returning the four carries out. Runs the fastest kernel this
    /// CPU has for the run's width ([`Kernel::for_words`]).
    #[inline]
    fn step4(state: Planes<'_, P>, eq: [&[u64]; 4], carry: [Self::Carry; 4]) -> [Self::Carry; 4] {
        let kernel = Kernel::for_words(Self::PROBLEM, eq[0].len());
        four::<Self, P, false>(kernel, state, eq, carry, [(); 4].map(|_| empty()))
    }

    /// [`Row::step4`] that also writes the four rows' walk bits (see [`Row::step_traced`]).
    #[inline]
    fn step4_traced(
        state: Planes<'_, P>,
        eq: [&[u64]; 4],
        carry: [Self::Carry; 4],
        trace: [Planes<'_, P>; 4],
    ) -> [Self::Carry; 4] {
        let kernel = Kernel::for_words(Self::PROBLEM, eq[0].len());
        four::<Self, P, true>(kernel, state, eq, carry, trace)
    }

    /// [`Row::step4`] on the given kernel, which must be available
    /// ([`Kernel::is_available`]; panics otherwise).
    #[inline]
    fn step4_with(
        kernel: Kernel,
        state: Planes<'_, P>,
        eq: [&[u64]; 4],
        carry: [Self::Carry; 4],
    ) -> [Self::Carry; 4] {
        four::<Self, P, false>(kernel, state, eq, carry, [(); 4].map(|_| empty()))
    }

    /// [`Row::step4_traced`] on the given kernel, which must be available.
    #[inline]
    fn step4_traced_with(
        kernel: Kernel,
        state: Planes<'_, P>,
        eq: [&[u64]; 4],
        carry: [Self::Carry; 4],
        trace: [Planes<'_, P>; 4],
    ) -> [Self::Carry; 4] {
        four::<Self, P, true>(kernel, state, eq, carry, trace)
    }

    /// [`Row::step`] that also reports the carry out of each word of `seams` below the run's
    /// width: `seam(t, carry)` for each such word `t` in increasing order, the carry into word
    /// `t + 1`.
    #[inline]
    fn step_seams(
        state: Planes<'_, P>,
        eq: &[u64],
        carry: Self::Carry,
        seams: SeamWords,
        seam: impl FnMut(usize, Self::Carry),
    ) -> Self::Carry {
        let mut state = state;
        let step = |words: std::ops::Range<usize>, c| {
            let state = state.each_mut().map(|p| &mut p[words.clone()]);
            Self::step(state, &eq[words], c)
        };
        seams::in_pieces(eq.len(), seams, carry, step, seam)
    }

    /// [`Row::step4`] that also reports the four rows' carries out of each word of `seams`
    /// below the run's width: `seam(t, carries)` for each such word `t` in increasing order,
    /// packed ([`Carries4`]: [`Row::payload`] of row `i + r` in bits `r` and `4 + r`). The
    /// same rows and carries out as [`Row::step4`], on the same kernel.
    #[inline]
    fn step4_seams(
        state: Planes<'_, P>,
        eq: [&[u64]; 4],
        carry: [Self::Carry; 4],
        seams: SeamWords,
        seam: impl FnMut(usize, Carries4),
    ) -> [Self::Carry; 4] {
        let kernel = Kernel::for_words(Self::PROBLEM, eq[0].len());
        Self::step4_seams_with(kernel, state, eq, carry, seams, seam)
    }

    /// [`Row::step4_seams`] on the given kernel, which must be available; for words closer
    /// than [`LOGGED_APART`](seams::LOGGED_APART), on the portable one, which stops at each
    /// word for nothing (a vector kernel would pay its prologue and epilogue each time).
    #[inline]
    fn step4_seams_with(
        kernel: Kernel,
        state: Planes<'_, P>,
        eq: [&[u64]; 4],
        carry: [Self::Carry; 4],
        seams: SeamWords,
        mut seam: impl FnMut(usize, Carries4),
    ) -> [Self::Carry; 4] {
        assert!(
            kernel.is_available(),
            "this CPU cannot run the {} kernel",
            kernel.name()
        );
        let width = eq[0].len();
        let mut state = state;
        let kernel = match seams.every < seams::LOGGED_APART {
            true => Kernel::Portable,
            false => kernel,
        };
        match kernel {
            Kernel::Portable => {
                let step = |words: std::ops::Range<usize>, c| {
                    let state = state.each_mut().map(|p| &mut p[words.clone()]);
                    let eq = eq.map(|e| &e[words.clone()]);
                    Self::portable4::<false>(state, eq, c, [(); 4].map(|_| empty()))
                };
                let report =
                    |t, c: [Self::Carry; 4]| seam(t, Carries4::of_payloads(c.map(Self::payload)));
                seams::in_pieces(width, seams, carry, step, report)
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                let step = |words: std::ops::Range<usize>,
                            c,
                            log: Option<four_rows::Logged<'_>>| {
                    let state = state.each_mut().map(|p| &mut p[words.clone()]);
                    let eq = eq.map(|e| &e[words.clone()]);
                    // SAFETY: the CPU has AVX2, checked above.
                    unsafe {
                        match log {
                            Some(log) => four_rows::avx2_logged::<Self::Avx2, P>(state, eq, c, log),
                            None => {
                                four_rows::avx2::<Self::Avx2, P, false>(state, eq, c, no_bits())
                            }
                        }
                    }
                };
                // SAFETY: the kernel writes what a logged call promises.
                unsafe {
                    four_rows::seams_in_pieces::<Self::Avx2, P>(width, carry, seams, step, seam)
                }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                let step = |words: std::ops::Range<usize>,
                            c,
                            log: Option<four_rows::Logged<'_>>| {
                    let state = state.each_mut().map(|p| &mut p[words.clone()]);
                    let eq = eq.map(|e| &e[words.clone()]);
                    // SAFETY: the CPU has AVX-512, checked above.
                    unsafe {
                        match log {
                            Some(log) => {
                                four_rows::avx512_logged::<Self::Avx512, P>(state, eq, c, log)
                            }
                            None => {
                                four_rows::avx512::<Self::Avx512, P, false>(state, eq, c, no_bits())
                            }
                        }
                    }
                };
                // SAFETY: the kernel writes what a logged call promises.
                unsafe {
                    four_rows::seams_in_pieces::<Self::Avx512, P>(width, carry, seams, step, seam)
                }
            }
        }
    }
}

/// An empty plane of each kind: where no bits are written.
fn empty<const P: usize>() -> Planes<'static, P> {
    std::array::from_fn(|_| &mut [][..])
}

/// The vector kernels' bits, per plane then per row, where none are written.
#[cfg(target_arch = "x86_64")]
fn no_bits<const P: usize>() -> [[&'static mut [u64]; 4]; P] {
    std::array::from_fn(|_| [(); 4].map(|_| &mut [][..]))
}

/// Four rows on `kernel`, writing the walk's bits (per row, per plane) if `TRACED`.
#[inline(always)]
fn four<R: Row<P>, const P: usize, const TRACED: bool>(
    kernel: Kernel,
    state: Planes<'_, P>,
    eq: [&[u64]; 4],
    carry: [R::Carry; 4],
    trace: [Planes<'_, P>; 4],
) -> [R::Carry; 4] {
    assert!(
        kernel.is_available(),
        "this CPU cannot run the {} kernel",
        kernel.name()
    );
    match kernel {
        Kernel::Portable => R::portable4::<TRACED>(state, eq, carry, trace),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            // SAFETY: the CPU has AVX2, checked above.
            unsafe { four_rows::avx2::<R::Avx2, P, TRACED>(state, eq, carry, by_plane(trace)) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            // SAFETY: the CPU has AVX-512, checked above.
            unsafe { four_rows::avx512::<R::Avx512, P, TRACED>(state, eq, carry, by_plane(trace)) }
        }
    }
}

/// The walk's bits of four rows, per row then per plane, as the wavefront takes them: per plane
/// then per row.
#[cfg(target_arch = "x86_64")]
fn by_plane<'a, const P: usize>(rows: [Planes<'a, P>; 4]) -> [[&'a mut [u64]; 4]; P] {
    let mut rows = rows;
    std::array::from_fn(|p| std::array::from_fn(|r| std::mem::take(&mut rows[r][p])))
}

#[cfg(test)]
mod tests {
    //! One suite for both problems and every kernel: a row cut into runs chained by their
    //! carries is the whole row; four fused rows, traced or not, and with their carries at
    //! seams, are four single rows, on every kernel this CPU runs. It says on standard error
    //! which kernels this CPU could not run, so that a machine without AVX-512 does not pass
    //! them silently.

    use super::*;
    use crate::bitpar::edit::Delta;
    use crate::random::Random;
    use crate::recurrence::{Edit, Lcs};

    /// What the suite draws of a problem: its carries, and row states as real rows have them
    /// (the edit distance's `Pv` and `Mv` disjoint).
    trait Draw<const P: usize>: Row<P> {
        fn carry(rng: &mut Random) -> Self::Carry;
        fn state(rng: &mut Random, width: usize) -> [Vec<u64>; P];
    }

    impl Draw<1> for Lcs {
        fn carry(rng: &mut Random) -> bool {
            rng.coin()
        }

        fn state(rng: &mut Random, width: usize) -> [Vec<u64>; 1] {
            [rng.masks(width)]
        }
    }

    impl Draw<2> for Edit {
        fn carry(rng: &mut Random) -> Delta {
            [Delta::Minus, Delta::Zero, Delta::Plus][rng.below(3)]
        }

        fn state(rng: &mut Random, width: usize) -> [Vec<u64>; 2] {
            let pv: Vec<u64> = (0..width).map(|_| rng.word()).collect();
            let mv = pv.iter().map(|&p| rng.word() & !p).collect();
            [pv, mv]
        }
    }

    /// The slices of `x`, as planes.
    fn as_planes<'a, const P: usize>(x: &'a mut [&mut [u64]]) -> Planes<'a, P> {
        let mut it = x.iter_mut();
        std::array::from_fn(|_| &mut **it.next().expect("a slice per plane"))
    }

    fn planes<const P: usize>(v: &mut [Vec<u64>; P]) -> Planes<'_, P> {
        v.each_mut().map(|p| &mut p[..])
    }

    fn split_runs_chained_by_carry_equal_the_whole_row<R: Draw<P>, const P: usize>() {
        let mut rng = Random::new(3);
        for width in [1usize, 2, 3, 5, 9] {
            for _ in 0..200 {
                let v0 = R::state(&mut rng, width);
                let eq = rng.masks(width);
                let c = R::carry(&mut rng);
                let mut whole = v0.clone();
                let mut bits: [Vec<u64>; P] = std::array::from_fn(|_| vec![0; width]);
                let out = R::step_traced(planes(&mut whole), &eq, c, planes(&mut bits));
                for cut in 0..=width {
                    let mut v = v0.clone();
                    let mut b: [Vec<u64>; P] = std::array::from_fn(|_| vec![0; width]);
                    let (mut vl, mut vr): (Vec<&mut [u64]>, Vec<&mut [u64]>) =
                        v.iter_mut().map(|p| p.split_at_mut(cut)).unzip();
                    let (mut bl, mut br): (Vec<&mut [u64]>, Vec<&mut [u64]>) =
                        b.iter_mut().map(|p| p.split_at_mut(cut)).unzip();
                    let mid = R::step_traced(as_planes(&mut vl), &eq[..cut], c, as_planes(&mut bl));
                    let end =
                        R::step_traced(as_planes(&mut vr), &eq[cut..], mid, as_planes(&mut br));
                    assert_eq!(
                        (&v, &b, end),
                        (&whole, &bits, out),
                        "{:?} width {width} cut {cut}",
                        R::PROBLEM
                    );
                    // Untraced: the same state and carries.
                    let mut u = v0.clone();
                    let (mut ul, mut ur): (Vec<&mut [u64]>, Vec<&mut [u64]>) =
                        u.iter_mut().map(|p| p.split_at_mut(cut)).unzip();
                    let mid2 = R::step(as_planes(&mut ul), &eq[..cut], c);
                    assert_eq!(mid2, mid);
                    R::step(as_planes(&mut ur), &eq[cut..], mid2);
                    assert_eq!(u, whole);
                }
                // One run per word, each's carry out the next one's carry in.
                let (mut v, mut b) = (v0.clone(), bits.clone().map(|p| vec![0; p.len()]));
                let mut carry = c;
                for k in 0..width {
                    let state = v.each_mut().map(|p| &mut p[k..=k]);
                    let trace = b.each_mut().map(|p| &mut p[k..=k]);
                    carry = R::step_traced(state, &eq[k..=k], carry, trace);
                }
                assert_eq!((&v, &b, carry), (&whole, &bits, out), "one run per word");
            }
        }
    }

    /// Four fused rows on `kernel` against four single rows, plain, traced and reporting the
    /// carries at seams of several spacings.
    fn four_fused_rows_equal_four_single_rows<R: Draw<P>, const P: usize>(kernel: Kernel) {
        let mut rng = Random::new(4);
        // Widths around the vector kernels' prologue and epilogue (nine steps each) and their
        // two-step loop, and a band of large_3 (782 words).
        for width in [
            0usize, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 19, 64, 65, 782,
        ] {
            let tries = if width > 100 { 20 } else { 100 };
            for _ in 0..tries {
                let v0 = R::state(&mut rng, width);
                let eq: Vec<Vec<u64>> = (0..4).map(|_| rng.masks(width)).collect();
                let eq4: [&[u64]; 4] = std::array::from_fn(|r| &eq[r][..]);
                let cin: [R::Carry; 4] = std::array::from_fn(|_| R::carry(&mut rng));
                // Four single rows, traced.
                let mut one = v0.clone();
                let mut one_bits: Vec<[Vec<u64>; P]> = (0..4)
                    .map(|_| std::array::from_fn(|_| vec![0; width]))
                    .collect();
                let mut out = [R::EDGE; 4];
                // The state before each row.
                let mut before = Vec::new();
                for r in 0..4 {
                    before.push(one.clone());
                    let bits = planes(&mut one_bits[r]);
                    out[r] = R::step_traced(planes(&mut one), eq4[r], cin[r], bits);
                }
                let what = format!("{:?} on {} over {width} words", R::PROBLEM, kernel.name());
                // Fused, untraced.
                let mut fused = v0.clone();
                assert_eq!(
                    R::step4_with(kernel, planes(&mut fused), eq4, cin),
                    out,
                    "{what}"
                );
                assert_eq!(fused, one, "{what}");
                // Fused, traced.
                let mut fused = v0.clone();
                let mut bits: Vec<[Vec<u64>; P]> = (0..4)
                    .map(|_| std::array::from_fn(|_| vec![0; width]))
                    .collect();
                let trace: [Planes<'_, P>; 4] = {
                    let mut it = bits.iter_mut();
                    std::array::from_fn(|_| planes(it.next().unwrap()))
                };
                assert_eq!(
                    R::step4_traced_with(kernel, planes(&mut fused), eq4, cin, trace),
                    out,
                    "{what}"
                );
                assert_eq!((&fused, &bits), (&one, &one_bits), "{what} traced");
                // Fused, with the carries at seams (the spacings the engine and the vector
                // kernels' logging meet), and the first row alone.
                for seams in seams::tested_seam_words(width) {
                    let SeamWords { first, every } = seams;
                    let mut fused = v0.clone();
                    let mut got = Vec::new();
                    let end =
                        R::step4_seams_with(kernel, planes(&mut fused), eq4, cin, seams, |t, c| {
                            got.push((t, c))
                        });
                    assert_eq!((end, &fused), (out, &one), "{what} seams {first}/{every}");
                    // Each row's carry out of word t is its carry into a run starting at t + 1.
                    let want: Vec<(usize, Carries4)> = (first..width)
                        .step_by(every)
                        .map(|t| {
                            let cut: [R::Carry; 4] = std::array::from_fn(|r| {
                                let mut s = before[r].clone();
                                let head = s.each_mut().map(|p| &mut p[..=t]);
                                R::step(head, &eq4[r][..=t], cin[r])
                            });
                            (t, Carries4::of_payloads(cut.map(R::payload)))
                        })
                        .collect();
                    assert_eq!(got, want, "{what} seams {first}/{every}");
                    let mut single = v0.clone();
                    let mut got = Vec::new();
                    let end = R::step_seams(planes(&mut single), eq4[0], cin[0], seams, |t, c| {
                        got.push((t, c))
                    });
                    assert_eq!((end, &single), (out[0], &before[1]), "{what} one row");
                    let firsts: Vec<(usize, R::Carry)> = want
                        .iter()
                        .map(|&(t, c)| (t, R::of_payload(c.payload(0))))
                        .collect();
                    assert_eq!(got, firsts, "{what} one row, seams {first}/{every}");
                }
            }
        }
    }

    #[test]
    fn one_suite_runs_against_every_kernel_and_both_problems() {
        split_runs_chained_by_carry_equal_the_whole_row::<Lcs, 1>();
        split_runs_chained_by_carry_equal_the_whole_row::<Edit, 2>();
        let available = Kernel::available();
        assert_eq!(available[0], Kernel::Portable);
        for &kernel in &available {
            four_fused_rows_equal_four_single_rows::<Lcs, 1>(kernel);
            four_fused_rows_equal_four_single_rows::<Edit, 2>(kernel);
        }
        let missing: Vec<&str> = Kernel::all()
            .into_iter()
            .filter(|k| !k.is_available())
            .map(Kernel::name)
            .collect();
        crate::bitpar::kernel::say_unchecked("bitpar", &missing);
    }
}
