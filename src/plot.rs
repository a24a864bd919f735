//! Plots of an experiment's runs: time, boundary messages and speedup against the rank count,
//! drawn from the CSV that `solve --append-csv` (and `reference --append-csv`) writes.
//!
//! The CSV is the experiment's only record, so the plots are made from it alone, by name: the
//! header is read and the columns this module needs are found wherever they are (extra
//! columns are ignored). Rows whose `store` is `reference` are the sequential baseline. Runs
//! are grouped by (input, store) and repetitions reduced to their median per rank count, which
//! a single slow repetition cannot move.
//!
//! Three SVG files are written, each atomically:
//! - `time_vs_ranks.svg`: median `seconds_total` per (input, store), log scale, with the
//!   sequential reference as a dashed line per input; oversubscribed runs are hollow markers;
//! - `messages_vs_ranks.svg`: measured `messages_boundary` as markers and the schedule's
//!   `predicted_boundary` as a line per input (they coincide when the accounting is exact);
//! - `speedup_vs_ranks.svg`: median time at 1 rank over median time at P ranks, same input and
//!   store, with the ideal speedup P as a dashed line.
//!
//! The rank axis is logarithmic (base 2, the experiments double the ranks) and labelled at the
//! rank counts that were run. Drawing goes through `plotters`' SVG backend: no fonts needed.
//! The CSV is parsed here (RFC 4180: quoted fields, doubled quotes, line breaks in quotes),
//! since its fields are simple and one more dependency would buy nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::Error;
use crate::render::style::{self, GRID_COLOUR, TEXT_COLOUR};
use crate::report::EngineKind;
use crate::report::Row;
use crate::runs::median;

/// The store name of the sequential reference's rows.
pub const REFERENCE_STORE: &str = "reference";

/// File names of the three plots, in the order [`plot_runs`] returns them.
pub const PLOT_FILES: [&str; 3] = [
    "time_vs_ranks.svg",
    "messages_vs_ranks.svg",
    "speedup_vs_ranks.svg",
];

/// Times below this are drawn at it: the CSV has microsecond resolution and the axis is
/// logarithmic.
const MIN_SECONDS: f64 = 1e-6;

