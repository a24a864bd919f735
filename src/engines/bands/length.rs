//! `solve --length-only`: the LCS length or the edit distance alone, with no walk, in
//! `O(m + n / P)` memory per rank, so any size that the input fits runs. The bands engine's
//! pipeline over the whole matrix (a band of columns per rank, its carries to the next rank
//! after each batch: the plan's messages), each band keeping only its latest row's state, on
//! the rank's device where the run asks for one ([`BandOnDevice::for_length`]), else on its
//! cores ([`kernel::step`]); the ranks' shares of the last row, summed, are the answer.
//!
//! As in the fill ([`super::fill`]), a rank posts the receive of its next batch's carries
//! before it computes this one, and a device that fails keeps sending the messages it owes
//! (zeros) so that no neighbour is left waiting; the ranks decide the failure together at the
//! end.
//!
//! Cost per rank with `w` band words: `m * w` word steps, `ceil(m / B)` messages each way.

use std::ops::Range;
use std::time::Instant;

use mpi::collective::SystemOperation;
use mpi::traits::*;

use crate::comm::agree::agree;
use crate::comm::protocol::{post_send, tag, Kind};
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::comm::world::World;
use crate::engines::device;
use crate::error::Error;
use crate::input::Pair;
use lcs_core::bands::carry;
use lcs_core::bands::kernel::{self, left_edge, Planes};
use lcs_core::bands::local;
use lcs_core::bands::plan::BandPlan;
use lcs_core::bitpar::{self, Masks};
use lcs_core::problem::Problem;
use lcs_gpu::bands::{BandOnDevice, TILE_ROWS};
use lcs_gpu::{Gpu, GpuError};

/// What a length-only run found on this rank.
pub struct Length {
    /// The LCS length or the distance (every rank's).
    pub value: usize,
    pub traffic: Traffic,
    /// This rank's seconds computing its band, and from the start of the pipeline to the sum.
    pub seconds_compute: f64,
    pub seconds_fill: f64,
}

/// A band's rows on the CPU: its masks and its latest row.
struct OnCores {
    problem: Problem,
    masks: Masks,
    state: Planes,
}

impl OnCores {
    fn new(problem: Problem, x: &[u8], band: &[u8]) -> OnCores {
        OnCores {
            problem,
            masks: Masks::new(x, band),
            state: kernel::fresh(problem, band.len().div_ceil(bitpar::WORD_BITS)),
        }
    }

    /// Rows `rows` of `x` from the carries `incoming` (the left edge where `None`), their
    /// carries out packed into `outgoing`.
    fn rows(
        &mut self,
        x: &[u8],
        rows: Range<usize>,
        incoming: Option<&[u64]>,
        outgoing: &mut [u64],
    ) {
        let (words, planes) = (rows.len().div_ceil(TILE_ROWS), self.problem.planes());
        let edge = left_edge(self.problem);
        outgoing.fill(0);
        for (t, i) in rows.enumerate() {
            let c = incoming.map_or(edge, |w| carry::get_payload(w, words, planes, t));
            let [s0, s1] = &mut self.state;
            let out = kernel::step(self.problem, [s0, s1], self.masks.of(x[i]), c, None);
            carry::set_payload(outgoing, words, planes, t, out);
        }
    }

    fn share(&self, cols: usize) -> i64 {
        match self.problem {
            Problem::Lcs => self.state[0]
                .iter()
                .map(|w| i64::from(w.count_zeros()))
                .sum(),
            Problem::Edit => bitpar::edit::delta_sum(&self.state[0], &self.state[1], cols),
        }
    }
}

/// Where a rank's band computes.
// One per rank, so the larger variant's table of slots does not matter.
#[allow(clippy::large_enum_variant)]
enum Band<'g> {
    Cores(OnCores),
    Device(&'g mut Gpu, BandOnDevice, Option<GpuError>),
}

impl Band<'_> {
    fn rows(&mut self, x: &[u8], rows: Range<usize>, incoming: Option<&[u64]>, out: &mut [u64]) {
        match self {
            Band::Cores(band) => band.rows(x, rows, incoming, out),
            Band::Device(gpu, band, failed) => {
                if failed.is_none() {
                    *failed = band.compute(gpu, rows, incoming, Some(&mut *out)).err();
                }
                if failed.is_some() {
                    out.fill(0);
                }
            }
        }
    }

    /// The band's share of the answer, or its device's failure.
    fn share(self, cols: usize) -> Result<i64, GpuError> {
        match self {
            Band::Cores(band) => Ok(band.share(cols)),
            Band::Device(gpu, mut band, failed) => {
                let share = failed.map_or_else(|| band.share(gpu, cols), Err);
                band.release(gpu);
                share
            }
        }
    }
}

