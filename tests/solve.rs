//! `solve` under the launcher against the sequential reference: the same LCS byte for byte for
//! every rank count and store, boundary messages exactly as predicted, and a complete report
//! with the reference's schema.

use std::path::Path;

use serde_json::Value;

use crate::util::{self, args, Dir};

const RANKS: [usize; 6] = [1, 2, 3, 4, 5, 8];
const STORES: [&str; 2] = ["dense", "hash"];

/// The sequential reference's report for an input file, through the binary.
fn reference(dir: &Dir, input: &Path) -> Value {
    let out = dir.path(&format!(
        "{}.reference.json",
        input.file_name().unwrap().to_string_lossy()
    ));
    util::plain(&args(&[&"reference", &input, &"--json", &out])).ok();
    util::json(&out)
}

/// Hundreds of pairs — the edge shapes (empty, one row, 1 x 1, identical, nothing in common,
/// non-UTF-8 bytes, more ranks than rows), random pairs over four alphabets, and the
/// repository's inputs — through the engine for every rank count and store, one launch each:
/// rank 0 compares every answer with the reference and every count with the schedule.
#[test]
fn every_rank_count_and_store_agrees_with_the_reference() {
    let inputs = ["small.txt", "medium.txt", "large.txt"].map(util::repo_input);
    let jobs: Vec<util::Task<'_, (usize, &'static str, util::Run)>> = RANKS
        .iter()
        .flat_map(|&p| STORES.iter().map(move |&s| (p, s)))
        .map(|(p, store)| {
            let inputs = &inputs;
            Box::new(move || {
                let mut a = args(&[&"self-test", &"--cases", &"40", &"--store", &store]);
                for input in inputs {
                    a.extend(args(&[&"--file", input]));
                }
                (p, store, util::mpirun(p, &a))
            }) as Box<_>
        })
        .collect();
    for (p, store, run) in util::parallel(3, jobs) {
        let run = run.ok();
        let summary = format!(
            "self-test: 52 pairs (lcs) on {}, diagonal engine, store {store}: 0 failed",
            util::ranks(p)
        );
        assert!(
            run.stdout.contains(&summary),
            "{p} {store}:\n{}",
            run.stdout
        );
        assert_eq!(
            run.stdout.matches("self-test:").count(),
            1,
            "only rank 0 reports"
        );
    }
}

/// With synchronous sends nothing is delivered eagerly: every send completes only once its
/// receive is posted, which is what shows the exchange order cannot deadlock.
#[test]
fn synchronous_sends_do_not_deadlock() {
    for ranks in [2, 4] {
        let a = args(&[
            &"self-test",
            &"--cases",
            &"20",
            &"--file",
            &util::repo_input("medium.txt"),
        ]);
        let run = util::mpirun_env(ranks, &a, &[("MPI_LCS_SYNCHRONOUS_SENDS", "1")]).ok();
        assert!(run.stdout.contains(": 0 failed"), "{}", run.stdout);
    }
}

