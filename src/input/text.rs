//! A search's text, read by byte ranges: each rank reads its own part in blocks of [`BLOCK`] bytes,
//! so no rank holds the text and none sends it: a regular file that every rank opens at the same
//! path (not gzip, which cannot be read from the middle); [`open_text`] checks it on rank 0 and
//! tells its format: **plain** (one sequence, every byte data but one line ending at the very
//! end) or **FASTA** (records, each named by its header's first word, searched on its own).
//!
//! A text whose size the file system does not report (standard input, a FIFO, a device, `/proc`'s
//! files) rank 0 reads whole instead, as `solve` reads its input, and the engine shares its bytes
//! ([`Source::Bytes`]).
//!
//! A plain text is read in place, mapped a window at a time ([`super::mapped`]) where the system
//! maps it.
//!
//! A rank reading FASTA from the middle learns where it is in two steps: [`summarize`] reads its
//! range for line starts and headers only, and [`starts`], from every rank's summary in order,
//! gives the state at each range's first byte ([`Start`]). Then [`stream`] gives the record's bytes
//! in runs, and [`read_before`] the bytes just before the range for the warm-up. Cost: two passes
//! over the range and a block of memory for each; a text read whole costs its size on every rank.
//! `docs/algorithms.md#reading-a-fasta-text-from-the-middle`.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use super::mapped::{Mapped, WINDOW};
use super::{
    in_file, is_stdin, open, read_stream, unreadable, wide_text, Format, FormatError, InputError,
    BOM, GZIP_MAGIC,
};

/// Bytes read at a time.
pub const BLOCK: usize = 1 << 16;

/// A text file checked for a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFile {
    pub path: PathBuf,
    /// The bytes the text holds: the file's size, or what was read of a text read whole.
    pub size: u64,
    pub format: Format,
    /// The sequence area: the file offsets that hold the text (see the module doc).
    pub area: Range<u64>,
    /// Read whole by rank 0 and shared, its size not the file system's (see the module doc).
    pub whole: bool,
}

/// Where a rank reads the text's bytes: the file itself, by ranges, or the bytes rank 0 read
/// whole and shared (see the module doc).
#[derive(Debug)]
pub enum Source {
    File(File),
    Bytes(Vec<u8>),
}

impl Source {
    /// Reads bytes at `offset` into `buf`, as `pread` does: fewer only at the end.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        match self {
            Source::File(file) => file.read_at(buf, offset),
            Source::Bytes(bytes) => {
                let from = usize::try_from(offset).map_or(bytes.len(), |o| o.min(bytes.len()));
                let n = buf.len().min(bytes.len() - from);
                buf[..n].copy_from_slice(&bytes[from..from + n]);
                Ok(n)
            }
        }
    }
}

/// Checks the text at `path` (`-`: standard input) and tells its format; a text whose size the
/// file system does not report is read whole, at most `max_bytes` (see the module doc).
pub fn open_text(path: &Path, max_bytes: u64) -> Result<(TextFile, Source), InputError> {
    let source = if is_stdin(path) {
        Source::Bytes(read_stream(path, io::stdin().lock(), None, max_bytes)?)
    } else {
        let (file, metadata) = open(path)?;
        let sized = metadata.is_file()
            && reports_its_size(&file, metadata.len()).map_err(|e| unreadable(path, e))?;
        if sized {
            Source::File(file)
        } else {
            Source::Bytes(read_stream(path, file, None, max_bytes)?)
        }
    };
    let size = match &source {
        Source::File(file) => file.metadata().map_err(|e| unreadable(path, e))?.len(),
        Source::Bytes(bytes) => bytes.len() as u64,
    };
    let format_error = in_file(path);
    let head = read_at(&source, 0, 4.min(size) as usize).map_err(|e| unreadable(path, e))?;
    if head.starts_with(&GZIP_MAGIC) && matches!(source, Source::File(_)) {
        return Err(format_error(FormatError::Compressed));
    }
    if let Some(wide) = wide_text(&head) {
        return Err(format_error(wide));
    }
    let bom = if head.starts_with(BOM) {
        BOM.len() as u64
    } else {
        0
    };
    let fasta = first_line_is_header(&source, bom, size).map_err(|e| unreadable(path, e))?;
    let (format, area) = if fasta {
        (Format::Fasta, bom..size)
    } else {
        let tail = read_at(&source, size.saturating_sub(2), 2.min(size) as usize)
            .map_err(|e| unreadable(path, e))?;
        let ending = match &tail[..] {
            [b'\r', b'\n'] => 2,
            [.., b'\n'] | [.., b'\r'] => 1,
            _ => 0,
        };
        (Format::Plain, 0..size - ending)
    };
    let text = TextFile {
        path: path.to_path_buf(),
        size,
        format,
        area,
        whole: matches!(source, Source::Bytes(_)),
    };
    Ok((text, source))
}

