//! What a wave run's legends say about its marks: the number in a cell (its cost), the cells
//! never reached, a slide, the walk on costs and a match's disc, and the counts under the
//! picture's legend. The wave's picture and its page both read them here, so that the two never
//! tell a class different things.

use super::wavefront::Wavefronts;
use super::words;
use lcs_core::problem::Problem;

/// What the number in a cell is.
pub(in crate::render) fn cell_words(problem: Problem) -> &'static str {
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
pub(in crate::render) fn unreached_words(w: &Wavefronts) -> String {
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
pub(in crate::render) const SLIDE_WORDS: &str =
    "slide, in its rank's ink: from the cell a step's edit reached, along the matches that \
     follow for free, to the diagonal's furthest point";

/// What the walk does, in the wave's terms.
pub(in crate::render) fn walk_words(problem: Problem, swapped: bool) -> String {
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
pub(in crate::render) const MATCH_WORDS: &str =
    "`x[i] = y[j]`: a match of the path (a byte of the LCS, an `=` of the alignment); its \
     number is the cell's cost, the edits before it";

/// The counts under the picture's legend: the steps, the halo messages per neighbouring pair.
pub fn legend_counts(w: &Wavefronts, boundary: u64, predicted: u64) -> Vec<String> {
    let mut out = vec![
        format!(
            "score steps 0..{}: the answer's cost {}, the bound {}",
            w.cost, w.cost, w.bound
        ),
        format!(
            "halo messages: {boundary} (predicted {predicted}), one each way between \
             neighbours {}",
            w.exchange_words()
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
