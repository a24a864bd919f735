//! Seeded random inputs, for the committed benchmark inputs, the tests and the self-test.
//!
//! Each byte is a uniform pick from the alphabet by [`Random`], whose stream is fixed by its seed,
//! so a `(len, len2, alphabet, seed)` tuple names one file byte for byte, for good: the files in
//! `inputs/` can be regenerated and checked instead of trusted. Files are written in the plain
//! format [`crate::input`] reads, and never one it would misread (the options refuse an alphabet
//! with a line break; a pair whose first line would begin with `>` is refused here). A file is
//! never built in memory: [`write_generated`] streams [`PairFile`]'s bytes through a buffer of
//! [`CHUNK`] bytes into a temporary file renamed over the target, and refuses before writing a file
//! over [`MAX_FILE_BYTES`] or the free space.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::input::{Format, Pair};
pub use lcs_core::random::{mutated_pair, MutatedCopy, Random};

/// Two random sequences of lengths `a` and `b` from `alphabet`, oriented as the DP matrix
/// wants them (the shorter as rows).
pub fn random_pair(rng: &mut Random, a: usize, b: usize, alphabet: &[u8]) -> Pair {
    let first = rng.bytes(a, alphabet);
    let second = rng.bytes(b, alphabet);
    Pair::from_file_order(first, second, Format::Plain)
}

/// Two sequences of lengths `len` and `len2`, both drawn from one generator seeded with `seed`
/// (first all of X, then all of Y), so the pair depends on nothing but the arguments.
pub fn generate_pair(len: usize, len2: usize, alphabet: &[u8], seed: u64) -> (Vec<u8>, Vec<u8>) {
    let mut rng = Random::new(seed);
    let x = rng.bytes(len, alphabet);
    let y = rng.bytes(len2, alphabet);
    (x, y)
}

/// The plain-format file of `x` and `y`: `X\nY\n`.
pub fn plain_file(x: &[u8], y: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(x.len() + y.len() + 2);
    for s in [x, y] {
        bytes.extend_from_slice(s);
        bytes.push(b'\n');
    }
    bytes
}

/// Largest file `generate` writes: 1 TiB. Far more than any run can read (every rank holds
/// both sequences in memory), and a bound that keeps every length's arithmetic inside `u64`.
pub const MAX_FILE_BYTES: u64 = 1 << 40;

/// Bytes made and written at a time.
pub const CHUNK: usize = 1 << 20;

/// The size of the plain file of two sequences of lengths `len` and `len2`: both, and a
/// newline after each; `None` beyond `u64`.
pub fn file_len(len: usize, len2: usize) -> Option<u64> {
    (len as u64).checked_add(len2 as u64)?.checked_add(2)
}

/// Refuses lengths whose file would be larger than [`MAX_FILE_BYTES`].
pub fn check_lengths(len: usize, len2: usize) -> Result<u64, Error> {
    match file_len(len, len2) {
        Some(bytes) if bytes <= MAX_FILE_BYTES => Ok(bytes),
        size => Err(Error::Usage(format!(
            "--len {len} and --len2 {len2} make a file of {}; generate writes at most {} \
             ({MAX_FILE_BYTES} bytes)",
            size.map_or("more than 2^64 bytes".to_owned(), |b| format!("{b} bytes")),
            crate::mem::human(MAX_FILE_BYTES)
        ))),
    }
}

/// The plain-format file of the pair `generate_pair(len, len2, alphabet, seed)`, made as it
/// is read: X's bytes, a newline, Y's bytes, a newline, drawn from the generator in that
/// order, so the bytes are [`plain_file`]'s of that pair, whatever sizes the reads ask for.
pub struct PairFile<'a> {
    rng: Random,
    alphabet: &'a [u8],
    /// Bytes of the current sequence still to make.
    left: u64,
    /// Y's length, until X's newline is out.
    next: Option<u64>,
    /// Both newlines are out.
    done: bool,
}

