//! `solve --engine bands --device gpu`: one long pair's bands on each rank's device (PoCL on the
//! CPU where there is no GPU), under mpirun. The LCS, the distance and the CIGAR are the CPU
//! engine's, character for character, at P = 1, 2, 3 on random, similar, unrelated, empty,
//! one-byte, word-edge and very unequal pairs with checkpoints forced close; the boundary
//! messages are the plan's; a recorded run's trace and page are the CPU engine's, and its
//! picture and page show each batch's copies and kernels; what a device does not compute is
//! refused before any work; and a device lost mid-fill ends every rank.

use std::path::PathBuf;

use serde_json::Value;

use crate::util::{self, args, assert_refused_writing_nothing, Dir, Rng};

/// The pairs of the module doc, written as inputs.
fn inputs(dir: &Dir) -> Vec<(&'static str, PathBuf)> {
    let mut rng = Rng(0x44_0044);
    let similar = rng.bytes(1500);
    let mut near = similar.clone();
    for k in (0..near.len()).step_by(37) {
        near[k] = b"ACGT"[(near[k] as usize + k) % 4];
    }
    near.splice(700..700, rng.bytes(9));
    let cases: Vec<(&str, Vec<u8>, Vec<u8>)> = vec![
        ("random", rng.bytes(700), rng.bytes(900)),
        ("similar", similar, near),
        ("unrelated", vec![b'A'; 300], vec![b'C'; 420]),
        ("empty", Vec::new(), rng.bytes(90)),
        ("one-byte", b"T".to_vec(), rng.bytes(129)),
        ("word-edges", rng.bytes(64), rng.bytes(193)),
        ("unequal", rng.bytes(40), rng.bytes(5000)),
    ];
    cases
        .into_iter()
        .map(|(name, x, y)| (name, dir.input(&format!("{name}.txt"), &x, &y)))
        .collect()
}

/// What a run found: its answer's fields.
fn answer(report: &Value) -> [Value; 4] {
    ["lcs_length", "lcs", "distance", "cigar"].map(|k| report[k].clone())
}

#[test]
fn one_long_pair_on_the_gpu_is_the_cpu_engines_answer() {
    let dir = Dir::new();
    for (name, input) in inputs(&dir) {
        for problem in ["lcs", "edit"] {
            let cpu_json = dir.path(&format!("{name}-{problem}-cpu.json"));
            let cpu = args(&[
                &"solve",
                &input,
                &"--problem",
                &problem,
                &"--engine",
                &"bands",
            ]);
            let mut cpu = cpu;
            cpu.extend(args(&[&"--json", &cpu_json]));
            util::mpirun(1, &cpu).ok();
            let expected = answer(&util::json(&cpu_json));
            assert!(util::json(&cpu_json)["per_rank"][0]["device"].is_null());
            for ranks in 1..=3 {
                let json = dir.path(&format!("{name}-{problem}-{ranks}.json"));
                let gpu = args(&[
                    &"solve",
                    &input,
                    &"--problem",
                    &problem,
                    &"--engine",
                    &"bands",
                    &"--device",
                    &"gpu",
                    &"--batch",
                    &"64",
                    &"--checkpoint",
                    &"5",
                    &"--json",
                    &json,
                ]);
                let run = util::mpirun(ranks, &gpu).ok();
                let what = format!("{name}, {problem}, {ranks} ranks");
                let report = util::json(&json);
                assert_eq!(answer(&report), expected, "{what}");
                assert_eq!(
                    report["messages"]["boundary"], report["predicted"]["boundary"],
                    "{what}"
                );
                assert_eq!(report["checkpoint"], 5, "{what}");
                assert_eq!(report["band"], "whole", "{what}");
                let device = &report["device"];
                assert_eq!(device["placement"], "gpu", "{what}: {device}");
                assert_eq!(device["ranks_on_device"], report["ranks"], "{what}");
                assert!(device["bytes_to_device"].as_u64().unwrap() > 0, "{device}");
                assert!(run.stdout.contains("device: "), "{what}: {}", run.stdout);
                // Each rank's own kernels and copies, in its line and the summary's table.
                for rank in report["per_rank"].as_array().unwrap() {
                    let own = &rank["device"];
                    assert!(
                        own["seconds_kernel"].as_f64().unwrap() >= 0.0,
                        "{what}: {own}"
                    );
                    assert!(own["launches"].is_u64(), "{what}: {own}");
                }
                assert!(
                    run.stdout.contains("kernel s    copy s"),
                    "{what}: {}",
                    run.stdout
                );
            }
        }
    }
}

