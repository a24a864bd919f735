//! `import mpi_lcs`: the edit distance with its alignment, the longest common subsequence, many
//! pairs at once and approximate search, from Python, in one process: the kernels of mpi-lcs's
//! pure crate (`lcs-core`), no MPI, the GIL released while they work.
//!
//! - [`align`](mod@align) — `align`, `distance`, `lcs_length`: one pair;
//! - [`engine`] — which engine aligns a pair (`auto`, `wave`, `bands`);
//! - [`cdist`](mod@cdist) — every pair of two sets, as a NumPy matrix;
//! - [`search`](mod@search) — every match of each pattern within `k` edits;
//! - [`seqs`] — Python's sequences (bytes-like or `str`) as the kernels' bytes;
//! - [`reference`](mod@reference) — the crate's plain DPs, for the tests (`mpi_lcs._reference`);
//! - [`work`] — running the work off the GIL, interruptibly, on `workers` threads.
//!
//! The API follows edlib's and rapidfuzz's names and meanings where they fit
//! (`docs/python.md`).

use pyo3::prelude::*;

pub mod align;
pub mod cdist;
pub mod engine;
pub mod reference;
pub mod search;
pub mod seqs;
pub mod work;

/// The edit distance with its alignment, the longest common subsequence, many pairs at once
/// and approximate search: mpi-lcs's kernels in one process, no MPI, the GIL released while
/// they work.
///
/// align(a, b, problem, engine, task) -> Alignment; distance(a, b, score_cutoff);
/// lcs_length(a, b); cdist(queries, choices, problem, score_cutoff, workers, dtype) -> NumPy
/// matrix; search(patterns, text, k, workers) -> [Match]. Sequences are bytes-like (compared
/// by byte) or str (by code point).
#[pymodule]
fn mpi_lcs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(align::align, m)?)?;
    m.add_function(wrap_pyfunction!(align::distance, m)?)?;
    m.add_function(wrap_pyfunction!(align::lcs_length, m)?)?;
    m.add_function(wrap_pyfunction!(cdist::cdist, m)?)?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_class::<align::Alignment>()?;
    m.add("Match", search::match_type(m.py())?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MOST_SYMBOLS", seqs::MOST_SYMBOLS)?;
    m.add_submodule(&reference::module(m.py())?)?;
    Ok(())
}
