//! The `solve` run over MPI: input on rank 0, broadcast, checks, fill, traceback, statistics
//! gathered to rank 0, report and output files.
//!
//! Every failure a user can cause is decided collectively, before any work: rank 0 checks the
//! output paths and reads and validates the input, then broadcasts an ok/error code before any
//! data; the size limits of traces and pictures follow from the broadcast lengths on every
//! rank; the memory pre-check is reduced over all ranks. So every rank leaves together with the
//! same exit status and only rank 0 prints the message. Anything else that goes wrong on one
//! rank (a panic, a planted fault) aborts the whole job through `MPI_Abort`, so no rank is ever
//! left blocked in a receive.
//!
//! The engine orchestrates; the work is done by `fill` and `traceback`, over a store.

use std::time::{Instant, SystemTime};

use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::error::{Error, EXIT_MEMORY, EXIT_USAGE};
use crate::fault::{Fault, Phase};
use crate::input::{self, Format, Pair};
use crate::mem;
use crate::options::{SolveOptions, Switches};
use crate::progress::Progress;
use crate::provenance::{HostInfo, Provenance};
use crate::render::svg::{self, Picture};
use crate::report::{EngineKind, LcsText, Predicted, Report, Seconds};
use crate::schedule::Schedule;
use crate::stats::{Gathered, RankStats};
use crate::store::dense::{self, DenseStore};
use crate::store::hash::HashStore;
use crate::store::{Seqs, Store, StoreKind};
use crate::traceback::DiagonalWalker;
use crate::traffic::{PerKind, Traffic};

/// Runs `solve` on this rank. Rank 0 gets the report; other ranks `None`.
pub fn solve(world: &SimpleCommunicator, opts: &SolveOptions) -> Result<Option<Report>, Error> {
    let started = Instant::now();
    let started_at = SystemTime::now();
    let rank = world.rank() as usize;
    let pair = share_input(world, opts)?;
    let schedule = Schedule::new(pair.x.len(), pair.y.len(), world.size() as usize);
    check_output_limits(world, &schedule, opts)?;
    let estimate = opts.store.estimate_bytes(&schedule, rank);
    let ranks_on_host = world.split_shared(0).size() as usize;
    check_memory(world, &schedule, opts, estimate, ranks_on_host)?;
    log::info!(
        "{} x {} matrix, {} diagonals, store {}",
        schedule.rows(),
        schedule.cols(),
        schedule.diagonals(),
        opts.store
    );

    let config = RunConfig {
        store: opts.store,
        switches: opts.switches,
        recording: opts.outputs.recording(),
        progress: opts.progress,
    };
    let mut outcome = run_pair(world, &schedule, &pair, &config);
    // Rank 0 holds the LCS now: what follows is reporting.
    let seconds_total = started.elapsed().as_secs_f64();
    outcome.stats.store_bytes_estimate = estimate;
    let Some(gathered) = crate::stats::gather(world, &outcome.stats, &outcome.traffic) else {
        return Ok(None);
    };
    let lcs = outcome.lcs.expect("rank 0 holds the LCS");
    let hosts: Vec<HostInfo> = gathered.stats.iter().map(RankStats::host).collect();
    let provenance = Provenance::new(started_at, &opts.run, &hosts);
    let report = report(
        provenance,
        opts,
        &schedule,
        (&pair, &lcs),
        &gathered,
        seconds_total,
    );
    write_outputs(opts, &schedule, &pair, &report, &gathered)?;
    Ok(Some(report))
}

/// How a rank runs one pair.
#[derive(Debug, Clone, Copy)]
pub struct RunConfig {
    pub store: StoreKind,
    pub switches: Switches,
    /// Record every message, value and walk cell (for traces and pictures).
    pub recording: bool,
    /// Show a progress bar on rank 0, on a terminal this wide.
    pub progress: Option<u16>,
}

