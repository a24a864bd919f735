//! The legend of a classroom picture, right of the grid: a swatch per working rank, then the
//! lines `layout` wrapped, each after a small sample of the mark it explains (an
//! arrow, the walk, a match's disc, a hop, a diagonal's number), and for an edit run the
//! alignment's three lines in a monospace font (`text.alignment-view`).
//!
//! Samples are classed `legend-key`, never like the marks they explain, so that counting the
//! marks of a picture never counts its legend.

use plotters::style::RGBColor;

use super::layout::{swatches_per_line, text_width, Key, Layout, LEGEND_LINE, LEGEND_PX, SWATCH};
use super::style::{
    hex, rank_colour, rank_hatch, rank_ink, DIAGONAL_COLOUR, FAINT_TEXT_COLOUR, HOP_COLOUR,
    TEXT_COLOUR, WALK_COLOUR,
};
use super::xml::{num, polyline, SvgWriter};
use crate::render::shown::picture::Picture;

pub(super) fn draw(out: &mut SvgWriter, p: &Picture, l: &Layout) {
    let s = p.schedule;
    out.group("legend");
    let text = |out: &mut SvgWriter, x: f64, y: f64, t: &str, bold: bool| {
        let mut attrs = vec![
            ("x", num(x)),
            ("y", num(y)),
            ("font-size", num(LEGEND_PX)),
            ("fill", hex(TEXT_COLOUR)),
            ("dominant-baseline", "central".into()),
        ];
        if bold {
            attrs.push(("font-weight", "bold".into()));
        }
        out.text(&attrs, t);
    };
    let x0 = l.legend_x;
    let mut y = l.legend_y;
    text(out, x0, y, "ranks:", true);
    let first = x0 + text_width("ranks:", LEGEND_PX) + 10.0;
    let swatch_w = SWATCH + 8.0 + text_width("p00", LEGEND_PX) + 12.0;
    let per_line = swatches_per_line();
    if s.rows() == 0 {
        text(out, first, y, "(empty matrix: no cells)", false);
    }
    for k in 0..s.working_ranks() {
        let col = k % per_line;
        if k > 0 && col == 0 {
            y += LEGEND_LINE;
        }
        let x = first + col as f64 * swatch_w;
        let rect = |out: &mut SvgWriter, class: &str, fill: String| {
            out.leaf(
                "rect",
                &[
                    ("class", class.into()),
                    ("data-owner", k.to_string()),
                    ("x", num(x)),
                    ("y", num(y - SWATCH / 2.0)),
                    ("width", num(SWATCH)),
                    ("height", num(SWATCH)),
                    ("fill", fill),
                    ("stroke", hex(FAINT_TEXT_COLOUR)),
                ],
            );
        };
        rect(out, "swatch", hex(rank_colour(k)));
        if let Some(id) = rank_hatch(k).id() {
            rect(out, "swatch-hatch", format!("url(#{id})"));
        }
        text(out, x + SWATCH + 6.0, y, &format!("p{k}"), false);
    }
    y += LEGEND_LINE * 1.6;
    for line in &l.legend {
        let key_x = x0 + 2.0;
        match line.key {
            Key::Message => legend_arrow(out, key_x, y, rank_ink(0), 3.0, "message-head-0"),
            Key::Walk => legend_arrow(out, key_x, y, WALK_COLOUR, 2.0, "walk-head"),
            Key::Hop => legend_arrow(out, key_x, y, HOP_COLOUR, 5.0, "hop-head"),
            Key::Match => {
                out.leaf(
                    "circle",
                    &[
                        ("class", "legend-key".into()),
                        ("cx", num(key_x + 14.0)),
                        ("cy", num(y)),
                        ("r", "9".into()),
                        ("fill", hex(WALK_COLOUR)),
                    ],
                );
                out.text(
                    &[
                        ("x", num(key_x + 14.0)),
                        ("y", num(y)),
                        ("font-size", "11".into()),
                        ("fill", "#ffffff".into()),
                        ("font-weight", "bold".into()),
                        ("text-anchor", "middle".into()),
                        ("dominant-baseline", "central".into()),
                    ],
                    "k",
                );
            }
            Key::Diagonal => {
                out.text(
                    &[
                        ("x", num(key_x + 4.0)),
                        ("y", num(y)),
                        ("font-size", "12".into()),
                        ("font-style", "italic".into()),
                        ("fill", hex(DIAGONAL_COLOUR)),
                        ("dominant-baseline", "central".into()),
                    ],
                    "d",
                );
            }
            Key::Mono => {
                // A line of the alignment: its columns line up in a monospace font, and its
                // spaces (gaps) are kept as no-break spaces, which SVG does not collapse.
                out.text(
                    &[
                        ("class", "alignment-view".into()),
                        ("x", num(x0 + line.indent)),
                        ("y", num(y)),
                        ("font-size", num(LEGEND_PX)),
                        ("font-family", "monospace".into()),
                        ("fill", hex(TEXT_COLOUR)),
                        ("dominant-baseline", "central".into()),
                    ],
                    &line.text.replace(' ', "\u{a0}"),
                );
            }
            Key::Text | Key::Heading | Key::More => {}
        }
        if line.key != Key::Mono {
            text(
                out,
                x0 + line.indent,
                y,
                &line.text,
                line.key == Key::Heading,
            );
        }
        y += LEGEND_LINE;
    }
    out.close("g");
}

/// A short arrow for the legend, drawn like the marks it explains but classed as a key, so
/// that it is never counted among them.
fn legend_arrow(out: &mut SvgWriter, x: f64, y: f64, colour: RGBColor, width: f64, head: &str) {
    let (from, to) = (x, x + 30.0);
    let centred = !head.starts_with("message-head");
    let d = match centred {
        true => polyline(&[(from, y), ((from + to) / 2.0, y), (to, y)]),
        false => polyline(&[(from, y), (to, y)]),
    };
    out.leaf(
        "path",
        &[
            ("class", "legend-key".into()),
            ("d", d),
            ("fill", "none".into()),
            ("stroke", hex(colour)),
            ("stroke-width", num(width)),
            (
                if centred { "marker-mid" } else { "marker-end" },
                format!("url(#{head})"),
            ),
        ],
    );
}
