//! Gathering to rank 0 what every rank measured and recorded: its counts and times as one
//! fixed-size record ([`RankStats`]; a search's [`RankSearch`], a pairs run's [`RankPairs`]), its
//! boundary messages per target, and, for a recorded run, its events, values (or a bands run's steps
//! and timeline) and walk. These are MPI collectives, whose internal traffic depends on the MPI
//! library; they are not counted as messages. Records travel as plain 64-bit words ([`Words`]), so
//! no MPI datatype is created (MPICH reports every derived datatype as leaked at finalisation).

use crate::comm::world::World;

use lcs_core::search::lanes::Simd;
use serde::Serialize;

use crate::provenance::HostInfo;

use crate::comm::trace::{CellValue, Event, EventWire, Recording, Span, SpanKind};
use crate::comm::traffic::{PerKind, Traffic};
use crate::comm::waiting::Waiting;

/// Bytes of a host name in [`RankStats`] (Linux allows 64).
pub const HOST_BYTES: usize = 64;

/// Seconds one rank spent in the fill, split by what it was doing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct FillTimes {
    pub compute: f64,
    /// Waiting in receives.
    pub wait_receive: f64,
    /// Posting sends.
    pub send: f64,
}

impl FillTimes {
    /// Adds another fill's times to these (a run with a diagonal band may fill several).
    pub fn add(&mut self, other: &FillTimes) {
        self.compute += other.compute;
        self.wait_receive += other.wait_receive;
        self.send += other.send;
    }
}

/// What one rank measured, as one fixed-size record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankStats {
    /// Cells the rank computed (every fill's, for a diagonal band: a fraction of its share).
    pub cells: u64,
    /// Cells of the matrix the rank owns: its share of the matrix's size.
    pub matrix_cells: u64,
    pub sent: PerKind,
    pub sent_bytes: PerKind,
    pub received: PerKind,
    pub received_bytes: PerKind,
    pub hops: u64,
    pub peak_rss_bytes: u64,
    pub store_bytes_estimate: u64,
    pub memory_estimate_bytes: u64,
    /// Until the rank held the input (rank 0 reading it, the others receiving it).
    pub seconds_input: f64,
    /// From then until the fill: the engine's choice and plan, the memory pre-check.
    pub seconds_setup: f64,
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
            matrix_cells: 0,
            sent: PerKind::default(),
            sent_bytes: PerKind::default(),
            received: PerKind::default(),
            received_bytes: PerKind::default(),
            hops: 0,
            peak_rss_bytes: 0,
            store_bytes_estimate: 0,
            memory_estimate_bytes: 0,
            seconds_input: 0.0,
            seconds_setup: 0.0,
            seconds_fill: 0.0,
            fill: FillTimes::default(),
            seconds_traceback: 0.0,
            seconds_recompute: 0.0,
            cores: 0,
            host: [0; HOST_BYTES],
        }
    }
}

/// A host's name as a record keeps it: its first [`HOST_BYTES`] bytes, zero-padded.
fn host_name(host: &HostInfo) -> [u8; HOST_BYTES] {
    let mut name = [0u8; HOST_BYTES];
    let bytes = host.name.as_bytes();
    let len = bytes.len().min(HOST_BYTES);
    name[..len].copy_from_slice(&bytes[..len]);
    name
}

/// The host of a record's name and cores.
fn host_info(name: &[u8; HOST_BYTES], cores: u64) -> HostInfo {
    let len = name.iter().position(|&b| b == 0).unwrap_or(HOST_BYTES);
    HostInfo {
        name: String::from_utf8_lossy(&name[..len]).into_owned(),
        cores: cores as usize,
    }
}

/// A host's name as words.
fn put_host(name: &[u8; HOST_BYTES], out: &mut Vec<u64>) {
    out.extend(
        name.chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))),
    );
}

impl RankStats {
    /// The record of a rank with `traffic`, on the host `host`.
    pub fn new(traffic: &Traffic, host: &HostInfo) -> RankStats {
        RankStats {
            sent: traffic.sent,
            sent_bytes: traffic.sent_bytes,
            received: traffic.received,
            received_bytes: traffic.received_bytes,
            cores: host.cores as u64,
            host: host_name(host),
            ..RankStats::default()
        }
    }

