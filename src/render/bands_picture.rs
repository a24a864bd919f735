//! The classroom picture of a bands run or schedule, cell by cell: the bands of columns in their
//! owners' colours, fenced by thick lines and named above (ownership is not told by colour alone),
//! the words and the batches, one arrow per message of carries at the band's edge in the sender's
//! colour, each cell's value (or owner), the traceback walk with its hops, and below it the
//! per-rank timeline (`timeline`). Cells need not be square: a band is at least a word wide, so a
//! run's grid is wide and flat and its cells are stretched to keep the rows readable. The marks
//! carry the contract of [`super::svg`]'s with the pipeline stage in place of the diagonal:
//! `docs/classroom.md#the-pictures-marks-and-the-pages-data`.

use super::layout::{Geometry, LEGEND_PX, MARGIN, TITLE_PX};
use super::picture::{check, hops, Picture};
use super::pipeline::Pipeline;
use super::style::{hex, rank_colour, DIAGONAL_COLOUR, TEXT_COLOUR};
use super::xml::{num, SvgWriter};
use super::{grid, timeline, walk};
use crate::comm::protocol::Kind;
use crate::error::Error;

/// Largest number of rows a bands picture or page is drawn for.
pub const MAX_ROWS: usize = 64;
/// Largest number of columns a bands picture or page is drawn for: eight words of the engine.
pub const MAX_COLS: usize = 512;

/// The refusal for a bands matrix too large to draw, or `None`.
pub fn too_large(rows: usize, cols: usize) -> Option<String> {
    (rows > MAX_ROWS || cols > MAX_COLS).then(|| {
        format!(
            "bands pictures and pages are limited to {MAX_ROWS} rows and {MAX_COLS} columns; \
             this matrix is {rows} x {cols}"
        )
    })
}

/// Positions of a bands grid.
pub(super) struct BandsLayout {
    pub(super) cell_w: f64,
    pub(super) cell_h: f64,
    pub(super) grid_x: f64,
    pub(super) grid_y: f64,
    pub(super) cell_text: bool,
    pub(super) value_px: f64,
    pub(super) width: f64,
    /// Bottom of the grid (the timeline starts below).
    pub(super) grid_bottom: f64,
}

impl Geometry for BandsLayout {
    fn centre(&self, i: usize, j: usize) -> (f64, f64) {
        (
            self.grid_x + (j as f64 + 0.5) * self.cell_w,
            self.grid_y + (i as f64 + 0.5) * self.cell_h,
        )
    }

    fn side(&self) -> f64 {
        self.cell_w.min(self.cell_h)
    }

    fn walk_width(&self) -> f64 {
        (self.side() * 0.1).clamp(1.5, 3.0)
    }

    fn disc(&self) -> f64 {
        self.side() * 0.36
    }

    fn hop_width(&self) -> f64 {
        (self.side() * 0.2).clamp(3.0, 8.0)
    }
}

impl BandsLayout {
    fn new(pipe: &Pipeline, full: bool, labelled: bool) -> BandsLayout {
        let (m, n) = (pipe.rows().max(1), pipe.cols().max(1));
        let mut cell_w = (760.0 / n as f64).min(56.0);
        let mut cell_h = (400.0 / m as f64).min(56.0);
        if cell_w >= 20.0 && cell_h >= 20.0 {
            cell_w = cell_w.min(cell_h);
            cell_h = cell_w;
        }
        let cell_text = cell_w >= 22.0 && cell_h >= 18.0;
        let title = if full { TITLE_PX + 16.0 } else { 0.0 };
        let grid_y = MARGIN + title + 60.0 + if labelled { 0.0 } else { -20.0 };
        let grid_x = MARGIN + 110.0;
        let grid_bottom = grid_y + cell_h * pipe.rows() as f64;
        BandsLayout {
            cell_w,
            cell_h,
            grid_x,
            grid_y,
            cell_text,
            value_px: (cell_w.min(cell_h) * 0.42).clamp(9.5, 18.0),
            width: grid_x + cell_w * pipe.cols() as f64 + 60.0,
            grid_bottom,
        }
    }

