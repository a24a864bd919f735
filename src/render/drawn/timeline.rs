//! The per-rank timeline of a bands run (a Gantt chart): one row per rank that owns a band, and on
//! it, batch by batch, when the rank computed (its colour), posted its messages (black) and waited
//! (hatched grey), from the run's own recording, with a line per message of carries from the end of
//! a batch on one band to its start on the next, and under its axis a line for each rank whose row
//! starts blank (when it began, and why). A schedule has no run: its timeline is a model
//! (one unit of time per row and word, messages arriving at once), and its title says so. The
//! marks: `docs/classroom.md#the-pictures-marks-and-the-pages-data`.

use super::layout::MARGIN;
use super::marks::pattern;
use super::style::{
    hex, rank_colour, FAINT_TEXT_COLOUR, HATCH_COLOUR, MESSAGE_COLOUR, TEXT_COLOUR,
};
use super::xml::{num, SvgWriter};
use crate::comm::trace::{Span, SpanKind};
use crate::render::shown::pipeline::Pipeline;

const ROW: f64 = 30.0;
const LEFT: f64 = MARGIN + 110.0;
const WIDTH: f64 = 740.0;
/// The height of a line under the axis about a rank that started late.
const LATE_LINE: f64 = 20.0;

/// A timeline placed from `top` down.
pub(super) struct Timeline {
    pipe: Pipeline,
    spans: Vec<Span>,
    recorded: bool,
    top: f64,
    t0: f64,
    t1: f64,
}

impl Timeline {
    pub(super) fn new(pipe: &Pipeline, spans: &[Span], recorded: bool, top: f64) -> Timeline {
        let t0 = spans.iter().map(|s| s.start).fold(f64::INFINITY, f64::min);
        let t1 = spans
            .iter()
            .map(|s| s.end)
            .fold(f64::NEG_INFINITY, f64::max);
        let (t0, t1) = if t0.is_finite() && t1 > t0 {
            (t0, t1)
        } else {
            (0.0, 1.0)
        };
        Timeline {
            pipe: *pipe,
            spans: spans.to_vec(),
            recorded,
            top,
            t0,
            t1,
        }
    }

    pub(super) fn width(&self) -> f64 {
        LEFT + WIDTH + MARGIN
    }

    pub(super) fn bottom(&self) -> f64 {
        let late = self.late_starts().len() as f64 * LATE_LINE;
        self.top + 34.0 + self.pipe.active_ranks() as f64 * ROW + 46.0 + late
    }

    /// A time as the page shows it: milliseconds from the first span (recorded), else units.
    fn shown(&self, t: f64) -> f64 {
        if self.recorded {
            (t - self.t0) * 1e3
        } else {
            t - self.t0
        }
    }

    /// The time axis's ticks: from 0 at round steps (1, 2 or 5 times a power of ten) over the
    /// timeline's span, at most five, in the unit that suits the span (µs, ms or s for a run,
    /// the model's units for a schedule) and in which the step is whole (a unit down when it
    /// would not be), with as many decimals as the step needs (only the shortest runs need
    /// any), so no two labels are alike. Each is `(t, label)`, `t` on the spans' clock.
    fn ticks(&self) -> Vec<(f64, String)> {
        let span = self.t1 - self.t0;
        let (mut scale, mut unit) = match (self.recorded, span) {
            (false, _) => (1.0, ""),
            (true, s) if s < 1e-3 => (1e6, " µs"),
            (true, s) if s < 1.0 => (1e3, " ms"),
            (true, _) => (1.0, " s"),
        };
        let mut step = nice_step(span * scale / 4.0, !self.recorded);
        if self.recorded && step < 1.0 && scale < 1e6 {
            // A thousand times smaller, the step is whole.
            (scale, unit) = (scale * 1e3, if scale == 1.0 { " ms" } else { " µs" });
            step = nice_step(span * scale / 4.0, false);
        }
        let range = span * scale;
        let decimals = (-step.log10().floor()).max(0.0) as usize;
        (0..)
            .map(|k| k as f64 * step)
            .take_while(|v| *v <= range * (1.0 + 1e-9))
            .map(|v| (self.t0 + v / scale, format!("{v:.decimals$}{unit}")))
            .collect()
    }