/// Whether a regular file holds exactly the `size` bytes its metadata reports: its last byte
/// reads, and nothing after it (`/proc`'s files report 0 bytes and hold more, `/sys`'s report
/// 4096 and hold fewer).
fn reports_its_size(file: &File, size: u64) -> io::Result<bool> {
    let mut probe = [0u8; 2];
    let from = size.saturating_sub(1);
    let mut got = 0;
    loop {
        match file.read_at(&mut probe[got..], from + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
        if got == probe.len() {
            break;
        }
    }
    Ok(got as u64 == size.min(1))
}

/// Whether the first line that is not blank (empty, or a lone `\r`) from `from` starts with
/// `>`, reading as far as the blank lines go.
fn first_line_is_header(file: &Source, from: u64, size: u64) -> io::Result<bool> {
    let mut at = from;
    // A `\r` seen at the end of the previous block, its line not yet known to be blank.
    let mut cr = false;
    while at < size {
        let block = read_at(file, at, BLOCK.min((size - at) as usize))?;
        for &b in &block {
            match (cr, b) {
                (_, b'\n') => cr = false,
                (false, b'\r') => cr = true,
                (false, b) => return Ok(b == b'>'),
                (true, _) => return Ok(false),
            }
        }
        at += block.len() as u64;
    }
    Ok(false)
}

/// `len` bytes at `offset` (fewer only at the file's end).
fn read_at(file: &Source, offset: u64, len: usize) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    read_into(file, offset, len, &mut buf)?;
    Ok(buf)
}

/// [`read_at`] into `buf`, whose memory a loop of blocks reuses: a block's fresh pages cost
/// more to fault in and clear than to read.
fn read_into(file: &Source, offset: u64, len: usize, buf: &mut Vec<u8>) -> io::Result<()> {
    // Zeros only past what the buffer held: the bytes below are read over.
    if buf.len() < len {
        buf.resize(len, 0);
    }
    buf.truncate(len);
    let mut got = 0;
    while got < len {
        match file.read_at(&mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(got);
    Ok(())
}

/// The byte at `offset`, or `None` at or past the file's end.
fn byte_at(file: &Source, offset: u64) -> io::Result<Option<u8>> {
    Ok(read_at(file, offset, 1)?.first().copied())
}

/// Where a FASTA walk stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// At the first byte of a line.
    LineStart,
    /// In a header line; `naming` while its first word (the record's name) goes on.
    Header { naming: bool },
    /// In a sequence line.
    Sequence,
}

/// What a walk tells as it goes.
pub trait Sink {
    /// A line starts (after a `\n`).
    fn line_start(&mut self) {}
    /// A header starts: a new record.
    fn header(&mut self) {}
    /// More of the current header's name.
    fn name(&mut self, _bytes: &[u8]) {}
    /// Sequence bytes of the current line.
    fn sequence(&mut self, _bytes: &[u8]) {}
}

/// Walks the lines of FASTA blocks, one after the other (see the module doc).
#[derive(Debug, Clone, Copy)]
pub struct Walker {
    pub mode: Mode,
}

impl Walker {
    /// Walks `block`, which the byte `next` follows in the file (`None` at the file's end).
    pub fn walk(&mut self, block: &[u8], next: Option<u8>, sink: &mut impl Sink) {
        let mut i = 0;
        while i < block.len() {
            if self.mode == Mode::LineStart {
                if block[i] == b'>' {
                    self.mode = Mode::Header { naming: true };
                    sink.header();
                    i += 1;
                } else {
                    self.mode = Mode::Sequence;
                }
                continue;
            }
            let newline = memchr::memchr(b'\n', &block[i..]).map(|p| i + p);
            let line = &block[i..newline.unwrap_or(block.len())];
            match self.mode {
                Mode::Header { naming: true } => {
                    let word = line.iter().position(u8::is_ascii_whitespace);
                    sink.name(&line[..word.unwrap_or(line.len())]);
                    if word.is_some() {
                        self.mode = Mode::Header { naming: false };
                    }
                }
                Mode::Header { naming: false } | Mode::LineStart => {}
                Mode::Sequence => {
                    // A `\r` just before `\n`, or before the file's end, ends the line.
                    let ends = newline.is_some() || matches!(next, None | Some(b'\n'));
                    let piece = match line.split_last() {
                        Some((b'\r', rest)) if ends => rest,
                        _ => line,
                    };
                    sink.sequence(piece);
                }
            }
            match newline {
                Some(at) => {
                    self.mode = Mode::LineStart;
                    sink.line_start();
                    i = at + 1;
                }
                None => i = block.len(),
            }
        }
    }
}

/// What a range of a FASTA text holds, as far as it tells alone (see the module doc).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Sequence bytes before the range's first line start (if that line is a sequence line).
    pub lead: u64,
    /// Whether a line starts in the range (else the whole range is lead).
    pub line_start: bool,
    /// Headers that start in the range, and the last one's name.
    pub headers: u64,
    pub last_name: Vec<u8>,
    /// Sequence bytes after the last header (with none, after the first line start).
    pub tail: u64,
    /// Whether the last line that starts in the range is a header.
    pub ends_in_header: bool,
}

