//! The diagonal schedule: which rank computes which cell, and which boundary values travel.
//!
//! Principal diagonal `d = i + j` (`0 <= d <= m + n - 2`) has length
//! `L(d) = min(d + 1, m, m + n - 1 - d)`; a cell's position on it is counted from the top-right
//! end, `pos(i, j) = min(i, n - 1 - j)`, so on every diagonal row = `first_row(d) + pos`.
//! Diagonal `d` is split among `p = min(P, L)` ranks by [`Split`] (the report's `diag_start_end`;
//! `cell_proc` inverts it in O(1)). A computed value goes to the owner of the cell below if that
//! is another rank, else to the owner of the cell to the right if that is another rank: one
//! message per cell suffices, and only the two cells at each end of a segment can send, so the
//! predicted message count costs O((m + n) * P) however large the matrix. The tests check all of
//! this exhaustively against brute force.
//!
//! Pure arithmetic: no MPI, no allocation except the per-pair count table. Why one message per
//! cell suffices: `docs/algorithms.md#the-schedule`.

use std::ops::Range;

use crate::comm::traffic::Predicted;
use lcs_core::split::Split;

/// The cells each rank computes for an `m x n` matrix on `ranks` ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    m: usize,
    n: usize,
    ranks: usize,
}

/// How many cells of a segment, at each end, can have a neighbour owned by another rank.
const SEND_WINDOW: usize = 2;

impl Schedule {
    /// A schedule for `m` rows and `n` columns (`m <= n`) on `ranks >= 1` ranks.
    pub fn new(m: usize, n: usize, ranks: usize) -> Schedule {
        assert!(m <= n, "rows must be the shorter sequence ({m} > {n})");
        assert!(ranks >= 1, "at least one rank");
        Schedule { m, n, ranks }
    }

    pub fn rows(&self) -> usize {
        self.m
    }

    pub fn cols(&self) -> usize {
        self.n
    }

    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// Number of cells, as u64 so that 100,000 x 100,000 does not overflow anywhere.
    pub fn cells(&self) -> u64 {
        self.m as u64 * self.n as u64
    }

    /// Number of principal diagonals (`m + n - 1`, or 0 for an empty matrix).
    pub fn diagonals(&self) -> usize {
        if self.m == 0 {
            0
        } else {
            self.m + self.n - 1
        }
    }

    /// `L(d) = min(d + 1, m, m + n - 1 - d)`.
    pub fn diag_len(&self, d: usize) -> usize {
        debug_assert!(d < self.diagonals());
        (d + 1).min(self.m).min(self.m + self.n - 1 - d)
    }

    /// Row of position 0 (the top-right end) of diagonal `d`.
    pub fn first_row(&self, d: usize) -> usize {
        (d + 1).saturating_sub(self.n)
    }

    /// Position of cell `(i, j)` on its diagonal, counted from the top-right end.
    pub fn pos(&self, i: usize, j: usize) -> usize {
        i.min(self.n - 1 - j)
    }

    /// Cell `(i, j)` at position `pos` of diagonal `d`.
    pub fn coords(&self, d: usize, pos: usize) -> (usize, usize) {
        let i = self.first_row(d) + pos;
        (i, d - i)
    }

    /// Number of ranks that work on diagonal `d`: `min(P, L(d))`.
    pub fn active_ranks(&self, d: usize) -> usize {
        self.split(d).active()
    }

    /// The split of diagonal `d`'s positions among the ranks.
    fn split(&self, d: usize) -> Split {
        Split::new(self.diag_len(d), self.ranks)
    }

    /// Positions `[s, e)` of diagonal `d` owned by rank `k` (the report's `diag_start_end`);
    /// an empty range at the end of the diagonal for a rank with no share.
    pub fn diag_start_end(&self, d: usize, k: usize) -> Range<usize> {
        self.split(d).range(k)
    }

