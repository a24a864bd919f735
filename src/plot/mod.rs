//! `mpi-lcs plot`: result sets drawn as SVG figures fit for a report (time, speed-up, efficiency,
//! where the time goes, and messages against the prediction, each against the rank count), read and
//! reduced exactly as `table` does ([`crate::runs`]), so a plot and a table of one result set
//! agree. [`figures`] decides what each figure shows ([`model`]), [`axis`] places and labels the
//! ticks, and [`draw`] turns a figure into SVG through [`backend`], with the crate's one SVG
//! writer; every file is written atomically.

pub mod axis;
pub mod backend;
pub mod draw;
pub mod figures;
pub mod model;

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::runs::{mixtures, read_result_sets, summarise};

/// File names of the figures, in the order [`plot_runs`] returns them.
pub const PLOT_FILES: [&str; 5] = [
    "time_vs_ranks.svg",
    "speedup_vs_ranks.svg",
    "efficiency_vs_ranks.svg",
    "time_breakdown.svg",
    "messages_vs_ranks.svg",
];

/// Reads the runs in the result sets `csvs` and writes the figures into `out_dir` (created if
/// missing). Returns the paths written, in the order of [`PLOT_FILES`].
///
/// Errors: [`Error::Input`] when a result set is missing, unreadable or malformed (the message
/// names the file, and the line); [`Error::Output`] when `out_dir` or a plot cannot be
/// written.
pub fn plot_runs(csvs: &[PathBuf], out_dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let rows = read_result_sets(csvs)?;
    let summaries = summarise(&rows);
    let data = figures::Data::new(&summaries, &mixtures(&rows));
    std::fs::create_dir_all(out_dir).map_err(|source| Error::Output {
        path: out_dir.to_owned(),
        source,
    })?;
    let figures = [
        figures::time(&data),
        figures::speedup(&data),
        figures::efficiency(&data),
        figures::breakdown(&data),
        figures::messages(&data),
    ];
    let mut written = Vec::new();
    for (name, figure) in PLOT_FILES.iter().zip(&figures) {
        let path = out_dir.join(name);
        crate::export::write_atomic(&path, draw::render(figure)?.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::diagonal::store::StoreKind;
    use crate::input::InputError;
    use crate::report::{row::Row, EngineKind};

    /// A run of `input` (`n` × `n`) on `ranks` ranks with `store` (`None`: the reference).
    pub fn row(input: &str, n: u64, ranks: usize, store: Option<StoreKind>, seconds: f64) -> Row {
        Row {
            input: input.into(),
            rows: n,
            cols: n,
            ranks,
            engine: match store {
                Some(_) => EngineKind::Diagonal,
                None => EngineKind::Reference,
            },
            store,
            seconds_total: seconds,
            seconds_compute: seconds * 0.5,
            seconds_wait: seconds * 0.2,
            seconds_send: seconds * 0.1,
            messages_boundary: 100 * (ranks as u64 - 1),
            predicted_boundary: 100 * (ranks as u64 - 1),
            hosts: "h".into(),
            ranks_per_host: ranks,
            oversubscribed: ranks > 2,
            ..Row::default()
        }
    }

    pub fn sample_rows() -> Vec<Row> {
        let mut rows = Vec::new();
        for (input, n, scale) in [
            ("inputs/small.txt", 11, 1.0),
            ("d/a,b \"big\".txt", 1000, 40.0),
        ] {
            for rep in 0..2 {
                let t = scale * (1.0 + rep as f64 * 0.1);
                rows.push(row(input, n, 1, None, t * 0.1));
                for ranks in [1, 2, 4] {
                    for (store, f) in [(StoreKind::Dense, 1.0), (StoreKind::Hash, 30.0)] {
                        rows.push(row(input, n, ranks, Some(store), t * f / ranks as f64));
                    }
                }
            }
        }
        rows
    }

    fn write_rows(path: &Path, rows: &[Row]) {
        for r in rows {
            crate::export::append_row(path, r).unwrap();
        }
    }

    fn plot(rows: &[Row]) -> (tempfile::TempDir, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("runs.csv");
        write_rows(&csv, rows);
        let written = plot_runs(&[csv], &dir.path().join("plots")).unwrap();
        let svgs = written
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        (dir, svgs)
    }

    fn texts(doc: &roxmltree::Document) -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").trim().to_owned())
            .collect()
    }

    #[test]
    fn every_figure_is_an_svg_document_with_legend_and_units() {
        let (dir, svgs) = plot(&sample_rows());
        let names: Vec<String> = std::fs::read_dir(dir.path().join("plots"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), PLOT_FILES.len(), "{names:?}");
        for (svg, name) in svgs.iter().zip(PLOT_FILES) {
            let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(doc.root_element().has_tag_name("svg"), "{name}");
            let texts = texts(&doc);
            // No number in scientific notation (`1e-5`, `2.5e3`).
            for t in &texts {
                let c: Vec<char> = t.chars().collect();
                let scientific = c.windows(3).any(|w| {
                    w[0].is_ascii_digit()
                        && w[1] == 'e'
                        && (w[2].is_ascii_digit() || w[2] == '-' || w[2] == '+')
                });
                assert!(!scientific, "{name}: {t}");
            }
            for label in [
                "small (11 × 11) · diagonal · dense",
                "a,b \"big\" (1,000 × 1,000) · diagonal · hash",
            ] {
                assert!(
                    texts.iter().any(|t| t.starts_with(label)),
                    "{name}: no legend entry '{label}' in {texts:?}"
                );
            }
        }
        let time = roxmltree::Document::parse(&svgs[0]).unwrap();
        let texts = texts(&time);
        assert!(texts.iter().any(|t| t.ends_with(" ms")), "{texts:?}");
        assert!(texts.iter().any(|t| t == "ranks P (log scale)"));
    }

    /// What a point is: input, store, ranks.
    type Config = (String, String, usize);

    /// The points of a figure: what each is, whether it is hollow and has an error bar.
    fn points(svg: &str) -> Vec<(Config, (bool, bool))> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("point"))
            .map(|g| {
                let tag = |k: &str| {
                    g.attribute(k)
                        .unwrap_or_else(|| panic!("no {k}"))
                        .to_owned()
                };
                let marker = g
                    .children()
                    .find(|c| c.has_tag_name("circle") || c.has_tag_name("polygon"))
                    .expect("a marker");
                let hollow = marker.attribute("fill") == Some("white");
                assert_eq!(
                    tag("data-oversubscribed") == "true",
                    hollow,
                    "hollow exactly when oversubscribed"
                );
                let bar = g
                    .children()
                    .any(|c| c.attribute("class") == Some("error-bar"));
                (
                    (
                        tag("data-input"),
                        tag("data-store"),
                        tag("data-ranks").parse().unwrap(),
                    ),
                    (hollow, bar),
                )
            })
            .collect()
    }

    #[test]
    fn points_say_what_they_are_and_show_their_spread() {
        let (_dir, svgs) = plot(&sample_rows());
        let time = points(&svgs[0]);
        // Two inputs, two stores, three rank counts; the reference is a line, not points.
        assert_eq!(time.len(), 12, "{time:?}");
        for ((input, store, ranks), (hollow, bar)) in &time {
            assert_eq!(*hollow, *ranks > 2, "{input} {store} {ranks}");
            assert!(*bar, "two runs per point: an error bar");
        }
        // Speed-up (two panels) and efficiency mark the same points.
        let speedup = points(&svgs[1]);
        assert_eq!(speedup.len(), 24);
        assert!(speedup.iter().all(|(k, (hollow, _))| *hollow == (k.2 > 2)));
        assert_eq!(points(&svgs[2]).len(), 12);
        // One run per point: no error bars, and the notes say so.
        let single: Vec<Row> = sample_rows().into_iter().step_by(2).collect();
        let (_dir, svgs) = plot(&single);
        assert!(points(&svgs[0]).iter().all(|(_, (_, bar))| !bar));
        assert!(svgs[0].contains("One run per point"));
    }

    /// Only the sequential reference, or solve runs without a 1-rank run: figures are still
    /// drawn, with what there is.
    #[test]
    fn sparse_runs_still_plot() {
        let long = "/a/very/long/directory/name/for/the/experiment/inputs/large_3.txt";
        let (_dir, svgs) = plot(&[row(long, 5, 1, None, 2.0), row("b.txt", 5, 1, None, 0.0)]);
        assert!(svgs[0].contains("large_3 (5 × 5) · sequential reference"));
        assert!(svgs[0].contains("are drawn at 1 µs"));
        let (_dir, svgs) = plot(&[
            row("b.txt", 5, 2, Some(StoreKind::Dense), 0.5),
            row("b.txt", 5, 4, Some(StoreKind::Dense), 0.25),
        ]);
        assert!(svgs[1].contains("No sequential reference for: b (5 × 5) · diagonal · dense."));
        assert!(svgs[1].contains("No run at P = 1 for: b (5 × 5) · diagonal · dense."));
    }

    #[test]
    fn errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("plots");
        let missing = dir.path().join("none.csv");
        let err = plot_runs(&[missing], &out).unwrap_err();
        assert!(
            matches!(err, Error::Input(InputError::NotFound { .. })),
            "{err:?}"
        );
        assert!(err.to_string().contains("none.csv"), "{err}");
        let header_only = dir.path().join("header.csv");
        std::fs::write(&header_only, format!("{}\n", Row::header())).unwrap();
        let err = plot_runs(&[header_only], &out).unwrap_err();
        assert!(matches!(err, Error::Input(_)), "{err:?}");
        assert!(err.to_string().contains("no runs"), "{err}");
        let err = plot_runs(&[dir.path().to_owned()], &out).unwrap_err();
        assert!(
            matches!(err, Error::Input(InputError::IsDirectory { .. })),
            "{err:?}"
        );
        assert!(!out.exists(), "nothing written on a bad CSV");
        let csv = dir.path().join("runs.csv");
        write_rows(&csv, &sample_rows());
        let blocked = dir.path().join("runs.csv/plots");
        assert!(matches!(
            plot_runs(&[csv], &blocked),
            Err(Error::Output { .. })
        ));
    }
}
