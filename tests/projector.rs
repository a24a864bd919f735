//! The classroom page on a projector, in headless Chromium (see `browser`), at 1024 x 681 (a
//! 1024 x 768 projector less the browser's bars), 1024 x 768 and 1920 x 1080: the zoom to a
//! window that follows the step with values of at least 18 pixels and arrows of at least 40;
//! the rows' and columns' indices that never drop; arrows that start at their sender's edge;
//! the projector's legend; the quiz's owner question unspoiled by the fences of cells to come,
//! and the diagonals' numbers kept with the panel open. Expected values come from the runs'
//! JSON, the formulas of the report and the page's geometry, never from what the page says of
//! itself.

use std::path::PathBuf;

use serde_json::Value;

use crate::browser::Browser;
use crate::lecture::{quiet, small_texts};
use crate::util::{self, args, Dir};

/// The protocol's modifier bit for Shift.
const SHIFT: u32 = 8;

/// A projector's window, the same projector's whole screen, and a large screen.
const SIZES: [(u32, u32); 3] = [(1024, 681), (1024, 768), (1920, 1080)];

/// The cells' values inside the page's window (all of them where it shows the whole matrix)
/// that are visible: how many, how many lie wholly on the screen inside the picture, and the
/// smallest in screen pixels; and the boundary messages' arrows of the step on the screen.
const SEEN: &str = r#"(() => {
  const svg = document.querySelector('#figure svg');
  const w = lcsPage.state().window;
  const m = svg.getScreenCTM();
  const scale = Math.hypot(m.a, m.b);
  const inWindow = (i, j) => !w || (i >= w.r0 && i < w.r0 + w.rows && j >= w.c0 && j < w.c0 + w.cols);
  const texts = Array.from(svg.querySelectorAll('.cell-text'))
    .filter((e) => getComputedStyle(e).visibility !== 'hidden' && inWindow(Number(e.dataset.i), Number(e.dataset.j)));
  const sb = svg.getBoundingClientRect();
  const onScreen = texts.filter((e) => {
    const r = e.getBoundingClientRect();
    return r.left >= sb.left - 1 && r.right <= sb.right + 1 && r.top >= sb.top - 1 && r.bottom <= Math.min(sb.bottom, innerHeight) + 1;
  }).length;
  const px = texts.map((e) => parseFloat(getComputedStyle(e).fontSize) * scale);
  const pt = (e, x, y) => new DOMPoint(Number(e.getAttribute(x)), Number(e.getAttribute(y))).matrixTransform(m);
  const arrows = Array.from(svg.querySelectorAll('.message.on')).map((e) => {
    const a = pt(e, 'x1', 'y1');
    const b = pt(e, 'x2', 'y2');
    const i = Number(e.dataset.i);
    const j = Number(e.dataset.j);
    const value = svg.querySelector('.cell-text[data-i="' + i + '"][data-j="' + j + '"]');
    const v = value ? value.getBoundingClientRect() : null;
    return { i, j, start: [a.x, a.y], end: [b.x, b.y], length: Math.hypot(b.x - a.x, b.y - a.y),
      down: Math.abs(b.y - a.y) > Math.abs(b.x - a.x), shown: inWindow(i, j),
      value: v && v.width > 0 ? [v.left, v.top, v.right, v.bottom] : null };
  });
  return { window: w, values: texts.length, onScreen, smallest: px.length ? Math.min(...px) : null, arrows };
})()"#;

/// The rows' and columns' indices and bytes in view: each with its row or column, whether it
/// shows, its box and its size in screen pixels.
const MARGINS: &str = r#"(() => {
  const svg = document.querySelector('#figure svg');
  const m = svg.getScreenCTM();
  const scale = Math.hypot(m.a, m.b);
  const sb = svg.getBoundingClientRect();
  const of = (sel, key) => Array.from(svg.querySelectorAll(sel)).map((e) => {
    const r = e.getBoundingClientRect();
    const inView = r.right > sb.left && r.left < sb.right && r.bottom > sb.top && r.top < Math.min(sb.bottom, innerHeight);
    return { at: Number(e.dataset[key]), shown: getComputedStyle(e).visibility !== 'hidden' && inView,
      box: [r.left, r.top, r.right, r.bottom], px: parseFloat(getComputedStyle(e).fontSize) * scale };
  });
  return { colIndex: of('.col-index', 'j'), colByte: of('.col-byte', 'j'), rowIndex: of('.row-index', 'i'), rowByte: of('.row-byte', 'i') };
})()"#;

