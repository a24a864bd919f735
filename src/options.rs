//! Validated options: one value per subcommand, built once from the command line and the
//! environment, then passed down. This is the only module that reads the environment, so what
//! a run does is visible in one place:
//!
//! - `MPI_LCS_MEMORY_LIMIT` — per-rank memory limit when `--memory-limit` is not given;
//! - `MPI_LCS_FAULT` — a planted fault (tests; see `fault`);
//! - `MPI_LCS_SYNCHRONOUS_SENDS=1` — boundary values sent with synchronous sends (tests: shows
//!   the exchange cannot deadlock);
//! - `MPI_LCS_WAIT=spin|yield` — how ranks wait for messages, instead of the choice made
//!   from the host's ranks and cores (see `waiting`);
//! - `MPI_LCS_SIMD=avx512|avx2|portable` — the search and pairs kernels' compilation,
//!   instead of the best the CPU has (benchmarks and tests);
//! - `MPI_LCS_COMMIT` — the commit recorded in reports (the scripts set it);
//! - `MPI_LCS_LAUNCHER` and the launchers' own variables (see `launch`).

use lcs_core::search::alphabet::Alphabet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::{
    EngineArg, EngineArgs, GenerateArgs, InputArgs, PairsArgs, PlotArgs, ReferenceArgs,
    ScheduleArgs, SearchArgs, SelfTestArgs, Sequential, SolveArgs, TableArgs,
};
use crate::comm::fault::{Fault, FAULT_ENV};
use crate::comm::waiting::Waiting;
use crate::engines::bands::CheckpointChoice;
use crate::engines::config::{Method, Switches};
use crate::engines::device::{DeviceAsk, Placement};
use crate::engines::diagonal::store::StoreKind;
use crate::engines::search::sharing::Split;
use crate::error::Error;
use crate::input::FormatChoice;
use crate::launch::Launch;
use crate::progress::{self, Show};
use crate::provenance::RunInfo;
use lcs_core::diagonal_band::BandChoice;
use lcs_core::problem::Problem;
use lcs_core::search::lanes::Simd;

/// Per-rank memory limit, as `--memory-limit` takes it.
pub const MEMORY_LIMIT_ENV: &str = "MPI_LCS_MEMORY_LIMIT";
/// `1`: boundary values go out with synchronous sends.
pub const SYNCHRONOUS_SENDS_ENV: &str = "MPI_LCS_SYNCHRONOUS_SENDS";
/// `spin`, `yield` or `doze`: how ranks wait for messages (else chosen per host, see `waiting`).
pub const WAIT_ENV: &str = "MPI_LCS_WAIT";
/// The commit recorded in reports.
pub const COMMIT_ENV: &str = "MPI_LCS_COMMIT";
/// `avx512`, `avx2` or `portable`: the search kernel's compilation.
pub const SIMD_ENV: &str = "MPI_LCS_SIMD";
/// The GPU a process takes, by its number among those its backend lists (docs/gpu.md).
pub const GPU_ENV: &str = "MPI_LCS_GPU";

pub use crate::engines::bands::DEFAULT_BATCH;

