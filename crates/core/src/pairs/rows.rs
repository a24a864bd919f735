//! One pair of sequences too long for the lanes, by the bit-parallel rows
//! ([`crate::bitpar`]): the shorter sequence's bytes are the rows, the longer's the bits, four
//! rows fused per pass over the words (the vector kernels where the rows are wide), in
//! `O(n / 64)` memory. With a bound, only a diagonal band ([`crate::diagonal_band`]) of the
//! rows' words is stepped:
//!
//! - edit distance within `k`: a pair whose lengths differ by more than `k` is above it without
//!   a step; otherwise an optimal path of cost at most `k` keeps within `(k - (n - m)) / 2`
//!   diagonals of the strip between the corners, so a band of that margin gives the distance
//!   when it is within `k` and a value above `k` when it is not (the band's values are those
//!   of real paths, never below the distance);
//! - LCS of at least `l`: a pair whose shorter sequence has fewer than `l` bytes is below it;
//!   otherwise an LCS of at least `l` keeps within `m - l` diagonals of the strip, and a band of
//!   that margin gives it exactly, or a value below `l`.
//!
//! Cost: `m * ceil(n / 64)` word steps for the whole pair (`m <= n`), about
//! `m * ((n - m) + 2 margin + 128) / 64` for a band.

use crate::bitpar::{self, Edit, Lcs, Masks, Row, FUSED_ROWS};
use crate::diagonal_band::{self, Band, BandChoice};
use crate::problem::Problem;

/// Cells below which [`value_by_doubling`] fills the whole matrix: sampling for a first band
/// costs more than the cells it would skip.
pub const DOUBLING_FROM: u64 = 1 << 22;

/// The value of `problem` for `a` and `b` (either may be the longer), cut at `bound` when one
/// is given, and the word steps it took. The bound: for the edit distance the most edits
/// `k`, a distance above it answered as `k + 1`; for the LCS the least length `l`, a length
/// below it answered as 0.
pub fn value(problem: Problem, bound: Option<usize>, a: &[u8], b: &[u8]) -> (u32, u64) {
    let (x, y) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let (m, n) = (x.len(), y.len());
    let margin = match (problem, bound) {
        (_, None) => None,
        (Problem::Edit, Some(k)) if n - m > k => return (k as u32 + 1, 0),
        (Problem::Edit, Some(k)) => Some((k - (n - m)) / 2),
        (Problem::Lcs, Some(l)) if m < l => return (0, 0),
        (Problem::Lcs, Some(l)) => Some(m - l),
    };
    let band = Band::new(m, n, margin);
    let steps = band.total_words();
    let value = if m == 0 {
        match problem {
            Problem::Edit => n,
            Problem::Lcs => 0,
        }
    } else if band.is_whole() {
        match problem {
            Problem::Edit => bitpar::edit::distance(x, y),
            Problem::Lcs => bitpar::lcs_length(x, y),
        }
    } else {
        fill_band(problem, x, y, band)
    } as u32;
    let value = match (problem, bound) {
        (Problem::Edit, Some(k)) if value as usize > k => k as u32 + 1,
        (Problem::Lcs, Some(l)) if (value as usize) < l => 0,
        _ => value,
    };
    (value, steps)
}

/// The value of `problem` for `a` and `b` with no bound, by diagonal bands that widen until
/// one proves itself ([`diagonal_band::search`], its first band from samples of the pair), and
/// the word steps it took: about `m * ((n - m) + 2 D + 128) / 64` per band for a distance `D`,
/// so that a near-identical pair of a million bytes costs milliseconds where the whole matrix
/// costs seconds. A pair of fewer than [`DOUBLING_FROM`] cells fills its whole matrix.
pub fn value_by_doubling(problem: Problem, a: &[u8], b: &[u8]) -> (u32, u64) {
    let (x, y) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if x.is_empty() || (x.len() as u64) * (y.len() as u64) < DOUBLING_FROM {
        return value(problem, None, a, b);
    }
    let mut steps = 0;
    let filled = diagonal_band::search(problem, (x, y), BandChoice::Auto, |band| {
        steps += band.total_words();
        let value = match band.is_whole() {
            true => value(problem, None, x, y).0 as usize,
            false => fill_band(problem, x, y, band),
        };
        Ok::<_, std::convert::Infallible>((value, value))
    });
    let (_, value) = filled.unwrap_or_else(|(_, never)| match never {});
    (value as u32, steps)
}

