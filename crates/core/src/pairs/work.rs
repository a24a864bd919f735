//! One rank's share of a plan, without MPI: its jobs run on the sequences, unit by unit, each
//! item's values handed to the caller in the plan's order ([`super::plan`]).
//!
//! A unit of lanes builds its table once per job and scans the job's targets with it, its two
//! vectors stepped together; a long unit runs the rows once per target. What the values become
//! (a dense matrix's part, or the pairs within a bound) is the caller's business.

use std::ops::Range;

use super::banded::{self, Banded};
use super::lanes::{self, Lanes};
use super::plan::{Job, Kind, Plan};
use super::rows;
use super::vector::Lane;
use crate::search::lanes::Simd;

/// One item's values: unit `unit` against the scanned side's position `target`, one value per
/// member of `members` (positions of the sorted lane side), in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub unit: usize,
    pub target: usize,
    pub members: Range<usize>,
}

/// What a share did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Values emitted (pairs computed, or ruled out within a unit).
    pub values: u64,
    /// Word steps: a vector step of a unit counts each of its vectors' words once (it serves
    /// every lane); a long pair its rows' words.
    pub word_steps: u64,
    /// DP cells of the pairs emitted, `m * n` each.
    pub cells: u64,
}

/// Where the sequences and the work come from.
pub struct Share<'a> {
    pub plan: &'a Plan,
    /// The lane side's sequences and the scanned side's, by input number (all against all: the
    /// same set twice).
    pub lane_side: &'a [&'a [u8]],
    pub scanned_side: &'a [&'a [u8]],
    pub simd: Simd,
}

impl Share<'_> {
    fn member(&self, p: usize) -> &[u8] {
        self.lane_side[self.plan.lanes[p]]
    }

    fn target(&self, t: usize) -> &[u8] {
        self.scanned_side[self.plan.scanned[t]]
    }
}

/// Runs `jobs` of `share.plan`, calling `emit` with every item's values in order.
pub fn run(share: &Share<'_>, jobs: &[Job], emit: &mut dyn FnMut(&Item, &[u32])) -> Tally {
    let mut tally = Tally::default();
    for job in jobs {
        match share.plan.units[job.unit].kind {
            Kind::Lanes(class) => match (class.bits, class.words) {
                (8, 1) => lanes_job::<u8, 32, 1>(share, job, emit, &mut tally),
                (16, 1) => lanes_job::<u16, 16, 1>(share, job, emit, &mut tally),
                (32, 1) => lanes_job::<u32, 8, 1>(share, job, emit, &mut tally),
                (64, 1) => lanes_job::<u64, 4, 1>(share, job, emit, &mut tally),
                (64, 2) => lanes_job::<u64, 4, 2>(share, job, emit, &mut tally),
                (64, 3) => lanes_job::<u64, 4, 3>(share, job, emit, &mut tally),
                (64, 4) => lanes_job::<u64, 4, 4>(share, job, emit, &mut tally),
                (64, 5) => lanes_job::<u64, 4, 5>(share, job, emit, &mut tally),
                (64, 6) => lanes_job::<u64, 4, 6>(share, job, emit, &mut tally),
                (64, 7) => lanes_job::<u64, 4, 7>(share, job, emit, &mut tally),
                (64, 8) => lanes_job::<u64, 4, 8>(share, job, emit, &mut tally),
                other => unreachable!("no lanes of {other:?}"),
            },
            Kind::Banded(8) => banded_job::<u8, 32>(share, job, emit, &mut tally),
            Kind::Banded(16) => banded_job::<u16, 16>(share, job, emit, &mut tally),
            Kind::Banded(32) => banded_job::<u32, 8>(share, job, emit, &mut tally),
            Kind::Banded(64) => banded_job::<u64, 4>(share, job, emit, &mut tally),
            Kind::Banded(other) => unreachable!("no band in lanes of {other} bits"),
            Kind::Rows => rows_job(share, job, emit, &mut tally),
        }
    }
    tally
}

