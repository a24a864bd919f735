//! The SVG picture of a diagonal schedule or run: the ownership grid in its owners' colours, the
//! boundary messages as arrows from the sending cell into the receiver's, and, for a solved matrix,
//! every cell's value and the traceback walk with its hops. The text view answers "who computes
//! which cell"; a picture also shows *where the messages go*, which is what a class needs to see to
//! believe the message count.
//!
//! Pictures are drawn from what a run recorded (its values, messages and walk), or, for a schedule,
//! from the messages the schedule predicts, and are limited to [`MAX_PICTURE_CELLS_SIDE`] cells a
//! side (beyond, a cell would be too small to read). Each message is an arrow a cell long in its
//! sender's ink, drawn under the cells' texts; diagonals are numbered along the top and right
//! edges. This module checks the picture, asks for its layout and draws the parts in order, each
//! in a module of its own: what is shown ([`crate::render::shown::picture`]), where it goes
//! (`layout`, with the legend's keys from `legend_keys`), the matrix (`grid`), the walk (`walk`),
//! the legend (`legend`) and the title (`title`). The marks and their classes:
//! `docs/classroom.md#the-pictures-marks-and-the-pages-data`.

use super::layout::Layout;
use super::marks::{background, defs, root};
use super::xml::SvgWriter;
use super::{grid, legend, legend_keys, title, walk};
use crate::engines::diagonal::schedule::Schedule;
use crate::error::Error;
use crate::render::shown::hops::hops;
use crate::render::shown::picture::{check, message_arrows, Picture};

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
    let layout = Layout::new(p, full, &|cell_text| {
        legend_keys::diagonal(p, cell_text, &hops)
    });
    let mut out = SvgWriter::new();
    root(
        &mut out,
        (layout.width, layout.height),
        "lcs-picture",
        (p.schedule.rows(), p.schedule.cols(), p.schedule.ranks()),
        &layout.root_attributes(),
    );
    defs(&mut out, layout.cell, p.schedule.working_ranks());
    background(&mut out);
    if full {
        title::draw(&mut out, p);
    }
    grid::axes(&mut out, p, &layout, !full);
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
