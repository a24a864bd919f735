//! The classroom page as a lecture uses it, in headless Chromium (see `browser`), measured on
//! the page's own layout boxes at 1024 x 681, 1024 x 768 and 1920 x 1080: message arrows a cell
//! long, thick and dark on every cell; the hovered cell's inputs in a colour of their own; the
//! current diagonal always numbered; the projector mode (no visible text under 12 pixels, the values
//! shown, the side panel folded, the comparison in view); an honest comparison of the engines
//! and its batch slider; one answer per question of the quiz; no mark of the walk over a value;
//! bands fences that leave every cell to the mouse; timeline ticks that differ; and the bands
//! pages of a 300 x 700 run on 4 ranks drawn by blocks of bands and batches, within 3 MB.
//! Expected values come from the runs' JSON and traces, the `schedule` command's text and plain
//! DPs, never from the page itself.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::browser::{Browser, Tab};
use crate::util::{self, args, Dir};

/// The viewports: a classroom projector's window (1024 x 768 less the browser's bars), the
/// whole projector, and a large screen.
const SIZES: [(u32, u32); 3] = [(1024, 681), (1024, 768), (1920, 1080)];

/// Every text a viewer sees (visible, non-empty, inside the viewport) with its size in screen
/// pixels: an HTML element's computed size, an SVG text's computed size times the picture's
/// scale, and the height of its layout box.
const TEXT_SIZES: &str = r#"(() => {
  const out = [];
  const shown = (e) => {
    const st = getComputedStyle(e);
    if (st.visibility === 'hidden' || st.display === 'none') return null;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth ? r : null;
  };
  document.querySelectorAll('body *').forEach((e) => {
    if (e.closest('svg')) return;
    const own = Array.from(e.childNodes).some((c) => c.nodeType === 3 && c.textContent.trim());
    const r = own && shown(e);
    if (r) out.push({ what: e.tagName + '#' + e.id, text: e.textContent.trim().slice(0, 40), px: parseFloat(getComputedStyle(e).fontSize), box: r.height });
  });
  document.querySelectorAll('svg text').forEach((e) => {
    const r = shown(e);
    if (!r || !e.textContent.trim()) return;
    const m = e.getScreenCTM();
    out.push({ what: 'svg ' + (e.getAttribute('class') || e.parentNode.getAttribute('class')), text: e.textContent.slice(0, 40),
      px: parseFloat(getComputedStyle(e).fontSize) * Math.hypot(m.a, m.b), box: r.height });
  });
  return out;
})()"#;

/// The visible arrows of the step, on the screen: their ends, length, the widths of shaft and
/// edge, their colour, and the boxes and colours of the sending and receiving cells.
const ARROWS: &str = r#"(() => {
  const svg = document.querySelector('#figure svg');
  const m = svg.getScreenCTM();
  const scale = Math.hypot(m.a, m.b);
  const pt = (x, y) => new DOMPoint(x, y).matrixTransform(m);
  const cell = (i, j) => svg.querySelector('.cell[data-i="' + i + '"][data-j="' + j + '"]');
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return Array.from(svg.querySelectorAll('.message.on')).map((e) => {
    const [i, j] = [Number(e.dataset.i), Number(e.dataset.j)];
    const a = pt(Number(e.getAttribute('x1')), Number(e.getAttribute('y1')));
    const b = pt(Number(e.getAttribute('x2')), Number(e.getAttribute('y2')));
    const halo = svg.querySelector('.message-halo.on[data-i="' + i + '"][data-j="' + j + '"]');
    const down = Math.abs(b.y - a.y) > Math.abs(b.x - a.x);
    const receiver = down ? cell(i + 1, j) : cell(i, j + 1);
    return { i, j, from: Number(e.dataset.from), to: Number(e.dataset.to), start: [a.x, a.y], end: [b.x, b.y],
      length: Math.hypot(b.x - a.x, b.y - a.y), width: parseFloat(getComputedStyle(e).strokeWidth) * scale,
      edge: parseFloat(getComputedStyle(halo).strokeWidth) * scale, stroke: getComputedStyle(e).stroke,
      sender: box(cell(i, j)), senderFill: getComputedStyle(cell(i, j)).fill,
      receiver: box(receiver), receiverFill: getComputedStyle(receiver).fill,
      receiverOwner: Number(receiver.dataset.owner), visible: getComputedStyle(e).visibility };
  });
})()"#;

/// The boxes of visible diagonal numbers and of the grid's other margin texts, and the current
/// step's first diagonal.
const LABELS: &str = r#"(() => {
  const svg = document.querySelector('#figure svg');
  const shown = (e) => getComputedStyle(e).visibility !== 'hidden';
  const box = (e) => { const r = e.getBoundingClientRect(); return { d: Number(e.dataset.d), text: e.textContent, x: r.left, y: r.top, r: r.right, b: r.bottom }; };
  return {
    labels: Array.from(svg.querySelectorAll('.diagonal-label')).filter(shown).map(box),
    others: Array.from(svg.querySelectorAll('.col-index, .row-index, .col-byte, .row-byte, .axis-title')).filter(shown).map(box),
    outlined: Array.from(svg.querySelectorAll('.diagonal.on')).map((e) => Number(e.dataset.d)),
  };
})()"#;

