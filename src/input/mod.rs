//! Reading the two input sequences, from a file, `-` (standard input) or any stream (a FIFO, a
//! device), gzip decompressed as it is read (told by its first two bytes). Two formats and nothing
//! else, so that a malformed file is reported instead of silently giving another answer: **plain**
//! (X on the first line, Y on the second) and **FASTA** (exactly two records), told apart by
//! `--format auto` from the first non-blank line. Any byte but `\n` is data; at most the limit is
//! read, counted decompressed; UTF-16 and UTF-32 are refused by their byte-order mark. Every rule:
//! `docs/report.md#input-files`.
//!
//! [`parse`] is linear in the input and never panics, so it is safe to feed arbitrary bytes;
//! [`read_pair`] adds the file-system checks and orients the pair (the shorter sequence becomes the
//! rows). `search`'s inputs: [`patterns`] (read whole on rank 0 as above) and [`text`] (read by
//! byte ranges on every rank); `pairs`' files of named sequences: [`sequences`].

pub mod mapped;
pub mod patterns;
pub mod sequences;
pub mod text;

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use serde::{Deserialize, Serialize};

/// Largest input file read by default: 1 GiB. Callers may pass another limit to [`read_pair`].
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 1 << 30;

/// The format a file was read in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    #[default]
    Plain,
    Fasta,
}

/// The format asked for on the command line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatChoice {
    /// FASTA when the first non-blank line starts with `>`, plain otherwise.
    #[default]
    Auto,
    Plain,
    Fasta,
}

/// The two sequences, oriented for the DP matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// The rows: the shorter sequence (the first in file order when the lengths are equal).
    pub x: Vec<u8>,
    /// The columns: the longer sequence.
    pub y: Vec<u8>,
    /// True when the file listed `y` first, so output that names "the first sequence" can be
    /// mapped back to the file's order.
    pub swapped: bool,
    /// The format the file was read in.
    pub format: Format,
    /// The sequences' names in file order, byte for byte: the FASTA records' (the header's
    /// first word), or `x` and `y` for a plain file.
    pub names: [Vec<u8>; 2],
}

impl Pair {
    /// Orients two sequences given in file order.
    ///
    /// The shorter one becomes the rows because rows are what gets distributed over ranks
    /// (fewer rows, fewer boundary messages). Equal lengths keep file order so that the
    /// common case needs no mapping back.
    pub fn from_file_order(first: Vec<u8>, second: Vec<u8>, format: Format) -> Pair {
        let swapped = first.len() > second.len();
        let (x, y) = if swapped {
            (second, first)
        } else {
            (first, second)
        };
        Pair {
            x,
            y,
            swapped,
            format,
            names: [b"x".to_vec(), b"y".to_vec()],
        }
    }

    /// The file's first sequence (the query of an alignment) and its second (the target).
    pub fn in_file_order(&self) -> (&[u8], &[u8]) {
        if self.swapped {
            (&self.y, &self.x)
        } else {
            (&self.x, &self.y)
        }
    }
}

/// The names of a FASTA file's first two records, byte for byte (whatever their encoding):
/// each header's first word (`>chr1 desc` is `chr1`), or the record's number when the header
/// is empty.
fn fasta_names(bytes: &[u8]) -> [Vec<u8>; 2] {
    let mut headers = lines(bytes).filter(|line| line.first() == Some(&b'>'));
    let mut name = |k: usize| {
        let header = headers.next().unwrap_or_default();
        let word = header[1.min(header.len())..]
            .split(|b| b.is_ascii_whitespace())
            .find(|w| !w.is_empty())
            .unwrap_or_default();
        match word {
            [] => (k + 1).to_string().into_bytes(),
            w => w.to_vec(),
        }
    };
    [name(0), name(1)]
}

