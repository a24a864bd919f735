//! The result of a run: one model for every run, whichever engine made it, serialized as the
//! JSON report, flattened into a CSV row of an experiment, and printed as the human summary,
//! so the three never disagree.
//!
//! The sequential reference is simply the engine with one rank and no messages: its report
//! has the same keys (`engine` = `reference`, `store` null, `pairs` = `[[0]]`).

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use crate::comm::traffic::PerKind;
use crate::engines::bands::Checkpoint;
use crate::engines::choice::EngineChoice;
use crate::engines::device::{Placement, RankDevice};
use crate::engines::diagonal::store::StoreKind;
use crate::engines::layout::Layout;
use crate::engines::record::{FillTimes, RankStats};
use crate::engines::solve::Solved;
use crate::input::{Format, Pair};
use crate::provenance::Provenance;
use crate::report::device::{DeviceLine, RankOnDevice};
use lcs_core::alignment::Alignment;
use lcs_core::diagonal_band::{Band, BandSearch};
use lcs_core::problem::{Path, Problem};

pub mod device;
pub mod host_columns;
pub mod queued;
pub mod row;
pub mod text;

/// Which engine computed a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The report's diagonal schedule over MPI ranks.
    #[default]
    Diagonal,
    /// Bit-parallel column bands, rows pipelined in batches: one message of carry bits per
    /// batch and band edge.
    Bands,
    /// Diagonal transition: each score step's furthest rows, the diagonals split among the
    /// ranks, one halo message each way per neighbour every few steps (`--halo-steps`).
    Wave,
    /// The sequential bit-parallel reference (one process).
    Reference,
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EngineKind::Diagonal => "diagonal",
            EngineKind::Bands => "bands",
            EngineKind::Wave => "wave",
            EngineKind::Reference => "reference",
        })
    }
}

/// The diagonal band of a fill ([`lcs_core::diagonal_band`]): its margin, or the whole matrix.
/// Reports write a number of diagonals, or `"whole"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Margin(pub Option<usize>);

impl Serialize for Margin {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(k) => s.serialize_u64(k as u64),
            None => s.serialize_str("whole"),
        }
    }
}

impl<'de> Deserialize<'de> for Margin {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Margin, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Margin;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"whole\" or a number of diagonals")
            }
            fn visit_u64<E: serde::de::Error>(self, k: u64) -> Result<Margin, E> {
                Ok(Margin(Some(k as usize)))
            }
            fn visit_i64<E: serde::de::Error>(self, k: i64) -> Result<Margin, E> {
                u64::try_from(k)
                    .map_err(|_| E::custom("a negative margin"))
                    .and_then(|k| self.visit_u64(k))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Margin, E> {
                match s {
                    "whole" => Ok(Margin(None)),
                    _ => s
                        .parse()
                        .map(|k| Margin(Some(k)))
                        .map_err(|_| E::custom(format!("'{s}' is not \"whole\" or a number"))),
                }
            }
        }
        d.deserialize_any(Visit)
    }
}

impl fmt::Display for Margin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(k) => write!(f, "{k} diagonals"),
            None => f.write_str("the whole matrix"),
        }
    }
}

/// How the sequential reference computed: the bit-parallel DP with the diagonal bands it
/// filled, or the wave algorithm with its final cost, bound and memory.
#[derive(Debug, Clone)]
pub enum SequentialRun {
    BitParallel(BandSearch),
    Wave {
        cost: usize,
        bound: usize,
        bytes: u64,
        /// Cells the steps touched, the walk's recomputations too.
        cells: u64,
    },
}

