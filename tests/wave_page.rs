//! The wave engine's lesson: `solve --engine wave --html/--svg` on 1, 2 and 3 ranks, both
//! problems, against the run's own JSON report and trace (the page's halo messages, per rank
//! and per pair, are the report's; each is the trace's message of its step; its walk spells
//! the report's CIGAR; each cell's number is its cost by a plain DP); the refusals (a pair too
//! large to draw, `--engine auto`, `schedule --engine wave` and `auto`); and in headless
//! Chromium the page played step by step (each rank's run of diagonals as the split's formulas
//! give it, the step's halo messages as the trace lists them, `#step=N`, the keys) and in
//! projector mode at 1024 x 768 with no visible text under 12 pixels.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::browser::Browser;
use crate::lecture::{quiet, small_texts};
use crate::util::{self, args, Dir};
use lcs_core::alignment::expand as expand_cigar;

/// A sequence of the page's data block (`"x"` or `"y"`), as bytes.
fn data_bytes(data: &Value, k: &str) -> Vec<u8> {
    data[k]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect()
}

/// The trace's boundary messages: (from, to, bytes), in the trace's order.
fn trace_halos(csv: &Path) -> Vec<(u64, u64, u64)> {
    let table = util::csv(csv);
    let (kind, from, to, bytes) = (
        util::column(&table, "kind"),
        util::column(&table, "from"),
        util::column(&table, "to"),
        util::column(&table, "bytes"),
    );
    (0..kind.len())
        .filter(|&k| kind[k] == "boundary")
        .map(|k| {
            (
                from[k].parse().unwrap(),
                to[k].parse().unwrap(),
                bytes[k].parse().unwrap(),
            )
        })
        .collect()
}