    /// The ranks of a recorded run whose first span comes later than a twentieth of the
    /// timeline, with that span's start: a blank start that needs a word.
    fn late_starts(&self) -> Vec<(usize, f64)> {
        if !self.recorded {
            return Vec::new();
        }
        (0..self.pipe.active_ranks())
            .filter_map(|k| {
                let first = self
                    .spans
                    .iter()
                    .filter(|s| s.rank == k)
                    .map(|s| s.start)
                    .fold(f64::INFINITY, f64::min);
                (first.is_finite() && first - self.t0 > (self.t1 - self.t0) / 20.0)
                    .then_some((k, first))
            })
            .collect()
    }

    /// A recorded time from the first span, in microseconds below a millisecond.
    fn elapsed(&self, t: f64) -> String {
        match t - self.t0 {
            d if d < 1e-3 => format!("{:.0} µs", d * 1e6),
            d if d < 1.0 => format!("{:.2} ms", d * 1e3),
            d => format!("{d:.2} s"),
        }
    }

    fn x(&self, t: f64) -> f64 {
        LEFT + (t - self.t0) / (self.t1 - self.t0) * WIDTH
    }

    fn row_y(&self, k: usize) -> f64 {
        self.top + 34.0 + k as f64 * ROW
    }

    pub(super) fn draw(&self, out: &mut SvgWriter) {
        out.open("g", &[("class", "timeline".into())]);
        out.open("defs", &[]);
        pattern(out, "wait-hatch", 6, |out| {
            out.leaf(
                "rect",
                &[
                    ("width", "6".into()),
                    ("height", "6".into()),
                    ("fill", "#d4d4d4".into()),
                ],
            );
            out.leaf(
                "path",
                &[
                    ("d", "M0,6 L6,0".into()),
                    ("stroke", hex(HATCH_COLOUR)),
                    ("stroke-width", "1.2".into()),
                ],
            );
        });
        out.close("defs");
        let on_device = self.spans.iter().any(|s| s.kind == SpanKind::Copy);
        let title = if on_device {
            "Timeline on the GPUs (own clocks): kernels in the rank's colour, copies outlined, \
             sends black, waits hatched, a line per message"
        } else if self.recorded {
            "Timeline of this run (its own clocks): compute in the rank's colour, sends black, waits \
             hatched, a line per message"
        } else {
            "Timeline: a model, not a run (a unit per row and word, messages at once); waits \
             hatched, a line per message"
        };
        let text = |out: &mut SvgWriter,
                    class: &str,
                    x: f64,
                    y: f64,
                    px: f64,
                    anchor: &str,
                    fill: String,
                    t: &str| {
            out.text(
                &[
                    ("class", class.into()),
                    ("x", num(x)),
                    ("y", num(y)),
                    ("font-size", num(px)),
                    ("text-anchor", anchor.into()),
                    ("fill", fill),
                ],
                t,
            );
        };
        text(
            out,
            "timeline-title",
            MARGIN,
            self.top + 14.0,
            15.0,
            "start",
            hex(TEXT_COLOUR),
            title,
        );
        let p = self.pipe.active_ranks();
        for k in 0..p {
            let y = self.row_y(k);
            text(
                out,
                "timeline-rank",
                LEFT - 10.0,
                y + ROW * 0.62,
                16.0,
                "end",
                hex(TEXT_COLOUR),
                &format!("p{k}"),
            );
        }
        for s in &self.spans {
            if s.rank >= p {
                continue;
            }
            let (x0, x1) = (self.x(s.start), self.x(s.end));
            let y = self.row_y(s.rank);
            let (fill, inset) = match s.kind {
                SpanKind::Compute => (hex(rank_colour(s.rank)), 3.0),
                SpanKind::Send => (hex(MESSAGE_COLOUR), 9.0),
                SpanKind::Wait => ("url(#wait-hatch)".into(), 6.0),
                SpanKind::Copy => ("#ffffff".into(), 5.0),
            };
            let kind = match s.kind {
                SpanKind::Compute => "compute",
                SpanKind::Send => "send",
                SpanKind::Wait => "wait",
                SpanKind::Copy => "copy",
            };
            // Compute framed in black, a copy outlined in the rank's colour.
            let (stroke, stroke_width) = match s.kind {
                SpanKind::Compute => (hex(MESSAGE_COLOUR), "0.8"),
                SpanKind::Copy => (hex(rank_colour(s.rank)), "1.6"),
                SpanKind::Send | SpanKind::Wait => ("none".into(), "0.8"),
            };
            out.leaf(
                "rect",
                &[
                    ("class", "span".into()),
                    ("data-rank", s.rank.to_string()),
                    ("data-batch", s.batch.to_string()),
                    ("data-kind", kind.into()),
                    ("data-unit", (s.rank + s.batch).to_string()),
                    ("data-start", format!("{:.4}", self.shown(s.start))),
                    ("data-end", format!("{:.4}", self.shown(s.end))),
                    ("x", num(x0)),
                    ("y", num(y + inset)),
                    ("width", num((x1 - x0).max(1.5))),
                    ("height", num(ROW - 2.0 * inset)),
                    ("fill", fill),
                    ("stroke", stroke),
                    ("stroke-width", stroke_width.into()),
                ],
            );
        }
        // A line per message: from the end of batch b on band k (its copy back, on a device)
        // to its start on band k + 1 (its copy in).
        let work = |k: usize, b: usize| {
            let mut spans = self.spans.iter().filter(|s| {
                s.rank == k && s.batch == b && matches!(s.kind, SpanKind::Compute | SpanKind::Copy)
            });
            let first = spans.next()?;
            Some(spans.fold((first.start, first.end), |(start, end), s| {
                (start.min(s.start), end.max(s.end))
            }))
        };
        for b in 0..self.pipe.batches() {
            for k in self.pipe.senders() {
                let (Some(from), Some(to)) = (work(k, b), work(k + 1, b)) else {
                    continue;
                };
                out.leaf(
                    "line",
                    &[
                        ("class", "carry".into()),
                        ("data-unit", (k + b).to_string()),
                        ("data-from", k.to_string()),
                        ("data-batch", b.to_string()),
                        ("x1", num(self.x(from.1))),
                        ("y1", num(self.row_y(k) + ROW - 3.0)),
                        ("x2", num(self.x(to.0))),
                        ("y2", num(self.row_y(k + 1) + 3.0)),
                        ("stroke", hex(MESSAGE_COLOUR)),
                        ("stroke-width", "1.5".into()),
                    ],
                );
            }
        }
        // The time axis: five ticks.
        let axis_y = self.row_y(p) + 6.0;
        out.leaf(
            "line",
            &[
                ("class", "timeline-axis".into()),
                ("x1", num(LEFT)),
                ("y1", num(axis_y)),
                ("x2", num(LEFT + WIDTH)),
                ("y2", num(axis_y)),
                ("stroke", hex(FAINT_TEXT_COLOUR)),
            ],
        );
        for (t, label) in self.ticks() {
            let x = self.x(t);
            let anchor = if x <= LEFT + 1.0 {
                "start"
            } else if x >= LEFT + WIDTH - 30.0 {
                "end"
            } else {
                "middle"
            };
            out.leaf(
                "line",
                &[
                    ("class", "timeline-tick-mark".into()),
                    ("x1", num(x)),
                    ("y1", num(axis_y)),
                    ("x2", num(x)),
                    ("y2", num(axis_y + 4.0)),
                    ("stroke", hex(FAINT_TEXT_COLOUR)),
                ],
            );
            text(
                out,
                "timeline-tick",
                x,
                axis_y + 19.0,
                15.0,
                anchor,
                hex(FAINT_TEXT_COLOUR),
                &label,
            );
        }
        // A rank whose row starts blank says why, under the axis: its first batch came later
        // than the first rank's (it waited for a core, or for its input).
        for (line, (k, first)) in self.late_starts().into_iter().enumerate() {
            text(
                out,
                "timeline-late",
                LEFT,
                axis_y + 40.0 + line as f64 * LATE_LINE,
                14.0,
                "start",
                hex(FAINT_TEXT_COLOUR),
                &format!(
                    "p{k} began at {}, after the first rank: it waited for a core or for its \
                     input",
                    self.elapsed(first)
                ),
            );
        }
        out.leaf(
            "line",
            &[
                ("class", "now".into()),
                ("x1", num(LEFT)),
                ("y1", num(self.row_y(0) - 4.0)),
                ("x2", num(LEFT)),
                ("y2", num(axis_y)),
                ("stroke", hex(TEXT_COLOUR)),
                ("stroke-width", "2".into()),
                ("stroke-dasharray", "4 3".into()),
                ("visibility", "hidden".into()),
            ],
        );
        out.close("g");
    }
}