/// The timeline's spans in `svg`: `(rank, batch, kind, start, end)`, in the page's
/// milliseconds.
fn spans(svg: &str) -> Vec<(usize, usize, String, f64, f64)> {
    let attr = |rect: &str, name: &str| {
        let from = rect.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        rect[from..from + rect[from..].find('"').unwrap()].to_owned()
    };
    svg.split("<rect class=\"span\"")
        .skip(1)
        .map(|rect| {
            let rect = &rect[..rect.find("/>").unwrap()];
            (
                attr(rect, "data-rank").parse().unwrap(),
                attr(rect, "data-batch").parse().unwrap(),
                attr(rect, "data-kind"),
                attr(rect, "data-start").parse().unwrap(),
                attr(rect, "data-end").parse().unwrap(),
            )
        })
        .collect()
}

/// A recorded run on the device (300 x 320 on 3 ranks, batches of 64 rows): its trace lists the
/// CPU engine's messages; its page is the CPU engine's, on values the host computes again;
/// its picture's timeline gives each rank's batch a copy in, its kernels and a copy back, in
/// that order, under a title that says so; and a small run's cells show their owners where the
/// CPU engine's show values.
#[test]
fn a_recorded_run_on_the_gpu_shows_its_copies_and_kernels() {
    let dir = Dir::new();
    let input = dir.generated_pair("p.txt", 300, 320, 3);
    let [svg, trace, cpu_trace] = ["d.svg", "d.csv", "c.csv"].map(|f| dir.path(f));
    let [page, cpu_page] = ["d.html", "c.html"].map(|f| dir.path(f));
    let solve = |extra: &[&dyn AsRef<std::ffi::OsStr>]| {
        let mut command = args(&[&"solve", &input, &"--engine", &"bands", &"--batch", &"64"]);
        command.extend(args(&[&"-q", &"-o", &dir.path("summary.txt")]));
        command.extend(args(extra));
        util::mpirun(3, &command).ok();
    };
    solve(&[
        &"--device",
        &"gpu",
        &"--svg",
        &svg,
        &"--trace",
        &trace,
        &"--html",
        &page,
    ]);
    solve(&[&"--trace", &cpu_trace, &"--html", &cpu_page]);
    let sorted = |path: &PathBuf| {
        let mut lines: Vec<String> = std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&trace), sorted(&cpu_trace), "the trace's messages");

    // The page replays the walk on the values, which the host computes again for a device
    // run: the same page as the CPU engine's, cell for cell and step for step, and it says so.
    let (data, cpu_data) = (util::page_data(&page), util::page_data(&cpu_page));
    for key in [
        "value_rows",
        "walk",
        "hops",
        "cigar",
        "distance",
        "lcs",
        "x",
        "y",
        "bands",
    ] {
        assert_eq!(data[key], cpu_data[key], "the page's {key}");
    }
    let sorted_events = |data: &Value| {
        let mut events: Vec<String> = data["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect();
        events.sort();
        events
    };
    assert_eq!(
        sorted_events(&data),
        sorted_events(&cpu_data),
        "the page's messages"
    );
    let rows = data["value_rows"].as_array().unwrap();
    assert_eq!(rows.len(), 300, "a row of values per row of the matrix");
    let texts = [&page, &cpu_page].map(|p| std::fs::read_to_string(p).unwrap());
    assert!(texts[0].contains("computed again on the host for this page"));
    assert!(!texts[1].contains("computed again on the host"));
    assert!(
        texts[0].contains("Timeline on the GPUs"),
        "the page's timeline"
    );
    assert!(texts[0].contains("data-kind=\"copy\""), "the page's copies");

    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains("Timeline on the GPUs"), "the title");
    let spans = spans(&picture);
    let kernels: Vec<_> = spans.iter().filter(|s| s.2 == "compute").collect();
    // 5 batches of 64 rows on each of the 3 bands.
    assert_eq!(kernels.len(), 15, "{spans:?}");
    for &&(rank, batch, _, start, end) in &kernels {
        let copies: Vec<_> = spans
            .iter()
            .filter(|s| (s.0, s.1) == (rank, batch) && s.2 == "copy")
            .collect();
        assert_eq!(copies.len(), 2, "p{rank} batch {batch}: {copies:?}");
        assert!(
            copies[0].4 <= start + 1e-3 && copies[1].3 >= end - 1e-3,
            "p{rank} batch {batch}: the copy in, the kernels, the copy back: {copies:?} \
             {start}..{end}"
        );
    }

    // Cell by cell: owners on the device, values on the CPU.
    let tiny = dir.input("tiny.txt", b"GATTACAGA", b"GCATGCTTAC");
    let texts = |placement: &str| {
        let picture = dir.path(&format!("tiny-{placement}.svg"));
        let mut command = args(&[&"solve", &tiny, &"--engine", &"bands"]);
        command.extend(args(&[&"--device", &placement, &"--svg", &picture]));
        command.extend(args(&[&"-q", &"-o", &dir.path("tiny-summary.txt")]));
        util::plain(&command).ok();
        let picture = std::fs::read_to_string(&picture).unwrap();
        picture
            .split("class=\"cell-text\"")
            .skip(1)
            .map(|t| t[t.find('>').unwrap() + 1..t.find('<').unwrap()].to_owned())
            .collect::<Vec<String>>()
    };
    let (on_device, on_cpu) = (texts("gpu"), texts("cpu"));
    assert_eq!(on_device.len(), 90, "{on_device:?}");
    assert!(on_device.iter().all(|t| t == "p0"), "{on_device:?}");
    assert_eq!(on_cpu.len(), 90);
    assert!(
        on_cpu.iter().all(|t| t.parse::<u32>().is_ok()),
        "{on_cpu:?}"
    );
}