/// The full report of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    #[serde(flatten)]
    pub run: Provenance,
    pub input: String,
    pub format: Format,
    pub rows: usize,
    pub cols: usize,
    pub swapped: bool,
    pub engine: EngineKind,
    /// Where the diagonal engine's ranks keep their cells; none for the other engines.
    pub store: Option<StoreKind>,
    /// The bands engine's rows per message; none for the other engines.
    pub batch: Option<usize>,
    /// What the bands engine keeps for the traceback: `"full"` (a bit per cell) or the rows
    /// between checkpoints; none for the other engines.
    pub checkpoint: Option<Checkpoint>,
    /// The diagonal band of the fill that gave the answer (bands engine and reference):
    /// its margin, or `"whole"`; none for the diagonal engine.
    pub band: Option<Margin>,
    /// Fills after the first: how many times the band was widened before it proved itself.
    pub band_doublings: Option<usize>,
    /// The band of every fill, in order.
    pub band_fills: Option<Vec<Margin>>,
    /// How many of the first fills ran each on one rank alone, side by side (`--band auto` on
    /// two ranks or more fills its two narrowest bands so); none for the other engines.
    pub band_alone: Option<usize>,
    /// The bands engine's column bands per rank in the fill that gave the answer: 1, or more
    /// on a diagonal band wide enough for the ranks to share each row's window (band `v` on
    /// rank `v mod P`); none for the other engines.
    pub band_laps: Option<usize>,
    /// The wave engine's score steps: its final cost (the edit distance, or the LCS's indel
    /// distance), the steps' last.
    pub score_steps: Option<usize>,
    /// The bound the wave engine kept every step within (an alignment's cost, found first).
    pub wave_bound: Option<usize>,
    /// What `--engine auto` chose, and why: the estimated final cost and each engine's
    /// modelled seconds.
    pub engine_choice: Option<EngineChoice>,
    /// Where the bands engine computed with `--device gpu` or `auto`: rank 0's device, the
    /// ranks on one, the slowest rank's kernel and copy seconds, the bytes moved and the cell
    /// updates per second of the slowest rank's compute; none for the CPU engines.
    pub device: Option<DeviceLine>,
    pub ranks: usize,
    /// Cells computed, summed over the ranks: every fill's, so a diagonal band's are a
    /// fraction of the matrix's.
    pub cells: u64,
    /// The matrix's size: `rows * cols`.
    pub matrix_cells: u64,
    #[serde(flatten)]
    pub answer: Answer,
    /// Messages sent, per kind, summed over the ranks.
    pub messages: PerKind,
    pub bytes: PerKind,
    pub predicted: Predicted,
    /// Moves of the walk from one rank's cells onto another's.
    pub traceback_hops: u64,
    /// `pairs[from][to]`: boundary messages sent by rank `from` to rank `to`.
    pub pairs: Vec<Vec<u64>>,
    pub per_rank: Vec<RankReport>,
    pub seconds: Seconds,
}

/// What a run found: the LCS, or the edit distance, and the alignment of either.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    pub problem: Problem,
    /// The LCS's length (LCS runs).
    pub lcs_length: Option<usize>,
    /// The LCS (LCS runs), as text or hex: `lcs` (null for an edit run) or `lcs_hex`.
    #[serde(flatten, serialize_with = "lcs_keys")]
    pub lcs: Option<LcsText>,
    /// The edit distance (edit runs).
    pub distance: Option<usize>,
    /// The alignment as SAM's extended CIGAR, the file's first sequence the query and its
    /// second the target (see `alignment`); an LCS run's `=` bytes spell its LCS.
    pub cigar: String,
    /// Moves of the alignment that are not matches: the distance of an edit run, the
    /// bytes of either sequence outside the LCS of an LCS run.
    pub edits: usize,
    /// The three-line view of the alignment, for inputs short enough to read it.
    #[serde(skip)]
    pub view: Option<[String; 3]>,
}

/// Longest CIGAR the summary prints whole.
const CIGAR_SHOWN: usize = 120;

/// Longest sequence whose alignment the summary shows in full.
pub const VIEW_MAX_LEN: usize = 300;

