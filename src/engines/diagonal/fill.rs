//! The fill phase: every rank walks the diagonals in order, computes its contiguous share of
//! each, and sends each boundary value as its own point-to-point message of 4 bytes.
//!
//! At step `d` a rank posts the sends of the values it computed on `d - 1`
//! ([`Schedule::sends_from`]) and the receives of those it needs ([`Schedule::receives_on`]),
//! seals diagonal `d - 1` (its traceback bits) while they travel, computes the rows of `d` that
//! need none of them, then waits and computes the one or two rows at each end of its segment.
//! One fixed tag serves every diagonal: sender and receiver derive each cell from the schedule
//! and MPI's non-overtaking order. Every rank posts before it waits, so the exchange cannot
//! deadlock even with synchronous sends (the tests' switch, `config::Switches`). The step after
//! the rank's last diagonal only sends. `docs/algorithms.md#the-fill`.

use std::ops::Range;
use std::time::Instant;

use crate::comm::world::World;
use mpi::traits::*;

use crate::comm::fault::{Fault, Phase};
use crate::comm::protocol::{post_send, tag, Kind, VALUE_BYTES};
use crate::comm::trace::CellValue;
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::engines::config::Switches;
use crate::engines::diagonal::schedule::{Schedule, Transfers};
use crate::engines::diagonal::store::{Seqs, Store};
use crate::engines::record::FillTimes;
use crate::progress::Progress;

/// What one rank needs through its fill: the communicator, its cells, where its time goes.
struct Filler<'a, S> {
    world: &'a World<'a>,
    seqs: &'a Seqs<'a>,
    store: &'a mut S,
    traffic: &'a mut Traffic,
    times: FillTimes,
    synchronous: bool,
    waiting: Waiting,
}

/// Runs this rank's fill; returns where its time went. A recorded run also keeps every value
/// the rank computes.
pub fn run<S: Store>(
    world: &World,
    schedule: &Schedule,
    seqs: &Seqs<'_>,
    store: &mut S,
    traffic: &mut Traffic,
    progress: &mut Progress,
    switches: Switches,
) -> FillTimes {
    let rank = world.rank() as usize;
    let fault = Fault::for_rank(switches.fault, Phase::Fill, rank);
    let diagonals = schedule.rank_diagonals(rank);
    let mut filler = Filler {
        world,
        seqs,
        store,
        traffic,
        times: FillTimes::default(),
        synchronous: switches.synchronous_sends,
        waiting: switches.waiting(),
    };
    // Boundary values computed on the previous diagonal, waiting to be sent, and its rows,
    // waiting to be sealed.
    let mut outgoing = Transfers::default();
    let mut values = [0u32; 4];
    let mut sealing = 0..0;

    for d in diagonals.start..diagonals.end + 1 {
        if let Some(f) = fault.filter(|f| f.step == d) {
            f.trigger(d);
        }
        progress.at(d);
        let rows = if d < diagonals.end {
            schedule.rank_rows(d, rank)
        } else {
            0..0
        };
        let incoming = match d.checked_sub(1) {
            Some(prev) => schedule.receives_on(prev, rank),
            None => Transfers::default(),
        };
        filler.step(d, rows.clone(), sealing, &outgoing, &values, &incoming);
        sealing = rows.clone();
        if rows.is_empty() {
            continue;
        }
        outgoing = schedule.sends_from(d, rank);
        for (slot, send) in values.iter_mut().zip(outgoing.iter()) {
            *slot = filler.store.value(d, send.row);
        }
        if let Some(recording) = &mut filler.traffic.recording {
            recording.values.extend(rows.map(|i| CellValue {
                i: i as u64,
                j: (d - i) as u64,
                value: filler.store.value(d, i).into(),
            }));
        }
    }
    filler.times
}

