//! The command line: what each subcommand accepts (clap derive) and nothing else. The
//! arguments are checked and combined with the environment in `options`, and run by
//! `commands`.

use lcs_core::search::alphabet::Alphabet;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::engines::bands::CheckpointChoice;
use crate::engines::config::HaloSteps;
use crate::engines::device::{DeviceAsk, GpuBackend, Placement};
use crate::engines::diagonal::store::StoreKind;
use crate::engines::search::sharing::Split;
use crate::input::FormatChoice;
use lcs_core::diagonal_band::BandChoice;
use lcs_core::problem::Problem;

/// The exit codes, shown under every subcommand's `--help`.
pub const EXIT_CODES: &str = "\
Exit status:
  0  success (also when the reader of standard output goes away early)
  1  internal error (a bug, or MPI itself failed)
  2  bad command-line usage, or a request beyond a documented limit
  3  the input file is missing, unreadable or malformed
  4  not enough memory for the chosen store and rank count
  5  an output file cannot be written (checked before any work) or standard output failed
  6  the launcher started another number of processes than MPI sees: the binary and the
     launcher belong to different MPI libraries
Under mpirun, a rank that dies ends the whole job; mpirun then exits non-zero.";

/// Longest common subsequence and edit distance over MPI ranks, with per-cell boundary
/// messages, a distributed traceback, and exact message accounting.
#[derive(Debug, Parser)]
#[command(name = "mpi-lcs", version, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute the LCS (or, with `--problem edit`, the edit distance and its alignment) over
    /// MPI ranks: `mpirun -n P mpi-lcs solve FILE` (or one plain process, which starts no MPI).
    #[command(after_help = EXIT_CODES)]
    Solve(SolveArgs),
    /// Find every place where each pattern occurs in a text with at most K edits, the text
    /// (and, when they are many, the patterns) split among MPI ranks: `mpirun -n P mpi-lcs
    /// search PATTERNS TEXT --max-edits K` (or one plain process, which starts no MPI). Prints
    /// a TSV of matches.
    #[command(after_help = EXIT_CODES)]
    Search(SearchArgs),
    /// Compute the edit distance (or the LCS length) of every pair of QUERIES x TARGETS, or of
    /// every two sequences of QUERIES, the pairs shared among MPI ranks: `mpirun -n P mpi-lcs
    /// pairs QUERIES [TARGETS]` (or one plain process). Prints a TSV of pairs, or writes the
    /// matrix as .npy.
    #[command(after_help = EXIT_CODES)]
    Pairs(PairsArgs),
    /// Compute the LCS or the edit distance in one process with the sequential DP (the oracle;
    /// no MPI).
    #[command(after_help = EXIT_CODES)]
    Reference(ReferenceArgs),
    /// Print which rank owns which cell, the diagonal segments with their formulas, the
    /// predicted messages per diagonal and per rank (the diagonal and bands engines; the wave
    /// engine's split follows the pair: `solve FILE --engine wave --html PAGE` draws a run).
    #[command(after_help = EXIT_CODES)]
    Schedule(ScheduleArgs),
    /// Write a reproducible random input file.
    #[command(after_help = EXIT_CODES)]
    Generate(GenerateArgs),
    /// List the GPUs (and OpenCL CPU devices) each backend sees on this host, or why it sees
    /// none: what `pairs` and `search` take with `--device gpu` (no MPI).
    #[command(after_help = EXIT_CODES)]
    Devices,
    /// Plot result sets (CSV files of runs) as SVG: time, speed-up, efficiency, where the time
    /// goes, and messages against the prediction, against ranks.
    #[command(after_help = EXIT_CODES)]
    Plot(PlotArgs),
    /// Summarise result sets (CSV files of runs) as Markdown tables.
    #[command(after_help = EXIT_CODES)]
    Table(TableArgs),
    /// Check the engine against the sequential reference on many random pairs inside one
    /// launch (for the test suite).
    #[command(hide = true)]
    SelfTest(SelfTestArgs),
}

