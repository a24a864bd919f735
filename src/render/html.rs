//! The classroom page: one self-contained HTML file that plays the fill step by step (the
//! diagonals, or the bands engine's pipeline stage by stage) and then the traceback cell by cell
//! (`schedule --html`, `solve --html`).
//!
//! The page holds everything it needs: the grid drawn by [`super::svg::render_grid`] (or the bands
//! picture's), the style sheet and the script (`page/page.css` and the `page/*.js` parts, compiled
//! in) and the run's data as one JSON block (`Data`, schema 2). It loads nothing: a
//! Content-Security-Policy forbids every fetch, so it works offline and shows the same thing in any
//! current browser. The script derives owners and segments from the schedule's formulas, checks
//! them against the grid's marks, and exposes its state to tests as `window.lcsPage`. Pages are
//! limited to [`MAX_PAGE_CELLS_SIDE`] cells a side, like the pictures they contain, and group units
//! beyond [`MAX_STEPS_PER_PHASE`] per phase. The data's fields:
//! `docs/classroom.md#the-pictures-marks-and-the-pages-data`.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::layout::MAX_CELL_TEXT_SIDE;
use super::picture::{self, Picture};
use super::style::{self, hex, rank_colour, rank_hatch, Hatch, RANK_COLOURS};
use super::svg;
use super::words;
use super::xml::{escape, SvgWriter};
use super::{bands_picture, lesson};
use crate::comm::trace::Event;
use crate::error::Error;
use crate::report::{RankReport, Report};
use lcs_core::problem::{Move, Problem};

/// Largest number of rows or columns a page is written for.
pub const MAX_PAGE_CELLS_SIDE: usize = svg::MAX_PICTURE_CELLS_SIDE;

/// Most steps the fill or the walk is played in; beyond, one step shows several diagonals (or
/// walk cells).
pub const MAX_STEPS_PER_PHASE: usize = 100;

const CSS: &str = include_str!("page/page.css");
/// The page's script, in parts that share one scope (each part reads what the parts before it
/// defined): the data and the engines' formulas, the walk's rule, the steps, the side panel's
/// texts, the cell inspector, the timeline and the prediction mode, and the player's controls.
const SCRIPT: [&str; 6] = [
    include_str!("page/model.js"),
    include_str!("page/walk.js"),
    include_str!("page/panel.js"),
    include_str!("page/inspect.js"),
    include_str!("page/quiz.js"),
    include_str!("page/player.js"),
];

/// The refusal for a matrix too large for a page, or `None`.
pub fn too_large(rows: usize, cols: usize) -> Option<String> {
    let side = MAX_PAGE_CELLS_SIDE;
    (rows > side || cols > side).then(|| {
        format!("--html pages are limited to {side} x {side} cells; this matrix is {rows} x {cols}")
    })
}

/// The data block of a page (see the module doc).
#[derive(Debug, Serialize)]
struct Data<'a> {
    schema: u32,
    command: &'static str,
    problem: Problem,
    title: &'a str,
    rows: usize,
    cols: usize,
    ranks: usize,
    swapped: bool,
    x: Option<&'a [u8]>,
    y: Option<&'a [u8]>,
    values: Option<&'a [Vec<u32>]>,
    lcs: Option<String>,
    distance: Option<usize>,
    cigar: Option<&'a str>,
    view: Option<&'a [String; 3]>,
    cigar_ops: [char; 4],
    events: &'a [Event],
    walk: &'a [(usize, usize)],
    hops: Vec<HopData>,
    per_rank: Option<&'a [RankReport]>,
    control: Option<String>,
    steps: Steps,
    palette: Vec<String>,
    rank_colours: usize,
    max_cell_text_side: usize,
    /// `diagonal` or `bands`.
    engine: &'static str,
    bands: Option<BandsData>,
    compare: Vec<lesson::EngineLine>,
}

/// A bands page's pipeline: its word, batches and each active rank's columns.
#[derive(Debug, Serialize)]
struct BandsData {
    word: usize,
    teaching: bool,
    batch: usize,
    batches: usize,
    stages: usize,
    cols: Vec<[usize; 2]>,
    /// The timeline is the run's own (else a model).
    recorded: bool,
}

#[derive(Debug, Serialize)]
struct HopData {
    t: usize,
    from: usize,
    to: usize,
    i: usize,
    j: usize,
    bytes: u64,
    moves: usize,
    prefix: Option<String>,
}

