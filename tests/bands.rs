//! The bands engine under the launcher: the reference's LCS byte for byte for every rank count,
//! batch and checkpoint mode, boundary messages exactly `(p - 1) * ceil(m / B)` for the whole
//! matrix and as predicted for the diagonal bands a run fills, at most `p - 1` hops, and the
//! same clean failures as the diagonal engine.

use crate::util::{self, args, Dir, Job};

/// Random pairs (widths that are not multiples of 64, one row, one column, empty sequences,
/// more ranks than words) and the repository's inputs, each under batches of 1, 63, 64 and the
/// default rows and four ways of keeping the traceback, on 1, 2, 3, 5 and 8 ranks.
#[test]
fn bands_agree_with_the_reference_for_every_rank_count_batch_and_checkpoint() {
    let inputs = ["small.txt", "medium.txt", "large.txt"].map(util::repo_input);
    let jobs: Vec<util::Task<'_, (usize, util::Run)>> = [1, 2, 3, 5, 8]
        .into_iter()
        .map(|p| {
            let inputs = &inputs;
            Box::new(move || {
                let mut a = args(&[&"self-test", &"--engine", &"bands", &"--sweep"]);
                a.extend(args(&[&"--cases", &"40", &"--max-len", &"300"]));
                for input in inputs {
                    a.extend(args(&[&"--file", input]));
                }
                (p, util::mpirun(p, &a))
            }) as Box<_>
        })
        .collect();
    for (p, run) in util::parallel(3, jobs) {
        let run = run.ok();
        let summary = format!(
            "self-test: 52 pairs (lcs) on {}, bands engine, 16 settings: 0 failed",
            util::ranks(p)
        );
        assert!(run.stdout.contains(&summary), "{p}:\n{}", run.stdout);
    }
}

#[test]
fn synchronous_sends_do_not_deadlock_the_pipeline() {
    // Near copies too: a diagonal band's pipeline sends only some batches on each edge.
    let dir = Dir::new();
    let near = near_copies(&dir, 4000);
    for ranks in [3, 4] {
        let a = args(&[
            &"self-test",
            &"--engine",
            &"bands",
            &"--batch",
            &"7",
            &"--cases",
            &"20",
            &"--problem",
            &"lcs,edit",
            &"--file",
            &util::repo_input("large.txt"),
            &"--file",
            &near[1],
        ]);
        let run = util::mpirun_env(ranks, &a, &[("MPI_LCS_SYNCHRONOUS_SENDS", "1")]).ok();
        assert!(run.stdout.contains(": 0 failed"), "{}", run.stdout);
    }
}

#[test]
fn a_bands_run_reports_its_batches_checkpoints_and_messages() {
    let dir = Dir::new();
    let input = util::repo_input("large.txt");
    let expected = dir.path("ref.json");
    util::plain(&args(&[&"reference", &input, &"--json", &expected])).ok();
    let expected = util::json(&expected);
    for (ranks, batch, checkpoint) in [(3, "100", "auto"), (2, "256", "full"), (5, "1", "7")] {
        let json = dir.path("bands.json");
        // The whole matrix: the diagonal band's fills have their own counts (below).
        let extra = [
            "--engine",
            "bands",
            "--band",
            "off",
            "--batch",
            batch,
            "--checkpoint",
            checkpoint,
        ];
        let extra: Vec<&std::ffi::OsStr> = extra.iter().map(std::ffi::OsStr::new).collect();
        let run = util::solve(ranks, &input, &json, &extra, &[]).ok();
        let report = util::json(&json);
        let context = format!("P={ranks} B={batch} K={checkpoint}");
        assert_eq!(report["lcs"], expected["lcs"], "{context}");
        assert_eq!(
            util::json_keys(&report),
            util::json_keys(&expected),
            "one schema: {context}"
        );
        assert_eq!(report["engine"], "bands");
        assert_eq!(report["store"], serde_json::Value::Null);
        assert_eq!(report["batch"].as_u64(), batch.parse().ok());
        let b: u64 = batch.parse().unwrap();
        // 1,000 columns are 16 words: every rank owns some.
        let predicted = (ranks as u64 - 1) * 1000u64.div_ceil(b);
        assert_eq!(report["messages"]["boundary"], predicted, "{context}");
        assert_eq!(report["predicted"]["boundary"], predicted, "{context}");
        assert_eq!(
            report["bytes"]["boundary"],
            predicted * b.div_ceil(64) * 8,
            "{context}"
        );
        assert!(
            report["traceback_hops"].as_u64().unwrap() < ranks as u64,
            "{context}"
        );
        match checkpoint {
            "full" => assert_eq!(report["checkpoint"], "full"),
            "auto" => assert!(report["checkpoint"].is_string() || report["checkpoint"].is_u64()),
            k => assert_eq!(report["checkpoint"].as_u64(), k.parse().ok()),
        }
        let pairs: Vec<Vec<u64>> = serde_json::from_value(report["pairs"].clone()).unwrap();
        for (from, row) in pairs.iter().enumerate() {
            for (to, &count) in row.iter().enumerate() {
                let want = if to == from + 1 {
                    1000u64.div_ceil(b)
                } else {
                    0
                };
                assert_eq!(count, want, "{context}: {from} -> {to}");
            }
        }
        assert!(
            run.stdout.contains("bands engine, batches of"),
            "{}",
            run.stdout
        );
    }
}

