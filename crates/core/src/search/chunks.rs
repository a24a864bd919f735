//! How a search is shared among ranks: pure arithmetic, no MPI.
//!
//! Patterns are sorted by length and packed into units ([`units`]): a vector of lanes of the
//! narrowest [`Class`] that holds them, or one long pattern alone, each weighted by its estimated
//! cost per text byte. `P` ranks form a [`Grid`] of `T x Q = P`: the text in `T` balanced
//! contiguous parts ([`text_range`]), the units in `Q` runs balanced by weight ([`balance`]), rank
//! `r` taking text part `r / Q` and units `r % Q`; [`Grid::choose`] takes the divisor pair with the
//! least cost for the busiest rank. Each part is scanned from its warm-up of `m + k - 1` bytes
//! before it ([`overlap`], [`warm_up`]; never across a record's start) and reports exactly the
//! matches whose last byte lies in it: none is lost or doubled where the text is cut.
//!
//! Cost: a sort of the patterns; one balancing of the units per divisor of `P`. The warm-up's
//! argument: `docs/algorithms.md#the-warm-up-no-match-lost-or-doubled`.

use std::ops::Range;

use crate::split::Split;

/// How a unit's patterns are scanned: side by side in the lanes of a vector, by the longest
/// pattern the lanes take, or one pattern alone with the text in the lanes ([`Class::Strip`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// 32 lanes of 8 bits.
    U8,
    /// 16 lanes of 16 bits.
    U16,
    /// 8 lanes of 32 bits.
    U32,
    /// 4 lanes of 64 bits.
    U64,
    /// One pattern of any length, the text as the bit dimension ([`super::strips`]).
    Strip,
}

impl Class {
    /// The lanes class of a pattern of `m` bytes (`m >= 1`): the narrowest that holds it, or
    /// `Strip` past 64 bytes.
    pub fn of(m: usize) -> Class {
        match m {
            0..=8 => Class::U8,
            9..=16 => Class::U16,
            17..=32 => Class::U32,
            33..=64 => Class::U64,
            _ => Class::Strip,
        }
    }

    /// Patterns per unit.
    pub fn lanes(self) -> usize {
        match self {
            Class::U8 => 32,
            Class::U16 => 16,
            Class::U32 => 8,
            Class::U64 => 4,
            Class::Strip => 1,
        }
    }
}

/// The estimated cost of a vector of lanes per text byte, in picoseconds, whatever its lanes
/// hold (from `cargo bench --bench kernel -- search` with AVX2; the figures are in
/// `docs/performance.md`).
pub const LANES_COST: u64 = 3800;

/// The estimated cost of one pattern of `m` bytes alone ([`Class::Strip`]) per text byte, in
/// picoseconds, for up to `k` edits: a fixed part per strip and a part per row it computes
/// (the same benchmark); on random DNA a strip stops some `7 + 2.3 k` rows down, and a
/// larger alphabet stops it sooner.
pub fn strip_cost(m: usize, k: usize) -> u64 {
    let rows = m.min(7 + 23 * k.min(m) / 10) as u64;
    300 + 19 * rows
}

/// A unit of work: patterns scanned together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub class: Class,
    /// The patterns' numbers, in the order of the lanes.
    pub patterns: Vec<usize>,
    /// The estimated cost per text byte, in picoseconds.
    pub weight: u64,
}

/// The units of patterns of `lengths` (pattern `p` has `lengths[p] >= 1` bytes) searched with
/// up to `k` edits: the patterns sorted by length and packed into the narrowest lanes that hold
/// them, and each vector whose patterns cost less alone ([`strip_cost`] against
/// [`LANES_COST`]; a vector half empty, long patterns, few edits) split into one
/// [`Class::Strip`] unit per pattern. Weights are the estimated picoseconds per text byte.
pub fn units(lengths: &[usize], k: usize) -> Vec<Unit> {
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&p| (lengths[p], p));
    let mut packed: Vec<(Class, Vec<usize>)> = Vec::new();
    for p in order {
        let class = Class::of(lengths[p]);
        match packed.last_mut() {
            Some((c, members)) if *c == class && members.len() < class.lanes() => members.push(p),
            _ => packed.push((class, vec![p])),
        }
    }
    let mut out = Vec::new();
    for (class, members) in packed {
        let alone: u64 = members.iter().map(|&p| strip_cost(lengths[p], k)).sum();
        if class == Class::Strip || alone < LANES_COST {
            out.extend(members.into_iter().map(|p| Unit {
                class: Class::Strip,
                patterns: vec![p],
                weight: strip_cost(lengths[p], k),
            }));
        } else {
            out.push(Unit {
                class,
                patterns: members,
                weight: LANES_COST,
            });
        }
    }
    out
}

