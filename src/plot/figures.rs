//! Figure definitions: which measurements of the summarised runs each plot shows, against what, and
//! what its notes say. Every figure is made from [`crate::runs::summarise`], the aggregation
//! `table` uses: a point is the median of a configuration's repetitions, its error bar their
//! minimum and maximum, hollow when the configuration was oversubscribed. A series is one input
//! with one engine and store, named `name (m × n) · engine · store`, its colour the input's, its
//! marker the engine and store's. The five figures (time, speed-up, efficiency, where the time
//! goes, messages against the prediction): `docs/experiments.md#tables-and-plots`. Speed-up and
//! efficiency divide the baseline's median by each repetition's extremes for their error bars: the
//! bars show how much the P-rank runs varied.

use std::collections::BTreeSet;

use plotters::style::RGBColor;

use super::axis::{label, Axis, Unit};
use super::model::{Bar, Figure, Key, Panel, Point, Series, Shape, Stroke, SHAPES};
use crate::render::drawn::style::{self, TEXT_COLOUR};
use crate::report::EngineKind;
use crate::runs::{Config, Summary};

/// Times below this are drawn at it: the CSV has microsecond resolution and the axis is
/// logarithmic.
pub const MIN_SECONDS: f64 = 1e-6;

/// One series: an input with one engine and store, its configurations by rank count.
struct Group<'a> {
    key: Config,
    label: String,
    colour: RGBColor,
    shape: Shape,
    /// Which of the result set's engine and store pairs this series has (for its marker, and
    /// to set markers that would coincide a little apart).
    how: usize,
    points: Vec<&'a Summary>,
}

/// The summaries, grouped into series, with what every figure's notes say.
pub struct Data<'a> {
    groups: Vec<Group<'a>>,
    hows: usize,
    references: Vec<&'a Summary>,
    inputs: Vec<String>,
    ranks: Vec<usize>,
    common_notes: Vec<String>,
}

impl<'a> Data<'a> {
    /// `warnings`: what the result set mixes (see [`crate::runs::mixtures`]).
    pub fn new(summaries: &'a [Summary], warnings: &[String]) -> Data<'a> {
        let mut inputs: Vec<String> = Vec::new();
        let mut hows: Vec<String> = Vec::new();
        let mut groups: Vec<Group<'a>> = Vec::new();
        let mut references = Vec::new();
        for s in summaries {
            if !inputs.contains(&s.config.input) {
                inputs.push(s.config.input.clone());
            }
            if s.config.engine == EngineKind::Reference {
                references.push(s);
                continue;
            }
            let how = s.config.how();
            if !hows.contains(&how) {
                hows.push(how.clone());
            }
            let key = s.config.series();
            match groups.iter_mut().find(|g| g.key == key) {
                Some(g) => g.points.push(s),
                None => {
                    let input = inputs.iter().position(|i| *i == key.input).unwrap_or(0);
                    let how = hows.iter().position(|h| *h == how).unwrap_or(0);
                    groups.push(Group {
                        label: s.label(),
                        colour: style::series_colour(input),
                        shape: SHAPES[how % SHAPES.len()],
                        how,
                        key,
                        points: vec![s],
                    })
                }
            }
        }
        for g in &mut groups {
            g.points
                .sort_by_key(|s| (s.config.ranks, s.config.placement));
        }
        let ranks: BTreeSet<usize> = groups
            .iter()
            .flat_map(|g| g.points.iter().map(|s| s.config.ranks))
            .collect();
        let mut common_notes: Vec<String> =
            warnings.iter().map(|w| format!("Warning: {w}.")).collect();
        common_notes.push(reps_phrase(summaries));
        Data {
            groups,
            hows: hows.len(),
            references,
            inputs,
            ranks: ranks.into_iter().collect(),
            common_notes,
        }
    }

    /// The sequential run `config` is compared with: the same input and problem.
    fn reference(&self, config: &Config) -> Option<&'a Summary> {
        self.references
            .iter()
            .copied()
            .find(|r| config.compares_with(&r.config))
    }

    fn input_colour(&self, input: &str) -> RGBColor {
        style::series_colour(self.inputs.iter().position(|i| i == input).unwrap_or(0))
    }

