//! What a pairs run found, as it leaves the program: the TSV of pairs, the `.npy` matrix
//! ([`crate::npy`]), and one report model ([`PairsReport`]) for the JSON report, the CSV row
//! of a result set ([`PairsRow`]) and the summary.
//!
//! # The TSV
//!
//! A header line, `query\ttarget\tdistance` (the LCS: `lcs_length`), then one line per pair:
//! the query's name, the target's name (a FASTA record's first word, else its number counted
//! from 1; a line's number in the plain format) and the value, in query then target order.
//! All against all, the pairs `i < j` of the one file, `i` first. With a bound only the pairs
//! that pass it: at most `--max-edits`, at least `--min-length`.
//!
//! # Result sets
//!
//! Pairs rows have a result set of their own, as search rows do (see `matches`): none of a
//! `solve` row's columns but the provenance, and columns `solve` has not (the files' sizes,
//! the pairs, the bound, the balance); `table` and `plot` refuse such a file by name.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::comm::traffic::PerKind;
use crate::engines::device::RankDevice;
use crate::engines::pairs::assemble::Kept;
use crate::engines::pairs::record::RankPairs;
use crate::engines::pairs::run::Computed;
use crate::input::sequences::Sequences;
use crate::input::Format;
use crate::matches::Lengths;
use crate::provenance::Provenance;
use crate::report::device::DeviceLine;
use crate::report::host_columns::host_columns;
use crate::report::text::{plural, thousands};
use lcs_core::pairs::plan::Side;
use lcs_core::problem::Problem;
use lcs_core::search::lanes::Simd;

/// The TSV's header line (without its newline) for `problem`.
pub fn tsv_header(problem: Problem) -> &'static str {
    match problem {
        Problem::Edit => "query\ttarget\tdistance",
        Problem::Lcs => "query\ttarget\tlcs_length",
    }
}

/// Appends `v` in decimal.
fn decimal(out: &mut Vec<u8>, mut v: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// Writes the TSV of `computed`'s pairs to `out` (see the module doc).
pub fn write_tsv(out: &mut dyn Write, computed: &Computed) -> io::Result<()> {
    writeln!(out, "{}", tsv_header(computed.plan.ask.problem))?;
    let queries = &computed.queries.names;
    let targets = &computed.targets.as_ref().unwrap_or(&computed.queries).names;
    let mut buffer: Vec<u8> = Vec::with_capacity(1 << 17);
    let mut line = |a: usize, b: usize, v: u32, out: &mut dyn Write| -> io::Result<()> {
        buffer.extend_from_slice(&queries[a]);
        buffer.push(b'\t');
        buffer.extend_from_slice(&targets[b]);
        buffer.push(b'\t');
        decimal(&mut buffer, v);
        buffer.push(b'\n');
        if buffer.len() >= 1 << 16 {
            out.write_all(&buffer)?;
            buffer.clear();
        }
        Ok(())
    };
    match &computed.kept {
        Kept::Passing(pairs) => {
            pairs.for_each_sorted(|[a, b, v]| line(a as usize, b as usize, v, out))?;
        }
        Kept::Matrix(dense) => {
            let all = computed.plan.ask.all_against_all;
            let mut row = Vec::with_capacity(dense.cols);
            for a in 0..dense.rows {
                dense.row(a, &mut row);
                let first = if all { a + 1 } else { 0 };
                for (b, &v) in row.iter().enumerate().skip(first) {
                    if computed.plan.ask.passes(v) {
                        line(a, b, v, out)?;
                    }
                }
            }
        }
    }
    out.write_all(&buffer)
}

/// Writes `computed`'s dense matrix as a `.npy` file to `out`, a row at a time in the files'
/// order.
pub fn write_npy(out: &mut dyn Write, computed: &Computed) -> io::Result<()> {
    let Kept::Matrix(dense) = &computed.kept else {
        return Err(io::Error::other("a .npy file needs the dense matrix"));
    };
    crate::npy::write_rows(out, dense.rows, dense.cols, |q, row| dense.row(q, row))
}

/// One rank's line in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankLine {
    pub rank: usize,
    pub host: String,
    pub kernel: Simd,
    /// Its jobs (a unit's run of targets) and the pairs they computed.
    pub jobs: u64,
    pub pairs: u64,
    pub word_steps: u64,
    pub cells: u64,
    /// The plan's estimate of its share, as a fraction of the whole.
    pub estimated_share: f64,
    pub sent: PerKind,
    pub received: PerKind,
    pub sent_bytes: PerKind,
    pub received_bytes: PerKind,
    pub seconds_compute: f64,
    pub seconds_deliver: f64,
    /// Of the run, the seconds the rank was ready to run but waited for a core that another
    /// process or rank held (the kernel's run delay); null where the system does not say.
    pub seconds_queued: Option<f64>,
    pub peak_rss_bytes: u64,
    /// What the memory pre-check expected the rank to occupy at its peak (with a bound and a
    /// TSV, with the least buffer of pairs within it: the buffer grows with the pairs found,
    /// up to what the limit leaves, and what passes that is spilled to disk).
    pub memory_estimate_bytes: u64,
    /// With a bound and a TSV: the pairs within it the rank found, and the pairs it wrote to
    /// disk (rank 0: its own and those it received, merged back in order as they are written).
    pub passing: u64,
    pub spilled: u64,
    /// `cpu`, or the device it computed on; and the seconds its kernels and copies took there.
    pub device: String,
    pub seconds_kernel: f64,
    pub seconds_transfer: f64,
}