    /// Rows owned by rank `k` on diagonal `d` (contiguous, like its positions).
    pub fn rank_rows(&self, d: usize, k: usize) -> Range<usize> {
        let Range { start, end } = self.diag_start_end(d, k);
        let i0 = self.first_row(d);
        i0 + start..i0 + end
    }

    /// Owner of position `pos` on diagonal `d`.
    pub fn owner_at(&self, d: usize, pos: usize) -> usize {
        self.split(d).owner(pos)
    }

    /// Owner of cell `(i, j)` (the report's `cell_proc`).
    pub fn cell_proc(&self, i: usize, j: usize) -> usize {
        self.owner_at(i + j, self.pos(i, j))
    }

    /// Diagonals on which rank `k` owns cells: `k <= d < m + n - 1 - k`, empty if `k >= m`.
    pub fn rank_diagonals(&self, k: usize) -> Range<usize> {
        if k >= self.m {
            return 0..0;
        }
        k..self.diagonals() - k
    }

    /// Number of cells rank `k` owns, in closed form: O(1) whatever the size.
    ///
    /// On a diagonal of length `L`, rank `k` owns `floor(L / P) + [L mod P > k]` cells (this
    /// holds for `L < P` too, where it says "one cell if `k < L`"). Diagonal lengths run
    /// `1, 2, …, m - 1`, then `m` for `n - m + 1` diagonals, then `m - 1, …, 1`, so the count is
    /// `2 T(m - 1) + (n - m + 1) share(m)`, with `T(K)` the sum of the shares for `L <= K`:
    /// with `K = q P + r`, the floors sum to `P q (q - 1) / 2 + q (r + 1)` and the residues
    /// above `k` number `q (P - 1 - k) + max(0, r - k)`.
    pub fn rank_cells(&self, k: usize) -> u64 {
        if self.m == 0 || k >= self.ranks {
            return 0;
        }
        let (p, k) = (self.ranks as u64, k as u64);
        let share = |l: u64| l / p + u64::from(l % p > k);
        let t = |big_k: u64| {
            let (q, r) = (big_k / p, big_k % p);
            p * q * q.saturating_sub(1) / 2 + q * (r + 1) + q * (p - 1 - k) + r.saturating_sub(k)
        };
        let (m, n) = (self.m as u64, self.n as u64);
        2 * t(m - 1) + (n - m + 1) * share(m)
    }

    /// Cells of the busiest rank: rank 0, which owns the first and largest share
    /// (`ceil(L / p)`) of every diagonal, and is the only rank on every diagonal.
    pub fn busiest_cells(&self) -> u64 {
        self.rank_cells(0)
    }

    /// Rank `k`'s cells in diagonal order (then top to bottom), as the report's
    /// `matrix_elements` lists them.
    pub fn rank_cell_list(&self, k: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rank_diagonals(k)
            .flat_map(move |d| self.rank_rows(d, k).map(move |i| (i, d - i)))
    }

    /// The rank that must receive the value of cell `(i, j)`, if any: the owner of the cell
    /// below when that is another rank, else the owner of the cell to the right when that is
    /// another rank.
    pub fn send_target(&self, i: usize, j: usize) -> Option<usize> {
        let me = self.cell_proc(i, j);
        if i + 1 < self.m {
            let below = self.cell_proc(i + 1, j);
            if below != me {
                return Some(below);
            }
        }
        if j + 1 < self.n {
            let right = self.cell_proc(i, j + 1);
            if right != me {
                return Some(right);
            }
        }
        None
    }

    /// The boundary messages rank `k` sends after computing its share of diagonal `d`, in
    /// increasing row order (`peer` is the target). At most four, one per end cell checked.
    pub fn sends_from(&self, d: usize, k: usize) -> Transfers {
        let mut out = Transfers::default();
        let Range { start, end } = self.diag_start_end(d, k);
        let head = start..end.min(start + SEND_WINDOW);
        let tail = end.saturating_sub(SEND_WINDOW).max(head.end)..end;
        for pos in head.chain(tail) {
            let (i, j) = self.coords(d, pos);
            if let Some(t) = self.send_target(i, j) {
                out.push(i, t);
            }
        }
        out
    }

