//! The matrix of a classroom picture: the axes with their indices and sequence bytes, the diagonal
//! numbers along the top and right edges, the cells in their owners' colours (hatched beyond twelve
//! ranks, fenced where the owner changes: the wave's picture fences its cells here too), the page's
//! hidden diagonal outlines, the text in each cell and the boundary messages as arrows, each mark
//! classed and tagged with what it means
//! (`docs/classroom.md#the-pictures-marks-and-the-pages-data`).

use super::layout::{Geometry, Layout, AXIS_PX};
use super::style::{
    hex, rank_colour, rank_hatch, rank_ink, DIAGONAL_COLOUR, FAINT_TEXT_COLOUR, RANK_COLOURS,
    TEXT_COLOUR,
};
use super::xml::{num, polyline, SvgWriter};
use crate::render::shown::picture::{byte_label, is_match, Arrow, Picture};

/// The axes' titles, indices and bytes. A picture numbers every `index_every`-th row and
/// column; with `every_one` (the page) every one is numbered, each text tagged with its row or
/// column, for the page to number every k-th, regularly, at the size it shows them.
pub(super) fn axes(out: &mut SvgWriter, p: &Picture, l: &Layout, every_one: bool) {
    let s = p.schedule;
    let (col_title, row_title) = match (p.x.is_some(), p.y.is_some(), p.swapped) {
        (true, true, false) => ("y: columns j", "x: rows i"),
        (true, true, true) => (
            "y (the file's first sequence): columns j",
            "x (the file's second): rows i",
        ),
        (_, _, false) => ("columns j", "rows i"),
        (_, _, true) => ("columns j (--rows)", "rows i (--cols)"),
    };
    out.group("axes");
    out.text(
        &[
            ("class", "axis-title".into()),
            ("x", num(l.grid_x)),
            ("y", num(l.axis_title_y)),
            ("font-size", num(AXIS_PX)),
            ("fill", hex(TEXT_COLOUR)),
        ],
        col_title,
    );
    let mid_y = l.grid_y + s.rows() as f64 * l.cell / 2.0;
    out.text(
        &[
            ("class", "axis-title".into()),
            ("x", num(l.axis_title_x)),
            ("y", num(mid_y)),
            ("font-size", num(AXIS_PX)),
            ("fill", hex(TEXT_COLOUR)),
            ("text-anchor", "middle".into()),
            ("dominant-baseline", "central".into()),
            (
                "transform",
                format!("rotate(-90 {} {})", num(l.axis_title_x), num(mid_y)),
            ),
        ],
        row_title,
    );
    let index = |out: &mut SvgWriter, class: &str, (x, y): (f64, f64), at: usize| {
        let (anchor, key) = if class == "col-index" {
            ("middle", "data-j")
        } else {
            ("end", "data-i")
        };
        out.text(
            &[
                ("class", class.into()),
                (key, at.to_string()),
                ("x", num(x)),
                ("y", num(y)),
                ("font-size", num(l.index_px)),
                ("fill", hex(FAINT_TEXT_COLOUR)),
                ("text-anchor", anchor.into()),
                ("dominant-baseline", "central".into()),
            ],
            &at.to_string(),
        );
    };
    let label = |out: &mut SvgWriter, class: &str, (x, y): (f64, f64), at: usize, byte: u8| {
        let (anchor, key) = if class == "col-byte" {
            ("middle", "data-j")
        } else {
            ("end", "data-i")
        };
        let (text, hex_digits) = byte_label(byte);
        let px = if hex_digits {
            l.label_px * 0.8
        } else {
            l.label_px
        };
        out.text(
            &[
                ("class", class.into()),
                (key, at.to_string()),
                ("x", num(x)),
                ("y", num(y)),
                ("font-size", num(px)),
                ("fill", hex(TEXT_COLOUR)),
                ("font-weight", "bold".into()),
                (
                    "font-style",
                    if hex_digits { "italic" } else { "normal" }.into(),
                ),
                ("text-anchor", anchor.into()),
                ("dominant-baseline", "central".into()),
            ],
            &text,
        );
    };
    for j in 0..s.cols() {
        let (cx, _) = l.at(0, j, 0.0, 0.0);
        if every_one || j % l.index_every == 0 {
            index(out, "col-index", (cx, l.top_index_y), j);
        }
        if let Some(y) = p.y {
            label(out, "col-byte", (cx, l.top_bytes_y), j, y[j]);
        }
    }
    for i in 0..s.rows() {
        let (_, cy) = l.at(i, 0, 0.0, 0.0);
        if every_one || i % l.index_every == 0 {
            index(out, "row-index", (l.left_index_x, cy), i);
        }
        if let Some(x) = p.x {
            label(out, "row-byte", (l.left_bytes_x, cy), i, x[i]);
        }
    }
    out.close("g");
}