    /// The rank counts some run of a series ran oversubscribed at.
    fn oversubscribed_ranks(&self) -> BTreeSet<usize> {
        self.groups
            .iter()
            .flat_map(|g| g.points.iter())
            .filter(|s| s.oversubscribed)
            .map(|s| s.config.ranks)
            .collect()
    }

    /// The note on hollow markers: which rank counts were oversubscribed, if any.
    fn oversubscribed_note(&self) -> String {
        let marked = self.oversubscribed_ranks();
        if marked.is_empty() {
            return "Filled markers: no run was oversubscribed.".into();
        }
        let ps: Vec<String> = marked.iter().map(|p| format!("P = {p}")).collect();
        format!(
            "Hollow markers ({}): oversubscribed, a host ran more ranks than it has cores; the \
             ranks took turns, so these times measure the protocol, not parallel speed-up.",
            ps.join(", ")
        )
    }

    fn notes(&self, first: &[String], oversubscription: bool) -> Vec<String> {
        let mut notes: Vec<String> = first.to_vec();
        notes.extend(self.common_notes.iter().cloned());
        if oversubscription {
            notes.push(self.oversubscribed_note());
        }
        notes
    }

    /// The notes that warn of what the result set mixes.
    fn warnings(&self) -> Vec<String> {
        self.common_notes
            .iter()
            .filter(|n| n.starts_with("Warning"))
            .cloned()
            .collect()
    }

    /// Where a marker of `group` at `ranks` goes on a rank axis: set a little apart from the
    /// other engines and stores, so that markers of equal values do not hide each other.
    fn dodged(&self, group: &Group, ranks: usize) -> f64 {
        let offset = group.how as f64 - (self.hows.max(1) - 1) as f64 / 2.0;
        ranks as f64 * 2f64.powf(offset * 0.06)
    }

    fn legend(&self) -> Vec<Key> {
        self.groups
            .iter()
            .map(|g| Key {
                label: g.label.clone(),
                colour: g.colour,
                stroke: Stroke::Solid,
                marker: Some(g.shape),
                block: false,
            })
            .collect()
    }
}

/// "Each point: the median of 3 runs …", or that there is one run per point.
fn reps_phrase(summaries: &[Summary]) -> String {
    let (lo, hi) = summaries
        .iter()
        .map(|s| s.reps)
        .fold((usize::MAX, 0), |(lo, hi), r| (lo.min(r), hi.max(r)));
    match (lo, hi) {
        (usize::MAX, _) => "No runs.".into(),
        (_, 1) => "One run per point, so no error bars.".into(),
        (lo, hi) if lo == hi => {
            format!("Each point: the median of {lo} runs; error bars: their minimum and maximum.")
        }
        (lo, hi) => format!(
            "Each point: the median of {lo} to {hi} runs; error bars: their minimum and maximum."
        ),
    }
}

/// What a point of configuration `s` is, for the SVG's `data-` attributes.
fn tags(s: &Summary) -> Vec<(&'static str, String)> {
    vec![
        ("input", s.config.input.clone()),
        ("engine", s.config.engine.to_string()),
        (
            "store",
            s.config.store.map(|k| k.to_string()).unwrap_or_default(),
        ),
        ("ranks", s.config.ranks.to_string()),
        ("hosts", s.config.placement.hosts.to_string()),
        ("oversubscribed", s.oversubscribed.to_string()),
        ("cells", s.cells.to_string()),
        (
            "ns-per-cell",
            s.ns_per_cell()
                .map_or(String::new(), |ns| format!("{ns:.4}")),
        ),
    ]
}

/// The hover text of a point: what, where, the value, how many runs.
fn tip(group: &str, s: &Summary, value: &str) -> String {
    let over = if s.oversubscribed {
        ", oversubscribed"
    } else {
        ""
    };
    format!(
        "{group}, P = {} ({}): {value}; {} runs{over}",
        s.config.ranks, s.config.placement, s.reps
    )
}

/// A point of `s` at `y` with error bar `range` (dropped when it is a single run).
fn point(group: &str, s: &Summary, y: f64, range: (f64, f64), value: String) -> Point {
    Point {
        x: s.config.ranks as f64,
        y,
        range: (s.reps > 1).then_some(range),
        hollow: s.oversubscribed,
        tip: tip(group, s, &value),
        tags: tags(s),
    }
}

