//! `solve` under mpirun against the sequential reference: the same LCS byte for byte for every
//! rank count and store, boundary messages exactly as predicted, and a complete JSON report.

use std::path::Path;

use rand::{Rng, SeedableRng};
use serde_json::Value;

use crate::util::{self, Dir};

const RANKS: [usize; 6] = [1, 2, 3, 4, 5, 8];
const STORES: [&str; 2] = ["dense", "hash"];

/// The sequential reference's answer for an input file, through the binary.
fn reference(dir: &Dir, input: &Path) -> Value {
    let out = dir.path(&format!(
        "{}.reference.json",
        input.file_name().unwrap().to_string_lossy()
    ));
    util::plain(&[
        "reference".as_ref(),
        input.as_os_str(),
        "--json".as_ref(),
        out.as_os_str(),
    ])
    .ok();
    util::json(&out)
}

/// Every key the report promises, present and of the right shape.
fn assert_report_shape(report: &Value, ranks: usize) {
    for key in [
        "rows",
        "cols",
        "swapped",
        "ranks",
        "store",
        "lcs_length",
        "messages",
        "bytes",
        "predicted",
        "traceback_hops",
        "pairs",
        "per_rank",
        "seconds",
    ] {
        assert!(report.get(key).is_some(), "report lacks '{key}': {report}");
    }
    assert!(report.get("lcs").is_some() || report.get("lcs_hex").is_some());
    for group in ["messages", "bytes"] {
        for kind in ["boundary", "traceback", "control"] {
            assert!(report[group][kind].is_u64(), "{group}.{kind} in {report}");
        }
    }
    assert!(report["predicted"]["boundary"].is_u64());
    for key in ["total", "fill", "traceback"] {
        assert!(report["seconds"][key].is_f64(), "seconds.{key}");
    }
    let per_rank = report["per_rank"].as_array().unwrap();
    assert_eq!(per_rank.len(), ranks);
    for (k, r) in per_rank.iter().enumerate() {
        assert_eq!(r["rank"], k);
        for key in [
            "cells",
            "sent",
            "received",
            "seconds_fill",
            "seconds_traceback",
            "peak_rss_bytes",
        ] {
            assert!(r.get(key).is_some(), "per_rank[{k}] lacks '{key}'");
        }
        assert!(r["peak_rss_bytes"].as_u64().unwrap() > 0);
    }
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), ranks);
    assert!(pairs
        .iter()
        .all(|row| row.as_array().unwrap().len() == ranks));
}

/// Runs `solve` on `input` with `ranks` ranks and `store`, and checks it against `expected`.
fn check_solve(dir: &Dir, input: &Path, ranks: usize, store: &str, expected: &Value) -> Value {
    let name = input.file_name().unwrap().to_string_lossy();
    let out = dir.path(&format!("{name}.{ranks}.{store}.json"));
    util::solve(
        ranks,
        input,
        &out,
        &["--store".as_ref(), store.as_ref()],
        &[],
    )
    .ok();
    let report = util::json(&out);
    let context = format!("{name} with {ranks} ranks, store {store}");
    assert_report_shape(&report, ranks);
    for key in ["rows", "cols", "swapped", "lcs_length", "lcs", "lcs_hex"] {
        assert_eq!(
            report.get(key),
            expected.get(key),
            "{key} differs: {context}"
        );
    }
    assert_eq!(report["ranks"], ranks);
    assert_eq!(report["store"], store);
    let boundary = report["messages"]["boundary"].as_u64().unwrap();
    assert_eq!(
        boundary,
        report["predicted"]["boundary"].as_u64().unwrap(),
        "measured vs predicted boundary messages: {context}"
    );
    let pairs_sum: u64 = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(pairs_sum, boundary, "pairs sum: {context}");
    let cells: u64 = report["per_rank"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["cells"].as_u64().unwrap())
        .sum();
    let rows = report["rows"].as_u64().unwrap();
    assert_eq!(cells, rows * report["cols"].as_u64().unwrap(), "{context}");
    assert_eq!(boundary * 4, report["bytes"]["boundary"].as_u64().unwrap());
    assert_eq!(
        report["messages"]["traceback"], report["traceback_hops"],
        "one message per hop: {context}"
    );
    report
}

