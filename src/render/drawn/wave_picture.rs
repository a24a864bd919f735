//! The picture of a wave run (`solve --engine wave --svg`, and the grid its page plays): the
//! matrix's cells in the colour of the rank whose diagonal reached them, each showing its cost
//! (the score step that first reached it: `D[i][j]`, or for the LCS the indel distance
//! `E[i][j] = i + j + 2 − 2 M[i][j]`), white where no step reached; each slide along matches as
//! a line through the cells it crossed, in its rank's ink; the traceback walk with its hops.
//! The page's grid adds, per score step, the front (a line through every diagonal's furthest
//! point `F[s][k]`, a point each in its owner's colour) and under the grid a lane per rank: the
//! diagonals it owns at that step, and between neighbours the step's two halo messages with the
//! values each carried. The marks and their classes:
//! `docs/classroom.md#the-pictures-marks-and-the-pages-data`.
//!
//! Limited, as the diagonal engine's, to [`MAX_WAVE_SIDE`] cells a side.

use super::grid::{self, CellText};
use super::layout::{Layout, MARGIN};
use super::marks::{background, defs, root};
use super::style::{hex, rank_colour, rank_ink, DIAGONAL_COLOUR, TEXT_COLOUR};
use super::walk;
use super::xml::{num, polyline, SvgWriter};
use super::{legend_keys, title};
use crate::error::Error;
use crate::render::shown::hops::hops;
use crate::render::shown::picture::{check, Picture};
use crate::render::shown::wavefront::{Halo, Wavefronts};

/// Largest number of rows or columns a wave picture or page is drawn for: the diagonal
/// engine's.
pub const MAX_WAVE_SIDE: usize = super::diagonal_picture::MAX_PICTURE_CELLS_SIDE;

/// Room under the grid for the hop's label, which the page places there.
const HOP_STRIP: f64 = 40.0;
/// A rank's row in the lane, and the gap between two rows where their messages go.
const LANE_ROW: f64 = 28.0;
const LANE_GAP: f64 = 34.0;
const LANE_PX: f64 = 17.0;
/// The lane's least width: its texts, at the page's size.
const LANE_WIDTH: f64 = 520.0;

/// The refusal of a wave picture or page of an `m x n` matrix, or `None`.
pub fn too_large(m: usize, n: usize) -> Option<String> {
    let side = MAX_WAVE_SIDE;
    (m > side || n > side).then(|| {
        format!(
            "--svg and --html draw a wave run up to {side} x {side} cells; this matrix is \
             {m} x {n}: a pair of at most {side} bytes each is drawn, and any pair runs \
             without --svg and --html"
        )
    })
}

/// The picture, with its title and legend.
pub fn render(p: &Picture) -> Result<String, Error> {
    draw(p, true)
}

/// The grid the page plays: with every step's front and lane, without title or legend.
pub fn render_grid(p: &Picture) -> Result<String, Error> {
    draw(p, false)
}

fn the_wave<'a>(p: &Picture<'a>) -> Result<&'a Wavefronts, Error> {
    p.wave
        .ok_or_else(|| Error::Internal(anyhow::anyhow!("a wave picture of no wave run")))
}

fn draw(p: &Picture, full: bool) -> Result<String, Error> {
    let w = the_wave(p)?;
    if let Some(problem) = too_large(w.rows, w.cols) {
        return Err(Error::Usage(problem));
    }
    check(p)?;
    let hops = hops(p)?;
    let mut l = Layout::new(p, full, &|text| legend_keys::wave(p, w, text, hops.len()));
    let grid_bottom = l.grid_y + w.rows as f64 * l.cell;
    let lane_y = grid_bottom + HOP_STRIP;
    let lane_w = (w.cols as f64 * l.cell).max(LANE_WIDTH);
    if !full {
        l.height = (lane_y + lane_height(w.ranks) + 6.0).ceil();
        l.width = l.width.max(l.grid_x + lane_w + MARGIN).ceil();
    }
    let mut out = SvgWriter::new();
    let mut geometry = l.root_attributes();
    geometry.push(("data-lane-y", num(lane_y)));
    root(
        &mut out,
        (l.width, l.height),
        "lcs-picture wave-picture",
        (w.rows, w.cols, w.ranks),
        &geometry,
    );
    defs(&mut out, l.cell, w.ranks);
    background(&mut out);
    if full {
        title::draw(&mut out, p);
    }
    grid::axes(&mut out, p, &l, !full);
    cells(&mut out, w, &l);
    slides(&mut out, w, &l);
    if !full {
        fronts(&mut out, w, &l);
    }
    walk::steps(&mut out, p, &l);
    walk::hop_arrows(&mut out, p, &l, &hops);
    cell_texts(&mut out, p, w, &l);
    if full {
        super::legend::draw(&mut out, p, &l);
    } else {
        lanes(&mut out, w, (l.grid_x, lane_y, lane_w));
    }
    out.close("svg");
    Ok(out.finish())
}