/// A dashed horizontal line across a rank axis.
fn across(x: &Axis, y: f64, label: String, colour: RGBColor) -> Series {
    Series {
        label,
        colour,
        stroke: Stroke::Dashed,
        marker: None,
        points: vec![
            Point::plain(x.value_at(x.lo), y),
            Point::plain(x.value_at(x.hi), y),
        ],
    }
}

fn values(series: &[Series]) -> Vec<f64> {
    series
        .iter()
        .flat_map(|s| s.points.iter())
        .flat_map(|p| {
            let (lo, hi) = p.range.unwrap_or((p.y, p.y));
            [p.y, lo, hi]
        })
        .collect()
}

fn seconds(t: f64) -> f64 {
    t.max(MIN_SECONDS)
}

/// Median `seconds_total` against ranks.
pub fn time(data: &Data) -> Figure {
    let x = Axis::ranks(&data.ranks);
    let mut series: Vec<Series> = data
        .groups
        .iter()
        .map(|g| {
            group_series(g, |s| {
                let t = s.seconds;
                let text = format!("median {}", ranged(t.median, (t.min, t.max), Unit::Seconds));
                let range = (seconds(t.min), seconds(t.max));
                point(&g.label, s, seconds(t.median), range, text)
            })
        })
        .collect();
    let mut legend = data.legend();
    for r in &data.references {
        let line = across(
            &x,
            seconds(r.seconds.median),
            r.label(),
            data.input_colour(&r.config.input),
        );
        legend.push(Key::of(&line));
        series.push(line);
    }
    let clamped = data
        .groups
        .iter()
        .flat_map(|g| g.points.iter())
        .chain(data.references.iter())
        .any(|s| s.seconds.min < MIN_SECONDS);
    let mut first = vec![
        "Time: seconds_total, on rank 0 from the start to the LCS, without the launcher's \
         start-up. Dashed: the sequential reference (mpi-lcs reference, one process) of the \
         same input."
            .to_owned(),
    ];
    if clamped {
        first.push(format!(
            "Times under {} (the CSV's resolution) are drawn at {}.",
            label(MIN_SECONDS, Unit::Seconds),
            label(MIN_SECONDS, Unit::Seconds)
        ));
    }
    let y = Axis::log(&values(&series), Unit::Seconds, "time, median (log scale)");
    Figure::single(
        "Time to solve against ranks",
        x,
        y,
        series,
        legend,
        data.notes(&first, true),
    )
}

/// A speed-up series: `base` over each point's time, error bars from the point's range;
/// `per_rank` divides by P (efficiency).
fn ratio_series(g: &Group, base: f64, per_rank: bool, unit: Unit) -> Series {
    group_series(g, |s| {
        let p = if per_rank { s.config.ranks as f64 } else { 1.0 };
        let of = |t: f64| base / seconds(t) / p;
        let v = of(s.seconds.median);
        let (lo, hi) = (of(s.seconds.max), of(s.seconds.min));
        point(&g.label, s, v, (lo, hi), ranged(v, (lo, hi), unit))
    })
}

/// A group's series, solid with its marker: a point of each of its summaries.
fn group_series(g: &Group, point: impl Fn(&Summary) -> Point) -> Series {
    Series {
        label: g.label.clone(),
        colour: g.colour,
        stroke: Stroke::Solid,
        marker: Some(g.shape),
        points: g.points.iter().map(|s| point(s)).collect(),
    }
}

/// A value and its range, as a point's hover text says them: `V, range LO to HI` in `unit`.
fn ranged(value: f64, (lo, hi): (f64, f64), unit: Unit) -> String {
    format!(
        "{}, range {} to {}",
        label(value, unit),
        label(lo, unit),
        label(hi, unit)
    )
}

/// The median time at P = 1 of a group.
fn one_rank(g: &Group) -> Option<f64> {
    g.points
        .iter()
        .find(|s| s.config.ranks == 1)
        .map(|s| seconds(s.seconds.median))
}

