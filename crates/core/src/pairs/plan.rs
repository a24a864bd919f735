//! Pure arithmetic: which pairs a run computes, by which kernel, in which order, and how the
//! ranks share them so that they finish together whatever the lengths.
//!
//! # Sides and units
//!
//! Every pair has a *lane side* (its sequence sits in a lane, or is the shorter of a long pair)
//! and a *scanned side* (its target, read a byte per step). For QUERIES x TARGETS one whole set
//! is the lane side, the one whose plan costs less (so one query against many targets puts the
//! targets in lanes; within a twentieth, the queries); all against all, the one set is both.
//! Each side is sorted by length (stably), and the lane side is cut into *units* of consecutive
//! sequences of one kind
//! ([`Kind`]): up to [`Kind::vectors`] vectors of lanes of one class, or one long sequence (the
//! bit-parallel rows, [`super::rows`]). A unit's *targets* are a contiguous range of the sorted
//! scanned side:
//!
//! - all against all, the targets after the unit's first sequence (pair `i < j` is computed by
//!   the unit of the shorter, `j` scanned; a target inside the unit pairs with the unit's
//!   sequences before it only, [`Plan::valid`]);
//! - with `--max-edits k`, only targets within `k` of some member's length (sorted lengths make
//!   that a range); a pair outside is above `k` without a step;
//! - with `--min-length l` (the LCS), only targets of at least `l` bytes, and none for a unit
//!   whose sequences are all shorter than `l`.
//!
//! A pair no unit computes has the bound's default value ([`Ask::default_value`]).
//!
//! # Order and shares
//!
//! The *items* of a run are its (unit, target) pairs in unit order, then target order; each
//! unit's item emits the values of its valid members, in member order. A rank's share is a
//! contiguous run of items, cut so that every share's estimated cost ([`Plan::cost`]) is an even part
//! of the whole: a cut may fall inside a unit. Every rank computes the same plan from the
//! lengths alone, so rank 0 knows which values each rank sends, in which order, without being
//! told.
//!
//! # Cost
//!
//! Estimated picoseconds, from `cargo bench --bench kernel -- pairs` (the figures are in
//! `docs/performance.md`): a unit of lanes costs a fixed part per target plus a part per target
//! byte, word and vector of lanes; a long pair the word steps of its rows (the narrow rows of
//! the portable kernel dearer per word) plus the building of its masks, a step per byte of the
//! longer sequence. The banded kernel's early exit is not foreseen: its units are costed as
//! full scans.

use std::ops::Range;

use super::banded;
use super::lanes::{interleave, Class};
use crate::bitpar::{vector_min_words, WORD_BITS};
use crate::problem::Problem;
use crate::search::lanes::VECTOR_BYTES;

/// Which kernel a unit runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The whole DP in lanes of a class ([`super::lanes`]).
    Lanes(Class),
    /// Hyyrö's band in lanes of this many bits ([`super::banded`]).
    Banded(u32),
    /// One long sequence, a pair at a time by the bit-parallel rows.
    Rows,
}

impl Kind {
    /// Sequences of one vector of this kind.
    pub fn lanes(self) -> usize {
        match self {
            Kind::Lanes(class) => class.lanes(),
            Kind::Banded(bits) => VECTOR_BYTES * 8 / bits as usize,
            Kind::Rows => 1,
        }
    }

    /// Vectors a unit of this kind steps together (see [`interleave`]).
    pub fn vectors(self) -> usize {
        match self {
            Kind::Lanes(class) => interleave(class.words),
            Kind::Banded(_) => interleave(1),
            Kind::Rows => 1,
        }
    }

    /// Sequences a unit of this kind holds at most.
    pub fn capacity(self) -> usize {
        self.vectors() * self.lanes()
    }

    /// A short name for reports: `lanes 64x2` (bits by words), `band 64`, `rows`.
    pub fn name(self) -> String {
        match self {
            Kind::Lanes(c) if c.words > 1 => format!("lanes {}x{}", c.bits, c.words),
            Kind::Lanes(c) => format!("lanes {}", c.bits),
            Kind::Banded(bits) => format!("band {bits}"),
            Kind::Rows => "rows".to_owned(),
        }
    }
}

