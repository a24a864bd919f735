//! Seeded random input pairs, for benchmarks and tests.
//!
//! The generator is ChaCha8 seeded from a `u64`, and each byte is a uniform pick from the
//! alphabet, so a `(len, len2, alphabet, seed)` tuple names one file byte for byte: the files in
//! `inputs/` can be regenerated and checked instead of trusted. ChaCha's output stream is fixed
//! by its specification, unlike `StdRng`, whose algorithm may change between `rand` releases.
//!
//! Files are written in the plain format that [`crate::input`] reads.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `len` bytes drawn uniformly and independently from `alphabet`.
///
/// A byte listed twice in `alphabet` is twice as likely, which lets callers skew the
/// distribution without another parameter.
///
/// # Panics
///
/// If `alphabet` is empty and `len` is not zero.
pub fn random_sequence(len: usize, alphabet: &[u8], rng: &mut impl Rng) -> Vec<u8> {
    assert!(
        len == 0 || !alphabet.is_empty(),
        "cannot draw a sequence from an empty alphabet"
    );
    (0..len)
        .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
        .collect()
}

/// Two sequences of lengths `len` and `len2`, both drawn from one generator seeded with `seed`
/// (first all of X, then all of Y), so the pair depends on nothing but the arguments.
///
/// # Panics
///
/// If `alphabet` is empty and either length is not zero.
pub fn generate_pair(len: usize, len2: usize, alphabet: &[u8], seed: u64) -> (Vec<u8>, Vec<u8>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let x = random_sequence(len, alphabet, &mut rng);
    let y = random_sequence(len2, alphabet, &mut rng);
    (x, y)
}

/// Writes `x` and `y` in the plain input format, `X\nY\n`.
///
/// The data goes to a temporary file next to `path` that is then renamed over it, so a reader
/// (or a crash) never sees a half-written input and an existing file is replaced whole. The
/// sequences must not contain `\n`, or the file will not read back as the same pair.
pub fn write_pair(path: &Path, x: &[u8], y: &[u8]) -> io::Result<()> {
    let (tmp_path, file) = create_temp_beside(path)?;
    let written = write_and_sync(file, x, y).and_then(|()| fs::rename(&tmp_path, path));
    if written.is_err() {
        // Best effort: the original error is the one worth reporting.
        let _ = fs::remove_file(&tmp_path);
    }
    written
}

fn write_and_sync(file: File, x: &[u8], y: &[u8]) -> io::Result<()> {
    let mut out = io::BufWriter::new(file);
    out.write_all(x)?;
    out.write_all(b"\n")?;
    out.write_all(y)?;
    out.write_all(b"\n")?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    // Without this the rename could reach the disk before the data does.
    file.sync_all()
}

/// Creates a new, uniquely named file in the directory of `path`; the same directory, because
/// a rename is only atomic within one file system.
fn create_temp_beside(path: &Path) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);

    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("'{}' does not name a file", path.display()),
        )
    })?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    loop {
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(
            ".{}.{}.tmp",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let tmp_path = dir.join(tmp_name);
        // `create_new` so that a leftover file from another process is never overwritten.
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp_path)
        {
            Ok(file) => return Ok((tmp_path, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{read_pair, Pair, DEFAULT_MAX_INPUT_BYTES};

    #[test]
    fn same_seed_same_bytes() {
        assert_eq!(
            generate_pair(500, 700, b"ACGT", 42),
            generate_pair(500, 700, b"ACGT", 42)
        );
    }

    #[test]
    fn different_seed_different_bytes() {
        assert_ne!(
            generate_pair(500, 500, b"ACGT", 1),
            generate_pair(500, 500, b"ACGT", 2)
        );
    }

    #[test]
    fn fixed_output_for_a_seed() {
        // Pins the stream: if this changes, every file in `inputs/` changes with it.
        // These are the two lines of `inputs/small.txt`.
        let (x, y) = generate_pair(11, 13, b"ACGT", 1);
        assert_eq!(x, b"AGCTGACCCAA");
        assert_eq!(y, b"GCAAAGTGCCGCG");
    }

    #[test]
    fn only_alphabet_bytes() {
        let (x, y) = generate_pair(2000, 3000, b"xY\x00\xff", 7);
        assert!(x.iter().chain(&y).all(|b| b"xY\x00\xff".contains(b)));
        // Every symbol turns up in 5000 uniform draws from four.
        for symbol in b"xY\x00\xff" {
            assert!(x.contains(symbol) && y.contains(symbol));
        }
    }

    #[test]
    fn exact_lengths() {
        for (len, len2) in [(0, 0), (0, 5), (1, 0), (13, 11), (1000, 1)] {
            let (x, y) = generate_pair(len, len2, b"AC", 3);
            assert_eq!((x.len(), y.len()), (len, len2));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(random_sequence(0, b"", &mut rng), b"");
    }

    #[test]
    fn write_then_read_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pair.txt");
        let (x, y) = generate_pair(300, 200, b"ACGT", 9);
        write_pair(&path, &x, &y).unwrap();
        let mut expected = x.clone();
        expected.push(b'\n');
        expected.extend_from_slice(&y);
        expected.push(b'\n');
        assert_eq!(fs::read(&path).unwrap(), expected);
        assert_eq!(
            read_pair(&path, DEFAULT_MAX_INPUT_BYTES).unwrap(),
            Pair::from_file_order(x, y)
        );
    }

    #[test]
    fn write_replaces_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pair.txt");
        write_pair(&path, b"AAAAAAAAAAAAAAAA", b"CCCCCCCCCCCCCCCC").unwrap();
        write_pair(&path, b"G", b"").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"G\n\n");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["pair.txt"]);
    }

    #[test]
    fn write_into_missing_directory_fails() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no-such-dir").join("pair.txt");
        assert!(write_pair(&path, b"A", b"C").is_err());
        assert!(!path.exists());
    }
}
