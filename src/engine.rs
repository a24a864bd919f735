//! The `solve` run over MPI: input on rank 0, broadcast, memory pre-check, fill, traceback,
//! statistics gathered to rank 0, report.
//!
//! Every failure a user can cause is decided collectively: rank 0 reads and validates the input
//! and broadcasts an ok/error code before any data, and the memory pre-check is reduced over
//! all ranks, so every rank leaves together with the same exit status and only rank 0 prints
//! the message. Anything else that goes wrong on one rank (a panic, a fault) aborts the whole
//! job through `MPI_Abort`, so no rank is ever left blocked in a receive.

use std::path::PathBuf;
use std::time::Instant;

use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

use crate::error::Error;
use crate::input;
use crate::mem;
use crate::report::{
    FillTimes, LcsText, PerKind, PredictedCounts, RankReport, Report, Seconds, Traffic,
};
use crate::schedule::Schedule;
use crate::store::dense::{self, DenseStore};
use crate::store::hash::HashStore;
use crate::store::{Seqs, Store, StoreKind};
use crate::trace::Event;

/// Message tags, one per kind of message (never a diagonal number).
pub mod tag {
    use mpi::Tag;
    /// A boundary value of the fill.
    pub const BOUNDARY: Tag = 1;
    /// A hop of the traceback: next cell and the subsequence found so far.
    pub const TRACE: Tag = 2;
    /// The finished LCS, sent to rank 0.
    pub const RESULT: Tag = 3;
    /// The walk is over.
    pub const DONE: Tag = 4;
}

/// Environment variable holding a per-rank memory limit (same syntax as `--memory-limit`).
pub const MEMORY_LIMIT_ENV: &str = "MPI_LCS_MEMORY_LIMIT";
/// Test-only fault switch, ignored unless set: `fill:RANK:DIAGONAL` or
/// `traceback:RANK:DIAGONAL` makes that rank abort when it reaches that diagonal in that
/// phase; `stall:RANK:DIAGONAL` makes it hang there in the fill (for tests that interrupt a
/// run).
pub const FAULT_ENV: &str = "MPI_LCS_FAULT";

/// What `solve` was asked to do.
#[derive(Debug, Clone)]
pub struct SolveOptions {
    pub input: PathBuf,
    pub store: StoreKind,
    pub json: Option<PathBuf>,
    pub memory_limit: Option<u64>,
    pub max_input_bytes: u64,
    /// Append one CSV row per run to this file.
    pub append_csv: Option<PathBuf>,
    /// Write every message as one CSV line to this file.
    pub trace: Option<PathBuf>,
    /// Draw the run (ownership, values, messages, traceback path) as SVG to this file.
    pub svg: Option<PathBuf>,
    /// Show a progress bar on rank 0 (when its stderr is a terminal and the fill is long).
    pub progress: bool,
}

/// The phases the fault switch can hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Fill,
    Traceback,
}

/// A fault planted by [`FAULT_ENV`] for this rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fault {
    pub diagonal: usize,
    /// Hang instead of aborting.
    pub stall: bool,
}

impl Fault {
    /// The fault planted for `rank` in `phase`, if any.
    pub fn from_env(phase: Phase, rank: usize) -> Option<Fault> {
        let spec = std::env::var(FAULT_ENV).ok()?;
        let mut parts = spec.split(':');
        let (want, stall) = match parts.next()? {
            "fill" => (Phase::Fill, false),
            "stall" => (Phase::Fill, true),
            "traceback" => (Phase::Traceback, false),
            _ => return None,
        };
        let r: usize = parts.next()?.parse().ok()?;
        let diagonal = parts.next()?.parse().ok()?;
        (want == phase && r == rank).then_some(Fault { diagonal, stall })
    }

