//! The fill phase: every rank walks the diagonals in order, computes its contiguous share of
//! each, and sends each boundary value as its own point-to-point message.
//!
//! Rank `k` works on diagonals `k <= d < m + n - 1 - k`. At step `d` it
//! 1. posts non-blocking sends of the boundary values it computed on `d - 1`
//!    ([`Schedule::sends_from`]: at most two per segment end, one message per cell);
//! 2. receives, with blocking receives, the values of `d - 1` its neighbours send it
//!    ([`Schedule::receives_on`], grouped by sender in the order the sender sends them);
//! 3. waits for its sends to complete, then computes its rows of `d`.
//!
//! Messages carry only the 4-byte value: sender and receiver derive the cell from the schedule
//! and MPI's non-overtaking order between a pair of ranks, so one fixed tag serves every
//! diagonal (a 50,000 x 50,000 run has 99,999 diagonals, and `MPI_TAG_UB` may be 32,767).
//! Because every rank posts its sends before it blocks in a receive, the exchange cannot
//! deadlock even when the MPI library delivers nothing eagerly; setting
//! `MPI_LCS_SYNCHRONOUS_SENDS=1` uses synchronous sends to prove it in the tests.
//! The step after the rank's last diagonal only sends.

use std::time::Instant;

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::engine::tag;
use crate::report::{FillTimes, Kind, Traffic};
use crate::schedule::Schedule;
use crate::store::{Seqs, Store};

/// Environment switch: use synchronous sends (`MPI_Issend`) for boundary values.
pub const SYNCHRONOUS_SENDS_ENV: &str = "MPI_LCS_SYNCHRONOUS_SENDS";

/// Runs this rank's fill; returns where its time went.
pub fn run<S: Store>(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    seqs: &Seqs<'_>,
    store: &mut S,
    traffic: &mut Traffic,
    progress: &mut crate::progress::Progress,
) -> FillTimes {
    let rank = world.rank() as usize;
    let synchronous = std::env::var_os(SYNCHRONOUS_SENDS_ENV).is_some_and(|v| v == "1");
    let fault = crate::engine::Fault::from_env(crate::engine::Phase::Fill, rank);
    let mut times = FillTimes::default();
    let diagonals = schedule.rank_diagonals(rank);
    // Values computed on the previous diagonal, waiting to be sent: (row, target) and value.
    let mut outgoing = crate::schedule::Sends::default();
    let mut values = [0u32; 4];

    for d in diagonals.start..diagonals.end + 1 {
        if fault.is_some_and(|f| f.diagonal == d) {
            crate::engine::Fault::trigger(rank, d);
        }
        let incoming = match d.checked_sub(1) {
            Some(prev) => schedule.receives_on(prev, rank),
            None => Default::default(),
        };
        if !outgoing.is_empty() || !incoming.is_empty() {
            exchange(
                world,
                &outgoing,
                &values,
                &incoming,
                d - 1,
                store,
                traffic,
                synchronous,
                &mut times,
            );
        }
        if d == diagonals.end {
            break;
        }
        progress.at(d);
        let started = Instant::now();
        store.compute(d, schedule.rank_rows(d, rank), seqs);
        outgoing = schedule.sends_from(d, rank);
        for (slot, (row, _)) in values.iter_mut().zip(outgoing.iter()) {
            *slot = store.value(d, row);
        }
        times.compute += started.elapsed().as_secs_f64();
    }
    times
}

/// One step's communication: send `outgoing` (values of diagonal `d`), receive `incoming`
/// (also of `d`) into the store, then complete the sends.
#[allow(clippy::too_many_arguments)]
fn exchange<S: Store>(
    world: &SimpleCommunicator,
    outgoing: &crate::schedule::Sends,
    values: &[u32; 4],
    incoming: &crate::schedule::Sends,
    d: usize,
    store: &mut S,
    traffic: &mut Traffic,
    synchronous: bool,
    times: &mut FillTimes,
) {
    let bytes = std::mem::size_of::<u32>();
    let started = Instant::now();
    mpi::request::multiple_scope(outgoing.len(), |scope, requests| {
        for ((row, to), value) in outgoing.iter().zip(values) {
            let dest = world.process_at_rank(to as i32);
            let request = if synchronous {
                dest.immediate_synchronous_send_with_tag(scope, value, tag::BOUNDARY)
            } else {
                dest.immediate_send_with_tag(scope, value, tag::BOUNDARY)
            };
            requests.add(request);
            traffic.sent(Kind::Boundary, to, bytes, Some((row, d - row)));
        }
        let posted = Instant::now();
        times.send += (posted - started).as_secs_f64();
        for (from, row) in incoming.iter() {
            let (value, _) = world
                .process_at_rank(from as i32)
                .receive_with_tag::<u32>(tag::BOUNDARY);
            traffic.received(Kind::Boundary, bytes);
            store.put_received(d, row, value);
        }
        let received = Instant::now();
        times.wait_receive += (received - posted).as_secs_f64();
        requests.wait_all(&mut Vec::new());
        times.send += received.elapsed().as_secs_f64();
    });
}
