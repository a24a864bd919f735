//! The crate's plain DPs, for the package's tests (`mpi_lcs._reference`): the cell-by-cell
//! alignment every engine is checked against, and the search's plain semi-global DP. Not part
//! of the API.
//!
//! Cost: `O(m n)` time and bits.

use pyo3::prelude::*;

use crate::align::problem_of;
use crate::seqs;
use lcs_core::alignment::Alignment;
use lcs_core::problem::Problem;
use lcs_core::reference;
use lcs_core::search::alphabet::Alphabet;
use lcs_core::search::oracle;

/// `(value, cigar)` of `a` and `b` by the cell-by-cell recurrence: the edit distance or the LCS
/// length, and the CIGAR of the path every engine takes.
#[pyfunction]
#[pyo3(signature = (a, b, problem = "edit"))]
pub fn align(a: Bound<'_, PyAny>, b: Bound<'_, PyAny>, problem: &str) -> PyResult<(usize, String)> {
    let problem = problem_of(problem)?;
    let s = seqs::seqs(&[("a".into(), a), ("b".into(), b)])?.items;
    let (a, b) = (&s[0][..], &s[1][..]);
    let swapped = a.len() > b.len();
    let (x, y) = if swapped { (b, a) } else { (a, b) };
    let path = reference::align_scalar(problem, x, y);
    let alignment = Alignment::of_path(&path, swapped);
    let value = match problem {
        Problem::Edit => alignment.edits(),
        Problem::Lcs => path.matched(x).len(),
    };
    Ok((value, alignment.cigar()))
}

/// Every `(start, end, distance)` of `pattern` in `text` within `k` edits, by the plain DP
/// (`iupac`: codes match when their bases meet).
#[pyfunction]
#[pyo3(signature = (pattern, text, k, iupac = false))]
pub fn search(
    pattern: Bound<'_, PyAny>,
    text: Bound<'_, PyAny>,
    k: usize,
    iupac: bool,
) -> PyResult<Vec<(usize, usize, usize)>> {
    let s = seqs::seqs(&[("pattern".into(), pattern), ("text".into(), text)])?.items;
    let alphabet = if iupac {
        Alphabet::Iupac
    } else {
        Alphabet::Exact
    };
    Ok(oracle::matches_in(&s[0], &s[1], k, alphabet))
}

/// The `_reference` submodule.
pub fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "_reference")?;
    m.add_function(wrap_pyfunction!(align, &m)?)?;
    m.add_function(wrap_pyfunction!(search, &m)?)?;
    Ok(m)
}