/// Wall-clock seconds: `total` on rank 0 from the start of the run (reading the files,
/// sharing them, planning, computing, gathering the values) until it holds every value,
/// without the launcher's start-up or the writing after; `input` of that the files' reading
/// and sharing; `compute` the slowest rank's share; `deliver` rank 0's wait for and placing of
/// the other ranks' values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Seconds {
    pub total: f64,
    pub input: f64,
    pub compute: f64,
    pub deliver: f64,
}

/// How many units of the plan run one kernel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitCount {
    pub kernel: String,
    pub units: usize,
}

/// A file of sequences in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SetLine {
    pub file: String,
    pub format: Format,
    pub sequences: usize,
    pub lengths: Lengths,
}

impl SetLine {
    fn new(file: String, set: &Sequences) -> SetLine {
        let lens: Vec<usize> = set.sequences.iter().map(Vec::len).collect();
        SetLine {
            file,
            format: set.format,
            sequences: lens.len(),
            lengths: Lengths {
                min: lens.iter().copied().min().unwrap_or(0),
                max: lens.iter().copied().max().unwrap_or(0),
                total: lens.iter().sum(),
            },
        }
    }
}

/// The full report of a pairs run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairsReport {
    #[serde(flatten)]
    pub run: Provenance,
    /// Always `pairs`: what tells this report from `solve`'s and `search`'s.
    pub command: &'static str,
    pub problem: Problem,
    pub queries: SetLine,
    /// `None` all against all.
    pub targets: Option<SetLine>,
    pub all_against_all: bool,
    pub max_edits: Option<usize>,
    pub min_length: Option<usize>,
    /// `tsv` or `npy`.
    pub output: &'static str,
    /// The run's pairs: `|Q| |T|`, or `N (N - 1) / 2`.
    pub pairs: u64,
    /// Pairs a kernel computed (the others ruled out by the bound without a step).
    pub pairs_computed: u64,
    /// Pairs that pass the bound (every pair without one).
    pub pairs_within: u64,
    /// Which file's sequences sat in lanes.
    pub lane_side: Side,
    /// The units of the plan by kernel (`lanes 64x2`, `band 64`, `rows`), with their counts.
    pub units: Vec<UnitCount>,
    pub word_steps: u64,
    pub cells: u64,
    pub ranks: usize,
    pub kernel: Simd,
    /// Messages sent, per kind, summed over the ranks: each rank's values delivered to rank 0
    /// (`control`); `predicted` from the plan when rank 0 keeps the dense matrix.
    pub messages: PerKind,
    pub predicted_messages: Option<u64>,
    pub bytes: PerKind,
    /// The slowest rank's compute seconds over the mean's.
    pub balance: f64,
    pub per_rank: Vec<RankLine>,
    pub seconds: Seconds,
    /// Pairs per second and DP cells per second (billions) of `seconds.total`.
    pub pairs_per_second: f64,
    pub gcups: f64,
    /// Where the kernels ran, and what the devices did.
    pub device: DeviceLine,
}

