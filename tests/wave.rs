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
    // Blocks of steps as `auto` makes them, one step a block, and short blocks.
    let runs = [
        (1, "auto"),
        (2, "auto"),
        (3, "auto"),
        (5, "auto"),
        (2, "1"),
        (3, "5"),
    ];
    let jobs: Vec<util::Task<'_, ((usize, &str), util::Run)>> = runs
        .into_iter()
        .map(|(p, halo)| {
            let files = &files;
            Box::new(move || {
                let mut a = args(&[
                    &"self-test",
                    &"--engine",
                    &"wave",
                    &"--halo-steps",
                    &halo,
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
                ((p, halo), util::mpirun(p, &a))
            }) as Box<_>
        })
        .collect();
    for ((p, halo), run) in util::parallel(2, jobs) {
        let run = run.ok();
        assert!(
            run.stdout
                .contains(&format!("on {}, wave engine: 0 failed", util::ranks(p))),
            "{p} ranks, halo steps {halo}:\n{}",
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
            // One message each way per neighbour and exchange, at most 64 steps apart here
            // (`--halo-steps auto`), and a few while the end spreads; with `--halo-steps 1`
            // one per step.
            let boundary = got["messages"]["boundary"].as_u64().unwrap();
            let pairs = ranks as u64 - 1;
            assert!(
                boundary >= 2 * pairs * (steps / 64 + 1)
                    && boundary <= 2 * pairs * (steps / 4 + ranks as u64),
                "{what}: {boundary} messages over {steps} steps"
            );
            let every = solved(
                &dir,
                ranks,
                &input,
                &[
                    "--engine",
                    "wave",
                    "--problem",
                    problem,
                    "--halo-steps",
                    "1",
                ],
            );
            assert_eq!(every["cigar"], bands["cigar"], "{what}, halo steps 1");
            let boundary = every["messages"]["boundary"].as_u64().unwrap();
            assert_eq!(boundary, every["predicted"]["boundary"].as_u64().unwrap());
            assert!(
                boundary >= 2 * pairs * (steps + 1)
                    && boundary <= 2 * pairs * (steps + ranks as u64),
                "{what}, halo steps 1: {boundary} messages over {steps} steps"
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
            // Both ranks on this host: shared memory's latency in the model.
            assert_eq!(choice["latency_seconds"].as_f64(), Some(1e-6), "{what}");
            let other = solved(&dir, 2, input, &["--engine", "bands", "--problem", problem]);
            assert_eq!(got["cigar"], other["cigar"], "{what}");
        }
    }
    // One rank counts no message.
    let alone = solved(&dir, 1, &similar, &["--engine", "auto"]);
    assert_eq!(
        alone["engine_choice"]["latency_seconds"].as_f64(),
        Some(0.0)
    );
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
            run.stderr
                .contains("the wave engine's one setting is --halo-steps"),
            "{}",
            run.stderr
        );
    }
    for engine in ["diagonal", "bands"] {
        let a = args(&[
            &"solve",
            &input,
            &"--engine",
            &engine,
            &"--halo-steps",
            &"4",
        ]);
        let run = util::mpirun(1, &a);
        assert_eq!(run.status.code(), Some(2), "{engine}: {run:?}");
        assert!(
            run.stderr.contains("--halo-steps belongs"),
            "{}",
            run.stderr
        );
    }
    let a = args(&[
        &"solve",
        &input,
        &"--engine",
        &"wave",
        &"--halo-steps",
        &"0",
    ]);
    let run = util::mpirun(1, &a);
    assert_eq!(run.status.code(), Some(2), "{run:?}");
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

/// The largest memory estimate and the largest peak of a run's ranks, from its report.
fn estimate_and_peak(report: &Value) -> (u64, u64) {
    let ranks = report["per_rank"].as_array().unwrap();
    let most = |key: &str| {
        ranks
            .iter()
            .map(|r| r[key].as_u64().unwrap())
            .max()
            .unwrap()
    };
    (most("memory_estimate_bytes"), most("peak_rss_bytes"))
}

/// A size as the refusals print it (`24.4 MiB`), in bytes.
fn size_of(text: &str) -> u64 {
    let (number, unit) = text.split_once(' ').unwrap();
    let shift = match unit {
        "B" => 0,
        "KiB" => 10,
        "MiB" => 20,
        "GiB" => 30,
        other => panic!("unit {other}"),
    };
    (number.parse::<f64>().unwrap() * (1u64 << shift) as f64) as u64
}

/// `--engine wave --memory-limit 3M` on a 100,000 x 100,001 pair at 1% said it needed about 403
/// MiB (its need at the widest spacing, whose recomputed windows are the widest) where the run
/// peaks at 7 MiB, and named `--engine bands`, which refused that limit too. The need is now
/// the least over the spacings, within twice what the run peaks at, and the bands engine is
/// named only where it fits: then it runs in that limit.
#[test]
fn the_wave_refusal_tells_its_need_and_names_only_what_fits() {
    let dir = Dir::new();
    let refused = |input: &Path, limit: u64| {
        let limit = limit.to_string();
        let a = [
            "--engine",
            "wave",
            "--problem",
            "edit",
            "--memory-limit",
            &limit,
        ];
        let run = util::mpirun(
            1,
            &args(&[&"solve", &input])
                .into_iter()
                .chain(a.iter().map(Into::into))
                .collect::<Vec<_>>(),
        );
        assert_eq!(run.status.code(), Some(4), "{run:#?}");
        let messages = run.our_messages();
        assert_eq!(messages.len(), 1, "{}", run.stderr);
        let message = messages[0].to_owned();
        let need = message.split("needs about ").nth(1).unwrap();
        (size_of(need.split(" per rank").next().unwrap()), message)
    };
    let wave = ["--engine", "wave", "--problem", "edit"];
    let bands = ["--engine", "bands", "--problem", "edit"];
    let near = util::mutated(&dir, "near.txt", 100_000, "0.01", 4);
    let (_, peak) = estimate_and_peak(&solved(&dir, 1, &near, &wave));
    let (need, message) = refused(&near, 3 << 20);
    assert!(need <= 2 * peak, "peak {peak}: {message}");
    assert!(message.contains("on 1 rank needs"), "{message}");
    assert!(!message.contains("--engine bands"), "{message}");

    // Unrelated sequences, whose steps hold more than the bands' checkpoints: just below the
    // wave's least need, the bands engine is named where (and only where) it fits.
    let far = dir.generated("far.txt", 20_000, 3);
    let ran = solved(&dir, 1, &far, &wave);
    let (bands_need, _) = estimate_and_peak(&solved(&dir, 1, &far, &bands));
    let (least, message) = refused(&far, 1 << 20);
    assert!(least <= 2 * estimate_and_peak(&ran).1, "{message}");
    let below = least - (512 << 10);
    let (_, message) = refused(&far, below);
    let named = message.contains("--engine bands needs about");
    if bands_need + (1 << 20) < below {
        assert!(named, "{message}");
    } else if bands_need > below + (1 << 20) {
        assert!(!named, "{message}");
    }
    if named {
        let limit = below.to_string();
        let extra = [&bands[..], &["--memory-limit", &limit]].concat();
        assert_eq!(solved(&dir, 1, &far, &extra)["cigar"], ran["cigar"]);
    }
}

/// `reference --engine wave --memory-limit 1M` described the bit-parallel fill ("keeps two bits
/// per cell"), which it does not run: the refusal says what the wave algorithm keeps, and a
/// need near the run's own.
#[test]
fn the_reference_wave_refusal_describes_the_wave() {
    let dir = Dir::new();
    let near = util::mutated(&dir, "near.txt", 20_000, "0.01", 6);
    let run = util::plain(&args(&[
        &"reference",
        &near,
        &"--engine",
        &"wave",
        &"--memory-limit",
        &"1M",
    ]));
    assert_eq!(run.status.code(), Some(4), "{run:#?}");
    let message = run.our_messages()[0].to_owned();
    assert!(
        message.contains("keeps the wave algorithm's steps"),
        "{message}"
    );
    assert!(!message.contains("per cell"), "{message}");
    let json = dir.path("r.json");
    util::plain(&args(&[
        &"reference",
        &near,
        &"--engine",
        &"wave",
        &"--json",
        &json,
    ]))
    .ok();
    let (need, peak) = estimate_and_peak(&util::json(&json));
    let said = message.split("needs about ").nth(1).unwrap();
    let said = size_of(said.split(',').next().unwrap());
    assert!(
        said <= 2 * peak && said + (1 << 20) >= need,
        "{message}: {need} {peak}"
    );
}

/// A pair made to fool `--engine auto`'s samples: two random sequences of `len` bytes, the
/// second equal to the first around the four places the estimate samples (1,024 rows at 0,
/// 1/3, 2/3 and the end of the way, 256 bytes either side): an estimate of 0 for a cost near
/// half the length.
fn decoy(dir: &Dir, len: usize, seed: u64) -> std::path::PathBuf {
    let random = dir.generated_pair("random.txt", len, len, seed);
    let text = std::fs::read(random).unwrap();
    let mut lines = text.split(|&b| b == b'\n');
    let (x, mut y) = (
        lines.next().unwrap().to_vec(),
        lines.next().unwrap().to_vec(),
    );
    let (rows, slack) = (1024, 256);
    for k in 0..4 {
        let at = k * (len - rows) / 3;
        let (lo, hi) = (at.saturating_sub(slack), (at + rows + slack).min(len));
        y[lo..hi].copy_from_slice(&x[lo..hi]);
    }
    dir.input("decoy.txt", &x, &y)
}

/// A 100,000 pair similar only where `--engine auto` samples it got an estimate of 0 against a
/// cost of 45,210: auto took the wave engine and ran 2.1 s where the bands engine takes 0.5 s,
/// and with `--memory-limit 18M` was refused though the bands engine runs in that. A wave run
/// auto chooses now gives way to the bands engine past a cut-off: the bands engine's CIGAR,
/// every message predicted (the wave's steps' too), on 1 to 3 ranks; the self-test checks the
/// path of each against the reference's; and under a limit the bands engine fits, it runs.
#[test]
fn auto_gives_way_to_the_bands_engine_on_a_pair_that_fools_its_samples() {
    let dir = Dir::new();
    let input = decoy(&dir, 30_000, 38);
    for problem in ["edit", "lcs"] {
        let bands = solved(
            &dir,
            2,
            &input,
            &["--engine", "bands", "--problem", problem],
        );
        for ranks in [1, 2, 3] {
            let auto = solved(
                &dir,
                ranks,
                &input,
                &["--engine", "auto", "--problem", problem],
            );
            let what = format!("{problem} on {ranks} ranks");
            let choice = &auto["engine_choice"];
            assert_eq!(choice["estimate"], 0, "{what}: {choice}");
            assert_eq!(choice["gave_way"], true, "{what}: {choice}");
            assert!(choice["cut_off"].as_u64().unwrap() > 0, "{what}: {choice}");
            assert_eq!(auto["engine"], "bands", "{what}");
            assert!(auto["score_steps"].is_null(), "{what}");
            assert_eq!(auto["cigar"], bands["cigar"], "{what}");
            assert_eq!(
                auto["messages"]["boundary"], auto["predicted"]["boundary"],
                "{what}"
            );
        }
    }
    for ranks in [1, 2, 3] {
        let a = args(&[
            &"self-test",
            &"--engine",
            &"auto",
            &"--problem",
            &"lcs,edit",
            &"--cases",
            &"4",
            &"--file",
            &input,
        ]);
        let run = util::mpirun(ranks, &a).ok();
        assert!(run.stdout.contains(": 0 failed"), "{}", run.stdout);
    }
    // What auto needs (the wave's steps up to its cut-off, then the bands engine), in a limit
    // a little above it, which the wave engine's steps to the pair's whole bound do not fit.
    let auto = solved(&dir, 1, &input, &["--engine", "auto", "--problem", "edit"]);
    let (need, _) = estimate_and_peak(&auto);
    let limit = (need + (1 << 20)).to_string();
    let limited = ["--problem", "edit", "--memory-limit", &limit];
    let ran = solved(
        &dir,
        1,
        &input,
        &[&["--engine", "auto"], &limited[..]].concat(),
    );
    assert_eq!(ran["cigar"], auto["cigar"]);
    assert_eq!(ran["engine_choice"]["gave_way"], true);
    let wave = args(&[&"solve", &input, &"--engine", &"wave"]);
    let wave: Vec<_> = wave
        .into_iter()
        .chain(limited.iter().map(Into::into))
        .collect();
    assert_eq!(util::mpirun(1, &wave).status.code(), Some(4));
}
