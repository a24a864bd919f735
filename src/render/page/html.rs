//! The classroom page: one self-contained HTML file that plays the fill step by step (the
//! diagonals, the bands engine's pipeline stage by stage, or a wave run score step by score
//! step) and then the traceback cell by cell (`schedule --html`, `solve --html`).
//!
//! The page holds everything it needs: the grid drawn by [`svg::render_grid`] (or
//! [`bands_picture::render_grid`], [`wave_picture::render_grid`]), the style sheet and the script
//! (`page.css` and the `*.js` parts beside this file, compiled in) and the run's data as one JSON
//! block (schema 3, `data`). It loads nothing: a Content-Security-Policy forbids every fetch, so
//! it works offline and shows the same thing in any current browser. The script derives owners
//! and segments from the schedule's formulas, checks them against the grid's marks, finds the cell
//! under the mouse from the grid's geometry, and exposes its state to tests as `window.lcsPage`;
//! its projector mode (`#projector`, the key p) folds the side panel away and lets no text of the
//! grid show under 12 pixels. Diagonal and wave pages are limited to [`MAX_PAGE_CELLS_SIDE`]
//! cells a side, bands pages to what [`bands_picture::refusal`] allows, and units beyond
//! [`MAX_STEPS_PER_PHASE`] per phase are grouped. The data's fields:
//! `docs/classroom.md#the-pictures-marks-and-the-pages-data`.

use std::fmt::Write as _;
use std::path::Path;

use super::data::Data;
use super::formulas;
use super::legend::legend;
use super::projector_legend;
use super::wave_legend;
use crate::error::Error;
use crate::render::drawn::style;
use crate::render::drawn::xml::escape;
use crate::render::drawn::{bands_picture, svg, wave_picture};
use crate::render::shown::lesson;
use crate::render::shown::picture::Picture;
use crate::render::shown::words;
use crate::report::Report;

pub use super::data::MAX_STEPS_PER_PHASE;

/// Largest number of rows or columns a diagonal engine's page is written for.
pub const MAX_PAGE_CELLS_SIDE: usize = svg::MAX_PICTURE_CELLS_SIDE;

const CSS: &str = include_str!("page.css");
/// The page's script, in parts that share one scope (each part reads what the parts before it
/// defined): the data, the engines' formulas and the grid's geometry, the walk's rule, the
/// side panel's texts, the cell inspector, the wave engine's texts, the prediction mode, the
/// view (projector mode and the text's sizes), the projector's zoom, and the player's controls.
const SCRIPT: [&str; 9] = [
    include_str!("model.js"),
    include_str!("walk.js"),
    include_str!("panel.js"),
    include_str!("inspect.js"),
    include_str!("wave.js"),
    include_str!("quiz.js"),
    include_str!("view.js"),
    include_str!("zoom.js"),
    include_str!("player.js"),
];

/// The refusal for a matrix too large for a diagonal engine's page, or `None`.
pub fn too_large(rows: usize, cols: usize) -> Option<String> {
    let side = MAX_PAGE_CELLS_SIDE;
    (rows > side || cols > side).then(|| {
        format!("--html pages are limited to {side} x {side} cells; this matrix is {rows} x {cols}")
    })
}

/// Writes the page of `picture` (a schedule, or a run with its `report`) to `path`
/// atomically.
/// `bands_batch` is the batch the comparison predicts the bands engine with when it did not run.
pub fn write_html(
    path: &Path,
    picture: &Picture,
    report: Option<&Report>,
    bands_batch: usize,
) -> Result<(), Error> {
    let page = render(picture, report, bands_batch)?;
    crate::export::write_atomic(path, page.as_bytes())
}

