//! Result sets: the CSV files of runs that `--append-csv` and the experiment scripts write, read
//! back into [`Row`]s with the very struct that wrote them, for tables and plots, and reduced to
//! configurations by [`summarise`]. A result set of `search` runs (see `matches`) or of `pairs`
//! runs (see `scores`) is refused by name, and so is a file that is missing, unreadable, not this
//! program's (another header) or has a malformed row, with a message naming the file and the line.
//! Reading is bounded whatever the path names: a regular file of at most [`MAX_RESULT_SET_BYTES`]
//! with lines of at most [`MAX_LINE_BYTES`]; anything else is refused before it is read, or as soon
//! as the read passes the bound.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::engines::diagonal::store::StoreKind;
use crate::error::Error;
use crate::input::InputError;
use crate::report::EngineKind;
use crate::report::{row::Row, text::thousands};
use lcs_core::problem::Problem;

/// Reads every row of the result sets at `paths`, in file order.
pub fn read_result_sets(paths: &[PathBuf]) -> Result<Vec<Row>, Error> {
    let mut rows = Vec::new();
    for path in paths {
        rows.extend(read_result_set(path)?);
    }
    Ok(rows)
}

/// Largest result set read: 64 MiB, some 200,000 runs (a row is about 300 bytes).
pub const MAX_RESULT_SET_BYTES: u64 = 64 << 20;

/// Longest line of a result set: 1 MiB (a row's longest cells are a path and a host list).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Checks that a result set is there to be read, and can be read whole (before its outputs
/// are checked, when they are named after it): a regular file of at most
/// [`MAX_RESULT_SET_BYTES`].
pub fn check_present(path: &Path) -> Result<(), Error> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(InputError::NotFound {
            path: path.to_owned(),
        }
        .into()),
        Err(source) => Err(InputError::Unreadable {
            path: path.to_owned(),
            source,
        }
        .into()),
        Ok(m) => check_kind_and_size(path, &m),
    }
}

fn check_kind_and_size(path: &Path, m: &std::fs::Metadata) -> Result<(), Error> {
    if m.is_dir() {
        return Err(InputError::IsDirectory {
            path: path.to_owned(),
        }
        .into());
    }
    if !m.is_file() {
        return Err(InputError::NotRegular {
            path: path.to_owned(),
            what: "a result set",
        }
        .into());
    }
    if m.len() > MAX_RESULT_SET_BYTES {
        return Err(InputError::TooLarge {
            path: path.to_owned(),
            size: m.len(),
            limit: MAX_RESULT_SET_BYTES,
        }
        .into());
    }
    Ok(())
}

/// The bytes of the result set at `path`, read within the bounds of the module doc.
fn read_bounded(path: &Path) -> Result<Vec<u8>, Error> {
    check_present(path)?;
    let unreadable = |source| InputError::Unreadable {
        path: path.to_owned(),
        source,
    };
    // Without blocking, should the path have become a FIFO since it was checked; what was
    // opened is checked again.
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(unreadable)?;
    check_kind_and_size(path, &file.metadata().map_err(unreadable)?)?;
    let mut bytes = Vec::new();
    // A file that grows while it is read, or whose size the metadata does not tell (/proc).
    file.take(MAX_RESULT_SET_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_RESULT_SET_BYTES {
        return Err(InputError::StreamTooLarge {
            path: path.to_owned(),
            limit: MAX_RESULT_SET_BYTES,
        }
        .into());
    }
    if let Some(k) = bytes
        .split(|&b| b == b'\n')
        .position(|line| line.len() > MAX_LINE_BYTES)
    {
        return Err(bad(
            path,
            format!(
                "line {} is longer than {} bytes: not a result set",
                k + 1,
                MAX_LINE_BYTES
            ),
        ));
    }
    Ok(bytes)
}

/// Reads the rows of one result set.
pub fn read_result_set(path: &Path) -> Result<Vec<Row>, Error> {
    let bytes = read_bounded(path)?;
    let mut reader = csv::Reader::from_reader(&bytes[..]);
    let header = reader
        .headers()
        .map_err(|e| bad(path, e.to_string()))?
        .iter()
        .collect::<Vec<_>>()
        .join(",");
    if header == crate::matches::SearchRow::header() {
        return Err(bad(
            path,
            "holds search runs (written by search --append-csv): table and plot compare solve \
             and reference runs, whose columns a search has not; read a search result set as \
             the CSV it is"
                .into(),
        ));
    }
    if header == crate::scores::PairsRow::header() {
        return Err(bad(
            path,
            "holds pairs runs (written by pairs --append-csv): table and plot compare solve \
             and reference runs, whose columns a pairs run has not; read a pairs result set as \
             the CSV it is"
                .into(),
        ));
    }
    if !readable(&header) {
        return Err(bad(
            path,
            "not a result set of this version of mpi-lcs (its header differs)".into(),
        ));
    }
    let rows: Vec<Row> = reader
        .deserialize()
        .collect::<Result<_, csv::Error>>()
        .map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            bad(path, format!("line {line}: {e}"))
        })?;
    if rows.is_empty() {
        return Err(bad(path, "no runs: the file has a header only".into()));
    }
    Ok(rows)
}

