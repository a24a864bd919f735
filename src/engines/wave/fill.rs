//! One rank's share of the wave engine's fill: step after step, its run of the step's diagonals
//! ([`WavePlan::own`]) computed from what it held of the step before; at each exchange step
//! ([`WavePlan::exchanges`]) one halo message each way with each neighbour
//! ([`WavePlan::sends`]), and at the steps between, the cone of diagonals around its run that it
//! reads before the next exchange ([`WavePlan::cones`]) computed too, as its neighbours compute
//! them; until the fill is over.
//!
//! A step's values live in one buffer over every diagonal the rank must hold after the step
//! (its run, and what it reads next or keeps: [`WavePlan::need`]); the rank computes its run
//! into it, first the diagonals its neighbours need and the last cell's diagonal, then posts
//! its messages and computes the rest while they travel, then receives its neighbours' values
//! into the same buffer, which the next step reads. What the walk needs ([`WavePlan::kept`]) is
//! copied from it into the rank's [`Kept`].
//!
//! The end: the rank owning the last cell's diagonal sees it reach the last row at step `s`,
//! stops computing, and its messages of the first exchange from `s` carry `s`. A rank that
//! learns it from a message sends its next exchange's messages, empty, carrying `s` to the
//! neighbours that have not said so, and stops after that exchange; no rank stops before
//! receiving what was sent to it, and no message is sent to a rank that has stopped (see the
//! module doc of [`super::plan`] for the count).
//!
//! A plan whose bound is a cut-off (`--engine auto`'s, [`crate::engines::choice`]) may not
//! reach the end: no step past the bound reaches any diagonal. An end found within the bound
//! reaches every rank by the `P - 1`-th exchange after the first from the bound
//! ([`WavePlan::cut_off_step`]); a rank that has heard of none by then knows the cost is past
//! the bound, as every other rank does at the same step, and all stop together after that
//! exchange, without a cost ([`Filled::cost`] `None`).

use std::time::Instant;

use crate::comm::world::World;
use mpi::traits::*;

use lcs_core::wave::compare::Compare;
use lcs_core::wave::front::{seed, Reach, Work, NONE, PAD};
use lcs_core::wave::kept::Kept;
use lcs_core::wave::kernel;
use lcs_core::wave::seqs::Seqs;

use super::plan::{hull, Run, WavePlan};
use crate::comm::fault::{Fault, Phase};
use crate::comm::protocol::wave::{halo_of, halo_words, HEADER};
use crate::comm::protocol::{post_send, tag, Kind};
use crate::comm::traffic::Traffic;
use crate::engines::config::Switches;
use crate::engines::record::FillTimes;
use crate::progress::Progress;

/// What a rank's fill produced.
pub struct Filled {
    /// The final cost; `None` where it passed the plan's bound (a cut-off).
    pub cost: Option<usize>,
    pub kept: Kept,
    pub work: Work,
    pub times: FillTimes,
}

/// One step's values over a run of diagonals, with [`PAD`] [`NONE`]s on each side.
struct Front {
    first: i64,
    values: Vec<i32>,
}

impl Front {
    /// The values of `run` (inside this front's).
    fn slice(&self, run: &Run, stride: i64) -> &[i32] {
        let at = PAD + ((run.start() - self.first) / stride) as usize;
        let len = ((run.end() - run.start()) / stride) as usize + 1;
        &self.values[at..at + len]
    }

    fn slice_mut(&mut self, run: &Run, stride: i64) -> &mut [i32] {
        let at = PAD + ((run.start() - self.first) / stride) as usize;
        let len = ((run.end() - run.start()) / stride) as usize + 1;
        &mut self.values[at..at + len]
    }

    /// Computes the diagonals of `parts` (inside this front) from the step before, `prev`,
    /// adding the work to `work`.
    fn compute(
        &mut self,
        parts: &[Run],
        prev: &Front,
        (reach, compare, seqs): (Reach, Compare, &Seqs),
        work: &mut Work,
    ) {
        let (problem, stride) = (reach.problem, reach.stride());
        for part in parts {
            let prev = lcs_core::wave::front::Prev {
                first: prev.first,
                values: &prev.values,
            };
            let at = self.slice_mut(part, stride);
            work.add(kernel::step(
                problem,
                compare,
                prev,
                *part.start(),
                at,
                seqs,
            ));
        }
    }