/// Why the contents of an input file are not what the command reads: two sequences (`solve`,
/// `reference`), patterns or a text (`search`), sequences (`pairs`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The file has no bytes at all.
    #[error("empty file, expected two sequences")]
    Empty,

    /// The file has a single line.
    #[error("only one sequence, expected two")]
    OneSequence,

    /// A non-blank line follows the second line of a plain file.
    #[error("more than two sequences (found {found}), expected two")]
    TooMany {
        /// The two leading lines plus every non-blank line after them.
        found: usize,
    },

    /// A FASTA file without exactly two records.
    #[error("FASTA file has {found} record{}, expected 2", if *found == 1 { "" } else { "s" })]
    FastaRecords {
        /// Number of `>` header lines.
        found: usize,
    },

    /// `--format fasta` for a file whose first line is not a header.
    #[error("not FASTA: the first non-blank line does not start with '>'")]
    NotFasta,

    /// Text in an encoding of two or four bytes per letter, told by its byte-order mark.
    #[error(
        "{encoding} text (it begins with the byte-order mark {mark}): convert it to ASCII or \
         UTF-8 first (iconv -f {encoding} -t UTF-8), or read its bytes as they are with \
         --format plain"
    )]
    WideText {
        encoding: &'static str,
        mark: &'static str,
    },

    /// A patterns file with no pattern.
    #[error("no pattern: the file holds no line (or FASTA record) to search for")]
    NoPatterns,

    /// A patterns file with an empty pattern.
    #[error(
        "pattern {number} (line {line}) is empty: every pattern needs at least one byte \
         (remove the blank line or the empty record)"
    )]
    EmptyPattern {
        /// The pattern's number, 0-based in the file's order.
        number: usize,
        /// Its line, 1-based (the header's for a FASTA record).
        line: usize,
    },

    /// A patterns file that is not text.
    #[error("not text: it holds a NUL byte at offset {offset} (a patterns file is text)")]
    NotText { offset: u64 },

    /// A pairs file with no byte at all.
    #[error(
        "empty file: no sequence (one sequence per line, or FASTA records; an empty line is an \
         empty sequence, but a file needs at least one line)"
    )]
    NoSequences,

    /// A pairs file that is not text.
    #[error("not text: it holds a NUL byte at offset {offset} (a file of sequences is text)")]
    Binary { offset: u64 },

    /// A search's text compressed with gzip.
    #[error(
        "gzip: each rank reads its own byte range of the text, which compressed bytes do not \
         allow; decompress it first (gzip -dk)"
    )]
    Compressed,
}

/// Byte-order marks of the encodings that are not read as text, longest first (UTF-32LE's
/// begins with UTF-16LE's).
const WIDE_MARKS: [(&[u8], &str, &str); 4] = [
    (b"\xff\xfe\x00\x00", "UTF-32LE", "FF FE 00 00"),
    (b"\x00\x00\xfe\xff", "UTF-32BE", "00 00 FE FF"),
    (b"\xff\xfe", "UTF-16LE", "FF FE"),
    (b"\xfe\xff", "UTF-16BE", "FE FF"),
];

/// The encoding whose byte-order mark `bytes` begin with, if it is one of [`WIDE_MARKS`].
pub(crate) fn wide_text(bytes: &[u8]) -> Option<FormatError> {
    WIDE_MARKS
        .iter()
        .find(|(mark, _, _)| bytes.starts_with(mark))
        .map(|&(_, encoding, mark)| FormatError::WideText { encoding, mark })
}

/// Why an input file could not be turned into a [`Pair`]. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("input file '{}': not found", path.display())]
    NotFound { path: PathBuf },

    #[error("input file '{}': is a directory", path.display())]
    IsDirectory { path: PathBuf },

    /// A device, FIFO or socket where only a regular file will do.
    #[error(
        "input file '{}': is not a regular file (a device, FIFO or socket), which {what} must be",
        path.display()
    )]
    NotRegular { path: PathBuf, what: &'static str },

    // The cause is part of the message because the binary prints only the top-level message.
    #[error("input file '{}': cannot read: {source}", path.display())]
    Unreadable { path: PathBuf, source: io::Error },

    #[error(
        "input file '{}': {size} bytes is larger than the limit of {limit} bytes",
        path.display()
    )]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },

    /// A file whose size its metadata does not tell (a pipe, a device) that went past the
    /// limit while it was read.
    #[error("input file '{}': more than the limit of {limit} bytes", path.display())]
    StreamTooLarge { path: PathBuf, limit: u64 },

    /// A gzip stream that decompresses to more than the limit.
    #[error(
        "input file '{}': gzip that decompresses to more than the limit of {limit} bytes",
        path.display()
    )]
    GzipTooLarge { path: PathBuf, limit: u64 },

    /// A stream that begins as gzip does but is not whole, valid gzip.
    #[error("input file '{}': cannot decompress (gzip): {source}", path.display())]
    Gzip { path: PathBuf, source: io::Error },

    #[error("input file '{}': {source}", path.display())]
    Format { path: PathBuf, source: FormatError },
}

