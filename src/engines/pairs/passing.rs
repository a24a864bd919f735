//! The pairs within a bound as a rank finds them: how many cannot be foreseen (30,000 copies of
//! one read all pass `-k 0`: 450 million pairs, 5.4 GB), so they are kept in memory up to a
//! budget the memory limit leaves, and beyond it spilled to an unnamed temporary file in
//! sorted runs (an external merge sort), which the rank merges back in query then target order
//! when the pairs are written, or reads back to send them on.
//!
//! A pair is twelve bytes: the query's number, the target's and the value, as `u32`s, in memory
//! and on disk (little-endian). The buffer holds at most `cap` pairs and grows by doubling; with the
//! copy a doubling makes, and the merge's reads, it takes at most 24 bytes a pair of the cap
//! ([`BYTES_PER_CAPPED_PAIR`]). A run is the buffer sorted and written out whole; the merge
//! reads each run through a buffer of its own, and where the runs are too many for their
//! buffers to fit the budget, merges the first ones into a longer run first (more passes, as
//! many as it takes). The file has no name (`O_TMPFILE`): the system removes it when the rank
//! ends, however it ends.
//!
//! A failure to spill (a full disk, a directory that cannot be written) is kept, not raised at
//! once: the rank goes on counting the pairs it finds and says so once its share is done
//! ([`Passing::error`]), so that every rank can agree on the failure together.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

pub use crate::comm::protocol::pairs::{Pair, PAIR_BYTES};
use crate::mem;

/// Bytes of the budget each pair of the cap takes: the buffer at its cap, and as much again
/// for the half it was copied from as it doubled, and for the merge's reads.
pub const BYTES_PER_CAPPED_PAIR: u64 = 2 * PAIR_BYTES as u64;

/// The fewest pairs a run holds, whatever the budget: below this the runs would be too many
/// to merge at any speed (the budget is then exceeded by at most this buffer).
pub const LEAST_CAP: usize = 1 << 16;

/// Bytes each run's reader buffers during a merge, at most and at least.
const MOST_READ: usize = 1 << 20;
const LEAST_READ: usize = 1 << 14;

/// The pairs one rank keeps: in memory up to a cap, beyond it in sorted runs on disk.
pub struct Passing {
    buffer: Vec<Pair>,
    cap: usize,
    /// The memory the rank may spend on pairs: what sizes the merge's read buffers.
    budget: u64,
    dir: PathBuf,
    spill: Option<Spill>,
    /// Every pair pushed, kept or not.
    count: u64,
    /// Whether the buffer is sorted (it is after [`Passing::finish`]).
    sorted: bool,
    /// The first failure to spill.
    error: Option<io::Error>,
}

/// The runs written so far, in one file.
struct Spill {
    file: File,
    /// Each run's pairs, as a range of pair numbers in the file.
    runs: Vec<Range<u64>>,
    /// Pairs in the file.
    end: u64,
}

impl Passing {
    /// Keeps pairs in memory within `budget` bytes, spilling the rest to a file in `dir`.
    pub fn new(budget: u64, dir: &Path) -> Passing {
        let cap = (budget / BYTES_PER_CAPPED_PAIR).max(LEAST_CAP as u64);
        Passing {
            buffer: Vec::new(),
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
            budget,
            dir: dir.to_owned(),
            spill: None,
            count: 0,
            sorted: true,
            error: None,
        }
    }

    /// Pairs found (pushed), spilled or not.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Pairs written to disk.
    pub fn spilled(&self) -> u64 {
        self.spill.as_ref().map_or(0, |s| s.end)
    }

    /// The first failure to spill, as a refusal: the pairs found, how many the rank keeps in
    /// memory, and why the rest could not go to disk.
    pub fn error(&self) -> Option<String> {
        let e = self.error.as_ref()?;
        Some(format!(
            "not enough memory: {} pairs within the bound found, more than the {} this \
             rank keeps in memory within its limit, and spilling them to {} failed: {e}; a \
             directory with room for them (TMPDIR, at {} bytes a pair), a tighter bound, or \
             fewer sequences per run",
            mem::thousands(self.count),
            mem::thousands(self.cap as u64),
            self.dir.display(),
            PAIR_BYTES,
        ))
    }

