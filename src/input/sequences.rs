//! A `pairs` file of sequences: one sequence per line, or FASTA (one sequence per record),
//! each with a name.
//!
//! Read as the search's patterns file is ([`super::patterns`]): whole, from a file or `-`
//! (standard input), gzip decompressed, at most `--max-input` bytes; a file with a NUL byte is
//! not text and is refused, UTF-16 and UTF-32 are refused by their byte-order mark, UTF-8's
//! mark is skipped; FASTA when the first non-blank line starts with `>`. Unlike a pattern, an
//! empty sequence is a sequence here (its distance to another is that one's length):
//!
//! * plain: every line is a sequence, its line ending (`\n`, `\r\n`, or a `\r` that ends the
//!   file) not part of it, an empty line an empty sequence; the file's final line break ends
//!   the last line rather than starting another (`A\nB\n` holds two sequences, `A\n\nB` three);
//! * FASTA: each record's sequence lines, concatenated (blank lines skipped), are one
//!   sequence; a record with none is an empty sequence.
//!
//! A file with no byte at all holds no sequence and is refused.
//!
//! Names: a FASTA record's first word (what follows `>` up to the first blank), or, when the
//! header has none, the record's number counted from 1; in the plain format the line number,
//! counted from 1. So a name never holds a tab or a line break.

use std::path::Path;

use super::{lines, looks_like_fasta, read_whole, text_of, Format, FormatError, InputError};

/// The sequences of a file, in its order, and their names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequences {
    pub sequences: Vec<Vec<u8>>,
    pub names: Vec<Vec<u8>>,
    pub format: Format,
}

/// Reads the file of sequences at `path` (`-`: standard input), refusing more than
/// `max_bytes`.
pub fn read_sequences(path: &Path, max_bytes: u64) -> Result<Sequences, InputError> {
    read_whole(path, max_bytes, parse_sequences)
}

/// The sequences in the bytes of a file (see the module doc).
pub fn parse_sequences(bytes: &[u8]) -> Result<Sequences, FormatError> {
    if bytes.is_empty() {
        return Err(FormatError::NoSequences);
    }
    let bytes = text_of(bytes, |offset| FormatError::Binary { offset })?;
    if looks_like_fasta(bytes) {
        return Ok(fasta(bytes));
    }
    // A file that was only a byte-order mark has one empty line.
    let sequences: Vec<Vec<u8>> = match bytes.is_empty() {
        true => vec![Vec::new()],
        false => lines(bytes).map(<[u8]>::to_vec).collect(),
    };
    let names = (1..=sequences.len())
        .map(|n| n.to_string().into_bytes())
        .collect();
    Ok(Sequences {
        sequences,
        names,
        format: Format::Plain,
    })
}

fn fasta(bytes: &[u8]) -> Sequences {
    let mut sequences: Vec<Vec<u8>> = Vec::new();
    let mut names = Vec::new();
    for line in lines(bytes) {
        if let Some(header) = line.strip_prefix(b">") {
            let word = header
                .split(|b| b.is_ascii_whitespace())
                .find(|w| !w.is_empty());
            names.push(match word {
                Some(w) => w.to_vec(),
                None => (sequences.len() + 1).to_string().into_bytes(),
            });
            sequences.push(Vec::new());
        } else if let Some(sequence) = sequences.last_mut() {
            // Lines before the first header are blank: the file reads as FASTA.
            sequence.extend_from_slice(line);
        }
    }
    Sequences {
        sequences,
        names,
        format: Format::Fasta,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Result<(Vec<&'static str>, Vec<String>), FormatError> {
        parse_sequences(bytes).map(|s| {
            let text = |v: &Vec<u8>| -> &'static str {
                Box::leak(String::from_utf8_lossy(v).into_owned().into_boxed_str())
            };
            (
                s.sequences.iter().map(text).collect(),
                s.names
                    .iter()
                    .map(|n| String::from_utf8_lossy(n).into_owned())
                    .collect(),
            )
        })
    }

    #[test]
    fn one_sequence_per_line_empty_lines_included() {
        let (seqs, names) = parse(b"ACGT\nGG\n").unwrap();
        assert_eq!(
            (seqs, names),
            (vec!["ACGT", "GG"], vec!["1".into(), "2".into()])
        );
        assert_eq!(parse(b"ACGT\r\n\r\nGG").unwrap().0, vec!["ACGT", "", "GG"]);
        assert_eq!(parse(b"A\nB\n\n").unwrap().0, vec!["A", "B", ""]);
        assert_eq!(parse(b"\n").unwrap().0, vec![""]);
        assert_eq!(parse(b"\xef\xbb\xbf").unwrap().0, vec![""]);
        assert_eq!(parse(b"\xef\xbb\xbfAC\nT").unwrap().0, vec!["AC", "T"]);
        assert_eq!(parse_sequences(b"A\n").unwrap().format, Format::Plain);
    }

    #[test]
    fn fasta_records_with_names_and_empty_sequences() {
        let file = b"\n>r1 first read\nAC\nGT\n\n>\n>r3\tx\r\nT\r\n>  \n";
        let (seqs, names) = parse(file).unwrap();
        assert_eq!(seqs, vec!["ACGT", "", "T", ""]);
        assert_eq!(names, vec!["r1", "2", "r3", "4"]);
        assert_eq!(parse_sequences(file).unwrap().format, Format::Fasta);
    }

    #[test]
    fn empty_binary_and_wide_files_are_refused() {
        assert_eq!(parse(b""), Err(FormatError::NoSequences));
        assert_eq!(
            parse(b"AC\nA\x00C\n"),
            Err(FormatError::Binary { offset: 4 })
        );
        let utf16: Vec<u8> = "\u{feff}AC\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(matches!(parse(&utf16), Err(FormatError::WideText { .. })));
        let message = FormatError::Binary { offset: 4 }.to_string();
        assert!(message.contains("NUL byte at offset 4"), "{message}");
    }

    #[test]
    fn files_directories_and_limits() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_sequences(dir.path(), 100).unwrap_err();
        assert!(matches!(err, InputError::IsDirectory { .. }), "{err:?}");
        let file = dir.path().join("q.txt");
        std::fs::write(&file, b"ACGT\n\nT\n").unwrap();
        let read = read_sequences(&file, 100).unwrap();
        assert_eq!(
            read.sequences,
            vec![b"ACGT".to_vec(), vec![], b"T".to_vec()]
        );
        assert!(matches!(
            read_sequences(&file, 3),
            Err(InputError::TooLarge { .. })
        ));
        let err = read_sequences(&dir.path().join("none"), 100).unwrap_err();
        assert!(matches!(err, InputError::NotFound { .. }), "{err:?}");
    }
}
