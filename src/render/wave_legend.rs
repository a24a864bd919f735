//! What a wave run's picture and page say about their marks: the number in a cell (its cost),
//! the cells never reached, a slide, the walk on costs and a match's disc, the picture's
//! legend keys and counts, and the page's legend with a small sample of each mark. The wave's
//! picture (`wave_picture`) and the page (`html`) both read them here.

use std::fmt::Write as _;

use super::layout::Key;
use super::page_legend::{message_sample, sample};
use super::style::{self, hex, rank_colour, rank_ink, DIAGONAL_COLOUR, RANK_COLOURS};
use super::xml::escape;
use crate::render::shown::picture::{is_match, Picture};
use crate::render::shown::wavefront::Wavefronts;
use crate::render::shown::words;
use lcs_core::problem::Problem;

/// What the number in a cell is.
pub(super) fn cell_words(problem: Problem) -> &'static str {
    match problem {
        Problem::Edit => {
            "number in a cell: the score step that first reached it, its edit distance \
             `D[i][j]`: step `s` reaches every cell `(i, j)` with `F[s][j − i] ≥ i + 1`"
        }
        Problem::Lcs => {
            "number in a cell: the score step that first reached it, the indel distance \
             `E[i][j] = i + j + 2 − 2 M[i][j]` of x[0..=i] and y[0..=j] (`M` the LCS length): \
             step `s` reaches every cell `(i, j)` with `F[s][j − i] ≥ i + 1`"
        }
    }
}

/// What a white cell is.
pub(super) fn unreached_words(w: &Wavefronts) -> String {
    format!(
        "white cell: no score step reached it ({} of {} cells were): its cost is more than \
         the answer's {}, or a path through it would cost more than the bound {}",
        w.reached(),
        w.rows * w.cols,
        w.cost,
        w.bound
    )
}

/// What a slide is.
pub(super) const SLIDE_WORDS: &str = "slide, in its rank's ink: from the cell a step's edit \
     reached, along the matches that follow for free, to the diagonal's furthest point";

/// What the walk does, in the wave's terms.
pub(super) fn walk_words(problem: Problem, swapped: bool) -> String {
    match problem {
        Problem::Edit => words::walk(problem, swapped),
        Problem::Lcs => "from the bottom-right cell until it leaves the matrix: diagonally \
                         after a match, else up when `E[i−1][j] = E[i][j] − 1`, else left: \
                         the other engines' walk, whose `M[i−1][j] ≥ M[i][j−1]` is the same \
                         test"
            .into(),
    }
}

/// What a match's disc is.
pub(super) const MATCH_WORDS: &str = "`x[i] = y[j]`: a match of the path (a byte of the LCS, an \
     `=` of the alignment); its number is the cell's cost, the edits before it";

/// The picture's legend keys.
pub(super) fn legend_keys(
    p: &Picture,
    w: &Wavefronts,
    cell_text: bool,
    hops: usize,
) -> Vec<(Key, String)> {
    let mut keys = vec![
        (
            Key::Text,
            match cell_text {
                true => words::plain(cell_words(p.problem)),
                false => "cells carry no text above 40 a side; the colour is the rank".into(),
            },
        ),
        (
            Key::Text,
            "a cell's colour: the rank that owned its diagonal at the step that reached it".into(),
        ),
        (Key::Text, unreached_words(w)),
        (Key::Text, SLIDE_WORDS.into()),
    ];
    if !p.path.is_empty() {
        keys.push((
            Key::Walk,
            format!(
                "traceback walk ({} cells): {}",
                p.path.len(),
                words::plain(&walk_words(p.problem, p.swapped))
            ),
        ));
        let matches = p.path.iter().filter(|&&(i, j)| is_match(p, i, j)).count();
        keys.push((
            Key::Match,
            format!("match ({matches}): {}", words::plain(MATCH_WORDS)),
        ));
        keys.push((
            Key::Hop,
            format!("hop ({hops}): {}", words::plain(words::hop(p.problem))),
        ));
    }
    keys
}

/// The counts under the picture's legend: the steps, the halo messages per neighbouring pair.
pub fn legend_counts(w: &Wavefronts, boundary: u64, predicted: u64) -> Vec<String> {
    let mut out = vec![
        format!(
            "score steps 0..{}: the answer's cost {}, the bound {}",
            w.cost, w.cost, w.bound
        ),
        format!(
            "halo messages: {boundary} (predicted {predicted}), one each way between \
             neighbours at every step"
        ),
    ];
    for r in 0..w.ranks.saturating_sub(1) {
        out.push(format!(
            "p{r} \u{2192} p{}: {}, p{} \u{2192} p{r}: {}",
            r + 1,
            w.between(r, r + 1),
            r + 1,
            w.between(r + 1, r)
        ));
    }
    out
}

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
        &words::html(SLIDE_WORDS),
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
            words::html(cell_words(p.problem))
        ),
    );
    key(
        String::new(),
        &format!(
            "traceback walk {}; a disc on a match: {}; a hop: {}",
            words::html(&walk_words(p.problem, p.swapped)),
            words::html(MATCH_WORDS),
            words::html(words::hop(p.problem))
        ),
    );
    key(String::new(), &words::html(words::end(p.problem)));
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
