//! The experiment scripts: `scripts/experiment` runs every configuration and appends whole rows
//! through the binary into a result set of its own, skips what the memory pre-check refuses,
//! kills what outlives its time limit, and `mpi-lcs table` turns the result set into the
//! report's Markdown; `scripts/slurm-experiment.sh` refuses to run without a current binary.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::util::{self, Dir, Job, Run};

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

/// The launcher command [`experiment`] has the script use, as the rows record it: Hydra's as
/// named; else the script's default (`$MPI_LCS_LAUNCHER_CMD`, else `mpirun`), to which it adds
/// `--oversubscribe`.
fn script_launcher() -> String {
    match util::launcher() {
        (program, util::Family::Hydra) => program.clone(),
        (_, util::Family::OpenMpi) => {
            let default = std::env::var("MPI_LCS_LAUNCHER_CMD").unwrap_or_else(|_| "mpirun".into());
            format!("{default} --oversubscribe")
        }
    }
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
    for column in [
        "cores",
        "oversubscribed",
        "host",
        "hosts",
        "cpu",
        "mpi_library",
    ] {
        assert!(
            util::column(&table, column).iter().all(|v| !v.is_empty()),
            "{column}"
        );
    }
    // The launcher is recorded as the command the script used (whichever family's); the
    // reference is one process.
    let used = script_launcher();
    for (engine, launcher) in engines.iter().zip(util::column(&table, "launcher")) {
        match *engine {
            "reference" => assert_eq!(launcher, "none"),
            "diagonal" => assert_eq!(launcher, used),
            other => panic!("engine {other}"),
        }
    }
}

/// A copy of the repository's layout with the experiment and launch scripts, an input and a
/// committed result set, to see where an experiment writes when it is not told.
fn scratch_repository(dir: &Dir) -> PathBuf {
    let repo = dir.path("repo");
    for sub in ["scripts", "inputs", "results"] {
        std::fs::create_dir_all(repo.join(sub)).unwrap();
    }
    for name in ["experiment", "launch"] {
        std::fs::copy(script(name), repo.join("scripts").join(name)).unwrap();
    }
    std::fs::write(repo.join("inputs/tiny.txt"), "ACGTTGCA\nCATGCAGT\n").unwrap();
    std::fs::write(repo.join("results/runs.csv"), "committed results\n").unwrap();
    repo
}

#[test]
fn experiment_writes_a_new_result_set_unless_told_where() {
    let dir = Dir::new();
    let repo = scratch_repository(&dir);
    let mut sets = Vec::new();
    for _ in 0..2 {
        let mut cmd = Command::new(repo.join("scripts/experiment"));
        cmd.args([
            "--inputs",
            "inputs/tiny.txt",
            "--ranks",
            "1",
            "--stores",
            "dense",
        ])
        .args(["--reps", "1", "--no-warmup"])
        .current_dir(&repo)
        .env("MPI_LCS_BIN", util::bin());
        let run = util::run_with_timeout(cmd).ok();
        let named = run
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("result set: "))
            .unwrap_or_else(|| panic!("no result set named in:\n{}", run.stdout))
            .to_owned();
        assert!(
            named.starts_with("results/runs/") && named.ends_with(".csv"),
            "{named}"
        );
        sets.push(named);
    }
    assert_ne!(
        sets[0], sets[1],
        "a second experiment gets a file of its own"
    );
    for set in &sets {
        let table = util::csv(&repo.join(set));
        assert_eq!(
            table.1.len(),
            2,
            "one reference and one solve row: {table:?}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(repo.join("results/runs.csv")).unwrap(),
        "committed results\n",
        "the committed result set is untouched"
    );
    // Naming a file that is not a result set stops the experiment before any run.
    let mut cmd = Command::new(repo.join("scripts/experiment"));
    cmd.args([
        "--inputs",
        "inputs/tiny.txt",
        "--ranks",
        "1",
        "--out",
        "results/runs.csv",
    ])
    .current_dir(&repo)
    .env("MPI_LCS_BIN", util::bin());
    let run = util::run_with_timeout(cmd);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains("cannot be appended to"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("not a result set"), "{}", run.stderr);
}