/// The page as one HTML document.
pub fn render(
    picture: &Picture,
    report: Option<&Report>,
    bands_batch: usize,
) -> Result<String, Error> {
    let s = picture.schedule;
    let refusal = match (picture.bands, picture.wave) {
        (Some(pipe), _) => bands_picture::refusal(pipe, picture.values.is_some()),
        (_, Some(w)) => wave_picture::too_large(w.rows, w.cols),
        _ => too_large(s.rows(), s.cols()),
    };
    if let Some(problem) = refusal {
        return Err(Error::Usage(problem));
    }
    let grid = match (picture.bands, picture.wave) {
        (Some(_), _) => bands_picture::render_grid(picture)?,
        (_, Some(_)) => wave_picture::render_grid(picture)?,
        _ => svg::render_grid(picture)?,
    };
    let data = Data::of(picture, report, bands_batch)?;
    let json = data.json()?;
    let title = escape(&picture.title);
    let variables = style::css_variables();
    let legend = match picture.wave {
        Some(w) => wave_legend::legend(picture, w),
        None => legend(picture, report.is_some()),
    };
    let found = words::found_label(picture.problem);
    let swap = if picture.swapped {
        format!(
            "<p class=\"swap\">{}</p>",
            escape(if picture.x.is_some() {
                "Swapped: the file's first sequence is the longer one, so it runs along the top \
                 (y, columns) and the second down the left (x, rows)."
            } else {
                "Swapped: --rows named the longer side; rows are always the shorter side."
            })
        )
    } else {
        String::new()
    };
    let intro = match picture.wave {
        Some(_) => lesson::wave_intro(picture.problem),
        None => lesson::intro(picture.problem, picture.bands.is_some()),
    };
    let intro: String = intro
        .iter()
        .map(|p| format!("<p>{}</p>", formulas::html(p)))
        .collect();
    let (verdict, note, heading) = match picture.wave {
        Some(_) => (
            lesson::wave_verdict(&data.compare),
            lesson::wave_note(&data.compare),
            "Diagonal or wave: steps and messages",
        ),
        None => (
            lesson::compare_verdict(&data.compare),
            lesson::compare_note(&data.compare),
            "Diagonal or bands: the messages",
        ),
    };
    let compare = compare_table(&data.compare, &verdict, &note);
    let strip = escape(&lesson::compare_line(&data.compare));
    let projector_legend = projector_legend::line(picture);
    let script = format!(
        "'use strict';\n(function () {{\n{}}})();\n",
        SCRIPT.concat()
    );
    let traceback = if report.is_some() {
        "<button id=\"traceback\" type=\"button\" title=\"go to the traceback (t)\">&#x2934; walk</button>\n"
    } else {
        ""
    };
    Ok(format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{title}</title>
<style>
{variables}{CSS}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<div id="controls">
<button id="first" type="button" title="first step (Home)">|&#x25C0;</button>
<button id="back" type="button" title="step back (&#x2190;)">&#x25C0;</button>
<button id="play" type="button" title="play or pause (space)">&#x25B6; play</button>
<button id="forward" type="button" title="step forward (&#x2192;)">&#x25B6;</button>
<button id="last" type="button" title="last step (End)">&#x25B6;|</button>
{traceback}<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<span id="step-label"></span>
<label title="speed"><select id="speed" aria-label="speed"><option value="1500">slow</option><option value="700" selected>normal</option><option value="250">fast</option><option value="60">very fast</option></select></label>
<button id="intro-button" type="button" title="what is this? (?)" aria-expanded="false">?</button>
<button id="quiz-button" type="button" title="predict before each step (q)" aria-pressed="false">predict</button>
<button id="contrast" type="button" title="high contrast (c)" aria-pressed="false">contrast</button>
<button id="projector" type="button" title="projector: the grid large, every text at least 12 pixels (p)" aria-pressed="false">projector</button>
<button id="panel-button" type="button" title="show or fold the side panel (s)" aria-expanded="true">panel</button>
</div>
<p id="strip">{strip}</p>
<p id="projector-legend">{projector_legend}</p>
{swap}</header>
<main>
<div id="figure">
{grid}<canvas id="overview" width="1" height="1" role="img" hidden></canvas></div>
<aside>
<section id="intro" hidden><h2>What this page shows</h2>{intro}<p class="note">Keys: &#x2190; &#x2192; step, space plays, Home and End jump, t the traceback, q predict, c contrast, p projector (Shift and the arrows move its window), s the side panel, ? this text.</p></section>
<section id="quiz" hidden><h2>Predict</h2><div id="quiz-text"></div></section>
<section id="now"><h2 id="phase"></h2><p id="what"></p><p id="found" hidden>{found} <span id="found-so-far"></span></p></section>
<section id="compare"><h2>{heading}</h2>{compare}</section>
<section id="cell"><h2>The cell</h2><div id="cell-text"></div></section>
<section id="counters"><h2>Per rank, so far</h2><table id="counter-table"><thead><tr><th>rank</th><th>cells</th><th>sent</th><th>received</th></tr></thead><tbody></tbody></table><p class="note" id="counter-note"></p></section>
<section id="formulas"><h2>Formulas</h2><div id="formula-text"></div></section>
<section id="final" hidden><h2>The run, per rank</h2><div id="final-text"></div></section>
<section id="legend"><h2>Legend</h2>
{legend}</section>
</aside>
</main>
<div id="tooltip" hidden></div>
<script type="application/json" id="run-data">{json}</script>
<script>
{script}</script>
</body>
</html>
"#
    ))
}

