//! The traceback walk of a classroom picture: one step per pair of consecutive cells with its
//! arrowhead halfway, a black disc on each match showing the cell's value (for an LCS run the
//! match's place in the LCS, for an edit run the edits before it), and each hop onto another rank
//! as a thick red arrow over its step, haloed in white, carrying its payload. All are drawn before
//! the cells' texts, so no mark covers a value; where cells are too small to draw one by one (a
//! bands picture's blocks) the walk is a plain line. The page reveals them step by step
//! (`docs/classroom.md#the-pictures-marks-and-the-pages-data`).

use super::layout::Geometry;
use super::style::{hex, HOP_COLOUR, WALK_COLOUR};
use super::xml::{num, polyline, SvgWriter};
use crate::render::shown::hops::Hop;
use crate::render::shown::picture::{is_match, Picture};

/// The walk: one step per pair of consecutive cells, centre to centre with its arrowhead
/// halfway; the match discs under the cell texts.
pub(super) fn steps(out: &mut SvgWriter, p: &Picture, l: &impl Geometry) {
    out.group("walk");
    for (t, w) in p.path.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let from = l.centre(a.0, a.1);
        let to = l.centre(b.0, b.1);
        let mid = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
        out.leaf(
            "path",
            &[
                ("class", "walk-step".into()),
                ("data-t", t.to_string()),
                ("data-i", b.0.to_string()),
                ("data-j", b.1.to_string()),
                ("d", polyline(&[from, mid, to])),
                ("fill", "none".into()),
                ("stroke", hex(WALK_COLOUR)),
                ("stroke-width", num(l.walk_width())),
                (
                    "marker-mid",
                    if l.cell_marks() {
                        "url(#walk-head)"
                    } else {
                        "none"
                    }
                    .into(),
                ),
            ],
        );
    }
    for (t, &(i, j)) in p.path.iter().enumerate() {
        if !is_match(p, i, j) || !l.cell_marks() {
            continue;
        }
        let (cx, cy) = l.centre(i, j);
        let mut attrs = vec![
            ("class", "match".into()),
            ("data-t", t.to_string()),
            ("data-i", i.to_string()),
            ("data-j", j.to_string()),
        ];
        if let Some(v) = p.values {
            attrs.push(("data-k", v[i][j].to_string()));
        }
        attrs.extend([
            ("cx", num(cx)),
            ("cy", num(cy)),
            ("r", num(l.disc())),
            ("fill", hex(WALK_COLOUR)),
        ]);
        out.leaf("circle", &attrs);
    }
    out.close("g");
}

/// Each hop as a thick arrow over its step of the walk, from disc edge to disc edge.
pub(super) fn hop_arrows(out: &mut SvgWriter, p: &Picture, l: &impl Geometry, hops: &[Hop]) {
    out.group("hops");
    for h in hops {
        let (a, b) = (p.path[h.t], h.next);
        let (ax, ay) = l.centre(a.0, a.1);
        let (bx, by) = l.centre(b.0, b.1);
        let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt().max(1.0);
        let (ux, uy) = ((bx - ax) / len, (by - ay) / len);
        let trim = |cell: (usize, usize)| {
            if is_match(p, cell.0, cell.1) {
                l.disc()
            } else {
                l.side() * 0.12
            }
        };
        let (ta, tb) = (trim(a), trim(b));
        let from = (ax + ux * ta, ay + uy * ta);
        let to = (bx - ux * tb, by - uy * tb);
        let mid = ((ax + bx) / 2.0, (ay + by) / 2.0);
        let d = polyline(&[from, mid, to]);
        // A white halo first, so that the hop stands out on every rank's colour.
        out.leaf(
            "path",
            &[
                ("class", "hop-halo".into()),
                ("data-t", h.t.to_string()),
                ("d", d.clone()),
                ("fill", "none".into()),
                ("stroke", "#ffffff".into()),
                ("stroke-width", num(l.hop_width() + 3.0)),
                ("stroke-linecap", "round".into()),
                ("marker-mid", "url(#hop-halo-head)".into()),
            ],
        );
        let mut attrs = vec![
            ("class", "hop".into()),
            ("data-t", h.t.to_string()),
            ("data-from", h.from.to_string()),
            ("data-to", h.to.to_string()),
            ("data-i", h.next.0.to_string()),
            ("data-j", h.next.1.to_string()),
            ("data-bytes", h.bytes.to_string()),
            ("data-moves", h.moves.to_string()),
        ];
        if let Some(prefix) = &h.prefix {
            attrs.push(("data-prefix", prefix.clone()));
        }
        attrs.extend([
            ("d", d),
            ("fill", "none".into()),
            ("stroke", hex(HOP_COLOUR)),
            ("stroke-width", num(l.hop_width())),
            ("stroke-linecap", "round".into()),
            ("marker-mid", "url(#hop-head)".into()),
        ]);
        out.leaf("path", &attrs);
    }
    out.close("g");
}
