//! SVG pictures of a schedule: the ownership grid in colour, the boundary messages as arrows,
//! and, for a solved matrix, every cell's value and the traceback walk with its hops.
//!
//! The text view in the parent module answers "who computes which cell"; a picture also shows
//! *where the messages go*, which is what a class needs to see to believe the message count.
//! Each cell is filled with its owner's colour (Okabe–Ito's colour-blind-safe palette, tinted
//! light so the cell's text stays readable, cycling after eight ranks); the rows' sequence runs
//! down the left and the columns' along the top; every message is an arrow from the sending
//! cell into the neighbour cell its receiver owns; the walk's cells are outlined, its matches
//! set white on a black disc, and each hop onto another rank is a thick arrow of its own
//! colour.
//!
//! Drawing goes through `plotters` and its SVG backend (no fonts are needed: the backend writes
//! `<text>` elements and the viewer lays them out). The document is rendered into a string and
//! written atomically, so a failed run never leaves half a picture. Pictures are limited to
//! [`MAX_PICTURE_CELLS_SIDE`] cells a side: beyond that a cell would be too small to read.
//!
//! Every message arrow is one `<polyline>` (its shaft, with a filled triangle for its head)
//! stroked in [`MESSAGE_ARROW_COLOUR`], which no other polyline uses, so the arrows in a file
//! can be counted: the `<polyline` lines containing `stroke="#262626"` (the tests do).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::style::{self, font, rank_colour, FAINT_TEXT_COLOUR, TEXT_COLOUR};
use crate::error::Error;
use crate::input::Pair;
use crate::protocol::Kind;
use crate::report::Report;
use crate::schedule::Schedule;
use crate::trace::Event;

/// Largest number of rows or columns a picture is drawn for.
pub const MAX_PICTURE_CELLS_SIDE: usize = 64;

/// Stroke colour of the message arrows' shafts; nothing else is drawn in it.
pub const MESSAGE_ARROW_COLOUR: RGBColor = RGBColor(0x26, 0x26, 0x26);

/// The traceback walk's hops onto another rank (not in the ranks' palette).
const HOP_COLOUR: RGBColor = RGBColor(0xC8, 0x00, 0x64);

/// Outlines of the walk's cells and the discs under matches.
const PATH_COLOUR: RGBColor = RGBColor(0x00, 0x00, 0x00);

const MARGIN: i32 = 20;

/// Everything one picture shows. `x`, `y`, `values` and `path` are optional extras of a solved
/// run; `schedule --svg` draws the schedule alone with its predicted messages.
pub struct Picture<'a> {
    pub schedule: &'a Schedule,
    /// The rows' sequence, one byte per row (`None`: the left axis shows row indices only).
    pub x: Option<&'a [u8]>,
    /// The columns' sequence, one byte per column.
    pub y: Option<&'a [u8]>,
    /// `values[i][j]` = `M[i][j]`, written in each cell (`None`: each cell shows its owner).
    pub values: Option<&'a [Vec<u32>]>,
    /// Messages to draw; only fill-phase events with a cell are drawn (one arrow each).
    pub messages: &'a [Event],
    /// The traceback walk's cells in walk order (empty: no walk is drawn).
    pub path: &'a [(usize, usize)],
    pub title: String,
    /// Lines of text added under the legend's keys, such as counts.
    pub legend: Vec<String>,
}

impl<'a> Picture<'a> {
    /// A picture of a solved run, from what it recorded: the values its ranks computed, the
    /// messages they sent and the cells their walk visited.
    pub fn of_run(
        schedule: &'a Schedule,
        pair: &'a Pair,
        values: &'a [Vec<u32>],
        messages: &'a [Event],
        path: &'a [(usize, usize)],
        report: &Report,
    ) -> Picture<'a> {
        Picture {
            schedule,
            x: Some(&pair.x),
            y: Some(&pair.y),
            values: Some(values),
            messages,
            path,
            title: format!(
                "LCS of {} x {} on {} ranks: \"{}\" (length {})",
                report.rows,
                report.cols,
                report.ranks,
                report.lcs.display(),
                report.lcs_length
            ),
            legend: vec![
                format!(
                    "boundary messages: {} (predicted {})",
                    report.messages.boundary, report.predicted.boundary
                ),
                format!("traceback hops: {}", report.traceback_hops),
                format!("control messages: {}", report.messages.control),
            ],
        }
    }

    /// A picture of the schedule alone: ownership and `messages`, no sequences, values or
    /// walk (what `schedule --svg` draws).
    pub fn of_schedule(
        schedule: &'a Schedule,
        messages: &'a [Event],
        title: String,
        legend: Vec<String>,
    ) -> Picture<'a> {
        Picture {
            schedule,
            x: None,
            y: None,
            values: None,
            messages,
            path: &[],
            title,
            legend,
        }
    }
}

