//! Bad input, bad outputs and faults: every rank ends, cleanly, with one message and no output
//! file; a dying rank or a SIGTERM ends the whole job; concurrent CSV appends lose nothing.
//!
//! No test here asserts how long anything took: a loaded machine is slow with no bug. The
//! harness's timeout only catches a hang; speed is measured by `scripts/bench`, not by tests.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use crate::util::{self, args, Dir, Job, Run};

/// `solve FILE --json OUT --append-csv CSV EXTRA…` under the launcher.
fn solve(ranks: usize, input: &Path, json: &Path, csv: &Path, extra: &[&str]) -> Run {
    let mut a: Vec<&std::ffi::OsStr> = vec!["--append-csv".as_ref(), csv.as_os_str()];
    a.extend(extra.iter().map(std::ffi::OsStr::new));
    util::solve(ranks, input, json, &a, &[])
}

/// A failed run: the exit status, one message naming `names` and `problem`, no panic, nothing
/// written. (That it ended at all, every rank with it, the harness's timeout checks.)
fn assert_clean_failure(run: &Run, code: i32, names: &str, problem: &str, outputs: &[&Path]) {
    assert_eq!(run.status.code(), Some(code), "{run:#?}");
    let messages = run.our_messages();
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

/// Whether this process is root (who reads files whatever their mode).
fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn bad_inputs_end_every_rank_with_one_message() {
    let dir = Dir::new();
    let subdir = dir.path("a_directory");
    std::fs::create_dir(&subdir).unwrap();
    let cases: Vec<(PathBuf, &str, Vec<&str>)> = vec![
        (dir.path("missing.txt"), "not found", vec![]),
        (subdir, "is a directory", vec![]),
        (dir.file("empty.txt", b""), "empty file", vec![]),
        (dir.file("one.txt", b"ACGT\n"), "only one sequence", vec![]),
        (
            dir.file("three.txt", b"A\nC\nG\n"),
            "more than two sequences",
            vec![],
        ),
        (dir.file("one.fa", b">x\nACGT\n"), "1 record,", vec![]),
        (
            dir.file("plain.fa", b"ACGT\nAC\n"),
            "not FASTA",
            vec!["--format", "fasta"],
        ),
        (
            dir.file("big.txt", b"ACGTACGTAC\nACGTACGTAC\n"),
            "larger than the limit",
            vec!["--max-input", "16"],
        ),
        // Opens for anyone, root included, and fails to read (EIO at offset 0).
        (PathBuf::from("/proc/self/mem"), "cannot read", vec![]),
    ];
    let mut jobs: Vec<util::Task<'_, ()>> = Vec::new();
    for ranks in [1, 2, 4] {
        for (k, (input, problem, extra)) in cases.iter().enumerate() {
            let dir = &dir;
            jobs.push(Box::new(move || {
                let json = dir.path(&format!("out{ranks}-{k}.json"));
                let csv = dir.path(&format!("out{ranks}-{k}.csv"));
                let run = solve(ranks, input, &json, &csv, extra);
                let name = input.file_name().unwrap().to_str().unwrap();
                assert_clean_failure(&run, 3, name, problem, &[&json, &csv]);
            }));
        }
    }
    util::parallel(4, jobs);
}

/// A file the caller cannot read, with privileges dropped when the tests run as root (as in
/// CI), so the case is never skipped.
#[test]
fn unreadable_input_is_refused_for_an_unprivileged_user() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = Dir::new();
    std::fs::set_permissions(dir.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let locked = dir.input("locked.txt", b"ACGT", b"ACGT");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let args = args(&[&"reference", &locked]);
    let cmd = if root() {
        // The checkout may sit where the unprivileged user cannot reach (under /root):
        // it runs a copy of the binary from the open scratch directory.
        let copy = dir.path("mpi-lcs");
        std::fs::copy(util::bin(), &copy).unwrap();
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = util::plain_command_of(&copy, &args);
        cmd.uid(65534).gid(65534);
        cmd
    } else {
        util::plain_command(&args)
    };
    let run = util::run_with_timeout(cmd);
    assert_clean_failure(&run, 3, "locked.txt", "cannot read: Permission denied", &[]);
}

/// Every output is checked before the input is read: nothing is computed, nothing is
/// written, and the input and whatever sat at the path are left as they were.
#[test]
fn bad_output_paths_are_refused_before_any_work() {
    let dir = Dir::new();
    let input = dir.input("in.txt", b"ACGTAC", b"GATTACA");
    let before = std::fs::read(&input).unwrap();
    let link = dir.path("link.json");
    std::os::unix::fs::symlink(dir.path("nowhere/x.json"), &link).unwrap();
    let subdir = dir.path("sub");
    std::fs::create_dir(&subdir).unwrap();
    let other = dir.file("other.csv", b"a,b,c\n1,2,3\n");
    let torn = dir.file("torn.csv", b"timestamp,commit");
    let dot_slash = format!("{}/o/", dir.dir.path().display());
    let same = dir.path("same.json");
    let cases: Vec<(Vec<OsString>, &str, &str)> = vec![
        (args(&[&"--json", &input]), "--json", "is the input file"),
        (args(&[&"--trace", &input]), "--trace", "is the input file"),
        (
            args(&[&"--append-csv", &input]),
            "--append-csv",
            "is the input file",
        ),
        (args(&[&"--json", &"/dev/full"]), "--json", "is a device"),
        (args(&[&"--json", &subdir]), "--json", "is a directory"),
        (args(&[&"--json", &"."]), "--json", "names a directory"),
        (
            args(&[&"--json", &dot_slash]),
            "--json",
            "names a directory",
        ),
        (args(&[&"--json", &link]), "--json", "dangling"),
        (
            args(&[&"--svg", &dir.path("none/x.svg")]),
            "--svg",
            "does not exist",
        ),
        (
            args(&[&"--json", &"/proc/self/x.json"]),
            "--json",
            "cannot create a file",
        ),
        (
            args(&[&"--append-csv", &other]),
            "--append-csv",
            "not a result set",
        ),
        (
            args(&[&"--append-csv", &torn]),
            "--append-csv",
            "not a result set",
        ),
        (
            args(&[&"--json", &same, &"--svg", &same]),
            "--svg",
            "is also the path of --json",
        ),
    ];
    // An input nobody writes to: opening it to read would block, so a refusal that came only
    // after reading the input would hang, and fail on the harness's timeout.
    let unread = dir.path("unread.fifo");
    let c_path = std::ffi::CString::new(unread.as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0, "mkfifo");
    // Each case is a launch or two, mostly waiting: three at a time.
    let jobs: Vec<util::Task<'_, ()>> = cases
        .iter()
        .map(|(extra, flag, problem)| {
            let (input, unread, same) = (&input, &unread, &same);
            Box::new(move || {
                let mut a = args(&[&"solve", input]);
                a.extend(extra.iter().cloned());
                let run = util::mpirun(2, &a);
                assert_clean_failure(&run, 5, flag, problem, &[same]);
                if *problem == "is the input file" {
                    return;
                }
                // The same refusal comes before the input is read (let alone solved).
                let mut a = args(&[&"solve", unread]);
                a.extend(extra.iter().cloned());
                let run = util::plain(&a);
                assert_clean_failure(&run, 5, flag, problem, &[same]);
            }) as util::Task<'_, ()>
        })
        .collect();
    util::parallel(3, jobs);
    assert_eq!(std::fs::read(&input).unwrap(), before);
    assert_eq!(std::fs::read(&other).unwrap(), b"a,b,c\n1,2,3\n");
    assert!(std::fs::metadata("/dev/full")
        .unwrap()
        .file_type()
        .is_char_device());
    // `reference` and `generate` check theirs the same way.
    let run = util::plain(&args(&[&"reference", &input, &"--json", &input]));
    assert_clean_failure(&run, 5, "--json", "is the input file", &[]);
    let run = util::plain(&["generate", "--len", "5", "--seed", "1", "-o", "/dev/full"]);
    assert_clean_failure(&run, 5, "--output", "is a device", &[]);
}

#[test]
fn memory_precheck_names_estimate_limit_and_what_fits() {
    let dir = Dir::new();
    let input = util::repo_input("large.txt");
    let (json, csv) = (dir.path("m.json"), dir.path("m.csv"));
    // A limit between what the two stores need: hash is refused and dense is suggested.
    let (dense, hash) = (
        util::memory_need(1, &input, "dense"),
        util::memory_need(1, &input, "hash"),
    );
    assert!(hash > dense + (8 << 20), "dense {dense}, hash {hash}");
    let between = ((dense + hash) / 2).to_string();
    for ranks in [1, 2] {
        let extra = ["--store", "hash", "--memory-limit", &between];
        let run = solve(ranks, &input, &json, &csv, &extra);
        assert_clean_failure(&run, 4, "store hash", "per rank, limit is", &[&json, &csv]);
        let message = run.our_messages()[0];
        assert!(message.contains("--store dense needs about"), "{message}");
    }
    // The environment variable works too; with room for nothing, it says so.
    let run = util::mpirun_env(
        1,
        &args(&[&"solve", &input]),
        &[("MPI_LCS_MEMORY_LIMIT", "1M")],
    );
    assert_eq!(run.status.code(), Some(4), "{run:#?}");
    let messages = run.our_messages();
    assert_eq!(messages.len(), 1, "{}", run.stderr);
    assert!(messages[0].contains("limit is 1.0 MiB"), "{}", messages[0]);
    assert!(
        messages[0].contains("no store or rank count"),
        "{}",
        messages[0]
    );
    // Where more ranks would help, it says how many (3,000 x 3,000: the hash store's 9 million
    // cells take far more than the rest of a rank).
    let square = dir.generated("square.txt", 3000, 7);
    let one = util::memory_need(1, &square, "hash");
    let two = util::memory_need(2, &square, "hash");
    let run = util::mpirun(
        1,
        &args(&[
            &"solve",
            &square,
            &"--store",
            &"hash",
            &"--memory-limit",
            &((one + two) / 2).to_string(),
        ]),
    );
    assert_eq!(run.status.code(), Some(4), "{run:#?}");
    assert!(
        run.our_messages()[0].contains("2 ranks need about"),
        "{}",
        run.stderr
    );
    // A limit that fits lets the run through.
    let run = solve(2, &input, &json, &csv, &["--memory-limit", "1G"]).ok();
    assert!(run.stdout.contains("LCS length"));
    assert!(json.exists() && csv.exists());
}

/// `MPI_LCS_FAULT=fill:9:1` on 2 ranks struck nowhere, and the run passed as if unharmed: a
/// fault that names a rank the run does not have is a usage error once MPI has started.
#[test]
fn a_fault_on_a_rank_the_run_does_not_have_is_a_usage_error() {
    let dir = Dir::new();
    let (json, csv) = (dir.path("f.json"), dir.path("f.csv"));
    let input = util::repo_input("small.txt");
    let extra = ["--append-csv".as_ref(), csv.as_os_str()];
    let run = util::solve(2, &input, &json, &extra, &[("MPI_LCS_FAULT", "fill:9:1")]);
    let problem = "names rank 9, but this run has 2 ranks (0 to 1)";
    assert_clean_failure(&run, 2, "MPI_LCS_FAULT", problem, &[&json, &csv]);
}

/// A rank that receives a traceback hop when `input` is solved on `ranks` ranks.
fn rank_on_the_walk(dir: &Dir, input: &Path, ranks: usize) -> usize {
    let json = dir.path(&format!("probe{ranks}.json"));
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
    let previous = b"{\"earlier\": true}\n";
    let mut jobs: Vec<util::Task<'_, ()>> = Vec::new();
    for ranks in [2, 4] {
        let walker = rank_on_the_walk(&dir, &input, ranks);
        let faults = [
            format!("fill:{}:900", ranks - 1),
            "fill:0:1200".to_owned(),
            format!("traceback:{walker}:100000"),
        ];
        for (f, fault) in faults.into_iter().enumerate() {
            for existed in [false, true] {
                let (dir, input, fault) = (&dir, &input, fault.clone());
                jobs.push(Box::new(move || {
                    let name = format!("fault{ranks}-{f}-{existed}");
                    let json = dir.path(&format!("{name}.json"));
                    let csv = dir.path(&format!("{name}.csv"));
                    if existed {
                        std::fs::write(&json, previous).unwrap();
                    }
                    let extra = ["--append-csv".as_ref(), csv.as_os_str()];
                    let env = [("MPI_LCS_FAULT", fault.as_str())];
                    let run = util::solve(ranks, input, &json, &extra, &env);
                    // Every rank ended (else the harness's timeout fails the run as hung).
                    assert!(!run.status.success(), "{fault}: {run:#?}");
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
                }));
            }
        }
    }
    util::parallel(3, jobs);
    let leftovers: Vec<String> = dir
        .names()
        .into_iter()
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// SIGTERM to the launcher while a rank hangs mid-fill: no report, and no process of the job
/// is left (every process of the job is checked, Hydra's proxies and ranks in sessions of their
/// own included; not the launcher's exit status, which launchers report differently: Hydra's
/// is sometimes 0).
#[test]
fn sigterm_to_the_launcher_ends_every_rank_and_leaves_no_report() {
    let dir = Dir::new();
    let json = dir.path("term.json");
    let a = args(&[&"solve", &util::repo_input("large.txt"), &"--json", &json]);
    let mut job = Job::spawn(util::mpirun_command(
        2,
        &a,
        &[("MPI_LCS_FAULT", "stall:1:1000")],
    ));
    util::wait_until(
        || {
            assert!(
                !job.finished(),
                "ended before the stall: {}",
                job.stderr_so_far()
            );
            job.stderr_so_far().contains("injected stall")
        },
        || "no stall".into(),
    );
    let processes = job.processes();
    assert!(processes.list().len() >= 3, "launcher and two ranks");
    // SAFETY: sending a signal has no memory effects.
    assert_eq!(unsafe { libc::kill(job.pid() as i32, libc::SIGTERM) }, 0);
    let run = job.wait(util::TIMEOUT);
    assert!(!json.exists(), "{run:#?}");
    processes.wait_all_ended();
}

#[test]
fn eight_concurrent_writers_append_whole_rows() {
    let dir = Dir::new();
    let csv = dir.path("runs.csv");
    let inputs: Vec<PathBuf> = (0..8)
        .map(|k| {
            let x: Vec<u8> = (0..40 + k).map(|i| b"ACGT"[(i * 7 + k) % 4]).collect();
            let y: Vec<u8> = (0..50).map(|i| b"ACGT"[(i * 3) % 4]).collect();
            dir.input(&format!("in,{k}.txt"), &x, &y)
        })
        .collect();
    let jobs: Vec<util::Task<'_, Run>> = inputs
        .iter()
        .enumerate()
        .map(|(k, input)| {
            let csv = &csv;
            Box::new(move || {
                util::mpirun(1 + k % 3, &args(&[&"solve", input, &"--append-csv", csv])).ok()
            }) as Box<_>
        })
        .collect();
    util::parallel(8, jobs);
    let table = util::csv(&csv);
    assert_eq!(table.1.len(), 8, "8 rows");
    assert_eq!(&table.0[..2], ["timestamp", "commit"]);
    let mut seen: Vec<&str> = util::column(&table, "input");
    seen.sort();
    let mut expected: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    expected.sort();
    assert_eq!(seen, expected, "every run has exactly one whole row");
}

/// The pre-check's estimate of every rank's peak memory is never below what the rank used,
/// and not more than a quarter above it, for both stores.
#[test]
fn memory_estimates_cover_the_measured_peak() {
    let dir = Dir::new();
    let x: Vec<u8> = (0..2500).map(|i| b"ACGT"[(i * 7 + i / 5) % 4]).collect();
    let y: Vec<u8> = (0..3000).map(|i| b"ACGT"[(i * 3 + i / 7) % 4]).collect();
    let mid = dir.input("mid.txt", &x, &y);
    let cases = [
        (mid.clone(), "hash", 1),
        (mid, "hash", 3),
        (util::repo_input("large_2.txt"), "dense", 2),
        (util::repo_input("large.txt"), "dense", 4),
    ];
    for (input, store, ranks) in cases {
        let json = dir.path("m.json");
        util::solve(
            ranks,
            &input,
            &json,
            &["--store".as_ref(), store.as_ref()],
            &[],
        )
        .ok();
        for r in util::json(&json)["per_rank"].as_array().unwrap() {
            let estimate = r["memory_estimate_bytes"].as_f64().unwrap();
            let peak = r["peak_rss_bytes"].as_f64().unwrap();
            let ratio = estimate / peak;
            assert!(
                (1.0..=1.25).contains(&ratio),
                "{store} on {ranks} ranks, rank {}: estimate {estimate}, peak {peak}",
                r["rank"]
            );
        }
    }
}

/// A run that cannot fit is refused with exit status 4 and one message on every rank count,
/// however large: the advice is closed-form. Its speed is not asserted (speed is measured by
/// `scripts/bench`, not by tests); a refusal that never came would fail on the harness's
/// timeout.
#[test]
fn refusals_for_memory_end_every_rank_with_one_message() {
    let dir = Dir::new();
    // 300,000 x 300,000: the hash store would need terabytes.
    let big = dir.generated("big.txt", 300_000, 9);
    let large_3 = util::repo_input("large_3.txt");
    let cases: [(&Path, &[&str]); 3] = [
        (&big, &["--store", "hash"]),
        (&large_3, &["--store", "hash", "--memory-limit", "1M"]),
        (&large_3, &["--store", "dense", "--memory-limit", "1M"]),
    ];
    for (input, extra) in cases {
        for ranks in [1, 2, 3] {
            let mut a = args(&[&"solve", &input]);
            a.extend(extra.iter().map(OsString::from));
            let run = util::mpirun(ranks, &a);
            assert_eq!(run.status.code(), Some(4), "{run:#?}");
            assert_eq!(run.our_messages().len(), 1, "{}", run.stderr);
            assert!(
                run.our_messages()[0].contains("not enough memory"),
                "{}",
                run.stderr
            );
        }
    }
}

/// A file whose plain first line begins with `>` is read as FASTA by `auto`, which says so,
/// and as the plain pair with `--format plain`; the answer is never silently another pair's.
#[test]
fn the_input_format_is_explicit() {
    let dir = Dir::new();
    let file = dir.file("angle.txt", b">>>\n>>\n");
    let json = dir.path("a.json");
    let run = util::plain(&args(&[&"reference", &file, &"--json", &json])).ok();
    assert!(run.stdout.contains("read as FASTA"), "{}", run.stdout);
    assert_eq!(util::json(&json)["format"], "fasta");
    assert_eq!(util::json(&json)["lcs_length"], 0);
    util::solve(
        2,
        &file,
        &json,
        &["--format".as_ref(), "plain".as_ref()],
        &[],
    )
    .ok();
    let report = util::json(&json);
    assert_eq!(
        (report["format"].as_str(), report["lcs"].as_str()),
        (Some("plain"), Some(">>"))
    );
    // A line ending in a lone `\r` at the end of the file is a line ending, as `\r\n` is.
    let cr = dir.file("cr.txt", b"AC\r\nGT\r");
    util::plain(&args(&[&"reference", &cr, &"--json", &json])).ok();
    assert_eq!(
        (
            util::json(&json)["rows"].as_u64(),
            util::json(&json)["cols"].as_u64()
        ),
        (Some(2), Some(2))
    );
}

/// A binary started by another MPI's launcher runs as many one-process worlds: every process
/// stops with the mismatch error (exit 6), the launcher's rank 0 says why, and no row or report
/// is written. Simulated with Hydra's variables on a plain process; for real, in both
/// directions, where the other MPI family's launcher is installed too.
#[test]
fn a_launcher_from_another_mpi_is_an_error_not_a_row() {
    let dir = Dir::new();
    let input = util::repo_input("small.txt");
    let (json, csv) = (dir.path("mm.json"), dir.path("mm.csv"));
    let a = args(&[&"solve", &input, &"--json", &json, &"--append-csv", &csv]);
    for (rank, speaks) in [("0", true), ("1", false)] {
        let mut cmd = util::plain_command(&a);
        cmd.env("PMI_SIZE", "3").env("PMI_RANK", rank);
        let run = util::run_with_timeout(cmd);
        assert_eq!(run.status.code(), Some(6), "{run:?}");
        assert_eq!(
            run.our_messages().len(),
            usize::from(speaks),
            "{}",
            run.stderr
        );
        if speaks {
            let message = run.our_messages()[0];
            assert!(message.contains("started 3 processes"), "{message}");
            assert!(message.contains("another MPI library"), "{message}");
        }
    }
    assert!(!json.exists() && !csv.exists());
    // The real thing: this binary under the other family's launcher.
    let (_, family) = util::launcher();
    let other = match family {
        util::Family::OpenMpi => "mpiexec.mpich",
        util::Family::Hydra => "mpirun.openmpi",
    };
    let installed = std::process::Command::new(other)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if installed {
        let mut cmd = std::process::Command::new(other);
        cmd.args(["-n", "2"]).arg(util::bin()).args(&a);
        let run = util::run_with_timeout(cmd);
        assert_eq!(run.status.code(), Some(6), "{other}: {run:?}");
        assert_eq!(run.our_messages().len(), 1, "{other}: {}", run.stderr);
        assert!(run.stderr.contains("another MPI library"), "{}", run.stderr);
        assert!(!json.exists() && !csv.exists(), "{other}");
    }
}
