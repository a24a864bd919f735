//! The bands engine's MPI fill, batch by batch: a rank posts the receive of batch `b + 1`'s carries
//! from band `k - 1`, computes batch `b` ([`BandStore::run_batch`]), sends its carries out to band
//! `k + 1`, and waits for both, so band `k + 1` works on batch `b` while band `k` works on `b + 1`.
//! On a diagonal band a rank runs only the batches holding its work and exchanges only those
//! spanning its edges ([`BandPlan::edge_batches`]). Receives are posted before any wait and data
//! only flows right, so the exchange cannot deadlock even with synchronous sends; one tag
//! ([`tag::CARRIES`]) and MPI's non-overtaking order keep the batches in step. Boundary messages:
//! [`BandPlan::predicted_messages`]. A recorded run also keeps each cell's step along its row
//! (computing its rows one at a time, [`BandStore::row`]) and when each batch was computed, sent
//! and waited on ([`Span`]), and fills the whole matrix.
//! `docs/algorithms.md#ownership-and-the-pipeline`.

use std::time::{Instant, SystemTime};

use crate::comm::world::World;
use mpi::traits::*;

use super::carry;
use super::kernel::left_edge;
use super::plan::BandPlan;
use super::store::BandStore;
use crate::comm::fault::{Fault, Phase};
use crate::comm::protocol::{post_send, tag, Kind};
use crate::comm::stats::FillTimes;
use crate::comm::trace::{CellValue, Recording, Span, SpanKind};
use crate::comm::traffic::Traffic;
use crate::engines::config::Switches;
use crate::progress::Progress;

/// Runs this rank's share of one fill; returns where its time went. Ranks that own no words
/// only take part in the traceback.
pub fn run(
    world: &World,
    plan: &BandPlan,
    store: Option<&mut BandStore<'_>>,
    traffic: &mut Traffic,
    progress: &mut Progress,
    switches: Switches,
) -> FillTimes {
    let waiting = switches.waiting();
    let mut times = FillTimes::default();
    let Some(store) = store else {
        return times;
    };
    let rank = world.rank() as usize;
    let fault = Fault::for_rank(switches.fault, Phase::Fill, rank);
    // Batches with this band's work, and those whose messages cross its edges: all of them
    // for the whole matrix, runs of them for a diagonal band (see `BandPlan::edge_batches`).
    let work = plan.work_rows(rank);
    let batches = match work.is_empty() {
        true => 0..0,
        false => plan.batch_of_row(work.start)..plan.batch_of_row(work.end - 1) + 1,
    };
    let from_left = match rank {
        0 => 0..0,
        k => plan.edge_batches(k - 1),
    };
    let to_right = plan.edge_batches(rank);
    // Sized by the longest message there is (the first batch's), not by the batch asked for.
    let words = plan.longest_message_words();
    // Carries in: this batch's, and the next one's arriving.
    let mut incoming = [vec![0u64; words], vec![0u64; words]];
    let mut outgoing = vec![0u64; words];
    let bytes = |b: usize| plan.message_bytes(b) as usize;
    let source = || world.process_at_rank(rank as i32 - 1);

    let clock = Clock::start();
    let first = batches.start;
    // On a diagonal band the bands take the rows in turn: the first message may come only
    // once the bands to the left have computed most of their rows, a wait that should leave
    // the core to them where they share it.
    let idle = if plan.band().is_whole() {
        waiting
    } else {
        waiting.while_others_work()
    };
    for b in batches {
        let rows = plan.batch_rows(b);
        if let Some(f) = fault.filter(|f| rows.contains(&f.step)) {
            f.trigger(f.step);
        }
        progress.at(rows.start);
        let n = plan.message_words(b);
        let [current, next] = &mut incoming;
        let (current, next) = if b % 2 == 0 {
            (current, next)
        } else {
            (next, current)
        };
        // A message from the left that no earlier batch posted the receive for: the first
        // batch's (every later one's was posted while the batch before it ran).
        if from_left.contains(&b) && b == first {
            let started = Instant::now();
            mpi::request::scope(|scope| {
                idle.wait(source().immediate_receive_into_with_tag(
                    scope,
                    &mut current[..n],
                    tag::CARRIES,
                ));
            });
            traffic.received(Kind::Boundary, bytes(b));
            times.wait_receive += started.elapsed().as_secs_f64();
            clock.span(traffic, b, SpanKind::Wait, started);
        }
        let receive_next = from_left.contains(&(b + 1));
        mpi::request::scope(|scope| {
            let started = Instant::now();
            let receive = receive_next.then(|| {
                let n_next = plan.message_words(b + 1);
                source().immediate_receive_into_with_tag(scope, &mut next[..n_next], tag::CARRIES)
            });
            times.send += started.elapsed().as_secs_f64();

            let started = Instant::now();
            let message = from_left.contains(&b).then_some(&current[..n]);
            match traffic.recording.as_mut() {
                Some(recording) => record_batch(store, b, message, &mut outgoing[..n], recording),
                None => store.run_batch(b, message, &mut outgoing[..n]),
            }
            times.compute += started.elapsed().as_secs_f64();
            clock.span(traffic, b, SpanKind::Compute, started);

            let started = Instant::now();
            let sends = to_right.contains(&b);
            let send = sends.then(|| {
                let dest = world.process_at_rank(rank as i32 + 1);
                let message = &outgoing[..n];
                traffic.sent(
                    Kind::Boundary,
                    rank + 1,
                    bytes(b),
                    Some((rows.start, plan.cols_of(rank).end - 1)),
                );
                post_send(
                    &dest,
                    scope,
                    message,
                    tag::CARRIES,
                    switches.synchronous_sends,
                )
            });
            times.send += started.elapsed().as_secs_f64();
            if receive_next || sends {
                clock.span(traffic, b, SpanKind::Send, started);
            }

            let started = Instant::now();
            if let Some(send) = send {
                waiting.wait(send);
            }
            if let Some(receive) = receive {
                waiting.wait(receive);
            }
            times.wait_receive += started.elapsed().as_secs_f64();
            if receive_next || sends {
                clock.span(traffic, b, SpanKind::Wait, started);
            }
        });
        if receive_next {
            traffic.received(Kind::Boundary, bytes(b + 1));
        }
    }
    store.skip_to(plan.rows());
    times
}