impl PairsReport {
    /// The report of `computed`, from the provenance `run`, the files as named and the output's
    /// form.
    pub fn new(
        run: Provenance,
        files: (String, Option<String>),
        output: &'static str,
        computed: &Computed,
    ) -> PairsReport {
        let plan = &computed.plan;
        let total_estimate = plan.total().max(1) as f64;
        let per_rank: Vec<RankLine> = computed
            .ranks
            .iter()
            .enumerate()
            .map(|(rank, s): (usize, &RankPairs)| RankLine {
                rank,
                host: s.host.info().name,
                kernel: s.simd,
                jobs: s.jobs,
                pairs: s.pairs,
                word_steps: s.word_steps,
                cells: s.cells,
                estimated_share: s.estimated_ps as f64 / total_estimate,
                sent: PerKind::control(s.control.sent),
                received: PerKind::control(s.control.received),
                sent_bytes: PerKind::control(s.control.sent_bytes),
                received_bytes: PerKind::control(s.control.received_bytes),
                seconds_compute: s.seconds_compute,
                seconds_deliver: s.seconds_deliver,
                seconds_queued: crate::report::queued::queued_of(s.seconds_queued),
                peak_rss_bytes: s.peak_rss_bytes,
                memory_estimate_bytes: s.memory_estimate_bytes,
                passing: s.passing,
                spilled: s.spilled,
                device: s.device.name().unwrap_or_else(|| "cpu".into()),
                seconds_kernel: s.device.seconds_kernel,
                seconds_transfer: s.device.seconds_transfer,
            })
            .collect();
        let devices: Vec<RankDevice> = computed.ranks.iter().map(|r| r.device).collect();
        let computes: Vec<f64> = per_rank.iter().map(|r| r.seconds_compute).collect();
        let slowest = computes.iter().copied().fold(0.0, f64::max);
        let mean = computes.iter().sum::<f64>() / computes.len().max(1) as f64;
        let mut units: Vec<UnitCount> = Vec::new();
        for unit in &plan.units {
            let kernel = unit.kind.name();
            match units.iter_mut().find(|c| c.kernel == kernel) {
                Some(count) => count.units += 1,
                None => units.push(UnitCount { kernel, units: 1 }),
            }
        }
        let ask = plan.ask;
        let pairs_within = match &computed.kept {
            Kept::Passing(pairs) => pairs.count(),
            Kept::Matrix(dense) => {
                let all = ask.all_against_all;
                let mut row = Vec::with_capacity(dense.cols);
                (0..dense.rows)
                    .map(|a| {
                        dense.row(a, &mut row);
                        let first = if all { a + 1 } else { 0 };
                        row[first.min(row.len())..]
                            .iter()
                            .filter(|&&v| ask.passes(v))
                            .count() as u64
                    })
                    .sum()
            }
        };
        let total = computed.seconds_total;
        let cells: u64 = per_rank.iter().map(|r| r.cells).sum();
        let pairs = plan.pairs();
        let (max_edits, min_length) = match ask.problem {
            Problem::Edit => (ask.bound, None),
            Problem::Lcs => (None, ask.bound),
        };
        PairsReport {
            run,
            command: "pairs",
            problem: ask.problem,
            queries: SetLine::new(files.0, &computed.queries),
            targets: computed
                .targets
                .as_ref()
                .map(|t| SetLine::new(files.1.unwrap_or_default(), t)),
            all_against_all: ask.all_against_all,
            max_edits,
            min_length,
            output,
            pairs,
            pairs_computed: per_rank.iter().map(|r| r.pairs).sum(),
            pairs_within,
            lane_side: plan.lane_side,
            units,
            word_steps: per_rank.iter().map(|r| r.word_steps).sum(),
            cells,
            ranks: per_rank.len(),
            kernel: per_rank.first().map_or(Simd::Portable, |r| r.kernel),
            messages: PerKind::sum(per_rank.iter().map(|r| &r.sent)),
            predicted_messages: computed.predicted_messages,
            bytes: PerKind::sum(per_rank.iter().map(|r| &r.sent_bytes)),
            balance: if mean > 0.0 { slowest / mean } else { 1.0 },
            per_rank,
            seconds: Seconds {
                total,
                input: computed.seconds_input,
                compute: slowest,
                deliver: computed.ranks.first().map_or(0.0, |r| r.seconds_deliver),
            },
            pairs_per_second: if total > 0.0 {
                pairs as f64 / total
            } else {
                0.0
            },
            gcups: if total > 0.0 {
                cells as f64 / total / 1e9
            } else {
                0.0
            },
            device: DeviceLine::new(computed.placement, &devices, cells, slowest),
        }
    }

