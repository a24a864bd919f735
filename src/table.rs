//! `mpi-lcs table`: result sets as Markdown, in the layout of the report's table (one line per
//! input, engine and store, the sequential reference beside the rank counts), then where the fill
//! time went, the measured messages against the prediction, a check that every run found the same
//! answer (LCS length or edit distance), where the ranks ran, and on what. The aggregation is
//! [`crate::runs::summarise`], as `plot`'s: medians with their range, † where a run was
//! oversubscribed. A result set that mixes commits, machines, launchers, MPI libraries or
//! placements is tabled under a warning saying so.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::report::row::Row;
use crate::report::text::thousands;
use crate::report::EngineKind;
use crate::runs::{mixtures, summarise, Config, Placement, Summary};
use lcs_core::problem::Problem;

/// The mark of an oversubscribed configuration.
pub const DAGGER: &str = "†";

/// The Markdown of `rows`.
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::new();
    let summaries = summarise(rows);
    let _ = writeln!(out, "# Results\n");
    let reps: BTreeSet<usize> = summaries.iter().map(|s| s.reps).collect();
    let reps = match (reps.first(), reps.last()) {
        (Some(1), Some(1)) => "one run per configuration".to_owned(),
        (Some(a), Some(b)) if a == b => format!("{a} runs per configuration"),
        (Some(a), Some(b)) => format!("{a}–{b} runs per configuration"),
        _ => "no runs".into(),
    };
    let _ = writeln!(
        out,
        "{} runs, {reps}. Each time is the median of `seconds_total` (rank 0, from start to \
         answer, without the launcher's start-up) with the range of the runs in brackets; \
         *sequential* is `mpi-lcs reference`.\n",
        rows.len()
    );
    for warning in mixtures(rows) {
        let _ = writeln!(
            out,
            "> **Warning:** {warning}; compare these rows with care.\n"
        );
    }
    time_table(&mut out, &summaries);
    breakdown_table(&mut out, &summaries);
    messages_table(&mut out, &summaries);
    lengths(&mut out, rows);
    placement(&mut out, &summaries);
    machine(&mut out, rows);
    out
}

/// Three significant digits in µs, ms or s.
pub fn human_seconds(s: f64) -> String {
    if s == 0.0 {
        return "0".into();
    }
    let (v, unit) = if s < 1e-3 {
        (s * 1e6, "µs")
    } else if s < 1.0 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    };
    let text = if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    format!("{text} {unit}")
}

fn time_cell(s: &Summary) -> String {
    let mark = if s.oversubscribed { DAGGER } else { "" };
    let t = s.seconds;
    if s.reps > 1 {
        format!(
            "{}{mark} ({}–{})",
            human_seconds(t.median),
            human_seconds(t.min),
            human_seconds(t.max)
        )
    } else {
        format!("{}{mark}", human_seconds(t.median))
    }
}

/// The cell of one series at one rank count: usually one configuration; when the result set
/// placed that rank count in more than one way, each with its placement.
fn cell(found: &[&Summary], text: impl Fn(&Summary) -> String) -> String {
    match found {
        [] => "—".into(),
        [one] => text(one),
        many => many
            .iter()
            .map(|s| format!("{} [{}]", text(s), s.config.placement))
            .collect::<Vec<_>>()
            .join(" / "),
    }
}

/// The series (input, engine, store) of the solved configurations, in order of appearance.
fn series(summaries: &[Summary]) -> Vec<(Config, &Summary)> {
    let mut lines: Vec<(Config, &Summary)> = Vec::new();
    for s in summaries
        .iter()
        .filter(|s| s.config.engine != EngineKind::Reference)
    {
        let key = s.config.series();
        if !lines.iter().any(|(k, _)| *k == key) {
            lines.push((key, s));
        }
    }
    lines
}

/// The summaries of `series` on `ranks` ranks.
fn at<'a>(summaries: &'a [Summary], series: &Config, ranks: usize) -> Vec<&'a Summary> {
    summaries
        .iter()
        .filter(|s| s.config.series() == *series && s.config.ranks == ranks)
        .collect()
}

fn rank_counts(summaries: &[Summary]) -> BTreeSet<usize> {
    summaries
        .iter()
        .filter(|s| s.config.engine != EngineKind::Reference)
        .map(|s| s.config.ranks)
        .collect()
}