/// Columns result sets gained after their first version, in the order they came: a set
/// without the first group was written before the edit distance (its runs read as LCS runs),
/// one without the second before the diagonal band (its runs have no band), one without the
/// third before the wave engine and the computed cells, counted apart from the matrix's (its runs'
/// cells read as the matrix's, which is what they reported).
const LATER_COLUMNS: [&[&str]; 3] = [
    &["problem", "distance"],
    &["band", "band_doublings"],
    &["score_steps", "cells"],
];

/// The header of the version before the groups `LATER_COLUMNS[from..]` came.
fn header_before(from: usize) -> String {
    let later: Vec<&str> = LATER_COLUMNS[from..].concat();
    let current = Row::header();
    let columns: Vec<&str> = current.split(',').filter(|c| !later.contains(c)).collect();
    columns.join(",")
}

/// Whether a result set with this header can be read: this version's, or an earlier one's.
fn readable(header: &str) -> bool {
    (0..=LATER_COLUMNS.len()).any(|from| header == header_before(from))
}

/// A malformed result set: reported as an unreadable input file, with the reason.
fn bad(path: &Path, msg: String) -> Error {
    InputError::Unreadable {
        path: path.to_owned(),
        source: io::Error::new(io::ErrorKind::InvalidData, msg),
    }
    .into()
}

/// The median of `values` (the mean of the middle two for an even count); `values` is not
/// empty.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// A measurement over the repetitions of a configuration: median, minimum and maximum.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// The spread of `values`, which is not empty.
    pub fn of(values: impl Iterator<Item = f64>) -> Spread {
        let values: Vec<f64> = values.collect();
        Spread {
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            median: median(values),
        }
    }
}

/// Where the ranks of a run were: on how many hosts, and at most how many on one. `p = 2` on
/// one host and `p = 2` on two hosts are different experiments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    pub hosts: usize,
    pub ranks_per_host: usize,
}

impl Placement {
    pub fn of(row: &Row) -> Placement {
        Placement {
            hosts: row.hosts.split_whitespace().count().max(1),
            ranks_per_host: row.ranks_per_host.max(1),
        }
    }
}

impl fmt::Display for Placement {
    /// `1 host`, `2 hosts, 1 rank each`, `2 hosts, up to 4 ranks each`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.hosts, self.ranks_per_host) {
            (1, _) => f.write_str("1 host"),
            (h, 1) => write!(f, "{h} hosts, 1 rank each"),
            (h, r) => write!(f, "{h} hosts, up to {r} ranks each"),
        }
    }
}

/// How a configuration was run: what tells its repetitions apart from other configurations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Config {
    pub input: String,
    pub problem: Problem,
    pub engine: EngineKind,
    pub store: Option<StoreKind>,
    pub ranks: usize,
    pub placement: Placement,
}

impl Config {
    pub fn of(row: &Row) -> Config {
        Config {
            input: row.input.clone(),
            problem: row.problem,
            engine: row.engine,
            store: row.store,
            ranks: row.ranks,
            placement: Placement::of(row),
        }
    }