/// More ranks than words: ranks past the last band own nothing, take part in the traceback
/// protocol, and end.
#[test]
fn ranks_without_a_band_end_cleanly() {
    let dir = Dir::new();
    let input = dir.input("narrow.txt", b"ACGTTGCA", b"GATTACAGATTACA");
    let json = dir.path("n.json");
    let extra = ["--engine".as_ref(), "bands".as_ref()];
    util::solve(4, &input, &json, &extra, &[]).ok();
    let report = util::json(&json);
    assert_eq!(report["messages"]["boundary"], 0);
    assert_eq!(report["traceback_hops"], 0);
    let cells: Vec<u64> = report["per_rank"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["cells"].as_u64().unwrap())
        .collect();
    assert_eq!(cells, [8 * 14, 0, 0, 0]);
}

#[test]
fn bad_combinations_are_usage_errors() {
    let input = util::repo_input("small.txt");
    // In a scratch directory: a refusal that failed must not leave a picture in the tree.
    let dir = Dir::new();
    let svg = dir.path("x.svg");
    let cases: [(&[&str], &str); 5] = [
        (
            &["--engine", "bands", "--store", "hash"],
            "--store belongs to the diagonal engine",
        ),
        (
            &["--engine", "bands", "--batch", "0"],
            "--batch must be at least 1",
        ),
        (
            &["--engine", "bands", "--checkpoint", "0"],
            "--checkpoint must be at least 1",
        ),
        (
            &["--engine", "bands", "--checkpoint", "some"],
            "not auto, full or a number",
        ),
        (&["--batch", "64"], "belong to --engine bands"),
    ];
    for (extra, problem) in cases {
        let mut a = args(&[&"solve", &input]);
        a.extend(extra.iter().map(std::ffi::OsString::from));
        let run = util::mpirun(2, &a);
        assert_eq!(run.status.code(), Some(2), "{extra:?}: {run:?}");
        assert!(run.stderr.contains(problem), "{extra:?}: {}", run.stderr);
        let errors = run.stderr.matches("error").count();
        assert_eq!(errors, 1, "{extra:?}: one message:\n{}", run.stderr);
    }
    assert!(!svg.exists(), "{svg:?} was written");
}

