//! One `search` run over MPI, the ranks sharing the work as [`lcs_core::search::chunks`] plans it:
//!
//! 1. rank 0 runs the caller's checks (the output paths), reads and checks the patterns, checks the
//!    text ([`text::open_text`]), and broadcasts an ok/error code, the text's layout and the
//!    patterns; on error every rank returns it together, only rank 0's with the message; for
//!    both strands every rank then adds each pattern's reverse complement ([`strands::both`]);
//! 2. every rank opens the text at the same path and checks that it sees rank 0's size; a text
//!    with no size to read by ranges (standard input, a FIFO, `/proc`) rank 0 has read whole, and
//!    broadcasts its bytes in pieces once every rank has room for them;
//! 3. the plan (units, grid, this rank's range and units), and the memory check (the tables,
//!    the blocks, the matches known before the scan), decided over all ranks as `solve`'s is,
//!    in one reduction with whether every rank has its kernel and the text open;
//! 4. for FASTA, the ranges' summaries gathered to rank 0 and every part's start broadcast back
//!    ([`text::starts`]);
//! 5. the scan ([`super::scan`]), which stops keeping matches past what the rank's memory holds;
//!    whether every rank's scan ended well and rank 0 has room for every match are decided in
//!    one reduction (`room_for_matches`), then each sends its matches to rank 0 in pieces of at
//!    most [`PIECE_MATCHES`], and their records' names;
//! 6. every rank's record gathered to rank 0.
//!
//! Only the matches are counted: the setup's exchanges and the gathering are collectives, as in
//! `solve`. A failure after the first step is agreed on by all ranks (a reduction of exit codes),
//! and the rank that failed prints its message with its rank.

use lcs_core::search::alphabet::Alphabet;
use lcs_core::search::sifted::Sifted;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use crate::comm::world::World;
use mpi::collective::SystemOperation;
use mpi::traits::*;

use crate::comm::agree::{agree, failure_word, settle};
use crate::comm::fault::{Fault, Phase};
use crate::comm::protocol::search::{
    names_bytes, names_of, piece_bytes, piece_of, starts_of, starts_words, summary_of,
    summary_words, Header, PIECE_MATCHES,
};
use crate::comm::protocol::{tag, Kind};
use crate::comm::share::{self, PIECE};
use crate::comm::stats;
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::comm::words::RankHost;
use crate::engines::budget;
use crate::engines::device::{self, DeviceAsk, Placement, RankDevice};
use crate::engines::search::on_device;
use crate::engines::search::record::RankSearch;
use crate::engines::search::scan::{self, Found, Searcher, Task};
use crate::engines::search::sharing::{self, Shared, Split};
use crate::engines::search::strands;
use crate::engines::solve::{agree_fitting, check_memory, memory_limit};
use crate::error::{Error, EXIT_MEMORY};
use crate::input::mapped;
use crate::input::patterns::{self, Patterns};
use crate::input::text::{self, Source, Start, Summary, TextFile, BLOCK};
use crate::input::{is_stdin, Format, InputError};
use crate::mem::{self, thousands};
use crate::provenance::HostInfo;
use lcs_core::search::chunks::{self, Grid, Unit};
use lcs_core::search::lanes::{Simd, VECTOR_BYTES};
use lcs_core::search::starts::MAX_WINDOW;
use lcs_core::search::strips::Strips;
use lcs_core::search::{Packed, MAX_PACKED_PATTERN, PACKED_BYTES};

/// Longest pattern accepted: the starts' windows hold two bits per pattern byte and text byte
/// of up to `MAX_WINDOW + 2 m` text bytes, some 40 MB at this length.
pub const MAX_PATTERN: usize = 8192;
const _: () = assert!(MAX_PATTERN <= MAX_PACKED_PATTERN, "every match packs");

/// The most patterns a search takes, on both strands counted twice: a match numbers its
/// pattern in 32 bits ([`Packed`]).
const MAX_SEARCHED: u64 = 1 << 32;

/// Words each rank adds to [`room_for_matches`]'s collective.
const ROOM_WORDS: usize = 5;

/// Bytes of one piece of a rank's matches on its way to rank 0.
const PIECE_BYTES: u64 = (PIECE_MATCHES * PACKED_BYTES) as u64;