/// The point after `i` bytes of `x` and `j` of `y`: the bottom-right corner of cell
/// `(i − 1, j − 1)`.
fn corner(l: &Layout, i: i64, j: i64) -> (f64, f64) {
    (l.grid_x + j as f64 * l.cell, l.grid_y + i as f64 * l.cell)
}

/// The cells: a reached one in its rank's colour (hatched beyond twelve ranks), with its step
/// and diagonal; an unreached one white; thick lines where the rank changes.
fn cells(out: &mut SvgWriter, w: &Wavefronts, l: &Layout) {
    out.group("cells");
    for i in 0..w.rows {
        for j in 0..w.cols {
            let (x, y) = l.corner(i, j);
            let mut attrs = vec![
                ("class", "cell".to_owned()),
                ("data-i", i.to_string()),
                ("data-j", j.to_string()),
                ("data-k", (j as i64 - i as i64).to_string()),
            ];
            match w.owner(i, j) {
                Some(owner) => {
                    attrs.push(("data-t", w.cost_of(i, j).to_string()));
                    attrs.push(("data-owner", owner.to_string()));
                    attrs.push(("fill", hex(rank_colour(owner))));
                }
                None => {
                    attrs.push(("data-unreached", "1".into()));
                    attrs.push(("fill", "#ffffff".into()));
                    attrs.push(("stroke", "#d8d8d8".into()));
                }
            }
            attrs.extend([
                ("x", num(x)),
                ("y", num(y)),
                ("width", num(l.cell - 1.0)),
                ("height", num(l.cell - 1.0)),
            ]);
            out.leaf("rect", &attrs);
        }
    }
    grid::fences_and_hatches(out, l, (w.rows, w.cols), |i, j| w.owner(i, j));
    out.close("g");
}

/// Each slide along matches: a line from the point a step's edit reached to the furthest point,
/// through the centres of the cells it slid over, in its rank's ink.
fn slides(out: &mut SvgWriter, w: &Wavefronts, l: &Layout) {
    out.group("slides");
    let width = (l.cell * 0.12).clamp(1.5, 5.0);
    for (t, step) in w.steps.iter().enumerate() {
        for p in step.points.iter().filter(|p| p.end > p.start) {
            let a = corner(l, p.start, p.start + p.k);
            let b = corner(l, p.end, p.end + p.k);
            out.leaf(
                "line",
                &[
                    ("class", "slide".into()),
                    ("data-unit", t.to_string()),
                    ("data-k", p.k.to_string()),
                    ("data-owner", p.owner.to_string()),
                    ("data-from", p.start.to_string()),
                    ("data-len", (p.end - p.start).to_string()),
                    ("x1", num(a.0)),
                    ("y1", num(a.1)),
                    ("x2", num(b.0)),
                    ("y2", num(b.1)),
                    ("stroke", hex(rank_ink(p.owner))),
                    ("stroke-width", num(width)),
                    ("stroke-linecap", "round".into()),
                    ("stroke-opacity", "0.75".into()),
                ],
            );
        }
    }
    out.close("g");
}