impl Answer {
    /// What `path`, a finished walk of `problem` over `pair`, found.
    pub fn new(problem: Problem, pair: &Pair, path: &Path) -> Answer {
        debug_assert!(path.spans(&pair.x, &pair.y), "a path spans both sequences");
        let alignment = Alignment::of_path(path, pair.swapped);
        let lcs = (problem == Problem::Lcs).then(|| path.matched(&pair.x));
        let (query, target) = pair.in_file_order();
        let view = (query.len().max(target.len()) <= VIEW_MAX_LEN)
            .then(|| alignment.three_lines(query, target));
        Answer {
            problem,
            lcs_length: lcs.as_ref().map(Vec::len),
            lcs: lcs.as_deref().map(LcsText::new),
            distance: (problem == Problem::Edit).then(|| alignment.edits()),
            cigar: alignment.cigar(),
            edits: alignment.edits(),
            view,
        }
    }
}

impl Answer {
    /// The answer's lines of the summary: the LCS or the distance, the CIGAR (shortened when
    /// long) and, for short inputs, the alignment itself.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        if let (Some(length), Some(lcs)) = (self.lcs_length, &self.lcs) {
            let _ = writeln!(s, "LCS length: {length}");
            let _ = writeln!(s, "LCS: {}", lcs.display());
        }
        if let Some(distance) = self.distance {
            let _ = writeln!(s, "edit distance: {distance}");
        }
        let _ = writeln!(
            s,
            "CIGAR: {}",
            lcs_core::alignment::shorten(&self.cigar, CIGAR_SHOWN)
        );
        if let Some(view) = &self.view {
            for line in view {
                let _ = writeln!(s, "  {line}");
            }
        }
        s
    }

    /// The LCS for a terminal, or the distance: what a picture's title says.
    pub fn headline(&self) -> String {
        match (&self.lcs, self.distance) {
            (Some(lcs), _) => format!(
                "\"{}\" (length {})",
                lcs.display(),
                self.lcs_length.unwrap_or(0)
            ),
            (None, Some(d)) => format!("edit distance {d}"),
            (None, None) => String::new(),
        }
    }
}

/// Predicted counts, from the schedule alone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Predicted {
    pub boundary: u64,
}

/// One rank's line in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankReport {
    pub rank: usize,
    pub host: String,
    /// Cells the rank computed (every fill's).
    pub cells: u64,
    /// Cells of the matrix the rank owns: its share of the matrix's size.
    pub matrix_cells: u64,
    pub sent: PerKind,
    pub received: PerKind,
    pub sent_bytes: PerKind,
    pub received_bytes: PerKind,
    /// Until the rank held the input: rank 0 reading it, the others receiving it.
    pub seconds_input: f64,
    /// From then until the fill: the engine's choice and plan, the memory pre-check.
    pub seconds_setup: f64,
    pub seconds_fill: f64,
    pub fill_breakdown: FillTimes,
    pub seconds_traceback: f64,
    /// Of the traceback, the seconds spent recomputing checkpointed blocks.
    pub seconds_recompute: f64,
    /// Of the run, the seconds it waited for a core ([`queued`]); null for `reference`.
    pub seconds_queued: Option<f64>,
    /// Moves of the walk from this rank's cells onto another rank's.
    pub traceback_hops: u64,
    pub peak_rss_bytes: u64,
    pub store_bytes_estimate: u64,
    /// What the memory pre-check expected the whole rank to occupy at its peak.
    pub memory_estimate_bytes: u64,
    /// Its kernels and copies, where it computed on a device (else null).
    pub device: Option<RankOnDevice>,
}

/// Wall-clock seconds: `total` on rank 0 from the start of the run (input, allocation, fill,
/// traceback) until it holds the path, without the launcher's start-up or the reporting after;
/// `input` is rank 0's until every rank held the input (reading it and, over ranks, sharing
/// it), `setup` the slowest rank's from then until its fill (the engine's choice and plan,
/// the memory pre-check); `fill` and `traceback` are the slowest rank's; `recompute` is the
/// part of the traceback spent recomputing checkpointed blocks, over all ranks (the walk
/// visits them in turn).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Seconds {
    pub total: f64,
    pub input: f64,
    pub setup: f64,
    pub fill: f64,
    pub traceback: f64,
    pub recompute: f64,
}