/// The matches a search gives before its scan: those of the patterns no longer than `k`,
/// which match at every end of the text.
struct Expected {
    /// In this rank's part of the work.
    own: u64,
    /// In the whole search: what rank 0 gathers.
    all: u64,
}

/// What a `search` run is asked to do.
pub struct Request<'a> {
    pub patterns: PathBuf,
    pub text: PathBuf,
    /// Largest patterns file accepted, in bytes.
    pub max_input: u64,
    pub k: usize,
    /// Accept `k` at least as long as a pattern (every position then matches).
    pub allow_all: bool,
    /// Search each pattern's reverse complement too ([`strands`]).
    pub both_strands: bool,
    /// When a pattern byte matches a text byte.
    pub alphabet: Alphabet,
    /// How the ranks split a plain text ([`sharing`]).
    pub split: Split,
    pub memory_limit: Option<u64>,
    /// The kernel's compilation, if the caller chooses it (else the best the CPU has).
    pub simd: Option<Simd>,
    /// Where the kernels run: the CPU engines, or each rank's GPU.
    pub device: DeviceAsk,
    /// Whether rank 0 prints its notes (e.g. that the GPU kernels run on the CPU).
    pub notes: bool,
    /// A fault planted for the tests (a device's launch that fails).
    pub fault: Option<Fault>,
    pub waiting: Waiting,
    /// Rank 0's checks before it reads anything (e.g. that every output path can be written).
    pub before_reading: &'a dyn Fn() -> Result<(), Error>,
}

impl Request<'_> {
    /// The strands searched: 1, or 2 with each pattern's reverse complement.
    pub fn strands(&self) -> usize {
        match self.both_strands {
            true => 2,
            false => 1,
        }
    }
}

/// Records' names by record.
pub type Names = BTreeMap<u64, Vec<u8>>;

/// What rank 0 holds once a search is over.
pub struct Searched {
    /// The patterns of the file, in its order.
    pub patterns: Vec<Vec<u8>>,
    /// 1, or 2 when each pattern's reverse complement was searched too: the matches' pattern
    /// numbers are then the searched ones ([`strands::of_searched`]).
    pub strands: usize,
    /// When a pattern byte matched a text byte.
    pub alphabet: Alphabet,
    pub patterns_format: Format,
    pub text: TextFile,
    pub k: usize,
    pub grid: Grid,
    /// How the ranks split the text: [`Split::Shared`] only where they shared it.
    pub split: Split,
    /// Every match, by (searched) pattern, record and end.
    pub matches: Vec<Packed>,
    /// The names of the records with matches (FASTA).
    pub names: Names,
    pub ranks: Vec<RankSearch>,
    pub started_at: SystemTime,
    /// From the start until rank 0 held every match.
    pub seconds_total: f64,
    /// Where the run asked the kernels to run (each rank's device is in its record).
    pub placement: Placement,
}