/// What one rank's run produced.
pub struct RankOutcome {
    /// The LCS, on rank 0.
    pub lcs: Option<Vec<u8>>,
    pub stats: RankStats,
    pub traffic: Traffic,
}

/// Runs the fill and the traceback of `pair` on this rank. Collective.
pub fn run_pair(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    pair: &Pair,
    config: &RunConfig,
) -> RankOutcome {
    let seqs = Seqs::new(&pair.x, &pair.y);
    let rank = world.rank() as usize;
    let traffic = Traffic::new(rank, world.size() as usize, config.recording);
    match config.store {
        StoreKind::Dense if dense::narrow(schedule) => {
            let store = DenseStore::<u16>::new(schedule, rank);
            run_rank(world, schedule, &seqs, store, traffic, config)
        }
        StoreKind::Dense => {
            let store = DenseStore::<u32>::new(schedule, rank);
            run_rank(world, schedule, &seqs, store, traffic, config)
        }
        StoreKind::Hash => {
            let store = HashStore::new(schedule, rank);
            run_rank(world, schedule, &seqs, store, traffic, config)
        }
    }
}

fn run_rank<S: Store>(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    seqs: &Seqs<'_>,
    mut store: S,
    mut traffic: Traffic,
    config: &RunConfig,
) -> RankOutcome {
    let rank = world.rank() as usize;
    let started = Instant::now();
    let mut progress = Progress::new(config.progress.filter(|_| rank == 0), schedule.diagonals());
    let fill = crate::fill::run(
        world,
        schedule,
        seqs,
        &mut store,
        &mut traffic,
        &mut progress,
        config.switches,
    );
    progress.finish();
    let seconds_fill = started.elapsed().as_secs_f64();
    log::debug!("fill done in {seconds_fill:.3} s");

    let started = Instant::now();
    let mut walker = DiagonalWalker {
        schedule,
        seqs,
        store: &store,
        rank,
    };
    let start = (schedule.cells() > 0).then(|| (0, (schedule.rows() - 1, schedule.cols() - 1)));
    let fault = Fault::for_rank(config.switches.fault, Phase::Traceback, rank);
    let outcome = crate::traceback::run(world, start, &mut walker, &mut traffic, fault);
    let seconds_traceback = started.elapsed().as_secs_f64();
    log::debug!("traceback done in {seconds_traceback:.3} s");

    let mut stats = RankStats::new(&traffic, &HostInfo::here());
    stats.cells = schedule.rank_cells(rank);
    stats.hops = outcome.hops;
    stats.peak_rss_bytes = mem::peak_rss_bytes();
    stats.seconds_fill = seconds_fill;
    stats.fill = fill;
    stats.seconds_traceback = seconds_traceback;
    RankOutcome {
        lcs: outcome.lcs,
        stats,
        traffic,
    }
}

/// Rank 0 checks the output paths, then reads and validates the input; it broadcasts an
/// ok/error code, the lengths and the sequences. On error every rank returns it; only rank 0's
/// carries the message.
fn share_input(world: &SimpleCommunicator, opts: &SolveOptions) -> Result<Pair, Error> {
    let root = world.process_at_rank(0);
    let mut loaded: Result<Pair, Error> = Err(Error::Peer(0));
    // [exit code, rows, cols, swapped, format]
    let mut header = [0u64; 5];
    if world.rank() == 0 {
        let path = &opts.input.path;
        loaded = crate::export::check_outputs(&opts.outputs.named(), &[path]).and_then(|()| {
            input::read_pair(path, opts.input.max_bytes, opts.input.format).map_err(Error::from)
        });
        header = match &loaded {
            Ok(p) => [
                0,
                p.x.len() as u64,
                p.y.len() as u64,
                p.swapped as u64,
                (p.format == Format::Fasta) as u64,
            ],
            Err(e) => [e.exit_code() as u64, 0, 0, 0, 0],
        };
    }
    root.broadcast_into(&mut header[..]);
    if header[0] != 0 {
        return Err(match loaded {
            Err(e) => e,
            Ok(_) => Error::Peer(header[0] as u8),
        });
    }
    let mut pair = match loaded {
        Ok(p) => p,
        Err(_) => Pair {
            x: vec![0; header[1] as usize],
            y: vec![0; header[2] as usize],
            swapped: header[3] != 0,
            format: if header[4] != 0 {
                Format::Fasta
            } else {
                Format::Plain
            },
        },
    };
    if !pair.x.is_empty() {
        root.broadcast_into(&mut pair.x[..]);
    }
    if !pair.y.is_empty() {
        root.broadcast_into(&mut pair.y[..]);
    }
    Ok(pair)
}