    /// Resets the front to `run`, every value [`NONE`] but those of `computed` (inside
    /// `run`), which the step writes before anything reads them: the front is as wide as the
    /// wavefront, so filling it whole each step would cost a pass as long as the step's own.
    fn reset(&mut self, run: &Run, computed: Option<&Run>, stride: i64) {
        self.first = *run.start();
        let len = ((run.end() - run.start()) / stride) as usize + 1;
        self.values.resize(len + 2 * PAD, NONE);
        match computed {
            Some(c) => {
                let a = PAD + ((c.start() - self.first) / stride) as usize;
                let b = PAD + ((c.end() - self.first) / stride) as usize + 1;
                self.values[..a].fill(NONE);
                self.values[b..].fill(NONE);
            }
            None => self.values.fill(NONE),
        }
    }
}

/// Whether the rank's run `own` of the step in `front` holds the last cell's diagonal, reached.
fn reached(front: &Front, own: &Run, reach: Reach) -> bool {
    let (end, stride) = (reach.end(), reach.stride());
    own.contains(&end)
        && (end - own.start()) % stride == 0
        && front.values[PAD + ((end - front.first) / stride) as usize] >= reach.m as i32
}

/// The end of step `t`: its values of `keep` kept for the walk, and its front made the one the
/// next step reads.
fn next_step(
    t: usize,
    keep: Option<Run>,
    kept: &mut Kept,
    (prev, cur): (&mut Front, &mut Front),
    stride: i64,
) {
    if let Some(run) = keep {
        kept.keep(t, *run.start(), cur.slice(&run, stride));
    }
    std::mem::swap(prev, cur);
    if prev.values.is_empty() {
        // Nothing held: the next step's run, if any, comes whole from the neighbours.
        prev.first = 0;
        prev.values.resize(2 * PAD + 1, NONE);
    }
}

/// A clock read once per phase of a step: each reading ends one phase and starts the next.
struct Lap(Instant);

impl Lap {
    fn start() -> Lap {
        Lap(Instant::now())
    }

    /// Seconds since the last reading.
    fn next(&mut self) -> f64 {
        let now = Instant::now();
        let seconds = now.duration_since(self.0).as_secs_f64();
        self.0 = now;
        seconds
    }
}

/// The parts of `own` to compute before the messages go at the exchange step `t` (the next
/// exchange at `next`): the runs the neighbours need, and the last cell's diagonal; and the
/// rest, after.
fn order(
    plan: &WavePlan,
    (t, cp, next): (usize, bool, usize),
    r: usize,
    own: &Run,
    (early, rest): (&mut Vec<Run>, &mut Vec<Run>),
) {
    let s = plan.reach().stride();
    early.clear();
    rest.clear();
    early.extend(
        [r.checked_sub(1), Some(r + 1)]
            .into_iter()
            .flatten()
            .filter(|&q| q < plan.ranks())
            .filter_map(|q| plan.sends_in(t, r, q, cp, next)),
    );
    let end = plan.reach().end();
    if own.contains(&end) && (end - own.start()) % s == 0 {
        early.push(end..=end);
    }
    early.sort_by_key(|run| *run.start());
    // Merge overlaps in place, then the gaps between are the rest.
    let mut kept = 0usize;
    for at in 0..early.len() {
        let run = early[at].clone();
        match kept.checked_sub(1).map(|last| &mut early[last]) {
            Some(last) if *run.start() <= last.end() + s => {
                *last = *last.start()..=*last.end().max(run.end());
            }
            _ => {
                early[kept] = run;
                kept += 1;
            }
        }
    }
    early.truncate(kept);
    let mut next = *own.start();
    for run in early.iter() {
        if *run.start() > next {
            rest.push(next..=run.start() - s);
        }
        next = run.end() + s;
    }
    if next <= *own.end() {
        rest.push(next..=*own.end());
    }
}