/// The engine a command line asks for, with its settings, once the flags are checked to
/// belong to it.
pub fn method(args: EngineArgs) -> Result<Method, Error> {
    let usage = |text: &str| Err(Error::Usage(text.to_owned()));
    let bands_settings = |args: &EngineArgs| -> Result<(usize, CheckpointChoice), Error> {
        let batch = args.batch.unwrap_or(DEFAULT_BATCH);
        if batch == 0 {
            return Err(Error::Usage("--batch must be at least 1 row".into()));
        }
        let checkpoint = args.checkpoint.unwrap_or(CheckpointChoice::Auto);
        if checkpoint == CheckpointChoice::Every(0) {
            return Err(Error::Usage(
                "--checkpoint must be at least 1 row (or auto, or full)".into(),
            ));
        }
        Ok((batch, checkpoint))
    };
    match args.engine {
        EngineArg::Diagonal | EngineArg::Bands if args.halo_steps.is_some() => {
            usage("--halo-steps belongs to the wave engine (--engine wave or auto)")
        }
        EngineArg::Diagonal => {
            if args.batch.is_some() || args.checkpoint.is_some() || args.band.is_some() {
                return usage("--batch, --checkpoint and --band belong to --engine bands");
            }
            Ok(Method::Diagonal {
                store: args.store.unwrap_or(StoreKind::Dense),
            })
        }
        EngineArg::Wave => {
            if args.store.is_some()
                || args.batch.is_some()
                || args.checkpoint.is_some()
                || args.band.is_some()
            {
                return usage(
                    "--store, --batch, --checkpoint and --band belong to the diagonal and bands \
                     engines; the wave engine's one setting is --halo-steps",
                );
            }
            Ok(Method::Wave {
                cut_off: None,
                halo: args.halo_steps.unwrap_or_default(),
            })
        }
        EngineArg::Bands | EngineArg::Auto => {
            if args.store.is_some() {
                return usage(
                    "--store belongs to the diagonal engine; the bands engine keeps bits \
                     (see --checkpoint)",
                );
            }
            let (batch, checkpoint) = bands_settings(&args)?;
            let band = args.band.unwrap_or_default();
            Ok(match args.engine {
                EngineArg::Bands => Method::Bands {
                    batch,
                    checkpoint,
                    band,
                },
                _ => Method::Auto {
                    batch,
                    checkpoint,
                    band,
                    halo: args.halo_steps.unwrap_or_default(),
                },
            })
        }
    }
}

/// Everything the environment contributes, read once.
#[derive(Debug, Clone)]
pub struct Env {
    pub memory_limit: Option<u64>,
    pub switches: Switches,
    pub commit: String,
    pub launch: Launch,
    /// The terminal's width (`COLUMNS`, else 100).
    pub columns: u16,
    /// The search kernel's compilation, when chosen.
    pub simd: Option<Simd>,
    /// Where a run spills what its memory cannot keep (`TMPDIR`, else `/tmp`).
    pub temp_dir: PathBuf,
    /// The GPU this process takes, when pinned (`MPI_LCS_GPU`).
    pub gpu: Option<usize>,
}

impl Env {
    /// Reads the process environment, for a binary linked with `mpi_library` (its
    /// description). A variable set to something unusable is a usage error naming it.
    pub fn read(mpi_library: &str) -> Result<Env, Error> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let memory_limit = var(MEMORY_LIMIT_ENV)
            .map(|text| crate::cli::parse_memory_limit(&text))
            .transpose()
            .map_err(|e| Error::Usage(format!("{MEMORY_LIMIT_ENV}: {e}")))?;
        let fault = var(FAULT_ENV)
            .map(|spec| spec.parse::<Fault>())
            .transpose()
            .map_err(|e| Error::Usage(format!("{FAULT_ENV}: {e}")))?;
        let waiting = match var(WAIT_ENV).as_deref() {
            None => None,
            Some("spin") => Some(Waiting::Spin),
            Some("yield") => Some(Waiting::Yield),
            Some("doze") => Some(Waiting::Doze),
            Some(other) => {
                return Err(Error::Usage(format!(
                    "{WAIT_ENV}: '{other}' is not spin, yield or doze"
                )))
            }
        };
        let simd = match var(SIMD_ENV).as_deref() {
            None => None,
            Some("avx512") => Some(Simd::Avx512),
            Some("avx2") => Some(Simd::Avx2),
            Some("portable") => Some(Simd::Portable),
            Some(other) => {
                return Err(Error::Usage(format!(
                    "{SIMD_ENV}: '{other}' is none of avx512, avx2 and portable"
                )))
            }
        };
        let gpu = var(GPU_ENV)
            .map(|v| {
                v.trim().parse::<usize>().map_err(|_| {
                    Error::Usage(format!(
                        "{GPU_ENV}: '{v}' is not a device number (0, 1, ...)"
                    ))
                })
            })
            .transpose()?;
        Ok(Env {
            memory_limit,
            switches: Switches {
                fault,
                synchronous_sends: var(SYNCHRONOUS_SENDS_ENV).as_deref() == Some("1"),
                waiting,
                several_hosts: false,
            },
            commit: var(COMMIT_ENV).unwrap_or_else(|| "unknown".to_owned()),
            launch: Launch::from_env(mpi_library),
            columns: var("COLUMNS").and_then(|c| c.parse().ok()).unwrap_or(100),
            simd,
            temp_dir: std::env::temp_dir(),
            gpu,
        })
    }

    fn run_info(&self, mpi_library: &str) -> RunInfo {
        RunInfo {
            commit: self.commit.clone(),
            launcher: self.launch.name.clone(),
            mpi_library: mpi_library.to_owned(),
        }
    }
}

