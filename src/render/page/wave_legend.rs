//! The page's legend of a wave run: a swatch per rank, then what every mark of the wave's page
//! means, each key after a small sample of its mark, in the words of `shown::wave_words` that the
//! wave's picture uses too.

use std::fmt::Write as _;

use super::formulas;
use super::legend::{message_sample, sample};
use crate::render::drawn::style::{
    self, hex, rank_colour, rank_ink, DIAGONAL_COLOUR, RANK_COLOURS,
};
use crate::render::drawn::xml::escape;
use crate::render::shown::picture::Picture;
use crate::render::shown::wave_words::{
    cell_words, unreached_words, walk_words, MATCH_WORDS, SLIDE_WORDS,
};
use crate::render::shown::wavefront::Wavefronts;
use crate::render::shown::words;

/// The page's legend: a swatch per rank, then what every mark of the wave's page means.
pub(super) fn page_legend(p: &Picture, w: &Wavefronts) -> String {
    let mut out = String::from("<ul class=\"ranks\">");
    for k in 0..w.ranks {
        let _ = write!(
            out,
            "<li><span class=\"swatch\" style=\"background-color:{}\"></span>p{k}</li>",
            hex(rank_colour(k % RANK_COLOURS))
        );
    }
    out.push_str("</ul>\n<ul class=\"keys\">\n");
    let ink = hex(rank_ink(0));
    let colour = hex(rank_colour(0));
    let diag = hex(DIAGONAL_COLOUR);
    let mut key = |sample_svg: String, text: &str| {
        let _ = writeln!(out, "<li>{sample_svg}<span>{text}</span></li>");
    };
    let square = |fill: &str, stroke: &str| {
        sample(&[(
            "rect",
            &[
                ("x", "8"),
                ("y", "1"),
                ("width", "16"),
                ("height", "16"),
                ("fill", fill),
                ("stroke", stroke),
            ],
            "",
        )])
    };
    key(
        square(&hex(style::PENDING_COLOUR), "none"),
        "grey cell: not reached yet at this step; a coloured cell was reached by the rank that \
         owned its diagonal at that step",
    );
    key(square("#ffffff", "#b0b0b0"), &escape(&unreached_words(w)));
    key(
        sample(&[
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
    key(
        sample(&[(
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
    key(
        message_sample(&ink),
        "halo message, in the sender's ink, in the lane under the grid: after each step every \
         rank sends each neighbour one message (a header of 16 bytes, then 4 bytes per value: \
         the furthest rows the neighbour reads next), empty when it has nothing to pass",
    );
    key(
        String::new(),
        &format!(
            "{}; shown in the cell wherever the cell has room (else hover over it)",
            formulas::html(cell_words(p.problem))
        ),
    );
    key(
        String::new(),
        &format!(
            "traceback walk {}; a disc on a match: {}; a hop: {}",
            formulas::html(&walk_words(p.problem, p.swapped)),
            formulas::html(MATCH_WORDS),
            formulas::html(words::hop(p.problem))
        ),
    );
    key(String::new(), &formulas::html(words::end(p.problem)));
    key(
        String::new(),
        "counters: cells each rank has reached, and messages it has sent and received, up to \
         this step (every kind)",
    );
    key(
        String::new(),
        "keys: &#x2190; &#x2192; step, space plays or pauses, Home and End jump, p projector, \
         s the side panel; hover over a cell for its diagonal, its step and its rank",
    );
    out.push_str("</ul>\n");
    out
}
