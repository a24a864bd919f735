//! Where everything of a classroom picture goes: its [`Layout`] (the cell size, the grid's corner,
//! the axes, how often an index or a diagonal is numbered, the picture's size) and the lines of its
//! legend (the keys `legend_keys` lists, then the alignment and the picture's own lines), wrapped
//! to its width by the text-width estimate of [`super::style`]. The drawings only read positions
//! from here, so a picture's geometry is decided in one place.

use super::style;
use super::xml::num;
use crate::render::shown::picture::Picture;
use lcs_core::alignment::shorten;
use lcs_core::problem::Problem;

/// Smallest cell of a picture (`--svg`) that carries text (a value or an owner).
const MIN_TEXT_CELL: f64 = 18.0;

/// Largest number of rows or columns whose cells carry text in a picture (`--svg`): its cells
/// are then at least `MIN_TEXT_CELL` wide. The page's cells always carry it, and the page
/// shows it wherever the window leaves a cell room enough.
pub const MAX_CELL_TEXT_SIDE: usize = 40;

/// Columns of the alignment per block of three lines in the legend.
const VIEW_COLUMNS: usize = 44;

/// Estimated width of `text` at `px`.
pub(super) fn text_width(text: &str, px: f64) -> f64 {
    style::text_width(text, px) as f64
}

/// `text` cut into lines of at most `width` pixels at `px`, at spaces.
pub(super) fn wrap(text: &str, px: f64, width: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if text_width(&candidate, px) > width && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
            line = word.to_owned();
        } else {
            line = candidate;
        }
    }
    lines.push(line);
    lines
}

pub(super) const MARGIN: f64 = 20.0;
pub(super) const TITLE_PX: f64 = 18.0;
pub(super) const LEGEND_PX: f64 = 13.0;
/// The axes' titles: large enough to read from the back of a room once the page has scaled
/// the grid down.
pub(super) const AXIS_PX: f64 = 18.0;
pub(super) const LEGEND_LINE: f64 = 18.0;
const LEGEND_WIDTH: f64 = 400.0;
pub(super) const SWATCH: f64 = 15.0;

/// Where the walk's marks and the cells' texts go in a grid of cells, square (the diagonal
/// schedule's [`Layout`]) or not (the bands' grid).
pub(super) trait Geometry {
    /// The centre of cell `(i, j)`.
    fn centre(&self, i: usize, j: usize) -> (f64, f64);
    /// The size of a cell's text.
    fn value_px(&self) -> f64;
    /// The smaller side of a cell.
    fn side(&self) -> f64;
    fn walk_width(&self) -> f64;
    /// Radius of a match's disc.
    fn disc(&self) -> f64;
    fn hop_width(&self) -> f64;
    /// Whether cells are drawn one by one, large enough for an arrowhead per walk step and a
    /// disc per match (else the walk is a plain line through blocks).
    fn cell_marks(&self) -> bool {
        true
    }
}

impl Geometry for Layout {
    fn centre(&self, i: usize, j: usize) -> (f64, f64) {
        self.at(i, j, 0.0, 0.0)
    }

    fn value_px(&self) -> f64 {
        self.value_px
    }

    fn side(&self) -> f64 {
        self.cell
    }

    fn walk_width(&self) -> f64 {
        Layout::walk_width(self)
    }

    fn disc(&self) -> f64 {
        Layout::disc(self)
    }

    fn hop_width(&self) -> f64 {
        Layout::hop_width(self)
    }
}

/// Pixel positions and sizes of every part of the picture.
pub(super) struct Layout {
    pub(super) width: f64,
    pub(super) height: f64,
    /// Side of one cell.
    pub(super) cell: f64,
    /// Top-left corner of the grid.
    pub(super) grid_x: f64,
    pub(super) grid_y: f64,
    /// Cells carry text.
    pub(super) cell_text: bool,
    /// A message arrow's shaft: a quarter of a cell on the page, which shows one step's few
    /// arrows; half that in a picture, which shows them all.
    message_px: f64,
    pub(super) value_px: f64,
    pub(super) label_px: f64,
    pub(super) index_px: f64,
    /// Baselines and positions of the axis labels.
    pub(super) axis_title_y: f64,
    pub(super) top_index_y: f64,
    pub(super) top_bytes_y: f64,
    pub(super) axis_title_x: f64,
    pub(super) left_index_x: f64,
    pub(super) left_bytes_x: f64,
    /// Every how many rows, columns and diagonals a number is written.
    pub(super) index_every: usize,
    pub(super) diagonal_every: usize,
    pub(super) diagonal_px: f64,
    /// Where the legend starts (left, top) and its lines.
    pub(super) legend_x: f64,
    pub(super) legend_y: f64,
    pub(super) legend: Vec<LegendLine>,
}