impl<S: Store> Filler<'_, S> {
    /// Step `d`: send `outgoing` (values of `d - 1`), seal `sealing` (this rank's rows of
    /// `d - 1`), compute `rows` of `d`, receiving `incoming` (values of `d - 1`) in between.
    fn step(
        &mut self,
        d: usize,
        rows: Range<usize>,
        sealing: Range<usize>,
        outgoing: &Transfers,
        values: &[u32; 4],
        incoming: &Transfers,
    ) {
        let (head, interior, tail) = split_rows(rows.clone(), incoming);
        if outgoing.is_empty() && incoming.is_empty() {
            self.seal(d, sealing);
            self.compute(d, rows);
        } else {
            let started = Instant::now();
            let world = self.world;
            let mut inbox = [0u32; 4];
            mpi::request::scope(|scope| {
                // At most four sends and four receives: kept inline, no allocation per step.
                let mut pending: [Option<_>; 8] = Default::default();
                let mut posted = 0;
                for (send, value) in outgoing.iter().zip(values) {
                    let dest = world.process_at_rank(send.peer as i32);
                    pending[posted] = Some(post_send(
                        &dest,
                        scope,
                        value,
                        tag::BOUNDARY,
                        self.synchronous,
                    ));
                    posted += 1;
                    let cell = (send.row, d - 1 - send.row);
                    self.traffic
                        .sent(Kind::Boundary, send.peer, VALUE_BYTES, Some(cell));
                }
                // Receives posted in the order each sender sends match in that order.
                for (slot, receive) in inbox.iter_mut().zip(incoming.iter()) {
                    let source = world.process_at_rank(receive.peer as i32);
                    pending[posted] =
                        Some(source.immediate_receive_into_with_tag(scope, slot, tag::BOUNDARY));
                    posted += 1;
                }
                self.times.send += started.elapsed().as_secs_f64();
                // The values are on their way: seal the previous diagonal while they travel.
                self.seal(d, sealing);
                self.compute(d, interior);
                let waiting = Instant::now();
                for request in pending.iter_mut().filter_map(Option::take) {
                    self.waiting.wait(request);
                }
                self.times.wait_receive += waiting.elapsed().as_secs_f64();
            });
            for (value, receive) in inbox.iter().zip(incoming.iter()) {
                self.traffic.received(Kind::Boundary, VALUE_BYTES);
                self.store.put_received(d - 1, receive.row, *value);
            }
            self.compute(d, head);
            self.compute(d, tail);
        }
    }

    /// Seals this rank's `rows` of diagonal `d - 1` (at step `d`, once its sends are posted).
    fn seal(&mut self, d: usize, rows: Range<usize>) {
        if !rows.is_empty() {
            let started = Instant::now();
            self.store.seal(d - 1, rows);
            self.times.compute += started.elapsed().as_secs_f64();
        }
    }

    fn compute(&mut self, d: usize, rows: Range<usize>) {
        if !rows.is_empty() {
            let started = Instant::now();
            self.store.compute(d, rows, self.seqs);
            self.times.compute += started.elapsed().as_secs_f64();
        }
    }
}

/// Splits a rank's rows of diagonal `d` into (head, interior, tail): the interior needs no
/// value from `incoming` (received from diagonal `d - 1`); a value received for row `r` is
/// read by rows `r` (as the left neighbour) and `r + 1` (as the one above), which always lie at
/// the segment's ends.
fn split_rows(
    rows: Range<usize>,
    incoming: &Transfers,
) -> (Range<usize>, Range<usize>, Range<usize>) {
    let needs = |i: usize| incoming.iter().any(|t| i == t.row || i == t.row + 1);
    let mut a = rows.start;
    while a < rows.end && needs(a) {
        a += 1;
    }
    let mut b = rows.end;
    while b > a && needs(b - 1) {
        b -= 1;
    }
    debug_assert!((a..b).all(|i| !needs(i)), "received rows inside a segment");
    (rows.start..a, a..b, b..rows.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn received_rows_split_off_the_segment_ends() {
        let s = Schedule::new(30, 50, 4);
        for d in 1..s.diagonals() {
            for k in 0..4 {
                let rows = s.rank_rows(d, k);
                let incoming = s.receives_on(d - 1, k);
                let (head, interior, tail) = split_rows(rows.clone(), &incoming);
                assert_eq!(head.start, rows.start);
                assert_eq!((head.end, interior.end), (interior.start, tail.start));
                assert_eq!(tail.end, rows.end);
                assert!(head.len() <= 2 && tail.len() <= 2, "d={d} k={k}");
            }
        }
    }
}