    pub fn host(&self) -> HostInfo {
        host_info(&self.host, self.cores)
    }
}

/// A fixed-size record as 64-bit words, for gathering.
pub trait Words: Sized {
    /// Words per record.
    const WORDS: usize;
    /// Appends the record's words to `out`.
    fn put(&self, out: &mut Vec<u64>);
    /// The record from its [`Self::WORDS`] words.
    fn take(words: &[u64]) -> Self;
}

/// Reads a record's words in order.
struct Reader<'a>(std::slice::Iter<'a, u64>);

impl Reader<'_> {
    fn u(&mut self) -> u64 {
        *self.0.next().expect("a whole record")
    }

    fn f(&mut self) -> f64 {
        f64::from_bits(self.u())
    }

    fn host(&mut self) -> [u8; HOST_BYTES] {
        let mut name = [0u8; HOST_BYTES];
        for chunk in name.chunks_mut(8) {
            chunk.copy_from_slice(&self.u().to_le_bytes());
        }
        name
    }

    fn kinds(&mut self) -> PerKind {
        PerKind {
            boundary: self.u(),
            traceback: self.u(),
            control: self.u(),
        }
    }
}

impl Words for RankStats {
    const WORDS: usize = 27 + HOST_BYTES / 8;

    fn put(&self, out: &mut Vec<u64>) {
        out.extend([self.cells, self.matrix_cells]);
        for k in [
            &self.sent,
            &self.sent_bytes,
            &self.received,
            &self.received_bytes,
        ] {
            out.extend([k.boundary, k.traceback, k.control]);
        }
        out.extend([
            self.hops,
            self.peak_rss_bytes,
            self.store_bytes_estimate,
            self.memory_estimate_bytes,
            self.seconds_input.to_bits(),
            self.seconds_setup.to_bits(),
            self.seconds_fill.to_bits(),
            self.fill.compute.to_bits(),
            self.fill.wait_receive.to_bits(),
            self.fill.send.to_bits(),
            self.seconds_traceback.to_bits(),
            self.seconds_recompute.to_bits(),
            self.cores,
        ]);
        put_host(&self.host, out);
    }

    fn take(words: &[u64]) -> RankStats {
        let mut r = Reader(words.iter());
        RankStats {
            cells: r.u(),
            matrix_cells: r.u(),
            sent: r.kinds(),
            sent_bytes: r.kinds(),
            received: r.kinds(),
            received_bytes: r.kinds(),
            hops: r.u(),
            peak_rss_bytes: r.u(),
            store_bytes_estimate: r.u(),
            memory_estimate_bytes: r.u(),
            seconds_input: r.f(),
            seconds_setup: r.f(),
            seconds_fill: r.f(),
            fill: FillTimes {
                compute: r.f(),
                wait_receive: r.f(),
                send: r.f(),
            },
            seconds_traceback: r.f(),
            seconds_recompute: r.f(),
            cores: r.u(),
            host: r.host(),
        }
    }
}

/// What one rank of a search did, as one fixed-size record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankSearch {
    /// The rank's text range (file offsets) and its units and patterns.
    pub text_start: u64,
    pub text_end: u64,
    pub units: u64,
    pub patterns: u64,
    /// Text bytes scanned (warm-up included), and of them the warm-up.
    pub scanned: u64,
    pub warm_up: u64,
    pub matches: u64,
    /// Control messages and bytes sent and received.
    pub sent: u64,
    pub sent_bytes: u64,
    pub received: u64,
    pub received_bytes: u64,
    pub peak_rss_bytes: u64,
    pub memory_estimate_bytes: u64,
    /// Seconds summarising the range (FASTA), scanning it (reading included) and, of that,
    /// locating starts.
    pub seconds_summary: f64,
    pub seconds_scan: f64,
    pub seconds_starts: f64,
    pub simd: Simd,
    pub cores: u64,
    /// The host's name ([`RankSearch::host`]).
    pub host: [u8; HOST_BYTES],
}

