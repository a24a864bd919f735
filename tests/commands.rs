//! The one-process commands: `reference`, `schedule` and `generate`.

use crate::util::{self, Dir};

#[test]
fn schedule_prints_the_reports_grids() {
    let run = util::plain(&["schedule", "--rows", "5", "--cols", "8", "--ranks", "3"]).ok();
    let grid = "\
p0 p0 p0 p0 p0 p0 p0 p0
p1 p1 p0 p0 p0 p0 p0 p0
p2 p1 p1 p1 p1 p1 p0 p0
p2 p1 p1 p1 p1 p1 p1 p0
p2 p2 p2 p2 p2 p2 p1 p0
";
    assert!(run.stdout.contains(grid), "got:\n{}", run.stdout);
    let run = util::plain(&["schedule", "--rows", "4", "--cols", "6", "--ranks", "2"]).ok();
    let grid = "\
p0 p0 p0 p0 p0 p0
p1 p0 p0 p0 p0 p0
p1 p1 p1 p1 p0 p0
p1 p1 p1 p1 p1 p0
";
    assert!(run.stdout.contains(grid), "got:\n{}", run.stdout);
}

#[test]
fn generate_is_reproducible_and_matches_committed_inputs() {
    let dir = Dir::new();
    let a = dir.path("a.txt");
    let b = dir.path("b.txt");
    for out in [&a, &b] {
        util::plain(&[
            "generate".as_ref(),
            "--len".as_ref(),
            "11".as_ref(),
            "--len2".as_ref(),
            "13".as_ref(),
            "--seed".as_ref(),
            "1".as_ref(),
            "-o".as_ref(),
            out.as_os_str(),
        ])
        .ok();
    }
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap());
    assert_eq!(bytes, std::fs::read(util::repo_input("small.txt")).unwrap());
}

#[test]
fn reference_prints_and_writes_json() {
    let dir = Dir::new();
    let input = dir.input("r.txt", b"XMJYAUZ", b"MZJAWXU");
    let out = dir.path("r.json");
    let run = util::plain(&[
        "reference".as_ref(),
        input.as_os_str(),
        "--json".as_ref(),
        out.as_os_str(),
    ])
    .ok();
    let report = util::json(&out);
    assert_eq!(report["lcs_length"], 4);
    assert_eq!(report["rows"], 7);
    assert_eq!(report["swapped"], false);
    assert!(report["seconds"].is_f64());
    let lcs = report["lcs"].as_str().unwrap();
    assert!(run.stdout.contains(&format!("LCS: {lcs}")));
}
