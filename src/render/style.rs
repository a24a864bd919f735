//! The look every picture and plot shares: colours, the font and a text-width estimate.
//!
//! Colours are Okabe and Ito's colour-blind-safe palette. Ranks get the colours tinted light,
//! so that black text reads on every cell; the series of a plot get them at full strength,
//! yellow darkened to show on white. Text is drawn in one sans-serif family whose glyphs are
//! sized in pixels (plotters' SVG backend divides a font's size by 1.24, so sizes are scaled
//! by it here). No font files are needed: the SVG names the family and the viewer lays out the
//! text; widths are therefore estimated (about 0.6 em per character), which is what layouts
//! need to leave room.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The text of titles, labels and values.
pub const TEXT_COLOUR: RGBColor = RGBColor(0x10, 0x10, 0x10);
/// Secondary text (indices, notes).
pub const FAINT_TEXT_COLOUR: RGBColor = RGBColor(0x60, 0x60, 0x60);
/// Grid lines of plots.
pub const GRID_COLOUR: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);
pub const FONT_FAMILY: &str = "sans-serif";

/// Okabe–Ito's eight colours, ordered so that neighbouring ranks differ strongly in hue and
/// lightness (black, the eighth, becomes a grey once tinted).
const RANK_PALETTE: [RGBColor; 8] = [
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0xF0, 0xE4, 0x42), // yellow
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0x00, 0x00, 0x00), // black
];

/// How far each palette colour is mixed with white for a cell's background (black further,
/// to a light grey).
const TINT: f64 = 0.6;
const BLACK_TINT: f64 = 0.72;

/// The same colours at full strength for lines and markers, in an order that starts with the
/// most distinct on white.
const SERIES_PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0xB8, 0xA8, 0x00), // yellow, darkened to show on white
];

/// The background of rank `k`'s cells.
pub fn rank_colour(k: usize) -> RGBColor {
    let RGBColor(r, g, b) = RANK_PALETTE[k % RANK_PALETTE.len()];
    let t = if (r, g, b) == (0, 0, 0) {
        BLACK_TINT
    } else {
        TINT
    };
    let tint = |c: u8| (c as f64 + (255.0 - c as f64) * t).round() as u8;
    RGBColor(tint(r), tint(g), tint(b))
}

/// The colour of a plot's `i`-th series.
pub fn series_colour(i: usize) -> RGBColor {
    SERIES_PALETTE[i % SERIES_PALETTE.len()]
}

/// A text style whose glyphs are `px` pixels high, anchored at `(h, v)`.
pub fn font(px: f64, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    let mut style = TextStyle::from((FONT_FAMILY, px * 1.24).into_font());
    style.color = colour.to_backend_color();
    style.pos = Pos::new(h, v);
    style
}

/// Estimated width of `text` in pixels at `px`.
pub fn text_width(text: &str, px: f64) -> u32 {
    (text.chars().count() as f64 * px * 0.6).ceil() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_get_light_distinct_colours() {
        let colours: Vec<RGBColor> = (0..8).map(rank_colour).collect();
        for (k, c) in colours.iter().enumerate() {
            // Light enough for black text: every channel at least 40 % of the way to white.
            assert!(c.0 >= 100 && c.1 >= 100 && c.2 >= 100, "p{k}: {c:?}");
            assert!(colours[..k].iter().all(|o| o != c), "p{k} repeats");
        }
        assert_eq!(text_width("abcd", 10.0), 24);
    }
}
