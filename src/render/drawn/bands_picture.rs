//! The classroom picture of a bands run or schedule: the bands of columns in their owners' colours,
//! set apart by a gap in which a thick fence stands (ownership is not told by colour alone, and no
//! fence covers a cell), named above; the words and the batches; one arrow per message of carries
//! across the gap, in the sender's ink; the traceback walk with its hops; and below it the
//! per-rank timeline (`timeline`). A small matrix is drawn cell by cell with its values, a larger
//! one by one block per band and batch, to scale (the walk still cell by cell), so a picture stays
//! a few hundred kilobytes; where everything goes, cells and blocks, is [`super::bands_layout`].
//! The marks carry the contract of [`super::svg`]'s with the pipeline stage in place of the
//! diagonal, and the root the grid's geometry:
//! `docs/classroom.md#the-pictures-marks-and-the-pages-data`.

use super::bands_layout::{BandsLayout, Detail, GAP};
use super::grid::{self, CellText};
use super::layout::{Geometry, LEGEND_PX, MARGIN};
use super::style::{hex, rank_colour, DIAGONAL_COLOUR, TEXT_COLOUR};
use super::xml::{num, SvgWriter};
use super::{marks, timeline, title, walk};
use crate::comm::protocol::Kind;
use crate::comm::trace::MAX_TRACE_CELLS;
use crate::error::Error;
use crate::render::shown::hops::hops;
use crate::render::shown::picture::{check, Picture};
use crate::render::shown::pipeline::Pipeline;

/// Most blocks (bands times batches) a picture or page draws.
pub const MAX_BLOCKS: usize = 1024;
/// Most cells of a run whose picture or page is drawn: the page holds every recorded value.
pub const MAX_RUN_CELLS: u64 = MAX_TRACE_CELLS;
/// Most rows plus columns of a run whose walk is drawn, a mark per cell it visits.
pub const MAX_RUN_SIDES: usize = 8192;

/// The refusal for a bands picture or page of `pipe` (a run's when `recorded`), or `None`; it
/// names what draws it instead.
pub fn refusal(pipe: &Pipeline, recorded: bool) -> Option<String> {
    let (m, n) = (pipe.rows(), pipe.cols());
    let active = pipe.active_ranks().max(1);
    let blocks = active.saturating_mul(pipe.batches());
    if recorded && (m as u64 * n as u64 > MAX_RUN_CELLS || m + n > MAX_RUN_SIDES) {
        return Some(format!(
            "the picture and page of a run hold every value its ranks recorded and every cell \
             its walk visited, up to {MAX_RUN_CELLS} cells and {MAX_RUN_SIDES} rows and columns; \
             this matrix is {m} x {n}: `mpi-lcs schedule --engine bands --rows {m} --cols {n} \
             --ranks {} --batch {} --html` draws its pipeline",
            pipe.ranks(),
            pipe.batch()
        ));
    }
    if Detail::of(pipe) == Detail::Blocks && blocks > MAX_BLOCKS {
        // The smallest batch that leaves at most MAX_BLOCKS blocks.
        let batch = m.div_ceil(MAX_BLOCKS / active);
        return Some(format!(
            "bands pictures and pages draw a block per band and batch, up to {MAX_BLOCKS}; \
             these bands have {active} x {} = {blocks}: --batch {batch} or more draws them",
            pipe.batches()
        ));
    }
    None
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
    tagged_text(out, (class, None), at, px, anchor, content);
}

