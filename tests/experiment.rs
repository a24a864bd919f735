//! The experiment script: `scripts/experiment` runs every configuration and appends whole rows
//! through the binary, skips what the memory pre-check refuses, and `mpi-lcs table` turns the
//! result set into the report's Markdown.

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
    let mut cmd = Command::new(script("experiment"));
    // The script's default launcher is Open MPI's: name another family's.
    if let (program, util::Family::Hydra) = util::launcher() {
        cmd.args(["--launcher", program]);
    }
    cmd.args(args)
        .current_dir(dir.dir.path())
        .env("MPI_LCS_BIN", util::bin())
        .env_remove("MPI_LCS_MEMORY_LIMIT")
        .env_remove("RUST_BACKTRACE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    util::run_with_timeout(cmd)
}

/// A small input of `rows` x `cols`, different enough that the LCS is not trivial.
fn tiny_input(dir: &Dir, name: &str, rows: usize, cols: usize) -> PathBuf {
    let x: Vec<u8> = (0..rows).map(|i| b"ACGT"[(i * 7 + i / 3) % 4]).collect();
    let y: Vec<u8> = (0..cols).map(|i| b"ACGT"[(i * 5 + i / 2) % 4]).collect();
    dir.input(name, &x, &y)
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

    let table = util::csv(&csv);
    // 2 rank counts x 2 stores x 2 repetitions, and 2 sequential rows; no warm-up rows.
    assert_eq!(table.1.len(), 2 * 2 * 2 + 2, "{:?}", table.1);
    let stores = util::column(&table, "store");
    assert_eq!(count(&stores, "dense"), 4, "{stores:?}");
    assert_eq!(count(&stores, "hash"), 4, "{stores:?}");
    let engines = util::column(&table, "engine");
    assert_eq!(count(&engines, "reference"), 2, "{engines:?}");
    let ranks = util::column(&table, "ranks");
    assert_eq!(count(&ranks, "2"), 4, "{ranks:?}");
    let inputs = util::column(&table, "input");
    assert!(inputs.iter().all(|i| Path::new(i) == input), "{inputs:?}");

    let lengths = util::column(&table, "lcs_length");
    assert!(lengths.iter().all(|l| *l == lengths[0]), "{lengths:?}");
    assert!(lengths[0].parse::<usize>().unwrap() > 0);
    let measured = util::column(&table, "messages_boundary");
    let predicted = util::column(&table, "predicted_boundary");
    assert_eq!(measured, predicted);
    let commits = util::column(&table, "commit");
    assert!(
        commits.iter().all(|c| !c.is_empty() && *c == commits[0]),
        "{commits:?}"
    );
    for column in ["cores", "oversubscribed", "host", "launcher", "mpi_library"] {
        assert!(
            util::column(&table, column).iter().all(|v| !v.is_empty()),
            "{column}"
        );
    }
}

/// Runs the experiment on a small input with a memory limit that fits dense but not hash,
/// on one or two ranks (between what the two need, as their reports say).
fn experiment_without_room_for_hash(dir: &Dir) -> (PathBuf, PathBuf, Run) {
    let input = tiny_input(dir, "cramped.txt", 600, 700);
    let dense = util::memory_need(1, &input, "dense");
    let hash = util::memory_need(2, &input, "hash");
    assert!(hash > dense + (2 << 20), "dense {dense}, hash {hash}");
    let limit = ((dense + hash) / 2).to_string();
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
    let table = util::csv(&csv);
    let stores = util::column(&table, "store");
    assert_eq!(count(&stores, "dense"), 4, "{stores:?}");
    let engines = util::column(&table, "engine");
    assert_eq!(count(&engines, "reference"), 2, "{engines:?}");
    assert_eq!(stores.len(), 6, "{stores:?}");
}

#[test]
fn the_table_of_an_experiment_leaves_out_what_was_skipped() {
    let dir = Dir::new();
    let (_, csv, run) = experiment_without_room_for_hash(&dir);
    run.ok();
    let md = util::plain(&util::args(&[&"table", &csv])).ok().stdout;
    for wanted in [
        "| input | size | engine · store | sequential | p = 1 | p = 2 |",
        "| cramped | 600 × 700 | diagonal · dense |",
        "- cramped: all 6 runs found length",
    ] {
        assert!(md.contains(wanted), "no '{wanted}' in:\n{md}");
    }
    assert!(!md.contains("diagonal · hash"), "hash was skipped:\n{md}");
}
