//! `--engine wave` and `--engine auto`: the wave engine's path, move for move the reference's
//! and the bands engine's, on every rank count; its messages as predicted from the final cost;
//! what its report says; `--engine auto`'s choice; `reference --engine wave`; refusals and a
//! rank that dies mid-fill. Its pictures and page: `wave_page`.

use std::path::Path;

use serde_json::Value;

use crate::util::{self, args, Dir};

/// A solve's report, run through `mpirun`.
fn solved(dir: &Dir, ranks: usize, input: &Path, extra: &[&str]) -> Value {
    let name = format!(
        "{}-{ranks}-{}.json",
        input.file_stem().unwrap().to_string_lossy(),
        extra.join("_")
    );
    let out = dir.path(&name);
    let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|s| s.as_ref()).collect();
    util::solve(ranks, input, &out, &extra, &[]).ok();
    util::json(&out)
}

/// Hundreds of pairs through the self-test (the edge shapes, random pairs, near pairs whose
/// wavefronts are wide enough to split), both problems, on 1, 2, 3 and 5 ranks: rank 0 checks
/// every path against the reference's, move for move, and every count against the prediction.
#[test]
fn every_rank_count_walks_the_references_path_with_the_predicted_messages() {
    let dir = Dir::new();
    let files = [
        util::mutated(&dir, "near-0.1.txt", 20_000, "0.001", 1),
        util::mutated(&dir, "near-1.txt", 6_000, "0.01", 2),
        util::mutated(&dir, "near-10.txt", 1_500, "0.1", 3),
        util::repo_input("medium.txt"),
    ];
    let jobs: Vec<util::Task<'_, (usize, util::Run)>> = [1, 2, 3, 5]
        .into_iter()
        .map(|p| {
            let files = &files;
            Box::new(move || {
                let mut a = args(&[
                    &"self-test",
                    &"--engine",
                    &"wave",
                    &"--problem",
                    &"lcs,edit",
                    &"--cases",
                    &"40",
                    &"--max-len",
                    &"400",
                ]);
                for f in files {
                    a.extend(args(&[&"--file", f]));
                }
                (p, util::mpirun(p, &a))
            }) as Box<_>
        })
        .collect();
    for (p, run) in util::parallel(2, jobs) {
        let run = run.ok();
        assert!(
            run.stdout
                .contains(&format!("on {}, wave engine: 0 failed", util::ranks(p))),
            "{p} ranks:\n{}",
            run.stdout
        );
    }
}

#[test]
fn the_cigar_is_the_bands_engines_and_the_report_says_what_the_steps_did() {
    let dir = Dir::new();
    let input = util::mutated(&dir, "pair.txt", 30_000, "0.01", 4);
    for problem in ["edit", "lcs"] {
        let bands = solved(
            &dir,
            2,
            &input,
            &["--engine", "bands", "--problem", problem],
        );
        for ranks in [1, 2, 3] {
            let got = solved(
                &dir,
                ranks,
                &input,
                &["--engine", "wave", "--problem", problem],
            );
            let what = format!("{problem} on {ranks} ranks");
            assert_eq!(got["engine"], "wave", "{what}");
            assert_eq!(got["cigar"], bands["cigar"], "{what}");
            assert_eq!(got["distance"], bands["distance"], "{what}");
            assert_eq!(got["lcs_length"], bands["lcs_length"], "{what}");
            assert_eq!(
                got["messages"]["boundary"], got["predicted"]["boundary"],
                "{what}"
            );
            let steps = got["score_steps"].as_u64().unwrap();
            let (m, n) = (got["rows"].as_u64().unwrap(), got["cols"].as_u64().unwrap());
            let cost = match problem {
                "edit" => got["distance"].as_u64().unwrap(),
                _ => m + n - 2 * got["lcs_length"].as_u64().unwrap(),
            };
            assert_eq!(steps, cost, "{what}: the steps are the final cost");
            assert!(got["wave_bound"].as_u64().unwrap() >= steps, "{what}");
            // One message each way per neighbour and step, and a few while the end spreads.
            let boundary = got["messages"]["boundary"].as_u64().unwrap();
            let pairs = ranks as u64 - 1;
            assert!(
                boundary >= 2 * pairs * (steps + 1)
                    && boundary <= 2 * pairs * (steps + ranks as u64),
                "{what}: {boundary} messages over {steps} steps"
            );
            // Every rank does a share of the work, and far less than the whole matrix.
            let cells: Vec<u64> = got["per_rank"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["cells"].as_u64().unwrap())
                .collect();
            assert!(cells.iter().all(|&c| c > 0), "{what}: {cells:?}");
            assert!(cells.iter().sum::<u64>() < m * n / 20, "{what}: {cells:?}");
            assert!(got["traceback_hops"].as_u64().unwrap() <= steps, "{what}");
        }
    }
    // The sequential entry walks the same path.
    let json = dir.path("reference-wave.json");
    util::plain(&args(&[
        &"reference",
        &input,
        &"--engine",
        &"wave",
        &"--problem",
        &"edit",
        &"--json",
        &json,
    ]))
    .ok();
    let reference = util::json(&json);
    let bands = solved(&dir, 2, &input, &["--engine", "bands", "--problem", "edit"]);
    assert_eq!(reference["cigar"], bands["cigar"]);
    assert_eq!(reference["score_steps"], bands["distance"]);
}