    /// `diagonal · dense`, `reference`; an edit-distance run's begins with `edit · `.
    pub fn how(&self) -> String {
        let engine = match self.store {
            Some(store) => format!("{} · {store}", self.engine),
            None => self.engine.to_string(),
        };
        match self.problem {
            Problem::Lcs => engine,
            Problem::Edit => format!("edit · {engine}"),
        }
    }

    /// Whether `reference` is the sequential run this configuration is compared with: the
    /// same input and problem.
    pub fn compares_with(&self, reference: &Config) -> bool {
        reference.engine == EngineKind::Reference
            && reference.input == self.input
            && reference.problem == self.problem
    }

    /// The input's short name: its file name without `.txt`.
    pub fn name(&self) -> &str {
        input_name(&self.input)
    }

    /// Everything but the rank count and placement: the series a configuration belongs to.
    pub fn series(&self) -> Config {
        Config {
            ranks: 0,
            placement: Placement {
                hosts: 0,
                ranks_per_host: 0,
            },
            ..self.clone()
        }
    }
}

/// An input path's short name: the file name without `.txt`.
pub fn input_name(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".txt").unwrap_or(name)
}

/// The repetitions of one configuration, reduced.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub config: Config,
    pub rows: u64,
    pub cols: u64,
    pub reps: usize,
    /// `seconds_total`.
    pub seconds: Spread,
    /// Medians of the busiest rank's fill: computing, waiting in receives, posting sends.
    pub compute: f64,
    pub wait: f64,
    pub send: f64,
    /// Median of `seconds_traceback`.
    pub traceback: f64,
    /// Median of `seconds_fill` (the slowest rank's fill).
    pub fill: f64,
    /// Cells computed (the first run's: every run of a configuration computes the same), the
    /// matrix's for a result set written before they were counted apart.
    pub cells: u64,
    /// `messages_boundary`, and the schedule's prediction (the first run's).
    pub messages: Spread,
    pub predicted: u64,
    /// Runs whose boundary messages differ from the prediction.
    pub mismatches: usize,
    /// Any repetition ran on a host with more ranks than cores: the runs' own record, and the
    /// one definition tables and plots mark.
    pub oversubscribed: bool,
    /// The rows, for whatever else a table or plot reduces.
    pub runs: Vec<Row>,
}

impl Summary {
    /// `1,000 × 1,000`.
    pub fn size(&self) -> String {
        format!("{} × {}", thousands(self.rows), thousands(self.cols))
    }

    /// Nanoseconds of the fill per cell computed (the computed cells, not the matrix's: a
    /// diagonal band computes a fraction of it); `None` when no cell was computed.
    pub fn ns_per_cell(&self) -> Option<f64> {
        (self.cells > 0).then(|| self.fill * 1e9 / self.cells as f64)
    }

    /// `large (1,000 × 1,000) · diagonal · dense`: how legends and titles name a series.
    pub fn label(&self) -> String {
        let how = match self.config.engine {
            EngineKind::Reference => "sequential reference".to_owned(),
            _ => self.config.how(),
        };
        format!("{} ({}) · {how}", self.config.name(), self.size())
    }
}

/// Groups rows by configuration, in order of first appearance.
pub fn summarise(rows: &[Row]) -> Vec<Summary> {
    let mut order: Vec<Config> = Vec::new();
    let mut groups: std::collections::HashMap<Config, Vec<Row>> = Default::default();
    for row in rows {
        let config = Config::of(row);
        if !groups.contains_key(&config) {
            order.push(config.clone());
        }
        groups.entry(config).or_default().push(row.clone());
    }
    order
        .into_iter()
        .map(|config| {
            let runs = groups.remove(&config).unwrap_or_default();
            let med = |f: fn(&Row) -> f64| median(runs.iter().map(f).collect());
            Summary {
                rows: runs[0].rows,
                cols: runs[0].cols,
                reps: runs.len(),
                seconds: Spread::of(runs.iter().map(|r| r.seconds_total)),
                compute: med(|r| r.seconds_compute),
                wait: med(|r| r.seconds_wait),
                send: med(|r| r.seconds_send),
                traceback: med(|r| r.seconds_traceback),
                fill: med(|r| r.seconds_fill),
                cells: runs[0].computed_cells(),
                messages: Spread::of(runs.iter().map(|r| r.messages_boundary as f64)),
                predicted: runs[0].predicted_boundary,
                mismatches: runs
                    .iter()
                    .filter(|r| r.messages_boundary != r.predicted_boundary)
                    .count(),
                oversubscribed: runs.iter().any(|r| r.oversubscribed),
                config,
                runs,
            }
        })
        .collect()
}