/// Each step's front (hidden until the page shows it): a line through the furthest point of
/// every diagonal, and a point each in its owner's colour.
fn fronts(out: &mut SvgWriter, w: &Wavefronts, l: &Layout) {
    out.group("fronts");
    let r = (l.cell * 0.22).clamp(2.5, 9.0);
    for (t, step) in w.steps.iter().enumerate() {
        out.open(
            "g",
            &[
                ("class", "front".into()),
                ("data-unit", t.to_string()),
                ("visibility", "hidden".into()),
            ],
        );
        let ends: Vec<(f64, f64)> = step
            .points
            .iter()
            .map(|p| corner(l, p.end, p.end + p.k))
            .collect();
        out.leaf(
            "path",
            &[
                ("class", "front-line".into()),
                ("data-unit", t.to_string()),
                ("d", polyline(&ends)),
                ("fill", "none".into()),
                ("stroke", hex(DIAGONAL_COLOUR)),
                ("stroke-width", "3".into()),
                ("stroke-linejoin", "round".into()),
            ],
        );
        for p in &step.points {
            let (x, y) = corner(l, p.end, p.end + p.k);
            out.leaf(
                "circle",
                &[
                    ("class", "point".into()),
                    ("data-unit", t.to_string()),
                    ("data-k", p.k.to_string()),
                    ("data-owner", p.owner.to_string()),
                    ("data-row", p.end.to_string()),
                    ("cx", num(x)),
                    ("cy", num(y)),
                    ("r", num(r)),
                    ("fill", hex(rank_colour(p.owner))),
                    ("stroke", hex(rank_ink(p.owner))),
                    ("stroke-width", "2".into()),
                ],
            );
        }
        out.close("g");
    }
    out.close("g");
}

/// Each reached cell's cost, haloed in its cell's colour (white on a match's disc).
fn cell_texts(out: &mut SvgWriter, p: &Picture, w: &Wavefronts, l: &Layout) {
    if !l.cell_text {
        return;
    }
    grid::texts(out, p, l, (w.rows, w.cols), |i, j| {
        w.owner(i, j).map(|owner| CellText {
            owner,
            text: w.cost_of(i, j).to_string(),
            unit: None,
        })
    });
}

/// Height of the lane of `ranks` ranks.
fn lane_height(ranks: usize) -> f64 {
    ranks as f64 * LANE_ROW + ranks.saturating_sub(1) as f64 * LANE_GAP
}

/// Each step's lane (hidden until the page shows it): a row per rank naming the diagonals it
/// owns, and between two rows the step's halo messages, one arrow each way, with the values
/// each carried.
fn lanes(out: &mut SvgWriter, w: &Wavefronts, (x, y0, width): (f64, f64, f64)) {
    out.group("lanes");
    let row_y = |r: usize| y0 + r as f64 * (LANE_ROW + LANE_GAP);
    let mut halos = w.halos.iter().peekable();
    let over = vec![None; w.ranks];
    for t in 0..w.units() {
        let ranges = w.steps.get(t).map_or(&over, |s| &s.ranges);
        out.open(
            "g",
            &[
                ("class", "lane".into()),
                ("data-unit", t.to_string()),
                ("visibility", "hidden".into()),
            ],
        );
        for (r, range) in ranges.iter().enumerate() {
            let mut attrs = vec![
                ("class", "lane-rank".to_owned()),
                ("data-unit", t.to_string()),
                ("data-rank", r.to_string()),
            ];
            if let Some((lo, hi)) = range {
                attrs.push(("data-lo", lo.to_string()));
                attrs.push(("data-hi", hi.to_string()));
            }
            attrs.extend([
                ("x", num(x)),
                ("y", num(row_y(r))),
                ("width", num(width)),
                ("height", num(LANE_ROW)),
                (
                    "fill",
                    match range {
                        Some(_) => hex(rank_colour(r)),
                        None => "#ffffff".into(),
                    },
                ),
                ("stroke", hex(rank_ink(r))),
                ("stroke-width", "1.5".into()),
            ]);
            out.leaf("rect", &attrs);
            out.text(
                &[
                    ("class", "lane-text".into()),
                    ("data-unit", t.to_string()),
                    ("data-rank", r.to_string()),
                    ("x", num(x + 8.0)),
                    ("y", num(row_y(r) + LANE_ROW / 2.0)),
                    ("font-size", num(LANE_PX)),
                    ("fill", hex(TEXT_COLOUR)),
                    ("dominant-baseline", "central".into()),
                ],
                &range_text(r, *range, w.stride, t > w.cost),
            );
        }
        // The step's messages, by neighbouring pair.
        let mut step_halos: Vec<&Halo> = Vec::new();
        while let Some(h) = halos.next_if(|h| h.step == t) {
            step_halos.push(h);
        }
        for r in 0..w.ranks.saturating_sub(1) {
            let down = step_halos.iter().find(|h| h.from == r && h.to == r + 1);
            let up = step_halos.iter().find(|h| h.from == r + 1 && h.to == r);
            let (top, bottom) = (row_y(r) + LANE_ROW + 3.0, row_y(r + 1) - 3.0);
            let mut said = Vec::new();
            for (h, at, ends) in [(down, 16.0, (top, bottom)), (up, 40.0, (bottom, top))] {
                let Some(h) = h else { continue };
                let ends = [
                    ("x1", num(x + at)),
                    ("y1", num(ends.0)),
                    ("x2", num(x + at)),
                    ("y2", num(ends.1)),
                ];
                grid::arrow(
                    out,
                    &[
                        ("data-unit", t.to_string()),
                        ("data-from", h.from.to_string()),
                        ("data-to", h.to.to_string()),
                        ("data-values", h.values.to_string()),
                        ("data-bytes", h.bytes.to_string()),
                    ],
                    &ends,
                    h.from,
                    5.0,
                );
                said.push(format!(
                    "p{}\u{2192}p{}: {}",
                    h.from,
                    h.to,
                    values_text(h.values)
                ));
            }
            if !said.is_empty() {
                out.text(
                    &[
                        ("class", "lane-count".into()),
                        ("data-unit", t.to_string()),
                        ("x", num(x + 58.0)),
                        ("y", num((top + bottom) / 2.0)),
                        ("font-size", num(LANE_PX)),
                        ("fill", hex(TEXT_COLOUR)),
                        ("dominant-baseline", "central".into()),
                    ],
                    &said.join(" \u{b7} "),
                );
            }
        }
        out.close("g");
    }
    out.close("g");
}

