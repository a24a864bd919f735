//! What a run reports: message and byte counts by kind, per rank and per rank pair, phase
//! times, memory, and the LCS itself.
//!
//! One `#[derive(Serialize)]` struct, [`Report`], feeds the JSON file and the human summary, so
//! the two never disagree. Message kinds:
//! - `boundary`: fill-phase values, one message per boundary cell (4 bytes each);
//! - `traceback`: one message per hop of the walk (16 bytes of coordinates plus the
//!   subsequence found so far);
//! - `control`: the LCS delivered to rank 0 and the end-of-walk notices.
//!
//! The input broadcast and the final gathering of these statistics are MPI collectives whose
//! internal messages depend on the MPI library; they are not counted.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::error::Error;
use crate::trace::{Event, Phase};

/// A kind of message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Boundary,
    Traceback,
    Control,
}

/// Counts per message kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PerKind {
    pub boundary: u64,
    pub traceback: u64,
    pub control: u64,
}

impl PerKind {
    fn slot(&mut self, kind: Kind) -> &mut u64 {
        match kind {
            Kind::Boundary => &mut self.boundary,
            Kind::Traceback => &mut self.traceback,
            Kind::Control => &mut self.control,
        }
    }

    pub fn total(&self) -> u64 {
        self.boundary + self.traceback + self.control
    }

    fn add(&mut self, other: &PerKind) {
        self.boundary += other.boundary;
        self.traceback += other.traceback;
        self.control += other.control;
    }
}

/// One rank's traffic, counted as it happens (and, when tracing, recorded message by message).
#[derive(Debug, Clone, Default)]
pub struct Traffic {
    pub rank: usize,
    pub sent: PerKind,
    pub sent_bytes: PerKind,
    pub received: PerKind,
    pub received_bytes: PerKind,
    /// Boundary messages this rank sent to each rank.
    pub boundary_to: Vec<u64>,
    /// Every message this rank sent, when a trace was asked for.
    pub events: Option<Vec<Event>>,
}

impl Traffic {
    pub fn new(rank: usize, ranks: usize, tracing: bool) -> Traffic {
        Traffic {
            rank,
            boundary_to: vec![0; ranks],
            events: tracing.then(Vec::new),
            ..Traffic::default()
        }
    }

    /// Counts a message sent to `to`; `cell` is the cell it concerns (the boundary cell, or the
    /// next cell of the walk).
    pub fn sent(&mut self, kind: Kind, to: usize, bytes: usize, cell: Option<(usize, usize)>) {
        *self.sent.slot(kind) += 1;
        *self.sent_bytes.slot(kind) += bytes as u64;
        if kind == Kind::Boundary {
            self.boundary_to[to] += 1;
        }
        if let Some(events) = &mut self.events {
            events.push(Event {
                phase: match kind {
                    Kind::Boundary => Phase::Fill,
                    Kind::Traceback => Phase::Traceback,
                    Kind::Control => Phase::Control,
                },
                diagonal: cell.map(|(i, j)| (i + j) as u64),
                from: self.rank,
                to,
                cell: cell.map(|(i, j)| (i as u64, j as u64)),
                bytes: bytes as u64,
            });
        }
    }

    pub fn received(&mut self, kind: Kind, bytes: usize) {
        *self.received.slot(kind) += 1;
        *self.received_bytes.slot(kind) += bytes as u64;
    }
}

/// Seconds one rank spent in the fill, split by what it was doing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct FillTimes {
    pub compute: f64,
    pub wait_receive: f64,
    pub send: f64,
}

/// One rank's line in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankReport {
    pub rank: usize,
    pub cells: u64,
    pub sent: PerKind,
    pub received: PerKind,
    pub sent_bytes: PerKind,
    pub received_bytes: PerKind,
    pub seconds_fill: f64,
    pub fill_breakdown: FillTimes,
    pub seconds_traceback: f64,
    /// Moves of the walk from this rank's cells onto another rank's.
    pub traceback_hops: u64,
    pub peak_rss_bytes: u64,
    pub store_bytes_estimate: u64,
    /// Boundary messages sent to each rank: this rank's row of the report's `pairs`.
    #[serde(skip)]
    pub boundary_to: Vec<u64>,
}

