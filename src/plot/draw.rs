//! Drawing: a figure model to an SVG document, with plotters for the axes, lines, legend and
//! notes, and every data point written as a group of its own.
//!
//! A point's group (`<g class="point">`, a bar's `<g class="bar">`) holds its error bar and
//! marker, a `<title>` that a viewer shows on hovering over it, and `data-` attributes naming
//! the configuration it stands for (input, engine, store, ranks, hosts, oversubscribed). So a
//! reader can ask any point what it is, and a test can check what was drawn against the
//! table without guessing from pixels. Hollow markers (oversubscribed) are filled white with a
//! coloured outline.
//!
//! Colours and fonts come from `render::style`; no font files are needed (the SVG names the
//! family and the viewer lays out the text), so text widths are estimates.

use std::fmt::Write as _;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::Axis;
use super::model::{Bar, Figure, Key, Panel, Point, Series, Shape, Stroke};
use crate::error::Error;
use crate::render::style::{self, text_width, GRID_COLOUR, TEXT_COLOUR};

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

/// `#RRGGBB`.
fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
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

/// The SVG of one marker centred at `(x, y)` pixels.
fn marker(shape: Shape, (x, y): (i32, i32), colour: RGBColor, hollow: bool) -> String {
    let fill = if hollow {
        "white".to_owned()
    } else {
        hex(colour)
    };
    let paint = format!(
        "fill=\"{fill}\" stroke=\"{}\" stroke-width=\"2\"",
        hex(colour)
    );
    let polygon = |pts: &[(i32, i32)]| {
        let pts: Vec<String> = pts
            .iter()
            .map(|(dx, dy)| format!("{},{}", x + dx, y + dy))
            .collect();
        format!("<polygon points=\"{}\" {paint}/>", pts.join(" "))
    };
    match shape {
        Shape::Circle => format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"5\" {paint}/>"),
        Shape::Triangle => polygon(&[(0, -7), (-6, 4), (6, 4)]),
        Shape::Square => polygon(&[(-5, -5), (5, -5), (5, 5), (-5, 5)]),
        Shape::Diamond => polygon(&[(0, -7), (6, 0), (0, 7), (-6, 0)]),
    }
}

/// `data-NAME="value"` for each tag.
fn data_attributes(tags: &[(&'static str, String)]) -> String {
    tags.iter()
        .map(|(k, v)| format!(" data-{k}=\"{}\"", crate::render::xml::escape(v)))
        .collect()
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

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

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
    let mut svg = String::new();
    let mut overlay = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw(
            &root,
            figure,
            &notes,
            (panel_w, panel_h),
            charts_h,
            &mut overlay,
        )
        .map_err(|e| {
            Error::Internal(anyhow::anyhow!(
                "drawing the plot '{}' failed: {e}",
                figure.title
            ))
        })?;
    }
    // The points go on top of everything plotters drew.
    let end = svg
        .rfind("</svg>")
        .ok_or_else(|| Error::Internal(anyhow::anyhow!("plotters wrote no closing </svg>")))?;
    svg.insert_str(end, &overlay);
    Ok(svg)
}

fn draw(
    root: &Area,
    figure: &Figure,
    notes: &[String],
    (panel_w, panel_h): (u32, u32),
    charts_h: u32,
    overlay: &mut String,
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
        draw_panel(&area, panel, overlay)?;
    }
    draw_legend(&legend, figure, overlay)?;
    for (k, note) in notes.iter().enumerate() {
        notes_area.draw(&Text::new(
            note.clone(),
            (24, 6 + k as i32 * LINE_HEIGHT as i32),
            font(TEXT_PX),
        ))?;
    }
    root.present()
}

fn draw_panel(area: &Area, panel: &Panel, overlay: &mut String) -> DrawResult {
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
    // Points and bars, with their pixel positions from the chart's own mapping.
    let pixel = |px: f64, py: f64| chart.backend_coord(&at(px, py));
    for series in &panel.series {
        if let Some(shape) = series.marker {
            for p in &series.points {
                point_group(overlay, series, shape, p, pixel(p.x, p.y), |v| {
                    pixel(p.x, v).1
                });
            }
        }
    }
    for bar in &panel.bars {
        bar_group(overlay, bar, |bx, by| chart.backend_coord(&(bx, y.to(by))));
    }
    Ok(())
}