/// Speed-up against the sequential reference and against P = 1, side by side.
pub fn speedup(data: &Data) -> Figure {
    let x = Axis::ranks(&data.ranks);
    let mut missing_reference = Vec::new();
    let mut against_reference: Vec<Series> = Vec::new();
    for g in &data.groups {
        match data.reference(&g.key) {
            Some(r) => against_reference.push(ratio_series(
                g,
                seconds(r.seconds.median),
                false,
                Unit::Ratio,
            )),
            None => missing_reference.push(g.label.clone()),
        }
    }
    let parity = across(
        &x,
        1.0,
        "1× = as fast as the sequential reference".into(),
        style::FAINT_TEXT_COLOUR,
    );
    let parity_legend = Key::of(&parity);
    against_reference.push(parity);

    let mut missing_one = Vec::new();
    let mut against_one: Vec<Series> = Vec::new();
    for g in &data.groups {
        match one_rank(g) {
            Some(t1) => against_one.push(ratio_series(g, t1, false, Unit::Ratio)),
            None => missing_one.push(g.label.clone()),
        }
    }
    let ideal = Series {
        label: "ideal: speed-up = P".into(),
        colour: TEXT_COLOUR,
        stroke: Stroke::Dashed,
        marker: None,
        points: data
            .ranks
            .iter()
            .map(|&p| Point::plain(p as f64, p as f64))
            .collect(),
    };
    let mut legend = data.legend();
    legend.push(parity_legend);
    legend.push(Key::of(&ideal));
    against_one.push(ideal);

    let mut first = vec![
        "Left: the sequential reference's median time over each median time (how much faster \
         than the best one-process program). Right: the median time at P = 1 of the same \
         engine and store over each (how the engine scales)."
            .to_owned(),
    ];
    if !missing_reference.is_empty() {
        first.push(format!(
            "No sequential reference for: {}.",
            missing_reference.join(", ")
        ));
    }
    if !missing_one.is_empty() {
        first.push(format!("No run at P = 1 for: {}.", missing_one.join(", ")));
    }
    let panels = vec![
        Panel {
            title: "against the sequential reference".into(),
            y: Axis::log(
                &values(&against_reference),
                Unit::Ratio,
                "speed-up (log scale)",
            ),
            x: x.clone(),
            series: against_reference,
            bars: Vec::new(),
        },
        Panel {
            title: "against P = 1, same engine and store".into(),
            y: Axis::log(&values(&against_one), Unit::Ratio, "speed-up (log scale)"),
            x,
            series: against_one,
            bars: Vec::new(),
        },
    ];
    Figure {
        title: "Speed-up against ranks".into(),
        panels,
        columns: 2,
        legend_title: "input (m × n) · engine · store".into(),
        legend,
        notes: data.notes(&first, true),
    }
}

/// Speed-up against P = 1, divided by P.
pub fn efficiency(data: &Data) -> Figure {
    let x = Axis::ranks(&data.ranks);
    let mut missing = Vec::new();
    let mut series: Vec<Series> = Vec::new();
    for g in &data.groups {
        match one_rank(g) {
            Some(t1) => series.push(ratio_series(g, t1, true, Unit::Percent)),
            None => missing.push(g.label.clone()),
        }
    }
    let ideal = across(&x, 1.0, "ideal: 100%".into(), TEXT_COLOUR);
    let mut legend = data.legend();
    legend.push(Key::of(&ideal));
    series.push(ideal);
    let top = values(&series).into_iter().fold(1.0, f64::max);
    let mut first = vec![
        "Efficiency = speed-up against P = 1 of the same engine and store, divided by P: 100% \
         means P ranks are P times as fast as one."
            .to_owned(),
    ];
    if !missing.is_empty() {
        first.push(format!("No run at P = 1 for: {}.", missing.join(", ")));
    }
    Figure {
        title: "Parallel efficiency against ranks".into(),
        panels: vec![Panel {
            title: String::new(),
            x,
            y: Axis::linear(top, Unit::Percent, "efficiency"),
            series,
            bars: Vec::new(),
        }],
        columns: 1,
        legend_title: "input (m × n) · engine · store".into(),
        legend,
        notes: data.notes(&first, true),
    }
}

/// The parts of a run's time, stacked, and their colours.
const PARTS: [&str; 4] = [
    "compute (busiest rank's fill)",
    "waiting in receives",
    "posting sends",
    "traceback (slowest rank)",
];