impl<'a> PairFile<'a> {
    pub fn new(len: usize, len2: usize, alphabet: &'a [u8], seed: u64) -> PairFile<'a> {
        assert!(
            (len == 0 && len2 == 0) || !alphabet.is_empty(),
            "cannot draw a sequence from an empty alphabet"
        );
        PairFile {
            rng: Random::new(seed),
            alphabet,
            left: len as u64,
            next: Some(len2 as u64),
            done: false,
        }
    }
}

impl Read for PairFile<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() && !self.done {
            if self.left > 0 {
                let take = self.left.min((buf.len() - n) as u64) as usize;
                for b in &mut buf[n..n + take] {
                    *b = self.alphabet[self.rng.below(self.alphabet.len())];
                }
                n += take;
                self.left -= take as u64;
            } else {
                buf[n] = b'\n';
                n += 1;
                match self.next.take() {
                    Some(len2) => self.left = len2,
                    None => self.done = true,
                }
            }
        }
        Ok(n)
    }
}

/// The plain-format file of `generate --len LEN --mutate RATE --seed SEED`: X drawn as
/// [`PairFile`] draws it, then Y, the [`MutatedCopy`] of X, made as it is read in constant
/// memory.
pub struct MutatedFile<'a> {
    /// X's bytes, drawn the first time.
    x: Random,
    alphabet: &'a [u8],
    len: u64,
    /// Bytes of X made so far.
    at: u64,
    y: MutatedCopy<'a>,
    second: bool,
    done: bool,
}

impl<'a> MutatedFile<'a> {
    pub fn new(len: usize, rate: f64, alphabet: &'a [u8], seed: u64) -> MutatedFile<'a> {
        MutatedFile {
            x: Random::new(seed),
            alphabet,
            len: len as u64,
            at: 0,
            y: MutatedCopy::new(len, rate, alphabet, seed),
            second: false,
            done: false,
        }
    }
}

impl Read for MutatedFile<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() && !self.done {
            if !self.second {
                if self.at < self.len {
                    buf[n] = self.alphabet[self.x.below(self.alphabet.len())];
                    self.at += 1;
                } else {
                    buf[n] = b'\n';
                    self.second = true;
                }
            } else {
                match self.y.next() {
                    Some(b) => buf[n] = b,
                    None => {
                        buf[n] = b'\n';
                        self.done = true;
                    }
                }
            }
            n += 1;
        }
        Ok(n)
    }
}

/// Bytes of a plain file that decide whether it reads back as written (see
/// [`reads_back`]).
const HEAD: usize = 5;

/// Whether a plain file `X\nY\n` whose sequences hold no line break, and whose first bytes
/// are `head` (its first [`HEAD`] bytes, or all of a shorter file), reads back as X and Y:
/// whether it neither looks like FASTA nor begins with a UTF-16 or UTF-32 byte-order mark.
/// The marks are at most four bytes long; FASTA is told by the first byte of the first
/// non-blank line after a UTF-8 byte-order mark, which is at offset 0 or 3 (X, after the
/// mark), 1 (Y after an empty X) or 4 (Y after an X that is the mark alone): inside the head.
fn reads_back(head: &[u8]) -> bool {
    crate::input::auto_reads_plain(head)
}

/// Writes the file of `generate --len LEN --len2 LEN2 --alphabet ALPHABET --seed SEED` to
/// `path`, atomically (as [`crate::export::write_atomic`] writes, streamed). Refused, with
/// nothing written, when the file is larger than [`MAX_FILE_BYTES`] or the free space of
/// its directory, or would not read back as written.
pub fn write_generated(
    path: &Path,
    len: usize,
    len2: usize,
    alphabet: &[u8],
    seed: u64,
) -> Result<(), Error> {
    let file = PairFile::new(len, len2, alphabet, seed);
    write_file(path, (len, len2), check_lengths(len, len2)?, file)
}

/// Writes the file of `generate --len LEN --mutate RATE --alphabet ALPHABET --seed SEED`
/// ([`MutatedFile`]) to `path`, as [`write_generated`] does; the free-space check counts Y at
/// its longest, twice X.
pub fn write_mutated(
    path: &Path,
    len: usize,
    rate: f64,
    alphabet: &[u8],
    seed: u64,
) -> Result<(), Error> {
    let longest = len.saturating_mul(2);
    let size = check_lengths(len, longest)?;
    let file = MutatedFile::new(len, rate, alphabet, seed);
    write_file(path, (len, longest), size, file)
}