/// The issue's runs: the 30 x 40 LCS run on 3 ranks, and the wave engine's edit runs of a
/// 40-byte and a 64-byte sequence against copies with 12% of edits, on 3 ranks.
struct Runs {
    _dir: Dir,
    run30: PathBuf,
    wave40: PathBuf,
    wave64: PathBuf,
    schedule: PathBuf,
}

fn runs() -> Runs {
    let dir = Dir::new();
    let solve = |input: &PathBuf, name: &str, extra: &[&str]| {
        let html = dir.path(&format!("{name}.html"));
        let mut more = args(&[&"--html", &html]);
        more.extend(extra.iter().map(|a| a.into()));
        let more: Vec<&std::ffi::OsStr> = more.iter().map(|a| a.as_os_str()).collect();
        util::solve(3, input, &dir.path(&format!("{name}.json")), &more, &[]).ok();
        html
    };
    let pair = dir.generated_pair("g30.txt", 30, 40, 5);
    let run30 = solve(&pair, "run30", &[]);
    let wave = ["--engine", "wave", "--problem", "edit"];
    let w40 = util::mutated(&dir, "w40.txt", 40, "0.12", 4);
    let wave40 = solve(&w40, "wave40", &wave);
    let w64 = util::mutated(&dir, "w64.txt", 64, "0.12", 4);
    let wave64 = solve(&w64, "wave64", &wave);
    let schedule = dir.path("s30.html");
    util::plain(&args(&[
        &"schedule",
        &"--rows",
        &"30",
        &"--cols",
        &"40",
        &"--ranks",
        &"3",
        &"--html",
        &schedule,
    ]))
    .ok();
    Runs {
        _dir: dir,
        run30,
        wave40,
        wave64,
        schedule,
    }
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}

/// The cells of diagonal `d` of an `m x n` matrix inside `window`.
fn diagonal_in(window: &Value, (m, n): (i64, i64), d: i64) -> i64 {
    let (r0, c0) = (f(&window["r0"]) as i64, f(&window["c0"]) as i64);
    let (rows, cols) = (f(&window["rows"]) as i64, f(&window["cols"]) as i64);
    (0..m)
        .filter(|&i| {
            let j = d - i;
            j >= 0 && j < n && i >= r0 && i < r0 + rows && j >= c0 && j < c0 + cols
        })
        .count() as i64
}