/// Runs `request` on this rank. Collective. Rank 0 gets what the search found, other ranks
/// `None`; an error is every rank's, with the message on the rank that met it.
pub fn search(world: &World, request: &Request<'_>) -> Result<Option<Searched>, Error> {
    let started = Instant::now();
    let started_at = SystemTime::now();
    let queued_before = crate::cpus::queued_seconds();
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let waiting = request.waiting;
    let limit = memory_limit(world, request.memory_limit);
    // The kernel first: the other ranks read the CPU's features while rank 0 reads the inputs
    // (some ten CPUID instructions, each a trap to the hypervisor in a virtual machine).
    let simd = choose_simd(request.simd);
    let loaded = (rank == 0).then(|| load(request));
    let (mut patterns, text, source) = share_inputs(world, waiting, loaded)?;
    if request.both_strands {
        patterns.patterns = strands::both(std::mem::take(&mut patterns.patterns));
    }
    // The text: a text read whole by rank 0 comes to every rank now; one that every rank opens
    // is decided on with the memory check below, in one collective.
    let (ask, fault) = (&on_cpu_for(request)?, request.fault);
    let mut gpu = device::open(world, waiting, ask, fault, request.notes)?;
    let opened = match text.whole {
        true => {
            let simd = agree(world, waiting, simd)?;
            Ok((simd, share_text(world, waiting, source, &text, limit)?))
        }
        false => simd.and_then(|simd| Ok((simd, open_same(&request.text, &text, rank)?))),
    };

    let k = request.k;
    let lengths: Vec<usize> = patterns.patterns.iter().map(Vec::len).collect();
    let units = chunks::units(&lengths, k);
    let weights: Vec<u64> = units.iter().map(|u| u.weight).collect();
    let overlap = chunks::overlap(lengths.iter().copied(), k);
    let area = text.area.clone();
    // Sieved patterns cost about the sieve's scan of each byte, whatever their number: the
    // ranks split the text.
    let sifts = gpu.is_none() && Searcher::sifts(lengths.iter().copied(), k, request.alphabet);
    let grid = match sifts {
        true => Grid {
            text_parts: ranks,
            pattern_parts: 1,
        },
        false => Grid::choose(ranks, area.end - area.start, &weights, overlap),
    };
    let runs = chunks::balance(&weights, grid.pattern_parts);
    let mine: &[Unit] = &units[runs[grid.pattern_part(rank)].clone()];
    let range = chunks::text_range(area.clone(), grid.text_parts, grid.text_part(rank));
    log::info!("grid {grid:?}: text {range:?}, {} units", mine.len());

    // Patterns no longer than k match at every end: those matches are known before the scan.
    let every_end = |units: &[Unit]| {
        let short = units.iter().flat_map(|u| &u.patterns);
        short.filter(|&&p| lengths[p] <= k).count()
    };
    let baseline = mem::peak_rss_bytes();
    let working = working_bytes(mine, &patterns.patterns, k, sifts)
        + match gpu {
            Some(_) => scan::device_bytes(every_end(mine)),
            None => 0,
        };
    let expected = Expected {
        own: every_end(mine) as u64 * (range.end - range.start),
        all: every_end(&units) as u64 * (area.end - area.start),
    };
    let found_bytes = scan::matches_bytes(expected.own, every_end(mine));
    let holds = match rank {
        0 => found_bytes + (expected.all - expected.own) * PACKED_BYTES as u64,
        _ => found_bytes + PIECE_BYTES,
    };
    let need = budget::need(baseline, working + holds);
    let (simd, file) = agree_fitting(world, waiting, opened, need, limit, || {
        let matches = match expected.all {
            0 => String::new(),
            all => format!(
                ", rank 0 gathering the {} matches that every end of the text gives the \
                 patterns of at most {k} bytes ({PACKED_BYTES} bytes each)",
                thousands(all)
            ),
        };
        format!(
            "not enough memory: a rank of this search needs about {} (its patterns' tables, \
             the text's blocks and the starts' windows{matches}), the limit is {}; fewer or \
             shorter patterns per rank would fit (more ranks split the patterns when the text \
             is short), or a lower --max-edits",
            mem::human(need),
            mem::human(limit.unwrap_or(0))
        )
    })?;

    let summarising = Instant::now();
    let start = match text.format {
        Format::Plain => Start {
            record: Some(0),
            offset: range.start - area.start,
            ..Start::default()
        },
        Format::Fasta => {
            let summary = text::summarize(&file, &text, range.clone())
                .map_err(|e| crate::input::unreadable(&request.text, e).into());
            let summary = agree(world, waiting, summary)?;
            exchange_starts(world, waiting, &summary, grid)?
        }
    };
    let seconds_summary = summarising.elapsed().as_secs_f64();

    let mine_lengths: u64 = mine
        .iter()
        .flat_map(|u| u.patterns.iter().map(|&p| lengths[p] as u64))
        .sum();
    let scanning = Instant::now();
    let task = Task {
        patterns: &patterns.patterns,
        units: mine,
        k,
        alphabet: request.alphabet,
        simd,
        most_matches: limit.map_or(usize::MAX, |l| {
            let room = budget::room(l, baseline, working + PIECE_BYTES);
            usize::try_from(room / PACKED_BYTES as u64).unwrap_or(usize::MAX)
        }),
    };
    let split = request
        .split
        .for_run(ranks, request.device.placement, text.format, grid);
    let mut traffic = Traffic::new(rank, ranks, false);
    let mut shared = Shared::default();
    let found = match (gpu.as_mut(), split) {
        (Some(gpu), _) => on_device::search_range(&file, &text, range.clone(), &start, &task, gpu),
        (None, Split::Static) => scan::search_range(&file, &text, range.clone(), &start, &task),
        (None, Split::Shared) => {
            let slow = Fault::for_rank(request.fault, Phase::Slow, rank)
                .map(|f| std::time::Duration::from_millis(f.step as u64));
            let pieces = (&file, &text, &task, slow);
            let scanned = sharing::scan(world, waiting, &mut traffic, pieces, range.clone());
            shared = scanned.1;
            scanned.0
        }
    };
    let found = found.map_err(|e| crate::input::unreadable(&request.text, e).into());
    // A device that failed mid-scan fails every rank, before any match is delivered.
    let found = found.and_then(|mut found| match found.device_error.take() {
        Some(e) => Err(device::run_error(e)),
        None => Ok(found),
    });
    let (found, total) = room_for_matches(world, waiting, found, limit)?;
    let seconds_scan = scanning.elapsed().as_secs_f64();

    let mut record = RankSearch {
        text_start: range.start,
        text_end: range.end,
        units: mine.len() as u64,
        patterns: mine.iter().map(|u| u.patterns.len() as u64).sum(),
        scanned: found.scanned,
        warm_up: found.warm_up,
        matches: found.matches.len() as u64,
        memory_estimate_bytes: need,
        seconds_summary,
        seconds_scan,
        seconds_starts: found.seconds_starts,
        simd,
        cells: found.scanned * mine_lengths,
        sieved: found.sieved,
        whole: found.whole,
        device: RankDevice::of(gpu.as_ref()),
        given: shared.given,
        taken: shared.taken,
        ..RankSearch::default()
    };
    let delivered = deliver(world, waiting, found, total, &mut traffic)?;
    let seconds_total = started.elapsed().as_secs_f64();
    record.seconds_queued = crate::cpus::queued_since(queued_before);
    record.control = traffic.control();
    record.peak_rss_bytes = mem::peak_rss_bytes();
    record.host = RankHost::of(&HostInfo::here());
    let all = stats::gather_varcount(world, &[record], waiting);
    let (Some((mut matches, names)), Some(all)) = (delivered, all) else {
        return Ok(None);
    };
    if matches
        .iter()
        .any(|m| m.pattern() >= patterns.patterns.len())
    {
        return Err(Error::Internal(anyhow::anyhow!(
            "a match of a pattern the search does not have"
        )));
    }
    matches.sort_unstable();
    Ok(Some(Searched {
        patterns: patterns
            .patterns
            .into_iter()
            .step_by(request.strands())
            .collect(),
        strands: request.strands(),
        alphabet: request.alphabet,
        patterns_format: patterns.format,
        text,
        k,
        grid,
        split,
        matches,
        names,
        ranks: all,
        started_at,
        seconds_total,
        placement: request.device.placement,
    }))
}