#[test]
fn schedule_lists_the_bands_and_their_messages() {
    let run = util::plain(&[
        "schedule", "--engine", "bands", "--rows", "1000", "--cols", "1000", "--ranks", "3",
        "--batch", "100",
    ])
    .ok();
    assert!(run
        .stdout
        .contains("predicted boundary messages: 20 (2 band edges x 10 batches)"));
    assert!(
        run.stdout.contains("p2  11..16  704..1000  296000"),
        "{}",
        run.stdout
    );
    // The picture: one arrow per predicted message, a band per rank, drawn by batches.
    let dir = Dir::new();
    let svg = dir.path("bands.svg");
    let a = args(&[
        &"schedule",
        &"--engine",
        &"bands",
        &"--rows",
        &"300",
        &"--cols",
        &"1000",
        &"--ranks",
        &"3",
        &"--batch",
        &"64",
        &"--svg",
        &svg,
    ]);
    util::plain(&a).ok();
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let count = |class: &str| {
        doc.descendants()
            .filter(|e| e.attribute("class") == Some(class))
            .count()
    };
    // 300 x 1000 cells are too small to draw one by one: a block per band and batch.
    assert_eq!(
        (count("message"), count("band-label"), count("block")),
        (2 * 5, 3, 3 * 5)
    );
    // The page plays the bands stage by stage; a word of 4 columns gives 5 x 8 two bands.
    let page = dir.path("bands.html");
    let a = args(&[
        &"schedule",
        &"--engine",
        &"bands",
        &"--rows",
        &"5",
        &"--cols",
        &"8",
        &"--word",
        &"4",
        &"--html",
        &page,
    ]);
    let run = util::plain(&a).ok();
    assert!(
        run.stdout.contains("words of 4 columns, for teaching"),
        "{}",
        run.stdout
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"engine\":\"bands\""));
    // --word is the bands' only, and a word has 1 to 64 columns.
    for bad in [&["--word", "4"][..], &["--engine", "bands", "--word", "65"]] {
        let mut a = args(&[&"schedule", &"--rows", &"5", &"--cols", &"8"]);
        a.extend(bad.iter().map(std::ffi::OsString::from));
        assert_eq!(util::plain(&a).status.code(), Some(2), "{bad:?}");
    }
}

/// The length-only count agrees with the traceback's length (the check of the 10^6 run).
#[test]
fn length_only_counts_the_same_length() {
    let dir = Dir::new();
    let input = util::repo_input("large_2.txt");
    let json = dir.path("r.json");
    util::plain(&args(&[&"reference", &input, &"--json", &json])).ok();
    let length = util::json(&json)["lcs_length"].as_u64().unwrap();
    let run = util::plain(&args(&[&"reference", &input, &"--length-only"])).ok();
    assert_eq!(run.stdout, format!("LCS length: {length}\n"));
}

/// A rank dying in the pipeline or the walk ends the job, leaves no report, and a stalled
/// rank is ended by SIGTERM to the launcher, as in the diagonal engine. That every rank ended
/// is checked without a clock: a job still running fails on the harness's timeout.
#[test]
fn faults_end_the_whole_job() {
    let dir = Dir::new();
    let input = util::repo_input("large_2.txt");
    let json = dir.path("f.json");
    let bands = [
        "--engine".as_ref(),
        "bands".as_ref(),
        "--batch".as_ref(),
        "64".as_ref(),
    ];
    for fault in ["fill:1:5000", "fill:0:9000", "traceback:0:100000"] {
        let run = util::solve(2, &input, &json, &bands, &[("MPI_LCS_FAULT", fault)]);
        assert!(!run.status.success(), "{fault}: {run:?}");
        assert!(
            run.stderr.contains("injected fault"),
            "{fault}: {}",
            run.stderr
        );
        assert!(!json.exists(), "{fault}");
    }
    let mut a = args(&[&"solve", &input, &"--json", &json]);
    a.extend(bands.iter().map(|s| s.to_os_string()));
    let mut job = Job::spawn(util::mpirun_command(
        2,
        &a,
        &[("MPI_LCS_FAULT", "stall:1:3000")],
    ));
    util::wait_until(
        || {
            assert!(!job.finished(), "ended first: {}", job.stderr_so_far());
            job.stderr_so_far().contains("injected stall")
        },
        || "no stall".into(),
    );
    let processes = job.processes();
    // SAFETY: sending a signal has no memory effects.
    assert_eq!(unsafe { libc::kill(job.pid() as i32, libc::SIGTERM) }, 0);
    let _ = job.wait(util::TIMEOUT);
    assert!(!json.exists());
    processes.wait_all_ended();
    // A bad input under the bands engine: one message, every rank ends.
    let missing = dir.path("missing.txt");
    let run = util::mpirun(3, &args(&[&"solve", &missing, &"--engine", &"bands"]));
    assert_eq!(run.status.code(), Some(3), "{run:?}");
    assert_eq!(run.our_messages().len(), 1, "{}", run.stderr);
}