/// What a legend line shows before its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Key {
    Message,
    Walk,
    Match,
    Hop,
    Diagonal,
    Text,
    Heading,
    /// A wrapped continuation of the line before.
    More,
    /// A line of the three-line alignment, in a monospace font.
    Mono,
}

pub(super) struct LegendLine {
    pub(super) key: Key,
    /// Where the text starts, right of the key's sample.
    pub(super) indent: f64,
    pub(super) text: String,
}

impl Layout {
    /// The layout of `p` whose legend explains the marks `keys` lists (given whether the cells
    /// carry text), then the alignment and the picture's own lines.
    pub(super) fn new(
        p: &Picture,
        full: bool,
        keys: &dyn Fn(bool) -> Vec<(Key, String)>,
    ) -> Layout {
        let s = p.schedule;
        let (m, n) = (s.rows(), s.cols());
        let side = m.max(n).max(1);
        // The page scales its grid to the window: drawn larger, its margins and their text are
        // a smaller share of it, and the text is sized for a projector once scaled down.
        let (cell, cell_text) = if full {
            let cell = (720.0 / side as f64).floor().clamp(11.0, 56.0);
            (cell, cell >= MIN_TEXT_CELL)
        } else {
            ((1000.0 / side as f64).floor().clamp(14.0, 64.0), true)
        };
        // A page's values fill two thirds of a cell: where a cell is 18 pixels on the screen,
        // its value is 12. Its margins' text is at least 17 units: 12 pixels where a projector
        // shows a 30 x 40 run at 1024 x 768.
        let (min_px, value_px) = if full {
            (11.0, (cell * 0.42).clamp(9.5, 18.0))
        } else {
            (17.0, (cell * 0.66).clamp(9.5, 30.0))
        };
        let label_px = (cell * 0.5).clamp(min_px, 22.0);
        let index_px = (cell * 0.4).clamp(min_px, 20.0);
        let diagonal_px = (cell * 0.36).clamp(min_px, 18.0);
        let every = |needed: f64| ((needed / cell).ceil() as usize).max(1);
        let index_every = every(text_width(&side.to_string(), index_px) + 4.0);
        let widest_d = format!("d={}", s.diagonals().saturating_sub(1));
        let diagonal_every = every(text_width(&widest_d, diagonal_px) + 6.0)
            .max(every(diagonal_px + 3.0))
            .max(index_every);

        // Vertical: title lines, axis title, indices, bytes, diagonal band, grid.
        let title_lines = if full { 1 + usize::from(p.swapped) } else { 0 };
        let top = if full { MARGIN } else { 6.0 };
        // Each row of text a line box (1.2 em) apart from the next, with room between: the
        // indices and bytes are centred on their y, the diagonals' numbers sit on theirs.
        let axis_title_y = top + title_lines as f64 * 26.0 + AXIS_PX;
        let top_index_y = axis_title_y + 0.3 * AXIS_PX + 4.0 + 0.6 * index_px;
        let last_row = if p.y.is_some() { label_px } else { index_px };
        let top_bytes_y = top_index_y
            + if p.y.is_some() {
                0.6 * index_px + 4.0 + 0.6 * label_px
            } else {
                0.0
            };
        let grid_y = top_bytes_y + 0.6 * last_row + 5.0 + 0.95 * diagonal_px + 4.0;

        // Horizontal: axis title (rotated), indices, bytes, grid, diagonal band.
        let axis_title_x = MARGIN + 8.0;
        let left_index_x = axis_title_x + AXIS_PX + text_width(&m.to_string(), index_px);
        let left_bytes_x = left_index_x + if p.x.is_some() { 8.0 + label_px } else { 0.0 };
        let grid_x = left_bytes_x + 8.0;
        let grid_right = grid_x + n as f64 * cell;
        let band_right = grid_right + 10.0 + text_width(&widest_d, diagonal_px);
        let grid_bottom = grid_y + m as f64 * cell;

        let legend_x = band_right + 28.0;
        // Beside the grid's top, below the title (and a swapped picture's note).
        let legend_y = axis_title_y;
        let legend = if full {
            legend_lines(p, keys(cell_text))
        } else {
            Vec::new()
        };
        let title_w = if full {
            MARGIN + text_width(&p.title, TITLE_PX)
        } else {
            0.0
        };
        let (width, height) = if full {
            let legend_h = legend_y + legend_height(p, &legend) + MARGIN;
            (
                (legend_x + LEGEND_WIDTH + MARGIN).max(title_w + MARGIN),
                (grid_bottom + MARGIN).max(legend_h),
            )
        } else {
            (band_right + MARGIN, grid_bottom + 4.0)
        };
        let message_px = if full {
            (cell * 0.12).clamp(2.5, 6.0)
        } else {
            (cell * 0.24).clamp(3.0, 10.0)
        };
        Layout {
            width: width.ceil(),
            height: height.ceil(),
            cell,
            grid_x,
            grid_y,
            cell_text,
            message_px,
            value_px,
            label_px,
            index_px,
            axis_title_y,
            top_index_y,
            top_bytes_y,
            axis_title_x,
            left_index_x,
            left_bytes_x,
            index_every,
            diagonal_every,
            diagonal_px,
            legend_x,
            legend_y,
            legend,
        }
    }