/// The input file of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputOptions {
    pub path: PathBuf,
    pub max_bytes: u64,
    pub format: FormatChoice,
}

impl InputOptions {
    fn new(args: InputArgs) -> InputOptions {
        InputOptions {
            path: args.file,
            max_bytes: args.max_input,
            format: args.format,
        }
    }
}

/// The files a run writes, by the flag that names them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outputs {
    /// The summary, instead of standard output.
    pub output: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub paf: Option<PathBuf>,
    pub append_csv: Option<PathBuf>,
    pub trace: Option<PathBuf>,
    pub svg: Option<PathBuf>,
    pub html: Option<PathBuf>,
}

/// `(flag, path)` for every output asked for, of `outputs`: each output's flag, and its path
/// when it was asked for.
pub fn named<'a, const N: usize>(
    outputs: [(&'static str, &'a Option<PathBuf>); N],
) -> Vec<(&'static str, &'a Path)> {
    outputs
        .into_iter()
        .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
        .collect()
}

impl Outputs {
    /// `(flag, path)` for every output asked for.
    pub fn named(&self) -> Vec<(&'static str, &Path)> {
        named([
            ("--output", &self.output),
            ("--json", &self.json),
            ("--paf", &self.paf),
            ("--append-csv", &self.append_csv),
            ("--trace", &self.trace),
            ("--svg", &self.svg),
            ("--html", &self.html),
        ])
    }

    /// Whether the run must be recorded message by message.
    pub fn recording(&self) -> bool {
        self.trace.is_some() || self.svg.is_some() || self.html.is_some()
    }
}

/// The files a search or a pairs run writes, by the flag that names them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResultOutputs {
    /// The matches' or the pairs' file (a TSV, or a pairs run's .npy matrix), instead of
    /// standard output.
    pub out: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub append_csv: Option<PathBuf>,
}

impl ResultOutputs {
    /// `(flag, path)` for every output asked for.
    pub fn named(&self) -> Vec<(&'static str, &Path)> {
        named([
            ("--out", &self.out),
            ("--json", &self.json),
            ("--append-csv", &self.append_csv),
        ])
    }
}

/// The progress bar on rank 0 (`solve`'s and `pairs`'): after a second when its stderr reaches
/// a terminal, at once when `asked` (`--progress`); never when `never` (`--no-progress`).
fn progress_bar(asked: bool, never: bool, env: &Env) -> Option<Show> {
    if asked {
        Some(Show {
            width: env.columns,
            after: Duration::ZERO,
        })
    } else {
        (!never && env.launch.stderr_reaches_terminal()).then_some(Show {
            width: env.columns,
            after: progress::DELAY,
        })
    }
}

/// `solve`.
#[derive(Debug, Clone)]
pub struct SolveOptions {
    pub input: InputOptions,
    pub problem: Problem,
    pub method: Method,
    pub outputs: Outputs,
    /// The user's per-rank limit, if any (else the host's memory decides).
    pub memory_limit: Option<u64>,
    /// Show a progress bar on rank 0: after a second when its stderr reaches a terminal, at
    /// once with `--progress`; never with `--no-progress`.
    pub progress: Option<Show>,
    /// Print no notes (`--quiet`).
    pub quiet: bool,
    pub switches: Switches,
    pub run: RunInfo,
    pub launch: Launch,
    /// Where the bands engine computes (`--device`).
    pub device: DeviceAsk,
    /// The length alone, with no walk (`--length-only`).
    pub length_only: bool,
    /// What rank 0 says before a fill on a device: why `--engine auto` took the bands engine.
    pub device_note: Option<String>,
}

