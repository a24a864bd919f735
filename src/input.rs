//! Reading the two input sequences from a file.
//!
//! Two formats are accepted, and nothing else, so that a malformed file is reported instead of
//! silently producing a different LCS:
//!
//! * **Plain**: the first line is X, the second line is Y. A `\r` directly before a `\n` is
//!   dropped (CRLF files); any other `\r` is data. The final newline is optional, blank lines
//!   after the second line are ignored, and either line may be empty (an empty sequence).
//! * **FASTA**: a file whose first byte is `>`. Each record is a `>` header line followed by
//!   sequence lines, which are concatenated (blank lines ignored, CRLF handled as above).
//!   Exactly two records are required.
//!
//! A sequence is any run of bytes other than `\n`; nothing is assumed about the alphabet, so
//! binary data is compared byte for byte. [`parse`] is linear in the input and never panics, so
//! it is safe to feed arbitrary bytes. [`read_pair`] adds the file-system checks and orients the
//! pair so that the shorter sequence becomes the rows of the DP matrix.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Largest input file read by default: 1 GiB. Callers may pass another limit to [`read_pair`].
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 1 << 30;

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
}

impl Pair {
    /// Orients two sequences given in file order.
    ///
    /// The shorter one becomes the rows because rows are what gets distributed over ranks
    /// (fewer rows, fewer boundary messages). Equal lengths keep file order so that the
    /// common case needs no mapping back.
    pub fn from_file_order(first: Vec<u8>, second: Vec<u8>) -> Pair {
        if first.len() > second.len() {
            Pair {
                x: second,
                y: first,
                swapped: true,
            }
        } else {
            Pair {
                x: first,
                y: second,
                swapped: false,
            }
        }
    }
}

/// Why the contents of an input file are not two sequences.
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
    #[error("FASTA file has {found} records, expected 2")]
    FastaRecords {
        /// Number of `>` header lines.
        found: usize,
    },
}

/// Why an input file could not be turned into a [`Pair`]. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("input file '{}': not found", path.display())]
    NotFound { path: PathBuf },

    #[error("input file '{}': is a directory", path.display())]
    IsDirectory { path: PathBuf },

    // The cause is part of the message because `main` prints only the top-level message.
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

    #[error("input file '{}': {source}", path.display())]
    Format { path: PathBuf, source: FormatError },
}

/// Splits the contents of a file into lines, in file order.
///
/// Only a line that is terminated by `\n` loses a trailing `\r`: an unterminated last line
/// keeps it, because a `\r` that is not part of a CRLF pair is data.
struct Lines<'a> {
    rest: Option<&'a [u8]>,
}

