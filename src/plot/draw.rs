//! Drawing: a figure model to an SVG document, with plotters for the axes, lines, legend and notes,
//! and every data point written as a group of its own (`<g class="point">`, a bar's
//! `<g class="bar">`): its error bar and marker, a `<title>` a viewer shows on hovering, and
//! `data-` attributes naming the configuration it stands for (input, engine, store, ranks, hosts,
//! oversubscribed), so that a test can check what was drawn against the table without guessing from
//! pixels. Hollow markers (oversubscribed) are filled white with a coloured outline.
//!
//! Points, bars and the legend's markers are plotters elements of their own (`Mark`), written
//! through the plots' backend ([`super::backend`]) like everything else plotters draws; a point is
//! drawn right after its panel's lines, so it lies on top of them. Colours and fonts come from
//! `render::drawn::style`.

use std::convert::Infallible;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::element::{DashedPathElement, Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::BackendCoord;

use super::axis::Axis;
use super::backend::{hex, BackendResult, SvgBackend};
use super::model::{Bar, Figure, Key, Panel, Point, Series, Shape, Stroke};
use crate::error::Error;
use crate::render::drawn::style::{self, text_width, GRID_COLOUR, TEXT_COLOUR};
use crate::render::drawn::xml::SvgWriter;

const TEXT_PX: f64 = 14.0;
const LINE_HEIGHT: u32 = 22;
const TITLE_HEIGHT: u32 = 48;
const MIN_LEGEND_WIDTH: u32 = 300;
/// Half the width of a bar, in category units.
const BAR_HALF: f64 = 0.3;

/// Panel width and height for a grid of `columns`.
fn panel_size(columns: usize) -> (u32, u32) {
    match columns {
        1 => (860, 580),
        2 => (620, 500),
        _ => (480, 360),
    }
}

fn font(px: f64) -> TextStyle<'static> {
    style::font(px, TEXT_COLOUR, HPos::Left, VPos::Top)
}

