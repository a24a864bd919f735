//! One rank's share of a search on its device: the same range, warm-up and matches as
//! [`super::scan::search_range`], the scan on the device. A record's runs gather into windows
//! of up to [`GPU_WINDOW`] bytes, each sent with the history before it: the device's chunks
//! start from fresh columns, so no state crosses from window to window, and the warm-up before
//! the range is only history. The device scans in a thread of its own, a window behind the
//! reading: while it scans one window, this thread locates the matches of the one before and
//! reads the next.

use std::io;
use std::ops::Range;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::time::Instant;

use lcs_core::search::lanes::Hit;
use lcs_gpu::search::Searcher;
use lcs_gpu::{Gpu, GpuError};

use super::scan::{begin, locate, Found, History, Task, GPU_WINDOW};
use crate::input::text::{self, Run, Source, Start, TextFile};

/// A window for the device: the record's history and new bytes together, the record offset
/// of its first byte, and where its new bytes begin.
struct Window {
    record: u64,
    joined: Vec<u8>,
    offset: u64,
    from: usize,
}

/// A window scanned, with its ends.
type Scanned = Result<(Window, Vec<Hit>), GpuError>;

/// [`super::scan::search_range`] on `gpu`.
pub fn search_range(
    file: &Source,
    text: &TextFile,
    range: Range<u64>,
    start: &Start,
    task: &Task<'_>,
    gpu: &mut Gpu,
) -> io::Result<Found> {
    in_windows(file, text, (range, start), task, gpu, GPU_WINDOW)
}

/// [`search_range`] in windows of `most` new bytes (the tests make them small).
fn in_windows(
    file: &Source,
    text: &TextFile,
    (range, start): (Range<u64>, &Start),
    task: &Task<'_>,
    gpu: &mut Gpu,
    most: usize,
) -> io::Result<Found> {
    let mine: Vec<(usize, &[u8])> = task
        .units
        .iter()
        .flat_map(|u| u.patterns.iter().map(|&p| (p, &task.patterns[p][..])))
        .collect();
    let (mut found, history, _) = begin(file, text, (range.clone(), start), task)?;
    let mut searcher = match Searcher::new(gpu, &mine, task.k) {
        Ok(searcher) => searcher,
        Err(e) => {
            found.device_error = Some(e);
            return Ok(found);
        }
    };
    // The record the range starts in (the first run of another says so).
    let record = match text.format {
        crate::input::Format::Plain => 0,
        crate::input::Format::Fasta => start.record.unwrap_or(0),
    };
    let names = std::thread::scope(|scope| {
        let (to_device, windows) = sync_channel::<Window>(1);
        let (back, scanned) = sync_channel::<Scanned>(1);
        let (searcher, device) = (&mut searcher, &mut *gpu);
        scope.spawn(move || {
            for window in windows {
                let mut hits = Vec::new();
                let (joined, offset, from) = (&window.joined, window.offset, window.from);
                let done = searcher.scan(device, joined, offset, from, &mut hits);
                let failed = done.is_err();
                if back.send(done.map(|()| (window, hits))).is_err() || failed {
                    break;
                }
            }
        });
        let mut gather = Gathering {
            record,
            bytes: Vec::new(),
            history,
            to_device: Some(to_device),
            scanned,
            in_flight: 0,
            found: &mut found,
            task,
            most,
        };
        let mut each = |run: Run<'_>| gather.take(run);
        let names = text::stream(file, text, range, start, &mut each);
        gather.finish();
        names
    })?;
    searcher.release(gpu);
    found.names.extend(names);
    Ok(found)
}

/// A rank's text on its way to the device, window by window, and the windows' matches on
/// their way back.
struct Gathering<'a, 't> {
    record: u64,
    /// The window's new bytes, and the record's bytes before them.
    bytes: Vec<u8>,
    history: History,
    to_device: Option<SyncSender<Window>>,
    scanned: Receiver<Scanned>,
    in_flight: usize,
    found: &'a mut Found,
    task: &'a Task<'t>,
    /// New bytes in a window.
    most: usize,
}

impl Gathering<'_, '_> {
    fn stopped(&self) -> bool {
        self.found.too_many || self.found.device_error.is_some()
    }

    /// Takes one run of the text: a record's first run sends the last record's bytes first.
    fn take(&mut self, run: Run<'_>) {
        if self.stopped() {
            return;
        }
        if run.first || run.record != self.record {
            self.send();
            self.record = run.record;
            self.history.reset(0);
        }
        self.found.scanned += run.bytes.len() as u64;
        self.bytes.extend_from_slice(run.bytes);
        if self.bytes.len() >= self.most {
            self.send();
        }
    }