    fn x(&self, j: usize) -> f64 {
        self.grid_x + j as f64 * self.cell_w
    }

    fn y(&self, i: usize) -> f64 {
        self.grid_y + i as f64 * self.cell_h
    }
}

/// The whole picture (`--svg`): title, grid, timeline and legend.
pub fn render(p: &Picture) -> Result<String, Error> {
    draw(p, true)
}

/// The grid and timeline alone, for the page.
pub fn render_grid(p: &Picture) -> Result<String, Error> {
    draw(p, false)
}

fn text(out: &mut SvgWriter, class: &str, at: (f64, f64), px: f64, anchor: &str, content: &str) {
    out.text(
        &[
            ("class", class.into()),
            ("x", num(at.0)),
            ("y", num(at.1)),
            ("font-size", num(px)),
            ("text-anchor", anchor.into()),
            ("fill", hex(TEXT_COLOUR)),
        ],
        content,
    );
}

fn draw(p: &Picture, full: bool) -> Result<String, Error> {
    let pipe = p.bands.expect("a bands picture");
    if let Some(problem) = too_large(pipe.rows(), pipe.cols()) {
        return Err(Error::Usage(problem));
    }
    check(p)?;
    let hops = hops(p)?;
    let l = BandsLayout::new(pipe, full, p.y.is_some());
    let spans = if p.spans.is_empty() {
        pipe.model_spans()
    } else {
        p.spans.to_vec()
    };
    let tl = timeline::Timeline::new(pipe, &spans, !p.spans.is_empty(), l.grid_bottom + 44.0);
    let legend = if full { legend_lines(p, pipe) } else { vec![] };
    let width = l.width.max(tl.width()).max(760.0).ceil();
    let legend_y = tl.bottom() + 24.0;
    let height = (legend_y + legend.len() as f64 * 20.0 + MARGIN).ceil();
    let mut out = SvgWriter::new();
    out.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", num(width)),
            ("height", num(height)),
            ("viewBox", format!("0 0 {} {}", num(width), num(height))),
            ("font-family", super::style::FONT_FAMILY.into()),
            ("class", "lcs-picture bands-picture".into()),
            ("data-rows", pipe.rows().to_string()),
            ("data-cols", pipe.cols().to_string()),
            ("data-ranks", pipe.ranks().to_string()),
        ],
    );
    super::marks::defs(&mut out, l.side().max(20.0), pipe.active_ranks());
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
        out.text(
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
    }
    axes(&mut out, p, pipe, &l);
    cells(&mut out, p, pipe, &l);
    fences(&mut out, pipe, &l);
    if !full {
        stages(&mut out, pipe, &l);
    }
    walk::steps(&mut out, p, &l);
    cell_texts(&mut out, p, pipe, &l);
    messages(&mut out, p, pipe, &l)?;
    walk::hop_arrows(&mut out, p, &l, &hops);
    tl.draw(&mut out);
    if full {
        for (k, line) in legend.iter().enumerate() {
            text(
                &mut out,
                "legend",
                (MARGIN, legend_y + k as f64 * 20.0),
                LEGEND_PX,
                "start",
                line,
            );
        }
    }
    out.close("svg");
    Ok(out.finish())
}