/// Rank 0's part of step 1: the caller's checks, the patterns, the text (read whole when its
/// size is not the file system's).
fn load(request: &Request<'_>) -> Result<(Patterns, TextFile, Source), Error> {
    (request.before_reading)()?;
    if is_stdin(&request.patterns) && is_stdin(&request.text) {
        return Err(Error::Usage(
            "the patterns and the text cannot both be standard input ('-')".into(),
        ));
    }
    let patterns = patterns::read_patterns(&request.patterns, request.max_input)?;
    check_patterns(
        &patterns.patterns,
        request.strands(),
        request.k,
        request.allow_all,
    )?;
    let (text, source) = text::open_text(&request.text, request.max_input)?;
    Ok((patterns, text, source))
}

/// Refuses a pattern longer than [`MAX_PATTERN`], more patterns searched (on `strands` strands)
/// than a match can number, and `k` at least as long as a pattern unless every position may
/// match. A pattern's reverse complement has its length: the file's patterns answer for it.
pub fn check_patterns(
    patterns: &[Vec<u8>],
    strands: usize,
    k: usize,
    allow_all: bool,
) -> Result<(), Error> {
    if let Some((number, p)) = patterns
        .iter()
        .enumerate()
        .find(|(_, p)| p.len() > MAX_PATTERN)
    {
        return Err(Error::Usage(format!(
            "pattern {number} has {} bytes: patterns are limited to {MAX_PATTERN} bytes",
            p.len()
        )));
    }
    check_count(patterns.len() as u64, strands)?;
    let shortest = patterns.iter().enumerate().min_by_key(|(_, p)| p.len());
    match shortest {
        Some((number, p)) if k >= p.len() && !allow_all => Err(Error::Usage(format!(
            "--max-edits {k} is not less than the length of pattern {number} ({} bytes): \
             every position of the text would match it (its distance to any text is at most \
             its length); lower --max-edits, or give --allow-all to list every position",
            p.len()
        ))),
        _ => Ok(()),
    }
}