#[test]
fn auto_takes_the_wave_on_similar_pairs_and_the_bands_on_distant_ones() {
    let dir = Dir::new();
    let similar = util::mutated(&dir, "similar.txt", 50_000, "0.001", 5);
    let distant = util::repo_input("large_3.txt");
    for (input, engine) in [(&similar, "wave"), (&distant, "bands")] {
        for problem in ["edit", "lcs"] {
            let got = solved(&dir, 2, input, &["--engine", "auto", "--problem", problem]);
            let what = format!("{} {problem}", input.display());
            assert_eq!(got["engine"], engine, "{what}");
            let choice = &got["engine_choice"];
            assert_eq!(choice["engine"], engine, "{what}");
            let (wave, bands) = (
                choice["wave_seconds"].as_f64().unwrap(),
                choice["bands_seconds"].as_f64().unwrap(),
            );
            assert_eq!(wave < bands, engine == "wave", "{what}: {choice}");
            assert!(choice["estimate"].as_u64().unwrap() > 0, "{what}");
            let other = solved(&dir, 2, input, &["--engine", "bands", "--problem", problem]);
            assert_eq!(got["cigar"], other["cigar"], "{what}");
        }
    }
    // Another engine's run says nothing of a choice.
    let bands = solved(&dir, 1, &similar, &["--engine", "bands"]);
    assert!(bands["engine_choice"].is_null() && bands["score_steps"].is_null());
}

#[test]
fn settings_of_other_engines_and_pictures_are_refused() {
    let dir = Dir::new();
    let input = dir.input("pair.txt", b"GATTACA", b"GATACCA");
    for extra in [
        &["--store", "dense"][..],
        &["--batch", "64"],
        &["--checkpoint", "full"],
        &["--band", "auto"],
    ] {
        let mut a = args(&[&"solve", &input, &"--engine", &"wave"]);
        a.extend(extra.iter().map(Into::into));
        let run = util::mpirun(1, &a);
        assert_eq!(run.status.code(), Some(2), "{extra:?}: {run:?}");
        assert!(
            run.stderr.contains("the wave engine has no setting"),
            "{}",
            run.stderr
        );
    }
    // `auto` chooses per pair: a picture needs one engine (the wave's own pictures:
    // `wave_page`).
    let svg = dir.path("auto.svg");
    let run = util::mpirun(
        2,
        &args(&[&"solve", &input, &"--engine", &"auto", &"--svg", &svg]),
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(run.stderr.contains("--engine"), "{}", run.stderr);
    assert!(!svg.exists());
}

#[test]
fn a_rank_dying_in_the_wave_fill_ends_the_job_and_leaves_no_report() {
    let dir = Dir::new();
    let input = util::mutated(&dir, "pair.txt", 20_000, "0.01", 6);
    for (ranks, fault) in [
        (2, "fill:1:40"),
        (3, "fill:0:10"),
        (2, "traceback:0:100000"),
    ] {
        let json = dir.path(&format!("fault-{ranks}.json"));
        let env = [("MPI_LCS_FAULT", fault)];
        let extra = ["--engine".as_ref(), "wave".as_ref()];
        let run = util::solve(ranks, &input, &json, &extra, &env);
        assert!(!run.status.success(), "{fault}: {run:#?}");
        assert!(
            run.stderr.contains("injected fault"),
            "{fault}: {}",
            run.stderr
        );
        assert!(!json.exists(), "{fault}: report written");
    }
}
