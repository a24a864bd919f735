//! The bands engine's MPI fill, tile by tile (a tile: one batch of one band): a rank posts the
//! receive of its next tile's carries from band `v - 1`, computes this tile, batch `b` of band `v`
//! ([`BandStore::run_batch`]), sends its carries out to band `v + 1`, and waits for both, so band
//! `v + 1` works on batch `b` while band `v` works on `b + 1`. On a diagonal band a band runs only
//! the batches holding its work and exchanges only those spanning its edges
//! ([`BandPlan::edge_batches`]); when the bands lap ([`BandPlan::laps`]) a rank takes the tiles of
//! all its bands in the order `b + v` (`tiles`). Receives are posted before any wait and every
//! wait is on an earlier tile in that order, so the exchange cannot deadlock even with
//! synchronous sends; one tag ([`tag::CARRIES`]) and MPI's non-overtaking order keep the tiles in
//! step (a rank's messages all come from the rank on its left, in the order they are computed).
//! Boundary messages: [`BandPlan::predicted_messages`]. A recorded run also keeps each cell's
//! step along its row (computing its rows one at a time, [`BandStore::row`]) and when each batch
//! was computed, sent and waited on ([`Span`]), and fills the whole matrix. On a device
//! ([`DeviceBands`]) each tile is computed there, the messages the same.
//! `docs/algorithms.md#ownership-and-the-pipeline`.

use std::time::{Instant, SystemTime};

use crate::comm::world::World;
use mpi::traits::*;

use crate::comm::fault::{Fault, Phase};
use crate::comm::protocol::{post_send, tag, Kind};
use crate::comm::trace::{CellValue, Recording, Span, SpanKind};
use crate::comm::traffic::Traffic;
use crate::engines::bands::on_device::DeviceBands;
use crate::engines::config::Switches;
use crate::engines::record::FillTimes;
use crate::progress::Progress;
use lcs_core::bands::carry;
use lcs_core::bands::kernel::left_edge;
use lcs_core::bands::plan::BandPlan;
use lcs_core::bands::store::BandStore;
use lcs_gpu::bands::Launches;