/// What a result set mixes that a comparison should not: more than one commit, machine (rank
/// 0's host and CPU), launcher or MPI library, or one rank count placed in more than one way.
/// One warning line per mix.
pub fn mixtures(rows: &[Row]) -> Vec<String> {
    let mut warnings = Vec::new();
    let mut check = |what: &str, values: Vec<String>| {
        let mut distinct: Vec<String> = Vec::new();
        for v in values {
            if !distinct.contains(&v) {
                distinct.push(v);
            }
        }
        if distinct.len() > 1 {
            warnings.push(format!(
                "the runs mix {} {what}: {}",
                distinct.len(),
                distinct.join("; ")
            ));
        }
    };
    check("commits", rows.iter().map(|r| r.commit.clone()).collect());
    check(
        "machines",
        rows.iter()
            .map(|r| format!("{} ({}, {} cores)", r.host, r.cpu, r.cores))
            .collect(),
    );
    let solved = rows.iter().filter(|r| r.engine != EngineKind::Reference);
    check(
        "launchers",
        solved.clone().map(|r| r.launcher.clone()).collect(),
    );
    check(
        "MPI libraries",
        solved.map(|r| r.mpi_library.clone()).collect(),
    );
    let mut placements: BTreeMap<usize, BTreeSet<Placement>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.engine != EngineKind::Reference) {
        placements
            .entry(r.ranks)
            .or_default()
            .insert(Placement::of(r));
    }
    for (p, ways) in placements.into_iter().filter(|(_, w)| w.len() > 1) {
        let ways: Vec<String> = ways.iter().map(Placement::to_string).collect();
        warnings.push(format!(
            "p = {p} was placed in {} ways: {}",
            ways.len(),
            ways.join("; ")
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_sets_read_back_what_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        let row = Row {
            input: "in,put.txt".into(),
            engine: EngineKind::Reference,
            ranks: 1,
            ..Row::default()
        };
        crate::export::append_row(&path, &row).unwrap();
        crate::export::append_row(&path, &row).unwrap();
        assert_eq!(read_result_sets(&[path.clone(), path]).unwrap().len(), 4);

        let other = dir.path().join("other.csv");
        std::fs::write(&other, "a,b\n1,2\n").unwrap();
        let err = read_result_set(&other).unwrap_err().to_string();
        assert!(err.contains("not a result set"), "{err}");
        let broken = dir.path().join("broken.csv");
        std::fs::write(&broken, format!("{}\n1,2\n", Row::header())).unwrap();
        let err = read_result_set(&broken).unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
        let missing = read_result_set(&dir.path().join("none.csv")).unwrap_err();
        assert_eq!(missing.exit_code(), crate::error::EXIT_INPUT);
    }

    /// Devices, FIFOs, files over the size limit and lines over the line limit are refused
    /// before (or as soon as) they are read past the bound.
    #[test]
    fn result_sets_are_read_within_bounds() {
        let dir = tempfile::tempdir().unwrap();
        let message = |path: &Path| read_result_set(path).unwrap_err().to_string();
        assert!(message(Path::new("/dev/zero")).contains("is not a regular file"));
        let fifo = dir.path().join("fifo.csv");
        let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        assert!(message(&fifo).contains("is not a regular file"));
        // A sparse file over the limit costs no disk and is never read.
        let big = dir.path().join("big.csv");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(MAX_RESULT_SET_BYTES + 1).unwrap();
        assert!(
            message(&big).contains("larger than the limit"),
            "{}",
            message(&big)
        );
        file.set_len(MAX_RESULT_SET_BYTES).unwrap();
        let err = message(&big);
        assert!(err.contains("line 1 is longer than"), "{err}");
        let long = dir.path().join("long.csv");
        let line = "x".repeat(MAX_LINE_BYTES + 1);
        std::fs::write(&long, format!("{}\n{line}\n", Row::header())).unwrap();
        assert!(message(&long).contains("line 2 is longer than"));
        assert!(check_present(&long).is_ok());
        assert!(check_present(Path::new("/dev/zero")).is_err());
    }

    #[test]
    fn result_sets_from_before_the_edit_distance_read_as_lcs_runs() {
        // Write a row with this version's columns, then drop the later ones.
        let mut w = csv::Writer::from_writer(Vec::new());
        let row = Row {
            input: "a.txt".into(),
            rows: 30,
            cols: 40,
            ranks: 2,
            lcs_length: Some(7),
            ..Row::default()
        };
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let mut lines = text.lines().map(|l| l.split(',').collect::<Vec<_>>());
        let (header, values) = (lines.next().unwrap(), lines.next().unwrap());
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.csv");
        // Before the edit distance, before the diagonal band, before the computed cells: the
        // cells read as the matrix's.
        for from in [0, 1, 2] {
            let later = LATER_COLUMNS[from..].concat();
            let keep: Vec<usize> = (0..header.len())
                .filter(|&c| !later.contains(&header[c]))
                .collect();
            let pick =
                |cells: &[&str]| keep.iter().map(|&c| cells[c]).collect::<Vec<_>>().join(",");
            std::fs::write(&old, format!("{}\n{}\n", pick(&header), pick(&values))).unwrap();
            let rows = read_result_set(&old).unwrap();
            assert_eq!(rows, vec![row.clone()]);
            assert_eq!((rows[0].problem, rows[0].band), (Problem::Lcs, None));
            assert_eq!(rows[0].computed_cells(), 30 * 40);
        }
        let banded = Row {
            cells: Some(99),
            ..row.clone()
        };
        assert_eq!(banded.computed_cells(), 99);
        // Another subset of the columns is not a result set.
        std::fs::write(&old, format!("{}\n", header[1..].join(","))).unwrap();
        assert!(read_result_set(&old).is_err());
    }

    #[test]
    fn medians() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    fn run(input: &str, ranks: usize, seconds: f64, commit: &str) -> Row {
        Row {
            input: input.into(),
            ranks,
            store: Some(StoreKind::Dense),
            seconds_total: seconds,
            commit: commit.into(),
            launcher: "mpirun".into(),
            ..Row::default()
        }
    }

    #[test]
    fn repetitions_reduce_to_median_min_max() {
        let rows = [
            run("a", 2, 3.0, "c1"),
            run("a", 1, 5.0, "c1"),
            run("a", 2, 1.0, "c1"),
            run("a", 2, 2.0, "c1"),
        ];
        let s = summarise(&rows);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].config.ranks, s[0].reps), (2, 3));
        let seconds = s[0].seconds;
        assert_eq!((seconds.median, seconds.min, seconds.max), (2.0, 1.0, 3.0));
        assert_eq!(s[0].config.how(), "diagonal · dense");
        assert_eq!(s[0].label(), "a (0 × 0) · diagonal · dense");
        assert!(mixtures(&rows).is_empty());
        let mixed = [run("a", 1, 1.0, "c1"), run("a", 1, 1.0, "c2")];
        let warnings = mixtures(&mixed);
        assert_eq!(warnings, ["the runs mix 2 commits: c1; c2"]);
    }

    /// The same rank count on one host and on two is two configurations, and a warning.
    #[test]
    fn placements_are_kept_apart() {
        let mut one_host = run("a", 2, 1.0, "c1");
        one_host.hosts = "n1".into();
        one_host.ranks_per_host = 2;
        let mut two_hosts = run("a", 2, 3.0, "c1");
        two_hosts.hosts = "n1 n2".into();
        two_hosts.ranks_per_host = 1;
        let s = summarise(&[one_host.clone(), two_hosts.clone(), one_host.clone()]);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].reps, 2);
        assert_eq!(s[1].config.placement.to_string(), "2 hosts, 1 rank each");
        assert_eq!(s[0].config.series(), s[1].config.series());
        assert_eq!(
            mixtures(&[one_host, two_hosts]),
            ["p = 2 was placed in 2 ways: 1 host; 2 hosts, 1 rank each"]
        );
    }

    #[test]
    fn names_for_people() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(input_name("inputs/large_2.txt"), "large_2");
        assert_eq!(input_name("x.fa"), "x.fa");
    }
}
