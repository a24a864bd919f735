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
//! The engine orchestrates; the work is done by `fill` (diagonal engine, over a store) or
//! `pipeline` (bands engine, over a band), and by `traceback` for both.

use std::time::{Instant, SystemTime};

use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::bands::{BandPlan, BandStore, Checkpoint};
use crate::budget;
use crate::error::{Error, EXIT_MEMORY, EXIT_USAGE};
use crate::fault::{Fault, Phase};
use crate::input::{self, Format, Pair};
use crate::mem;
use crate::options::{Method, SolveOptions, Switches};
use crate::pipeline::{BandWalker, Idle};
use crate::progress::Progress;
use crate::provenance::{HostInfo, Provenance};
use crate::render::svg::{self, Picture};
use crate::report::{self, FillTimes, LcsText, Report, Seconds};
use crate::schedule::{Predicted, Schedule};
use crate::stats::{Gathered, RankStats};
use crate::store::dense::{self, DenseStore};
use crate::store::hash::HashStore;
use crate::store::{Seqs, Store, StoreKind};
use crate::traceback::DiagonalWalker;
use crate::traffic::{PerKind, Traffic};
use crate::waiting::Waiting;

/// Runs `solve` on this rank. Rank 0 gets the report; other ranks `None`.
pub fn solve(world: &SimpleCommunicator, opts: &SolveOptions) -> Result<Option<Report>, Error> {
    let started = Instant::now();
    let started_at = SystemTime::now();
    let rank = world.rank() as usize;
    let waiting = opts.switches.waiting();
    let pair = share_input(world, opts, waiting)?;
    log::debug!(
        "input shared after {:.4} s",
        started.elapsed().as_secs_f64()
    );
    check_output_limits(world, &pair, opts)?;
    let config = RunConfig {
        method: opts.method,
        switches: opts.switches,
        recording: opts.outputs.recording(),
        progress: opts.progress,
    };
    let baseline = mem::peak_rss_bytes();
    let limit = memory_limit(world, opts);
    let layout = Layout::new(&config, &pair, world.size() as usize, rank, limit, baseline);
    let working = layout.working_bytes(&pair, rank);
    let need = budget::need(baseline, working);
    check_memory(world, waiting, need, limit, || {
        layout.advice(&pair, limit.unwrap_or(0), baseline)
    })?;
    log::info!("{} x {} matrix, {layout:?}", pair.x.len(), pair.y.len());
    log::debug!(
        "memory checked after {:.4} s",
        started.elapsed().as_secs_f64()
    );

    let mut outcome = run_layout(world, &pair, &layout, &config);
    // Rank 0 holds the LCS now: what follows is reporting.
    let seconds_total = started.elapsed().as_secs_f64();
    outcome.stats.store_bytes_estimate = working;
    outcome.stats.memory_estimate_bytes = need;
    let Some(gathered) = crate::stats::gather(world, &outcome.stats, &outcome.traffic, waiting)
    else {
        return Ok(None);
    };
    let lcs = outcome.lcs.expect("rank 0 holds the LCS");
    let hosts: Vec<HostInfo> = gathered.stats.iter().map(RankStats::host).collect();
    let provenance = Provenance::new(started_at, &opts.run, &hosts);
    let report = report(
        provenance,
        opts,
        &layout,
        (&pair, &lcs),
        &gathered,
        seconds_total,
    );
    if let Layout::Diagonal(schedule, _) = &layout {
        write_outputs(opts, Some(schedule), &pair, &report, &gathered)?;
    } else {
        write_outputs(opts, None, &pair, &report, &gathered)?;
    }
    Ok(Some(report))
}

/// How a rank runs one pair.
#[derive(Debug, Clone, Copy)]
pub struct RunConfig {
    pub method: Method,
    pub switches: Switches,
    /// Record every message, value and walk cell (for traces and pictures).
    pub recording: bool,
    /// Show a progress bar on rank 0, on a terminal this wide.
    pub progress: Option<u16>,
}

/// How the matrix is split among the ranks, as this rank will run it.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// The diagonal schedule, and where each rank keeps its cells.
    Diagonal(Schedule, StoreKind),
    /// Column bands, and what this rank keeps for its traceback.
    Bands(BandPlan, Checkpoint),
}