/// Hands one item's values on: the valid members' (a prefix of the unit's), cut at the bound
/// (a value that does not pass it becomes the bound's default), counted. Any kernel that
/// computes a share's values (the GPU's too) hands them on through this.
pub fn hand(
    plan: &Plan,
    job: &Job,
    target: usize,
    values: &mut [u32],
    emit: &mut dyn FnMut(&Item, &[u32]),
    tally: &mut Tally,
) {
    let members = plan.valid(job.unit, target);
    let values = &mut values[..members.len()];
    tally.values += members.len() as u64;
    tally.cells += plan.lane_bytes(members.clone()) * plan.scan_len(target) as u64;
    let ask = plan.ask;
    if ask.bound.is_some() {
        for v in values.iter_mut() {
            if !ask.passes(*v) {
                *v = ask.default_value();
            }
        }
    }
    let item = Item {
        unit: job.unit,
        target,
        members,
    };
    emit(&item, values);
}

/// The unit's sequences, cut into its vectors of `lanes` lanes: one, two, or four (the last
/// ones empty when fewer are needed).
fn vectors<'a>(share: &'a Share<'_>, job: &Job, lanes: usize) -> Vec<Vec<&'a [u8]>> {
    let members: Vec<&[u8]> = share.plan.units[job.unit]
        .members
        .clone()
        .map(|p| share.member(p))
        .collect();
    let mut groups: Vec<Vec<&[u8]>> = members.chunks(lanes).map(<[_]>::to_vec).collect();
    if groups.len() == 3 {
        groups.push(Vec::new());
    }
    groups
}

/// Appends each group's real lanes' values (`counts` of them), in order.
fn collect<const L: usize, const N: usize>(
    out: &mut Vec<u32>,
    values: [[u32; L]; N],
    counts: &[usize],
) {
    out.clear();
    for (v, &c) in values.iter().zip(counts) {
        out.extend_from_slice(&v[..c]);
    }
}

fn lanes_job<T: Lane + lanes::Compiled<T, L>, const L: usize, const W: usize>(
    share: &Share<'_>,
    job: &Job,
    emit: &mut dyn FnMut(&Item, &[u32]),
    tally: &mut Tally,
) {
    let (problem, simd) = (share.plan.ask.problem, share.simd);
    let seqs = vectors(share, job, L);
    let counts: Vec<usize> = seqs.iter().map(Vec::len).collect();
    let groups: Vec<Lanes<T, L, W>> = seqs.iter().map(|s| Lanes::new(s)).collect();
    let mut values = Vec::with_capacity(4 * L);
    for t in job.targets.clone() {
        let target = share.target(t);
        match groups.as_slice() {
            [a] => collect(
                &mut values,
                lanes::scan(simd, problem, [a], target),
                &counts,
            ),
            [a, b] => collect(
                &mut values,
                lanes::scan(simd, problem, [a, b], target),
                &counts,
            ),
            [a, b, c, d] => {
                let scanned = lanes::scan(simd, problem, [a, b, c, d], target);
                collect(&mut values, scanned, &counts)
            }
            other => unreachable!("{} vectors in a unit", other.len()),
        }
        tally.word_steps += (target.len() * W * groups.len()) as u64;
        hand(share.plan, job, t, &mut values, emit, tally);
    }
}

fn banded_job<T: Lane + banded::Compiled<T, L>, const L: usize>(
    share: &Share<'_>,
    job: &Job,
    emit: &mut dyn FnMut(&Item, &[u32]),
    tally: &mut Tally,
) {
    let k = share.plan.ask.bound.expect("a band has a bound");
    let simd = share.simd;
    let seqs = vectors(share, job, L);
    let counts: Vec<usize> = seqs.iter().map(Vec::len).collect();
    let groups: Vec<Banded<T, L>> = seqs.iter().map(|s| Banded::new(s, k)).collect();
    let mut values = Vec::with_capacity(4 * L);
    for t in job.targets.clone() {
        let target = share.target(t);
        let steps = match groups.as_slice() {
            [a] => {
                let (v, steps) = banded::scan(simd, [a], target);
                collect(&mut values, v, &counts);
                steps
            }
            [a, b] => {
                let (v, steps) = banded::scan(simd, [a, b], target);
                collect(&mut values, v, &counts);
                steps
            }
            [a, b, c, d] => {
                let (v, steps) = banded::scan(simd, [a, b, c, d], target);
                collect(&mut values, v, &counts);
                steps
            }
            other => unreachable!("{} vectors in a unit", other.len()),
        };
        tally.word_steps += (steps * groups.len()) as u64;
        hand(share.plan, job, t, &mut values, emit, tally);
    }
}