/// The boundary messages the schedule predicts, as the events a recorded run would log,
/// ordered by (diagonal, sender, row) like a trace: one per [`Schedule::boundary_messages`].
pub fn predicted_messages(schedule: &Schedule) -> Vec<Event> {
    schedule
        .boundary_messages()
        .map(|(d, from, send)| {
            let cell = (send.row, d - send.row);
            Event::new(
                Kind::Boundary,
                from,
                send.peer,
                Some(cell),
                crate::protocol::VALUE_BYTES,
            )
        })
        .collect()
}

/// Draws `picture` and writes it to `path` atomically.
///
/// Errors: [`Error::Usage`] when the matrix has more than [`MAX_PICTURE_CELLS_SIDE`] rows or
/// columns; [`Error::Internal`] when the picture's parts disagree with its schedule (a
/// sequence, value table, message or path cell of the wrong size); [`Error::Output`] when the
/// file cannot be written.
pub fn write_svg(path: &Path, picture: &Picture) -> Result<(), Error> {
    let svg = render(picture)?;
    crate::export::write_atomic(path, svg.as_bytes())
}

/// The picture as an SVG document.
pub fn render(picture: &Picture) -> Result<String, Error> {
    let s = picture.schedule;
    if s.rows() > MAX_PICTURE_CELLS_SIDE || s.cols() > MAX_PICTURE_CELLS_SIDE {
        return Err(Error::Usage(format!(
            "pictures are limited to {MAX_PICTURE_CELLS_SIDE} x {MAX_PICTURE_CELLS_SIDE} cells; \
             this matrix is {} x {}",
            s.rows(),
            s.cols()
        )));
    }
    check(picture)?;
    let arrows = message_arrows(picture)?;
    let layout = Layout::new(picture);
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (layout.width, layout.height)).into_drawing_area();
        draw(&root, picture, &layout, &arrows).map_err(drawing_failed)?;
        root.present().map_err(drawing_failed)?;
    }
    Ok(svg)
}

fn drawing_failed(e: DrawingAreaErrorKind<std::io::Error>) -> Error {
    Error::Internal(anyhow::anyhow!("drawing the picture failed: {e}"))
}

/// The sizes of the optional parts must match the schedule.
fn check(p: &Picture) -> Result<(), Error> {
    let (m, n) = (p.schedule.rows(), p.schedule.cols());
    let bad = |what: String| Err(Error::Internal(anyhow::anyhow!("picture: {what}")));
    if let Some(x) = p.x.filter(|x| x.len() != m) {
        return bad(format!("{} row bytes for {m} rows", x.len()));
    }
    if let Some(y) = p.y.filter(|y| y.len() != n) {
        return bad(format!("{} column bytes for {n} columns", y.len()));
    }
    if let Some(v) = p.values {
        if v.len() != m || v.iter().any(|row| row.len() != n) {
            return bad(format!("value table is not {m} x {n}"));
        }
    }
    if let Some(&(i, j)) = p.path.iter().find(|&&(i, j)| i >= m || j >= n) {
        return bad(format!("path cell ({i}, {j}) outside {m} x {n}"));
    }
    Ok(())
}

/// One message arrow: the sending cell and the neighbour it points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Arrow {
    from: (usize, usize),
    down: bool,
}

/// An arrow for each fill event with a cell: into `(i + 1, j)` when the receiver owns it, else
/// into `(i, j + 1)`.
fn message_arrows(p: &Picture) -> Result<Vec<Arrow>, Error> {
    let s = p.schedule;
    let (m, n) = (s.rows(), s.cols());
    let mut arrows = Vec::new();
    for e in p.messages.iter().filter(|e| e.kind == Kind::Boundary) {
        let Some((i, j)) = e.cell() else { continue };
        let down = i + 1 < m && j < n && s.cell_proc(i + 1, j) == e.to;
        let right = i < m && j + 1 < n;
        if !(down || right) {
            return Err(Error::Internal(anyhow::anyhow!(
                "picture: message from cell ({i}, {j}) to p{} has no neighbour to point into \
                 in {m} x {n}",
                e.to
            )));
        }
        arrows.push(Arrow { from: (i, j), down });
    }
    Ok(arrows)
}

/// A label for one sequence byte: the character when it is printable ASCII, else two hex
/// digits (`true`: drawn in italics and explained in the legend).
fn byte_label(b: u8) -> (String, bool) {
    if b.is_ascii_graphic() {
        ((b as char).to_string(), false)
    } else {
        (format!("{b:02x}"), true)
    }
}

/// Estimated width of `text` at `px`, in the layout's integer pixels.
fn text_width(text: &str, px: f64) -> i32 {
    style::text_width(text, px) as i32
}