    /// The boundary values rank `k` receives from cells of diagonal `d` (it needs them for
    /// diagonals `d + 1` and `d + 2`; `peer` is the sender), grouped by sender in increasing
    /// rank order and, within a sender, in the order that sender sends them. Senders are
    /// always `k - 1` or `k + 1` (checked exhaustively in the tests).
    pub fn receives_on(&self, d: usize, k: usize) -> Transfers {
        let mut out = Transfers::default();
        let p = self.active_ranks(d);
        let neighbours = [k.checked_sub(1), Some(k + 1)];
        for s in neighbours.into_iter().flatten().filter(|&s| s < p) {
            for send in self.sends_from(d, s).iter() {
                if send.peer == k {
                    out.push(send.row, s);
                }
            }
        }
        out
    }

    /// Ranks that own at least one cell: a rank needs a diagonal longer than its index, and no
    /// diagonal is longer than `m`.
    pub fn working_ranks(&self) -> usize {
        self.ranks.min(self.m)
    }

    /// Every boundary message the schedule predicts, as `(diagonal, sender, transfer)`, in
    /// order of diagonal, sender and row: O((m + n) * P).
    pub fn boundary_messages(&self) -> impl Iterator<Item = (usize, usize, Transfer)> + '_ {
        (0..self.diagonals()).flat_map(move |d| self.diagonal_messages(d))
    }

    fn diagonal_messages(&self, d: usize) -> impl Iterator<Item = (usize, usize, Transfer)> + '_ {
        (0..self.active_ranks(d))
            .flat_map(move |k| self.sends_from(d, k).into_iter().map(move |t| (d, k, t)))
    }

    /// Predicted boundary messages, in total and per neighbouring pair, in O(P^2) whatever
    /// the matrix's size (10^9 x 10^9 on 1,024 ranks: about a third of a second).
    ///
    /// A diagonal's messages depend only on its length and the next one's, and on which of
    /// its ends touch the matrix's edges. In the middle (`L = m` on both) every diagonal sends
    /// the same; in the rising and falling parts, once every segment holds at least
    /// `PERIODIC_SEGMENT` cells, the segment ends shift by the same pattern every `P`
    /// diagonals, so any `P` consecutive diagonals send the same in sum. Only the corners,
    /// where diagonals are shorter than `2 P`, are counted diagonal by diagonal: O(P^2). Those runs are
    /// counted once and multiplied; the diagonals near the corners and the phase changes are
    /// counted one by one. (The tests compare it with the diagonal-by-diagonal count.)
    pub fn predicted_messages(&self) -> Predicted {
        let mut acc = Predicted::none(self.ranks);
        let diagonals = self.diagonals();
        let mut d = 0;
        while d < diagonals {
            let (period, reps) = self.repeats_from(d);
            for e in d..d + period {
                for (_, from, send) in self.diagonal_messages(e) {
                    acc.add(from, send.peer, reps);
                }
            }
            d += period * reps as usize;
        }
        acc
    }

    /// From diagonal `d`: `(period, repetitions)` of a run of diagonals whose messages repeat
    /// with that period, or `(1, 1)`.
    fn repeats_from(&self, d: usize) -> (usize, u64) {
        let (m, n, p) = (self.m, self.n, self.ranks);
        let safe = PERIODIC_SEGMENT * p;
        // Two diagonals of margin at each phase change.
        let runs = [
            // Rising: L(d) = d + 1, the next one longer.
            (d + 1 >= safe && d + 4 <= m, p, m.saturating_sub(d + 3)),
            // Middle: both diagonals of length m, away from both corners.
            (d > m && d + 3 <= n, 1, n.saturating_sub(d + 2)),
            // Falling: the next diagonal's length m + n - 2 - d still safe.
            (
                d >= n + 2 && d + safe + 2 <= m + n,
                p,
                (m + n).saturating_sub(d + safe + 1),
            ),
        ];
        for (inside, period, span) in runs {
            let reps = span / period;
            if inside && reps >= 2 {
                return (period, reps as u64);
            }
        }
        (1, 1)
    }
}