/// The bands named above the grid, the batches on the left, the sequences' bytes when the
/// cells are large enough for them.
fn axes(out: &mut SvgWriter, p: &Picture, pipe: &Pipeline, l: &BandsLayout) {
    out.group("axes");
    let top = l.grid_y - 8.0;
    for k in 0..pipe.active_ranks() {
        let cols = pipe.cols_of(k);
        let (a, b) = (l.x(cols.start), l.x(cols.end));
        let wide = b - a > 150.0;
        let name = if wide {
            format!("p{k}: columns {}–{}", cols.start, cols.end - 1)
        } else {
            format!("p{k}")
        };
        out.text(
            &[
                ("class", "band-label".into()),
                ("data-rank", k.to_string()),
                ("x", num((a + b) / 2.0)),
                (
                    "y",
                    num(top
                        - if p.y.is_some() && l.cell_w >= 12.0 {
                            22.0
                        } else {
                            0.0
                        }),
                ),
                ("font-size", "16".into()),
                ("font-weight", "bold".into()),
                ("text-anchor", "middle".into()),
                ("fill", hex(TEXT_COLOUR)),
            ],
            &name,
        );
    }
    if let (Some(y), true) = (p.y, l.cell_w >= 12.0) {
        for (j, &byte) in y.iter().enumerate() {
            let (label, _) = super::picture::byte_label(byte);
            text(
                out,
                "col-byte",
                (l.x(j) + l.cell_w / 2.0, top),
                (l.cell_w * 0.5).clamp(9.0, 18.0),
                "middle",
                &label,
            );
        }
    }
    for b in 0..pipe.batches() {
        let rows = pipe.batch_rows(b);
        let mid = (l.y(rows.start) + l.y(rows.end)) / 2.0;
        text(
            out,
            "batch-label",
            (MARGIN, mid + 5.0),
            14.0,
            "start",
            &format!("batch {b}"),
        );
    }
    if let (Some(x), true) = (p.x, l.cell_h >= 12.0) {
        for (i, &byte) in x.iter().enumerate() {
            let (label, _) = super::picture::byte_label(byte);
            let px = (l.cell_h * 0.6).clamp(9.0, 18.0);
            text(
                out,
                "row-byte",
                (l.grid_x - 8.0, l.y(i) + l.cell_h / 2.0 + px * 0.35),
                px,
                "end",
                &label,
            );
        }
    }
    out.close("g");
}

fn cells(out: &mut SvgWriter, p: &Picture, pipe: &Pipeline, l: &BandsLayout) {
    out.group("cells");
    let gap = if l.cell_w >= 8.0 { 1.0 } else { 0.0 };
    for i in 0..pipe.rows() {
        let b = i / pipe.batch();
        for j in 0..pipe.cols() {
            let owner = p.owner(i, j);
            out.leaf(
                "rect",
                &[
                    ("class", "cell".into()),
                    ("data-i", i.to_string()),
                    ("data-j", j.to_string()),
                    ("data-owner", owner.to_string()),
                    ("data-batch", b.to_string()),
                    ("data-unit", (owner + b).to_string()),
                    ("x", num(l.x(j))),
                    ("y", num(l.y(i))),
                    ("width", num(l.cell_w - gap)),
                    ("height", num(l.cell_h - 1.0)),
                    ("fill", hex(rank_colour(owner))),
                ],
            );
        }
    }
    out.close("g");
}

/// Thick lines between bands (ownership without colour), thin white lines between words,
/// dashed lines between batches.
fn fences(out: &mut SvgWriter, pipe: &Pipeline, l: &BandsLayout) {
    out.group("fences");
    let (top, bottom) = (l.grid_y - 4.0, l.grid_bottom + 4.0);
    let line = |out: &mut SvgWriter,
                class: &str,
                a: (f64, f64),
                b: (f64, f64),
                stroke: String,
                width: f64,
                dash: Option<&str>| {
        let mut attrs = vec![
            ("class", class.to_owned()),
            ("x1", num(a.0)),
            ("y1", num(a.1)),
            ("x2", num(b.0)),
            ("y2", num(b.1)),
            ("stroke", stroke),
            ("stroke-width", num(width)),
        ];
        if let Some(d) = dash {
            attrs.push(("stroke-dasharray", d.to_owned()));
        }
        out.leaf("line", &attrs);
    };
    if pipe.total_words() <= 200 {
        for w in 1..pipe.total_words() {
            let x = l.x(w * pipe.word());
            line(
                out,
                "word",
                (x, l.grid_y),
                (x, l.grid_bottom),
                "#ffffff".into(),
                1.5,
                None,
            );
        }
    }
    for b in 1..pipe.batches() {
        let y = l.y(pipe.batch_rows(b).start);
        line(
            out,
            "batch",
            (l.grid_x - 10.0, y),
            (l.x(pipe.cols()) + 4.0, y),
            hex(TEXT_COLOUR),
            1.5,
            Some("6 4"),
        );
    }
    for k in 0..=pipe.active_ranks() {
        let x = l.x(if k == pipe.active_ranks() {
            pipe.cols()
        } else {
            pipe.cols_of(k).start
        });
        line(
            out,
            "band-edge",
            (x, top),
            (x, bottom),
            hex(TEXT_COLOUR),
            3.0,
            None,
        );
    }
    out.close("g");
}