/// Ranks that wait inside MPI and ranks that test and yield their core between tests (the
/// choice on a host with more ranks than cores, forced here) find the same answers with the
/// same messages, on both engines; an unknown way of waiting is a usage error.
#[test]
fn both_ways_of_waiting_agree_with_the_reference() {
    for wait in ["spin", "yield"] {
        for engine in ["diagonal", "bands"] {
            let a = args(&[
                &"self-test",
                &"--engine",
                &engine,
                &"--cases",
                &"20",
                &"--file",
                &util::repo_input("medium.txt"),
            ]);
            let run = util::mpirun_env(2, &a, &[("MPI_LCS_WAIT", wait)]).ok();
            assert!(
                run.stdout.contains(": 0 failed"),
                "{wait} {engine}: {}",
                run.stdout
            );
        }
    }
    let run = util::mpirun_env(2, &["solve", "x.txt"], &[("MPI_LCS_WAIT", "sometimes")]);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert_eq!(run.our_messages().len(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("MPI_LCS_WAIT"), "{}", run.stderr);
}

/// `--progress` draws the bar where no terminal is found (the harness pipes every stream)
/// once the fill has run for a second; with `--no-progress` it is a usage error.
#[test]
fn progress_is_drawn_when_asked_for_without_a_terminal() {
    // Asked for, the bar is drawn from the start, however short the fill: a thousand
    // diagonals, so the clock is looked at (every 256 steps).
    let input = util::repo_input("medium.txt");
    let run = util::mpirun(1, &args(&[&"solve", &input, &"--progress"])).ok();
    assert!(run.stderr.contains(" diagonals"), "no bar:\n{}", run.stderr);
    let run = util::mpirun(
        1,
        &args(&[&"solve", &input, &"--progress", &"--engine", &"bands"]),
    )
    .ok();
    assert!(run.stderr.contains(" rows"), "no bar:\n{}", run.stderr);
    let run = util::mpirun(
        1,
        &args(&[&"solve", &input, &"--progress", &"--no-progress"]),
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
}

/// A 200,000,000 x 64 input ran for three minutes on the default engine (one synchronisation
/// per anti-diagonal), with no word that the bands engine takes two seconds. Rank 0 now says
/// so once, before the fill, and `--quiet` silences it. The runs are cut short at the fill's
/// first step by a planted fault: the note is all this test needs.
#[test]
fn a_long_thin_input_gets_a_note_on_the_bands_engine_unless_quiet() {
    let dir = Dir::new();
    let input = dir.path("thin.txt");
    let generate = args(&[
        &"generate",
        &"--len",
        &"64",
        &"--len2",
        &"10000000",
        &"--seed",
        &"3",
        &"-o",
        &input,
    ]);
    util::plain(&generate).ok();
    let env = [("MPI_LCS_FAULT", "fill:0:1")];
    let jobs: Vec<util::Task<'_, util::Run>> = [&[][..], &["--quiet"][..]]
        .into_iter()
        .map(|extra: &[&str]| {
            let mut a = args(&[&"solve", &input]);
            a.extend(extra.iter().map(std::ffi::OsString::from));
            let env = &env;
            Box::new(move || util::mpirun_env(2, &a, env)) as util::Task<'_, util::Run>
        })
        .collect();
    let runs = util::parallel(2, jobs);
    for run in &runs {
        assert!(!run.status.success(), "{run:?}");
        assert!(run.stderr.contains("injected fault at step 1"), "{run:?}");
    }
    let notes = |run: &util::Run| -> Vec<String> {
        run.stderr
            .lines()
            .filter(|l| l.starts_with("mpi-lcs: note:"))
            .map(str::to_owned)
            .collect()
    };
    let said = notes(&runs[0]);
    assert_eq!(said.len(), 1, "{}", runs[0].stderr);
    for part in [
        "64 x 10,000,000 matrix",
        "the diagonal engine should take about",
        "10,000,063 times",
        "run with --engine bands",
    ] {
        assert!(said[0].contains(part), "{part}: {}", said[0]);
    }
    assert_eq!(notes(&runs[1]), Vec::<String>::new(), "--quiet");
}

/// Checks one `solve` report against the reference's report of the same input.
fn check_report(report: &Value, expected: &Value, ranks: usize, store: &str) {
    let context = format!("{} on {ranks} ranks, store {store}", report["input"]);
    for key in [
        "rows",
        "cols",
        "swapped",
        "format",
        "lcs_length",
        "lcs",
        "lcs_hex",
    ] {
        assert_eq!(report.get(key), expected.get(key), "{key}: {context}");
    }
    assert_eq!(report["ranks"], ranks);
    assert_eq!(report["store"], store);
    assert_eq!(report["engine"], "diagonal");
    let boundary = report["messages"]["boundary"].as_u64().unwrap();
    assert_eq!(
        boundary,
        report["predicted"]["boundary"].as_u64().unwrap(),
        "{context}"
    );
    let pairs: Vec<Vec<u64>> = serde_json::from_value(report["pairs"].clone()).unwrap();
    assert_eq!(pairs.len(), ranks);
    assert_eq!(pairs.iter().flatten().sum::<u64>(), boundary, "{context}");
    let per_rank = report["per_rank"].as_array().unwrap();
    assert_eq!(per_rank.len(), ranks);
    let cells: u64 = per_rank.iter().map(|r| r["cells"].as_u64().unwrap()).sum();
    let rows = report["rows"].as_u64().unwrap();
    assert_eq!(cells, rows * report["cols"].as_u64().unwrap(), "{context}");
    for (k, r) in per_rank.iter().enumerate() {
        assert_eq!(r["rank"], k);
        assert!(r["peak_rss_bytes"].as_u64().unwrap() > 1 << 20, "{context}");
        assert!(!r["host"].as_str().unwrap().is_empty());
    }
    assert_eq!(boundary * 4, report["bytes"]["boundary"].as_u64().unwrap());
    assert_eq!(report["messages"]["traceback"], report["traceback_hops"]);
    let seconds = &report["seconds"];
    let phase = |k: &str| seconds[k].as_f64().unwrap();
    assert!(phase("total") >= phase("fill"));
    // The phases follow one another on rank 0: together no longer than the whole run.
    let phases = phase("input") + per_rank[0]["seconds_setup"].as_f64().unwrap();
    assert!(phases + per_rank[0]["seconds_fill"].as_f64().unwrap() <= phase("total"));
    assert!(phase("input") > 0.0 && phase("setup") >= 0.0, "{context}");
    assert_eq!(report["ranks_per_host"], ranks, "one host: {context}");
    assert_eq!(report["hosts"].as_array().unwrap().len(), 1);
    // The library the binary is linked with, which is the launcher's (else the run stops).
    let library = match util::launcher().1 {
        util::Family::OpenMpi => "Open MPI",
        util::Family::Hydra => "MPICH",
    };
    assert!(
        report["mpi_library"].as_str().unwrap().contains(library),
        "{context}: {}",
        report["mpi_library"]
    );
}

#[test]
fn solve_writes_a_complete_report_with_the_references_schema() {
    let dir = Dir::new();
    let cases = [
        ("small.txt", 3, "dense"),
        ("medium.txt", 4, "hash"),
        ("large.txt", 2, "dense"),
    ];
    for (name, ranks, store) in cases {
        let input = util::repo_input(name);
        let expected = reference(&dir, &input);
        let json = dir.path(&format!("{name}.json"));
        let run = util::solve(
            ranks,
            &input,
            &json,
            &["--store".as_ref(), store.as_ref()],
            &[],
        )
        .ok();
        let report = util::json(&json);
        check_report(&report, &expected, ranks, store);
        assert_eq!(
            util::json_keys(&report),
            util::json_keys(&expected),
            "one schema for both"
        );
        assert_eq!(expected["engine"], "reference");
        assert_eq!(expected["store"], Value::Null);
        // The summary on stdout, once, with counts beside the prediction.
        let out = &run.stdout;
        assert_eq!(out.matches("LCS length:").count(), 1, "only rank 0 prints");
        let boundary = report["messages"]["boundary"].as_u64().unwrap();
        let line = format!("messages: boundary {boundary} (predicted {boundary})");
        assert!(out.contains(&line), "{out}");
        let lcs = expected["lcs"].as_str().unwrap();
        assert!(out.contains(&format!("LCS: {lcs}\n")), "{out}");
        assert!(out.contains(&format!("{ranks} ranks, diagonal engine, store {store}")));
    }
}

#[test]
fn non_utf8_lcs_is_reported_in_hex() {
    let dir = Dir::new();
    let input = dir.input(
        "bin.txt",
        &[0xff, 0x00, 0xfe, 0x41],
        &[0x00, 0xff, 0xfe, 0x41, 0x41],
    );
    let expected = reference(&dir, &input);
    assert_eq!(expected["lcs_hex"], "fffe41");
    let json = dir.path("bin.json");
    util::solve(2, &input, &json, &[], &[]).ok();
    let report = util::json(&json);
    check_report(&report, &expected, 2, "dense");
    assert!(report.get("lcs").is_none());
}

#[test]
fn runs_as_a_plain_process_without_a_launcher() {
    let dir = Dir::new();
    let input = util::repo_input("small.txt");
    let expected = reference(&dir, &input);
    let json = dir.path("single.json");
    // Started on its own, the process does not start MPI at all: a setting that makes Open
    // MPI's start-up fail does not touch it (under a launcher it does, below).
    let mut plain = util::plain_command(&args(&[&"solve", &input, &"--json", &json]));
    plain.env("OMPI_MCA_pml", "no-such-component");
    let run = util::run_with_timeout(plain).ok();
    let report = util::json(&json);
    check_report(&report, &expected, 1, "dense");
    assert_eq!(report["launcher"], "none");
    assert_eq!(report["ranks"], 1);
    for command in [
        args(&[&"search", &input, &input, &"--max-edits", &"1"]),
        args(&[&"self-test", &"--cases", &"3"]),
        args(&[
            &"solve",
            &input,
            &"--engine",
            &"bands",
            &"--problem",
            &"edit",
        ]),
    ] {
        let mut plain = util::plain_command(&command);
        plain.env("OMPI_MCA_pml", "no-such-component");
        util::run_with_timeout(plain).ok();
    }
    if util::launcher().1 == util::Family::OpenMpi {
        let broken = [("OMPI_MCA_pml", "no-such-component")];
        let failed =
            util::run_with_timeout(util::mpirun_command(1, &args(&[&"solve", &input]), &broken));
        assert!(!failed.status.success(), "{}", failed.stdout);
    }
    assert!(
        run.stdout.contains("1 rank, diagonal engine"),
        "{}",
        run.stdout
    );
}

/// The peak RSS a run reports is its own: started by a process that holds 256 MB (a script
/// looping over files), it does not report its parent's peak, which Linux carries over `exec`
/// in `getrusage`.
#[test]
fn the_peak_rss_is_the_runs_own_not_its_parents() {
    let dir = Dir::new();
    let input = util::repo_input("small.txt");
    let json = dir.path("own.json");
    let held = vec![1u8; 256 << 20];
    let plain = util::plain_command(&args(&[&"solve", &input, &"--json", &json]));
    util::run_with_timeout(plain);
    std::hint::black_box(&held);
    let peak = util::json(&json)["per_rank"][0]["peak_rss_bytes"]
        .as_u64()
        .unwrap();
    assert!(peak > 1 << 20 && peak < 64 << 20, "{peak} bytes");
}

/// One trace line per message, read as CSV: its counts and bytes are the report's, boundary
/// messages go to a neighbour in diagonal order, the traceback comes in walk order.
#[test]
fn trace_lines_match_the_reported_counts() {
    let dir = Dir::new();
    for (input, ranks) in [("small.txt", 3), ("medium.txt", 4), ("large.txt", 2)] {
        let input = util::repo_input(input);
        let (json, trace) = (dir.path("t.json"), dir.path("t.csv"));
        util::solve(
            ranks,
            &input,
            &json,
            &["--trace".as_ref(), trace.as_os_str()],
            &[],
        )
        .ok();
        let report = util::json(&json);
        let table = util::csv(&trace);
        assert_eq!(
            table.0,
            ["kind", "diagonal", "from", "to", "i", "j", "bytes"]
        );
        let kinds = util::column(&table, "kind");
        let bytes = util::column(&table, "bytes");
        for kind in ["boundary", "traceback", "control"] {
            let rows: Vec<usize> = (0..kinds.len()).filter(|&r| kinds[r] == kind).collect();
            assert_eq!(
                rows.len() as u64,
                report["messages"][kind].as_u64().unwrap()
            );
            let sum: u64 = rows.iter().map(|&r| bytes[r].parse::<u64>().unwrap()).sum();
            assert_eq!(sum, report["bytes"][kind].as_u64().unwrap(), "{kind} bytes");
        }
        let num = |name: &str, r: usize| -> i64 { util::column(&table, name)[r].parse().unwrap() };
        let order = ["boundary", "traceback", "control"];
        let rank = |r: usize| order.iter().position(|k| *k == kinds[r]).unwrap();
        for r in 1..kinds.len() {
            assert!(rank(r - 1) <= rank(r), "kinds out of order at line {r}");
            if kinds[r] == "boundary" && kinds[r - 1] == "boundary" {
                let key = |r| (num("diagonal", r), num("from", r));
                assert!(key(r - 1) <= key(r), "boundary out of order at line {r}");
            }
            if kinds[r] == "traceback" && kinds[r - 1] == "traceback" {
                assert!(
                    num("diagonal", r - 1) > num("diagonal", r),
                    "walk order at {r}"
                );
                assert_eq!(num("to", r - 1), num("from", r), "a hop continues the walk");
            }
        }
        for r in (0..kinds.len()).filter(|&r| kinds[r] == "boundary") {
            assert_eq!((num("from", r) - num("to", r)).abs(), 1, "line {r}");
            assert_eq!(num("i", r) + num("j", r), num("diagonal", r));
        }
    }
    // Above a million cells the trace is refused, cleanly and before any work.
    let trace = dir.path("big.csv");
    let a = args(&[
        &"solve",
        &util::repo_input("large_2.txt"),
        &"--trace",
        &trace,
    ]);
    let run = util::mpirun(2, &a);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        run.stderr.contains("--trace is limited to"),
        "{}",
        run.stderr
    );
    assert!(!trace.exists());
}
