//! The plain O(m n) DPs the pairs kernels are tested against: the unit-cost edit distance
//! (Levenshtein: rapidfuzz's `Levenshtein.distance`) and the LCS length (rapidfuzz's
//! `LCSseq.similarity`), one row of values at a time, nothing clever.

use crate::problem::Problem;

/// The edit distance of `a` and `b`.
pub fn edit_distance(a: &[u8], b: &[u8]) -> u32 {
    let mut row: Vec<u32> = (0..=b.len() as u32).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i as u32 + 1;
        for (j, &y) in b.iter().enumerate() {
            let up = row[j + 1];
            let value = if x == y {
                diag
            } else {
                1 + diag.min(up).min(row[j])
            };
            diag = up;
            row[j + 1] = value;
        }
    }
    row[b.len()]
}

/// The length of a longest common subsequence of `a` and `b`.
pub fn lcs_length(a: &[u8], b: &[u8]) -> u32 {
    let mut row = vec![0u32; b.len() + 1];
    for &x in a {
        let mut diag = 0;
        for (j, &y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
            diag = up;
        }
    }
    row[b.len()]
}

/// The value of `problem` for `a` and `b`.
pub fn value(problem: Problem, a: &[u8], b: &[u8]) -> u32 {
    match problem {
        Problem::Edit => edit_distance(a, b),
        Problem::Lcs => lcs_length(a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases_by_hand() {
        assert_eq!(edit_distance(b"kitten", b"sitting"), 3);
        assert_eq!(edit_distance(b"", b"abc"), 3);
        assert_eq!(edit_distance(b"abc", b""), 3);
        assert_eq!(edit_distance(b"flaw", b"lawn"), 2);
        assert_eq!(lcs_length(b"ABCBDAB", b"BDCABA"), 4);
        assert_eq!(lcs_length(b"", b"abc"), 0);
        assert_eq!(value(Problem::Lcs, b"AGGTAB", b"GXTXAYB"), 4);
    }

    /// The oracle agrees with the crate's reference (the sequential DP with its walk): the
    /// edits of its edit path, the matches of its LCS path.
    #[test]
    fn agrees_with_the_reference() {
        let mut rng = crate::random::Random::new(64);
        for _ in 0..200 {
            let (m, n) = (rng.below(90), rng.below(90));
            let (a, b) = (rng.bytes(m, b"ACG"), rng.bytes(n, b"ACG"));
            let (x, y) = if m <= n { (&a, &b) } else { (&b, &a) };
            let edit = crate::reference::align(Problem::Edit, x, y).edits();
            assert_eq!(edit_distance(&a, &b) as usize, edit);
            assert_eq!(
                lcs_length(&a, &b) as usize,
                crate::reference::lcs(x, y).length
            );
        }
    }
}