impl Sink for Summary {
    fn line_start(&mut self) {
        self.line_start = true;
    }
    fn header(&mut self) {
        self.headers += 1;
        self.tail = 0;
        self.last_name.clear();
    }
    fn name(&mut self, bytes: &[u8]) {
        self.last_name.extend_from_slice(bytes);
    }
    fn sequence(&mut self, bytes: &[u8]) {
        match self.line_start {
            false => self.lead += bytes.len() as u64,
            true => self.tail += bytes.len() as u64,
        }
    }
}

/// Whether byte `at` of a FASTA text begins a line.
fn begins_line(file: &Source, text: &TextFile, at: u64) -> io::Result<bool> {
    Ok(at <= text.area.start || byte_at(file, at - 1)? == Some(b'\n'))
}

/// Reads `range` of a FASTA text in blocks (each with the byte after it), walking it with
/// `walker`; `after_block` runs after each block. Returns the walk's mode at the range's end.
fn walk_range<S: Sink>(
    file: &Source,
    range: Range<u64>,
    walker: &mut Walker,
    sink: &mut S,
    mut after_block: impl FnMut(&mut S),
) -> io::Result<Mode> {
    let mut at = range.start;
    let mut block = Vec::new();
    while at < range.end {
        let len = BLOCK.min((range.end - at) as usize);
        read_into(file, at, len + 1, &mut block)?;
        let next = (block.len() > len).then(|| block[len]);
        block.truncate(len);
        walker.walk(&block, next, sink);
        after_block(sink);
        at += len as u64;
    }
    Ok(walker.mode)
}

/// The rest of a name that runs past `at` (the bytes up to the next whitespace).
fn name_after(file: &Source, mut at: u64) -> io::Result<Vec<u8>> {
    let mut name = Vec::new();
    loop {
        let block = read_at(file, at, 4096)?;
        let word = block
            .iter()
            .position(u8::is_ascii_whitespace)
            .unwrap_or(block.len());
        name.extend_from_slice(&block[..word]);
        if word < block.len() || block.is_empty() {
            return Ok(name);
        }
        at += block.len() as u64;
    }
}

/// The summary of `range` of a FASTA text (see the module doc).
pub fn summarize(file: &Source, text: &TextFile, range: Range<u64>) -> io::Result<Summary> {
    let mut summary = Summary::default();
    if range.is_empty() {
        return Ok(summary);
    }
    let mode = if begins_line(file, text, range.start)? {
        summary.line_start = true;
        Mode::LineStart
    } else {
        // The lead counted as sequence; if its line is a header, `starts` ignores it.
        Mode::Sequence
    };
    let end = range.end;
    let mode = walk_range(file, range, &mut Walker { mode }, &mut summary, |_| {})?;
    if mode == (Mode::Header { naming: true }) {
        let rest = name_after(file, end)?;
        summary.last_name.extend_from_slice(&rest);
    }
    summary.ends_in_header = summary.line_start && matches!(mode, Mode::Header { .. });
    Ok(summary)
}

