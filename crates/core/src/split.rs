//! The balanced contiguous split both engines use: `len` items shared by at most `ranks` ranks,
//! as the report *Parallel computing 2021 — Longest Common Subsequence problem* (Marco Mariotto
//! and Luca Crema) shares a diagonal in its `diag_start_end`. The diagonal engine splits each
//! diagonal's cells; the bands engine splits a row's words; a search splits its text.
//!
//! With `p = min(ranks, len)` ranks at work, `c = ceil(len / p)`, `f = floor(len / p)` and
//! `r = len mod p`: rank `k < r` owns the `c` items `[k c, k c + c)`, ranks `r <= k < p` own
//! `f` items each after those, and ranks `>= p` own nothing. The first ranks hold the larger
//! shares; shares differ by at most one. [`Split::owner`] inverts it in O(1) (the report's
//! `cell_proc`).

use std::ops::Range;

/// `len` items split among at most `ranks` ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    len: usize,
    ranks: usize,
}

impl Split {
    /// `len` items among `ranks >= 1` ranks.
    pub fn new(len: usize, ranks: usize) -> Split {
        debug_assert!(ranks >= 1, "at least one rank");
        Split { len, ranks }
    }

    /// Ranks with a share: `min(ranks, len)`.
    pub fn active(&self) -> usize {
        self.ranks.min(self.len)
    }

    /// Items `[s, e)` of rank `k`; an empty range at the end for a rank with no share.
    pub fn range(&self, k: usize) -> Range<usize> {
        let p = self.active();
        if k >= p {
            return self.len..self.len;
        }
        let (f, r) = (self.len / p, self.len % p);
        let start = k * f + k.min(r);
        let size = if k < r { f + 1 } else { f };
        start..start + size
    }

    /// The rank that owns item `pos < len`.
    pub fn owner(&self, pos: usize) -> usize {
        debug_assert!(pos < self.len, "item {pos} of {}", self.len);
        let p = self.active();
        let (f, r) = (self.len / p, self.len % p);
        // The first r ranks own f + 1 items each.
        let big = r * (f + 1);
        if pos < big {
            pos / (f + 1)
        } else {
            r + (pos - big) / f
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_owned_once_in_balanced_contiguous_runs() {
        for len in 0..=150 {
            for ranks in 1..=20 {
                let split = Split::new(len, ranks);
                let mut next = 0;
                let mut sizes = Vec::new();
                for k in 0..ranks + 2 {
                    let range = split.range(k);
                    if k >= split.active() {
                        assert!(range.is_empty(), "len {len} ranks {ranks} k {k}");
                        continue;
                    }
                    assert_eq!(range.start, next, "contiguous, in rank order");
                    assert!(!range.is_empty(), "an active rank owns something");
                    next = range.end;
                    sizes.push(range.len());
                    for pos in range {
                        assert_eq!(split.owner(pos), k, "len {len} ranks {ranks} pos {pos}");
                    }
                }
                assert_eq!(next, len, "every item owned");
                if let (Some(hi), Some(lo)) = (sizes.iter().max(), sizes.iter().min()) {
                    assert!(hi - lo <= 1, "balanced: {sizes:?}");
                    assert!(sizes.windows(2).all(|s| s[0] >= s[1]), "larger first");
                }
            }
        }
    }

    #[test]
    fn the_reports_rule() {
        // c = ceil(L/p) to the first L mod p ranks, f = floor(L/p) to the others.
        let split = Split::new(10, 4);
        let ranges: Vec<_> = (0..4).map(|k| split.range(k)).collect();
        assert_eq!(ranges, vec![0..3, 3..6, 6..8, 8..10]);
        assert_eq!(Split::new(3, 5).active(), 3);
        assert_eq!(Split::new(3, 5).range(4), 3..3);
    }
}