/// Each diagonal's number where it leaves the grid at its top-right end: the top edge for
/// `d < n`, the right edge after; a short tick continues the diagonal to its number. Every
/// `diagonal_every`-th diagonal is numbered; with `every_one` (the page) the others are there
/// too, hidden (`data-extra`), for the page to show the current diagonal's number whatever it is.
pub(super) fn diagonal_labels(out: &mut SvgWriter, p: &Picture, l: &Layout, every_one: bool) {
    let s = p.schedule;
    let n = s.cols();
    out.group("diagonal-labels");
    for d in (0..s.diagonals()).filter(|d| every_one || d % l.diagonal_every == 0) {
        let extra = d % l.diagonal_every != 0;
        // The top-right corner of the diagonal's top-right cell.
        let (cx, cy) = if d < n {
            (l.grid_x + (d + 1) as f64 * l.cell, l.grid_y)
        } else {
            (
                l.grid_x + n as f64 * l.cell,
                l.grid_y + (d + 1 - n) as f64 * l.cell,
            )
        };
        let tick = 5.0;
        let mut attrs = vec![
            ("class", "diagonal-tick".to_owned()),
            ("data-d", d.to_string()),
            ("x1", num(cx)),
            ("y1", num(cy)),
            ("x2", num(cx + tick)),
            ("y2", num(cy - tick)),
            ("stroke", hex(DIAGONAL_COLOUR)),
            ("stroke-width", "1".into()),
        ];
        if extra {
            attrs.push(("data-extra", "1".into()));
        }
        out.leaf("line", &attrs);
        let mut attrs = vec![
            ("class", "diagonal-label".to_owned()),
            ("data-d", d.to_string()),
            ("x", num(cx + tick + 1.0)),
            ("y", num(cy - tick + 1.0)),
            ("font-size", num(l.diagonal_px)),
            ("font-style", "italic".into()),
            ("fill", hex(DIAGONAL_COLOUR)),
        ];
        if extra {
            attrs.push(("data-extra", "1".into()));
        }
        out.text(&attrs, &format!("d={d}"));
    }
    out.close("g");
}

/// The cells, filled with their owner's colour (hatched beyond twelve ranks).
pub(super) fn cells(out: &mut SvgWriter, p: &Picture, l: &Layout) {
    let s = p.schedule;
    out.group("cells");
    for i in 0..s.rows() {
        for j in 0..s.cols() {
            let owner = s.cell_proc(i, j);
            let (x, y) = l.corner(i, j);
            // One pixel of white between cells draws the grid.
            out.leaf(
                "rect",
                &[
                    ("class", "cell".into()),
                    ("data-i", i.to_string()),
                    ("data-j", j.to_string()),
                    ("data-d", (i + j).to_string()),
                    ("data-pos", s.pos(i, j).to_string()),
                    ("data-owner", owner.to_string()),
                    ("x", num(x)),
                    ("y", num(y)),
                    ("width", num(l.cell - 1.0)),
                    ("height", num(l.cell - 1.0)),
                    ("fill", hex(rank_colour(owner))),
                ],
            );
        }
    }
    fences_and_hatches(out, l, (s.rows(), s.cols()), |i, j| Some(s.cell_proc(i, j)));
    out.close("g");
}

/// Over the cells of a `rows x cols` grid whose owners `owner` tells (`None`: a cell nobody
/// owns, which takes no fence and no hatching): a thick line wherever two owned neighbours have
/// different owners (ownership told without colour), then each owned cell's hatching beyond
/// twelve ranks.
pub(super) fn fences_and_hatches(
    out: &mut SvgWriter,
    l: &Layout,
    (rows, cols): (usize, usize),
    owner: impl Fn(usize, usize) -> Option<usize>,
) {
    // Each fence tagged with the cell left of or above it and the side it stands on, for the
    // page to show it only once both its cells are computed.
    let fence =
        |out: &mut SvgWriter, (i, j): (usize, usize), side: &str, a: (f64, f64), b: (f64, f64)| {
            out.leaf(
                "line",
                &[
                    ("class", "fence".into()),
                    ("data-i", i.to_string()),
                    ("data-j", j.to_string()),
                    ("data-side", side.into()),
                    ("x1", num(a.0)),
                    ("y1", num(a.1)),
                    ("x2", num(b.0)),
                    ("y2", num(b.1)),
                    ("stroke", hex(TEXT_COLOUR)),
                    ("stroke-width", num((l.cell * 0.06).clamp(1.5, 3.0))),
                    ("stroke-linecap", "square".into()),
                ],
            );
        };
    for i in 0..rows {
        for j in 0..cols {
            let Some(k) = owner(i, j) else { continue };
            let (x, y) = l.corner(i, j);
            let differs = |a: usize, b: usize| owner(a, b).is_some_and(|o| o != k);
            if j + 1 < cols && differs(i, j + 1) {
                fence(
                    out,
                    (i, j),
                    "right",
                    (x + l.cell - 0.5, y),
                    (x + l.cell - 0.5, y + l.cell),
                );
            }
            if i + 1 < rows && differs(i + 1, j) {
                fence(
                    out,
                    (i, j),
                    "down",
                    (x, y + l.cell - 0.5),
                    (x + l.cell, y + l.cell - 0.5),
                );
            }
        }
    }
    for i in 0..rows {
        for j in 0..cols {
            let Some(id) = owner(i, j).and_then(|k| rank_hatch(k).id()) else {
                continue;
            };
            let (x, y) = l.corner(i, j);
            out.leaf(
                "rect",
                &[
                    ("class", "hatch".into()),
                    ("data-i", i.to_string()),
                    ("data-j", j.to_string()),
                    ("x", num(x)),
                    ("y", num(y)),
                    ("width", num(l.cell - 1.0)),
                    ("height", num(l.cell - 1.0)),
                    ("fill", format!("url(#{id})")),
                    ("pointer-events", "none".into()),
                ],
            );
        }
    }
}