/// A trace holds one record per boundary cell and a picture or page one box per cell: refuse
/// them for large matrices, on every rank (each knows the lengths), before any work.
fn check_output_limits(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    opts: &SolveOptions,
) -> Result<(), Error> {
    let (m, n) = (schedule.rows(), schedule.cols());
    let side = svg::MAX_PICTURE_CELLS_SIDE;
    let problem =
        if opts.outputs.trace.is_some() && schedule.cells() > crate::trace::MAX_TRACE_CELLS {
            format!(
                "--trace is limited to {} cells; this matrix is {m} x {n} = {} cells",
                crate::trace::MAX_TRACE_CELLS,
                schedule.cells()
            )
        } else if opts.outputs.svg.is_some() && n > side {
            format!("--svg pictures are limited to {side} x {side} cells; this matrix is {m} x {n}")
        } else if let Some(problem) = opts
            .outputs
            .html
            .as_ref()
            .and_then(|_| crate::render::html::too_large(m, n))
        {
            problem
        } else {
            return Ok(());
        };
    if world.rank() != 0 {
        return Err(Error::Peer(EXIT_USAGE));
    }
    Err(Error::Usage(problem))
}

/// The per-rank memory limit in force: the user's, else what this host can give divided among
/// the ranks that share it.
fn memory_limit(opts: &SolveOptions, ranks_on_host: usize) -> Option<u64> {
    opts.memory_limit
        .or_else(|| mem::available_bytes().map(|b| b / ranks_on_host.max(1) as u64))
}

/// Before any allocation: does this rank's store (`estimate` bytes) fit, with the sequences?
/// Decided over all ranks together.
fn check_memory(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    opts: &SolveOptions,
    estimate: u64,
    ranks_on_host: usize,
) -> Result<(), Error> {
    let limit = memory_limit(opts, ranks_on_host);
    let sequences = (schedule.rows() + 2 * schedule.cols()) as u64;
    let fits = limit.is_none_or(|l| estimate + sequences <= l);
    let code = if fits { 0 } else { EXIT_MEMORY };
    let mut worst = 0u8;
    world.all_reduce_into(&code, &mut worst, SystemOperation::max());
    if worst == 0 {
        return Ok(());
    }
    if world.rank() != 0 {
        return Err(Error::Peer(worst));
    }
    Err(Error::Memory(memory_advice(
        schedule,
        opts.store,
        limit.unwrap_or(0),
    )))
}