/// In projector mode the 30 x 40 run zooms: at 1024 x 681, `#projector&step=20` shows at
/// least 150 values of at least 18 pixels, all on the screen, and its arrows are at least 40
/// pixels long; at every size, at every fill step the window holds as much of the step's
/// diagonal as it has room for, at every walk step the walk's cell, and the values it shows
/// are at least 18 pixels; the inset frames the window; Shift and the arrows move it until the
/// step changes; without the mode, or where the matrix fits, the picture is whole.
#[test]
fn the_projector_zooms_to_the_step_at_a_readable_size() {
    let runs = runs();
    let report = util::json(&runs.run30.with_extension("json"));
    let (m, n) = (
        report["rows"].as_i64().unwrap(),
        report["cols"].as_i64().unwrap(),
    );
    let mut browser = Browser::start();
    for size in SIZES {
        let what = format!("the 30 x 40 run at {size:?}");
        let mut tab = browser.open_at(&runs.run30, "#projector&step=20", size);
        let seen = tab.eval(SEEN);
        assert!(seen["window"].is_object(), "{what}: zoomed: {seen}");
        assert!(f(&seen["smallest"]) >= 18.0, "{what}: {seen}");
        assert_eq!(seen["values"], seen["onScreen"], "{what}: {seen}");
        if size == (1024, 681) {
            assert!(f(&seen["values"]) >= 150.0, "{what}: {seen}");
        }
        let arrows = seen["arrows"].as_array().unwrap();
        assert!(arrows.iter().any(|a| a["shown"] == true), "{what}: {seen}");
        for a in arrows.iter().filter(|a| a["shown"] == true) {
            assert!(f(&a["length"]) >= 40.0, "{what}: {a}");
        }
        // The inset frames the window.
        let inset = tab.eval(
            "(() => { const c = document.getElementById('overview'); const r = c.getBoundingClientRect(); \
             return { hidden: c.hidden, w: r.width, h: r.height, label: c.getAttribute('aria-label') }; })()",
        );
        let w = &seen["window"];
        assert_eq!(inset["hidden"], false, "{what}: {inset}");
        assert!(f(&inset["w"]) >= 30.0, "{what}: {inset}");
        let label = format!(
            "rows {}\u{2013}{}, columns {}\u{2013}{} of 30 \u{d7} 40",
            w["r0"],
            f(&w["r0"]) as i64 + f(&w["rows"]) as i64 - 1,
            w["c0"],
            f(&w["c0"]) as i64 + f(&w["cols"]) as i64 - 1
        );
        assert_eq!(inset["label"], format!("the window: {label}"), "{what}");
        // Every step: the diagonal's cells or the walk's cell in the window, readable.
        let info = tab.eval("lcsPage.info()");
        let (steps, fill) = (
            info["steps"].as_u64().unwrap(),
            info["fill"].as_u64().unwrap(),
        );
        // The recorded walk, from the run's data in the page.
        let walk = tab.eval("JSON.parse(document.getElementById('run-data').textContent).walk");
        let walk = walk.as_array().unwrap();
        for step in 0..steps {
            let state = tab.eval(&format!("lcsPage.go({step})"));
            let seen = tab.eval(SEEN);
            let w = &state["window"];
            assert!(w.is_object(), "{what}, step {step}: {state}");
            if let Some(px) = seen["smallest"].as_f64() {
                assert!(px >= 18.0, "{what}, step {step}: {seen}");
            }
            let (rows, cols) = (f(&w["rows"]) as i64, f(&w["cols"]) as i64);
            if step < fill {
                let d = step as i64;
                let length = (d + 1).min(m).min(m + n - 1 - d);
                let room = length.min(rows - 2).min(cols - 2);
                assert!(
                    diagonal_in(w, (m, n), d) >= room,
                    "{what}, step {step}: {w} holds {} of diagonal {d}'s {length} cells",
                    diagonal_in(w, (m, n), d)
                );
            } else if let Some(at) = state["label"].as_str().unwrap().split("walk ").nth(1) {
                // "walk k/len": the walk's k-th cell is its cursor.
                let shown: usize = at.split('/').next().unwrap().parse().unwrap();
                let cell = &walk[shown.clamp(1, walk.len()) - 1];
                let (i, j) = (f(&cell[0]) as i64, f(&cell[1]) as i64);
                let (r0, c0) = (f(&w["r0"]) as i64, f(&w["c0"]) as i64);
                assert!(
                    (r0..r0 + rows).contains(&i) && (c0..c0 + cols).contains(&j),
                    "{what}, walk step {step}: ({i}, {j}) outside {w}"
                );
            }
        }
        let small = small_texts(&mut tab);
        assert!(small.is_empty(), "{what}: {small:#?}");
        // Shift and the arrows move the window until the step changes.
        let followed = tab.eval("lcsPage.go(20).window");
        tab.press_with("ArrowDown", SHIFT);
        tab.press_with("ArrowRight", SHIFT);
        let moved = tab.eval("lcsPage.state()");
        let (r0, c0) = (f(&followed["r0"]), f(&followed["c0"]));
        let rows = f(&followed["rows"]);
        if r0 + rows < m as f64 {
            assert!(
                f(&moved["window"]["r0"]) > r0,
                "{what}: {followed} then {moved}"
            );
        }
        if c0 + f(&followed["cols"]) < n as f64 {
            assert!(
                f(&moved["window"]["c0"]) > c0,
                "{what}: {followed} then {moved}"
            );
        }
        assert_eq!(moved["step"], 20, "{what}: Shift and an arrow do not step");
        tab.press("ArrowRight");
        tab.press("ArrowLeft");
        assert_eq!(
            tab.eval("lcsPage.state().window"),
            followed,
            "{what}: followed again"
        );
        // Without the mode the picture is whole.
        tab.press("p");
        let state = tab.eval("lcsPage.state()");
        assert_eq!(state["window"], Value::Null, "{what}: p");
        assert_eq!(
            tab.eval("document.querySelector('#figure svg').getAttribute('viewBox')"),
            tab.eval("(() => { const s = document.querySelector('#figure svg'); return '0 0 ' + s.getAttribute('width') + ' ' + s.getAttribute('height'); })()"),
            "{what}"
        );
        assert_eq!(tab.eval("document.getElementById('overview').hidden"), true);
        quiet(&mut tab, &what);
    }
    // The schedule and the wave page zoom alike; the 38 x 40 wave shows its costs.
    for (page, what) in [(&runs.schedule, "schedule"), (&runs.wave40, "wave 38 x 40")] {
        for size in SIZES {
            let what = format!("{what} at {size:?}");
            let mut tab = browser.open_at(page, "#projector&step=4", size);
            let seen = tab.eval(SEEN);
            assert!(seen["window"].is_object(), "{what}: {seen}");
            assert!(f(&seen["values"]) > 0.0, "{what}: {seen}");
            assert!(f(&seen["smallest"]) >= 18.0, "{what}: {seen}");
            assert_eq!(seen["values"], seen["onScreen"], "{what}: {seen}");
            let small = small_texts(&mut tab);
            assert!(small.is_empty(), "{what}: {small:#?}");
            quiet(&mut tab, &what);
        }
    }
}