/// The keys of `lcs`: `lcs` (its text; null for an edit run, which has none), or `lcs_hex`
/// when its bytes are not UTF-8.
fn lcs_keys<S: serde::Serializer>(lcs: &Option<LcsText>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(1))?;
    match lcs {
        Some(LcsText::Utf8(text)) => map.serialize_entry("lcs", text)?,
        Some(LcsText::Hex(hex)) => map.serialize_entry("lcs_hex", hex)?,
        None => map.serialize_entry("lcs", &None::<String>)?,
    }
    map.end()
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

impl RankReport {
    /// Rank `rank`'s line, from the record it sent rank 0.
    pub fn new(rank: usize, s: &RankStats) -> RankReport {
        RankReport {
            rank,
            host: s.host.info().name,
            cells: s.cells,
            matrix_cells: s.matrix_cells,
            sent: s.sent,
            received: s.received,
            sent_bytes: s.sent_bytes,
            received_bytes: s.received_bytes,
            seconds_input: s.seconds_input,
            seconds_setup: s.seconds_setup,
            seconds_fill: s.seconds_fill,
            fill_breakdown: s.fill,
            seconds_traceback: s.seconds_traceback,
            seconds_recompute: s.seconds_recompute,
            seconds_queued: queued::queued_of(s.seconds_queued),
            traceback_hops: s.hops,
            peak_rss_bytes: s.peak_rss_bytes,
            store_bytes_estimate: s.store_bytes_estimate,
            memory_estimate_bytes: s.memory_estimate_bytes,
            device: RankOnDevice::of(&s.device),
        }
    }
}

impl Report {
    /// The report of an MPI run, from what rank 0 holds at its end: the provenance `run`, the
    /// `input` as named, and the run's result. Counts are sums over the ranks; `fill` and
    /// `traceback` seconds are the slowest rank's, `recompute` the sum (the walk visits the
    /// ranks in turn).
    pub fn of_run(run: Provenance, input: String, solved: &Solved) -> Report {
        let Solved {
            pair,
            problem,
            layout,
            path,
            gathered,
            seconds_total,
            ..
        } = solved;
        let stats = &gathered.stats;
        let slowest = |f: fn(&RankStats) -> f64| stats.iter().map(f).fold(0.0, f64::max);
        let (engine, store, batch, checkpoint) = match *layout {
            Layout::Diagonal(_, store) => (EngineKind::Diagonal, Some(store), None, None),
            Layout::Bands(plan, mode) => (EngineKind::Bands, None, Some(plan.batch()), Some(mode)),
            Layout::Wave(_) => (EngineKind::Wave, None, None, None),
        };
        let band = solved.band.as_ref();
        let band_laps = match (*layout, band) {
            (Layout::Bands(plan, _), Some(search)) => {
                let last = Band::new(plan.rows(), plan.cols(), search.last());
                Some(plan.with_band(last).laps())
            }
            _ => None,
        };
        Report {
            run,
            input,
            format: pair.format,
            rows: pair.x.len(),
            cols: pair.y.len(),
            swapped: pair.swapped,
            engine,
            store,
            batch,
            checkpoint,
            band: band.map(|b| Margin(b.last())),
            band_doublings: band.map(BandSearch::doublings),
            band_fills: band.map(|b| b.fills.iter().map(|&k| Margin(k)).collect()),
            band_alone: band.map(|b| b.alone),
            band_laps,
            score_steps: solved.wave.map(|w| w.cost),
            wave_bound: solved.wave.map(|w| w.bound),
            engine_choice: solved.choice,
            device: (solved.placement != Placement::Cpu).then(|| {
                let devices: Vec<RankDevice> = stats.iter().map(|s| s.device).collect();
                let cells = stats.iter().map(|s| s.cells).sum();
                DeviceLine::new(
                    solved.placement,
                    &devices,
                    cells,
                    slowest(|s| s.fill.compute),
                )
            }),
            ranks: stats.len(),
            cells: stats.iter().map(|s| s.cells).sum(),
            matrix_cells: pair.x.len() as u64 * pair.y.len() as u64,
            answer: Answer::new(*problem, pair, path),
            messages: PerKind::sum(stats.iter().map(|s| &s.sent)),
            bytes: PerKind::sum(stats.iter().map(|s| &s.sent_bytes)),
            predicted: Predicted {
                boundary: solved.predicted().total,
            },
            traceback_hops: stats.iter().map(|s| s.hops).sum(),
            pairs: gathered.pairs.clone(),
            per_rank: stats
                .iter()
                .enumerate()
                .map(|(k, s)| RankReport::new(k, s))
                .collect(),
            seconds: Seconds {
                total: *seconds_total,
                input: stats.first().map_or(0.0, |s| s.seconds_input),
                setup: slowest(|s| s.seconds_setup),
                fill: slowest(|s| s.seconds_fill),
                traceback: slowest(|s| s.seconds_traceback),
                recompute: stats.iter().map(|s| s.seconds_recompute).sum(),
            },
        }
    }