/// `generate --mutate`: near-identical pairs of `len` bytes at 0.1%, 1% and 10% of edits.
fn near_copies(dir: &Dir, len: usize) -> Vec<std::path::PathBuf> {
    [("0.001", 1), ("0.01", 2), ("0.1", 3)]
        .into_iter()
        .map(|(rate, seed)| util::mutated(dir, &format!("near-{rate}.txt"), len, rate, seed))
        .collect()
}

/// Near-identical pairs (substitutions and indels: the path drifts off the main diagonal and
/// m != n) under `--band auto`: on 1, 2, 3 and 5 ranks, every batch and checkpoint mode of the
/// sweep gives the reference's whole-matrix path move for move, for both problems, with the
/// boundary messages predicted for the bands it filled (the self-test checks each).
#[test]
fn diagonal_bands_give_the_whole_matrix_s_path_on_near_copies() {
    let dir = Dir::new();
    let files = near_copies(&dir, 5000);
    let jobs: Vec<util::Task<'_, (usize, util::Run)>> = [1, 2, 3, 5]
        .into_iter()
        .map(|p| {
            let files = &files;
            Box::new(move || {
                let mut a = args(&[&"self-test", &"--engine", &"bands", &"--sweep"]);
                a.extend(args(&[&"--cases", &"0", &"--problem", &"lcs,edit"]));
                for file in files {
                    a.extend(args(&[&"--file", file]));
                }
                (p, util::mpirun(p, &a))
            }) as Box<_>
        })
        .collect();
    for (p, run) in util::parallel(2, jobs) {
        let run = run.ok();
        let summary = format!(
            "self-test: 12 pairs (lcs, edit) on {}, bands engine, 16 settings: 0 failed",
            util::ranks(p)
        );
        assert!(run.stdout.contains(&summary), "{p}:\n{}", run.stdout);
    }
}

/// A diagonal band wide enough to share (a 200,000-byte pair at 10% of edits): each rank holds
/// several column bands, band `v` on rank `v mod P`, so the carries also go from the last rank
/// back to rank 0; on 2 and 3 ranks, with synchronous sends too, the CIGAR is one rank's, the
/// messages are the predicted ones, and the report says how many bands each rank held.
#[test]
fn lapping_bands_give_one_rank_s_alignment_on_a_wide_diagonal_band() {
    let dir = Dir::new();
    let input = util::mutated(&dir, "wide.txt", 200_000, "0.1", 7);
    for problem in ["lcs", "edit"] {
        let one = dir.path("one.json");
        let extra = ["--engine", "bands", "--problem", problem].map(std::ffi::OsStr::new);
        util::solve(1, &input, &one, &extra, &[]).ok();
        let one = util::json(&one);
        assert_eq!(one["band_laps"], 1, "{problem}");
        for (ranks, env) in [
            (2, &[][..]),
            (3, &[][..]),
            (3, &[("MPI_LCS_SYNCHRONOUS_SENDS", "1")][..]),
        ] {
            let what = format!("{problem} P={ranks} {env:?}");
            let json = dir.path("laps.json");
            let run = util::solve(ranks, &input, &json, &extra, env).ok();
            let report = util::json(&json);
            assert_eq!(report["cigar"], one["cigar"], "{what}");
            assert_eq!(report["band_fills"], one["band_fills"], "{what}");
            let laps = report["band_laps"].as_u64().unwrap();
            assert!(laps >= 2, "{what}: {laps} bands per rank");
            assert!(
                run.stdout
                    .contains(&format!("{laps} column bands per rank")),
                "{}",
                run.stdout
            );
            assert_eq!(
                report["messages"]["boundary"], report["predicted"]["boundary"],
                "{what}"
            );
            // Carries from the last rank to rank 0: around the ring on 3, back on 2.
            let last = &report["pairs"][ranks - 1];
            assert!(last[0].as_u64().unwrap() > 0, "{what}: {}", report["pairs"]);
            let hops = report["traceback_hops"].as_u64().unwrap();
            assert!(
                hops >= 1 && hops < laps * ranks as u64,
                "{what}: {hops} hops"
            );
        }
    }
}

