//! What a search found, as it leaves the program: the TSV of matches (a header line, then one line
//! per match sorted by pattern, record and end: `pattern`, `record`, `start`, `end` exclusive,
//! `distance`; on both strands a last column, `strand`, and each pattern's `+` lines before its
//! `-` lines), and one report model ([`SearchReport`]) for the JSON report, the row of a result
//! set of search runs ([`SearchRow`], in a file of its own: a search has none of the columns `table`
//! and `plot` compare `solve` runs by) and the summary. Every column, and why search rows live
//! apart: `docs/search.md#what-is-printed-and-written`.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::comm::traffic::PerKind;
use crate::engines::device::RankDevice;
use crate::engines::search::record::RankSearch;
use crate::engines::search::run::Searched;
use crate::engines::search::strands;
use crate::input::Format;
use crate::provenance::Provenance;
use crate::report::device::DeviceLine;
use crate::report::host_columns::host_columns;
use crate::report::text::{plural, thousands};
use lcs_core::search::chunks::Grid;
use lcs_core::search::lanes::Simd;
use lcs_core::search::Packed;

/// The TSV's header line (without its newline).
pub const TSV_HEADER: &str = "pattern\trecord\tstart\tend\tdistance";
/// The column a search on both strands adds to [`TSV_HEADER`], last.
pub const TSV_STRAND: &str = "strand";

/// Writes the TSV of `searched`'s matches to `out` (see the module doc).
pub fn write_tsv(out: &mut dyn Write, searched: &Searched) -> io::Result<()> {
    let both = searched.strands == 2;
    match both {
        true => writeln!(out, "{TSV_HEADER}\t{TSV_STRAND}")?,
        false => writeln!(out, "{TSV_HEADER}")?,
    }
    let plain = searched.text.format == Format::Plain;
    let mut name: Vec<u8> = Vec::new();
    let mut named: Option<u64> = None;
    for m in searched.matches.iter().map(Packed::unpack) {
        if !plain && named != Some(m.record) {
            name.clear();
            match searched.names.get(&m.record) {
                Some(n) if !n.is_empty() => name.extend_from_slice(n),
                _ => name.extend((m.record + 1).to_string().bytes()),
            }
            named = Some(m.record);
        }
        let (pattern, strand) = strands::of_searched(m.pattern, searched.strands);
        write!(out, "{pattern}\t")?;
        out.write_all(if plain { b"-" } else { &name })?;
        write!(out, "\t{}\t{}\t{}", m.start, m.end, m.distance)?;
        match both {
            true => writeln!(out, "\t{strand}")?,
            false => writeln!(out)?,
        }
    }
    Ok(())
}

/// The lengths of the patterns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Lengths {
    pub min: usize,
    pub max: usize,
    pub total: usize,
}

impl Lengths {
    /// The lengths as a summary says them: `8 bytes`, `3 to 12 bytes`.
    pub fn bytes(&self) -> String {
        match self.min == self.max {
            true => format!("{} bytes", self.min),
            false => format!("{} to {} bytes", self.min, self.max),
        }
    }
}

/// One rank's line in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankLine {
    pub rank: usize,
    pub host: String,
    pub kernel: Simd,
    /// The rank's text range, file offsets `[start, end)`.
    pub text_start: u64,
    pub text_end: u64,
    /// Its patterns, in units (vectors of lanes, or one long pattern).
    pub patterns: u64,
    pub units: u64,
    /// Text bytes scanned: the range's sequence bytes and the warm-up before them.
    pub bytes_scanned: u64,
    pub warm_up_bytes: u64,
    pub matches: u64,
    pub sent: PerKind,
    pub received: PerKind,
    pub sent_bytes: PerKind,
    pub received_bytes: PerKind,
    pub seconds_summary: f64,
    pub seconds_scan: f64,
    pub seconds_starts: f64,
    /// Of the run, the seconds the rank was ready to run but waited for a core that another
    /// process or rank held (the kernel's run delay); null where the system does not say.
    pub seconds_queued: Option<f64>,
    pub peak_rss_bytes: u64,
    /// What the memory pre-check expected the rank to occupy at its peak.
    pub memory_estimate_bytes: u64,
    /// `cpu`, or the device it scanned on; and the seconds its kernels and copies took there.
    pub device: String,
    pub seconds_kernel: f64,
    pub seconds_transfer: f64,
    /// Slices (64 KiB) of the scan whose ends the sieve chose, and slices computed whole
    /// because grams were too many there; both 0 where the patterns do not take the sieve.
    pub slices_sieved: u64,
    pub slices_whole: u64,
    /// Bytes of its part it handed to other ranks, and of theirs it took (`split` `shared`).
    pub bytes_given: u64,
    pub bytes_taken: u64,
}

