//! One rank's share of a search, with no MPI: its units of patterns ([`Searcher`]) run over its
//! range of the text ([`search_range`]), the warm-up first, each record from a fresh column, and
//! every match located ([`lcs_core::search::starts`]). The text comes in runs of at most a block
//! ([`text::stream`]) and the kernels carry their columns from run to run; the last `m + k` bytes
//! of the record before each run (the *history*) hold the start of any match's window. Memory: the
//! block and its copy with the history, the units' tables, the matches found ([`Packed`], 24 bytes
//! each; a scan stops adding them past the number its task allows, and says so).
//!
//! On a device the same range goes through `super::on_device`, which shares the history and
//! the starts with this file.

use std::io;
use std::ops::Range;
use std::time::Instant;

use crate::input::text::{self, Run, Source, Start, TextFile};
use lcs_core::search::alphabet::Alphabet;
use lcs_core::search::chunks::{self, Unit};
use lcs_core::search::lanes::{Hit, Simd};
use lcs_core::search::searcher;
pub use lcs_core::search::searcher::Searcher;
pub use lcs_core::search::{Match, Packed, PACKED_BYTES};
use lcs_gpu::GpuError;

/// What one rank's scan found and did.
#[derive(Debug, Default)]
pub struct Found {
    /// Matches in the order found (by record, then by end within a run, by pattern).
    pub matches: Vec<Packed>,
    /// The scan found more matches than [`Task::most_matches`] and stopped keeping them.
    pub too_many: bool,
    /// The records whose headers lie in the range, with their names, and the record the range
    /// starts in with its name (from its [`Start`]).
    pub names: Vec<(u64, Vec<u8>)>,
    /// Text bytes scanned: the warm-up and the range's own.
    pub scanned: u64,
    pub warm_up: u64,
    /// Seconds locating starts (part of the scan's).
    pub seconds_starts: f64,
    /// Slices sieved and slices computed whole, where the patterns go through the sieve.
    pub sieved: u64,
    pub whole: u64,
    /// The device failed, and the scan stopped there.
    pub device_error: Option<GpuError>,
}

impl Found {
    /// Adds what the rank's scan of another part of the text found after this one.
    pub fn absorb(&mut self, later: Found) {
        self.matches.extend(later.matches);
        self.too_many |= later.too_many;
        self.names.extend(later.names);
        self.scanned += later.scanned;
        self.warm_up += later.warm_up;
        self.seconds_starts += later.seconds_starts;
        self.sieved += later.sieved;
        self.whole += later.whole;
        self.device_error = self.device_error.take().or(later.device_error);
    }
}

/// Text bytes a device scans at a time (with the history before them).
pub const GPU_WINDOW: usize = 32 << 20;

/// Host bytes a device's scan holds beside the CPU's: the window gathering, and two more with
/// their histories (one on the device, one waiting), and the hits of two windows coming back
/// (12 bytes each, one per byte for every pattern that hits every byte, at least the device's
/// first room for them).
pub fn device_bytes(hits_per_byte: usize) -> u64 {
    let hits = (GPU_WINDOW * hits_per_byte).max(1 << 20) * (12 + std::mem::size_of::<Hit>());
    (3 * GPU_WINDOW + 2 * hits) as u64
}

/// Text bytes scanned at a time: the hits of a slice wait for their starts together (24 bytes
/// each, at most one per byte and pattern), a small part of the matches they become.
const SLICE: usize = 1 << 16;

/// Growth of the list of matches that may stay resident beside it: below glibc's largest
/// threshold for mapping an allocation apart (32 MiB), a list that doubles is copied and the
/// memory it leaves stays with the process; above, it grows in place.
const GROWTH: u64 = 32 << 20;

/// Bytes a scan holds at its peak for `matches` matches found, with `hits_per_byte` patterns
/// that match every end (so hit every byte): the packed matches, what their growth leaves
/// (`GROWTH` at most), and the hits of one `SLICE` waiting for their starts.
pub fn matches_bytes(matches: u64, hits_per_byte: usize) -> u64 {
    let packed = matches * PACKED_BYTES as u64;
    packed + packed.min(GROWTH) + (SLICE * hits_per_byte * std::mem::size_of::<Hit>()) as u64
}