/// Runs this rank's share of one fill on its bands `stores` (left to right), on its cores or
/// its `device`; returns where its time went. Ranks that own no words only take part in the
/// traceback.
pub fn run(
    world: &World,
    plan: &BandPlan,
    stores: &mut [BandStore<'_>],
    traffic: &mut Traffic,
    progress: &mut Progress,
    (switches, mut device): (Switches, Option<&mut DeviceBands<'_>>),
) -> FillTimes {
    let waiting = switches.waiting();
    let mut times = FillTimes::default();
    // The run's only band sends and receives nothing: the device takes its rows at once
    // (a batch at a time where the run is recorded, so that its timeline shows them).
    let recorded = traffic.recording.is_some();
    if let Some(device) = device.as_deref_mut().filter(|d| d.lone() && !recorded) {
        times.compute = device.run_lone(stores);
        return times;
    }
    let rank = world.rank() as usize;
    let fault = Fault::for_rank(switches.fault, Phase::Fill, rank);
    let tiles = tiles(plan, stores);
    // Sized by the longest message there is (the first batch's), not by the batch asked for.
    let words = plan.longest_message_words();
    // Carries in: this tile's, and the next one's arriving.
    let mut incoming = [vec![0u64; words], vec![0u64; words]];
    let mut outgoing = vec![0u64; words];
    let bytes = |b: usize| plan.message_bytes(b) as usize;
    let source = || world.process_at_rank(((rank + plan.ranks() - 1) % plan.ranks()) as i32);

    let clock = Clock::start();
    // On a diagonal band the bands take the rows in turn: the first message may come only
    // once the bands to the left have computed most of their rows, a wait that should leave
    // the core to them where they share it.
    let idle = if plan.band().is_whole() {
        waiting
    } else {
        waiting.while_others_work()
    };
    let mut posted = false;
    for (at, tile) in tiles.iter().enumerate() {
        let Tile { b, store, v, .. } = *tile;
        let rows = plan.batch_rows(b);
        if let Some(f) = fault.filter(|f| rows.contains(&f.step)) {
            f.trigger(f.step);
        }
        progress.at(rows.start);
        let n = plan.message_words(b);
        let [even, odd] = &mut incoming;
        let (current, next) = if at % 2 == 0 {
            (even, odd)
        } else {
            (odd, even)
        };
        // A message from the left that the tile before did not post the receive for: the
        // first tile's.
        if tile.from_left && !posted {
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
        // The next tile's carries from the left, if it takes any: received while this one runs.
        let next_input = tiles.get(at + 1).filter(|t| t.from_left);
        posted = next_input.is_some();
        mpi::request::scope(|scope| {
            let started = Instant::now();
            let receive = next_input.map(|t| {
                let n_next = plan.message_words(t.b);
                source().immediate_receive_into_with_tag(scope, &mut next[..n_next], tag::CARRIES)
            });
            times.send += started.elapsed().as_secs_f64();

            let started = Instant::now();
            let message = tile.from_left.then_some(&current[..n]);
            let (s, store) = (store, &mut stores[store]);
            let out = &mut outgoing[..n];
            let launches = match (device.as_deref_mut(), traffic.recording.as_mut()) {
                (Some(device), _) => device.run_batch((s, store), b, message, out),
                (None, Some(recording)) => {
                    record_batch(store, b, message, out, recording);
                    None
                }
                (None, None) => {
                    store.run_batch(b, message, out);
                    None
                }
            };
            times.compute += started.elapsed().as_secs_f64();
            match launches {
                // On a device: the copy in, the kernels, the copy back.
                Some(Launches { began, ended }) => {
                    clock.span_between(traffic, b, SpanKind::Copy, (started, began));
                    clock.span_between(traffic, b, SpanKind::Compute, (began, ended));
                    clock.span(traffic, b, SpanKind::Copy, ended);
                }
                None => clock.span(traffic, b, SpanKind::Compute, started),
            }

            let started = Instant::now();
            let send = tile.to_right.then(|| {
                let to = plan.rank_of(v + 1);
                let dest = world.process_at_rank(to as i32);
                let message = &outgoing[..n];
                traffic.sent(
                    Kind::Boundary,
                    to,
                    bytes(b),
                    Some((rows.start, plan.cols_of(v).end - 1)),
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
            if posted || tile.to_right {
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
            if posted || tile.to_right {
                clock.span(traffic, b, SpanKind::Wait, started);
            }
        });
        if let Some(t) = next_input {
            traffic.received(Kind::Boundary, bytes(t.b));
        }
    }
    // A band whose device failed holds a partial fill, which no walk reads.
    if !device.is_some_and(|d| d.failed()) {
        for store in stores {
            store.skip_to(plan.rows());
        }
    }
    times
}

/// One batch of one band: what a rank computes between messages.
#[derive(Debug, Clone, Copy)]
struct Tile {
    /// The batch.
    b: usize,
    /// The band, and its index among the rank's stores.
    v: usize,
    store: usize,
    /// Whether its carries come from band `v - 1`, and whether it sends its own to `v + 1`.
    from_left: bool,
    to_right: bool,
}

/// The tiles of the bands `stores` holds, in the order the rank computes them: by `b + v`,
/// then by band. Tile `(b, v)` waits for `(b, v - 1)` and `(b - 1, v)`, both earlier in that
/// order, so every rank taking its own tiles in it keeps the pipeline going: with one band per
/// rank, the batches in turn; with bands that lap, the ranks' tiles of one line across the
/// diagonal band side by side.
fn tiles(plan: &BandPlan, stores: &[BandStore<'_>]) -> Vec<Tile> {
    let mut tiles: Vec<Tile> = stores
        .iter()
        .enumerate()
        .flat_map(|(store, band)| {
            let v = band.rank();
            let work = plan.work_rows(v);
            let batches = match work.is_empty() {
                true => 0..0,
                false => plan.batch_of_row(work.start)..plan.batch_of_row(work.end - 1) + 1,
            };
            let from_left = match v {
                0 => 0..0,
                v => plan.edge_batches(v - 1),
            };
            let to_right = plan.edge_batches(v);
            batches.map(move |b| Tile {
                b,
                v,
                store,
                from_left: from_left.contains(&b),
                to_right: to_right.contains(&b),
            })
        })
        .collect();
    tiles.sort_by_key(|t| (t.b + t.v, t.v));
    tiles
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
        self.span_between(traffic, b, kind, (from, Instant::now()));
    }

    /// Records, in a recorded run, that batch `b` was `kind` from `from` to `to`.
    fn span_between(
        &self,
        traffic: &mut Traffic,
        b: usize,
        kind: SpanKind,
        (from, to): (Instant, Instant),
    ) {
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
    let plan = *store.plan();
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
        let bit = |plane: usize, k: usize| (store.state()[plane][k / 64] >> (k % 64)) & 1;
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
