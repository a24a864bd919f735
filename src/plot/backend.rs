//! The drawing backend of the plots: plotters lays out the axes, ticks, lines, legend and notes and
//! hands each shape to this backend, which writes it through the crate's one SVG writer
//! ([`SvgWriter`]), the shapes as plotters' own SVG backend writes them (so the plots look as they
//! did). The marks plotters has no shape for (a point's group with its classes, data attributes and
//! title) are plotters elements drawn on this same backend ([`super::draw`]): a plot is drawn
//! through plotters' API alone, written with one escape, and nothing is pasted into a finished
//! document. The document's `svg` element is the caller's.

use std::convert::Infallible;

use plotters::style::RGBColor;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};

use crate::render::drawn::xml::SvgWriter;

/// What drawing on a [`SvgBackend`] returns: writing into a string cannot fail.
pub type BackendResult = Result<(), DrawingErrorKind<Infallible>>;

/// A plotters backend writing into an [`SvgWriter`].
pub struct SvgBackend<'a> {
    out: &'a mut SvgWriter,
    size: (u32, u32),
}

impl<'a> SvgBackend<'a> {
    /// A backend of `size` pixels drawing into `out`, inside an `svg` element the caller has
    /// opened (and closes after).
    pub fn new(out: &'a mut SvgWriter, size: (u32, u32)) -> SvgBackend<'a> {
        SvgBackend { out, size }
    }

    /// The writer, for the elements that write themselves.
    pub fn writer(&mut self) -> &mut SvgWriter {
        self.out
    }

    /// Writes the shape `tag` in colour `c`, with the attributes `attrs` gives, as plotters' own
    /// backend does: nothing at all for a transparent colour.
    fn shape(
        &mut self,
        tag: &str,
        c: BackendColor,
        attrs: impl FnOnce() -> Vec<(&'static str, String)>,
    ) -> BackendResult {
        if c.alpha != 0.0 {
            self.out.leaf(tag, &attrs());
        }
        Ok(())
    }
}

/// A colour as the plots write it: `#RRGGBB`.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn colour(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    hex(RGBColor(r, g, b))
}

fn opacity(c: BackendColor) -> String {
    c.alpha.to_string()
}

/// A shape's `fill` and `stroke` in colour `c`: filled, or outlined.
fn paint(c: BackendColor, fill: bool) -> (String, String) {
    match fill {
        true => (colour(c), "none".to_owned()),
        false => ("none".to_owned(), colour(c)),
    }
}

/// `x,y ` for each point.
fn points(path: impl IntoIterator<Item = BackendCoord>) -> String {
    path.into_iter().map(|(x, y)| format!("{x},{y} ")).collect()
}

impl DrawingBackend for SvgBackend<'_> {
    type ErrorType = Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> BackendResult {
        Ok(())
    }

    fn present(&mut self) -> BackendResult {
        Ok(())
    }

