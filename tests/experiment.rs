//! The experiment scripts: `scripts/experiment` runs every configuration and appends whole
//! rows through the binary, skips what the memory pre-check refuses, and
//! `scripts/results-table` turns the CSV into the report's Markdown.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{self, Dir, Run};

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

/// `scripts/experiment ARGS` with the test binary, in `dir`, with extra environment.
fn experiment<S: AsRef<OsStr>>(dir: &Dir, args: &[S], env: &[(&str, &str)]) -> Run {
    util::require_mpirun();
    let mut cmd = Command::new(script("experiment"));
    cmd.args(args)
        .current_dir(dir.dir.path())
        .env("MPI_LCS_BIN", util::bin())
        .env_remove("MPI_LCS_MEMORY_LIMIT")
        .env_remove("RUST_BACKTRACE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let _session = util::open_mpi_env(&mut cmd);
    util::run_with_timeout(cmd)
}

/// A small input of `rows` x `cols`, different enough that the LCS is not trivial.
fn tiny_input(dir: &Dir, name: &str, rows: usize, cols: usize) -> PathBuf {
    let x: Vec<u8> = (0..rows).map(|i| b"ACGT"[(i * 7 + i / 3) % 4]).collect();
    let y: Vec<u8> = (0..cols).map(|i| b"ACGT"[(i * 5 + i / 2) % 4]).collect();
    dir.input(name, &x, &y)
}

/// The CSV as a header and rows of fields, checking that every row is whole.
struct Csv {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    fn read(path: &Path) -> Csv {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let mut lines = text.lines();
        let header: Vec<String> = lines
            .next()
            .expect("a header")
            .split(',')
            .map(str::to_owned)
            .collect();
        let rows: Vec<Vec<String>> = lines
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect();
        for row in &rows {
            assert_eq!(
                row.len(),
                header.len(),
                "row width differs: {row:?}\n{text}"
            );
        }
        Csv { header, rows }
    }

    fn column(&self, name: &str) -> Vec<&str> {
        let k = self
            .header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name} in {:?}", self.header));
        self.rows.iter().map(|r| r[k].as_str()).collect()
    }
}

fn count(values: &[&str], wanted: &str) -> usize {
    values.iter().filter(|v| **v == wanted).count()
}

#[test]
fn experiment_appends_one_whole_row_per_run() {
    let dir = Dir::new();
    let input = tiny_input(&dir, "tiny.txt", 24, 30);
    let csv = dir.path("runs.csv");
    let run = experiment(
        &dir,
        &[
            "--inputs".as_ref(),
            input.as_os_str(),
            "--ranks".as_ref(),
            "1 2".as_ref(),
            "--stores".as_ref(),
            "dense hash".as_ref(),
            "--reps".as_ref(),
            "2".as_ref(),
            "--out".as_ref(),
            csv.as_os_str(),
        ],
        &[],
    )
    .ok();
    assert!(!run.stdout.contains("skip:"), "{}", run.stdout);
    assert!(run.stdout.contains("[warm-up]"), "{}", run.stdout);

    let table = Csv::read(&csv);
    // 2 rank counts x 2 stores x 2 repetitions, and 2 sequential rows; no warm-up rows.
    assert_eq!(table.rows.len(), 2 * 2 * 2 + 2, "{:?}", table.rows);
    let stores = table.column("store");
    assert_eq!(count(&stores, "dense"), 4, "{stores:?}");
    assert_eq!(count(&stores, "hash"), 4, "{stores:?}");
    assert_eq!(count(&stores, "reference"), 2, "{stores:?}");
    let ranks = table.column("ranks");
    assert_eq!(count(&ranks, "2"), 4, "{ranks:?}");
    let inputs = table.column("input");
    assert!(inputs.iter().all(|i| Path::new(i) == input), "{inputs:?}");

    let lengths = table.column("lcs_length");
    assert!(lengths.iter().all(|l| *l == lengths[0]), "{lengths:?}");
    assert!(lengths[0].parse::<usize>().unwrap() > 0);
    let measured = table.column("messages_boundary");
    let predicted = table.column("predicted_boundary");
    assert_eq!(measured, predicted);
    let commits = table.column("commit");
    assert!(
        commits.iter().all(|c| !c.is_empty() && *c == commits[0]),
        "{commits:?}"
    );
    for column in ["cores", "oversubscribed"] {
        assert!(table.column(column).iter().all(|v| !v.is_empty()));
    }
}