    pub fn push(&mut self, pair: Pair) {
        self.count += 1;
        if self.error.is_some() {
            return;
        }
        if self.buffer.len() == self.cap {
            if let Err(e) = self.spill_run() {
                self.error = Some(e);
                self.buffer = Vec::new();
                return;
            }
        }
        if self.buffer.len() == self.buffer.capacity() {
            let more = self
                .buffer
                .len()
                .max(1024)
                .min(self.cap - self.buffer.len());
            self.buffer.reserve_exact(more);
        }
        self.buffer.push(pair);
        self.sorted = false;
    }

    /// Pushes every pair of `pairs`.
    pub fn extend(&mut self, pairs: impl IntoIterator<Item = Pair>) {
        for pair in pairs {
            self.push(pair);
        }
    }

    /// Sorts the buffer and appends it to the file as one run.
    fn spill_run(&mut self) -> io::Result<()> {
        self.buffer.sort_unstable();
        let spill = match &mut self.spill {
            Some(spill) => spill,
            None => self.spill.insert(Spill {
                file: tempfile::tempfile_in(&self.dir)?,
                runs: Vec::new(),
                end: 0,
            }),
        };
        let start = spill.end;
        let mut bytes = Vec::with_capacity(MOST_READ);
        let mut at = start;
        for chunk in self.buffer.chunks(MOST_READ / PAIR_BYTES) {
            bytes.clear();
            chunk
                .iter()
                .flatten()
                .for_each(|v| bytes.extend(v.to_le_bytes()));
            spill.file.write_all_at(&bytes, at * PAIR_BYTES as u64)?;
            at += chunk.len() as u64;
        }
        spill.end = at;
        spill.runs.push(start..at);
        self.buffer.clear();
        Ok(())
    }

    /// Once every pair is in: the buffer sorted and, where the runs are too many to merge
    /// within the budget at once, the first ones merged into longer runs.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(e) = &self.error {
            return Err(io::Error::new(e.kind(), e.to_string()));
        }
        self.buffer.sort_unstable();
        self.sorted = true;
        let fan_in = self.fan_in();
        while let Some(spill) = self.spill.as_mut().filter(|s| s.runs.len() > fan_in) {
            let first: Vec<Range<u64>> = spill.runs.drain(..fan_in).collect();
            let start = spill.end;
            let mut writer = RunWriter::new(&spill.file, start);
            merge(
                &spill.file,
                &first,
                &[],
                read_size(self.budget, fan_in),
                |p| writer.push(p),
            )?;
            spill.end = writer.finish()?;
            spill.runs.push(start..spill.end);
        }
        Ok(())
    }

    /// Runs a merge reads at once within the budget (at least two).
    fn fan_in(&self) -> usize {
        let per_run = 2 * LEAST_READ as u64;
        ((self.budget / 2 / per_run) as usize).max(2)
    }

    /// Calls `each` with every pair, in query then target order (after [`Passing::finish`]).
    pub fn for_each_sorted(&self, mut each: impl FnMut(Pair) -> io::Result<()>) -> io::Result<()> {
        debug_assert!(self.sorted, "finish() sorts the buffer");
        match &self.spill {
            None => self.buffer.iter().try_for_each(|&p| each(p)),
            Some(spill) => {
                let read = read_size(self.budget, spill.runs.len() + 1);
                merge(&spill.file, &spill.runs, &self.buffer, read, each)
            }
        }
    }

    /// Calls `each` with every pair in pieces of at most `piece` pairs, in no particular
    /// order: the runs on disk, then the buffer (for sending them on).
    pub fn for_each_piece(
        &self,
        piece: usize,
        mut each: impl FnMut(&[Pair]) -> io::Result<()>,
    ) -> io::Result<()> {
        if let Some(spill) = &self.spill {
            // The live runs only: a merge pass leaves the runs it merged behind it in the file.
            let mut pairs = Vec::new();
            for run in &spill.runs {
                let mut at = run.start;
                while at < run.end {
                    let len = (run.end - at).min(piece as u64);
                    read_pairs(&spill.file, at..at + len, &mut pairs)?;
                    each(&pairs)?;
                    at += len;
                }
            }
        }
        self.buffer.chunks(piece).try_for_each(each)
    }
}