fn time_table(out: &mut String, summaries: &[Summary]) {
    let ranks = rank_counts(summaries);
    let _ = writeln!(out, "## Time\n");
    let mut header = "| input | size | engine · store | sequential |".to_owned();
    let mut rule = "| --- | --- | --- | ---: |".to_owned();
    for p in &ranks {
        let _ = write!(header, " p = {p} |");
        rule += " ---: |";
    }
    let _ = writeln!(out, "{header}\n{rule}");
    for (key, first) in series(summaries) {
        let reference: Vec<&Summary> = summaries
            .iter()
            .filter(|s| key.compares_with(&s.config))
            .collect();
        let mut line = format!(
            "| {} | {} | {} | {} |",
            key.name(),
            first.size(),
            key.how(),
            cell(&reference, time_cell)
        );
        for &p in &ranks {
            let _ = write!(line, " {} |", cell(&at(summaries, &key, p), time_cell));
        }
        let _ = writeln!(out, "{line}");
    }
    let marked: BTreeSet<usize> = summaries
        .iter()
        .filter(|s| s.oversubscribed)
        .map(|s| s.config.ranks)
        .collect();
    if !marked.is_empty() {
        let ps: Vec<String> = marked.iter().map(|p| format!("p = {p}")).collect();
        let _ = writeln!(
            out,
            "\n{DAGGER} Oversubscribed ({}): a host ran more ranks than it has cores. The \
             ranks take turns on the cores, so these times measure the cost of the protocol \
             (messages, waiting), not parallel speed-up.",
            ps.join(", ")
        );
    }
    let _ = writeln!(out);
}

fn breakdown_table(out: &mut String, summaries: &[Summary]) {
    let _ = writeln!(
        out,
        "## Where the time goes\n\n\
         The fill of the busiest rank (the one whose fill took longest), split into computing \
         cells, waiting in receives and posting sends, and the traceback; medians over the \
         runs. The rest of `seconds_total` is reading and broadcasting the input and \
         allocating the store. *cells* are the cells the fills computed, over all ranks (a \
         diagonal band computes a fraction of the matrix), and *ns/cell* the fill's time per \
         computed cell.\n"
    );
    let _ = writeln!(
        out,
        "| input | size | engine · store | p | total | compute | wait | send | traceback \
         | cells | ns/cell |\n\
         | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for (key, _) in series(summaries) {
        for s in summaries.iter().filter(|s| s.config.series() == key) {
            let mark = if s.oversubscribed { DAGGER } else { "" };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {}{mark} | {} | {} | {} | {} | {} | {} | {} |",
                key.name(),
                s.size(),
                key.how(),
                s.config.ranks,
                human_seconds(s.seconds.median),
                human_seconds(s.compute),
                human_seconds(s.wait),
                human_seconds(s.send),
                human_seconds(s.traceback),
                thousands(s.cells),
                s.ns_per_cell().map_or("—".into(), |ns| format!("{ns:.3}")),
            );
        }
    }
    let _ = writeln!(out);
}

/// One value, or `a–b` when the runs disagree.
fn spread(values: impl Iterator<Item = u64>) -> String {
    let (lo, hi) = values.fold((u64::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo == u64::MAX {
        "—".into()
    } else if lo == hi {
        thousands(lo)
    } else {
        format!("{}–{}", thousands(lo), thousands(hi))
    }
}

fn messages_table(out: &mut String, summaries: &[Summary]) {
    let _ = writeln!(
        out,
        "## Messages: measured and predicted\n\n\
         Boundary messages counted during the fill against the count the schedule predicts \
         (`mpi-lcs schedule`), over every store and run of an engine; a range means the runs \
         disagreed.\n"
    );
    let _ = writeln!(
        out,
        "| input | size | engine | p | boundary measured | boundary predicted | equal | \
         boundary bytes | traceback hops | traceback bytes | control messages |\n\
         | --- | --- | --- | ---: | ---: | ---: | :---: | ---: | ---: | ---: | ---: |"
    );
    let mut seen: Vec<(String, EngineKind, usize)> = Vec::new();
    for s in summaries
        .iter()
        .filter(|s| s.config.engine != EngineKind::Reference)
    {
        let key = (s.config.input.clone(), s.config.engine, s.config.ranks);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key.clone());
        let group: Vec<&Summary> = summaries
            .iter()
            .filter(|o| (o.config.input.clone(), o.config.engine, o.config.ranks) == key)
            .collect();
        let runs: Vec<&Row> = group.iter().flat_map(|o| &o.runs).collect();
        let equal = group.iter().all(|o| o.mismatches == 0);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            s.config.name(),
            s.size(),
            key.1,
            key.2,
            spread(runs.iter().map(|r| r.messages_boundary)),
            spread(runs.iter().map(|r| r.predicted_boundary)),
            if equal { "yes" } else { "**no**" },
            spread(runs.iter().map(|r| r.bytes_boundary)),
            spread(runs.iter().map(|r| r.traceback_hops)),
            spread(runs.iter().map(|r| r.bytes_traceback)),
            spread(runs.iter().map(|r| r.messages_control)),
        );
    }
    let _ = writeln!(out);
}