/// Contiguous runs of `weights`, `parts` of them, cut greedily: each run takes items while it
/// stays within an even share of what is left (at least one item, and leaving one for each
/// later run while items last); the last run takes the rest. Runs are empty only when there
/// are fewer items than parts.
pub fn balance(weights: &[u64], parts: usize) -> Vec<Range<usize>> {
    assert!(parts >= 1, "at least one part");
    let n = weights.len();
    let mut out = Vec::with_capacity(parts);
    let mut at = 0;
    for part in 0..parts {
        let rest = parts - part;
        let start = at;
        if rest == 1 {
            at = n;
        } else {
            let share = weights[at..].iter().sum::<u64>().div_ceil(rest as u64);
            let limit = n - (rest - 1).min((n - at).saturating_sub(1));
            let mut sum = 0;
            while at < limit && (at == start || sum + weights[at] <= share) {
                sum += weights[at];
                at += 1;
            }
        }
        out.push(start..at);
    }
    out
}

/// How the ranks share a search (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Grid {
    pub text_parts: usize,
    pub pattern_parts: usize,
}

/// Reading a byte costs this fraction of a unit's scan of it.
const READ_COST: f64 = 0.1;

impl Grid {
    /// The grid for `ranks` ranks, a text of `len` bytes, units of `weights` and a warm-up of
    /// `overlap` bytes.
    pub fn choose(ranks: usize, len: u64, weights: &[u64], overlap: u64) -> Grid {
        assert!(ranks >= 1, "at least one rank");
        let mut best: Option<(f64, Grid)> = None;
        for pattern_parts in (1..=ranks).filter(|&q| ranks.is_multiple_of(q)) {
            let text_parts = ranks / pattern_parts;
            if pattern_parts > weights.len().max(1) {
                continue;
            }
            let runs = balance(weights, pattern_parts);
            let heaviest = runs
                .iter()
                .map(|r| weights[r.clone()].iter().sum::<u64>())
                .max()
                .unwrap_or(0) as f64;
            let bytes = len.div_ceil(text_parts as u64) as f64;
            let warm = if text_parts > 1 { overlap as f64 } else { 0.0 };
            let cost = heaviest * (bytes + warm) + READ_COST * (bytes + warm);
            let grid = Grid {
                text_parts,
                pattern_parts,
            };
            // Pattern parts rise through the loop: a later grid must be strictly cheaper.
            if best.is_none_or(|(c, _)| cost < c * (1.0 - 1e-9)) {
                best = Some((cost, grid));
            }
        }
        best.expect("one rank per text part always fits").1
    }

    /// The text part of `rank`.
    pub fn text_part(&self, rank: usize) -> usize {
        rank / self.pattern_parts
    }

    /// The run of units of `rank`.
    pub fn pattern_part(&self, rank: usize) -> usize {
        rank % self.pattern_parts
    }
}

/// The bytes `[a, b)` of text part `part` of `parts`, of a text whose sequence area is
/// `area` (file offsets).
pub fn text_range(area: Range<u64>, parts: usize, part: usize) -> Range<u64> {
    let len = usize::try_from(area.end - area.start).expect("a text's length fits a usize");
    let r = Split::new(len, parts).range(part);
    area.start + r.start as u64..area.start + r.end as u64
}

/// Bytes to scan before a part that starts `offset` bytes into its record, for patterns whose
/// longest warm-up is `overlap` (see [`overlap`]).
pub fn warm_up(offset: u64, overlap: u64) -> u64 {
    offset.min(overlap)
}

/// The longest span of a match of a set of patterns, `m + min(k, m)`: the bytes before a
/// match's end that its start's window needs ([`super::starts`]).
pub fn window(lengths: impl IntoIterator<Item = usize>, k: usize) -> usize {
    lengths.into_iter().map(|m| m + k.min(m)).max().unwrap_or(0)
}

