//! `solve --length-only`: the LCS length or the distance alone, with no walk, over MPI
//! ([`crate::engines::bands::length`]): the input read and shared as `solve` shares it, each
//! rank's device opened where the run asks for one, the plan's messages between the ranks, and
//! a short summary from rank 0 (on standard output, or in `--output`, written atomically).

use std::time::Instant;

use mpi::collective::SystemOperation;

use crate::comm::stats;
use crate::comm::world::World;
use crate::engines::bands::length;
use crate::engines::config::{Method, RunConfig};
use crate::engines::device::{self, Placement, RankDevice};
use crate::engines::solve::share_input;
use crate::error::Error;
use crate::export;
use crate::options::SolveOptions;
use crate::report::device::DeviceLine;
use crate::report::text::thousands;
use lcs_core::bands::plan::BandPlan;
use lcs_core::problem::Problem;

/// Runs `solve --length-only` on this rank. Rank 0 gets the summary, unless `--output` took
/// it; other ranks `None`. Collective.
pub fn run(world: &World, opts: &SolveOptions) -> Result<Option<String>, Error> {
    let started = Instant::now();
    let input = &opts.input;
    let read = crate::input::file_read(&input.path);
    let before_reading = || export::check_outputs(&opts.outputs.named(), &[read]);
    let batch = match opts.method {
        Method::Bands { batch, .. } => batch,
        _ => unreachable!("--length-only runs the bands engine's pipeline"),
    };
    let config = RunConfig {
        problem: opts.problem,
        method: opts.method,
        switches: opts.switches,
        recording: false,
        progress: None,
        device: opts.device.placement,
    };
    let request = super::solve::request(opts, config, &before_reading, &|_, _| None, &|_, _| {});
    let waiting = opts.switches.waiting();
    let pair = share_input(world, &request, waiting)?;
    let seconds_input = started.elapsed().as_secs_f64();
    let fault = opts.switches.fault;
    let mut gpu = device::open(world, waiting, &opts.device, fault, !opts.quiet)?;
    let (ranks, (m, n)) = (world.size() as usize, (pair.x.len(), pair.y.len()));
    let plan = BandPlan::new(m, n, ranks, batch).with_problem(opts.problem);
    let asked = opts.device.placement != Placement::Cpu;
    let synchronous = opts.switches.synchronous_sends;
    let found = length::run(
        world,
        &plan,
        &pair,
        (asked, gpu.as_mut()),
        (waiting, synchronous),
    )?;
    let mut messages = 0u64;
    let sent = found.traffic.sent.boundary;
    waiting.all_reduce(world, &sent, &mut messages, SystemOperation::sum());
    let mut compute = 0f64;
    let mine = found.seconds_compute;
    waiting.all_reduce(world, &mine, &mut compute, SystemOperation::max());
    let devices = stats::gather_varcount(world, &[RankDevice::of(gpu.as_ref())], waiting);
    let Some(devices) = devices else {
        return Ok(None);
    };
    let mut s = match opts.problem {
        Problem::Lcs => format!("LCS length: {}\n", found.value),
        Problem::Edit => format!("edit distance: {}\n", found.value),
    };
    s.push_str(&format!(
        "matrix: {} rows x {} cols{}, {ranks} rank{}, bands engine, batches of {batch} rows, \
         the length alone (no walk)\n",
        thousands(m as u64),
        thousands(n as u64),
        if pair.swapped {
            " (sequences swapped)"
        } else {
            ""
        },
        if ranks == 1 { "" } else { "s" },
    ));
    s.push_str(&format!(
        "messages: boundary {messages} (predicted {})\n",
        plan.predicted_messages()
    ));
    if asked {
        let cells = m as u64 * n as u64;
        let line = DeviceLine::new(opts.device.placement, &devices, cells, compute);
        if let Some(line) = line.summary(ranks) {
            s.push_str(&format!("{line}\n"));
        }
    }
    s.push_str(&format!(
        "seconds: total {:.6} (input {seconds_input:.6}), fill {:.6}\n",
        started.elapsed().as_secs_f64(),
        found.seconds_fill
    ));
    match &opts.outputs.output {
        Some(path) => {
            export::write_atomic(path, s.as_bytes())?;
            Ok(None)
        }
        None => Ok(Some(s)),
    }
}