/// The report records the bands a run filled: the last one's margin, the doublings, every
/// fill; the messages equal the prediction for those fills; the CIGAR is the whole matrix's.
#[test]
fn a_banded_run_reports_its_band_and_doublings() {
    let dir = Dir::new();
    let files = near_copies(&dir, 20_000);
    for problem in ["lcs", "edit"] {
        let whole = dir.path("whole.json");
        let a = args(&[
            &"reference",
            &files[1],
            &"--problem",
            &problem,
            &"--json",
            &whole,
        ]);
        util::plain(&a).ok();
        let whole = util::json(&whole);
        assert_eq!(whole["band"], "whole");
        assert_eq!(whole["band_doublings"], 0);
        for ranks in [1, 3] {
            let json = dir.path("band.json");
            let csv = dir.path("runs.csv");
            let extra = ["--engine", "bands", "--problem", problem, "--append-csv"];
            let mut extra: Vec<&std::ffi::OsStr> = extra.iter().map(std::ffi::OsStr::new).collect();
            extra.push(csv.as_os_str());
            let run = util::solve(ranks, &files[1], &json, &extra, &[]).ok();
            let report = util::json(&json);
            let what = format!("{problem} P={ranks}");
            assert_eq!(report["cigar"], whole["cigar"], "{what}");
            let fills = report["band_fills"].as_array().unwrap();
            assert!(fills.len() >= 2, "{what}: {fills:?}");
            assert_eq!(fills[0], 64, "{what}");
            assert_eq!(report["band"], fills[fills.len() - 1], "{what}");
            assert!(
                report["band"].as_u64().unwrap() < 20_000,
                "{what}: a band, not whole"
            );
            assert_eq!(report["band_doublings"], fills.len() as u64 - 1);
            assert_eq!(
                report["messages"]["boundary"], report["predicted"]["boundary"],
                "{what}"
            );
            assert!(run.stdout.contains("diagonal band"), "{}", run.stdout);
            let table = util::csv(&csv);
            let band = util::column(&table, "band");
            assert_eq!(
                band.last().copied(),
                report["band"].as_u64().map(|b| b.to_string()).as_deref()
            );
            let doublings = util::column(&table, "band_doublings");
            assert_eq!(
                doublings.last().copied(),
                Some(&*(fills.len() - 1).to_string())
            );
            // The reference's own band search finds the same path.
            let banded = dir.path("ref-band.json");
            let a = args(&[
                &"reference",
                &files[1],
                &"--problem",
                &problem,
                &"--band",
                &"auto",
                &"--json",
                &banded,
            ]);
            util::plain(&a).ok();
            let banded = util::json(&banded);
            assert_eq!(banded["cigar"], whole["cigar"]);
            assert_eq!(
                banded["band_fills"], report["band_fills"],
                "the same search"
            );
        }
    }
}