/// The message for a run that will not fit: estimate, limit, and what would fit.
pub fn memory_advice(schedule: &Schedule, store: StoreKind, limit: u64) -> String {
    let per_rank = |s: &Schedule, kind: StoreKind| {
        (0..s.working_ranks().max(1))
            .map(|k| kind.estimate_bytes(s, k))
            .max()
            .unwrap_or(0)
            + (s.rows() + 2 * s.cols()) as u64
    };
    let need = per_rank(schedule, store);
    let other = match store {
        StoreKind::Dense => StoreKind::Hash,
        StoreKind::Hash => StoreKind::Dense,
    };
    let mut advice = Vec::new();
    let other_need = per_rank(schedule, other);
    if other_need <= limit {
        advice.push(format!(
            "--store {other} needs about {} per rank",
            mem::human(other_need)
        ));
    }
    let mut p = schedule.ranks();
    while p < 4096 && p < schedule.rows() {
        p *= 2;
        let s = Schedule::new(schedule.rows(), schedule.cols(), p.min(schedule.rows()));
        let need = per_rank(&s, store);
        if need <= limit {
            advice.push(format!(
                "{} ranks need about {} each (on hosts with that much per rank)",
                s.ranks(),
                mem::human(need)
            ));
            break;
        }
    }
    let hint = if advice.is_empty() {
        "no store or rank count up to 4096 fits; use a machine with more memory".to_owned()
    } else {
        format!("would fit: {}", advice.join("; "))
    };
    format!(
        "not enough memory: store {store} for {} x {} on {} ranks needs about {} per rank, limit is {} per rank; {hint}",
        schedule.rows(),
        schedule.cols(),
        schedule.ranks(),
        mem::human(need),
        mem::human(limit),
    )
}

/// The report of a run, from what rank 0 gathered.
fn report(
    run: Provenance,
    opts: &SolveOptions,
    schedule: &Schedule,
    (pair, lcs): (&Pair, &[u8]),
    gathered: &Gathered,
    seconds_total: f64,
) -> Report {
    let per_rank: Vec<_> = gathered
        .stats
        .iter()
        .enumerate()
        .map(|(k, s)| s.report(k))
        .collect();
    let slowest = |f: fn(&RankStats) -> f64| gathered.stats.iter().map(f).fold(0.0, f64::max);
    Report {
        run,
        input: opts.input.path.display().to_string(),
        format: pair.format,
        rows: schedule.rows(),
        cols: schedule.cols(),
        swapped: pair.swapped,
        engine: EngineKind::Diagonal,
        store: Some(opts.store),
        ranks: schedule.ranks(),
        lcs_length: lcs.len(),
        lcs: LcsText::new(lcs),
        messages: PerKind::sum(gathered.stats.iter().map(|s| &s.sent)),
        bytes: PerKind::sum(gathered.stats.iter().map(|s| &s.sent_bytes)),
        predicted: Predicted {
            boundary: schedule.predicted_messages().total,
        },
        traceback_hops: gathered.stats.iter().map(|s| s.hops).sum(),
        pairs: gathered.pairs.clone(),
        per_rank,
        seconds: Seconds {
            total: seconds_total,
            fill: slowest(|s| s.seconds_fill),
            traceback: slowest(|s| s.seconds_traceback),
        },
    }
}

/// Rank 0 writes the files the run was asked for.
fn write_outputs(
    opts: &SolveOptions,
    schedule: &Schedule,
    pair: &Pair,
    report: &Report,
    gathered: &Gathered,
) -> Result<(), Error> {
    let outputs = &opts.outputs;
    if let Some(path) = &outputs.json {
        crate::export::write_json(path, report)?;
    }
    if let Some(recording) = &gathered.recording {
        if let Some(path) = &outputs.trace {
            let csv = crate::trace::to_csv(&recording.events).map_err(anyhow::Error::from)?;
            crate::export::write_atomic(path, &csv)?;
        }
        if outputs.svg.is_some() || outputs.html.is_some() {
            let values = recording.value_table(schedule.rows(), schedule.cols());
            let walk: Vec<(usize, usize)> = recording
                .walk
                .iter()
                .map(|&(i, j)| (i as usize, j as usize))
                .collect();
            let picture =
                Picture::of_run(schedule, pair, &values, &recording.events, &walk, report);
            if let Some(path) = &outputs.svg {
                svg::write_svg(path, &picture)?;
            }
            if let Some(path) = &outputs.html {
                crate::render::html::write_html(path, &picture, Some(report))?;
            }
        }
    }
    if let Some(path) = &outputs.append_csv {
        crate::export::append_row(path, &report.row())?;
    }
    Ok(())
}