/// Which input set a side is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Queries,
    Targets,
}

/// What a run asks: the problem, its bound (the edit distance's most edits, or the LCS's least
/// length), and whether it is all against all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    pub problem: Problem,
    pub bound: Option<usize>,
    pub all_against_all: bool,
}

impl Ask {
    /// The value a pair has when no unit computes it: `k + 1` beyond the most edits, 0 below
    /// the least length, 0 otherwise (every pair is computed).
    pub fn default_value(&self) -> u32 {
        match (self.problem, self.bound) {
            (Problem::Edit, Some(k)) => k as u32 + 1,
            _ => 0,
        }
    }

    /// Whether a pair's value passes the bound (every value does without one).
    pub fn passes(&self, value: u32) -> bool {
        match (self.problem, self.bound) {
            (_, None) => true,
            (Problem::Edit, Some(k)) => value as usize <= k,
            (Problem::Lcs, Some(l)) => value as usize >= l,
        }
    }

    /// The kernel for a lane-side sequence of `m` bytes (see the module doc).
    pub fn kind(&self, m: usize) -> Kind {
        let Some(class) = Class::of(m) else {
            return Kind::Rows;
        };
        let band = match (self.problem, self.bound) {
            (Problem::Edit, Some(k)) => banded::lane_bits(k),
            _ => None,
        };
        match band {
            // The band when a step of it serves as many pairs per word as the whole DP's.
            Some(bits) if Kind::Banded(bits).lanes() * class.words >= class.lanes() => {
                Kind::Banded(bits)
            }
            _ => Kind::Lanes(class),
        }
    }
}

/// Consecutive lane-side sequences (positions in the sorted lane side) of one kind, and the
/// range of the sorted scanned side they are computed against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub kind: Kind,
    pub members: Range<usize>,
    pub targets: Range<usize>,
}

/// One unit's part of a share: its targets `targets` (a part of the unit's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    pub unit: usize,
    pub targets: Range<usize>,
}

/// A run's plan (see the module doc).
#[derive(Debug, Clone)]
pub struct Plan {
    pub ask: Ask,
    /// The set in lanes (all against all: the one set, called the queries).
    pub lane_side: Side,
    /// The lane side's sequence numbers (input order), sorted by length.
    pub lanes: Vec<usize>,
    /// The scanned side's, sorted by length.
    pub scanned: Vec<usize>,
    pub units: Vec<Unit>,
    /// The lengths of `lanes` and `scanned`, in their order.
    lane_lens: Vec<usize>,
    scan_lens: Vec<usize>,
    /// `prefix[t]`: the scanned lengths before position `t`; `lane_prefix[p]` the lane side's
    /// before position `p`.
    prefix: Vec<u64>,
    lane_prefix: Vec<u64>,
}

/// Plans whose costs differ by less than one part in this are a tie (see [`Plan::new`]).
const TIE: u64 = 20;

/// Picoseconds of a unit of lanes per target, and per target byte, word and vector.
const LANE_FIXED: u64 = 30_000;
const LANE_EDIT: u64 = 1_100;
const LANE_LCS: u64 = 500;
/// Picoseconds of the band per target byte and vector.
const BAND: u64 = 1_300;
/// Picoseconds of the rows per word step: wide rows (the vector kernels), narrow ones (the
/// portable kernel), and per byte of the longer sequence (its masks).
const ROW_EDIT: u64 = 500;
const ROW_LCS: u64 = 350;
const ROW_NARROW_EDIT: u64 = 1_900;
const ROW_NARROW_LCS: u64 = 800;
const ROW_MASK: u64 = 1_000;