/// A fixed band that does not prove itself is refused with exit 2, on every rank together
/// and by the reference alike; one that does gives the whole matrix's path. `--band` belongs
/// to the bands engine.
#[test]
fn a_fixed_band_proves_itself_or_is_refused() {
    let dir = Dir::new();
    let files = near_copies(&dir, 20_000);
    let json = dir.path("fixed.json");
    for ranks in [1, 2] {
        let extra = ["--engine", "bands", "--band", "2"].map(std::ffi::OsStr::new);
        let run = util::solve(ranks, &files[2], &json, &extra, &[]);
        assert_eq!(run.status.code(), Some(2), "{run:?}");
        assert!(
            run.stderr
                .contains("the band of 2 diagonals does not prove itself"),
            "{}",
            run.stderr
        );
        assert_eq!(run.stderr.matches("error").count(), 1, "{}", run.stderr);
        let extra = ["--engine", "bands", "--band", "5000"].map(std::ffi::OsStr::new);
        util::solve(ranks, &files[1], &json, &extra, &[]).ok();
        assert_eq!(util::json(&json)["band_fills"], serde_json::json!([5000]));
    }
    let run = util::plain(&args(&[&"reference", &files[2], &"--band", &"2"]));
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains("does not prove itself"),
        "{}",
        run.stderr
    );
    let run = util::mpirun(1, &args(&[&"solve", &files[0], &"--band", &"auto"]));
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains("belong to --engine bands"),
        "{}",
        run.stderr
    );
    let run = util::plain(&args(&[
        &"solve",
        &files[0],
        &"--engine",
        &"bands",
        &"--band",
        &"x",
    ]));
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains("not auto, off or a number"),
        "{}",
        run.stderr
    );
}

/// The pre-check ignored the diagonal band: a 10^6 pair with 0.1% edits peaked at 42 MiB and
/// was estimated at 525 MiB, so `--memory-limit` of twice its peak refused it (exit 4), and its
/// report said it computed the whole matrix's 10^12 cells. Now every rank's estimate follows
/// what it holds, within [0.8, 1.25] of its peak plus 16 MiB, on banded, near-identical and
/// whole runs of either problem; a limit of twice the peak lets the banded run through; and
/// `cells` are the band's, a small fraction of `matrix_cells`.
#[test]
fn memory_estimates_and_cells_follow_the_diagonal_band() {
    let dir = Dir::new();
    let near = util::mutated(&dir, "near.txt", 1_000_000, "0.001", 7);
    let same = util::mutated(&dir, "same.txt", 1_000_000, "0", 8);
    let unrelated = dir.generated("unrelated.txt", 20_000, 3);
    let solve = |input: &std::path::Path, ranks: usize, extra: &[&str]| {
        let json = dir.path(&format!("{ranks}-{}.json", extra.join("_")));
        let mut a = args(&[&"solve", &input, &"--engine", &"bands", &"--json", &json]);
        a.extend(extra.iter().map(Into::into));
        let run = util::mpirun(ranks, &a);
        (run, json)
    };
    let mib = (1u64 << 20) as f64;
    // Each input with the share of the matrix's cells its fills compute: near copies a band
    // of a few thousand diagonals, filled a few times; unrelated sequences the whole matrix
    // (the LCS's samples ask for it), or a band of about 45% for the edit distance.
    let full = ["--problem", "edit", "--checkpoint", "full"];
    let cases: [(&std::path::Path, &[&str], (f64, f64)); 6] = [
        (&near, &["--problem", "edit"], (0.0, 0.01)),
        (&near, &["--problem", "lcs"], (0.0, 0.01)),
        (&same, &["--problem", "edit"], (0.0, 0.01)),
        (&unrelated, &["--problem", "lcs"], (1.0, 1.0)),
        (
            &unrelated,
            &["--problem", "edit", "--band", "off"],
            (1.0, 1.0),
        ),
        (&unrelated, &full, (0.3, 1.6)),
    ];
    for (input, extra, (least, most)) in cases {
        for ranks in [1, 2] {
            let (run, json) = solve(input, ranks, extra);
            run.ok();
            let report = util::json(&json);
            let what = format!("{} on {ranks} ranks, {extra:?}", input.display());
            let (rows, cols) = (
                report["rows"].as_u64().unwrap(),
                report["cols"].as_u64().unwrap(),
            );
            assert_eq!(report["matrix_cells"], rows * cols, "{what}");
            let per_rank = report["per_rank"].as_array().unwrap();
            let mut peaks = 0u64;
            let (mut cells, mut owned) = (0, 0);
            for r in per_rank {
                let estimate = r["memory_estimate_bytes"].as_f64().unwrap();
                let peak = r["peak_rss_bytes"].as_f64().unwrap();
                assert!(
                    estimate >= 0.8 * peak && estimate <= 1.25 * peak + 16.0 * mib,
                    "{what}, rank {}: estimate {:.1} MiB, peak {:.1} MiB",
                    r["rank"],
                    estimate / mib,
                    peak / mib
                );
                peaks = peaks.max(peak as u64);
                cells += r["cells"].as_u64().unwrap();
                owned += r["matrix_cells"].as_u64().unwrap();
            }
            assert_eq!(owned, rows * cols, "{what}");
            assert_eq!(report["cells"], cells, "{what}");
            let share = cells as f64 / (rows * cols) as f64;
            assert!(least <= share && share <= most, "{what}: {cells} cells");
            if most < 1.0 {
                let limit = (2 * peaks).to_string();
                let mut limited = extra.to_vec();
                limited.extend(["--memory-limit", &limit]);
                let (run, _) = solve(input, ranks, &limited);
                run.ok();
            }
        }
    }
}