/// A point's group: its error bar, its marker, its title.
fn point_group(
    out: &mut String,
    series: &Series,
    shape: Shape,
    p: &Point,
    (px, py): (i32, i32),
    y_pixel: impl Fn(f64) -> i32,
) {
    let colour = hex(series.colour);
    let _ = write!(out, "<g class=\"point\"{}>", data_attributes(&p.tags));
    if !p.tip.is_empty() {
        let _ = write!(out, "<title>{}</title>", crate::render::xml::escape(&p.tip));
    }
    if let Some((lo, hi)) = p.range {
        let (top, bottom) = (y_pixel(hi), y_pixel(lo));
        let _ = write!(
            out,
            "<path class=\"error-bar\" d=\"M{px} {top}V{bottom}M{} {top}H{}M{} {bottom}H{}\" \
             stroke=\"{colour}\" stroke-width=\"1.5\" fill=\"none\"/>",
            px - 4,
            px + 4,
            px - 4,
            px + 4
        );
    }
    out.push_str(&marker(shape, (px, py), series.colour, p.hollow));
    out.push_str("</g>\n");
}

/// A bar's group: its stacked segments, its total marker, its title.
fn bar_group(out: &mut String, bar: &Bar, pixel: impl Fn(f64, f64) -> (i32, i32)) {
    let _ = write!(out, "<g class=\"bar\"{}>", data_attributes(&bar.tags));
    if !bar.tip.is_empty() {
        let _ = write!(
            out,
            "<title>{}</title>",
            crate::render::xml::escape(&bar.tip)
        );
    }
    let mut base = 0.0;
    for &(height, colour) in &bar.segments {
        let (x0, y0) = pixel(bar.x - BAR_HALF, base);
        let (x1, y1) = pixel(bar.x + BAR_HALF, base + height);
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
            x0.min(x1),
            y0.min(y1),
            (x1 - x0).abs(),
            (y0 - y1).abs(),
            hex(colour)
        );
        base += height;
    }
    if let Some(total) = bar.total {
        out.push_str(&marker(
            Shape::Diamond,
            pixel(bar.x, total),
            TEXT_COLOUR,
            false,
        ));
    }
    out.push_str("</g>\n");
}

fn draw_legend(area: &Area, figure: &Figure, overlay: &mut String) -> DrawResult {
    let (base_x, base_y) = area.get_base_pixel();
    let x0 = 8;
    let mut y = 70;
    area.draw(&Text::new(
        figure.legend_title.clone(),
        (x0, y - 30),
        font(TEXT_PX + 1.0),
    ))?;
    let text = font(TEXT_PX).pos(Pos::new(HPos::Left, VPos::Center));
    for key in &figure.legend {
        draw_key(area, key, (x0, y), (base_x, base_y), overlay)?;
        area.draw(&Text::new(key.label.clone(), (x0 + 48, y), text.clone()))?;
        y += LINE_HEIGHT as i32;
    }
    Ok(())
}

fn draw_key(
    area: &Area,
    key: &Key,
    (x0, y): (i32, i32),
    (base_x, base_y): (i32, i32),
    overlay: &mut String,
) -> DrawResult {
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
        overlay.push_str("<g class=\"legend-marker\">");
        overlay.push_str(&marker(
            shape,
            (base_x + x0 + 18, base_y + y),
            key.colour,
            false,
        ));
        overlay.push_str("</g>\n");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_wrapped() {
        assert_eq!(
            crate::render::xml::escape("a<b & \"c\""),
            "a&lt;b &amp; &quot;c&quot;"
        );
        let lines = wrap(
            "one two three four five six",
            text_width("one two three", TEXT_PX),
        );
        assert_eq!(lines, ["one two three", "four five six"]);
        assert_eq!(hex(RGBColor(0, 0x72, 0xB2)), "#0072B2");
    }

    #[test]
    fn hollow_markers_are_white_inside() {
        let filled = marker(Shape::Circle, (10, 20), RGBColor(1, 2, 3), false);
        let hollow = marker(Shape::Square, (10, 20), RGBColor(1, 2, 3), true);
        assert!(filled.contains("fill=\"#010203\""), "{filled}");
        assert!(hollow.contains("fill=\"white\"") && hollow.contains("stroke=\"#010203\""));
        assert!(hollow.contains("5,15 15,15 15,25 5,25"), "{hollow}");
    }
}