/// Marks of the walk drawn over a visible value (after it): none may be.
const OVER_VALUES: &str = r#"(() => {
  const svg = document.querySelector('#figure svg');
  const shown = (e) => { const st = getComputedStyle(e); const r = e.getBoundingClientRect(); return st.visibility !== 'hidden' && st.display !== 'none' && (r.width > 0 || r.height > 0) ? r : null; };
  const values = Array.from(svg.querySelectorAll('.cell-text')).map((e) => [e, shown(e)]).filter((v) => v[1]);
  const marks = Array.from(svg.querySelectorAll('.walk-step, .hop, .hop-halo, .match, .hop-leader, .message, .message-halo')).map((e) => [e, shown(e)]).filter((v) => v[1]);
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = [];
  marks.forEach(([e, r]) => values.forEach(([v, q]) => {
    if (meet(r, q) && (e.compareDocumentPosition(v) & Node.DOCUMENT_POSITION_FOLLOWING) === 0) {
      out.push(e.getAttribute('class') + ' over the value of (' + v.dataset.i + ', ' + v.dataset.j + ')');
    }
  }));
  return { values: values.length, marks: marks.length, over: out };
})()"#;

/// The two lines of an input file, the shorter first (the rows).
fn sequences(path: &Path) -> (Vec<u8>, Vec<u8>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let (a, b) = (lines.next().unwrap(), lines.next().unwrap());
    let (x, y) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    (x.as_bytes().to_vec(), y.as_bytes().to_vec())
}

/// `M[i][j]` by the plain recurrence.
fn lcs_table(x: &[u8], y: &[u8]) -> Vec<Vec<u32>> {
    let mut t = vec![vec![0u32; y.len() + 1]; x.len() + 1];
    for i in 0..x.len() {
        for j in 0..y.len() {
            t[i + 1][j + 1] = if x[i] == y[j] {
                t[i][j] + 1
            } else {
                t[i][j + 1].max(t[i + 1][j])
            };
        }
    }
    t.into_iter()
        .skip(1)
        .map(|row| row.into_iter().skip(1).collect())
        .collect()
}