    /// Ends this process as a crash would, without any MPI shutdown; or, for a stall, hangs
    /// until killed.
    pub fn trigger(self, rank: usize, d: usize) -> ! {
        if self.stall {
            eprintln!("mpi-lcs: rank {rank}: injected stall at diagonal {d} ({FAULT_ENV})");
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
        eprintln!("mpi-lcs: rank {rank}: injected fault at diagonal {d} ({FAULT_ENV})");
        std::process::abort()
    }
}

/// Runs `solve` on this rank. Rank 0 gets the report; other ranks `None`.
pub fn solve(world: &SimpleCommunicator, opts: &SolveOptions) -> Result<Option<Report>, Error> {
    let started = Instant::now();
    let rank = world.rank() as usize;
    let ranks = world.size() as usize;

    let ranks_on_host = world.split_shared(0).size() as usize;
    let provenance = crate::report::Provenance::now(ranks_on_host);
    let pair = share_input(world, opts)?;
    let schedule = Schedule::new(pair.x.len(), pair.y.len(), ranks);
    check_output_limits(world, &schedule, opts)?;
    let estimate = opts.store.estimate_bytes(&schedule, rank);
    check_memory(world, &schedule, opts, estimate, ranks_on_host)?;
    log::info!(
        "{} x {} matrix, {} diagonals, store {}",
        schedule.rows(),
        schedule.cols(),
        schedule.diagonals(),
        opts.store
    );

    let seqs = Seqs::new(&pair.x, &pair.y);
    let traffic = Traffic::new(rank, ranks, opts.trace.is_some() || opts.svg.is_some());
    let mut local = match opts.store {
        StoreKind::Dense if dense::narrow(&schedule) => {
            let store = DenseStore::<u16>::new(&schedule, rank);
            run_rank(world, &schedule, &seqs, store, traffic, opts.progress)
        }
        StoreKind::Dense => {
            let store = DenseStore::<u32>::new(&schedule, rank);
            run_rank(world, &schedule, &seqs, store, traffic, opts.progress)
        }
        StoreKind::Hash => {
            let store = HashStore::new(&schedule, rank);
            run_rank(world, &schedule, &seqs, store, traffic, opts.progress)
        }
    };
    // Rank 0 holds the LCS now: what follows is reporting.
    let seconds_total = started.elapsed().as_secs_f64();
    let per_rank = gather(world, &schedule, &local, estimate);
    let events = local
        .traffic
        .events
        .take()
        .and_then(|events| gather_events(world, &events));
    if rank != 0 {
        return Ok(None);
    }

    let lcs = local.lcs.expect("rank 0 holds the LCS");
    let per_rank = per_rank.expect("rank 0 gathers");
    let (messages, bytes) = Report::totals(&per_rank);
    let predicted = schedule.predicted_messages();
    let pairs = per_rank.iter().map(|r| r.boundary_to.clone()).collect();
    let report = Report {
        run: provenance,
        input: opts.input.display().to_string(),
        rows: schedule.rows(),
        cols: schedule.cols(),
        swapped: pair.swapped,
        ranks,
        store: opts.store.to_string(),
        lcs_length: lcs.len(),
        lcs: LcsText::new(&lcs),
        messages,
        bytes,
        predicted: PredictedCounts {
            boundary: predicted.total,
        },
        traceback_hops: per_rank.iter().map(|r| r.traceback_hops).sum(),
        pairs,
        seconds: Seconds {
            total: seconds_total,
            fill: per_rank.iter().map(|r| r.seconds_fill).fold(0.0, f64::max),
            traceback: per_rank
                .iter()
                .map(|r| r.seconds_traceback)
                .fold(0.0, f64::max),
        },
        per_rank,
    };
    if let Some(path) = &opts.json {
        crate::report::write_json_atomic(path, &report)?;
    }
    if let Some(mut events) = events {
        crate::trace::sort(&mut events);
        if let Some(path) = &opts.trace {
            crate::report::write_atomic(path, crate::trace::to_csv(&events).as_bytes())?;
        }
        if let Some(path) = &opts.svg {
            draw(path, &schedule, &pair, &report, &events)?;
        }
    }
    if let Some(path) = &opts.append_csv {
        crate::report::append_csv(path, &report.csv_columns())?;
    }
    Ok(Some(report))
}

/// Rank 0 reads and validates the input, then broadcasts an ok/error code, the lengths and the
/// sequences. On error every rank returns it; only rank 0's carries the message.
fn share_input(world: &SimpleCommunicator, opts: &SolveOptions) -> Result<input::Pair, Error> {
    let root = world.process_at_rank(0);
    let mut loaded: Result<input::Pair, Error> = Err(Error::Peer(0));
    // [exit code, rows, cols, swapped]
    let mut header = [0u64; 4];
    if world.rank() == 0 {
        loaded = opts
            .json
            .as_deref()
            .map_or(Ok(()), crate::report::check_writable)
            .and_then(|()| {
                input::read_pair(&opts.input, opts.max_input_bytes).map_err(Error::from)
            });
        header = match &loaded {
            Ok(p) => [0, p.x.len() as u64, p.y.len() as u64, p.swapped as u64],
            Err(e) => [e.exit_code() as u64, 0, 0, 0],
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
        Err(_) => input::Pair {
            x: vec![0; header[1] as usize],
            y: vec![0; header[2] as usize],
            swapped: header[3] != 0,
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

/// A trace holds one record per boundary cell and a picture one box per cell: refuse them for
/// large matrices, on every rank, before any work.
fn check_output_limits(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    opts: &SolveOptions,
) -> Result<(), Error> {
    let (m, n) = (schedule.rows(), schedule.cols());
    let side = crate::render::svg::MAX_PICTURE_CELLS_SIDE;
    let problem = if opts.trace.is_some() && schedule.cells() > crate::trace::MAX_TRACE_CELLS {
        format!(
            "--trace is limited to {} cells; this matrix is {m} x {n} = {} cells",
            crate::trace::MAX_TRACE_CELLS,
            schedule.cells()
        )
    } else if opts.svg.is_some() && n > side {
        format!("--svg pictures are limited to {side} x {side} cells; this matrix is {m} x {n}")
    } else {
        return Ok(());
    };
    if world.rank() != 0 {
        return Err(Error::Peer(crate::error::EXIT_USAGE));
    }
    Err(Error::Usage(problem))
}

/// Rank 0 draws the run: values from the sequential DP (the same numbers every rank
/// computed), the boundary messages as they were sent, and the traceback path.
fn draw(
    path: &std::path::Path,
    schedule: &Schedule,
    pair: &input::Pair,
    report: &Report,
    events: &[Event],
) -> Result<(), Error> {
    let table = crate::reference::full_table(&pair.x, &pair.y);
    let walk = crate::reference::walk_path(&pair.x, &pair.y, &table);
    let fills: Vec<Event> = events
        .iter()
        .filter(|e| e.phase == crate::trace::Phase::Fill)
        .copied()
        .collect();
    let picture = crate::render::svg::Picture {
        schedule,
        x: Some(&pair.x),
        y: Some(&pair.y),
        values: Some(&table),
        messages: &fills,
        path: &walk,
        title: format!(
            "LCS of {} x {} on {} ranks: \"{}\" (length {})",
            report.rows,
            report.cols,
            report.ranks,
            report.lcs.display(),
            report.lcs_length
        ),
        legend: vec![
            format!(
                "boundary messages: {} (predicted {})",
                report.messages.boundary, report.predicted.boundary
            ),
            format!("traceback hops: {}", report.traceback_hops),
            format!("control messages: {}", report.messages.control),
        ],
    };
    crate::render::svg::write_svg(path, &picture)
}

/// Gathers every rank's message records to rank 0 (collectives, not counted as messages).
fn gather_events(world: &SimpleCommunicator, events: &[Event]) -> Option<Vec<Event>> {
    let words: Vec<u64> = events.iter().flat_map(|e| e.to_words()).collect();
    let root = world.process_at_rank(0);
    let count = words.len() as Count;
    if world.rank() != 0 {
        root.gather_into(&count);
        root.gather_varcount_into(&words[..]);
        return None;
    }
    let mut counts = vec![0 as Count; world.size() as usize];
    root.gather_into_root(&count, &mut counts[..]);
    let displs: Vec<Count> = counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect();
    let mut all = vec![0u64; counts.iter().sum::<Count>() as usize];
    let mut partition = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
    root.gather_varcount_into_root(&words[..], &mut partition);
    Some(
        all.chunks_exact(crate::trace::WORDS)
            .map(Event::from_words)
            .collect(),
    )
}

/// The per-rank memory limit in force: the user's, else what this host can give divided among
/// the ranks that share it.
fn memory_limit(opts: &SolveOptions, ranks_on_host: usize) -> Result<Option<u64>, Error> {
    if let Some(limit) = opts.memory_limit {
        return Ok(Some(limit));
    }
    if let Ok(text) = std::env::var(MEMORY_LIMIT_ENV) {
        return mem::parse_size(&text)
            .map(Some)
            .map_err(|e| Error::Usage(format!("{MEMORY_LIMIT_ENV}: {e}")));
    }
    Ok(mem::available_bytes().map(|b| b / ranks_on_host.max(1) as u64))
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
    let rank = world.rank() as usize;
    let limit = memory_limit(opts, ranks_on_host);
    let sequences = (schedule.rows() + 2 * schedule.cols()) as u64;
    let need = estimate + sequences;
    let code = match &limit {
        Err(e) => e.exit_code(),
        Ok(Some(l)) if need > *l => crate::error::EXIT_MEMORY,
        Ok(_) => 0,
    };
    let mut worst = 0u8;
    world.all_reduce_into(&code, &mut worst, SystemOperation::max());
    if worst == 0 {
        return Ok(());
    }
    if rank != 0 {
        return Err(Error::Peer(worst));
    }
    let limit = match limit {
        Err(e) => return Err(e),
        Ok(l) => l.unwrap_or(0),
    };
    Err(Error::Memory(memory_advice(schedule, opts.store, limit)))
}

/// The message for a run that will not fit: estimate, limit, and what would fit.
pub fn memory_advice(schedule: &Schedule, store: StoreKind, limit: u64) -> String {
    let per_rank = |s: &Schedule, kind: StoreKind| {
        (0..s.ranks().min(s.rows()).max(1))
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

/// What one rank measured.
struct Local {
    cells: u64,
    traffic: Traffic,
    fill: FillTimes,
    seconds_fill: f64,
    seconds_traceback: f64,
    hops: u64,
    lcs: Option<Vec<u8>>,
}

fn run_rank<S: Store>(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    seqs: &Seqs<'_>,
    mut store: S,
    mut traffic: Traffic,
    progress: bool,
) -> Local {
    let rank = world.rank() as usize;
    let started = Instant::now();
    let mut progress = crate::progress::Progress::new(progress && rank == 0, schedule.diagonals());
    let fill = crate::fill::run(
        world,
        schedule,
        seqs,
        &mut store,
        &mut traffic,
        &mut progress,
    );
    progress.finish();
    let seconds_fill = started.elapsed().as_secs_f64();
    log::debug!("fill done in {seconds_fill:.3} s");
    let started = Instant::now();
    let outcome = crate::traceback::run(world, schedule, seqs, &store, &mut traffic);
    let seconds_traceback = started.elapsed().as_secs_f64();
    log::debug!("traceback done in {seconds_traceback:.3} s");
    Local {
        cells: schedule.rank_cells(rank),
        traffic,
        fill,
        seconds_fill,
        seconds_traceback,
        hops: outcome.hops,
        lcs: outcome.lcs,
    }
}

/// Number of u64 fields each rank sends before its per-target boundary counts.
const COUNTS: usize = 16;
/// Number of f64 fields each rank sends.
const TIMES: usize = 5;

/// Gathers every rank's statistics to rank 0 (collectives, not counted as messages).
fn gather(
    world: &SimpleCommunicator,
    schedule: &Schedule,
    local: &Local,
    estimate: u64,
) -> Option<Vec<RankReport>> {
    let ranks = schedule.ranks();
    let t = &local.traffic;
    let mut counts = vec![
        local.cells,
        t.sent.boundary,
        t.sent.traceback,
        t.sent.control,
        t.sent_bytes.boundary,
        t.sent_bytes.traceback,
        t.sent_bytes.control,
        t.received.boundary,
        t.received.traceback,
        t.received.control,
        t.received_bytes.boundary,
        t.received_bytes.traceback,
        t.received_bytes.control,
        local.hops,
        mem::peak_rss_bytes(),
        estimate,
    ];
    debug_assert_eq!(counts.len(), COUNTS);
    counts.extend_from_slice(&t.boundary_to);
    let times = [
        local.seconds_fill,
        local.fill.compute,
        local.fill.wait_receive,
        local.fill.send,
        local.seconds_traceback,
    ];
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.gather_into(&counts[..]);
        root.gather_into(&times[..]);
        return None;
    }
    let width = COUNTS + ranks;
    let mut all_counts = vec![0u64; width * ranks];
    let mut all_times = vec![0f64; TIMES * ranks];
    root.gather_into_root(&counts[..], &mut all_counts[..]);
    root.gather_into_root(&times[..], &mut all_times[..]);
    let per_kind = |c: &[u64]| PerKind {
        boundary: c[0],
        traceback: c[1],
        control: c[2],
    };
    Some(
        (0..ranks)
            .map(|k| {
                let c = &all_counts[k * width..(k + 1) * width];
                let s = &all_times[k * TIMES..(k + 1) * TIMES];
                RankReport {
                    rank: k,
                    cells: c[0],
                    sent: per_kind(&c[1..4]),
                    sent_bytes: per_kind(&c[4..7]),
                    received: per_kind(&c[7..10]),
                    received_bytes: per_kind(&c[10..13]),
                    traceback_hops: c[13],
                    peak_rss_bytes: c[14],
                    store_bytes_estimate: c[15],
                    boundary_to: c[COUNTS..].to_vec(),
                    seconds_fill: s[0],
                    fill_breakdown: FillTimes {
                        compute: s[1],
                        wait_receive: s[2],
                        send: s[3],
                    },
                    seconds_traceback: s[4],
                }
            })
            .collect(),
    )
}