/// What a rank searches for.
pub struct Task<'a> {
    pub patterns: &'a [Vec<u8>],
    /// This rank's units.
    pub units: &'a [Unit],
    pub k: usize,
    /// When a pattern byte matches a text byte.
    pub alphabet: Alphabet,
    pub simd: Simd,
    /// The most matches the scan may keep (what the rank's memory holds); past them it stops
    /// scanning and says so ([`Found::too_many`]).
    pub most_matches: usize,
}

/// The record's last bytes before the current run, for the starts' windows.
pub(super) struct History {
    pub(super) bytes: Vec<u8>,
    /// Record offset of `bytes[0]`.
    pub(super) offset: u64,
    /// Bytes kept: the longest window.
    pub(super) keep: usize,
}

impl History {
    pub(super) fn reset(&mut self, offset: u64) {
        self.bytes.clear();
        self.offset = offset;
    }

    /// Appends `run` (which follows the history) and drops what no window needs: of a run
    /// longer than the history keeps, only its last bytes are copied.
    pub(super) fn push(&mut self, run: &[u8]) {
        if run.len() >= self.keep {
            self.offset += (self.bytes.len() + run.len() - self.keep) as u64;
            self.bytes.clear();
            self.bytes.extend_from_slice(&run[run.len() - self.keep..]);
            return;
        }
        self.bytes.extend_from_slice(run);
        let drop = self.bytes.len().saturating_sub(self.keep);
        self.bytes.drain(..drop);
        self.offset += drop as u64;
    }
}

/// Searches `range` of `text` (open as `file`) from `start`, its state at the range's first
/// byte (see [`text::starts`]): the warm-up before the range first, then the range's own bytes,
/// reporting the matches whose last byte lies in the range.
pub fn search_range(
    file: &Source,
    text: &TextFile,
    range: Range<u64>,
    start: &Start,
    task: &Task<'_>,
) -> io::Result<Found> {
    search_part(file, text, range, start, task, None)
}

/// [`search_range`] of a plain text whose range may end sooner: after each run `end` says where
/// it ends now, given the offset reached ([`text::stream_plain`]).
pub fn search_shrinking(
    file: &Source,
    text: &TextFile,
    range: Range<u64>,
    task: &Task<'_>,
    end: &mut dyn FnMut(u64) -> u64,
) -> io::Result<Found> {
    let start = Start {
        record: Some(0),
        offset: range.start - text.area.start,
        ..Start::default()
    };
    search_part(file, text, range, &start, task, Some(end))
}

fn search_part(
    file: &Source,
    text: &TextFile,
    range: Range<u64>,
    start: &Start,
    task: &Task<'_>,
    end: Option<&mut dyn FnMut(u64) -> u64>,
) -> io::Result<Found> {
    let mut searcher = Searcher::new(
        task.units,
        task.patterns,
        (task.k, task.alphabet),
        task.simd,
    );
    let (mut found, mut history, before) = begin(file, text, (range.clone(), start), task)?;
    if let Some(before) = before {
        let mut none = Vec::new();
        searcher.scan(&before, history.offset, before.len(), &mut none);
        debug_assert!(none.is_empty(), "the warm-up reports nothing");
    }
    let mut hits = Vec::new();
    let mut window = Vec::new();
    let mut each = |run: Run<'_>| {
        if run.first {
            searcher.reset();
            history.reset(0);
        }
        // A slice at a time, so that the hits waiting for their starts stay few beside the
        // matches (with K at least a pattern's length, every byte is a hit).
        for (at, slice) in (0..).step_by(SLICE).zip(run.bytes.chunks(SLICE)) {
            if found.too_many {
                return;
            }
            found.scanned += slice.len() as u64;
            hits.clear();
            searcher.scan(slice, run.offset + at, 0, &mut hits);
            if !hits.is_empty() {
                let started = Instant::now();
                window.clear();
                window.extend_from_slice(&history.bytes);
                window.extend_from_slice(slice);
                locate(
                    task,
                    &mut hits,
                    run.record,
                    &window,
                    history.offset,
                    &mut found.matches,
                );
                found.seconds_starts += started.elapsed().as_secs_f64();
                found.too_many = found.matches.len() > task.most_matches;
            }
            history.push(slice);
        }
    };
    let names = match end {
        Some(end) => {
            text::stream_plain(file, text, range, &mut each, end)?;
            Vec::new()
        }
        None => text::stream(file, text, range, start, &mut each)?,
    };
    found.names.extend(names);
    (found.sieved, found.whole) = searcher.sieve_calls().unwrap_or_default();
    Ok(found)
}

