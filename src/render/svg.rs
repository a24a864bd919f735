//! SVG pictures of a schedule: the ownership grid in colour, the boundary messages as arrows,
//! and, for a solved matrix, every cell's value and the traceback walk with its hops.
//!
//! The text view in the parent module answers "who computes which cell"; a picture also shows
//! *where the messages go*, which is what a class needs to see to believe the message count.
//! Each cell is filled with its owner's colour ([`super::style`]: twelve colours, hatched
//! beyond); the rows' sequence runs down the left and the columns' along the top; each
//! diagonal `d = i + j` is numbered where it leaves the grid at its top-right end, along the
//! top and right edges; every message is an arrow from the sending cell into the neighbour
//! cell its receiver owns. The traceback walk is one connected line through the centres of its
//! cells, an arrowhead halfway along each step showing its direction (it starts at the
//! bottom-right cell); each match sits on a black disc that shows `M[i][j]`, which is the
//! match's place in the LCS; each hop onto another rank is a thick red arrow over its step,
//! and the legend lists the hops with what they carry. Above [`MAX_CELL_TEXT_SIDE`] cells a
//! side the cells carry no text.
//!
//! Every mark carries its meaning as a class and data attributes (`rect.cell` with `data-i`,
//! `data-j`, `data-d`, `data-pos`, `data-owner`; `line.message` with the trace's fields;
//! `path.walk-step` with `data-t`; `circle.match`; `path.hop` with its payload), so tests and
//! the classroom page ([`super::html`]) find marks by what they mean, not by how they are
//! drawn. The page embeds the same drawing ([`render_grid`]) and animates it.
//!
//! Pictures are drawn from what a run recorded (its values, messages and walk), or, for a
//! schedule, from the messages the schedule predicts. The document is written by hand (a
//! plotting library cannot attach classes to its marks), rendered into a string and written
//! atomically, so a failed run never leaves half a picture. Pictures are limited to
//! [`MAX_PICTURE_CELLS_SIDE`] cells a side: beyond that a cell would be too small to read.

use std::fmt::Write as _;
use std::path::Path;

use plotters::style::RGBColor;

use super::style::{
    self, hex, rank_colour, rank_hatch, Hatch, DIAGONAL_COLOUR, FAINT_TEXT_COLOUR, HATCH_COLOUR,
    HOP_COLOUR, MESSAGE_COLOUR, TEXT_COLOUR, WALK_COLOUR,
};
use crate::engine::diagonal::schedule::Schedule;
use crate::engine::protocol::Kind;
use crate::error::Error;
use crate::input::Pair;
use crate::report::Report;
use crate::trace::Event;

/// Largest number of rows or columns a picture is drawn for.
pub const MAX_PICTURE_CELLS_SIDE: usize = 64;

/// Largest number of rows or columns whose cells carry text (values or owners).
pub const MAX_CELL_TEXT_SIDE: usize = 24;

/// Hops listed one by one in a picture's legend.
const MAX_LISTED_HOPS: usize = 12;

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
    /// Messages as the trace lists them: each boundary message with a cell is drawn as an
    /// arrow, each traceback message as a hop of the walk.
    pub messages: &'a [Event],
    /// The traceback walk's cells in walk order (empty: no walk is drawn).
    pub path: &'a [(usize, usize)],
    /// The rows and columns are the input's sequences in the other order (the longer came
    /// first), or the command line named the longer side as rows.
    pub swapped: bool,
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
        let ranks = match report.ranks {
            1 => "1 rank".to_owned(),
            p => format!("{p} ranks"),
        };
        Picture {
            schedule,
            x: Some(&pair.x),
            y: Some(&pair.y),
            values: Some(values),
            messages,
            path,
            swapped: pair.swapped,
            title: format!(
                "LCS of {} x {} on {ranks}: \"{}\" (length {})",
                report.rows,
                report.cols,
                report.lcs.display(),
                report.lcs_length
            ),
            legend: vec![
                format!(
                    "boundary messages: {} (predicted {})",
                    report.messages.boundary, report.predicted.boundary
                ),
                format!("traceback hops: {}", report.traceback_hops),
                format!(
                    "control messages: {} (the end of the walk: see the summary)",
                    report.messages.control
                ),
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
            swapped: false,
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
                crate::engine::protocol::VALUE_BYTES,
            )
        })
        .collect()
}

/// A hop of the traceback walk: one traceback message, placed on the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    /// The walk's step `path[t] -> path[t + 1]` that crosses onto another rank.
    pub t: usize,
    pub from: usize,
    pub to: usize,
    /// The next cell, `path[t + 1]`: the first thing the message carries.
    pub next: (usize, usize),
    /// The message's size: the cell's coordinates and the subsequence found so far.
    pub bytes: u64,
    /// The subsequence found so far, in reading order (known when the sequences are).
    pub prefix: Option<Vec<u8>>,
}

/// The walk's hops, from the traceback messages in `p.messages`: each is placed on the step of
/// the walk that enters its cell, and must cross between the owners the message names.
pub fn hops(p: &Picture) -> Result<Vec<Hop>, Error> {
    let s = p.schedule;
    let bad = |what: String| Err(Error::Internal(anyhow::anyhow!("picture: {what}")));
    let mut hops = Vec::new();
    for e in p.messages.iter().filter(|e| e.kind == Kind::Traceback) {
        let Some(next) = e.cell() else {
            return bad(format!("traceback message without a cell: {e:?}"));
        };
        let Some(t) = p.path.windows(2).position(|w| w[1] == next) else {
            return bad(format!("hop to {next:?} is not on the walk"));
        };
        let here = p.path[t];
        if s.cell_proc(here.0, here.1) != e.from || s.cell_proc(next.0, next.1) != e.to {
            return bad(format!(
                "hop {e:?} does not cross between the cells' owners"
            ));
        }
        let prefix = match (p.x, p.y) {
            (Some(x), Some(y)) => {
                let mut found: Vec<u8> = p.path[..=t]
                    .iter()
                    .filter(|&&(i, j)| x[i] == y[j])
                    .map(|&(i, _)| x[i])
                    .collect();
                found.reverse();
                Some(found)
            }
            _ => None,
        };
        hops.push(Hop {
            t,
            from: e.from,
            to: e.to,
            next,
            bytes: e.bytes,
            prefix,
        });
    }
    hops.sort_by_key(|h| h.t);
    Ok(hops)
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

/// The picture as an SVG document, with its title and legend.
pub fn render(picture: &Picture) -> Result<String, Error> {
    draw(picture, true)
}

/// The grid alone (axes, cells, messages, walk and, for animation, one outline per diagonal),
/// without title or legend: what the classroom page embeds and animates.
pub fn render_grid(picture: &Picture) -> Result<String, Error> {
    draw(picture, false)
}

/// The refusal for a matrix too large to draw, or `None`.
pub fn too_large(s: &Schedule) -> Option<String> {
    let side = MAX_PICTURE_CELLS_SIDE;
    (s.rows() > side || s.cols() > side).then(|| {
        format!(
            "pictures are limited to {side} x {side} cells; this matrix is {} x {}",
            s.rows(),
            s.cols()
        )
    })
}

fn draw(p: &Picture, full: bool) -> Result<String, Error> {
    if let Some(problem) = too_large(p.schedule) {
        return Err(Error::Usage(problem));
    }
    check(p)?;
    let arrows = message_arrows(p)?;
    let hops = hops(p)?;
    let layout = Layout::new(p, full, &hops);
    let mut out = Svg::default();
    out.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", layout.width.to_string()),
            ("height", layout.height.to_string()),
            ("viewBox", format!("0 0 {} {}", layout.width, layout.height)),
            ("font-family", style::FONT_FAMILY.into()),
            ("class", "lcs-picture".into()),
            ("data-rows", p.schedule.rows().to_string()),
            ("data-cols", p.schedule.cols().to_string()),
            ("data-ranks", p.schedule.ranks().to_string()),
        ],
    );
    defs(&mut out, &layout);
    out.leaf(
        "rect",
        &[
            ("class", "background".into()),
            ("width", "100%".into()),
            ("height", "100%".into()),
            ("fill", "#ffffff".into()),
        ],
    );
    if full {
        title(&mut out, p);
    }
    axes(&mut out, p, &layout);
    diagonal_labels(&mut out, p, &layout);
    cells(&mut out, p, &layout);
    if !full {
        diagonal_outlines(&mut out, p, &layout);
    }
    walk(&mut out, p, &layout);
    cell_texts(&mut out, p, &layout);
    messages(&mut out, &layout, &arrows);
    hop_arrows(&mut out, p, &layout, &hops);
    if full {
        legend(&mut out, p, &layout);
    }
    out.close("svg");
    Ok(out.text)
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

