//! What each subcommand does with its validated options, and how its outcome becomes one
//! message and an exit status.
//!
//! Only `solve`, `search`, `pairs` and `self-test` start MPI, and only under a launcher: started on
//! their own they run as one rank without MPI ([`World::Alone`]), as `reference`, `schedule`,
//! `generate`, `plot` and `table` always do. Every command
//! checks its output paths before it reads or computes anything, writes its files before it
//! prints, and treats a reader of standard output that goes away (`| head`) as the end of the
//! output, not as an error.

mod pairs;
mod search;
mod selftest;
mod solve;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser;
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives};

use crate::cli::{Cli, Command, Sequential};
use crate::comm::fault::FAULT_ENV;
use crate::comm::waiting::Waiting;
use crate::comm::world::World;
use crate::engines::config::Method;
use crate::engines::diagonal::schedule::Schedule;
use crate::error::{self, Error};
use crate::export;
use crate::launch::Launch;
use crate::options::{
    Env, GenerateOptions, PairsOptions, PlotOptions, ReferenceOptions, ScheduleOptions,
    SearchOptions, SelfTestOptions, SolveOptions, TableOptions, DEFAULT_BATCH,
};
use crate::provenance::{HostInfo, Provenance};
use crate::report::row::Row;
use crate::report::{Report, SequentialRun};
use lcs_core::bitpar;
use lcs_core::problem::Problem;

/// The whole program: parse, validate, run, exit.
pub fn main() -> ExitCode {
    // Under a launcher every process parses the same command line: only rank 0 (or a process
    // whose rank is unknown) says what is wrong with it. The rank is the launcher's, read with
    // the linked library's variables first (`launch`); the library can say which it is before
    // MPI starts.
    let library = mpi_library();
    let launch = Launch::from_env(&library);
    let speaks = launch.rank.is_none_or(|r| r == 0);
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            return together(&launch, || {
                if speaks {
                    let _ = e.print();
                }
                ExitCode::from(e.exit_code().clamp(0, 255) as u8)
            })
        }
    };
    let env = match Env::read(&library) {
        Ok(env) => env,
        Err(e) => return together(&launch, || finish(Err(e), speaks)),
    };
    match cli.command {
        Command::Solve(args) => with_world(&env, |world, env| {
            let opts = SolveOptions::new(args, env, &library)?;
            match solve::run(world, &opts)? {
                Some(report) if opts.outputs.output.is_none() => print(&report.summary()),
                _ => Ok(()),
            }
        }),
        Command::Search(args) => with_world(&env, |world, env| {
            let opts = SearchOptions::new(args, env, &library);
            match search::run(world, &opts)? {
                Some(report) if opts.out.is_some() => print(&report.summary()),
                _ => Ok(()),
            }
        }),
        Command::Pairs(args) => with_world(&env, |world, env| {
            let opts = PairsOptions::new(args, env, &library)?;
            match pairs::run(world, &opts)? {
                Some(report) if opts.out.is_some() => print(&report.summary()),
                _ => Ok(()),
            }
        }),
        Command::SelfTest(args) => with_world(&env, |world, env| {
            selftest::run(world, &SelfTestOptions::new(args, env)?)
        }),
        Command::Reference(args) => finish(
            reference(ReferenceOptions::new(args, &env, &library)),
            speaks,
        ),
        Command::Schedule(args) => finish(ScheduleOptions::new(args).and_then(schedule), speaks),
        Command::Generate(args) => finish(GenerateOptions::new(args).and_then(generate), speaks),
        Command::Plot(args) => finish(plot(PlotOptions::new(args)), speaks),
        Command::Table(args) => finish(table(TableOptions::new(args)), speaks),
    }
}

/// Says what is wrong (`say`), and under a launcher leaves only once every process of the job
/// has said it: a launcher may end the whole job as soon as one process exits non-zero (Open
/// MPI's at once with `odls_base_sigkill_timeout 0`), which could end rank 0 before its message
/// is out. A process on its own just says it.
fn together(launch: &Launch, say: impl FnOnce() -> ExitCode) -> ExitCode {
    if !launch.launched {
        return say();
    }
    let universe = mpi::initialize();
    let code = say();
    if let Some(universe) = &universe {
        universe.world().barrier();
    }
    code
}