/// Streams `file` (at most `size` bytes; `lengths` as the flags gave them, for messages) to
/// `path` atomically, after the checks of [`write_generated`].
fn write_file(
    path: &Path,
    (len, len2): (usize, usize),
    size: u64,
    mut file: impl Read,
) -> Result<(), Error> {
    if crate::export::discards(path) {
        // The null device takes anything: nothing to check, nothing to write.
        return Ok(());
    }
    // The file a symbolic link names is the one replaced: its directory needs the room.
    let target = fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    if let Some(free) = free_bytes(&dir) {
        if size > free {
            return Err(Error::Usage(format!(
                "--len {len} and --len2 {len2} make a file of {size} bytes ({}), more than \
                 the {} free in '{}' (nothing written)",
                crate::mem::human(size),
                crate::mem::human(free),
                dir.display()
            )));
        }
    }
    let mut buf = vec![0u8; CHUNK];
    let mut head = 0;
    while head < HEAD {
        match file.read(&mut buf[head..HEAD]).expect("made in memory") {
            0 => break,
            n => head += n,
        }
    }
    if !reads_back(&buf[..head]) {
        return Err(Error::Usage(format!(
            "this pair would not read back as written (its first line begins with '>', \
             which reads as FASTA, or with a UTF-16 or UTF-32 byte-order mark); choose \
             another --seed or an --alphabet without '>' (nothing written to '{}')",
            path.display()
        )));
    }
    crate::export::write_streamed(path, |out| {
        let mut filled = head;
        while filled > 0 {
            out.write_all(&buf[..filled])?;
            filled = file.read(&mut buf)?;
        }
        Ok(())
    })
}

/// Bytes an unprivileged writer may still use on the file system of `dir` (`statvfs`), or
/// `None` where it cannot tell.
pub fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs reads the NUL-terminated path and writes the struct it is given.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c_path.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    (stat.f_bavail as u64).checked_mul(stat.f_frsize as u64)
}

