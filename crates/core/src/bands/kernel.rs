//! Each problem's row step over a run of a band's words, as the bands engine calls it: for the
//! LCS the Allison–Dix step over `V` ([`bitpar::lcs`]) with a one-bit carry (0 at the matrix's left
//! edge), for the edit distance Myers' step over `Pv`/`Mv` ([`bitpar::edit`]) with a vertical delta
//! in {-1, 0, +1} as the carry (+1 at the left edge). A carry travels as a payload of `planes`
//! bits ([`Row::payload`]), so the pipeline and the checkpoints treat both problems alike: one
//! row ([`step`]) or four ([`step4`]), with the carry into every `f`-th word of the band kept at
//! its seam as the kernel reports it ([`step_seams`], [`step4_seams`]; [`bitpar::seams`]). Each
//! is written once against [`Row`] and chooses the problem at its start.
//!
//! Cost per row: one step over the band's words, a few instructions per word for the LCS, about
//! three times as many for the edit distance; a few more per seam.

use std::ops::Range;

use super::carry::Seams;
use crate::bitpar::{self, edit::Delta, Carries4, Edit, Lcs, Row, SeamWords};
use crate::problem::Problem;

/// Rows [`step4`] advances in one pass.
pub const FUSED_ROWS: usize = bitpar::FUSED_ROWS;

/// A band's state, or anything kept per word of it: one plane of words (the LCS's `V`), or
/// two (the edit distance's `Pv` and `Mv`; the second plane is empty for the LCS).
pub type Planes = [Vec<u64>; 2];

/// Words `range` of each plane of a state (or of anything kept per word of it); the second
/// plane may be empty (the LCS has one), and then so is its part.
pub fn words_of(planes: [&mut [u64]; 2], range: Range<usize>) -> [&mut [u64]; 2] {
    let [a, b] = planes;
    [&mut a[range.clone()], b.get_mut(range).unwrap_or_default()]
}

/// The carry payload into the band that starts at column 0 (see the module doc).
pub fn left_edge(problem: Problem) -> u8 {
    match problem {
        Problem::Lcs => 0,
        Problem::Edit => Delta::EDGE.to_bits(),
    }
}

/// Sets `state` (any run of words) to the row before row 0: `V` all ones (no +1 step yet), or
/// every horizontal delta +1 (`D(-1, j) = j + 1`): `Pv` all ones, `Mv` zero.
pub fn initial(problem: Problem, state: [&mut [u64]; 2]) {
    state[0].fill(u64::MAX);
    if problem == Problem::Edit {
        state[1].fill(0);
    }
}

/// A band's state before row 0 over `width` words: [`initial`] in the problem's planes, the
/// second plane empty for the LCS.
pub fn fresh(problem: Problem, width: usize) -> Planes {
    let plane = |p: usize| match p < problem.planes() {
        true => vec![0u64; width],
        false => Vec::new(),
    };
    let mut state = [plane(0), plane(1)];
    let [s0, s1] = &mut state;
    initial(problem, [s0, s1]);
    state
}

/// A band's share of a row's answer from its state over `cols` real columns: for the LCS the
/// +1 steps (zero bits of `V`; padding bits are 1, so counting zeros over whole words counts
/// real columns only), for the edit distance the sum of the horizontal deltas.
pub fn share(problem: Problem, [v, second]: [&[u64]; 2], cols: usize) -> i64 {
    match problem {
        Problem::Lcs => v.iter().map(|w| i64::from(w.count_zeros())).sum(),
        Problem::Edit => bitpar::edit::delta_sum(v, second, cols),
    }
}

/// One row of `problem`'s step over a run of words: `state` (one plane, or two), the match
/// mask `eq` and the carry payload in; writes the walk's bits (one slice per plane) when
/// `trace` is given; returns the carry payload out.
#[inline]
pub fn step(
    problem: Problem,
    state: [&mut [u64]; 2],
    eq: &[u64],
    carry: u8,
    trace: Option<[&mut [u64]; 2]>,
) -> u8 {
    match problem {
        Problem::Lcs => one::<Lcs, 1>(state, eq, carry, trace),
        Problem::Edit => one::<Edit, 2>(state, eq, carry, trace),
    }
}

/// Four consecutive rows in one pass: the same as four [`step`]s.
#[inline]
pub fn step4(
    problem: Problem,
    state: [&mut [u64]; 2],
    eq: [&[u64]; 4],
    carry: [u8; 4],
    trace: Option<[[&mut [u64]; 2]; 4]>,
) -> [u8; 4] {
    match problem {
        Problem::Lcs => four::<Lcs, 1>(state, eq, carry, trace),
        Problem::Edit => four::<Edit, 2>(state, eq, carry, trace),
    }
}