/// Wall-clock seconds: `total` on rank 0 from the start of the run (reading the patterns,
/// checking the text, planning, scanning, gathering the matches) until it holds every match,
/// without the launcher's start-up or the writing after; `scan` and `starts` are the slowest
/// rank's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Seconds {
    pub total: f64,
    pub scan: f64,
    pub starts: f64,
}

/// The full report of a search.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchReport {
    #[serde(flatten)]
    pub run: Provenance,
    /// Always `search`: what tells this report from `solve`'s.
    pub problem: &'static str,
    pub patterns_file: String,
    pub patterns_format: Format,
    pub text: String,
    pub text_format: Format,
    /// The text's sequence bytes (what is searched: without headers and line endings).
    pub text_bytes: u64,
    /// The text file's size.
    pub text_file_bytes: u64,
    /// The patterns of the file (`pattern_lengths` and `matches_per_pattern` count them too).
    pub patterns: usize,
    /// 1, or 2 when each pattern was searched as given and as its reverse complement
    /// (`--both-strands`): `matches` then counts both strands' matches.
    pub strands: usize,
    /// When a pattern byte matched a text byte: `exact` or `iupac` (`--alphabet`).
    pub alphabet: &'static str,
    pub pattern_lengths: Lengths,
    pub max_edits: usize,
    pub ranks: usize,
    pub grid: Grid,
    /// How the ranks split the text: `shared` where ranks took what others had not scanned
    /// yet as they went (`--split`), else `static`.
    pub split: &'static str,
    pub matches: usize,
    /// Matches of each pattern, by number (on both strands, the two strands' together).
    pub matches_per_pattern: Vec<usize>,
    /// Messages sent, per kind, summed over the ranks: each rank's matches delivered to rank 0,
    /// and the asks for text and their answers of a shared split (`control`).
    pub messages: PerKind,
    pub bytes: PerKind,
    pub per_rank: Vec<RankLine>,
    pub seconds: Seconds,
    /// Text bytes per second of `seconds.total`, in millions.
    pub throughput_mb_s: f64,
    /// The DP cells of the scans (text bytes scanned times patterns' bytes, over the ranks).
    pub cells: u64,
    /// Where the kernels ran, and what the devices did.
    pub device: DeviceLine,
}

