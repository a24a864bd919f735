//! The cell recurrence of each problem, as the diagonal engine's stores compute it, and what a
//! cell keeps for the walk.
//!
//! A store is written once against [`Recurrence`] and monomorphised for [`Lcs`] and [`Edit`],
//! so the segment kernel of either problem is one straight loop the compiler vectorises. The
//! same two types carry each problem's bit-parallel row step ([`crate::bitpar::Row`]). The
//! recurrences and borders are those of [`crate::problem`]:
//!
//! * LCS: `M = diag + 1` on a match, else `max(up, left)`; border 0. The walk's question at a
//!   mismatch, "up (`up >= left`) or left?", is one bit per cell.
//! * Edit: `D = diag` on a match, else `1 + min(diag, up, left)`; border `e + 2` on diagonal
//!   `e`. The walk's questions at a mismatch, "substitution (`diag + 1 == D`)?" then "up
//!   (`up + 1 == D`)?", are two bits per cell.
//!
//! Values are `u16` when every value of the matrix fits with room for one more
//! ([`Value::MAX`]: the LCS is at most `m`, a distance at most `n`), else `u32`.

use crate::problem::{Move, Problem};

/// A cell value: `u16` or `u32`.
pub trait Value: Copy + Ord + Default + Send + Sync + 'static {
    /// The largest value a matrix may hold for this width to serve it.
    const MAX: usize;
    /// `v`, which must fit (a value received from another rank is checked, in every build).
    fn from_u32(v: u32) -> Self;
    fn to_u32(self) -> u32;
    /// `self + 1`; never overflows for values within `MAX`.
    fn succ(self) -> Self;
}

impl Value for u16 {
    const MAX: usize = u16::MAX as usize - 1;
    #[inline(always)]
    fn from_u32(v: u32) -> Self {
        u16::try_from(v).expect("a cell value wider than the store's 16 bits")
    }
    #[inline(always)]
    fn to_u32(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn succ(self) -> Self {
        self.wrapping_add(1)
    }
}

impl Value for u32 {
    const MAX: usize = u32::MAX as usize - 1;
    #[inline(always)]
    fn from_u32(v: u32) -> Self {
        v
    }
    #[inline(always)]
    fn to_u32(self) -> u32 {
        self
    }
    #[inline(always)]
    fn succ(self) -> Self {
        self.wrapping_add(1)
    }
}

/// Whether every value of `problem` on an `m x n` matrix fits in `u16`.
pub fn narrow(problem: Problem, m: usize, n: usize) -> bool {
    problem.max_value(m, n) <= <u16 as Value>::MAX
}

/// A problem's recurrence over cell values.
pub trait Recurrence: Copy + Default + Send + Sync + 'static {
    const PROBLEM: Problem;
    /// Traceback bits an owned cell keeps (1 or 2).
    const PLANES: usize;

    /// The value of a cell from its neighbours' and whether its bytes match.
    fn cell<V: Value>(up: V, left: V, diag: V, matched: bool) -> V;

    /// The traceback bits of a cell of value `cur` (only the first [`Self::PLANES`] count).
    fn bits<V: Value>(cur: V, up: V, left: V, diag: V) -> [bool; 2];

    /// The walk's move at a mismatch cell with traceback bits `bits`.
    #[inline(always)]
    fn step(bits: [bool; 2]) -> Move {
        Self::PROBLEM.step(bits)
    }

    /// The value of a virtual cell on diagonal `e` (row -1 or column -1).
    fn border(e: isize) -> u32 {
        Self::PROBLEM.border(e)
    }
}

/// The longest common subsequence.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lcs;

impl Recurrence for Lcs {
    const PROBLEM: Problem = Problem::Lcs;
    const PLANES: usize = 1;

    #[inline(always)]
    fn cell<V: Value>(up: V, left: V, diag: V, matched: bool) -> V {
        let best = up.max(left);
        if matched {
            diag.succ()
        } else {
            best
        }
    }

    #[inline(always)]
    fn bits<V: Value>(_cur: V, up: V, left: V, _diag: V) -> [bool; 2] {
        [up >= left, false]
    }
}

/// The edit (Levenshtein) distance.
#[derive(Debug, Clone, Copy, Default)]
pub struct Edit;

impl Recurrence for Edit {
    const PROBLEM: Problem = Problem::Edit;
    const PLANES: usize = 2;

    #[inline(always)]
    fn cell<V: Value>(up: V, left: V, diag: V, matched: bool) -> V {
        let best = up.min(left).min(diag).succ();
        if matched {
            diag
        } else {
            best
        }
    }

    #[inline(always)]
    fn bits<V: Value>(cur: V, up: V, _left: V, diag: V) -> [bool; 2] {
        [diag.succ() == cur, up.succ() == cur]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_of_the_walk() {
        // LCS: ties go up.
        assert_eq!(Lcs::step(Lcs::bits(3u32, 3, 3, 2)), Move::Up);
        assert_eq!(Lcs::step(Lcs::bits(4u32, 3, 4, 3)), Move::Left);
        // Edit: a substitution first, then up, then left.
        assert_eq!(Edit::step(Edit::bits(3u32, 2, 2, 2)), Move::Sub);
        assert_eq!(Edit::step(Edit::bits(3u32, 2, 2, 3)), Move::Up);
        assert_eq!(Edit::step(Edit::bits(3u32, 3, 2, 3)), Move::Left);
        assert_eq!(Edit::cell(5u16, 4, 6, false), 5);
        assert_eq!(Edit::cell(5u16, 4, 6, true), 6);
        assert_eq!(Lcs::cell(5u16, 4, 6, true), 7);
    }

    #[test]
    fn widths_follow_the_largest_value() {
        assert!(narrow(Problem::Lcs, 65_534, 1 << 30));
        assert!(!narrow(Problem::Lcs, 65_535, 1 << 30));
        assert!(narrow(Problem::Edit, 10, 65_534));
        assert!(!narrow(Problem::Edit, 10, 65_535));
    }

    #[test]
    #[should_panic(expected = "wider than the store's 16 bits")]
    fn a_value_too_wide_is_refused() {
        <u16 as Value>::from_u32(70_000);
    }
}