/// What the device does not compute is refused on every rank before any work, exit 2, with
/// one message naming what to change; `--engine auto` runs the bands engine on the device.
#[test]
fn what_the_device_does_not_compute_is_refused() {
    let dir = Dir::new();
    let input = dir.input("pair.txt", b"ACGTTGCA", b"ACGGTTGCAA");
    let out = dir.path("summary.txt");
    let cases: [(&[&str], &str); 6] = [
        (&["--engine", "diagonal"], "computes with the bands engine"),
        (&["--engine", "wave"], "computes with the bands engine"),
        (
            &["--engine", "bands", "--band", "auto"],
            "--band auto runs on the CPU",
        ),
        (
            &["--engine", "bands", "--band", "12"],
            "--band 12 runs on the CPU",
        ),
        (
            &["--engine", "bands", "--checkpoint", "full"],
            "never every bit",
        ),
        (
            &["--engine", "bands", "--batch", "100"],
            "--batch 100 is not a multiple of 64",
        ),
    ];
    for (flags, problem) in cases {
        let mut command = args(&[&"solve", &input, &"--device", &"gpu", &"-o", &out]);
        command.extend(args(
            &flags
                .iter()
                .map(|f| f as &dyn AsRef<std::ffi::OsStr>)
                .collect::<Vec<_>>(),
        ));
        for ranks in [1, 2] {
            let run = util::mpirun(ranks, &command);
            assert_refused_writing_nothing(&run, 2, problem, &[out.as_path()]);
        }
    }
    let json = dir.path("auto.json");
    let auto = args(&[
        &"solve",
        &input,
        &"--engine",
        &"auto",
        &"--device",
        &"gpu",
        &"--json",
        &json,
    ]);
    let run = util::mpirun(2, &auto).ok();
    assert!(
        run.stderr
            .contains("--engine auto with --device gpu: the bands engine"),
        "{}",
        run.stderr
    );
    let report = util::json(&json);
    assert_eq!(
        (&report["engine"], &report["device"]["placement"]),
        (&Value::from("bands"), &Value::from("gpu"))
    );
    assert_eq!(
        report["lcs_length"], 8,
        "ACGTTGCA is a subsequence of ACGGTTGCAA"
    );
}