/// Whether process `pid` still runs (exists and is not a zombie waiting to be reaped).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let after = stat.rfind(')').map_or("", |at| &stat[at + 1..]);
        after.split_whitespace().next() != Some("Z")
    })
}

#[test]
fn experiment_kills_a_run_that_outlives_its_timeout_and_goes_on() {
    let dir = Dir::new();
    // 53 anti-diagonals, and 129: only the second input's fill reaches diagonal 100.
    let quick = tiny_input(&dir, "quick.txt", 24, 30);
    let stall = tiny_input(&dir, "stall.txt", 60, 70);
    let csv = dir.path("runs.csv");
    let mut cmd = Command::new(script("experiment"));
    cmd.arg("--inputs")
        .arg(format!("{} {}", quick.display(), stall.display()))
        .args([
            "--ranks",
            "2",
            "--stores",
            "dense",
            "--reps",
            "2",
            "--no-warmup",
        ])
        // Far above what the quick runs need even on a loaded machine: only the hung one meets it.
        .args(["--timeout", "5", "--out"])
        .arg(&csv)
        .current_dir(dir.dir.path())
        .env("MPI_LCS_BIN", util::bin())
        // Rank 1 hangs when its fill reaches diagonal 100: only the second input's runs do (a
        // fault naming a rank the run lacks would be a usage error, so every run has 2 ranks).
        .env("MPI_LCS_FAULT", "stall:1:100");
    if let (program, util::Family::Hydra) = util::launcher() {
        cmd.args(["--launcher", program]);
    }
    let job = Job::spawn(cmd);
    let processes = job.processes();
    let run = job.wait(util::TIMEOUT);
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let label = format!(
        "{} diagonal dense 2 ranks rep 1/2: killed after 5 s",
        stall.display()
    );
    assert!(
        run.stderr.contains(&format!("TIMEOUT: {label}")),
        "{}",
        run.stderr
    );
    // The hung configuration was killed once and not repeated: its second repetition never ran.
    assert_eq!(
        run.stderr.matches("TIMEOUT: ").count(),
        1,
        "one timeout:\n{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("its remaining repetitions are skipped"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("rep 2/2: killed"), "{}", run.stderr);
    // The other configurations ran; the hung one recorded nothing.
    let table = util::csv(&csv);
    let rows: Vec<(&str, &str)> = util::column(&table, "input")
        .into_iter()
        .zip(util::column(&table, "ranks"))
        .collect();
    let (quick, stall) = (quick.to_str().unwrap(), stall.to_str().unwrap());
    let expected = [(quick, "1"), (quick, "1"), (quick, "2"), (quick, "2")];
    let expected = [&expected[..], &[(stall, "1"), (stall, "1")]].concat();
    assert_eq!(rows, expected, "the references, and the quick input's runs");
    assert!(run.stdout.contains("1 timed out"), "{}", run.stdout);
    // Nothing of the killed run is left running.
    let left: Vec<u32> = processes
        .list()
        .into_iter()
        .filter(|&pid| alive(pid))
        .collect();
    assert!(left.is_empty(), "still running: {left:?}");
}

#[test]
fn experiment_passes_the_engine_and_gives_stores_to_the_diagonal_engine_only() {
    let dir = Dir::new();
    let input = tiny_input(&dir, "e.txt", 10, 12);
    let run = experiment(
        &dir,
        &[
            "--inputs".as_ref(),
            input.as_os_str(),
            "--engines".as_ref(),
            "diagonal bands".as_ref(),
            "--stores".as_ref(),
            "dense hash".as_ref(),
            "--ranks".as_ref(),
            "1 2".as_ref(),
            "--reps".as_ref(),
            "1".as_ref(),
            "--no-warmup".as_ref(),
            "--dry-run".as_ref(),
        ],
        &[],
    )
    .ok();
    let solves: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(" solve "))
        .collect();
    assert_eq!(solves.len(), 2 * 2 + 2, "{}", run.stdout);
    let count = |needle: &str| solves.iter().filter(|l| l.contains(needle)).count();
    assert_eq!(count("--engine diagonal --store dense"), 2, "{solves:?}");
    assert_eq!(count("--engine diagonal --store hash"), 2, "{solves:?}");
    assert_eq!(count("--engine bands"), 2, "{solves:?}");
    assert!(
        solves
            .iter()
            .filter(|l| l.contains("--engine bands"))
            .all(|l| !l.contains("--store")),
        "{solves:?}"
    );
    let references: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(" reference "))
        .collect();
    assert_eq!(references.len(), 1, "{}", run.stdout);
    assert!(
        references[0].contains("env -u MPI_LCS_LAUNCHER"),
        "{}",
        references[0]
    );

    // For real: both engines record their rows, each with its method.
    let csv = dir.path("both.csv");
    let a = [
        "--inputs".as_ref(),
        input.as_os_str(),
        "--engines".as_ref(),
        "diagonal bands".as_ref(),
        "--ranks".as_ref(),
        "1 2".as_ref(),
        "--reps".as_ref(),
        "1".as_ref(),
        "--no-warmup".as_ref(),
        "--out".as_ref(),
        csv.as_os_str(),
    ];
    experiment(&dir, &a, &[]).ok();
    let table = util::csv(&csv);
    let engines = util::column(&table, "engine");
    let of = |e: &str| engines.iter().filter(|x| **x == e).count();
    assert_eq!(of("bands"), 2, "{engines:?}");
    assert_eq!(of("diagonal"), 4, "{engines:?}");
    let batches = util::column(&table, "batch");
    let stores = util::column(&table, "store");
    for ((engine, batch), store) in engines.iter().zip(&batches).zip(&stores) {
        assert_eq!(
            *engine == "bands",
            !batch.is_empty(),
            "{engine}: batch {batch}"
        );
        assert_eq!(
            *engine == "diagonal",
            !store.is_empty(),
            "{engine}: store {store}"
        );
    }
    let lengths = util::column(&table, "lcs_length");
    assert!(lengths.iter().all(|l| *l == lengths[0]), "{lengths:?}");

    let bad = experiment(&dir, &["--engines", "diagonal wavefront"], &[]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(
        bad.stderr.contains("unknown engine 'wavefront'"),
        "{}",
        bad.stderr
    );
}

#[test]
fn slurm_script_refuses_a_missing_or_stale_binary() {
    let dir = Dir::new();
    let slurm = |bin: &Path| {
        let mut cmd = Command::new("bash");
        cmd.arg(script("slurm-experiment.sh"))
            .env("SLURM_SUBMIT_DIR", env!("CARGO_MANIFEST_DIR"))
            .env("MPI_LCS_BIN", bin);
        util::run_with_timeout(cmd)
    };
    let run = slurm(&dir.path("none"));
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains("no mpi-lcs binary at"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("cargo build --release"),
        "{}",
        run.stderr
    );

    let old = dir.path("old-mpi-lcs");
    std::fs::copy(util::bin(), &old).unwrap();
    let file = std::fs::File::options().write(true).open(&old).unwrap();
    file.set_modified(std::time::UNIX_EPOCH + Duration::from_secs(946_684_800))
        .unwrap();
    drop(file);
    let run = slurm(&old);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains("older than the sources"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "nothing ran: {}", run.stdout);
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
        "- cramped: all 6 runs found LCS length",
    ] {
        assert!(md.contains(wanted), "no '{wanted}' in:\n{md}");
    }
    assert!(!md.contains("diagonal · hash"), "hash was skipped:\n{md}");
}