impl SearchReport {
    /// The report of `searched`, from the provenance `run` and the files as named.
    pub fn new(
        run: Provenance,
        patterns_file: String,
        text: String,
        searched: &Searched,
    ) -> SearchReport {
        let lengths: Vec<usize> = searched.patterns.iter().map(Vec::len).collect();
        let mut per_pattern = vec![0usize; lengths.len()];
        for m in &searched.matches {
            per_pattern[strands::of_searched(m.pattern(), searched.strands).0] += 1;
        }
        let grid = searched.grid;
        // The text's bytes: what the ranks of one pattern part scanned, less their warm-ups.
        let text_bytes: u64 = searched
            .ranks
            .iter()
            .enumerate()
            .filter(|(r, _)| grid.pattern_part(*r) == 0)
            .map(|(_, s)| s.scanned - s.warm_up)
            .sum();
        let per_rank: Vec<RankLine> = searched
            .ranks
            .iter()
            .enumerate()
            .map(|(rank, s): (usize, &RankSearch)| RankLine {
                rank,
                host: s.host.info().name,
                kernel: s.simd,
                text_start: s.text_start,
                text_end: s.text_end,
                patterns: s.patterns,
                units: s.units,
                bytes_scanned: s.scanned,
                warm_up_bytes: s.warm_up,
                matches: s.matches,
                sent: PerKind::control(s.control.sent),
                received: PerKind::control(s.control.received),
                sent_bytes: PerKind::control(s.control.sent_bytes),
                received_bytes: PerKind::control(s.control.received_bytes),
                seconds_summary: s.seconds_summary,
                seconds_scan: s.seconds_scan,
                seconds_starts: s.seconds_starts,
                seconds_queued: crate::report::queued::queued_of(s.seconds_queued),
                peak_rss_bytes: s.peak_rss_bytes,
                memory_estimate_bytes: s.memory_estimate_bytes,
                device: s.device.name().unwrap_or_else(|| "cpu".into()),
                seconds_kernel: s.device.seconds_kernel,
                seconds_transfer: s.device.seconds_transfer,
                slices_sieved: s.sieved,
                slices_whole: s.whole,
                bytes_given: s.given,
                bytes_taken: s.taken,
            })
            .collect();
        let slowest = |f: fn(&RankSearch) -> f64| searched.ranks.iter().map(f).fold(0.0, f64::max);
        let devices: Vec<RankDevice> = searched.ranks.iter().map(|r| r.device).collect();
        let cells = searched.ranks.iter().map(|r| r.cells).sum();
        let total = searched.seconds_total;
        SearchReport {
            run,
            problem: "search",
            patterns_file,
            patterns_format: searched.patterns_format,
            text,
            text_format: searched.text.format,
            text_bytes,
            text_file_bytes: searched.text.size,
            patterns: lengths.len(),
            strands: searched.strands,
            alphabet: searched.alphabet.name(),
            pattern_lengths: Lengths {
                min: lengths.iter().copied().min().unwrap_or(0),
                max: lengths.iter().copied().max().unwrap_or(0),
                total: lengths.iter().sum(),
            },
            max_edits: searched.k,
            ranks: searched.ranks.len(),
            grid,
            split: searched.split.name(),
            matches: searched.matches.len(),
            matches_per_pattern: per_pattern,
            messages: PerKind::sum(per_rank.iter().map(|r| &r.sent)),
            bytes: PerKind::sum(per_rank.iter().map(|r| &r.sent_bytes)),
            per_rank,
            seconds: Seconds {
                total,
                scan: slowest(|s| s.seconds_scan),
                starts: slowest(|s| s.seconds_starts),
            },
            throughput_mb_s: if total > 0.0 {
                text_bytes as f64 / total / 1e6
            } else {
                0.0
            },
            cells,
            device: DeviceLine::new(
                searched.placement,
                &devices,
                cells,
                slowest(|s| s.seconds_scan),
            ),
        }
    }

    /// The report as one row of a search result set.
    pub fn row(&self) -> SearchRow {
        let r = &self.run;
        host_columns!(SearchRow {
            timestamp: r.timestamp.clone(),
            commit: r.commit.clone(),
            version: r.version.clone(),
            problem: self.problem.to_owned(),
            patterns_file: self.patterns_file.clone(),
            text: self.text.clone(),
            text_bytes: self.text_bytes,
            patterns: self.patterns,
            pattern_min: self.pattern_lengths.min,
            pattern_max: self.pattern_lengths.max,
            max_edits: self.max_edits,
            ranks: self.ranks,
            text_parts: self.grid.text_parts,
            pattern_parts: self.grid.pattern_parts,
            kernel: self
                .per_rank
                .first()
                .map_or("", |l| l.kernel.name())
                .to_owned(),
            device: self.device.label(),
            matches: self.matches as u64,
            messages_control: self.messages.control,
            bytes_control: self.bytes.control,
            seconds_total: self.seconds.total,
            seconds_scan: self.seconds.scan,
            seconds_starts: self.seconds.starts,
            throughput_mb_s: self.throughput_mb_s,
            max_peak_rss_bytes: self
                .per_rank
                .iter()
                .map(|l| l.peak_rss_bytes)
                .max()
                .unwrap_or(0),
        } of r)
    }

