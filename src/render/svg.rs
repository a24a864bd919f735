//! SVG pictures of a schedule: the ownership grid in colour, the boundary messages as arrows,
//! and, for a solved matrix, every cell's value and the traceback walk with its hops.
//!
//! The text view in the parent module answers "who computes which cell"; a picture also shows
//! *where the messages go*, which is what a class needs to see to believe the message count.
//! Each cell is filled with its owner's colour ([`super::style`]: twelve colours, hatched
//! beyond); the rows' sequence runs down the left and the columns' along the top; each
//! diagonal `d = i + j` is numbered where it leaves the grid at its top-right end, along the
//! top and right edges; every message is an arrow from the sending cell into the neighbour
//! cell its receiver owns. The traceback walk is one connected line through the centres of its
//! cells, an arrowhead halfway along each step showing its direction (it starts at the
//! bottom-right cell); each match sits on a black disc that shows its value (`M[i][j]`, the
//! match's place in the LCS, or `D[i][j]`, the edits before it); each hop onto another rank is
//! a thick red arrow over its step, and the legend lists the hops with what they carry (the
//! next cell and the path so far). Every text follows the run's problem; an edit run's legend
//! ends with its distance, its CIGAR and, for short inputs, the alignment's three lines.
//! Above [`MAX_CELL_TEXT_SIDE`] cells a side the cells carry no text.
//!
//! Every mark carries its meaning as a class and data attributes (`rect.cell` with `data-i`,
//! `data-j`, `data-d`, `data-pos`, `data-owner`; `line.message` with the trace's fields;
//! `path.walk-step` with `data-t`; `circle.match`; `path.hop` with its payload), so tests and
//! the classroom page ([`super::html`]) find marks by what they mean, not by how they are
//! drawn. The page embeds the same drawing ([`render_grid`]) and animates it.
//!
//! Pictures are drawn from what a run recorded (its values, messages and walk), or, for a
//! schedule, from the messages the schedule predicts. The document is written by hand (a
//! plotting library cannot attach classes to its marks), rendered into a string and written
//! atomically, so a failed run never leaves half a picture. Pictures are limited to
//! [`MAX_PICTURE_CELLS_SIDE`] cells a side: beyond that a cell would be too small to read.
//!
//! This module is the entry: it checks the picture, asks for its layout and draws the parts
//! in order, each in a module of its own: what is shown ([`super::picture`]), where it goes
//! (`layout`), the matrix (`grid`), the walk (`walk`) and the legend (`legend`), all written
//! through [`super::xml::SvgWriter`]. The arrowheads and hatchings they refer to, and the
//! title, are drawn here.

use std::path::Path;

use plotters::style::RGBColor;

use super::layout::{swap_note, Layout, LEGEND_PX, MARGIN, TITLE_PX};
use super::picture::{check, hops, message_arrows, Picture};
use super::style::{
    self, hex, Hatch, HATCH_COLOUR, HOP_COLOUR, MESSAGE_COLOUR, TEXT_COLOUR, WALK_COLOUR,
};
use super::xml::{num, SvgWriter};
use super::{grid, legend, walk};
use crate::engine::diagonal::schedule::Schedule;
use crate::error::Error;

/// Largest number of rows or columns a picture is drawn for.
pub const MAX_PICTURE_CELLS_SIDE: usize = 64;

/// Largest number of rows or columns whose cells carry text (values or owners).
pub const MAX_CELL_TEXT_SIDE: usize = 24;

/// Draws `picture` and writes it to `path` atomically.
///
/// Errors: [`Error::Usage`] when the matrix has more than [`MAX_PICTURE_CELLS_SIDE`] rows or
/// columns; [`Error::Internal`] when the picture's parts disagree with its schedule (a
/// sequence, value table, message or path cell of the wrong size); [`Error::Output`] when the
/// file cannot be written.
pub fn write_svg(path: &Path, picture: &Picture) -> Result<(), Error> {
    let svg = render(picture)?;
    crate::export::write_atomic(path, svg.as_bytes())
}