/// The wall clock of a recorded fill: `Instant`s read as seconds since the Unix epoch.
struct Clock {
    epoch: f64,
    at: Instant,
}

impl Clock {
    fn start() -> Clock {
        let epoch = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        Clock {
            epoch,
            at: Instant::now(),
        }
    }

    fn seconds(&self, t: Instant) -> f64 {
        self.epoch + t.duration_since(self.at).as_secs_f64()
    }

    /// Records, in a recorded run, that batch `b` was `kind` from `from` until now.
    fn span(&self, traffic: &mut Traffic, b: usize, kind: SpanKind, from: Instant) {
        let to = Instant::now();
        let rank = traffic.rank;
        if let Some(recording) = traffic.recording.as_mut() {
            recording.spans.push(Span {
                rank,
                batch: b,
                kind,
                start: self.seconds(from),
                end: self.seconds(to),
            });
        }
    }
}

/// [`BandStore::run_batch`] one row at a time, recording after each row its step at each of
/// the band's columns: for the LCS `1 − V[j]`, for the edit distance `Pv[j] − Mv[j]` (stored
/// plus one, see [`Recording::deltas`]).
fn record_batch(
    store: &mut BandStore<'_>,
    b: usize,
    incoming: Option<&[u64]>,
    outgoing: &mut [u64],
    recording: &mut Recording,
) {
    let plan = store.plan;
    debug_assert!(
        plan.band().is_whole(),
        "a recorded run fills the whole matrix"
    );
    let rows = plan.batch_rows(b);
    let (words, planes) = (plan.carry_words(b), plan.carry_planes());
    let edge = left_edge(plan.problem());
    outgoing.fill(0);
    let cols = store.cols();
    for i in rows.clone() {
        let t = i - rows.start;
        let carry_in = incoming.map_or(edge, |w| carry::get_payload(w, words, planes, t));
        let out = store.row(i, carry_in);
        carry::set_payload(outgoing, words, planes, t, out);
        let bit = |plane: usize, k: usize| (store.state[plane][k / 64] >> (k % 64)) & 1;
        for (k, j) in cols.clone().enumerate() {
            let step = if planes == 1 {
                1 - bit(0, k) as i64
            } else {
                bit(0, k) as i64 - bit(1, k) as i64
            };
            recording.deltas.push(CellValue {
                i: i as u64,
                j: j as u64,
                value: (step + 1) as u64,
            });
        }
    }
}
