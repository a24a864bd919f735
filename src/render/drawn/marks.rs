//! What every classroom picture starts with: its root element, which says the picture's size, its
//! matrix's sizes and the grid's geometry (from which the page finds the cell under the mouse);
//! the marks its drawings refer to, the arrowheads (a message's in its sender's ink, edged in
//! white like its shaft) and the hatchings of ranks beyond the twelve colours, in its `<defs>`;
//! and the white background it is drawn on.

use plotters::style::RGBColor;

use super::style::{self, hex, Hatch, HATCH_COLOUR, HOP_COLOUR, MESSAGE_COLOUR, WALK_COLOUR};
use super::xml::{num, SvgWriter};

/// Opens the picture's root: `width x height` units, of `class`, showing a `rows x cols` matrix
/// on `ranks` ranks, then its layout's `geometry` attributes.
pub(super) fn root(
    out: &mut SvgWriter,
    (width, height): (f64, f64),
    class: &str,
    (rows, cols, ranks): (usize, usize, usize),
    geometry: &[(&'static str, String)],
) {
    let mut attrs = vec![
        ("xmlns", "http://www.w3.org/2000/svg".to_owned()),
        ("width", num(width)),
        ("height", num(height)),
        ("viewBox", format!("0 0 {} {}", num(width), num(height))),
        ("font-family", style::FONT_FAMILY.into()),
        ("class", class.into()),
        ("data-rows", rows.to_string()),
        ("data-cols", cols.to_string()),
        ("data-ranks", ranks.to_string()),
    ];
    attrs.extend_from_slice(geometry);
    out.open("svg", &attrs);
}

/// Arrowheads (a message's in its sender's ink, one per rank up to `ranks`) and hatchings,
/// sized for cells of `c` pixels.
pub(super) fn defs(out: &mut SvgWriter, c: f64, ranks: usize) {
    out.open("defs", &[]);
    // Heads centred on their point (marker-mid, halfway along a step) or ending at it.
    let head = |out: &mut SvgWriter, id: &str, size: f64, colour: RGBColor, centred: bool| {
        arrowhead(
            out,
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
            &[("fill", hex(colour))],
        );
    };
    head(
        out,
        "message-head",
        (c * 0.22).clamp(5.0, 10.0),
        MESSAGE_COLOUR,
        false,
    );
    // A message's head: its sender's ink edged in white, as its shaft; about three shaft widths long.
    for k in 0..ranks.min(style::RANK_COLOURS) {
        arrowhead(
            out,
            &[
                ("id", format!("message-head-{k}")),
                ("viewBox", "-2 -2 14 14".into()),
                ("refX", "8".into()),
                ("refY", "5".into()),
                ("markerWidth", "3.2".into()),
                ("markerHeight", "3.2".into()),
                ("orient", "auto".into()),
            ],
            &[
                ("fill", hex(style::rank_ink(k))),
                ("stroke", "#ffffff".into()),
                ("stroke-width", "1.2".into()),
            ],
        );
    }
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
        pattern(out, hatch.id().unwrap_or_default(), 8, |out| {
            out.leaf(
                "path",
                &[
                    ("d", lines.into()),
                    ("stroke", hex(HATCH_COLOUR)),
                    ("stroke-width", "1.2".into()),
                ],
            );
        });
    }
    out.close("defs");
}

/// An arrowhead: a `marker` element with `attrs` (its id, box, reference point and size)
/// holding a triangle pointing right in a box of 10 units, painted with `paint`.
pub(super) fn arrowhead(
    out: &mut SvgWriter,
    attrs: &[(&str, String)],
    paint: &[(&'static str, String)],
) {
    out.open("marker", attrs);
    let mut triangle = vec![("d", "M0,0 L10,5 L0,10 z".to_owned())];
    triangle.extend_from_slice(paint);
    out.leaf("path", &triangle);
    out.close("marker");
}

/// A tiling `pattern` named `id`, a square of `side` units drawn by `draw`.
pub(super) fn pattern(out: &mut SvgWriter, id: &str, side: u32, draw: impl FnOnce(&mut SvgWriter)) {
    out.open(
        "pattern",
        &[
            ("id", id.into()),
            ("width", side.to_string()),
            ("height", side.to_string()),
            ("patternUnits", "userSpaceOnUse".into()),
        ],
    );
    draw(out);
    out.close("pattern");
}

/// The white background under everything the picture draws.
pub(super) fn background(out: &mut SvgWriter) {
    out.leaf(
        "rect",
        &[
            ("class", "background".into()),
            ("width", "100%".into()),
            ("height", "100%".into()),
            ("fill", "#ffffff".into()),
        ],
    );
}