impl Layout {
    /// The layout of `pair` on `ranks` ranks as `rank` runs it. For the bands engine the
    /// checkpoint mode may depend on the memory `limit` (less the `baseline` already used).
    pub fn new(
        config: &RunConfig,
        pair: &Pair,
        ranks: usize,
        rank: usize,
        limit: Option<u64>,
        baseline: u64,
    ) -> Layout {
        let (m, n) = (pair.x.len(), pair.y.len());
        match config.method {
            Method::Diagonal { store } => Layout::Diagonal(Schedule::new(m, n, ranks), store),
            Method::Bands { batch, checkpoint } => {
                let plan = BandPlan::new(m, n, ranks, batch);
                // What the band may take: the limit less what the rank holds and the margin.
                let budget = limit.map(|l| {
                    let overhead = budget::need(baseline, 0);
                    l.saturating_sub(overhead)
                });
                let mode = Checkpoint::choose(&plan, rank, &pair.x, checkpoint, budget);
                Layout::Bands(plan, mode)
            }
        }
    }

    /// The bytes this rank's engine will occupy (see `budget`).
    fn working_bytes(&self, pair: &Pair, rank: usize) -> u64 {
        match self {
            Layout::Diagonal(schedule, store) => {
                budget::diagonal_working(schedule, store.estimate_bytes(schedule, rank))
            }
            Layout::Bands(plan, mode) => budget::bands_working(plan, rank, &pair.x, *mode),
        }
    }

    /// Why the run does not fit `limit`, and what would.
    fn advice(&self, pair: &Pair, limit: u64, baseline: u64) -> String {
        match self {
            Layout::Diagonal(schedule, store) => {
                budget::diagonal_advice(schedule, *store, limit, baseline)
            }
            Layout::Bands(plan, _) => budget::bands_advice(plan, &pair.x, limit, baseline),
        }
    }

    /// Boundary messages the layout predicts.
    pub fn predicted(&self) -> Predicted {
        match self {
            Layout::Diagonal(schedule, _) => schedule.predicted_messages(),
            Layout::Bands(plan, _) => {
                let mut predicted = Predicted::none(plan.ranks());
                for k in plan.senders() {
                    predicted.add(k, k + 1, plan.batches() as u64);
                }
                predicted
            }
        }
    }

    /// Cells this rank owns.
    fn cells(&self, rank: usize) -> u64 {
        match self {
            Layout::Diagonal(schedule, _) => schedule.rank_cells(rank),
            Layout::Bands(plan, _) if rank < plan.active_ranks() => {
                plan.rows() as u64 * plan.cols_of(rank).len() as u64
            }
            Layout::Bands(..) => 0,
        }
    }
}

/// What one rank's run produced.
pub struct RankOutcome {
    /// The LCS, on rank 0.
    pub lcs: Option<Vec<u8>>,
    pub stats: RankStats,
    pub traffic: Traffic,
}

/// Runs the fill and the traceback of `pair` on this rank, with no memory limit for the
/// layout's choices. Collective.
pub fn run_pair(
    world: &SimpleCommunicator,
    pair: &Pair,
    config: &RunConfig,
) -> (Layout, RankOutcome) {
    let (ranks, rank) = (world.size() as usize, world.rank() as usize);
    let layout = Layout::new(config, pair, ranks, rank, None, 0);
    let outcome = run_layout(world, pair, &layout, config);
    (layout, outcome)
}

/// Runs the fill and the traceback of `pair` on this rank as `layout` says. Collective.
fn run_layout(
    world: &SimpleCommunicator,
    pair: &Pair,
    layout: &Layout,
    config: &RunConfig,
) -> RankOutcome {
    let rank = world.rank() as usize;
    let traffic = Traffic::new(rank, world.size() as usize, config.recording);
    match *layout {
        Layout::Diagonal(schedule, store) => {
            let seqs = Seqs::new(&pair.x, &pair.y);
            match store {
                StoreKind::Dense if dense::narrow(&schedule) => {
                    let store = DenseStore::<u16>::new(&schedule, rank);
                    run_diagonal(world, &schedule, &seqs, store, traffic, config)
                }
                StoreKind::Dense => {
                    let store = DenseStore::<u32>::new(&schedule, rank);
                    run_diagonal(world, &schedule, &seqs, store, traffic, config)
                }
                StoreKind::Hash => {
                    let store = HashStore::new(&schedule, rank);
                    run_diagonal(world, &schedule, &seqs, store, traffic, config)
                }
            }
        }
        Layout::Bands(plan, mode) => run_bands(world, &plan, mode, pair, traffic, config),
    }
    .finish(layout, rank)
}

