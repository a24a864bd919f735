//! `search`: every place where each pattern occurs in a text with at most `k` edits, as
//! `mpi-lcs search` lists them: one `Match(pattern, start, end, distance)` per end `end`
//! (exclusive, 0-based) where some alignment of the whole pattern against the text ending
//! there costs at most `k`, its start where the CLI's walk puts it, sorted by pattern and end.
//!
//! The kernels are the CLI's (short patterns side by side in the lanes of a vector, a long or
//! lone one with the text in the lanes); `workers` threads take contiguous parts of the text,
//! each from its warm-up of `m + k - 1` bytes, so none loses or doubles a match where the text
//! is cut.
//!
//! Cost: the kernels' work over the text and the warm-ups; the starts' windows.

use std::sync::atomic::AtomicBool;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;

use crate::seqs::{self, Seq};
use crate::work;
use lcs_core::search::alphabet::Alphabet;
use lcs_core::search::lanes::Simd;
use lcs_core::search::searcher;
use lcs_core::search::Match;
use lcs_core::split::Split;

/// Text bytes a thread takes at least: below, another thread's start and warm-up cost more
/// than its share saves.
const LEAST_PART: usize = 1 << 20;

/// The named tuple type of a match, made once.
static MATCH: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

pub fn match_type(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    MATCH
        .get_or_try_init(py, || {
            let namedtuple = py.import("collections")?.getattr("namedtuple")?;
            let fields = ["pattern", "start", "end", "distance"];
            let kind = namedtuple.call1(("Match", fields))?;
            kind.setattr("__module__", "mpi_lcs")?;
            Ok::<_, PyErr>(kind.unbind())
        })
        .map(|t| t.bind(py))
}

/// Every place where a pattern occurs in `text` with at most `k` edits, as `mpi-lcs search`
/// lists them: one Match(pattern, start, end, distance) per end (exclusive, 0-based) where some
/// alignment of the whole pattern ending there costs at most k, sorted by pattern and end.
///
/// patterns: one sequence or an iterable of them (numbered from 0); text: a sequence of the
///     same kind (bytes-like, or str).
/// workers: threads, each taking a part of the text (-1: every core).
/// alphabet: "exact" (a byte matches itself) or "iupac" (nucleotide codes match when their
///     bases meet, in either case: N matches every base, R matches A and G).
///
/// >>> mpi_lcs.search(b"GATTACA", b"TTGATTCATTGATTACAG", 0)
/// [Match(pattern=0, start=10, end=17, distance=0)]
#[pyfunction]
#[pyo3(signature = (patterns, text, k, workers = 1, alphabet = "exact"))]
pub fn search<'py>(
    py: Python<'py>,
    patterns: Bound<'py, PyAny>,
    text: Bound<'py, PyAny>,
    k: i64,
    workers: i64,
    alphabet: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let alphabet = match alphabet {
        "exact" => Alphabet::Exact,
        "iupac" => Alphabet::Iupac,
        other => {
            return Err(PyValueError::new_err(format!(
                "alphabet must be \"exact\" or \"iupac\", not {other:?}"
            )))
        }
    };
    let k = usize::try_from(k)
        .map_err(|_| PyValueError::new_err(format!("k must be at least 0, not {k}")))?;
    let threads = work::threads(workers)?;
    let one = patterns.is_instance_of::<pyo3::types::PyString>()
        || patterns.is_instance_of::<pyo3::types::PyBytes>()
        || patterns.is_instance_of::<pyo3::types::PyByteArray>();
    let mut named = match one {
        true => vec![("patterns".to_string(), patterns)],
        false => seqs::items("patterns", &patterns)?,
    };
    named.push(("text".to_string(), text));
    let mut all = seqs::seqs(&named)?.items;
    let text = all.pop().expect("the text");
    let patterns: Vec<Vec<u8>> = all.iter().map(|p| p.to_vec()).collect();
    check(&patterns, k, text.len())?;
    let work_bytes = text.len() as u64 * patterns.len() as u64 * 16;
    let inline = work_bytes < work::INLINE_WORK;
    let found = work::run(py, inline, move |cancel| {
        find(&patterns, (k, alphabet), &text, threads, cancel)
    })?;
    let kind = match_type(py)?;
    found
        .into_iter()
        .map(|m| {
            kind.call1(PyTuple::new(
                py,
                [m.pattern, m.start as usize, m.end as usize, m.distance],
            )?)
        })
        .collect()
}

/// Refuses what the kernels cannot take, naming the argument.
fn check(patterns: &[Vec<u8>], k: usize, text: usize) -> PyResult<()> {
    if let Some(p) = patterns.iter().position(Vec::is_empty) {
        return Err(PyValueError::new_err(format!(
            "patterns[{p}] is empty: a search needs at least one byte to look for"
        )));
    }
    // A pattern within k of every end matches at every byte: one match a byte.
    let everywhere = patterns.iter().filter(|p| p.len() <= k).count() as u64;
    work::check_memory(everywhere * text as u64 * 120, "the matches")
}

/// The matches, sorted by pattern and end, from `threads` parts of the text.
fn find(
    patterns: &[Vec<u8>],
    (k, alphabet): (usize, Alphabet),
    text: &Seq,
    threads: usize,
    cancel: &AtomicBool,
) -> Vec<Match> {
    let parts = threads.min(text.len() / LEAST_PART).max(1);
    let split = Split::new(text.len(), parts);
    let simd = Simd::detect();
    let mut found: Vec<Match> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..parts)
            .map(|i| {
                let range = split.range(i);
                scope.spawn(move || {
                    searcher::find(patterns, (k, alphabet), text, range, simd, cancel)
                })
            })
            .collect();
        let mut found = searcher::find(patterns, (k, alphabet), text, split.range(0), simd, cancel);
        for h in handles {
            found.extend(h.join().expect("a search thread panicked"));
        }
        found
    });
    found.sort_unstable_by_key(|m| (m.pattern, m.end));
    found
}
