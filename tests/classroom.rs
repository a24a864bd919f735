//! The classroom page in a real browser (headless Chromium, see `browser`): for small inputs on 1,
//! 3 and 8 ranks it is stepped by its API and by its keys, and what it shows is compared with the
//! run's own records (the arrows of step d with the trace's boundary messages of diagonal d, the
//! counters with the trace and the report, the hops with the traceback messages, the answer with
//! the report's, the owners with `schedule`'s grid); an edit run's picture (parsed as XML) and page
//! speak of the edit distance and end with its distance and CIGAR. Every page must log no error and
//! request nothing but itself.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::browser::{Browser, Tab};
use crate::util::{self, args, Dir};
use lcs_core::alignment::expand as expand_cigar;

/// A message as the trace lists it: (kind, diagonal, from, to, i, j, bytes).
type Line = (String, Option<u64>, u64, u64, Option<u64>, Option<u64>, u64);

fn trace(path: &Path) -> Vec<Line> {
    let table = util::csv(path);
    let col = |name: &str| util::column(&table, name);
    let (kind, diagonal, from, to, i, j, bytes) = (
        col("kind"),
        col("diagonal"),
        col("from"),
        col("to"),
        col("i"),
        col("j"),
        col("bytes"),
    );
    let opt = |s: &str| s.parse::<u64>().ok();
    (0..kind.len())
        .map(|k| {
            (
                kind[k].to_owned(),
                opt(diagonal[k]),
                from[k].parse().unwrap(),
                to[k].parse().unwrap(),
                opt(i[k]),
                opt(j[k]),
                bytes[k].parse().unwrap(),
            )
        })
        .collect()
}

/// The owner of every cell, from the `schedule` command's grid (the program's `cell_proc`).
fn owners(m: usize, n: usize, ranks: usize) -> Vec<Vec<u64>> {
    let run = util::plain(&[
        "schedule".to_owned(),
        "--rows".into(),
        m.to_string(),
        "--cols".into(),
        n.to_string(),
        "--ranks".into(),
        ranks.to_string(),
    ])
    .ok();
    let grid: Vec<Vec<u64>> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("ownership ("))
        .skip(1)
        .take(m)
        .map(|l| {
            l.split_whitespace()
                .map(|p| p.trim_start_matches('p').parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(grid.len(), m, "{}", run.stdout);
    grid
}

/// `M[i][j]` by the plain recurrence, for checking what a hover shows.
fn table(x: &[u8], y: &[u8]) -> Vec<Vec<u32>> {
    let mut t = vec![vec![0u32; y.len()]; x.len()];
    for i in 0..x.len() {
        for j in 0..y.len() {
            let at = |a: usize, b: usize, di: usize, dj: usize| -> u32 {
                if a < di || b < dj {
                    0
                } else {
                    t[a - di][b - dj]
                }
            };
            t[i][j] = if x[i] == y[j] {
                at(i, j, 1, 1) + 1
            } else {
                at(i, j, 1, 0).max(at(i, j, 0, 1))
            };
        }
    }
    t
}

/// `D[i][j]` by the plain recurrence: the edit distances of the prefixes.
fn distances(x: &[u8], y: &[u8]) -> Vec<Vec<u32>> {
    let mut t = vec![vec![0u32; y.len()]; x.len()];
    for i in 0..x.len() {
        for j in 0..y.len() {
            // Outside the matrix: D[-1][j] = j + 1, D[i][-1] = i + 1, D[-1][-1] = 0.
            let at = |a: usize, b: usize, di: usize, dj: usize| -> u32 {
                match (a.checked_sub(di), b.checked_sub(dj)) {
                    (Some(a), Some(b)) => t[a][b],
                    (None, Some(b)) => b as u32 + 1,
                    (Some(a), None) => a as u32 + 1,
                    (None, None) => 0,
                }
            };
            let diag = at(i, j, 1, 1);
            t[i][j] = if x[i] == y[j] {
                diag
            } else {
                1 + diag.min(at(i, j, 1, 0)).min(at(i, j, 0, 1))
            };
        }
    }
    t
}

/// The arrows a page shows, as sorted (from, to, i, j, bytes).
fn arrows(state: &Value) -> Vec<(u64, u64, u64, u64, u64)> {
    let mut a: Vec<_> = state["arrows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let f = |k: &str| a[k].as_u64().unwrap();
            (f("from"), f("to"), f("i"), f("j"), f("bytes"))
        })
        .collect();
    a.sort();
    a
}

fn go(tab: &mut Tab, step: usize) -> Value {
    tab.eval(&format!("lcsPage.go({step})"))
}

/// What the page must show after fill step `d`: the boundary messages of diagonal `d` as
/// arrows, diagonal `d` outlined, the cells of diagonals up to `d` done, and per rank the cells
/// and the messages of diagonals up to `d`.
fn check_fill_step(state: &Value, d: u64, boundary: &[Line], owners: &[Vec<u64>], what: &str) {
    let mut expected: Vec<_> = boundary
        .iter()
        .filter(|l| l.1 == Some(d))
        .map(|l| (l.2, l.3, l.4.unwrap(), l.5.unwrap(), l.6))
        .collect();
    expected.sort();
    assert_eq!(arrows(state), expected, "{what}: arrows of diagonal {d}");
    assert_eq!(state["outlined"], serde_json::json!([d]), "{what}");
    let cells = owners
        .iter()
        .enumerate()
        .flat_map(|(i, row)| row.iter().enumerate().map(move |(j, &k)| (i + j, k)))
        .filter(|&(dd, _)| dd as u64 <= d);
    let ranks = state["counters"].as_array().unwrap().len();
    let mut want = vec![(0u64, 0u64, 0u64); ranks];
    for (_, k) in cells {
        want[k as usize].0 += 1;
    }
    for l in boundary.iter().filter(|l| l.1.unwrap() <= d) {
        want[l.2 as usize].1 += 1;
        want[l.3 as usize].2 += 1;
    }
    let done: u64 = want.iter().map(|w| w.0).sum();
    assert_eq!(state["done"].as_u64(), Some(done), "{what}: cells done");
    let got: Vec<(u64, u64, u64)> = state["counters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let f = |k: &str| c[k].as_u64().unwrap();
            (f("cells"), f("sent"), f("received"))
        })
        .collect();
    assert_eq!(got, want, "{what}: counters after diagonal {d}");
}

