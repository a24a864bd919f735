//! What crosses a word edge of a problem's row: its carry, one value per row, out of each word
//! and into the next; the one thing a band of the bands engine passes on per row. Its type is
//! the problem's ([`Carried`]): a bit for the LCS, a vertical delta for the edit distance. The
//! step family ([`super::Row`]) and the vector kernels' lanes (`four_rows`) both speak
//! of it.

/// A problem's carry between words.
pub trait Carried: Copy + Sized + 'static {
    /// What crosses a word edge, as the callers give and take it.
    type Carry: Copy + Eq + std::fmt::Debug;
}