fn part_colour(k: usize) -> RGBColor {
    style::series_colour(k)
}

/// Per series, the time of each rank count split into its parts.
pub fn breakdown(data: &Data) -> Figure {
    let mut panels = Vec::new();
    for g in &data.groups {
        let labels: Vec<String> = g
            .points
            .iter()
            .map(|s| {
                let twice = g
                    .points
                    .iter()
                    .filter(|o| o.config.ranks == s.config.ranks)
                    .count()
                    > 1;
                let mark = if s.oversubscribed {
                    crate::table::DAGGER
                } else {
                    ""
                };
                if twice {
                    format!(
                        "{}{mark} ({} hosts)",
                        s.config.ranks, s.config.placement.hosts
                    )
                } else {
                    format!("{}{mark}", s.config.ranks)
                }
            })
            .collect();
        let bars: Vec<Bar> = g
            .points
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let parts = [s.compute, s.wait, s.send, s.traceback];
                let text: Vec<String> = PARTS
                    .iter()
                    .zip(parts)
                    .map(|(name, v)| format!("{name} {}", label(v, Unit::Seconds)))
                    .collect();
                Bar {
                    x: k as f64,
                    segments: parts
                        .iter()
                        .enumerate()
                        .map(|(i, &v)| (v.max(0.0), part_colour(i)))
                        .collect(),
                    total: Some(s.seconds.median),
                    tip: tip(
                        &g.label,
                        s,
                        &format!(
                            "total {}; {}",
                            label(s.seconds.median, Unit::Seconds),
                            text.join(", ")
                        ),
                    ),
                    tags: tags(s),
                }
            })
            .collect();
        let top = bars
            .iter()
            .map(|b| {
                let stacked: f64 = b.segments.iter().map(|s| s.0).sum();
                stacked.max(b.total.unwrap_or(0.0))
            })
            .fold(0.0, f64::max);
        panels.push(Panel {
            title: g.label.clone(),
            x: Axis::categories(&labels, "ranks P"),
            y: Axis::linear(top, Unit::Seconds, "seconds, median"),
            series: Vec::new(),
            bars,
        });
    }
    let mut legend: Vec<Key> = PARTS
        .iter()
        .enumerate()
        .map(|(i, name)| Key::block(name, part_colour(i)))
        .collect();
    legend.push(Key {
        label: "total time (seconds_total)".into(),
        colour: TEXT_COLOUR,
        stroke: Stroke::None,
        marker: Some(Shape::Diamond),
        block: false,
    });
    let over = data.oversubscribed_ranks();
    let mut first = vec![
        "Bars: the fill of the busiest rank (the one whose fill took longest) split into \
         computing cells, waiting in receives and posting sends, then the slowest rank's \
         traceback; medians of the runs. The rest of the total is reading and broadcasting \
         the input and allocating the store."
            .to_owned(),
    ];
    if over.is_empty() {
        first.push("No run was oversubscribed.".into());
    } else {
        let ps: Vec<String> = over.iter().map(|p| format!("P = {p}")).collect();
        first.push(format!(
            "† oversubscribed ({}): a host ran more ranks than it has cores; the ranks took \
             turns, so waiting includes waiting for a core.",
            ps.join(", ")
        ));
    }
    let columns = panels.len().clamp(1, 3);
    Figure {
        title: "Where the time goes, per rank count".into(),
        panels,
        columns,
        legend_title: "part of the time".into(),
        legend,
        notes: first.into_iter().chain(data.warnings()).collect(),
    }
}

