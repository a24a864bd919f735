//! The plain O(mn) semi-global DP every search kernel is checked against (tests only).
//!
//! `D[i][j]`: pattern rows `0..=m`, text columns `0..=n`, `D[0][j] = 0`, `D[i][0] = i`, unit
//! costs. A match ends at `e` in `1..=n` when `D[m][e] <= k`; its start is where the walk of
//! [`crate::problem`] from `(m, e)` reaches row 0 (a match goes diagonally; else diagonally when
//! `D[i-1][j-1] = D - 1`; else up when `D[i-1][j] = D - 1`; else left).

use super::alphabet::Alphabet;

/// The whole table.
pub fn table(p: &[u8], t: &[u8]) -> Vec<Vec<usize>> {
    table_in(p, t, Alphabet::Exact)
}

/// The whole table, bytes matching as `alphabet` says.
pub fn table_in(p: &[u8], t: &[u8], alphabet: Alphabet) -> Vec<Vec<usize>> {
    let mut d = vec![vec![0usize; t.len() + 1]; p.len() + 1];
    for i in 1..=p.len() {
        d[i][0] = i;
        for j in 1..=t.len() {
            d[i][j] = if alphabet.matches(p[i - 1], t[j - 1]) {
                d[i - 1][j - 1]
            } else {
                1 + d[i - 1][j - 1].min(d[i - 1][j]).min(d[i][j - 1])
            };
        }
    }
    d
}

/// Every end with its distance.
pub fn ends(p: &[u8], t: &[u8], k: usize) -> Vec<(usize, usize)> {
    let d = table(p, t);
    (1..=t.len())
        .filter(|&e| d[p.len()][e] <= k)
        .map(|e| (e, d[p.len()][e]))
        .collect()
}

/// Every match as `(start, end, distance)`.
pub fn matches(p: &[u8], t: &[u8], k: usize) -> Vec<(usize, usize, usize)> {
    matches_in(p, t, k, Alphabet::Exact)
}

/// [`matches()`], bytes matching as `alphabet` says.
pub fn matches_in(p: &[u8], t: &[u8], k: usize, alphabet: Alphabet) -> Vec<(usize, usize, usize)> {
    let d = table_in(p, t, alphabet);
    let m = p.len();
    (1..=t.len())
        .filter(|&e| d[m][e] <= k)
        .map(|e| {
            let (mut i, mut j) = (m, e);
            while i > 0 {
                let here = d[i][j];
                if j > 0 && (alphabet.matches(p[i - 1], t[j - 1]) || d[i - 1][j - 1] + 1 == here) {
                    (i, j) = (i - 1, j - 1);
                } else if d[i - 1][j] + 1 == here {
                    i -= 1;
                } else {
                    j -= 1;
                }
            }
            (j, e, d[m][e])
        })
        .collect()
}