/// One message arrow: the message, and whether it points down (else right).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Arrow {
    event: Event,
    from: (usize, usize),
    down: bool,
}

/// An arrow for each boundary event with a cell: into `(i + 1, j)` when the receiver owns it,
/// else into `(i, j + 1)`.
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
        arrows.push(Arrow {
            event: *e,
            from: (i, j),
            down,
        });
    }
    Ok(arrows)
}

/// A label for one sequence byte: the character when it is printable ASCII, else two hex
/// digits (`true`: drawn in italics and explained in the legend).
pub fn byte_label(b: u8) -> (String, bool) {
    if b.is_ascii_graphic() {
        ((b as char).to_string(), false)
    } else {
        (format!("{b:02x}"), true)
    }
}

/// Bytes for a reader: printable ASCII and spaces as they are, anything else as `\xNN`.
pub fn display_bytes(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        if b.is_ascii_graphic() || b == b' ' {
            s.push(b as char);
        } else {
            let _ = write!(s, "\\x{b:02x}");
        }
    }
    s
}

/// Estimated width of `text` at `px`.
fn text_width(text: &str, px: f64) -> f64 {
    style::text_width(text, px) as f64
}

/// `text` cut into lines of at most `width` pixels at `px`, at spaces.
fn wrap(text: &str, px: f64, width: f64) -> Vec<String> {
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

const MARGIN: f64 = 20.0;
const TITLE_PX: f64 = 18.0;
const LEGEND_PX: f64 = 13.0;
const LEGEND_LINE: f64 = 18.0;
const LEGEND_WIDTH: f64 = 400.0;
const SWATCH: f64 = 15.0;

/// Pixel positions and sizes of every part of the picture.
struct Layout {
    width: f64,
    height: f64,
    /// Side of one cell.
    cell: f64,
    /// Top-left corner of the grid.
    grid_x: f64,
    grid_y: f64,
    /// Cells carry text.
    cell_text: bool,
    value_px: f64,
    label_px: f64,
    index_px: f64,
    /// Baselines and positions of the axis labels.
    axis_title_y: f64,
    top_index_y: f64,
    top_bytes_y: f64,
    axis_title_x: f64,
    left_index_x: f64,
    left_bytes_x: f64,
    /// Every how many rows, columns and diagonals a number is written.
    index_every: usize,
    diagonal_every: usize,
    diagonal_px: f64,
    /// Where the legend starts (left, top) and its lines.
    legend_x: f64,
    legend_y: f64,
    legend: Vec<LegendLine>,
}

/// What a legend line shows before its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Message,
    Walk,
    Match,
    Hop,
    Diagonal,
    Text,
    Heading,
    /// A wrapped continuation of the line before.
    More,
}

struct LegendLine {
    key: Key,
    /// Where the text starts, right of the key's sample.
    indent: f64,
    text: String,
}