/// Every row's and column's index in the projector's window, at every size, on the wave's
/// 64 x 64 and 38 x 40 pages and the 30 x 40 run, each at least 12 pixels; without the mode,
/// every k-th index regularly (k the same for every shown one), none overlapping the next, and
/// never a byte without its index.
#[test]
fn labels_never_drop() {
    let runs = runs();
    let mut browser = Browser::start();
    for (page, name) in [
        (&runs.wave64, "wave 63 x 64"),
        (&runs.wave40, "wave 38 x 40"),
        (&runs.run30, "run 30 x 40"),
    ] {
        for size in SIZES {
            let what = format!("{name} at {size:?}, projector");
            let mut tab = browser.open_at(page, "#projector&step=4", size);
            let w = tab.eval("lcsPage.state().window");
            assert!(w.is_object(), "{what}: {w}");
            let margins = tab.eval(MARGINS);
            for (indices, start, count) in [
                (&margins["rowIndex"], &w["r0"], &w["rows"]),
                (&margins["colIndex"], &w["c0"], &w["cols"]),
            ] {
                let (start, count) = (f(start) as i64, f(count) as i64);
                for at in start..start + count {
                    let index = indices
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|e| f(&e["at"]) as i64 == at)
                        .unwrap_or_else(|| panic!("{what}: no index {at}"));
                    assert_eq!(index["shown"], true, "{what}: index {at}: {index}");
                    assert!(f(&index["px"]) >= 12.0, "{what}: index {at}: {index}");
                }
            }
            regular(&margins, &what);
            quiet(&mut tab, &what);
            let what = format!("{name} at {size:?}");
            let mut tab = browser.open_at(page, "#step=4", size);
            let margins = tab.eval(MARGINS);
            regular(&margins, &what);
            quiet(&mut tab, &what);
        }
    }
}

/// The shown indices of each axis are every k-th for one k, do not overlap, and every shown
/// byte has its index shown.
fn regular(margins: &Value, what: &str) {
    for (index, byte, horizontal) in [
        ("colIndex", "colByte", true),
        ("rowIndex", "rowByte", false),
    ] {
        let shown: Vec<&Value> = margins[index]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["shown"] == true)
            .collect();
        assert!(!shown.is_empty(), "{what}: no {index}");
        let at: Vec<i64> = shown.iter().map(|e| f(&e["at"]) as i64).collect();
        let steps: Vec<i64> = at.windows(2).map(|w| w[1] - w[0]).collect();
        if let Some(&k) = steps.first() {
            assert!(steps.iter().all(|&s| s == k), "{what}: {index} at {at:?}");
            assert!(at.iter().all(|a| a % k == 0), "{what}: {index} at {at:?}");
        }
        for pair in shown.windows(2) {
            let (a, b) = (&pair[0]["box"], &pair[1]["box"]);
            let apart = if horizontal {
                f(&a[2]) <= f(&b[0]) + 0.5
            } else {
                f(&a[3]) <= f(&b[1]) + 0.5
            };
            assert!(apart, "{what}: {index} {} over {}", pair[0], pair[1]);
        }
        for b in margins[byte]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["shown"] == true)
        {
            assert!(
                at.contains(&(f(&b["at"]) as i64)),
                "{what}: {byte} {b} without its index"
            );
        }
    }
}

/// At every fill step of the 30 x 40 run, on the projector and off, each message's arrow starts
/// past its sender's value (right of it or below it, as it goes) and is a cell long.
#[test]
fn arrows_start_at_the_senders_edge() {
    let runs = runs();
    let mut browser = Browser::start();
    for size in SIZES {
        for mode in ["", "#projector"] {
            let what = format!("the 30 x 40 run at {size:?}{mode}");
            let mut tab = browser.open_at(&runs.run30, mode, size);
            let fill = tab.eval("lcsPage.info().fill").as_u64().unwrap();
            let mut checked = 0;
            for step in 0..fill {
                tab.eval(&format!("lcsPage.go({step})"));
                let seen = tab.eval(SEEN);
                for a in seen["arrows"].as_array().unwrap() {
                    let Some(v) = a["value"].as_array() else {
                        continue;
                    };
                    let past = if a["down"] == true {
                        f(&a["start"][1]) >= f(&v[3]) - 0.5
                    } else {
                        f(&a["start"][0]) >= f(&v[2]) - 0.5
                    };
                    assert!(past, "{what}, step {step}: {a} starts over its value");
                    checked += 1;
                }
            }
            assert!(checked > 20, "{what}: {checked} arrows by a value");
            quiet(&mut tab, &what);
        }
    }
}