/// Reads the runs in the result sets `csvs` and writes the three plots into `out_dir`
/// (created if missing). Returns the paths written, in the order of [`PLOT_FILES`].
///
/// Errors: [`Error::Input`] when a result set is missing, unreadable or malformed (the message
/// names the file, and the line); [`Error::Output`] when `out_dir` or a plot cannot be
/// written.
pub fn plot_runs(csvs: &[PathBuf], out_dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let runs: Vec<Run> = crate::runs::read_result_sets(csvs)?
        .iter()
        .map(Run::from)
        .collect();
    let data = Data::new(&runs);
    std::fs::create_dir_all(out_dir).map_err(|source| Error::Output {
        path: out_dir.to_owned(),
        source,
    })?;
    let plots = [time_plot(&data), messages_plot(&data), speedup_plot(&data)];
    let mut written = Vec::new();
    for (name, plot) in PLOT_FILES.iter().zip(plots) {
        let path = out_dir.join(name);
        let svg = render(&plot)?;
        crate::export::write_atomic(&path, svg.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

/// One run, the columns the plots use.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    input: String,
    /// The engine and store, or `reference`.
    store: String,
    ranks: usize,
    seconds: f64,
    messages: u64,
    predicted: u64,
    oversubscribed: bool,
}

impl From<&Row> for Run {
    fn from(row: &Row) -> Run {
        Run {
            input: row.input.clone(),
            store: match (row.engine, row.store) {
                (EngineKind::Reference, _) => REFERENCE_STORE.to_owned(),
                (_, Some(store)) => store.to_string(),
                (engine, None) => engine.to_string(),
            },
            ranks: row.ranks,
            seconds: row.seconds_total,
            messages: row.messages_boundary,
            predicted: row.predicted_boundary,
            oversubscribed: row.oversubscribed,
        }
    }
}

/// The median over the repetitions of one (input, store, ranks).
#[derive(Debug, Clone, PartialEq)]
struct Point {
    ranks: usize,
    seconds: f64,
    messages: f64,
    predicted: u64,
    reps: usize,
    /// Any repetition ran with more ranks than cores.
    oversubscribed: bool,
}

/// Runs reduced to medians: per (input, store), a point per rank count; per input, the
/// sequential reference's median time.
#[derive(Debug)]
struct Data {
    /// Inputs and stores (not `reference`) in order of first appearance.
    inputs: Vec<String>,
    stores: Vec<String>,
    /// `(input index, store index)` → points in increasing rank order.
    series: BTreeMap<(usize, usize), Vec<Point>>,
    /// Input index → (median seconds, repetitions) of the sequential reference.
    reference: BTreeMap<usize, (f64, usize)>,
    /// Runs whose measured boundary messages differ from the prediction.
    mismatches: usize,
}

impl Data {
    fn new(runs: &[Run]) -> Data {
        let mut inputs: Vec<String> = Vec::new();
        let mut stores: Vec<String> = Vec::new();
        let index = |list: &mut Vec<String>, name: &str| {
            list.iter().position(|s| s == name).unwrap_or_else(|| {
                list.push(name.to_owned());
                list.len() - 1
            })
        };
        let mut groups: BTreeMap<(usize, usize, usize), Vec<&Run>> = BTreeMap::new();
        let mut reference: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
        for run in runs {
            let i = index(&mut inputs, &run.input);
            if run.store == REFERENCE_STORE {
                reference.entry(i).or_default().push(run.seconds);
            } else {
                let s = index(&mut stores, &run.store);
                groups.entry((i, s, run.ranks)).or_default().push(run);
            }
        }
        let mut series: BTreeMap<(usize, usize), Vec<Point>> = BTreeMap::new();
        for ((i, s, ranks), reps) in groups {
            series.entry((i, s)).or_default().push(Point {
                ranks,
                seconds: median(reps.iter().map(|r| r.seconds).collect()),
                messages: median(reps.iter().map(|r| r.messages as f64).collect()),
                predicted: reps[0].predicted,
                reps: reps.len(),
                oversubscribed: reps.iter().any(|r| r.oversubscribed),
            });
        }
        let reference = reference
            .into_iter()
            .map(|(i, t)| {
                let n = t.len();
                (i, (median(t), n))
            })
            .collect();
        let mismatches = runs
            .iter()
            .filter(|r| r.store != REFERENCE_STORE && r.messages != r.predicted)
            .count();
        Data {
            inputs,
            stores,
            series,
            reference,
            mismatches,
        }
    }

    fn label(&self, (i, s): (usize, usize)) -> String {
        format!("{} · {}", self.inputs[i], self.stores[s])
    }

    /// Every rank count that was run.
    fn ranks(&self) -> Vec<usize> {
        let mut ranks: Vec<usize> = self.series.values().flatten().map(|p| p.ranks).collect();
        ranks.sort_unstable();
        ranks.dedup();
        ranks
    }

    /// "median of 3 repetitions" or "median of 2–3 repetitions".
    fn reps_phrase(&self) -> String {
        let reps = self
            .series
            .values()
            .flatten()
            .map(|p| p.reps)
            .chain(self.reference.values().map(|r| r.1));
        let (lo, hi) = reps.fold((usize::MAX, 0), |(lo, hi), r| (lo.min(r), hi.max(r)));
        match (lo, hi) {
            (usize::MAX, _) => "no repetitions".into(),
            (1, 1) => "a single run per point".into(),
            (lo, hi) if lo == hi => format!("median of {lo} repetitions per point"),
            (lo, hi) => format!("median of {lo}–{hi} repetitions per point"),
        }
    }

    fn oversubscribed_points(&self) -> usize {
        self.series
            .values()
            .flatten()
            .filter(|p| p.oversubscribed)
            .count()
    }
}

/// One axis: its range and ticks in drawing units (log10 / log2 of the value on a log axis),
/// and how values map to them.
#[derive(Debug, Clone)]
struct Axis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
    /// The logarithm's base, or `None` for a linear axis.
    log: Option<f64>,
    desc: String,
}

impl Axis {
    fn to(&self, v: f64) -> f64 {
        match self.log {
            Some(b) => v.log(b),
            None => v,
        }
    }

    fn label(&self, t: f64) -> String {
        tick_label(match self.log {
            Some(b) => b.powf(t),
            None => t,
        })
    }

    /// Rank counts, base 2, a tick at each rank count run.
    fn ranks(ranks: &[usize]) -> Axis {
        let ticks: Vec<f64> = ranks.iter().map(|&p| (p as f64).log2()).collect();
        let (lo, hi) = match (ticks.first(), ticks.last()) {
            (Some(&lo), Some(&hi)) if hi > lo => (lo - 0.25, hi + 0.25),
            (Some(&t), _) => (t - 0.5, t + 0.5),
            _ => (-0.5, 0.5),
        };
        Axis {
            lo,
            hi,
            ticks,
            log: Some(2.0),
            desc: "ranks P (log scale)".into(),
        }
    }

    /// A log axis of `base` (10 or 2) covering the positive `values`, ticks at powers of the
    /// base (and at 2 and 5 times the powers of 10 when the range is under three decades).
    fn log(base: f64, values: &[f64], desc: String) -> Axis {
        let pos: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
        let lo = pos.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = pos.iter().copied().fold(0.0, f64::max);
        let (lo, hi) = if pos.is_empty() {
            (1.0, 10.0)
        } else {
            (lo, hi)
        };
        let (mut a, mut b) = (lo.log(base), hi.log(base));
        let pad = ((b - a) * 0.08).max(0.15 * 10f64.log(base));
        a -= pad;
        b += pad;
        let mut ticks = Vec::new();
        let steps: &[f64] = if base == 10.0 && b - a < 3.0 {
            &[1.0, 2.0, 5.0]
        } else {
            &[1.0]
        };
        for k in a.floor() as i32..=b.ceil() as i32 {
            for &s in steps {
                let t = (s * base.powi(k)).log(base);
                if t >= a && t <= b {
                    ticks.push(t);
                }
            }
        }
        // Too many powers (a wide base-2 range): keep every second or third.
        let keep = ticks.len().div_ceil(12).max(1);
        let ticks = ticks.into_iter().step_by(keep).collect();
        Axis {
            lo: a,
            hi: b,
            ticks,
            log: Some(base),
            desc,
        }
    }

    /// A linear axis from 0 to a little above `max`, ticks at a round step.
    fn linear(max: f64, desc: String) -> Axis {
        let max = if max > 0.0 { max } else { 1.0 };
        let raw = max / 5.0;
        let mag = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * mag)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * mag);
        let hi = max * 1.08;
        let ticks = (0..)
            .map(|k| k as f64 * step)
            .take_while(|t| *t <= hi)
            .collect();
        Axis {
            lo: 0.0,
            hi,
            ticks,
            log: None,
            desc,
        }
    }
}