/// A halo's values, for people: `3 values`, or `empty` (a header alone).
fn values_text(values: usize) -> String {
    match values {
        0 => "empty".into(),
        1 => "1 value".into(),
        v => format!("{v} values"),
    }
}

/// What rank `r` owns at a step, for its lane.
fn range_text(r: usize, range: Option<(i64, i64)>, stride: i64, over: bool) -> String {
    let minus = |k: i64| k.to_string().replace('-', "\u{2212}");
    match range {
        None if over => format!("p{r}: the fill is over, it passes that on"),
        None => format!("p{r}: no diagonal at this step"),
        Some((a, b)) if a == b => format!("p{r}: diagonal k = {}", minus(a)),
        Some((a, b)) => format!(
            "p{r}: diagonals k = {} \u{2026} {} ({})",
            minus(a),
            minus(b),
            (b - a) / stride + 1
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comm::protocol::wave::HEADER;
    use crate::comm::protocol::Kind;
    use crate::comm::trace::Event;
    use crate::engines::diagonal::schedule::Schedule;
    use crate::engines::wave::plan::WavePlan;
    use crate::render::drawn::xml::read::{class, parse};
    use lcs_core::problem::Problem;

    #[test]
    fn a_wave_picture_has_a_cell_per_cell_a_front_per_step_and_a_lane_message_per_halo() {
        let (x, y) = (b"GATTACAGATC".as_slice(), b"GCATTACAGTTAC".as_slice());
        let plan = WavePlan::new(Problem::Edit, x.len(), y.len(), 2, 20);
        let cost = lcs_core::wave::align::align(Problem::Edit, x, y).cost;
        let mut events = Vec::new();
        for (r, q) in [(0, 1), (1, 0)] {
            let last = plan.last_step(cost, r).min(plan.last_step(cost, q));
            for _ in plan.exchanges().take_while(|&t| t <= last) {
                events.push(Event::new(Kind::Boundary, r, q, None, 4 * HEADER));
            }
        }
        let w = Wavefronts::of_run(&plan, (x, y), cost, &events).unwrap();
        let s = Schedule::new(x.len(), y.len(), 2);
        let mut p = Picture::of_schedule(&s, &events, "wave".into(), vec![]);
        p.problem = Problem::Edit;
        p.x = Some(x);
        p.y = Some(y);
        p.wave = Some(&w);
        let svg = render_grid(&p).unwrap();
        let doc = parse(&svg);
        assert_eq!(class(&doc, "cell").len(), x.len() * y.len());
        assert_eq!(class(&doc, "front").len(), cost + 1);
        assert_eq!(class(&doc, "lane").len(), w.units());
        assert_eq!(class(&doc, "message").len(), events.len());
        let texts = class(&doc, "cell-text").len();
        assert_eq!(texts, w.reached());
        let picture = render(&p).unwrap();
        let doc = parse(&picture);
        assert!(class(&doc, "front").is_empty());
        assert!(class(&doc, "title").len() == 1);
        assert!(too_large(65, 3).unwrap().contains("64 x 64"));
        assert_eq!(too_large(64, 64), None);
    }
}