    /// The report as one row of a pairs result set.
    pub fn row(&self) -> PairsRow {
        let r = &self.run;
        let targets = self.targets.as_ref();
        host_columns!(PairsRow {
            timestamp: r.timestamp.clone(),
            commit: r.commit.clone(),
            version: r.version.clone(),
            command: self.command.to_owned(),
            problem: self.problem.to_string(),
            queries_file: self.queries.file.clone(),
            targets_file: targets.map(|t| t.file.clone()).unwrap_or_default(),
            queries: self.queries.sequences,
            targets: targets.map_or(0, |t| t.sequences),
            length_min: targets.map_or(self.queries.lengths.min, |t| {
                t.lengths.min.min(self.queries.lengths.min)
            }),
            length_max: targets.map_or(self.queries.lengths.max, |t| {
                t.lengths.max.max(self.queries.lengths.max)
            }),
            all_against_all: self.all_against_all,
            max_edits: self.max_edits.map(|k| k.to_string()).unwrap_or_default(),
            min_length: self.min_length.map(|l| l.to_string()).unwrap_or_default(),
            output: self.output.to_owned(),
            ranks: self.ranks,
            kernel: self.kernel.name().to_owned(),
            device: self.device.label(),
            pairs: self.pairs,
            pairs_computed: self.pairs_computed,
            pairs_within: self.pairs_within,
            word_steps: self.word_steps,
            cells: self.cells,
            messages_control: self.messages.control,
            bytes_control: self.bytes.control,
            balance: self.balance,
            seconds_total: self.seconds.total,
            seconds_compute: self.seconds.compute,
            pairs_per_second: self.pairs_per_second,
            max_peak_rss_bytes: self
                .per_rank
                .iter()
                .map(|l| l.peak_rss_bytes)
                .max()
                .unwrap_or(0),
        } of r)
    }