impl SolveOptions {
    pub fn new(args: SolveArgs, env: &Env, mpi_library: &str) -> Result<SolveOptions, Error> {
        let device = args.device.ask(env.gpu);
        let on = match args.length_only {
            true => Some(length_only(&args.engine, device.placement)?),
            false => on_device(&args, device.placement)?,
        };
        let length_only = args.length_only;
        let device_note = (on.is_some() && !length_only && args.engine.engine == EngineArg::Auto)
            .then(|| {
                format!(
                    "--engine auto with --device {}: the bands engine, the one engine that \
                     computes on a device (the wave engine runs on the CPU only)",
                    device.placement
                )
            });
        let method = match on {
            Some(method) => method,
            None => method(args.engine)?,
        };
        Ok(SolveOptions {
            problem: args.input.problem,
            input: InputOptions::new(args.input),
            method,
            outputs: Outputs {
                output: args.output,
                json: args.report.json,
                paf: args.alignment.paf,
                append_csv: args.append_csv,
                trace: args.trace,
                svg: args.svg,
                html: args.html,
            },
            memory_limit: args.rank_memory.memory_limit.or(env.memory_limit),
            progress: progress_bar(args.progress, args.no_progress, env),
            quiet: args.quiet,
            switches: env.switches,
            run: env.run_info(mpi_library),
            launch: env.launch.clone(),
            device,
            length_only,
            device_note,
        })
    }
}

/// Rows per batch of the bands engine on a device when `--batch` is not given. A device takes
/// a batch of a band between neighbours in one pass, whose launches hold at most one tile per
/// group of 64 of its rows at a time: 2,048 here, about what a GPU needs to be kept busy, for
/// a pipeline that starts `P - 1` batches late (the only band of a run takes all its rows in
/// one pass whatever the batch; `docs/gpu.md`).
pub const DEFAULT_DEVICE_BATCH: usize = 131_072;

/// `solve --device gpu` (or `auto`): the bands engine's method on the whole matrix with
/// checkpoints, in batches of whole groups of 64 rows (`None` for the CPU engines); what a
/// device does not compute is refused.
fn on_device(args: &SolveArgs, placement: Placement) -> Result<Option<Method>, Error> {
    if placement == Placement::Cpu {
        return Ok(None);
    }
    let flag = match placement {
        Placement::Gpu => "--device gpu",
        _ => "--device auto",
    };
    let usage = |text: String| Err(Error::Usage(text));
    let engine = &args.engine;
    match engine.engine {
        EngineArg::Diagonal | EngineArg::Wave => {
            return usage(format!(
                "{flag} computes with the bands engine: run with --engine bands (or auto); the \
                 diagonal and wave engines run on the CPU"
            ))
        }
        EngineArg::Bands | EngineArg::Auto => {}
    }
    if engine.store.is_some() || engine.halo_steps.is_some() {
        return usage(format!(
            "{flag} computes with the bands engine: --store and --halo-steps belong to the \
             diagonal and wave engines"
        ));
    }
    if let Some(band) = engine.band.filter(|&b| b != BandChoice::Off) {
        return usage(format!(
            "{flag} computes the whole matrix: --band {band} runs on the CPU engines (leave \
             --band out, or give --band off)"
        ));
    }
    if engine.checkpoint == Some(CheckpointChoice::Full) {
        return usage(format!(
            "{flag} keeps checkpoints for the walk, never every bit: --checkpoint full runs on \
             the CPU engines (use auto, or K rows)"
        ));
    }
    if engine.checkpoint == Some(CheckpointChoice::Every(0)) {
        return usage("--checkpoint must be at least 1 row (or auto, or full)".into());
    }
    let batch = engine.batch.unwrap_or(DEFAULT_DEVICE_BATCH);
    if batch == 0 || !batch.is_multiple_of(64) {
        return usage(format!(
            "{flag} takes batches of whole groups of 64 rows: --batch {batch} is not a \
             multiple of 64"
        ));
    }
    Ok(Some(Method::Bands {
        batch,
        checkpoint: engine.checkpoint.unwrap_or(CheckpointChoice::Auto),
        band: BandChoice::Off,
    }))
}