impl Plan {
    /// The plan of `ask` for queries of lengths `queries` and, unless all against all, targets
    /// of lengths `targets`.
    pub fn new(ask: Ask, queries: &[usize], targets: &[usize]) -> Plan {
        if ask.all_against_all {
            return Plan::one_way(ask, Side::Queries, queries, queries);
        }
        let one = Plan::one_way(ask, Side::Queries, queries, targets);
        let other = Plan::one_way(ask, Side::Targets, targets, queries);
        // Near ties keep the queries in lanes: rank 0 keeps the dense matrix queries by
        // targets, where a unit of queries fills its rows in order, and a unit of targets
        // writes a little to every row.
        match other.total() < one.total() - one.total() / TIE {
            true => other,
            false => one,
        }
    }

    fn one_way(ask: Ask, lane_side: Side, lane_lens: &[usize], scan_lens: &[usize]) -> Plan {
        let sorted = |lens: &[usize]| {
            let mut order: Vec<usize> = (0..lens.len()).collect();
            order.sort_by_key(|&i| lens[i]);
            order
        };
        let lanes = sorted(lane_lens);
        let scanned = if ask.all_against_all {
            lanes.clone()
        } else {
            sorted(scan_lens)
        };
        let lane_lens: Vec<usize> = lanes.iter().map(|&i| lane_lens[i]).collect();
        let scan_lens: Vec<usize> = scanned.iter().map(|&i| scan_lens[i]).collect();
        let sums = |lens: &[usize]| {
            let mut prefix = Vec::with_capacity(lens.len() + 1);
            prefix.push(0u64);
            for &n in lens {
                prefix.push(prefix.last().unwrap() + n as u64);
            }
            prefix
        };
        let (prefix, lane_prefix) = (sums(&scan_lens), sums(&lane_lens));
        let mut plan = Plan {
            ask,
            lane_side,
            lanes,
            scanned,
            units: Vec::new(),
            lane_lens,
            scan_lens,
            prefix,
            lane_prefix,
        };
        let mut at = 0;
        while at < plan.lanes.len() {
            let kind = ask.kind(plan.lane_lens[at]);
            let mut end = at + 1;
            while end < plan.lanes.len()
                && end - at < kind.capacity()
                && ask.kind(plan.lane_lens[end]) == kind
            {
                end += 1;
            }
            let targets = plan.reach(at..end);
            plan.units.push(Unit {
                kind,
                members: at..end,
                targets,
            });
            at = end;
        }
        plan
    }

    /// The sorted scanned positions a unit of `members` is computed against.
    fn reach(&self, members: Range<usize>) -> Range<usize> {
        let (shortest, longest) = (
            self.lane_lens[members.start],
            self.lane_lens[members.end - 1],
        );
        let first = |len: usize| self.scan_lens.partition_point(|&n| n < len);
        let mut range = match (self.ask.problem, self.ask.bound) {
            (_, None) => 0..self.scan_lens.len(),
            (Problem::Edit, Some(k)) => {
                first(shortest.saturating_sub(k))..first(longest.saturating_add(k + 1))
            }
            (Problem::Lcs, Some(l)) if longest < l => 0..0,
            (Problem::Lcs, Some(l)) => first(l)..self.scan_lens.len(),
        };
        if self.ask.all_against_all {
            range.start = range.start.max(members.start + 1);
        }
        range.end = range.end.max(range.start);
        range
    }

    /// The members of unit `u` whose pair with scanned position `t` is computed there:
    /// all of them, except all against all, where only those before `t`.
    pub fn valid(&self, u: usize, t: usize) -> Range<usize> {
        let members = self.units[u].members.clone();
        match self.ask.all_against_all {
            true => members.start..members.end.min(t),
            false => members,
        }
    }

    /// The length of the lane side's sequence at sorted position `p`, and of the scanned
    /// side's at `t`.
    pub fn lane_len(&self, p: usize) -> usize {
        self.lane_lens[p]
    }

    pub fn scan_len(&self, t: usize) -> usize {
        self.scan_lens[t]
    }