/// An axis in drawing units whose key points are exactly the chosen ticks (plotters' own
/// ranges pick their own round numbers, which on a log axis are not round values).
#[derive(Debug, Clone)]
struct Ticked {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let f = (value - self.lo) / (self.hi - self.lo);
        (limit.0 as f64 + f * (limit.1 - limit.0) as f64).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        self.ticks.clone()
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

impl Axis {
    fn ranged(&self) -> Ticked {
        Ticked {
            lo: self.lo,
            hi: self.hi,
            ticks: self.ticks.clone(),
        }
    }
}

/// A compact tick label: `0.002`, `0.5`, `16`, `25000`, `2e6`.
fn tick_label(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    if v.abs() >= 1e6 || v.abs() < 1e-3 {
        let s = format!("{v:.0e}");
        return if (s.parse::<f64>().unwrap_or(v) - v).abs() > v.abs() * 1e-6 {
            format!("{v:.1e}")
        } else {
            s
        };
    }
    // Four significant digits, trailing zeros dropped.
    let decimals = (3 - v.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// What a point looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Circle,
    Triangle,
    Square,
    Diamond,
}

const SHAPES: [Shape; 4] = [
    Shape::Circle,
    Shape::Triangle,
    Shape::Square,
    Shape::Diamond,
];

/// One legend entry's worth of drawing: a line, markers, or both.
#[derive(Debug, Clone)]
struct Line {
    label: String,
    colour: RGBColor,
    /// Draw the points joined (dashed or solid).
    joined: bool,
    dashed: bool,
    marker: Option<Shape>,
    /// Points in data units, and whether each is hollow (oversubscribed).
    points: Vec<(f64, f64, bool)>,
}

/// A whole plot.
#[derive(Debug, Clone)]
struct Plot {
    title: String,
    x: Axis,
    y: Axis,
    lines: Vec<Line>,
    notes: Vec<String>,
}

fn input_colour(i: usize) -> RGBColor {
    style::series_colour(i)
}

fn oversubscribed_note(data: &Data) -> String {
    match data.oversubscribed_points() {
        0 => "Filled markers: no run was oversubscribed.".into(),
        n => format!(
            "Hollow markers ({n}): oversubscribed runs, more ranks than cores on the host; \
             their times measure the protocol, not parallel speed."
        ),
    }
}

fn time_plot(data: &Data) -> Plot {
    let mut lines = Vec::new();
    let mut clamped = false;
    let mut seconds = |t: f64| {
        clamped |= t < MIN_SECONDS;
        t.max(MIN_SECONDS)
    };
    for (&key, points) in &data.series {
        lines.push(Line {
            label: data.label(key),
            colour: input_colour(key.0),
            joined: true,
            dashed: false,
            marker: Some(SHAPES[key.1 % SHAPES.len()]),
            points: points
                .iter()
                .map(|p| (p.ranks as f64, seconds(p.seconds), p.oversubscribed))
                .collect(),
        });
    }
    let ranks = data.ranks();
    let x = Axis::ranks(&ranks);
    let (x_lo, x_hi) = (2f64.powf(x.lo), 2f64.powf(x.hi));
    for (&i, &(t, _)) in &data.reference {
        let t = seconds(t);
        lines.push(Line {
            label: format!("{} · sequential reference", data.inputs[i]),
            colour: input_colour(i),
            joined: true,
            dashed: true,
            marker: None,
            points: vec![(x_lo, t, false), (x_hi, t, false)],
        });
    }
    let values: Vec<f64> = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .collect();
    let mut notes = vec![
        format!(
            "Wall-clock seconds of the whole run (seconds_total), {}.",
            data.reps_phrase()
        ),
        "Dashed: the sequential reference (mpi-lcs reference, one process) of the same input."
            .into(),
        oversubscribed_note(data),
    ];
    if clamped {
        notes.push(format!(
            "Times under {MIN_SECONDS} s (the CSV's resolution) are drawn at {MIN_SECONDS} s."
        ));
    }
    Plot {
        title: "Time to solve vs ranks".into(),
        x,
        y: Axis::log(10.0, &values, "seconds, median (log scale)".into()),
        lines,
        notes,
    }
}

fn messages_plot(data: &Data) -> Plot {
    let mut lines = Vec::new();
    // Predicted, one line per input (the same for every store).
    let mut predicted: BTreeMap<usize, BTreeMap<usize, u64>> = BTreeMap::new();
    for (&(i, _), points) in &data.series {
        for p in points {
            predicted.entry(i).or_default().insert(p.ranks, p.predicted);
        }
    }
    let all: Vec<f64> = data
        .series
        .values()
        .flatten()
        .flat_map(|p| [p.messages, p.predicted as f64])
        .collect();
    let positive: Vec<f64> = all.iter().copied().filter(|v| *v > 0.0).collect();
    let (lo, hi) = positive
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let log = !positive.is_empty() && hi / lo >= 10.0;
    let mut zeros = false;
    let mut keep = |v: f64| {
        if log && v <= 0.0 {
            zeros = true;
            false
        } else {
            true
        }
    };
    for (&i, by_ranks) in &predicted {
        lines.push(Line {
            label: format!("{} · predicted", data.inputs[i]),
            colour: input_colour(i),
            joined: true,
            dashed: false,
            marker: None,
            points: by_ranks
                .iter()
                .map(|(&p, &v)| (p as f64, v as f64, false))
                .filter(|p| keep(p.1))
                .collect(),
        });
    }
    for (&key, points) in &data.series {
        lines.push(Line {
            label: format!("{} · measured", data.label(key)),
            colour: input_colour(key.0),
            joined: false,
            dashed: false,
            marker: Some(SHAPES[key.1 % SHAPES.len()]),
            points: points
                .iter()
                .map(|p| (p.ranks as f64, p.messages, false))
                .filter(|p| keep(p.1))
                .collect(),
        });
    }
    let mut notes = vec![
        format!(
            "Markers: boundary messages counted by the run (messages_boundary), {}.",
            data.reps_phrase()
        ),
        "Lines: boundary messages predicted from the schedule alone (predicted_boundary).".into(),
        match data.mismatches {
            0 => "Every run sent exactly the predicted number of boundary messages.".into(),
            n => format!("{n} runs sent a different number of boundary messages than predicted."),
        },
    ];
    if zeros {
        notes.push("1 rank sends no boundary messages: 0 is not drawn on the log scale.".into());
    }
    let desc = if log {
        "boundary messages (log scale)"
    } else {
        "boundary messages"
    };
    Plot {
        title: "Boundary messages vs ranks: measured and predicted".into(),
        x: Axis::ranks(&data.ranks()),
        y: if log {
            Axis::log(10.0, &positive, desc.into())
        } else {
            Axis::linear(hi.max(0.0), desc.into())
        },
        lines,
        notes,
    }
}

fn speedup_plot(data: &Data) -> Plot {
    let mut lines = Vec::new();
    let mut missing = Vec::new();
    for (&key, points) in &data.series {
        let Some(one) = points.iter().find(|p| p.ranks == 1) else {
            missing.push(data.label(key));
            continue;
        };
        let t1 = one.seconds.max(MIN_SECONDS);
        lines.push(Line {
            label: data.label(key),
            colour: input_colour(key.0),
            joined: true,
            dashed: false,
            marker: Some(SHAPES[key.1 % SHAPES.len()]),
            points: points
                .iter()
                .map(|p| {
                    (
                        p.ranks as f64,
                        t1 / p.seconds.max(MIN_SECONDS),
                        p.oversubscribed,
                    )
                })
                .collect(),
        });
    }
    let ranks = data.ranks();
    lines.push(Line {
        label: "ideal: speedup = P".into(),
        colour: TEXT_COLOUR,
        joined: true,
        dashed: true,
        marker: None,
        points: ranks.iter().map(|&p| (p as f64, p as f64, false)).collect(),
    });
    let values: Vec<f64> = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .chain([1.0])
        .collect();
    let mut notes = vec![
        format!(
            "Speedup = median time at 1 rank / median time at P ranks, same input and store ({}).",
            data.reps_phrase()
        ),
        oversubscribed_note(data),
    ];
    if !missing.is_empty() {
        notes.push(format!(
            "No 1-rank run, so no speedup: {}.",
            missing.join(", ")
        ));
    }
    Plot {
        title: "Speedup vs ranks".into(),
        x: Axis::ranks(&ranks),
        y: Axis::log(2.0, &values, "speedup (log scale)".into()),
        lines,
        notes,
    }
}

const CHART_WIDTH: u32 = 840;
const CHART_HEIGHT: u32 = 620;
const MIN_LEGEND_WIDTH: u32 = 360;
const LINE_HEIGHT: u32 = 22;
const TEXT_PX: f64 = 14.0;

/// A text style whose glyphs are `px` pixels high (the SVG backend divides sizes by 1.24).
fn font(px: f64) -> TextStyle<'static> {
    style::font(px, TEXT_COLOUR, HPos::Left, VPos::Top)
}

use style::text_width;

fn render(plot: &Plot) -> Result<String, Error> {
    let legend_h = plot.lines.len() as u32 * LINE_HEIGHT + 80;
    let notes_h = plot.notes.len() as u32 * LINE_HEIGHT + 16;
    let height = CHART_HEIGHT.max(legend_h) + notes_h;
    // The legend is as wide as its longest label; the notes run under chart and legend.
    let legend_w = plot
        .lines
        .iter()
        .map(|l| 70 + text_width(&l.label, TEXT_PX))
        .fold(MIN_LEGEND_WIDTH, u32::max);
    let notes_w = plot
        .notes
        .iter()
        .map(|n| 48 + text_width(n, TEXT_PX))
        .max()
        .unwrap_or(0);
    let width = (CHART_WIDTH + legend_w).max(notes_w);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw_plot(&root, plot, height - notes_h).map_err(|e| {
            Error::Internal(anyhow::anyhow!(
                "drawing the plot '{}' failed: {e}",
                plot.title
            ))
        })?;
    }
    Ok(svg)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

fn draw_plot(root: &Area, plot: &Plot, chart_h: u32) -> DrawResult {
    root.fill(&WHITE)?;
    let (main, notes) = root.split_vertically(chart_h);
    let (chart_area, legend) = main.split_horizontally(CHART_WIDTH);
    let (x, y) = (&plot.x, &plot.y);
    let mut chart = ChartBuilder::on(&chart_area)
        .caption(&plot.title, font(20.0))
        .margin(16)
        .x_label_area_size(56)
        .y_label_area_size(84)
        .build_cartesian_2d(x.ranged(), y.ranged())?;
    let x_label = |v: &f64| x.label(*v);
    let y_label = |v: &f64| y.label(*v);
    chart
        .configure_mesh()
        .x_desc(x.desc.as_str())
        .y_desc(y.desc.as_str())
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .label_style(font(TEXT_PX))
        .axis_desc_style(font(TEXT_PX + 1.0))
        .bold_line_style(GRID_COLOUR)
        .light_line_style(TRANSPARENT)
        .x_labels(x.ticks.len().max(2))
        .y_labels(y.ticks.len().max(2))
        .draw()?;
    let at = |(px, py): (f64, f64)| (x.to(px), y.to(py));
    for line in &plot.lines {
        let pts: Vec<(f64, f64)> = line.points.iter().map(|&(a, b, _)| at((a, b))).collect();
        if line.joined && pts.len() > 1 {
            let style = line.colour.stroke_width(2);
            if line.dashed {
                chart.draw_series(DashedLineSeries::new(pts.clone(), 10, 6, style))?;
            } else {
                chart.draw_series(LineSeries::new(pts.clone(), style))?;
            }
        }
        if let Some(shape) = line.marker {
            // One at a time: a boxed marker borrows the backend's lifetime, which a series
            // of them cannot.
            for (&(_, _, hollow), &p) in line.points.iter().zip(&pts) {
                chart
                    .plotting_area()
                    .draw(&marker(p, shape, line.colour, !hollow))?;
            }
        }
    }
    draw_legend(&legend, plot)?;
    for (k, note) in plot.notes.iter().enumerate() {
        notes.draw(&Text::new(
            note.clone(),
            (24, 8 + k as i32 * LINE_HEIGHT as i32),
            font(TEXT_PX),
        ))?;
    }
    root.present()
}

/// A point marker at `at`: filled, or hollow with a 2-pixel outline.
fn marker<'a, DB: DrawingBackend + 'a, C: Clone + 'a>(
    at: C,
    shape: Shape,
    colour: RGBColor,
    filled: bool,
) -> DynElement<'a, DB, C> {
    let outline = colour.stroke_width(2);
    let hollow = |pts: Vec<(i32, i32)>| {
        let mut closed = pts.clone();
        closed.push(pts[0]);
        PathElement::new(closed, outline)
    };
    let polygon = |pts: Vec<(i32, i32)>| {
        if filled {
            Polygon::new(pts, colour.filled()).into_dyn()
        } else {
            hollow(pts).into_dyn()
        }
    };
    let base = EmptyElement::at(at);
    match shape {
        Shape::Circle => {
            let style = if filled { colour.filled() } else { outline };
            (base + Circle::new((0, 0), 5, style)).into_dyn()
        }
        Shape::Triangle => (base + polygon(vec![(0, -7), (-6, 4), (6, 4)])).into_dyn(),
        Shape::Square => (base + polygon(vec![(-5, -5), (5, -5), (5, 5), (-5, 5)])).into_dyn(),
        Shape::Diamond => (base + polygon(vec![(0, -7), (6, 0), (0, 7), (-6, 0)])).into_dyn(),
    }
}