/// `--band auto` counts, before any fill, the band its samples expect; a search that must widen
/// past it checks each wider band first. Here the samples see copies (the sequences differ
/// only between them) and the band widens from 64 diagonals to hundreds: with a limit just
/// above the pre-check's own estimate, which holds the first band but not the widest, every
/// rank ends at a widening with exit 4 and one message naming both bands, and nothing is
/// written.
#[test]
fn a_wider_band_that_does_not_fit_is_refused_before_its_fill() {
    let dir = Dir::new();
    let mut state = 0x5eed_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        b"ACGT"[(state % 4) as usize]
    };
    let x: Vec<u8> = (0..20_000).map(|_| next()).collect();
    let mut y = x.clone();
    // Rows 2,000 to 5,000 lie between the first two samples (1,024 rows at 0 and 6,325).
    for b in &mut y[2000..5000] {
        *b = next();
    }
    let input = dir.input("hidden.txt", &x, &y);
    let json = dir.path("r.json");
    for ranks in [1, 2] {
        let extra = [
            "--engine",
            "bands",
            "--problem",
            "edit",
            "--checkpoint",
            "full",
        ];
        let mut a = args(&[&"solve", &input, &"--json", &json]);
        a.extend(extra.iter().map(Into::into));
        util::mpirun(ranks, &a).ok();
        let report = util::json(&json);
        let fills = report["band_fills"].as_array().unwrap().clone();
        assert_eq!(fills[0], 64, "{fills:?}");
        assert!(
            fills.len() >= 2 && fills.last().unwrap().as_u64().unwrap() > 500,
            "{fills:?}"
        );
        let estimate = report["per_rank"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["memory_estimate_bytes"].as_u64().unwrap())
            .max()
            .unwrap();
        std::fs::remove_file(&json).unwrap();
        // The pre-check's own figure, and a little for what a rank's start varies by (a
        // 1-rank run under MPICH once held 1 MiB more than the run before it): the expected
        // band fits, the widest does not (it holds some 6.7 MiB more on 1 rank, 3 MiB more per
        // rank on 2).
        let limit = (estimate + (3 << 20) / ranks as u64).to_string();
        a.extend(["--memory-limit".into(), limit.into()]);
        let run = util::mpirun(ranks, &a);
        assert_eq!(run.status.code(), Some(4), "{ranks} ranks: {run:#?}");
        let messages = run.our_messages();
        assert_eq!(messages.len(), 1, "{}", run.stderr);
        assert!(
            messages[0].contains("diagonals did not prove itself, and --band auto would widen")
                && messages[0].contains("limit of"),
            "{}",
            messages[0]
        );
        assert!(!json.exists());
    }
}