/// The start of a range's scan: what is found before any byte (the name of the record the
/// range starts in), the history for the starts' windows, and the warm-up before the range
/// (the bytes of its record before it, as many as the longest pattern needs, when the range
/// does not start at a record's start), already in the history.
pub(super) fn begin(
    file: &Source,
    text: &TextFile,
    (range, start): (Range<u64>, &Start),
    task: &Task<'_>,
) -> io::Result<(Found, History, Option<Vec<u8>>)> {
    let lengths = task
        .units
        .iter()
        .flat_map(|u| u.patterns.iter().map(|&p| task.patterns[p].len()));
    let overlap = chunks::overlap(lengths.clone(), task.k);
    let keep = chunks::window(lengths, task.k);
    let mut found = Found::default();
    let mut history = History {
        bytes: Vec::new(),
        offset: 0,
        keep,
    };
    let plain = text.format == crate::input::Format::Plain;
    let record = if plain { Some(0) } else { start.record };
    if let (Some(record), false) = (record, plain) {
        found.names.push((record, start.name.clone()));
    }
    let (Some(_), false) = (record, start.in_header) else {
        return Ok((found, history, None));
    };
    let offset = match plain {
        true => range.start - text.area.start,
        false => start.offset,
    };
    let warm = chunks::warm_up(offset, overlap);
    let before = text::read_before(file, text, range.start, warm)?;
    debug_assert_eq!(before.len() as u64, warm);
    history.reset(offset - warm);
    history.push(&before);
    found.warm_up = warm;
    found.scanned = warm;
    Ok((found, history, Some(before)))
}

