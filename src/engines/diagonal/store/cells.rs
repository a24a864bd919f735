//! What a store is: a rank's cells, which the fill writes and the traceback reads
//! ([`Store`]), and the sequences it computes over ([`Seqs`]).

use std::ops::Range;

use lcs_core::problem::Move;

/// The sequences a store computes over: `x` along the rows (the shorter), `y` along the
/// columns, and `y` reversed so that a diagonal reads both forwards.
pub struct Seqs<'a> {
    pub x: &'a [u8],
    pub y: &'a [u8],
    y_rev: Vec<u8>,
}

impl<'a> Seqs<'a> {
    pub fn new(x: &'a [u8], y: &'a [u8]) -> Seqs<'a> {
        assert!(x.len() <= y.len());
        Seqs {
            x,
            y,
            y_rev: y.iter().rev().copied().collect(),
        }
    }

    /// `y[d - i]` for rows `rows` of diagonal `d`, in row order.
    pub fn y_along(&self, d: usize, rows: Range<usize>) -> &[u8] {
        // y[d - i] = y_rev[n - 1 - d + i], and i >= d - (n - 1) on diagonal d.
        let start = self.y.len() - 1 + rows.start - d;
        &self.y_rev[start..start + rows.len()]
    }
}

/// A rank's cells: what the fill writes and the traceback reads.
pub trait Store {
    /// Record the value of cell `(i, d - i)` on diagonal `d`, received from another rank.
    /// Called after `compute(d, ..)` on this rank (if it works on `d`) and before
    /// `compute(d + 1, ..)`.
    fn put_received(&mut self, d: usize, i: usize, value: u32);

    /// Compute the values of `rows`, some of this rank's rows of diagonal `d` (the fill computes
    /// a segment in up to three pieces). Every value they depend on is owned or received.
    fn compute(&mut self, d: usize, rows: Range<usize>, seqs: &Seqs<'_>);

    /// All of this rank's rows of diagonal `d` are computed and every value of `d - 1` it will
    /// receive has arrived: keep what the traceback needs.
    fn seal(&mut self, _d: usize, _rows: Range<usize>) {}

    /// The value of cell `(i, d - i)`, computed by this rank on the latest diagonal `d`.
    fn value(&self, d: usize, i: usize) -> u32;

    /// At a mismatch cell `(i, j)` this rank owns: the walk's move, by the problem's rule
    /// (LCS: up when `M(i-1, j) >= M(i, j-1)`, else left; edit: a substitution when
    /// `D(i-1, j-1) = D(i, j) - 1`, else up when `D(i-1, j) = D(i, j) - 1`, else left).
    fn step(&self, i: usize, j: usize) -> Move;
}