/// The text of a file that must be text, without UTF-8's byte-order mark: refused when it is
/// UTF-16 or UTF-32 ([`wide_text`]), or as `binary` (at the offset of the first NUL byte) when
/// it holds a NUL byte.
pub(crate) fn text_of(bytes: &[u8], binary: fn(u64) -> FormatError) -> Result<&[u8], FormatError> {
    if let Some(wide) = wide_text(bytes) {
        return Err(wide);
    }
    if let Some(offset) = memchr::memchr(0, bytes) {
        return Err(binary(offset as u64));
    }
    Ok(bytes.strip_prefix(BOM).unwrap_or(bytes))
}

/// Splits the contents of a file into lines, in file order, without their line endings
/// (`\n`, `\r\n`, or a `\r` that ends the file).
pub(crate) struct Lines<'a> {
    rest: Option<&'a [u8]>,
}

pub(crate) fn lines(bytes: &[u8]) -> Lines<'_> {
    Lines {
        rest: (!bytes.is_empty()).then_some(bytes),
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.rest?;
        let (line, after) = match memchr::memchr(b'\n', rest) {
            Some(end) => (&rest[..end], &rest[end + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        // A final `\n` ends the last line rather than starting an empty one.
        self.rest = (!after.is_empty()).then_some(after);
        Some(line.strip_suffix(b"\r").unwrap_or(line))
    }
}

/// UTF-8's byte-order mark.
pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";

/// Whether `bytes` look like FASTA: the first non-blank line, after a byte-order mark,
/// starts with `>`.
pub(crate) fn looks_like_fasta(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    lines(bytes)
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.first() == Some(&b'>'))
}

/// Whether `--format auto` reads a file that begins with `bytes` as the plain format: neither
/// refused as wide text nor read as FASTA. Both are told by the first bytes (`generate`
/// checks the files it writes with this).
pub(crate) fn auto_reads_plain(bytes: &[u8]) -> bool {
    wide_text(bytes).is_none() && !looks_like_fasta(bytes)
}

/// Parses the contents of an input file into its two sequences, in file order, and the format
/// they were read in.
pub fn parse(
    bytes: &[u8],
    choice: FormatChoice,
) -> Result<(Vec<u8>, Vec<u8>, Format), FormatError> {
    if choice != FormatChoice::Plain {
        if let Some(wide) = wide_text(bytes) {
            return Err(wide);
        }
    }
    let fasta = match choice {
        FormatChoice::Auto => looks_like_fasta(bytes),
        FormatChoice::Plain => false,
        FormatChoice::Fasta if looks_like_fasta(bytes) => true,
        FormatChoice::Fasta if bytes.is_empty() => return Err(FormatError::Empty),
        FormatChoice::Fasta => return Err(FormatError::NotFasta),
    };
    if fasta {
        let (x, y) = parse_fasta(bytes.strip_prefix(BOM).unwrap_or(bytes))?;
        Ok((x, y, Format::Fasta))
    } else {
        let (x, y) = parse_plain(bytes)?;
        Ok((x, y, Format::Plain))
    }
}

fn parse_plain(bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>), FormatError> {
    let mut lines = lines(bytes);
    let first = lines.next().ok_or(FormatError::Empty)?;
    let second = lines.next().ok_or(FormatError::OneSequence)?;
    let extra = lines.filter(|line| !line.is_empty()).count();
    if extra > 0 {
        return Err(FormatError::TooMany { found: 2 + extra });
    }
    Ok((first.to_vec(), second.to_vec()))
}

fn parse_fasta(bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>), FormatError> {
    let mut records = 0usize;
    let mut first = Vec::new();
    let mut second = Vec::new();
    for line in lines(bytes) {
        if line.first() == Some(&b'>') {
            records += 1;
            continue;
        }
        // Data of records past the second is dropped: the file is rejected anyway, and
        // keeping it would only cost memory. Lines before the first header are blank.
        match records {
            1 => first.extend_from_slice(line),
            2 => second.extend_from_slice(line),
            _ => {}
        }
    }
    if records != 2 {
        return Err(FormatError::FastaRecords { found: records });
    }
    Ok((first, second))
}

/// The path that names standard input.
pub const STDIN: &str = "-";

/// Whether `path` names standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN
}

