//! A search's patterns file: one pattern per line, or FASTA (one pattern per record, its sequence
//! lines joined), numbered from 0 in the file's order. Read whole, as `solve`'s input is
//! ([`super::read_whole`]: a file or `-`, gzip, at most `--max-input` bytes); a file with a NUL byte
//! is not text and is refused (a binary file named by mistake would otherwise become thousands of
//! patterns), and so are UTF-16, UTF-32, an empty pattern (with its number and line) and a file
//! with no pattern. The rules for users: `docs/search.md#what-is-searched`.

use std::path::Path;

use super::{lines, looks_like_fasta, read_whole, text_of, Format, FormatError, InputError};

/// The patterns of a file, in its order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patterns {
    pub patterns: Vec<Vec<u8>>,
    pub format: Format,
}

/// Reads the patterns file at `path` (`-`: standard input), refusing more than `max_bytes`.
pub fn read_patterns(path: &Path, max_bytes: u64) -> Result<Patterns, InputError> {
    read_whole(path, max_bytes, parse_patterns)
}

/// The patterns in the bytes of a patterns file (see the module doc).
pub fn parse_patterns(bytes: &[u8]) -> Result<Patterns, FormatError> {
    let bytes = text_of(bytes, |offset| FormatError::NotText { offset })?;
    let (patterns, format) = if looks_like_fasta(bytes) {
        (fasta(bytes)?, Format::Fasta)
    } else {
        (per_line(bytes)?, Format::Plain)
    };
    if patterns.is_empty() {
        return Err(FormatError::NoPatterns);
    }
    Ok(Patterns { patterns, format })
}

fn per_line(bytes: &[u8]) -> Result<Vec<Vec<u8>>, FormatError> {
    let all: Vec<&[u8]> = lines(bytes).collect();
    let used = all.iter().rposition(|l| !l.is_empty()).map_or(0, |k| k + 1);
    all[..used]
        .iter()
        .enumerate()
        .map(|(number, line)| match line.is_empty() {
            true => Err(FormatError::EmptyPattern {
                number,
                line: number + 1,
            }),
            false => Ok(line.to_vec()),
        })
        .collect()
}

fn fasta(bytes: &[u8]) -> Result<Vec<Vec<u8>>, FormatError> {
    // (the header's line, the record's bytes)
    let mut records: Vec<(usize, Vec<u8>)> = Vec::new();
    for (k, line) in lines(bytes).enumerate() {
        if line.first() == Some(&b'>') {
            records.push((k + 1, Vec::new()));
        } else if let Some((_, sequence)) = records.last_mut() {
            // Lines before the first header are blank: the file reads as FASTA.
            sequence.extend_from_slice(line);
        }
    }
    records
        .into_iter()
        .enumerate()
        .map(|(number, (line, sequence))| match sequence.is_empty() {
            true => Err(FormatError::EmptyPattern { number, line }),
            false => Ok(sequence),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Result<Vec<Vec<u8>>, FormatError> {
        parse_patterns(bytes).map(|p| p.patterns)
    }

    fn list(items: &[&[u8]]) -> Result<Vec<Vec<u8>>, FormatError> {
        Ok(items.iter().map(|i| i.to_vec()).collect())
    }

    #[test]
    fn one_pattern_per_line() {
        assert_eq!(parse(b"ACGT\nGG\n"), list(&[b"ACGT", b"GG"]));
        assert_eq!(parse(b"ACGT\r\nGG"), list(&[b"ACGT", b"GG"]));
        assert_eq!(parse(b"ACGT\nGG\r"), list(&[b"ACGT", b"GG"]));
        assert_eq!(parse(b"a b\n\n\n"), list(&[b"a b"]));
        assert_eq!(parse(b"\xef\xbb\xbfAC\n"), list(&[b"AC"]));
        assert_eq!(parse_patterns(b"A\n").unwrap().format, Format::Plain);
    }

    #[test]
    fn fasta_records() {
        let file = b">p0 first\nAC\nGT\n\n>p1\r\nT\r\n";
        assert_eq!(parse(file), list(&[b"ACGT", b"T"]));
        assert_eq!(parse_patterns(file).unwrap().format, Format::Fasta);
        assert_eq!(parse(b"\n>x\nA"), list(&[b"A"]));
    }

    #[test]
    fn empty_patterns_are_refused_with_their_number_and_line() {
        assert_eq!(
            parse(b"AC\n\nGT\n"),
            Err(FormatError::EmptyPattern { number: 1, line: 2 })
        );
        assert_eq!(
            parse(b"\nGT\n"),
            Err(FormatError::EmptyPattern { number: 0, line: 1 })
        );
        assert_eq!(
            parse(b">a\nAC\n>b\n>c\nG\n"),
            Err(FormatError::EmptyPattern { number: 1, line: 3 })
        );
        let message = FormatError::EmptyPattern { number: 1, line: 3 }.to_string();
        assert!(
            message.starts_with("pattern 1 (line 3) is empty"),
            "{message}"
        );
        assert_eq!(parse(b""), Err(FormatError::NoPatterns));
        assert_eq!(parse(b"\n\r\n"), Err(FormatError::NoPatterns));
    }

    #[test]
    fn binary_and_wide_files_are_not_patterns() {
        assert_eq!(
            parse(b"ACGT\nA\x00C\n"),
            Err(FormatError::NotText { offset: 6 })
        );
        let utf16: Vec<u8> = "\u{feff}AC\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(matches!(parse(&utf16), Err(FormatError::WideText { .. })));
    }

    #[test]
    fn files_directories_and_limits() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_patterns(dir.path(), 100).unwrap_err();
        assert!(matches!(err, InputError::IsDirectory { .. }), "{err:?}");
        let file = dir.path().join("p.txt");
        std::fs::write(&file, b"ACGT\n").unwrap();
        assert_eq!(
            read_patterns(&file, 100).unwrap().patterns,
            vec![b"ACGT".to_vec()]
        );
        assert!(matches!(
            read_patterns(&file, 3),
            Err(InputError::TooLarge { .. })
        ));
        let err = read_patterns(&dir.path().join("none"), 100).unwrap_err();
        assert!(matches!(err, InputError::NotFound { .. }), "{err:?}");
    }
}