    /// The most bytes one job of `jobs` holds in its kernel's tables, where the sequences
    /// hold at most `distinct` byte values: a unit of lanes its vectors' match tables (256 rows
    /// each), a band's its tables (a row per byte value and column), a long unit the rows'
    /// masks (one per value) and state over the longer sequence of a pair.
    pub fn tables_bytes(&self, jobs: &[Job], distinct: usize) -> u64 {
        let longest = |lens: &mut dyn Iterator<Item = usize>| lens.max().unwrap_or(0);
        let job_bytes = |job: &Job| {
            let unit = &self.units[job.unit];
            let member = longest(&mut unit.members.clone().map(|p| self.lane_len(p)));
            let vectors = unit.kind.vectors() as u64;
            match unit.kind {
                Kind::Lanes(class) => vectors * (256 * class.words * VECTOR_BYTES) as u64,
                Kind::Banded(_) => {
                    let k = self.ask.bound.unwrap_or(0);
                    vectors * banded::Banded::<u64, 4>::table_bytes(distinct, member, k)
                }
                Kind::Rows => {
                    let target = longest(&mut job.targets.clone().map(|t| self.scan_len(t)));
                    let words = member.max(target).div_ceil(WORD_BITS) as u64;
                    (distinct.min(256) as u64 + 2) * words * 8
                }
            }
        };
        jobs.iter().map(job_bytes).max().unwrap_or(0)
    }

    /// The lane side's bytes at sorted positions `positions`.
    pub fn lane_bytes(&self, positions: Range<usize>) -> u64 {
        self.lane_prefix[positions.end] - self.lane_prefix[positions.start]
    }

    /// The estimated cost of unit `u` over its targets `targets` (see the module doc).
    pub fn cost(&self, u: usize, targets: Range<usize>) -> u64 {
        let unit = &self.units[u];
        let count = targets.len() as u64;
        let bytes = self.prefix[targets.end] - self.prefix[targets.start];
        let vectors = unit.members.len().div_ceil(unit.kind.lanes()) as u64;
        match unit.kind {
            Kind::Lanes(class) => {
                let per = match self.ask.problem {
                    Problem::Edit => LANE_EDIT,
                    Problem::Lcs => LANE_LCS,
                };
                count * LANE_FIXED + bytes * class.words as u64 * vectors * per
            }
            Kind::Banded(_) => count * LANE_FIXED + bytes * vectors * BAND,
            Kind::Rows => {
                let m = self.lane_lens[unit.members.start];
                targets.map(|t| self.pair_cost(m, self.scan_lens[t])).sum()
            }
        }
    }

    /// The estimated cost of one long pair by the rows.
    fn pair_cost(&self, a: usize, b: usize) -> u64 {
        let (m, n) = (a.min(b), a.max(b));
        let words = n.div_ceil(WORD_BITS);
        let (wide, narrow) = match self.ask.problem {
            Problem::Edit => (ROW_EDIT, ROW_NARROW_EDIT),
            Problem::Lcs => (ROW_LCS, ROW_NARROW_LCS),
        };
        // With a bound, about the band's words (see `rows`).
        let band = match self.ask.bound {
            Some(k) => words.min((n - m + k + 2 * WORD_BITS) / WORD_BITS),
            None => words,
        };
        let per = match band < vector_min_words(self.ask.problem) {
            true => narrow,
            false => wide,
        };
        (m * band) as u64 * per + n as u64 * ROW_MASK
    }

    /// The estimated cost of every item.
    pub fn total(&self) -> u64 {
        (0..self.units.len())
            .map(|u| self.cost(u, self.units[u].targets.clone()))
            .sum()
    }

    /// Pairs the run has: `|Q| * |T|`, or `N (N - 1) / 2` all against all.
    pub fn pairs(&self) -> u64 {
        let n = self.lanes.len() as u64;
        match self.ask.all_against_all {
            true => n * n.saturating_sub(1) / 2,
            false => n * self.scanned.len() as u64,
        }
    }

    /// The shares of `ranks` ranks: each a list of jobs, contiguous in item order, of about an
    /// even part of the total cost each (see the module doc). Ranks past the work get none.
    pub fn shares(&self, ranks: usize) -> Vec<Vec<Job>> {
        self.shares_with(ranks, 0)
    }

