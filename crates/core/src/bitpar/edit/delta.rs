//! The vertical delta `D(i, j) - D(i-1, j)` in {-1, 0, +1}: all that crosses a word edge in
//! the edit distance's row step, and the payload a band sends per row.

/// A vertical delta `D(i, j) - D(i-1, j)` in {-1, 0, +1}: the `hin` a run reads from the
/// column to its left and the `hout` it gives to the column to its right, one per row. A
/// message carries it as two bits ([`Delta::to_bits`]): bit 0 set for +1, bit 1 for -1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i8)]
pub enum Delta {
    Minus = -1,
    Zero = 0,
    Plus = 1,
}