/// Bytes each of `runs` runs reads at a time within `budget`.
fn read_size(budget: u64, runs: usize) -> usize {
    let share = (budget / 2 / runs.max(1) as u64) as usize;
    (share.clamp(LEAST_READ, MOST_READ) / PAIR_BYTES) * PAIR_BYTES
}

/// Reads the pairs numbered `range` of `file` into `out`.
fn read_pairs(file: &File, range: Range<u64>, out: &mut Vec<Pair>) -> io::Result<()> {
    let mut bytes = vec![0u8; (range.end - range.start) as usize * PAIR_BYTES];
    file.read_exact_at(&mut bytes, range.start * PAIR_BYTES as u64)?;
    out.clear();
    out.extend(bytes.chunks_exact(PAIR_BYTES).map(|c| {
        std::array::from_fn(|k| {
            u32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
        })
    }));
    Ok(())
}

/// One run being read: the pairs of its next stretch, and what is left of it on disk.
struct Reader {
    pairs: Vec<Pair>,
    at: usize,
    rest: Range<u64>,
}

impl Reader {
    fn head(&self) -> Option<Pair> {
        self.pairs.get(self.at).copied()
    }

    /// Moves past the head, reading the next stretch where this one is done.
    fn advance(&mut self, file: &File, stretch: u64) -> io::Result<()> {
        self.at += 1;
        if self.at == self.pairs.len() && !self.rest.is_empty() {
            let end = (self.rest.start + stretch).min(self.rest.end);
            read_pairs(file, self.rest.start..end, &mut self.pairs)?;
            self.rest.start = end;
            self.at = 0;
        }
        Ok(())
    }
}

/// Merges the sorted `runs` of `file` and the sorted `memory` into one order, each run read
/// `read` bytes at a time, calling `each` with every pair.
fn merge(
    file: &File,
    runs: &[Range<u64>],
    memory: &[Pair],
    read: usize,
    mut each: impl FnMut(Pair) -> io::Result<()>,
) -> io::Result<()> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let stretch = (read / PAIR_BYTES).max(1) as u64;
    let mut readers = Vec::with_capacity(runs.len());
    for run in runs {
        let end = (run.start + stretch).min(run.end);
        let mut pairs = Vec::new();
        read_pairs(file, run.start..end, &mut pairs)?;
        readers.push(Reader {
            pairs,
            at: 0,
            rest: end..run.end,
        });
    }
    // The heap holds each run's head and its reader; the pairs in memory are one more run.
    let mut heap: BinaryHeap<Reverse<(Pair, usize)>> = readers
        .iter()
        .enumerate()
        .filter_map(|(r, reader)| Some(Reverse((reader.head()?, r))))
        .collect();
    let mut memory = memory.iter().copied().peekable();
    loop {
        let from_disk = heap.peek().map(|Reverse((p, _))| *p);
        match (from_disk, memory.peek().copied()) {
            (Some(d), Some(m)) if m < d => {
                each(m)?;
                memory.next();
            }
            (Some(d), _) => {
                let Reverse((_, r)) = heap.pop().expect("a head was seen");
                each(d)?;
                readers[r].advance(file, stretch)?;
                if let Some(next) = readers[r].head() {
                    heap.push(Reverse((next, r)));
                }
            }
            (None, Some(m)) => {
                each(m)?;
                memory.next();
            }
            (None, None) => return Ok(()),
        }
    }
}