    /// [`Plan::shares`] when rank 0 has `head` more to do than its share (gathering the
    /// others' values): the ranks' loads are even, rank 0's share the smaller by `head`.
    pub fn shares_with(&self, ranks: usize, head: u64) -> Vec<Vec<Job>> {
        assert!(ranks >= 1, "at least one rank");
        let costs: Vec<u64> = (0..self.units.len())
            .map(|u| self.cost(u, self.units[u].targets.clone()))
            .collect();
        let total: u64 = costs.iter().sum();
        // The cuts, as (unit, target position), from the first item to past the last.
        let mut cuts = vec![(0, self.units.first().map_or(0, |u| u.targets.start))];
        let (mut u, mut before) = (0usize, 0u64);
        for r in 1..ranks {
            let load = (total as u128 + head as u128) * r as u128 / ranks as u128;
            let goal = load.saturating_sub(head as u128).min(total as u128) as u64;
            while u < self.units.len() && before + costs[u] <= goal {
                before += costs[u];
                u += 1;
            }
            let cut = match self.units.get(u) {
                None => (u, 0),
                Some(unit) => {
                    // The first target position whose cost up to it reaches the goal.
                    let (mut lo, mut hi) = (unit.targets.start, unit.targets.end);
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2;
                        match before + self.cost(u, unit.targets.start..mid + 1) <= goal {
                            true => lo = mid + 1,
                            false => hi = mid,
                        }
                    }
                    (u, lo)
                }
            };
            cuts.push(cut.max(*cuts.last().unwrap()));
        }
        cuts.push((self.units.len(), 0));
        cuts.windows(2)
            .map(|w| self.jobs_between(w[0], w[1]))
            .collect()
    }

    /// The jobs from item `from` to item `to` (each a unit and a target position; a position at
    /// the end of a unit's targets is the next unit's start).
    fn jobs_between(&self, from: (usize, usize), to: (usize, usize)) -> Vec<Job> {
        let mut jobs = Vec::new();
        for u in from.0..self.units.len().min(to.0 + 1) {
            let targets = &self.units[u].targets;
            let start = if u == from.0 { from.1 } else { targets.start };
            let end = if u == to.0 {
                to.1.max(start)
            } else {
                targets.end
            };
            let (start, end) = (start.max(targets.start), end.min(targets.end));
            if start < end {
                jobs.push(Job {
                    unit: u,
                    targets: start..end,
                });
            }
        }
        jobs
    }

    /// The estimated cost of `jobs`.
    pub fn jobs_cost(&self, jobs: &[Job]) -> u64 {
        jobs.iter()
            .map(|j| self.cost(j.unit, j.targets.clone()))
            .sum()
    }

    /// The values `jobs` emit: per item, its valid members.
    pub fn jobs_values(&self, jobs: &[Job]) -> u64 {
        jobs.iter()
            .map(|j| match self.ask.all_against_all {
                false => (j.targets.len() * self.units[j.unit].members.len()) as u64,
                true => j
                    .targets
                    .clone()
                    .map(|t| self.valid(j.unit, t).len() as u64)
                    .sum(),
            })
            .sum()
    }

    /// The input numbers (query, target) of lane-side position `p` and scanned position `t`;
    /// all against all, the smaller number first.
    pub fn pair(&self, p: usize, t: usize) -> (usize, usize) {
        let (a, b) = (self.lanes[p], self.scanned[t]);
        match (self.ask.all_against_all, self.lane_side) {
            (true, _) => (a.min(b), a.max(b)),
            (false, Side::Queries) => (a, b),
            (false, Side::Targets) => (b, a),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;

    /// Every pair of the run is an item's valid member exactly once, or is left to the default
    /// because the bound rules it out; the shares cover the items in order, once.
    fn check(ask: Ask, queries: &[usize], targets: &[usize], ranks: usize) {
        let plan = Plan::new(ask, queries, targets);
        let q = queries.len();
        let t = if ask.all_against_all {
            q
        } else {
            targets.len()
        };
        let mut seen = vec![0u32; q * t];
        let shares = plan.shares(ranks);
        assert_eq!(shares.len(), ranks);
        let mut items = Vec::new();
        for jobs in &shares {
            for job in jobs {
                let unit = &plan.units[job.unit];
                assert!(unit.targets.start <= job.targets.start);
                assert!(job.targets.end <= unit.targets.end);
                for tp in job.targets.clone() {
                    items.push((job.unit, tp));
                    for p in plan.valid(job.unit, tp) {
                        let (a, b) = plan.pair(p, tp);
                        seen[a * t + b] += 1;
                    }
                }
            }
            assert_eq!(
                plan.jobs_values(jobs),
                jobs.iter()
                    .flat_map(|j| j
                        .targets
                        .clone()
                        .map(|tp| plan.valid(j.unit, tp).len() as u64))
                    .sum::<u64>()
            );
        }
        let mut sorted = items.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(items, sorted, "items once each, in order");
        for a in 0..q {
            for b in 0..t {
                let (la, lb) = (
                    queries[a],
                    if ask.all_against_all {
                        queries[b]
                    } else {
                        targets[b]
                    },
                );
                let expected = match (ask.all_against_all, ask.problem, ask.bound) {
                    (true, _, _) if a >= b => 0,
                    (_, Problem::Edit, Some(k)) if la.abs_diff(lb) > k => 0,
                    (_, Problem::Lcs, Some(l)) if la.min(lb) < l => 0,
                    _ => 1,
                };
                // A pair the bound rules out may still be computed inside a unit's reach.
                assert!(
                    seen[a * t + b] == expected || expected == 0 && seen[a * t + b] <= 1,
                    "pair ({a}, {b}) of lengths {la}, {lb} computed {} times for {ask:?}",
                    seen[a * t + b]
                );
            }
        }
    }

    #[test]
    fn every_pair_once_in_every_share_and_kind() {
        let mut rng = Random::new(11);
        for round in 0..40 {
            let lens = |rng: &mut Random, count: usize| -> Vec<usize> {
                (0..count)
                    .map(|_| match rng.below(6) {
                        0 => rng.below(9),
                        1 => 9 + rng.below(30),
                        2 => 600 + rng.below(300),
                        _ => 40 + rng.below(200),
                    })
                    .collect()
            };
            let (qn, tn) = (1 + rng.below(70), 1 + rng.below(70));
            let q = lens(&mut rng, qn);
            let t = lens(&mut rng, tn);
            let bound = [None, Some(0), Some(3), Some(20), Some(40)][round % 5];
            for problem in [Problem::Edit, Problem::Lcs] {
                for all_against_all in [false, true] {
                    let ask = Ask {
                        problem,
                        bound,
                        all_against_all,
                    };
                    check(ask, &q, &t, 1 + round % 5);
                }
            }
        }
    }

    #[test]
    fn shares_balance_the_cost() {
        let lens: Vec<usize> = (0..200)
            .map(|i| if i < 190 { 100 } else { 20_000 })
            .collect();
        let ask = Ask {
            problem: Problem::Edit,
            bound: None,
            all_against_all: true,
        };
        let plan = Plan::new(ask, &lens, &[]);
        let shares = plan.shares(2);
        let costs: Vec<u64> = shares.iter().map(|s| plan.jobs_cost(s)).collect();
        let total = plan.total();
        assert_eq!(costs.iter().sum::<u64>(), total);
        for c in &costs {
            assert!(c.abs_diff(total / 2) <= total / 20, "{costs:?} of {total}");
        }
        assert_eq!(plan.pairs(), 199 * 100);
        // Rank 0 with more to do than its share takes less of it.
        let head = total / 10;
        let shares = plan.shares_with(2, head);
        let first = plan.jobs_cost(&shares[0]);
        assert!(
            first + head / 2 <= total / 2 + total / 20,
            "{first} of {total}"
        );
        let everything = plan.shares_with(2, 4 * total);
        assert!(everything[0].is_empty() && plan.jobs_cost(&everything[1]) == total);
        // One query against many targets: the targets go in lanes.
        let one = Plan::new(
            Ask {
                all_against_all: false,
                ..ask
            },
            &[120],
            &[120; 500],
        );
        assert_eq!(one.lane_side, Side::Targets);
    }
}