/// A rank's outcome before its cell count and memory are filled in.
struct Ran {
    lcs: Option<Vec<u8>>,
    traffic: Traffic,
    fill: FillTimes,
    seconds_fill: f64,
    seconds_traceback: f64,
    seconds_recompute: f64,
    hops: u64,
}

impl Ran {
    fn finish(self, layout: &Layout, rank: usize) -> RankOutcome {
        let mut stats = RankStats::new(&self.traffic, &HostInfo::here());
        stats.cells = layout.cells(rank);
        stats.hops = self.hops;
        stats.peak_rss_bytes = mem::peak_rss_bytes();
        stats.seconds_fill = self.seconds_fill;
        stats.fill = self.fill;
        stats.seconds_traceback = self.seconds_traceback;
        stats.seconds_recompute = self.seconds_recompute;
        RankOutcome {
            lcs: self.lcs,
            stats,
            traffic: self.traffic,
        }
    }
}

fn run_diagonal<S: Store>(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    seqs: &Seqs<'_>,
    mut store: S,
    mut traffic: Traffic,
    config: &RunConfig,
) -> Ran {
    let rank = world.rank() as usize;
    let started = Instant::now();
    let mut progress = Progress::new(
        config.progress.filter(|_| rank == 0),
        schedule.diagonals(),
        "diagonals",
    );
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
    let outcome = crate::traceback::run(
        world,
        start,
        &mut walker,
        &mut traffic,
        fault,
        config.switches.waiting(),
    );
    let seconds_traceback = started.elapsed().as_secs_f64();
    log::debug!("traceback done in {seconds_traceback:.3} s");
    Ran {
        lcs: outcome.lcs,
        traffic,
        fill,
        seconds_fill,
        seconds_traceback,
        seconds_recompute: 0.0,
        hops: outcome.hops,
    }
}

fn run_bands(
    world: &SimpleCommunicator,
    plan: &BandPlan,
    mode: Checkpoint,
    pair: &Pair,
    mut traffic: Traffic,
    config: &RunConfig,
) -> Ran {
    let rank = world.rank() as usize;
    let started = Instant::now();
    let mut store =
        (rank < plan.active_ranks()).then(|| BandStore::new(plan, rank, &pair.x, &pair.y, mode));
    let mut progress = Progress::new(config.progress.filter(|_| rank == 0), plan.rows(), "rows");
    let fill = crate::pipeline::fill(
        world,
        plan,
        store.as_mut(),
        &mut traffic,
        &mut progress,
        config.switches,
    );
    progress.finish();
    let seconds_fill = started.elapsed().as_secs_f64();
    log::debug!("fill done in {seconds_fill:.3} s");

    let started = Instant::now();
    let (m, n) = (plan.rows(), plan.cols());
    let start = (m > 0).then(|| (plan.active_ranks() - 1, (m - 1, n - 1)));
    let fault = Fault::for_rank(config.switches.fault, Phase::Traceback, rank);
    let outcome = match store.as_mut() {
        Some(store) => {
            let mut walker = BandWalker { store };
            crate::traceback::run(
                world,
                start,
                &mut walker,
                &mut traffic,
                fault,
                config.switches.waiting(),
            )
        }
        None => crate::traceback::run(
            world,
            start,
            &mut Idle,
            &mut traffic,
            fault,
            config.switches.waiting(),
        ),
    };
    let seconds_traceback = started.elapsed().as_secs_f64();
    Ran {
        lcs: outcome.lcs,
        traffic,
        fill,
        seconds_fill,
        seconds_traceback,
        seconds_recompute: store.map_or(0.0, |s| s.recompute_stats().seconds),
        hops: outcome.hops,
    }
}

