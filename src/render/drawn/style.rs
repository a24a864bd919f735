//! The look every picture and plot shares: colours, the font and a text-width estimate.
//!
//! Ranks get twelve light colours chosen for a projector, defined here only (the page reads them as
//! CSS custom properties, [`css_variables`]): light enough for black text on a cell (contrast at
//! least 8:1), none so pale that it passes for an empty cell, each pair at least 0.12 apart in the
//! OKLab space (0.18 for ranks up to two apart, which share boundaries), and every pair at least 8
//! apart (CIE76 ΔE) as a deuteranope or a protanope sees them, simulated with the matrices of
//! Machado, Oliveira and Fernandes (2009) at full severity; the tests check each. Beyond twelve
//! ranks the colours repeat with a hatching ([`rank_hatch`]). Plot series get Okabe and Ito's
//! colour-blind-safe palette, yellow darkened to show on white. No font files are needed: an SVG
//! names the family and the viewer lays out the text, so widths are estimated (about 0.6 em per
//! character, sizes scaled by the 1.24 plotters divides them by).

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
/// The cells a hovered cell reads (its three inputs) and the hovered cell itself, on the page:
/// apart from the purple of the current diagonal.
pub const INPUT_COLOUR: RGBColor = RGBColor(0x00, 0x6B, 0xD6);
/// A cell not computed yet (the classroom page, before its diagonal's step).
pub const PENDING_COLOUR: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);
/// The lines of the hatchings beyond twelve ranks.
pub const HATCH_COLOUR: RGBColor = RGBColor(0x30, 0x30, 0x30);

/// The shared colours as CSS custom properties, for the classroom page's style sheet: the
/// marks' colours, and the rank colours as `--rank-0` … `--rank-11`.
pub fn css_variables() -> String {
    let ranks: String = (0..RANK_COLOURS)
        .map(|k| format!(" --rank-{k}: {};", hex(rank_colour(k))))
        .collect();
    [
        ("text", TEXT_COLOUR),
        ("faint", FAINT_TEXT_COLOUR),
        ("diagonal", DIAGONAL_COLOUR),
        ("hop", HOP_COLOUR),
        ("walk", WALK_COLOUR),
        ("pending", PENDING_COLOUR),
        ("input", INPUT_COLOUR),
        ("hatch", HATCH_COLOUR),
    ]
    .iter()
    .fold(String::from(":root {"), |mut s, (name, c)| {
        s += &format!(" --{name}: {};", hex(*c));
        s
    }) + &ranks
        + &format!(" --font: {FONT_FAMILY}; }}\n")
}

/// How many ranks get a colour of their own.
pub const RANK_COLOURS: usize = 12;

/// Each rank's colour and its ink, in rank order. The colour is the background of its cells (see
/// the module doc for how they were chosen). The ink is the colour darkened (same hue, more
/// saturated) for the marks the rank sends over the cells, a message's arrow: every ink keeps a
/// contrast of at least 3:1 (what WCAG asks of a graphic) against every rank's cell colour and
/// the grey of a pending cell, so an arrow stands out wherever it lies, and still says whose it
/// is by its hue.
const RANKS: [(RGBColor, RGBColor); RANK_COLOURS] = [
    (RGBColor(0xAF, 0x9F, 0xD1), RGBColor(0x59, 0x2D, 0xB6)), // lavender, violet ink
    (RGBColor(0xFA, 0xBF, 0x64), RGBColor(0x6E, 0x43, 0x00)), // apricot, brown ink
    (RGBColor(0x1A, 0xC2, 0x94), RGBColor(0x00, 0x57, 0x3F)), // jade, green ink
    (RGBColor(0xEF, 0xC3, 0xFD), RGBColor(0x7F, 0x00, 0xA7)), // lilac, purple ink
    (RGBColor(0xFF, 0x6B, 0xB4), RGBColor(0x9B, 0x00, 0x4D)), // pink, crimson ink
    (RGBColor(0x98, 0xB0, 0x11), RGBColor(0x45, 0x51, 0x00)), // olive, olive ink
    (RGBColor(0x29, 0xE1, 0xF8), RGBColor(0x00, 0x55, 0x5F)), // cyan, teal ink
    (RGBColor(0xFF, 0x7A, 0x08), RGBColor(0x7D, 0x3A, 0x00)), // orange, rust ink
    (RGBColor(0xCB, 0xE5, 0x2F), RGBColor(0x46, 0x52, 0x00)), // lime, moss ink
    (RGBColor(0x23, 0xAB, 0xEE), RGBColor(0x00, 0x52, 0x7B)), // azure, navy ink
    (RGBColor(0xBC, 0x9C, 0x75), RGBColor(0x69, 0x46, 0x1B)), // tan, umber ink
    (RGBColor(0x45, 0xF8, 0xB5), RGBColor(0x00, 0x57, 0x37)), // mint, pine ink
];

