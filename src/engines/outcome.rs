//! What a rank's run produced: the path (on rank 0), its statistics and its traffic.

use lcs_core::diagonal_band::BandSearch;
use lcs_core::problem::Path;

use crate::comm::stats::{FillTimes, RankStats};
use crate::comm::traffic::Traffic;
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
}

/// What a wave run did on one rank.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WaveRun {
    /// The final cost: the score steps the fill took (the edit distance, or the LCS's indel
    /// distance).
    pub cost: usize,
    /// The bound the steps were kept within.
    pub bound: usize,
    /// Diagonal steps this rank computed, and bytes it slid along matches.
    pub diagonals: u64,
    pub slid: u64,
}

/// What an engine's fill and traceback produced on one rank, before its cell count and
/// memory are filled in.
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
}

impl Ran {
    /// The rank's outcome, with `cells`, the cells it computed.
    pub fn finish(self, cells: u64) -> RankOutcome {
        let mut stats = RankStats::new(&self.traffic, &HostInfo::here());
        stats.cells = cells;
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
        }
    }
}