/// Breaks `text` into lines of at most `width` pixels.
fn wrap(text: &str, width: u32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&candidate, TEXT_PX) > width {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// One marker centred at `(x, y)` pixels.
fn marker(out: &mut SvgWriter, shape: Shape, (x, y): (i32, i32), colour: RGBColor, hollow: bool) {
    let fill = if hollow {
        "white".to_owned()
    } else {
        hex(colour)
    };
    let paint = [
        ("fill", fill),
        ("stroke", hex(colour)),
        ("stroke-width", "2".to_owned()),
    ];
    let polygon = |out: &mut SvgWriter, pts: &[(i32, i32)]| {
        let pts: Vec<String> = pts
            .iter()
            .map(|(dx, dy)| format!("{},{}", x + dx, y + dy))
            .collect();
        let mut attrs = vec![("points", pts.join(" "))];
        attrs.extend(paint.clone());
        out.leaf("polygon", &attrs);
    };
    match shape {
        Shape::Circle => {
            let mut attrs = vec![
                ("cx", x.to_string()),
                ("cy", y.to_string()),
                ("r", "5".to_owned()),
            ];
            attrs.extend(paint.clone());
            out.leaf("circle", &attrs);
        }
        Shape::Triangle => polygon(out, &[(0, -7), (-6, 4), (6, 4)]),
        Shape::Square => polygon(out, &[(-5, -5), (5, -5), (5, 5), (-5, 5)]),
        Shape::Diamond => polygon(out, &[(0, -7), (6, 0), (0, 7), (-6, 0)]),
    }
}

/// Opens a group of `class` with `data-NAME="value"` for each tag.
fn open_group(out: &mut SvgWriter, class: &str, tags: &[(&'static str, String)]) {
    let names: Vec<String> = tags.iter().map(|(k, _)| format!("data-{k}")).collect();
    let mut attrs = vec![("class", class.to_owned())];
    attrs.extend(
        names
            .iter()
            .zip(tags)
            .map(|(n, (_, v))| (n.as_str(), v.clone())),
    );
    out.open("g", &attrs);
}

/// An axis in drawing units whose key points are exactly its ticks (plotters' own ranges pick
/// their own round numbers, which on a log axis are not round values).
struct Ticked {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ticked {
    fn of(axis: &Axis) -> Ticked {
        Ticked {
            lo: axis.lo,
            hi: axis.hi,
            ticks: axis.ticks.iter().map(|t| t.0).collect(),
        }
    }
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

type Area<'a> = DrawingArea<SvgBackend<'a>, Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<Infallible>>;

/// The SVG document of `figure`.
pub fn render(figure: &Figure) -> Result<String, Error> {
    let columns = figure.columns.max(1);
    let rows = figure.panels.len().div_ceil(columns).max(1) as u32;
    let (panel_w, panel_h) = panel_size(columns);
    let legend_w = figure
        .legend
        .iter()
        .map(|k| 64 + text_width(&k.label, TEXT_PX))
        .chain([24 + text_width(&figure.legend_title, TEXT_PX + 1.0)])
        .fold(MIN_LEGEND_WIDTH, u32::max);
    let width = panel_w * columns as u32 + legend_w;
    let legend_h = figure.legend.len() as u32 * LINE_HEIGHT + 80;
    let charts_h = (panel_h * rows).max(legend_h);
    let notes: Vec<String> = figure
        .notes
        .iter()
        .flat_map(|n| wrap(n, width - 48))
        .collect();
    let notes_h = notes.len() as u32 * LINE_HEIGHT + 20;
    let height = TITLE_HEIGHT + charts_h + notes_h;
    let mut out = SvgWriter::new();
    out.open(
        "svg",
        &[
            ("width", width.to_string()),
            ("height", height.to_string()),
            ("viewBox", format!("0 0 {width} {height}")),
            ("xmlns", "http://www.w3.org/2000/svg".to_owned()),
        ],
    );
    {
        let root = SvgBackend::new(&mut out, (width, height)).into_drawing_area();
        draw(&root, figure, &notes, (panel_w, panel_h), charts_h).map_err(|e| {
            Error::Internal(anyhow::anyhow!(
                "drawing the plot '{}' failed: {e}",
                figure.title
            ))
        })?;
    }
    out.close("svg");
    Ok(out.finish())
}

fn draw(
    root: &Area,
    figure: &Figure,
    notes: &[String],
    (panel_w, panel_h): (u32, u32),
    charts_h: u32,
) -> DrawResult {
    root.fill(&WHITE)?;
    let (title, rest) = root.split_vertically(TITLE_HEIGHT);
    title.draw(&Text::new(figure.title.clone(), (24, 14), font(22.0)))?;
    let (charts, notes_area) = rest.split_vertically(charts_h);
    let columns = figure.columns.max(1);
    let (grid, legend) = charts.split_horizontally(panel_w * columns as u32);
    for (k, panel) in figure.panels.iter().enumerate() {
        let (col, row) = ((k % columns) as i32, (k / columns) as i32);
        let area = grid.clone().shrink(
            (col * panel_w as i32, row * panel_h as i32),
            (panel_w, panel_h),
        );
        draw_panel(&area, panel)?;
    }
    draw_legend(&legend, figure)?;
    for (k, note) in notes.iter().enumerate() {
        notes_area.draw(&Text::new(
            note.clone(),
            (24, 6 + k as i32 * LINE_HEIGHT as i32),
            font(TEXT_PX),
        ))?;
    }
    root.present()
}

fn draw_panel(area: &Area, panel: &Panel) -> DrawResult {
    let (x, y) = (&panel.x, &panel.y);
    let mut builder = ChartBuilder::on(area);
    if !panel.title.is_empty() {
        builder.caption(&panel.title, font(TEXT_PX + 2.0));
    }
    let mut chart = builder
        .margin(14)
        .x_label_area_size(52)
        .y_label_area_size(84)
        .build_cartesian_2d(Ticked::of(x), Ticked::of(y))?;
    let x_label = |v: &f64| x.label_at(*v);
    let y_label = |v: &f64| y.label_at(*v);
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
    let at = |px: f64, py: f64| (x.to(px), y.to(py));
    for series in &panel.series {
        let pts: Vec<(f64, f64)> = series.points.iter().map(|p| at(p.x, p.y)).collect();
        if pts.len() > 1 {
            let style = series.colour.stroke_width(2);
            match series.stroke {
                Stroke::Solid => {
                    chart.draw_series(LineSeries::new(pts.clone(), style))?;
                }
                Stroke::Dashed => {
                    chart.draw_series(DashedLineSeries::new(pts.clone(), 10, 6, style))?;
                }
                Stroke::None => {}
            }
        }
    }
    // Points and bars, on top of the lines, mapped by the chart like any series.
    let area = chart.plotting_area();
    for series in &panel.series {
        let Some(shape) = series.marker else { continue };
        for p in &series.points {
            let mut at = vec![(x.to(p.x), y.to(p.y))];
            if let Some((lo, hi)) = p.range {
                at.extend([(x.to(p.x), y.to(hi)), (x.to(p.x), y.to(lo))]);
            }
            area.draw(&Mark {
                what: What::Point { series, shape, p },
                at,
            })?;
        }
    }
    for bar in &panel.bars {
        let mut at = Vec::new();
        let mut base = 0.0;
        for &(height, _) in &bar.segments {
            at.push((bar.x - BAR_HALF, y.to(base)));
            at.push((bar.x + BAR_HALF, y.to(base + height)));
            base += height;
        }
        at.extend(bar.total.map(|total| (bar.x, y.to(total))));
        area.draw(&Mark {
            what: What::Bar(bar),
            at,
        })?;
    }
    Ok(())
}

/// A mark of the plot's own, drawn as a plotters element: the area it is drawn on maps its
/// coordinates `at`, and it writes its group through the backend's writer.
struct Mark<'f, C> {
    what: What<'f>,
    at: Vec<C>,
}

enum What<'f> {
    /// A data point; `at`: the point, then its range's top and bottom, if it has one.
    Point {
        series: &'f Series,
        shape: Shape,
        p: &'f Point,
    },
    /// A stacked bar; `at`: two opposite corners of each segment, then its total, if any.
    Bar(&'f Bar),
    /// A legend key's marker; `at`: its centre.
    Key { shape: Shape, colour: RGBColor },
}

impl<'a, C: 'a> PointCollection<'a, C> for &'a Mark<'_, C> {
    type Point = &'a C;
    type IntoIter = &'a [C];

    fn point_iter(self) -> &'a [C] {
        &self.at
    }
}

impl<'w, C> Drawable<SvgBackend<'w>> for Mark<'_, C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        pos: I,
        backend: &mut SvgBackend<'w>,
        _: (u32, u32),
    ) -> BackendResult {
        let pos: Vec<BackendCoord> = pos.collect();
        let out = backend.writer();
        match self.what {
            What::Point { series, shape, p } => point_group(out, series, shape, p, &pos),
            What::Bar(bar) => bar_group(out, bar, &pos),
            What::Key { shape, colour } => {
                out.group("legend-marker");
                marker(out, shape, pos[0], colour, false);
                out.close("g");
            }
        }
        Ok(())
    }
}