/// `solve --length-only`: the bands engine's pipeline with `--batch`, on the CPU or a device
/// (whose batches are whole groups of 64 rows); the settings of a traceback are refused.
fn length_only(engine: &EngineArgs, placement: Placement) -> Result<Method, Error> {
    let kept = engine.store.is_some()
        || engine.checkpoint.is_some()
        || engine.halo_steps.is_some()
        || engine.band.is_some_and(|b| b != BandChoice::Off);
    if kept {
        return Err(Error::Usage(
            "--length-only keeps no traceback and fills the whole matrix: --store, \
             --checkpoint, --band and --halo-steps do not apply"
                .into(),
        ));
    }
    let on_device = placement != Placement::Cpu;
    let batch = engine.batch.unwrap_or(match on_device {
        true => DEFAULT_DEVICE_BATCH,
        false => DEFAULT_BATCH,
    });
    if batch == 0 || (on_device && !batch.is_multiple_of(64)) {
        return Err(Error::Usage(format!(
            "--length-only takes batches of at least 1 row (on a device, whole groups of 64 \
             rows): --batch {batch}"
        )));
    }
    Ok(Method::Bands {
        batch,
        checkpoint: CheckpointChoice::Auto,
        band: BandChoice::Off,
    })
}

/// `search`.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub patterns: PathBuf,
    pub text: PathBuf,
    /// Largest patterns file read.
    pub max_input: u64,
    pub k: usize,
    pub allow_all: bool,
    /// Search each pattern's reverse complement too (`--both-strands`).
    pub both_strands: bool,
    /// When a pattern byte matches a text byte (`--alphabet`).
    pub alphabet: Alphabet,
    /// How the ranks split a plain text (`--split`).
    pub split: Split,
    pub outputs: ResultOutputs,
    pub memory_limit: Option<u64>,
    pub simd: Option<Simd>,
    pub device: DeviceAsk,
    /// Print no notes (`--quiet`).
    pub quiet: bool,
    pub switches: Switches,
    pub run: RunInfo,
}

impl SearchOptions {
    pub fn new(args: SearchArgs, env: &Env, mpi_library: &str) -> SearchOptions {
        SearchOptions {
            patterns: args.patterns,
            text: args.text,
            max_input: args.max_input,
            k: args.max_edits,
            allow_all: args.allow_all,
            both_strands: args.both_strands,
            alphabet: args.alphabet,
            split: args.split,
            outputs: ResultOutputs {
                out: args.out,
                json: args.report.json,
                append_csv: args.append_csv,
            },
            memory_limit: args.rank_memory.memory_limit.or(env.memory_limit),
            simd: env.simd,
            device: args.device.ask(env.gpu),
            quiet: args.quiet,
            switches: env.switches,
            run: env.run_info(mpi_library),
        }
    }
}

/// `pairs`.
#[derive(Debug, Clone)]
pub struct PairsOptions {
    pub queries: PathBuf,
    pub targets: Option<PathBuf>,
    pub max_input: u64,
    pub problem: Problem,
    /// `--max-edits` (edit distance) or `--min-length` (LCS).
    pub bound: Option<usize>,
    pub outputs: ResultOutputs,
    pub memory_limit: Option<u64>,
    /// Where each rank spills the pairs within a bound its memory cannot keep.
    pub spill_dir: PathBuf,
    pub simd: Option<Simd>,
    pub device: DeviceAsk,
    /// Show a progress bar on rank 0 (as `solve`'s).
    pub progress: Option<Show>,
    pub quiet: bool,
    pub switches: Switches,
    pub run: RunInfo,
}

impl PairsOptions {
    pub fn new(args: PairsArgs, env: &Env, mpi_library: &str) -> Result<PairsOptions, Error> {
        let bound =
            match (args.problem, args.max_edits, args.min_length) {
                (Problem::Lcs, Some(_), _) => {
                    return Err(Error::Usage(
                        "--max-edits belongs to --problem edit; the LCS takes --min-length".into(),
                    ))
                }
                (Problem::Edit, _, Some(_)) => return Err(Error::Usage(
                    "--min-length belongs to --problem lcs; the edit distance takes --max-edits"
                        .into(),
                )),
                (Problem::Edit, k, None) => k,
                (Problem::Lcs, None, l) => l,
            };
        if bound.is_some_and(|b| b >= u32::MAX as usize) {
            return Err(Error::Usage(format!(
                "a bound of {} is beyond any value a pair can have",
                bound.unwrap_or(0)
            )));
        }
        Ok(PairsOptions {
            queries: args.queries,
            targets: args.targets,
            max_input: args.max_input,
            problem: args.problem,
            bound,
            outputs: ResultOutputs {
                out: args.out,
                json: args.report.json,
                append_csv: args.append_csv,
            },
            memory_limit: args.rank_memory.memory_limit.or(env.memory_limit),
            spill_dir: env.temp_dir.clone(),
            simd: env.simd,
            device: args.device.ask(env.gpu),
            progress: progress_bar(args.progress, args.no_progress, env),
            quiet: args.quiet,
            switches: env.switches,
            run: env.run_info(mpi_library),
        })
    }