/// The device `request` asks for, but the CPU where its alphabet is not `exact` (the GPU
/// kernels compare bytes for equality): asked for a GPU by name, a usage error.
fn on_cpu_for(request: &Request<'_>) -> Result<DeviceAsk, Error> {
    let ask = request.device;
    match (request.alphabet, ask.placement) {
        (Alphabet::Exact, _) => Ok(ask),
        (alphabet, Placement::Gpu) => Err(Error::Usage(format!(
            "--alphabet {} runs on the CPU only: drop --device gpu (or use --device auto)",
            alphabet.name()
        ))),
        _ => Ok(DeviceAsk {
            placement: Placement::Cpu,
            ..ask
        }),
    }
}

/// Refuses more patterns searched (`count` on `strands` strands) than a match can number.
fn check_count(count: u64, strands: usize) -> Result<(), Error> {
    match count.saturating_mul(strands as u64) > MAX_SEARCHED {
        true => Err(Error::Usage(format!(
            "{} patterns: a search takes at most {}{}",
            thousands(count),
            thousands(MAX_SEARCHED),
            match strands {
                1 => "",
                _ => ", each counted twice on both strands",
            }
        ))),
        false => Ok(()),
    }
}

/// The compilation to run: the caller's, if this CPU has it, else the best it has.
pub(crate) fn choose_simd(forced: Option<Simd>) -> Result<Simd, Error> {
    match forced {
        Some(simd) if simd < Simd::detect() => Err(Error::Usage(format!(
            "this CPU cannot run the {} kernel (it has {} at best)",
            simd.name(),
            Simd::detect().name()
        ))),
        Some(simd) => Ok(simd),
        None => Ok(Simd::detect()),
    }
}

/// Opens the text at `path` and checks that this rank sees what rank 0 saw.
fn open_same(path: &Path, text: &TextFile, rank: usize) -> Result<Source, Error> {
    let shared = |problem: String| {
        Error::Input(InputError::Unreadable {
            path: path.to_owned(),
            source: std::io::Error::other(format!(
                "{problem}; every rank reads its own part of the text, so the file must be one \
                 all ranks see at this path (one host, or a shared file system)"
            )),
        })
    };
    let file = File::open(path).map_err(|e| shared(format!("rank {rank} cannot open it: {e}")))?;
    let size = file
        .metadata()
        .map_err(|e| shared(format!("rank {rank} cannot inspect it: {e}")))?
        .len();
    if size != text.size {
        return Err(shared(format!(
            "rank {rank} sees {size} bytes where rank 0 saw {}",
            text.size
        )));
    }
    Ok(Source::File(file))
}

/// Step 2 for a text rank 0 read whole (its `source`; the others pass `None`): every rank
/// checks that it has room for the text's bytes (decided together, as the memory check is),
/// then rank 0 broadcasts them in pieces of at most [`PIECE`] bytes.
fn share_text(
    world: &World,
    waiting: Waiting,
    source: Option<Source>,
    text: &TextFile,
    limit: Option<u64>,
) -> Result<Source, Error> {
    let held = match &source {
        Some(Source::Bytes(_)) => 0,
        _ => text.size,
    };
    let need = budget::need(mem::peak_rss_bytes(), held);
    check_memory(world, waiting, need, limit, || {
        format!(
            "not enough memory: the text is read whole by rank 0 (the file system does not \
             report its size) and every rank holds its {} bytes, so a rank needs about {}, the \
             limit is {}; a regular file, of which each rank reads its own part, would fit",
            text.size,
            mem::human(need),
            mem::human(limit.unwrap_or(0))
        )
    })?;
    let mut bytes = match source {
        Some(Source::Bytes(bytes)) => bytes,
        _ => vec![0u8; usize::try_from(text.size).expect("a text that fits in memory")],
    };
    for range in share::pieces(bytes.len(), PIECE) {
        waiting.broadcast(world, &mut bytes[range]);
    }
    Ok(Source::Bytes(bytes))
}