/// A point's group: its error bar, its marker, its title.
fn point_group(
    out: &mut SvgWriter,
    series: &Series,
    shape: Shape,
    p: &Point,
    pos: &[BackendCoord],
) {
    let colour = hex(series.colour);
    open_group(out, "point", &p.tags);
    if !p.tip.is_empty() {
        out.element("title", &[], &p.tip);
    }
    let (px, py) = pos[0];
    if let [_, (_, top), (_, bottom)] = *pos {
        out.leaf(
            "path",
            &[
                ("class", "error-bar".to_owned()),
                (
                    "d",
                    format!(
                        "M{px} {top}V{bottom}M{} {top}H{}M{} {bottom}H{}",
                        px - 4,
                        px + 4,
                        px - 4,
                        px + 4
                    ),
                ),
                ("stroke", colour),
                ("stroke-width", "1.5".to_owned()),
                ("fill", "none".to_owned()),
            ],
        );
    }
    marker(out, shape, (px, py), series.colour, p.hollow);
    out.close("g");
}

/// A bar's group: its stacked segments, its total marker, its title.
fn bar_group(out: &mut SvgWriter, bar: &Bar, pos: &[BackendCoord]) {
    open_group(out, "bar", &bar.tags);
    if !bar.tip.is_empty() {
        out.element("title", &[], &bar.tip);
    }
    for (&(_, colour), corners) in bar.segments.iter().zip(pos.chunks_exact(2)) {
        let ((x0, y0), (x1, y1)) = (corners[0], corners[1]);
        out.leaf(
            "rect",
            &[
                ("x", x0.min(x1).to_string()),
                ("y", y0.min(y1).to_string()),
                ("width", (x1 - x0).abs().to_string()),
                ("height", (y0 - y1).abs().to_string()),
                ("fill", hex(colour)),
            ],
        );
    }
    if bar.total.is_some() {
        let total = pos[2 * bar.segments.len()];
        marker(out, Shape::Diamond, total, TEXT_COLOUR, false);
    }
    out.close("g");
}