/// Rank 0 checks the output paths, then reads and validates the input; it broadcasts an
/// ok/error code, the lengths and the sequences. On error every rank returns it; only rank 0's
/// carries the message.
fn share_input(
    world: &SimpleCommunicator,
    opts: &SolveOptions,
    waiting: Waiting,
) -> Result<Pair, Error> {
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
    waiting.broadcast(&root, &mut header[..]);
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
        waiting.broadcast(&root, &mut pair.x[..]);
    }
    if !pair.y.is_empty() {
        waiting.broadcast(&root, &mut pair.y[..]);
    }
    Ok(pair)
}

/// A trace holds one record per boundary cell and a picture or page one box per cell: refuse
/// them for large matrices, on every rank (each knows the lengths), before any work.
fn check_output_limits(
    world: &SimpleCommunicator,
    pair: &Pair,
    opts: &SolveOptions,
) -> Result<(), Error> {
    let (m, n) = (pair.x.len(), pair.y.len());
    let cells = m as u64 * n as u64;
    let side = svg::MAX_PICTURE_CELLS_SIDE;
    let problem = if opts.outputs.trace.is_some() && cells > crate::trace::MAX_TRACE_CELLS {
        format!(
            "--trace is limited to {} cells; this matrix is {m} x {n} = {cells} cells",
            crate::trace::MAX_TRACE_CELLS,
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
fn memory_limit(world: &SimpleCommunicator, opts: &SolveOptions) -> Option<u64> {
    let ranks_on_host = world.split_shared(0).size() as u64;
    opts.memory_limit
        .or_else(|| mem::available_bytes().map(|b| b / ranks_on_host.max(1)))
}

/// Before any allocation: does every rank's `need` fit its `limit` (see `budget`)? Decided
/// over all ranks together; rank 0 words the refusal with `advice`.
fn check_memory(
    world: &SimpleCommunicator,
    waiting: Waiting,
    need: u64,
    limit: Option<u64>,
    advice: impl FnOnce() -> String,
) -> Result<(), Error> {
    if limit.is_none() && world.rank() == 0 {
        log::warn!("no memory limit known on this system: the memory pre-check is off");
    }
    let code = if limit.is_none_or(|l| need <= l) {
        0
    } else {
        EXIT_MEMORY
    };
    let mut worst = 0u8;
    waiting.all_reduce(world, &code, &mut worst, SystemOperation::max());
    match (worst, world.rank()) {
        (0, _) => Ok(()),
        (_, 0) => Err(Error::Memory(advice())),
        (code, _) => Err(Error::Peer(code)),
    }
}

/// The report of a run, from what rank 0 gathered.
fn report(
    run: Provenance,
    opts: &SolveOptions,
    layout: &Layout,
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
    let (store, batch, checkpoint) = match *layout {
        Layout::Diagonal(_, store) => (Some(store), None, None),
        Layout::Bands(plan, mode) => (None, Some(plan.batch()), Some(mode)),
    };
    Report {
        run,
        input: opts.input.path.display().to_string(),
        format: pair.format,
        rows: pair.x.len(),
        cols: pair.y.len(),
        swapped: pair.swapped,
        engine: opts.method.engine(),
        store,
        batch,
        checkpoint,
        ranks: gathered.stats.len(),
        lcs_length: lcs.len(),
        lcs: LcsText::new(lcs),
        messages: PerKind::sum(gathered.stats.iter().map(|s| &s.sent)),
        bytes: PerKind::sum(gathered.stats.iter().map(|s| &s.sent_bytes)),
        predicted: report::Predicted {
            boundary: layout.predicted().total,
        },
        traceback_hops: gathered.stats.iter().map(|s| s.hops).sum(),
        pairs: gathered.pairs.clone(),
        per_rank,
        seconds: Seconds {
            total: seconds_total,
            fill: slowest(|s| s.seconds_fill),
            traceback: slowest(|s| s.seconds_traceback),
            recompute: gathered.stats.iter().map(|s| s.seconds_recompute).sum(),
        },
    }
}

/// Rank 0 writes the files the run was asked for. Pictures need the diagonal `schedule` (the
/// options refuse them for the bands engine).
fn write_outputs(
    opts: &SolveOptions,
    schedule: Option<&Schedule>,
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
        let drawn = outputs.svg.is_some() || outputs.html.is_some();
        if let (true, Some(schedule)) = (drawn, schedule) {
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