fn lines(bytes: &[u8]) -> Lines<'_> {
    Lines {
        rest: (!bytes.is_empty()).then_some(bytes),
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.rest?;
        match rest.iter().position(|&b| b == b'\n') {
            Some(end) => {
                let line = &rest[..end];
                let after = &rest[end + 1..];
                // A final `\n` ends the last line rather than starting an empty one.
                self.rest = (!after.is_empty()).then_some(after);
                Some(line.strip_suffix(b"\r").unwrap_or(line))
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// Parses the contents of an input file into its two sequences, in file order.
pub fn parse(bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>), FormatError> {
    if bytes.first() == Some(&b'>') {
        parse_fasta(bytes)
    } else {
        parse_plain(bytes)
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
        // keeping it would only cost memory.
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

/// Reads and parses an input file, refusing files larger than `max_bytes`.
///
/// The size is checked from the metadata before anything is read, so an oversized file costs
/// no memory; the read itself is capped too, in case the file grows in between or is a special
/// file whose metadata reports no size.
pub fn read_pair(path: &Path, max_bytes: u64) -> Result<Pair, InputError> {
    let unreadable = |source: io::Error| {
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
    };
    let too_large = |size: u64| InputError::TooLarge {
        path: path.to_path_buf(),
        size,
        limit: max_bytes,
    };

    let metadata = std::fs::metadata(path).map_err(unreadable)?;
    if metadata.is_dir() {
        return Err(InputError::IsDirectory {
            path: path.to_path_buf(),
        });
    }
    if metadata.len() > max_bytes {
        return Err(too_large(metadata.len()));
    }

    let file = File::open(path).map_err(unreadable)?;
    let capacity = usize::try_from(metadata.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    let read = bytes.len() as u64;
    if read > max_bytes {
        return Err(too_large(read));
    }

    let (first, second) = parse(&bytes).map_err(|source| InputError::Format {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(Pair::from_file_order(first, second))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn seqs(x: &[u8], y: &[u8]) -> Result<(Vec<u8>, Vec<u8>), FormatError> {
        Ok((x.to_vec(), y.to_vec()))
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
        // Not followed by `\n`, so not part of a CRLF pair.
        assert_eq!(parse(b"A\nG\r"), seqs(b"A", b"G\r"));
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
        use rand::{Rng, SeedableRng};

        // Mostly the bytes the parser cares about, so the odd corners come up often.
        let alphabet = b"\n\n\r\r>>aZ\x00\xff";
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        for _ in 0..20_000 {
            let len = rng.gen_range(0..24);
            let input: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect();
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
    fn swap_when_first_longer() {
        let pair = Pair::from_file_order(b"GATTACA".to_vec(), b"ACGT".to_vec());
        assert_eq!(
            pair,
            Pair {
                x: b"ACGT".to_vec(),
                y: b"GATTACA".to_vec(),
                swapped: true
            }
        );
    }

    #[test]
    fn no_swap_when_first_shorter_or_equal() {
        let pair = Pair::from_file_order(b"ACGT".to_vec(), b"TGCA".to_vec());
        assert_eq!(pair.x, b"ACGT");
        assert_eq!(pair.y, b"TGCA");
        assert!(!pair.swapped);
        let pair = Pair::from_file_order(b"AC".to_vec(), b"TGCA".to_vec());
        assert_eq!(pair.x, b"AC");
        assert!(!pair.swapped);
    }

    #[test]
    fn read_pair_orients() {
        let file = file_with(b"GATTACA\r\nACGT\r\n");
        let pair = read_pair(file.path(), DEFAULT_MAX_INPUT_BYTES).unwrap();
        assert_eq!(
            pair,
            Pair::from_file_order(b"GATTACA".to_vec(), b"ACGT".to_vec())
        );
        assert!(pair.swapped);
    }

    #[test]
    fn missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope.txt");
        let err = read_pair(&path, DEFAULT_MAX_INPUT_BYTES).unwrap_err();
        assert!(matches!(err, InputError::NotFound { path: ref p } if *p == path));
        assert_eq!(
            err.to_string(),
            format!("input file '{}': not found", path.display())
        );
    }

    #[test]
    fn directory() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_pair(dir.path(), DEFAULT_MAX_INPUT_BYTES).unwrap_err();
        assert!(matches!(err, InputError::IsDirectory { .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            format!("input file '{}': is a directory", dir.path().display())
        );
    }

    #[test]
    fn too_large_file() {
        let file = file_with(b"ACGT\nACGT\n");
        let err = read_pair(file.path(), 9).unwrap_err();
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
        assert!(read_pair(file.path(), 10).is_ok());
    }

    #[test]
    fn format_error_names_file() {
        let file = file_with(b"ACGT\n");
        let err = read_pair(file.path(), DEFAULT_MAX_INPUT_BYTES).unwrap_err();
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

    #[cfg(unix)]
    #[test]
    fn unreadable_file() {
        use std::os::unix::fs::PermissionsExt;

        let file = file_with(b"ACGT\nACGT\n");
        std::fs::set_permissions(file.path(), std::fs::Permissions::from_mode(0o000)).unwrap();
        // Root (and anyone with CAP_DAC_OVERRIDE) reads the file regardless of its mode.
        if std::fs::read(file.path()).is_ok() {
            return;
        }
        let err = read_pair(file.path(), DEFAULT_MAX_INPUT_BYTES).unwrap_err();
        assert!(matches!(err, InputError::Unreadable { .. }), "{err:?}");
        let message = err.to_string();
        assert!(message.starts_with("input file '"), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]

            /// Arbitrary bytes: `parse` returns, never panics, and a sequence never holds a
            /// newline.
            #[test]
            fn parse_survives_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
                if let Ok((x, y)) = parse(&bytes) {
                    prop_assert!(!x.contains(&b'\n') && !y.contains(&b'\n'));
                }
            }

            /// Inputs made mostly of the bytes that steer the parser.
            #[test]
            fn parse_survives_structural_bytes(
                bytes in proptest::collection::vec(prop::sample::select(b"\n\r>ACGT ".to_vec()), 0..300)
            ) {
                let _ = parse(&bytes);
            }

            /// Any two sequences written in the plain format read back as themselves.
            #[test]
            fn plain_format_round_trips(
                x in proptest::collection::vec(any::<u8>().prop_filter("no line breaks", |b| *b != b'\n' && *b != b'\r'), 0..100),
                y in proptest::collection::vec(any::<u8>().prop_filter("no line breaks", |b| *b != b'\n' && *b != b'\r'), 0..100),
                crlf in any::<bool>(),
            ) {
                prop_assume!(x.first() != Some(&b'>'));
                let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
                let file = [&x[..], eol, &y[..], eol].concat();
                prop_assert_eq!(parse(&file), Ok((x, y)));
            }
        }
    }
}