/// The answer of `pair` on `plan` (the whole matrix, a band per rank), computed on `gpu` where
/// the run `asked` for a device (a rank without one computes on its cores). Collective.
pub fn run(
    world: &World,
    plan: &BandPlan,
    pair: &Pair,
    (asked, gpu): (bool, Option<&mut Gpu>),
    (waiting, synchronous): (Waiting, bool),
) -> Result<Length, Error> {
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let problem = plan.problem();
    let (x, m) = (&pair.x[..], plan.rows());
    let mine = (rank < plan.active_bands()).then_some(rank);
    let cols = mine.map_or(0..0, |v| plan.cols_of(v));
    let band_y = &pair.y[cols.clone()];
    let pass = match plan.active_bands() {
        1 => m.div_ceil(TILE_ROWS).max(1) * TILE_ROWS,
        _ => plan.batch(),
    };
    let opened = match (mine, gpu) {
        (Some(_), Some(gpu)) => BandOnDevice::for_length(gpu, problem, (x, band_y), pass)
            .map(|b| Band::Device(gpu, b, None)),
        _ => Ok(Band::Cores(OnCores::new(problem, x, band_y))),
    };
    let opened = opened.map_err(device::setup_error);
    let mut band = match asked {
        true => agree(world, waiting, opened)?,
        false => opened?,
    };

    let started = Instant::now();
    let mut traffic = Traffic::new(rank, ranks, false);
    let mut seconds_compute = 0.0;
    if let Some(v) = mine {
        let (left, right) = (v > 0, v + 1 < plan.active_bands());
        let words = plan.longest_message_words();
        let mut incoming = [vec![0u64; words], vec![0u64; words]];
        let mut outgoing = vec![0u64; words];
        // The neighbours, only where there are some: a process alone has none.
        let source = || world.process_at_rank(v as i32 - 1);
        let dest = || world.process_at_rank(v as i32 + 1);
        let bytes = |b: usize| plan.message_bytes(b) as usize;
        if left && plan.batches() > 0 {
            let n = plan.message_words(0);
            mpi::request::scope(|scope| {
                waiting.wait(source().immediate_receive_into_with_tag(
                    scope,
                    &mut incoming[0][..n],
                    tag::CARRIES,
                ));
            });
            traffic.received(Kind::Boundary, bytes(0));
        }
        for b in 0..plan.batches() {
            let n = plan.message_words(b);
            let [even, odd] = &mut incoming;
            let (current, next) = if b % 2 == 0 { (even, odd) } else { (odd, even) };
            let has_next = left && b + 1 < plan.batches();
            mpi::request::scope(|scope| {
                let receive = has_next.then(|| {
                    let n_next = plan.message_words(b + 1);
                    source().immediate_receive_into_with_tag(
                        scope,
                        &mut next[..n_next],
                        tag::CARRIES,
                    )
                });
                let computing = Instant::now();
                let message = left.then_some(&current[..n]);
                band.rows(x, plan.batch_rows(b), message, &mut outgoing[..n]);
                seconds_compute += computing.elapsed().as_secs_f64();
                let send = right.then(|| {
                    traffic.sent(Kind::Boundary, v + 1, bytes(b), None);
                    post_send(&dest(), scope, &outgoing[..n], tag::CARRIES, synchronous)
                });
                if let Some(send) = send {
                    waiting.wait(send);
                }
                if let Some(receive) = receive {
                    waiting.wait(receive);
                }
            });
            if has_next {
                traffic.received(Kind::Boundary, bytes(b + 1));
            }
        }
    }
    let share = band.share(cols.len()).map_err(device::run_error);
    let share = match asked {
        true => agree(world, waiting, share)?,
        false => share?,
    };
    let mut total = 0i64;
    waiting.all_reduce(world, &share, &mut total, SystemOperation::sum());
    Ok(Length {
        value: local::answer(problem, m, total),
        traffic,
        seconds_compute,
        seconds_fill: started.elapsed().as_secs_f64(),
    })
}