/// Segment size from which the rising and falling parts repeat every `P` diagonals (see
/// [`Schedule::predicted_messages`]). Once every rank works on a diagonal, segment ends shift
/// by a pattern that depends only on `L mod P`; the tests find the count exact from a segment
/// of one cell, and this keeps a cell of margin.
const PERIODIC_SEGMENT: usize = 2;

/// A boundary value crossing ranks: the row of its cell on the diagonal in question, and the
/// rank at the other end (the target for a send, the sender for a receive).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transfer {
    pub row: usize,
    pub peer: usize,
}

/// A short list of transfers, kept inline (at most four): a step of the fill allocates
/// nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transfers {
    len: usize,
    items: [Transfer; 4],
}

impl Transfers {
    fn push(&mut self, row: usize, peer: usize) {
        self.items[self.len] = Transfer { row, peer };
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = Transfer> + '_ {
        self.items[..self.len].iter().copied()
    }
}

impl IntoIterator for Transfers {
    type Item = Transfer;
    type IntoIter = std::iter::Take<std::array::IntoIter<Transfer, 4>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Exhaustive range: every `1 <= m <= n <= MAX_SIDE` on every `1 <= P <= MAX_RANKS`.
    const MAX_SIDE: usize = 64;
    const MAX_RANKS: usize = 16;

    /// Everything about one `(m, n, P)` worked out the slow way, from the report's text alone:
    /// its `matrix_elements` walk (coordinates `x = max(0, d-n+1) + e`, `y = min(d, n-1) - e`)
    /// with its `diag_start_end` (literal ceil / floor / rem). Built once per `(m, n, P)`.
    struct Brute {
        n: usize,
        /// `owner[i * n + j]`.
        owner: Vec<usize>,
        /// Every diagonal's cells in walk order, diagonal after diagonal; diagonal `d` is
        /// `walk[diag_at[d]..diag_at[d + 1]]`, so its length is counted, not computed.
        walk: Vec<(usize, usize)>,
        diag_at: Vec<usize>,
        /// Each rank's cells in walk order (the report's `matrix_elements(k)`).
        cells: Vec<Vec<(usize, usize)>>,
    }

    impl Brute {
        fn new(m: usize, n: usize, ranks: usize) -> Brute {
            let diagonals = m + n - 1;
            let mut walk = Vec::with_capacity(m * n);
            let mut diag_at = Vec::with_capacity(diagonals + 1);
            for d in 0..diagonals {
                diag_at.push(walk.len());
                // Every position the diagonal could have; keep those inside the matrix.
                for e in 0..=d {
                    let x = (d + 1).saturating_sub(n) + e;
                    if x < m && e <= d.min(n - 1) {
                        walk.push((x, d.min(n - 1) - e));
                    }
                }
            }
            diag_at.push(walk.len());
            let mut owner = vec![usize::MAX; m * n];
            let mut cells = vec![Vec::new(); ranks];
            for d in 0..diagonals {
                let diagonal = &walk[diag_at[d]..diag_at[d + 1]];
                let l = diagonal.len();
                let p = ranks.min(l);
                let (ceil, floor, rem) = (l.div_ceil(p), l / p, l % p);
                for (k, mine) in cells.iter_mut().enumerate().take(p) {
                    let (s, e) = if k < rem {
                        (k * ceil, k * ceil + ceil)
                    } else {
                        let s = rem * ceil + (k - rem) * floor;
                        (s, s + floor)
                    };
                    for &(x, y) in &diagonal[s..e] {
                        assert_eq!(owner[x * n + y], usize::MAX, "brute walk: ({x},{y}) twice");
                        owner[x * n + y] = k;
                        mine.push((x, y));
                    }
                }
            }
            assert!(
                owner.iter().all(|&k| k < ranks),
                "brute walk left a cell unowned"
            );
            Brute {
                n,
                owner,
                walk,
                diag_at,
                cells,
            }
        }