/// Each cell's cost by the plain recurrences: `D[i][j]`, or the indel distance
/// `i + j + 2 − 2 M[i][j]`.
fn costs(x: &[u8], y: &[u8], edit: bool) -> Vec<Vec<u64>> {
    let (m, n) = (x.len(), y.len());
    let mut d = vec![vec![0u64; n + 1]; m + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i as u64;
    }
    d[0] = (0..=n as u64).collect();
    for i in 1..=m {
        for j in 1..=n {
            let same = x[i - 1] == y[j - 1];
            let mut v = (d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            if same {
                v = v.min(d[i - 1][j - 1]);
            } else if edit {
                v = v.min(d[i - 1][j - 1] + 1);
            }
            d[i][j] = v;
        }
    }
    d.into_iter()
        .skip(1)
        .map(|row| row.into_iter().skip(1).collect())
        .collect()
}

/// The page's walk spells the report's CIGAR: each step between two cells of the walk is the
/// CIGAR's operation at its place from the end, and what is left takes the walk's last cell to
/// the matrix's corner.
fn check_walk(data: &Value, cigar: &str, what: &str) {
    let (x, y) = (data_bytes(data, "x"), data_bytes(data, "y"));
    let swapped = data["swapped"].as_bool().unwrap();
    let (x_alone, y_alone) = if swapped { ('D', 'I') } else { ('I', 'D') };
    let walk: Vec<(usize, usize)> = data["walk"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c[0].as_u64().unwrap() as usize,
                c[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert_eq!(walk[0], (x.len() - 1, y.len() - 1), "{what}");
    let ops: Vec<char> = expand_cigar(cigar).chars().rev().collect();
    for (t, w) in walk.windows(2).enumerate() {
        let ((i, j), (a, b)) = (w[0], w[1]);
        let op = match (i - a, j - b) {
            (1, 1) if x[i] == y[j] => '=',
            (1, 1) => 'X',
            (1, 0) => x_alone,
            (0, 1) => y_alone,
            step => panic!("{what}: the walk jumps by {step:?}"),
        };
        assert_eq!(ops[t], op, "{what}: move {t} from ({i}, {j})");
    }
    let (i, j) = *walk.last().unwrap();
    let rest = &ops[walk.len() - 1..];
    let of_x = rest.iter().filter(|&&c| c != y_alone).count();
    let of_y = rest.iter().filter(|&&c| c != x_alone).count();
    assert_eq!((of_x, of_y), (i + 1, j + 1), "{what}: the rest of the path");
}

/// A wave run with its page, picture, report and trace.
struct Run {
    html: PathBuf,
    svg: PathBuf,
    json: PathBuf,
    csv: PathBuf,
}

/// The runs of `input` on `runs` (ranks, problem), `halo` steps between two exchanges at most
/// (`--halo-steps`).
fn run_all(dir: &Dir, input: &Path, runs: &[(usize, &'static str)], halo: &str) -> Vec<Run> {
    let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
    let files: Vec<Run> = runs
        .iter()
        .map(|(p, problem)| {
            let name = |ext: &str| dir.path(&format!("{stem}-{problem}-{p}-{halo}.{ext}"));
            Run {
                html: name("html"),
                svg: name("svg"),
                json: name("json"),
                csv: name("csv"),
            }
        })
        .collect();
    let jobs: Vec<util::Task<'_, ()>> = runs
        .iter()
        .zip(&files)
        .map(|(&(p, problem), r)| {
            Box::new(move || {
                let extra = args(&[
                    &"--engine",
                    &"wave",
                    &"--problem",
                    &problem,
                    &"--html",
                    &r.html,
                    &"--svg",
                    &r.svg,
                    &"--trace",
                    &r.csv,
                    &"--halo-steps",
                    &halo,
                ]);
                let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
                util::solve(p, input, &r.json, &extra, &[]).ok();
            }) as util::Task<'_, ()>
        })
        .collect();
    util::parallel(3, jobs);
    files
}

/// On 1, 2 and 3 ranks, both problems: the page's halo messages are the report's (per rank,
/// per pair, in bytes) and each is the trace's message of its step; its walk spells the
/// report's CIGAR; every cell it shows a number for has that cost by the plain DP, the last
/// cell the report's score steps; the picture has a cell per cell and a number per reached one.
#[test]
fn the_wave_page_carries_the_runs_messages_costs_and_cigar() {
    let dir = Dir::new();
    let random = dir.generated_pair("r64.txt", 64, 64, 3);
    // A pair whose walk hops from rank to rank on 2 ranks.
    let hopping = dir.generated_pair("h64.txt", 64, 64, 5);
    // The longer sequence first: the rows are the file's second.
    let swapped = dir.input("swapped.txt", b"GATTACAGATTACAGGA", b"GCATTAGATCACAG");
    let mut runs = Vec::new();
    for (input, cases, halo) in [
        (
            &random,
            &[(1, "edit"), (2, "edit"), (3, "edit"), (3, "lcs")][..],
            "1",
        ),
        (&random, &[(2, "lcs"), (3, "edit")][..], "8"),
        (&swapped, &[(2, "edit"), (2, "lcs")][..], "1"),
        (&hopping, &[(2, "edit")][..], "1"),
    ] {
        for (case, files) in cases.iter().zip(run_all(&dir, input, cases, halo)) {
            runs.push((input.clone(), *case, files, halo));
        }
    }
    for (input, (p, problem), r, halo) in &runs {
        let what = format!(
            "{} {problem} on {p} ranks, halo steps {halo}",
            input.display()
        );
        let report = util::json(&r.json);
        let data = util::page_data(&r.html);
        assert_eq!(data["engine"], "wave", "{what}");
        assert_eq!(data["command"], "solve", "{what}");
        let wave = &data["wave"];
        let halos = wave["halos"].as_array().unwrap();
        // Per rank and per pair, as the report counts them.
        let ranks = *p;
        let mut sent = vec![(0u64, 0u64); ranks];
        let mut received = vec![0u64; ranks];
        let mut pairs = vec![vec![0u64; ranks]; ranks];
        for h in halos {
            let (from, to) = (
                h["from"].as_u64().unwrap() as usize,
                h["to"].as_u64().unwrap() as usize,
            );
            sent[from].0 += 1;
            sent[from].1 += h["bytes"].as_u64().unwrap();
            received[to] += 1;
            pairs[from][to] += 1;
            let values = h["values"].as_u64().unwrap();
            assert_eq!(h["bytes"].as_u64().unwrap(), 16 + 4 * values, "{what}: {h}");
        }
        assert_eq!(
            halos.len() as u64,
            report["messages"]["boundary"].as_u64().unwrap(),
            "{what}"
        );
        for (k, rank) in report["per_rank"].as_array().unwrap().iter().enumerate() {
            let want = (
                rank["sent"]["boundary"].as_u64().unwrap(),
                rank["sent_bytes"]["boundary"].as_u64().unwrap(),
            );
            assert_eq!(sent[k], want, "{what}: p{k} sent");
            assert_eq!(
                received[k],
                rank["received"]["boundary"].as_u64().unwrap(),
                "{what}: p{k} received"
            );
        }
        assert_eq!(json!(pairs), report["pairs"], "{what}");
        if ranks > 1 {
            assert!(!halos.is_empty(), "{what}");
        }
        // Each message on its step: with an exchange after every step, the trace's n-th
        // message from p to q is step n's; with blocks of steps, the n-th exchange step's, the
        // first after step 0 and each at most 8 steps after the one before.
        let trace = trace_halos(&r.csv);
        for from in 0..ranks as u64 {
            for to in 0..ranks as u64 {
                let sent: Vec<u64> = trace
                    .iter()
                    .filter(|t| (t.0, t.1) == (from, to))
                    .map(|t| t.2)
                    .collect();
                let mut got: Vec<(u64, u64)> = halos
                    .iter()
                    .filter(|h| h["from"] == json!(from) && h["to"] == json!(to))
                    .map(|h| (h["step"].as_u64().unwrap(), h["bytes"].as_u64().unwrap()))
                    .collect();
                got.sort();
                let bytes: Vec<u64> = got.iter().map(|g| g.1).collect();
                assert_eq!(bytes, sent, "{what}: p{from} to p{to}");
                let steps: Vec<u64> = got.iter().map(|g| g.0).collect();
                match *halo {
                    "1" => assert!(
                        steps.iter().enumerate().all(|(n, &t)| t == n as u64),
                        "{what}: p{from} to p{to} at {steps:?}"
                    ),
                    _ => assert!(
                        steps.first().is_none_or(|&t| t == 0)
                            && steps.windows(2).all(|w| w[0] < w[1] && w[1] - w[0] <= 8),
                        "{what}: p{from} to p{to} at {steps:?}"
                    ),
                }
            }
        }
        if *halo == "8" && ranks > 1 {
            // Blocks of steps: fewer exchanges than steps.
            let steps = report["score_steps"].as_u64().unwrap();
            let pairs = ranks as u64 - 1;
            let boundary = report["messages"]["boundary"].as_u64().unwrap();
            assert!(
                boundary < 2 * pairs * steps / 2,
                "{what}: {boundary} over {steps} steps"
            );
            let page = std::fs::read_to_string(&r.html).unwrap();
            assert!(
                page.contains("every 8 steps at most"),
                "{what}: the page says so"
            );
        }
        // The walk, its hops and the answer: each hop is a traceback message, to the rank
        // that owned the next cell's diagonal at the cell's cost.
        let hops = data["hops"].as_array().unwrap();
        assert_eq!(
            hops.len() as u64,
            report["traceback_hops"].as_u64().unwrap(),
            "{what}"
        );
        for h in hops {
            let (i, j) = (
                h["i"].as_u64().unwrap() as usize,
                h["j"].as_u64().unwrap() as usize,
            );
            let c = wave["costs"][i][j].as_u64().unwrap() as usize;
            let k = j as i64 - i as i64;
            let owner = wave["steps"][c]["ranges"]
                .as_array()
                .unwrap()
                .iter()
                .position(|r| {
                    r[0].as_i64()
                        .is_some_and(|a| a <= k && k <= r[1].as_i64().unwrap())
                });
            assert_eq!(
                owner as Option<usize>,
                h["to"].as_u64().map(|t| t as usize),
                "{what}: {h}"
            );
        }
        if input == &hopping {
            assert!(!hops.is_empty(), "{what}: this walk hops");
        }
        assert_eq!(data["cigar"], report["cigar"], "{what}");
        check_walk(&data, report["cigar"].as_str().unwrap(), &what);
        // The costs: the plain DP's, up to the run's; the last cell's is the answer's.
        let want = costs(
            &data_bytes(&data, "x"),
            &data_bytes(&data, "y"),
            *problem == "edit",
        );
        let steps = report["score_steps"].as_u64().unwrap();
        assert_eq!(wave["cost"].as_u64(), Some(steps), "{what}");
        let got = wave["costs"].as_array().unwrap();
        let bound = report["wave_bound"].as_i64().unwrap();
        let (m, n) = (
            report["rows"].as_i64().unwrap(),
            report["cols"].as_i64().unwrap(),
        );
        let mut reached = 0;
        for (i, row) in got.iter().enumerate() {
            for (j, c) in row.as_array().unwrap().iter().enumerate() {
                // A cell is reached exactly when its cost is at most the answer's and a path
                // through it can stay within the bound.
                let within = |c: u64| {
                    let k = j as i64 - i as i64;
                    c <= steps && c as i64 + (k - (n - m)).abs() <= bound
                };
                match c.as_u64() {
                    Some(c) => {
                        reached += 1;
                        assert_eq!(c, want[i][j], "{what}: the cost of ({i}, {j})");
                        assert!(within(c), "{what}: ({i}, {j}) reached");
                    }
                    None => assert!(!within(want[i][j]), "{what}: ({i}, {j}) not reached"),
                }
            }
        }
        let last = got.last().unwrap().as_array().unwrap().last().unwrap();
        assert_eq!(last.as_u64(), Some(steps), "{what}");
        assert_eq!(wave["steps"].as_array().unwrap().len() as u64, steps + 1);
        // The picture: a cell per cell, a number per reached one, the walk.
        let svg = std::fs::read_to_string(&r.svg).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let count = |class: &str| {
            doc.descendants()
                .filter(|n| n.attribute("class") == Some(class))
                .count()
        };
        assert_eq!(count("cell") as i64, m * n, "{what}");
        // A picture's cells carry text up to 40 a side.
        let texts = if m.max(n) <= 40 { reached } else { 0 };
        assert_eq!(count("cell-text"), texts, "{what}");
        assert_eq!(
            count("walk-step"),
            data["walk"].as_array().unwrap().len() - 1
        );
    }
}

/// A pair too large to draw, `--engine auto` with a picture, and `schedule --engine wave` or
/// `auto` are refused (exit 2) with one line naming what works, and write nothing.
#[test]
fn wave_pictures_beyond_teaching_sizes_and_wave_schedules_are_refused() {
    let dir = Dir::new();
    let big = dir.generated_pair("big.txt", 65, 70, 1);
    let html = dir.path("big.html");
    let run = util::mpirun(
        2,
        &args(&[&"solve", &big, &"--engine", &"wave", &"--html", &html]),
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    let said = run.our_messages().join("\n");
    assert!(
        said.contains("64 x 64") && said.contains("65 x 70"),
        "{said}"
    );
    assert!(!html.exists());
    let small = dir.input("small.txt", b"GATTACA", b"GATACCA");
    let svg = dir.path("auto.svg");
    let run = util::mpirun(
        2,
        &args(&[&"solve", &small, &"--engine", &"auto", &"--svg", &svg]),
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains("--engine diagonal, bands or wave"),
        "{}",
        run.stderr
    );
    assert!(!svg.exists());
    for engine in ["wave", "auto"] {
        let page = dir.path(&format!("{engine}.html"));
        let run = util::plain(&args(&[
            &"schedule",
            &"--rows",
            &"5",
            &"--cols",
            &"8",
            &"--engine",
            &engine,
            &"--html",
            &page,
        ]));
        assert_eq!(run.status.code(), Some(2), "{engine}: {run:?}");
        assert_eq!(run.stdout, "", "{engine}: no schedule printed");
        let lines = run.our_messages();
        assert_eq!(lines.len(), 1, "{engine}: {lines:?}");
        assert!(
            lines[0].contains("solve FILE --engine wave --html"),
            "{engine}: {}",
            lines[0]
        );
        assert!(!page.exists());
    }
}

/// Each rank's run of diagonals at score step `t`, by the formulas: the step reaches
/// `|k| ≤ t` with `t + |k − (n − m)| ≤ bound` (every other diagonal for the LCS), and is split
/// among `min(P, max(1, count / 16))` ranks in contiguous runs, the first ranks one more.
fn ranges(m: i64, n: i64, bound: i64, ranks: usize, lcs: bool, t: i64) -> Vec<Option<(i64, i64)>> {
    let left = bound - t;
    let d = n - m;
    let mut lo = (-t).max(-m).max(d - left);
    let mut hi = t.min(n).min(d + left);
    let stride = if lcs { 2 } else { 1 };
    if lcs {
        lo += (lo - t).rem_euclid(2);
        hi -= (hi - t).rem_euclid(2);
    }
    let count = ((hi - lo) / stride + 1) as usize;
    let p = (count / 16).clamp(1, ranks);
    let (f, r) = (count / p, count % p);
    (0..ranks)
        .map(|k| {
            (k < p).then(|| {
                let start = (k * f + k.min(r)) as i64;
                let size = (f + usize::from(k < r)) as i64;
                (lo + stride * start, lo + stride * (start + size - 1))
            })
        })
        .collect()
}

/// The 64 x 64 edit run on 3 ranks, played: at every score step the lane shows each rank's
/// run of diagonals as the formulas give it, the step's halo messages as the trace lists them
/// (the n-th message of each pair), the counters the trace's messages so far; the address
/// follows the step and `#step=N` opens it; the keys step; the walk ends on the report's
/// CIGAR; in projector mode at 1024 x 768 no visible text is under 12 pixels.
#[test]
fn the_wave_page_plays_each_steps_ranges_and_halos() {
    let dir = Dir::new();
    let input = dir.generated_pair("r64.txt", 64, 64, 3);
    let runs = run_all(&dir, &input, &[(3, "edit")], "1");
    let r = &runs[0];
    let report = util::json(&r.json);
    let (m, n) = (
        report["rows"].as_i64().unwrap(),
        report["cols"].as_i64().unwrap(),
    );
    let bound = report["wave_bound"].as_i64().unwrap();
    let cost = report["score_steps"].as_u64().unwrap();
    let trace = trace_halos(&r.csv);
    let mut browser = Browser::start();
    let mut tab = browser.open(&r.html, "");
    quiet(&mut tab, "opened");
    let info = tab.eval("lcsPage.info()");
    assert_eq!(info["engine"], "wave");
    let fill = info["fill"].as_u64().unwrap();
    assert!(
        fill > cost,
        "{info}: a step per score step, and the end passed on"
    );
    let mut split_seen = false;
    for t in 0..fill {
        let state = tab.eval(&format!("lcsPage.go({t})"));
        let what = format!("step {t}");
        assert!(
            state["label"]
                .as_str()
                .unwrap()
                .ends_with(&format!("s = {t}")),
            "{what}: {}",
            state["label"]
        );
        assert_eq!(
            state["outlined"],
            json!(if t <= cost { vec![t] } else { vec![] }),
            "{what}"
        );
        assert_eq!(
            state["address"],
            json!(format!("#step={}", t + 1)),
            "{what}"
        );
        // The lane: each rank's run.
        let want = match t <= cost {
            true => ranges(m, n, bound, 3, false, t as i64),
            false => vec![None; 3],
        };
        let got: Vec<Option<(i64, i64)>> = state["lane"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["lo"].as_i64().map(|lo| (lo, l["hi"].as_i64().unwrap())))
            .collect();
        assert_eq!(got, want, "{what}: the ranks' diagonals");
        split_seen |= want.iter().filter(|r| r.is_some()).count() > 1;
        for (k, l) in state["lane"].as_array().unwrap().iter().enumerate() {
            let text = l["text"].as_str().unwrap();
            assert!(text.starts_with(&format!("p{k}: ")), "{what}: {text}");
        }
        // The halos of the step: the n-th of each pair in the trace.
        let mut want: Vec<(u64, u64, u64)> = Vec::new();
        for (from, to) in [(0, 1), (1, 0), (1, 2), (2, 1)] {
            if let Some(h) = trace
                .iter()
                .filter(|h| (h.0, h.1) == (from, to))
                .nth(t as usize)
            {
                want.push(*h);
            }
        }
        want.sort();
        let mut got: Vec<(u64, u64, u64)> = state["halos"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                assert_eq!(h["step"], json!(t), "{what}");
                (
                    h["from"].as_u64().unwrap(),
                    h["to"].as_u64().unwrap(),
                    h["bytes"].as_u64().unwrap(),
                )
            })
            .collect();
        got.sort();
        assert_eq!(got, want, "{what}: halo messages");
        // The lane says how many values each carried.
        let counts = state["laneCounts"].as_array().unwrap();
        for (from, to, bytes) in &want {
            let values = (bytes - 16) / 4;
            let said = match values {
                0 => format!("p{from}\u{2192}p{to}: empty"),
                1 => format!("p{from}\u{2192}p{to}: 1 value"),
                v => format!("p{from}\u{2192}p{to}: {v} values"),
            };
            assert!(
                counts.iter().any(|c| c.as_str().unwrap().contains(&said)),
                "{what}: {said} in {counts:?}"
            );
        }
        // The counters: the trace's messages up to this step.
        let mut sent = [0u64; 3];
        let mut received = [0u64; 3];
        for (from, to) in [(0, 1), (1, 0), (1, 2), (2, 1)] {
            let k = trace
                .iter()
                .filter(|h| (h.0, h.1) == (from, to))
                .count()
                .min(t as usize + 1);
            sent[from as usize] += k as u64;
            received[to as usize] += k as u64;
        }
        let counters: Vec<(u64, u64)> = state["counters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["sent"].as_u64().unwrap(), c["received"].as_u64().unwrap()))
            .collect();
        let want: Vec<(u64, u64)> = (0..3).map(|k| (sent[k], received[k])).collect();
        assert_eq!(counters, want, "{what}: counters");
        if t <= cost {
            let points = state["points"].as_array().unwrap().len();
            let runs = ranges(m, n, bound, 3, false, t as i64);
            let count: i64 = runs.iter().flatten().map(|(a, b)| b - a + 1).sum();
            assert_eq!(points as i64, count, "{what}: a point per diagonal");
        }
    }
    assert!(split_seen, "some step is split among ranks");
    // Hovering a reached cell tells its diagonal, its step and its rank, and the panel its
    // recurrence; one never reached says so.
    let costs = &util::page_data(&r.html)["wave"]["costs"];
    for (i, j) in [(5usize, 9usize), (60, 2)] {
        let at = tab.eval(&format!(
            "(() => {{ const r = document.querySelector('rect.cell[data-i=\"{i}\"][data-j=\"{j}\"]')\
             .getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        tab.hover(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        let state = tab.eval("lcsPage.state()");
        let tip = state["tooltip"].as_str().unwrap_or_default().to_owned();
        let k = j as i64 - i as i64;
        assert!(
            tip.contains(&format!(
                "diagonal k = j \u{2212} i = {}",
                k.to_string().replace('-', "\u{2212}")
            )),
            "({i}, {j}): {tip}"
        );
        match costs[i][j].as_u64() {
            Some(c) => {
                assert!(tip.contains(&format!("reached at step {c} by p")), "{tip}");
                let cell = state["cell"].as_str().unwrap();
                assert!(cell.contains(&format!("F[{c}][")), "the recurrence: {cell}");
            }
            None => assert!(tip.contains("no step reached it"), "{tip}"),
        }
    }
    // The address opens a step; the keys step.
    let mut tab = browser.open(&r.html, "#step=20");
    let state = tab.eval("lcsPage.state()");
    assert_eq!(state["step"], 19);
    assert!(
        state["label"].as_str().unwrap().starts_with("step 20 of"),
        "{}",
        state["label"]
    );
    tab.press("ArrowRight");
    assert_eq!(tab.eval("lcsPage.state().step"), 20);
    tab.press("End");
    let state = tab.eval("lcsPage.state()");
    assert_eq!(state["final"], true);
    assert_eq!(state["alignment"], report["cigar"], "the walk's CIGAR");
    quiet(&mut tab, "played");
    // Projector mode at 1024 x 768.
    let mut tab = browser.open(&r.html, "#projector");
    let info = tab.eval("lcsPage.info()");
    let steps = info["steps"].as_u64().unwrap();
    for step in [0, cost / 2, cost, fill, (fill + steps) / 2, steps - 1] {
        let state = tab.eval(&format!("lcsPage.go({step})"));
        assert_eq!(state["projector"], true);
        assert_eq!(state["panelOpen"], false);
        let small = small_texts(&mut tab);
        assert!(small.is_empty(), "projector, step {step}: {small:#?}");
        let strip = state["strip"].as_str().unwrap();
        assert!(
            strip.starts_with("Messages: diagonal ") && strip.contains(" wave "),
            "{strip}"
        );
    }
    quiet(&mut tab, "projector");
}