    /// The report of a sequential reference run: one rank, no messages, `seconds` = (total,
    /// input, fill, traceback) (the setup is the rest), `need` the memory pre-check's
    /// estimate, `how` what it computed with.
    pub fn of_reference(
        run: Provenance,
        input: String,
        (problem, pair, path): (Problem, &Pair, &Path),
        (total, reading, fill, traceback): (f64, f64, f64, f64),
        (need, how): (u64, &SequentialRun),
    ) -> Report {
        let (rows, cols) = (pair.x.len(), pair.y.len());
        let setup = (total - reading - fill - traceback).max(0.0);
        let (band, wave) = match how {
            SequentialRun::BitParallel(band) => (Some(band), None),
            SequentialRun::Wave {
                cost, bound, cells, ..
            } => (None, Some((*cost, *bound, *cells))),
        };
        let cells = match (band, wave) {
            (Some(band), _) => band
                .fills
                .iter()
                .map(|&k| lcs_core::diagonal_band::Band::new(rows, cols, k).cells())
                .sum(),
            (None, Some((_, _, cells))) => cells,
            (None, None) => 0,
        };
        let matrix_cells = rows as u64 * cols as u64;
        Report {
            per_rank: vec![RankReport {
                rank: 0,
                host: run.host.clone(),
                cells,
                matrix_cells,
                sent: PerKind::default(),
                received: PerKind::default(),
                sent_bytes: PerKind::default(),
                received_bytes: PerKind::default(),
                seconds_input: reading,
                seconds_setup: setup,
                seconds_fill: fill,
                fill_breakdown: FillTimes {
                    compute: fill,
                    ..FillTimes::default()
                },
                seconds_traceback: traceback,
                seconds_recompute: 0.0,
                seconds_queued: None,
                traceback_hops: 0,
                peak_rss_bytes: crate::mem::peak_rss_bytes(),
                store_bytes_estimate: match how {
                    SequentialRun::BitParallel(band) => lcs_core::reference::band_memory_bytes(
                        problem,
                        &pair.x,
                        &pair.y,
                        lcs_core::diagonal_band::Band::new(rows, cols, band.last()),
                    ),
                    SequentialRun::Wave { bytes, .. } => *bytes,
                },
                memory_estimate_bytes: need,
                device: None,
            }],
            run,
            input,
            format: pair.format,
            rows,
            cols,
            swapped: pair.swapped,
            engine: EngineKind::Reference,
            store: None,
            batch: None,
            checkpoint: None,
            band: band.map(|b| Margin(b.last())),
            band_doublings: band.map(BandSearch::doublings),
            band_fills: band.map(|b| b.fills.iter().map(|&k| Margin(k)).collect()),
            band_alone: None,
            band_laps: None,
            score_steps: wave.map(|(cost, _, _)| cost),
            wave_bound: wave.map(|(_, bound, _)| bound),
            engine_choice: None,
            device: None,
            ranks: 1,
            cells,
            matrix_cells,
            answer: Answer::new(problem, pair, path),
            messages: PerKind::default(),
            bytes: PerKind::default(),
            predicted: Predicted::default(),
            traceback_hops: 0,
            pairs: vec![vec![0]],
            seconds: Seconds {
                total,
                input: reading,
                setup,
                fill,
                traceback,
                recompute: 0.0,
            },
        }
    }