        fn owner(&self, i: usize, j: usize) -> usize {
            self.owner[i * self.n + j]
        }

        fn diagonal(&self, d: usize) -> &[(usize, usize)] {
            &self.walk[self.diag_at[d]..self.diag_at[d + 1]]
        }
    }

    /// Checks every claim of this module for one `(m, n, P)` against `Brute`: one pass per
    /// diagonal, then one per rank.
    fn check(m: usize, n: usize, ranks: usize) {
        let s = Schedule::new(m, n, ranks);
        let b = Brute::new(m, n, ranks);
        let ctx = format!("{m}x{n} P={ranks}");
        let diagonals = m + n - 1;
        assert_eq!(s.diagonals(), diagonals, "{ctx}");
        assert_eq!(s.cells(), (m * n) as u64, "{ctx}");

        let mut pairs = vec![vec![0u64; ranks]; ranks];
        let mut messages = 0u64;
        // Per diagonal and rank: rows owned (first, last + 1, count), sends as (row, target),
        // receives as (sender, row) from the rank below / above it.
        let mut rows = vec![(0, 0, 0); ranks];
        let mut sends: Vec<Vec<(usize, usize)>> = vec![Vec::new(); ranks];
        let mut from_lower: Vec<Vec<(usize, usize)>> = vec![Vec::new(); ranks];
        let mut from_upper: Vec<Vec<(usize, usize)>> = vec![Vec::new(); ranks];
        for d in 0..diagonals {
            let diagonal = b.diagonal(d);
            let len = diagonal.len();
            assert_eq!(s.diag_len(d), len, "{ctx} L({d})");
            assert_eq!(s.first_row(d), diagonal[0].0, "{ctx} first_row({d})");
            rows.fill((usize::MAX, 0, 0));
            for list in sends
                .iter_mut()
                .chain(&mut from_lower)
                .chain(&mut from_upper)
            {
                list.clear();
            }
            // Top to bottom, so every list comes out in row order.
            for (q, &(i, j)) in diagonal.iter().enumerate() {
                let k = b.owner(i, j);
                assert_eq!(s.coords(d, q), (i, j), "{ctx} coords({d},{q})");
                assert_eq!(s.pos(i, j), q, "{ctx} pos({i},{j})");
                assert_eq!(s.owner_at(d, q), k, "{ctx} owner_at({d},{q})");
                assert_eq!(s.cell_proc(i, j), k, "{ctx} cell_proc({i},{j})");
                let r = &mut rows[k];
                *r = (r.0.min(i), i + 1, r.2 + 1);

                // Who reads (i, j): the owners of the cells below, right and below-right.
                let below = (i + 1 < m).then(|| b.owner(i + 1, j));
                let right = (j + 1 < n).then(|| b.owner(i, j + 1));
                let corner = (i + 1 < m && j + 1 < n).then(|| b.owner(i + 1, j + 1));
                if let Some(c) = corner {
                    assert!(
                        Some(c) == below || Some(c) == right,
                        "{ctx}: owner of ({},{}) holds neither neighbour",
                        i + 1,
                        j + 1
                    );
                }
                let mut target = None;
                for other in [below, right, corner].into_iter().flatten() {
                    if other != k {
                        assert!(
                            target.is_none() || target == Some(other),
                            "{ctx} ({i},{j}) needed by {target:?} and {other}"
                        );
                        target = Some(other);
                    }
                }
                assert_eq!(s.send_target(i, j), target, "{ctx} send_target({i},{j})");
                if let Some(t) = target {
                    if t + 1 == k {
                        from_upper[t].push((k, i));
                    } else {
                        assert_eq!(t, k + 1, "{ctx} ({i},{j}) sent beyond a neighbour");
                        from_lower[t].push((k, i));
                    }
                    sends[k].push((i, t));
                    pairs[k][t] += 1;
                    messages += 1;
                }
            }

            // Segments tile the diagonal in rank order; idle ranks get `len..len`.
            let active = rows.iter().filter(|r| r.2 > 0).count();
            assert_eq!(s.active_ranks(d), active, "{ctx} active_ranks({d})");
            let mut next = 0;
            for (k, &(first, end, count)) in rows.iter().enumerate() {
                let seg = s.diag_start_end(d, k);
                if k < active {
                    assert_eq!(seg.start, next, "{ctx} diag_start_end({d},{k})");
                    assert_eq!(seg.len(), count, "{ctx} diag_start_end({d},{k})");
                    next = seg.end;
                    assert_eq!(end - first, count, "{ctx} d={d} k={k}: rows not contiguous");
                    assert_eq!(s.rank_rows(d, k), first..end, "{ctx} rank_rows({d},{k})");
                } else {
                    assert_eq!(count, 0, "{ctx} d={d}: rank {k} beyond the active ones");
                    assert_eq!(seg, len..len, "{ctx} diag_start_end({d},{k}), idle");
                    assert!(s.rank_rows(d, k).is_empty(), "{ctx} rank_rows({d},{k})");
                }
                let as_pairs = |t: Transfers| t.iter().map(|x| (x.row, x.peer)).collect::<Vec<_>>();
                if as_pairs(s.sends_from(d, k)) != sends[k] {
                    let got = as_pairs(s.sends_from(d, k));
                    panic!("{ctx} sends_from({d},{k}): {got:?}, brute {:?}", sends[k]);
                }
                let want: Vec<_> = from_lower[k]
                    .iter()
                    .chain(&from_upper[k])
                    .copied()
                    .collect();
                let got: Vec<_> = s
                    .receives_on(d, k)
                    .iter()
                    .map(|x| (x.peer, x.row))
                    .collect();
                if got != want {
                    let (lo, hi) = (&from_lower[k], &from_upper[k]);
                    panic!("{ctx} receives_on({d},{k}): {got:?}, brute {lo:?} {hi:?}");
                }
            }
            assert_eq!(next, len, "{ctx} d={d}: segments do not cover the diagonal");
        }
        let predicted = s.predicted_messages();
        assert_eq!(predicted.total, messages, "{ctx} predicted total");
        assert_eq!(predicted.pairs(), pairs, "{ctx} predicted pairs");

        // Ranks: cell lists, the diagonals on which they appear, cell counts.
        let mut seen = vec![0u8; m * n];
        let mut total = 0u64;
        for (k, brute) in b.cells.iter().enumerate() {
            assert!(
                s.rank_cell_list(k).eq(brute.iter().copied()),
                "{ctx} rank_cell_list({k})"
            );
            for &(i, j) in brute {
                seen[i * n + j] += 1;
            }
            assert_eq!(s.rank_cells(k), brute.len() as u64, "{ctx} rank_cells({k})");
            total += s.rank_cells(k);
            let on = s.rank_diagonals(k);
            match (brute.first(), brute.last()) {
                (Some(&(i0, j0)), Some(&(i1, j1))) => {
                    assert!(k < m, "{ctx} rank {k} >= m owns cells");
                    assert_eq!(on, i0 + j0..i1 + j1 + 1, "{ctx} rank_diagonals({k})");
                    // Present on every diagonal of that range, not just at its ends.
                    let present = brute
                        .windows(2)
                        .all(|w| w[1].0 + w[1].1 <= w[0].0 + w[0].1 + 1);
                    assert!(present, "{ctx} rank {k} skips a diagonal");
                }
                _ => {
                    assert!(k >= m, "{ctx} rank {k} < m owns nothing");
                    assert!(on.is_empty(), "{ctx} rank_diagonals({k})");
                }
            }
        }
        assert!(
            seen.iter().all(|&c| c == 1),
            "{ctx}: a cell not owned exactly once"
        );
        assert_eq!(total, s.cells(), "{ctx}");
    }

