//! Each problem's row step over a run of a band's words, as the bands engine calls it: for the
//! LCS the Allison–Dix step over `V` ([`bitpar::lcs`]) with a one-bit carry (0 at the matrix's left
//! edge), for the edit distance Myers' step over `Pv`/`Mv` ([`bitpar::edit`]) with a vertical delta
//! in {-1, 0, +1} as the carry (+1 at the left edge). A carry travels as a payload of `planes`
//! bits (`Delta::to_bits` for the edit distance), so the pipeline and the checkpoints treat both
//! problems alike: one row ([`step`]) or four ([`step4`]), with the carry into every `f`-th word
//! of the band kept at its seam as the kernel reports it ([`step_seams`], [`step4_seams`];
//! [`bitpar::seams`]).
//!
//! Cost per row: one step over the band's words, a few instructions per word for the LCS, about
//! three times as many for the edit distance; a few more per seam.

use std::ops::Range;

use super::carry::Seams;
use lcs_core::bitpar::{self, edit::Delta, Carries4, SeamWords};
use lcs_core::problem::Problem;

/// Rows [`step4`] advances in one pass.
pub const FUSED_ROWS: usize = bitpar::FUSED_ROWS;

/// A band's state, or anything kept per word of it: one plane of words (the LCS's `V`), or
/// two (the edit distance's `Pv` and `Mv`; the second plane is empty for the LCS).
pub type Planes = [Vec<u64>; 2];

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
    let [a, b] = state;
    match problem {
        Problem::Lcs => {
            let c = carry & 1 == 1;
            u8::from(match trace {
                Some([up, _]) => bitpar::step_traced(a, eq, c, up),
                None => bitpar::step(a, eq, c),
            })
        }
        Problem::Edit => {
            let hin = Delta::from_bits(carry);
            match trace {
                Some([sub, up]) => bitpar::edit::step_traced(a, b, eq, hin, up, sub),
                None => bitpar::edit::step(a, b, eq, hin),
            }
            .to_bits()
        }
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
    let [a, b] = state;
    match problem {
        Problem::Lcs => {
            let c = carry.map(|c| c & 1 == 1);
            let out = match trace {
                Some(rows) => bitpar::step4_traced(a, eq, c, rows.map(|[up, _]| up)),
                None => bitpar::step4(a, eq, c),
            };
            out.map(u8::from)
        }
        Problem::Edit => {
            let hin = carry.map(Delta::from_bits);
            let out = match trace {
                Some(rows) => {
                    let [[s0, u0], [s1, u1], [s2, u2], [s3, u3]] = rows;
                    bitpar::edit::step4_traced(a, b, eq, hin, [u0, u1, u2, u3], [s0, s1, s2, s3])
                }
                None => bitpar::edit::step4(a, b, eq, hin),
            };
            out.map(Delta::to_bits)
        }
    }
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
    let [a, b] = state;
    let at = seam_words(window.start, f);
    // Seam start / f follows word `at.first`, the next ones each `f` words further; the
    // window's last word has none after it.
    let last = window.len() - 1;
    let mut run = seams.run1(row, window.start / f);
    let mut put = |t: usize, payload: u8| {
        if t < last {
            run.put(payload);
        }
    };
    let eq = &eq[window.clone()];
    match problem {
        Problem::Lcs => {
            let put = |t, c: bool| put(t, u8::from(c));
            u8::from(bitpar::step_seams(
                &mut a[window],
                eq,
                carry & 1 == 1,
                at,
                put,
            ))
        }
        Problem::Edit => {
            let put = |t, d: Delta| put(t, d.to_bits());
            let hin = Delta::from_bits(carry);
            let (pv, mv) = (&mut a[window.clone()], &mut b[window]);
            bitpar::edit::step_seams(pv, mv, eq, hin, at, put).to_bits()
        }
    }
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
    let [a, b] = state;
    let at = seam_words(window.start, f);
    // As in `step_seams`.
    let last = window.len() - 1;
    let mut run = seams.run4(row, window.start / f);
    let put = |t: usize, c: Carries4| {
        if t < last {
            run.put(c);
        }
    };
    let eq = eq.map(|e| &e[window.clone()]);
    match problem {
        Problem::Lcs => {
            let c = carry.map(|c| c & 1 == 1);
            bitpar::step4_seams(&mut a[window], eq, c, at, put).map(u8::from)
        }
        Problem::Edit => {
            let hin = carry.map(Delta::from_bits);
            let (pv, mv) = (&mut a[window.clone()], &mut b[window]);
            bitpar::edit::step4_seams(pv, mv, eq, hin, at, put).map(Delta::to_bits)
        }
    }
}