/// Prints an error once, as `mpi-lcs: error: …` (when this process `speaks`), and returns
/// the exit status.
fn finish(result: Result<(), Error>, speaks: bool) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Peer(code)) => ExitCode::from(code),
        Err(e) => {
            if speaks {
                error::say(&format!("mpi-lcs: error: {e:#}"));
            }
            ExitCode::from(e.exit_code())
        }
    }
}

/// The MPI library the binary is linked with, as its own description begins: `Open MPI
/// v4.1.4`, `MPICH Version: 4.0.2`.
fn mpi_library() -> String {
    let text = mpi::environment::library_version().unwrap_or_default();
    // The C string's terminating NUL may be part of the text.
    let first = text
        .trim_end_matches('\0')
        .lines()
        .next()
        .unwrap_or_default();
    let name = first.split(", ").next().unwrap_or_default();
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        "unknown".to_owned()
    } else {
        name
    }
}

/// How long the silent processes of a mismatched launch wait before they exit.
const MISMATCH_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Runs `body` on the run's ranks: under a launcher with MPI started (see [`with_mpi`]), else as
/// one process without MPI, whose start-up would take longer than a small input's whole run.
fn with_world(env: &Env, body: impl FnOnce(&World, &Env) -> Result<(), Error>) -> ExitCode {
    if env.launch.launched {
        return with_mpi(env, body);
    }
    init_logging(Some(0));
    exit_on_panic();
    let world = World::Alone;
    finish(
        check_fault(&world, env).and_then(|()| body(&world, env)),
        true,
    )
}

/// Runs `body` with MPI started and, in the environment it is given, the way ranks wait for
/// messages chosen (see `waiting`); errors are printed by rank 0 only. Dropping the universe
/// finalises MPI on every rank before the process exits.
///
/// A binary linked with one MPI library and started by another's launcher runs as that many
/// separate one-process worlds, each computing the whole answer and reporting one rank: every
/// process stops at once with [`Error::Mismatch`] instead (the launcher's rank 0 says why).
fn with_mpi(env: &Env, body: impl FnOnce(&World, &Env) -> Result<(), Error>) -> ExitCode {
    let launch = &env.launch;
    let Some(universe) = mpi::initialize() else {
        return finish(
            Err(anyhow::anyhow!("MPI was already initialised").into()),
            true,
        );
    };
    let communicator = universe.world();
    let world = World::Mpi(&communicator);
    init_logging(Some(world.rank()));
    abort_on_panic();
    let size = world.size() as usize;
    let mut env = env.clone();
    let result = match (launch.size, launch.size_from) {
        (Some(launched), Some(variable)) if launched != size => Err(Error::Mismatch {
            launched,
            variable,
            world: size,
            library: mpi_library(),
        }),
        _ => {
            env.switches.waiting = Some(Waiting::for_world(&communicator, env.switches.waiting));
            check_fault(&world, &env).and_then(|()| body(&world, &env))
        }
    };
    let mismatch = matches!(result, Err(Error::Mismatch { .. }));
    let speaks = if mismatch {
        // Every process is rank 0 of its own world: let the launcher's rank 0 speak.
        launch.rank.is_none_or(|r| r == 0)
    } else {
        world.rank() == 0
    };
    let code = finish(result, speaks);
    if mismatch && !speaks {
        // These worlds cannot wait for one another: the silent ones leave a moment later, so
        // that a launcher ending the job at the first non-zero exit does not end the launcher's
        // rank 0 before its message is out (it did, in about 1 run in 4 on 8 ranks).
        std::thread::sleep(MISMATCH_GRACE);
    }
    // Rank 0 may still be writing its files: the others wait for it here, not in MPI's
    // finalisation.
    env.switches.waiting().barrier(&world);
    drop(universe);
    code
}