    /// Runs `check` over the whole range on all cores, largest matrices first so that the
    /// threads finish together.
    #[test]
    fn exhaustive_against_brute_force() {
        let mut shapes: Vec<(usize, usize)> = (1..=MAX_SIDE)
            .flat_map(|n| (1..=n).map(move |m| (m, n)))
            .collect();
        shapes.sort_by_key(|&(m, n)| std::cmp::Reverse(m * n));
        let next = AtomicUsize::new(0);
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    while let Some(&(m, n)) = shapes.get(next.fetch_add(1, Ordering::Relaxed)) {
                        for p in 1..=MAX_RANKS {
                            check(m, n, p);
                        }
                    }
                });
            }
        });
    }

    fn grid(s: &Schedule) -> Vec<Vec<usize>> {
        (0..s.rows())
            .map(|i| (0..s.cols()).map(|j| s.cell_proc(i, j)).collect())
            .collect()
    }

    /// The report's first example assignment.
    #[test]
    fn report_grid_5x8_3_ranks() {
        assert_eq!(
            grid(&Schedule::new(5, 8, 3)),
            vec![
                vec![0, 0, 0, 0, 0, 0, 0, 0],
                vec![1, 1, 0, 0, 0, 0, 0, 0],
                vec![2, 1, 1, 1, 1, 1, 0, 0],
                vec![2, 1, 1, 1, 1, 1, 1, 0],
                vec![2, 2, 2, 2, 2, 2, 1, 0],
            ]
        );
    }

    /// The report's second example assignment.
    #[test]
    fn report_grid_4x6_2_ranks() {
        assert_eq!(
            grid(&Schedule::new(4, 6, 2)),
            vec![
                vec![0, 0, 0, 0, 0, 0],
                vec![1, 0, 0, 0, 0, 0],
                vec![1, 1, 1, 1, 0, 0],
                vec![1, 1, 1, 1, 1, 0],
            ]
        );
    }

    /// With one rank per row (`P = m`) the report counts `n (m - 1)` messages; the
    /// per-cell rule sends exactly that many here too.
    #[test]
    fn one_rank_per_row_matches_report_bound() {
        for n in 1..=MAX_SIDE {
            for m in 1..=n {
                let s = Schedule::new(m, n, m);
                assert_eq!(
                    s.predicted_messages().total,
                    (n * (m - 1)) as u64,
                    "{m}x{n}"
                );
            }
        }
    }

    /// A 0 x n matrix (an empty sequence) has no diagonals, no cells and no messages.
    #[test]
    fn empty_matrix() {
        let s = Schedule::new(0, 5, 4);
        assert_eq!(s.diagonals(), 0);
        assert_eq!(s.cells(), 0);
        assert_eq!(s.predicted_messages().total, 0);
        for k in 0..4 {
            assert!(s.rank_diagonals(k).is_empty());
            assert_eq!(s.rank_cells(k), 0);
            assert_eq!(s.rank_cell_list(k).count(), 0);
        }
    }

    /// The closed-form count must stay cheap and sane at the sizes the experiments use.
    /// The run-length count against the diagonal-by-diagonal one, on shapes where the
    /// periodic runs are long: many ranks, long rising and falling parts, wide middles.
    #[test]
    fn predicted_runs_equal_the_diagonal_by_diagonal_count() {
        let mut rng = crate::generate::Random::new(17);
        for case in 0..150 {
            let p = 1 + rng.below(40);
            let m = match case % 3 {
                0 => 1 + rng.below(3000),
                1 => 1 + rng.below(400),
                // Segments of one to four cells: where the runs begin.
                _ => p + rng.below(4 * p),
            };
            let n = m + rng.below(2000);
            let s = Schedule::new(m, n, p);
            let mut slow = Predicted::none(p);
            for (_, from, send) in s.boundary_messages() {
                slow.add(from, send.peer, 1);
            }
            assert_eq!(s.predicted_messages(), slow, "{m} x {n} on {p}");
        }
        // 10^9 x 10^9 on 64 ranks: O(P^2) work, so the test ends (how fast is the bench's
        // business, not a test's). Every edge carries messages both ways.
        let huge = Schedule::new(1_000_000_000, 1_000_000_000, 64).predicted_messages();
        assert!(huge.total > 0);
        assert!(huge.down.iter().chain(&huge.up).all(|&c| c > 0), "{huge:?}");
    }

    #[test]
    fn busiest_cells_in_closed_form() {
        for m in 0..40 {
            for n in m..m + 45 {
                for p in 1..12 {
                    let s = Schedule::new(m, n, p);
                    let most = (0..p).map(|k| s.rank_cells(k)).max().unwrap();
                    assert_eq!(s.busiest_cells(), most, "{m} x {n} on {p}");
                    assert_eq!(s.busiest_cells(), s.rank_cells(0), "{m} x {n} on {p}");
                }
            }
        }
        // 10^6 x 10^6 on 10^5 ranks: no overflow, instantly.
        let huge = Schedule::new(1_000_000, 1_000_000, 100_000);
        assert_eq!(huge.busiest_cells(), huge.rank_cells(0));
    }

    #[test]
    fn predicted_messages_at_scale() {
        let huge = Schedule::new(100_000, 100_000, 64);
        assert_eq!(huge.cells(), 10_000_000_000);
        for side in [50_000, 100_000] {
            let s = Schedule::new(side, side, 64);
            let p = s.predicted_messages();
            assert!(p.total > 0, "{side}");
            assert_eq!(p.pairs().iter().flatten().sum::<u64>(), p.total, "{side}");
            for (from, row) in p.pairs().iter().enumerate() {
                for (to, &count) in row.iter().enumerate() {
                    let neighbours = from + 1 == to || to + 1 == from;
                    assert!(neighbours || count == 0, "{side}: {from} -> {to}: {count}");
                    // Every adjacent pair shares a boundary on each of the ~2 * side
                    // diagonals where both work, and a boundary never costs more than the
                    // four end cells of a segment.
                    if neighbours {
                        assert!(count > 0, "{side}: {from} -> {to} silent");
                        assert!(count <= 4 * s.diagonals() as u64, "{side}: {from} -> {to}");
                    }
                }
            }
            // Receives mirror sends and fit in `Transfers` (sampled: all diagonals would be slow
            // in debug builds).
            for d in (0..s.diagonals()).step_by(101) {
                for k in 0..s.active_ranks(d) {
                    let got = s.receives_on(d, k);
                    assert!(got.len() <= 2 * SEND_WINDOW, "{side} d={d} k={k}");
                    for Transfer { row, peer: from } in got.iter() {
                        let sent = s
                            .sends_from(d, from)
                            .iter()
                            .any(|x| x == Transfer { row, peer: k });
                        assert!(sent, "{side} d={d}: {from} -> {k} row {row} never sent");
                    }
                }
            }
            // Summed over both directions every boundary of every diagonal but the last makes
            // one of its two sides send: the next diagonal's cell below the upper side's last
            // cell is read by both, and at most one of them owns it.
            assert!(
                p.total >= 63 * (s.diagonals() as u64 - 2 * 63),
                "{side}: {}",
                p.total
            );
            assert!(
                p.total <= 4 * 64 * s.diagonals() as u64,
                "{side}: {}",
                p.total
            );
        }
    }
}