/// Appends pairs to a file from pair number `at`, a stretch at a time.
struct RunWriter<'a> {
    file: &'a File,
    at: u64,
    bytes: Vec<u8>,
}

impl<'a> RunWriter<'a> {
    fn new(file: &'a File, at: u64) -> RunWriter<'a> {
        RunWriter {
            file,
            at,
            bytes: Vec::with_capacity(MOST_READ),
        }
    }

    fn push(&mut self, pair: Pair) -> io::Result<()> {
        pair.iter().for_each(|v| self.bytes.extend(v.to_le_bytes()));
        if self.bytes.len() + PAIR_BYTES > MOST_READ {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file
            .write_all_at(&self.bytes, self.at * PAIR_BYTES as u64)?;
        self.at += (self.bytes.len() / PAIR_BYTES) as u64;
        self.bytes.clear();
        Ok(())
    }

    /// Writes what is left; the pair number after the run.
    fn finish(mut self) -> io::Result<u64> {
        self.flush()?;
        Ok(self.at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lcs_core::random::Random;

    fn pairs(count: usize, seed: u64) -> Vec<Pair> {
        let mut rng = Random::new(seed);
        // Distinct (query, target): a pair is found once.
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        while out.len() < count {
            let (a, b) = (rng.below(3000) as u32, rng.below(3000) as u32);
            if seen.insert((a, b)) {
                out.push([a, b, rng.below(9) as u32]);
            }
        }
        out
    }

    fn sorted_of(passing: &Passing) -> Vec<Pair> {
        let mut got = Vec::new();
        passing
            .for_each_sorted(|p| {
                got.push(p);
                Ok(())
            })
            .unwrap();
        got
    }

    /// In memory, spilled in a few runs, or in so many that they are merged in passes: the
    /// same pairs in the same order, and every pair sent on once.
    #[test]
    fn pairs_come_back_sorted_whether_kept_or_spilled() {
        let dir = tempfile::tempdir().unwrap();
        let all = pairs(300_000, 3);
        let mut want = all.clone();
        want.sort_unstable();
        // Budgets: all in memory; a few runs of the least cap; runs beyond a merge's fan-in.
        for (budget, spilled) in [(1 << 30, false), (1, true), (LEAST_READ as u64 * 8, true)] {
            let mut passing = Passing::new(budget, dir.path());
            passing.extend(all.iter().copied());
            assert_eq!(passing.count(), all.len() as u64);
            assert_eq!(passing.spilled() > 0, spilled, "budget {budget}");
            passing.finish().unwrap();
            if budget == LEAST_READ as u64 * 8 {
                assert!(passing.spill.as_ref().unwrap().runs.len() <= passing.fan_in());
            }
            assert_eq!(sorted_of(&passing), want, "budget {budget}");
            let mut sent = Vec::new();
            passing
                .for_each_piece(1000, |piece| {
                    assert!(!piece.is_empty() && piece.len() <= 1000);
                    sent.extend_from_slice(piece);
                    Ok(())
                })
                .unwrap();
            sent.sort_unstable();
            assert_eq!(sent, want, "budget {budget}");
        }
    }

    /// A directory that cannot hold the spill: the pairs are still counted, and the refusal
    /// says how many were found, what they take and why the disk could not have them.
    #[test]
    fn a_spill_that_fails_is_kept_and_told() {
        let mut passing = Passing::new(1, Path::new("/nonexistent/spill"));
        passing.extend(pairs(LEAST_CAP + 10, 4));
        assert_eq!(passing.count(), LEAST_CAP as u64 + 10);
        let text = passing.error().expect("the spill failed");
        assert!(
            text.starts_with(
                "not enough memory: 65,546 pairs within the bound found, more than the 65,536"
            ),
            "{text}"
        );
        assert!(
            text.contains("spilling them to /nonexistent/spill failed"),
            "{text}"
        );
        assert!(passing.finish().is_err());
    }
}