    fn draw_pixel(&mut self, (x, y): BackendCoord, c: BackendColor) -> BackendResult {
        self.shape("rect", c, || {
            vec![
                ("x", x.to_string()),
                ("y", y.to_string()),
                ("width", "1".into()),
                ("height", "1".into()),
                ("stroke", "none".into()),
                ("opacity", opacity(c)),
                ("fill", colour(c)),
            ]
        })
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> BackendResult {
        let c = style.color();
        self.shape("line", c, || {
            vec![
                ("opacity", opacity(c)),
                ("stroke", colour(c)),
                ("stroke-width", style.stroke_width().to_string()),
                ("x1", from.0.to_string()),
                ("y1", from.1.to_string()),
                ("x2", to.0.to_string()),
                ("y2", to.1.to_string()),
            ]
        })
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> BackendResult {
        let c = style.color();
        self.shape("rect", c, || {
            let (fill, stroke) = paint(c, fill);
            vec![
                ("x", upper_left.0.to_string()),
                ("y", upper_left.1.to_string()),
                ("width", (bottom_right.0 - upper_left.0).to_string()),
                ("height", (bottom_right.1 - upper_left.1).to_string()),
                ("opacity", opacity(c)),
                ("fill", fill),
                ("stroke", stroke),
            ]
        })
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> BackendResult {
        let c = style.color();
        self.shape("polyline", c, || {
            vec![
                ("fill", "none".into()),
                ("opacity", opacity(c)),
                ("stroke", colour(c)),
                ("stroke-width", style.stroke_width().to_string()),
                ("points", points(path)),
            ]
        })
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> BackendResult {
        let c = style.color();
        self.shape("polygon", c, || {
            vec![
                ("opacity", opacity(c)),
                ("fill", colour(c)),
                ("points", points(path)),
            ]
        })
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> BackendResult {
        let c = style.color();
        self.shape("circle", c, || {
            let (fill, stroke) = paint(c, fill);
            vec![
                ("cx", center.0.to_string()),
                ("cy", center.1.to_string()),
                ("r", radius.to_string()),
                ("opacity", opacity(c)),
                ("fill", fill),
                ("stroke", stroke),
                ("stroke-width", style.stroke_width().to_string()),
            ]
        })
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        (x, y): BackendCoord,
    ) -> BackendResult {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let anchor = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "middle",
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => "0.76em",
            VPos::Center => "0.5ex",
            VPos::Bottom => "-0.5ex",
        };
        // Plotters' font sizes are 1.24 times the glyphs' height (see
        // `render::drawn::style::font`).
        let mut attrs = vec![
            ("x", x.to_string()),
            ("y", y.to_string()),
            ("dy", dy.into()),
            ("text-anchor", anchor.into()),
            ("font-family", style.family().as_str().to_owned()),
            ("font-size", (style.size() / 1.24).to_string()),
            ("opacity", opacity(c)),
            ("fill", colour(c)),
        ];
        match style.style() {
            FontStyle::Normal => {}
            FontStyle::Bold => attrs.push(("font-weight", "bold".into())),
            other => attrs.push(("font-style", other.as_str().into())),
        }
        let degrees = match style.transform() {
            FontTransform::Rotate90 => Some(90),
            FontTransform::Rotate180 => Some(180),
            FontTransform::Rotate270 => Some(270),
            FontTransform::None => None,
        };
        if let Some(d) = degrees {
            attrs.push(("transform", format!("rotate({d}, {x}, {y})")));
        }
        self.out.open("text", &attrs);
        self.out.characters(text);
        self.out.characters("\n");
        self.out.close("text");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{SvgBackend, SvgWriter};
    use plotters::prelude::*;

    #[test]
    fn shapes_are_written_through_the_writer_and_escaped() {
        let mut out = SvgWriter::new();
        {
            let area = SvgBackend::new(&mut out, (100, 50)).into_drawing_area();
            area.draw(&PathElement::new(
                vec![(0, 0), (10, 20)],
                RGBColor(0, 0x72, 0xB2).stroke_width(2),
            ))
            .unwrap();
            area.draw(&Text::new(
                "a < b & 'c'",
                (5, 6),
                ("sans-serif", 12.4).into_font(),
            ))
            .unwrap();
            area.draw(&Rectangle::new([(1, 2), (3, 4)], TRANSPARENT.filled()))
                .unwrap();
        }
        let svg = out.finish();
        let expected = format!(
            "<polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\" stroke-width=\"2\" \
             points=\"0,0 10,20 \"/>\n\
             <text x=\"5\" y=\"6\" dy=\"0.76em\" text-anchor=\"start\" font-family=\"sans-serif\" \
             font-size=\"{}\" opacity=\"1\" fill=\"#000000\">\na &lt; b &amp; &apos;c&apos;\n\
             </text>\n",
            12.4 / 1.24
        );
        assert_eq!(svg, expected);
    }
}
