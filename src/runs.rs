//! Result sets: the CSV files of runs that `--append-csv` and the experiment scripts write,
//! read back into [`Row`]s with the very struct that wrote them, for tables and plots.
//!
//! A file that is missing, unreadable, not a result set of this program (another header) or
//! has a malformed row is refused with a message naming the file and the line.

use std::io;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::input::InputError;
use crate::report::EngineKind;
use crate::report::Row;
use crate::store::StoreKind;

/// Reads every row of the result sets at `paths`, in file order.
pub fn read_result_sets(paths: &[PathBuf]) -> Result<Vec<Row>, Error> {
    let mut rows = Vec::new();
    for path in paths {
        rows.extend(read_result_set(path)?);
    }
    Ok(rows)
}

/// Reads the rows of one result set.
pub fn read_result_set(path: &Path) -> Result<Vec<Row>, Error> {
    let unreadable = |source| InputError::Unreadable {
        path: path.to_owned(),
        source,
    };
    let bytes = match std::fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(InputError::NotFound {
                path: path.to_owned(),
            }
            .into())
        }
        Err(e) => return Err(unreadable(e).into()),
        Ok(m) if m.is_dir() => {
            return Err(InputError::IsDirectory {
                path: path.to_owned(),
            }
            .into())
        }
        Ok(_) => std::fs::read(path).map_err(unreadable)?,
    };
    let mut reader = csv::Reader::from_reader(&bytes[..]);
    let header = reader
        .headers()
        .map_err(|e| bad(path, e.to_string()))?
        .iter()
        .collect::<Vec<_>>()
        .join(",");
    if header != Row::header() {
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

/// How a configuration was run: what tells its repetitions apart from other configurations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Config {
    pub input: String,
    pub engine: EngineKind,
    pub store: Option<StoreKind>,
    pub ranks: usize,
}

impl Config {
    pub fn of(row: &Row) -> Config {
        Config {
            input: row.input.clone(),
            engine: row.engine,
            store: row.store,
            ranks: row.ranks,
        }
    }

    /// `diagonal · dense`, `reference`.
    pub fn how(&self) -> String {
        match self.store {
            Some(store) => format!("{} · {store}", self.engine),
            None => self.engine.to_string(),
        }
    }
}

/// The repetitions of one configuration, reduced.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub config: Config,
    pub rows: u64,
    pub cols: u64,
    pub reps: usize,
    /// `seconds_total`: median, minimum, maximum.
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// Any repetition ran on a host with more ranks than cores (the runs' own record).
    pub oversubscribed: bool,
    /// The rows, for whatever else a table or plot reduces.
    pub runs: Vec<Row>,
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
            let seconds: Vec<f64> = runs.iter().map(|r| r.seconds_total).collect();
            Summary {
                rows: runs[0].rows,
                cols: runs[0].cols,
                reps: runs.len(),
                median: median(seconds.clone()),
                min: seconds.iter().copied().fold(f64::INFINITY, f64::min),
                max: seconds.iter().copied().fold(0.0, f64::max),
                oversubscribed: runs.iter().any(|r| r.oversubscribed),
                config,
                runs,
            }
        })
        .collect()
}

/// What a result set mixes that a comparison should not: more than one commit, machine (CPU
/// and hosts), launcher or MPI library. One warning line per mix.
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
                "the runs mix {} {what}s: {}",
                distinct.len(),
                distinct.join("; ")
            ));
        }
    };
    check("commit", rows.iter().map(|r| r.commit.clone()).collect());
    check(
        "machine",
        rows.iter()
            .map(|r| format!("{} ({})", r.hosts, r.cpu))
            .collect(),
    );
    let solved = rows.iter().filter(|r| r.engine != EngineKind::Reference);
    check(
        "launcher",
        solved.clone().map(|r| r.launcher.clone()).collect(),
    );
    check(
        "MPI librarie",
        solved.map(|r| r.mpi_library.clone()).collect(),
    );
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
        assert_eq!((s[0].median, s[0].min, s[0].max), (2.0, 1.0, 3.0));
        assert_eq!(s[0].config.how(), "diagonal · dense");
        assert!(mixtures(&rows).is_empty());
        let mixed = [run("a", 1, 1.0, "c1"), run("a", 1, 1.0, "c2")];
        let warnings = mixtures(&mixed);
        assert_eq!(warnings, ["the runs mix 2 commits: c1; c2"]);
    }
}