/// The picture as an SVG document, with its title and legend (a bands picture is drawn by
/// [`super::bands_grid`]).
pub fn render(picture: &Picture) -> Result<String, Error> {
    match picture.bands {
        Some(_) => super::bands_grid::render(picture),
        None => draw(picture, true),
    }
}

/// The grid alone (axes, cells, messages, walk and, for animation, one outline per diagonal),
/// without title or legend: what the classroom page embeds and animates.
pub fn render_grid(picture: &Picture) -> Result<String, Error> {
    draw(picture, false)
}

/// The refusal for a matrix too large to draw, or `None`.
pub fn too_large(s: &Schedule) -> Option<String> {
    let side = MAX_PICTURE_CELLS_SIDE;
    (s.rows() > side || s.cols() > side).then(|| {
        format!(
            "pictures are limited to {side} x {side} cells; this matrix is {} x {}",
            s.rows(),
            s.cols()
        )
    })
}

fn draw(p: &Picture, full: bool) -> Result<String, Error> {
    if let Some(problem) = too_large(p.schedule) {
        return Err(Error::Usage(problem));
    }
    check(p)?;
    let arrows = message_arrows(p)?;
    let hops = hops(p)?;
    let layout = Layout::new(p, full, &hops);
    let mut out = SvgWriter::new();
    out.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", layout.width.to_string()),
            ("height", layout.height.to_string()),
            ("viewBox", format!("0 0 {} {}", layout.width, layout.height)),
            ("font-family", style::FONT_FAMILY.into()),
            ("class", "lcs-picture".into()),
            ("data-rows", p.schedule.rows().to_string()),
            ("data-cols", p.schedule.cols().to_string()),
            ("data-ranks", p.schedule.ranks().to_string()),
        ],
    );
    defs(&mut out, layout.cell, p.schedule.working_ranks());
    out.leaf(
        "rect",
        &[
            ("class", "background".into()),
            ("width", "100%".into()),
            ("height", "100%".into()),
            ("fill", "#ffffff".into()),
        ],
    );
    if full {
        title(&mut out, p);
    }
    grid::axes(&mut out, p, &layout);
    grid::diagonal_labels(&mut out, p, &layout);
    grid::cells(&mut out, p, &layout);
    if !full {
        grid::diagonal_outlines(&mut out, p, &layout);
    }
    walk::steps(&mut out, p, &layout);
    grid::cell_texts(&mut out, p, &layout);
    grid::messages(&mut out, &layout, &arrows);
    walk::hop_arrows(&mut out, p, &layout, &hops);
    if full {
        legend::draw(&mut out, p, &layout);
    }
    out.close("svg");
    Ok(out.finish())
}

/// Arrowheads (a message's in its sender's colour, one per rank up to `ranks`) and hatchings,
/// sized for cells of `c` pixels.
pub(super) fn defs(out: &mut SvgWriter, c: f64, ranks: usize) {
    out.open("defs", &[]);
    // Heads centred on their point (marker-mid, halfway along a step) or ending at it.
    let head = |out: &mut SvgWriter, id: &str, size: f64, colour: RGBColor, centred: bool| {
        out.open(
            "marker",
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
        );
        out.leaf(
            "path",
            &[("d", "M0,0 L10,5 L0,10 z".into()), ("fill", hex(colour))],
        );
        out.close("marker");
    };
    head(
        out,
        "message-head",
        (c * 0.22).clamp(5.0, 10.0),
        MESSAGE_COLOUR,
        false,
    );
    // A message's head: its sender's colour edged in black, as its shaft.
    for k in 0..ranks.min(style::RANK_COLOURS) {
        out.open(
            "marker",
            &[
                ("id", format!("message-head-{k}")),
                ("viewBox", "-2 -2 14 14".into()),
                ("refX", "8".into()),
                ("refY", "5".into()),
                ("markerWidth", "4".into()),
                ("markerHeight", "4".into()),
                ("orient", "auto".into()),
            ],
        );
        out.leaf(
            "path",
            &[
                ("d", "M0,0 L10,5 L0,10 z".into()),
                ("fill", hex(style::rank_colour(k))),
                ("stroke", hex(MESSAGE_COLOUR)),
                ("stroke-width", "1.5".into()),
            ],
        );
        out.close("marker");
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
        out.open(
            "pattern",
            &[
                ("id", hatch.id().unwrap_or_default().into()),
                ("width", "8".into()),
                ("height", "8".into()),
                ("patternUnits", "userSpaceOnUse".into()),
            ],
        );
        out.leaf(
            "path",
            &[
                ("d", lines.into()),
                ("stroke", hex(HATCH_COLOUR)),
                ("stroke-width", "1.2".into()),
            ],
        );
        out.close("pattern");
    }
    out.close("defs");
}

