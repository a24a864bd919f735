//! What one rank of a pairs run did, as one fixed-size record that rank 0 gathers
//! ([`crate::comm::stats::gather_varcount`]): its jobs, pairs and cells, the plan's estimate
//! of them, its control messages, its memory, what it found within a bound and spilled, its
//! seconds, its kernel and its host. The record's fields are its words, in order
//! (`record!`, [`crate::comm::words`]).

use lcs_core::search::lanes::Simd;

use crate::comm::traffic::Control;
use crate::comm::words::{record, RankHost};
use crate::engines::device::RankDevice;

record! {
    /// What one rank of a pairs run did, as one fixed-size record.
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub struct RankPairs {
        /// Its jobs (a unit's run of targets), and the values they emitted.
        pub jobs: u64,
        pub pairs: u64,
        pub word_steps: u64,
        /// DP cells of its pairs, `m * n` each.
        pub cells: u64,
        /// The plan's estimate of its share, in picoseconds.
        pub estimated_ps: u64,
        pub control: Control,
        pub peak_rss_bytes: u64,
        pub memory_estimate_bytes: u64,
        /// With a bound and a TSV: the pairs within it that the rank found, and the pairs it
        /// spilled to disk (rank 0: its own and the others' it received).
        pub passing: u64,
        pub spilled: u64,
        /// Seconds computing its share, and delivering its values (rank 0: receiving and
        /// placing every other rank's).
        pub seconds_compute: f64,
        pub seconds_deliver: f64,
        /// Of the run, the seconds the rank was ready to run but waited for a core
        /// ([`crate::cpus::queued_seconds`]); NaN where the system does not say.
        pub seconds_queued: f64,
        pub simd: Simd,
        pub host: RankHost,
        /// The GPU it computed on, and what it did there (the CPU engines': zeros).
        pub device: RankDevice,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comm::words::tests::{host, words};
    use crate::comm::words::Words;

    /// The words in the order every rank of a pairs run expects them: the fields', in order,
    /// each second its bits, the kernel its number (AVX-512, AVX2, portable), the host last.
    #[test]
    fn a_pairs_records_words_keep_their_order() {
        let (host, host_words) = host();
        let record = RankPairs {
            jobs: 1,
            pairs: 2,
            word_steps: 3,
            cells: 4,
            estimated_ps: 5,
            control: Control {
                sent: 6,
                sent_bytes: 7,
                received: 8,
                received_bytes: 9,
            },
            peak_rss_bytes: 10,
            memory_estimate_bytes: 11,
            passing: 12,
            spilled: 13,
            seconds_compute: 14.0,
            seconds_deliver: 15.0,
            seconds_queued: 16.0,
            simd: Simd::Avx512,
            host,
            device: RankDevice::default(),
        };
        let mut expected: Vec<u64> = (1..=13).collect();
        expected.extend((14..=16).map(|s| f64::to_bits(s as f64)));
        expected.push(0);
        expected.extend(host_words);
        expected.extend(words(&RankDevice::default()));
        assert_eq!(words(&record), expected);
        assert_eq!(RankPairs::take(&expected), record);
    }
}