    /// The human summary rank 0 prints.
    pub fn summary(&self) -> String {
        let mut s = self.answer.summary();
        let swapped = if self.swapped {
            " (sequences swapped)"
        } else {
            ""
        };
        let ranks = match self.ranks {
            1 => "1 rank".to_owned(),
            p => format!("{p} ranks"),
        };
        let how = match (self.store, self.batch, self.checkpoint) {
            (Some(store), _, _) => format!("{} engine, store {store}", self.engine),
            (None, Some(batch), Some(Checkpoint::Full)) => {
                format!(
                    "{} engine, batches of {batch} rows, every bit kept",
                    self.engine
                )
            }
            (None, Some(batch), Some(Checkpoint::Every(k))) => format!(
                "{} engine, batches of {batch} rows, checkpoints every {k} rows",
                self.engine
            ),
            _ => format!("{} engine", self.engine),
        };
        let how = match (&self.band_fills, self.band) {
            (Some(fills), Some(band)) if fills.len() > 1 || band.0.is_some() => {
                let tried: Vec<String> = fills
                    .iter()
                    .map(|k| k.0.map_or("whole".to_owned(), |k| k.to_string()))
                    .collect();
                let alone = match self.band_alone {
                    Some(0) | None => String::new(),
                    Some(1) => "; the first on one rank alone".to_owned(),
                    Some(k) => format!("; the first {k} side by side, one rank each"),
                };
                format!(
                    "{how}, diagonal band {band} (fills: {}{alone})",
                    tried.join(", ")
                )
            }
            _ => how,
        };
        let how = match self.band_laps {
            Some(laps) if laps > 1 => format!("{how}, {laps} column bands per rank"),
            _ => how,
        };
        let how = match (self.score_steps, self.wave_bound) {
            (Some(steps), Some(bound)) => {
                format!("{how}, {steps} score steps (bound {bound})")
            }
            _ => how,
        };
        let how = match &self.engine_choice {
            Some(c) => {
                let messages = match c.latency_seconds {
                    0.0 => String::new(),
                    l => format!(", messages of {:.0} µs", l * 1e6),
                };
                let model = format!(
                    "a cost of about {} makes the wave engine about {:.3} s, the bands engine \
                     about {:.3} s{messages}",
                    c.estimate, c.wave_seconds, c.bands_seconds
                );
                let preferred = match c.engine {
                    "wave" => "bands",
                    _ => "wave",
                };
                match (c.gave_way, c.preferred_needs) {
                    (true, _) => format!(
                        "{how}, chosen by --engine auto after the wave engine passed {} score \
                         steps ({model}; the cost is more, and the wave's {:.6} s were given \
                         up)",
                        c.cut_off.unwrap_or(0),
                        c.seconds_given_up
                    ),
                    (false, Some(needs)) => format!(
                        "{how}, chosen by --engine auto ({model}, but the {preferred} engine \
                         needs about {} per rank, beyond the memory limit)",
                        crate::mem::human(needs)
                    ),
                    (false, None) => format!("{how}, chosen by --engine auto: {model}"),
                }
            }
            None => how,
        };
        let fasta = if self.format == Format::Fasta {
            ", read as FASTA"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "matrix: {} rows x {} cols{swapped}{fasta}, {ranks}, {how}",
            self.rows, self.cols
        );
        if self.engine != EngineKind::Reference {
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
            if let Some(line) = self.device.as_ref().and_then(|d| d.summary(self.ranks)) {
                let _ = writeln!(s, "{line}");
            }
            let _ = writeln!(s, "{}", self.control_explanation());
        }
        let peak = self.per_rank.iter().map(|r| r.peak_rss_bytes).max();
        let _ = writeln!(
            s,
            "seconds: total {:.6} (input {:.6}, setup {:.6}), fill {:.6}, traceback {:.6}; \
             peak RSS per rank up to {}",
            self.seconds.total,
            self.seconds.input,
            self.seconds.setup,
            self.seconds.fill,
            self.seconds.traceback,
            crate::mem::human(peak.unwrap_or(0))
        );
        if self.engine != EngineKind::Reference {
            s += &self.rank_table();
            let queued = self.per_rank.iter().map(|r| (r.rank, r.seconds_queued));
            s.extend(queued::queued_line(self.seconds.total, queued).map(|l| l + "\n"));
        }
        s
    }