/// A per-rank memory limit under which the dense store fits `input` on one rank, found by
/// asking the binary (its pre-check stops before allocating, so a refusal costs nothing).
fn limit_where_dense_fits(input: &Path) -> u64 {
    let mut limit = 256u64;
    loop {
        let run = util::plain(&[
            "solve".as_ref(),
            input.as_os_str(),
            "--store".as_ref(),
            "dense".as_ref(),
            "--memory-limit".as_ref(),
            limit.to_string().as_ref(),
        ]);
        match run.status.code() {
            Some(0) => return limit,
            Some(4) => limit *= 2,
            _ => panic!("unexpected: {run:#?}"),
        }
        assert!(limit < 1 << 30, "dense never fits");
    }
}

/// Runs the experiment on a tiny input with a memory limit that fits dense but not hash.
fn experiment_without_room_for_hash(dir: &Dir) -> (PathBuf, PathBuf, Run) {
    let input = tiny_input(dir, "cramped.txt", 40, 50);
    let limit = limit_where_dense_fits(&input).to_string();
    let csv = dir.path("cramped.csv");
    let run = experiment(
        dir,
        &[
            "--inputs".as_ref(),
            input.as_os_str(),
            "--ranks".as_ref(),
            "1 2".as_ref(),
            "--reps".as_ref(),
            "2".as_ref(),
            "--no-warmup".as_ref(),
            "--out".as_ref(),
            csv.as_os_str(),
        ],
        &[("MPI_LCS_MEMORY_LIMIT", limit.as_str())],
    );
    (input, csv, run)
}

#[test]
fn experiment_skips_what_does_not_fit_and_goes_on() {
    let dir = Dir::new();
    let (input, csv, run) = experiment_without_room_for_hash(&dir);
    let run = run.ok();
    let skips: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("skip:"))
        .collect();
    assert_eq!(skips.len(), 2, "hash on 1 and 2 ranks:\n{}", run.stdout);
    for (skip, ranks) in skips.iter().zip(["1 ranks", "2 ranks"]) {
        assert!(
            skip.contains(&*input.to_string_lossy())
                && skip.contains("hash")
                && skip.contains(ranks)
                && skip.contains("not enough memory"),
            "{skip}"
        );
    }
    let table = Csv::read(&csv);
    let stores = table.column("store");
    assert_eq!(count(&stores, "dense"), 4, "{stores:?}");
    assert_eq!(count(&stores, "reference"), 2, "{stores:?}");
    assert_eq!(stores.len(), 6, "{stores:?}");
}

#[test]
fn results_table_makes_markdown_of_the_runs() {
    let dir = Dir::new();
    let (_, csv, run) = experiment_without_room_for_hash(&dir);
    run.ok();
    let mut cmd = Command::new(script("results-table"));
    cmd.arg(&csv).arg("--machine").arg("the test machine");
    let run = util::run_with_timeout(cmd).ok();
    let md = run.stdout;
    for wanted in [
        "| input | size | store | sequential | p = 1 | p = 2 |",
        "| cramped | 40 × 50 | dense |",
        "p = 2",
        "Machine: the test machine",
        "Measured boundary messages equal the prediction in every run.",
    ] {
        assert!(md.contains(wanted), "no '{wanted}' in:\n{md}");
    }
    assert!(!md.contains("| hash |"), "hash was skipped:\n{md}");

    // --out writes the same document to a file.
    let out = dir.path("README.md");
    let mut cmd = Command::new(script("results-table"));
    cmd.arg(&csv)
        .args(["--machine", "the test machine", "--out"])
        .arg(&out);
    let run = util::run_with_timeout(cmd).ok();
    assert!(run.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), md);
}
