//! The title above a classroom picture's grid, bold at [`TITLE_PX`], and under it, for a
//! swapped picture, what the swap means (`layout::swap_note`): drawn alike by the diagonal
//! engine's picture, the wave's and, without the note, the bands engine's.

use super::layout::{swap_note, LEGEND_PX, MARGIN, TITLE_PX};
use super::style::{hex, HOP_COLOUR, TEXT_COLOUR};
use super::xml::{num, SvgWriter};
use crate::render::shown::picture::Picture;

/// The picture's title, at the top-left margin.
pub(super) fn line(out: &mut SvgWriter, p: &Picture) {
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
}

/// The title, and under it a swapped picture's note (the layout keeps a line for it).
pub(super) fn draw(out: &mut SvgWriter, p: &Picture) {
    line(out, p);
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
