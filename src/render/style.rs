//! The look every picture and plot shares: colours, the font and a text-width estimate.
//!
//! Ranks get twelve light colours chosen for a projector: light enough for black text on a cell
//! (contrast at least 8:1), none so pale that it passes for an empty cell, each pair at least
//! 0.12 apart in the perceptual OKLab space (ranks up to two apart, which share boundaries or
//! sit side by side, at least 0.18), so that p0/p2 or p1/p3 read as different
//! colours on a washed-out screen too. Beyond twelve ranks the colours repeat and a hatching
//! tells the rounds apart ([`rank_hatch`]): stripes for p12..p23, a cross-hatch for p24..p35.
//! The series of a plot get Okabe and Ito's colour-blind-safe palette at full strength, yellow
//! darkened to show on white. Text is drawn in one sans-serif family whose glyphs are sized in
//! pixels (the plots' backend, like plotters' own, divides a font's size by 1.24, so sizes are
//! scaled by it here).
//! No font files are needed: an SVG names the family and the viewer lays out the text; widths
//! are therefore estimated (about 0.6 em per character), which is what layouts need to leave
//! room.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The text of titles, labels and values.
pub const TEXT_COLOUR: RGBColor = RGBColor(0x10, 0x10, 0x10);
/// Secondary text (indices, notes).
pub const FAINT_TEXT_COLOUR: RGBColor = RGBColor(0x60, 0x60, 0x60);
/// Grid lines of plots.
pub const GRID_COLOUR: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);
pub const FONT_FAMILY: &str = "sans-serif";

/// Boundary message arrows.
pub const MESSAGE_COLOUR: RGBColor = RGBColor(0x26, 0x26, 0x26);
/// The traceback walk's line and its match discs.
pub const WALK_COLOUR: RGBColor = RGBColor(0x00, 0x00, 0x00);
/// The walk's hops onto another rank (no rank has this colour).
pub const HOP_COLOUR: RGBColor = RGBColor(0xC0, 0x00, 0x30);
/// Diagonal numbers and the highlighted diagonal.
pub const DIAGONAL_COLOUR: RGBColor = RGBColor(0x5B, 0x2A, 0x86);
/// A cell not computed yet (the classroom page, before its diagonal's step).
pub const PENDING_COLOUR: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);
/// The lines of the hatchings beyond twelve ranks.
pub const HATCH_COLOUR: RGBColor = RGBColor(0x30, 0x30, 0x30);

/// The shared colours as CSS custom properties, for the classroom page's style sheet.
pub fn css_variables() -> String {
    [
        ("text", TEXT_COLOUR),
        ("faint", FAINT_TEXT_COLOUR),
        ("diagonal", DIAGONAL_COLOUR),
        ("hop", HOP_COLOUR),
        ("walk", WALK_COLOUR),
        ("pending", PENDING_COLOUR),
        ("hatch", HATCH_COLOUR),
    ]
    .iter()
    .fold(String::from(":root {"), |mut s, (name, c)| {
        s += &format!(" --{name}: {};", hex(*c));
        s
    }) + &format!(" --font: {FONT_FAMILY}; }}\n")
}

/// How many ranks get a colour of their own.
pub const RANK_COLOURS: usize = 12;

/// The twelve rank colours, in rank order (see the module doc for how they were chosen).
const RANK_PALETTE: [RGBColor; RANK_COLOURS] = [
    RGBColor(0x7A, 0xB1, 0x46), // green
    RGBColor(0xF8, 0x7E, 0x79), // salmon
    RGBColor(0xA1, 0xCA, 0xE8), // light blue
    RGBColor(0xFE, 0xD2, 0x52), // yellow
    RGBColor(0xDC, 0x82, 0xD4), // orchid
    RGBColor(0x0C, 0xB3, 0xC0), // teal
    RGBColor(0x8E, 0xE7, 0x8D), // light green
    RGBColor(0xFE, 0xBF, 0xF8), // pink
    RGBColor(0xDB, 0x9A, 0x0D), // ochre
    RGBColor(0x14, 0xF5, 0xFB), // cyan
    RGBColor(0x90, 0x9F, 0xFF), // periwinkle
    RGBColor(0xE9, 0xB8, 0x9F), // sand
];

/// How a rank's cells are marked besides their colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hatch {
    None,
    /// Diagonal stripes: ranks 12 to 23.
    Stripes,
    /// A cross-hatch: ranks 24 to 35 (and the rounds after cycle again).
    Cross,
}

impl Hatch {
    /// The name a picture gives the hatching's pattern (`None` has none).
    pub fn id(self) -> Option<&'static str> {
        match self {
            Hatch::None => None,
            Hatch::Stripes => Some("hatch-stripes"),
            Hatch::Cross => Some("hatch-cross"),
        }
    }
}

/// The hatching of rank `k`'s cells.
pub fn rank_hatch(k: usize) -> Hatch {
    match (k / RANK_COLOURS) % 3 {
        0 => Hatch::None,
        1 => Hatch::Stripes,
        _ => Hatch::Cross,
    }
}

/// A colour as CSS and SVG write it: `#rrggbb`.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

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
    RANK_PALETTE[k % RANK_COLOURS]
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

    /// sRGB channel to linear light.
    fn linear(c: u8) -> f64 {
        let c = c as f64 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    }

    /// A colour in Björn Ottosson's OKLab space, where distance follows perceived difference.
    fn oklab(c: RGBColor) -> [f64; 3] {
        let (r, g, b) = (linear(c.0), linear(c.1), linear(c.2));
        let l = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b).cbrt();
        let m = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b).cbrt();
        let s = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b).cbrt();
        [
            0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s,
        ]
    }

    fn distance(a: RGBColor, b: RGBColor) -> f64 {
        let (a, b) = (oklab(a), oklab(b));
        (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt()
    }

    #[test]
    fn twelve_ranks_get_light_distinct_colours() {
        let colours: Vec<RGBColor> = (0..RANK_COLOURS).map(rank_colour).collect();
        for (k, &c) in colours.iter().enumerate() {
            // Black text on the cell: WCAG contrast at least 8:1 (their "AAA" asks 7).
            let luminance = 0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2);
            let contrast = (luminance + 0.05) / 0.05;
            assert!(contrast >= 8.0, "p{k}: {c:?} contrast {contrast:.1}");
            // Not so pale that a washed-out projector shows it as an empty cell.
            assert!(oklab(c)[0] <= 0.9, "p{k}: {c:?} too pale");
            for (o, &other) in colours[..k].iter().enumerate() {
                let apart = distance(c, other);
                // Ranks two apart are the ones a projector confused before; neighbours share
                // every boundary.
                let needed = if k - o <= 2 { 0.18 } else { 0.12 };
                assert!(apart >= needed, "p{o} and p{k} only {apart:.3} apart");
            }
            assert_eq!(rank_hatch(k), Hatch::None);
        }
        assert_eq!(rank_colour(12), rank_colour(0));
        assert_eq!(rank_hatch(12), Hatch::Stripes);
        assert_eq!(rank_hatch(35), Hatch::Cross);
        assert_eq!(rank_hatch(36), Hatch::None);
        assert_eq!(hex(rank_colour(0)), "#7ab146");
        assert_eq!(text_width("abcd", 10.0), 24);
    }

    #[test]
    fn series_colours_stay_distinct() {
        let colours: Vec<RGBColor> = (0..8).map(series_colour).collect();
        for (k, c) in colours.iter().enumerate() {
            assert!(colours[..k].iter().all(|o| o != c), "series {k} repeats");
        }
    }
}
