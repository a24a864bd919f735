//! The picture of the bands engine's layout to scale (`schedule --engine bands --svg`, for bands
//! too many to draw by [`super::bands_picture`]): each rank's band of columns in its colour, the
//! 64-column words, the batches of rows, and one arrow per boundary message, from a band's last
//! column into the next band. Any size draws, but the arrows are one per message, so the picture
//! is refused above [`MAX_MESSAGES`] of them (a larger `--batch` sends fewer). Its geometry is
//! decided in one place (`Scale`) and its parts drawn in order, each by a function of its own,
//! with the classroom pictures' title and text sizes, arrowheads and colours. Marks: `rect.band`,
//! `line.message` (`data-batch`, `data-from`, `data-to`), counted by the tests from the parsed
//! document.

use std::fmt::Write as _;
use std::path::Path;

use super::layout::{LEGEND_PX, TITLE_PX};
use super::marks::arrowhead;
use super::style::{hex, rank_colour, FAINT_TEXT_COLOUR, FONT_FAMILY, MESSAGE_COLOUR, TEXT_COLOUR};
use super::xml::{num, SvgWriter};
use crate::engines::bands::BandPlan;
use crate::error::Error;
use crate::render::shown::lesson::plural;

/// Most messages a bands picture draws, one arrow each.
pub const MAX_MESSAGES: u64 = 4096;

/// The picture's own margin, wider than the classroom pictures' (`layout::MARGIN`).
const MARGIN: f64 = 24.0;
/// Room for the matrix itself.
const MATRIX_WIDTH: f64 = 760.0;
const MATRIX_HEIGHT: f64 = 420.0;

/// Why the picture cannot be drawn, if it cannot.
pub fn too_large(plan: &BandPlan) -> Option<String> {
    (plan.predicted_messages() > MAX_MESSAGES).then(|| {
        format!(
            "--svg draws one arrow per message, up to {MAX_MESSAGES}; these bands send {} \
             (a larger --batch sends fewer)",
            plan.predicted_messages()
        )
    })
}

/// Draws `plan` and writes it to `path` atomically.
pub fn write_svg(path: &Path, plan: &BandPlan) -> Result<(), Error> {
    if let Some(problem) = too_large(plan) {
        return Err(Error::Usage(problem));
    }
    crate::export::write_atomic(path, render(plan).as_bytes())
}

/// Where everything of the picture goes: the matrix to scale, a column `col_px` wide and a row
/// `row_px` high (at most four columns' width, so that a tall matrix stays in proportion), its
/// corner, the legend below it and the picture's size.
struct Scale {
    col_px: f64,
    row_px: f64,
    /// Top-left corner of the matrix, and its size.
    gx: f64,
    gy: f64,
    grid_w: f64,
    grid_h: f64,
    legend_y: f64,
    width: f64,
    height: f64,
}

impl Scale {
    fn of(plan: &BandPlan) -> Scale {
        let (m, n, p) = (plan.rows(), plan.cols(), plan.active_ranks());
        let col_px = MATRIX_WIDTH / n.max(1) as f64;
        let row_px = (MATRIX_HEIGHT / m.max(1) as f64).min(col_px.max(2.0) * 4.0);
        let (grid_w, grid_h) = (col_px * n as f64, row_px * m as f64);
        let (gx, gy) = (MARGIN + 60.0, MARGIN + 90.0);
        let legend_y = gy + grid_h + 40.0;
        // A line per band, the ranks without one, and the three lines after.
        let legend_lines = p + 4;
        Scale {
            col_px,
            row_px,
            gx,
            gy,
            grid_w,
            grid_h,
            legend_y,
            width: (gx + grid_w + MARGIN).max(720.0),
            height: legend_y + legend_lines as f64 * 20.0 + MARGIN,
        }
    }

    /// The left edge of column `j`.
    fn x(&self, j: usize) -> f64 {
        self.gx + j as f64 * self.col_px
    }

    /// The top edge of row `i`.
    fn y(&self, i: usize) -> f64 {
        self.gy + i as f64 * self.row_px
    }
}

fn text(out: &mut SvgWriter, x: f64, y: f64, px: f64, anchor: &str, colour: &str, content: &str) {
    out.text(
        &[
            ("x", num(x)),
            ("y", num(y)),
            ("font-family", FONT_FAMILY.into()),
            ("font-size", num(px)),
            ("text-anchor", anchor.into()),
            ("fill", colour.into()),
        ],
        content,
    );
}

/// The picture as an SVG document.
pub fn render(plan: &BandPlan) -> String {
    let s = Scale::of(plan);
    let mut out = SvgWriter::new();
    open(&mut out, &s);
    title_and_axes(&mut out, plan, &s);
    bands(&mut out, plan, &s);
    edges(&mut out, plan, &s);
    messages(&mut out, plan, &s);
    legend(&mut out, plan, &s);
    out.close("svg");
    out.finish()
}

