//! What one rank of a `solve` run measured (any of the engines: diagonal, bands, wave), as one
//! fixed-size record that rank 0 gathers ([`crate::comm::stats::gather`]): its cells, its
//! messages and bytes per kind, its memory, its seconds part by part and its host. The record's
//! fields are its words, in order (`record!`, [`crate::comm::words`]).

use serde::Serialize;

use crate::comm::stats;
use crate::comm::traffic::{PerKind, Traffic};
use crate::comm::words::{record, RankHost};
use crate::engines::device::RankDevice;
use crate::provenance::HostInfo;

record! {
    /// Seconds one rank spent in the fill, split by what it was doing.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
    pub struct FillTimes {
        pub compute: f64,
        /// Waiting in receives.
        pub wait_receive: f64,
        /// Posting sends.
        pub send: f64,
    }
}

impl FillTimes {
    /// Adds another fill's times to these (a run with a diagonal band may fill several).
    pub fn add(&mut self, other: &FillTimes) {
        self.compute += other.compute;
        self.wait_receive += other.wait_receive;
        self.send += other.send;
    }
}

record! {
    /// What one rank measured, as one fixed-size record.
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
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
        /// Of the run, the seconds the rank was ready to run but waited for a core
        /// ([`crate::cpus::queued_seconds`]); NaN where the system does not say.
        pub seconds_queued: f64,
        pub host: RankHost,
        /// The rank's device, where the bands engine computed on one.
        pub device: RankDevice,
    }
}

impl RankStats {
    /// The record of a rank with `traffic`, on the host `host`.
    pub fn new(traffic: &Traffic, host: &HostInfo) -> RankStats {
        RankStats {
            sent: traffic.sent,
            sent_bytes: traffic.sent_bytes,
            received: traffic.received,
            received_bytes: traffic.received_bytes,
            host: RankHost::of(host),
            ..RankStats::default()
        }
    }
}

/// What rank 0 gathers of a `solve` run.
pub type Gathered = stats::Gathered<RankStats>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comm::words::tests::{host, words};
    use crate::comm::words::Words;

    #[test]
    fn a_rank_record_survives_its_words() {
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
        stats.seconds_queued = 0.125;
        stats.device = RankDevice::of_parts(2, 2, "pthread-cpu", 0.5, 4096);
        stats.fill = FillTimes {
            compute: 0.75,
            wait_receive: 0.5,
            send: f64::MIN_POSITIVE,
        };
        let back = RankStats::take(&words(&stats));
        assert_eq!(back, stats);
        assert_eq!(back.host.info(), host);
    }

    /// The words in the order every rank of a run expects them: the fields', in order, each
    /// count a word and each second its bits, the host last.
    #[test]
    fn a_rank_records_words_keep_their_order() {
        let kinds = |k| PerKind {
            boundary: k,
            traceback: k + 1,
            control: k + 2,
        };
        let (host, host_words) = host();
        let stats = RankStats {
            cells: 1,
            matrix_cells: 2,
            sent: kinds(3),
            sent_bytes: kinds(6),
            received: kinds(9),
            received_bytes: kinds(12),
            hops: 15,
            peak_rss_bytes: 16,
            store_bytes_estimate: 17,
            memory_estimate_bytes: 18,
            seconds_input: 19.0,
            seconds_setup: 20.0,
            seconds_fill: 21.0,
            fill: FillTimes {
                compute: 22.0,
                wait_receive: 23.0,
                send: 24.0,
            },
            seconds_traceback: 25.0,
            seconds_recompute: 26.0,
            seconds_queued: 27.0,
            host,
            device: RankDevice::default(),
        };
        let mut expected: Vec<u64> = (1..=18).collect();
        expected.extend((19..=27).map(|s| f64::to_bits(s as f64)));
        expected.extend(host_words);
        expected.extend(words(&RankDevice::default()));
        assert_eq!(words(&stats), expected);
    }
}
