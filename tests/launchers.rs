//! What a launcher does to a run and what the run makes of its launcher: standard output that
//! goes through the launcher (`--output` instead), the cores it leaves the ranks (`taskset`)
//! and how long they wait for them, and variables of another MPI left in the environment.

use crate::util::{self, args, Dir};

/// Under Open MPI's `mpirun`, `solve > /dev/full` exited 0 with the result lost and `| head -c
/// 10` crashed `mpirun`: rank 0's standard output goes through the launcher. With `--output`,
/// rank 0 writes the summary itself, atomically, and standard output carries nothing; the
/// path is checked before the run like every output's.
#[test]
fn output_takes_the_summary_from_the_launchers_hands() {
    let dir = Dir::new();
    let input = util::repo_input("small.txt");
    let summary = dir.path("summary.txt");
    let a = args(&[
        &"solve",
        &input,
        &"--output",
        &summary,
        &"--json",
        &"/dev/null",
    ]);
    let run = util::mpirun(2, &a).ok();
    assert!(!run.stdout.contains("LCS"), "{}", run.stdout);
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(text.starts_with("LCS length: 7\n"), "{text}");
    assert!(text.contains("2 ranks, diagonal engine"), "{text}");
    assert_eq!(dir.names(), ["summary.txt"]);
    // A path that cannot take the summary is refused before the input is read.
    let run = util::plain(&args(&[&"solve", &input, &"-o", &dir.dir.path()]));
    assert_eq!(run.status.code(), Some(5), "{run:?}");
    assert!(run.stderr.contains("--output"), "{}", run.stderr);
}

/// `taskset -c 0 mpirun -n 2` reported `cores: 2, oversubscribed: false`, and MPICH's ranks
/// spun on their one core (81 s for large_2; 0.15 s with `MPI_LCS_WAIT=yield`): the cores
/// counted are those the ranks may run on, and on them two ranks choose to yield.
#[test]
fn ranks_confined_to_one_core_count_one_and_yield() {
    let dir = Dir::new();
    let json = dir.path("pinned.json");
    let a = args(&[&"solve", &util::repo_input("small.txt"), &"--json", &json]);
    // No MPI_LCS_WAIT: the ranks choose, and log their choice.
    let env = [("MPI_LCS_WAIT", ""), ("RUST_LOG", "debug")];
    let run = util::run_with_timeout(util::pinned_command("0", 2, &a, &env)).ok();
    let report = util::json(&json);
    assert_eq!(
        (report["cores"].as_u64(), report["oversubscribed"].as_bool()),
        (Some(1), Some(true)),
        "{report:#}"
    );
    let chosen = "2 ranks may use 1 core between them: waiting by Yield";
    assert_eq!(run.stderr.matches(chosen).count(), 2, "{}", run.stderr);
}

/// Two ranks confined to one core take turns on it: each rank's report says how long it was
/// ready to run but waited for the core (`seconds_queued`, the kernel's run delay), and the
/// summary names the ranks that waited for much of the run; `solve`, `search` and `pairs` alike.
#[test]
fn ranks_sharing_one_core_report_their_wait_for_it() {
    let dir = Dir::new();
    let pair = util::mutated(&dir, "pair.txt", 30_000, "0.01", 3);
    let text = util::mutated(&dir, "text.txt", 2_000_000, "0.01", 4);
    let patterns = dir.path("patterns.txt");
    let bytes = std::fs::read(&text).unwrap();
    let lines: Vec<&[u8]> = (0..8).map(|i| &bytes[i * 1000..i * 1000 + 32]).collect();
    std::fs::write(&patterns, [lines.join(&b"\n"[..]), b"\n".to_vec()].concat()).unwrap();
    let reads = dir.path("reads.txt");
    let read = |i: usize| &bytes[i * 97..i * 97 + 60 + i % 80];
    let all: Vec<&[u8]> = (0..1500).map(read).collect();
    std::fs::write(&reads, [all.join(&b"\n"[..]), b"\n".to_vec()].concat()).unwrap();
    let json = dir.path("pinned.json");
    let runs = [
        args(&[&"solve", &pair, &"--engine", &"bands", &"--band", &"off"]),
        args(&[
            &"search",
            &patterns,
            &text,
            &"-k",
            &"3",
            &"--out",
            &dir.path("m.tsv"),
        ]),
        args(&[&"pairs", &reads, &"--out", &dir.path("d.npy")]),
    ];
    for mut a in runs {
        a.extend(args(&[&"--json", &json]));
        let what = a[0].to_string_lossy().into_owned();
        let run = util::run_with_timeout(util::pinned_command("0", 2, &a, &[])).ok();
        let report = util::json(&json);
        let total = report["seconds"]["total"].as_f64().unwrap();
        let queued: Vec<f64> = report["per_rank"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["seconds_queued"]
                    .as_f64()
                    .expect("Linux says how long a thread waited")
            })
            .collect();
        assert_eq!(queued.len(), 2, "{what}");
        for q in &queued {
            assert!(
                (0.0..=1.1 * total + 0.05).contains(q),
                "{what}: {q} of {total} s"
            );
        }
        let most = queued.iter().copied().fold(0.0, f64::max);
        assert!(most >= 0.2 * total, "{what}: {queued:?} of {total} s");
        if most >= 1e-3 {
            let said = "waited for a core that another process or rank held";
            assert!(run.stdout.contains(said), "{what}: {}", run.stdout);
        }
    }
}

/// An exported `OMPI_COMM_WORLD_SIZE=5` stopped an MPICH run under Hydra (exit 6): Hydra passes
/// the whole environment on, and the check believed Open MPI's variable first. The linked
/// library's own launcher is believed first now. Under Open MPI's `mpirun`, which sets its own
/// value over the exported one, the run is not fooled either.
#[test]
fn a_left_over_open_mpi_variable_neither_stops_nor_fools_a_run() {
    let dir = Dir::new();
    let json = dir.path("left.json");
    let a = args(&[&"solve", &util::repo_input("small.txt"), &"--json", &json]);
    let mut cmd = util::mpirun_command(2, &a, &[]);
    cmd.env("OMPI_COMM_WORLD_SIZE", "5");
    util::run_with_timeout(cmd).ok();
    let report = util::json(&json);
    assert_eq!(report["ranks"].as_u64(), Some(2), "{report:#}");
    let launcher = report["launcher"].as_str().unwrap();
    let expected = match util::launcher().1 {
        util::Family::OpenMpi => "mpirun (Open MPI)",
        util::Family::Hydra => "mpiexec (Hydra)",
    };
    assert_eq!(launcher, expected);
}