/// A planted fault must name a rank of this run, which is known only now. Each rank checks
/// the fault its own environment plants, and the ranks decide together: every rank leaves with
/// exit 2 and rank 0 says why.
fn check_fault(world: &World, env: &Env) -> Result<(), Error> {
    let problem = env
        .switches
        .fault
        .map_or(Ok(()), |f| f.check_ranks(world.size() as usize));
    let code = if problem.is_ok() {
        0
    } else {
        error::EXIT_USAGE
    };
    let mut worst = 0u8;
    let waiting = env.switches.waiting();
    waiting.all_reduce(world, &code, &mut worst, SystemOperation::max());
    match (worst, problem, world.rank()) {
        (0, _, _) => Ok(()),
        (_, Err(problem), 0) => Err(Error::Usage(problem)),
        (_, Ok(()), 0) => Err(Error::Usage(format!(
            "{FAULT_ENV} names a rank this run does not have, on a rank other than 0"
        ))),
        (code, _, _) => Err(Error::Peer(code)),
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

/// A panic in a process alone: print it, then leave with the internal error's status.
fn exit_on_panic() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        std::process::exit(error::EXIT_INTERNAL as i32);
    }));
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
    let read = crate::input::file_read(&opts.input.path);
    export::check_outputs(&opts.outputs.named(), &[read])?;
    let started_at = std::time::SystemTime::now();
    let started = std::time::Instant::now();
    let input = &opts.input;
    let pair = crate::input::read_pair(&input.path, input.max_bytes, input.format)?;
    let seconds_input = started.elapsed().as_secs_f64();
    let problem = opts.problem;
    if opts.length_only {
        return print(&match problem {
            Problem::Lcs => format!("LCS length: {}\n", bitpar::lcs_length(&pair.x, &pair.y)),
            Problem::Edit => format!(
                "edit distance: {}\n",
                bitpar::edit::distance(&pair.x, &pair.y)
            ),
        });
    }
    // Each fill's memory is checked before it is allocated: a diagonal band's bits are a
    // fraction of the whole matrix's.
    let need = std::cell::Cell::new(0);
    let (opts_ref, pair_ref, need_ref) = (&opts, &pair, &need);
    let keeps = |what: String| {
        move |bytes: u64| {
            reference_memory(opts_ref, pair_ref, &what, bytes)
                .map(|n| need_ref.set(need_ref.get().max(n)))
        }
    };
    if opts.engine == Sequential::Wave {
        let bound = lcs_core::wave::bound::upper_bound(problem, (&pair.x, &pair.y));
        let (m, n) = (pair.x.len(), pair.y.len());
        let what = format!(
            "keeps the wave algorithm's steps (two whole, one in {} as a checkpoint; a final \
             cost of at most {bound}) and",
            lcs_core::wave::kept::EVERY
        );
        keeps(what)(lcs_core::wave::align::memory_bytes(problem, m, n, bound))?;
        let began = std::time::Instant::now();
        let aligned = lcs_core::wave::align::align(problem, &pair.x, &pair.y);
        let seconds = began.elapsed().as_secs_f64();
        let how = SequentialRun::Wave {
            cost: aligned.cost,
            bound: aligned.bound,
            bytes: aligned.bytes,
            cells: aligned.work.cells() + aligned.recomputed.cells(),
        };
        let total = started.elapsed().as_secs_f64();
        return reference_outputs(
            &opts,
            &pair,
            &aligned.path,
            (started_at, total, seconds_input, seconds, 0.0),
            (need.get(), &how),
        );
    }
    let bits = match problem {
        Problem::Lcs => "one bit",
        Problem::Edit => "two bits",
    };
    let check = keeps(format!("keeps {bits} per cell of its fill and"));
    let (path, band, fill, traceback) =
        lcs_core::reference::align_banded(problem, &pair.x, &pair.y, opts.band, check)?;
    let Some(path) = path else {
        return Err(Error::Usage(format!(
            "the band of {} diagonals does not prove itself optimal on this input: its answer \
             could be beaten by a path outside it; widen it, or use --band auto",
            band.last().unwrap_or(0)
        )));
    };
    let total = started.elapsed().as_secs_f64();
    let how = SequentialRun::BitParallel(band);
    reference_outputs(
        &opts,
        &pair,
        &path,
        (started_at, total, seconds_input, fill, traceback),
        (need.get(), &how),
    )
}