/// The two engines side by side (see [`lesson`]): a line each (messages, waits, the ranks it
/// would use, the fill's time where measured), under it where the numbers come from and its
/// bytes, and why fewer ranks where it would leave some idle; then the verdict, the lesson
/// folded under it, and the place the script fills with a slider over the bands engine's batch.
fn compare_table(lines: &[lesson::EngineLine], verdict: &str, note: &str) -> String {
    let mut out = String::from(
        "<table class=\"compare\"><thead><tr><th>engine</th><th>messages</th><th>waits</th>\
         <th>ranks</th><th>fill</th></tr></thead><tbody>",
    );
    for l in lines {
        let seconds = l
            .seconds
            .map_or("—".to_owned(), |s| format!("{:.2} ms", s * 1e3));
        let _ = write!(
            out,
            "<tr data-engine=\"{0}\"><th>{0}</th><td>{1}</td><td>{2}</td><td class=\"{3}\">{4} of {5}</td>\
             <td>{6}</td></tr><tr class=\"setting\" data-engine=\"{0}\"><td colspan=\"5\">{7}: {8}, {9}</td></tr>",
            l.engine,
            l.messages,
            l.steps,
            if l.ranks_used < l.ranks { "idle" } else { "" },
            l.ranks_used,
            l.ranks,
            seconds,
            l.source,
            escape(&l.setting),
            escape(&lesson::plural(l.bytes, "byte", "bytes")),
        );
        if let Some(why) = &l.idle {
            let _ = write!(
                out,
                "<tr class=\"why\" data-engine=\"{0}\"><td colspan=\"5\">{0} would use {1}: {2}</td></tr>",
                l.engine,
                escape(&lesson::plural(l.ranks_used as u64, "rank", "ranks")),
                escape(why)
            );
        }
    }
    out.push_str("</tbody></table>");
    let _ = write!(
        out,
        "<p id=\"compare-verdict\">{}</p><details><summary>why messages and waits cost</summary>\
         <p class=\"note\">{}</p></details><div id=\"batch-options\"></div>",
        escape(verdict),
        escape(note)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::diagonal::schedule::Schedule;
    use crate::render::shown::picture;

    fn data_block(page: &str) -> serde_json::Value {
        let start = page.find("id=\"run-data\">").unwrap() + "id=\"run-data\">".len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end]).unwrap()
    }

    #[test]
    fn a_schedule_page_is_self_contained() {
        let s = Schedule::new(5, 8, 3);
        let messages = picture::predicted_messages(&s);
        let picture = Picture::of_schedule(&s, &messages, "5 x 8 <3>".into(), vec![]);
        let page = render(&picture, None, 256).unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<title>5 x 8 &lt;3&gt;</title>"));
        // Nothing to fetch: no external source, link or URL but the SVG namespace.
        for needle in [
            "src=",
            "href=\"http",
            "url(http",
            "@import",
            "//cdn",
            "https:",
        ] {
            assert!(!page.contains(needle), "{needle}");
        }
        assert_eq!(
            page.matches("http://").count(),
            page.matches("http://www.w3.org/2000/svg").count(),
            "only the SVG namespace"
        );
        let data = data_block(&page);
        assert_eq!(data["command"], "schedule");
        assert_eq!(data["events"].as_array().unwrap().len(), messages.len());
        assert_eq!(data["events"][0]["kind"], "boundary");
        assert_eq!(data["steps"]["group"], 1);
        assert_eq!(data["palette"].as_array().unwrap().len(), 12);
    }

    #[test]
    fn script_end_tags_in_data_cannot_close_the_block() {
        let s = Schedule::new(1, 9, 1);
        let picture = Picture::of_schedule(&s, &[], "</script><b>".into(), vec![]);
        let page = render(&picture, None, 256).unwrap();
        assert_eq!(data_block(&page)["title"], "</script><b>");
        assert_eq!(page.matches("</script>").count(), 2);
    }

    #[test]
    fn large_matrices_play_in_grouped_steps_and_larger_are_refused() {
        let s = Schedule::new(64, 64, 8);
        let messages = picture::predicted_messages(&s);
        let page = render(
            &Picture::of_schedule(&s, &messages, "t".into(), vec![]),
            None,
            256,
        )
        .unwrap();
        assert_eq!(data_block(&page)["steps"]["group"], 2);
        let s = Schedule::new(3, 65, 2);
        let err = render(
            &Picture::of_schedule(&s, &[], "t".into(), vec![]),
            None,
            256,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--html pages are limited to 64 x 64 cells; this matrix is 3 x 65"
        );
    }
}