/// The round step (1, 2 or 5 times a power of ten) at or above `at_least`; a whole number when
/// `whole`.
fn nice_step(at_least: f64, whole: bool) -> f64 {
    if at_least.is_nan() || at_least <= 0.0 || !at_least.is_finite() {
        return 1.0;
    }
    let power = 10f64.powf(at_least.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|f| f * power)
        .find(|s| *s >= at_least * (1.0 - 1e-9))
        .unwrap_or(10.0 * power);
    if whole {
        step.max(1.0).round()
    } else {
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::bands::BandPlan;

    fn span(rank: usize, batch: usize, start: f64, end: f64) -> Span {
        Span {
            rank,
            batch,
            kind: SpanKind::Compute,
            start,
            end,
        }
    }

    #[test]
    fn tick_labels_are_round_distinct_and_in_a_fitting_unit() {
        let pipe = Pipeline::of_plan(&BandPlan::new(24, 192, 3, 8));
        // A run of 12 microseconds and one of a quarter of a millisecond, on their own clocks.
        for (end, wanted) in [
            (12e-6, vec!["0 µs", "5 µs", "10 µs"]),
            (2.4e-4, vec!["0 µs", "100 µs", "200 µs"]),
            (0.0123, vec!["0 ms", "5 ms", "10 ms"]),
            (0.0042, vec!["0 ms", "2 ms", "4 ms"]),
            (0.00062, vec!["0 µs", "200 µs", "400 µs", "600 µs"]),
            (0.0015, vec!["0 µs", "500 µs", "1000 µs", "1500 µs"]),
            (1.6, vec!["0 ms", "500 ms", "1000 ms", "1500 ms"]),
            (3.0, vec!["0 s", "1 s", "2 s", "3 s"]),
        ] {
            let t0 = 1000.0;
            let tl = Timeline::new(&pipe, &[span(0, 0, t0, t0 + end)], true, 0.0);
            let labels: Vec<String> = tl.ticks().into_iter().map(|(_, l)| l).collect();
            assert_eq!(labels, wanted, "a span of {end} s");
        }
        let tl = Timeline::new(&pipe, &[span(0, 0, 0.0, 0.00031)], true, 0.0);
        let ticks = tl.ticks();
        let labels: std::collections::BTreeSet<&String> = ticks.iter().map(|(_, l)| l).collect();
        assert_eq!(labels.len(), ticks.len(), "{ticks:?}");
        assert!(ticks.iter().all(|(t, _)| (0.0..=0.00031).contains(t)));
        // The model counts whole units.
        let tl = Timeline::new(&pipe, &[span(0, 0, 0.0, 28.0)], false, 0.0);
        let labels: Vec<String> = tl.ticks().into_iter().map(|(_, l)| l).collect();
        assert_eq!(labels, ["0", "10", "20"]);
        let tl = Timeline::new(&pipe, &[span(0, 0, 0.0, 3.0)], false, 0.0);
        let labels: Vec<String> = tl.ticks().into_iter().map(|(_, l)| l).collect();
        assert_eq!(labels, ["0", "1", "2", "3"]);
        assert!((nice_step(0.0031, false) - 0.005).abs() < 1e-12);
        assert_eq!(nice_step(7.0, true), 10.0);
    }

    /// A rank whose first batch comes late (three ranks on two cores) gets a line under the
    /// axis; the others, and a schedule's model, none.
    #[test]
    fn a_late_rank_s_blank_start_says_why() {
        let pipe = Pipeline::of_plan(&BandPlan::new(24, 192, 3, 8));
        let spans = [
            span(0, 0, 0.0, 400e-6),
            span(1, 0, 10e-6, 420e-6),
            span(2, 0, 108e-6, 500e-6),
        ];
        let tl = Timeline::new(&pipe, &spans, true, 0.0);
        assert_eq!(tl.late_starts(), [(2, 108e-6)]);
        let mut out = SvgWriter::new();
        tl.draw(&mut out);
        let svg = out.finish();
        assert!(
            svg.contains("p2 began at 108 µs, after the first rank"),
            "{svg}"
        );
        assert!(!svg.contains("p1 began"));
        let model = Timeline::new(&pipe, &spans, false, 0.0);
        assert!(model.late_starts().is_empty());
    }

    /// On a device each batch is a copy in, its kernels and a copy back: the copies outlined
    /// in the rank's colour, the title naming the GPUs, and a message's line leaving band 0 at
    /// the end of its copy back and reaching band 1 at the start of its copy in.
    #[test]
    fn a_device_s_copies_frame_its_kernels() {
        let pipe = Pipeline::of_plan(&BandPlan::new(8, 128, 2, 8));
        let phase = |rank, kind, start, end| Span {
            kind,
            ..span(rank, 0, start, end)
        };
        let spans = [
            phase(0, SpanKind::Copy, 0.0, 1e-3),
            phase(0, SpanKind::Compute, 1e-3, 3e-3),
            phase(0, SpanKind::Copy, 3e-3, 4e-3),
            phase(1, SpanKind::Wait, 0.0, 4e-3),
            phase(1, SpanKind::Copy, 4e-3, 5e-3),
            phase(1, SpanKind::Compute, 5e-3, 7e-3),
            phase(1, SpanKind::Copy, 7e-3, 8e-3),
        ];
        let tl = Timeline::new(&pipe, &spans, true, 0.0);
        let mut out = SvgWriter::new();
        tl.draw(&mut out);
        let svg = out.finish();
        assert!(svg.contains("Timeline on the GPUs"), "{svg}");
        let copies: Vec<&str> = svg
            .split("<rect ")
            .filter(|r| r.contains("data-kind=\"copy\""))
            .collect();
        assert_eq!(copies.len(), 4);
        assert!(copies[0].contains(&format!("stroke=\"{}\"", hex(rank_colour(0)))));
        assert!(copies[2].contains(&format!("stroke=\"{}\"", hex(rank_colour(1)))));
        let line = &svg[svg.find("class=\"carry\"").unwrap()..];
        assert!(
            line.contains(&format!("x1=\"{}\"", num(tl.x(4e-3)))),
            "{line}"
        );
        assert!(
            line.contains(&format!("x2=\"{}\"", num(tl.x(4e-3)))),
            "{line}"
        );
        // On the cores, the title of a run.
        let cores = Timeline::new(&pipe, &spans[1..2], true, 0.0);
        let mut out = SvgWriter::new();
        cores.draw(&mut out);
        assert!(out.finish().contains("Timeline of this run"));
    }
}