/// Step 1's broadcast: rank 0 passes what it loaded, the others `None`; every rank returns
/// the patterns and the text's layout (and rank 0 the text's source), or the error.
fn share_inputs(
    world: &World,
    waiting: Waiting,
    loaded: Option<Result<(Patterns, TextFile, Source), Error>>,
) -> Result<(Patterns, TextFile, Option<Source>), Error> {
    let (words, loaded) = share::share_verdict(world, loaded, |(p, t, _)| {
        Header {
            code: 0,
            patterns: p.patterns.len() as u64,
            pattern_bytes: p.patterns.iter().map(|p| p.len() as u64).sum(),
            patterns_fasta: p.format == Format::Fasta,
            text_size: t.size,
            text_fasta: t.format == Format::Fasta,
            area: t.area.clone(),
            text_whole: t.whole,
        }
        .to_words()
    })?;
    let header = Header::of_words(&words)
        .ok_or_else(|| Error::Internal(anyhow::anyhow!("a malformed search header from rank 0")))?;
    let format = |fasta: bool| if fasta { Format::Fasta } else { Format::Plain };
    // The patterns' lengths (8 bytes each) and then their bytes, in one run of pieces.
    let count = header.patterns as usize;
    let (mut bytes, result) = match loaded {
        Some((p, t, source)) => {
            let lengths = p
                .patterns
                .iter()
                .flat_map(|p| (p.len() as u64).to_le_bytes());
            let mut bytes: Vec<u8> = lengths.collect();
            bytes.extend(p.patterns.iter().flatten());
            (bytes, Some((p, t, source)))
        }
        None => (vec![0u8; 8 * count + header.pattern_bytes as usize], None),
    };
    for range in share::pieces(bytes.len(), PIECE) {
        waiting.broadcast(world, &mut bytes[range]);
    }
    if let Some((p, t, source)) = result {
        return Ok((p, t, Some(source)));
    }
    let (lengths, mut rest) = bytes.split_at(8 * count);
    let patterns = lengths
        .chunks(8)
        .map(|len| {
            let len = u64::from_le_bytes(len.try_into().expect("8 bytes")) as usize;
            let (p, after) = rest.split_at(len);
            rest = after;
            p.to_vec()
        })
        .collect();
    Ok((
        Patterns {
            patterns,
            format: format(header.patterns_fasta),
        },
        TextFile {
            // Every rank names the text as its own command line does.
            path: PathBuf::new(),
            size: header.text_size,
            format: format(header.text_fasta),
            area: header.area,
            whole: header.text_whole,
        },
        None,
    ))
}

/// Step 3 for FASTA: rank 0 gathers every rank's summary, combines those of the text parts
/// in order, and broadcasts every part's start; each rank returns its own.
fn exchange_starts(
    world: &World,
    waiting: Waiting,
    summary: &Summary,
    grid: Grid,
) -> Result<Start, Error> {
    let rank = world.rank() as usize;
    let malformed = |what: &str| Error::Internal(anyhow::anyhow!("a malformed {what} in a search"));
    let mut words: Vec<u64> = Vec::new();
    if let Some(per_rank) = waiting.gather_words(world, &summary_words(summary)) {
        // One summary per text part: its first rank's.
        let summaries = (0..grid.text_parts)
            .map(|t| summary_of(&per_rank[t * grid.pattern_parts]))
            .collect::<Option<Vec<Summary>>>()
            .ok_or_else(|| malformed("summary"))?;
        words = starts_words(&text::starts(&summaries));
    }
    let mut len = [words.len() as u64];
    waiting.broadcast(world, &mut len[..]);
    words.resize(len[0] as usize, 0);
    waiting.broadcast(world, &mut words[..]);
    starts_of(&words)
        .and_then(|starts| starts.into_iter().nth(grid.text_part(rank)))
        .ok_or_else(|| malformed("list of starts"))
}