fn lengths(out: &mut String, rows: &[Row]) {
    let _ = writeln!(out, "## Answers\n");
    let mut keys: Vec<(&str, Problem)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.input.as_str(), r.problem)) {
            keys.push((&r.input, r.problem));
        }
    }
    for (input, problem) in keys {
        let of: Vec<&Row> = rows
            .iter()
            .filter(|r| r.input == input && r.problem == problem)
            .collect();
        let (what, answer): (&str, fn(&Row) -> Option<u64>) = match problem {
            Problem::Lcs => ("LCS length", |r| r.lcs_length),
            Problem::Edit => ("edit distance", |r| r.distance),
        };
        let distinct: BTreeSet<Option<u64>> = of.iter().map(|r| answer(r)).collect();
        let name = crate::runs::input_name(input);
        match distinct.iter().collect::<Vec<_>>()[..] {
            [Some(value)] => {
                let _ = writeln!(
                    out,
                    "- {name}: all {} runs found {what} {}.",
                    of.len(),
                    thousands(*value)
                );
            }
            _ => {
                let values: Vec<String> = distinct
                    .iter()
                    .map(|v| v.map_or("none".to_owned(), thousands))
                    .collect();
                let _ = writeln!(
                    out,
                    "- {name}: **the runs disagree**: {what}s {}.",
                    values.join(", ")
                );
            }
        }
    }
    let _ = writeln!(out);
}

/// Where the ranks of each rank count ran, and how they were started.
fn placement(out: &mut String, summaries: &[Summary]) {
    let mut by_ranks: BTreeMap<usize, BTreeSet<(Placement, String)>> = BTreeMap::new();
    for s in summaries
        .iter()
        .filter(|s| s.config.engine != EngineKind::Reference)
    {
        for r in &s.runs {
            by_ranks
                .entry(s.config.ranks)
                .or_default()
                .insert((s.config.placement, r.launcher.clone()));
        }
    }
    let _ = writeln!(out, "## Placement\n");
    let _ = writeln!(out, "| p | hosts | launcher |\n| ---: | --- | --- |");
    for (p, ways) in by_ranks {
        for (placement, launcher) in ways {
            let _ = writeln!(out, "| {p} | {placement} | `{launcher}` |");
        }
    }
    let _ = writeln!(out);
}

