//! One `search` run over MPI: rank 0 reads the patterns and checks the text, every rank opens
//! the text itself, the ranks share the work as [`lcs_core::search::chunks`] plans it, each scans its part
//! ([`super::scan`]), and the matches go to rank 0 in counted messages.
//!
//! 1. Rank 0 runs the caller's checks (the output paths), reads the patterns file, checks them
//!    against `k` and the length limit, and checks the text ([`text::open_text`]); then it
//!    broadcasts an ok/error code, the text's layout and the patterns (their lengths, then
//!    their bytes in pieces). On error every rank returns it together; only rank 0's carries
//!    the message.
//! 2. Every rank opens the text at the same path and checks that it sees the size rank 0 saw:
//!    each reads its own byte range, so the file must be one they all see (one host, or a
//!    shared file system). A rank that cannot says why, and every rank stops.
//! 3. The plan: units, grid, this rank's text range and units; for FASTA each rank summarises
//!    its range, rank 0 gathers the summaries of the text parts and broadcasts every part's
//!    start ([`text::starts`]).
//! 4. The memory check, decided over all ranks as `solve`'s is: the units' tables, the blocks
//!    and the longest window of columns for the starts.
//! 5. The scan, then every rank other than 0 sends its matches and the names of their records
//!    to rank 0: one `control` message (more, in pieces of at most [`share::PIECE`] bytes,
//!    when they are larger), counted as every message of this program is.
//! 6. Every rank's record is gathered to rank 0 (a collective, not counted, as `solve`'s).
//!
//! The setup's exchanges (the broadcasts, the summaries' gather, the agreement on errors) are
//! collectives too, and not counted: what the counts show is what the search itself sends.
//! Any failure after the first step is agreed on by all ranks (a reduction of exit codes), and
//! the rank that failed prints its message with its rank.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::comm::protocol::{tag, Kind};
use crate::comm::share::{self, PIECE};
use crate::comm::stats::{self, Words, HOST_BYTES};
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::engines::budget;
use crate::engines::search::scan::{self, Found, Match, Task};
use crate::engines::solve::{check_memory, memory_limit};
use crate::error::Error;
use crate::input::patterns::{self, Patterns};
use crate::input::text::{self, Start, Summary, TextFile, BLOCK};
use crate::input::{Format, InputError};
use crate::mem;
use crate::provenance::HostInfo;
use lcs_core::search::chunks::{self, Grid, Unit};
use lcs_core::search::lanes::{Simd, VECTOR_BYTES};
use lcs_core::search::starts::MAX_WINDOW;

/// Longest pattern accepted: the starts' windows hold two bits per pattern byte and text byte
/// of up to `MAX_WINDOW + 2 m` text bytes, some 40 MB at this length.
pub const MAX_PATTERN: usize = 8192;

/// What a `search` run is asked to do.
pub struct Request<'a> {
    pub patterns: PathBuf,
    pub text: PathBuf,
    /// Largest patterns file accepted, in bytes.
    pub max_input: u64,
    pub k: usize,
    /// Accept `k` at least as long as a pattern (every position then matches).
    pub allow_all: bool,
    pub memory_limit: Option<u64>,
    /// The kernel's compilation, if the caller chooses it (else the best the CPU has).
    pub simd: Option<Simd>,
    pub waiting: Waiting,
    /// Rank 0's checks before it reads anything (e.g. that every output path can be written).
    pub before_reading: &'a dyn Fn() -> Result<(), Error>,
}

/// What one rank did, as one fixed-size record.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RankSearch {
    /// The rank's text range (file offsets) and its units and patterns.
    pub text_start: u64,
    pub text_end: u64,
    pub units: u64,
    pub patterns: u64,
    /// Text bytes scanned (warm-up included), and of them the warm-up.
    pub scanned: u64,
    pub warm_up: u64,
    pub matches: u64,
    /// Control messages and bytes sent and received.
    pub sent: u64,
    pub sent_bytes: u64,
    pub received: u64,
    pub received_bytes: u64,
    pub peak_rss_bytes: u64,
    pub memory_estimate_bytes: u64,
    /// Seconds summarising the range (FASTA), scanning it (reading included) and, of that,
    /// locating starts.
    pub seconds_summary: f64,
    pub seconds_scan: f64,
    pub seconds_starts: f64,
    pub simd: u64,
    pub cores: u64,
    /// The host's name, eight bytes to a word, zero-padded.
    host: [u64; HOST_BYTES / 8],
}