    /// Sends the gathered bytes with their history to the device, and locates the matches of
    /// the window before, which the device has scanned meanwhile.
    fn send(&mut self) {
        if self.bytes.is_empty() || self.stopped() {
            self.bytes.clear();
            return;
        }
        let mut joined = Vec::with_capacity(self.history.bytes.len() + self.bytes.len());
        joined.extend_from_slice(&self.history.bytes);
        joined.extend_from_slice(&self.bytes);
        let window = Window {
            record: self.record,
            from: self.history.bytes.len(),
            offset: self.history.offset,
            joined,
        };
        self.history.push(&self.bytes);
        self.bytes.clear();
        let sent = self
            .to_device
            .as_ref()
            .is_some_and(|d| d.send(window).is_ok());
        if sent {
            self.in_flight += 1;
        }
        while self.in_flight > 1 || (!sent && self.in_flight > 0) {
            self.receive();
        }
    }

    /// Locates one scanned window's matches.
    fn receive(&mut self) {
        self.in_flight -= 1;
        match self.scanned.recv() {
            Ok(Ok((window, mut hits))) if !hits.is_empty() && !self.stopped() => {
                let started = Instant::now();
                let (joined, offset) = (&window.joined, window.offset);
                let matches = &mut self.found.matches;
                locate(self.task, &mut hits, window.record, joined, offset, matches);
                self.found.seconds_starts += started.elapsed().as_secs_f64();
                self.found.too_many = self.found.matches.len() > self.task.most_matches;
            }
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                self.found.device_error.get_or_insert(e);
            }
            Err(_) => {
                self.found.device_error.get_or_insert(GpuError::Device(
                    "the device's thread ended before its window".into(),
                ));
            }
        }
    }

    /// Sends what is gathered, ends the device's thread, and locates every window's matches.
    fn finish(&mut self) {
        self.send();
        self.to_device = None;
        while self.in_flight > 0 {
            self.receive();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::search::scan::{self, Match, Packed};
    use crate::generate::Random;
    use lcs_core::search::alphabet::Alphabet;
    use lcs_core::search::chunks::{text_range, units};
    use lcs_core::search::lanes::Simd;

    /// A FASTA text cut in parts, scanned on the device (whatever OpenCL device the machine
    /// has: PoCL where there is no GPU) in windows of a few KiB, so that records span many
    /// windows and windows end in every place: every part's matches are the CPU's, in order.
    #[test]
    fn small_windows_find_what_the_cpu_finds() {
        let mut gpu = match lcs_gpu::open(lcs_gpu::Want::Gpu, lcs_gpu::Prefer::OpenCl, 0) {
            Ok(found) => found.gpu,
            Err(e) => panic!("the GPU tests need an OpenCL device (scripts/setup.sh): {e}"),
        };
        let mut rng = Random::new(40);
        let patterns: Vec<Vec<u8>> = [3, 20, 64, 70, 200, 1100]
            .iter()
            .map(|&m| rng.bytes(m, b"ACGT"))
            .collect();
        let mut file = Vec::new();
        for r in 0..4 {
            let len = 5000 + rng.below(20_000);
            let mut record = rng.bytes(len, b"ACGT");
            for p in &patterns {
                let at = rng.below(record.len());
                record.splice(at..at, p.iter().copied());
            }
            file.extend(format!(">r{r}\n").bytes());
            for line in record.chunks(67) {
                file.extend_from_slice(line);
                file.push(b'\n');
            }
        }
        let mut named = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut named, &file).unwrap();
        let (text, source) = text::open_text(named.path(), u64::MAX).unwrap();
        let lengths: Vec<usize> = patterns.iter().map(Vec::len).collect();
        let k = 3;
        let all = units(&lengths, k);
        let parts = 3;
        let ranges: Vec<Range<u64>> = (0..parts)
            .map(|t| text_range(text.area.clone(), parts, t))
            .collect();
        let summaries: Vec<text::Summary> = ranges
            .iter()
            .map(|r| text::summarize(&source, &text, r.clone()).unwrap())
            .collect();
        let begins = text::starts(&summaries);
        let task = Task {
            patterns: &patterns,
            units: &all,
            k,
            alphabet: Alphabet::Exact,
            simd: Simd::detect(),
            most_matches: usize::MAX,
        };
        for (range, start) in ranges.iter().zip(&begins) {
            let cpu = scan::search_range(&source, &text, range.clone(), start, &task).unwrap();
            for most in [1000, 4096] {
                let gpu = in_windows(
                    &source,
                    &text,
                    (range.clone(), start),
                    &task,
                    &mut gpu,
                    most,
                )
                .unwrap();
                assert!(gpu.device_error.is_none());
                let sorted = |f: &Found| {
                    let mut m: Vec<Match> = f.matches.iter().map(Packed::unpack).collect();
                    m.sort();
                    m
                };
                assert_eq!(sorted(&gpu), sorted(&cpu), "{range:?} in windows of {most}");
                assert!(
                    cpu.matches.len() > 100,
                    "the 3-byte pattern matches everywhere"
                );
                assert_eq!((gpu.scanned, gpu.warm_up), (cpu.scanned, cpu.warm_up));
                assert_eq!(gpu.names, cpu.names);
            }
        }
    }
}