impl Default for RankSearch {
    fn default() -> RankSearch {
        RankSearch {
            text_start: 0,
            text_end: 0,
            units: 0,
            patterns: 0,
            scanned: 0,
            warm_up: 0,
            matches: 0,
            sent: 0,
            sent_bytes: 0,
            received: 0,
            received_bytes: 0,
            peak_rss_bytes: 0,
            memory_estimate_bytes: 0,
            seconds_summary: 0.0,
            seconds_scan: 0.0,
            seconds_starts: 0.0,
            simd: Simd::Portable,
            cores: 0,
            host: [0; HOST_BYTES],
        }
    }
}

/// The search kernel's compilations, by their number in a record.
const SIMDS: [Simd; 3] = [Simd::Avx512, Simd::Avx2, Simd::Portable];

impl RankSearch {
    pub fn host(&self) -> HostInfo {
        host_info(&self.host, self.cores)
    }

    /// Records `host` as this rank's.
    pub fn set_host(&mut self, host: &HostInfo) {
        self.host = host_name(host);
        self.cores = host.cores as u64;
    }
}

impl Words for RankSearch {
    const WORDS: usize = 18 + HOST_BYTES / 8;

    fn put(&self, out: &mut Vec<u64>) {
        out.extend([
            self.text_start,
            self.text_end,
            self.units,
            self.patterns,
            self.scanned,
            self.warm_up,
            self.matches,
            self.sent,
            self.sent_bytes,
            self.received,
            self.received_bytes,
            self.peak_rss_bytes,
            self.memory_estimate_bytes,
            self.seconds_summary.to_bits(),
            self.seconds_scan.to_bits(),
            self.seconds_starts.to_bits(),
            SIMDS.iter().position(|&s| s == self.simd).unwrap_or(2) as u64,
            self.cores,
        ]);
        put_host(&self.host, out);
    }

    fn take(words: &[u64]) -> RankSearch {
        let mut r = Reader(words.iter());
        RankSearch {
            text_start: r.u(),
            text_end: r.u(),
            units: r.u(),
            patterns: r.u(),
            scanned: r.u(),
            warm_up: r.u(),
            matches: r.u(),
            sent: r.u(),
            sent_bytes: r.u(),
            received: r.u(),
            received_bytes: r.u(),
            peak_rss_bytes: r.u(),
            memory_estimate_bytes: r.u(),
            seconds_summary: r.f(),
            seconds_scan: r.f(),
            seconds_starts: r.f(),
            simd: SIMDS[r.u() as usize % SIMDS.len()],
            cores: r.u(),
            host: r.host(),
        }
    }
}

impl Words for CellValue {
    const WORDS: usize = 3;

    fn put(&self, out: &mut Vec<u64>) {
        out.extend([self.i, self.j, self.value]);
    }

    fn take(words: &[u64]) -> CellValue {
        let mut r = Reader(words.iter());
        CellValue {
            i: r.u(),
            j: r.u(),
            value: r.u(),
        }
    }
}

impl Words for EventWire {
    const WORDS: usize = 7;

    fn put(&self, out: &mut Vec<u64>) {
        out.extend([
            self.kind,
            self.diagonal,
            self.from,
            self.to,
            self.i,
            self.j,
            self.bytes,
        ]);
    }

    fn take(words: &[u64]) -> EventWire {
        let mut r = Reader(words.iter());
        EventWire {
            kind: r.u(),
            diagonal: r.u(),
            from: r.u(),
            to: r.u(),
            i: r.u(),
            j: r.u(),
            bytes: r.u(),
        }
    }
}

impl Words for Span {
    const WORDS: usize = 5;

    fn put(&self, out: &mut Vec<u64>) {
        let kind = SpanKind::ALL.iter().position(|&k| k == self.kind);
        out.extend([
            self.rank as u64,
            self.batch as u64,
            kind.unwrap_or(0) as u64,
            self.start.to_bits(),
            self.end.to_bits(),
        ]);
    }

    fn take(words: &[u64]) -> Span {
        let mut r = Reader(words.iter());
        Span {
            rank: r.u() as usize,
            batch: r.u() as usize,
            kind: SpanKind::ALL[(r.u() as usize).min(SpanKind::ALL.len() - 1)],
            start: r.f(),
            end: r.f(),
        }
    }
}