/// The ink of rank `k`'s marks (its arrows), dark for any cell beneath (see `RANKS`).
pub fn rank_ink(k: usize) -> RGBColor {
    RANKS[k % RANK_COLOURS].1
}

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
    RANKS[k % RANK_COLOURS].0
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
        assert_eq!(hex(rank_colour(0)), "#af9fd1");
        for k in 0..RANK_COLOURS {
            let apart = distance(rank_colour(k), PENDING_COLOUR);
            assert!(
                apart >= 0.1,
                "p{k} only {apart:.3} from the grey of a pending cell"
            );
        }
        let css = css_variables();
        assert!(
            css.contains(" --rank-0: #af9fd1;") && css.contains(" --rank-11: "),
            "{css}"
        );
        assert_eq!(text_width("abcd", 10.0), 24);
    }

    /// Machado, Oliveira and Fernandes (2009), severity 1: linear RGB as a protanope and a
    /// deuteranope see it.
    const PROTANOPIA: [[f64; 3]; 3] = [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ];
    const DEUTERANOPIA: [[f64; 3]; 3] = [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ];

    /// CIELAB (D65) of linear RGB `l`, each channel clipped to [0, 1] first.
    fn cielab(l: [f64; 3]) -> [f64; 3] {
        let [r, g, b] = l.map(|c| c.clamp(0.0, 1.0));
        let x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b;
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
        let z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b;
        let f = |t: f64| {
            if t > 216.0 / 24389.0 {
                t.cbrt()
            } else {
                (24389.0 / 27.0 * t + 16.0) / 116.0
            }
        };
        let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }

    /// The colour as seen through `matrix`, in CIELAB.
    fn seen(c: RGBColor, matrix: &[[f64; 3]; 3]) -> [f64; 3] {
        let l = [linear(c.0), linear(c.1), linear(c.2)];
        cielab(matrix.map(|row| row[0] * l[0] + row[1] * l[1] + row[2] * l[2]))
    }

    fn delta_e76(a: [f64; 3], b: [f64; 3]) -> f64 {
        (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt()
    }

    #[test]
    fn rank_colours_stay_apart_for_deuteranopes_and_protanopes() {
        // The formula itself: white stays white, and sRGB red is L* 53.2.
        let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let white = seen(RGBColor(255, 255, 255), &identity);
        assert!(
            (white[0] - 100.0).abs() < 0.01 && white[1].abs() < 0.01,
            "{white:?}"
        );
        let red = seen(RGBColor(255, 0, 0), &identity);
        assert!(
            (red[0] - 53.24).abs() < 0.05 && (red[1] - 80.09).abs() < 0.1,
            "{red:?}"
        );
        // The old palette's p4 and p5 (orchid and teal) nearly merged for a deuteranope.
        let (orchid, teal) = (RGBColor(0xDC, 0x82, 0xD4), RGBColor(0x0C, 0xB3, 0xC0));
        assert!(delta_e76(seen(orchid, &DEUTERANOPIA), seen(teal, &DEUTERANOPIA)) < 8.0);
        for (name, matrix) in [("deuteranopia", DEUTERANOPIA), ("protanopia", PROTANOPIA)] {
            for a in 0..RANK_COLOURS {
                for b in 0..a {
                    let apart =
                        delta_e76(seen(rank_colour(a), &matrix), seen(rank_colour(b), &matrix));
                    assert!(
                        apart >= 8.0,
                        "{name}: p{b} and p{a} only ΔE {apart:.1} apart"
                    );
                }
            }
        }
    }

    /// WCAG's contrast ratio of two colours.
    fn contrast(a: RGBColor, b: RGBColor) -> f64 {
        let l = |c: RGBColor| 0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2);
        let (a, b) = (l(a), l(b));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    #[test]
    fn an_arrows_ink_stands_out_on_every_cell_and_keeps_its_ranks_hue() {
        let grounds: Vec<RGBColor> = (0..RANK_COLOURS)
            .map(rank_colour)
            .chain([PENDING_COLOUR, RGBColor(255, 255, 255)])
            .collect();
        for k in 0..RANK_COLOURS {
            let ink = rank_ink(k);
            for (g, &ground) in grounds.iter().enumerate() {
                let c = contrast(ink, ground);
                assert!(c >= 3.0, "p{k}'s ink on ground {g}: contrast {c:.2}");
            }
            // Dark, yet not black: the hue of the rank's colour, a short way round the circle.
            let (ink_lab, cell_lab) = (oklab(ink), oklab(rank_colour(k)));
            assert!(ink_lab[0] < 0.5, "p{k}: ink too light");
            let hue = |c: [f64; 3]| c[2].atan2(c[1]);
            let turn = (hue(ink_lab) - hue(cell_lab)).abs();
            let turn = turn.min(std::f64::consts::TAU - turn);
            assert!(turn < 0.6, "p{k}: ink's hue {turn:.2} rad from the cell's");
            assert!(ink_lab[1].hypot(ink_lab[2]) > 0.05, "p{k}: ink is grey");
        }
        assert_eq!(rank_ink(12), rank_ink(0));
    }

    #[test]
    fn series_colours_stay_distinct() {
        let colours: Vec<RGBColor> = (0..8).map(series_colour).collect();
        for (k, c) in colours.iter().enumerate() {
            assert!(colours[..k].iter().all(|o| o != c), "series {k} repeats");
        }
    }
}
