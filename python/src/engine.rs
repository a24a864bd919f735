//! Which engine aligns a pair: `bands`, `wave`, or `auto`, the one the cost model of
//! `mpi-lcs solve --engine auto` prefers for one rank, from an estimate of the cost made on
//! samples of the pair. A wave run that `auto` chose gives way to the bands engine past its
//! cut-off (a pair the samples misjudged), as the CLI's does; the path is the same whichever
//! engine finds it.
//!
//! Cost: the estimate's samples; then the engine's.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::work;
use lcs_core::bands;
use lcs_core::cost::{self, Ranks};
use lcs_core::diagonal_band::BandChoice;
use lcs_core::problem::{Path, Problem};
use lcs_core::wave::{self, bound, compare::Compare};

/// An `engine` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Auto,
    Wave,
    Bands,
}

impl Engine {
    pub fn of(name: &str) -> PyResult<Engine> {
        match name {
            "auto" => Ok(Engine::Auto),
            "wave" => Ok(Engine::Wave),
            "bands" => Ok(Engine::Bands),
            other => Err(PyValueError::new_err(format!(
                "engine must be \"auto\", \"wave\" or \"bands\", not {other:?}"
            ))),
        }
    }
}

/// The path of `x` (the rows, `x.len() <= y.len()`) and `y` by `engine`, and the name of the
/// engine that found it; or, where the engine would need more than the machine's free memory,
/// what it would need.
pub fn path(
    problem: Problem,
    engine: Engine,
    x: &[u8],
    y: &[u8],
) -> Result<(Path, &'static str), u64> {
    let cut_off = match engine {
        Engine::Bands => return Ok((by_bands(problem, x, y)?, "bands")),
        Engine::Wave => None,
        Engine::Auto => {
            let (m, n) = (x.len(), y.len());
            let batch = bands::DEFAULT_BATCH;
            let estimate = bound::estimate(problem, x, y);
            let wave_seconds = cost::wave_seconds(problem, m, n, estimate, Ranks::one());
            let bands_seconds = cost::banded_seconds(problem, m, n, estimate, Ranks::one(), batch);
            if wave_seconds >= bands_seconds {
                return Ok((by_bands(problem, x, y)?, "bands"));
            }
            cost::wave_cut_off(problem, (m, n), estimate, Ranks::one(), batch)
        }
    };
    // The bound the run keeps within, found once: with a cut-off, no more than it.
    let bound = bound::for_run(problem, (x, y), cut_off);
    let bytes = wave::align::memory_bytes(problem, x.len(), y.len(), bound);
    match (fits(bytes), engine) {
        (Err(need), Engine::Wave) => return Err(need),
        (Err(_), _) => return Ok((by_bands(problem, x, y)?, "bands")),
        _ => {}
    }
    let compare = Compare::detected();
    match wave::align::align_until(problem, compare, (x, y), (bound, cut_off)) {
        Some(aligned) => Ok((aligned.path, "wave")),
        None => Ok((by_bands(problem, x, y)?, "bands")),
    }
}

/// The bands engine on one rank, its band found as `--band auto` finds it, what it keeps for
/// the walk chosen within the machine's free memory.
fn by_bands(problem: Problem, x: &[u8], y: &[u8]) -> Result<Path, u64> {
    match bands::align(problem, x, y, BandChoice::Auto, work::available_bytes()) {
        Ok(aligned) => Ok(aligned.path.expect("an automatic band proves itself")),
        Err(no_fit) => Err(no_fit.needed),
    }
}

/// `Err(bytes)` when `bytes` are more than the machine's free memory.
fn fits(bytes: u64) -> Result<(), u64> {
    work::fits(bytes).map_err(|_| bytes)
}
