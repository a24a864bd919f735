//! SVG pictures of a schedule: the ownership grid in colour, the boundary messages as arrows,
//! and, for a solved matrix, every cell's value and the traceback walk with its hops.
//!
//! The text view in the parent module answers "who computes which cell"; a picture also shows
//! *where the messages go*, which is what a class needs to see to believe the message count.
//! Each cell is filled with its owner's colour ([`super::style`]: twelve colours, hatched
//! beyond); the rows' sequence runs down the left and the columns' along the top; each
//! diagonal `d = i + j` is numbered where it leaves the grid at its top-right end, along the
//! top and right edges; every message is an arrow a cell long, in its sender's ink, from the
//! sending cell's centre into the neighbour cell its receiver owns. The traceback walk is one connected line through the centres of its
//! cells, an arrowhead halfway along each step showing its direction (it starts at the
//! bottom-right cell); each match sits on a black disc that shows its value (`M[i][j]`, the
//! match's place in the LCS, or `D[i][j]`, the edits before it); each hop onto another rank is
//! a thick red arrow over its step, and the legend lists the hops with what they carry (the
//! next cell and the path so far). Every text follows the run's problem; an edit run's legend
//! ends with its distance, its CIGAR and, for short inputs, the alignment's three lines.
//! Above [`MAX_CELL_TEXT_SIDE`] cells a side the cells carry no text.
//!
//! Every mark carries its meaning as a class and data attributes (`rect.cell` with `data-i`,
//! `data-j`, `data-d`, `data-pos`, `data-owner`; `line.message` with the trace's fields;
//! `path.walk-step` with `data-t`; `circle.match`; `path.hop` with its payload), so tests and
//! the classroom page ([`super::html`]) find marks by what they mean, not by how they are
//! drawn. The page embeds the same drawing ([`render_grid`]) and animates it.
//!
//! Pictures are drawn from what a run recorded (its values, messages and walk), or, for a
//! schedule, from the messages the schedule predicts. The document is written by hand (a
//! plotting library cannot attach classes to its marks), rendered into a string and written
//! atomically, so a failed run never leaves half a picture. Pictures are limited to
//! [`MAX_PICTURE_CELLS_SIDE`] cells a side: beyond that a cell would be too small to read.
//!
//! This module checks the picture, asks for its layout and draws the parts in order, each in
//! a module of its own: what is shown ([`super::picture`]), where it goes (`layout`), the
//! matrix (`grid`), the walk (`walk`) and the legend (`legend`), all written through
//! [`super::xml::SvgWriter`]; the title is drawn here.

use super::layout::{swap_note, Layout, LEGEND_PX, MARGIN, TITLE_PX};
use super::marks::defs;
use super::picture::{check, hops, message_arrows, Picture};
use super::style::{self, hex, HOP_COLOUR, TEXT_COLOUR};
use super::xml::{num, SvgWriter};
use super::{grid, legend, walk};
use crate::engines::diagonal::schedule::Schedule;
use crate::error::Error;

/// Largest number of rows or columns a picture is drawn for.
pub const MAX_PICTURE_CELLS_SIDE: usize = 64;

/// The refusal for a matrix too large to draw, or `None`.
pub fn too_large(s: &Schedule) -> Option<String> {
    let side = MAX_PICTURE_CELLS_SIDE;
    (s.rows() > side || s.cols() > side).then(|| {
        format!(
            "pictures are limited to {side} x {side} cells; this matrix is {} x {}",
            s.rows(),
            s.cols()
        )
    })
}

/// The picture of `p` (a diagonal schedule or run): with its title and legend when `full`,
/// else the grid alone.
pub(super) fn draw(p: &Picture, full: bool) -> Result<String, Error> {
    if let Some(problem) = too_large(p.schedule) {
        return Err(Error::Usage(problem));
    }
    check(p)?;
    let arrows = message_arrows(p)?;
    let hops = hops(p)?;
    let layout = Layout::new(p, full, &hops);
    let mut out = SvgWriter::new();
    out.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", layout.width.to_string()),
            ("height", layout.height.to_string()),
            ("viewBox", format!("0 0 {} {}", layout.width, layout.height)),
            ("font-family", style::FONT_FAMILY.into()),
            ("class", "lcs-picture".into()),
            ("data-rows", p.schedule.rows().to_string()),
            ("data-cols", p.schedule.cols().to_string()),
            ("data-ranks", p.schedule.ranks().to_string()),
            // The grid's geometry, from which the page finds the cell under the mouse.
            ("data-grid-x", num(layout.grid_x)),
            ("data-grid-y", num(layout.grid_y)),
            ("data-cell-w", num(layout.cell)),
            ("data-cell-h", num(layout.cell)),
            ("data-gap", "0".into()),
            ("data-detail", "cells".into()),
        ],
    );
    defs(&mut out, layout.cell, p.schedule.working_ranks());
    out.leaf(
        "rect",
        &[
            ("class", "background".into()),
            ("width", "100%".into()),
            ("height", "100%".into()),
            ("fill", "#ffffff".into()),
        ],
    );
    if full {
        title(&mut out, p);
    }
    grid::axes(&mut out, p, &layout);
    grid::diagonal_labels(&mut out, p, &layout, !full);
    grid::cells(&mut out, p, &layout);
    if !full {
        grid::diagonal_outlines(&mut out, p, &layout);
    }
    // Arrows, the walk and its hops under the cells' texts, whose halo keeps every value
    // readable: no mark covers a value.
    grid::messages(&mut out, &layout, &arrows);
    walk::steps(&mut out, p, &layout);
    walk::hop_arrows(&mut out, p, &layout, &hops);
    grid::cell_texts(&mut out, p, &layout);
    if full {
        legend::draw(&mut out, p, &layout);
    }
    out.close("svg");
    Ok(out.finish())
}

fn title(out: &mut SvgWriter, p: &Picture) {
    out.text(
        &[
            ("class", "title".into()),
            ("x", num(MARGIN)),
            ("y", num(MARGIN + TITLE_PX)),
            ("font-size", num(TITLE_PX)),
            ("font-weight", "bold".into()),
            ("fill", hex(TEXT_COLOUR)),
        ],
        &p.title,
    );
    if p.swapped {
        out.text(
            &[
                ("class", "swap-note".into()),
                ("x", num(MARGIN)),
                ("y", num(MARGIN + TITLE_PX + 24.0)),
                ("font-size", num(LEGEND_PX)),
                ("fill", hex(HOP_COLOUR)),
            ],
            swap_note(p),
        );
    }
}