/// Boundary messages measured against the schedule's prediction.
pub fn messages(data: &Data) -> Figure {
    let x = Axis::ranks(&data.ranks);
    let mut series = Vec::new();
    let mut legend = Vec::new();
    let mut mismatches = 0;
    // The prediction, once per input and engine (every store runs the same schedule).
    let mut predicted_for: Vec<(&str, EngineKind)> = Vec::new();
    for g in &data.groups {
        let key = (g.key.input.as_str(), g.key.engine);
        if predicted_for.contains(&key) {
            continue;
        }
        predicted_for.push(key);
        let first = g.points[0];
        let line = Series {
            label: format!(
                "{} ({}) · {} · predicted",
                first.config.name(),
                first.size(),
                g.key.engine
            ),
            colour: g.colour,
            stroke: Stroke::Solid,
            marker: None,
            points: g
                .points
                .iter()
                .map(|s| Point::plain(s.config.ranks as f64, s.predicted as f64))
                .collect(),
        };
        legend.push(Key::of(&line));
        series.push(line);
    }
    for g in &data.groups {
        let measured = Series {
            label: format!("{} · measured", g.label),
            colour: g.colour,
            stroke: Stroke::None,
            marker: Some(g.shape),
            points: g
                .points
                .iter()
                .map(|s| {
                    mismatches += s.mismatches;
                    let m = s.messages;
                    Point {
                        x: data.dodged(g, s.config.ranks),
                        y: m.median,
                        range: (m.min < m.max).then_some((m.min, m.max)),
                        hollow: false,
                        tip: tip(
                            &g.label,
                            s,
                            &format!(
                                "{} boundary messages, predicted {}",
                                crate::report::text::thousands(m.median as u64),
                                crate::report::text::thousands(s.predicted)
                            ),
                        ),
                        tags: tags(s),
                    }
                })
                .collect(),
        };
        legend.push(Key::of(&measured));
        series.push(measured);
    }
    let all = values(&series);
    let positive: Vec<f64> = all.iter().copied().filter(|v| *v > 0.0).collect();
    let (lo, hi) = positive
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let log = !positive.is_empty() && hi / lo >= 10.0;
    let mut zeros = false;
    if log {
        for s in &mut series {
            let before = s.points.len();
            s.points.retain(|p| p.y > 0.0);
            zeros |= s.points.len() < before;
        }
    }
    let mut first = vec![
        "Markers: boundary messages counted by the runs (messages_boundary). Lines: the \
         number the schedule predicts from m, n and P alone (predicted_boundary)."
            .to_owned(),
        match mismatches {
            0 => "Every run sent exactly the predicted number of boundary messages.".into(),
            n => format!("{n} runs sent a different number of boundary messages than predicted."),
        },
    ];
    if zeros {
        first.push("P = 1 sends no boundary messages: 0 has no place on a log scale.".into());
    }
    let y = if log {
        Axis::log(&positive, Unit::Count, "boundary messages (log scale)")
    } else {
        Axis::linear(hi, Unit::Count, "boundary messages")
    };
    let mut notes = first;
    notes.extend(data.warnings());
    Figure::single(
        "Boundary messages against ranks: measured and predicted",
        x,
        y,
        series,
        legend,
        notes,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::diagonal::store::StoreKind;
    use crate::plot::tests::row;
    use crate::report::row::Row;
    use crate::runs::{mixtures, summarise};

    fn figure_of(rows: &[Row], make: fn(&Data) -> Figure) -> Figure {
        let summaries = summarise(rows);
        let data = Data::new(&summaries, &mixtures(rows));
        make(&data)
    }

    /// The point of the configuration on `ranks` ranks in the series labelled `label`.
    fn y(panel: &Panel, label: &str, ranks: usize) -> Point {
        let series = panel
            .series
            .iter()
            .find(|s| s.label == label)
            .unwrap_or_else(|| panic!("no series '{label}' in {:?}", panel.series));
        series
            .points
            .iter()
            .find(|p| p.tags.contains(&("ranks", ranks.to_string())))
            .unwrap_or_else(|| panic!("no P = {ranks} in {label}"))
            .clone()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    /// Reference 1 s; dense 4 s on one rank, 2, 2.5 and 3 s on two; hash 300 s on one rank,
    /// 200 s on two.
    fn rows() -> Vec<Row> {
        let dense = Some(StoreKind::Dense);
        let hash = Some(StoreKind::Hash);
        vec![
            row("a.txt", 10, 1, None, 1.0),
            row("a.txt", 10, 1, dense, 4.0),
            row("a.txt", 10, 2, dense, 2.0),
            row("a.txt", 10, 2, dense, 3.0),
            row("a.txt", 10, 2, dense, 2.5),
            row("a.txt", 10, 1, hash, 300.0),
            row("a.txt", 10, 2, hash, 200.0),
        ]
    }

    #[test]
    fn speedup_against_the_reference_and_against_one_rank() {
        let f = figure_of(&rows(), speedup);
        assert_eq!(f.panels.len(), 2);
        let dense = "a (10 × 10) · diagonal · dense";
        let hash = "a (10 × 10) · diagonal · hash";
        // Against the sequential reference: 1 s over the median; bars from the extremes.
        let p = y(&f.panels[0], dense, 2);
        assert!(close(p.y, 1.0 / 2.5), "{p:?}");
        let (lo, hi) = p.range.unwrap();
        assert!(close(lo, 1.0 / 3.0) && close(hi, 0.5), "{p:?}");
        // The hash store is far slower than the reference even where it "scales".
        assert!(close(y(&f.panels[0], hash, 2).y, 1.0 / 200.0));
        // Against P = 1 of the same store.
        assert!(close(y(&f.panels[1], dense, 2).y, 4.0 / 2.5));
        assert!(close(y(&f.panels[1], hash, 2).y, 1.5));
        assert!(close(y(&f.panels[1], dense, 1).y, 1.0));
        let labels: Vec<&str> = f.legend.iter().map(|k| k.label.as_str()).collect();
        assert!(labels.contains(&"ideal: speed-up = P"), "{labels:?}");
        assert!(labels.contains(&dense), "{labels:?}");
    }

    #[test]
    fn efficiency_is_speedup_over_ranks() {
        let f = figure_of(&rows(), efficiency);
        let p = y(&f.panels[0], "a (10 × 10) · diagonal · dense", 2);
        assert!(close(p.y, 4.0 / 2.5 / 2.0), "{p:?}");
        assert_eq!(f.panels[0].y.ticks.last().unwrap().1, "100%");
    }

    #[test]
    fn breakdown_stacks_the_parts_and_marks_oversubscription() {
        let mut rows = rows();
        rows.push(row("a.txt", 10, 4, Some(StoreKind::Dense), 8.0));
        let f = figure_of(&rows, breakdown);
        assert_eq!(f.panels.len(), 2, "one panel per series");
        let dense = &f.panels[0];
        assert_eq!(dense.title, "a (10 × 10) · diagonal · dense");
        let labels: Vec<&str> = dense.x.ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["1", "2", "4†"]);
        let two = &dense.bars[1];
        let parts: Vec<f64> = two.segments.iter().map(|s| s.0).collect();
        // compute, wait, send are 0.5, 0.2 and 0.1 of each run's time (median 2.5 s).
        assert!(close(parts[0], 1.25) && close(parts[1], 0.5) && close(parts[2], 0.25));
        assert_eq!(two.total, Some(2.5));
        assert!(f
            .notes
            .iter()
            .any(|n| n.starts_with("† oversubscribed (P = 4)")));
        assert!(dense.y.hi >= 8.0);
    }

    #[test]
    fn messages_against_the_prediction() {
        let mut rows = rows();
        rows[2].messages_boundary += 1;
        let f = figure_of(&rows, messages);
        let panel = &f.panels[0];
        let predicted = &panel.series[0];
        assert_eq!(predicted.label, "a (10 × 10) · diagonal · predicted");
        assert_eq!(predicted.marker, None);
        // Dense and hash send the same messages: their markers are set a little apart.
        let dense = y(panel, "a (10 × 10) · diagonal · dense · measured", 1);
        let hash_x = panel.series[2].points[0].x;
        assert!(dense.x < 1.0 && hash_x > 1.0, "{} {hash_x}", dense.x);
        assert!(f.notes.iter().any(|n| n == "1 runs sent a different number of boundary messages than predicted."), "{:?}", f.notes);
    }

    #[test]
    fn mixed_result_sets_are_warned_about_on_every_figure() {
        let mut rows = rows();
        rows[0].commit = "other".into();
        for make in [time, speedup, efficiency, breakdown, messages] {
            let f = figure_of(&rows, make);
            assert!(
                f.notes
                    .iter()
                    .any(|n| n.starts_with("Warning: the runs mix 2 commits")),
                "{}: {:?}",
                f.title,
                f.notes
            );
        }
        let f = figure_of(&rows, time);
        assert!(f
            .notes
            .iter()
            .any(|n| n.starts_with("Each point: the median of 1 to 3 runs")));
    }
}