/// The reference's report and the files it was asked for.
fn reference_outputs(
    opts: &ReferenceOptions,
    pair: &crate::input::Pair,
    path: &lcs_core::problem::Path,
    (started_at, total, input, fill, traceback): (std::time::SystemTime, f64, f64, f64, f64),
    (need, how): (u64, &SequentialRun),
) -> Result<(), Error> {
    let run = Provenance::new(started_at, &opts.run, &[HostInfo::here()]);
    let report = Report::of_reference(
        run,
        opts.input.path.display().to_string(),
        (opts.problem, pair, path),
        (total, input, fill, traceback),
        (need, how),
    );
    if let Some(out) = &opts.outputs.json {
        export::write_json(out, &report)?;
    }
    if let Some(out) = &opts.outputs.paf {
        export::write_atomic(out, &crate::paf::paf_line(pair, path))?;
    }
    if let Some(out) = &opts.outputs.append_csv {
        export::append_row(out, &Row::of(&report))?;
    }
    print(&report.summary())
}

/// The reference holds `store` bytes, as `keeps` says (one bit per cell of its fill, two for
/// the edit distance; or the wave algorithm's steps): refuse before allocating what cannot fit.
fn reference_memory(
    opts: &ReferenceOptions,
    pair: &crate::input::Pair,
    keeps: &str,
    store: u64,
) -> Result<u64, Error> {
    let need = crate::engines::budget::need(crate::mem::peak_rss_bytes(), store);
    let limit = opts.memory_limit.or_else(crate::mem::available_bytes);
    match crate::mem::lowest(limit, crate::mem::address_space_limit()) {
        Some(limit) if need > limit => Err(Error::Memory(format!(
            "not enough memory: the sequential reference for {} x {} {keeps} needs about {}, \
             limit is {}",
            pair.x.len(),
            pair.y.len(),
            crate::mem::human(need),
            crate::mem::human(limit)
        ))),
        _ => Ok(need),
    }
}

