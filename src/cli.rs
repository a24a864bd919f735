//! The command line: argument definitions (clap derive) and what each subcommand runs.
//!
//! Only `solve` initialises MPI; `reference`, `schedule` and `generate` are plain one-process
//! commands, so they work without `mpirun` and without an MPI runtime being started.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use mpi::traits::Communicator;
use serde::Serialize;

use crate::engine::{self, SolveOptions};
use crate::error::{self, Error};
use crate::input;
use crate::report::LcsText;
use crate::schedule::Schedule;
use crate::store::StoreKind;

const EXIT_CODES: &str = "\
Exit status:
  0  success
  1  internal error (a bug, or MPI itself failed)
  2  bad command-line usage
  3  the input file is missing, unreadable or malformed
  4  not enough memory for the chosen store and rank count
  5  an output file could not be written
Under mpirun, a rank that dies ends the whole job; mpirun then exits non-zero.";

/// Longest common subsequence over MPI ranks, with per-cell boundary messages, a distributed
/// traceback, and exact message accounting.
#[derive(Debug, Parser)]
#[command(name = "mpi-lcs", version, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute the LCS over MPI ranks: `mpirun -n P mpi-lcs solve FILE` (or one plain process).
    Solve(SolveArgs),
    /// Compute the LCS in one process with the sequential DP (the oracle; no MPI).
    Reference(ReferenceArgs),
    /// Print which rank owns which cell, the diagonal segments, and the predicted messages.
    Schedule(ScheduleArgs),
    /// Write a reproducible random input file.
    Generate(GenerateArgs),
    /// Plot a CSV of runs: time, boundary messages and speedup against ranks.
    Plot(PlotArgs),
}

/// The input file and its size limit, shared by `solve` and `reference`.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input: two lines (X then Y) or FASTA with exactly two records.
    pub file: PathBuf,
    /// Refuse input files larger than this (e.g. 64M, 2G).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    pub max_input: u64,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Where each rank keeps its cells.
    #[arg(long, value_enum, default_value_t = StoreKind::Dense)]
    pub store: StoreKind,
    /// Write the full report as JSON to this file (atomically).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Per-rank memory limit for the pre-check (default: what the host offers, shared among
    /// its ranks; also MPI_LCS_MEMORY_LIMIT).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory_limit: Option<u64>,
    /// Append one row per run to this CSV file (header written when the file is new; safe
    /// for concurrent runs).
    #[arg(long, value_name = "PATH")]
    pub append_csv: Option<PathBuf>,
    /// Write one CSV line per message (phase, diagonal, from, to, i, j, bytes), sorted by
    /// phase, diagonal and sender; up to 1,000,000 cells.
    #[arg(long, value_name = "PATH")]
    pub trace: Option<PathBuf>,
    /// Draw the run as SVG: ownership, cell values, one arrow per boundary message, the
    /// traceback path and its hops (matrices up to 64 x 64).
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// Never show the progress bar (it only appears on a terminal, after a second).
    #[arg(long)]
    pub no_progress: bool,
}

#[derive(Debug, Args)]
pub struct ReferenceArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Write rows, cols, swapped, lcs_length, lcs (or lcs_hex) and seconds as JSON.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Append one row to this CSV file, with the columns of `solve --append-csv` (store
    /// `reference`, 1 rank, no messages): the sequential row of an experiment.
    #[arg(long, value_name = "PATH")]
    pub append_csv: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ScheduleArgs {
    /// Rows of the matrix (the shorter sequence's length).
    #[arg(long)]
    pub rows: usize,
    /// Columns of the matrix (the longer sequence's length).
    #[arg(long)]
    pub cols: usize,
    /// Number of MPI ranks.
    #[arg(long, default_value_t = 2)]
    pub ranks: usize,
    /// Also draw the grid, coloured by rank, with an arrow for every predicted boundary
    /// message (up to 64 x 64).
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct PlotArgs {
    /// A CSV of runs, as `solve --append-csv` and scripts/experiment write it.
    pub csv: PathBuf,
    /// Directory for the plots (time, messages and speedup against ranks, as SVG).
    #[arg(long, default_value = "results")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Length of the first sequence.
    #[arg(long)]
    pub len: usize,
    /// Length of the second sequence (default: the same as --len).
    #[arg(long)]
    pub len2: Option<usize>,
    /// The bytes to draw from.
    #[arg(long, default_value = "ACGT")]
    pub alphabet: String,
    /// Seed: the same seed gives the same file, byte for byte.
    #[arg(long)]
    pub seed: u64,
    /// Output file.
    #[arg(short, long)]
    pub output: PathBuf,
}

fn parse_size(text: &str) -> Result<u64, String> {
    crate::mem::parse_size(text)
}

/// Runs the parsed command line and maps the outcome to an exit status.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Solve(args) => return solve(args),
        Command::Reference(args) => reference(args),
        Command::Schedule(args) => schedule(args),
        Command::Generate(args) => generate(args),
        Command::Plot(args) => plot(args),
    };
    finish(result)
}