/// The file that `path` reads, for telling it apart from the outputs: standard input's for
/// `-`.
pub fn file_read(path: &Path) -> &Path {
    if is_stdin(path) {
        Path::new("/dev/stdin")
    } else {
        path
    }
}

/// Gzip's first two bytes.
pub(crate) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads and parses an input (a path, or `-` for standard input), refusing more than
/// `max_bytes` (see the module doc and [`read_whole`]).
pub fn read_pair(path: &Path, max_bytes: u64, choice: FormatChoice) -> Result<Pair, InputError> {
    read_whole(path, max_bytes, |bytes| {
        let (first, second, format) = parse(bytes, choice)?;
        let mut pair = Pair::from_file_order(first, second, format);
        if format == Format::Fasta {
            pair.names = fasta_names(bytes.strip_prefix(BOM).unwrap_or(bytes));
        }
        Ok(pair)
    })
}

/// Reads the whole input at `path` (`-`: standard input), refusing more than `max_bytes`, and
/// parses it with `parse`; what is wrong with it names the file.
///
/// A regular file's size is checked from the metadata before anything but its first two bytes
/// is read, so an oversized file costs no memory; every read is capped too, in case the file
/// grows in between or is a stream whose metadata reports no size ([`read_stream`]).
pub fn read_whole<T>(
    path: &Path,
    max_bytes: u64,
    parse: impl FnOnce(&[u8]) -> Result<T, FormatError>,
) -> Result<T, InputError> {
    let bytes = if is_stdin(path) {
        read_stream(path, io::stdin().lock(), None, max_bytes)?
    } else {
        let (file, metadata) = open(path)?;
        let size = metadata.is_file().then_some(metadata.len());
        read_stream(path, file, size, max_bytes)?
    };
    parse(&bytes).map_err(in_file(path))
}

/// Opens the input file at `path`, refusing a directory: the file and what its metadata says.
pub(crate) fn open(path: &Path) -> Result<(File, std::fs::Metadata), InputError> {
    let metadata = std::fs::metadata(path).map_err(|e| unreadable(path, e))?;
    if metadata.is_dir() {
        return Err(InputError::IsDirectory {
            path: path.to_path_buf(),
        });
    }
    let file = File::open(path).map_err(|e| unreadable(path, e))?;
    Ok((file, metadata))
}

/// A format error in the input file at `path`, as the error that names it.
pub(crate) fn in_file(path: &Path) -> impl Fn(FormatError) -> InputError + '_ {
    move |source| InputError::Format {
        path: path.to_path_buf(),
        source,
    }
}