const TITLE_PX: f64 = 18.0;
const LEGEND_PX: f64 = 13.0;
const LEGEND_LINE: i32 = 21;
const SWATCH: i32 = 15;

/// Pixel positions of every part of the picture.
struct Layout {
    width: u32,
    height: u32,
    /// Side of one cell.
    cell: i32,
    /// Top-left corner of the grid.
    grid_x: i32,
    grid_y: i32,
    /// Baselines of the top labels (bytes, then indices further out) and the left ones.
    top_bytes_y: i32,
    top_index_y: i32,
    left_bytes_x: i32,
    left_index_x: i32,
    axis_title_y: i32,
    axis_title_x: i32,
    value_px: f64,
    label_px: f64,
    index_px: f64,
    /// Where the legend starts, and its lines of keys (a key sample then text).
    legend_y: i32,
    keys: Vec<(Key, String)>,
    /// Ranks shown as swatches, and the swatches per legend line.
    swatch_ranks: usize,
    swatches_per_line: usize,
}

/// What a legend key shows before its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Message,
    PathCell,
    Match,
    Hop,
    Text,
}

impl Layout {
    fn new(p: &Picture) -> Layout {
        let s = p.schedule;
        let (m, n) = (s.rows() as i32, s.cols() as i32);
        let cell = (720 / m.max(n).max(1)).clamp(22, 56);
        let value_px = (cell as f64 * 0.42).clamp(9.5, 18.0);
        let label_px = (cell as f64 * 0.5).clamp(11.0, 18.0);
        let index_px = (cell as f64 * 0.36).clamp(8.5, 12.0);

        // Vertical: title, axis title, index row, byte row, grid, legend.
        let title_y = MARGIN;
        let axis_title_y = title_y + 44;
        let top_index_y = axis_title_y + 22;
        let top_bytes_y = top_index_y + if p.y.is_some() { 18 } else { 0 };
        let grid_y = top_bytes_y
            + if p.y.is_some() {
                label_px as i32 + 8
            } else {
                16
            };

        // Horizontal: axis title (rotated), index column, byte column, grid.
        let axis_title_x = MARGIN + 8;
        let left_index_x = axis_title_x + 14 + text_width("63", index_px);
        let left_bytes_x = left_index_x
            + if p.x.is_some() {
                12 + label_px as i32
            } else {
                0
            };
        let grid_x = left_bytes_x + 8;

        let grid_w = n * cell;
        let grid_h = m * cell;
        let legend_y = grid_y + grid_h + 28;

        let mut keys = vec![(
            Key::Message,
            format!(
                "boundary message ({}): from the sending cell into the neighbour cell its receiver owns",
                p.messages
                    .iter()
                    .filter(|e| e.kind == Kind::Boundary && e.cell().is_some())
                    .count()
            ),
        )];
        if !p.path.is_empty() {
            let matches = (0..p.path.len()).filter(|&k| is_match(p, k)).count();
            let hops = hops(p).count();
            keys.push((
                Key::PathCell,
                format!(
                    "traceback walk ({} cells): from the bottom-right cell to the top or left edge",
                    p.path.len()
                ),
            ));
            keys.push((
                Key::Match,
                format!("match ({matches}): x[i] = y[j], a byte of the LCS"),
            ));
            keys.push((
                Key::Hop,
                format!("traceback hop ({hops}): the walk moves onto another rank's cell"),
            ));
        }
        let hex = |seq: Option<&[u8]>| seq.is_some_and(|b| b.iter().any(|&b| byte_label(b).1));
        if hex(p.x) || hex(p.y) {
            keys.push((
                Key::Text,
                "labels in italics: bytes that are not printable ASCII, as two hex digits".into(),
            ));
        }
        keys.extend(p.legend.iter().map(|l| (Key::Text, l.clone())));

        let key_text_x = 40;
        let widest_key = keys
            .iter()
            .map(|(_, t)| key_text_x + text_width(t, LEGEND_PX))
            .max()
            .unwrap_or(0);
        let content_w = (grid_x - MARGIN + grid_w)
            .max(widest_key)
            .max(text_width(&p.title, TITLE_PX))
            .max(360);
        let width = content_w + 2 * MARGIN;

        let swatch_ranks = s.ranks().min(s.rows());
        let swatch_w = SWATCH + 8 + text_width("p00", LEGEND_PX) + 14;
        let first_w = text_width("ranks:", LEGEND_PX) + 10;
        let swatches_per_line = (((content_w - first_w) / swatch_w).max(1)) as usize;
        let swatch_lines = swatch_ranks.div_ceil(swatches_per_line).max(1) as i32;
        let idle_line = i32::from(s.ranks() > swatch_ranks);
        let height = legend_y
            + (swatch_lines + idle_line) * LEGEND_LINE
            + 6
            + keys.len() as i32 * LEGEND_LINE
            + MARGIN;

        Layout {
            width: width as u32,
            height: height as u32,
            cell,
            grid_x,
            grid_y,
            top_bytes_y,
            top_index_y,
            left_bytes_x,
            left_index_x,
            axis_title_y,
            axis_title_x,
            value_px,
            label_px,
            index_px,
            legend_y,
            keys,
            swatch_ranks,
            swatches_per_line,
        }
    }