#[derive(Debug, Serialize)]
struct Steps {
    unit: &'static str,
    group: usize,
    walk_group: usize,
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
    let refusal = match picture.bands {
        Some(_) => bands_picture::too_large(s.rows(), s.cols()),
        None => too_large(s.rows(), s.cols()),
    };
    if let Some(problem) = refusal {
        return Err(Error::Usage(problem));
    }
    let grid = match picture.bands {
        Some(_) => bands_picture::render_grid(picture)?,
        None => svg::render_grid(picture)?,
    };
    let hops = picture::hops(picture)?
        .into_iter()
        .map(|h| HopData {
            t: h.t,
            from: h.from,
            to: h.to,
            i: h.next.0,
            j: h.next.1,
            bytes: h.bytes,
            moves: h.moves,
            prefix: h.prefix,
        })
        .collect();
    let per_phase = |units: usize| units.div_ceil(MAX_STEPS_PER_PHASE).max(1);
    let data = Data {
        schema: 2,
        command: if report.is_some() {
            "solve"
        } else {
            "schedule"
        },
        problem: picture.problem,
        title: &picture.title,
        rows: s.rows(),
        cols: s.cols(),
        ranks: s.ranks(),
        swapped: picture.swapped,
        x: picture.x,
        y: picture.y,
        values: picture.values,
        lcs: report
            .and_then(|r| r.answer.lcs.as_ref())
            .map(|l| l.display()),
        distance: picture.answer.and_then(|a| a.distance),
        cigar: picture.answer.map(|a| a.cigar.as_str()),
        view: picture.answer.and_then(|a| a.view.as_ref()),
        cigar_ops: [Move::Match, Move::Sub, Move::Up, Move::Left]
            .map(|step| words::letter(step, picture.swapped)),
        events: picture.messages,
        walk: picture.path,
        hops,
        per_rank: report.map(|r| r.per_rank.as_slice()),
        control: report.map(Report::control_explanation),
        steps: Steps {
            unit: if picture.bands.is_some() {
                "stage"
            } else {
                "diagonal"
            },
            group: per_phase(picture.bands.map_or(s.diagonals(), |b| b.stages())),
            walk_group: per_phase(picture.path.len()),
        },
        palette: (0..RANK_COLOURS).map(|k| hex(rank_colour(k))).collect(),
        rank_colours: RANK_COLOURS,
        max_cell_text_side: MAX_CELL_TEXT_SIDE,
        engine: if picture.bands.is_some() {
            "bands"
        } else {
            "diagonal"
        },
        bands: picture.bands.map(|b| BandsData {
            word: b.word(),
            teaching: b.teaching(),
            batch: b.batch(),
            batches: b.batches(),
            stages: b.stages(),
            cols: (0..b.active_ranks())
                .map(|k| [b.cols_of(k).start, b.cols_of(k).end])
                .collect(),
            recorded: !picture.spans.is_empty(),
        }),
        compare: lesson::compare(
            (s.rows(), s.cols(), s.ranks()),
            picture.problem,
            picture.bands,
            bands_batch,
            report,
        ),
    };
    let json = serde_json::to_string(&data).map_err(anyhow::Error::from)?;
    // Inside a script element only `</script` could end the block early; JSON may spell `<`
    // as an escape anywhere it occurs (in strings).
    let json = json.replace('<', "\\u003c");
    let title = escape(&picture.title);
    let variables = style::css_variables();
    let legend = legend(picture, report.is_some());
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
    let intro: String = lesson::intro(picture.problem, picture.bands.is_some())
        .iter()
        .map(|p| format!("<p>{}</p>", words::html(p)))
        .collect();
    let compare = compare_table(&data.compare);
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
</div>
{swap}</header>
<main>
<div id="figure">
{grid}</div>
<aside>
<section id="intro" hidden><h2>What this page shows</h2>{intro}<p class="note">Keys: &#x2190; &#x2192; step, space plays, Home and End jump, t the traceback, q predict, c contrast, ? this text.</p></section>
<section id="quiz" hidden><h2>Predict</h2><div id="quiz-text"></div></section>
<section id="now"><h2 id="phase"></h2><p id="what"></p><p id="found" hidden>{found} <span id="found-so-far"></span></p></section>
<section id="cell"><h2>The cell</h2><div id="cell-text"></div></section>
<section id="counters"><h2>Per rank, so far</h2><table id="counter-table"><thead><tr><th>rank</th><th>cells</th><th>sent</th><th>received</th></tr></thead><tbody></tbody></table><p class="note" id="counter-note"></p></section>
<section id="formulas"><h2>Formulas</h2><div id="formula-text"></div></section>
<section id="final" hidden><h2>The run, per rank</h2><div id="final-text"></div></section>
<section id="compare"><h2>Diagonal or bands: the messages</h2>{compare}</section>
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

/// The two engines' messages side by side (see [`lesson`]).
fn compare_table(lines: &[lesson::EngineLine]) -> String {
    let mut out = String::from(
        "<table class=\"compare\"><thead><tr><th>engine</th><th>messages</th><th>bytes</th>\
         <th>waits</th><th>fill</th></tr></thead><tbody>",
    );
    for l in lines {
        let seconds = l
            .seconds
            .map_or("—".to_owned(), |s| format!("{:.2} ms", s * 1e3));
        let _ = write!(
            out,
            "<tr data-engine=\"{}\"><td>{} <span class=\"note\">({}; {})</span></td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td></tr>",
            l.engine,
            l.engine,
            l.source,
            escape(&l.setting),
            l.messages,
            l.bytes,
            l.steps,
            seconds
        );
    }
    out.push_str("</tbody></table>");
    let _ = write!(
        out,
        "<p class=\"note\">{}</p>",
        escape(&lesson::compare_note(lines))
    );
    out
}

/// One element of a legend sample: its tag, its attributes and its text (empty: none).
type Mark<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);