pub(crate) fn unreadable(path: &Path, source: io::Error) -> InputError {
    if source.kind() == io::ErrorKind::NotFound {
        InputError::NotFound {
            path: path.to_path_buf(),
        }
    } else {
        InputError::Unreadable {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The bytes of the input `path` read from `source`, decompressed when they are gzip, at most
/// `max_bytes` of them. `size` is a regular file's size: one that is not gzip and larger than
/// the limit is refused before it is read.
pub fn read_stream(
    path: &Path,
    mut source: impl Read,
    size: Option<u64>,
    max_bytes: u64,
) -> Result<Vec<u8>, InputError> {
    let mut magic = [0u8; 2];
    let mut got = 0;
    while got < magic.len() {
        match source.read(&mut magic[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(unreadable(path, e)),
        }
    }
    let whole = (&magic[..got]).chain(source);
    let cap = max_bytes.saturating_add(1);
    let mut bytes = Vec::new();
    if magic[..got] == GZIP_MAGIC {
        MultiGzDecoder::new(whole)
            .take(cap)
            .read_to_end(&mut bytes)
            .map_err(|source| InputError::Gzip {
                path: path.to_path_buf(),
                source,
            })?;
        if bytes.len() as u64 > max_bytes {
            return Err(InputError::GzipTooLarge {
                path: path.to_path_buf(),
                limit: max_bytes,
            });
        }
        return Ok(bytes);
    }
    if let Some(size) = size.filter(|&s| s > max_bytes) {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            size,
            limit: max_bytes,
        });
    }
    bytes.reserve_exact(size.map_or(0, |s| usize::try_from(s).unwrap_or(0)));
    whole
        .take(cap)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(path, e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(InputError::StreamTooLarge {
            path: path.to_path_buf(),
            limit: max_bytes,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn seqs(x: &[u8], y: &[u8]) -> Result<(Vec<u8>, Vec<u8>), FormatError> {
        Ok((x.to_vec(), y.to_vec()))
    }

    /// Parses with `--format auto`, dropping the format.
    fn parse(bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>), FormatError> {
        super::parse(bytes, FormatChoice::Auto).map(|(x, y, _)| (x, y))
    }

    fn format_of(bytes: &[u8]) -> Format {
        super::parse(bytes, FormatChoice::Auto).unwrap().2
    }

    fn read(path: &Path, max: u64) -> Result<Pair, InputError> {
        read_pair(path, max, FormatChoice::Auto)
    }

    fn file_with(contents: &[u8]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(contents).unwrap();
        file.flush().unwrap();
        file
    }

    #[test]
    fn plain_lf() {
        assert_eq!(parse(b"ACGT\nGATTACA\n"), seqs(b"ACGT", b"GATTACA"));
    }

    #[test]
    fn plain_crlf() {
        assert_eq!(parse(b"ACGT\r\nGATTACA\r\n"), seqs(b"ACGT", b"GATTACA"));
    }

    #[test]
    fn lone_cr_is_data() {
        assert_eq!(parse(b"A\rC\r\r\nG\n"), seqs(b"A\rC\r", b"G"));
        // A `\r` that ends the file ends its line, as `\r\n` would.
        assert_eq!(parse(b"A\nG\r"), seqs(b"A", b"G"));
        assert_eq!(parse(b"A\nG\r\r"), seqs(b"A", b"G\r"));
    }

    #[test]
    fn plain_no_final_newline() {
        assert_eq!(parse(b"ACGT\nGATTACA"), seqs(b"ACGT", b"GATTACA"));
        assert_eq!(parse(b"ACGT\r\nGATTACA"), seqs(b"ACGT", b"GATTACA"));
    }

    #[test]
    fn plain_trailing_blank_lines() {
        assert_eq!(parse(b"AC\nGT\n\n\n"), seqs(b"AC", b"GT"));
        assert_eq!(parse(b"AC\r\nGT\r\n\r\n\n\r\n"), seqs(b"AC", b"GT"));
        assert_eq!(parse(b"AC\nGT\n\n"), seqs(b"AC", b"GT"));
    }

    #[test]
    fn plain_empty_sequences() {
        assert_eq!(parse(b"a\n\n"), seqs(b"a", b""));
        assert_eq!(parse(b"\na\n"), seqs(b"", b"a"));
        assert_eq!(parse(b"\n\n"), seqs(b"", b""));
        assert_eq!(parse(b"\r\n\r\n"), seqs(b"", b""));
        assert_eq!(parse(b"\n\n\n\n"), seqs(b"", b""));
    }

    #[test]
    fn binary_bytes_kept() {
        let input = b"\x00\xff\x80 \t\nz\xc3\xa9\x01\n";
        assert_eq!(parse(input), seqs(b"\x00\xff\x80 \t", b"z\xc3\xa9\x01"));
    }

    #[test]
    fn random_bytes_never_panic() {
        // Mostly the bytes the parser cares about, so the odd corners come up often.
        let alphabet = b"\n\n\r\r>>aZ\x00\xff";
        let mut rng = crate::generate::Random::new(0);
        for _ in 0..20_000 {
            let len = rng.below(24);
            let input = rng.bytes(len, alphabet);
            if let Ok((x, y)) = parse(&input) {
                assert!(!x.contains(&b'\n') && !y.contains(&b'\n'), "{input:?}");
                assert!(x.len() + y.len() <= input.len(), "{input:?}");
            }
        }
    }

    #[test]
    fn one_sequence() {
        for input in [&b"a\n"[..], b"a", b"\n", b"a\r\n", b"\r\n"] {
            assert_eq!(parse(input), Err(FormatError::OneSequence), "{input:?}");
        }
    }

    #[test]
    fn three_sequences() {
        assert_eq!(parse(b"a\nb\nc\n"), Err(FormatError::TooMany { found: 3 }));
        // A blank line does not end the file if data follows it.
        assert_eq!(
            parse(b"a\nb\n\nc\n\nd"),
            Err(FormatError::TooMany { found: 4 })
        );
        assert_eq!(parse(b"\n\nc\n"), Err(FormatError::TooMany { found: 3 }));
        assert_eq!(
            FormatError::TooMany { found: 3 }.to_string(),
            "more than two sequences (found 3), expected two"
        );
    }

    #[test]
    fn empty_file() {
        assert_eq!(parse(b""), Err(FormatError::Empty));
        assert_eq!(
            FormatError::Empty.to_string(),
            "empty file, expected two sequences"
        );
    }

    #[test]
    fn fasta_two_records() {
        let input = b">first sequence\r\nACG\r\nT\r\n\r\n>second\r\nGAT\r\n\r\nTACA\r\n";
        assert_eq!(parse(input), seqs(b"ACGT", b"GATTACA"));
        assert_eq!(parse(b">a\nAC\nGT\n>b\nT"), seqs(b"ACGT", b"T"));
        assert_eq!(format_of(input), Format::Fasta);
    }

    #[test]
    fn fasta_after_a_bom_and_blank_lines() {
        let input = b"\xef\xbb\xbf\n\r\n>a\nAC\n>b\nGT\n";
        assert_eq!(parse(input), seqs(b"AC", b"GT"));
        assert_eq!(format_of(input), Format::Fasta);
        assert_eq!(parse(b"\n>a\nAC\n>b\nG"), seqs(b"AC", b"G"));
    }

    #[test]
    fn format_choice_decides_how_a_leading_angle_bracket_reads() {
        // `generate --alphabet 'A>'` can make a plain file whose first byte is `>`.
        let file = b">A>A\nA>>A\n";
        assert_eq!(
            super::parse(file, FormatChoice::Plain),
            Ok((b">A>A".to_vec(), b"A>>A".to_vec(), Format::Plain))
        );
        // Read as FASTA, it is one record: a clear refusal, not a wrong answer.
        assert_eq!(
            super::parse(file, FormatChoice::Auto),
            Err(FormatError::FastaRecords { found: 1 })
        );
        assert_eq!(format_of(b"ACGT\n>GT\n"), Format::Plain);
        assert_eq!(
            super::parse(b"ACGT\nGT\n", FormatChoice::Fasta),
            Err(FormatError::NotFasta)
        );
        assert_eq!(format_of(b">a\nAC\n>b\nGT\n"), Format::Fasta);
    }

    #[test]
    fn fasta_empty_records() {
        assert_eq!(parse(b">a\n>b\n"), seqs(b"", b""));
        assert_eq!(parse(b">a\n>b"), seqs(b"", b""));
    }

    #[test]
    fn fasta_one_record() {
        assert_eq!(
            parse(b">only\nACGT\nACGT\n"),
            Err(FormatError::FastaRecords { found: 1 })
        );
        assert_eq!(parse(b">"), Err(FormatError::FastaRecords { found: 1 }));
        assert_eq!(
            FormatError::FastaRecords { found: 1 }.to_string(),
            "FASTA file has 1 record, expected 2"
        );
    }

    #[test]
    fn fasta_three_records() {
        assert_eq!(
            parse(b">a\nA\n>b\nC\n>c\nG\n"),
            Err(FormatError::FastaRecords { found: 3 })
        );
        assert_eq!(
            FormatError::FastaRecords { found: 3 }.to_string(),
            "FASTA file has 3 records, expected 2"
        );
    }

    #[test]
    fn fasta_names_are_the_headers_first_words() {
        assert_eq!(
            fasta_names(b">chr1 the first\nAC\n>  \nGT\n"),
            [b"chr1".to_vec(), b"2".to_vec()]
        );
        assert_eq!(
            fasta_names(b">a\nA\n>b c\nC\n"),
            [b"a".to_vec(), b"b".to_vec()]
        );
        // Bytes that are not UTF-8 stay as they are.
        assert_eq!(
            fasta_names(b">q\xff1 x\nA\n>\xfe\nC\n"),
            [b"q\xff1".to_vec(), b"\xfe".to_vec()]
        );
    }

    #[test]
    fn swap_when_first_longer() {
        let pair = Pair::from_file_order(b"GATTACA".to_vec(), b"ACGT".to_vec(), Format::Plain);
        assert_eq!(
            pair,
            Pair {
                x: b"ACGT".to_vec(),
                y: b"GATTACA".to_vec(),
                swapped: true,
                format: Format::Plain,
                names: [b"x".to_vec(), b"y".to_vec()],
            }
        );
    }

    #[test]
    fn no_swap_when_first_shorter_or_equal() {
        let pair = Pair::from_file_order(b"ACGT".to_vec(), b"TGCA".to_vec(), Format::Plain);
        assert_eq!(pair.x, b"ACGT");
        assert_eq!(pair.y, b"TGCA");
        assert!(!pair.swapped);
        let pair = Pair::from_file_order(b"AC".to_vec(), b"TGCA".to_vec(), Format::Plain);
        assert_eq!(pair.x, b"AC");
        assert!(!pair.swapped);
    }

    #[test]
    fn read_pair_orients() {
        let file = file_with(b"GATTACA\r\nACGT\r\n");
        let pair = read(file.path(), DEFAULT_MAX_INPUT_BYTES).unwrap();
        assert_eq!(
            pair,
            Pair::from_file_order(b"GATTACA".to_vec(), b"ACGT".to_vec(), Format::Plain)
        );
        assert!(pair.swapped);
    }

    #[test]
    fn missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope.txt");
        let err = read(&path, DEFAULT_MAX_INPUT_BYTES).unwrap_err();
        assert!(matches!(err, InputError::NotFound { path: ref p } if *p == path));
        assert_eq!(
            err.to_string(),
            format!("input file '{}': not found", path.display())
        );
    }

    #[test]
    fn directory() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(dir.path(), DEFAULT_MAX_INPUT_BYTES).unwrap_err();
        assert!(matches!(err, InputError::IsDirectory { .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            format!("input file '{}': is a directory", dir.path().display())
        );
    }

    #[test]
    fn stream_over_the_limit_reports_the_limit() {
        let err = read(Path::new("/dev/zero"), 1000).unwrap_err();
        assert!(
            matches!(err, InputError::StreamTooLarge { limit: 1000, .. }),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .ends_with("more than the limit of 1000 bytes"),
            "{err}"
        );
    }

    #[test]
    fn too_large_file() {
        let file = file_with(b"ACGT\nACGT\n");
        let err = read(file.path(), 9).unwrap_err();
        assert!(
            matches!(
                err,
                InputError::TooLarge {
                    size: 10,
                    limit: 9,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().starts_with("input file '"), "{err}");
        // Exactly at the limit is fine.
        assert!(read(file.path(), 10).is_ok());
    }

    #[test]
    fn format_error_names_file() {
        let file = file_with(b"ACGT\n");
        let err = read(file.path(), DEFAULT_MAX_INPUT_BYTES).unwrap_err();
        assert!(
            matches!(
                err,
                InputError::Format {
                    source: FormatError::OneSequence,
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "input file '{}': only one sequence, expected two",
                file.path().display()
            )
        );
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    fn stream(bytes: &[u8], max: u64) -> Result<Vec<u8>, InputError> {
        read_stream(Path::new("s"), bytes, None, max)
    }

    #[test]
    fn gzip_is_read_by_its_magic_bytes_whatever_the_name() {
        let plain = b"ACGTT\nGATTACA\n";
        assert_eq!(stream(&gzip(plain), 100).unwrap(), plain);
        // Members one after the other read as one stream, as gzip -d reads them.
        let two = [gzip(b"ACGTT\n"), gzip(b"GATTACA\n")].concat();
        assert_eq!(stream(&two, 100).unwrap(), plain);
        let file = file_with(&gzip(plain));
        let pair = read(file.path(), 100).unwrap();
        assert_eq!((pair.x, pair.y), (b"ACGTT".to_vec(), b"GATTACA".to_vec()));
        // A single 0x1f is data.
        assert_eq!(stream(b"\x1f", 10).unwrap(), b"\x1f");
        assert_eq!(stream(b"", 10).unwrap(), b"");
    }

    #[test]
    fn the_limit_counts_decompressed_bytes() {
        let bomb = gzip(&vec![b'A'; 1 << 20]);
        assert!(bomb.len() < 10_000);
        let err = stream(&bomb, 100_000).unwrap_err();
        assert!(
            matches!(err, InputError::GzipTooLarge { limit: 100_000, .. }),
            "{err:?}"
        );
        assert!(err
            .to_string()
            .contains("decompresses to more than the limit"));
        assert_eq!(stream(&bomb, 1 << 20).unwrap().len(), 1 << 20);
        // The limit is the decompressed size, not the file's: a gzip file larger than the
        // limit whose text is within it is read.
        let text = b"A\nC\n";
        let file = file_with(&gzip(text));
        assert!(file.as_file().metadata().unwrap().len() > 4);
        assert!(read(file.path(), 4).is_ok());
    }

    #[test]
    fn broken_gzip_is_refused_as_gzip() {
        let whole = gzip(b"ACGT\nACGT\n");
        let err = stream(&whole[..whole.len() - 5], 100).unwrap_err();
        assert!(matches!(err, InputError::Gzip { .. }), "{err:?}");
        let err = stream(b"\x1f\x8b\x00junk", 100).unwrap_err();
        assert!(
            err.to_string().contains("cannot decompress (gzip)"),
            "{err}"
        );
    }

    #[test]
    fn streams_stop_at_the_limit() {
        let err = stream(&[b'A'; 11], 10).unwrap_err();
        assert!(matches!(err, InputError::StreamTooLarge { limit: 10, .. }));
        assert_eq!(stream(&[b'A'; 10], 10).unwrap().len(), 10);
    }

    #[test]
    fn wide_text_is_refused_by_name() {
        let utf16le: Vec<u8> = "\u{feff}ACGT\nACGT\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let utf16be: Vec<u8> = "\u{feff}AC\nAC\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        let wide = |bytes: &[u8]| match super::parse(bytes, FormatChoice::Auto) {
            Err(FormatError::WideText { encoding, .. }) => encoding,
            other => panic!("{other:?}"),
        };
        assert_eq!(wide(&utf16le), "UTF-16LE");
        assert_eq!(wide(&utf16be), "UTF-16BE");
        assert_eq!(wide(b"\xff\xfe\x00\x00A\x00\x00\x00"), "UTF-32LE");
        assert_eq!(wide(b"\x00\x00\xfe\xffA"), "UTF-32BE");
        let err = super::parse(&utf16le, FormatChoice::Fasta).unwrap_err();
        assert!(err.to_string().starts_with("UTF-16LE text"), "{err}");
        // --format plain reads the bytes as they are.
        let plain = super::parse(b"\xff\xfeA\nC\n", FormatChoice::Plain).unwrap();
        assert_eq!(plain.0, b"\xff\xfeA");
        // And UTF-8's mark is not one of them.
        assert!(parse(b"\xef\xbb\xbfA\nC\n").is_ok());
    }

    #[test]
    fn unreadable_file() {
        // Opens for anyone, root included, but reading its first page fails (EIO): this
        // process's memory is not mapped at address 0.
        let err = read(Path::new("/proc/self/mem"), DEFAULT_MAX_INPUT_BYTES).unwrap_err();
        assert!(matches!(err, InputError::Unreadable { .. }), "{err:?}");
        let message = err.to_string();
        assert!(message.starts_with("input file '"), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }

    mod properties {
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]

            /// Arbitrary bytes: `parse` returns, never panics, and a sequence never holds a
            /// newline.
            #[test]
            fn parse_survives_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
                if let Ok((x, y)) = super::parse(&bytes) {
                    prop_assert!(!x.contains(&b'\n') && !y.contains(&b'\n'));
                }
            }

            /// Inputs made mostly of the bytes that steer the parser.
            #[test]
            fn parse_survives_structural_bytes(
                bytes in proptest::collection::vec(prop::sample::select(b"\n\r>ACGT ".to_vec()), 0..300)
            ) {
                let _ = super::parse(&bytes);
            }

            /// Any two sequences written in the plain format read back as themselves (under
            /// `--format auto`, unless they begin as FASTA or as wide text).
            #[test]
            fn plain_format_round_trips(
                x in proptest::collection::vec(any::<u8>().prop_filter("no line breaks", |b| *b != b'\n' && *b != b'\r'), 0..100),
                y in proptest::collection::vec(any::<u8>().prop_filter("no line breaks", |b| *b != b'\n' && *b != b'\r'), 0..100),
                crlf in any::<bool>(),
            ) {
                prop_assume!(x.first() != Some(&b'>') && !(x.is_empty() && y.first() == Some(&b'>')));
                let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
                let file = [&x[..], eol, &y[..], eol].concat();
                prop_assume!(crate::input::wide_text(&file).is_none());
                prop_assert_eq!(super::parse(&file), Ok((x, y)));
            }
        }
    }
}
