//! What a launcher does to a run: standard output that goes through the launcher
//! (`--output` instead).

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