impl Layout {
    fn new(p: &Picture, full: bool, hops: &[Hop]) -> Layout {
        let s = p.schedule;
        let (m, n) = (s.rows(), s.cols());
        let side = m.max(n).max(1);
        let cell = (720.0 / side as f64).floor().clamp(11.0, 56.0);
        let cell_text = side <= MAX_CELL_TEXT_SIDE;
        let value_px = (cell * 0.42).clamp(9.5, 18.0);
        let label_px = (cell * 0.5).clamp(8.0, 18.0);
        let index_px = (cell * 0.4).clamp(9.0, 16.0);
        let diagonal_px = (cell * 0.36).clamp(9.0, 14.0);
        let every = |needed: f64| ((needed / cell).ceil() as usize).max(1);
        let index_every = every(text_width(&side.to_string(), index_px) + 4.0);
        let widest_d = s.diagonals().saturating_sub(1).to_string();
        let diagonal_every = every(text_width(&widest_d, diagonal_px) + 6.0)
            .max(every(diagonal_px + 3.0))
            .max(index_every);

        // Vertical: title lines, axis title, indices, bytes, diagonal band, grid.
        let title_lines = if full { 1 + usize::from(p.swapped) } else { 0 };
        let axis_title_y = MARGIN + title_lines as f64 * 26.0 + 14.0;
        let top_index_y = axis_title_y + 8.0 + index_px;
        let top_bytes_y = top_index_y + if p.y.is_some() { label_px + 6.0 } else { 0.0 };
        let grid_y = top_bytes_y + 8.0 + diagonal_px + 8.0;

        // Horizontal: axis title (rotated), indices, bytes, grid, diagonal band.
        let axis_title_x = MARGIN + 8.0;
        let left_index_x = axis_title_x + 12.0 + text_width(&m.to_string(), index_px);
        let left_bytes_x = left_index_x + if p.x.is_some() { 8.0 + label_px } else { 0.0 };
        let grid_x = left_bytes_x + 8.0;
        let grid_right = grid_x + n as f64 * cell;
        let band_right = grid_right + 10.0 + text_width(&widest_d, diagonal_px);
        let grid_bottom = grid_y + m as f64 * cell;

        let legend_x = band_right + 28.0;
        let legend_y = MARGIN + 40.0;
        let legend = if full {
            legend_lines(p, cell_text, hops)
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
            (band_right + MARGIN, grid_bottom + MARGIN)
        };
        Layout {
            width: width.ceil(),
            height: height.ceil(),
            cell,
            grid_x,
            grid_y,
            cell_text,
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

    /// Top-left corner of cell `(i, j)`.
    fn corner(&self, i: usize, j: usize) -> (f64, f64) {
        (
            self.grid_x + j as f64 * self.cell,
            self.grid_y + i as f64 * self.cell,
        )
    }

    /// The point `(dx, dy)` cells from the centre of cell `(i, j)`.
    fn at(&self, i: usize, j: usize, dx: f64, dy: f64) -> (f64, f64) {
        let (x, y) = self.corner(i, j);
        (x + self.cell * (0.5 + dx), y + self.cell * (0.5 + dy))
    }

    /// Radius of a match's disc.
    fn disc(&self) -> f64 {
        if self.cell_text {
            self.cell * 0.36
        } else {
            self.cell * 0.3
        }
    }

    fn walk_width(&self) -> f64 {
        (self.cell * 0.07).clamp(1.5, 3.0)
    }

    fn hop_width(&self) -> f64 {
        (self.cell * 0.16).clamp(4.0, 8.0)
    }

    fn message_width(&self) -> f64 {
        if self.cell >= 34.0 {
            2.0
        } else {
            1.2
        }
    }
}

/// The legend's lines for `p`, keys first, then the caller's lines.
fn legend_lines(p: &Picture, cell_text: bool, hops: &[Hop]) -> Vec<LegendLine> {
    let s = p.schedule;
    let mut keys: Vec<(Key, String)> = Vec::new();
    let arrows = p
        .messages
        .iter()
        .filter(|e| e.kind == Kind::Boundary && e.cell().is_some())
        .count();
    match (p.values.is_some(), cell_text) {
        (true, true) => keys.push((
            Key::Text,
            "number in a cell: M[i][j], the length of an LCS of x[0..=i] and y[0..=j]".into(),
        )),
        (false, true) => keys.push((
            Key::Text,
            "pK in a cell: the rank that computes it, cell_proc(i, j)".into(),
        )),
        (_, false) => keys.push((
            Key::Text,
            format!(
                "cells carry no text above {MAX_CELL_TEXT_SIDE} a side; the colour is the owner"
            ),
        )),
    }
    keys.push((
        Key::Diagonal,
        "d = i + j: each diagonal is numbered where it leaves the grid, along the top and right edges"
            .into(),
    ));
    keys.push((
        Key::Message,
        format!(
            "boundary message ({arrows}): from the sending cell into the neighbour cell its \
             receiver owns; one per cell at most"
        ),
    ));
    if !p.path.is_empty() {
        let matches = p.path.iter().filter(|&&(i, j)| is_match(p, i, j)).count();
        keys.push((
            Key::Walk,
            format!(
                "traceback walk ({} cells): from the bottom-right cell until it leaves the \
                 matrix; up or left at a mismatch, diagonally after a match",
                p.path.len()
            ),
        ));
        keys.push((
            Key::Match,
            format!(
                "match ({matches}): x[i] = y[j]; its M[i][j] is its place in the LCS, counted \
                 from the left"
            ),
        ));
        keys.push((
            Key::Hop,
            format!(
                "hop ({}): the walk moves onto another rank's cell; one traceback message with \
                 the next cell (16 bytes) and the LCS bytes found so far",
                hops.len()
            ),
        ));
        for (k, h) in hops.iter().take(MAX_LISTED_HOPS).enumerate() {
            // The prefix is the end of the LCS: a long one keeps its last bytes.
            let prefix = h.prefix.as_ref().map_or(String::new(), |b| {
                if b.len() > 20 {
                    format!(", \"…{}\"", display_bytes(&b[b.len() - 20..]))
                } else {
                    format!(", \"{}\"", display_bytes(b))
                }
            });
            keys.push((
                Key::Text,
                format!(
                    "hop {}: p{} -> p{}, next cell ({}, {}){prefix}, {} bytes",
                    k + 1,
                    h.from,
                    h.to,
                    h.next.0,
                    h.next.1,
                    h.bytes
                ),
            ));
        }
        if hops.len() > MAX_LISTED_HOPS {
            keys.push((
                Key::Text,
                format!(
                    "… and {} more hops (see the trace)",
                    hops.len() - MAX_LISTED_HOPS
                ),
            ));
        }
    }
    let hex = |seq: Option<&[u8]>| seq.is_some_and(|b| b.iter().any(|&b| byte_label(b).1));
    if hex(p.x) || hex(p.y) {
        keys.push((
            Key::Text,
            "labels in italics: bytes that are not printable ASCII, as two hex digits".into(),
        ));
    }
    if p.swapped {
        keys.push((Key::Text, swap_note(p).into()));
    }
    if s.ranks() > s.working_ranks() {
        let first = s.working_ranks();
        let idle = if first + 1 == s.ranks() {
            format!("p{first}")
        } else {
            format!("p{first}..p{}", s.ranks() - 1)
        };
        keys.push((
            Key::Text,
            format!(
                "{idle}: no cell (no diagonal is longer than {} cells)",
                s.rows()
            ),
        ));
    }
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

/// What a swapped picture says about its rows.
fn swap_note(p: &Picture) -> &'static str {
    if p.x.is_some() {
        "swapped: the file's first sequence is the longer, so it runs along the top (y) and \
         the second down the left (x)"
    } else {
        "swapped: --rows named the longer side; rows are the shorter side"
    }
}

/// Swatches per legend line and the legend's height.
fn swatches_per_line() -> usize {
    let swatch_w = SWATCH + 8.0 + text_width("p00", LEGEND_PX) + 12.0;
    ((LEGEND_WIDTH - text_width("ranks:", LEGEND_PX) - 10.0) / swatch_w).max(1.0) as usize
}

fn legend_height(p: &Picture, lines: &[LegendLine]) -> f64 {
    let swatches = p.schedule.working_ranks();
    let swatch_lines = swatches.div_ceil(swatches_per_line()).max(1);
    (swatch_lines as f64 + 0.6 + lines.len() as f64) * LEGEND_LINE
}

/// Whether the walk takes cell `(i, j)` as a match (the sequences are known when a walk is).
fn is_match(p: &Picture, i: usize, j: usize) -> bool {
    matches!((p.x, p.y), (Some(x), Some(y)) if x[i] == y[j])
}

/// An SVG document being written.
#[derive(Default)]
pub(super) struct Svg {
    pub(super) text: String,
}

/// Text for an attribute or an element: the five XML specials escaped.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A number with at most two decimals and no trailing zeros.
pub(super) fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

impl Svg {
    pub(super) fn start(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.text.push('<');
        self.text.push_str(tag);
        for (k, v) in attrs {
            let _ = write!(self.text, " {k}=\"{}\"", esc(v));
        }
    }

    pub(super) fn open(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.start(tag, attrs);
        self.text.push_str(">\n");
    }

    pub(super) fn leaf(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.start(tag, attrs);
        self.text.push_str("/>\n");
    }

    pub(super) fn close(&mut self, tag: &str) {
        let _ = writeln!(self.text, "</{tag}>");
    }

    pub(super) fn text_el(&mut self, attrs: &[(&str, String)], content: &str) {
        self.start("text", attrs);
        let _ = writeln!(self.text, ">{}</text>", esc(content));
    }

    pub(super) fn group(&mut self, class: &str) {
        self.open("g", &[("class", class.into())]);
    }
}

/// Arrowheads and hatchings.
fn defs(out: &mut Svg, l: &Layout) {
    out.open("defs", &[]);
    // Heads centred on their point (marker-mid, halfway along a step) or ending at it.
    let head = |out: &mut Svg, id: &str, size: f64, colour: RGBColor, centred: bool| {
        out.open(
            "marker",
            &[
                ("id", id.into()),
                ("viewBox", "0 0 10 10".into()),
                ("refX", if centred { "5" } else { "10" }.into()),
                ("refY", "5".into()),
                ("markerWidth", num(size)),
                ("markerHeight", num(size)),
                ("markerUnits", "userSpaceOnUse".into()),
                ("orient", "auto".into()),
            ],
        );
        out.leaf(
            "path",
            &[("d", "M0,0 L10,5 L0,10 z".into()), ("fill", hex(colour))],
        );
        out.close("marker");
    };
    let c = l.cell;
    head(
        out,
        "message-head",
        (c * 0.22).clamp(5.0, 10.0),
        MESSAGE_COLOUR,
        false,
    );
    head(
        out,
        "walk-head",
        (c * 0.3).clamp(6.0, 13.0),
        WALK_COLOUR,
        true,
    );
    let hop_head = (c * 0.44).clamp(11.0, 22.0);
    head(out, "hop-head", hop_head, HOP_COLOUR, true);
    head(
        out,
        "hop-halo-head",
        hop_head + 5.0,
        RGBColor(0xFF, 0xFF, 0xFF),
        true,
    );
    for (hatch, lines) in [
        (Hatch::Stripes, "M0,8 L8,0"),
        (Hatch::Cross, "M0,8 L8,0 M0,0 L8,8"),
    ] {
        out.open(
            "pattern",
            &[
                ("id", hatch.id().unwrap_or_default().into()),
                ("width", "8".into()),
                ("height", "8".into()),
                ("patternUnits", "userSpaceOnUse".into()),
            ],
        );
        out.leaf(
            "path",
            &[
                ("d", lines.into()),
                ("stroke", hex(HATCH_COLOUR)),
                ("stroke-width", "1.2".into()),
            ],
        );
        out.close("pattern");
    }
    out.close("defs");
}

fn title(out: &mut Svg, p: &Picture) {
    out.text_el(
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
    if p.swapped {
        out.text_el(
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

fn axes(out: &mut Svg, p: &Picture, l: &Layout) {
    let s = p.schedule;
    let (col_title, row_title) = match (p.x.is_some(), p.y.is_some(), p.swapped) {
        (true, true, false) => ("y: columns j", "x: rows i"),
        (true, true, true) => (
            "y (the file's first sequence): columns j",
            "x (the file's second): rows i",
        ),
        (_, _, false) => ("columns j", "rows i"),
        (_, _, true) => ("columns j (--rows)", "rows i (--cols)"),
    };
    out.group("axes");
    out.text_el(
        &[
            ("class", "axis-title".into()),
            ("x", num(l.grid_x)),
            ("y", num(l.axis_title_y)),
            ("font-size", num(LEGEND_PX)),
            ("fill", hex(TEXT_COLOUR)),
        ],
        col_title,
    );
    let mid_y = l.grid_y + s.rows() as f64 * l.cell / 2.0;
    out.text_el(
        &[
            ("class", "axis-title".into()),
            ("x", num(l.axis_title_x)),
            ("y", num(mid_y)),
            ("font-size", num(LEGEND_PX)),
            ("fill", hex(TEXT_COLOUR)),
            ("text-anchor", "middle".into()),
            ("dominant-baseline", "central".into()),
            (
                "transform",
                format!("rotate(-90 {} {})", num(l.axis_title_x), num(mid_y)),
            ),
        ],
        row_title,
    );
    let index = |out: &mut Svg, class: &str, x: f64, y: f64, anchor: &str, text: String| {
        out.text_el(
            &[
                ("class", class.into()),
                ("x", num(x)),
                ("y", num(y)),
                ("font-size", num(l.index_px)),
                ("fill", hex(FAINT_TEXT_COLOUR)),
                ("text-anchor", anchor.into()),
                ("dominant-baseline", "central".into()),
            ],
            &text,
        );
    };
    let label = |out: &mut Svg, class: &str, x: f64, y: f64, anchor: &str, byte: u8| {
        let (text, hex_digits) = byte_label(byte);
        let px = if hex_digits {
            l.label_px * 0.8
        } else {
            l.label_px
        };
        out.text_el(
            &[
                ("class", class.into()),
                ("x", num(x)),
                ("y", num(y)),
                ("font-size", num(px)),
                ("fill", hex(TEXT_COLOUR)),
                ("font-weight", "bold".into()),
                (
                    "font-style",
                    if hex_digits { "italic" } else { "normal" }.into(),
                ),
                ("text-anchor", anchor.into()),
                ("dominant-baseline", "central".into()),
            ],
            &text,
        );
    };
    for j in 0..s.cols() {
        let (cx, _) = l.at(0, j, 0.0, 0.0);
        if j % l.index_every == 0 {
            index(out, "col-index", cx, l.top_index_y, "middle", j.to_string());
        }
        if let Some(y) = p.y {
            label(out, "col-byte", cx, l.top_bytes_y, "middle", y[j]);
        }
    }
    for i in 0..s.rows() {
        let (_, cy) = l.at(i, 0, 0.0, 0.0);
        if i % l.index_every == 0 {
            index(out, "row-index", l.left_index_x, cy, "end", i.to_string());
        }
        if let Some(x) = p.x {
            label(out, "row-byte", l.left_bytes_x, cy, "end", x[i]);
        }
    }
    out.close("g");
}

/// Each diagonal's number where it leaves the grid at its top-right end: the top edge for
/// `d < n`, the right edge after; a short tick continues the diagonal to its number.
fn diagonal_labels(out: &mut Svg, p: &Picture, l: &Layout) {
    let s = p.schedule;
    let n = s.cols();
    out.group("diagonal-labels");
    for d in (0..s.diagonals()).filter(|d| d % l.diagonal_every == 0) {
        // The top-right corner of the diagonal's top-right cell.
        let (cx, cy) = if d < n {
            (l.grid_x + (d + 1) as f64 * l.cell, l.grid_y)
        } else {
            (
                l.grid_x + n as f64 * l.cell,
                l.grid_y + (d + 1 - n) as f64 * l.cell,
            )
        };
        let tick = 5.0;
        out.leaf(
            "line",
            &[
                ("class", "diagonal-tick".into()),
                ("data-d", d.to_string()),
                ("x1", num(cx)),
                ("y1", num(cy)),
                ("x2", num(cx + tick)),
                ("y2", num(cy - tick)),
                ("stroke", hex(DIAGONAL_COLOUR)),
                ("stroke-width", "1".into()),
            ],
        );
        out.text_el(
            &[
                ("class", "diagonal-label".into()),
                ("data-d", d.to_string()),
                ("x", num(cx + tick + 1.0)),
                ("y", num(cy - tick + 1.0)),
                ("font-size", num(l.diagonal_px)),
                ("font-style", "italic".into()),
                ("fill", hex(DIAGONAL_COLOUR)),
            ],
            &d.to_string(),
        );
    }
    out.close("g");
}

/// The cells, filled with their owner's colour (hatched beyond twelve ranks).
fn cells(out: &mut Svg, p: &Picture, l: &Layout) {
    let s = p.schedule;
    out.group("cells");
    let mut hatched = Vec::new();
    for i in 0..s.rows() {
        for j in 0..s.cols() {
            let owner = s.cell_proc(i, j);
            let (x, y) = l.corner(i, j);
            // One pixel of white between cells draws the grid.
            out.leaf(
                "rect",
                &[
                    ("class", "cell".into()),
                    ("data-i", i.to_string()),
                    ("data-j", j.to_string()),
                    ("data-d", (i + j).to_string()),
                    ("data-pos", s.pos(i, j).to_string()),
                    ("data-owner", owner.to_string()),
                    ("x", num(x)),
                    ("y", num(y)),
                    ("width", num(l.cell - 1.0)),
                    ("height", num(l.cell - 1.0)),
                    ("fill", hex(rank_colour(owner))),
                ],
            );
            if let Some(id) = rank_hatch(owner).id() {
                hatched.push((i, j, x, y, id));
            }
        }
    }
    for (i, j, x, y, id) in hatched {
        out.leaf(
            "rect",
            &[
                ("class", "hatch".into()),
                ("data-i", i.to_string()),
                ("data-j", j.to_string()),
                ("x", num(x)),
                ("y", num(y)),
                ("width", num(l.cell - 1.0)),
                ("height", num(l.cell - 1.0)),
                ("fill", format!("url(#{id})")),
                ("pointer-events", "none".into()),
            ],
        );
    }
    out.close("g");
}

/// One outline per diagonal (hidden until the page shows it): the staircase around its cells.
fn diagonal_outlines(out: &mut Svg, p: &Picture, l: &Layout) {
    let s = p.schedule;
    out.group("diagonal-outlines");
    for d in 0..s.diagonals() {
        let len = s.diag_len(d);
        let (i0, j0) = s.coords(d, 0);
        let (i0, j0) = (i0 as f64, j0 as f64);
        let mut points = Vec::with_capacity(4 * len);
        for k in 0..len {
            let k = k as f64;
            points.push((j0 - k + 1.0, i0 + k));
            points.push((j0 - k + 1.0, i0 + k + 1.0));
        }
        for k in (0..len).rev() {
            let k = k as f64;
            points.push((j0 - k, i0 + k + 1.0));
            points.push((j0 - k, i0 + k));
        }
        let mut path = String::new();
        for (k, (x, y)) in points.iter().enumerate() {
            let (px, py) = (l.grid_x + x * l.cell, l.grid_y + y * l.cell);
            let _ = write!(
                path,
                "{}{},{} ",
                if k == 0 { "M" } else { "L" },
                num(px),
                num(py)
            );
        }
        path.push('z');
        out.leaf(
            "path",
            &[
                ("class", "diagonal".into()),
                ("data-d", d.to_string()),
                ("d", path),
                ("fill", "none".into()),
                ("stroke", hex(DIAGONAL_COLOUR)),
                ("stroke-width", "3".into()),
                ("stroke-linejoin", "round".into()),
                ("visibility", "hidden".into()),
            ],
        );
    }
    out.close("g");
}

/// The walk: one step per pair of consecutive cells, centre to centre with its arrowhead
/// halfway; the match discs under the cell texts.
fn walk(out: &mut Svg, p: &Picture, l: &Layout) {
    out.group("walk");
    for (t, w) in p.path.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let from = l.at(a.0, a.1, 0.0, 0.0);
        let to = l.at(b.0, b.1, 0.0, 0.0);
        let mid = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
        out.leaf(
            "path",
            &[
                ("class", "walk-step".into()),
                ("data-t", t.to_string()),
                ("data-i", b.0.to_string()),
                ("data-j", b.1.to_string()),
                (
                    "d",
                    format!(
                        "M{},{} L{},{} L{},{}",
                        num(from.0),
                        num(from.1),
                        num(mid.0),
                        num(mid.1),
                        num(to.0),
                        num(to.1)
                    ),
                ),
                ("fill", "none".into()),
                ("stroke", hex(WALK_COLOUR)),
                ("stroke-width", num(l.walk_width())),
                ("marker-mid", "url(#walk-head)".into()),
            ],
        );
    }
    for (t, &(i, j)) in p.path.iter().enumerate() {
        if !is_match(p, i, j) {
            continue;
        }
        let (cx, cy) = l.at(i, j, 0.0, 0.0);
        let mut attrs = vec![
            ("class", "match".into()),
            ("data-t", t.to_string()),
            ("data-i", i.to_string()),
            ("data-j", j.to_string()),
        ];
        if let Some(v) = p.values {
            attrs.push(("data-k", v[i][j].to_string()));
        }
        attrs.extend([
            ("cx", num(cx)),
            ("cy", num(cy)),
            ("r", num(l.disc())),
            ("fill", hex(WALK_COLOUR)),
        ]);
        out.leaf("circle", &attrs);
    }
    out.close("g");
}

/// Each cell's text: its value (white on a match's disc) or, without values, its owner; the
/// text is haloed in the cell's colour so the walk line passes behind it.
fn cell_texts(out: &mut Svg, p: &Picture, l: &Layout) {
    if !l.cell_text {
        return;
    }
    let s = p.schedule;
    out.group("cell-texts");
    let on_walk: std::collections::HashSet<(usize, usize)> = p.path.iter().copied().collect();
    for i in 0..s.rows() {
        for j in 0..s.cols() {
            let owner = s.cell_proc(i, j);
            let text = match p.values {
                Some(v) => v[i][j].to_string(),
                None => format!("p{owner}"),
            };
            let disc = on_walk.contains(&(i, j)) && is_match(p, i, j);
            let (cx, cy) = l.at(i, j, 0.0, 0.0);
            let mut attrs = vec![
                ("class", "cell-text".into()),
                ("data-i", i.to_string()),
                ("data-j", j.to_string()),
                ("x", num(cx)),
                ("y", num(cy)),
                ("font-size", num(l.value_px)),
                ("text-anchor", "middle".into()),
                ("dominant-baseline", "central".into()),
            ];
            if disc {
                attrs.push(("data-disc", "1".into()));
                attrs.push(("fill", "#ffffff".into()));
                attrs.push(("font-weight", "bold".into()));
            } else {
                attrs.push(("fill", hex(TEXT_COLOUR)));
                attrs.push(("stroke", hex(rank_colour(owner))));
                attrs.push(("stroke-width", "4".into()));
                attrs.push(("paint-order", "stroke".into()));
            }
            out.text_el(&attrs, &text);
        }
    }
    out.close("g");
}

fn messages(out: &mut Svg, l: &Layout, arrows: &[Arrow]) {
    out.group("messages");
    for a in arrows {
        let (i, j) = a.from;
        // Shafts sit off-centre (right of the value for a downward arrow, below it for a
        // rightward one) and cross the shared edge, 0.3 cell into each cell.
        let (from, to) = if a.down {
            (l.at(i, j, 0.32, 0.2), l.at(i, j, 0.32, 0.8))
        } else {
            (l.at(i, j, 0.2, 0.32), l.at(i, j, 0.8, 0.32))
        };
        let e = &a.event;
        out.leaf(
            "line",
            &[
                ("class", "message".into()),
                ("data-kind", e.kind.name().into()),
                ("data-d", (i + j).to_string()),
                ("data-from", e.from.to_string()),
                ("data-to", e.to.to_string()),
                ("data-i", i.to_string()),
                ("data-j", j.to_string()),
                ("data-bytes", e.bytes.to_string()),
                ("x1", num(from.0)),
                ("y1", num(from.1)),
                ("x2", num(to.0)),
                ("y2", num(to.1)),
                ("stroke", hex(MESSAGE_COLOUR)),
                ("stroke-width", num(l.message_width())),
                ("marker-end", "url(#message-head)".into()),
            ],
        );
    }
    out.close("g");
}

/// Each hop as a thick arrow over its step of the walk, from disc edge to disc edge.
fn hop_arrows(out: &mut Svg, p: &Picture, l: &Layout, hops: &[Hop]) {
    out.group("hops");
    for h in hops {
        let (a, b) = (p.path[h.t], h.next);
        let (ax, ay) = l.at(a.0, a.1, 0.0, 0.0);
        let (bx, by) = l.at(b.0, b.1, 0.0, 0.0);
        let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt().max(1.0);
        let (ux, uy) = ((bx - ax) / len, (by - ay) / len);
        let trim = |cell: (usize, usize)| {
            if is_match(p, cell.0, cell.1) {
                l.disc()
            } else {
                l.cell * 0.12
            }
        };
        let (ta, tb) = (trim(a), trim(b));
        let from = (ax + ux * ta, ay + uy * ta);
        let to = (bx - ux * tb, by - uy * tb);
        let mid = ((ax + bx) / 2.0, (ay + by) / 2.0);
        let d = format!(
            "M{},{} L{},{} L{},{}",
            num(from.0),
            num(from.1),
            num(mid.0),
            num(mid.1),
            num(to.0),
            num(to.1)
        );
        // A white halo first, so that the hop stands out on every rank's colour.
        out.leaf(
            "path",
            &[
                ("class", "hop-halo".into()),
                ("data-t", h.t.to_string()),
                ("d", d.clone()),
                ("fill", "none".into()),
                ("stroke", "#ffffff".into()),
                ("stroke-width", num(l.hop_width() + 3.0)),
                ("stroke-linecap", "round".into()),
                ("marker-mid", "url(#hop-halo-head)".into()),
            ],
        );
        let mut attrs = vec![
            ("class", "hop".into()),
            ("data-t", h.t.to_string()),
            ("data-from", h.from.to_string()),
            ("data-to", h.to.to_string()),
            ("data-i", h.next.0.to_string()),
            ("data-j", h.next.1.to_string()),
            ("data-bytes", h.bytes.to_string()),
        ];
        if let Some(prefix) = &h.prefix {
            attrs.push(("data-prefix", display_bytes(prefix)));
        }
        attrs.extend([
            ("d", d),
            ("fill", "none".into()),
            ("stroke", hex(HOP_COLOUR)),
            ("stroke-width", num(l.hop_width())),
            ("stroke-linecap", "round".into()),
            ("marker-mid", "url(#hop-head)".into()),
        ]);
        out.leaf("path", &attrs);
    }
    out.close("g");
}

fn legend(out: &mut Svg, p: &Picture, l: &Layout) {
    let s = p.schedule;
    out.group("legend");
    let text = |out: &mut Svg, x: f64, y: f64, t: &str, bold: bool| {
        let mut attrs = vec![
            ("x", num(x)),
            ("y", num(y)),
            ("font-size", num(LEGEND_PX)),
            ("fill", hex(TEXT_COLOUR)),
            ("dominant-baseline", "central".into()),
        ];
        if bold {
            attrs.push(("font-weight", "bold".into()));
        }
        out.text_el(&attrs, t);
    };
    let x0 = l.legend_x;
    let mut y = l.legend_y;
    text(out, x0, y, "ranks:", true);
    let first = x0 + text_width("ranks:", LEGEND_PX) + 10.0;
    let swatch_w = SWATCH + 8.0 + text_width("p00", LEGEND_PX) + 12.0;
    let per_line = swatches_per_line();
    if s.rows() == 0 {
        text(out, first, y, "(empty matrix: no cells)", false);
    }
    for k in 0..s.working_ranks() {
        let col = k % per_line;
        if k > 0 && col == 0 {
            y += LEGEND_LINE;
        }
        let x = first + col as f64 * swatch_w;
        let rect = |out: &mut Svg, class: &str, fill: String| {
            out.leaf(
                "rect",
                &[
                    ("class", class.into()),
                    ("data-owner", k.to_string()),
                    ("x", num(x)),
                    ("y", num(y - SWATCH / 2.0)),
                    ("width", num(SWATCH)),
                    ("height", num(SWATCH)),
                    ("fill", fill),
                    ("stroke", hex(FAINT_TEXT_COLOUR)),
                ],
            );
        };
        rect(out, "swatch", hex(rank_colour(k)));
        if let Some(id) = rank_hatch(k).id() {
            rect(out, "swatch-hatch", format!("url(#{id})"));
        }
        text(out, x + SWATCH + 6.0, y, &format!("p{k}"), false);
    }
    y += LEGEND_LINE * 1.6;
    for line in &l.legend {
        let key_x = x0 + 2.0;
        match line.key {
            Key::Message => legend_arrow(out, key_x, y, MESSAGE_COLOUR, 2.0, "message-head"),
            Key::Walk => legend_arrow(out, key_x, y, WALK_COLOUR, 2.0, "walk-head"),
            Key::Hop => legend_arrow(out, key_x, y, HOP_COLOUR, 5.0, "hop-head"),
            Key::Match => {
                out.leaf(
                    "circle",
                    &[
                        ("class", "legend-key".into()),
                        ("cx", num(key_x + 14.0)),
                        ("cy", num(y)),
                        ("r", "9".into()),
                        ("fill", hex(WALK_COLOUR)),
                    ],
                );
                out.text_el(
                    &[
                        ("x", num(key_x + 14.0)),
                        ("y", num(y)),
                        ("font-size", "11".into()),
                        ("fill", "#ffffff".into()),
                        ("font-weight", "bold".into()),
                        ("text-anchor", "middle".into()),
                        ("dominant-baseline", "central".into()),
                    ],
                    "k",
                );
            }
            Key::Diagonal => {
                out.text_el(
                    &[
                        ("x", num(key_x + 4.0)),
                        ("y", num(y)),
                        ("font-size", "12".into()),
                        ("font-style", "italic".into()),
                        ("fill", hex(DIAGONAL_COLOUR)),
                        ("dominant-baseline", "central".into()),
                    ],
                    "d",
                );
            }
            Key::Text | Key::Heading | Key::More => {}
        }
        text(
            out,
            x0 + line.indent,
            y,
            &line.text,
            line.key == Key::Heading,
        );
        y += LEGEND_LINE;
    }
    out.close("g");
}

/// A short arrow for the legend, drawn like the marks it explains but classed as a key, so
/// that it is never counted among them.
fn legend_arrow(out: &mut Svg, x: f64, y: f64, colour: RGBColor, width: f64, head: &str) {
    let (from, to) = (x, x + 30.0);
    let centred = head != "message-head";
    let mut d = format!("M{},{} ", num(from), num(y));
    if centred {
        let _ = write!(d, "L{},{} ", num((from + to) / 2.0), num(y));
    }
    let _ = write!(d, "L{},{}", num(to), num(y));
    out.leaf(
        "path",
        &[
            ("class", "legend-key".into()),
            ("d", d),
            ("fill", "none".into()),
            ("stroke", hex(colour)),
            ("stroke-width", num(width)),
            (
                if centred { "marker-mid" } else { "marker-end" },
                format!("url(#{head})"),
            ),
        ],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parsed picture and the marks in it, found by class.
    struct Parsed {
        doc: roxmltree::Document<'static>,
    }

    impl Parsed {
        fn new(svg: &str) -> Parsed {
            let text: &'static str = Box::leak(svg.to_owned().into_boxed_str());
            let doc = roxmltree::Document::parse(text)
                .unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{svg}"));
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            Parsed { doc }
        }

        fn marks(&self, class: &str) -> Vec<roxmltree::Node<'_, 'static>> {
            self.doc
                .descendants()
                .filter(|n| n.attribute("class") == Some(class))
                .collect()
        }

        fn texts(&self, class: &str) -> Vec<String> {
            self.marks(class)
                .iter()
                .map(|n| n.text().unwrap_or_default().to_owned())
                .collect()
        }

        fn all_texts(&self) -> Vec<String> {
            self.doc
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .map(|n| n.text().unwrap_or_default().to_owned())
                .collect()
        }
    }

    fn num_attr(n: &roxmltree::Node, name: &str) -> usize {
        n.attribute(name)
            .unwrap_or_else(|| panic!("no {name} on {n:?}"))
            .parse()
            .unwrap()
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
    fn report_schedule_has_one_arrow_per_message_into_the_receiver() {
        let s = Schedule::new(5, 8, 3);
        let messages = predicted_messages(&s);
        assert!(!messages.is_empty());
        let svg = schedule_picture(&s, &messages);
        let parsed = Parsed::new(&svg);
        let arrows = parsed.marks("message");
        assert_eq!(arrows.len(), messages.len());
        for (a, e) in arrows.iter().zip(&messages) {
            let (i, j) = (num_attr(a, "data-i"), num_attr(a, "data-j"));
            assert_eq!(Some((i, j)), e.cell());
            assert_eq!(num_attr(a, "data-from"), e.from);
            assert_eq!(num_attr(a, "data-to"), e.to);
            assert_eq!(num_attr(a, "data-d"), i + j);
            // The arrow ends inside the receiver's neighbour cell.
            let (x2, y2): (f64, f64) = (
                a.attribute("x2").unwrap().parse().unwrap(),
                a.attribute("y2").unwrap().parse().unwrap(),
            );
            let cell = parsed
                .marks("cell")
                .into_iter()
                .find(|c| {
                    let x: f64 = c.attribute("x").unwrap().parse().unwrap();
                    let y: f64 = c.attribute("y").unwrap().parse().unwrap();
                    (x..x + 56.0).contains(&x2) && (y..y + 56.0).contains(&y2)
                })
                .expect("arrow ends in a cell");
            assert_eq!(num_attr(&cell, "data-owner"), e.to, "{e:?}");
            assert_ne!(s.cell_proc(i, j), e.to);
        }
        // One cell per matrix cell, its owner by cell_proc, its diagonal and position.
        let cells = parsed.marks("cell");
        assert_eq!(cells.len(), 40);
        for c in &cells {
            let (i, j) = (num_attr(c, "data-i"), num_attr(c, "data-j"));
            assert_eq!(num_attr(c, "data-owner"), s.cell_proc(i, j));
            assert_eq!(num_attr(c, "data-d"), i + j);
            assert_eq!(num_attr(c, "data-pos"), s.pos(i, j));
        }
        // Owners are written in the cells: p1 once per cell it owns.
        let owners = parsed.texts("cell-text");
        let p1 = owners.iter().filter(|t| *t == "p1").count() as u64;
        assert_eq!(p1, s.rank_cells(1));
        let texts = parsed.all_texts();
        for label in ["5 x 8 on 3 ranks", "columns j", "rows i", "p0", "p2"] {
            assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
        }
        // Every diagonal is numbered once, in a 5 x 8 grid.
        let labels: Vec<usize> = parsed
            .marks("diagonal-label")
            .iter()
            .map(|n| num_attr(n, "data-d"))
            .collect();
        assert_eq!(labels, (0..12).collect::<Vec<_>>());
        // Dropping a message drops an arrow.
        let svg = schedule_picture(&s, &messages[1..]);
        assert_eq!(Parsed::new(&svg).marks("message").len(), messages.len() - 1);
    }

    #[test]
    fn twelve_ranks_get_twelve_colours_and_hatching_after() {
        let s = Schedule::new(20, 20, 14);
        let svg = schedule_picture(&s, &predicted_messages(&s));
        let parsed = Parsed::new(&svg);
        let mut fill_of = std::collections::BTreeMap::new();
        for c in parsed.marks("cell") {
            let owner = num_attr(&c, "data-owner");
            let fill = c.attribute("fill").unwrap().to_owned();
            assert_eq!(*fill_of.entry(owner).or_insert(fill.clone()), fill);
        }
        let distinct: std::collections::BTreeSet<&String> =
            fill_of.range(0..12).map(|(_, f)| f).collect();
        assert_eq!(distinct.len(), 12, "{fill_of:?}");
        let hatched = parsed.marks("hatch").len() as u64;
        assert_eq!(hatched, s.rank_cells(12) + s.rank_cells(13));
        assert_eq!(parsed.marks("swatch-hatch").len(), 2);
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
        let parsed = Parsed::new(&svg);
        assert_eq!(
            parsed.marks("message").len() as u64,
            s.predicted_messages().total
        );
        assert!(parsed.marks("cell-text").is_empty(), "no text in 64 x 64");
        // Landscape enough to project: the legend sits beside the grid.
        let root = parsed.doc.root_element();
        let (w, h): (f64, f64) = (
            root.attribute("width").unwrap().parse().unwrap(),
            root.attribute("height").unwrap().parse().unwrap(),
        );
        assert!(w > h && w <= 1300.0, "{w} x {h}");
    }

    /// The sequential reference's values and walk for `x`, `y`, and the hops of that walk on
    /// `s` as the run would record them.
    type Solved = (Vec<Vec<u32>>, Vec<(usize, usize)>, Vec<Event>);

    fn solve(x: &[u8], y: &[u8], s: &Schedule) -> Solved {
        let values = crate::reference::full_table(x, y);
        let path = crate::reference::walk_path(x, y, &values);
        let mut found = 0;
        let mut events = Vec::new();
        for w in path.windows(2) {
            if x[w[0].0] == y[w[0].1] {
                found += 1;
            }
            let (from, to) = (s.cell_proc(w[0].0, w[0].1), s.cell_proc(w[1].0, w[1].1));
            if from != to {
                events.push(Event::new(
                    Kind::Traceback,
                    from,
                    to,
                    Some(w[1]),
                    16 + found,
                ));
            }
        }
        (values, path, events)
    }

    #[test]
    fn solved_picture_shows_values_bytes_walk_and_hops() {
        let (x, y) = (b"GAC\x01A".as_slice(), b"AGCAT\x01GA".as_slice());
        let s = Schedule::new(x.len(), y.len(), 3);
        let (values, path, hop_events) = solve(x, y, &s);
        let mut messages = predicted_messages(&s);
        messages.extend(hop_events.iter().copied());
        let svg = render(&Picture {
            schedule: &s,
            x: Some(x),
            y: Some(y),
            values: Some(&values),
            messages: &messages,
            path: &path,
            swapped: true,
            title: "solve".into(),
            legend: vec!["traceback hops: 2".into()],
        })
        .unwrap();
        let parsed = Parsed::new(&svg);
        assert_eq!(
            parsed.marks("message").len(),
            messages.len() - hop_events.len()
        );
        assert_eq!(
            parsed.texts("col-byte"),
            ["A", "G", "C", "A", "T", "01", "G", "A"]
        );
        assert_eq!(parsed.texts("row-byte"), ["G", "A", "C", "01", "A"]);
        let texts = parsed.all_texts();
        assert!(texts.iter().any(|t| t.starts_with("labels in italics")));
        assert!(texts.iter().any(|t| t == "traceback hops: 2"));
        assert_eq!(parsed.marks("swap-note").len(), 1);
        // The values, cell by cell in row order.
        let expected: Vec<String> = values.iter().flatten().map(|v| v.to_string()).collect();
        assert_eq!(parsed.texts("cell-text"), expected);
        // The walk: one step per pair of cells, in order; one disc per match on it, showing
        // its place in the LCS.
        let steps = parsed.marks("walk-step");
        assert_eq!(steps.len(), path.len() - 1);
        for (t, step) in steps.iter().enumerate() {
            assert_eq!(num_attr(step, "data-t"), t);
            assert_eq!(
                (num_attr(step, "data-i"), num_attr(step, "data-j")),
                path[t + 1]
            );
            assert_eq!(step.attribute("marker-mid"), Some("url(#walk-head)"));
        }
        let discs = parsed.marks("match");
        let matches: Vec<(usize, usize)> = path
            .iter()
            .copied()
            .filter(|&(i, j)| x[i] == y[j])
            .collect();
        assert_eq!(discs.len(), matches.len());
        let lcs_len = values[x.len() - 1][y.len() - 1] as usize;
        let places: Vec<usize> = discs.iter().map(|d| num_attr(d, "data-k")).collect();
        assert_eq!(places, (1..=lcs_len).rev().collect::<Vec<_>>());
        // Hops: one thick arrow per traceback message, on its step, with its payload.
        let hops = parsed.marks("hop");
        assert_eq!(hops.len(), hop_events.len());
        assert!(!hops.is_empty(), "this walk crosses ranks");
        for (h, e) in hops.iter().zip(&hop_events) {
            let t = num_attr(h, "data-t");
            assert_eq!(Some(path[t + 1]), e.cell());
            assert_eq!(num_attr(h, "data-from"), e.from);
            assert_eq!(num_attr(h, "data-bytes") as u64, e.bytes);
            let prefix = h.attribute("data-prefix").unwrap();
            assert_eq!(
                16 + prefix.replace("\\x01", "_").len() as u64,
                e.bytes,
                "{prefix}"
            );
        }
        assert!(texts.iter().any(|t| t.starts_with("hop 1: p")), "{texts:?}");
    }

    #[test]
    fn hops_off_the_walk_are_internal_errors() {
        let (x, y) = (b"GACA".as_slice(), b"AGCATGA".as_slice());
        let s = Schedule::new(x.len(), y.len(), 2);
        let (values, path, _) = solve(x, y, &s);
        let stray = [Event::new(Kind::Traceback, 0, 1, Some((3, 0)), 16)];
        let picture = Picture {
            schedule: &s,
            x: Some(x),
            y: Some(y),
            values: Some(&values),
            messages: &stray,
            path: &path,
            swapped: false,
            title: String::new(),
            legend: vec![],
        };
        assert!(matches!(render(&picture), Err(Error::Internal(_))));
    }

    #[test]
    fn the_page_grid_has_an_outline_per_diagonal_and_no_legend() {
        let s = Schedule::new(4, 6, 2);
        let messages = predicted_messages(&s);
        let svg = render_grid(&Picture::of_schedule(&s, &messages, "t".into(), vec![])).unwrap();
        let parsed = Parsed::new(&svg);
        let outlines = parsed.marks("diagonal");
        assert_eq!(outlines.len(), s.diagonals());
        assert!(parsed.marks("legend").is_empty());
        assert!(parsed.marks("title").is_empty());
        assert_eq!(parsed.marks("message").len(), messages.len());
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
            swapped: false,
            title: String::new(),
            legend: vec![],
        };
        assert!(render(&base).is_ok());
        let short_y = Picture {
            y: Some(b"ab"),
            ..base
        };
        assert!(matches!(render(&short_y), Err(Error::Internal(_))));
        let outside = Picture {
            schedule: &s,
            x: None,
            y: None,
            values: None,
            messages: &[],
            path: &[(2, 0)],
            swapped: false,
            title: String::new(),
            legend: vec![],
        };
        assert!(matches!(render(&outside), Err(Error::Internal(_))));
    }

    #[test]
    fn empty_matrix_draws_legend_only() {
        let s = Schedule::new(0, 4, 2);
        let svg = schedule_picture(&s, &[]);
        let parsed = Parsed::new(&svg);
        assert!(parsed.marks("message").is_empty());
        assert!(parsed.marks("cell").is_empty());
        assert!(parsed
            .all_texts()
            .iter()
            .any(|t| t == "(empty matrix: no cells)"));
    }

    #[test]
    fn text_is_escaped() {
        let s = Schedule::new(1, 2, 1);
        let svg = render(&Picture::of_schedule(
            &s,
            &[],
            "a <b> & \"c\"".into(),
            vec![],
        ))
        .unwrap();
        let parsed = Parsed::new(&svg);
        assert_eq!(parsed.texts("title"), ["a <b> & \"c\""]);
        assert_eq!(display_bytes(b"a\x01 b"), "a\\x01 b");
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
        assert_eq!(Parsed::new(&svg).marks("message").len(), messages.len());
        let missing = dir.path().join("no/such/dir/s.svg");
        assert!(matches!(
            write_svg(&missing, &picture),
            Err(Error::Output { .. })
        ));
    }
}