/// A text classed `class`, tagged (`data-i` or `data-j`) with the row or column it names.
fn tagged_text(
    out: &mut SvgWriter,
    (class, tag): (&str, Option<(&'static str, usize)>),
    at: (f64, f64),
    px: f64,
    anchor: &str,
    content: &str,
) {
    let mut attrs = vec![("class", class.to_owned())];
    if let Some((key, at)) = tag {
        attrs.push((key, at.to_string()));
    }
    attrs.extend([
        ("x", num(at.0)),
        ("y", num(at.1)),
        ("font-size", num(px)),
        ("text-anchor", anchor.into()),
        ("fill", hex(TEXT_COLOUR)),
    ]);
    out.text(&attrs, content);
}

fn draw(p: &Picture, full: bool) -> Result<String, Error> {
    let pipe = p.bands.expect("a bands picture");
    if let Some(problem) = refusal(pipe, p.values.is_some()) {
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
    let legend = if full {
        legend_lines(p, pipe, &l)
    } else {
        vec![]
    };
    let width = l.width.max(tl.width()).max(760.0).ceil();
    let legend_y = tl.bottom() + 24.0;
    let height = (legend_y + legend.len() as f64 * 20.0 + MARGIN).ceil();
    let mut out = SvgWriter::new();
    marks::root(
        &mut out,
        (width, height),
        "lcs-picture bands-picture",
        (pipe.rows(), pipe.cols(), pipe.ranks()),
        &l.root_attributes(),
    );
    marks::defs(&mut out, l.side().max(20.0), pipe.active_ranks());
    marks::background(&mut out);
    if full {
        // No swap note: the layout keeps no line for one.
        title::line(&mut out, p);
    }
    axes(&mut out, p, pipe, &l);
    match l.detail {
        Detail::Cells => cells(&mut out, p, pipe, &l),
        Detail::Blocks => blocks(&mut out, pipe, &l),
    }
    fences(&mut out, pipe, &l);
    if !full {
        stages(&mut out, &l);
    }
    // Arrows, the walk and its hops under the cells' texts, whose halo keeps them readable.
    messages(&mut out, p, pipe, &l)?;
    walk::steps(&mut out, p, &l);
    walk::hop_arrows(&mut out, p, &l, &hops);
    cell_texts(&mut out, p, pipe, &l);
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

/// The bands named above the grid, the batches on the left (as many as have room), the
/// sequences' bytes when the cells are large enough for them.
fn axes(out: &mut SvgWriter, p: &Picture, pipe: &Pipeline, l: &BandsLayout) {
    out.group("axes");
    let top = l.grid_y - 8.0;
    for k in 0..pipe.active_ranks() {
        let cols = pipe.cols_of(k);
        let (a, b) = l.band_edges(k);
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
            let (label, _) = crate::render::shown::picture::byte_label(byte);
            tagged_text(
                out,
                ("col-byte", Some(("data-j", j))),
                (l.x(j) + l.cell_w / 2.0, top),
                (l.cell_w * 0.5).clamp(11.0, 18.0),
                "middle",
                &label,
            );
        }
    }
    // A label per batch while batches are 20 units high; every few batches beyond.
    let batch_h = pipe.batch() as f64 * l.cell_h;
    let every = (20.0 / batch_h.max(1e-9)).ceil().max(1.0) as usize;
    for b in (0..pipe.batches()).step_by(every) {
        let rows = pipe.batch_rows(b);
        let mid = (l.y(rows.start) + l.y(rows.end)) / 2.0;
        text(
            out,
            "batch-label",
            (MARGIN, mid + 5.0),
            15.0,
            "start",
            &format!("batch {b}"),
        );
    }
    if let (Some(x), true) = (p.x, l.cell_h >= 12.0) {
        for (i, &byte) in x.iter().enumerate() {
            let (label, _) = crate::render::shown::picture::byte_label(byte);
            let px = (l.cell_h * 0.6).clamp(11.0, 18.0);
            tagged_text(
                out,
                ("row-byte", Some(("data-i", i))),
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

/// One block per band and batch, to scale: the cells a band computes in one go.
fn blocks(out: &mut SvgWriter, pipe: &Pipeline, l: &BandsLayout) {
    out.group("blocks");
    for block in l.blocks() {
        let (k, b, rows) = (block.rank, block.batch, &block.rows);
        let cols = pipe.cols_of(k);
        out.leaf(
            "rect",
            &[
                ("class", "block".into()),
                ("data-rank", k.to_string()),
                ("data-batch", b.to_string()),
                ("data-unit", (k + b).to_string()),
                ("data-rows", format!("{}..{}", rows.start, rows.end)),
                ("data-cols", format!("{}..{}", cols.start, cols.end)),
                ("x", num(block.x)),
                ("y", num(block.y)),
                ("width", num(block.width)),
                ("height", num(block.height)),
                ("fill", hex(rank_colour(k))),
            ],
        );
    }
    out.close("g");
}

/// Thick lines in the gaps between bands (ownership without colour, over no cell), thin white
/// lines between words, dashed lines between batches.
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
    if pipe.total_words() <= 200 && l.cell_w * pipe.word() as f64 >= 4.0 {
        for w in 1..pipe.total_words() {
            let j = w * pipe.word();
            if pipe.owner_of_col(j) != pipe.owner_of_col(j - 1) {
                continue;
            }
            let x = l.x(j);
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
    let right = l.band_edges(pipe.active_ranks().saturating_sub(1)).1;
    if pipe.batches() <= 200 {
        for b in 1..pipe.batches() {
            let y = l.y(pipe.batch_rows(b).start);
            line(
                out,
                "batch",
                (l.grid_x - 10.0, y),
                (right + 4.0, y),
                hex(TEXT_COLOUR),
                1.5,
                Some("6 4"),
            );
        }
    }
    let half = GAP / 2.0;
    for k in 0..=pipe.active_ranks() {
        let x = if k == pipe.active_ranks() {
            right + half
        } else {
            l.band_edges(k).0 - half
        };
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
fn stages(out: &mut SvgWriter, l: &BandsLayout) {
    out.group("stage-outlines");
    for block in l.blocks() {
        let (k, b) = (block.rank, block.batch);
        out.leaf(
            "rect",
            &[
                ("class", "stage".into()),
                ("data-unit", (k + b).to_string()),
                ("data-rank", k.to_string()),
                ("data-batch", b.to_string()),
                ("x", num(block.x + 1.5)),
                ("y", num(block.y + 1.5)),
                ("width", num((block.width - 3.0).max(1.0))),
                ("height", num((block.height - 3.0).max(1.0))),
                ("fill", "none".into()),
                ("stroke", hex(DIAGONAL_COLOUR)),
                ("stroke-width", "3".into()),
                ("visibility", "hidden".into()),
            ],
        );
    }
    out.close("g");
}

/// Each cell's text (its value, or its owner) with the stage at which it is computed.
fn cell_texts(out: &mut SvgWriter, p: &Picture, pipe: &Pipeline, l: &BandsLayout) {
    if !l.cell_text {
        return;
    }
    grid::texts(out, p, l, (pipe.rows(), pipe.cols()), |i, j| {
        let owner = p.owner(i, j);
        Some(CellText {
            unit: Some(owner + i / pipe.batch()),
            ..CellText::of(p, owner, i, j)
        })
    });
}

/// One arrow per message of carries, at the batch's middle row: from the sender's edge (past
/// its last column's values) across the gap into the receiver's columns, whose values are not
/// computed while it shows, at least a cell (and 32 units) beyond the gap.
fn messages(
    out: &mut SvgWriter,
    p: &Picture,
    pipe: &Pipeline,
    l: &BandsLayout,
) -> Result<(), Error> {
    out.group("messages");
    let reach = (l.cell_w / 2.0).max(16.0);
    for e in p.messages.iter().filter(|e| e.kind == Kind::Boundary) {
        let Some(b) = pipe.batch_of_message(e) else {
            return Err(Error::Internal(anyhow::anyhow!(
                "picture: a message of carries without its batch: {e:?}"
            )));
        };
        let (i, j) = e.cell().unwrap_or_default();
        let rows = pipe.batch_rows(b);
        let y = (l.y(rows.start) + l.y(rows.end)) / 2.0;
        let (from, to) = (l.band_edges(e.from).1, l.band_edges(e.to).0);
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
                ("x1", num(from)),
                ("y1", num(y)),
                ("x2", num(to + 2.0 * reach)),
                ("y2", num(y)),
            ],
            e.from,
            (rows.len() as f64 * l.cell_h * 0.2).clamp(3.0, 7.0),
        );
    }
    out.close("g");
    Ok(())
}

/// What the static picture says under its timeline.
fn legend_lines(p: &Picture, pipe: &Pipeline, l: &BandsLayout) -> Vec<String> {
    let mut lines = vec![];
    for k in 0..pipe.active_ranks() {
        let cols = pipe.cols_of(k);
        let words = pipe.words(k).len();
        lines.push(format!(
            "p{k}: columns {}–{} ({} word{} of {}){}",
            cols.start,
            cols.end.saturating_sub(1),
            words,
            if words == 1 { "" } else { "s" },
            pipe.word(),
            if k + 1 < pipe.active_ranks() {
                format!(", sends p{} one message of carries per batch", k + 1)
            } else {
                String::new()
            }
        ));
    }
    if pipe.active_ranks() < pipe.ranks() {
        lines.push(crate::render::shown::lesson::idle_bands(pipe));
    }
    if pipe.teaching() {
        lines.push(crate::render::shown::lesson::teaching_word(pipe));
    }
    if l.detail == Detail::Blocks {
        lines.push(format!(
            "a block: one band's batch of {} rows, drawn to scale (cells are too small to draw \
             one by one); the walk goes cell by cell through them",
            pipe.batch()
        ));
    }
    lines.push(format!(
        "arrow: one message, the carries of a batch's rows ({} bytes for {} rows), in the \
         sender's ink",
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
    use crate::render::drawn::xml::read::{class, parse};

    fn attr(n: &roxmltree::Node, name: &str) -> f64 {
        n.attribute(name).unwrap().parse().unwrap()
    }

    #[test]
    fn a_bands_picture_has_a_cell_per_cell_and_an_arrow_per_message() {
        let plan = BandPlan::new(11, 13, 3, 4);
        let pipe = Pipeline::with_word(&plan, 4);
        assert_eq!(Detail::of(&pipe), Detail::Cells);
        let s = Schedule::new(11, 13, 3);
        let messages = pipe.messages();
        let mut picture = Picture::of_schedule(&s, &messages, "bands".into(), vec![]);
        picture.bands = Some(&pipe);
        let svg = render(&picture).unwrap();
        let doc = parse(&svg);
        assert_eq!(class(&doc, "cell").len(), 11 * 13);
        assert_eq!(class(&doc, "message").len(), 6);
        assert_eq!(class(&doc, "band-edge").len(), 4);
        for c in class(&doc, "cell") {
            let j: usize = c.attribute("data-j").unwrap().parse().unwrap();
            let owner: usize = c.attribute("data-owner").unwrap().parse().unwrap();
            assert_eq!(owner, pipe.owner_of_col(j));
        }
        // No fence stands on a cell: each is in a gap between two bands' cells.
        let cells = class(&doc, "cell");
        for f in class(&doc, "band-edge") {
            let x = attr(&f, "x1");
            for c in &cells {
                let (left, w) = (attr(c, "x"), attr(c, "width"));
                assert!(
                    x + 1.5 <= left || x - 1.5 >= left + w,
                    "fence at {x} on {c:?}"
                );
            }
        }
        // Each arrow reaches from the sender's band into the receiver's, a cell long at least.
        for a in class(&doc, "message") {
            let (x1, x2) = (attr(&a, "x1"), attr(&a, "x2"));
            assert!(x2 - x1 >= 36.0, "{x1}..{x2}");
        }
        assert!(
            class(&doc, "span").len() >= 9,
            "a timeline: three batches on three ranks"
        );
        assert!(svg.contains("teaching word"), "the word is said");
        let grid = render_grid(&picture).unwrap();
        let doc = parse(&grid);
        assert_eq!(class(&doc, "stage").len(), 9);
        let root = doc.root_element();
        assert_eq!(root.attribute("data-detail"), Some("cells"));
        assert_eq!(root.attribute("data-gap"), Some("8"));
    }

    #[test]
    fn large_bands_are_drawn_as_blocks_of_bands_and_batches() {
        let plan = BandPlan::new(300, 700, 4, 32);
        let pipe = Pipeline::of_plan(&plan);
        assert_eq!(Detail::of(&pipe), Detail::Blocks);
        assert_eq!(refusal(&pipe, false), None);
        assert_eq!(refusal(&pipe, true), None);
        let s = Schedule::new(300, 700, 4);
        let messages = pipe.messages();
        let mut picture = Picture::of_schedule(&s, &messages, "bands".into(), vec![]);
        picture.bands = Some(&pipe);
        for full in [true, false] {
            let svg = draw(&picture, full).unwrap();
            assert!(svg.len() < 200_000, "{} bytes", svg.len());
            let doc = parse(&svg);
            assert!(class(&doc, "cell").is_empty());
            let blocks = class(&doc, "block");
            assert_eq!(blocks.len(), 4 * 10);
            for b in &blocks {
                let k: usize = b.attribute("data-rank").unwrap().parse().unwrap();
                let batch: usize = b.attribute("data-batch").unwrap().parse().unwrap();
                let cols = pipe.cols_of(k);
                assert_eq!(
                    b.attribute("data-cols"),
                    Some(format!("{}..{}", cols.start, cols.end).as_str())
                );
                assert_eq!(
                    b.attribute("data-unit"),
                    Some((k + batch).to_string().as_str())
                );
            }
            assert_eq!(class(&doc, "message").len(), 30);
            assert_eq!(doc.root_element().attribute("data-detail"), Some("blocks"));
        }
    }

    #[test]
    fn refusals_name_the_batch_that_draws() {
        let plan = BandPlan::new(100_000, 100_000, 4, 1);
        let pipe = Pipeline::of_plan(&plan);
        let why = refusal(&pipe, false).unwrap();
        assert!(why.ends_with("--batch 391 or more draws them"), "{why}");
        let fits = Pipeline::of_plan(&BandPlan::new(100_000, 100_000, 4, 391));
        assert_eq!(refusal(&fits, false), None);
        let tight = Pipeline::of_plan(&BandPlan::new(100_000, 100_000, 4, 390));
        assert!(refusal(&tight, false).is_some());
        // A run's page holds its values: a schedule draws what a run cannot.
        let why = refusal(&fits, true).unwrap();
        assert!(
            why.contains("`mpi-lcs schedule --engine bands --rows 100000"),
            "{why}"
        );
        assert_eq!(
            Detail::of(&Pipeline::of_plan(&BandPlan::new(24, 192, 3, 8))),
            Detail::Cells
        );
        assert_eq!(
            Detail::of(&Pipeline::of_plan(&BandPlan::new(64, 512, 3, 8))),
            Detail::Blocks
        );
    }
}