/// A device that fails mid-fill (a planted fault: its launch fails as a lost device's would)
/// ends every rank, its neighbours still given the messages they wait for: exit 1, one message
/// from the rank that met it, nothing written; with the path and with the length alone.
#[test]
fn a_device_lost_mid_fill_ends_every_rank() {
    let dir = Dir::new();
    let mut rng = Rng(0x10_5744);
    let input = dir.input("pair.txt", &rng.bytes(900), &rng.bytes(1000));
    let out = dir.path("summary.txt");
    let cases = [
        (1, "device:0:2", "--engine"),
        (2, "device:0:3", "--engine"),
        (3, "device:1:5", "--engine"),
        (3, "device:2:0", "--engine"),
        (3, "device:1:4", "--length-only"),
    ];
    for (ranks, fault, mode) in cases {
        let mut command = args(&[&"solve", &input, &mode]);
        if mode == "--engine" {
            command.extend(args(&[&"bands"]));
        }
        command.extend(args(&[&"--device", &"gpu", &"--batch", &"64", &"-o", &out]));
        let run = util::mpirun_env(ranks, &command, &[("MPI_LCS_FAULT", fault)]);
        util::assert_device_lost(&run, fault, &[&out]);
    }
}

/// `--length-only` on the device and on the cores: the reference's length and distance, the
/// plan's messages, in one process and at P = 1 and 3; a traceback's settings refused.
#[test]
fn the_length_alone_is_the_references_on_the_gpu_and_the_cores() {
    let dir = Dir::new();
    for (name, input) in inputs(&dir) {
        for problem in ["lcs", "edit"] {
            let reference = util::plain(&args(&[
                &"reference",
                &input,
                &"--length-only",
                &"--problem",
                &problem,
            ]))
            .ok();
            let expected = reference.stdout.lines().next().unwrap().to_owned();
            // 0: one process without a launcher, which starts no MPI.
            for ranks in [0, 1, 3] {
                for device in ["cpu", "gpu"] {
                    let command = args(&[
                        &"solve",
                        &input,
                        &"--length-only",
                        &"--problem",
                        &problem,
                        &"--device",
                        &device,
                        &"--batch",
                        &"128",
                    ]);
                    let run = match ranks {
                        0 => util::plain(&command),
                        ranks => util::mpirun(ranks, &command),
                    }
                    .ok();
                    let what = format!("{name}, {problem}, {ranks} ranks, {device}");
                    let mut lines = run.stdout.lines();
                    assert_eq!(lines.next(), Some(expected.as_str()), "{what}");
                    assert!(lines.next().unwrap().contains("the length alone"), "{what}");
                    let messages = lines.next().unwrap();
                    let (sent, predicted) = messages
                        .strip_prefix("messages: boundary ")
                        .and_then(|m| m.strip_suffix(")"))
                        .and_then(|m| m.split_once(" (predicted "))
                        .unwrap_or_else(|| panic!("{what}: {messages}"));
                    assert_eq!(sent, predicted, "{what}");
                    assert_eq!(run.stdout.contains("device: "), device == "gpu", "{what}");
                }
            }
        }
    }
    let (input, out) = (&inputs(&dir)[0].1, dir.path("out.txt"));
    for flags in [["--checkpoint", "5"], ["--band", "auto"]] {
        let mut command = args(&[&"solve", input, &"--length-only", &"-o", &out]);
        command.extend(args(&[&flags[0], &flags[1]]));
        let run = util::mpirun(2, &command);
        assert_refused_writing_nothing(&run, 2, "keeps no traceback", &[out.as_path()]);
    }
}