    /// Top-left corner of cell `(i, j)`.
    fn corner(&self, i: usize, j: usize) -> (i32, i32) {
        (
            self.grid_x + j as i32 * self.cell,
            self.grid_y + i as i32 * self.cell,
        )
    }

    /// The point `(dx, dy)` cells from the centre of cell `(i, j)`.
    fn at(&self, i: usize, j: usize, dx: f64, dy: f64) -> (f64, f64) {
        let (x, y) = self.corner(i, j);
        let c = self.cell as f64;
        (x as f64 + c * (0.5 + dx), y as f64 + c * (0.5 + dy))
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

fn draw(root: &Area, p: &Picture, l: &Layout, arrows: &[Arrow]) -> DrawResult {
    root.fill(&WHITE)?;
    root.draw(&Text::new(
        p.title.clone(),
        (MARGIN, MARGIN),
        styled(
            font(TITLE_PX, TEXT_COLOUR, HPos::Left, VPos::Top),
            FontStyle::Bold,
        ),
    ))?;
    draw_axes(root, p, l)?;
    draw_cells(root, p, l)?;
    let c = l.cell as f64;
    let (width, head) = message_arrow_size(l.cell);
    for a in arrows {
        let (i, j) = a.from;
        // Shafts sit off-centre (right of the value for a downward arrow, below it for a
        // rightward one) and cross the shared edge, 0.3 cell into each cell.
        let (from, to) = if a.down {
            (l.at(i, j, 0.32, 0.2), l.at(i, j, 0.32, 0.8))
        } else {
            (l.at(i, j, 0.2, 0.32), l.at(i, j, 0.8, 0.32))
        };
        arrow(
            root,
            from,
            to,
            MESSAGE_ARROW_COLOUR,
            width,
            head.min(c * 0.25),
        )?;
    }
    draw_hops(root, p, l)?;
    draw_legend(root, p, l)
}

/// Stroke width and head length of a message arrow for a cell size.
fn message_arrow_size(cell: i32) -> (u32, f64) {
    if cell >= 34 {
        (2, 9.0)
    } else {
        (1, 6.0)
    }
}

/// `text` in another font style (bold, italic).
fn styled(text: TextStyle<'static>, style: FontStyle) -> TextStyle<'static> {
    TextStyle {
        font: text.font.style(style),
        ..text
    }
}

fn draw_axes(root: &Area, p: &Picture, l: &Layout) -> DrawResult {
    let s = p.schedule;
    let (col_title, row_title) = match (p.x.is_some(), p.y.is_some()) {
        (true, true) => ("y: columns j", "x: rows i"),
        _ => ("columns j", "rows i"),
    };
    root.draw(&Text::new(
        col_title,
        (l.grid_x, l.axis_title_y),
        font(LEGEND_PX, TEXT_COLOUR, HPos::Left, VPos::Bottom),
    ))?;
    let mid_y = l.grid_y + s.rows() as i32 * l.cell / 2;
    root.draw(&Text::new(
        row_title,
        (l.axis_title_x, mid_y),
        font(LEGEND_PX, TEXT_COLOUR, HPos::Center, VPos::Center)
            .transform(FontTransform::Rotate270),
    ))?;
    let index = |h| font(l.index_px, FAINT_TEXT_COLOUR, h, VPos::Center);
    for j in 0..s.cols() {
        let (cx, _) = l.at(0, j, 0.0, 0.0);
        root.draw(&Text::new(
            j.to_string(),
            (cx as i32, l.top_index_y),
            index(HPos::Center),
        ))?;
        if let Some(y) = p.y {
            let (text, hex) = byte_label(y[j]);
            root.draw(&Text::new(
                text,
                (cx as i32, l.top_bytes_y),
                label_style(l.label_px, hex, HPos::Center),
            ))?;
        }
    }
    for i in 0..s.rows() {
        let (_, cy) = l.at(i, 0, 0.0, 0.0);
        root.draw(&Text::new(
            i.to_string(),
            (l.left_index_x, cy as i32),
            index(HPos::Right),
        ))?;
        if let Some(x) = p.x {
            let (text, hex) = byte_label(x[i]);
            root.draw(&Text::new(
                text,
                (l.left_bytes_x, cy as i32),
                label_style(l.label_px, hex, HPos::Right),
            ))?;
        }
    }
    Ok(())
}

/// A sequence byte's label: bold for a character, italic and smaller for hex digits.
fn label_style(px: f64, hex: bool, h: HPos) -> TextStyle<'static> {
    if hex {
        styled(
            font(px * 0.8, TEXT_COLOUR, h, VPos::Center),
            FontStyle::Italic,
        )
    } else {
        styled(font(px, TEXT_COLOUR, h, VPos::Center), FontStyle::Bold)
    }
}

/// Cell backgrounds, then the walk (outlines and match discs), then each cell's text: its
/// value (white on a match's disc) or, without values, its owner.
fn draw_cells(root: &Area, p: &Picture, l: &Layout) -> DrawResult {
    let s = p.schedule;
    for i in 0..s.rows() {
        for j in 0..s.cols() {
            let (x, y) = l.corner(i, j);
            // One pixel of white between cells draws the grid.
            root.draw(&Rectangle::new(
                [(x, y), (x + l.cell - 1, y + l.cell - 1)],
                rank_colour(s.cell_proc(i, j)).filled(),
            ))?;
        }
    }
    let matches = draw_path(root, p, l)?;
    for i in 0..s.rows() {
        for j in 0..s.cols() {
            let text = match p.values {
                Some(v) => v[i][j].to_string(),
                None => format!("p{}", s.cell_proc(i, j)),
            };
            let (colour, weight) = if matches.contains(&(i, j)) {
                (WHITE, FontStyle::Bold)
            } else {
                (TEXT_COLOUR, FontStyle::Normal)
            };
            let (cx, cy) = l.at(i, j, 0.0, 0.0);
            root.draw(&Text::new(
                text,
                (cx.round() as i32, cy.round() as i32),
                styled(font(l.value_px, colour, HPos::Center, VPos::Center), weight),
            ))?;
        }
    }
    Ok(())
}

/// Whether the walk takes cell `(i, j)` as a match: `x[i] == y[j]` when the sequences are
/// known, else when its next step is diagonal.
fn is_match(p: &Picture, k: usize) -> bool {
    let (i, j) = p.path[k];
    match (p.x, p.y) {
        (Some(x), Some(y)) => x[i] == y[j],
        _ => p
            .path
            .get(k + 1)
            .is_some_and(|&next| i > 0 && j > 0 && next == (i - 1, j - 1)),
    }
}

/// Outlines the walk's cells and puts a disc under each match; returns the matches.
fn draw_path(
    root: &Area,
    p: &Picture,
    l: &Layout,
) -> Result<Vec<(usize, usize)>, DrawingAreaErrorKind<std::io::Error>> {
    let mut matches = Vec::new();
    let outline = ShapeStyle {
        color: PATH_COLOUR.to_rgba(),
        filled: false,
        stroke_width: 3,
    };
    for (k, &(i, j)) in p.path.iter().enumerate() {
        let (x, y) = l.corner(i, j);
        let (x1, y1) = (x + l.cell - 2, y + l.cell - 2);
        let (x, y) = (x + 1, y + 1);
        root.draw(&PathElement::new(
            vec![(x, y), (x1, y), (x1, y1), (x, y1), (x, y)],
            outline,
        ))?;
        if is_match(p, k) {
            let (cx, cy) = l.at(i, j, 0.0, 0.0);
            root.draw(&Circle::new(
                (cx.round() as i32, cy.round() as i32),
                (l.cell as f64 * 0.36).round() as i32,
                PATH_COLOUR.filled(),
            ))?;
            matches.push((i, j));
        }
    }
    Ok(matches)
}

/// The steps of the walk between cells of different owners.
fn hops<'a>(p: &'a Picture) -> impl Iterator<Item = ((usize, usize), (usize, usize))> + 'a {
    let s = p.schedule;
    p.path
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(move |&(a, b)| s.cell_proc(a.0, a.1) != s.cell_proc(b.0, b.1))
}