/// What one rank of a pairs run did, as one fixed-size record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankPairs {
    /// Its jobs (a unit's run of targets), and the values they emitted.
    pub jobs: u64,
    pub pairs: u64,
    pub word_steps: u64,
    /// DP cells of its pairs, `m * n` each.
    pub cells: u64,
    /// The plan's estimate of its share, in picoseconds.
    pub estimated_ps: u64,
    /// Control messages and bytes sent and received.
    pub sent: u64,
    pub sent_bytes: u64,
    pub received: u64,
    pub received_bytes: u64,
    pub peak_rss_bytes: u64,
    pub memory_estimate_bytes: u64,
    /// With a bound and a TSV: the pairs within it that the rank found, and the pairs it
    /// spilled to disk (rank 0: its own and the others' it received).
    pub passing: u64,
    pub spilled: u64,
    /// Seconds computing its share, and delivering its values (rank 0: receiving and placing
    /// every other rank's).
    pub seconds_compute: f64,
    pub seconds_deliver: f64,
    pub simd: Simd,
    pub cores: u64,
    /// The host's name ([`RankPairs::host`]).
    pub host: [u8; HOST_BYTES],
}

impl Default for RankPairs {
    fn default() -> RankPairs {
        RankPairs {
            jobs: 0,
            pairs: 0,
            word_steps: 0,
            cells: 0,
            estimated_ps: 0,
            sent: 0,
            sent_bytes: 0,
            received: 0,
            received_bytes: 0,
            peak_rss_bytes: 0,
            memory_estimate_bytes: 0,
            passing: 0,
            spilled: 0,
            seconds_compute: 0.0,
            seconds_deliver: 0.0,
            simd: Simd::Portable,
            cores: 0,
            host: [0; HOST_BYTES],
        }
    }
}

impl RankPairs {
    pub fn host(&self) -> HostInfo {
        host_info(&self.host, self.cores)
    }

    /// Records `host` as this rank's.
    pub fn set_host(&mut self, host: &HostInfo) {
        self.host = host_name(host);
        self.cores = host.cores as u64;
    }
}

impl Words for RankPairs {
    const WORDS: usize = 17 + HOST_BYTES / 8;

    fn put(&self, out: &mut Vec<u64>) {
        out.extend([
            self.jobs,
            self.pairs,
            self.word_steps,
            self.cells,
            self.estimated_ps,
            self.sent,
            self.sent_bytes,
            self.received,
            self.received_bytes,
            self.peak_rss_bytes,
            self.memory_estimate_bytes,
            self.passing,
            self.spilled,
            self.seconds_compute.to_bits(),
            self.seconds_deliver.to_bits(),
            SIMDS.iter().position(|&s| s == self.simd).unwrap_or(2) as u64,
            self.cores,
        ]);
        put_host(&self.host, out);
    }