/// The matches of `hits` (found in a run of `record`), with their starts from `window`, the
/// record's bytes from `offset` on.
pub(super) fn locate(
    task: &Task<'_>,
    hits: &mut [Hit],
    record: u64,
    window: &[u8],
    offset: u64,
    out: &mut Vec<Packed>,
) {
    let patterns = (task.patterns, task.k, task.alphabet);
    searcher::locate(patterns, hits, record, (window, offset), |m| {
        out.push(Packed::new(&m))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Random;
    use lcs_core::search::chunks::{balance, text_range, units};
    use lcs_core::search::oracle;

    /// Patterns of every class in one searcher, over a FASTA text cut into parts, the patterns
    /// split too: every part's matches together are the plain DP's on each record, with their
    /// starts, none lost or doubled.
    #[test]
    fn parts_of_the_text_and_of_the_patterns_find_what_the_plain_dp_finds() {
        let mut rng = Random::new(17);
        for round in 0..12 {
            let alphabet = b"ACGT";
            let patterns: Vec<Vec<u8>> = (0..1 + rng.below(12))
                .map(|_| {
                    let m = [1 + rng.below(8), 1 + rng.below(40), 60 + rng.below(80)][rng.below(3)];
                    rng.bytes(m, alphabet)
                })
                .collect();
            let k = rng.below(5);
            let mut records: Vec<Vec<u8>> = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let len = rng.below(3000);
                let mut r = rng.bytes(len, alphabet);
                for p in &patterns {
                    if rng.coin() && !r.is_empty() {
                        let mut copy = p.clone();
                        let at = rng.below(copy.len());
                        copy[at] = b'A';
                        let at = rng.below(r.len());
                        r.splice(at..at, copy);
                    }
                }
                records.push(r);
            }
            let mut file = Vec::new();
            for (n, r) in records.iter().enumerate() {
                file.extend(format!(">r{n}\n").bytes());
                for line in r.chunks(61) {
                    file.extend_from_slice(line);
                    file.push(b'\n');
                }
            }
            let mut want = Vec::new();
            for (number, p) in patterns.iter().enumerate() {
                for (record, r) in records.iter().enumerate() {
                    for (start, end, distance) in oracle::matches(p, r, k) {
                        want.push(Match {
                            pattern: number,
                            record: record as u64,
                            start: start as u64,
                            end: end as u64,
                            distance,
                        });
                    }
                }
            }
            want.sort();
            let mut named = tempfile::NamedTempFile::new().unwrap();
            std::io::Write::write_all(&mut named, &file).unwrap();
            let (text, handle) = text::open_text(named.path(), u64::MAX).unwrap();
            let lengths: Vec<usize> = patterns.iter().map(Vec::len).collect();
            let all = units(&lengths, k);
            let weights: Vec<u64> = all.iter().map(|u| u.weight).collect();
            let (text_parts, pattern_parts) = (1 + round % 4, 1 + rng.below(2));
            let ranges: Vec<Range<u64>> = (0..text_parts)
                .map(|t| text_range(text.area.clone(), text_parts, t))
                .collect();
            let summaries: Vec<text::Summary> = ranges
                .iter()
                .map(|r| text::summarize(&handle, &text, r.clone()).unwrap())
                .collect();
            let begins = text::starts(&summaries);
            let mut got = Vec::new();
            for simd in [Simd::detect(), Simd::Portable] {
                got.clear();
                for run in balance(&weights, pattern_parts) {
                    for (range, start) in ranges.iter().zip(&begins) {
                        let task = Task {
                            patterns: &patterns,
                            units: &all[run.clone()],
                            k,
                            alphabet: Alphabet::Exact,
                            simd,
                            most_matches: usize::MAX,
                        };
                        let found =
                            search_range(&handle, &text, range.clone(), start, &task).unwrap();
                        for (record, name) in &found.names {
                            assert_eq!(name, format!("r{record}").as_bytes());
                        }
                        assert!(!found.too_many);
                        got.extend(found.matches.iter().map(Packed::unpack));
                    }
                }
                got.sort();
                assert_eq!(got, want, "round {round}, {simd:?}");
            }
        }
    }

    /// Every end matches a pattern no longer than k: a scan allowed 1,000 matches stops in its
    /// first slice and says so; allowed them all, it finds one per byte.
    #[test]
    fn a_scan_stops_keeping_matches_past_what_it_may_hold() {
        let mut rng = Random::new(3);
        let bytes = rng.bytes(3 * SLICE + 17, b"ACGT");
        let mut named = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut named, &bytes).unwrap();
        let (text, source) = text::open_text(named.path(), u64::MAX).unwrap();
        let patterns = vec![b"ACG".to_vec()];
        let all = units(&[3], 3);
        let task = |most_matches| Task {
            patterns: &patterns,
            units: &all,
            k: 3,
            alphabet: Alphabet::Exact,
            simd: Simd::Portable,
            most_matches,
        };
        let range = text.area.clone();
        let whole = search_range(
            &source,
            &text,
            range.clone(),
            &Start::default(),
            &task(usize::MAX),
        )
        .unwrap();
        assert!(!whole.too_many);
        assert_eq!(whole.matches.len(), bytes.len());
        assert_eq!(whole.scanned, bytes.len() as u64);
        let cut = search_range(&source, &text, range, &Start::default(), &task(1000)).unwrap();
        assert!(cut.too_many);
        assert_eq!(cut.matches.len(), SLICE, "one slice's matches");
        assert_eq!(cut.scanned, SLICE as u64);
        assert!(matches_bytes(4_000_000, 4) > 4_000_000 * 24);
    }
}
