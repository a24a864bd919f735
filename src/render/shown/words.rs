//! What the legends say about a run's problem: the value in a cell, the walk's rule, a match,
//! what a hop carries and how the walk ends. The picture's legend (`drawn::legend_keys`) and the
//! page's (`page::legend`) both read them here, so that the two never tell a class different
//! things; the page's script (`page/*.js`) follows the same wording step by step.
//!
//! Formulas are marked with backticks: [`plain`] drops them (the SVG's text); the page escapes
//! the text and sets them in `<code>` (`page::formulas`).

use lcs_core::alignment::Op;
use lcs_core::problem::{Move, Problem};

/// The number in a cell.
pub(in crate::render) fn cell(problem: Problem) -> &'static str {
    match problem {
        Problem::Lcs => {
            "number in a cell: `M[i][j]`, the length of an LCS of x[0..=i] and y[0..=j]"
        }
        Problem::Edit => {
            "number in a cell: `D[i][j]`, the edit distance of x[0..=i] and y[0..=j]: \
             `D[i−1][j−1]` on a match, else `1 + min(D[i−1][j−1], D[i−1][j], D[i][j−1])`, \
             with `D[−1][j] = j + 1` and `D[i][−1] = i + 1` outside the matrix"
        }
    }
}

/// The CIGAR letter of a walk's `step`: `swapped`, the rows are the file's second sequence.
pub(in crate::render) fn letter(step: Move, swapped: bool) -> char {
    Op::of_move(step, swapped).letter()
}

/// The walk's rule, after "traceback walk".
pub(in crate::render) fn walk(problem: Problem, swapped: bool) -> String {
    match problem {
        Problem::Lcs => "from the bottom-right cell until it leaves the matrix: diagonally \
                         after a match, else up when `M[i−1][j] ≥ M[i][j−1]`, else left"
            .into(),
        Problem::Edit => format!(
            "from the bottom-right cell until it leaves the matrix: diagonally at a match \
             (`=`); else diagonally when `D[i−1][j−1] = D[i][j] − 1`, a substitution (`X`); \
             else up when `D[i−1][j] = D[i][j] − 1`, x[i] deleted (`{}`); else left, y[j] \
             inserted (`{}`)",
            letter(Move::Up, swapped),
            letter(Move::Left, swapped)
        ),
    }
}

/// A match's disc, after "match".
pub(in crate::render) fn matched(problem: Problem) -> &'static str {
    match problem {
        Problem::Lcs => {
            "`x[i] = y[j]`: a byte of the LCS; its `M[i][j] = k` is its place in the LCS, \
             counted from the left"
        }
        Problem::Edit => {
            "`x[i] = y[j]`: an `=` of the alignment; its `D[i][j] = k` counts the edits \
             before it (a diagonal step without a disc is a substitution)"
        }
    }
}

/// What a hop is and carries, after "hop".
pub(in crate::render) fn hop(problem: Problem) -> &'static str {
    match problem {
        Problem::Lcs => {
            "the walk moves onto another rank's cell: one traceback message carrying the next \
             cell (16 bytes), then the path so far: its number of moves (8 bytes) and the \
             moves, four to a byte; the path's matches are the LCS found so far"
        }
        Problem::Edit => {
            "the walk moves onto another rank's cell: one traceback message carrying the next \
             cell (16 bytes), then the path so far: its number of moves (8 bytes) and the \
             moves, four to a byte; the path is the end of the alignment, shown as its CIGAR"
        }
    }
}

/// How the walk ends: what the control messages are.
pub(in crate::render) fn end(problem: Problem) -> &'static str {
    match problem {
        Problem::Lcs => {
            "last step: the rank where the walk ended sends the path, whose matches are the \
             LCS, to p0 (unless it is p0) and p0 tells every other rank that the walk is \
             over: the control messages"
        }
        Problem::Edit => {
            "last step: the rank where the walk ended sends the path, the alignment, to p0 \
             (unless it is p0) and p0 tells every other rank that the walk is over: the \
             control messages; its moves other than matches are the edit distance"
        }
    }
}

/// What the page shows beside the walk as it grows.
pub(in crate::render) fn found_label(problem: Problem) -> &'static str {
    match problem {
        Problem::Lcs => "LCS so far:",
        Problem::Edit => "alignment so far (CIGAR):",
    }
}

/// `text` for an SVG: the backticks dropped.
pub(in crate::render) fn plain(text: &str) -> String {
    text.replace('`', "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_plain_in_the_picture() {
        let text = "up when `M[i−1][j] ≥ M[i][j−1]` & <else> left";
        assert_eq!(plain(text), "up when M[i−1][j] ≥ M[i][j−1] & <else> left");
    }

    #[test]
    fn the_edit_walk_names_its_gaps_in_the_files_order() {
        assert!(walk(Problem::Edit, false).contains("deleted (`I`)"));
        assert!(walk(Problem::Edit, true).contains("deleted (`D`)"));
        for problem in [Problem::Lcs, Problem::Edit] {
            for text in [cell(problem), matched(problem), hop(problem), end(problem)] {
                assert_eq!(text.matches('`').count() % 2, 0, "{text}");
                assert_eq!(text.contains("LCS"), problem == Problem::Lcs, "{text}");
            }
        }
    }
}