/// The warm-up a set of patterns needs: the largest `m + min(k, m) - 1`.
pub fn overlap(lengths: impl IntoIterator<Item = usize>, k: usize) -> u64 {
    lengths
        .into_iter()
        .map(|m| (m + k.min(m)).saturating_sub(1) as u64)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;
    use crate::search::alphabet::Alphabet;
    use crate::search::lanes::{scan, Group, Hit, Simd};
    use crate::search::oracle;

    #[test]
    fn units_pack_patterns_into_lanes_or_alone_by_their_cost() {
        // Few patterns, or long ones: each alone.
        let lengths = [3, 40, 8, 9, 100, 32, 1000, 8];
        let got = units(&lengths, 3);
        let classes: Vec<(Class, Vec<usize>)> =
            got.iter().map(|u| (u.class, u.patterns.clone())).collect();
        let alone = |p| (Class::Strip, vec![p]);
        assert_eq!(
            classes,
            vec![
                alone(0),
                alone(2),
                alone(7),
                alone(3),
                alone(5),
                alone(1),
                alone(4),
                alone(6)
            ]
        );
        assert_eq!(got[0].weight, strip_cost(3, 3));
        assert_eq!(strip_cost(32, 3), 300 + 19 * 13);
        assert_eq!(strip_cost(4, 30), 300 + 19 * 4);
        // Many short patterns fill vectors, which cost less than their patterns alone.
        let many = units(&[12; 36], 2);
        let shapes: Vec<(Class, usize, u64)> = many
            .iter()
            .map(|u| (u.class, u.patterns.len(), u.weight))
            .collect();
        let strip = (Class::Strip, 1, strip_cost(12, 2));
        assert_eq!(
            shapes,
            vec![
                (Class::U16, 16, LANES_COST),
                (Class::U16, 16, LANES_COST),
                strip,
                strip,
                strip,
                strip,
            ]
        );
        let mut all: Vec<usize> = many.iter().flat_map(|u| u.patterns.clone()).collect();
        all.sort();
        assert_eq!(all, (0..36).collect::<Vec<_>>());
    }

    #[test]
    fn balance_cuts_contiguous_runs_that_cover_everything() {
        let mut rng = Random::new(4);
        for _ in 0..3000 {
            let n = rng.below(12);
            let weights: Vec<u64> = (0..n).map(|_| 1 + rng.below(9) as u64).collect();
            let parts = 1 + rng.below(6);
            let runs = balance(&weights, parts);
            assert_eq!(runs.len(), parts);
            let mut next = 0;
            for r in &runs {
                assert_eq!(r.start, next, "{weights:?} {parts}: {runs:?}");
                next = r.end;
            }
            assert_eq!(next, n, "{weights:?} {parts}: {runs:?}");
            // Every part has something while there are items enough.
            let filled = runs.iter().filter(|r| !r.is_empty()).count();
            assert_eq!(filled, parts.min(n), "{weights:?} {parts}: {runs:?}");
        }
        assert_eq!(balance(&[1; 8], 2), vec![0..4, 4..8]);
        assert_eq!(balance(&[1; 9], 3), vec![0..3, 3..6, 6..9]);
        assert_eq!(balance(&[5, 1, 1, 1, 1, 1], 2), vec![0..1, 1..6]);
        assert_eq!(balance(&[], 3), vec![0..0, 0..0, 0..0]);
    }

    #[test]
    fn the_grid_splits_the_text_unless_the_warm_up_outweighs_it() {
        let g =
            |ranks, len, units: usize, overlap| Grid::choose(ranks, len, &vec![1; units], overlap);
        assert_eq!(
            g(2, 20_000_000, 2, 34),
            Grid {
                text_parts: 2,
                pattern_parts: 1
            }
        );
        assert_eq!(g(4, 10_000_000, 100, 2000).text_parts, 4);
        // A short text and many patterns: the patterns are split.
        assert_eq!(
            g(4, 1000, 100, 2000),
            Grid {
                text_parts: 1,
                pattern_parts: 4
            }
        );
        // One unit cannot be split.
        assert_eq!(g(3, 10, 1, 100).pattern_parts, 1);
        for ranks in 1..=12 {
            let grid = g(ranks, 5000, 7, 300);
            assert_eq!(grid.text_parts * grid.pattern_parts, ranks);
            let cells: std::collections::BTreeSet<(usize, usize)> = (0..ranks)
                .map(|r| (grid.text_part(r), grid.pattern_part(r)))
                .collect();
            assert_eq!(cells.len(), ranks, "every rank its own cell");
        }
    }

    /// Every text length up to 60, every number of parts up to 7 and warm-ups around the
    /// patterns': the parts' reports together are the whole text's, none lost or doubled.
    #[test]
    fn parts_with_their_warm_ups_report_every_match_once() {
        let mut rng = Random::new(21);
        let simd = Simd::detect();
        for len in 0..=60usize {
            let text = rng.bytes(len, b"AC");
            for _ in 0..3 {
                let m = 1 + rng.below(6);
                let p = rng.bytes(m, b"AC");
                let k = rng.below(m + 2).min(m - 1 + usize::from(rng.coin()));
                let ov = overlap([m], k);
                let want: Vec<Hit> = oracle::ends(&p, &text, k)
                    .into_iter()
                    .map(|(e, d)| Hit {
                        pattern: 0,
                        end: e as u64,
                        distance: d,
                    })
                    .collect();
                for parts in 1..=7 {
                    let mut got = Vec::new();
                    for part in 0..parts {
                        let r = text_range(0..len as u64, parts, part);
                        let (a, b) = (r.start as usize, r.end as usize);
                        let warm = warm_up(a as u64, ov) as usize;
                        let mut group = Group::<u8, 32>::new(&[(0, &p[..])], k, Alphabet::Exact);
                        scan(
                            simd,
                            [&mut group],
                            &text[a - warm..b],
                            (a - warm) as u64,
                            warm,
                            &mut got,
                        );
                    }
                    assert_eq!(got, want, "{text:?} / {p:?} k {k}, {parts} parts");
                }
            }
        }
    }

    #[test]
    fn ranges_and_overlaps() {
        assert_eq!(text_range(10..20, 3, 0), 10..14);
        assert_eq!(text_range(10..20, 3, 2), 17..20);
        assert_eq!(text_range(5..5, 2, 1), 5..5);
        assert_eq!(overlap([32, 10], 3), 34);
        assert_eq!(overlap([5], 9), 9);
        assert_eq!(overlap(std::iter::empty(), 3), 0);
        assert_eq!(warm_up(7, 34), 7);
        assert_eq!(warm_up(700, 34), 34);
    }
}