/// An `rgb(r, g, b)` colour's WCAG relative luminance.
fn luminance(css: &str) -> f64 {
    let inner = css
        .trim_start_matches("rgb(")
        .trim_start_matches("rgba(")
        .trim_end_matches(')');
    let c: Vec<f64> = inner
        .split(',')
        .take(3)
        .map(|v| v.trim().parse::<f64>().unwrap() / 255.0)
        .collect();
    let lin = |c: f64| {
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

fn contrast(a: &str, b: &str) -> f64 {
    let (a, b) = (luminance(a), luminance(b));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

fn inside(p: &Value, b: &Value) -> bool {
    let (x, y) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
    let f = |k: usize| b[k].as_f64().unwrap();
    (f(0) - 0.5..=f(2) + 0.5).contains(&x) && (f(1) - 0.5..=f(3) + 0.5).contains(&y)
}

/// The page logged nothing and found no problem in itself.
pub(crate) fn quiet(tab: &mut Tab, what: &str) {
    assert_eq!(tab.eval("lcsPage.problems()"), json!([]), "{what}");
    let activity = tab.activity();
    assert!(activity.errors.is_empty(), "{what}: {:#?}", activity.errors);
}

/// Texts under 12 pixels, or whose box is under 12 pixels high, as `what "text" px`.
pub(crate) fn small_texts(tab: &mut Tab) -> Vec<String> {
    let texts = tab.eval(TEXT_SIZES);
    let texts = texts.as_array().unwrap();
    assert!(!texts.is_empty());
    texts
        .iter()
        .filter(|t| t["px"].as_f64().unwrap() < 12.0 || t["box"].as_f64().unwrap() < 12.0)
        .map(|t| format!("{} {:?} {:.1} px", t["what"], t["text"], t["px"]))
        .collect()
}

/// The 12 x 20 schedule page and two runs on 3 ranks, 12 x 20 and 30 x 40, each with its page,
/// JSON and trace.
struct Pages {
    dir: Dir,
    schedule: PathBuf,
    run12: PathBuf,
    run30: PathBuf,
}

fn pages() -> Pages {
    let dir = Dir::new();
    let schedule = dir.path("s12x20.html");
    util::plain(&args(&[
        &"schedule",
        &"--rows",
        &"12",
        &"--cols",
        &"20",
        &"--ranks",
        &"3",
        &"--html",
        &schedule,
    ]))
    .ok();
    let mut runs = Vec::new();
    for (m, n, seed) in [(12, 20, 3), (30, 40, 4)] {
        let input = dir.generated_pair(&format!("r{m}.txt"), m, n, seed);
        let (html, json, csv) = (
            dir.path(&format!("r{m}.html")),
            dir.path(&format!("r{m}.json")),
            dir.path(&format!("r{m}.csv")),
        );
        let extra = args(&[&"--html", &html, &"--trace", &csv]);
        let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
        util::solve(3, &input, &json, &extra, &[]).ok();
        runs.push(html);
    }
    let run30 = runs.pop().unwrap();
    let run12 = runs.pop().unwrap();
    Pages {
        dir,
        schedule,
        run12,
        run30,
    }
}

/// Every boundary message of the 12 x 20 schedule and the 30 x 40 run, step by step: an arrow
/// from inside the sending cell into the receiving cell, at least a cell long, its shaft at
/// least 3 pixels thick on a white edge 2 more, its colour at 3:1 at least against both cells.
#[test]
fn message_arrows_are_a_cell_long_thick_and_dark_on_every_cell() {
    let pages = pages();
    let mut browser = Browser::start();
    for page in [&pages.schedule, &pages.run30] {
        for size in SIZES {
            for mode in ["", "#projector"] {
                let what = format!("{} at {size:?}{mode}", page.display());
                let mut tab = browser.open_at(page, mode, size);
                let fill = tab.eval("lcsPage.info().fill").as_u64().unwrap();
                let mut seen = 0;
                for step in 0..fill {
                    tab.eval(&format!("lcsPage.go({step})"));
                    let arrows = tab.eval(ARROWS);
                    for a in arrows.as_array().unwrap() {
                        seen += 1;
                        let what = format!("{what}, step {step}: {a}");
                        let cell = (a["sender"][2].as_f64().unwrap()
                            - a["sender"][0].as_f64().unwrap())
                        .max(a["sender"][3].as_f64().unwrap() - a["sender"][1].as_f64().unwrap());
                        assert_eq!(a["visible"], "visible", "{what}");
                        assert!(a["length"].as_f64().unwrap() >= cell - 1.0, "{what}");
                        assert!(a["width"].as_f64().unwrap() >= 3.0, "{what}");
                        assert!(
                            a["edge"].as_f64().unwrap() >= a["width"].as_f64().unwrap() + 2.0,
                            "{what}"
                        );
                        assert!(
                            inside(&a["start"], &a["sender"]),
                            "starts in the sender: {what}"
                        );
                        assert!(
                            inside(&a["end"], &a["receiver"]),
                            "ends in the receiver: {what}"
                        );
                        assert_eq!(a["receiverOwner"], a["to"], "{what}");
                        let stroke = a["stroke"].as_str().unwrap();
                        for fill in [&a["senderFill"], &a["receiverFill"]] {
                            let c = contrast(stroke, fill.as_str().unwrap());
                            assert!(c >= 3.0, "contrast {c:.2} on {fill}: {what}");
                        }
                    }
                }
                assert!(seen > 20, "{what}: {seen} arrows");
                quiet(&mut tab, &what);
            }
        }
    }
}

/// Hovering a cell of a run frames it and its three inputs in a colour and a dash of their own,
/// not the current diagonal's purple; the frames are the inputs' cells.
#[test]
fn a_hovered_cells_inputs_are_styled_apart_from_the_diagonal() {
    let pages = pages();
    let mut browser = Browser::start();
    let mut tab = browser.open(&pages.run12, "#d=14");
    let (i, j) = (5, 9);
    let at = tab.eval(&format!(
        "(() => {{ const r = document.querySelector('rect.cell[data-i=\"{i}\"][data-j=\"{j}\"]')\
         .getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
    ));
    tab.hover(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    let shown = tab.eval(
        r#"(() => {
      const svg = document.querySelector('#figure svg');
      const st = (e) => getComputedStyle(e);
      const box = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]; };
      const cellBox = (i, j) => box(svg.querySelector('.cell[data-i="' + i + '"][data-j="' + j + '"]'));
      const inputs = Array.from(svg.querySelectorAll('.input-cell')).filter((e) => st(e).visibility !== 'hidden');
      const diagonal = svg.querySelector('.diagonal.on');
      const selected = svg.querySelector('.selected-cell');
      return {
        inputs: inputs.map((e) => ({ stroke: st(e).stroke, dash: st(e).strokeDasharray, box: box(e) })),
        selected: { stroke: st(selected).stroke, visible: st(selected).visibility, box: box(selected) },
        diagonal: { stroke: st(diagonal).stroke, dash: st(diagonal).strokeDasharray },
        expected: [cellBox(4, 8), cellBox(4, 9), cellBox(5, 8)], cell: cellBox(5, 9),
      };
    })()"#,
    );
    let inputs = shown["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 3, "{shown}");
    let near = |a: &Value, b: &Value| {
        (0..4).all(|k| (a[k].as_f64().unwrap() - b[k].as_f64().unwrap()).abs() <= 3.0)
    };
    for (input, cell) in inputs.iter().zip(shown["expected"].as_array().unwrap()) {
        assert!(near(&input["box"], cell), "{shown}");
        assert_ne!(input["stroke"], shown["diagonal"]["stroke"], "{shown}");
        assert_ne!(input["dash"], shown["diagonal"]["dash"], "{shown}");
    }
    assert_eq!(shown["selected"]["visible"], "visible");
    assert!(near(&shown["selected"]["box"], &shown["cell"]), "{shown}");
    assert_ne!(shown["selected"]["stroke"], shown["diagonal"]["stroke"]);
    let cell = tab.eval("lcsPage.state().cell");
    assert!(
        cell.as_str().unwrap().contains("cell (5, 9)"),
        "the panel: {cell}"
    );
    quiet(&mut tab, "hover");
}

/// At every fill step, odd or even, the diagonal of the step has its number shown, and no two
/// numbers shown (nor a number and an index or byte) overlap.
#[test]
fn the_current_diagonal_is_always_numbered() {
    let pages = pages();
    let mut browser = Browser::start();
    for page in [&pages.schedule, &pages.run12, &pages.run30] {
        for (size, mode) in [
            ((1024, 768), ""),
            ((1024, 768), "#projector"),
            ((1920, 1080), ""),
        ] {
            let what = format!("{} at {size:?}{mode}", page.display());
            let mut tab = browser.open_at(page, mode, size);
            let fill = tab.eval("lcsPage.info().fill").as_u64().unwrap();
            for step in 0..fill {
                tab.eval(&format!("lcsPage.go({step})"));
                let shown = tab.eval(LABELS);
                let labels = shown["labels"].as_array().unwrap();
                assert!(
                    labels.iter().any(|l| l["d"] == json!(step)),
                    "{what}: step {step} shows {:?}",
                    labels.iter().map(|l| &l["d"]).collect::<Vec<_>>()
                );
                let meet = |a: &Value, b: &Value| {
                    let f = |v: &Value, k: &str| v[k].as_f64().unwrap();
                    f(a, "x") < f(b, "r") - 0.5
                        && f(b, "x") < f(a, "r") - 0.5
                        && f(a, "y") < f(b, "b") - 0.5
                        && f(b, "y") < f(a, "b") - 0.5
                };
                for (k, a) in labels.iter().enumerate() {
                    for b in labels[..k]
                        .iter()
                        .chain(shown["others"].as_array().unwrap())
                    {
                        assert!(!meet(a, b), "{what}, step {step}: {a} meets {b}");
                    }
                }
            }
            quiet(&mut tab, &what);
        }
    }
}

/// The projector mode of the 12 x 20 schedule and the 30 x 40 run, at 1024 x 681, 1024 x 768
/// and 1920 x 1080: no visible text under 12 pixels at any of several steps, the run's cells show
/// their values, the side panel folded and the comparison in view; p leaves it, s opens and
/// folds the panel.
#[test]
fn projector_mode_shows_no_text_under_12_pixels_and_the_values() {
    let pages = pages();
    let mut browser = Browser::start();
    for size in SIZES {
        for page in [&pages.schedule, &pages.run30] {
            let what = format!("{} at {size:?}", page.display());
            let mut tab = browser.open_at(page, "#projector", size);
            let info = tab.eval("lcsPage.info()");
            let steps = info["steps"].as_u64().unwrap();
            let fill = info["fill"].as_u64().unwrap();
            for step in [0, fill / 2, fill - 1, fill, (fill + steps) / 2, steps - 1] {
                let state = tab.eval(&format!("lcsPage.go({step})"));
                assert_eq!(state["projector"], true, "{what}");
                assert_eq!(state["panelOpen"], false, "{what}: the panel folds");
                let small = small_texts(&mut tab);
                assert!(small.is_empty(), "{what}, step {step}: {small:#?}");
                let strip = state["strip"].as_str().unwrap();
                assert!(strip.starts_with("Messages: diagonal "), "{what}: {strip}");
                let seen = tab.eval(
                    "(() => { const r = document.getElementById('strip').getBoundingClientRect(); \
                     return r.height > 0 && r.bottom <= innerHeight; })()",
                );
                assert_eq!(seen, true, "{what}: the comparison in view");
                if page == &pages.run30 {
                    assert_eq!(state["valuesShown"], true, "{what}: values");
                    // Every computed cell shows its value.
                    let counts = tab.eval(
                        "[document.querySelectorAll('#figure .cell.done').length, \
                         Array.from(document.querySelectorAll('#figure .cell-text'))\
                         .filter((e) => getComputedStyle(e).visibility !== 'hidden').length]",
                    );
                    assert_eq!(counts[0], counts[1], "{what}, step {step}");
                }
            }
            // The panel opens and folds with s; p leaves the mode and opens it.
            tab.press("s");
            assert_eq!(tab.eval("lcsPage.state().panelOpen"), true, "{what}: s");
            let small = small_texts(&mut tab);
            assert!(small.is_empty(), "{what}, panel open: {small:#?}");
            tab.press("s");
            assert_eq!(tab.eval("lcsPage.state().panelOpen"), false, "{what}: s");
            tab.press("p");
            let state = tab.eval("lcsPage.state()");
            assert_eq!(
                (&state["projector"], &state["panelOpen"]),
                (&json!(false), &json!(true)),
                "{what}: p"
            );
            assert_eq!(tab.eval("lcsPage.overlapsAll()"), json!([]), "{what}");
            quiet(&mut tab, &what);
        }
    }
}

/// A 12 x 20 run on 3 ranks: the comparison says the bands engine would use one rank and why,
/// and is in view in the panel at both sizes; a 3-rank run wide enough for bands gets a batch
/// slider whose every position says what `schedule --engine bands --batch B` predicts.
#[test]
fn the_comparison_says_when_bands_would_leave_ranks_idle_and_how_the_batch_trades() {
    let pages = pages();
    let mut browser = Browser::start();
    for size in SIZES {
        let mut tab = browser.open_at(&pages.run12, "", size);
        let shown = tab.eval(
            "(() => { const c = document.getElementById('compare'); const r = c.querySelector('#compare-verdict')\
             .getBoundingClientRect(); return { text: c.textContent, strip: document.getElementById('strip').textContent, \
             bottom: r.bottom, height: innerHeight }; })()",
        );
        let text = shown["text"].as_str().unwrap();
        for wanted in [
            "bands would use 1 rank: 20 columns are 1 word of 64 columns",
            "only 1 of the 3 ranks gets one, p1..p2 none",
            "would send no message only because it would compute every cell on p0 and leave \
             p1..p2 idle",
            "1 of 3",
        ] {
            assert!(text.contains(wanted), "{size:?}: no {wanted:?} in {text}");
        }
        for wrong in [" 1 steps", "(1 steps)", " 1 waits", " 1 ranks", " 1 words"] {
            assert!(!text.contains(wrong), "{wrong:?} in {text}");
        }
        assert!(
            shown["bottom"].as_f64().unwrap() <= shown["height"].as_f64().unwrap(),
            "{size:?}: the verdict below the fold: {shown}"
        );
        assert!(
            shown["strip"]
                .as_str()
                .unwrap()
                .ends_with("bands would use 1 rank of 3"),
            "{shown}"
        );
        quiet(&mut tab, "12 x 20");
    }

    // 20 x 300 on 3 ranks: five words, three bands; the slider's batches.
    let input = pages.dir.generated_pair("wide.txt", 20, 300, 9);
    let (html, json) = (pages.dir.path("wide.html"), pages.dir.path("wide.json"));
    let extra = args(&[&"--html", &html, &"--engine", &"bands", &"--batch", &"4"]);
    let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
    util::solve(3, &input, &json, &extra, &[]).ok();
    let mut tab = browser.open(&html, "");
    let positions = tab
        .eval("Number(document.getElementById('batch-slider').max) + 1")
        .as_u64()
        .unwrap();
    let mut batches = Vec::new();
    for k in 0..positions {
        let readout = tab.eval(&format!(
            "(() => {{ const s = document.getElementById('batch-slider'); s.value = {k}; \
             s.dispatchEvent(new Event('input')); return document.getElementById('batch-readout').textContent; }})()"
        ));
        let readout = readout.as_str().unwrap();
        let number = |after: &str| -> u64 {
            let at = readout
                .find(after)
                .unwrap_or_else(|| panic!("{after} in {readout}"));
            readout[..at]
                .rsplit(|c: char| !c.is_ascii_digit())
                .find(|w| !w.is_empty())
                .unwrap()
                .parse()
                .unwrap()
        };
        let batch = number(" row");
        let messages = number(" message");
        let stages = number(" stage");
        let text = util::plain(&args(&[
            &"schedule",
            &"--engine",
            &"bands",
            &"--rows",
            &"20",
            &"--cols",
            &"300",
            &"--ranks",
            &"3",
            &"--batch",
            &batch.to_string(),
        ]))
        .ok()
        .stdout;
        assert!(
            text.contains(&format!("predicted boundary messages: {messages} (")),
            "batch {batch}: {readout}\n{text}"
        );
        assert_eq!(stages, 20u64.div_ceil(batch) + 2, "{readout}");
        if batch == 4 {
            assert!(readout.contains("this page"), "{readout}");
        }
        batches.push(batch);
    }
    assert_eq!(batches, [1, 2, 4, 8, 16, 32], "one batch holds the 20 rows");
    quiet(&mut tab, "20 x 300");
}

/// At each size, the modes follow the address while the page is open, and the address the
/// modes: the projector and the contrast turn on and off with `#projector` and `#contrast`, as
/// the step moves with `#d=`.
#[test]
fn the_modes_follow_the_address_and_the_address_the_modes() {
    let pages = pages();
    let mut browser = Browser::start();
    for size in SIZES {
        let mut tab = browser.open_at(&pages.run30, "#step=3", size);
        let modes = |tab: &mut Tab| {
            let got = tab.eval(
                "[document.body.classList.contains('projector'), \
                 document.body.classList.contains('hc'), lcsPage.state().step, location.hash]",
            );
            let got = got.as_array().unwrap().clone();
            (
                got[0] == true,
                got[1] == true,
                got[2].as_u64().unwrap(),
                got[3].to_string(),
            )
        };
        let (projector, contrast, step, _) = modes(&mut tab);
        assert_eq!((projector, contrast, step), (false, false, 2));
        let group = tab.eval("lcsPage.info().group").as_u64().unwrap();
        for (address, want) in [
            ("#projector&d=5", (true, false)),
            ("#projector&contrast&d=6", (true, true)),
            ("#d=7", (false, false)),
        ] {
            tab.eval(&format!("location.hash = '{address}'"));
            // The hashchange comes as a task of its own: a few looks at most.
            let mut got = modes(&mut tab);
            for _ in 0..50 {
                if (got.0, got.1) == want {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
                got = modes(&mut tab);
            }
            let (projector, contrast, step, hash) = got;
            assert_eq!((projector, contrast), want, "{address}: {hash}");
            let d: u64 = address.rsplit('=').next().unwrap().parse().unwrap();
            assert_eq!(step, d / group, "{address}: {hash}");
        }
        // A mode turned on by its key goes into the address.
        tab.eval("document.getElementById('contrast').click()");
        let (_, contrast, _, hash) = modes(&mut tab);
        assert!(contrast && hash.contains("contrast"), "{hash}");
        // Contrast changes every value alike, the LCS's matches to come too: no value tells the
        // answer before the walk.
        for d in [8, 20] {
            tab.eval(&format!("lcsPage.go({})", d / group));
            let styles = tab.eval(
                "Array.from(new Set(Array.from(document.querySelectorAll('#figure .cell-text.done'))\
                 .map((e) => { const s = getComputedStyle(e); return s.fontWeight + ' ' + s.fill; })))",
            );
            assert_eq!(styles.as_array().unwrap().len(), 1, "d = {d}: {styles}");
        }
        quiet(&mut tab, &format!("modes at {size:?}"));
    }
}

/// On the projector (the panel folded) the quiz is read above the grid, whole and in view,
/// and goes back into the panel when the panel opens.
#[test]
fn the_quiz_is_read_on_the_projector() {
    let pages = pages();
    let mut browser = Browser::start();
    for size in SIZES {
        let what = format!("{size:?}");
        let mut tab = browser.open_at(&pages.run30, "#projector&d=8", size);
        tab.press("q");
        let seen = tab.eval(
            "(() => { const q = document.getElementById('quiz'); \
             const r = document.getElementById('quiz-text').getBoundingClientRect(); \
             return [q.parentNode.tagName, !q.hidden, r.height > 0 && r.top >= 0 && \
             r.bottom <= innerHeight, document.getElementById('quiz-text').textContent]; })()",
        );
        assert_eq!(seen[0], "HEADER", "{what}: {seen}");
        assert_eq!(
            (seen[1].clone(), seen[2].clone()),
            (json!(true), json!(true)),
            "{what}"
        );
        assert!(
            seen[3].as_str().unwrap().contains("Which rank owns cell"),
            "{what}: {seen}"
        );
        let small = small_texts(&mut tab);
        assert!(small.is_empty(), "{what}: {small:#?}");
        // The grid still fits the window under the questions.
        let fits = tab.eval(
            "(() => { const r = document.querySelector('#figure svg').getBoundingClientRect(); \
             return r.bottom <= innerHeight + 1 && r.height > 200; })()",
        );
        assert_eq!(fits, true, "{what}");
        tab.press("s");
        let back = tab.eval("document.getElementById('quiz').parentNode.tagName");
        assert_eq!(back, "ASIDE", "{what}");
        tab.press("q");
        let hidden = tab.eval("document.getElementById('quiz').hidden");
        assert_eq!(hidden, true, "{what}");
        quiet(&mut tab, &what);
    }
}

/// The quiz asks two questions with an answer line each: a wrong owner after a right count
/// leaves the count's "Right." alone; the count question asks for the whole step.
#[test]
fn the_quiz_answers_each_question_on_its_own_line() {
    let pages = pages();
    let mut browser = Browser::start();
    let mut tab = browser.open(&pages.run12, "");
    let q = tab.eval("lcsPage.go(4); lcsPage.quiz(true)");
    let text = tab.eval("document.getElementById('quiz-text').textContent");
    assert!(
        text.as_str()
            .unwrap()
            .contains("How many boundary messages does diagonal 5 send, all its cells together?"),
        "{text}"
    );
    let right = tab.eval(&format!(
        "lcsPage.answer({{messages: {}}})",
        q["messages"].as_u64().unwrap()
    ));
    assert_eq!(right["right"], true, "{q}");
    let wrong = (q["owner"].as_u64().unwrap() + 1) % 3;
    let answer = tab.eval(&format!("lcsPage.answer({{owner: {wrong}}})"));
    assert_eq!(answer["right"], false);
    let state = tab.eval("lcsPage.state()");
    assert!(
        state["countVerdict"]
            .as_str()
            .unwrap()
            .starts_with("Right."),
        "{state}"
    );
    assert!(
        state["ownerVerdict"]
            .as_str()
            .unwrap()
            .starts_with("Not quite."),
        "{state}"
    );
    quiet(&mut tab, "quiz");
}

/// At every step of the 11 x 13 and 12 x 20 runs' walks, on the 1024 x 768 page and in
/// projector mode: no mark of the walk (its steps, hops, discs, leader) nor a message is drawn
/// over a value shown, and no text covers one.
#[test]
fn no_traceback_mark_covers_a_value() {
    let pages = pages();
    let small = pages.dir.path("small.html");
    let json = pages.dir.path("small.json");
    let extra = args(&[&"--html", &small]);
    let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
    util::solve(3, &util::repo_input("small.txt"), &json, &extra, &[]).ok();
    let mut browser = Browser::start();
    for page in [&small, &pages.run12] {
        for mode in ["", "#projector"] {
            let what = format!("{}{mode}", page.display());
            let mut tab = browser.open(page, mode);
            let info = tab.eval("lcsPage.info()");
            let (fill, steps) = (
                info["fill"].as_u64().unwrap(),
                info["steps"].as_u64().unwrap(),
            );
            let mut values = 0;
            for step in fill..steps {
                tab.eval(&format!("lcsPage.go({step})"));
                let found = tab.eval(OVER_VALUES);
                assert_eq!(found["over"], json!([]), "{what}, step {step}");
                values += found["values"].as_u64().unwrap();
            }
            assert!(values > 0, "{what}: values shown");
            assert_eq!(tab.eval("lcsPage.overlapsAll()"), json!([]), "{what}");
            quiet(&mut tab, &what);
        }
    }
}

/// A recorded bands run of 24 x 192 on 3 ranks: the fences stand in the gaps between bands,
/// over no cell, and the cells on either side of each (the ones whose carries came by message)
/// answer the mouse; the timeline's tick labels all differ.
#[test]
fn band_fences_leave_every_cell_to_the_mouse_and_ticks_differ() {
    let dir = Dir::new();
    let input = dir.generated_pair("b.txt", 24, 192, 7);
    let (html, json) = (dir.path("b.html"), dir.path("b.json"));
    let extra = args(&[&"--engine", &"bands", &"--batch", &"8", &"--html", &html]);
    let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
    util::solve(3, &input, &json, &extra, &[]).ok();
    let (x, y) = sequences(&input);
    let values = lcs_table(&x, &y);
    let mut browser = Browser::start();
    for size in SIZES {
        let mut tab = browser.open_at(&html, "#step=end", size);
        let fences = tab.eval(
            "(() => { const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }; \
             const cells = Array.from(document.querySelectorAll('#figure .cell')).map(box); \
             return Array.from(document.querySelectorAll('#figure .band-edge')).map((f) => { const b = box(f); \
             return cells.filter((c) => b[0] < c[2] && c[0] < b[2] && b[1] < c[3] && c[1] < b[3]).length; }); })()",
        );
        assert_eq!(fences, json!([0, 0, 0, 0]), "{size:?}: cells under fences");
        for (i, j) in [(3, 63), (3, 64), (9, 127), (9, 128), (20, 128)] {
            let at = tab.eval(&format!(
                "(() => {{ const r = document.querySelector('rect.cell[data-i=\"{i}\"][data-j=\"{j}\"]')\
                 .getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
            ));
            let (px, py) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
            let top = tab.eval(&format!(
                "document.elementFromPoint({px}, {py}).getAttribute('class')"
            ));
            assert_eq!(top, "cell done", "{size:?}: ({i}, {j}) is under {top}");
            tab.hover(px, py);
            let tip = tab.eval("lcsPage.state().tooltip");
            let tip = tip
                .as_str()
                .unwrap_or_else(|| panic!("no tooltip at ({i}, {j})"));
            assert!(
                tip.contains(&format!("cell (i, j) = ({i}, {j})"))
                    && tip.contains(&format!("M[{i}][{j}] = {}", values[i][j])),
                "{size:?}: {tip}"
            );
        }
        let ticks = tab.eval(
            "Array.from(document.querySelectorAll('#figure .timeline-tick')).map((e) => e.textContent)",
        );
        let ticks: Vec<&str> = ticks
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        let distinct: std::collections::BTreeSet<&&str> = ticks.iter().collect();
        assert!(
            ticks.len() >= 2 && distinct.len() == ticks.len(),
            "{ticks:?}"
        );
        assert!(ticks[0].starts_with("0 "), "{ticks:?}");
        quiet(&mut tab, "bands 24 x 192");
    }
}

/// The bands engine at a teaching size: `schedule` and a recorded `solve` of 300 x 700 on 4
/// ranks in batches of 32, `--html` and `--svg`, each within 3 MB, drawn by blocks of bands and
/// batches. The run's page plays its 13 stages with the trace's messages, ends with the
/// report's counts and LCS, and a hovered point shows its cell's value (a plain DP's).
#[test]
fn bands_pages_at_teaching_sizes_are_drawn_by_bands_and_batches() {
    let dir = Dir::new();
    let input = dir.generated_pair("r300.txt", 300, 700, 5);
    let [sh, ss, rh, rs, json, csv] =
        ["s.html", "s.svg", "r.html", "r.svg", "r.json", "r.csv"].map(|f| dir.path(f));
    util::plain(&args(&[
        &"schedule",
        &"--engine",
        &"bands",
        &"--rows",
        &"300",
        &"--cols",
        &"700",
        &"--ranks",
        &"4",
        &"--batch",
        &"32",
        &"--html",
        &sh,
        &"--svg",
        &ss,
    ]))
    .ok();
    let extra = args(&[
        &"--engine",
        &"bands",
        &"--batch",
        &"32",
        &"--html",
        &rh,
        &"--svg",
        &rs,
        &"--trace",
        &csv,
    ]);
    let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|a| a.as_os_str()).collect();
    util::solve(4, &input, &json, &extra, &[]).ok();
    for file in [&sh, &ss, &rh, &rs] {
        let size = std::fs::metadata(file).unwrap().len();
        assert!(size <= 3_000_000, "{}: {size} bytes", file.display());
    }
    let report = util::json(&json);
    // The pictures: a block per band and batch, an arrow per message.
    for svg in [&ss, &rs] {
        let text = std::fs::read_to_string(svg).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let count = |c: &str| {
            doc.descendants()
                .filter(|e| e.attribute("class") == Some(c))
                .count()
        };
        assert_eq!(
            (count("block"), count("message"), count("cell")),
            (40, 30, 0)
        );
    }
    // The trace's messages per stage: batch b's carries from band k at stage k + b.
    let table = util::csv(&csv);
    let (kind, from, i) = (
        util::column(&table, "kind"),
        util::column(&table, "from"),
        util::column(&table, "i"),
    );
    let mut per_stage = [0u64; 13];
    for k in 0..kind.len() {
        if kind[k] == "boundary" {
            let stage = from[k].parse::<usize>().unwrap() + i[k].parse::<usize>().unwrap() / 32;
            per_stage[stage] += 1;
        }
    }
    assert_eq!(per_stage.iter().sum::<u64>(), 30);
    let (x, y) = sequences(&input);
    let values = lcs_table(&x, &y);
    let mut browser = Browser::start();
    for (page, recorded) in [(&sh, false), (&rh, true)] {
        for size in SIZES {
            let what = format!("{} at {size:?}", page.display());
            let mut tab = browser.open_at(page, "", size);
            let info = tab.eval("lcsPage.info()");
            assert_eq!(info["fill"], 13, "{what}");
            // The slider at 128 rows a batch (its eighth place, from 1 row): two batches of two
            // words, then 44 rows in one; each size with its count, never an average.
            let readout = tab.eval(
                "(() => { const s = document.getElementById('batch-slider'); s.value = 7; \
                 s.dispatchEvent(new Event('input')); \
                 return document.getElementById('batch-readout').textContent; })()",
            );
            let readout = readout.as_str().unwrap();
            assert!(
                readout.contains("batches of 128 rows: 9 messages (6 of 16 bytes, 3 of 8 bytes)"),
                "{what}: {readout}"
            );
            for (stage, messages) in per_stage.iter().enumerate() {
                let state = tab.eval(&format!("lcsPage.go({stage})"));
                assert_eq!(
                    state["arrows"].as_array().unwrap().len() as u64,
                    *messages,
                    "{what}: stage {stage}"
                );
            }
            if recorded {
                let steps = info["steps"].as_u64().unwrap();
                let state = tab.eval(&format!("lcsPage.go({})", steps - 1));
                assert_eq!(state["lcs"], report["lcs"], "{what}");
                for (k, c) in state["counters"].as_array().unwrap().iter().enumerate() {
                    let r = &report["per_rank"][k];
                    assert_eq!(c["cells"], r["cells"], "{what}: p{k}");
                }
                // A point of the picture: the cell under it, with its value.
                for (i, j) in [(150, 400), (1, 1), (298, 698), (40, 300), (200, 600)] {
                    let at = tab.eval(&format!(
                        "(() => {{ const svg = document.querySelector('#figure svg'); const d = svg.dataset; \
                         const band = [0, 192, 384, 576].filter((c) => {j} >= c).length - 1; \
                         const x = Number(d.gridX) + ({j} + 0.5) * Number(d.cellW) + band * Number(d.gap); \
                         const y = Number(d.gridY) + ({i} + 0.5) * Number(d.cellH); \
                         const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM()); return [p.x, p.y]; }})()"
                    ));
                    tab.hover(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
                    // A cell is about a pixel here: the mouse lands on it or a neighbour,
                    // whose value the tooltip must give.
                    let tip = tab.eval("lcsPage.state().tooltip");
                    let tip = tip.as_str().unwrap_or_else(|| panic!("{what}: no tooltip"));
                    let at = tip
                        .split("cell (i, j) = (")
                        .nth(1)
                        .and_then(|t| t.split(')').next())
                        .unwrap_or_else(|| panic!("{tip}"));
                    let (a, b) = at.split_once(", ").unwrap();
                    let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
                    assert!(a.abs_diff(i) <= 1 && b.abs_diff(j) <= 1, "{what}: {tip}");
                    assert!(
                        tip.contains(&format!("M[{a}][{b}] = {}", values[a][b])),
                        "{what}: {tip}"
                    );
                }
                let shown = tab.eval("lcsPage.select(150, 400)");
                assert!(
                    shown.as_str().unwrap().contains("M[150][400] = "),
                    "{shown}"
                );
            }
            let small = tab.eval("lcsPage.projector(true)");
            assert_eq!(small["projector"], true);
            let small = small_texts(&mut tab);
            assert!(small.is_empty(), "{what}: {small:#?}");
            quiet(&mut tab, &what);
        }
    }
}

/// Pages refused say what draws them: a larger batch for too many blocks, the bands engine for a
/// diagonal page over 64 a side, `schedule` for a run too large to hold its values.
#[test]
fn refusals_name_the_option_that_works() {
    let dir = Dir::new();
    let page = dir.path("big.html");
    let schedule = |batch: &str| {
        util::plain(&args(&[
            &"schedule",
            &"--engine",
            &"bands",
            &"--rows",
            &"100000",
            &"--cols",
            &"100000",
            &"--ranks",
            &"4",
            &"--batch",
            &batch,
            &"--html",
            &page,
        ]))
    };
    let run = schedule("1");
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains("--batch 391 or more draws them"),
        "{}",
        run.stderr
    );
    assert!(!page.exists());
    schedule("391").ok();
    assert!(std::fs::metadata(&page).unwrap().len() <= 3_000_000);
    let run = util::plain(&args(&[
        &"schedule",
        &"--rows",
        &"300",
        &"--cols",
        &"700",
        &"--ranks",
        &"4",
        &"--html",
        &page,
    ]));
    assert_eq!(run.status.code(), Some(2));
    assert!(
        run.stderr.contains("`schedule --engine bands` draws it"),
        "{}",
        run.stderr
    );
    // A run too large to hold its values: the schedule draws its pipeline.
    let input = dir.generated_pair("big.txt", 1001, 1001, 2);
    let html = dir.path("run.html");
    let run = util::mpirun(
        2,
        &args(&[&"solve", &input, &"--engine", &"bands", &"--html", &html]),
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        run.stderr.contains(
            "`mpi-lcs schedule --engine bands --rows 1001 --cols 1001 --ranks 2 --batch 256 \
             --html` draws its pipeline"
        ),
        "{}",
        run.stderr
    );
    assert!(!html.exists());
}
