//! The page's legend of a wave run: a swatch per rank, then what every mark of the wave's page
//! means, each key after a small sample of its mark, in the words of `shown::wave_words` that the
//! wave's picture uses too.

use super::formulas;
use super::legend::{message_sample, sample, square, Legend};
use crate::render::drawn::style::{self, hex, rank_colour, rank_ink, DIAGONAL_COLOUR};
use crate::render::drawn::xml::escape;
use crate::render::shown::picture::Picture;
use crate::render::shown::wave_words::{
    cell_words, unreached_words, walk_words, MATCH_WORDS, SLIDE_WORDS,
};
use crate::render::shown::wavefront::Wavefronts;
use crate::render::shown::words;

/// The page's legend: a swatch per rank, then what every mark of the wave's page means.
pub(super) fn legend(p: &Picture, w: &Wavefronts) -> String {
    let mut legend = Legend::new(w.ranks, false);
    let ink = hex(rank_ink(0));
    let colour = hex(rank_colour(0));
    let diag = hex(DIAGONAL_COLOUR);
    legend.key(
        &square(&[("fill", &hex(style::PENDING_COLOUR)), ("stroke", "none")]),
        "grey cell: not reached yet at this step; a coloured cell was reached by the rank that \
         owned its diagonal at that step",
    );
    legend.key(
        &square(&[("fill", "#ffffff"), ("stroke", "#b0b0b0")]),
        &escape(&unreached_words(w)),
    );
    legend.key(
        &sample(&[
            (
                "path",
                &[
                    ("d", "M2,16 L12,8 L22,4 L32,2"),
                    ("fill", "none"),
                    ("stroke", &diag),
                    ("stroke-width", "3"),
                ],
                "",
            ),
            (
                "circle",
                &[
                    ("cx", "12"),
                    ("cy", "8"),
                    ("r", "4"),
                    ("fill", &colour),
                    ("stroke", &ink),
                    ("stroke-width", "2"),
                ],
                "",
            ),
        ]),
        "the front of this step: through the furthest point <code>F[s][k]</code> of every \
         diagonal <code>k = j − i</code> it reaches, a point each in its owner's colour",
    );
    legend.key(
        &sample(&[(
            "line",
            &[
                ("x1", "6"),
                ("y1", "16"),
                ("x2", "26"),
                ("y2", "2"),
                ("stroke", &ink),
                ("stroke-width", "3"),
                ("stroke-linecap", "round"),
            ],
            "",
        )]),
        &formulas::html(SLIDE_WORDS),
    );
    legend.key(
        &message_sample(&ink),
        "halo message, in the sender's ink, in the lane under the grid: after each exchange \
         step (every step, unless --halo-steps asks for blocks) every rank sends each \
         neighbour one message (a header of 16 bytes, then 4 bytes per value: \
         the furthest rows the neighbour reads next), empty when it has nothing to pass",
    );
    legend.key(
        "",
        &format!(
            "{}; shown in the cell wherever the cell has room (else hover over it)",
            formulas::html(cell_words(p.problem))
        ),
    );
    legend.key(
        "",
        &format!(
            "traceback walk {}; a disc on a match: {}; a hop: {}",
            formulas::html(&walk_words(p.problem, p.swapped)),
            formulas::html(MATCH_WORDS),
            formulas::html(words::hop(p.problem))
        ),
    );
    legend.key("", &formulas::html(words::end(p.problem)));
    legend.finish("reached", "its diagonal, its step and its rank")
}
