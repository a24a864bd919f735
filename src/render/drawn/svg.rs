//! SVG pictures of a schedule or a run, by engine: the diagonal engine's picture
//! ([`super::diagonal_picture`]), the bands engine's ([`super::bands_picture`]) or a wave run's
//! ([`super::wave_picture`]). Every mark carries its meaning as a class and data attributes, so
//! tests and the classroom page ([`crate::render::page::html`]) find marks by what they mean, not
//! by how they are drawn. A document is rendered into a string and written atomically, so a
//! failed run never leaves half a picture.

use std::path::Path;

use super::{bands_picture, diagonal_picture, wave_picture};
use crate::error::Error;
use crate::render::shown::picture::Picture;

pub use super::diagonal_picture::{too_large, MAX_PICTURE_CELLS_SIDE};
pub use super::layout::MAX_CELL_TEXT_SIDE;

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
/// [`super::bands_picture`], a wave run's by [`super::wave_picture`]).
pub fn render(picture: &Picture) -> Result<String, Error> {
    match (picture.bands, picture.wave) {
        (Some(_), _) => bands_picture::render(picture),
        (_, Some(_)) => wave_picture::render(picture),
        _ => diagonal_picture::draw(picture, true),
    }
}

/// The grid alone (axes, cells, messages, walk and, for animation, one outline per diagonal),
/// without title or legend: what the classroom page embeds and animates.
pub fn render_grid(picture: &Picture) -> Result<String, Error> {
    diagonal_picture::draw(picture, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comm::trace::Event;
    use crate::engines::diagonal::schedule::Schedule;
    use crate::render::shown::hops::tests::hop_events;
    use crate::render::shown::picture::tests::solved;
    use crate::render::shown::picture::{display_bytes, predicted_messages};
    use lcs_core::alignment::expand;
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
        let events = hop_events(s, &path);
        (values, path, events)
    }

    #[test]
    fn solved_picture_shows_values_bytes_walk_and_hops() {
        let (x, y) = (b"GAC\x01A".as_slice(), b"AGCAT\x01GA".as_slice());
        let s = Schedule::new(x.len(), y.len(), 3);
        let (values, path, traceback) = solve(x, y, &s);
        let mut messages = predicted_messages(&s);
        messages.extend(traceback.iter().copied());
        let svg = render(&Picture {
            swapped: true,
            title: "solve".into(),
            legend: vec!["traceback hops: 2".into()],
            ..solved(&s, Problem::Lcs, (x, y), &values, &messages, &path)
        })
        .unwrap();
        let parsed = Parsed::new(&svg);
        assert_eq!(
            parsed.marks("message").len(),
            messages.len() - traceback.len()
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
        assert_eq!(hops.len(), traceback.len());
        assert!(!hops.is_empty(), "this walk crosses ranks");
        for (h, e) in hops.iter().zip(&traceback) {
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
        let walk = crate::render::shown::hops::tests::cells(&path, x.len(), y.len());
        let mut messages = predicted_messages(&s);
        messages.extend(hop_events(&s, &walk));
        let svg = render(&Picture {
            swapped: true,
            answer: Some(&answer),
            title: "Edit distance".into(),
            ..solved(&s, Problem::Edit, (x, y), &values, &messages, &walk)
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
