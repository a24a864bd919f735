//! Bad input and faults: every rank ends, cleanly and soon, with one message and no output
//! file; a dying rank or a SIGTERM ends the whole job; concurrent CSV appends lose nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::{self, Dir, Run};

/// `solve FILE --json OUT --append-csv CSV EXTRA…` under mpirun.
fn solve(ranks: usize, input: &Path, json: &Path, csv: &Path, extra: &[&str]) -> Run {
    let mut args: Vec<&std::ffi::OsStr> = vec!["--append-csv".as_ref(), csv.as_os_str()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    util::solve(ranks, input, json, &args, &[])
}

/// The lines this program printed on stderr (mpirun adds its own banner after a failure).
fn our_messages(run: &Run) -> Vec<&str> {
    run.stderr
        .lines()
        .filter(|l| l.starts_with("mpi-lcs"))
        .collect()
}

/// A failed run: the exit status, one message naming `names` and `problem`, within 10 s,
/// no panic, nothing written.
fn assert_clean_failure(run: &Run, code: i32, names: &str, problem: &str, outputs: &[&Path]) {
    assert_eq!(run.status.code(), Some(code), "{run:#?}");
    assert!(
        run.elapsed < Duration::from_secs(10),
        "took {:?}",
        run.elapsed
    );
    let messages = our_messages(run);
    assert_eq!(messages.len(), 1, "expected one message:\n{}", run.stderr);
    assert!(
        messages[0].contains(names) && messages[0].contains(problem),
        "message should name '{names}' and '{problem}': {}",
        messages[0]
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(!run.stderr.contains("RUST_BACKTRACE"), "{}", run.stderr);
    for out in outputs {
        assert!(!out.exists(), "{} was created", out.display());
    }
}

#[test]
fn bad_inputs_end_every_rank_with_one_message() {
    let dir = Dir::new();
    let write = |name: &str, bytes: &[u8]| -> PathBuf {
        let p = dir.path(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    let subdir = dir.path("a_directory");
    std::fs::create_dir(&subdir).unwrap();
    let mut cases: Vec<(PathBuf, &str, Vec<&str>)> = vec![
        (dir.path("missing.txt"), "not found", vec![]),
        (subdir, "is a directory", vec![]),
        (write("empty.txt", b""), "empty file", vec![]),
        (write("one.txt", b"ACGT\n"), "only one sequence", vec![]),
        (
            write("three.txt", b"A\nC\nG\n"),
            "more than two sequences",
            vec![],
        ),
        (write("one.fa", b">x\nACGT\n"), "1 records", vec![]),
        (
            write("big.txt", b"ACGTACGTAC\nACGTACGTAC\n"),
            "larger than the limit",
            vec!["--max-input", "16"],
        ),
    ];
    let locked = write("locked.txt", b"ACGT\nACGT\n");
    std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    if std::fs::read(&locked).is_err() {
        cases.push((locked, "cannot read", vec![]));
    } // else: running as root, which reads it anyway; nothing to test.

    for ranks in [1, 2, 4] {
        for (input, problem, extra) in &cases {
            let json = dir.path("out.json");
            let csv = dir.path("out.csv");
            let run = solve(ranks, input, &json, &csv, extra);
            let name = input.file_name().unwrap().to_str().unwrap();
            assert_clean_failure(&run, 3, name, problem, &[&json, &csv]);
        }
    }
}

#[test]
fn unwritable_output_fails_before_any_work() {
    let dir = Dir::new();
    let json = dir.path("no/such/dir/out.json");
    let csv = dir.path("out.csv");
    let run = solve(2, &util::repo_input("small.txt"), &json, &csv, &[]);
    assert_clean_failure(&run, 5, "out.json", "cannot write", &[&json, &csv]);
}

#[test]
fn memory_precheck_names_estimate_limit_and_what_fits() {
    let dir = Dir::new();
    let input = util::repo_input("medium.txt");
    let (json, csv) = (dir.path("m.json"), dir.path("m.csv"));
    for ranks in [1, 2, 4] {
        let run = solve(
            ranks,
            &input,
            &json,
            &csv,
            &["--store", "hash", "--memory-limit", "100K"],
        );
        assert_clean_failure(&run, 4, "store hash", "limit is 102.4 KB", &[&json, &csv]);
        let message = our_messages(&run)[0];
        assert!(message.contains("needs about"), "{message}");
        assert!(message.contains("--store dense needs about"), "{message}");
    }
    // The environment variable works too, and suggests more ranks when no store fits.
    let run = util::mpirun_env(
        1,
        &["solve".as_ref(), input.as_os_str()],
        &[("MPI_LCS_MEMORY_LIMIT", "40K")],
    );
    assert_eq!(run.status.code(), Some(4), "{run:#?}");
    let messages = our_messages(&run);
    assert_eq!(messages.len(), 1, "{}", run.stderr);
    assert!(messages[0].contains("ranks need about"), "{}", messages[0]);
    // A limit that fits lets the run through.
    let run = solve(2, &input, &json, &csv, &["--memory-limit", "64M"]).ok();
    assert!(run.stdout.contains("LCS length"));
    assert!(json.exists() && csv.exists());
}

/// A rank that receives a traceback hop when `input` is solved on `ranks` ranks.
fn rank_on_the_walk(dir: &Dir, input: &Path, ranks: usize) -> usize {
    let json = dir.path("probe.json");
    util::solve(ranks, input, &json, &[], &[]).ok();
    let report = util::json(&json);
    let per_rank = report["per_rank"].as_array().unwrap();
    (1..ranks)
        .find(|&k| per_rank[k]["received"]["traceback"].as_u64().unwrap() > 0)
        .expect("the walk visits a rank other than 0")
}

#[test]
fn a_rank_dying_in_the_fill_or_traceback_ends_the_job_and_leaves_no_report() {
    let dir = Dir::new();
    let input = util::repo_input("large.txt");
    let json = dir.path("fault.json");
    let csv = dir.path("fault.csv");
    let previous = b"{\"earlier\": true}\n";
    for ranks in [2, 4] {
        let walker = rank_on_the_walk(&dir, &input, ranks);
        let faults = [
            format!("fill:{}:900", ranks - 1),
            "fill:0:1200".to_owned(),
            format!("traceback:{walker}:100000"),
        ];
        for fault in &faults {
            for existed in [false, true] {
                if existed {
                    std::fs::write(&json, previous).unwrap();
                } else {
                    let _ = std::fs::remove_file(&json);
                }
                let csv_args = ["--append-csv".as_ref(), csv.as_os_str()];
                let run = util::solve(ranks, &input, &json, &csv_args, &[("MPI_LCS_FAULT", fault)]);
                assert!(!run.status.success(), "{fault}: {run:#?}");
                assert!(
                    run.elapsed < Duration::from_secs(30),
                    "{fault}: {:?}",
                    run.elapsed
                );
                assert!(
                    run.stderr.contains("injected fault"),
                    "{fault}: {}",
                    run.stderr
                );
                if existed {
                    assert_eq!(std::fs::read(&json).unwrap(), previous, "{fault}");
                } else {
                    assert!(!json.exists(), "{fault}: report written");
                }
                assert!(!csv.exists(), "{fault}: CSV row written");
                let leftovers: Vec<_> = std::fs::read_dir(dir.dir.path())
                    .unwrap()
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".tmp"))
                    .collect();
                assert!(leftovers.is_empty(), "{fault}: {leftovers:?}");
            }
        }
    }
}

#[test]
fn sigterm_to_mpirun_ends_every_rank_and_leaves_no_report() {
    util::require_mpirun();
    let dir = Dir::new();
    let json = dir.path("term.json");
    // Rank 1 hangs in the middle of the fill, so the signal lands mid-run whatever the speed.
    let mut cmd = std::process::Command::new("mpirun");
    cmd.args([
        "--oversubscribe",
        "-n",
        "2",
        "-x",
        "MPI_LCS_FAULT",
        util::bin(),
        "solve",
    ])
    .arg(util::repo_input("large.txt"))
    .args(["--json"])
    .arg(&json)
    .env("MPI_LCS_FAULT", "stall:1:1000");
    let session = util::open_mpi_env(&mut cmd);
    let mut child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        child.try_wait().unwrap().is_none(),
        "finished before the signal"
    );
    let sent = Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(30),
            "mpirun still running"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!status.success());
    assert!(!json.exists());
    // No rank survives its mpirun.
    let ps = std::process::Command::new("pgrep")
        .arg("-f")
        .arg(&json)
        .output()
        .unwrap();
    let survivors = String::from_utf8_lossy(&ps.stdout).into_owned();
    assert!(
        survivors.trim().is_empty(),
        "ranks left running: {survivors}"
    );
    drop(session);
}