    fn take(words: &[u64]) -> RankPairs {
        let mut r = Reader(words.iter());
        RankPairs {
            jobs: r.u(),
            pairs: r.u(),
            word_steps: r.u(),
            cells: r.u(),
            estimated_ps: r.u(),
            sent: r.u(),
            sent_bytes: r.u(),
            received: r.u(),
            received_bytes: r.u(),
            peak_rss_bytes: r.u(),
            memory_estimate_bytes: r.u(),
            passing: r.u(),
            spilled: r.u(),
            seconds_compute: r.f(),
            seconds_deliver: r.f(),
            simd: SIMDS[r.u() as usize % SIMDS.len()],
            cores: r.u(),
            host: r.host(),
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
    world: &World,
    stats: &RankStats,
    traffic: &Traffic,
    waiting: Waiting,
) -> Option<Gathered> {
    let ranks = world.size() as usize;
    let is_root = world.rank() == 0;
    let mut mine = Vec::with_capacity(RankStats::WORDS);
    stats.put(&mut mine);
    let mut all_stats = vec![0u64; if is_root { ranks * RankStats::WORDS } else { 0 }];
    let mut all_pairs = vec![0u64; if is_root { ranks * ranks } else { 0 }];
    let (stats_in, pairs_in) = if is_root {
        (Some(&mut all_stats[..]), Some(&mut all_pairs[..]))
    } else {
        (None, None)
    };
    waiting.gather(world, &mine[..], stats_in);
    waiting.gather(world, &traffic.boundary_to[..], pairs_in);
    let recording = traffic.recording.as_ref().map(|r| {
        let events: Vec<EventWire> = r.events.iter().map(EventWire::from).collect();
        let walk: Vec<CellValue> = r
            .walk
            .iter()
            .map(|&(i, j)| CellValue { i, j, value: 0 })
            .collect();
        let events = gather_varcount(world, &events, waiting);
        let values = gather_varcount(world, &r.values, waiting);
        let deltas = gather_varcount(world, &r.deltas, waiting);
        let spans = gather_varcount(world, &r.spans, waiting);
        let walk = gather_varcount(world, &walk, waiting);
        Some(Recording {
            events: events?.iter().map(Event::from).collect(),
            values: values?,
            deltas: deltas?,
            spans: spans?,
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
        stats: all_stats
            .chunks(RankStats::WORDS)
            .map(RankStats::take)
            .collect(),
        pairs: all_pairs.chunks(ranks).map(<[u64]>::to_vec).collect(),
        recording,
    })
}

/// Gathers a different number of records from every rank to rank 0, in rank order.
pub fn gather_varcount<T: Words>(world: &World, records: &[T], waiting: Waiting) -> Option<Vec<T>> {
    let mut local = Vec::with_capacity(records.len() * T::WORDS);
    for record in records {
        record.put(&mut local);
    }
    let all = waiting.gather_words(world, &local)?.concat();
    Some(all.chunks(T::WORDS).map(T::take).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pairs_record_survives_its_words() {
        let mut record = RankPairs {
            pairs: 1 << 40,
            word_steps: 7,
            seconds_compute: 0.25,
            simd: Simd::Avx512,
            ..RankPairs::default()
        };
        record.set_host(&HostInfo {
            name: "n02".into(),
            cores: 2,
        });
        let mut words = Vec::new();
        record.put(&mut words);
        assert_eq!(words.len(), RankPairs::WORDS);
        assert_eq!(RankPairs::take(&words), record);
    }

    #[test]
    fn a_rank_record_survives_its_words() {
        let mut record = RankSearch {
            text_start: 1,
            text_end: 2,
            seconds_scan: 0.5,
            simd: Simd::Avx2,
            ..RankSearch::default()
        };
        record.set_host(&HostInfo {
            name: "n01".into(),
            cores: 4,
        });
        let mut words = Vec::new();
        record.put(&mut words);
        assert_eq!(words.len(), RankSearch::WORDS);
        let back = RankSearch::take(&words);
        assert_eq!(back, record);
        assert_eq!(back.host().name, "n01");
        assert_eq!(back.simd, Simd::Avx2);
    }

    fn round_trip<T: Words + PartialEq + std::fmt::Debug>(record: &T) {
        let mut words = Vec::new();
        record.put(&mut words);
        assert_eq!(words.len(), T::WORDS);
        assert_eq!(&T::take(&words), record);
    }

    #[test]
    fn records_survive_their_words() {
        let host = HostInfo {
            name: "node-01.example".into(),
            cores: 48,
        };
        let mut traffic = Traffic::new(1, 3, false);
        traffic.sent(crate::comm::protocol::Kind::Boundary, 2, 4, None);
        traffic.received(crate::comm::protocol::Kind::Traceback, 21);
        let mut stats = RankStats::new(&traffic, &host);
        (stats.cells, stats.hops, stats.peak_rss_bytes) = (1 << 40, 7, 123_456_789);
        (stats.store_bytes_estimate, stats.memory_estimate_bytes) = (11, 12);
        (stats.seconds_fill, stats.seconds_traceback) = (1.5, 0.25);
        stats.seconds_recompute = 1e-9;
        stats.fill = FillTimes {
            compute: 0.75,
            wait_receive: 0.5,
            send: f64::MIN_POSITIVE,
        };
        round_trip(&stats);
        assert_eq!(
            RankStats::take(&{
                let mut w = Vec::new();
                stats.put(&mut w);
                w
            })
            .host(),
            host
        );
        round_trip(&CellValue {
            i: 3,
            j: u64::MAX,
            value: 9,
        });
        round_trip(&Span {
            rank: 2,
            batch: 7,
            kind: SpanKind::Wait,
            start: 1.7e9 + 0.125,
            end: 1.7e9 + 0.5,
        });
        round_trip(&EventWire {
            kind: 2,
            diagonal: u64::MAX,
            from: 1,
            to: 0,
            i: 5,
            j: 6,
            bytes: 17,
        });
    }
}
