//! `align`, `distance` and `lcs_length`: one pair, in one process.
//!
//! `align` finds the CLI's alignment: the path every engine of `mpi-lcs solve` finds, move for
//! move, so the CIGAR is the CLI's string for the same two sequences (the first is the query,
//! the second the target). The engines are the CLI's one-rank engines from the core crate:
//! `bands` (the bit-parallel rows in a diagonal band that widens until it proves itself),
//! `wave` (diagonal transition, whose work follows the distance) and `auto`, which takes one
//! of them by the same cost model as `solve --engine auto` ([`engine`]). `task="distance"`
//! skips the path: the bit-parallel rows alone, in `O(n / 64)` memory, in diagonal bands that
//! widen until one proves itself (a near-identical pair costs a band, not the matrix).
//!
//! `distance` and `lcs_length` are rapidfuzz's `Levenshtein.distance` and
//! `LCSseq.similarity`, with its `score_cutoff` rule for the distance.
//!
//! Cost: the engine's (`docs/algorithms.md`); the distance alone `m * ceil(n / 64)` word steps
//! at most, a band of them under a cut-off, or bands doubling to about `2 D` diagonals.

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;

use crate::engine::{self, Engine};
use crate::seqs::{self, Coding, Seqs};
use crate::work;
use lcs_core::alignment::Alignment as Cigar;
use lcs_core::pairs::rows;
use lcs_core::problem::Problem;

/// An alignment of two sequences, as `align` returns it: `problem`, `distance` (the edit
/// distance, or for the LCS the indel distance), `lcs_length` and `lcs` (for the LCS), `cigar`
/// (SAM-style, the CLI's string), `engine` and `view` (three lines, for sequences of at most
/// 300). `str()` gives the view.
#[pyclass(frozen, module = "mpi_lcs", name = "Alignment")]
pub struct Alignment {
    /// `"edit"` or `"lcs"`.
    #[pyo3(get)]
    problem: &'static str,
    /// The edit distance; for the LCS, the indel distance (`len(a) + len(b) - 2 * lcs_length`).
    #[pyo3(get)]
    distance: usize,
    /// The LCS's length (`None` for the edit distance).
    #[pyo3(get)]
    lcs_length: Option<usize>,
    /// The LCS itself, of the sequences' type (`None` for the edit distance, or
    /// `task="distance"`).
    lcs: Option<Subsequence>,
    /// The SAM-style CIGAR (`=`, `X`, `I`, `D`), the CLI's string (`None` for
    /// `task="distance"`).
    #[pyo3(get)]
    cigar: Option<String>,
    /// The engine that found it: `"bands"`, `"wave"`, or `"rows"` for a distance alone.
    #[pyo3(get)]
    engine: &'static str,
    /// The three lines a person reads (`None` for `task="distance"`).
    view: Option<[String; 3]>,
}

/// An LCS as the caller's sequences were: bytes or a string.
enum Subsequence {
    Bytes(Vec<u8>),
    Text(String),
}

#[pymethods]
impl Alignment {
    /// The longest common subsequence (bytes for bytes-like sequences, str for str), or None.
    #[getter]
    fn lcs(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        Ok(match &self.lcs {
            None => None,
            Some(Subsequence::Bytes(b)) => {
                Some(pyo3::types::PyBytes::new(py, b).into_any().unbind())
            }
            Some(Subsequence::Text(s)) => {
                Some(pyo3::types::PyString::new(py, s).into_any().unbind())
            }
        })
    }

    /// The three-line view: the query with `-` for gaps, `|` under a match and `.` under a
    /// substitution, the target with `-` (None for `task="distance"`).
    #[getter]
    fn view(&self) -> Option<String> {
        self.view.as_ref().map(|lines| lines.join("\n"))
    }

    fn __str__(&self) -> String {
        match &self.view {
            Some(lines) => lines.join("\n"),
            None => self.__repr__(),
        }
    }