/// Wall-clock seconds: `total` on rank 0 from the start of `solve` (input, allocation, fill,
/// traceback) until it holds the LCS, without the launcher's start-up or the reporting after;
/// `fill` and `traceback` are the slowest rank's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Seconds {
    pub total: f64,
    pub fill: f64,
    pub traceback: f64,
}

/// Predicted counts, from the schedule alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PredictedCounts {
    pub boundary: u64,
}

/// The full report of a `solve` run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    #[serde(flatten)]
    pub run: Provenance,
    pub input: String,
    pub rows: usize,
    pub cols: usize,
    pub swapped: bool,
    pub ranks: usize,
    pub store: String,
    pub lcs_length: usize,
    #[serde(flatten)]
    pub lcs: LcsText,
    pub messages: PerKind,
    pub bytes: PerKind,
    pub predicted: PredictedCounts,
    pub traceback_hops: u64,
    /// `pairs[from][to]`: boundary messages sent by rank `from` to rank `to`.
    pub pairs: Vec<Vec<u64>>,
    pub per_rank: Vec<RankReport>,
    pub seconds: Seconds,
}

/// When, with what, and on what a run happened: enough to tell rows of an experiment apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Provenance {
    /// UTC start time, ISO 8601.
    pub timestamp: String,
    pub version: String,
    /// The git commit of the build, as `MPI_LCS_COMMIT` names it (scripts/experiment sets
    /// it), else `unknown`.
    pub commit: String,
    /// Cores on rank 0's host.
    pub cores: usize,
    /// Ranks sharing rank 0's host.
    pub ranks_on_host: usize,
    /// More ranks than cores on rank 0's host: timings then measure the protocol, not speed.
    pub oversubscribed: bool,
}

impl Provenance {
    /// Provenance for a run starting now with `ranks_on_host` ranks on this host.
    pub fn now(ranks_on_host: usize) -> Provenance {
        let cores = host_cores();
        Provenance {
            timestamp: utc_timestamp(std::time::SystemTime::now()),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            commit: std::env::var("MPI_LCS_COMMIT").unwrap_or_else(|_| "unknown".to_owned()),
            cores,
            ranks_on_host,
            oversubscribed: ranks_on_host > cores,
        }
    }
}