/// `schedule`: the text, and the picture and page when asked for. A picture or page too large
/// is refused (exit 2) before any file is written, after the text is printed.
fn schedule(opts: ScheduleOptions) -> Result<(), Error> {
    use crate::render::drawn::svg;
    use crate::render::page::html;
    use crate::render::shown::picture::{predicted_messages, Picture};
    let outputs: Vec<(&'static str, &std::path::Path)> =
        [("--svg", &opts.svg), ("--html", &opts.html)]
            .into_iter()
            .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
            .collect();
    let (m, n) = (opts.rows, opts.cols);
    // The wave engine's split follows the pair's cost, which the sizes do not tell: only a run
    // shows it. `auto` chooses per pair.
    match opts.method {
        Method::Wave { .. } => {
            return Err(Error::Usage(
                "schedule --engine wave: the wave engine's steps and their split follow the \
                 sequences (their cost), not only the sizes; `solve FILE --engine wave --html \
                 PAGE` draws a run's"
                    .into(),
            ))
        }
        Method::Auto { .. } => {
            return Err(Error::Usage(
                "schedule --engine auto: auto chooses the bands or the wave engine per pair; \
                 `schedule --engine bands` shows the bands' schedule, and `solve FILE --engine \
                 wave --html PAGE` draws a wave run"
                    .into(),
            ))
        }
        _ => {}
    }
    export::check_outputs(&outputs, &[])?;
    if let Method::Bands { batch, .. } = opts.method {
        use crate::render::drawn::{bands_picture, bands_to_scale};
        let plan = crate::engines::bands::BandPlan::new(m, n, opts.ranks, batch);
        let pipe = crate::render::shown::pipeline::Pipeline::with_word(&plan, opts.word);
        // Cell by cell, or by bands and batches when cells are too small; beyond what those
        // hold, `--svg` draws the bands to scale, one arrow per message.
        let drawn = bands_picture::refusal(&pipe, false);
        let refusal = match (&opts.svg, &opts.html) {
            (_, Some(_)) if drawn.is_some() => drawn.clone().map(|p| format!("--html: {p}")),
            (Some(_), _) if drawn.is_some() => bands_to_scale::too_large(&plan),
            _ => None,
        };
        if let (Some(path), Some(_), None) = (&opts.svg, &drawn, &refusal) {
            bands_to_scale::write_svg(path, &plan)?;
        }
        if refusal.is_none() && drawn.is_none() {
            let schedule = Schedule::new(m, n, opts.ranks);
            let messages = pipe.messages();
            let mut picture = Picture::of_schedule(
                &schedule,
                &messages,
                format!(
                    "bands: {m} x {n} on {} rank{}, batches of {} rows{}",
                    opts.ranks,
                    if opts.ranks == 1 { "" } else { "s" },
                    batch,
                    if pipe.teaching() {
                        format!(", teaching words of {} columns", pipe.word())
                    } else {
                        String::new()
                    }
                ),
                vec![],
            );
            picture.bands = Some(&pipe);
            picture.swapped = opts.swapped;
            if let Some(path) = &opts.svg {
                svg::write_svg(path, &picture)?;
            }
            if let Some(path) = &opts.html {
                html::write_html(path, &picture, None, DEFAULT_BATCH)?;
            }
        }
        let mut text = crate::render::drawn::text::bands_text(&plan);
        if pipe.teaching() && (opts.svg.is_some() || opts.html.is_some()) {
            text += &format!(
                "(the picture and the page use words of {} columns, for teaching: {} bands, {} \
                 boundary messages)\n",
                pipe.word(),
                pipe.active_ranks(),
                pipe.predicted_messages()
            );
        }
        print(&text)?;
        return refusal.map_or(Ok(()), |problem| Err(Error::Usage(problem)));
    }
    let schedule = Schedule::new(m, n, opts.ranks);
    let bands_draw = || {
        let plan = crate::engines::bands::BandPlan::new(m, n, opts.ranks, DEFAULT_BATCH);
        let pipe = crate::render::shown::pipeline::Pipeline::of_plan(&plan);
        crate::render::drawn::bands_picture::refusal(&pipe, false).is_none()
    };
    let refusal = opts
        .svg
        .as_ref()
        .and_then(|_| svg::too_large(&schedule).map(|p| format!("--svg {p}")))
        .or_else(|| opts.html.as_ref().and_then(|_| html::too_large(m, n)))
        .map(|p| match bands_draw() {
            true => format!("{p}: `schedule --engine bands` draws it"),
            false => p,
        });
    if refusal.is_none() && (opts.svg.is_some() || opts.html.is_some()) {
        let messages = predicted_messages(&schedule);
        let ranks = match opts.ranks {
            1 => "1 rank".to_owned(),
            p => format!("{p} ranks"),
        };
        let mut picture = Picture::of_schedule(
            &schedule,
            &messages,
            format!("{m} x {n} matrix on {ranks}"),
            vec![format!("predicted boundary messages: {}", messages.len())],
        );
        picture.swapped = opts.swapped;
        if let Some(path) = &opts.svg {
            svg::write_svg(path, &picture)?;
        }
        if let Some(path) = &opts.html {
            html::write_html(path, &picture, None, DEFAULT_BATCH)?;
        }
    }
    let mut text = String::new();
    if opts.swapped {
        text += &format!("(rows are the shorter sequence: showing {m} rows x {n} cols)\n");
    }
    text += &crate::render::drawn::text::schedule_text(&schedule);
    print(&text)?;
    match refusal {
        Some(problem) => Err(Error::Usage(problem)),
        None => Ok(()),
    }
}

fn generate(opts: GenerateOptions) -> Result<(), Error> {
    export::check_outputs(&[("--output", &opts.output)], &[])?;
    match opts.mutate {
        Some(rate) => {
            crate::generate::write_mutated(&opts.output, opts.len, rate, &opts.alphabet, opts.seed)
        }
        None => crate::generate::write_generated(
            &opts.output,
            opts.len,
            opts.len2,
            &opts.alphabet,
            opts.seed,
        ),
    }
}

fn plot(opts: PlotOptions) -> Result<(), Error> {
    for csv in &opts.csvs {
        crate::runs::check_present(csv)?;
    }
    export::check_output_dir("--out", &opts.out)?;
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