    /// Whether `--out` names a .npy file (the dense matrix).
    pub fn npy(&self) -> bool {
        (self.outputs.out.as_ref())
            .is_some_and(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("npy")))
    }
}

/// `reference`.
#[derive(Debug, Clone)]
pub struct ReferenceOptions {
    pub input: InputOptions,
    pub problem: Problem,
    /// Count the length (or the distance) only.
    pub length_only: bool,
    pub outputs: Outputs,
    pub memory_limit: Option<u64>,
    pub run: RunInfo,
    /// The diagonal band (`--band`; off unless asked).
    pub band: BandChoice,
    /// The algorithm (`--engine`).
    pub engine: Sequential,
}

impl ReferenceOptions {
    pub fn new(args: ReferenceArgs, env: &Env, mpi_library: &str) -> ReferenceOptions {
        ReferenceOptions {
            problem: args.input.problem,
            input: InputOptions::new(args.input),
            length_only: args.length_only,
            outputs: Outputs {
                json: args.json,
                paf: args.alignment.paf,
                append_csv: args.append_csv,
                ..Outputs::default()
            },
            memory_limit: args.memory_limit.or(env.memory_limit),
            run: env.run_info(mpi_library),
            band: args.band.unwrap_or(BandChoice::Off),
            engine: args.engine,
        }
    }
}

/// `schedule`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleOptions {
    /// Rows and columns, the shorter side as rows.
    pub rows: usize,
    pub cols: usize,
    /// The command line named the longer side as rows.
    pub swapped: bool,
    pub ranks: usize,
    pub method: Method,
    /// Columns per word of the bands' picture and page (`--word`; the engine's 64 unless a
    /// teacher asks for a smaller one).
    pub word: usize,
    pub svg: Option<PathBuf>,
    pub html: Option<PathBuf>,
}

/// Most ranks `schedule` describes: its counts cost O(P^2) (what that takes at this bound:
/// `docs/performance.md`), and a class looks at a handful.
pub const MAX_SCHEDULE_RANKS: usize = 1024;
/// Longest side `schedule` describes: 10^9 (cell counts then stay well inside 64 bits).
pub const MAX_SCHEDULE_SIDE: usize = 1_000_000_000;

impl ScheduleOptions {
    pub fn new(args: ScheduleArgs) -> Result<ScheduleOptions, Error> {
        if args.ranks == 0 || args.ranks > MAX_SCHEDULE_RANKS {
            return Err(Error::Usage(format!(
                "--ranks must be between 1 and {MAX_SCHEDULE_RANKS}, not {}",
                args.ranks
            )));
        }
        if args.rows == 0 || args.cols == 0 {
            return Err(Error::Usage("--rows and --cols must be at least 1".into()));
        }
        if args.rows.max(args.cols) > MAX_SCHEDULE_SIDE {
            return Err(Error::Usage(format!(
                "--rows and --cols must be at most {MAX_SCHEDULE_SIDE}"
            )));
        }
        let method = method(args.engine)?;
        let word = match (args.word, &method) {
            (None, _) => crate::render::shown::pipeline::ENGINE_WORD,
            (Some(w), Method::Bands { .. }) if (1..=64).contains(&w) => w,
            (Some(_), Method::Bands { .. }) => {
                return Err(Error::Usage(
                    "--word must be between 1 and 64 columns".into(),
                ))
            }
            (Some(_), _) => {
                return Err(Error::Usage(
                    "--word belongs to --engine bands (the columns of a word in its picture)"
                        .into(),
                ))
            }
        };
        Ok(ScheduleOptions {
            rows: args.rows.min(args.cols),
            cols: args.rows.max(args.cols),
            swapped: args.rows > args.cols,
            ranks: args.ranks,
            method,
            word,
            svg: args.svg,
            html: args.html,
        })
    }
}

