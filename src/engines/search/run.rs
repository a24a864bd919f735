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

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::comm::protocol::search::{
    matches_bytes, matches_len, matches_of, starts_of, starts_words, summary_of, summary_words,
    Header,
};
use crate::comm::protocol::{tag, Kind};
use crate::comm::share::{self, PIECE};
use crate::comm::stats::{self, RankSearch};
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::engines::budget;
use crate::engines::search::scan::{self, Found, Task};
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
use lcs_core::search::Match;

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
            exchange_starts(world, waiting, &summary, grid)?
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
        simd,
        ..RankSearch::default()
    };
    let delivered = deliver(world, waiting, found, &mut traffic)?;
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
pub(crate) fn agree<T>(
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
    let mut header = Header::default();
    if let Some(loaded) = &loaded {
        header = match loaded {
            Ok((p, t)) => Header {
                code: 0,
                patterns: p.patterns.len() as u64,
                pattern_bytes: p.patterns.iter().map(|p| p.len() as u64).sum(),
                patterns_fasta: p.format == Format::Fasta,
                text_size: t.size,
                text_fasta: t.format == Format::Fasta,
                area: t.area.clone(),
            },
            Err(e) => Header {
                code: e.exit_code(),
                ..Header::default()
            },
        };
    }
    // Rank 0 may be reading the patterns from a person or a pipe: the others sleep.
    let mut words = header.to_words();
    Waiting::Sleep.broadcast(&root, &mut words[..]);
    let header = Header::of_words(&words)
        .ok_or_else(|| Error::Internal(anyhow::anyhow!("a malformed search header from rank 0")))?;
    let format = |fasta: bool| if fasta { Format::Fasta } else { Format::Plain };
    let (mut lengths, mut bytes, result) = match loaded {
        Some(Err(e)) => return Err(e),
        None if header.code != 0 => return Err(Error::Peer(header.code)),
        Some(Ok((p, t))) => (
            p.patterns.iter().map(|p| p.len() as u64).collect(),
            p.patterns.concat(),
            Some((p, t)),
        ),
        None => (
            vec![0u64; header.patterns as usize],
            vec![0u8; header.pattern_bytes as usize],
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
            format: format(header.patterns_fasta),
        },
        TextFile {
            // Every rank names the text as its own command line does.
            path: PathBuf::new(),
            size: header.text_size,
            format: format(header.text_fasta),
            area: header.area,
        },
    ))
}

/// Step 3 for FASTA: rank 0 gathers every rank's summary, combines those of the text parts
/// in order, and broadcasts every part's start; each rank returns its own.
fn exchange_starts(
    world: &SimpleCommunicator,
    waiting: Waiting,
    summary: &Summary,
    grid: Grid,
) -> Result<Start, Error> {
    let root = world.process_at_rank(0);
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
    waiting.broadcast(&root, &mut len[..]);
    words.resize(len[0] as usize, 0);
    waiting.broadcast(&root, &mut words[..]);
    starts_of(&words)
        .and_then(|starts| starts.into_iter().nth(grid.text_part(rank)))
        .ok_or_else(|| malformed("list of starts"))
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

/// The names of the records that hold matches.
fn named_records(found: &Found) -> Vec<(u64, Vec<u8>)> {
    let referenced: BTreeSet<u64> = found.matches.iter().map(|m| m.record).collect();
    found
        .names
        .iter()
        .filter(|(r, _)| referenced.contains(r))
        .cloned()
        .collect()
}

/// Step 5: every rank other than 0 sends rank 0 its matches (one message, or pieces of at
/// most [`PIECE`] bytes, each counted as a `control` message); rank 0 gets them all with its
/// own.
fn deliver(
    world: &SimpleCommunicator,
    waiting: Waiting,
    found: Found,
    traffic: &mut Traffic,
) -> Result<Option<(Vec<Match>, Names)>, Error> {
    let names = named_records(&found);
    let bytes = matches_bytes(&found.matches, &names);
    if world.rank() != 0 {
        let root = world.process_at_rank(0);
        for range in share::pieces(bytes.len(), PIECE) {
            let piece = &bytes[range];
            mpi::request::scope(|scope| {
                waiting.wait(root.immediate_send_with_tag(scope, piece, tag::MATCHES));
            });
            traffic.sent(Kind::Control, 0, piece.len(), None);
        }
        return Ok(None);
    }
    let mut matches = found.matches;
    let mut all_names: Names = names.into_iter().collect();
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
        if matches_len(buffer) == Some(buffer.len()) {
            let (theirs, names) = matches_of(buffer).ok_or_else(|| {
                Error::Internal(anyhow::anyhow!(
                    "a malformed message of matches from rank {from}"
                ))
            })?;
            matches.extend(theirs);
            all_names.extend(names);
            pending[from] = Vec::new();
            done += 1;
        }
    }
    Ok(Some((matches, all_names)))
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
        let names = named_records(&found);
        let bytes = matches_bytes(&found.matches, &names);
        assert_eq!(matches_len(&bytes), Some(bytes.len()));
        let (matches, names) = matches_of(&bytes).unwrap();
        assert_eq!(matches, found.matches);
        let want: Vec<(u64, Vec<u8>)> = vec![(7, b"chr7 and more".to_vec()), (1 << 40, vec![])];
        assert_eq!(names, want);
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