/// The memory a rank's search works in: its units' tables (or, `sifted`, the sieve and each
/// pattern's strips), the blocks read (the raw block, a block of sequence bytes, its copy with
/// the history for the windows), the window of a plain text mapped in place (its pages count
/// in the resident set while they are mapped), and the largest window of columns.
fn working_bytes(units: &[Unit], patterns: &[Vec<u8>], k: usize, sifted: bool) -> u64 {
    let mut tables = 0u64;
    let mut window = 0u64;
    if sifted {
        let mine = units
            .iter()
            .flat_map(|u| u.patterns.iter().map(|&p| &patterns[p]));
        tables += Sifted::held(mine.map(|p| p.len()), k);
    }
    for unit in units {
        let longest = unit
            .patterns
            .iter()
            .map(|&p| patterns[p].len())
            .max()
            .unwrap_or(0);
        tables += match unit.class {
            _ if sifted => 0,
            chunks::Class::Strip => {
                let warm = chunks::overlap([longest], k) as usize;
                Strips::held(longest, longest.min(256), warm)
            }
            _ => (VECTOR_BYTES * 263) as u64,
        };
        let columns = (MAX_WINDOW + 2 * longest + k.min(longest)) as u64;
        window = window.max(columns * longest.div_ceil(64) as u64 * 16);
    }
    tables + 4 * BLOCK as u64 + mapped::WINDOW as u64 + window
}

/// The names of the records that hold matches.
fn named_records(found: &Found) -> Vec<(u64, Vec<u8>)> {
    let referenced: BTreeSet<u64> = found.matches.iter().map(Packed::record).collect();
    found
        .names
        .iter()
        .filter(|(r, _)| referenced.contains(r))
        .cloned()
        .collect()
}

/// After the scan, before any match moves, in one collective: whether every rank's scan ended
/// well (as [`agree`] decides it), whether rank 0 has room for every match (24 bytes each) and
/// every rank for the piece it sends, and whether every scan kept all it found
/// ([`Found::too_many`]). Returns the rank's matches and how many there are in all.
fn room_for_matches(
    world: &World,
    waiting: Waiting,
    found: Result<Found, Error>,
    limit: Option<u64>,
) -> Result<(Found, u64), Error> {
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    if limit.is_none() && rank == 0 {
        log::warn!("no memory limit known on this system: the memory pre-check is off");
    }
    // Every rank's [failure, matches, stopped, peak memory, limit] in its own slot: summed,
    // every rank holds them all and decides alike, in one collective.
    let mine = match &found {
        Ok(f) => [
            0,
            f.matches.len() as u64,
            u64::from(f.too_many),
            mem::peak_rss_bytes(),
            limit.unwrap_or(u64::MAX),
        ],
        Err(_) => [failure_word(&found, rank as u64), 0, 0, 0, u64::MAX],
    };
    let mut slots = vec![0u64; ROOM_WORDS * ranks];
    slots[ROOM_WORDS * rank..ROOM_WORDS * (rank + 1)].copy_from_slice(&mine);
    let mut all = vec![0u64; slots.len()];
    waiting.all_reduce_each(world, &slots[..], &mut all[..], SystemOperation::sum());
    let each: Vec<&[u64]> = all.chunks(ROOM_WORDS).collect();
    let worst = each.iter().map(|w| w[0]).max().unwrap_or(0);
    let found = settle(found, worst, rank as u64)?;
    let total: u64 = each.iter().map(|w| w[1]).sum();
    let stopped: u64 = each.iter().map(|w| w[2]).sum();
    // What each rank holds next: rank 0 every other rank's matches, the others a piece.
    let need = |q: usize| match each[q][2] {
        0 => {
            let coming = match q {
                0 => (total - each[0][1]) * PACKED_BYTES as u64,
                _ => PIECE_BYTES,
            };
            budget::need(each[q][3], coming)
        }
        _ => u64::MAX,
    };
    if (0..ranks).all(|q| need(q) <= each[q][4]) {
        return Ok((found, total));
    }
    if rank != 0 {
        return Err(Error::Peer(EXIT_MEMORY));
    }
    let (least, rank_0) = match stopped {
        0 => (
            "",
            format!(
                ", and rank 0 would need about {} to gather them",
                mem::human(need(0))
            ),
        ),
        _ => ("at least ", String::new()),
    };
    Err(Error::Memory(format!(
        "not enough memory for the matches: the search found {least}{} matches \
         ({PACKED_BYTES} bytes each, all gathered on rank 0){rank_0}, the limit is {} per \
         rank; fewer patterns or a lower --max-edits would fit",
        thousands(total),
        mem::human(limit.unwrap_or(0))
    )))
}

