//! What one rank of a search did, as one fixed-size record that rank 0 gathers
//! ([`crate::comm::stats::gather_varcount`]): its part of the text and of the patterns, what it
//! scanned and found, its control messages, its memory, its seconds, its kernel and its host.
//! The record's fields are its words, in order (`record!`, [`crate::comm::words`]).

use lcs_core::search::lanes::Simd;

use crate::comm::traffic::Control;
use crate::comm::words::{record, RankHost};
use crate::engines::device::RankDevice;

record! {
    /// What one rank of a search did, as one fixed-size record.
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
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
        pub control: Control,
        pub peak_rss_bytes: u64,
        pub memory_estimate_bytes: u64,
        /// Seconds summarising the range (FASTA), scanning it (reading included) and, of that,
        /// locating starts.
        pub seconds_summary: f64,
        pub seconds_scan: f64,
        pub seconds_starts: f64,
        /// Of the run, the seconds the rank was ready to run but waited for a core
        /// ([`crate::cpus::queued_seconds`]); NaN where the system does not say.
        pub seconds_queued: f64,
        pub simd: Simd,
        pub host: RankHost,
        /// DP cells of its scan: the text bytes it scanned times its patterns' bytes.
        pub cells: u64,
        /// Slices of its scan whose ends the sieve chose (its patterns all taking it), and
        /// slices computed whole (grams too many there).
        pub sieved: u64,
        pub whole: u64,
        /// The GPU it scanned on, and what it did there (the CPU engines': zeros).
        pub device: RankDevice,
        /// Bytes of its part it handed to other ranks, and of theirs it took
        /// (`--split shared`).
        pub given: u64,
        pub taken: u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comm::words::tests::{host, words};
    use crate::comm::words::Words;

    /// The words in the order every rank of a search expects them: the fields', in order, each
    /// second its bits, the kernel its number (AVX-512, AVX2, portable), the host last.
    #[test]
    fn a_search_records_words_keep_their_order() {
        let (host, host_words) = host();
        let record = RankSearch {
            text_start: 1,
            text_end: 2,
            units: 3,
            patterns: 4,
            scanned: 5,
            warm_up: 6,
            matches: 7,
            control: Control {
                sent: 8,
                sent_bytes: 9,
                received: 10,
                received_bytes: 11,
            },
            peak_rss_bytes: 12,
            memory_estimate_bytes: 13,
            seconds_summary: 14.0,
            seconds_scan: 15.0,
            seconds_starts: 16.0,
            seconds_queued: 17.0,
            simd: Simd::Avx2,
            host,
            cells: 17,
            sieved: 18,
            whole: 19,
            device: RankDevice::default(),
            given: 20,
            taken: 21,
        };
        let mut expected: Vec<u64> = (1..=13).collect();
        expected.extend((14..=17).map(|s| f64::to_bits(s as f64)));
        expected.push(1);
        expected.extend(host_words);
        expected.extend([17, 18, 19]);
        expected.extend(words(&RankDevice::default()));
        expected.extend([20, 21]);
        assert_eq!(words(&record), expected);
        assert_eq!(RankSearch::take(&expected), record);
        let blank = words(&RankSearch::default());
        assert_eq!(blank[17], 2, "a blank record's kernel is the portable one");
    }
}