    /// The human summary (what `search --out` prints; without `--out` standard output carries
    /// the TSV alone).
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let lengths = self.pattern_lengths.bytes();
        let strands = match self.strands {
            1 => "",
            _ => ", both strands",
        };
        let strands = match self.alphabet {
            "exact" => strands.to_owned(),
            alphabet => format!("{strands}, {alphabet} alphabet"),
        };
        let _ = writeln!(
            s,
            "{} ({lengths}){strands}, at most {} in {} bytes of {} text: {}",
            plural(self.patterns as u64, "pattern", "patterns"),
            plural(self.max_edits as u64, "edit", "edits"),
            thousands(self.text_bytes),
            match self.text_format {
                Format::Plain => "plain",
                Format::Fasta => "FASTA",
            },
            plural(self.matches as u64, "match", "matches"),
        );
        let kernel = self.per_rank.first().map_or("", |l| l.kernel.name());
        let sieved: u64 = self.per_rank.iter().map(|l| l.slices_sieved).sum();
        let whole: u64 = self.per_rank.iter().map(|l| l.slices_whole).sum();
        let sieve = match sieved + whole {
            0 => String::new(),
            all => format!(
                " behind the sieve ({} of {} computed whole)",
                thousands(whole),
                plural(all, "slice", "slices")
            ),
        };
        let shared = match self.split {
            "shared" => ", shared as they went",
            _ => "",
        };
        let _ = writeln!(
            s,
            "{}: the text in {} parts{shared}, the patterns in {}; kernel {kernel}{sieve}",
            plural(self.ranks as u64, "rank", "ranks"),
            self.grid.text_parts,
            self.grid.pattern_parts,
        );
        if let Some(line) = self.device.summary(self.ranks) {
            let _ = writeln!(s, "{line}");
        }
        let asks = match self.split {
            "shared" => ", and the asks for text and their answers",
            _ => "",
        };
        let _ = writeln!(
            s,
            "messages: control {} ({} bytes): each rank's matches delivered to rank 0{asks}",
            self.messages.control, self.bytes.control
        );
        let peak = self.per_rank.iter().map(|r| r.peak_rss_bytes).max();
        let _ = writeln!(
            s,
            "seconds: total {:.6}, scan {:.6} (starts {:.6}); {:.1} MB/s; peak RSS per rank up \
             to {}",
            self.seconds.total,
            self.seconds.scan,
            self.seconds.starts,
            self.throughput_mb_s,
            crate::mem::human(peak.unwrap_or(0))
        );
        let (given_taken, heading) = match self.split {
            "shared" => (true, ", bytes given, taken"),
            _ => (false, ""),
        };
        let _ = writeln!(
            s,
            "per rank: text range, bytes scanned (warm-up), matches, scan s{heading}:"
        );
        for r in &self.per_rank {
            let shared = match given_taken {
                true => format!("  {}  {}", r.bytes_given, r.bytes_taken),
                false => String::new(),
            };
            let _ = writeln!(
                s,
                "  p{}  [{}, {})  {} ({})  {}  {:.6}{shared}",
                r.rank,
                r.text_start,
                r.text_end,
                r.bytes_scanned,
                r.warm_up_bytes,
                r.matches,
                r.seconds_scan
            );
        }
        let queued = self.per_rank.iter().map(|r| (r.rank, r.seconds_queued));
        if let Some(line) = crate::report::queued::queued_line(self.seconds.total, queued) {
            let _ = writeln!(s, "{line}");
        }
        s
    }
}

host_columns! {
    /// One search as one row of a search result set (see the module doc).
    #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
    pub struct SearchRow {
        pub timestamp: String,
        pub commit: String,
        pub version: String,
        /// Always `search`.
        pub problem: String,
        pub patterns_file: String,
        pub text: String,
        pub text_bytes: u64,
        pub patterns: usize,
        pub pattern_min: usize,
        pub pattern_max: usize,
        pub max_edits: usize,
        pub ranks: usize,
        pub text_parts: usize,
        pub pattern_parts: usize,
        pub kernel: String,
        /// `cpu`, or the GPU the ranks scanned on (`NAME (BACKEND GPU)`).
        pub device: String,
        pub matches: u64,
        pub messages_control: u64,
        pub bytes_control: u64,
        pub seconds_total: f64,
        pub seconds_scan: f64,
        pub seconds_starts: f64,
        pub throughput_mb_s: f64,
        pub max_peak_rss_bytes: u64,
    }
}

impl SearchRow {
    /// The CSV header line (without its newline), derived from the struct.
    pub fn header() -> String {
        crate::report::text::csv_header::<SearchRow>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::row::Row;

    #[test]
    fn search_rows_have_the_provenance_columns_of_solve_rows_and_another_header() {
        let search = SearchRow::header();
        let solve = Row::header();
        assert_ne!(search, solve);
        let columns: Vec<&str> = search.split(',').collect();
        for provenance in [
            "timestamp",
            "commit",
            "version",
            "host",
            "hosts",
            "cpu",
            "cores",
            "ranks_per_host",
            "oversubscribed",
            "launcher",
            "mpi_library",
        ] {
            assert!(columns.contains(&provenance), "{provenance} in {search}");
            assert!(solve.split(',').any(|c| c == provenance));
        }
        assert_eq!(columns[3], "problem");
    }
}
