//! `mpi-lcs table`: result sets as Markdown, in the layout of the report's table — one line
//! per input and engine, the sequential reference beside the rank counts — then the measured
//! messages against the schedule's prediction, a check that every run found the same LCS
//! length, and where the runs were made.
//!
//! Each time is the median of `seconds_total` over the repetitions, with their range; a run
//! that had more ranks than cores on a host (the run's own `oversubscribed` record, the one
//! definition `plot` uses too) is marked †. A result set that mixes commits, machines,
//! launchers or MPI libraries is tabled, under a warning that says so.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::report::EngineKind;
use crate::report::Row;
use crate::runs::{mixtures, summarise, Config, Summary};

const DAGGER: &str = "†";

/// The Markdown of `rows`.
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::new();
    let summaries = summarise(rows);
    let _ = writeln!(out, "# Results\n");
    let reps: BTreeSet<usize> = summaries.iter().map(|s| s.reps).collect();
    let reps = match (reps.first(), reps.last()) {
        (Some(a), Some(b)) if a == b => format!("{a}"),
        (Some(a), Some(b)) => format!("{a}–{b}"),
        _ => "0".into(),
    };
    let _ = writeln!(
        out,
        "{} runs, {reps} repetitions per configuration. Each time is the median of \
         `seconds_total` (rank 0, from start to LCS, without the launcher's start-up) with \
         the range of the repetitions; *sequential* is `mpi-lcs reference`.\n",
        rows.len()
    );
    for warning in mixtures(rows) {
        let _ = writeln!(
            out,
            "> **Warning:** {warning}; compare these rows with care.\n"
        );
    }
    time_table(&mut out, &summaries);
    messages_table(&mut out, &summaries);
    lengths(&mut out, rows);
    machine(&mut out, rows);
    out
}

fn input_name(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".txt").unwrap_or(name)
}

fn size(s: &Summary) -> String {
    format!("{} × {}", thousands(s.rows), thousands(s.cols))
}

/// `12,345`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Three significant digits in µs, ms or s.
pub fn human_seconds(s: f64) -> String {
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
    if s.reps > 1 {
        format!(
            "{}{mark} ({}–{})",
            human_seconds(s.median),
            human_seconds(s.min),
            human_seconds(s.max)
        )
    } else {
        format!("{}{mark}", human_seconds(s.median))
    }
}

fn time_table(out: &mut String, summaries: &[Summary]) {
    let ranks: BTreeSet<usize> = summaries
        .iter()
        .filter(|s| s.config.engine != EngineKind::Reference)
        .map(|s| s.config.ranks)
        .collect();
    let _ = writeln!(out, "## Time\n");
    let mut header = "| input | size | engine · store | sequential |".to_owned();
    let mut rule = "| --- | --- | --- | ---: |".to_owned();
    for p in &ranks {
        let _ = write!(header, " p = {p} |");
        rule += " ---: |";
    }
    let _ = writeln!(out, "{header}\n{rule}");
    let mut lines: Vec<(String, Config)> = Vec::new();
    for s in summaries
        .iter()
        .filter(|s| s.config.engine != EngineKind::Reference)
    {
        let key = Config {
            ranks: 0,
            ..s.config.clone()
        };
        if !lines.iter().any(|(_, k)| *k == key) {
            lines.push((s.config.input.clone(), key));
        }
    }
    for (input, key) in &lines {
        let find = |engine: EngineKind, store, ranks| {
            summaries.iter().find(|s| {
                s.config.input == *input
                    && s.config.engine == engine
                    && s.config.store == store
                    && s.config.ranks == ranks
            })
        };
        let first = summaries
            .iter()
            .find(|s| s.config.input == *input)
            .expect("a line has runs");
        let sequential = find(EngineKind::Reference, None, 1).map_or("—".into(), time_cell);
        let mut line = format!(
            "| {} | {} | {} | {sequential} |",
            input_name(input),
            size(first),
            key.how()
        );
        for &p in &ranks {
            let cell = find(key.engine, key.store, p).map_or("—".into(), time_cell);
            let _ = write!(line, " {cell} |");
        }
        let _ = writeln!(out, "{line}");
    }
    if summaries.iter().any(|s| s.oversubscribed) {
        let _ = writeln!(
            out,
            "\n{DAGGER} Oversubscribed: some host ran more ranks than it has cores. The ranks \
             take turns on the cores, so these times measure the cost of the protocol \
             (messages, waiting), not parallel speed-up."
        );
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
         (`mpi-lcs schedule`), over every store and repetition of an engine; a range means the \
         runs disagreed.\n"
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
        let runs: Vec<&Row> = summaries
            .iter()
            .filter(|o| (o.config.input.clone(), o.config.engine, o.config.ranks) == key)
            .flat_map(|o| &o.runs)
            .collect();
        let equal = runs
            .iter()
            .all(|r| r.messages_boundary == r.predicted_boundary);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            input_name(&key.0),
            size(s),
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
    let _ = writeln!(out, "## LCS lengths\n");
    let mut inputs: Vec<&str> = Vec::new();
    for r in rows {
        if !inputs.contains(&r.input.as_str()) {
            inputs.push(&r.input);
        }
    }
    for input in inputs {
        let of: Vec<&Row> = rows.iter().filter(|r| r.input == input).collect();
        let distinct: BTreeSet<u64> = of.iter().map(|r| r.lcs_length).collect();
        if distinct.len() == 1 {
            let _ = writeln!(
                out,
                "- {}: all {} runs found length {}.",
                input_name(input),
                of.len(),
                thousands(of[0].lcs_length)
            );
        } else {
            let _ = writeln!(
                out,
                "- {}: **the runs disagree**: lengths {:?}.",
                input_name(input),
                distinct
            );
        }
    }
    let _ = writeln!(out);
}

fn machine(out: &mut String, rows: &[Row]) {
    let distinct = |f: fn(&Row) -> String| -> String {
        let mut values: Vec<String> = Vec::new();
        for r in rows {
            let v = f(r);
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
    let _ = writeln!(out, "- launcher: {}", distinct(|r| r.launcher.clone()));
    let _ = writeln!(
        out,
        "- MPI library: {}",
        distinct(|r| r.mpi_library.clone())
    );
    let _ = writeln!(out, "- commit: {}", distinct(|r| r.commit.clone()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoreKind;

    fn run(ranks: usize, engine: EngineKind, seconds: f64, over: bool) -> Row {
        Row {
            input: "inputs/large.txt".into(),
            rows: 1000,
            cols: 1000,
            engine,
            store: (engine == EngineKind::Diagonal).then_some(StoreKind::Dense),
            ranks,
            lcs_length: 658,
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
        assert!(md.contains("- large: all 4 runs found length 658."));
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

    #[test]
    fn numbers_for_people() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(human_seconds(0.000018), "18.0 µs");
        assert_eq!(human_seconds(0.527), "527 ms");
        assert_eq!(human_seconds(2.3), "2.30 s");
    }
}