/// The projector's legend: on the screen in the mode (and only there), a tag per rank in the
/// colour of the cells that rank owns, and the step's marks.
#[test]
fn the_projector_has_a_legend_on_the_screen() {
    let runs = runs();
    let mut browser = Browser::start();
    for (page, marks) in [
        (&runs.run30, "the step's diagonal"),
        (&runs.wave64, "the step's front"),
    ] {
        for size in SIZES {
            let what = format!("{} at {size:?}", page.display());
            let mut tab = browser.open_at(page, "#projector&step=6", size);
            let legend = tab.eval(
                "(() => { const l = document.getElementById('projector-legend'); const r = l.getBoundingClientRect(); \
                 const fill = (k) => { const c = document.querySelector('#figure .cell[data-owner=\"' + k + '\"]'); \
                   return c ? getComputedStyle(c).fill : null; }; \
                 return { text: l.textContent, top: r.top, bottom: r.bottom, right: r.right, height: r.height, \
                   tags: Array.from(l.querySelectorAll('.rank-tag')).map((t, k) => ({ text: t.textContent, \
                     colour: getComputedStyle(t).backgroundColor, cells: fill(k) })) }; })()",
            );
            assert!(f(&legend["height"]) > 0.0, "{what}: {legend}");
            assert!(
                f(&legend["bottom"]) <= f(&Value::from(size.1)),
                "{what}: {legend}"
            );
            assert!(
                f(&legend["right"]) <= f(&Value::from(size.0)),
                "{what}: {legend}"
            );
            let text = legend["text"].as_str().unwrap();
            assert!(
                text.contains(marks) && text.contains("what it reads"),
                "{what}: {text}"
            );
            let tags = legend["tags"].as_array().unwrap();
            assert_eq!(tags.len(), 3, "{what}: {legend}");
            for (k, t) in tags.iter().enumerate() {
                assert_eq!(t["text"], format!("p{k}"), "{what}");
                if !t["cells"].is_null() {
                    assert_eq!(t["colour"], t["cells"], "{what}: p{k}");
                }
            }
            let small = small_texts(&mut tab);
            assert!(small.is_empty(), "{what}: {small:#?}");
            // Out of the mode the panel's legend says it all.
            tab.press("p");
            assert_eq!(
                tab.eval(
                    "document.getElementById('projector-legend').getBoundingClientRect().height"
                ),
                0,
                "{what}"
            );
            quiet(&mut tab, &what);
        }
    }
}

/// With the quiz on, no fence of a cell to come shows (it would answer which rank owns it);
/// without, they do. On the projector the panel opened by s keeps more diagonal numbers than
/// the current one.
#[test]
fn the_quiz_is_not_answered_by_the_fences() {
    let runs = runs();
    let mut browser = Browser::start();
    const FENCES: &str = "Array.from(document.querySelectorAll('#figure .fence:not(.done)'))\
        .filter((e) => getComputedStyle(e).visibility !== 'hidden').length";
    for size in SIZES {
        let what = format!("the 30 x 40 run at {size:?}");
        let mut tab = browser.open_at(&runs.run30, "#projector&step=10", size);
        assert!(
            f(&tab.eval(FENCES)) > 0.0,
            "{what}: fences of cells to come"
        );
        tab.press("q");
        let question = tab.eval("lcsPage.quiz(true)");
        assert!(question["cell"].is_array(), "{what}: {question}");
        assert_eq!(tab.eval(FENCES), 0, "{what}: with the quiz");
        for step in [3, 20, 40] {
            tab.eval(&format!("lcsPage.go({step})"));
            assert_eq!(tab.eval(FENCES), 0, "{what}: with the quiz, step {step}");
        }
        tab.press("s");
        assert_eq!(tab.eval("lcsPage.state().panelOpen"), true, "{what}: s");
        let numbers = tab.eval(
            "Array.from(document.querySelectorAll('#figure .diagonal-label'))\
             .filter((e) => getComputedStyle(e).visibility !== 'hidden').length",
        );
        assert!(
            f(&numbers) >= 5.0,
            "{what}: {numbers} diagonal numbers with the panel open"
        );
        tab.press("q");
        assert!(f(&tab.eval(FENCES)) > 0.0, "{what}: the quiz off");
        quiet(&mut tab, &what);
    }
}