/// One outline per diagonal (hidden until the page shows it): the staircase around its cells.
pub(super) fn diagonal_outlines(out: &mut SvgWriter, p: &Picture, l: &Layout) {
    let s = p.schedule;
    out.group("diagonal-outlines");
    for d in 0..s.diagonals() {
        let len = s.diag_len(d);
        let (i0, j0) = s.coords(d, 0);
        let (i0, j0) = (i0 as f64, j0 as f64);
        let mut points = Vec::with_capacity(4 * len);
        for k in 0..len {
            let k = k as f64;
            points.push((j0 - k + 1.0, i0 + k));
            points.push((j0 - k + 1.0, i0 + k + 1.0));
        }
        for k in (0..len).rev() {
            let k = k as f64;
            points.push((j0 - k, i0 + k + 1.0));
            points.push((j0 - k, i0 + k));
        }
        let corners: Vec<(f64, f64)> = points
            .iter()
            .map(|(x, y)| (l.grid_x + x * l.cell, l.grid_y + y * l.cell))
            .collect();
        let path = polyline(&corners) + " z";
        out.leaf(
            "path",
            &[
                ("class", "diagonal".into()),
                ("data-d", d.to_string()),
                ("d", path),
                ("fill", "none".into()),
                ("stroke", hex(DIAGONAL_COLOUR)),
                ("stroke-width", "3".into()),
                ("stroke-linejoin", "round".into()),
                ("visibility", "hidden".into()),
            ],
        );
    }
    out.close("g");
}

/// Each cell's text: its value (white on a match's disc) or, without values, its owner; the
/// text is haloed in the cell's colour so the walk line passes behind it. A cell with a value
/// and room for more also names its owner in its top-left corner, small.
pub(super) fn cell_texts(out: &mut SvgWriter, p: &Picture, l: &Layout) {
    if !l.cell_text {
        return;
    }
    let s = p.schedule;
    // Owners in the corners of a picture's cells (the page's values fill its cells).
    if p.values.is_some() && l.cell >= 40.0 && l.value_px < l.cell * 0.45 {
        out.group("owner-tags");
        let px = (l.cell * 0.2).clamp(9.0, 12.0);
        for i in 0..s.rows() {
            for j in 0..s.cols() {
                let (x, y) = l.corner(i, j);
                out.text(
                    &[
                        ("class", "owner-tag".into()),
                        ("data-i", i.to_string()),
                        ("data-j", j.to_string()),
                        ("x", num(x + 3.0)),
                        ("y", num(y + 2.0 + px)),
                        ("font-size", num(px)),
                        ("fill", hex(FAINT_TEXT_COLOUR)),
                    ],
                    &format!("p{}", s.cell_proc(i, j)),
                );
            }
        }
        out.close("g");
    }
    texts(out, p, l, (s.rows(), s.cols()), |i, j| {
        Some(CellText::of(p, s.cell_proc(i, j), i, j))
    });
}

/// What one cell's text says, and in whose colour it is haloed.
pub(super) struct CellText {
    /// The rank that computes the cell.
    pub(super) owner: usize,
    pub(super) text: String,
    /// The stage at which the cell is computed, where the page shows cells by stage (a bands
    /// picture's `data-unit`).
    pub(super) unit: Option<usize>,
}

impl CellText {
    /// The text of cell `(i, j)` of `p`, which `owner` computes: its value, or without values
    /// its owner.
    pub(super) fn of(p: &Picture, owner: usize, i: usize, j: usize) -> CellText {
        let text = match p.values {
            Some(v) => v[i][j].to_string(),
            None => format!("p{owner}"),
        };
        CellText {
            owner,
            text,
            unit: None,
        }
    }
}