/// A thick arrow for each step of the walk between cells of different owners, crossing the
/// shared edge (or corner) on the side away from the message arrows.
fn draw_hops(root: &Area, p: &Picture, l: &Layout) -> DrawResult {
    let head = (l.cell as f64 * 0.3).clamp(7.0, 13.0);
    for ((i, j), (ni, nj)) in hops(p) {
        let (from, to) = match (i - ni.min(i), j - nj.min(j)) {
            (1, 0) => (l.at(i, j, -0.3, -0.2), l.at(ni, nj, -0.3, 0.2)),
            (0, 1) => (l.at(i, j, -0.2, -0.3), l.at(ni, nj, 0.2, -0.3)),
            _ => (l.at(i, j, -0.32, -0.32), l.at(ni, nj, 0.3, 0.3)),
        };
        arrow(root, from, to, HOP_COLOUR, 3, head)?;
    }
    Ok(())
}

/// A straight arrow: one polyline for the shaft, a filled triangle for the head.
fn arrow(
    root: &Area,
    from: (f64, f64),
    to: (f64, f64),
    colour: RGBColor,
    width: u32,
    head: f64,
) -> DrawResult {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let base = (to.0 - ux * head, to.1 - uy * head);
    let half = head * 0.5;
    let pt = |x: f64, y: f64| (x.round() as i32, y.round() as i32);
    let shaft_end = (to.0 - ux * head * 0.6, to.1 - uy * head * 0.6);
    root.draw(&PathElement::new(
        vec![pt(from.0, from.1), pt(shaft_end.0, shaft_end.1)],
        ShapeStyle {
            color: colour.to_rgba(),
            filled: false,
            stroke_width: width,
        },
    ))?;
    root.draw(&Polygon::new(
        vec![
            pt(to.0, to.1),
            pt(base.0 - uy * half, base.1 + ux * half),
            pt(base.0 + uy * half, base.1 - ux * half),
        ],
        colour.filled(),
    ))
}