impl RankSearch {
    pub fn host(&self) -> HostInfo {
        let bytes: Vec<u8> = self.host.iter().flat_map(|w| w.to_le_bytes()).collect();
        let len = bytes.iter().position(|&b| b == 0).unwrap_or(HOST_BYTES);
        HostInfo {
            name: String::from_utf8_lossy(&bytes[..len]).into_owned(),
            cores: self.cores as usize,
        }
    }

    /// Records `host` as this rank's.
    fn set_host(&mut self, host: &HostInfo) {
        let name = host.name.as_bytes();
        let mut words = Vec::new();
        pack(&name[..name.len().min(HOST_BYTES)], &mut words);
        self.host = [0; HOST_BYTES / 8];
        self.host[..words.len()].copy_from_slice(&words);
        self.cores = host.cores as u64;
    }

    pub fn simd(&self) -> Simd {
        SIMDS[self.simd as usize % SIMDS.len()]
    }
}

const SIMDS: [Simd; 3] = [Simd::Avx512, Simd::Avx2, Simd::Portable];

impl Words for RankSearch {
    const WORDS: usize = 19 + HOST_BYTES / 8;

    fn put(&self, out: &mut Vec<u64>) {
        out.extend([
            self.text_start,
            self.text_end,
            self.units,
            self.patterns,
            self.scanned,
            self.warm_up,
            self.matches,
            self.sent,
            self.sent_bytes,
            self.received,
            self.received_bytes,
            self.peak_rss_bytes,
            self.memory_estimate_bytes,
            self.seconds_summary.to_bits(),
            self.seconds_scan.to_bits(),
            self.seconds_starts.to_bits(),
            self.simd,
            self.cores,
            0,
        ]);
        out.extend(self.host);
    }

    fn take(words: &[u64]) -> RankSearch {
        let f = |k: usize| f64::from_bits(words[k]);
        let mut host = [0u64; HOST_BYTES / 8];
        host.copy_from_slice(&words[19..19 + HOST_BYTES / 8]);
        RankSearch {
            text_start: words[0],
            text_end: words[1],
            units: words[2],
            patterns: words[3],
            scanned: words[4],
            warm_up: words[5],
            matches: words[6],
            sent: words[7],
            sent_bytes: words[8],
            received: words[9],
            received_bytes: words[10],
            peak_rss_bytes: words[11],
            memory_estimate_bytes: words[12],
            seconds_summary: f(13),
            seconds_scan: f(14),
            seconds_starts: f(15),
            simd: words[16],
            cores: words[17],
            host,
        }
    }
}

/// Records' names by record.
pub type Names = BTreeMap<u64, Vec<u8>>;

/// What rank 0 holds once a search is over.
pub struct Searched {
    pub patterns: Vec<Vec<u8>>,
    pub patterns_format: Format,
    pub text: TextFile,
    pub k: usize,
    pub grid: Grid,
    /// Every match, by pattern, record and end.
    pub matches: Vec<Match>,
    /// The names of the records with matches (FASTA).
    pub names: Names,
    pub ranks: Vec<RankSearch>,
    pub started_at: SystemTime,
    /// From the start until rank 0 held every match.
    pub seconds_total: f64,
}