/// Runs this rank's fill; returns the final cost, what it kept and where its time went.
#[allow(clippy::too_many_arguments)]
pub fn run(
    world: &World,
    plan: &WavePlan,
    seqs: &Seqs,
    compare: Compare,
    traffic: &mut Traffic,
    progress: &mut Progress,
    switches: Switches,
) -> Filled {
    let rank = world.rank() as usize;
    let reach = plan.reach();
    let (problem, stride) = (plan.problem(), reach.stride());
    let waiting = switches.waiting();
    let fault = Fault::for_rank(switches.fault, Phase::Fill, rank);
    let neighbours: Vec<usize> = [rank.checked_sub(1), Some(rank + 1)]
        .into_iter()
        .flatten()
        .filter(|&q| q < plan.ranks())
        .collect();
    let mut shown = vec![false; neighbours.len()];
    let mut kept = Kept::new(reach, plan.every());
    let mut work = Work::default();
    let mut times = FillTimes::default();
    let (seed_first, seed_values) = seed(problem);
    let mut prev = Front {
        first: seed_first,
        values: seed_values,
    };
    let mut cur = Front {
        first: 0,
        values: Vec::new(),
    };
    let mut words: Vec<Vec<i32>> = vec![Vec::new(); neighbours.len()];
    // The step's runs to compute before the messages go and after, kept from step to step.
    let (mut early, mut rest): (Vec<Run>, Vec<Run>) = (Vec::new(), Vec::new());
    // Each neighbour's message of the step, received into the same buffer step after step.
    let mut received: Vec<Vec<i32>> = vec![Vec::new(); neighbours.len()];
    let mut known: Option<usize> = None;
    let mut t = 0usize;
    // Whether the current block of steps keeps checkpoints, for the block that starts at.
    let mut block = (usize::MAX, false);
    // The steps from the last exchange step, `start`, to the next, `end`, and what the rank
    // reads of each of them to compute the next without an exchange.
    let (mut start, mut end) = (0, plan.next_exchange(0));
    let mut cones = plan.cones(0, rank, end);
    let cut_off = plan.cut_off_step();
    loop {
        if t == end {
            (start, end) = (t, plan.next_exchange(t));
            cones = plan.cones(t, rank, end);
        }
        let c = t - t % plan.every();
        if block.0 != c {
            block = (c, plan.checkpointed(c));
        }
        let cp = block.1;
        if let Some(f) = fault.filter(|f| f.step == t) {
            f.trigger(t);
        }
        progress.at(t.min(plan.bound()));
        let own = known.is_none().then(|| plan.own(t, rank)).flatten();
        if t != start {
            // Inside a block: no exchange; the rank computes its run and the cone around it.
            if known.is_none() {
                let mut lap = Lap::start();
                let computed = plan.computed(t, rank, cones[t - start].clone(), cp);
                match &computed {
                    Some(held) => cur.reset(held, computed.as_ref(), stride),
                    None => cur.values.clear(),
                }
                if let Some(run) = computed {
                    cur.compute(&[run], &prev, (reach, compare, seqs), &mut work);
                }
                if own.as_ref().is_some_and(|own| reached(&cur, own, reach)) {
                    known = Some(t);
                }
                times.compute += lap.next();
                let keep = known.is_none().then(|| plan.kept_in(t, rank, cp)).flatten();
                next_step(t, keep, &mut kept, (&mut prev, &mut cur), stride);
            }
            t += 1;
            continue;
        }
        // An exchange step: the rank computes its run, and what it reads over the next block
        // and keeps comes from itself and its neighbours.
        let need = hull(cones[0].clone(), plan.kept_in(t, rank, cp));
        match &hull(own.clone(), need) {
            Some(held) => cur.reset(held, own.as_ref(), stride),
            None => cur.values.clear(),
        }
        match &own {
            Some(own) => order(plan, (t, cp, end), rank, own, (&mut early, &mut rest)),
            None => {
                early.clear();
                rest.clear();
            }
        }
        // The step: receives posted before anything else, so that the neighbours' messages
        // land in place as they come; the parts the neighbours need computed and sent; the
        // rest computed while the messages travel; then the waits.
        let wait = match own {
            Some(_) => waiting,
            None => waiting.while_others_work(),
        };
        let mut lengths = [0usize; 2];
        let sent_done = mpi::request::scope(|scope| {
            // One clock reading per phase, each ending the one before.
            let mut lap = Lap::start();
            let mut receives = [None, None];
            for ((slot, &q), buffer) in neighbours.iter().enumerate().zip(&mut received) {
                if shown[slot] {
                    continue;
                }
                // At most the values the plan says it sends (fewer once it knows the end).
                let most = plan
                    .sends_in(t, q, rank, cp, end)
                    .map_or(0, |run| plan.len(&run));
                buffer.resize(HEADER + most, 0);
                let source = world.process_at_rank(q as i32);
                let request =
                    source.immediate_receive_into_with_tag(scope, &mut buffer[..], tag::HALO);
                receives[slot] = Some(request);
            }
            times.send += lap.next();

            cur.compute(&early, &prev, (reach, compare, seqs), &mut work);
            if own.as_ref().is_some_and(|own| reached(&cur, own, reach)) {
                known = Some(t);
            }
            times.compute += lap.next();

            let mut sends = [None, None];
            for (slot, &q) in neighbours.iter().enumerate() {
                if shown[slot] {
                    continue;
                }
                let run = match known {
                    Some(_) => None,
                    None => plan.sends_in(t, rank, q, cp, end),
                };
                let (first, values) = match &run {
                    Some(run) => (*run.start(), cur.slice(run, stride)),
                    None => (0, &[][..]),
                };
                halo_words(t, known, first, values, &mut words[slot]);
                traffic.sent(Kind::Boundary, q, 4 * words[slot].len(), None);
            }
            for (slot, &q) in neighbours.iter().enumerate() {
                if !shown[slot] {
                    let dest = world.process_at_rank(q as i32);
                    sends[slot] = Some(post_send(
                        &dest,
                        scope,
                        &words[slot][..],
                        tag::HALO,
                        switches.synchronous_sends,
                    ));
                }
            }
            times.send += lap.next();

            if known.is_none() {
                cur.compute(&rest, &prev, (reach, compare, seqs), &mut work);
            }
            times.compute += lap.next();

            for (slot, request) in receives.into_iter().enumerate() {
                let Some(request) = request else {
                    continue;
                };
                let status = wait.wait(request);
                lengths[slot] = usize::try_from(status.count(i32::equivalent_datatype()))
                    .expect("a message has a non-negative size");
                traffic.received(Kind::Boundary, 4 * lengths[slot]);
            }
            for request in sends.into_iter().flatten() {
                waiting.wait(request);
            }
            times.wait_receive += lap.next();
            known.is_some()
        });
        // The neighbours heard from this step: those that had not said the fill was over.
        let heard = [0, 1].map(|slot| slot < neighbours.len() && !shown[slot]);
        for (slot, message) in received.iter().enumerate() {
            if !heard[slot] {
                continue;
            }
            let q = neighbours[slot];
            let halo = halo_of(&message[..lengths[slot]])
                .filter(|h| h.step == t)
                .unwrap_or_else(|| {
                    panic!("rank {rank}: a malformed halo from rank {q} at step {t}")
                });
            if let Some(cost) = halo.done {
                shown[slot] = true;
                known.get_or_insert(cost);
            } else if known.is_none() {
                let want = plan.sends_in(t, q, rank, cp, end);
                let got = (!halo.values.is_empty())
                    .then(|| halo.first..=halo.first + stride * (halo.values.len() as i64 - 1));
                assert_eq!(got, want, "rank {rank}: rank {q}'s halo of step {t}");
                if let Some(run) = got {
                    cur.slice_mut(&run, stride).copy_from_slice(halo.values);
                }
            }
        }
        // Past a cut-off: every rank has heard of an end found within it by now.
        if sent_done || t >= cut_off && known.is_none() {
            break;
        }
        let keep = known.is_none().then(|| plan.kept_in(t, rank, cp)).flatten();
        next_step(t, keep, &mut kept, (&mut prev, &mut cur), stride);
        t += 1;
    }
    debug_assert!(words.iter().all(|w| w.len() >= HEADER || w.is_empty()));
    Filled {
        cost: known,
        kept,
        work,
        times,
    }
}
