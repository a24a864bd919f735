//! The projector's legend: one line above the grid, while the side panel and its full legend
//! are folded away: a swatch per working rank, then the marks of a step (its cells' outline, a
//! message, the cell it explains and the cells that cell reads), each after its sample as the
//! side panel's legend draws it.

use std::fmt::Write as _;

use super::legend::{message_sample, square};
use crate::render::drawn::style::{self, hex, rank_colour, RANK_COLOURS};
use crate::render::shown::picture::Picture;

/// The projector's one-line legend of `p`'s page.
pub(super) fn line(p: &Picture) -> String {
    let ranks = match (p.wave, p.bands) {
        (Some(w), _) => w.ranks,
        (None, Some(pipe)) => pipe.active_ranks(),
        (None, None) => p.schedule.working_ranks(),
    };
    let mut out = String::from("<span class=\"key-ranks\">");
    for k in 0..ranks.min(RANK_COLOURS) {
        let _ = write!(
            out,
            "<span class=\"rank-tag\" style=\"background:{}\">p{k}</span> ",
            hex(rank_colour(k))
        );
    }
    if ranks > RANK_COLOURS {
        out.push_str("\u{2026} ");
    }
    out.push_str("own the cells</span>");
    let outline = square(&[
        ("fill", "none"),
        ("stroke", &hex(style::DIAGONAL_COLOUR)),
        ("stroke-width", "3"),
    ]);
    let (unit, message) = match (p.wave.is_some(), p.bands.is_some()) {
        (true, _) => (
            "the step's front",
            "a halo message, in its lane under the grid",
        ),
        (false, true) => ("the stage's batches", "a batch's carries, to the next band"),
        (false, false) => (
            "the step's diagonal",
            "a message, in its sender's ink; its receiver ringed",
        ),
    };
    let _ = write!(
        out,
        " <span>{outline}{unit}</span> <span>{}{message}</span> <span>{}a cell and, dashed, \
         what it reads</span>",
        message_sample(&hex(style::rank_ink(0))),
        square(&[
            ("fill", "none"),
            ("stroke", &hex(style::INPUT_COLOUR)),
            ("stroke-width", "3"),
            ("stroke-dasharray", "4 2"),
        ]),
    );
    out
}