/// `generate`.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateOptions {
    pub len: usize,
    pub len2: usize,
    /// Y a copy of X with this rate of edits (`--mutate`).
    pub mutate: Option<f64>,
    pub alphabet: Vec<u8>,
    pub seed: u64,
    pub output: PathBuf,
}

impl GenerateOptions {
    pub fn new(args: GenerateArgs) -> Result<GenerateOptions, Error> {
        if args.alphabet.is_empty() {
            return Err(Error::Usage("--alphabet must not be empty".into()));
        }
        if args.alphabet.contains(['\n', '\r']) {
            return Err(Error::Usage(
                "--alphabet must not contain a line break (\\n or \\r): the plain format \
                 ends lines with them"
                    .into(),
            ));
        }
        let len2 = args.len2.unwrap_or(args.len);
        crate::generate::check_lengths(args.len, len2)?;
        if let Some(rate) = args.mutate.filter(|r| !(0.0..=1.0).contains(r)) {
            return Err(Error::Usage(format!(
                "--mutate takes a rate from 0 to 1, not {rate}"
            )));
        }
        Ok(GenerateOptions {
            len: args.len,
            len2,
            mutate: args.mutate,
            alphabet: args.alphabet.into_bytes(),
            seed: args.seed,
            output: args.output,
        })
    }
}

/// `plot`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlotOptions {
    pub csvs: Vec<PathBuf>,
    pub out: PathBuf,
}

impl PlotOptions {
    /// Without `--out`, the figures go beside the first result set, into a directory named
    /// after it (`results/runs/SET.csv` → `results/runs/SET/`): never over another
    /// experiment's figures.
    pub fn new(args: PlotArgs) -> PlotOptions {
        let out = args.out.unwrap_or_else(|| {
            let first = &args.csv[0];
            match first.extension() {
                Some(_) => first.with_extension(""),
                None => first.with_extension("plots"),
            }
        });
        PlotOptions {
            csvs: args.csv,
            out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_go_beside_their_result_set_unless_told() {
        let plot = |csv: &[&str], out: Option<&str>| {
            PlotOptions::new(PlotArgs {
                csv: csv.iter().map(PathBuf::from).collect(),
                out: out.map(PathBuf::from),
            })
            .out
        };
        assert_eq!(
            plot(&["results/runs/a.csv", "b.csv"], None),
            PathBuf::from("results/runs/a")
        );
        assert_eq!(plot(&["runs"], None), PathBuf::from("runs.plots"));
        assert_eq!(plot(&["a.csv"], Some("figs")), PathBuf::from("figs"));
    }
}

/// `table`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableOptions {
    pub csvs: Vec<PathBuf>,
    pub out: Option<PathBuf>,
}

impl TableOptions {
    pub fn new(args: TableArgs) -> TableOptions {
        TableOptions {
            csvs: args.csv,
            out: args.out,
        }
    }
}

/// `self-test`.
#[derive(Debug, Clone)]
pub struct SelfTestOptions {
    pub files: Vec<PathBuf>,
    pub problems: Vec<Problem>,
    pub cases: usize,
    pub seed: u64,
    pub max_len: usize,
    pub method: Method,
    /// Bands engine: every pair under several batches and checkpoint modes.
    pub sweep: bool,
    /// Bytes per piece of a `--file`'s broadcast.
    pub piece: usize,
    pub switches: Switches,
}

impl SelfTestOptions {
    pub fn new(args: SelfTestArgs, env: &Env) -> Result<SelfTestOptions, Error> {
        if args.piece == 0 {
            return Err(Error::Usage("--piece must be at least 1 byte".into()));
        }
        Ok(SelfTestOptions {
            files: args.file,
            problems: args.problem,
            cases: args.cases,
            seed: args.seed,
            max_len: args.max_len,
            method: method(args.engine)?,
            sweep: args.sweep,
            piece: args.piece,
            switches: env.switches,
        })
    }
}