/// The root, the arrowhead of a message and the white ground.
fn open(out: &mut SvgWriter, s: &Scale) {
    out.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", num(s.width)),
            ("height", num(s.height)),
            ("viewBox", format!("0 0 {} {}", num(s.width), num(s.height))),
        ],
    );
    out.open("defs", &[]);
    arrowhead(
        out,
        &[
            ("id", "carry-head".into()),
            ("viewBox", "0 0 10 10".into()),
            ("refX", "10".into()),
            ("refY", "5".into()),
            ("markerWidth", "7".into()),
            ("markerHeight", "7".into()),
            ("orient", "auto".into()),
        ],
        &[("fill", hex(MESSAGE_COLOUR))],
    );
    out.close("defs");
    out.leaf(
        "rect",
        &[
            ("width", num(s.width)),
            ("height", num(s.height)),
            ("fill", "#ffffff".into()),
        ],
    );
}

/// The title, with the count of messages, and the matrix's axes: its words of columns above, its
/// first and last column and row numbered.
fn title_and_axes(out: &mut SvgWriter, plan: &BandPlan, s: &Scale) {
    let (m, n) = (plan.rows(), plan.cols());
    let (text_colour, faint) = (hex(TEXT_COLOUR), hex(FAINT_TEXT_COLOUR));
    let title = format!(
        "bands: {m} x {n} on {} ranks, batches of {} rows: {} boundary messages",
        plan.ranks(),
        plan.batch(),
        plan.predicted_messages()
    );
    text(
        out,
        MARGIN,
        MARGIN + TITLE_PX,
        TITLE_PX,
        "start",
        &text_colour,
        &title,
    );
    let columns = format!(
        "columns j: {} (y, the longer sequence)",
        plural(plan.total_words() as u64, "word of 64", "words of 64")
    );
    let (gx, gy) = (s.gx, s.gy);
    text(out, gx, gy - 24.0, LEGEND_PX, "start", &faint, &columns);
    text(out, gx, gy - 8.0, LEGEND_PX, "middle", &faint, "0");
    let right = gx + s.grid_w;
    text(
        out,
        right,
        gy - 8.0,
        LEGEND_PX,
        "middle",
        &faint,
        &n.to_string(),
    );
    text(out, gx - 8.0, gy + LEGEND_PX, LEGEND_PX, "end", &faint, "0");
    let bottom = gy + s.grid_h;
    text(
        out,
        gx - 8.0,
        bottom,
        LEGEND_PX,
        "end",
        &faint,
        &m.to_string(),
    );
    let middle = gy + s.grid_h / 2.0;
    text(out, MARGIN, middle, LEGEND_PX, "start", &faint, "rows i");
}

/// Each rank's band of columns in its colour, named.
fn bands(out: &mut SvgWriter, plan: &BandPlan, s: &Scale) {
    out.group("bands");
    for k in 0..plan.active_ranks() {
        let cols = plan.cols_of(k);
        let words = plan.words(k);
        out.leaf(
            "rect",
            &[
                ("class", "band".into()),
                ("data-rank", k.to_string()),
                ("data-cols", format!("{}..{}", cols.start, cols.end)),
                ("data-words", format!("{}..{}", words.start, words.end)),
                ("x", num(s.x(cols.start))),
                ("y", num(s.gy)),
                ("width", num(cols.len() as f64 * s.col_px)),
                ("height", num(s.grid_h)),
                ("fill", hex(rank_colour(k))),
                ("stroke", "#ffffff".into()),
            ],
        );
        let middle = (s.x(cols.start) + s.x(cols.end)) / 2.0;
        let name = format!("p{k}");
        text(
            out,
            middle,
            s.gy + 16.0,
            LEGEND_PX,
            "middle",
            &hex(TEXT_COLOUR),
            &name,
        );
    }
    out.close("g");
}

/// Word edges and batch edges, when there are few enough to see.
fn edges(out: &mut SvgWriter, plan: &BandPlan, s: &Scale) {
    out.group("edges");
    if plan.total_words() <= 200 {
        for w in 1..plan.total_words() {
            let x = s.x(w * 64);
            out.leaf(
                "line",
                &[
                    ("class", "word".into()),
                    ("x1", num(x)),
                    ("y1", num(s.gy)),
                    ("x2", num(x)),
                    ("y2", num(s.gy + s.grid_h)),
                    ("stroke", "#ffffff".into()),
                    ("stroke-width", "0.6".into()),
                ],
            );
        }
    }
    if plan.batches() <= 200 {
        for b in 1..plan.batches() {
            let y = s.y(plan.batch_rows(b).start);
            out.leaf(
                "line",
                &[
                    ("class", "batch".into()),
                    ("data-batch", b.to_string()),
                    ("x1", num(s.gx)),
                    ("y1", num(y)),
                    ("x2", num(s.gx + s.grid_w)),
                    ("y2", num(y)),
                    ("stroke", hex(FAINT_TEXT_COLOUR)),
                    ("stroke-width", "0.8".into()),
                    ("stroke-dasharray", "4 3".into()),
                ],
            );
        }
    }
    out.close("g");
}