/// The state of a FASTA walk at a range's first byte (see the module doc).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Start {
    /// The range begins inside a header line (that began before it).
    pub in_header: bool,
    /// The record the range begins in (its header before the range), counted from 0; `None`
    /// before the first header.
    pub record: Option<u64>,
    /// That record's name (its header's first word; empty if the header has none).
    pub name: Vec<u8>,
    /// Sequence bytes of that record before the range.
    pub offset: u64,
}

/// The start of every range from the summaries of all ranges, in order (see the module doc).
pub fn starts(summaries: &[Summary]) -> Vec<Start> {
    let mut state = Start::default();
    let mut out = Vec::with_capacity(summaries.len());
    for s in summaries {
        out.push(state.clone());
        if !state.in_header && state.record.is_some() {
            state.offset += s.lead;
        }
        if !s.line_start {
            continue;
        }
        if s.headers > 0 {
            state.record = Some(state.record.map_or(s.headers - 1, |r| r + s.headers));
            state.name = s.last_name.clone();
            state.offset = s.tail;
        } else if state.record.is_some() {
            state.offset += s.tail;
        }
        state.in_header = s.ends_in_header;
    }
    out
}

/// The sequence bytes of one record in a range, as [`stream`] hands them out.
#[derive(Debug, PartialEq, Eq)]
pub struct Run<'a> {
    /// The record, counted from 0 over the whole file (0 for a plain text).
    pub record: u64,
    /// Whether the record starts with this run (its header is in the range).
    pub first: bool,
    /// The offset in the record of the run's first byte.
    pub offset: u64,
    pub bytes: &'a [u8],
}

/// Collects one block's sequence bytes for [`stream`].
struct Runs {
    record: Option<u64>,
    first: bool,
    offset: u64,
    bytes: Vec<u8>,
    names: Vec<(u64, Vec<u8>)>,
}

impl Runs {
    /// Hands the bytes gathered so far to `each`, as one run.
    fn flush(&mut self, each: &mut dyn FnMut(Run<'_>)) {
        if let (Some(record), false) = (self.record, self.bytes.is_empty() && !self.first) {
            each(Run {
                record,
                first: self.first,
                offset: self.offset,
                bytes: &self.bytes,
            });
            self.offset += self.bytes.len() as u64;
            self.first = false;
        }
        self.bytes.clear();
    }
}

/// [`Runs`] as a [`Sink`], handing each finished record on.
struct RunSink<'a> {
    runs: Runs,
    each: &'a mut dyn FnMut(Run<'_>),
}

impl Sink for RunSink<'_> {
    fn header(&mut self) {
        self.runs.flush(self.each);
        let record = self.runs.record.map_or(0, |r| r + 1);
        self.runs.record = Some(record);
        self.runs.first = true;
        self.runs.offset = 0;
        self.runs.names.push((record, Vec::new()));
    }
    fn name(&mut self, bytes: &[u8]) {
        if let Some((_, name)) = self.runs.names.last_mut() {
            name.extend_from_slice(bytes);
        }
    }
    fn sequence(&mut self, bytes: &[u8]) {
        if self.runs.record.is_some() {
            self.runs.bytes.extend_from_slice(bytes);
        }
    }
}