fn title(out: &mut SvgWriter, p: &Picture) {
    out.text(
        &[
            ("class", "title".into()),
            ("x", num(MARGIN)),
            ("y", num(MARGIN + TITLE_PX)),
            ("font-size", num(TITLE_PX)),
            ("font-weight", "bold".into()),
            ("fill", hex(TEXT_COLOUR)),
        ],
        &p.title,
    );
    if p.swapped {
        out.text(
            &[
                ("class", "swap-note".into()),
                ("x", num(MARGIN)),
                ("y", num(MARGIN + TITLE_PX + 24.0)),
                ("font-size", num(LEGEND_PX)),
                ("fill", hex(HOP_COLOUR)),
            ],
            swap_note(p),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::protocol::Kind;
    use crate::render::picture::{display_bytes, predicted_messages, Hop};
    use crate::trace::Event;
    use lcs_core::problem::Problem;

    /// A parsed picture and the marks in it, found by class.
    struct Parsed {
        doc: roxmltree::Document<'static>,
    }

    impl Parsed {
        fn new(svg: &str) -> Parsed {
            let text: &'static str = Box::leak(svg.to_owned().into_boxed_str());
            let doc = roxmltree::Document::parse(text)
                .unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{svg}"));
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            Parsed { doc }
        }

        fn marks(&self, class: &str) -> Vec<roxmltree::Node<'_, 'static>> {
            self.doc
                .descendants()
                .filter(|n| n.attribute("class") == Some(class))
                .collect()
        }

        fn texts(&self, class: &str) -> Vec<String> {
            self.marks(class)
                .iter()
                .map(|n| n.text().unwrap_or_default().to_owned())
                .collect()
        }

        fn all_texts(&self) -> Vec<String> {
            self.doc
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .map(|n| n.text().unwrap_or_default().to_owned())
                .collect()
        }
    }

    fn num_attr(n: &roxmltree::Node, name: &str) -> usize {
        n.attribute(name)
            .unwrap_or_else(|| panic!("no {name} on {n:?}"))
            .parse()
            .unwrap()
    }

    fn schedule_picture(s: &Schedule, messages: &[Event]) -> String {
        render(&Picture::of_schedule(
            s,
            messages,
            format!("{} x {} on {} ranks", s.rows(), s.cols(), s.ranks()),
            vec!["boundary messages: predicted".into()],
        ))
        .unwrap()
    }

    #[test]
    fn report_schedule_has_one_arrow_per_message_into_the_receiver() {
        let s = Schedule::new(5, 8, 3);
        let messages = predicted_messages(&s);
        assert!(!messages.is_empty());
        let svg = schedule_picture(&s, &messages);
        let parsed = Parsed::new(&svg);
        let arrows = parsed.marks("message");
        assert_eq!(arrows.len(), messages.len());
        for (a, e) in arrows.iter().zip(&messages) {
            let (i, j) = (num_attr(a, "data-i"), num_attr(a, "data-j"));
            assert_eq!(Some((i, j)), e.cell());
            assert_eq!(num_attr(a, "data-from"), e.from);
            assert_eq!(num_attr(a, "data-to"), e.to);
            assert_eq!(num_attr(a, "data-d"), i + j);
            // The arrow ends inside the receiver's neighbour cell.
            let (x2, y2): (f64, f64) = (
                a.attribute("x2").unwrap().parse().unwrap(),
                a.attribute("y2").unwrap().parse().unwrap(),
            );
            let cell = parsed
                .marks("cell")
                .into_iter()
                .find(|c| {
                    let x: f64 = c.attribute("x").unwrap().parse().unwrap();
                    let y: f64 = c.attribute("y").unwrap().parse().unwrap();
                    (x..x + 56.0).contains(&x2) && (y..y + 56.0).contains(&y2)
                })
                .expect("arrow ends in a cell");
            assert_eq!(num_attr(&cell, "data-owner"), e.to, "{e:?}");
            assert_ne!(s.cell_proc(i, j), e.to);
        }
        // One cell per matrix cell, its owner by cell_proc, its diagonal and position.
        let cells = parsed.marks("cell");
        assert_eq!(cells.len(), 40);
        for c in &cells {
            let (i, j) = (num_attr(c, "data-i"), num_attr(c, "data-j"));
            assert_eq!(num_attr(c, "data-owner"), s.cell_proc(i, j));
            assert_eq!(num_attr(c, "data-d"), i + j);
            assert_eq!(num_attr(c, "data-pos"), s.pos(i, j));
        }
        // Owners are written in the cells: p1 once per cell it owns.
        let owners = parsed.texts("cell-text");
        let p1 = owners.iter().filter(|t| *t == "p1").count() as u64;
        assert_eq!(p1, s.rank_cells(1));
        let texts = parsed.all_texts();
        for label in ["5 x 8 on 3 ranks", "columns j", "rows i", "p0", "p2"] {
            assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
        }
        // Every diagonal is numbered once, in a 5 x 8 grid.
        let labels: Vec<usize> = parsed
            .marks("diagonal-label")
            .iter()
            .map(|n| num_attr(n, "data-d"))
            .collect();
        assert_eq!(labels, (0..12).collect::<Vec<_>>());
        // Dropping a message drops an arrow.
        let svg = schedule_picture(&s, &messages[1..]);
        assert_eq!(Parsed::new(&svg).marks("message").len(), messages.len() - 1);
    }

    #[test]
    fn twelve_ranks_get_twelve_colours_and_hatching_after() {
        let s = Schedule::new(20, 20, 14);
        let svg = schedule_picture(&s, &predicted_messages(&s));
        let parsed = Parsed::new(&svg);
        let mut fill_of = std::collections::BTreeMap::new();
        for c in parsed.marks("cell") {
            let owner = num_attr(&c, "data-owner");
            let fill = c.attribute("fill").unwrap().to_owned();
            assert_eq!(*fill_of.entry(owner).or_insert(fill.clone()), fill);
        }
        let distinct: std::collections::BTreeSet<&String> =
            fill_of.range(0..12).map(|(_, f)| f).collect();
        assert_eq!(distinct.len(), 12, "{fill_of:?}");
        let hatched = parsed.marks("hatch").len() as u64;
        assert_eq!(hatched, s.rank_cells(12) + s.rank_cells(13));
        assert_eq!(parsed.marks("swatch-hatch").len(), 2);
    }

    #[test]
    fn larger_than_64_is_refused() {
        for (m, n) in [(65, 65), (3, 65)] {
            let s = Schedule::new(m, n, 2);
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("big.svg");
            let err = write_svg(&path, &Picture::of_schedule(&s, &[], String::new(), vec![]))
                .unwrap_err();
            assert!(matches!(err, Error::Usage(_)), "{err:?}");
            assert_eq!(
                err.to_string(),
                format!("pictures are limited to 64 x 64 cells; this matrix is {m} x {n}")
            );
            assert!(!path.exists());
        }
        let s = Schedule::new(64, 64, 8);
        let svg = schedule_picture(&s, &predicted_messages(&s));
        let parsed = Parsed::new(&svg);
        assert_eq!(
            parsed.marks("message").len() as u64,
            s.predicted_messages().total
        );
        assert!(parsed.marks("cell-text").is_empty(), "no text in 64 x 64");
        // Landscape enough to project: the legend sits beside the grid.
        let root = parsed.doc.root_element();
        let (w, h): (f64, f64) = (
            root.attribute("width").unwrap().parse().unwrap(),
            root.attribute("height").unwrap().parse().unwrap(),
        );
        assert!(w > h && w <= 1300.0, "{w} x {h}");
    }

    /// The sequential reference's values and walk for `x`, `y`, and the hops of that walk on
    /// `s` as the run would record them.
    type Solved = (Vec<Vec<u32>>, Vec<(usize, usize)>, Vec<Event>);

    fn solve(x: &[u8], y: &[u8], s: &Schedule) -> Solved {
        let values = lcs_core::reference::full_table(x, y);
        let path = lcs_core::reference::walk_path(x, y, &values);
        let mut events = Vec::new();
        for (t, w) in path.windows(2).enumerate() {
            let (from, to) = (s.cell_proc(w[0].0, w[0].1), s.cell_proc(w[1].0, w[1].1));
            if from != to {
                // The next cell, then the path so far: one move per cell walked.
                let bytes = Hop::bytes_for(t + 1);
                events.push(Event::new(Kind::Traceback, from, to, Some(w[1]), bytes));
            }
        }
        (values, path, events)
    }

    #[test]
    fn solved_picture_shows_values_bytes_walk_and_hops() {
        let (x, y) = (b"GAC\x01A".as_slice(), b"AGCAT\x01GA".as_slice());
        let s = Schedule::new(x.len(), y.len(), 3);
        let (values, path, hop_events) = solve(x, y, &s);
        let mut messages = predicted_messages(&s);
        messages.extend(hop_events.iter().copied());
        let svg = render(&Picture {
            schedule: &s,
            problem: Problem::Lcs,
            x: Some(x),
            y: Some(y),
            values: Some(&values),
            messages: &messages,
            path: &path,
            swapped: true,
            answer: None,
            title: "solve".into(),
            legend: vec!["traceback hops: 2".into()],
            bands: None,
            spans: &[],
        })
        .unwrap();
        let parsed = Parsed::new(&svg);
        assert_eq!(
            parsed.marks("message").len(),
            messages.len() - hop_events.len()
        );
        assert_eq!(
            parsed.texts("col-byte"),
            ["A", "G", "C", "A", "T", "01", "G", "A"]
        );
        assert_eq!(parsed.texts("row-byte"), ["G", "A", "C", "01", "A"]);
        let texts = parsed.all_texts();
        assert!(texts.iter().any(|t| t.starts_with("labels in italics")));
        assert!(texts.iter().any(|t| t == "traceback hops: 2"));
        assert_eq!(parsed.marks("swap-note").len(), 1);
        // The values, cell by cell in row order.
        let expected: Vec<String> = values.iter().flatten().map(|v| v.to_string()).collect();
        assert_eq!(parsed.texts("cell-text"), expected);
        // The walk: one step per pair of cells, in order; one disc per match on it, showing
        // its place in the LCS.
        let steps = parsed.marks("walk-step");
        assert_eq!(steps.len(), path.len() - 1);
        for (t, step) in steps.iter().enumerate() {
            assert_eq!(num_attr(step, "data-t"), t);
            assert_eq!(
                (num_attr(step, "data-i"), num_attr(step, "data-j")),
                path[t + 1]
            );
            assert_eq!(step.attribute("marker-mid"), Some("url(#walk-head)"));
        }
        let discs = parsed.marks("match");
        let matches: Vec<(usize, usize)> = path
            .iter()
            .copied()
            .filter(|&(i, j)| x[i] == y[j])
            .collect();
        assert_eq!(discs.len(), matches.len());
        let lcs_len = values[x.len() - 1][y.len() - 1] as usize;
        let places: Vec<usize> = discs.iter().map(|d| num_attr(d, "data-k")).collect();
        assert_eq!(places, (1..=lcs_len).rev().collect::<Vec<_>>());
        // Hops: one thick arrow per traceback message, on its step, with its payload.
        let hops = parsed.marks("hop");
        assert_eq!(hops.len(), hop_events.len());
        assert!(!hops.is_empty(), "this walk crosses ranks");
        for (h, e) in hops.iter().zip(&hop_events) {
            let t = num_attr(h, "data-t");
            assert_eq!(Some(path[t + 1]), e.cell());
            assert_eq!(num_attr(h, "data-from"), e.from);
            assert_eq!(num_attr(h, "data-bytes") as u64, e.bytes);
            assert_eq!(num_attr(h, "data-moves"), t + 1);
            assert_eq!(e.bytes, 24 + (t as u64 + 1).div_ceil(4));
            // The LCS so far: the matches of the cells walked, in reading order.
            let mut so_far: Vec<u8> = path[..=t]
                .iter()
                .filter(|&&(i, j)| x[i] == y[j])
                .map(|&(i, _)| x[i])
                .collect();
            so_far.reverse();
            let prefix = h.attribute("data-prefix").unwrap();
            assert_eq!(prefix, display_bytes(&so_far));
        }
        assert!(texts.iter().any(|t| t.starts_with("hop 1: p")), "{texts:?}");
    }

    /// A CIGAR with every operation written out: `2=1X` is `==X`.
    fn expand(cigar: &str) -> String {
        let mut out = String::new();
        let mut count = 0;
        for c in cigar.chars() {
            match c.to_digit(10) {
                Some(d) => count = count * 10 + d as usize,
                None => {
                    out.extend(std::iter::repeat_n(c, count));
                    count = 0;
                }
            }
        }
        out
    }

    #[test]
    fn an_edit_picture_speaks_of_distances_and_ends_with_the_alignment() {
        use crate::input::{Format, Pair};
        use crate::report::Answer;
        use lcs_core::reference;
        // The file's first sequence is the longer: it becomes the columns.
        let pair = Pair::from_file_order(b"sitting".to_vec(), b"kitten".to_vec(), Format::Plain);
        assert!(pair.swapped);
        let (x, y) = (pair.x.as_slice(), pair.y.as_slice());
        let s = Schedule::new(x.len(), y.len(), 3);
        let values = reference::full_table_of(Problem::Edit, x, y);
        let path = reference::align(Problem::Edit, x, y);
        let answer = Answer::new(Problem::Edit, &pair, &path);
        let walk = crate::render::picture::tests::cells(&path, x.len(), y.len());
        let mut messages = predicted_messages(&s);
        for (t, w) in walk.windows(2).enumerate() {
            let (from, to) = (s.cell_proc(w[0].0, w[0].1), s.cell_proc(w[1].0, w[1].1));
            if from != to {
                let bytes = Hop::bytes_for(t + 1);
                messages.push(Event::new(Kind::Traceback, from, to, Some(w[1]), bytes));
            }
        }
        let svg = render(&Picture {
            schedule: &s,
            problem: Problem::Edit,
            x: Some(x),
            y: Some(y),
            values: Some(&values),
            messages: &messages,
            path: &walk,
            swapped: true,
            answer: Some(&answer),
            title: "Edit distance".into(),
            legend: vec![],
            bands: None,
            spans: &[],
        })
        .unwrap();
        let parsed = Parsed::new(&svg);
        let expected: Vec<String> = values.iter().flatten().map(|v| v.to_string()).collect();
        assert_eq!(parsed.texts("cell-text"), expected, "the distances");
        let texts = parsed.all_texts();
        assert!(texts.iter().all(|t| !t.contains("LCS")), "{texts:?}");
        for wanted in [
            "number in a cell: D[i][j], the edit distance".to_owned(),
            "edit distance 3".into(),
            format!("CIGAR {}", answer.cigar),
        ] {
            assert!(texts.iter().any(|t| t.starts_with(&wanted)), "{wanted}");
        }
        // Rows are the file's second sequence: x[i] deleted is a D of the CIGAR.
        let legend = texts.join(" ");
        assert!(legend.contains("x[i] deleted (D)"), "{legend}");
        let view: Vec<String> = parsed
            .texts("alignment-view")
            .iter()
            .map(|t| t.replace('\u{a0}', " "))
            .collect();
        assert_eq!(Some(view.as_slice()), answer.view.as_ref().map(|v| &v[..]));
        // Each hop carries the path so far, which spells the end of the alignment.
        let whole = expand(&answer.cigar);
        let hops = parsed.marks("hop");
        assert!(!hops.is_empty(), "this walk crosses ranks");
        for h in &hops {
            let moves = num_attr(h, "data-moves");
            assert_eq!(num_attr(h, "data-t") + 1, moves);
            assert_eq!(num_attr(h, "data-bytes"), 24 + moves.div_ceil(4));
            let so_far = expand(h.attribute("data-prefix").unwrap());
            assert_eq!(so_far.len(), moves);
            assert!(whole.ends_with(&so_far), "{so_far} ends {whole}");
        }
    }

    #[test]
    fn the_page_grid_has_an_outline_per_diagonal_and_no_legend() {
        let s = Schedule::new(4, 6, 2);
        let messages = predicted_messages(&s);
        let svg = render_grid(&Picture::of_schedule(&s, &messages, "t".into(), vec![])).unwrap();
        let parsed = Parsed::new(&svg);
        let outlines = parsed.marks("diagonal");
        assert_eq!(outlines.len(), s.diagonals());
        assert!(parsed.marks("legend").is_empty());
        assert!(parsed.marks("title").is_empty());
        assert_eq!(parsed.marks("message").len(), messages.len());
    }

    #[test]
    fn empty_matrix_draws_legend_only() {
        let s = Schedule::new(0, 4, 2);
        let svg = schedule_picture(&s, &[]);
        let parsed = Parsed::new(&svg);
        assert!(parsed.marks("message").is_empty());
        assert!(parsed.marks("cell").is_empty());
        assert!(parsed
            .all_texts()
            .iter()
            .any(|t| t == "(empty matrix: no cells)"));
    }

    #[test]
    fn text_is_escaped() {
        let s = Schedule::new(1, 2, 1);
        let svg = render(&Picture::of_schedule(
            &s,
            &[],
            "a <b> & \"c\"".into(),
            vec![],
        ))
        .unwrap();
        let parsed = Parsed::new(&svg);
        assert_eq!(parsed.texts("title"), ["a <b> & \"c\""]);
    }

    #[test]
    fn written_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.svg");
        let s = Schedule::new(4, 6, 2);
        let messages = predicted_messages(&s);
        let picture = Picture::of_schedule(&s, &messages, "4 x 6".into(), vec![]);
        write_svg(&path, &picture).unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("s.svg")]);
        let svg = std::fs::read_to_string(&path).unwrap();
        assert_eq!(Parsed::new(&svg).marks("message").len(), messages.len());
        let missing = dir.path().join("no/such/dir/s.svg");
        assert!(matches!(
            write_svg(&missing, &picture),
            Err(Error::Output { .. })
        ));
    }
}