/// CPUs online on this host. Not `available_parallelism`, which counts only the CPUs this
/// process may run on: mpirun pins each rank to one core, so every rank would report one.
pub fn host_cores() -> usize {
    std::fs::read_to_string("/sys/devices/system/cpu/online")
        .ok()
        .and_then(|text| count_cpu_list(text.trim()))
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Counts a kernel CPU list such as `0-3,6,8-9`.
fn count_cpu_list(list: &str) -> Option<usize> {
    list.split(',').try_fold(0, |sum, part| {
        let n = match part.split_once('-') {
            Some((a, b)) => b.parse::<usize>().ok()? + 1 - a.parse::<usize>().ok()?,
            None => {
                part.parse::<usize>().ok()?;
                1
            }
        };
        Some(sum + n)
    })
}

/// `2026-11-25T22:41:30Z` for a system time (days-to-civil conversion of the Unix epoch).
pub fn utc_timestamp(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Shift the epoch to 0000-03-01 so leap days fall at the end of each 400-year era.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The LCS as JSON carries it: a string when its bytes are UTF-8, else hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum LcsText {
    #[serde(rename = "lcs")]
    Utf8(String),
    #[serde(rename = "lcs_hex")]
    Hex(String),
}

impl LcsText {
    pub fn new(bytes: &[u8]) -> LcsText {
        match std::str::from_utf8(bytes) {
            Ok(s) => LcsText::Utf8(s.to_owned()),
            Err(_) => LcsText::Hex(bytes.iter().fold(String::new(), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            })),
        }
    }

    /// For a terminal: the string itself, or `hex:` and its hex digits.
    pub fn display(&self) -> String {
        match self {
            LcsText::Utf8(s) => s.clone(),
            LcsText::Hex(h) => format!("hex:{h}"),
        }
    }
}

impl Report {
    /// Sums the per-rank sent counts into the report's totals.
    pub fn totals(per_rank: &[RankReport]) -> (PerKind, PerKind) {
        let mut messages = PerKind::default();
        let mut bytes = PerKind::default();
        for r in per_rank {
            messages.add(&r.sent);
            bytes.add(&r.sent_bytes);
        }
        (messages, bytes)
    }

    /// The report of a sequential reference run, so that it can stand as a row beside MPI
    /// runs: store `reference`, one rank, no messages.
    pub fn sequential(
        run: Provenance,
        input: String,
        (rows, cols, swapped): (usize, usize, bool),
        lcs: &[u8],
        seconds: f64,
    ) -> Report {
        let peak = crate::mem::peak_rss_bytes();
        Report {
            run,
            input,
            rows,
            cols,
            swapped,
            ranks: 1,
            store: "reference".to_owned(),
            lcs_length: lcs.len(),
            lcs: LcsText::new(lcs),
            messages: PerKind::default(),
            bytes: PerKind::default(),
            predicted: PredictedCounts { boundary: 0 },
            traceback_hops: 0,
            pairs: vec![vec![0]],
            per_rank: vec![RankReport {
                rank: 0,
                cells: rows as u64 * cols as u64,
                sent: PerKind::default(),
                received: PerKind::default(),
                sent_bytes: PerKind::default(),
                received_bytes: PerKind::default(),
                seconds_fill: seconds,
                fill_breakdown: FillTimes::default(),
                seconds_traceback: 0.0,
                traceback_hops: 0,
                peak_rss_bytes: peak,
                store_bytes_estimate: crate::reference::traceback_bytes(rows, cols),
                boundary_to: vec![0],
            }],
            seconds: Seconds {
                total: seconds,
                fill: seconds,
                traceback: 0.0,
            },
        }
    }

    /// The report as one CSV row: `(column, value)` pairs, the order of the file's columns.
    pub fn csv_columns(&self) -> Vec<(&'static str, String)> {
        let max_rss = self.per_rank.iter().map(|r| r.peak_rss_bytes).max();
        vec![
            ("timestamp", self.run.timestamp.clone()),
            ("input", self.input.clone()),
            ("rows", self.rows.to_string()),
            ("cols", self.cols.to_string()),
            ("ranks", self.ranks.to_string()),
            ("store", self.store.clone()),
            ("lcs_length", self.lcs_length.to_string()),
            ("messages_boundary", self.messages.boundary.to_string()),
            ("messages_traceback", self.messages.traceback.to_string()),
            ("messages_control", self.messages.control.to_string()),
            ("bytes_boundary", self.bytes.boundary.to_string()),
            ("bytes_traceback", self.bytes.traceback.to_string()),
            ("bytes_control", self.bytes.control.to_string()),
            ("predicted_boundary", self.predicted.boundary.to_string()),
            ("traceback_hops", self.traceback_hops.to_string()),
            ("seconds_total", format!("{:.6}", self.seconds.total)),
            ("seconds_fill", format!("{:.6}", self.seconds.fill)),
            (
                "seconds_traceback",
                format!("{:.6}", self.seconds.traceback),
            ),
            ("max_peak_rss_bytes", max_rss.unwrap_or(0).to_string()),
            ("cores", self.run.cores.to_string()),
            ("oversubscribed", self.run.oversubscribed.to_string()),
            ("commit", self.run.commit.clone()),
        ]
    }

    /// The human summary rank 0 prints.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let lcs = self.lcs.display();
        let _ = writeln!(s, "LCS length: {}", self.lcs_length);
        let _ = writeln!(s, "LCS: {lcs}");
        let _ = writeln!(
            s,
            "matrix: {} rows x {} cols{}, {} ranks, store {}",
            self.rows,
            self.cols,
            if self.swapped {
                " (sequences swapped)"
            } else {
                ""
            },
            self.ranks,
            self.store
        );
        let _ = writeln!(
            s,
            "messages: boundary {} (predicted {}), traceback {}, control {}",
            self.messages.boundary,
            self.predicted.boundary,
            self.messages.traceback,
            self.messages.control
        );
        let _ = writeln!(
            s,
            "bytes:    boundary {}, traceback {}, control {}",
            self.bytes.boundary, self.bytes.traceback, self.bytes.control
        );
        let _ = writeln!(s, "traceback hops: {}", self.traceback_hops);
        let peak = self.per_rank.iter().map(|r| r.peak_rss_bytes).max();
        let _ = writeln!(
            s,
            "seconds: total {:.6}, fill {:.6}, traceback {:.6}; peak RSS per rank up to {:.1} MB",
            self.seconds.total,
            self.seconds.fill,
            self.seconds.traceback,
            peak.unwrap_or(0) as f64 / 1e6
        );
        s
    }
}