/// The band's answer, `D'(m-1, n-1)` or `M'(m-1, n-1)`: every row steps its window's words,
/// the carry into a window's first word the matrix's left edge's, words outside the windows
/// left as the last row that stepped them (see [`crate::diagonal_band`]).
fn fill_band(problem: Problem, x: &[u8], y: &[u8], band: Band) -> usize {
    let (m, n) = (x.len(), y.len());
    let masks = Masks::new(x, y);
    let width = masks.width();
    let (mut a, mut b) = (vec![u64::MAX; width], vec![0u64; width]);
    let mut i = 0;
    while i < m {
        // Rows of a fused group share one window.
        let window = band.words(i);
        let eq = |r: usize| &masks.of(x[r])[window.clone()];
        if i + FUSED_ROWS <= m {
            let rows = [0, 1, 2, 3].map(|d| eq(i + d));
            match problem {
                Problem::Lcs => {
                    Lcs::step4([&mut a[window]], rows, [Lcs::EDGE; FUSED_ROWS]);
                }
                Problem::Edit => {
                    let (pv, mv) = (&mut a[window.clone()], &mut b[window]);
                    Edit::step4([pv, mv], rows, [Edit::EDGE; FUSED_ROWS]);
                }
            }
            i += FUSED_ROWS;
        } else {
            match problem {
                Problem::Lcs => {
                    Lcs::step([&mut a[window.clone()]], eq(i), Lcs::EDGE);
                }
                Problem::Edit => {
                    let (pv, mv) = (&mut a[window.clone()], &mut b[window.clone()]);
                    Edit::step([pv, mv], eq(i), Edit::EDGE);
                }
            }
            i += 1;
        }
    }
    match problem {
        // Padding bits stay 1: the zeros are the real columns' +1 steps.
        Problem::Lcs => a.iter().map(|v| v.count_zeros() as usize).sum(),
        Problem::Edit => {
            let sum = m as i64 + bitpar::edit::delta_sum(&a, &b, n);
            usize::try_from(sum).expect("an edit distance is never negative")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::oracle;
    use crate::random::{mutated_pair, Random};

    /// Whole pairs and banded ones, near and unrelated, either order: the plain DP's value,
    /// cut at the bound.
    #[test]
    fn every_pair_and_band_gives_the_plain_dp_value() {
        let mut rng = Random::new(404);
        for round in 0..60u64 {
            let len = [0, 1, 70, 300, 1000][round as usize % 5] + rng.below(200);
            let (a, b) = match round % 3 {
                0 => mutated_pair(len, 0.05, b"ACGT", round),
                1 => {
                    let other = rng.below(len + 1);
                    (rng.bytes(len, b"ACGT"), rng.bytes(other, b"ACGT"))
                }
                _ => mutated_pair(len, 0.3, b"ab", round),
            };
            for problem in [Problem::Edit, Problem::Lcs] {
                let exact = oracle::value(problem, &a, &b);
                assert_eq!(value(problem, None, &a, &b).0, exact, "{problem:?} {round}");
                assert_eq!(value(problem, None, &b, &a).0, exact, "{problem:?} swapped");
                for bound in [0, 1, 5, 40, 200, exact as usize, exact as usize + 1] {
                    let want = match problem {
                        Problem::Edit if exact as usize > bound => bound as u32 + 1,
                        Problem::Lcs if (exact as usize) < bound => 0,
                        _ => exact,
                    };
                    let (got, steps) = value(problem, Some(bound), &a, &b);
                    assert_eq!(got, want, "{problem:?} {round} bound {bound} exact {exact}");
                    let whole = value(problem, None, &a, &b).1;
                    assert!(steps <= whole, "a band never costs more than the whole");
                }
            }
        }
    }

    /// Pairs past the doubling's threshold, near (a few bands) and unrelated (up to the whole
    /// matrix), either order: the whole matrix's value; a near pair in far fewer steps.
    #[test]
    fn doubling_bands_give_the_whole_matrix_s_value() {
        let mut rng = Random::new(405);
        for round in 0..8u64 {
            let len = 2100 + rng.below(3000);
            let (a, b) = match round % 4 {
                0 | 1 => mutated_pair(len, [0.001, 0.02][round as usize % 2], b"ACGT", round),
                2 => (rng.bytes(len, b"ACGT"), rng.bytes(len + 500, b"ACGT")),
                _ => mutated_pair(len, 0.3, b"ab", round),
            };
            for problem in [Problem::Edit, Problem::Lcs] {
                let (exact, whole) = value(problem, None, &a, &b);
                let (got, steps) = value_by_doubling(problem, &a, &b);
                assert_eq!(got, exact, "{problem:?} {round}");
                assert_eq!(
                    value_by_doubling(problem, &b, &a).0,
                    exact,
                    "{problem:?} swapped"
                );
                if round % 4 == 0 {
                    assert!(
                        steps * 4 < whole,
                        "{problem:?}: {steps} steps against {whole}"
                    );
                }
            }
        }
    }
}
