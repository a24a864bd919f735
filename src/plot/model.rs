//! The figure model: panels of series and bars under one legend and its notes — what a figure
//! shows, in values, before anything is drawn.
//!
//! A figure is built by `figures` from the summarised runs and drawn by `draw`; keeping the
//! model in between lets the definitions be read (and tested) without pixels, and the drawing
//! be changed without touching what is shown.

use plotters::style::RGBColor;

use super::axis::Axis;

/// The shape of a point's marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Circle,
    Triangle,
    Square,
    Diamond,
}

/// Marker shapes, one per engine and store of a result set.
pub const SHAPES: [Shape; 4] = [
    Shape::Circle,
    Shape::Square,
    Shape::Triangle,
    Shape::Diamond,
];

/// How the points of a series are joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stroke {
    None,
    Solid,
    Dashed,
}

/// One point, in values (not drawing units).
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    /// The error bar: the smallest and largest value of the repetitions.
    pub range: Option<(f64, f64)>,
    /// Drawn hollow: the configuration was oversubscribed.
    pub hollow: bool,
    /// What a viewer shows on hovering over the point.
    pub tip: String,
    /// What the point is, written into the SVG as `data-NAME` attributes.
    pub tags: Vec<(&'static str, String)>,
}

impl Point {
    /// A point with nothing to say about itself (a reference or ideal line).
    pub fn plain(x: f64, y: f64) -> Point {
        Point {
            x,
            y,
            range: None,
            hollow: false,
            tip: String::new(),
            tags: Vec::new(),
        }
    }
}

/// Points drawn alike, named once in the legend.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub colour: RGBColor,
    pub stroke: Stroke,
    pub marker: Option<Shape>,
    pub points: Vec<Point>,
}

/// One stacked bar: segments from the bottom up.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub x: f64,
    pub segments: Vec<(f64, RGBColor)>,
    /// A marker at this height (the run's total time).
    pub total: Option<f64>,
    pub tip: String,
    pub tags: Vec<(&'static str, String)>,
}

/// One chart: axes, series and bars.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<Series>,
    pub bars: Vec<Bar>,
}

/// A legend entry: a line, a marker, or a filled block (a bar segment).
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub label: String,
    pub colour: RGBColor,
    pub stroke: Stroke,
    pub marker: Option<Shape>,
    pub block: bool,
}

impl Key {
    pub fn of(series: &Series) -> Key {
        Key {
            label: series.label.clone(),
            colour: series.colour,
            stroke: series.stroke,
            marker: series.marker,
            block: false,
        }
    }

    pub fn block(label: &str, colour: RGBColor) -> Key {
        Key {
            label: label.into(),
            colour,
            stroke: Stroke::None,
            marker: None,
            block: true,
        }
    }
}

/// A whole figure: panels in a grid of `columns`, one legend, notes under it all.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub title: String,
    pub panels: Vec<Panel>,
    pub columns: usize,
    pub legend_title: String,
    pub legend: Vec<Key>,
    pub notes: Vec<String>,
}

impl Figure {
    /// A figure of one panel of series, with the legend of the runs' configurations.
    pub fn single(
        title: impl Into<String>,
        x: Axis,
        y: Axis,
        series: Vec<Series>,
        legend: Vec<Key>,
        notes: Vec<String>,
    ) -> Figure {
        Figure {
            title: title.into(),
            panels: vec![Panel {
                title: String::new(),
                x,
                y,
                series,
                bars: Vec::new(),
            }],
            columns: 1,
            legend_title: "input (m × n) · engine · store".into(),
            legend,
            notes,
        }
    }
}
