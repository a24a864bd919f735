//! Gathering to rank 0 what every rank measured and recorded: its counts and times as one
//! fixed-size [`RankStats`] record, its boundary messages per target, and, for a recorded run,
//! its events, values and walk. These are MPI collectives, whose internal traffic depends on
//! the MPI library; they are not counted as messages.

use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

use crate::provenance::HostInfo;
use crate::report::{FillTimes, RankReport};
use crate::trace::{CellValue, Event, EventWire, Recording};
use crate::traffic::{PerKind, Traffic};

/// Bytes of a host name in [`RankStats`] (Linux allows 64).
const HOST_BYTES: usize = 64;

/// What one rank measured, as one fixed-size record.
#[derive(Debug, Clone, Copy, Equivalence)]
pub struct RankStats {
    pub cells: u64,
    pub sent: PerKind,
    pub sent_bytes: PerKind,
    pub received: PerKind,
    pub received_bytes: PerKind,
    pub hops: u64,
    pub peak_rss_bytes: u64,
    pub store_bytes_estimate: u64,
    pub memory_estimate_bytes: u64,
    pub seconds_fill: f64,
    pub fill: FillTimes,
    pub seconds_traceback: f64,
    pub seconds_recompute: f64,
    pub cores: u64,
    host: [u8; HOST_BYTES],
}

impl Default for RankStats {
    fn default() -> RankStats {
        RankStats {
            cells: 0,
            sent: PerKind::default(),
            sent_bytes: PerKind::default(),
            received: PerKind::default(),
            received_bytes: PerKind::default(),
            hops: 0,
            peak_rss_bytes: 0,
            store_bytes_estimate: 0,
            memory_estimate_bytes: 0,
            seconds_fill: 0.0,
            fill: FillTimes::default(),
            seconds_traceback: 0.0,
            seconds_recompute: 0.0,
            cores: 0,
            host: [0; HOST_BYTES],
        }
    }
}

impl RankStats {
    /// The record of a rank with `traffic`, on the host `host`.
    pub fn new(traffic: &Traffic, host: &HostInfo) -> RankStats {
        let mut name = [0u8; HOST_BYTES];
        let bytes = host.name.as_bytes();
        let len = bytes.len().min(HOST_BYTES);
        name[..len].copy_from_slice(&bytes[..len]);
        RankStats {
            sent: traffic.sent,
            sent_bytes: traffic.sent_bytes,
            received: traffic.received,
            received_bytes: traffic.received_bytes,
            cores: host.cores as u64,
            host: name,
            ..RankStats::default()
        }
    }

    pub fn host(&self) -> HostInfo {
        let len = self.host.iter().position(|&b| b == 0).unwrap_or(HOST_BYTES);
        HostInfo {
            name: String::from_utf8_lossy(&self.host[..len]).into_owned(),
            cores: self.cores as usize,
        }
    }

    /// This rank's line in the report.
    pub fn report(&self, rank: usize) -> RankReport {
        RankReport {
            rank,
            host: self.host().name,
            cells: self.cells,
            sent: self.sent,
            received: self.received,
            sent_bytes: self.sent_bytes,
            received_bytes: self.received_bytes,
            seconds_fill: self.seconds_fill,
            fill_breakdown: self.fill,
            seconds_traceback: self.seconds_traceback,
            seconds_recompute: self.seconds_recompute,
            traceback_hops: self.hops,
            peak_rss_bytes: self.peak_rss_bytes,
            store_bytes_estimate: self.store_bytes_estimate,
            memory_estimate_bytes: self.memory_estimate_bytes,
        }
    }
}

/// Everything gathered on rank 0.
pub struct Gathered {
    pub stats: Vec<RankStats>,
    /// `pairs[from][to]`: boundary messages.
    pub pairs: Vec<Vec<u64>>,
    pub recording: Option<Recording>,
}

/// Gathers every rank's statistics (and recording, when the run was recorded) to rank 0.
/// Collective: every rank calls it; rank 0 gets `Some`.
pub fn gather(
    world: &SimpleCommunicator,
    stats: &RankStats,
    traffic: &Traffic,
) -> Option<Gathered> {
    let root = world.process_at_rank(0);
    let ranks = world.size() as usize;
    let is_root = world.rank() == 0;
    let mut all_stats = vec![RankStats::default(); if is_root { ranks } else { 0 }];
    let mut all_pairs = vec![0u64; if is_root { ranks * ranks } else { 0 }];
    if is_root {
        root.gather_into_root(stats, &mut all_stats[..]);
        root.gather_into_root(&traffic.boundary_to[..], &mut all_pairs[..]);
    } else {
        root.gather_into(stats);
        root.gather_into(&traffic.boundary_to[..]);
    }
    let recording = traffic.recording.as_ref().map(|r| {
        let events: Vec<EventWire> = r.events.iter().map(EventWire::from).collect();
        let walk: Vec<CellValue> = r
            .walk
            .iter()
            .map(|&(i, j)| CellValue { i, j, value: 0 })
            .collect();
        let events = gather_varcount(world, &events);
        let values = gather_varcount(world, &r.values);
        let walk = gather_varcount(world, &walk);
        Some(Recording {
            events: events?.iter().map(Event::from).collect(),
            values: values?,
            walk: walk?.iter().map(|c| (c.i, c.j)).collect(),
        })
    });
    if !is_root {
        return None;
    }
    let mut recording = recording.flatten();
    if let Some(r) = &mut recording {
        r.order();
    }
    Some(Gathered {
        stats: all_stats,
        pairs: all_pairs.chunks(ranks).map(<[u64]>::to_vec).collect(),
        recording,
    })
}

/// Gathers a different number of records from every rank to rank 0, in rank order.
pub fn gather_varcount<T: Equivalence + Copy + Default>(
    world: &SimpleCommunicator,
    local: &[T],
) -> Option<Vec<T>> {
    let root = world.process_at_rank(0);
    let count = local.len() as Count;
    if world.rank() != 0 {
        root.gather_into(&count);
        root.gather_varcount_into(local);
        return None;
    }
    let mut counts = vec![0 as Count; world.size() as usize];
    root.gather_into_root(&count, &mut counts[..]);
    let displs: Vec<Count> = counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect();
    let mut all = vec![T::default(); counts.iter().sum::<Count>() as usize];
    let mut partition = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
    root.gather_varcount_into_root(local, &mut partition);
    Some(all)
}