/// The input file, its size limit and format, and the problem asked of it; shared by `solve`
/// and `reference`.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input: two lines (X then Y) or FASTA with exactly two records; `-` reads standard
    /// input, and gzip (a file, a pipe or standard input) is decompressed as it is read.
    pub file: PathBuf,
    /// Refuse input files larger than this (e.g. 64M, 2G; K, M, G are powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_max_input)]
    pub max_input: u64,
    /// How to read the file: `auto` reads FASTA when the first non-blank line starts with
    /// `>`, else the plain two-line format; `plain` also reads a first sequence that begins
    /// with `>`.
    #[arg(long, value_enum, default_value_t = FormatChoice::Auto)]
    pub format: FormatChoice,
    /// The problem: `lcs` (the longest common subsequence) or `edit` (the edit distance,
    /// with its alignment).
    #[arg(long, value_enum, default_value_t = Problem::Lcs)]
    pub problem: Problem,
}

/// Where `pairs` and `search` compute (docs/gpu.md).
#[derive(Debug, Args)]
pub struct DeviceArgs {
    /// Where the kernels run: `cpu` (the CPU engines), `gpu` (each rank's GPU, through CUDA
    /// or OpenCL; where there is none, the same kernels on an OpenCL CPU device such as PoCL,
    /// with a note; else an error), or `auto` (a rank's GPU where it finds one, else the CPU
    /// engines, with a note).
    #[arg(long, value_enum, default_value_t = Placement::Cpu, value_name = "WHERE")]
    pub device: Placement,
    /// The API a GPU is driven through: `auto` (CUDA where its driver sees a device, else
    /// OpenCL), `cuda` or `opencl`.
    #[arg(long, value_enum, default_value_t = GpuBackend::Auto, value_name = "API")]
    pub gpu_backend: GpuBackend,
    /// The GPUs each host's ranks share: a host's rank i takes GPU i mod N (by default, modulo
    /// every GPU the backend lists). MPI_LCS_GPU=i pins a process to GPU i instead.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub gpus_per_host: Option<u32>,
}

impl DeviceArgs {
    /// The ask, with the device `pinned` by the environment, if any.
    pub fn ask(&self, pinned: Option<usize>) -> DeviceAsk {
        DeviceAsk {
            placement: self.device,
            backend: self.gpu_backend,
            gpus_per_host: self.gpus_per_host.map(|n| n as usize),
            pinned,
        }
    }
}

/// The per-rank memory limit, shared by `solve`, `search` and `pairs`.
#[derive(Debug, Args)]
pub struct RankMemoryArgs {
    /// Per-rank memory limit for the pre-check (default: what the host offers, shared among
    /// its ranks; also MPI_LCS_MEMORY_LIMIT).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory_limit)]
    pub memory_limit: Option<u64>,
}

/// The JSON report of a run over ranks, shared by `solve`, `search` and `pairs`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Write the full report as JSON to this file (atomically).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
}