/// `--band auto` on two ranks or more fills its two narrowest bands side by side, one rank
/// each, without a boundary message: the same bands and CIGAR as one rank, on pairs whose first
/// band proves itself (walked by rank 0), whose second does (walked by rank 1, which sends the
/// path to rank 0), whose search jumps past the second (filled for nothing), and whose search
/// goes on to a wider band.
#[test]
fn the_first_two_fills_run_side_by_side_one_rank_each() {
    let dir = Dir::new();
    for (rate, seed) in [("0.001", 3), ("0.006", 4), ("0.01", 4), ("0.03", 5)] {
        let input = util::mutated(&dir, &format!("near-{rate}.txt"), 30_000, rate, seed);
        for problem in ["lcs", "edit"] {
            let one = dir.path("one.json");
            let extra = ["--engine", "bands", "--problem", problem].map(std::ffi::OsStr::new);
            util::solve(1, &input, &one, &extra, &[]).ok();
            let one = util::json(&one);
            assert_eq!(one["band_alone"], 0, "{problem} {rate}");
            let fills: Vec<u64> = one["band_fills"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_u64().unwrap())
                .collect();
            // The fills of 64 and 128 diagonals that lead the search are the ones made alone.
            let alone = fills
                .iter()
                .zip([64, 128])
                .take_while(|(k, a)| *k == a)
                .count();
            assert!(alone >= 1, "{problem} {rate}: {fills:?}");
            for ranks in [2, 3] {
                let what = format!("{problem} {rate} P={ranks} {fills:?}");
                let json = dir.path("two.json");
                let run = util::solve(ranks, &input, &json, &extra, &[]).ok();
                let report = util::json(&json);
                assert_eq!(report["cigar"], one["cigar"], "{what}");
                assert_eq!(report["band_fills"], one["band_fills"], "{what}");
                assert_eq!(report["band_alone"], alone, "{what}");
                let boundary = &report["messages"]["boundary"];
                assert_eq!(boundary, &report["predicted"]["boundary"], "{what}");
                assert_eq!(boundary == 0, alone == fills.len(), "{what}: {boundary}");
                let said = match alone {
                    1 => "the first on one rank alone".to_owned(),
                    _ => "the first 2 side by side, one rank each".to_owned(),
                };
                assert!(run.stdout.contains(&said), "{what}:\n{}", run.stdout);
            }
        }
    }
}

/// `--checkpoint auto` checkpoints a long pair's narrow diagonal band at half the interval of
/// least memory, and at that interval where the half does not fit the memory limit: the same
/// path either way. The limits come from the run's own estimates (they include what MPI holds).
#[test]
fn auto_halves_the_interval_on_a_long_narrow_band_where_the_half_fits() {
    let dir = Dir::new();
    let input = util::mutated(&dir, "near.txt", 1_000_000, "0.01", 7);
    let json = dir.path("run.json");
    let run = |checkpoint: &str, limit: Option<u64>| {
        let limit = limit.map(|l| l.to_string());
        let mut extra = vec!["--engine", "bands", "--problem", "edit"];
        extra.extend(["--checkpoint", checkpoint]);
        extra.extend(limit.iter().flat_map(|l| ["--memory-limit", l.as_str()]));
        let extra: Vec<&std::ffi::OsStr> = extra.iter().map(std::ffi::OsStr::new).collect();
        util::solve(1, &input, &json, &extra, &[]).ok();
        let report = util::json(&json);
        std::fs::remove_file(&json).unwrap();
        let need = report["per_rank"][0]["memory_estimate_bytes"]
            .as_u64()
            .unwrap();
        (report, need)
    };
    let (lean, lean_need) = run("1000", None);
    let (half, half_need) = run("500", None);
    assert!(
        half_need > lean_need + (4 << 20),
        "{half_need} vs {lean_need}"
    );
    let (free, _) = run("auto", None);
    assert_eq!(free["checkpoint"], 500);
    assert_eq!(free["cigar"], half["cigar"]);
    let (tight, _) = run("auto", Some((lean_need + half_need) / 2));
    assert_eq!(tight["checkpoint"], 1000);
    assert_eq!(tight["cigar"], lean["cigar"]);
    assert_eq!(tight["cigar"], free["cigar"]);
}