fn draw_legend(area: &Area, plot: &Plot) -> DrawResult {
    let x0 = 8;
    let mut y = 70;
    area.draw(&Text::new(
        "input · store",
        (x0, y - 26),
        font(TEXT_PX + 1.0),
    ))?;
    let text = font(TEXT_PX).pos(Pos::new(HPos::Left, VPos::Center));
    for line in &plot.lines {
        let style = line.colour.stroke_width(2);
        if line.joined {
            let pts = vec![(x0, y), (x0 + 34, y)];
            if line.dashed {
                area.draw(&DashedPathElement::new(pts, 8, 5, style))?;
            } else {
                area.draw(&PathElement::new(pts, style))?;
            }
        }
        if let Some(shape) = line.marker {
            area.draw(&marker((x0 + 17, y), shape, line.colour, true))?;
        }
        area.draw(&Text::new(line.label.clone(), (x0 + 44, y), text.clone()))?;
        y += LINE_HEIGHT as i32;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::InputError;

    /// A run of `input` on `ranks` ranks with `store` (or the reference).
    fn row(input: &str, ranks: usize, store: &str, seconds: f64, messages: u64, over: bool) -> Row {
        let (engine, store) = match store {
            REFERENCE_STORE => (EngineKind::Reference, None),
            "hash" => (EngineKind::Diagonal, Some(crate::store::StoreKind::Hash)),
            _ => (EngineKind::Diagonal, Some(crate::store::StoreKind::Dense)),
        };
        Row {
            input: input.into(),
            ranks,
            engine,
            store,
            seconds_total: seconds,
            messages_boundary: messages,
            predicted_boundary: messages,
            oversubscribed: over,
            ..Row::default()
        }
    }

    fn write_rows(path: &Path, rows: &[Row]) {
        for r in rows {
            crate::export::append_row(path, r).unwrap();
        }
    }

    fn sample_rows() -> Vec<Row> {
        let mut rows = Vec::new();
        for (input, scale) in [("inputs/small.txt", 1.0), ("inputs/a,b \"big\".txt", 40.0)] {
            for rep in 0..2 {
                let t = scale * (1.0 + rep as f64 * 0.1);
                rows.push(row(input, 1, REFERENCE_STORE, t * 0.9, 0, false));
                for ranks in [1, 2, 4] {
                    for (store, f) in [("dense", 1.0), ("hash", 1.5)] {
                        let messages = if ranks == 1 { 0 } else { 100 * ranks as u64 };
                        let over = ranks == 4;
                        rows.push(row(
                            input,
                            ranks,
                            store,
                            t * f / ranks as f64,
                            messages,
                            over,
                        ));
                    }
                }
            }
        }
        rows
    }

    fn runs(rows: &[Row]) -> Vec<Run> {
        rows.iter().map(Run::from).collect()
    }

    #[test]
    fn medians_per_rank_count() {
        let data = Data::new(&runs(&sample_rows()));
        assert_eq!(data.inputs.len(), 2);
        assert_eq!(data.stores, ["dense", "hash"]);
        let small_dense = &data.series[&(0, 0)];
        assert_eq!(
            small_dense.iter().map(|p| p.ranks).collect::<Vec<_>>(),
            [1, 2, 4]
        );
        // Repetitions at 1.0 and 1.1 seconds: the median is their mean.
        assert!((small_dense[0].seconds - 1.05).abs() < 1e-9);
        assert_eq!(small_dense[0].reps, 2);
        assert!(small_dense[2].oversubscribed && !small_dense[1].oversubscribed);
        assert!((data.reference[&0].0 - 0.945).abs() < 1e-9);
        assert_eq!(data.mismatches, 0);
        assert_eq!(data.reps_phrase(), "median of 2 repetitions per point");
    }

    #[test]
    fn three_plots_are_written() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("runs.csv");
        write_rows(&csv, &sample_rows());
        let out = dir.path().join("plots");
        let written = plot_runs(&[csv], &out).unwrap();
        assert_eq!(
            written,
            PLOT_FILES.iter().map(|f| out.join(f)).collect::<Vec<_>>()
        );
        for (path, axis) in written.iter().zip([
            "seconds, median (log scale)",
            "boundary messages",
            "speedup (log scale)",
        ]) {
            let svg = std::fs::read_to_string(path).unwrap();
            assert!(svg.starts_with("<svg "), "{}", path.display());
            assert!(svg.trim_end().ends_with("</svg>"), "{}", path.display());
            for text in [
                "inputs/small.txt",
                "inputs/a,b &quot;big&quot;.txt",
                "ranks P (log scale)",
                axis,
            ] {
                assert!(svg.contains(text), "{text} in {}", path.display());
            }
        }
        let time = std::fs::read_to_string(&written[0]).unwrap();
        assert!(time.contains("sequential reference"));
        assert!(time.contains("Hollow markers (4): oversubscribed"));
        let messages = std::fs::read_to_string(&written[1]).unwrap();
        assert!(messages.contains("Every run sent exactly the predicted number"));
        let speedup = std::fs::read_to_string(&written[2]).unwrap();
        assert!(speedup.contains("ideal: speedup = P"));
    }

    /// Only the sequential reference, or solve runs without a 1-rank run: plots are still
    /// drawn, with what there is.
    #[test]
    fn sparse_runs_still_plot() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("runs.csv");
        let long = "/a/very/long/directory/name/for/the/experiment/inputs/large_3.txt";
        write_rows(
            &csv,
            &[
                row(long, 1, REFERENCE_STORE, 2.0, 0, false),
                row("b.txt", 1, REFERENCE_STORE, 0.0, 0, false),
            ],
        );
        let written = plot_runs(std::slice::from_ref(&csv), dir.path()).unwrap();
        let time = std::fs::read_to_string(&written[0]).unwrap();
        assert!(time.contains(long) && time.contains("drawn at 0.000001 s"));
        write_rows(
            &csv,
            &[
                row("b.txt", 2, "dense", 0.5, 10, false),
                row("b.txt", 4, "dense", 0.25, 30, false),
            ],
        );
        let written = plot_runs(&[csv], dir.path()).unwrap();
        let speedup = std::fs::read_to_string(&written[2]).unwrap();
        assert!(speedup.contains("No 1-rank run, so no speedup: b.txt · dense."));
    }

    #[test]
    fn errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("plots");
        let missing = dir.path().join("none.csv");
        let err = plot_runs(&[missing], &out).unwrap_err();
        assert!(
            matches!(err, Error::Input(InputError::NotFound { .. })),
            "{err:?}"
        );
        assert!(err.to_string().contains("none.csv"), "{err}");
        let header_only = dir.path().join("header.csv");
        std::fs::write(&header_only, format!("{}\n", Row::header())).unwrap();
        let err = plot_runs(&[header_only], &out).unwrap_err();
        assert!(matches!(err, Error::Input(_)), "{err:?}");
        assert!(err.to_string().contains("header.csv"), "{err}");
        assert!(err.to_string().contains("no runs"), "{err}");
        let err = plot_runs(&[dir.path().to_owned()], &out).unwrap_err();
        assert!(
            matches!(err, Error::Input(InputError::IsDirectory { .. })),
            "{err:?}"
        );
        assert!(!out.exists(), "nothing written on a bad CSV");
        let csv = dir.path().join("runs.csv");
        write_rows(&csv, &sample_rows());
        let blocked = dir.path().join("runs.csv/plots");
        assert!(matches!(
            plot_runs(&[csv], &blocked),
            Err(Error::Output { .. })
        ));
    }

    #[test]
    fn tick_labels_are_compact() {
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(0.002), "0.002");
        assert_eq!(tick_label(0.5), "0.5");
        assert_eq!(tick_label(0.0625), "0.0625");
        assert_eq!(tick_label(0.125), "0.125");
        assert_eq!(tick_label(16.0), "16");
        assert_eq!(tick_label(25_000.0), "25000");
        assert_eq!(tick_label(2e6), "2e6");
        assert_eq!(tick_label(1e-4), "1e-4");
    }

    #[test]
    fn axes_cover_their_values() {
        let a = Axis::ranks(&[1, 2, 4, 8]);
        assert_eq!(a.ticks, [0.0, 1.0, 2.0, 3.0]);
        assert_eq!(a.label(3.0), "8");
        let t = Axis::log(10.0, &[0.003, 0.4], "s".into());
        assert!(t.lo <= 0.003f64.log10() && t.hi >= 0.4f64.log10());
        assert!(t.ticks.iter().any(|&v| t.label(v) == "0.01"), "{t:?}");
        let s = Axis::log(2.0, &[0.3, 1.0, 8.0], "x".into());
        assert!(s.ticks.iter().any(|&v| s.label(v) == "0.5"), "{s:?}");
        let l = Axis::linear(730.0, "m".into());
        assert_eq!(l.ticks.first(), Some(&0.0));
        assert!(l.hi >= 730.0 && l.ticks.len() >= 4, "{l:?}");
    }
}