fn machine(out: &mut String, rows: &[Row]) {
    let distinct = |f: fn(&Row) -> String| -> String {
        let mut values: Vec<String> = Vec::new();
        for r in rows {
            let v = f(r)
                .trim_matches(|c: char| c.is_whitespace() || c == '\0')
                .to_owned();
            if !values.contains(&v) {
                values.push(v);
            }
        }
        values.join("; ")
    };
    let _ = writeln!(out, "## Machine\n");
    let _ = writeln!(out, "- hosts: {}", distinct(|r| r.hosts.clone()));
    let _ = writeln!(out, "- CPU: {}", distinct(|r| r.cpu.clone()));
    let _ = writeln!(
        out,
        "- cores per host: {}",
        distinct(|r| r.cores.to_string())
    );
    let _ = writeln!(
        out,
        "- MPI library: {}",
        distinct(|r| r.mpi_library.clone())
    );
    let _ = writeln!(out, "- commit: {}", distinct(|r| r.commit.clone()));
    let _ = writeln!(
        out,
        "- measured: {} to {}",
        rows.iter()
            .map(|r| r.timestamp.as_str())
            .min()
            .unwrap_or("?"),
        rows.iter()
            .map(|r| r.timestamp.as_str())
            .max()
            .unwrap_or("?")
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::diagonal::store::StoreKind;

    fn run(ranks: usize, engine: EngineKind, seconds: f64, over: bool) -> Row {
        Row {
            input: "inputs/large.txt".into(),
            rows: 1000,
            cols: 1000,
            engine,
            store: (engine == EngineKind::Diagonal).then_some(StoreKind::Dense),
            ranks,
            lcs_length: Some(658),
            messages_boundary: 1998 * (ranks as u64 - 1),
            predicted_boundary: 1998 * (ranks as u64 - 1),
            seconds_total: seconds,
            oversubscribed: over,
            hosts: "h".into(),
            cpu: "cpu".into(),
            cores: 2,
            commit: "abc".into(),
            launcher: "mpirun".into(),
            ..Row::default()
        }
    }

    /// A diagonal band's run computes a fraction of the matrix: the fill's time per cell is
    /// over the cells it computed, and a result set without the column uses the matrix's.
    #[test]
    fn ns_per_cell_counts_the_computed_cells() {
        let banded = Row {
            engine: EngineKind::Bands,
            store: None,
            seconds_fill: 0.002,
            cells: Some(100_000),
            ..run(1, EngineKind::Bands, 0.003, false)
        };
        let old = Row {
            input: "inputs/old.txt".into(),
            seconds_fill: 0.002,
            ..run(1, EngineKind::Bands, 0.003, false)
        };
        let md = markdown(&[banded, old]);
        assert!(md.contains("| 100,000 | 20.000 |"), "{md}");
        assert!(md.contains("| 1,000,000 | 2.000 |"), "{md}");
    }

    #[test]
    fn times_messages_and_lengths_are_tabled() {
        let rows = [
            run(1, EngineKind::Reference, 0.000122, false),
            run(1, EngineKind::Diagonal, 0.002, false),
            run(1, EngineKind::Diagonal, 0.004, false),
            run(4, EngineKind::Diagonal, 0.0111, true),
        ];
        let md = markdown(&rows);
        assert!(md.contains("| input | size | engine · store | sequential | p = 1 | p = 4 |"));
        assert!(
            md.contains("| large | 1,000 × 1,000 | diagonal · dense | 122 µs | 3.00 ms (2.00 ms–4.00 ms) | 11.1 ms† |"),
            "{md}"
        );
        assert!(md.contains("† Oversubscribed"));
        assert!(md.contains("| large | 1,000 × 1,000 | diagonal | 4 | 5,994 | 5,994 | yes |"));
        assert!(
            md.contains("- large: all 4 runs found LCS length 658."),
            "{md}"
        );
        assert!(!md.contains("Warning"));
        let quiet = markdown(&rows[..2]);
        assert!(
            !quiet.contains('†'),
            "nothing marked, nothing said:\n{quiet}"
        );
    }

    #[test]
    fn mixed_result_sets_are_warned_about() {
        let mut other = run(1, EngineKind::Diagonal, 0.002, false);
        other.cpu = "other cpu".into();
        let md = markdown(&[run(1, EngineKind::Diagonal, 0.002, false), other]);
        assert!(
            md.contains("> **Warning:** the runs mix 2 machines"),
            "{md}"
        );
    }

    /// One rank count on one host and on two: two cells, each with its placement, and a
    /// warning; the placement table lists both.
    #[test]
    fn placements_are_tabled_apart() {
        let mut one_host = run(2, EngineKind::Diagonal, 0.002, false);
        one_host.ranks_per_host = 2;
        let mut two_hosts = run(2, EngineKind::Diagonal, 0.004, false);
        two_hosts.hosts = "h g".into();
        two_hosts.ranks_per_host = 1;
        two_hosts.launcher = "srun --mpi=pmix -K".into();
        let md = markdown(&[one_host, two_hosts]);
        assert!(
            md.contains("| 2.00 ms [1 host] / 4.00 ms [2 hosts, 1 rank each] |"),
            "{md}"
        );
        assert!(
            md.contains("> **Warning:** p = 2 was placed in 2 ways"),
            "{md}"
        );
        assert!(md.contains("| 2 | 1 host | `mpirun` |"), "{md}");
        assert!(
            md.contains("| 2 | 2 hosts, 1 rank each | `srun --mpi=pmix -K` |"),
            "{md}"
        );
    }

    #[test]
    fn the_breakdown_and_the_library_are_tabled() {
        let mut r = run(4, EngineKind::Diagonal, 0.01, true);
        r.seconds_compute = 0.004;
        r.seconds_wait = 0.003;
        r.mpi_library = "Open MPI v4.1.4\0".into();
        let md = markdown(&[r]);
        assert!(
            md.contains("| large | 1,000 × 1,000 | diagonal · dense | 4† | 10.0 ms | 4.00 ms | 3.00 ms | 0 | 0 |"),
            "{md}"
        );
        assert!(md.contains("- MPI library: Open MPI v4.1.4\n"), "{md}");
    }

    #[test]
    fn numbers_for_people() {
        assert_eq!(human_seconds(0.0), "0");
        assert_eq!(human_seconds(0.000018), "18.0 µs");
        assert_eq!(human_seconds(0.527), "527 ms");
        assert_eq!(human_seconds(2.3), "2.30 s");
    }
}
