//! The one way the crate writes markup by hand: [`escape`] for any text put into XML or HTML,
//! [`num`] for coordinates, [`polyline`] for a path through points, and [`SvgWriter`], the writer
//! behind every SVG document the crate makes (the classroom pictures, the bands picture, the
//! page's legend samples, and the plots, whose plotters backend writes through it). One writer
//! means one escaping rule and one output form (an element per line, attributes in the order
//! given, double-quoted), so the tests read every picture the same way.

use std::fmt::Write as _;

/// Text for an attribute, an element or an HTML page: the five XML specials escaped, and the
/// control characters XML 1.0 forbids replaced by U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A number with at most two decimals and no trailing zeros.
pub fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// A path's `d` through `points`, in straight lines from each to the next (`M x,y L x,y …`).
pub fn polyline(points: &[(f64, f64)]) -> String {
    let steps: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(k, &(x, y))| format!("{}{},{}", if k == 0 { "M" } else { "L" }, num(x), num(y)))
        .collect();
    steps.join(" ")
}

/// An SVG document (or fragment) being written: each element on a line of its own, every
/// attribute value and text escaped.
#[derive(Default)]
pub struct SvgWriter {
    out: String,
}

impl SvgWriter {
    pub fn new() -> SvgWriter {
        SvgWriter::default()
    }

    /// The document written so far.
    pub fn finish(self) -> String {
        self.out
    }

    fn start(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.out.push('<');
        self.out.push_str(tag);
        for (k, v) in attrs {
            let _ = write!(self.out, " {k}=\"{}\"", escape(v));
        }
    }

    /// `<tag attrs>`: an element whose children follow, up to [`SvgWriter::close`].
    pub fn open(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.start(tag, attrs);
        self.out.push_str(">\n");
    }

    /// `<tag attrs/>`: an element without children.
    pub fn leaf(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.start(tag, attrs);
        self.out.push_str("/>\n");
    }

    /// `</tag>`.
    pub fn close(&mut self, tag: &str) {
        let _ = writeln!(self.out, "</{tag}>");
    }

    /// `<tag attrs>content</tag>`: an element holding text only (`text`, `title`).
    pub fn element(&mut self, tag: &str, attrs: &[(&str, String)], content: &str) {
        self.start(tag, attrs);
        let _ = writeln!(self.out, ">{}</{tag}>", escape(content));
    }

    /// A `text` element.
    pub fn text(&mut self, attrs: &[(&str, String)], content: &str) {
        self.element("text", attrs, content);
    }

    /// Character data inside an open element, escaped.
    pub fn characters(&mut self, content: &str) {
        self.out.push_str(&escape(content));
    }

    /// `<g class="...">`, closed by `close("g")`.
    pub fn group(&mut self, class: &str) {
        self.open("g", &[("class", class.into())]);
    }
}

/// The pictures' tests read what the writer wrote back: a document parsed, its marks by class.
#[cfg(test)]
pub(super) mod read {
    /// `svg` parsed; it must be well-formed.
    pub fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap()
    }

    /// The elements of class `c`, in document order.
    pub fn class<'a>(doc: &'a roxmltree::Document, c: &str) -> Vec<roxmltree::Node<'a, 'a>> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(c))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(escape("it's\u{1}\n"), "it&apos;s\u{fffd}\n");
        let mut out = SvgWriter::new();
        out.open("g", &[("class", "a\"b".into())]);
        out.text(&[("x", num(1.0))], "x < y");
        out.element("title", &[], "&");
        out.leaf("rect", &[("width", num(2.505)), ("height", num(-0.001))]);
        out.close("g");
        assert_eq!(
            out.finish(),
            "<g class=\"a&quot;b\">\n<text x=\"1\">x &lt; y</text>\n<title>&amp;</title>\n\
             <rect width=\"2.5\" height=\"0\"/>\n</g>\n"
        );
    }

    #[test]
    fn a_polyline_moves_then_draws() {
        assert_eq!(polyline(&[(1.0, 2.5), (3.0, 4.0)]), "M1,2.5 L3,4");
        assert_eq!(polyline(&[]), "");
    }

    #[test]
    fn numbers_keep_two_decimals_at_most() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(0.125), "0.12");
        assert_eq!(num(3.10), "3.1");
        assert_eq!(num(-0.0), "0");
    }
}