/// Walks `range` of a plain text, handing its bytes to `each` in runs of at most a block;
/// after each run `end` says where the range ends now, given the offset reached (it may move
/// the end back, never before that offset: a rank that gives the rest of its part away).
pub fn stream_plain(
    file: &Source,
    text: &TextFile,
    range: Range<u64>,
    each: &mut dyn FnMut(Run<'_>),
    end: &mut dyn FnMut(u64) -> u64,
) -> io::Result<()> {
    let mut at = range.start;
    let mut last = range.end;
    let mut run = |at: u64, bytes: &[u8]| {
        each(Run {
            record: 0,
            first: at == text.area.start,
            offset: at - text.area.start,
            bytes,
        })
    };
    // Mapped a window at a time where the system maps the file, else read.
    if let Source::File(f) = file {
        while at < last {
            let len = WINDOW.min((last - at) as usize);
            let Some(window) = Mapped::new(f, at, len) else {
                break;
            };
            for bytes in window.bytes().chunks(BLOCK) {
                let bytes = &bytes[..bytes.len().min((last - at) as usize)];
                run(at, bytes);
                at += bytes.len() as u64;
                last = end(at).max(at);
                if at >= last {
                    break;
                }
            }
        }
    }
    let mut block = Vec::new();
    while at < last {
        read_into(file, at, BLOCK.min((last - at) as usize), &mut block)?;
        run(at, &block);
        at += block.len() as u64;
        last = end(at).max(at);
    }
    Ok(())
}

/// Walks `range` of `text` from `start`, handing each record's sequence bytes to `each` in
/// runs of at most a block (a record that starts in the range first with `first` set, even
/// when it is empty), and returns the records whose headers start in the range with their
/// names. A plain text is one record, 0, named by nobody.
pub fn stream(
    file: &Source,
    text: &TextFile,
    range: Range<u64>,
    start: &Start,
    each: &mut dyn FnMut(Run<'_>),
) -> io::Result<Vec<(u64, Vec<u8>)>> {
    if text.format == Format::Plain {
        let end = range.end;
        stream_plain(file, text, range, each, &mut |_| end)?;
        return Ok(Vec::new());
    }
    if range.is_empty() {
        return Ok(Vec::new());
    }
    let mode = match (begins_line(file, text, range.start)?, start.in_header) {
        (true, _) => Mode::LineStart,
        (false, true) => Mode::Header { naming: false },
        (false, false) => Mode::Sequence,
    };
    let mut sink = RunSink {
        runs: Runs {
            record: start.record,
            first: false,
            offset: if start.in_header { 0 } else { start.offset },
            bytes: Vec::with_capacity(BLOCK),
            names: Vec::new(),
        },
        each,
    };
    let end = range.end;
    let flush = |sink: &mut RunSink<'_>| sink.runs.flush(sink.each);
    let mode = walk_range(file, range, &mut Walker { mode }, &mut sink, flush)?;
    if mode == (Mode::Header { naming: true }) {
        let rest = name_after(file, end)?;
        if let Some((_, name)) = sink.runs.names.last_mut() {
            name.extend_from_slice(&rest);
        }
    }
    Ok(sink.runs.names)
}

/// The `want` sequence bytes just before `at`, all of one record (the caller knows from the
/// range's [`Start`] that the record has that many there), read backwards.
pub fn read_before(file: &Source, text: &TextFile, at: u64, want: u64) -> io::Result<Vec<u8>> {
    if text.format == Format::Plain || want == 0 {
        let from = at.saturating_sub(want).max(text.area.start);
        return read_at(file, from, (at - from) as usize);
    }
    let mut out = Vec::with_capacity(want as usize);
    let mut after = byte_at(file, at)?;
    let mut end = at;
    while (out.len() as u64) < want && end > text.area.start {
        let from = end.saturating_sub(BLOCK as u64).max(text.area.start);
        let block = read_at(file, from, (end - from) as usize)?;
        for &b in block.iter().rev() {
            let ending = b == b'\n' || (b == b'\r' && after == Some(b'\n'));
            if !ending {
                out.push(b);
                if out.len() as u64 == want {
                    break;
                }
            }
            after = Some(b);
        }
        end = from;
    }
    out.reverse();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Random;

    /// The records of a whole FASTA text as a plain reading gives them: (name, sequence).
    fn records(bytes: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
        let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
        let mut out: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        for line in crate::input::lines(bytes) {
            if let Some(header) = line.strip_prefix(b">") {
                let end = header
                    .iter()
                    .position(u8::is_ascii_whitespace)
                    .unwrap_or(header.len());
                out.push((header[..end].to_vec(), Vec::new()));
            } else if let Some((_, sequence)) = out.last_mut() {
                sequence.extend_from_slice(line);
            }
        }
        out
    }

    /// A random FASTA text: headers with and without names and descriptions, lines of any
    /// width, CRLF or LF, blank lines, `\r` inside the data, records left empty.
    fn fasta(rng: &mut Random) -> Vec<u8> {
        let mut out = Vec::new();
        if rng.below(4) == 0 {
            out.extend_from_slice(BOM);
        }
        if rng.coin() {
            out.extend_from_slice(b"\n\r\n");
        }
        let crlf = rng.coin();
        let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        for r in 0..1 + rng.below(5) {
            out.push(b'>');
            match rng.below(3) {
                0 => {}
                1 => out.extend(format!("rec{r}").bytes()),
                _ => out.extend(format!("r{r} some words").bytes()),
            }
            out.extend_from_slice(eol);
            let width = 1 + rng.below(12);
            let len = rng.below(40);
            let sequence = rng.bytes(len, b"ACGT\r");
            for line in sequence.chunks(width) {
                out.extend_from_slice(line);
                out.extend_from_slice(eol);
                if rng.below(6) == 0 {
                    out.extend_from_slice(eol);
                }
            }
        }
        if rng.coin() {
            // No final line ending.
            while matches!(out.last(), Some(b'\n' | b'\r')) {
                out.pop();
            }
        }
        out
    }

    fn file_with(bytes: &[u8]) -> (tempfile::NamedTempFile, TextFile, Source) {
        let mut named = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut named, bytes).unwrap();
        let (text, source) = open_text(named.path(), u64::MAX).unwrap();
        assert!(!text.whole && matches!(source, Source::File(_)));
        (named, text, source)
    }

    /// Every cut of random FASTA texts into up to five ranges: the summaries give each range
    /// its start, and the ranges' runs, joined, are the records a plain reading gives, with
    /// their names; the bytes before any point are the record's.
    #[test]
    fn ranges_read_apart_give_the_records_read_whole() {
        let mut rng = Random::new(5);
        for _ in 0..400 {
            let bytes = fasta(&mut rng);
            let want = records(&bytes);
            let (_named, text, file) = file_with(&bytes);
            assert_eq!(
                text.format,
                Format::Fasta,
                "{:?}",
                String::from_utf8_lossy(&bytes)
            );
            let area = text.area.clone();
            let parts = 1 + rng.below(5);
            let mut cuts: Vec<u64> = (0..parts - 1)
                .map(|_| area.start + rng.below((area.end - area.start) as usize + 1) as u64)
                .collect();
            cuts.sort();
            let bounds: Vec<u64> = std::iter::once(area.start)
                .chain(cuts)
                .chain(std::iter::once(area.end))
                .collect();
            let ranges: Vec<Range<u64>> = bounds.windows(2).map(|w| w[0]..w[1]).collect();
            let summaries: Vec<Summary> = ranges
                .iter()
                .map(|r| summarize(&file, &text, r.clone()).unwrap())
                .collect();
            let starts = starts(&summaries);
            let mut got: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
            for (range, start) in ranges.iter().zip(&starts) {
                if let Some(r) = start.record {
                    assert_eq!(
                        start.name, want[r as usize].0,
                        "the name at a range's start"
                    );
                    if !start.in_header {
                        // The bytes before the range are the end of its record's sequence.
                        let before = want[r as usize].1[..start.offset as usize].to_vec();
                        let take = rng.below(before.len() + 1) as u64;
                        let back = read_before(&file, &text, range.start, take).unwrap();
                        assert_eq!(back, before[before.len() - take as usize..]);
                    }
                }
                let mut runs = Vec::new();
                let names = stream(&file, &text, range.clone(), start, &mut |run| {
                    runs.push((run.record, run.first, run.offset, run.bytes.to_vec()));
                })
                .unwrap();
                for (record, name) in names {
                    assert_eq!(record as usize, got.len(), "records in order");
                    got.push((name, Vec::new()));
                }
                for (record, first, offset, bytes) in runs {
                    let at = &mut got[record as usize].1;
                    assert_eq!(offset as usize, at.len(), "runs in order");
                    assert!(!first || offset == 0);
                    at.extend(bytes);
                }
            }
            assert_eq!(
                got,
                want,
                "{:?} cut at {bounds:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }

    #[test]
    fn plain_texts_are_their_bytes_without_the_last_line_ending() {
        for (bytes, area) in [
            (&b"ACGT\n"[..], 0..4),
            (b"AC\nGT\r\n", 0..5),
            (b"ACGT\r", 0..4),
            (b"ACGT", 0..4),
            (b"", 0..0),
            (b"\n\nAC", 0..4),
        ] {
            let (_named, text, file) = file_with(bytes);
            assert_eq!((text.format, text.area.clone()), (Format::Plain, area));
            let mut all = Vec::new();
            let range = text.area.clone();
            let names = stream(&file, &text, range, &Start::default(), &mut |run| {
                assert_eq!(run.record, 0);
                all.extend_from_slice(run.bytes);
            })
            .unwrap();
            assert!(names.is_empty());
            assert_eq!(all, bytes[..text.area.end as usize]);
            let end = text.area.end;
            assert_eq!(
                read_before(&file, &text, end, 2).unwrap(),
                bytes[end.saturating_sub(2) as usize..end as usize]
            );
        }
    }

    /// A plain range whose end moves back as it is walked (a rank giving the rest of its part
    /// away) hands over exactly the bytes before the last end, in order, mapped or in memory;
    /// an end that moves before the offset reached stops there.
    #[test]
    fn a_plain_range_ends_where_it_is_told() {
        let mut rng = Random::new(5);
        let bytes = rng.bytes(5 * BLOCK + 321, b"ACGT");
        let (_named, text, file) = file_with(&bytes);
        let whole = Source::Bytes(bytes.clone());
        for source in [&file, &whole] {
            let b = BLOCK as u64;
            // (first offset, offset from which the end moves, the end then, the last byte)
            for (from, cut_at, cut_to, stop) in [
                (0, 2 * b, 3 * b + 17, 3 * b + 17),
                (100, b, 0, 100 + b),
                (7, 5 * b, 5 * b + 321, 5 * b + 321),
            ] {
                let mut all = Vec::new();
                let mut offsets = Vec::new();
                let mut end = |at: u64| match at >= cut_at {
                    true => cut_to,
                    false => text.area.end,
                };
                let range = from..text.area.end;
                let mut each = |run: Run<'_>| {
                    offsets.push(run.offset);
                    all.extend_from_slice(run.bytes);
                };
                stream_plain(source, &text, range, &mut each, &mut end).unwrap();
                let (from, stop) = (from as usize, stop as usize);
                assert_eq!(all, bytes[from..stop], "{from} {cut_at} {cut_to}");
                assert!(offsets.windows(2).all(|w| w[0] < w[1]));
            }
        }
    }

    #[test]
    fn what_a_text_cannot_be() {
        let dir = tempfile::tempdir().unwrap();
        let err = open_text(dir.path(), u64::MAX).unwrap_err();
        assert!(matches!(err, InputError::IsDirectory { .. }), "{err}");
        let gz = dir.path().join("t.gz");
        std::fs::write(&gz, [0x1f, 0x8b, 8, 0]).unwrap();
        let err = open_text(&gz, u64::MAX).unwrap_err();
        assert!(err.to_string().contains("decompress it first"), "{err}");
        let err = open_text(&dir.path().join("none"), u64::MAX).unwrap_err();
        assert!(matches!(err, InputError::NotFound { .. }), "{err}");
    }

    /// `/proc/version` reports 0 bytes: it was searched as an empty text. It is read whole,
    /// and its bytes are the text; past the limit it is refused.
    #[test]
    fn a_text_whose_size_is_not_its_content_s_is_read_whole() {
        let path = Path::new("/proc/version");
        let content = std::fs::read(path).unwrap();
        assert_eq!(std::fs::metadata(path).unwrap().len(), 0);
        assert!(!reports_its_size(&File::open(path).unwrap(), 0).unwrap());
        let (text, source) = open_text(path, u64::MAX).unwrap();
        assert!(text.whole);
        assert_eq!(text.size, content.len() as u64);
        assert_eq!(
            (text.format, text.area.clone()),
            (Format::Plain, 0..text.size - 1)
        );
        assert_eq!(read_at(&source, 0, content.len() + 5).unwrap(), content);
        assert_eq!(read_at(&source, 3, 2).unwrap(), content[3..5]);
        assert!(read_at(&source, u64::MAX, 2).unwrap().is_empty());
        let err = open_text(path, 4).unwrap_err();
        assert!(
            err.to_string().contains("more than the limit of 4 bytes"),
            "{err}"
        );
        // A regular file reports its size, an empty one too.
        let (_named, text, _) = file_with(b"ACGT\n");
        assert_eq!(text.size, 5);
        let (named, text, _) = file_with(b"");
        assert_eq!(text.size, 0);
        assert!(reports_its_size(&File::open(named.path()).unwrap(), 0).unwrap());
        // A size that says more than the file holds, or less.
        let file = File::open(named.path()).unwrap();
        assert!(!reports_its_size(&file, 4096).unwrap());
        let (named, _, _) = file_with(b"ACGT");
        let file = File::open(named.path()).unwrap();
        assert!(!reports_its_size(&file, 3).unwrap());
        assert!(reports_its_size(&file, 4).unwrap());
    }
}