/// Prints an error once, as `mpi-lcs: error: …`, and returns its exit status.
fn finish(result: Result<(), Error>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Peer(code)) => ExitCode::from(code),
        Err(e) => {
            eprintln!("mpi-lcs: error: {e:#}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn init_logging(rank: Option<i32>) {
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    builder.format(move |buf, record| match rank {
        Some(r) => writeln!(buf, "[rank {r} {}] {}", record.level(), record.args()),
        None => writeln!(buf, "[{}] {}", record.level(), record.args()),
    });
    let _ = builder.try_init();
}

fn solve(args: SolveArgs) -> ExitCode {
    let Some(universe) = mpi::initialize() else {
        return finish(Err(Error::Internal(anyhow::anyhow!(
            "MPI was already initialised"
        ))));
    };
    let world = universe.world();
    init_logging(Some(world.rank()));
    install_abort_on_panic();
    let opts = SolveOptions {
        input: args.input.file,
        store: args.store,
        json: args.json,
        memory_limit: args.memory_limit,
        max_input_bytes: args.input.max_input,
        append_csv: args.append_csv,
        trace: args.trace,
        svg: args.svg,
        progress: !args.no_progress,
    };
    let result = engine::solve(&world, &opts).map(|report| {
        if let Some(report) = report {
            print!("{}", report.summary());
        }
    });
    let code = finish(result);
    // Dropping the universe finalises MPI on every rank before the process exits.
    drop(universe);
    code
}

/// A panic on one rank must not leave the others blocked in a receive: print it, then abort
/// the whole job.
fn install_abort_on_panic() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        unsafe {
            mpi::ffi::MPI_Abort(mpi::ffi::RSMPI_COMM_WORLD, error::EXIT_INTERNAL as i32);
        }
    }));
}

/// The JSON `reference --json` writes: the same key names as `solve --json`.
#[derive(Debug, Serialize)]
struct ReferenceReport {
    input: String,
    rows: usize,
    cols: usize,
    swapped: bool,
    lcs_length: usize,
    #[serde(flatten)]
    lcs: LcsText,
    seconds: f64,
    peak_rss_bytes: u64,
}

fn reference(args: ReferenceArgs) -> Result<(), Error> {
    init_logging(None);
    for path in [&args.json, &args.append_csv].into_iter().flatten() {
        crate::report::check_writable(path)?;
    }
    let provenance = crate::report::Provenance::now(1);
    let started = std::time::Instant::now();
    let pair = input::read_pair(&args.input.file, args.input.max_input)?;
    let lcs = crate::reference::lcs(&pair.x, &pair.y);
    let report = ReferenceReport {
        input: args.input.file.display().to_string(),
        rows: pair.x.len(),
        cols: pair.y.len(),
        swapped: pair.swapped,
        lcs_length: lcs.length,
        lcs: LcsText::new(&lcs.lcs),
        seconds: started.elapsed().as_secs_f64(),
        peak_rss_bytes: crate::mem::peak_rss_bytes(),
    };
    println!("LCS length: {}", report.lcs_length);
    println!("LCS: {}", report.lcs.display());
    println!(
        "matrix: {} rows x {} cols{}, sequential reference, {:.6} s",
        report.rows,
        report.cols,
        if report.swapped {
            " (sequences swapped)"
        } else {
            ""
        },
        report.seconds
    );
    if let Some(path) = &args.json {
        crate::report::write_json_atomic(path, &report)?;
    }
    if let Some(path) = &args.append_csv {
        let row = crate::report::Report::sequential(
            provenance,
            report.input,
            (report.rows, report.cols, report.swapped),
            &lcs.lcs,
            report.seconds,
        );
        crate::report::append_csv(path, &row.csv_columns())?;
    }
    Ok(())
}

fn schedule(args: ScheduleArgs) -> Result<(), Error> {
    if args.ranks == 0 {
        return Err(Error::Usage("--ranks must be at least 1".into()));
    }
    let (m, n) = (args.rows.min(args.cols), args.rows.max(args.cols));
    if m == 0 {
        return Err(Error::Usage("--rows and --cols must be at least 1".into()));
    }
    if args.rows > args.cols {
        println!("(rows are the shorter sequence: showing {m} rows x {n} cols)");
    }
    let schedule = Schedule::new(m, n, args.ranks);
    if let Some(path) = &args.svg {
        let messages = crate::render::svg::predicted_messages(&schedule);
        let picture = crate::render::svg::Picture::of_schedule(
            &schedule,
            &messages,
            format!("{m} x {n} matrix on {} ranks", args.ranks),
            vec![format!("predicted boundary messages: {}", messages.len())],
        );
        crate::render::svg::write_svg(path, &picture)?;
    }
    print!("{}", crate::render::schedule_text(&schedule));
    Ok(())
}

fn plot(args: PlotArgs) -> Result<(), Error> {
    for path in crate::plot::plot_runs(&args.csv, &args.out)? {
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn generate(args: GenerateArgs) -> Result<(), Error> {
    if args.alphabet.is_empty() {
        return Err(Error::Usage("--alphabet must not be empty".into()));
    }
    if args.alphabet.contains('\n') {
        return Err(Error::Usage("--alphabet must not contain a newline".into()));
    }
    let len2 = args.len2.unwrap_or(args.len);
    let (x, y) =
        crate::generate::generate_pair(args.len, len2, args.alphabet.as_bytes(), args.seed);
    crate::generate::write_pair(&args.output, &x, &y).map_err(|source| Error::Output {
        path: args.output.clone(),
        source,
    })
}