/// The first `P` planes of two: a problem's own.
fn own<const P: usize>(planes: [&mut [u64]; 2]) -> [&mut [u64]; P] {
    let mut planes = planes.into_iter();
    std::array::from_fn(|_| planes.next().expect("at most two planes"))
}

#[inline(always)]
fn one<R: Row<P>, const P: usize>(
    state: [&mut [u64]; 2],
    eq: &[u64],
    carry: u8,
    trace: Option<[&mut [u64]; 2]>,
) -> u8 {
    let c = R::of_payload(carry);
    R::payload(match trace {
        Some(trace) => R::step_traced(own(state), eq, c, own(trace)),
        None => R::step(own(state), eq, c),
    })
}

#[inline(always)]
fn four<R: Row<P>, const P: usize>(
    state: [&mut [u64]; 2],
    eq: [&[u64]; 4],
    carry: [u8; 4],
    trace: Option<[[&mut [u64]; 2]; 4]>,
) -> [u8; 4] {
    let c = carry.map(R::of_payload);
    let out = match trace {
        Some(rows) => R::step4_traced(own(state), eq, c, rows.map(own)),
        None => R::step4(own(state), eq, c),
    };
    out.map(R::payload)
}

/// The words of a window starting at band word `start` after which a seam falls (seams every
/// `f` words of the band), counted from the window's start: seam `start / f` follows the first,
/// and the next ones each `f` words further.
#[inline]
fn seam_words(start: usize, f: usize) -> SeamWords {
    // Seam s sits before band word (s + 1) f, after word (s + 1) f - 1.
    SeamWords {
        first: (start / f + 1) * f - 1 - start,
        every: f,
    }
}

/// [`step`] (untraced) over the band's words `window`; the carry into every word `(s + 1) f`
/// strictly inside the window is written at seam `s` of `seams` for row `row`. Returns the
/// carry out of the window's last word.
#[inline]
pub fn step_seams(
    problem: Problem,
    state: &mut Planes,
    eq: &[u64],
    carry: u8,
    (f, seams): (usize, &mut Seams),
    (row, window): (usize, Range<usize>),
) -> u8 {
    let at = seam_words(window.start, f);
    // Seam start / f follows word `at.first`, the next ones each `f` words further; the
    // window's last word has none after it.
    let last = window.len() - 1;
    let mut run = seams.run1(row, window.start / f);
    let put = |t: usize, payload: u8| {
        if t < last {
            run.put(payload);
        }
    };
    match problem {
        Problem::Lcs => one_seams::<Lcs, 1>(state, eq, carry, (at, window), put),
        Problem::Edit => one_seams::<Edit, 2>(state, eq, carry, (at, window), put),
    }
}

/// The problem's own planes of `state`, over the words `window`.
fn own_window<const P: usize>(state: &mut Planes, window: Range<usize>) -> [&mut [u64]; P] {
    own(state.each_mut().map(|p| &mut p[..])).map(|p| &mut p[window.clone()])
}

#[inline(always)]
fn one_seams<R: Row<P>, const P: usize>(
    state: &mut Planes,
    eq: &[u64],
    carry: u8,
    (at, window): (SeamWords, Range<usize>),
    mut put: impl FnMut(usize, u8),
) -> u8 {
    let seam = |t, c| put(t, R::payload(c));
    let (state, eq) = (own_window(state, window.clone()), &eq[window]);
    R::payload(R::step_seams(state, eq, R::of_payload(carry), at, seam))
}

/// [`step4`] (untraced) over `window`, as [`step_seams`]: four rows in one kernel call that
/// also reports the four rows' carries at the seams inside the window, written together.
#[inline]
pub fn step4_seams(
    problem: Problem,
    state: &mut Planes,
    eq: [&[u64]; 4],
    carry: [u8; 4],
    (f, seams): (usize, &mut Seams),
    (row, window): (usize, Range<usize>),
) -> [u8; 4] {
    let at = seam_words(window.start, f);
    // As in `step_seams`.
    let last = window.len() - 1;
    let mut run = seams.run4(row, window.start / f);
    let put = |t: usize, c: Carries4| {
        if t < last {
            run.put(c);
        }
    };
    match problem {
        Problem::Lcs => four_seams::<Lcs, 1>(state, eq, carry, (at, window), put),
        Problem::Edit => four_seams::<Edit, 2>(state, eq, carry, (at, window), put),
    }
}

#[inline(always)]
fn four_seams<R: Row<P>, const P: usize>(
    state: &mut Planes,
    eq: [&[u64]; 4],
    carry: [u8; 4],
    (at, window): (SeamWords, Range<usize>),
    put: impl FnMut(usize, Carries4),
) -> [u8; 4] {
    let (state, eq) = (
        own_window(state, window.clone()),
        eq.map(|e| &e[window.clone()]),
    );
    R::step4_seams(state, eq, carry.map(R::of_payload), at, put).map(R::payload)
}
