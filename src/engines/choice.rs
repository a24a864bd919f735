//! `--engine auto`: the bands or the wave engine, whichever the cost model ([`super::cost`])
//! says is faster for this pair, from an estimate of the final cost made on samples of the
//! pair (`lcs_core::wave::bound::estimate`). Every rank makes the same choice from the same
//! broadcast pair, so the choice costs no message; the report says what was chosen and why.

use serde::Serialize;

use lcs_core::problem::Problem;
use lcs_core::wave::bound;

use super::config::Method;
use super::cost;
use crate::input::Pair;

/// What `--engine auto` chose, and why.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EngineChoice {
    /// The estimated final cost: the edit distance, or the LCS's indel distance.
    pub estimate: usize,
    /// The seconds the cost model gives each engine for that cost.
    pub wave_seconds: f64,
    pub bands_seconds: f64,
    /// `"wave"` or `"bands"`.
    pub engine: &'static str,
}

/// The method a run with `method` uses on `pair` over `ranks` ranks: `method` itself, or for
/// [`Method::Auto`] the engine the cost model prefers, with the choice.
pub fn resolve(
    method: Method,
    problem: Problem,
    pair: &Pair,
    ranks: usize,
) -> (Method, Option<EngineChoice>) {
    let Method::Auto {
        batch,
        checkpoint,
        band,
    } = method
    else {
        return (method, None);
    };
    let (m, n) = (pair.x.len(), pair.y.len());
    let estimate = bound::estimate(problem, &pair.x, &pair.y);
    let wave_seconds = cost::wave_seconds(problem, m, n, estimate, ranks);
    let bands_seconds = cost::banded_seconds(problem, m, n, estimate, ranks, batch);
    let (engine, method) = match wave_seconds < bands_seconds {
        true => ("wave", Method::Wave),
        false => (
            "bands",
            Method::Bands {
                batch,
                checkpoint,
                band,
            },
        ),
    };
    let choice = EngineChoice {
        estimate,
        wave_seconds,
        bands_seconds,
        engine,
    };
    log::info!("--engine auto: {choice:?}");
    (method, Some(choice))
}
