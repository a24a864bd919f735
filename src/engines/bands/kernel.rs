//! Each problem's row step over a run of a band's words, as the bands engine calls it: for the
//! LCS the Allison–Dix step over `V` ([`bitpar::lcs`]) with a one-bit carry (0 at the matrix's left
//! edge), for the edit distance Myers' step over `Pv`/`Mv` ([`bitpar::edit`]) with a vertical delta
//! in {-1, 0, +1} as the carry (+1 at the left edge). A carry travels as a payload of `planes`
//! bits (`Delta::to_bits` for the edit distance), so the pipeline and the checkpoints treat both
//! problems alike: one row ([`step`]) or four ([`step4`]), whole or segment by segment, `G` words
//! at a time, the carry out of one segment going into the next and kept at the seam
//! ([`step_segments`], [`step4_segments`]).
//!
//! Cost per row: one step over the band's words, a few instructions per word for the LCS, about
//! three times as many for the edit distance.

use std::ops::Range;

use super::carry::Seams;
use lcs_core::bitpar::{self, edit::Delta};
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

/// [`step`] (untraced) over the band's words `window` in segments of `g` words counted from
/// the band's first word, the carry out of each piece going into the next; the carry into
/// every segment that starts strictly inside the window (word `(s + 1) * g`) is written at
/// seam `s` of `seams` for row `row`. Returns the carry out of the window's last word.
#[inline]
pub fn step_segments(
    problem: Problem,
    state: &mut Planes,
    eq: &[u64],
    carry: u8,
    g: usize,
    seams: &mut Seams,
    (row, window): (usize, Range<usize>),
) -> u8 {
    let [a, b] = state;
    let mut carry = carry;
    let mut start = window.start;
    while start < window.end {
        let end = ((start / g + 1) * g).min(window.end);
        if start > window.start {
            seams.set(start / g - 1, row, carry);
        }
        let words = [
            &mut a[start..end],
            b.get_mut(start..end).unwrap_or_default(),
        ];
        carry = step(problem, words, &eq[start..end], carry, None);
        start = end;
    }
    carry
}

/// [`step4`] (untraced) over `window` in segments of `g` words, as [`step_segments`]: four
/// rows per pass over each segment, the seams of rows `row..row + 4` written together.
#[inline]
pub fn step4_segments(
    problem: Problem,
    state: &mut Planes,
    eq: [&[u64]; 4],
    carry: [u8; 4],
    g: usize,
    seams: &mut Seams,
    (row, window): (usize, Range<usize>),
) -> [u8; 4] {
    let [a, b] = state;
    let mut carry = carry;
    let mut start = window.start;
    while start < window.end {
        let end = ((start / g + 1) * g).min(window.end);
        if start > window.start {
            seams.set4(start / g - 1, row, carry);
        }
        let words = [
            &mut a[start..end],
            b.get_mut(start..end).unwrap_or_default(),
        ];
        carry = step4(problem, words, eq.map(|e| &e[start..end]), carry, None);
        start = end;
    }
    carry
}