#[test]
fn eight_concurrent_writers_append_whole_rows() {
    let dir = Dir::new();
    let csv = dir.path("runs.csv");
    let inputs: Vec<PathBuf> = (0..8)
        .map(|k| {
            let x: Vec<u8> = (0..40 + k).map(|i| b"ACGT"[(i * 7 + k) % 4]).collect();
            let y: Vec<u8> = (0..50).map(|i| b"ACGT"[(i * 3) % 4]).collect();
            dir.input(&format!("in{k}.txt"), &x, &y)
        })
        .collect();
    let jobs: Vec<Box<dyn FnOnce() -> Run + Send + '_>> = inputs
        .iter()
        .enumerate()
        .map(|(k, input)| {
            let csv = &csv;
            Box::new(move || {
                util::mpirun(
                    1 + k % 3,
                    &[
                        "solve".as_ref(),
                        input.as_os_str(),
                        "--append-csv".as_ref(),
                        csv.as_os_str(),
                    ],
                )
                .ok()
            }) as Box<_>
        })
        .collect();
    util::parallel(8, jobs);
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "header + 8 rows:\n{text}");
    assert!(lines[0].starts_with("timestamp,input,rows,cols,ranks,store,lcs_length"));
    let width = lines[0].split(',').count();
    let mut seen: Vec<String> = lines[1..]
        .iter()
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            assert_eq!(cells.len(), width, "torn row: {l}");
            cells[1].to_owned()
        })
        .collect();
    seen.sort();
    let mut expected: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    expected.sort();
    assert_eq!(seen, expected, "every run has exactly one row");
}