/// Runs `request` on this rank. Collective. Rank 0 gets what the search found, other ranks
/// `None`; an error is every rank's, with the message on the rank that met it.
pub fn search(
    world: &SimpleCommunicator,
    request: &Request<'_>,
) -> Result<Option<Searched>, Error> {
    let started = Instant::now();
    let started_at = SystemTime::now();
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let waiting = request.waiting;
    let loaded = (rank == 0).then(|| load(request));
    let (patterns, text) = share_inputs(world, waiting, loaded)?;
    let simd = agree(world, waiting, choose_simd(request.simd))?;
    let file = agree(world, waiting, open_same(&request.text, &text, rank))?;

    let k = request.k;
    let lengths: Vec<usize> = patterns.patterns.iter().map(Vec::len).collect();
    let units = chunks::units(&lengths, k);
    let weights: Vec<u64> = units.iter().map(|u| u.weight).collect();
    let overlap = chunks::overlap(lengths.iter().copied(), k);
    let area = text.area.clone();
    let grid = Grid::choose(ranks, area.end - area.start, &weights, overlap);
    let runs = chunks::balance(&weights, grid.pattern_parts);
    let mine: &[Unit] = &units[runs[grid.pattern_part(rank)].clone()];
    let range = chunks::text_range(area.clone(), grid.text_parts, grid.text_part(rank));
    log::info!("grid {grid:?}: text {range:?}, {} units", mine.len());

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
            exchange_starts(world, waiting, &summary, grid)
        }
    };
    let seconds_summary = summarising.elapsed().as_secs_f64();

    let baseline = mem::peak_rss_bytes();
    let limit = memory_limit(world, request.memory_limit);
    let working = working_bytes(mine, &patterns.patterns, k);
    let need = budget::need(baseline, working);
    check_memory(world, waiting, need, limit, || {
        format!(
            "not enough memory: a rank of this search needs about {} (its patterns' tables, \
             the text's blocks and the starts' windows), the limit is {}; fewer or shorter \
             patterns per rank would fit (more ranks split the patterns when the text is short)",
            mem::human(need),
            mem::human(limit.unwrap_or(0))
        )
    })?;

    let scanning = Instant::now();
    let task = Task {
        patterns: &patterns.patterns,
        units: mine,
        k,
        simd,
    };
    let found = scan::search_range(&file, &text, range.clone(), &start, &task)
        .map_err(|e| crate::input::unreadable(&request.text, e).into());
    let found = agree(world, waiting, found)?;
    let seconds_scan = scanning.elapsed().as_secs_f64();

    let mut traffic = Traffic::new(rank, ranks, false);
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
        simd: SIMDS.iter().position(|&s| s == simd).unwrap_or(2) as u64,
        ..RankSearch::default()
    };
    let delivered = deliver(world, waiting, found, &mut traffic);
    let seconds_total = started.elapsed().as_secs_f64();
    record.sent = traffic.sent.control;
    record.sent_bytes = traffic.sent_bytes.control;
    record.received = traffic.received.control;
    record.received_bytes = traffic.received_bytes.control;
    record.peak_rss_bytes = mem::peak_rss_bytes();
    record.set_host(&HostInfo::here());
    let all = stats::gather_varcount(world, &[record], waiting);
    let (Some((mut matches, names)), Some(all)) = (delivered, all) else {
        return Ok(None);
    };
    matches.sort_unstable_by_key(|m| (m.pattern, m.record, m.end));
    Ok(Some(Searched {
        patterns: patterns.patterns,
        patterns_format: patterns.format,
        text,
        k,
        grid,
        matches,
        names,
        ranks: all,
        started_at,
        seconds_total,
    }))
}

/// Rank 0's part of step 1: the caller's checks, the patterns, the text.
fn load(request: &Request<'_>) -> Result<(Patterns, TextFile), Error> {
    (request.before_reading)()?;
    let patterns = patterns::read_patterns(&request.patterns, request.max_input)?;
    check_patterns(&patterns.patterns, request.k, request.allow_all)?;
    let text = text::open_text(&request.text)?;
    Ok((patterns, text))
}