    fn __repr__(&self) -> String {
        let cigar = match &self.cigar {
            Some(c) if c.len() > 60 => format!("'{}...' ({} characters)", &c[..50], c.len()),
            Some(c) => format!("'{c}'"),
            None => "None".into(),
        };
        format!(
            "Alignment(problem='{}', distance={}, lcs_length={}, cigar={cigar}, engine='{}')",
            self.problem,
            self.distance,
            self.lcs_length
                .map_or_else(|| "None".into(), |l| l.to_string()),
            self.engine
        )
    }
}

/// The problem named by `problem`.
pub fn problem_of(problem: &str) -> PyResult<Problem> {
    match problem {
        "edit" => Ok(Problem::Edit),
        "lcs" => Ok(Problem::Lcs),
        other => Err(PyValueError::new_err(format!(
            "problem must be \"edit\" or \"lcs\", not {other:?}"
        ))),
    }
}

fn problem_name(problem: Problem) -> &'static str {
    match problem {
        Problem::Edit => "edit",
        Problem::Lcs => "lcs",
    }
}

/// The two sequences of a pair call, coded together.
fn pair(a: Bound<'_, PyAny>, b: Bound<'_, PyAny>) -> PyResult<Seqs> {
    seqs::seqs(&[("a".into(), a), ("b".into(), b)])
}

/// Aligns `a` (the query) and `b` (the target) as `mpi-lcs solve` does: the same path, so the
/// same CIGAR string.
///
/// a, b: bytes-like (bytes, bytearray, memoryview, NumPy uint8) or both str (by code point).
/// problem: "edit" (the edit distance and an optimal alignment) or "lcs" (the longest common
///     subsequence).
/// engine: "bands" (bit-parallel rows in a diagonal band), "wave" (diagonal transition, for
///     similar sequences) or "auto" (the one the cost model says is faster for this pair).
/// task: "path" (the alignment) or "distance" (the value alone, in O(n / 64) memory).
///
/// Returns an Alignment: distance, lcs_length, lcs, cigar ('=', 'X', 'I', 'D'), engine,
/// view; printing it shows the three-line view.
///
/// >>> mpi_lcs.align(b"kitten", b"sitting").cigar
/// '1X3=1X1=1D'
#[pyfunction]
#[pyo3(signature = (a, b, problem = "edit", engine = "auto", task = "path"))]
pub fn align(
    py: Python<'_>,
    a: Bound<'_, PyAny>,
    b: Bound<'_, PyAny>,
    problem: &str,
    engine: &str,
    task: &str,
) -> PyResult<Alignment> {
    let problem = problem_of(problem)?;
    let engine = Engine::of(engine)?;
    let path = match task {
        "path" => true,
        "distance" => false,
        other => {
            return Err(PyValueError::new_err(format!(
                "task must be \"path\" or \"distance\", not {other:?}"
            )))
        }
    };
    let seqs = pair(a, b)?;
    let Seqs { mut items, coding } = seqs;
    let (b, a) = (items.pop().expect("two"), items.pop().expect("two"));
    let (m, n) = (a.len().min(b.len()) as u64, a.len().max(b.len()) as u64);
    let inline = m * n < work::INLINE_WORK;
    if !path {
        let value = work::run(py, inline, move |_| {
            rows::value_by_doubling(problem, &a, &b).0
        })?;
        let value = value as usize;
        let (distance, lcs_length) = match problem {
            Problem::Edit => (value, None),
            Problem::Lcs => ((m + n) as usize - 2 * value, Some(value)),
        };
        return Ok(Alignment {
            problem: problem_name(problem),
            distance,
            lcs_length,
            lcs: None,
            cigar: None,
            engine: "rows",
            view: None,
        });
    }
    let found = work::run(py, inline, move |_| {
        let swapped = a.len() > b.len();
        let (x, y) = if swapped { (&b, &a) } else { (&a, &b) };
        let (path, name) = engine::path(problem, engine, x, y)?;
        let cigar = Cigar::of_path(&path, swapped);
        let lcs = (problem == Problem::Lcs).then(|| path.matched(x));
        let view = (a.len().max(b.len()) <= VIEW_MAX_LEN).then_some(());
        Ok::<_, u64>((cigar, lcs, name, view.map(|_| (a, b))))
    })?;
    let (cigar, lcs, name, shown) = found.map_err(|need| {
        PyMemoryError::new_err(format!(
            "the alignment needs about {} MiB, more than the machine has free",
            need >> 20
        ))
    })?;
    let view = shown.map(|(a, b)| three_lines(&cigar, (&a, &b), coding.as_ref()));
    let distance = cigar.edits();
    Ok(Alignment {
        problem: problem_name(problem),
        distance,
        lcs_length: lcs.as_ref().map(Vec::len),
        lcs: lcs.map(|l| match &coding {
            Some(c) => Subsequence::Text(c.decode(&l)),
            None => Subsequence::Bytes(l),
        }),
        cigar: Some(cigar.cigar()),
        engine: name,
        view,
    })
}