/// A small inline SVG sample for a legend key, on one line like the rest of its list item.
fn sample(marks: &[Mark]) -> String {
    let mut out = SvgWriter::new();
    out.open(
        "svg",
        &[
            ("class", "key".into()),
            ("width", "34".into()),
            ("height", "18".into()),
            ("viewBox", "0 0 34 18".into()),
            ("aria-hidden", "true".into()),
        ],
    );
    for &(tag, attrs, text) in marks {
        let attrs: Vec<(&str, String)> = attrs.iter().map(|&(k, v)| (k, v.to_owned())).collect();
        if text.is_empty() {
            out.leaf(tag, &attrs);
        } else {
            out.element(tag, &attrs, text);
        }
    }
    out.close("svg");
    out.finish().replace('\n', "")
}

/// The legend: what every mark of the page means.
fn legend(p: &Picture, solved: bool) -> String {
    let s = p.schedule;
    let mut out = String::from("<ul class=\"ranks\">");
    for k in 0..s.working_ranks() {
        let hatch = match rank_hatch(k) {
            Hatch::None => "",
            Hatch::Stripes => " stripes",
            Hatch::Cross => " cross",
        };
        let _ = write!(
            out,
            "<li><span class=\"swatch{hatch}\" style=\"background-color:{}\"></span>p{k}</li>",
            hex(rank_colour(k))
        );
    }
    out.push_str("</ul>\n<ul class=\"keys\">\n");
    if let Some(pipe) = p.bands {
        if pipe.active_ranks() < pipe.ranks() {
            let _ = writeln!(out, "<li>{}</li>", escape(&lesson::idle_bands(pipe)));
        }
        if pipe.teaching() {
            let _ = writeln!(
                out,
                "<li><b>{}</b></li>",
                escape(&lesson::teaching_word(pipe))
            );
        }
    } else if s.ranks() > s.working_ranks() {
        let first = s.working_ranks();
        let _ = writeln!(
            out,
            "<li>p{first}{}: no cell at all (no diagonal is longer than {} cells)</li>",
            if first + 1 < s.ranks() {
                format!("..p{}", s.ranks() - 1)
            } else {
                String::new()
            },
            s.rows()
        );
    }
    let msg = hex(style::MESSAGE_COLOUR);
    let walk = hex(style::WALK_COLOUR);
    let hop = hex(style::HOP_COLOUR);
    let diag = hex(style::DIAGONAL_COLOUR);
    let mut key = |sample_svg: String, text: &str| {
        let _ = writeln!(out, "<li>{sample_svg}<span>{text}</span></li>");
    };
    key(
        sample(&[(
            "rect",
            &[
                ("x", "8"),
                ("y", "1"),
                ("width", "16"),
                ("height", "16"),
                ("fill", &hex(style::PENDING_COLOUR)),
            ],
            "",
        )]),
        if p.bands.is_some() {
            "grey cell: not computed yet at this step; a coloured cell is computed by the rank \
             whose band holds its column"
        } else {
            "grey cell: not computed yet at this step; a coloured cell is computed by its owner, \
             <code>cell_proc(i, j)</code>"
        },
    );
    key(
        sample(&[(
            "rect",
            &[
                ("x", "8"),
                ("y", "1"),
                ("width", "16"),
                ("height", "16"),
                ("fill", "none"),
                ("stroke", &diag),
                ("stroke-width", "3"),
            ],
            "",
        )]),
        if p.bands.is_some() {
            "outlined: the batches the bands compute at this stage: band k works on batch \
             s − k at stage s; thick black lines fence the bands, dashed lines the batches"
        } else {
            "outlined: the diagonal(s) of this step, <code>d = i + j</code>; the purple \
             <code>d=</code> numbers along the top and right edges name each diagonal where it \
             leaves the grid"
        },
    );
    key(
        sample(&[
            (
                "line",
                &[
                    ("x1", "4"),
                    ("y1", "9"),
                    ("x2", "26"),
                    ("y2", "9"),
                    ("stroke", &msg),
                    ("stroke-width", "2"),
                ],
                "",
            ),
            ("path", &[("d", "M24,4 L32,9 L24,14 z"), ("fill", &msg)], ""),
        ]),
        if p.bands.is_some() {
            "message of carries, in the sender's colour: after a batch, a band sends the next \
             band the carry out of its last word for each of the batch's rows, packed into 64-bit \
             words, in one message"
        } else {
            "boundary message of this step's diagonal, in the sender's colour: one value (4 \
             bytes) from the sending cell into the cell below, or else to the right, that its \
             receiver owns; the receiving cell is ringed"
        },
    );
    if s.rows() <= MAX_CELL_TEXT_SIDE && s.cols() <= MAX_CELL_TEXT_SIDE {
        key(
            String::new(),
            &if solved {
                words::html(words::cell(p.problem))
            } else {
                "pK in a cell: the rank that computes it".into()
            },
        );
    } else {
        key(
            String::new(),
            "cells carry no text above 24 a side: hover over a cell for its numbers",
        );
    }
    if solved {
        key(
            sample(&[
                (
                    "path",
                    &[
                        ("d", "M2,9 L17,9 L32,9"),
                        ("stroke", &walk),
                        ("stroke-width", "2"),
                    ],
                    "",
                ),
                (
                    "path",
                    &[("d", "M13,4 L21,9 L13,14 z"), ("fill", &walk)],
                    "",
                ),
            ]),
            &format!(
                "traceback walk, one cell per step {}",
                words::html(&words::walk(p.problem, p.swapped))
            ),
        );
        key(
            sample(&[
                (
                    "circle",
                    &[("cx", "17"), ("cy", "9"), ("r", "8"), ("fill", &walk)],
                    "",
                ),
                (
                    "text",
                    &[
                        ("x", "17"),
                        ("y", "13"),
                        ("font-size", "11"),
                        ("fill", "#fff"),
                        ("text-anchor", "middle"),
                    ],
                    "k",
                ),
            ]),
            &format!("match {}", words::html(words::matched(p.problem))),
        );
        key(
            sample(&[
                (
                    "path",
                    &[("d", "M2,9 L32,9"), ("stroke", &hop), ("stroke-width", "5")],
                    "",
                ),
                ("path", &[("d", "M12,2 L24,9 L12,16 z"), ("fill", &hop)], ""),
            ]),
            &format!("hop: {}", words::html(words::hop(p.problem))),
        );
        key(String::new(), &words::html(words::end(p.problem)));
    }
    if s.working_ranks() > RANK_COLOURS {
        key(
            String::new(),
            "past twelve ranks the colours repeat: p12..p23 are striped, p24..p35 cross-hatched",
        );
    }
    key(
        String::new(),
        "counters: cells each rank has computed, and messages it has sent and received, up to \
         this step (every kind)",
    );
    key(
        String::new(),
        "keys: &#x2190; &#x2192; step, space plays or pauses, Home and End jump; hover over a \
         cell for its diagonal, position, owner and value",
    );
    out.push_str("</ul>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::diagonal::schedule::Schedule;

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