/// An arrow shape as one filled polygon, for the legend (so that it is not counted among the
/// message arrows, which are polylines).
fn legend_arrow(root: &Area, x: i32, y: i32, colour: RGBColor, thick: i32) -> DrawResult {
    let t = thick.max(1);
    let (x0, x1, xh) = (x, x + 28, x + 18);
    root.draw(&Polygon::new(
        vec![
            (x0, y - t / 2),
            (xh, y - t / 2),
            (xh, y - 5),
            (x1, y),
            (xh, y + 5),
            (xh, y + (t + 1) / 2),
            (x0, y + (t + 1) / 2),
        ],
        colour.filled(),
    ))
}

fn draw_legend(root: &Area, p: &Picture, l: &Layout) -> DrawResult {
    let s = p.schedule;
    let text = |t: String, x: i32, y: i32| {
        root.draw(&Text::new(
            t,
            (x, y),
            font(LEGEND_PX, TEXT_COLOUR, HPos::Left, VPos::Center),
        ))
    };
    let mut y = l.legend_y + LEGEND_LINE / 2;
    text("ranks:".into(), MARGIN, y)?;
    let first = MARGIN + text_width("ranks:", LEGEND_PX) + 10;
    let swatch_w = SWATCH + 8 + text_width("p00", LEGEND_PX) + 14;
    if s.rows() == 0 {
        text("(empty matrix: no cells)".into(), first, y)?;
    }
    for k in 0..l.swatch_ranks {
        let col = (k % l.swatches_per_line) as i32;
        if k > 0 && col == 0 {
            y += LEGEND_LINE;
        }
        let x = first + col * swatch_w;
        root.draw(&Rectangle::new(
            [(x, y - SWATCH / 2), (x + SWATCH, y + SWATCH / 2)],
            rank_colour(k).filled(),
        ))?;
        root.draw(&Rectangle::new(
            [(x, y - SWATCH / 2), (x + SWATCH, y + SWATCH / 2)],
            FAINT_TEXT_COLOUR,
        ))?;
        text(format!("p{k}"), x + SWATCH + 6, y)?;
    }
    if s.ranks() > l.swatch_ranks {
        y += LEGEND_LINE;
        let first_idle = l.swatch_ranks;
        let idle = if first_idle + 1 == s.ranks() {
            format!("p{first_idle}")
        } else {
            format!("p{first_idle}..p{}", s.ranks() - 1)
        };
        text(
            format!(
                "{idle}: no cell (no diagonal is longer than {} cells)",
                s.rows()
            ),
            first,
            y,
        )?;
    }
    y += LEGEND_LINE + 6;
    let (message_width, _) = message_arrow_size(l.cell);
    for (key, line) in &l.keys {
        let x = MARGIN;
        match key {
            Key::Message => legend_arrow(root, x, y, MESSAGE_ARROW_COLOUR, message_width as i32)?,
            Key::Hop => legend_arrow(root, x, y, HOP_COLOUR, 3)?,
            Key::PathCell => {
                root.draw(&Rectangle::new(
                    [(x + 6, y - 8), (x + 22, y + 8)],
                    ShapeStyle {
                        color: PATH_COLOUR.to_rgba(),
                        filled: false,
                        stroke_width: 3,
                    },
                ))?;
            }
            Key::Match => {
                root.draw(&Circle::new((x + 14, y), 9, PATH_COLOUR.filled()))?;
            }
            Key::Text => {}
        }
        let indent = if *key == Key::Text { 0 } else { 40 };
        text(line.clone(), x + indent, y)?;
        y += LEGEND_LINE;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message arrows in an SVG document: polylines stroked in the arrow colour.
    fn arrow_count(svg: &str) -> usize {
        let RGBColor(r, g, b) = MESSAGE_ARROW_COLOUR;
        let stroke = format!("stroke=\"#{r:02X}{g:02X}{b:02X}\"");
        svg.lines()
            .filter(|l| l.starts_with("<polyline") && l.contains(&stroke))
            .count()
    }

    /// The texts of an SVG document, in drawing order.
    fn texts(svg: &str) -> Vec<String> {
        let lines: Vec<&str> = svg.lines().collect();
        lines
            .windows(2)
            .filter(|w| w[0].starts_with("<text"))
            .map(|w| w[1].to_string())
            .collect()
    }

    fn schedule_picture(s: &Schedule, messages: &[Event]) -> String {
        render(&Picture::of_schedule(
            s,
            messages,
            format!("{} x {} on {} ranks", s.rows(), s.cols(), s.ranks()),
            vec!["boundary messages: predicted".into()],
        ))
        .unwrap()
    }

    #[test]
    fn predicted_messages_match_the_schedule() {
        for (m, n, p) in [
            (5, 8, 3),
            (4, 6, 2),
            (1, 1, 1),
            (9, 40, 5),
            (64, 64, 16),
            (3, 5, 8),
        ] {
            let s = Schedule::new(m, n, p);
            let events = predicted_messages(&s);
            let predicted = s.predicted_messages();
            assert_eq!(events.len() as u64, predicted.total, "{m}x{n} P={p}");
            let mut pairs = vec![vec![0u64; p]; p];
            for e in &events {
                let (i, j) = e.cell().unwrap();
                assert_eq!(e.kind, Kind::Boundary);
                assert_eq!(e.bytes, 4);
                assert_eq!(e.diagonal, Some((i + j) as u64));
                assert_eq!(e.from, s.cell_proc(i, j));
                assert_eq!(Some(e.to), s.send_target(i, j));
                pairs[e.from][e.to] += 1;
            }
            assert_eq!(pairs, predicted.pairs(), "{m}x{n} P={p}");
            let brute = (0..m)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .filter(|&(i, j)| s.send_target(i, j).is_some())
                .count();
            assert_eq!(events.len(), brute, "{m}x{n} P={p}");
            let mut sorted = crate::trace::Recording {
                events: events.clone(),
                ..Default::default()
            };
            sorted.order();
            assert_eq!(sorted.events, events, "already in trace order");
        }
    }

    #[test]
    fn report_schedule_has_one_arrow_per_message() {
        let s = Schedule::new(5, 8, 3);
        let messages = predicted_messages(&s);
        assert!(!messages.is_empty());
        let svg = schedule_picture(&s, &messages);
        assert!(svg.starts_with("<svg "), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(arrow_count(&svg), messages.len());
        let texts = texts(&svg);
        for label in ["p0", "p1", "p2", "5 x 8 on 3 ranks", "columns j", "rows i"] {
            assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
        }
        // Every owner label appears once per cell plus once in the legend.
        let p1 = texts.iter().filter(|t| *t == "p1").count() as u64;
        assert_eq!(p1, s.rank_cells(1) + 1);
        // Dropping a message drops an arrow.
        let svg = schedule_picture(&s, &messages[1..]);
        assert_eq!(arrow_count(&svg), messages.len() - 1);
    }

    #[test]
    fn arrows_point_into_the_receivers_cell() {
        let s = Schedule::new(5, 8, 3);
        let messages = predicted_messages(&s);
        let picture = Picture::of_schedule(&s, &messages, String::new(), vec![]);
        for (a, e) in message_arrows(&picture).unwrap().iter().zip(&messages) {
            let (i, j) = a.from;
            let into = if a.down { (i + 1, j) } else { (i, j + 1) };
            assert_eq!(s.cell_proc(into.0, into.1), e.to, "{e:?}");
            assert_ne!(s.cell_proc(i, j), e.to, "{e:?}");
        }
    }

    #[test]
    fn larger_than_64_is_refused() {
        for (m, n) in [(65, 65), (3, 65)] {
            let s = Schedule::new(m, n, 2);
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("big.svg");
            let err = write_svg(&path, &Picture::of_schedule(&s, &[], String::new(), vec![]))
                .unwrap_err();
            assert!(matches!(err, Error::Usage(_)), "{err:?}");
            assert_eq!(
                err.to_string(),
                format!("pictures are limited to 64 x 64 cells; this matrix is {m} x {n}")
            );
            assert!(!path.exists());
        }
        let s = Schedule::new(64, 64, 8);
        let svg = schedule_picture(&s, &predicted_messages(&s));
        assert_eq!(arrow_count(&svg), s.predicted_messages().total as usize);
    }

    /// The sequential reference's values and walk for `x`, `y`.
    fn solve(x: &[u8], y: &[u8]) -> (Vec<Vec<u32>>, Vec<(usize, usize)>) {
        let values = crate::reference::full_table(x, y);
        let path = crate::reference::walk_path(x, y, &values);
        (values, path)
    }

    #[test]
    fn solved_picture_shows_values_bytes_and_walk() {
        let (x, y) = (b"GAC\x01A".as_slice(), b"AGCAT\x01GA".as_slice());
        let s = Schedule::new(x.len(), y.len(), 3);
        let (values, path) = solve(x, y);
        let messages = predicted_messages(&s);
        let svg = render(&Picture {
            schedule: &s,
            x: Some(x),
            y: Some(y),
            values: Some(&values),
            messages: &messages,
            path: &path,
            title: "solve".into(),
            legend: vec!["traceback hops: 2".into()],
        })
        .unwrap();
        assert_eq!(arrow_count(&svg), messages.len());
        let texts = texts(&svg);
        for t in [
            "G",
            "A",
            "C",
            "T",
            "01",
            "traceback hops: 2",
            "y: columns j",
        ] {
            assert!(texts.iter().any(|s| s == t), "{t} in {texts:?}");
        }
        assert!(texts.iter().any(|t| t.starts_with("labels in italics")));
        // The values, cell by cell in row order, follow the axis labels.
        let cells: Vec<&String> = texts
            .iter()
            .skip_while(|t| !t.starts_with("x: rows"))
            .skip(1 + 2 * s.rows() + 2 * s.cols())
            .take(s.rows() * s.cols())
            .collect();
        let expected: Vec<String> = values.iter().flatten().map(|v| v.to_string()).collect();
        assert_eq!(cells, expected.iter().collect::<Vec<_>>());
        // The walk: one outline per cell, one ring per match, hops in their own colour.
        let outlines = svg
            .lines()
            .filter(|l| l.starts_with("<polyline") && l.contains("stroke=\"#000000\""))
            .count();
        assert_eq!(outlines, path.len());
        let discs = svg
            .lines()
            .filter(|l| l.starts_with("<circle") && l.contains("fill=\"#000000\""))
            .count();
        let matches = path.iter().filter(|&&(i, j)| x[i] == y[j]).count();
        assert_eq!(
            discs,
            matches + 1,
            "one disc per match and one in the legend"
        );
        let hops = path
            .windows(2)
            .filter(|w| s.cell_proc(w[0].0, w[0].1) != s.cell_proc(w[1].0, w[1].1))
            .count();
        let RGBColor(r, g, b) = HOP_COLOUR;
        let hop_stroke = format!("stroke=\"#{r:02X}{g:02X}{b:02X}\"");
        let hop_lines = svg
            .lines()
            .filter(|l| l.starts_with("<polyline") && l.contains(&hop_stroke))
            .count();
        assert_eq!(hop_lines, hops);
    }

    #[test]
    fn mismatched_parts_are_internal_errors() {
        let s = Schedule::new(2, 3, 2);
        let base = Picture {
            schedule: &s,
            x: Some(b"ab"),
            y: Some(b"abc"),
            values: None,
            messages: &[],
            path: &[],
            title: String::new(),
            legend: vec![],
        };
        assert!(render(&base).is_ok());
        let short_y = Picture {
            y: Some(b"ab"),
            ..base
        };
        assert!(matches!(render(&short_y), Err(Error::Internal(_))));
        let s = Schedule::new(2, 3, 2);
        let outside = Picture {
            schedule: &s,
            x: None,
            y: None,
            values: None,
            messages: &[],
            path: &[(2, 0)],
            title: String::new(),
            legend: vec![],
        };
        assert!(matches!(render(&outside), Err(Error::Internal(_))));
    }

    #[test]
    fn empty_matrix_draws_legend_only() {
        let s = Schedule::new(0, 4, 2);
        let svg = schedule_picture(&s, &[]);
        assert_eq!(arrow_count(&svg), 0);
        assert!(texts(&svg).iter().any(|t| t == "(empty matrix: no cells)"));
    }

    #[test]
    fn written_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.svg");
        let s = Schedule::new(4, 6, 2);
        let messages = predicted_messages(&s);
        let picture = Picture::of_schedule(&s, &messages, "4 x 6".into(), vec![]);
        write_svg(&path, &picture).unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("s.svg")]);
        let svg = std::fs::read_to_string(&path).unwrap();
        assert_eq!(arrow_count(&svg), messages.len());
        let missing = dir.path().join("no/such/dir/s.svg");
        assert!(matches!(
            write_svg(&missing, &picture),
            Err(Error::Output { .. })
        ));
    }
}