/// The pairs the self-test and the store tests check: a fixed list of edge shapes, then
/// random pairs of lengths `0..=max_len` over alphabets of 2, 4 and 26 letters and of all
/// 256 bytes.
pub fn test_pairs(seed: u64, random: usize, max_len: usize) -> Vec<Pair> {
    let edges: [(&[u8], &[u8]); 9] = [
        (b"ACG", b"TTACGGATCA"),
        (b"G", b"ACGTTGCA"),
        (b"A", b"A"),
        (b"A", b"C"),
        (b"GATTACAGATTACA", b"GATTACAGATTACA"),
        (b"AAAAAAA", b"CCCCCCCCCC"),
        (b"", b"ACGT"),
        (b"", b""),
        (&[0xff, 0x00, 0xfe, 0x41], &[0x00, 0xff, 0xfe, 0x41, 0x41]),
    ];
    let all_bytes: Vec<u8> = (0..=255).collect();
    let alphabets: [&[u8]; 4] = [b"AB", b"ACGT", b"abcdefghijklmnopqrstuvwxyz", &all_bytes];
    let mut rng = Random::new(seed);
    let mut pairs: Vec<Pair> = edges
        .iter()
        .map(|(x, y)| Pair::from_file_order(x.to_vec(), y.to_vec(), Format::Plain))
        .collect();
    for case in 0..random {
        let (a, b) = (rng.below(max_len + 1), rng.below(max_len + 1));
        pairs.push(random_pair(
            &mut rng,
            a,
            b,
            alphabets[case % alphabets.len()],
        ));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_uniform_and_in_range() {
        let mut rng = Random::new(1);
        let mut counts = [0usize; 5];
        for _ in 0..50_000 {
            counts[rng.below(5)] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
        assert_eq!(Random::new(9).below(1), 0);
    }

    #[test]
    fn same_seed_same_pair() {
        let a = generate_pair(100, 120, b"ACGT", 42);
        let b = generate_pair(100, 120, b"ACGT", 42);
        assert_eq!(a, b);
        assert_ne!(a, generate_pair(100, 120, b"ACGT", 43));
        assert!(a.0.iter().chain(&a.1).all(|c| b"ACGT".contains(c)));
    }

    /// The committed inputs are what the generator makes of the lengths and seeds in
    /// `scripts/make-inputs.sh`, byte for byte.
    #[test]
    fn committed_inputs_are_reproduced() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let script = std::fs::read_to_string(root.join("scripts/make-inputs.sh")).unwrap();
        let table: Vec<(String, usize, usize, u64)> = script
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                match f.as_slice() {
                    [name, len, len2, seed] if name.ends_with(".txt") => Some((
                        name.to_string(),
                        len.parse().ok()?,
                        len2.parse().ok()?,
                        seed.parse().ok()?,
                    )),
                    _ => None,
                }
            })
            .collect();
        assert_eq!(table.len(), 6, "{script}");
        // huge.txt is made on demand, not committed.
        for (name, len, len2, seed) in table.into_iter().filter(|t| t.0 != "huge.txt") {
            let mut streamed = Vec::new();
            PairFile::new(len, len2, b"ACGT", seed)
                .read_to_end(&mut streamed)
                .unwrap();
            let committed = std::fs::read(root.join("inputs").join(&name)).unwrap();
            assert!(streamed == committed, "{name} differs");
        }
    }

    /// The streamed file is the pair's plain file byte for byte, whatever sizes the reads
    /// take it in: the committed inputs and the tests' files stay what they were.
    #[test]
    fn the_streamed_file_is_the_pairs_plain_file() {
        let mut rng = Random::new(11);
        for (len, len2) in [(0, 0), (0, 3), (5, 0), (1, 1), (100, 120), (4000, 3999)] {
            let (x, y) = generate_pair(len, len2, b"ACGT", 7);
            let whole = plain_file(&x, &y);
            let mut streamed = Vec::new();
            let mut file = PairFile::new(len, len2, b"ACGT", 7);
            loop {
                let mut buf = vec![0u8; 1 + rng.below(700)];
                match file.read(&mut buf).unwrap() {
                    0 => break,
                    n => streamed.extend_from_slice(&buf[..n]),
                }
            }
            assert!(streamed == whole, "{len} x {len2}");
        }
    }

    #[test]
    fn a_file_is_written_whole_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        let (len, len2) = (CHUNK + 17, 3 * CHUNK / 2);
        write_generated(&path, len, len2, b"ACGT", 3).unwrap();
        let (x, y) = generate_pair(len, len2, b"ACGT", 3);
        assert!(std::fs::read(&path).unwrap() == plain_file(&x, &y));
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left");
    }

    /// The head decides as reading the whole file back would, for short pairs over bytes
    /// that make byte-order marks (UTF-8, UTF-16, UTF-32), a header or a blank line.
    #[test]
    fn the_head_decides_as_reading_back_would() {
        let alphabet = b"\xef\xbb\xbf\xff\xfe\x00>A ";
        let mut rng = Random::new(2);
        for _ in 0..50_000 {
            let (a, b) = (rng.below(7), rng.below(4));
            let (x, y) = (rng.bytes(a, alphabet), rng.bytes(b, alphabet));
            let file = plain_file(&x, &y);
            let whole = matches!(
                crate::input::parse(&file, crate::input::FormatChoice::Auto),
                Ok((ref p, ref q, Format::Plain)) if *p == x && *q == y
            );
            assert_eq!(
                reads_back(&file[..file.len().min(HEAD)]),
                whole,
                "{x:?} {y:?}"
            );
        }
    }

    #[test]
    fn a_pair_that_would_read_as_fasta_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        // Seeds whose first byte from "A>" is '>' and 'A'.
        let first = |seed| generate_pair(1, 1, b"A>", seed).0[0];
        let angle = (0..).find(|&s| first(s) == b'>').unwrap();
        let plain = (0..).find(|&s| first(s) == b'A').unwrap();
        assert!(write_generated(&path, 1, 1, b"A>", angle).is_err());
        assert!(!path.exists());
        write_generated(&path, 1, 1, b"A>", plain).unwrap();
        assert_eq!(std::fs::read(&path).unwrap()[0], b'A');
    }

    #[test]
    fn lengths_past_the_maximum_or_the_free_space_are_refused() {
        assert_eq!(file_len(3, 4), Some(9));
        assert_eq!(file_len(usize::MAX, 0), None);
        assert_eq!(check_lengths(0, 0).unwrap(), 2);
        let most = (MAX_FILE_BYTES - 2) as usize;
        assert_eq!(check_lengths(most, 0).unwrap(), MAX_FILE_BYTES);
        let err = check_lengths(most, 1).unwrap_err();
        assert_eq!(err.exit_code(), crate::error::EXIT_USAGE);
        assert!(err.to_string().contains("at most 1.0 TiB"), "{err}");
        let err = check_lengths(usize::MAX, usize::MAX).unwrap_err();
        assert!(err.to_string().contains("more than 2^64 bytes"), "{err}");

        // Twice the free space: refused, even if some space is freed meanwhile.
        let dir = tempfile::tempdir().unwrap();
        let free = free_bytes(dir.path()).unwrap();
        let path = dir.path().join("big.txt");
        let len = usize::try_from(free.saturating_mul(2)).unwrap();
        let expected = match file_len(len, 0) {
            Some(size) if size <= MAX_FILE_BYTES => "free in",
            _ => "at most",
        };
        match write_generated(&path, len, 0, b"ACGT", 1) {
            Err(Error::Usage(why)) => assert!(why.contains(expected), "{why}"),
            other => panic!("{other:?}"),
        }
        assert!(!path.exists());
    }

    #[test]
    fn test_pairs_cover_the_edges_and_every_alphabet() {
        let pairs = test_pairs(5, 40, 50);
        assert_eq!(pairs.len(), 49);
        assert!(pairs.iter().any(|p| p.x.is_empty() && p.y.is_empty()));
        assert!(pairs.iter().any(|p| p.swapped));
        assert!(pairs
            .iter()
            .all(|p| p.x.len() <= p.y.len() && p.y.len() <= 50));
        assert!(pairs.iter().any(|p| p.y.iter().any(|&b| b >= 0x80)));
    }

    #[test]
    fn mutated_copies_differ_at_about_the_rate_asked() {
        for (rate, seed) in [(0.0, 1), (0.001, 2), (0.01, 3), (0.1, 4)] {
            let (x, y) = mutated_pair(20_000, rate, b"ACGT", seed);
            assert_eq!(
                x,
                generate_pair(20_000, 0, b"ACGT", seed).0,
                "X is the plain draw"
            );
            let (a, b) = if x.len() <= y.len() {
                (&x, &y)
            } else {
                (&y, &x)
            };
            let d = lcs_core::bitpar::edit::distance(a, b) as f64;
            // Each mutation costs at most one edit, a substitution by another letter exactly
            // one; neighbouring ones sometimes cancel.
            let expected = rate * 20_000.0;
            assert!(d <= expected * 1.2 + 5.0, "rate {rate}: distance {d}");
            assert!(d >= expected * 0.7 - 5.0, "rate {rate}: distance {d}");
        }
        // The same arguments, the same file; the streamed file is the in-memory one.
        assert_eq!(
            mutated_pair(5000, 0.05, b"ab", 9),
            mutated_pair(5000, 0.05, b"ab", 9)
        );
        let mut streamed = Vec::new();
        let mut file = MutatedFile::new(5000, 0.05, b"ab", 9);
        let mut buf = [0u8; 7];
        loop {
            match file.read(&mut buf).unwrap() {
                0 => break,
                n => streamed.extend_from_slice(&buf[..n]),
            }
        }
        let (x, y) = mutated_pair(5000, 0.05, b"ab", 9);
        assert_eq!(streamed, plain_file(&x, &y));
        // Every mutation of a one-letter alphabet is an insertion or a deletion.
        let (x, y) = mutated_pair(3000, 0.3, b"a", 5);
        assert!(x.iter().chain(&y).all(|&b| b == b'a') && x.len() != y.len());
        assert_eq!(mutated_pair(0, 0.5, b"ab", 1), (vec![], vec![]));
    }
}