    /// The grid's geometry, as the page reads it from the picture's root.
    pub(super) fn root_attributes(&self) -> Vec<(&'static str, String)> {
        vec![
            ("data-grid-x", num(self.grid_x)),
            ("data-grid-y", num(self.grid_y)),
            ("data-cell-w", num(self.cell)),
            ("data-cell-h", num(self.cell)),
            ("data-gap", "0".into()),
            ("data-detail", "cells".into()),
        ]
    }

    /// Top-left corner of cell `(i, j)`.
    pub(super) fn corner(&self, i: usize, j: usize) -> (f64, f64) {
        (
            self.grid_x + j as f64 * self.cell,
            self.grid_y + i as f64 * self.cell,
        )
    }

    /// The point `(dx, dy)` cells from the centre of cell `(i, j)`.
    pub(super) fn at(&self, i: usize, j: usize, dx: f64, dy: f64) -> (f64, f64) {
        let (x, y) = self.corner(i, j);
        (x + self.cell * (0.5 + dx), y + self.cell * (0.5 + dy))
    }

    /// Radius of a match's disc.
    pub(super) fn disc(&self) -> f64 {
        if self.cell_text {
            (self.value_px * 0.72).clamp(self.cell * 0.36, self.cell * 0.47)
        } else {
            self.cell * 0.3
        }
    }

    pub(super) fn walk_width(&self) -> f64 {
        (self.cell * 0.07).clamp(1.5, 3.0)
    }

    pub(super) fn hop_width(&self) -> f64 {
        (self.cell * 0.16).clamp(4.0, 8.0)
    }

    /// A message's shaft: thick enough to read from the back of a room, in its sender's ink
    /// over a white edge.
    pub(super) fn message_width(&self) -> f64 {
        self.message_px
    }
}

