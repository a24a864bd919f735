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

/// One rank's traffic, counted as it happens.
#[derive(Debug, Clone, Default)]
pub struct Traffic {
    pub sent: PerKind,
    pub sent_bytes: PerKind,
    pub received: PerKind,
    pub received_bytes: PerKind,
    /// Boundary messages this rank sent to each rank.
    pub boundary_to: Vec<u64>,
}

impl Traffic {
    pub fn new(ranks: usize) -> Traffic {
        Traffic {
            boundary_to: vec![0; ranks],
            ..Traffic::default()
        }
    }

    pub fn sent(&mut self, kind: Kind, to: usize, bytes: usize) {
        *self.sent.slot(kind) += 1;
        *self.sent_bytes.slot(kind) += bytes as u64;
        if kind == Kind::Boundary {
            self.boundary_to[to] += 1;
        }
    }

    pub fn received(&mut self, kind: Kind, _from: usize, bytes: usize) {
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

/// Wall-clock seconds per phase, as seen by rank 0 (the slowest rank bounds each phase).
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