/// The `cell-texts` of a `rows x cols` grid: each cell's text and owner from `text` (`None`:
/// the cell has no text), centred, haloed in the owner's colour so the walk passes behind it,
/// white and bold on a match's disc of the walk.
pub(super) fn texts(
    out: &mut SvgWriter,
    p: &Picture,
    l: &impl Geometry,
    (rows, cols): (usize, usize),
    text: impl Fn(usize, usize) -> Option<CellText>,
) {
    out.group("cell-texts");
    let on_walk: std::collections::HashSet<(usize, usize)> = p.path.iter().copied().collect();
    for i in 0..rows {
        for j in 0..cols {
            let Some(CellText { owner, text, unit }) = text(i, j) else {
                continue;
            };
            let disc = on_walk.contains(&(i, j)) && is_match(p, i, j);
            let (cx, cy) = l.centre(i, j);
            let mut attrs = vec![
                ("class", "cell-text".into()),
                ("data-i", i.to_string()),
                ("data-j", j.to_string()),
            ];
            if let Some(unit) = unit {
                attrs.push(("data-unit", unit.to_string()));
            }
            attrs.extend([
                ("x", num(cx)),
                ("y", num(cy)),
                ("font-size", num(l.value_px())),
                ("text-anchor", "middle".into()),
                ("dominant-baseline", "central".into()),
            ]);
            if disc {
                attrs.push(("data-disc", "1".into()));
                attrs.push(("fill", "#ffffff".into()));
                attrs.push(("font-weight", "bold".into()));
            } else {
                attrs.push(("fill", hex(TEXT_COLOUR)));
                attrs.push(("stroke", hex(rank_colour(owner))));
                attrs.push(("stroke-width", "4".into()));
                attrs.push(("paint-order", "stroke".into()));
            }
            out.text(&attrs, &text);
        }
    }
    out.close("g");
}

/// Where a message arrow starts, in cells from its sender's centre: at the sender's edge.
const ARROW_FROM: f64 = 0.45;

/// Each boundary message as an arrow a cell long from the sending cell's edge, past its value,
/// into the receiving cell, whose value is not computed while the arrow shows (the arrows are
/// drawn before the cells' texts all the same).
pub(super) fn messages(out: &mut SvgWriter, l: &Layout, arrows: &[Arrow]) {
    out.group("messages");
    for a in arrows {
        let (i, j) = a.from;
        let (dx, dy) = if a.down { (0.0, 1.0) } else { (1.0, 0.0) };
        // From the sending cell's edge, clear of its value, a cell long into the receiver
        // (whose value is not computed while the arrow shows).
        let from = l.at(i, j, ARROW_FROM * dx, ARROW_FROM * dy);
        let to = l.at(i, j, (ARROW_FROM + 1.0) * dx, (ARROW_FROM + 1.0) * dy);
        let e = &a.event;
        let ends = [
            ("x1", num(from.0)),
            ("y1", num(from.1)),
            ("x2", num(to.0)),
            ("y2", num(to.1)),
        ];
        arrow(
            out,
            &[
                ("data-kind", e.kind.name().into()),
                ("data-d", (i + j).to_string()),
                ("data-from", e.from.to_string()),
                ("data-to", e.to.to_string()),
                ("data-i", i.to_string()),
                ("data-j", j.to_string()),
                ("data-bytes", e.bytes.to_string()),
            ],
            &ends,
            e.from,
            l.message_width(),
        );
    }
    out.close("g");
}

/// One message arrow: a white edge under a shaft in the sender's ink (`class="message"`,
/// carrying `data`), its head in the same colours: dark on every cell colour, apart from the
/// black fences it crosses; the edge is `message-halo`.
pub(super) fn arrow(
    out: &mut SvgWriter,
    data: &[(&'static str, String)],
    ends: &[(&'static str, String)],
    sender: usize,
    width: f64,
) {
    let mut halo = vec![("class", "message-halo".to_owned())];
    halo.extend(data.iter().cloned());
    halo.extend(ends.iter().cloned());
    halo.extend([
        ("stroke", "#ffffff".to_owned()),
        ("stroke-width", num(width + (width * 0.5).max(4.0))),
        ("stroke-linecap", "round".into()),
    ]);
    out.leaf("line", &halo);
    let mut shaft = vec![("class", "message".to_owned())];
    shaft.extend(data.iter().cloned());
    shaft.extend(ends.iter().cloned());
    let head = if sender < RANK_COLOURS {
        format!("url(#message-head-{sender})")
    } else {
        "url(#message-head)".into()
    };
    shaft.extend([
        ("stroke", hex(rank_ink(sender))),
        ("stroke-width", num(width)),
        // Square-cut where it starts: no cap reaches back over the sender's value.
        ("stroke-linecap", "butt".into()),
        ("marker-end", head),
    ]);
    out.leaf("line", &shaft);
}