/// The legend's lines for `p`: its `keys`, then the alignment and the caller's lines.
fn legend_lines(p: &Picture, keys: Vec<(Key, String)>) -> Vec<LegendLine> {
    let mut lines = Vec::new();
    for (key, text) in keys {
        let indent = if key == Key::Text { 0.0 } else { 40.0 };
        for (k, line) in wrap(&text, LEGEND_PX, LEGEND_WIDTH - indent)
            .into_iter()
            .enumerate()
        {
            lines.push(LegendLine {
                key: if k == 0 { key } else { Key::More },
                indent,
                text: line,
            });
        }
        if key != Key::Text {
            lines.push(LegendLine {
                key: Key::More,
                indent,
                text: String::new(),
            });
        }
    }
    if let (Problem::Edit, Some(answer)) = (p.problem, p.answer) {
        for (key, text) in [(Key::More, ""), (Key::Heading, "alignment")] {
            lines.push(LegendLine {
                key,
                indent: 0.0,
                text: text.into(),
            });
        }
        let texts = [
            format!("edit distance {}", answer.distance.unwrap_or(answer.edits)),
            format!("CIGAR {}", shorten(&answer.cigar, 2 * VIEW_COLUMNS)),
            "the file's first sequence is the query: I a byte of it alone, D a byte of the \
             second alone"
                .into(),
        ];
        for text in texts {
            for line in wrap(&text, LEGEND_PX, LEGEND_WIDTH) {
                lines.push(LegendLine {
                    key: Key::Text,
                    indent: 0.0,
                    text: line,
                });
            }
        }
        for (k, block) in view_blocks(answer.view.as_ref()).into_iter().enumerate() {
            if k > 0 {
                lines.push(LegendLine {
                    key: Key::More,
                    indent: 0.0,
                    text: String::new(),
                });
            }
            for text in block {
                lines.push(LegendLine {
                    key: Key::Mono,
                    indent: 0.0,
                    text,
                });
            }
        }
    }
    if !p.legend.is_empty() {
        for (key, text) in [(Key::More, ""), (Key::Heading, "counts")] {
            lines.push(LegendLine {
                key,
                indent: 0.0,
                text: text.into(),
            });
        }
        for l in &p.legend {
            for line in wrap(l, LEGEND_PX, LEGEND_WIDTH) {
                lines.push(LegendLine {
                    key: Key::Text,
                    indent: 0.0,
                    text: line,
                });
            }
        }
    }
    lines
}

/// The three-line view cut into blocks of [`VIEW_COLUMNS`] columns.
fn view_blocks(view: Option<&[String; 3]>) -> Vec<[String; 3]> {
    let Some(view) = view else {
        return Vec::new();
    };
    let rows: Vec<Vec<char>> = view.iter().map(|l| l.chars().collect()).collect();
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    (0..columns)
        .step_by(VIEW_COLUMNS)
        .map(|at| {
            let cut = |r: &Vec<char>| r.iter().skip(at).take(VIEW_COLUMNS).collect::<String>();
            [cut(&rows[0]), cut(&rows[1]), cut(&rows[2])]
        })
        .collect()
}

/// What a swapped picture says about its rows.
pub(super) fn swap_note(p: &Picture) -> &'static str {
    if p.x.is_some() {
        "swapped: the file's first sequence is the longer, so it runs along the top (y) and \
         the second down the left (x)"
    } else {
        "swapped: --rows named the longer side; rows are the shorter side"
    }
}

/// Swatches per legend line and the legend's height.
pub(super) fn swatches_per_line() -> usize {
    let swatch_w = SWATCH + 8.0 + text_width("p00", LEGEND_PX) + 12.0;
    ((LEGEND_WIDTH - text_width("ranks:", LEGEND_PX) - 10.0) / swatch_w).max(1.0) as usize
}

fn legend_height(p: &Picture, lines: &[LegendLine]) -> f64 {
    let swatches = p.schedule.working_ranks();
    let swatch_lines = swatches.div_ceil(swatches_per_line()).max(1);
    (swatch_lines as f64 + 0.6 + lines.len() as f64) * LEGEND_LINE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_text_wraps_at_spaces_within_its_width() {
        let width = text_width("one two three", LEGEND_PX);
        assert_eq!(
            wrap("one two three four five six", LEGEND_PX, width),
            ["one two three", "four five six"]
        );
        // A word wider than the line keeps a line of its own, whole.
        let narrow = text_width("abc", LEGEND_PX);
        assert_eq!(
            wrap("a abcdefghijklmnop b", LEGEND_PX, narrow),
            ["a", "abcdefghijklmnop", "b"]
        );
    }
}