    /// The human summary (what `pairs --out` prints; without `--out` standard output carries
    /// the TSV alone).
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let q = &self.queries;
        let sets = match &self.targets {
            None => format!(
                "{} ({}), all against all",
                plural(q.sequences as u64, "sequence", "sequences"),
                q.lengths.bytes()
            ),
            Some(t) => format!(
                "{} ({}) x {} ({})",
                plural(q.sequences as u64, "query", "queries"),
                q.lengths.bytes(),
                plural(t.sequences as u64, "target", "targets"),
                t.lengths.bytes()
            ),
        };
        let what = match self.problem {
            Problem::Edit => "edit distance",
            Problem::Lcs => "LCS length",
        };
        let bound = match (self.max_edits, self.min_length) {
            (Some(k), _) => format!(
                "; {} within {}",
                plural(self.pairs_within, "pair", "pairs"),
                plural(k as u64, "edit", "edits")
            ),
            (_, Some(l)) => format!(
                "; {} of at least {l}",
                plural(self.pairs_within, "pair", "pairs")
            ),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "{sets}: {}, {what}{bound}",
            plural(self.pairs, "pair", "pairs")
        );
        let units: Vec<String> = self
            .units
            .iter()
            .map(|c| format!("{} {}", thousands(c.units as u64), c.kernel))
            .collect();
        let _ = writeln!(
            s,
            "{}, kernel {}: the {} in lanes; units {}; balance {:.2} (slowest / mean)",
            plural(self.ranks as u64, "rank", "ranks"),
            self.kernel.name(),
            match self.lane_side {
                Side::Queries if self.all_against_all => "sequences",
                Side::Queries => "queries",
                Side::Targets => "targets",
            },
            units.join(", "),
            self.balance
        );
        if let Some(line) = self.device.summary(self.ranks) {
            let _ = writeln!(s, "{line}");
        }
        let _ = writeln!(
            s,
            "messages: control {} ({} bytes): each rank's values delivered to rank 0{}",
            self.messages.control,
            thousands(self.bytes.control),
            match self.predicted_messages {
                Some(p) => format!(" (predicted {p})"),
                None => String::new(),
            }
        );
        let spilled: Vec<String> = (self.per_rank.iter())
            .filter(|r| r.spilled > 0)
            .map(|r| format!("p{} {}", r.rank, thousands(r.spilled)))
            .collect();
        if !spilled.is_empty() {
            let _ = writeln!(
                s,
                "spilled to disk: {} pairs within the bound, beyond what the memory limit \
                 keeps",
                spilled.join(", ")
            );
        }
        let peak = self.per_rank.iter().map(|r| r.peak_rss_bytes).max();
        let _ = writeln!(
            s,
            "seconds: total {:.6} (input {:.6}, compute {:.6}, deliver {:.6}); {:.3} M pairs/s, \
             {:.2} GCUPS; peak RSS per rank up to {}",
            self.seconds.total,
            self.seconds.input,
            self.seconds.compute,
            self.seconds.deliver,
            self.pairs_per_second / 1e6,
            self.gcups,
            crate::mem::human(peak.unwrap_or(0))
        );
        let _ = writeln!(
            s,
            "per rank: pairs, word steps, estimated share, compute s:"
        );
        for r in &self.per_rank {
            let _ = writeln!(
                s,
                "  p{}  {}  {}  {:.3}  {:.6}",
                r.rank,
                thousands(r.pairs),
                thousands(r.word_steps),
                r.estimated_share,
                r.seconds_compute
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
    /// One pairs run as one row of a pairs result set (see the module doc).
    #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
    pub struct PairsRow {
        pub timestamp: String,
        pub commit: String,
        pub version: String,
        /// Always `pairs`.
        pub command: String,
        pub problem: String,
        pub queries_file: String,
        /// Empty all against all.
        pub targets_file: String,
        pub queries: usize,
        pub targets: usize,
        pub length_min: usize,
        pub length_max: usize,
        pub all_against_all: bool,
        /// Empty without the bound.
        pub max_edits: String,
        pub min_length: String,
        pub output: String,
        pub ranks: usize,
        pub kernel: String,
        /// `cpu`, or the GPU the ranks computed on (`NAME (BACKEND GPU)`).
        pub device: String,
        pub pairs: u64,
        pub pairs_computed: u64,
        pub pairs_within: u64,
        pub word_steps: u64,
        pub cells: u64,
        pub messages_control: u64,
        pub bytes_control: u64,
        pub balance: f64,
        pub seconds_total: f64,
        pub seconds_compute: f64,
        pub pairs_per_second: f64,
        pub max_peak_rss_bytes: u64,
    }
}

impl PairsRow {
    /// The CSV header line (without its newline), derived from the struct.
    pub fn header() -> String {
        crate::report::text::csv_header::<PairsRow>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::SearchRow;
    use crate::report::row::Row;

    #[test]
    fn pairs_rows_have_the_provenance_columns_and_a_header_of_their_own() {
        let pairs = PairsRow::header();
        assert_ne!(pairs, Row::header());
        assert_ne!(pairs, SearchRow::header());
        let columns: Vec<&str> = pairs.split(',').collect();
        for provenance in [
            "timestamp",
            "commit",
            "host",
            "cores",
            "launcher",
            "mpi_library",
        ] {
            assert!(columns.contains(&provenance), "{provenance} in {pairs}");
        }
    }

    #[test]
    fn decimals() {
        for v in [0, 7, 10, 4_294_967_295] {
            let mut out = Vec::new();
            decimal(&mut out, v);
            assert_eq!(out, v.to_string().into_bytes());
        }
    }
}