/// Refuses a pattern longer than [`MAX_PATTERN`], and `k` at least as long as a pattern
/// unless every position may match.
pub fn check_patterns(patterns: &[Vec<u8>], k: usize, allow_all: bool) -> Result<(), Error> {
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

/// The compilation to run: the caller's, if this CPU has it, else the best it has.
fn choose_simd(forced: Option<Simd>) -> Result<Simd, Error> {
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
fn open_same(path: &Path, text: &TextFile, rank: usize) -> Result<File, Error> {
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
    Ok(file)
}

/// Decides `result` over all ranks: every rank returns an error if one met one. The rank that
/// met it keeps its error (rank 0's is printed by the caller; another rank prints its own
/// here, with its rank); the others get [`Error::Peer`].
fn agree<T>(
    world: &SimpleCommunicator,
    waiting: Waiting,
    result: Result<T, Error>,
) -> Result<T, Error> {
    let code = result
        .as_ref()
        .err()
        .map_or(0, |e| u64::from(e.exit_code()));
    let mut worst = 0u64;
    waiting.all_reduce(world, &code, &mut worst, SystemOperation::max());
    match (result, world.rank()) {
        (Ok(value), _) if worst == 0 => Ok(value),
        (Err(e), 0) => Err(e),
        (Err(e), rank) => {
            eprintln!("mpi-lcs: error: rank {rank}: {e:#}");
            Err(Error::Peer(e.exit_code()))
        }
        (Ok(_), _) => Err(Error::Peer(worst as u8)),
    }
}

/// Step 1's broadcast: rank 0 passes what it loaded, the others `None`; every rank returns
/// the patterns and the text's layout, or the error.
fn share_inputs(
    world: &SimpleCommunicator,
    waiting: Waiting,
    loaded: Option<Result<(Patterns, TextFile), Error>>,
) -> Result<(Patterns, TextFile), Error> {
    let root = world.process_at_rank(0);
    // [code, patterns, their bytes, patterns' format, text size, text format, area start, end]
    let mut header = [0u64; 8];
    if let Some(loaded) = &loaded {
        header = match loaded {
            Ok((p, t)) => [
                0,
                p.patterns.len() as u64,
                p.patterns.iter().map(|p| p.len() as u64).sum(),
                u64::from(p.format == Format::Fasta),
                t.size,
                u64::from(t.format == Format::Fasta),
                t.area.start,
                t.area.end,
            ],
            Err(e) => [u64::from(e.exit_code()), 0, 0, 0, 0, 0, 0, 0],
        };
    }
    // Rank 0 may be reading the patterns from a person or a pipe: the others sleep.
    Waiting::Sleep.broadcast(&root, &mut header[..]);
    let format = |fasta: u64| {
        if fasta == 1 {
            Format::Fasta
        } else {
            Format::Plain
        }
    };
    let (mut lengths, mut bytes, result) = match loaded {
        Some(Err(e)) => return Err(e),
        None if header[0] != 0 => return Err(Error::Peer(header[0] as u8)),
        Some(Ok((p, t))) => (
            p.patterns.iter().map(|p| p.len() as u64).collect(),
            p.patterns.concat(),
            Some((p, t)),
        ),
        None => (
            vec![0u64; header[1] as usize],
            vec![0u8; header[2] as usize],
            None,
        ),
    };
    waiting.broadcast(&root, &mut lengths[..]);
    for range in share::pieces(bytes.len(), PIECE) {
        waiting.broadcast(&root, &mut bytes[range]);
    }
    if let Some(kept) = result {
        return Ok(kept);
    }
    let mut at = 0;
    let patterns = lengths
        .iter()
        .map(|&len| {
            let p = bytes[at..at + len as usize].to_vec();
            at += len as usize;
            p
        })
        .collect();
    Ok((
        Patterns {
            patterns,
            format: format(header[3]),
        },
        TextFile {
            // Every rank names the text as its own command line does.
            path: PathBuf::new(),
            size: header[4],
            format: format(header[5]),
            area: header[6]..header[7],
        },
    ))
}

/// A summary as words: lead, line start, headers, tail, ends in header, the name's length,
/// then the name eight bytes to a word.
fn summary_words(s: &Summary) -> Vec<u64> {
    let mut out = vec![
        s.lead,
        u64::from(s.line_start),
        s.headers,
        s.tail,
        u64::from(s.ends_in_header),
        s.last_name.len() as u64,
    ];
    pack(&s.last_name, &mut out);
    out
}

fn summary_of(words: &[u64]) -> (Summary, usize) {
    let len = words[5] as usize;
    let summary = Summary {
        lead: words[0],
        line_start: words[1] == 1,
        headers: words[2],
        tail: words[3],
        ends_in_header: words[4] == 1,
        last_name: unpack(&words[6..], len),
    };
    (summary, 6 + len.div_ceil(8))
}

/// Bytes appended to `out` eight to a word, little-endian, the last word padded with zeros.
fn pack(bytes: &[u8], out: &mut Vec<u64>) {
    out.extend(bytes.chunks(8).map(|c| {
        let mut word = [0u8; 8];
        word[..c.len()].copy_from_slice(c);
        u64::from_le_bytes(word)
    }));
}

fn unpack(words: &[u64], len: usize) -> Vec<u8> {
    let mut out: Vec<u8> = words[..len.div_ceil(8)]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    out.truncate(len);
    out
}

/// Step 3 for FASTA: rank 0 gathers every rank's summary, combines those of the text parts
/// in order, and broadcasts every part's start; each rank returns its own.
fn exchange_starts(
    world: &SimpleCommunicator,
    waiting: Waiting,
    summary: &Summary,
    grid: Grid,
) -> Start {
    let root = world.process_at_rank(0);
    let rank = world.rank() as usize;
    let mut starts_words: Vec<u64> = Vec::new();
    if let Some(per_rank) = waiting.gather_words(world, &summary_words(summary)) {
        // One summary per text part: its first rank's.
        let summaries: Vec<Summary> = (0..grid.text_parts)
            .map(|t| summary_of(&per_rank[t * grid.pattern_parts]).0)
            .collect();
        for start in text::starts(&summaries) {
            starts_words.extend([
                u64::from(start.in_header),
                start.record.map_or(0, |r| r + 1),
                start.offset,
                start.name.len() as u64,
            ]);
            pack(&start.name, &mut starts_words);
        }
    }
    let mut len = [starts_words.len() as u64];
    waiting.broadcast(&root, &mut len[..]);
    starts_words.resize(len[0] as usize, 0);
    waiting.broadcast(&root, &mut starts_words[..]);
    let mut at = 0;
    let mut part = 0;
    loop {
        let name_len = starts_words[at + 3] as usize;
        let start = Start {
            in_header: starts_words[at] == 1,
            record: starts_words[at + 1].checked_sub(1),
            offset: starts_words[at + 2],
            name: unpack(&starts_words[at + 4..], name_len),
        };
        if part == grid.text_part(rank) {
            return start;
        }
        at += 4 + name_len.div_ceil(8);
        part += 1;
    }
}

/// The memory a rank's search works in: its units' tables, the blocks read (the raw block, a
/// block of sequence bytes, its copy with the history for the windows), and the largest
/// window of columns.
fn working_bytes(units: &[Unit], patterns: &[Vec<u8>], k: usize) -> u64 {
    let mut tables = 0u64;
    let mut window = 0u64;
    for unit in units {
        let longest = unit
            .patterns
            .iter()
            .map(|&p| patterns[p].len())
            .max()
            .unwrap_or(0);
        tables += match unit.class {
            chunks::Class::Long => {
                let words = longest.div_ceil(64) as u64;
                (words * 8) * 258 + 1024
            }
            _ => (VECTOR_BYTES * 263) as u64,
        };
        let columns = (MAX_WINDOW + 2 * longest + k.min(longest)) as u64;
        window = window.max(columns * longest.div_ceil(64) as u64 * 16);
    }
    tables + 4 * BLOCK as u64 + window
}

/// A rank's matches and the names of their records, as bytes: the total length, the number
/// of matches and of names, each match as five words, each name as its record, its length and
/// its bytes.
fn encode(found: &Found) -> Vec<u8> {
    let referenced: std::collections::BTreeSet<u64> =
        found.matches.iter().map(|m| m.record).collect();
    let names: Vec<&(u64, Vec<u8>)> = found
        .names
        .iter()
        .filter(|(r, _)| referenced.contains(r))
        .collect();
    let mut words = vec![0, found.matches.len() as u64, names.len() as u64];
    for m in &found.matches {
        words.extend([
            m.pattern as u64,
            m.record,
            m.start,
            m.end,
            m.distance as u64,
        ]);
    }
    for (record, name) in names {
        words.extend([*record, name.len() as u64]);
        pack(name, &mut words);
    }
    words[0] = words.len() as u64 * 8;
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The matches and names of [`encode`]'s bytes.
fn decode(bytes: &[u8], matches: &mut Vec<Match>, names: &mut Names) {
    let words: Vec<u64> = bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    let (count, named) = (words[1] as usize, words[2] as usize);
    let mut at = 3;
    for _ in 0..count {
        let w = &words[at..at + 5];
        matches.push(Match {
            pattern: w[0] as usize,
            record: w[1],
            start: w[2],
            end: w[3],
            distance: w[4] as usize,
        });
        at += 5;
    }
    for _ in 0..named {
        let (record, len) = (words[at], words[at + 1] as usize);
        names.insert(record, unpack(&words[at + 2..], len));
        at += 2 + len.div_ceil(8);
    }
}

/// Step 5: every rank other than 0 sends rank 0 its matches (one message, or pieces of at
/// most [`PIECE`] bytes, each counted as a `control` message); rank 0 gets them all with its
/// own.
fn deliver(
    world: &SimpleCommunicator,
    waiting: Waiting,
    found: Found,
    traffic: &mut Traffic,
) -> Option<(Vec<Match>, Names)> {
    let bytes = encode(&found);
    if world.rank() != 0 {
        let root = world.process_at_rank(0);
        for range in share::pieces(bytes.len(), PIECE) {
            let piece = &bytes[range];
            mpi::request::scope(|scope| {
                waiting.wait(root.immediate_send_with_tag(scope, piece, tag::MATCHES));
            });
            traffic.sent(Kind::Control, 0, piece.len(), None);
        }
        return None;
    }
    let mut matches = Vec::new();
    let mut names = BTreeMap::new();
    decode(&bytes, &mut matches, &mut names);
    let ranks = world.size() as usize;
    let mut pending: Vec<Vec<u8>> = vec![Vec::new(); ranks];
    let mut done = 1;
    while done < ranks {
        let (piece, status) = waiting.receive_any(world);
        debug_assert_eq!(status.tag(), tag::MATCHES);
        traffic.received(Kind::Control, piece.len());
        let from = status.source_rank() as usize;
        pending[from].extend_from_slice(&piece);
        let buffer = &pending[from];
        let total = buffer
            .get(..8)
            .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")) as usize);
        if total == Some(buffer.len()) {
            decode(buffer, &mut matches, &mut names);
            pending[from] = Vec::new();
            done += 1;
        }
    }
    Some((matches, names))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::EXIT_USAGE;

    #[test]
    fn matches_and_names_survive_their_bytes() {
        let found = Found {
            matches: vec![
                Match {
                    pattern: 3,
                    record: 7,
                    start: 10,
                    end: 42,
                    distance: 2,
                },
                Match {
                    pattern: 0,
                    record: 1 << 40,
                    start: 0,
                    end: 1,
                    distance: 0,
                },
            ],
            names: vec![
                (7, b"chr7 and more".to_vec()),
                (8, b"unused".to_vec()),
                (1 << 40, vec![]),
            ],
            ..Found::default()
        };
        let bytes = encode(&found);
        assert_eq!(
            u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize,
            bytes.len()
        );
        let (mut matches, mut names) = (Vec::new(), BTreeMap::new());
        decode(&bytes, &mut matches, &mut names);
        assert_eq!(matches, found.matches);
        let want: BTreeMap<u64, Vec<u8>> =
            [(7, b"chr7 and more".to_vec()), (1 << 40, vec![])].into();
        assert_eq!(names, want);
    }

    #[test]
    fn summaries_and_records_survive_their_words() {
        let s = Summary {
            lead: 5,
            line_start: true,
            headers: 2,
            last_name: b"a name of 17 bytes".to_vec(),
            tail: 9,
            ends_in_header: true,
        };
        let words = summary_words(&s);
        assert_eq!(summary_of(&words), (s, words.len()));
        let mut record = RankSearch {
            text_start: 1,
            text_end: 2,
            seconds_scan: 0.5,
            simd: 1,
            ..RankSearch::default()
        };
        record.set_host(&HostInfo {
            name: "n01".into(),
            cores: 4,
        });
        let mut words = Vec::new();
        record.put(&mut words);
        assert_eq!(words.len(), RankSearch::WORDS);
        let back = RankSearch::take(&words);
        assert_eq!(back, record);
        assert_eq!(back.host().name, "n01");
        assert_eq!(back.simd(), Simd::Avx2);
    }

    #[test]
    fn k_and_lengths_are_checked() {
        let p = |lens: &[usize]| -> Vec<Vec<u8>> { lens.iter().map(|&l| vec![b'A'; l]).collect() };
        assert!(check_patterns(&p(&[4, 3]), 2, false).is_ok());
        let err = check_patterns(&p(&[4, 3]), 3, false).unwrap_err();
        assert_eq!(err.exit_code(), EXIT_USAGE);
        assert!(err.to_string().contains("pattern 1 (3 bytes)"), "{err}");
        assert!(err.to_string().contains("--allow-all"), "{err}");
        assert!(check_patterns(&p(&[4, 3]), 30, true).is_ok());
        let err = check_patterns(&p(&[MAX_PATTERN + 1]), 3, true).unwrap_err();
        assert!(err.to_string().contains("limited to 8192"), "{err}");
    }
}