/// Every rank count and store on one input.
fn check_all(dir: &Dir, input: &Path) {
    let expected = reference(dir, input);
    let jobs: Vec<Box<dyn FnOnce() -> Value + Send + '_>> = RANKS
        .iter()
        .flat_map(|&p| STORES.iter().map(move |&s| (p, s)))
        .map(|(p, s)| {
            let expected = &expected;
            Box::new(move || check_solve(dir, input, p, s, expected)) as Box<_>
        })
        .collect();
    util::parallel(3, jobs);
}

fn random_bytes(rng: &mut impl Rng, len: usize, alphabet: &[u8]) -> Vec<u8> {
    (0..len)
        .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
        .collect()
}

#[test]
fn random_pairs_match_reference_for_every_rank_count_and_store() {
    let dir = Dir::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2021);
    let alphabets: [&[u8]; 3] = [b"AB", b"ACGT", b"abcdefghijklmnopqrstuvwxyz"];
    for case in 0..30 {
        let alphabet = alphabets[case % 3];
        let (a, b) = (rng.gen_range(0..200), rng.gen_range(0..200));
        let input = dir.input(
            &format!("pair{case}.txt"),
            &random_bytes(&mut rng, a, alphabet),
            &random_bytes(&mut rng, b, alphabet),
        );
        check_all(&dir, &input);
    }
}

#[test]
fn edge_shapes_match_reference() {
    let dir = Dir::new();
    let cases: [(&str, &[u8], &[u8]); 7] = [
        ("more_ranks_than_rows", b"ACG", b"TTACGGATCA"),
        ("one_row", b"G", b"ACGTTGCA"),
        ("one_by_one_match", b"A", b"A"),
        ("one_by_one_mismatch", b"A", b"C"),
        ("identical", b"GATTACAGATTACA", b"GATTACAGATTACA"),
        ("no_common_byte", b"AAAAAAA", b"CCCCCCCCCC"),
        ("empty_rows", b"", b"ACGT"),
    ];
    for (name, x, y) in cases {
        let input = dir.input(&format!("{name}.txt"), x, y);
        check_all(&dir, &input);
    }
}

#[test]
fn repository_inputs_match_reference() {
    let dir = Dir::new();
    for name in ["small.txt", "medium.txt", "large.txt"] {
        check_all(&dir, &util::repo_input(name));
    }
}

#[test]
fn identical_sequences_give_themselves() {
    let dir = Dir::new();
    let input = dir.input("same.txt", b"ACGTACGTTT", b"ACGTACGTTT");
    let out = dir.path("same.json");
    util::solve(3, &input, &out, &[], &[]).ok();
    assert_eq!(util::json(&out)["lcs"], "ACGTACGTTT");
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
    assert!(expected.get("lcs_hex").is_some());
    let report = check_solve(&dir, &input, 2, "dense", &expected);
    assert!(report.get("lcs").is_none());
}

#[test]
fn synchronous_sends_do_not_deadlock() {
    // With MPI_Issend nothing is delivered eagerly: every send completes only once its
    // receive is posted, which is what proves the exchange order deadlock-free.
    let dir = Dir::new();
    let input = util::repo_input("medium.txt");
    let expected = reference(&dir, &input);
    for ranks in [2, 4] {
        let out = dir.path(&format!("sync{ranks}.json"));
        util::solve(
            ranks,
            &input,
            &out,
            &[],
            &[("MPI_LCS_SYNCHRONOUS_SENDS", "1")],
        )
        .ok();
        let report = util::json(&out);
        assert_eq!(report["lcs"], expected["lcs"]);
        assert_eq!(
            report["messages"]["boundary"],
            report["predicted"]["boundary"]
        );
    }
}

#[test]
fn runs_as_a_plain_process_without_mpirun() {
    let dir = Dir::new();
    let input = util::repo_input("small.txt");
    let expected = reference(&dir, &input);
    let out = dir.path("single.json");
    let run = util::plain(&[
        "solve".as_ref(),
        input.as_os_str(),
        "--json".as_ref(),
        out.as_os_str(),
    ])
    .ok();
    let report = util::json(&out);
    assert_eq!(report["ranks"], 1);
    assert_eq!(report["lcs"], expected["lcs"]);
    assert_eq!(report["messages"]["boundary"], 0);
    assert!(run
        .stdout
        .contains(&format!("LCS: {}", expected["lcs"].as_str().unwrap())));
}