/// Longest sequence whose alignment keeps its three-line view (the CLI's summary's limit).
pub const VIEW_MAX_LEN: usize = 300;

/// The CLI's three-line view, its characters the caller's: a string's code points, or the
/// bytes as the CLI shows them.
fn three_lines(cigar: &Cigar, (a, b): (&[u8], &[u8]), coding: Option<&Coding>) -> [String; 3] {
    match coding {
        None => cigar.three_lines(a, b),
        Some(coding) => cigar.three_lines_shown(a, b, |c| coding.shown(c)),
    }
}

/// The edit (Levenshtein) distance of `a` and `b`, rapidfuzz's `Levenshtein.distance`.
///
/// With `score_cutoff` k, a distance above k is returned as k + 1 (rapidfuzz's rule), and only
/// the diagonal band a path within k can use is computed.
///
/// >>> mpi_lcs.distance("café", "cafe")
/// 1
#[pyfunction]
#[pyo3(signature = (a, b, score_cutoff = None))]
pub fn distance(
    py: Python<'_>,
    a: Bound<'_, PyAny>,
    b: Bound<'_, PyAny>,
    score_cutoff: Option<i64>,
) -> PyResult<u32> {
    let bound = cutoff(score_cutoff, "score_cutoff")?;
    value(py, Problem::Edit, bound, pair(a, b)?)
}

/// The length of the longest common subsequence of `a` and `b`, rapidfuzz's
/// `LCSseq.similarity`.
///
/// >>> mpi_lcs.lcs_length(b"AGGTAB", b"GXTXAYB")
/// 4
#[pyfunction]
pub fn lcs_length(py: Python<'_>, a: Bound<'_, PyAny>, b: Bound<'_, PyAny>) -> PyResult<u32> {
    value(py, Problem::Lcs, None, pair(a, b)?)
}

/// A pair's value by the bit-parallel rows: in the band of `bound`, or with none in bands that
/// widen until one proves itself.
fn value(py: Python<'_>, problem: Problem, bound: Option<usize>, seqs: Seqs) -> PyResult<u32> {
    let Seqs { mut items, .. } = seqs;
    let (b, a) = (items.pop().expect("two"), items.pop().expect("two"));
    let inline = (a.len() as u64) * (b.len() as u64) < work::INLINE_WORK;
    work::run(py, inline, move |_| match bound {
        Some(_) => rows::value(problem, bound, &a, &b).0,
        None => rows::value_by_doubling(problem, &a, &b).0,
    })
}

/// A `score_cutoff` as a bound: `None`, or a number of at least 0.
pub fn cutoff(value: Option<i64>, name: &str) -> PyResult<Option<usize>> {
    match value {
        None => Ok(None),
        Some(v) if v >= 0 => Ok(Some(v as usize)),
        Some(v) => Err(PyValueError::new_err(format!(
            "{name} must be at least 0 (or None), not {v}"
        ))),
    }
}