/// One outline per band and batch, named by its stage (hidden until the page shows it).
fn stages(out: &mut SvgWriter, pipe: &Pipeline, l: &BandsLayout) {
    out.group("stage-outlines");
    for b in 0..pipe.batches() {
        let rows = pipe.batch_rows(b);
        for k in 0..pipe.active_ranks() {
            let cols = pipe.cols_of(k);
            out.leaf(
                "rect",
                &[
                    ("class", "stage".into()),
                    ("data-unit", (k + b).to_string()),
                    ("data-rank", k.to_string()),
                    ("data-batch", b.to_string()),
                    ("x", num(l.x(cols.start) + 1.5)),
                    ("y", num(l.y(rows.start) + 1.5)),
                    ("width", num(cols.len() as f64 * l.cell_w - 3.0)),
                    ("height", num(rows.len() as f64 * l.cell_h - 3.0)),
                    ("fill", "none".into()),
                    ("stroke", hex(DIAGONAL_COLOUR)),
                    ("stroke-width", "3".into()),
                    ("visibility", "hidden".into()),
                ],
            );
        }
    }
    out.close("g");
}

fn cell_texts(out: &mut SvgWriter, p: &Picture, pipe: &Pipeline, l: &BandsLayout) {
    if !l.cell_text {
        return;
    }
    out.group("cell-texts");
    let on_walk: std::collections::HashSet<(usize, usize)> = p.path.iter().copied().collect();
    for i in 0..pipe.rows() {
        for j in 0..pipe.cols() {
            let owner = p.owner(i, j);
            let text = match p.values {
                Some(v) => v[i][j].to_string(),
                None => format!("p{owner}"),
            };
            let disc = on_walk.contains(&(i, j)) && super::picture::is_match(p, i, j);
            let (cx, cy) = l.centre(i, j);
            let mut attrs = vec![
                ("class", "cell-text".to_owned()),
                ("data-i", i.to_string()),
                ("data-j", j.to_string()),
                ("data-unit", (owner + i / pipe.batch()).to_string()),
                ("x", num(cx)),
                ("y", num(cy)),
                ("font-size", num(l.value_px)),
                ("text-anchor", "middle".into()),
                ("dominant-baseline", "central".into()),
            ];
            if disc {
                attrs.extend([
                    ("data-disc", "1".to_owned()),
                    ("fill", "#ffffff".into()),
                    ("font-weight", "bold".into()),
                ]);
            } else {
                attrs.extend([
                    ("fill", hex(TEXT_COLOUR)),
                    ("stroke", hex(rank_colour(owner))),
                    ("stroke-width", "4".into()),
                    ("paint-order", "stroke".into()),
                ]);
            }
            out.text(&attrs, &text);
        }
    }
    out.close("g");
}