    /// One line that says what the control messages were: the path delivered to rank 0 by the
    /// rank where the walk ended (when that is not rank 0), and rank 0's end-of-walk notices.
    pub fn control_explanation(&self) -> String {
        let notices = match self.ranks {
            1 => "no end-of-walk notice (one rank)".to_owned(),
            2 => "1 end-of-walk notice (empty) from p0 to p1".to_owned(),
            p => format!(
                "{} end-of-walk notices (empty) from p0 to p1..p{}",
                p - 1,
                p - 1
            ),
        };
        let control = self.messages.control;
        let bytes = self.bytes.control;
        match self
            .per_rank
            .iter()
            .find(|r| r.rank != 0 && r.sent.control > 0)
        {
            Some(r) => format!(
                "control {control} ({bytes} bytes): the walk ended on p{}, which sent the path to \
                 p0 ({} bytes); then {notices}",
                r.rank, r.sent_bytes.control
            ),
            None => format!(
                "control {control} ({bytes} bytes): the walk ended on p0, which holds the path, \
                 so nothing is delivered; {notices}"
            ),
        }
    }

    /// Each rank's line: cells, messages sent and received (every kind), hops, and where its
    /// fill time went.
    pub fn rank_table(&self) -> String {
        let header = [
            "rank",
            "cells",
            "sent",
            "received",
            "hops",
            "compute s",
            "wait s",
            "send s",
        ];
        // Where a rank ran on a device: the seconds of its kernels and its copies.
        let on_device = self.per_rank.iter().any(|r| r.device.is_some());
        let mut header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
        if on_device {
            header.extend(["kernel s".to_owned(), "copy s".to_owned()]);
        }
        let columns = header.len();
        let mut rows: Vec<Vec<String>> = vec![header];
        for r in &self.per_rank {
            let t = r.fill_breakdown;
            let mut row = vec![
                format!("p{}", r.rank),
                r.cells.to_string(),
                r.sent.total().to_string(),
                r.received.total().to_string(),
                r.traceback_hops.to_string(),
                format!("{:.6}", t.compute),
                format!("{:.6}", t.wait_receive),
                format!("{:.6}", t.send),
            ];
            if on_device {
                row.extend(match r.device {
                    Some(d) => [
                        format!("{:.6}", d.seconds_kernel),
                        format!("{:.6}", d.seconds_transfer),
                    ],
                    None => ["-".to_owned(), "-".to_owned()],
                });
            }
            rows.push(row);
        }
        let widths: Vec<usize> = (0..columns)
            .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
            .collect();
        let mut s = String::from("per rank (sent and received: every kind of message):\n");
        for row in &rows {
            let mut line = String::from(" ");
            for (c, (cell, w)) in row.iter().zip(&widths).enumerate() {
                if c == 0 {
                    let _ = write!(line, " {cell:<w$}");
                } else {
                    let _ = write!(line, "  {cell:>w$}");
                }
            }
            let _ = writeln!(s, "{}", line.trim_end());
        }
        s
    }
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
}
