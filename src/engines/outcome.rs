//! What a rank's run produced: the path (on rank 0), its statistics and its traffic.

use lcs_core::diagonal_band::BandSearch;
use lcs_core::problem::Path;

use crate::comm::traffic::Traffic;
use crate::engines::record::{FillTimes, RankStats};
use crate::engines::wave::plan::WavePlan;
use crate::error::Error;
use crate::mem;
use crate::provenance::HostInfo;

/// What one rank's run produced.
pub struct RankOutcome {
    /// The walk's path, on rank 0 (none anywhere when a fixed diagonal band did not prove
    /// itself).
    pub path: Option<Path>,
    pub stats: RankStats,
    pub traffic: Traffic,
    /// The diagonal bands a bands run filled (the same on every rank).
    pub band: Option<BandSearch>,
    /// What a wave run did: its final cost and this rank's work.
    pub wave: Option<WaveRun>,
    /// A wave run that passed its cut-off, which the bands engine took over from (`--engine
    /// auto`; the same on every rank but for the work and seconds).
    pub gave_way: Option<GaveWay>,
    /// The band search stopped at a band that did not fit (the same on every rank).
    pub refused: Option<Widening>,
    /// A device failed (every rank has the error, one of them the message).
    pub failed: Option<Error>,
}

/// What a wave run did on one rank.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WaveRun {
    /// The final cost: the score steps the fill took (the edit distance, or the LCS's indel
    /// distance); for a fill that passed its cut-off, the bound it stopped at.
    pub cost: usize,
    /// The fill passed its bound, a cut-off, without reaching the end: no path.
    pub gave_way: bool,
    /// The bound the steps were kept within.
    pub bound: usize,
    /// Diagonal steps this rank computed, and bytes it slid along matches.
    pub diagonals: u64,
    pub slid: u64,
}

/// A wave run of `--engine auto` that passed its cut-off, which the bands engine took over
/// from: its plan (whose messages count too), what this rank did of it and the seconds of
/// its fill.
#[derive(Debug, Clone, Copy)]
pub struct GaveWay {
    pub plan: WavePlan,
    pub wave: WaveRun,
    pub seconds: f64,
}

/// What an engine's fill and traceback produced on one rank, before its memory is filled in.
pub struct Ran {
    pub path: Option<Path>,
    pub traffic: Traffic,
    pub fill: FillTimes,
    pub seconds_fill: f64,
    pub seconds_traceback: f64,
    pub seconds_recompute: f64,
    pub hops: u64,
    pub band: Option<BandSearch>,
    pub wave: Option<WaveRun>,
    /// Cells the rank computed: its own for the diagonal engine, its share of every fill's
    /// windows for the bands engine, its diagonal steps and bytes slid for the wave engine.
    pub cells: u64,
    /// See [`RankOutcome::refused`].
    pub refused: Option<Widening>,
    /// See [`RankOutcome::failed`].
    pub failed: Option<Error>,
}

impl Ran {
    /// A run that ended before its walk: no path, and nothing of a band search or a wave.
    pub fn empty(traffic: Traffic, fill: FillTimes, seconds_fill: f64, cells: u64) -> Ran {
        Ran {
            path: None,
            traffic,
            fill,
            seconds_fill,
            seconds_traceback: 0.0,
            seconds_recompute: 0.0,
            hops: 0,
            band: None,
            wave: None,
            cells,
            refused: None,
            failed: None,
        }
    }

    /// The rank's outcome, with `matrix_cells`, the cells of the matrix it owns.
    pub fn finish(self, matrix_cells: u64) -> RankOutcome {
        let mut stats = RankStats::new(&self.traffic, &HostInfo::here());
        stats.cells = self.cells;
        stats.matrix_cells = matrix_cells;
        stats.hops = self.hops;
        stats.peak_rss_bytes = mem::peak_rss_bytes();
        stats.seconds_fill = self.seconds_fill;
        stats.fill = self.fill;
        stats.seconds_traceback = self.seconds_traceback;
        stats.seconds_recompute = self.seconds_recompute;
        RankOutcome {
            path: self.path,
            stats,
            traffic: self.traffic,
            band: self.band,
            wave: self.wave,
            gave_way: None,
            refused: self.refused,
            failed: self.failed,
        }
    }
}

/// A wider band of `--band auto` that some rank cannot hold: the search stops before its fill
/// (every rank alike), and the run is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Widening {
    /// The margin of the last band filled, which did not prove itself.
    pub from: Option<usize>,
    /// The margin of the band it would widen to (`None`: the whole matrix).
    pub to: Option<usize>,
    /// What the rank that needs the most would need for it, and the limit it exceeds.
    pub need: u64,
    pub limit: u64,
}

impl Widening {
    /// The refusal, for people.
    pub fn message(&self) -> String {
        let band = |k: Option<usize>| match k {
            Some(k) => format!("{k} diagonals"),
            None => "the whole matrix".to_owned(),
        };
        format!(
            "not enough memory: the diagonal band of {} did not prove itself, and --band auto \
             would widen it to {}, which needs about {} on some rank, more than its limit of {}; \
             more ranks, or more memory per rank, would be needed",
            band(self.from),
            band(self.to),
            mem::human(self.need),
            mem::human(self.limit)
        )
    }
}