/// One arrow per message: batch b's carries, from band k's last column into band k + 1, in the
/// sender's colour over a black edge, each band edge named with its count above; when the
/// batches are thinner than an arrow, the arrows thin down and the edge says how many there are
/// instead of a solid comb.
fn messages(out: &mut SvgWriter, plan: &BandPlan, s: &Scale) {
    let dense = s.row_px * plan.batch() as f64 <= 6.0;
    let width = if dense { 1.0 } else { 3.0 };
    for k in plan.senders() {
        text(
            out,
            s.x(plan.cols_of(k).end),
            s.gy - 46.0,
            LEGEND_PX,
            "middle",
            &hex(TEXT_COLOUR),
            &format!("p{k} → p{}: {} messages", k + 1, plan.batches()),
        );
    }
    out.group("messages");
    for b in 0..plan.batches() {
        let rows = plan.batch_rows(b);
        let y = (s.y(rows.start) + s.y(rows.end)) / 2.0;
        for k in plan.senders() {
            let edge = s.x(plan.cols_of(k).end);
            let reach = (s.col_px * 24.0).clamp(8.0, 40.0);
            out.leaf(
                "line",
                &[
                    ("class", "message".into()),
                    ("data-batch", b.to_string()),
                    ("data-from", k.to_string()),
                    ("data-to", (k + 1).to_string()),
                    ("data-rows", format!("{}..{}", rows.start, rows.end)),
                    ("data-bytes", plan.message_bytes(b).to_string()),
                    ("x1", num(edge - reach)),
                    ("y1", num(y)),
                    ("x2", num(edge + reach)),
                    ("y2", num(y)),
                    ("stroke", hex(rank_colour(k))),
                    ("stroke-width", num(width)),
                    ("stroke-opacity", if dense { "0.6" } else { "1" }.into()),
                    (
                        "marker-end",
                        if dense { "none" } else { "url(#carry-head)" }.into(),
                    ),
                ],
            );
        }
    }
    out.close("g");
}

/// Under the matrix: a line per band after a swatch of its colour, the ranks without a band,
/// and what an arrow, the dashed and white lines and the count of messages are.
fn legend(out: &mut SvgWriter, plan: &BandPlan, s: &Scale) {
    let p = plan.active_ranks();
    let (text_colour, faint) = (hex(TEXT_COLOUR), hex(FAINT_TEXT_COLOUR));
    out.group("legend");
    let mut y = s.legend_y;
    for k in 0..p {
        let (cols, words) = (plan.cols_of(k), plan.words(k));
        out.leaf(
            "rect",
            &[
                ("x", num(MARGIN)),
                ("y", num(y - 11.0)),
                ("width", "14".into()),
                ("height", "14".into()),
                ("fill", hex(rank_colour(k))),
            ],
        );
        let mut line = format!(
            "p{k}: columns {}..{} ({})",
            cols.start,
            cols.end,
            plural(words.len() as u64, "word", "words")
        );
        if k + 1 < p {
            let _ = write!(line, ", sends p{} one message per batch", k + 1);
        }
        text(
            out,
            MARGIN + 22.0,
            y,
            LEGEND_PX,
            "start",
            &text_colour,
            &line,
        );
        y += 20.0;
    }
    if p < plan.ranks() {
        let line = format!(
            "p{}..p{}: no band (only {})",
            p,
            plan.ranks() - 1,
            plural(plan.total_words() as u64, "word", "words")
        );
        text(out, MARGIN + 22.0, y, LEGEND_PX, "start", &faint, &line);
        y += 20.0;
    }
    let lines = [
        format!(
            "arrow: one boundary message, the carries of a batch's {} rows into the next band's \
             first word ({} bytes)",
            plan.batch(),
            plan.batch().div_ceil(64) * 8
        ),
        "dashed lines: batch edges; white lines: 64-column words".to_owned(),
        format!(
            "predicted: (p - 1) x ceil(m / B) = {} x {} = {} messages",
            p.saturating_sub(1),
            plan.batches(),
            plan.predicted_messages()
        ),
    ];
    for line in lines {
        text(out, MARGIN, y, LEGEND_PX, "start", &text_colour, &line);
        y += 20.0;
    }
    out.close("g");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_arrow_per_predicted_message_and_a_band_per_rank() {
        for (m, n, ranks, batch) in [(200, 1000, 3, 64), (50, 300, 8, 7), (1, 64, 2, 1)] {
            let plan = BandPlan::new(m, n, ranks, batch);
            let svg = render(&plan);
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let class = |c: &str| {
                doc.descendants()
                    .filter(|e| e.attribute("class") == Some(c))
                    .collect::<Vec<_>>()
            };
            let arrows = class("message");
            assert_eq!(
                arrows.len() as u64,
                plan.predicted_messages(),
                "{m}x{n} P={ranks}"
            );
            for a in &arrows {
                let from: usize = a.attribute("data-from").unwrap().parse().unwrap();
                let to: usize = a.attribute("data-to").unwrap().parse().unwrap();
                assert_eq!(to, from + 1);
            }
            let bands = class("band");
            assert_eq!(bands.len(), plan.active_ranks());
            assert!(svg.contains(&format!("{} boundary messages", plan.predicted_messages())));
        }
        let many = BandPlan::new(100_000, 100_000, 8, 1);
        assert!(too_large(&many).is_some());
    }
}
