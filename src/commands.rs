//! What each subcommand does with its validated options, and how its outcome becomes one
//! message and an exit status.
//!
//! Only `solve` and `self-test` start MPI; `reference`, `schedule`, `generate`, `plot` and
//! `table` are plain one-process commands, so they work without a launcher. Every command
//! checks its output paths before it reads or computes anything, writes its files before it
//! prints, and treats a reader of standard output that goes away (`| head`) as the end of the
//! output, not as an error.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser;
use mpi::topology::SimpleCommunicator;
use mpi::traits::Communicator;

use crate::cli::{Cli, Command};
use crate::error::{self, Error};
use crate::export;
use crate::launch::Launch;
use crate::options::{
    Env, GenerateOptions, PlotOptions, ReferenceOptions, ScheduleOptions, SelfTestOptions,
    SolveOptions, TableOptions,
};
use crate::provenance::{HostInfo, Provenance};
use crate::report::Report;
use crate::schedule::Schedule;

/// The whole program: parse, validate, run, exit.
pub fn main() -> ExitCode {
    // Under a launcher every process parses the same command line: only rank 0 (or a process
    // whose rank is unknown) says what is wrong with it.
    let speaks = Launch::from_env().rank.is_none_or(|r| r == 0);
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if speaks {
                let _ = e.print();
            }
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    let env = match Env::read() {
        Ok(env) => env,
        Err(e) => return finish(Err(e), speaks),
    };
    match cli.command {
        Command::Solve(args) => with_mpi(|world| {
            let opts = SolveOptions::new(args, &env, &mpi_library())?;
            match crate::engine::solve(world, &opts)? {
                Some(report) => print(&report.summary()),
                None => Ok(()),
            }
        }),
        Command::SelfTest(args) => {
            with_mpi(|world| crate::selftest::run(world, &SelfTestOptions::new(args, &env)))
        }
        Command::Reference(args) => finish(
            reference(ReferenceOptions::new(args, &env, &mpi_library())),
            speaks,
        ),
        Command::Schedule(args) => finish(ScheduleOptions::new(args).and_then(schedule), speaks),
        Command::Generate(args) => finish(GenerateOptions::new(args).and_then(generate), speaks),
        Command::Plot(args) => finish(plot(PlotOptions::new(args)), speaks),
        Command::Table(args) => finish(table(TableOptions::new(args)), speaks),
    }
}

/// Prints an error once, as `mpi-lcs: error: …` (when this process `speaks`), and returns
/// the exit status.
fn finish(result: Result<(), Error>, speaks: bool) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Peer(code)) => ExitCode::from(code),
        Err(e) => {
            if speaks {
                eprintln!("mpi-lcs: error: {e:#}");
            }
            ExitCode::from(e.exit_code())
        }
    }
}

/// The first line of the MPI library's own description.
fn mpi_library() -> String {
    mpi::environment::library_version()
        .ok()
        .and_then(|v| {
            v.lines()
                .next()
                // The C string's terminating NUL may be part of the text.
                .map(|l| {
                    l.trim_matches(|c: char| c.is_whitespace() || c == '\0' || c == ',')
                        .to_owned()
                })
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Runs `body` with MPI started; errors are printed by rank 0 only. Dropping the universe
/// finalises MPI on every rank before the process exits.
fn with_mpi(body: impl FnOnce(&SimpleCommunicator) -> Result<(), Error>) -> ExitCode {
    let Some(universe) = mpi::initialize() else {
        return finish(
            Err(anyhow::anyhow!("MPI was already initialised").into()),
            true,
        );
    };
    let world = universe.world();
    init_logging(Some(world.rank()));
    abort_on_panic();
    let result = body(&world);
    let code = finish(result, world.rank() == 0);
    drop(universe);
    code
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

/// A panic on one rank must not leave the others blocked in a receive: print it, then abort
/// the whole job.
fn abort_on_panic() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        SimpleCommunicator::world().abort(error::EXIT_INTERNAL as i32);
    }));
}

/// Writes `text` to standard output. A reader that went away ends the output quietly, as in
/// other Unix tools; any other failure is an error.
fn print(text: &str) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(Error::Stdout),
    }
}

fn reference(opts: ReferenceOptions) -> Result<(), Error> {
    init_logging(None);
    export::check_outputs(&opts.outputs.named(), &[&opts.input.path])?;
    let started_at = std::time::SystemTime::now();
    let started = std::time::Instant::now();
    let input = &opts.input;
    let pair = crate::input::read_pair(&input.path, input.max_bytes, input.format)?;
    let (lcs, fill, traceback) = crate::reference::lcs_timed(&pair.x, &pair.y);
    let total = started.elapsed().as_secs_f64();
    let run = Provenance::new(started_at, &opts.run, &[HostInfo::here()]);
    let report = Report::of_reference(
        run,
        input.path.display().to_string(),
        &pair,
        &lcs.lcs,
        (total, fill, traceback),
    );
    if let Some(path) = &opts.outputs.json {
        export::write_json(path, &report)?;
    }
    if let Some(path) = &opts.outputs.append_csv {
        export::append_row(path, &report.row())?;
    }
    print(&report.summary())
}

fn schedule(opts: ScheduleOptions) -> Result<(), Error> {
    let svg_out: Vec<(&'static str, &std::path::Path)> =
        opts.svg.iter().map(|p| ("--svg", p.as_path())).collect();
    export::check_outputs(&svg_out, &[])?;
    let (m, n) = (opts.rows, opts.cols);
    let schedule = Schedule::new(m, n, opts.ranks);
    if let Some(path) = &opts.svg {
        let messages = crate::render::svg::predicted_messages(&schedule);
        let picture = crate::render::svg::Picture::of_schedule(
            &schedule,
            &messages,
            format!("{m} x {n} matrix on {} ranks", opts.ranks),
            vec![format!("predicted boundary messages: {}", messages.len())],
        );
        crate::render::svg::write_svg(path, &picture)?;
    }
    let mut text = String::new();
    if opts.swapped {
        text += &format!("(rows are the shorter sequence: showing {m} rows x {n} cols)\n");
    }
    text += &crate::render::text::schedule_text(&schedule);
    print(&text)
}

fn generate(opts: GenerateOptions) -> Result<(), Error> {
    export::check_outputs(&[("--output", &opts.output)], &[])?;
    let (x, y) = crate::generate::generate_pair(opts.len, opts.len2, &opts.alphabet, opts.seed);
    crate::generate::write_pair(&opts.output, &x, &y)
}

fn plot(opts: PlotOptions) -> Result<(), Error> {
    let written = crate::plot::plot_runs(&opts.csvs, &opts.out)?;
    let text: String = written
        .iter()
        .map(|p| format!("wrote {}\n", p.display()))
        .collect();
    print(&text)
}

fn table(opts: TableOptions) -> Result<(), Error> {
    if let Some(out) = &opts.out {
        let inputs: Vec<&std::path::Path> = opts.csvs.iter().map(|p| p.as_path()).collect();
        export::check_outputs(&[("--out", out)], &inputs)?;
    }
    let rows = crate::runs::read_result_sets(&opts.csvs)?;
    let markdown = crate::table::markdown(&rows);
    match &opts.out {
        Some(path) => export::write_atomic(path, markdown.as_bytes()),
        None => print(&markdown),
    }
}