/// Quotes a CSV field when it holds a comma, a quote or a line break (RFC 4180).
fn csv_field(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_owned()
    }
}

/// Appends `columns` as one row to the CSV file at `path`, writing the header first when the
/// file is new or empty. The file is locked for the append and the row goes out in a single
/// write, so concurrent runs appending to one file never interleave or lose rows.
pub fn append_csv(path: &Path, columns: &[(&'static str, String)]) -> Result<(), Error> {
    let fail = |source| Error::Output {
        path: path.to_owned(),
        source,
    };
    let line = |cells: Vec<String>| cells.join(",") + "\n";
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(fail)?;
    file.lock().map_err(fail)?;
    let mut text = String::new();
    if file.metadata().map_err(fail)?.len() == 0 {
        text += &line(columns.iter().map(|(k, _)| k.to_string()).collect());
    }
    text += &line(columns.iter().map(|(_, v)| csv_field(v)).collect());
    file.write_all(text.as_bytes()).map_err(fail)?;
    file.sync_data().map_err(fail)
}

/// Checks early that `path` can be written, so a bad path fails before the work starts: its
/// directory must exist and accept a new file.
pub fn check_writable(path: &Path) -> Result<(), Error> {
    let probe = temp_path(path);
    std::fs::File::create(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|source| Error::Output {
            path: path.to_owned(),
            source,
        })
}

fn temp_path(path: &Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes `value` as pretty JSON to `path` atomically: a temporary file in the same directory,
/// flushed and renamed over `path`, so readers never see half a report.
pub fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<(), Error> {
    let mut text = serde_json::to_vec_pretty(value).map_err(anyhow::Error::from)?;
    text.push(b'\n');
    write_atomic(path, &text)
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let tmp = temp_path(path);
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        })
        .and_then(|_| std::fs::rename(&tmp, path));
    result.map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        Error::Output {
            path: path.to_owned(),
            source,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lcs_text_is_string_or_hex() {
        assert_eq!(LcsText::new(b"acgt"), LcsText::Utf8("acgt".into()));
        assert_eq!(LcsText::new(&[0xff, 0x00]), LcsText::Hex("ff00".into()));
        let json = serde_json::to_value(LcsText::new(&[0xff])).unwrap();
        assert_eq!(json, serde_json::json!({"lcs_hex": "ff"}));
    }

    #[test]
    fn cpu_lists_count() {
        assert_eq!(count_cpu_list("0-1"), Some(2));
        assert_eq!(count_cpu_list("0-3,6,8-9"), Some(7));
        assert_eq!(count_cpu_list("0"), Some(1));
        assert_eq!(count_cpu_list("x"), None);
        assert!(host_cores() >= 1);
    }

    #[test]
    fn timestamps_are_utc_iso8601() {
        let at = |s| std::time::UNIX_EPOCH + std::time::Duration::from_secs(s);
        assert_eq!(utc_timestamp(at(0)), "1970-01-01T00:00:00Z");
        assert_eq!(utc_timestamp(at(951_782_400)), "2000-02-29T00:00:00Z");
        assert_eq!(utc_timestamp(at(1_795_646_490)), "2026-11-25T22:41:30Z");
    }

    #[test]
    fn csv_rows_are_quoted_and_headed_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        let cols = vec![("input", "a,b.txt".to_owned()), ("n", "1".to_owned())];
        append_csv(&path, &cols).unwrap();
        append_csv(&path, &cols).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "input,n\n\"a,b.txt\",1\n\"a,b.txt\",1\n");
    }

    #[test]
    fn atomic_write_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        write_json_atomic(&path, &serde_json::json!({"a": 1})).unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.json")]);
        let missing = dir.path().join("no/such/dir/out.json");
        assert!(check_writable(&missing).is_err());
        assert!(write_json_atomic(&missing, &1).is_err());
    }
}