fn draw_legend(area: &Area, figure: &Figure) -> DrawResult {
    let x0 = 8;
    let mut y = 70;
    area.draw(&Text::new(
        figure.legend_title.clone(),
        (x0, y - 30),
        font(TEXT_PX + 1.0),
    ))?;
    let text = font(TEXT_PX).pos(Pos::new(HPos::Left, VPos::Center));
    for key in &figure.legend {
        draw_key(area, key, (x0, y))?;
        area.draw(&Text::new(key.label.clone(), (x0 + 48, y), text.clone()))?;
        y += LINE_HEIGHT as i32;
    }
    Ok(())
}

fn draw_key(area: &Area, key: &Key, (x0, y): (i32, i32)) -> DrawResult {
    let style = key.colour.stroke_width(2);
    let ends = vec![(x0, y), (x0 + 36, y)];
    match key.stroke {
        Stroke::Solid => area.draw(&PathElement::new(ends, style))?,
        Stroke::Dashed => area.draw(&DashedPathElement::new(ends, 8, 5, style))?,
        Stroke::None => {}
    }
    if key.block {
        area.draw(&Rectangle::new(
            [(x0 + 6, y - 7), (x0 + 30, y + 7)],
            key.colour.filled(),
        ))?;
    }
    if let Some(shape) = key.marker {
        area.draw(&Mark {
            what: What::Key {
                shape,
                colour: key.colour,
            },
            at: vec![(x0 + 18, y)],
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_wrapped_and_colours_written_as_plotters_writes_them() {
        let lines = wrap(
            "one two three four five six",
            text_width("one two three", TEXT_PX),
        );
        assert_eq!(lines, ["one two three", "four five six"]);
        assert_eq!(hex(RGBColor(0, 0x72, 0xB2)), "#0072B2");
    }

    #[test]
    fn hollow_markers_are_white_inside() {
        let draw = |shape, hollow| {
            let mut out = SvgWriter::new();
            marker(&mut out, shape, (10, 20), RGBColor(1, 2, 3), hollow);
            out.finish()
        };
        let filled = draw(Shape::Circle, false);
        let hollow = draw(Shape::Square, true);
        assert!(filled.contains("fill=\"#010203\""), "{filled}");
        assert!(hollow.contains("fill=\"white\"") && hollow.contains("stroke=\"#010203\""));
        assert!(hollow.contains("5,15 15,15 15,25 5,25"), "{hollow}");
    }

    #[test]
    fn points_are_groups_with_their_tags_title_error_bar_and_marker() {
        let series = Series {
            label: "s".into(),
            colour: RGBColor(1, 2, 3),
            stroke: Stroke::None,
            marker: Some(Shape::Triangle),
            points: vec![],
        };
        let p = Point {
            x: 1.0,
            y: 2.0,
            range: Some((1.5, 2.5)),
            hollow: false,
            tip: "a <tip>".into(),
            tags: vec![("input", "a \"b\".txt".into())],
        };
        let mut out = SvgWriter::new();
        point_group(
            &mut out,
            &series,
            Shape::Triangle,
            &p,
            &[(10, 20), (10, 15), (10, 25)],
        );
        let svg = out.finish();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let g = doc.root_element();
        assert_eq!(g.attribute("class"), Some("point"));
        assert_eq!(g.attribute("data-input"), Some("a \"b\".txt"));
        let children: Vec<_> = g.children().filter(|c| c.is_element()).collect();
        assert_eq!(children[0].text(), Some("a <tip>"));
        assert_eq!(children[1].attribute("class"), Some("error-bar"));
        assert!(children[2].has_tag_name("polygon"));
    }
}