/// Step 5's delivery: every rank other than 0 sends rank 0 its matches in pieces of at most
/// [`PIECE_MATCHES`], then the names of their records (each message counted as `control`);
/// rank 0 gets them all with its own, `total` in all, each piece added as it comes.
fn deliver(
    world: &World,
    waiting: Waiting,
    found: Found,
    total: u64,
    traffic: &mut Traffic,
) -> Result<Option<(Vec<Packed>, Names)>, Error> {
    let names = named_records(&found);
    if world.rank() != 0 {
        let root = world.process_at_rank(0);
        let mut send = |bytes: &[u8], tag| {
            mpi::request::scope(|scope| {
                waiting.wait(root.immediate_send_with_tag(scope, bytes, tag));
            });
            traffic.sent(Kind::Control, 0, bytes.len(), None);
        };
        for piece in found.matches.chunks(PIECE_MATCHES) {
            send(&piece_bytes(piece), tag::MATCHES);
        }
        send(&names_bytes(&names), tag::NAMES);
        return Ok(None);
    }
    let mut matches = found.matches;
    matches.reserve_exact(usize::try_from(total).unwrap_or(usize::MAX) - matches.len());
    let mut all_names: Names = names.into_iter().collect();
    let malformed = |from: usize| {
        Error::Internal(anyhow::anyhow!(
            "a malformed message of matches from rank {from}"
        ))
    };
    let mut done = 1;
    while done < world.size() {
        let (bytes, status) = waiting.receive_any(world);
        traffic.received(Kind::Control, bytes.len());
        let from = status.source_rank() as usize;
        match status.tag() {
            tag::MATCHES => piece_of(&bytes, &mut matches)
                .filter(|()| matches.len() as u64 <= total)
                .ok_or_else(|| malformed(from))?,
            tag::NAMES => {
                all_names.extend(names_of(&bytes).ok_or_else(|| malformed(from))?);
                done += 1;
            }
            _ => return Err(malformed(from)),
        }
    }
    Ok(Some((matches, all_names)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::EXIT_USAGE;

    #[test]
    fn only_the_names_of_records_with_matches_go_to_rank_0() {
        let packed = |pattern, record, end| {
            Packed::new(&lcs_core::search::Match {
                pattern,
                record,
                start: end - 1,
                end,
                distance: 0,
            })
        };
        let found = Found {
            matches: vec![packed(3, 7, 42), packed(0, 1 << 40, 1), packed(1, 7, 50)],
            names: vec![
                (7, b"chr7 and more".to_vec()),
                (8, b"unused".to_vec()),
                (1 << 40, vec![]),
            ],
            ..Found::default()
        };
        let names = named_records(&found);
        let want: Vec<(u64, Vec<u8>)> = vec![(7, b"chr7 and more".to_vec()), (1 << 40, vec![])];
        assert_eq!(names, want);
    }

    #[test]
    fn k_and_lengths_are_checked() {
        let p = |lens: &[usize]| -> Vec<Vec<u8>> { lens.iter().map(|&l| vec![b'A'; l]).collect() };
        assert!(check_patterns(&p(&[4, 3]), 1, 2, false).is_ok());
        assert!(check_patterns(&p(&[4, 3]), 2, 2, false).is_ok());
        let err = check_patterns(&p(&[4, 3]), 2, 3, false).unwrap_err();
        assert_eq!(err.exit_code(), EXIT_USAGE);
        assert!(err.to_string().contains("pattern 1 (3 bytes)"), "{err}");
        assert!(err.to_string().contains("--allow-all"), "{err}");
        assert!(check_patterns(&p(&[4, 3]), 2, 30, true).is_ok());
        let err = check_patterns(&p(&[MAX_PATTERN + 1]), 2, 3, true).unwrap_err();
        assert!(err.to_string().contains("limited to 8192"), "{err}");
        assert!(check_count(1 << 32, 1).is_ok());
        assert!(check_count(1 << 31, 2).is_ok());
        let err = check_count((1 << 31) + 1, 2).unwrap_err();
        assert_eq!(err.exit_code(), EXIT_USAGE);
        let want =
            "2,147,483,649 patterns: a search takes at most 4,294,967,296, each counted twice";
        assert!(err.to_string().contains(want), "{err}");
        assert!(check_count((1 << 32) + 1, 1).is_err());
    }
}