/// The alignment as a PAF line, shared by `solve` and `reference`.
#[derive(Debug, Args)]
pub struct AlignmentArgs {
    /// Write the alignment as one PAF line (minimap2's format: the file's first sequence the
    /// query, its second the target, with `NM:i:` and `cg:Z:` tags).
    #[arg(long, value_name = "PATH")]
    pub paf: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Write the summary to this file (atomically) instead of standard output: under a
    /// launcher, rank 0's standard output goes through the launcher, which may lose it
    /// unseen; this file is written by rank 0 itself and checked before the run.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub alignment: AlignmentArgs,
    /// Append one row to this CSV file of runs (its header written when the file is new; safe
    /// for concurrent runs).
    #[arg(long, value_name = "PATH")]
    pub append_csv: Option<PathBuf>,
    /// Write one CSV line per message (kind, diagonal, from, to, i, j, bytes): boundary
    /// messages by diagonal and sender, then the traceback in walk order; up to 1,000,000
    /// cells.
    #[arg(long, value_name = "PATH")]
    pub trace: Option<PathBuf>,
    /// Draw the run as SVG: ownership, cell values, one arrow per boundary message, the
    /// traceback walk and its hops; for the bands engine its timeline too; for the wave engine
    /// each cell's cost (the score step that reached it) and the slides along matches (matrices
    /// up to 64 x 64; bands: up to 10^6 cells, by blocks of bands and batches where cells are
    /// small).
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// Write the classroom page: one self-contained HTML file that plays the fill diagonal by
    /// diagonal (bands: stage by stage, with the ranks' timeline; wave: score step by score
    /// step, each rank's diagonals and its halo messages) and then the traceback, from what
    /// this run recorded; `#projector` in its address (or the key p) is for a projector
    /// (matrices up to 64 x 64; bands: up to 10^6 cells and 8,192 rows and columns).
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub rank_memory: RankMemoryArgs,
    #[command(flatten)]
    pub device: DeviceArgs,
    /// Compute only the LCS length (or, with `--problem edit`, the distance), with no walk:
    /// the bands engine's pipeline over the whole matrix, each rank keeping only its band's
    /// latest row (O(m + n / P) memory per rank, so any size the input fits runs; on each
    /// rank's GPU with --device gpu). Takes --batch; prints a short summary.
    #[arg(long, alias = "distance-only", conflicts_with_all = ["json", "append_csv", "paf", "trace", "svg", "html", "progress"])]
    pub length_only: bool,
    /// Never show the progress bar (it only appears on a terminal, after a second).
    #[arg(long, conflicts_with = "progress")]
    pub no_progress: bool,
    /// Show the progress bar on rank 0's stderr even when no terminal is found there (a
    /// launcher that hides it, a log file), from the start of the fill.
    #[arg(long)]
    pub progress: bool,
    /// Print no notes: the advice on stderr before the fill (e.g. that the other engine
    /// would take a tenth of the time on this input's shape).
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The patterns: one per line, or FASTA (one pattern per record), at most 8192 bytes
    /// each; `-` reads standard input, and gzip is decompressed as it is read.
    pub patterns: PathBuf,
    /// The text: a plain file (one sequence: every byte but a final line ending) or FASTA
    /// (each record searched on its own). A regular file, not compressed, that every rank
    /// opens at this path: each rank reads its own part of it. A text whose size the file
    /// system does not report (`-` for standard input, a pipe, a device, /proc) is read whole
    /// by rank 0 and shared with every rank.
    pub text: PathBuf,
    /// The most edits (substitutions, insertions, deletions) a match may have.
    #[arg(short = 'k', long, value_name = "K", allow_hyphen_values = true,
          value_parser = parse_edits)]
    pub max_edits: usize,
    /// Accept --max-edits at least as long as a pattern, which every position of the text
    /// then matches (each is listed).
    #[arg(long)]
    pub allow_all: bool,
    /// Search each pattern on both strands of a DNA text: as given (strand `+`) and as its
    /// reverse complement (strand `-`: reversed, A, C, G, T and U read as T, G, C, A and A, the
    /// IUPAC codes as their partners, in the same case; any other byte kept), both at offsets
    /// of the text as it is. The TSV gains a `strand` column; a palindrome (its own reverse
    /// complement) lists each match twice, once per strand.
    #[arg(long, visible_alias = "rc")]
    pub both_strands: bool,
    /// When a pattern byte matches a text byte: `exact`, when equal; `iupac`, also when both
    /// are nucleotide codes whose bases meet, in either case (`N` matches every base, `R` A or
    /// G, `U` is `T`). On the CPU only.
    #[arg(long, value_enum, value_name = "ALPHABET", default_value = "exact")]
    pub alphabet: Alphabet,
    /// How the ranks split a plain text when each searches every pattern: `shared`, each
    /// starts on its own part and a rank that has finished takes half of what another has not
    /// scanned yet, as they go (a rank slowed by its host hands its text to the others);
    /// `static`, each scans its own part. A FASTA text, patterns split among ranks and
    /// `--device gpu` keep their parts.
    #[arg(long, value_enum, value_name = "SPLIT", default_value = "shared")]
    pub split: Split,
    /// Write the matches (TSV) to this file, atomically, and the summary to standard output;
    /// without it, standard output carries the TSV alone.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Append one row to this CSV file of search runs (its header written when the file is
    /// new; safe for concurrent runs). Search runs have result sets of their own, which
    /// `table` and `plot` do not read.
    #[arg(long, value_name = "PATH")]
    pub append_csv: Option<PathBuf>,
    /// Refuse a patterns file larger than this (e.g. 64M; K, M, G are powers of 1024), and a
    /// text read whole (one whose size the file system does not report); a regular text has
    /// no such limit: no rank holds it.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_max_input)]
    pub max_input: u64,
    #[command(flatten)]
    pub rank_memory: RankMemoryArgs,
    #[command(flatten)]
    pub device: DeviceArgs,
    /// Print no notes (e.g. that `--device auto` found no GPU and runs the CPU engines).
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct PairsArgs {
    /// The queries: one sequence per line (an empty line is an empty sequence), or FASTA (one
    /// per record); `-` reads standard input, and gzip is decompressed as it is read.
    pub queries: PathBuf,
    /// The targets, in the same formats; without it, every pair of two queries (all against
    /// all).
    pub targets: Option<PathBuf>,
    /// The value: `edit` (the edit distance, unit costs) or `lcs` (the length of a longest
    /// common subsequence).
    #[arg(long, value_enum, default_value_t = Problem::Edit, hide_possible_values = true)]
    pub problem: Problem,
    /// Edit distance: only the pairs within this many edits (the TSV lists those alone; in the
    /// .npy matrix a distance above K is K + 1).
    #[arg(short = 'k', long, value_name = "K", allow_hyphen_values = true,
          value_parser = parse_edits)]
    pub max_edits: Option<usize>,
    /// LCS: only the pairs whose LCS is at least this long (the TSV lists those alone; in the
    /// .npy matrix a shorter one is 0).
    #[arg(long, value_name = "L", allow_hyphen_values = true, value_parser = parse_length)]
    pub min_length: Option<usize>,
    /// Write the pairs to this file, atomically: a TSV, or the dense matrix in NumPy's format
    /// when the name ends in .npy (queries x targets, uint32; all against all the symmetric
    /// matrix with a zero diagonal); the summary then goes to standard output. Without it,
    /// standard output carries the TSV alone.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Append one row to this CSV file of pairs runs (its header written when the file is new;
    /// safe for concurrent runs). Pairs runs have result sets of their own, which `table` and
    /// `plot` do not read.
    #[arg(long, value_name = "PATH")]
    pub append_csv: Option<PathBuf>,
    /// Refuse a file of sequences larger than this (e.g. 64M; K, M, G are powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_max_input)]
    pub max_input: u64,
    #[command(flatten)]
    pub rank_memory: RankMemoryArgs,
    #[command(flatten)]
    pub device: DeviceArgs,
    /// Never show the progress bar (it only appears on a terminal, after a second).
    #[arg(long, conflicts_with = "progress")]
    pub no_progress: bool,
    /// Show the progress bar on rank 0's stderr even when no terminal is found there (a
    /// launcher that hides it, a log file), from the start of the work.
    #[arg(long)]
    pub progress: bool,
    /// Print no notes (e.g. that a bound of more than 31 edits is past the band's lanes).
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--min-length`: a length, 0 or more.
fn parse_length(text: &str) -> Result<usize, String> {
    match text.trim().parse::<i128>() {
        Ok(l) if l < 0 => Err(format!("{l}: a length is 0 or more")),
        Ok(l) => usize::try_from(l).map_err(|_| format!("{l} is too long a length")),
        Err(_) => Err(format!("'{text}' is not a length")),
    }
}

/// `--max-edits`: a number of edits, 0 or more.
fn parse_edits(text: &str) -> Result<usize, String> {
    match text.trim().parse::<i128>() {
        Ok(k) if k < 0 => Err(format!(
            "{k} edits: the most edits a match may have is 0 or more"
        )),
        Ok(k) => usize::try_from(k).map_err(|_| format!("{k} edits is too many")),
        Err(_) => Err(format!("'{text}' is not a number of edits")),
    }
}

/// The engine a command line asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    /// The report's design: a share of every anti-diagonal per rank, one message per boundary
    /// cell.
    #[default]
    Diagonal,
    /// Bit-parallel column bands, rows pipelined in batches, one message of carries per batch.
    Bands,
    /// Diagonal transition: work that follows the difference, each score step's diagonals
    /// split among the ranks.
    Wave,
    /// The bands or the wave engine, whichever a sample of the pair says is faster.
    Auto,
}

/// Which engine, and its settings; shared by `solve`, `schedule` and `self-test`.
#[derive(Debug, Args)]
pub struct EngineArgs {
    /// The engine: `diagonal` (the report's design: a share of every anti-diagonal per rank,
    /// one message per boundary cell), `bands` (bit-parallel column bands, rows pipelined in
    /// batches, one message of carries per batch), `wave` (diagonal transition: work that
    /// follows the difference, each score step's diagonals split among the ranks) or `auto`
    /// (bands or wave, whichever a sample of the pair says is faster).
    #[arg(long, value_enum, default_value_t = EngineArg::Diagonal)]
    pub engine: EngineArg,
    /// Where each rank of the diagonal engine keeps its cells (default: dense).
    #[arg(long, value_enum)]
    pub store: Option<StoreKind>,
    /// Bands engine: rows per batch, one carry message per batch and band edge (default:
    /// 256).
    #[arg(long, value_name = "ROWS")]
    pub batch: Option<usize>,
    /// Bands engine: what each band keeps for the traceback: `auto`, `full` (a bit per cell)
    /// or K (V every K rows, blocks recomputed on the walk) (default: auto).
    #[arg(long, value_name = "K|auto|full", value_parser = parse_checkpoint)]
    pub checkpoint: Option<CheckpointChoice>,
    /// Bands engine: the diagonal band (Ukkonen's): `auto` computes only the cells within K
    /// diagonals of the strip joining the corners, K widened until the answer proves itself
    /// optimal (exact: the same path as the whole matrix); `off` the whole matrix; K one band
    /// of that margin, refused (exit 2) when it does not prove itself (default: auto).
    #[arg(long, value_name = "K|auto|off", value_parser = parse_band)]
    pub band: Option<BandChoice>,
    /// Wave engine: score steps between two halo exchanges, at most (ghost zones: each
    /// exchange carries what a neighbour reads over that many steps, and both compute it):
    /// `auto` or H (1: an exchange after every step) (default: auto).
    #[arg(long, value_name = "H|auto", value_parser = parse_halo_steps)]
    pub halo_steps: Option<HaloSteps>,
}

#[derive(Debug, Args)]
pub struct ReferenceArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Write the report as JSON (the same keys as `solve --json`).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub alignment: AlignmentArgs,

    /// Append one row to this CSV file of runs: the sequential row of an experiment.
    #[arg(long, value_name = "PATH")]
    pub append_csv: Option<PathBuf>,
    /// Print only the LCS length (or, with `--problem edit`, the distance), counted in
    /// O(n / 64) memory (no traceback, so any size fits): to check a long run.
    #[arg(long, alias = "distance-only", conflicts_with_all = ["json", "append_csv", "paf"])]
    pub length_only: bool,
    /// Memory limit for the pre-check (default: what the host offers; also
    /// MPI_LCS_MEMORY_LIMIT).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory_limit)]
    pub memory_limit: Option<u64>,
    /// The diagonal band, as `solve --engine bands --band` takes it (default: off, the whole
    /// matrix: the oracle).
    #[arg(long, value_name = "K|auto|off", value_parser = parse_band, conflicts_with = "length_only")]
    pub band: Option<BandChoice>,
    /// The algorithm: `bitpar` (the bit-parallel DP, the oracle) or `wave` (diagonal
    /// transition in one process: the wave engine's algorithm, whose work follows the
    /// difference).
    #[arg(long, value_enum, default_value_t = Sequential::Bitpar, conflicts_with = "band")]
    pub engine: Sequential,
}

/// The sequential reference's algorithm.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Sequential {
    #[default]
    Bitpar,
    Wave,
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
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Bands engine, for teaching: columns per word in the picture and the page (1 to 64;
    /// default 64, the engine's), so that a small matrix still shows every rank's band.
    #[arg(long, value_name = "COLUMNS")]
    pub word: Option<usize>,
    /// Also draw the grid, coloured by rank, with an arrow for every predicted boundary
    /// message (up to 64 x 64; bands: cell by cell, or by blocks of bands and batches where
    /// cells are small, up to 1,024 blocks, else to scale up to 4,096 messages).
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
    /// Also write the classroom page: one self-contained HTML file that plays the schedule
    /// diagonal by diagonal (bands: stage by stage) with its predicted messages; `#projector`
    /// in its address (or the key p) is for a projector (up to 64 x 64; bands: up to 1,024
    /// blocks of bands and batches; the text is printed even when the page is refused; the
    /// wave engine has no schedule without its pair: `solve --engine wave --html`).
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Length of the first sequence (the file may hold at most 1 TiB, and no more than its
    /// directory's free space).
    #[arg(long)]
    pub len: usize,
    /// Length of the second sequence (default: the same as --len).
    #[arg(long, conflicts_with = "mutate")]
    pub len2: Option<usize>,
    /// Make the second sequence a mutated copy of the first instead: each byte, with this
    /// probability (0 to 1), substituted, deleted or preceded by an inserted byte, the three
    /// alike likely (a near-identical pair, as two versions of a file or two strains are).
    #[arg(long, value_name = "RATE")]
    pub mutate: Option<f64>,
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

#[derive(Debug, Args)]
pub struct PlotArgs {
    /// Result sets: CSV files of runs, as `solve --append-csv` and scripts/experiment write
    /// them.
    #[arg(required = true)]
    pub csv: Vec<PathBuf>,
    /// Directory for the plots (SVG); default: beside the first result set, named after it
    /// (`results/runs/SET.csv` → `results/runs/SET/`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct TableArgs {
    /// Result sets: CSV files of runs.
    #[arg(required = true)]
    pub csv: Vec<PathBuf>,
    /// Write the Markdown to this file (atomically) instead of standard output.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SelfTestArgs {
    /// Number of random pairs.
    #[arg(long, default_value_t = 30)]
    pub cases: usize,
    /// Seed of the pairs.
    #[arg(long, default_value_t = 2021)]
    pub seed: u64,
    /// Longest sequence drawn.
    #[arg(long, default_value_t = 200)]
    pub max_len: usize,
    /// The problems to check every pair on: `lcs`, `edit`, or both (`lcs,edit`).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "lcs")]
    pub problem: Vec<Problem>,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Bands engine: check every pair with batches of 1, 63, 64 and the default rows, each
    /// keeping every bit, or checkpoints every 1 or 17 rows, or as `auto` decides.
    #[arg(long)]
    pub sweep: bool,
    /// Also check the pair of this input file (rank 0 reads it and broadcasts it); repeatable.
    #[arg(long, value_name = "PATH")]
    pub file: Vec<PathBuf>,
    /// Broadcast each --file's sequences in pieces of this many bytes (default: 1 GiB, as
    /// `solve` does; a few bytes make a small file travel in many pieces).
    #[arg(long, value_name = "BYTES", default_value_t = crate::comm::share::PIECE)]
    pub piece: usize,
}

fn parse_checkpoint(text: &str) -> Result<CheckpointChoice, String> {
    match text {
        "auto" => Ok(CheckpointChoice::Auto),
        "full" => Ok(CheckpointChoice::Full),
        _ => text
            .parse::<usize>()
            .map(CheckpointChoice::Every)
            .map_err(|_| format!("'{text}' is not auto, full or a number of rows")),
    }
}

fn parse_halo_steps(text: &str) -> Result<HaloSteps, String> {
    match text {
        "auto" => Ok(HaloSteps::Auto),
        _ => match text.parse::<usize>() {
            Ok(h) if h >= 1 => Ok(HaloSteps::Most(h)),
            _ => Err(format!(
                "'{text}' is not auto or a number of steps (at least 1)"
            )),
        },
    }
}

fn parse_band(text: &str) -> Result<BandChoice, String> {
    match text {
        "auto" => Ok(BandChoice::Auto),
        "off" => Ok(BandChoice::Off),
        _ => text
            .parse::<usize>()
            .map(BandChoice::Fixed)
            .map_err(|_| format!("'{text}' is not auto, off or a number of diagonals")),
    }
}

/// A memory limit (`--memory-limit`, `MPI_LCS_MEMORY_LIMIT`): from a byte (a limit of nothing
/// would refuse every run for want of memory, not of a usable flag) to `mem::MAX_SIZE`.
pub fn parse_memory_limit(text: &str) -> Result<u64, String> {
    crate::mem::parse_size(text, 1, crate::mem::MAX_SIZE)
}

/// The largest input accepted (`--max-input`): from a byte to `mem::MAX_SIZE`.
fn parse_max_input(text: &str) -> Result<u64, String> {
    crate::mem::parse_size(text, 1, crate::mem::MAX_SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--memory-limit 0` was taken (and refused for memory, exit 4) and `99999999999T`
    /// wrapped into an unlimited limit: every size a flag takes has bounds, and beyond them
    /// it is a usage error (exit 2).
    #[test]
    fn sizes_beyond_their_bounds_are_usage_errors() {
        let cases = [
            ("solve", "--memory-limit", "0"),
            ("solve", "--memory-limit", "99999999999T"),
            ("reference", "--memory-limit", "0K"),
            ("solve", "--max-input", "0"),
            ("reference", "--max-input", "18446744073709551616"),
        ];
        for (command, flag, size) in cases {
            let parsed = Cli::try_parse_from(["mpi-lcs", command, "in.txt", flag, size]);
            let err = parsed.expect_err(size);
            assert_eq!(err.exit_code(), 2, "{command} {flag} {size}");
            assert!(err.to_string().contains("a size must be at"), "{err}");
        }
        for k in ["-1", "x", "-3 "] {
            let parsed = Cli::try_parse_from(["mpi-lcs", "search", "p", "t", "--max-edits", k]);
            let err = parsed.expect_err(k);
            assert_eq!(err.exit_code(), 2, "{k}");
        }
        let err = Cli::try_parse_from(["mpi-lcs", "search", "p", "t", "-k", "-2"]).unwrap_err();
        assert!(err.to_string().contains("0 or more"), "{err}");
        let parsed = Cli::try_parse_from(["mpi-lcs", "search", "p", "t", "-k", "3"]).unwrap();
        assert!(matches!(
            parsed.command,
            Command::Search(SearchArgs { max_edits: 3, .. })
        ));
        let parsed = Cli::try_parse_from(["mpi-lcs", "solve", "in.txt", "--memory-limit", "1024T"]);
        let Command::Solve(args) = parsed.unwrap().command else {
            panic!("not solve");
        };
        assert_eq!(args.rank_memory.memory_limit, Some(1 << 50));
        assert_eq!(parse_memory_limit("1").unwrap(), 1);
    }
}