#[test]
fn summary_shows_counts_beside_prediction() {
    let input = util::repo_input("medium.txt");
    let run = util::mpirun(4, &["solve".as_ref(), input.as_os_str()]).ok();
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("messages:"))
        .unwrap_or_else(|| panic!("no messages line in:\n{}", run.stdout));
    let measured: u64 = line
        .split("boundary ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    assert!(line.contains(&format!("(predicted {measured})")), "{line}");
    for word in [
        "LCS length:",
        "LCS:",
        "4 ranks",
        "store dense",
        "bytes:",
        "seconds:",
    ] {
        assert!(
            run.stdout.contains(word),
            "summary lacks {word}:\n{}",
            run.stdout
        );
    }
    // Only rank 0 prints.
    assert_eq!(run.stdout.matches("LCS length:").count(), 1);
}

#[test]
fn bad_input_ends_every_rank_with_one_message() {
    let dir = Dir::new();
    let missing = dir.path("missing.txt");
    let out = dir.path("never.json");
    for ranks in [1, 2, 4] {
        let run = util::mpirun(
            ranks,
            &[
                "solve".as_ref(),
                missing.as_os_str(),
                "--json".as_ref(),
                out.as_os_str(),
            ],
        );
        assert_eq!(run.status.code(), Some(3), "{run:?}");
        assert!(run.elapsed.as_secs() < 10, "took {:?}", run.elapsed);
        let errors: Vec<_> = run.stderr.lines().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 1, "stderr:\n{}", run.stderr);
        assert!(errors[0].contains("missing.txt"), "{}", errors[0]);
        assert!(!run.stderr.contains("panicked"));
        assert!(!out.exists());
    }
}

#[test]
fn trace_lines_match_the_reported_counts() {
    let dir = Dir::new();
    for (input, ranks) in [("small.txt", 3), ("medium.txt", 4), ("large.txt", 2)] {
        let input = util::repo_input(input);
        let (json, trace) = (dir.path("t.json"), dir.path("t.csv"));
        let trace_args = ["--trace".as_ref(), trace.as_os_str()];
        util::solve(ranks, &input, &json, &trace_args, &[]).ok();
        let report = util::json(&json);
        let text = std::fs::read_to_string(&trace).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("phase,diagonal,from,to,i,j,bytes"));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        for (phase, kind) in [
            ("fill", "boundary"),
            ("traceback", "traceback"),
            ("control", "control"),
        ] {
            let of_phase: Vec<_> = rows.iter().filter(|r| r[0] == phase).collect();
            assert_eq!(
                of_phase.len() as u64,
                report["messages"][kind].as_u64().unwrap()
            );
            let bytes: u64 = of_phase.iter().map(|r| r[6].parse::<u64>().unwrap()).sum();
            assert_eq!(
                bytes,
                report["bytes"][kind].as_u64().unwrap(),
                "{phase} bytes"
            );
        }
        // Sorted by (phase, diagonal, sender); every fill message goes to a neighbour rank.
        let key = |r: &Vec<&str>| {
            let phase = ["fill", "traceback", "control"]
                .iter()
                .position(|p| *p == r[0]);
            let num = |s: &str| s.parse::<u64>().unwrap_or(u64::MAX);
            (phase, num(r[1]), num(r[2]))
        };
        assert!(
            rows.windows(2).all(|w| key(&w[0]) <= key(&w[1])),
            "not sorted"
        );
        for r in rows.iter().filter(|r| r[0] == "fill") {
            let (from, to): (i64, i64) = (r[2].parse().unwrap(), r[3].parse().unwrap());
            assert_eq!((from - to).abs(), 1, "{r:?}");
            let (i, j): (u64, u64) = (r[4].parse().unwrap(), r[5].parse().unwrap());
            assert_eq!(i + j, r[1].parse::<u64>().unwrap());
        }
    }
    // Above a million cells the trace is refused, cleanly.
    let trace = dir.path("big.csv");
    let run = util::mpirun(
        2,
        &[
            "solve".as_ref(),
            util::repo_input("large_2.txt").as_os_str(),
            "--trace".as_ref(),
            trace.as_os_str(),
        ],
    );
    assert_eq!(run.status.code(), Some(2));
    assert!(
        run.stderr.contains("--trace is limited to"),
        "{}",
        run.stderr
    );
    assert!(!trace.exists());
}
