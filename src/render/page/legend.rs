//! The classroom page's legend: a swatch per working rank, then what every mark of the page
//! means, each key after a small inline sample of its mark (a cell, an outline, an arrow, the
//! walk, a match's disc, a hop) drawn as the grid draws it. What it says about the run's
//! problem comes from `shown::words`, as the picture's legend does, so the two never differ.

use std::fmt::Write as _;

use super::formulas;
use crate::render::drawn::style::{self, hex, rank_colour, rank_hatch, Hatch, RANK_COLOURS};
use crate::render::drawn::xml::{escape, SvgWriter};
use crate::render::shown::lesson;
use crate::render::shown::picture::Picture;
use crate::render::shown::words;

/// One element of a legend sample: its tag, its attributes and its text (empty: none).
type Mark<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);

/// A small inline SVG sample for a legend key, on one line like the rest of its list item.
pub(super) fn sample(marks: &[Mark]) -> String {
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

/// The sample of a message: a shaft and its head in the sender's `ink`, edged in white as the
/// grid draws a message.
pub(super) fn message_sample(ink: &str) -> String {
    sample(&[
        (
            "line",
            &[
                ("x1", "3"),
                ("y1", "9"),
                ("x2", "24"),
                ("y2", "9"),
                ("stroke", "#ffffff"),
                ("stroke-width", "7"),
            ],
            "",
        ),
        (
            "line",
            &[
                ("x1", "4"),
                ("y1", "9"),
                ("x2", "24"),
                ("y2", "9"),
                ("stroke", ink),
                ("stroke-width", "4"),
            ],
            "",
        ),
        (
            "path",
            &[
                ("d", "M21,2 L33,9 L21,16 z"),
                ("fill", ink),
                ("stroke", "#ffffff"),
            ],
            "",
        ),
    ])
}

/// A square sample (a cell, an outline) painted with `paint`.
pub(super) fn square(paint: &[(&str, &str)]) -> String {
    let mut attrs = vec![("x", "8"), ("y", "1"), ("width", "16"), ("height", "16")];
    attrs.extend_from_slice(paint);
    sample(&[("rect", &attrs, "")])
}

/// A page's legend being written: a swatch per rank, then the list of keys.
pub(super) struct Legend {
    out: String,
}

impl Legend {
    /// A swatch for each of `ranks` ranks (`hatched`: beyond twelve, with their hatching), then
    /// the keys' list opened.
    pub(super) fn new(ranks: usize, hatched: bool) -> Legend {
        let mut out = String::from("<ul class=\"ranks\">");
        for k in 0..ranks {
            let hatch = match rank_hatch(k) {
                Hatch::Stripes if hatched => " stripes",
                Hatch::Cross if hatched => " cross",
                _ => "",
            };
            let _ = write!(
                out,
                "<li><span class=\"swatch{hatch}\" style=\"background-color:{}\"></span>p{k}</li>",
                hex(rank_colour(k))
            );
        }
        out.push_str("</ul>\n<ul class=\"keys\">\n");
        Legend { out }
    }

    /// A line of HTML of its own, before the keys.
    pub(super) fn note(&mut self, html: &str) {
        let _ = writeln!(self.out, "<li>{html}</li>");
    }

    /// A key: the `sample` of its mark (empty: none), then what it means, as HTML.
    pub(super) fn key(&mut self, sample: &str, html: &str) {
        let _ = writeln!(self.out, "<li>{sample}<span>{html}</span></li>");
    }

    /// The legend, ended by the keys every page has: its counters (the cells a rank has
    /// `counted`) and its keys (hovering over a cell tells its `hover`).
    pub(super) fn finish(mut self, counted: &str, hover: &str) -> String {
        self.key(
            "",
            &format!(
                "counters: cells each rank has {counted}, and messages it has sent and \
                 received, up to this step (every kind)"
            ),
        );
        self.key(
            "",
            &format!(
                "keys: &#x2190; &#x2192; step, space plays or pauses, Home and End jump, p \
                 projector (Shift and the arrows move its window), s the side panel; hover over \
                 a cell for {hover}"
            ),
        );
        self.out.push_str("</ul>\n");
        self.out
    }
}

/// The legend of a diagonal or bands page: what every mark of the page means.
pub(super) fn legend(p: &Picture, solved: bool) -> String {
    let s = p.schedule;
    let mut legend = Legend::new(s.working_ranks(), true);
    if let Some(pipe) = p.bands {
        if pipe.active_ranks() < pipe.ranks() {
            legend.note(&escape(&lesson::idle_bands(pipe)));
        }
        if pipe.teaching() {
            legend.note(&format!("<b>{}</b>", escape(&lesson::teaching_word(pipe))));
        }
    } else if s.ranks() > s.working_ranks() {
        let first = s.working_ranks();
        legend.note(&format!(
            "p{first}{}: no cell at all (no diagonal is longer than {} cells)",
            if first + 1 < s.ranks() {
                format!("..p{}", s.ranks() - 1)
            } else {
                String::new()
            },
            s.rows()
        ));
    }
    fill_keys(&mut legend, p, solved);
    if let Some(from) = p.values_from {
        legend.note(&escape(from));
    }
    if solved {
        walk_keys(&mut legend, p);
    }
    if s.working_ranks() > RANK_COLOURS {
        legend.key(
            "",
            "past twelve ranks the colours repeat: p12..p23 are striped, p24..p35 cross-hatched",
        );
    }
    legend.finish("computed", "its diagonal, position, owner and value")
}

/// The keys of the fill: a cell to compute, the step's outline, a message, the cell under the
/// mouse and a cell's text.
fn fill_keys(legend: &mut Legend, p: &Picture, solved: bool) {
    let diag = hex(style::DIAGONAL_COLOUR);
    legend.key(
        &square(&[("fill", &hex(style::PENDING_COLOUR))]),
        if p.bands.is_some() {
            "grey: not computed yet at this stage; a coloured cell (or block: a band's batch of \
             rows, where cells are too small to draw) is computed by the rank whose band holds \
             its columns"
        } else {
            "grey cell: not computed yet at this step; a coloured cell is computed by its owner, \
             <code>cell_proc(i, j)</code>"
        },
    );
    legend.key(
        &square(&[("fill", "none"), ("stroke", &diag), ("stroke-width", "3")]),
        if p.bands.is_some() {
            "outlined: the batches the bands compute at this stage: band k works on batch \
             s − k at stage s; thick black lines fence the bands, dashed lines the batches"
        } else {
            "outlined: the diagonal(s) of this step, <code>d = i + j</code>; the purple \
             <code>d=</code> numbers along the top and right edges name the diagonals where they \
             leave the grid, the current one in red whatever its number"
        },
    );
    legend.key(
        &message_sample(&hex(style::rank_ink(0))),
        if p.bands.is_some() {
            "message of carries, in the sender's ink (its colour, dark): after a batch, a band \
             sends the next band the carry out of its last word for each of the batch's rows, \
             packed into 64-bit words, in one message"
        } else {
            "boundary message of this step's diagonal, in the sender's ink (its colour, dark): \
             one value (4 bytes), from the sending cell's edge into the cell below, or else \
             to the right, that its receiver owns; the receiving cell is ringed"
        },
    );
    legend.key(
        &square(&[
            ("fill", "none"),
            ("stroke", &hex(style::INPUT_COLOUR)),
            ("stroke-width", "3"),
            ("stroke-dasharray", "4 2"),
        ]),
        if solved {
            "blue: the cell under the mouse (or clicked), solid, and the three cells it reads, \
             dashed"
        } else {
            "blue: the cell under the mouse"
        },
    );
    legend.key(
        "",
        &if solved {
            format!(
                "{}; shown in the cell wherever the cell has room (else hover over it)",
                formulas::html(words::cell(p.problem))
            )
        } else {
            "pK in a cell: the rank that computes it (shown where the cell has room)".into()
        },
    );
}

/// The keys of a solved run's walk: its steps, a match's disc, a hop and the walk's end.
fn walk_keys(legend: &mut Legend, p: &Picture) {
    let walk = hex(style::WALK_COLOUR);
    let hop = hex(style::HOP_COLOUR);
    legend.key(
        &sample(&[
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
            formulas::html(&words::walk(p.problem, p.swapped))
        ),
    );
    legend.key(
        &sample(&[
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
                    ("font-size", "12"),
                    ("fill", "#fff"),
                    ("text-anchor", "middle"),
                ],
                "k",
            ),
        ]),
        &format!("match {}", formulas::html(words::matched(p.problem))),
    );
    legend.key(
        &sample(&[
            (
                "path",
                &[("d", "M2,9 L32,9"), ("stroke", &hop), ("stroke-width", "5")],
                "",
            ),
            ("path", &[("d", "M12,2 L24,9 L12,16 z"), ("fill", &hop)], ""),
        ]),
        &format!("hop: {}", formulas::html(words::hop(p.problem))),
    );
    legend.key("", &formulas::html(words::end(p.problem)));
}