/// One arrow per message of carries: across the band's right edge, at the batch's middle.
fn messages(
    out: &mut SvgWriter,
    p: &Picture,
    pipe: &Pipeline,
    l: &BandsLayout,
) -> Result<(), Error> {
    out.group("messages");
    for e in p.messages.iter().filter(|e| e.kind == Kind::Boundary) {
        let Some(b) = pipe.batch_of_message(e) else {
            return Err(Error::Internal(anyhow::anyhow!(
                "picture: a message of carries without its batch: {e:?}"
            )));
        };
        let (i, j) = e.cell().unwrap_or_default();
        let rows = pipe.batch_rows(b);
        let y = (l.y(rows.start) + l.y(rows.end)) / 2.0;
        let edge = l.x(pipe.cols_of(e.from).end);
        let reach = (l.cell_w * 0.8).clamp(24.0, 32.0);
        grid::arrow(
            out,
            &[
                ("data-kind", "boundary".into()),
                ("data-unit", (e.from + b).to_string()),
                ("data-batch", b.to_string()),
                ("data-d", e.diagonal.unwrap_or_default().to_string()),
                ("data-from", e.from.to_string()),
                ("data-to", e.to.to_string()),
                ("data-i", i.to_string()),
                ("data-j", j.to_string()),
                ("data-rows", format!("{}..{}", rows.start, rows.end)),
                ("data-bytes", e.bytes.to_string()),
            ],
            &[
                ("x1", num(edge - reach)),
                ("y1", num(y)),
                ("x2", num(edge + reach)),
                ("y2", num(y)),
            ],
            e.from,
            (l.cell_h * 0.2).clamp(5.0, 7.0),
        );
    }
    out.close("g");
    Ok(())
}

/// What the static picture says under its timeline.
fn legend_lines(p: &Picture, pipe: &Pipeline) -> Vec<String> {
    let mut lines = vec![];
    for k in 0..pipe.active_ranks() {
        let cols = pipe.cols_of(k);
        lines.push(format!(
            "p{k}: columns {}–{} ({} word{} of {}){}",
            cols.start,
            cols.end.saturating_sub(1),
            pipe.words(k).len(),
            if pipe.words(k).len() == 1 { "" } else { "s" },
            pipe.word(),
            if k + 1 < pipe.active_ranks() {
                format!(", sends p{} one message of carries per batch", k + 1)
            } else {
                String::new()
            }
        ));
    }
    if pipe.active_ranks() < pipe.ranks() {
        lines.push(super::lesson::idle_bands(pipe));
    }
    if pipe.teaching() {
        lines.push(super::lesson::teaching_word(pipe));
    }
    lines.push(format!(
        "arrow: one message, the carries of a batch's rows ({} bytes for {} rows), in the sender's colour",
        pipe.message_bytes(0),
        pipe.batch()
    ));
    lines.push(format!(
        "boundary messages: (p − 1) × ⌈m / B⌉ = {} × {} = {}",
        pipe.active_ranks().saturating_sub(1),
        pipe.batches(),
        pipe.predicted_messages()
    ));
    lines.extend(p.legend.iter().cloned());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::bands::BandPlan;
    use crate::engines::diagonal::schedule::Schedule;

    #[test]
    fn a_bands_picture_has_a_cell_per_cell_and_an_arrow_per_message() {
        let plan = BandPlan::new(11, 13, 3, 4);
        let pipe = Pipeline::with_word(&plan, 4);
        let s = Schedule::new(11, 13, 3);
        let messages = pipe.messages();
        let mut picture = Picture::of_schedule(&s, &messages, "bands".into(), vec![]);
        picture.bands = Some(&pipe);
        let svg = render(&picture).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let class = |c: &str| {
            doc.descendants()
                .filter(|e| e.attribute("class") == Some(c))
                .collect::<Vec<_>>()
        };
        assert_eq!(class("cell").len(), 11 * 13);
        assert_eq!(class("message").len(), 6);
        assert_eq!(class("band-edge").len(), 4);
        for c in class("cell") {
            let j: usize = c.attribute("data-j").unwrap().parse().unwrap();
            let owner: usize = c.attribute("data-owner").unwrap().parse().unwrap();
            assert_eq!(owner, pipe.owner_of_col(j));
        }
        assert!(
            class("span").len() >= 9,
            "a timeline: three batches on three ranks"
        );
        assert!(svg.contains("teaching word"), "the word is said");
        let grid = render_grid(&picture).unwrap();
        let doc = roxmltree::Document::parse(&grid).unwrap();
        let stages = doc
            .descendants()
            .filter(|e| e.attribute("class") == Some("stage"))
            .count();
        assert_eq!(stages, 9);
        assert!(too_large(65, 100).is_some() && too_large(64, 513).is_some());
        assert!(too_large(64, 512).is_none());
    }
}