/// The page logged nothing and loaded nothing but itself.
fn check_quiet(tab: &mut Tab, what: &str) {
    let problems = tab.eval("lcsPage.problems()");
    assert_eq!(problems, serde_json::json!([]), "{what}");
    let activity = tab.activity();
    assert!(activity.errors.is_empty(), "{what}: {:#?}", activity.errors);
    let url = tab.url.clone();
    assert!(
        activity
            .requests
            .iter()
            .all(|r| r.split('#').next() == Some(url.as_str())),
        "{what} requested {:?}",
        activity.requests
    );
    assert!(activity.requests.len() <= 1, "{:?}", activity.requests);
}

/// `solve --html` on 1, 3 and 8 ranks: the page against the run's JSON report and trace.
#[test]
fn page_plays_the_recorded_run_in_chromium() {
    let dir = Dir::new();
    let input = util::repo_input("small.txt");
    let text = std::fs::read_to_string(&input).unwrap();
    let mut lines = text.lines();
    let (x, y) = (lines.next().unwrap(), lines.next().unwrap());
    let (x, y) = if x.len() <= y.len() { (x, y) } else { (y, x) };
    let values = table(x.as_bytes(), y.as_bytes());
    let ranks = [1usize, 3, 8];
    let files: Vec<(PathBuf, PathBuf, PathBuf)> = ranks
        .iter()
        .map(|p| {
            (
                dir.path(&format!("run{p}.html")),
                dir.path(&format!("run{p}.json")),
                dir.path(&format!("run{p}.csv")),
            )
        })
        .collect();
    let jobs: Vec<util::Task<'_, ()>> = ranks
        .iter()
        .zip(&files)
        .map(|(&p, (html, json, csv))| {
            let input = &input;
            Box::new(move || {
                let extra = args(&[&"--html", html, &"--trace", csv]);
                let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
                util::solve(p, input, json, &extra, &[]).ok();
            }) as util::Task<'_, ()>
        })
        .collect();
    util::parallel(3, jobs);

    let mut browser = Browser::start();
    for (&p, (html, json, csv)) in ranks.iter().zip(&files) {
        let what = format!("{p} ranks");
        let report = util::json(json);
        let lines = trace(csv);
        let boundary: Vec<Line> = lines
            .iter()
            .filter(|l| l.0 == "boundary")
            .cloned()
            .collect();
        let (m, n) = (
            report["rows"].as_u64().unwrap() as usize,
            report["cols"].as_u64().unwrap() as usize,
        );
        let owners = owners(m, n, p);
        let mut tab = browser.open(html, "");
        let info = tab.eval("lcsPage.info()");
        let diagonals = (m + n - 1) as u64;
        assert_eq!(info["fill"].as_u64(), Some(diagonals), "{what}: {info}");
        assert_eq!(info["group"], 1, "{what}");
        assert_eq!(info["end"], 1, "{what}");
        let fill = diagonals as usize;
        let walk = info["walk"].as_u64().unwrap() as usize;
        let steps = info["steps"].as_u64().unwrap() as usize;
        assert_eq!(steps, fill + walk + 1);

        // The fill, at several diagonals.
        for d in [0, 1, 2, 7, diagonals / 2, diagonals - 2, diagonals - 1] {
            let state = go(&mut tab, d as usize);
            check_fill_step(&state, d, &boundary, &owners, &what);
            assert_eq!(state["lcs"], Value::Null, "no LCS during the fill");
        }
        // The keys: three steps forward, one back, play and pause.
        go(&mut tab, 0);
        for _ in 0..3 {
            tab.press("ArrowRight");
        }
        let state = tab.eval("lcsPage.state()");
        assert_eq!(state["step"], 3, "{what}: → three times");
        check_fill_step(&state, 3, &boundary, &owners, &what);
        tab.press("ArrowLeft");
        let state = tab.eval("lcsPage.state()");
        assert_eq!(state["step"], 2, "{what}: ←");
        assert_eq!(state["slider"], 2, "{what}: the slider follows");
        check_fill_step(&state, 2, &boundary, &owners, &what);
        tab.press(" ");
        assert_eq!(
            tab.eval("lcsPage.state().playing"),
            true,
            "{what}: space plays"
        );
        tab.press(" ");
        assert_eq!(
            tab.eval("lcsPage.state().playing"),
            false,
            "{what}: space pauses"
        );
        tab.press("End");
        assert_eq!(
            tab.eval("lcsPage.state().step").as_u64(),
            Some(steps as u64 - 1)
        );

        // The walk, cell by cell: the LCS found so far grows from the right, and each hop
        // appears, with its payload, at the step that enters its cell.
        let lcs = report["lcs"].as_str().unwrap();
        let hops_traced: Vec<(u64, u64, u64, u64, u64)> = lines
            .iter()
            .filter(|l| l.0 == "traceback")
            .map(|l| (l.2, l.3, l.4.unwrap(), l.5.unwrap(), l.6))
            .collect();
        assert_eq!(
            hops_traced.len() as u64,
            report["traceback_hops"].as_u64().unwrap()
        );
        let mut seen_hops = 0;
        for t in 0..walk {
            let state = go(&mut tab, fill + t);
            assert_eq!(state["walkSteps"].as_u64(), Some(t as u64), "{what}");
            let so_far = state["lcs"].as_str().unwrap();
            assert!(
                lcs.ends_with(so_far),
                "{what}: {so_far} is not the end of {lcs}"
            );
            let hops = state["hops"].as_array().unwrap();
            if hops.len() > seen_hops {
                let h = &hops[hops.len() - 1];
                let label = state["hopLabel"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{state}"));
                let (i, j, bytes) = (&h["i"], &h["j"], &h["bytes"]);
                assert!(
                    label.contains(&format!("({i}, {j})")) && label.contains(&format!("{bytes} B")),
                    "{what}: {label}"
                );
                let prefix = h["prefix"].as_str().unwrap();
                // The next cell (16 bytes), then the path so far: its number of moves (8
                // bytes) and the moves four to a byte, one move per cell walked.
                let moves = h["t"].as_u64().unwrap() + 1;
                assert_eq!(24 + moves.div_ceil(4), bytes.as_u64().unwrap(), "{what}");
                assert!(lcs.ends_with(prefix), "{what}: hop carries {prefix}");
                seen_hops = hops.len();
            }
        }
        // The end: the LCS, every hop as traced, the counters as the report has them.
        let state = go(&mut tab, steps - 1);
        assert_eq!(state["lcs"].as_str(), Some(lcs), "{what}");
        assert_eq!(state["final"], true, "{what}");
        let shown: Vec<(u64, u64, u64, u64, u64)> = state["hops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                let f = |k: &str| h[k].as_u64().unwrap();
                (f("from"), f("to"), f("i"), f("j"), f("bytes"))
            })
            .collect();
        assert_eq!(shown, hops_traced, "{what}: hops");
        assert!(
            state["what"].as_str().unwrap().contains("control"),
            "{what}"
        );
        for (k, c) in state["counters"].as_array().unwrap().iter().enumerate() {
            let r = &report["per_rank"][k];
            let total = |v: &Value| {
                v["boundary"].as_u64().unwrap()
                    + v["traceback"].as_u64().unwrap()
                    + v["control"].as_u64().unwrap()
            };
            assert_eq!(c["cells"], r["cells"], "{what}: p{k}");
            assert_eq!(c["sent"].as_u64(), Some(total(&r["sent"])), "{what}: p{k}");
            assert_eq!(
                c["received"].as_u64(),
                Some(total(&r["received"])),
                "{what}: p{k}"
            );
        }

        // Hovering a cell: its diagonal, position, owner and value.
        let (i, j) = (3, 4);
        let at = tab.eval(&format!(
            "(() => {{ const r = document.querySelector('rect.cell[data-i=\"{i}\"][data-j=\"{j}\"]')\
             .getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        tab.hover(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        let tip = tab.eval("lcsPage.state().tooltip");
        let tip = tip.as_str().unwrap_or_else(|| panic!("{what}: no tooltip"));
        for wanted in [
            format!("cell (i, j) = ({i}, {j})"),
            format!("d = i + j = {}", i + j),
            format!("owner cell_proc({i}, {j}) = p{}", owners[i][j]),
            format!("diag_start_end({}, {}) = [", i + j, owners[i][j]),
            format!("M[{i}][{j}] = {}", values[i][j]),
        ] {
            assert!(tip.contains(&wanted), "{what}: no '{wanted}' in {tip}");
        }
        // The cell inspector: the recurrence with this cell's numbers, max( at a mismatch.
        let (a, b) = (0..m)
            .flat_map(|i| (1..n).map(move |j| (i, j)))
            .find(|&(i, j)| i > 0 && x.as_bytes()[i] != y.as_bytes()[j])
            .unwrap();
        let shown = tab.eval(&format!("lcsPage.select({a}, {b})"));
        let wanted = format!(
            "M[{a}][{b}] = max(M[{}][{b}], M[{a}][{}]) = max({}, {}) = {}",
            a - 1,
            b - 1,
            values[a - 1][b],
            values[a][b - 1],
            values[a][b]
        );
        assert!(shown.as_str().unwrap().contains(&wanted), "{what}: {shown}");
        if p == 3 {
            // The docs' example: no text over a value at any step; keys whatever has focus;
            // the traceback's key; a pause before the walk.
            assert_eq!(
                tab.eval("lcsPage.overlapsAll()"),
                serde_json::json!([]),
                "{what}"
            );
            go(&mut tab, 1);
            tab.eval("document.getElementById('speed').focus()");
            tab.press("ArrowRight");
            assert_eq!(
                tab.eval("lcsPage.state().step"),
                2,
                "{what}: → with the menu focused"
            );
            tab.press("t");
            let state = tab.eval("lcsPage.state()");
            assert_eq!(state["step"].as_u64(), Some(fill as u64), "{what}: t");
            assert_eq!(state["address"], format!("#step={}", fill + 1));
            let pause = tab.eval(&format!(
                "lcsPage.delayAfter({}) / lcsPage.delayAfter(0)",
                fill - 1
            ));
            assert!(pause.as_f64().unwrap() >= 3.0, "{what}: {pause}");
            let q = tab.eval("lcsPage.go(4); lcsPage.quiz(true)");
            let right = tab.eval(&format!("lcsPage.answer({{owner: {}}}).right", q["owner"]));
            assert_eq!(right, true, "{what}: {q}");
            let wrong = tab.eval(&format!(
                "lcsPage.answer({{messages: {}}}).right",
                q["messages"].as_u64().unwrap() + 1
            ));
            assert_eq!(wrong, false, "{what}: {q}");
        }
        check_quiet(&mut tab, &what);
        drop(tab);

        // An address naming the first hop opens at the step that makes it.
        if let Some(first) = hops_traced.first() {
            let mut tab = browser.open(html, "#hop=1");
            let state = tab.eval("lcsPage.state()");
            let hops = state["hops"].as_array().unwrap();
            assert_eq!(hops.len(), 1, "{what}: {state}");
            assert_eq!(
                (&hops[0]["i"], &hops[0]["j"]),
                (&Value::from(first.2), &Value::from(first.3)),
                "{what}"
            );
            assert!(state["hopLabel"].is_string(), "{what}: {state}");
            check_quiet(&mut tab, &format!("{what}, #hop=1"));
        }
    }
}

/// `solve --problem edit` on 3 ranks, the file's first sequence the longer: the picture and
/// the page speak of the edit distance, not of an LCS; the cells show the distances; each hop
/// carries the path so far (24 bytes and a quarter of a byte per move), whose CIGAR ends the
/// run's; the end shows the report's distance and CIGAR.
#[test]
fn an_edit_runs_picture_and_page_speak_of_the_edit_distance() {
    let dir = Dir::new();
    let input = dir.path("edit.txt");
    std::fs::write(&input, "GATTACATTAGCAT\nGCATTACAGTAT\n").unwrap();
    let (svg, html, json, csv) = (
        dir.path("edit.svg"),
        dir.path("edit.html"),
        dir.path("edit.json"),
        dir.path("edit.csv"),
    );
    let extra = args(&[
        &"--problem",
        &"edit",
        &"--svg",
        &svg,
        &"--html",
        &html,
        &"--trace",
        &csv,
    ]);
    let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
    util::solve(3, &input, &json, &extra, &[]).ok();
    let report = util::json(&json);
    assert_eq!(report["problem"], "edit");
    assert_eq!(report["swapped"], true, "the rows are the second sequence");
    let distance = report["distance"].as_u64().unwrap();
    let cigar = report["cigar"].as_str().unwrap().to_owned();
    let whole = expand_cigar(&cigar);
    let values = distances(b"GCATTACAGTAT", b"GATTACATTAGCAT");
    let hops_traced: Vec<(u64, u64, u64, u64, u64)> = trace(&csv)
        .into_iter()
        .filter(|l| l.0 == "traceback")
        .map(|l| (l.2, l.3, l.4.unwrap(), l.5.unwrap(), l.6))
        .collect();
    assert!(!hops_traced.is_empty(), "the walk crosses ranks");

    // The picture.
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("a picture is well-formed XML");
    let marks = |class: &str| -> Vec<roxmltree::Node<'_, '_>> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .collect()
    };
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default())
        .collect();
    let title = marks("title")[0].text().unwrap();
    assert!(
        title.starts_with("Edit distance of")
            && title.ends_with(&format!("edit distance {distance}")),
        "{title}"
    );
    assert!(texts.iter().all(|t| !t.contains("LCS")), "{texts:?}");
    let cells: Vec<String> = marks("cell-text")
        .iter()
        .map(|n| n.text().unwrap().to_owned())
        .collect();
    let expected: Vec<String> = values.iter().flatten().map(u32::to_string).collect();
    assert_eq!(cells, expected, "the cells show D[i][j]");
    for wanted in [
        "number in a cell: D[i][j]".to_owned(),
        format!("edit distance {distance}"),
        format!("CIGAR {cigar}"),
    ] {
        assert!(texts.iter().any(|t| t.starts_with(&wanted)), "no {wanted}");
    }
    let num =
        |n: &roxmltree::Node, key: &str| -> u64 { n.attribute(key).unwrap().parse().unwrap() };
    let hops = marks("hop");
    let drawn: Vec<(u64, u64, u64, u64, u64)> = hops
        .iter()
        .map(|h| {
            let f = |k: &str| num(h, k);
            (
                f("data-from"),
                f("data-to"),
                f("data-i"),
                f("data-j"),
                f("data-bytes"),
            )
        })
        .collect();
    assert_eq!(drawn, hops_traced, "one hop per traceback message");
    for h in &hops {
        let moves = num(h, "data-moves");
        assert_eq!(moves, num(h, "data-t") + 1, "a move per cell walked");
        assert_eq!(num(h, "data-bytes"), 24 + moves.div_ceil(4));
        let so_far = expand_cigar(h.attribute("data-prefix").unwrap());
        assert_eq!(so_far.len() as u64, moves);
        assert!(whole.ends_with(&so_far), "{so_far} does not end {whole}");
    }

    // The page, step by step through the walk.
    let mut browser = Browser::start();
    let mut tab = browser.open(&html, "");
    let info = tab.eval("lcsPage.info()");
    let (fill, walk, steps) = (
        info["fill"].as_u64().unwrap() as usize,
        info["walk"].as_u64().unwrap() as usize,
        info["steps"].as_u64().unwrap() as usize,
    );
    let mut seen_hops = 0;
    for t in 0..walk {
        let state = go(&mut tab, fill + t);
        assert_eq!(state["problem"], "edit");
        assert_eq!(state["lcs"], Value::Null, "no LCS on an edit page");
        let so_far = expand_cigar(state["alignment"].as_str().unwrap());
        if t + 1 < walk {
            assert_eq!(so_far.len(), t + 1, "a move per cell walked");
        }
        assert!(whole.ends_with(&so_far), "{so_far} does not end {whole}");
        for key in ["phase", "what", "formulas"] {
            let shown = state[key].as_str().unwrap();
            assert!(!shown.contains("LCS"), "step {t}: {shown}");
        }
        assert!(state["formulas"].as_str().unwrap().contains("D[i][j]"));
        let hops = state["hops"].as_array().unwrap();
        if hops.len() > seen_hops {
            let h = &hops[hops.len() - 1];
            let moves = h["t"].as_u64().unwrap() + 1;
            assert_eq!(h["bytes"].as_u64(), Some(24 + moves.div_ceil(4)), "{h}");
            let carried = expand_cigar(h["prefix"].as_str().unwrap());
            assert_eq!(carried.len() as u64, moves, "{h}");
            let what = state["what"].as_str().unwrap();
            assert!(what.contains(&format!("{moves} move")), "{what}");
            seen_hops = hops.len();
        }
    }
    assert_eq!(seen_hops, hops_traced.len());
    let state = go(&mut tab, steps - 1);
    assert_eq!(state["alignment"].as_str(), Some(cigar.as_str()));
    let what = state["what"].as_str().unwrap();
    assert!(
        what.contains(&format!("edit distance is {distance}")) && what.contains(&cigar),
        "{what}"
    );
    let panel = state["panel"].as_str().unwrap();
    assert!(!panel.contains("LCS"), "{panel}");
    // Hovering a cell shows its distance.
    let (i, j) = (2, 3);
    let at = tab.eval(&format!(
        "(() => {{ const r = document.querySelector('rect.cell[data-i=\"{i}\"][data-j=\"{j}\"]')\
         .getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
    ));
    tab.hover(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    let tip = tab.eval("lcsPage.state().tooltip");
    let tip = tip.as_str().unwrap_or("no tooltip");
    assert!(
        tip.contains(&format!("D[{i}][{j}] = {}", values[i][j])),
        "{tip}"
    );
    // The inspector states the recurrence with min( and the numbers at a mismatch.
    let (x, y) = (b"GCATTACAGTAT", b"GATTACATTAGCAT");
    let (a, b) = (1..x.len())
        .flat_map(|i| (1..y.len()).map(move |j| (i, j)))
        .find(|&(i, j)| x[i] != y[j])
        .unwrap();
    let shown = tab.eval(&format!("lcsPage.select({a}, {b})"));
    let wanted = format!(
        "D[{a}][{b}] = 1 + min(D[{}][{}], D[{}][{b}], D[{a}][{}]) = 1 + min({}, {}, {}) = {}",
        a - 1,
        b - 1,
        a - 1,
        b - 1,
        values[a - 1][b - 1],
        values[a - 1][b],
        values[a][b - 1],
        values[a][b]
    );
    assert!(shown.as_str().unwrap().contains(&wanted), "{shown}");
    assert_eq!(tab.eval("lcsPage.overlapsAll()"), serde_json::json!([]));
    check_quiet(&mut tab, "edit page");
}

/// `schedule --html` on 1, 3 and 8 ranks: every diagonal's arrows are the messages the
/// schedule predicts, which the text prints per diagonal.
#[test]
fn schedule_page_shows_each_diagonals_predicted_messages() {
    let dir = Dir::new();
    let (m, n) = (5usize, 8usize);
    let mut browser = Browser::start();
    for p in [1usize, 3, 8] {
        let what = format!("5 x 8 on {p} ranks");
        let html = dir.path(&format!("s{p}.html"));
        let run = util::plain(&args(&[
            &"schedule",
            &"--rows",
            &m.to_string(),
            &"--cols",
            &n.to_string(),
            &"--ranks",
            &p.to_string(),
            &"--html",
            &html,
        ]))
        .ok();
        let per_diagonal: Vec<u64> = run
            .stdout
            .lines()
            .skip_while(|l| !l.starts_with("segments"))
            .skip(2)
            .take(m + n - 1)
            .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
            .collect();
        let owners = owners(m, n, p);
        // The messages of the grid: down if another rank owns the cell below, else right.
        let mut boundary: Vec<Line> = Vec::new();
        for i in 0..m {
            for j in 0..n {
                let me = owners[i][j];
                let to = [(i + 1, j), (i, j + 1)]
                    .into_iter()
                    .filter(|&(a, b)| a < m && b < n)
                    .map(|(a, b)| owners[a][b])
                    .find(|&o| o != me);
                if let Some(to) = to {
                    let cell = (Some(i as u64), Some(j as u64));
                    boundary.push((
                        "boundary".into(),
                        Some((i + j) as u64),
                        me,
                        to,
                        cell.0,
                        cell.1,
                        4,
                    ));
                }
            }
        }
        let mut tab = browser.open(&html, "");
        let info = tab.eval("lcsPage.info()");
        assert_eq!(info["steps"].as_u64(), Some((m + n - 1) as u64), "{what}");
        for d in 0..(m + n - 1) as u64 {
            let state = go(&mut tab, d as usize);
            check_fill_step(&state, d, &boundary, &owners, &what);
            assert_eq!(
                state["arrows"].as_array().unwrap().len() as u64,
                per_diagonal[d as usize],
                "{what}: the text's msgs of diagonal {d}"
            );
        }
        check_quiet(&mut tab, &what);
    }
    // The page honours a step in its address, as the label counts it (a bookmark, a link sent
    // to a class, a screenshot), and the address follows the step.
    let html = dir.path("s3.html");
    let mut tab = browser.open(&html, "#step=6");
    let state = tab.eval("lcsPage.state()");
    assert_eq!(state["step"], 5);
    assert!(
        state["label"].as_str().unwrap().starts_with("step 6 of "),
        "{state}"
    );
    let state = go(&mut tab, 2);
    assert_eq!(state["address"], "#step=3");
    assert_eq!(tab.eval("lcsPage.overlapsAll()"), serde_json::json!([]));
    check_quiet(&mut tab, "#step=6");
}

/// The largest page, 64 x 64 on 8 ranks, loads, groups its steps and plays every one of them
/// to the end. How long that took is printed (`--nocapture`), not asserted: a loaded machine is
/// slow with no bug, and speed is measured by `scripts/bench`, not by tests.
#[test]
fn largest_page_loads_and_plays_every_step() {
    let dir = Dir::new();
    let input = dir.generated("64.txt", 64, 12);
    let (html, json) = (dir.path("64.html"), dir.path("64.json"));
    let extra = args(&[&"--html", &html]);
    let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
    util::solve(8, &input, &json, &extra, &[]).ok();
    let mut browser = Browser::start();
    let mut tab = browser.open(&html, "");
    let load_ms = tab
        .eval("performance.getEntriesByType('navigation')[0].loadEventEnd")
        .as_f64()
        .unwrap();
    let info = tab.eval("lcsPage.info()");
    let play_ms = tab.eval("lcsPage.playAll()").as_f64().unwrap();
    eprintln!(
        "64 x 64 on 8 ranks: page load {load_ms:.0} ms (seen from the test {:?}), {} steps \
         played in {play_ms:.0} ms",
        tab.load, info["steps"]
    );
    assert!(
        info["group"].as_u64().unwrap() > 1,
        "large pages group steps"
    );
    let state = tab.eval("lcsPage.state()");
    assert_eq!(
        state["step"].as_u64().unwrap() + 1,
        info["steps"].as_u64().unwrap(),
        "the play ends on the last step"
    );
    assert!(state["final"].as_bool().unwrap(), "the final answer shown");
    assert_eq!(state["lcs"], util::json(&json)["lcs"]);
    check_quiet(&mut tab, "64 x 64");
}

/// The bands pages: a schedule with a teaching word (every rank a band of a small matrix) and a
/// recorded `solve --engine bands` run on 3 ranks. Each stage's arrows are the messages of its
/// batches, the counters follow the stages, the timeline has each rank's batches, and the run's
/// page ends with the report's LCS and counts; no text covers a value at any step.
#[test]
fn bands_pages_play_the_pipeline_with_its_timeline() {
    let dir = Dir::new();
    let mut browser = Browser::start();
    // The schedule, 11 x 13 on 3 ranks, batches of 4 rows, words of 4 columns.
    let page = dir.path("bs.html");
    util::plain(&args(&[
        &"schedule",
        &"--engine",
        &"bands",
        &"--rows",
        &"11",
        &"--cols",
        &"13",
        &"--ranks",
        &"3",
        &"--batch",
        &"4",
        &"--word",
        &"4",
        &"--html",
        &page,
    ]))
    .ok();
    let mut tab = browser.open(&page, "#step=2");
    let info = tab.eval("lcsPage.info()");
    assert_eq!(
        (info["engine"].as_str(), info["fill"].as_u64()),
        (Some("bands"), Some(5))
    );
    let state = tab.eval("lcsPage.state()");
    assert_eq!(state["step"], 1);
    // Stage 1: band 0 on batch 1, band 1 on batch 0; p0 sends batch 1, p1 sends batch 0.
    let mut sent: Vec<(u64, u64)> = state["arrows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["from"].as_u64().unwrap(), a["i"].as_u64().unwrap() / 4))
        .collect();
    sent.sort();
    assert_eq!(sent, [(0, 1), (1, 0)], "{state}");
    let cells: Vec<u64> = state["counters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cells"].as_u64().unwrap())
        .collect();
    assert_eq!(cells, [2 * 4 * 8, 4 * 4, 0], "{state}");
    assert!(state["panel"].as_str().unwrap().contains("teaching word"));
    let computing = state["spans"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "compute")
        .count();
    assert_eq!(computing, 2, "{state}");
    assert_eq!(tab.eval("lcsPage.overlapsAll()"), serde_json::json!([]));
    check_quiet(&mut tab, "bands schedule");
    drop(tab);

    // A run: 24 x 192 on 3 ranks (three words, one band each), batches of 8.
    let input = dir.generated("b.txt", 24, 7);
    std::fs::write(&input, {
        let text = std::fs::read_to_string(&input).unwrap();
        let mut lines = text.lines();
        let x = lines.next().unwrap().to_owned();
        let y: String = x.chars().cycle().skip(5).take(192).collect();
        format!("{x}\n{y}\n")
    })
    .unwrap();
    let (html, json, csv) = (dir.path("b.html"), dir.path("b.json"), dir.path("b.csv"));
    let extra = args(&[
        &"--engine",
        &"bands",
        &"--batch",
        &"8",
        &"--html",
        &html,
        &"--trace",
        &csv,
    ]);
    let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
    util::solve(3, &input, &json, &extra, &[]).ok();
    let report = util::json(&json);
    let lines = trace(&csv);
    let boundary = lines.iter().filter(|l| l.0 == "boundary").count();
    assert_eq!(
        boundary as u64,
        report["messages"]["boundary"].as_u64().unwrap()
    );
    assert_eq!(boundary, 2 * 3);
    let mut tab = browser.open(&html, "");
    let info = tab.eval("lcsPage.info()");
    let (fill, steps) = (
        info["fill"].as_u64().unwrap(),
        info["steps"].as_u64().unwrap(),
    );
    assert_eq!(fill, 3 + 3 - 1);
    let mut arrows = 0;
    for s in 0..fill {
        let state = go(&mut tab, s as usize);
        arrows += state["arrows"].as_array().unwrap().len();
        let spans = state["spans"].as_array().unwrap();
        assert!(
            spans.iter().any(|x| x["kind"] == "compute"),
            "step {s}: {state}"
        );
    }
    assert_eq!(arrows, boundary, "every message once");
    let state = go(&mut tab, steps as usize - 1);
    assert_eq!(state["lcs"], report["lcs"]);
    for (k, c) in state["counters"].as_array().unwrap().iter().enumerate() {
        assert_eq!(c["cells"], report["per_rank"][k]["cells"], "p{k}");
    }
    let shown = tab.eval("lcsPage.select(9, 64)");
    assert!(shown.as_str().unwrap().contains("M[9][64] = "), "{shown}");
    assert!(shown.as_str().unwrap().contains("by message"), "{shown}");
    assert_eq!(tab.eval("lcsPage.overlapsAll()"), serde_json::json!([]));
    check_quiet(&mut tab, "bands run");
}