fn rows_job(share: &Share<'_>, job: &Job, emit: &mut dyn FnMut(&Item, &[u32]), tally: &mut Tally) {
    let ask = share.plan.ask;
    let a = share.member(share.plan.units[job.unit].members.start);
    for t in job.targets.clone() {
        let (value, steps) = rows::value(ask.problem, ask.bound, a, share.target(t));
        tally.word_steps += steps;
        hand(share.plan, job, t, &mut [value], emit, tally);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::oracle;
    use crate::pairs::plan::Ask;
    use crate::problem::Problem;
    use crate::random::{mutated_pair, Random};

    /// Every kind of unit, every share of up to four ranks, with and without bounds, all against
    /// all and not: every pair's value is the plain DP's (cut at the bound), whoever computes
    /// it, and the pairs no unit computes are ruled out by the bound.
    #[test]
    fn every_share_gives_the_plain_dp_values() {
        let mut rng = Random::new(5);
        let mut draw = |count: usize| -> Vec<Vec<u8>> {
            let base = rng.bytes(700, b"ACGT");
            (0..count)
                .map(|i| {
                    let len = [0, 5, 14, 30, 60, 100, 140, 300, 600][rng.below(9)];
                    match i % 3 {
                        // Near copies of one another's pieces, so bounds pass.
                        0 => mutated_pair(len, 0.04, b"ACGT", i as u64).1,
                        1 => base[..len.min(700)].to_vec(),
                        _ => rng.bytes(len, b"ACGT"),
                    }
                })
                .collect()
        };
        let queries = draw(45);
        let targets = draw(23);
        let q: Vec<&[u8]> = queries.iter().map(Vec::as_slice).collect();
        let t: Vec<&[u8]> = targets.iter().map(Vec::as_slice).collect();
        for (problem, bound) in [
            (Problem::Edit, None),
            (Problem::Lcs, None),
            (Problem::Edit, Some(2)),
            (Problem::Edit, Some(12)),
            (Problem::Edit, Some(25)),
            (Problem::Edit, Some(40)),
            (Problem::Lcs, Some(20)),
        ] {
            for all_against_all in [false, true] {
                let ask = Ask {
                    problem,
                    bound,
                    all_against_all,
                };
                let scanned = if all_against_all { &q } else { &t };
                let lens = |s: &[&[u8]]| s.iter().map(|x| x.len()).collect::<Vec<_>>();
                let plan = Plan::new(ask, &lens(&q), &lens(scanned));
                let (lane_side, scanned_side) = match plan.lane_side {
                    crate::pairs::plan::Side::Queries => (&q, scanned),
                    crate::pairs::plan::Side::Targets => (scanned, &q),
                };
                let share = Share {
                    plan: &plan,
                    lane_side,
                    scanned_side,
                    simd: Simd::detect(),
                };
                for ranks in [1, 3] {
                    let cols = scanned.len();
                    let mut got = vec![None; q.len() * cols];
                    for jobs in plan.shares(ranks) {
                        run(&share, &jobs, &mut |item, values| {
                            for (p, &v) in item.members.clone().zip(values) {
                                let (a, b) = plan.pair(p, item.target);
                                assert!(got[a * cols + b].is_none(), "({a}, {b}) twice");
                                got[a * cols + b] = Some(v);
                            }
                        });
                    }
                    for a in 0..q.len() {
                        for b in 0..cols {
                            if all_against_all && a >= b {
                                continue;
                            }
                            let exact = oracle::value(problem, q[a], scanned[b]);
                            let want = match ask.passes(exact) {
                                true => exact,
                                false => ask.default_value(),
                            };
                            let value = got[a * cols + b].unwrap_or(ask.default_value());
                            assert_eq!(value, want, "{ask:?} ({a}, {b}) ranks {ranks}");
                        }
                    }
                }
            }
        }
    }
}
