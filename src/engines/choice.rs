//! `--engine auto`: the bands or the wave engine, whichever the cost model ([`super::cost`])
//! says is faster for this pair, from an estimate of the final cost made on samples of the
//! pair (`lcs_core::wave::bound::estimate`). Every rank makes the same choice from the same
//! broadcast pair, so the choice costs no message; the report says what was chosen and why.
//!
//! Samples can be fooled: a pair similar only where they were taken looks like a cost of 0.
//! So a wave run that `auto` chose carries a cut-off ([`super::cost::wave_cut_off`]): the step
//! where, by the model, it has spent half of what the bands engine would take. A fill that
//! passes it without reaching the end gives way, and the bands engine runs instead; a run whose
//! bound (the cost of an alignment found first, up to the cut-off) is within it cannot pass
//! it, and has none. Under a memory limit `solve` takes the other engine where the chosen one
//! does not fit, and drops the cut-off where the bands engine could not take over.

use serde::Serialize;

use lcs_core::problem::Problem;
use lcs_core::wave::bound;

use super::config::Method;
use super::cost::{self, Ranks};
use crate::input::Pair;

/// What `--engine auto` chose, and why.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EngineChoice {
    /// The estimated final cost: the edit distance, or the LCS's indel distance.
    pub estimate: usize,
    /// The seconds the cost model gives each engine for that cost.
    pub wave_seconds: f64,
    pub bands_seconds: f64,
    /// The seconds the model gives a message between ranks: one host's or a network's (0 on
    /// one rank).
    pub latency_seconds: f64,
    /// `"wave"` or `"bands"`: the engine that gave the answer.
    pub engine: &'static str,
    /// The score step past which the wave run would give way to the bands engine (`None`: a
    /// bands run, a pair too small for one, or a wave run the bands engine could not take over
    /// from under the memory limit). A run whose bound is within it cannot pass it.
    pub cut_off: Option<usize>,
    /// The wave run passed its cut-off without reaching the end: the bands engine gave the
    /// answer, after rank 0 spent `seconds_given_up` on the wave's steps.
    pub gave_way: bool,
    pub seconds_given_up: f64,
    /// The engine the cost model preferred did not fit the memory limit: what it needed per
    /// rank (the other engine was taken).
    pub preferred_needs: Option<u64>,
}

/// The method a run with `method` uses on `pair` over `ranks` ranks (on one host, or on
/// several): `method` itself, or for [`Method::Auto`] the engine the cost model prefers (a wave
/// run with its cut-off), with the choice.
pub fn resolve(
    method: Method,
    problem: Problem,
    pair: &Pair,
    (ranks, several_hosts): (usize, bool),
) -> (Method, Option<EngineChoice>) {
    let Method::Auto { batch, halo, .. } = method else {
        return (method, None);
    };
    let ranks = Ranks::new(ranks, !several_hosts, halo.steps());
    let (m, n) = (pair.x.len(), pair.y.len());
    let estimate = bound::estimate(problem, &pair.x, &pair.y);
    let wave_seconds = cost::wave_seconds(problem, m, n, estimate, ranks);
    let bands_seconds = cost::banded_seconds(problem, m, n, estimate, ranks, batch);
    let (engine, method) = match wave_seconds < bands_seconds {
        true => {
            let cut_off = cost::wave_cut_off(problem, (m, n), estimate, ranks, batch);
            ("wave", Method::Wave { cut_off, halo })
        }
        false => ("bands", bands_of(method)),
    };
    let choice = EngineChoice {
        estimate,
        wave_seconds,
        bands_seconds,
        latency_seconds: ranks.latency,
        engine,
        cut_off: match method {
            Method::Wave { cut_off, .. } => cut_off,
            _ => None,
        },
        gave_way: false,
        seconds_given_up: 0.0,
        preferred_needs: None,
    };
    log::info!("--engine auto: {choice:?}");
    (method, Some(choice))
}

/// What an `--engine auto` run takes under a memory limit, from which of its engines' layouts
/// fit every rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// The chosen engine as it is (refused by the pre-check where it does not fit).
    AsChosen,
    /// The chosen wave run, with the bands engine to give way to beside it.
    WithBands,
    /// The chosen wave run without its cut-off: the bands engine could not take over.
    WithoutCutOff,
    /// The bands engine: the chosen wave run does not fit, the bands engine does.
    Bands,
    /// The wave engine without a cut-off: the chosen bands run does not fit, the wave does.
    Wave,
}

/// [`Fit`] for a run `chosen` by [`resolve`], given whether its layout fits, whether the bands
/// engine's does, and, asked only where it matters, whether the wave engine's does.
pub fn fit(
    chosen: Method,
    chosen_fits: bool,
    bands_fit: bool,
    wave_fits: impl FnOnce() -> bool,
) -> Fit {
    match (chosen, chosen_fits, bands_fit) {
        (
            Method::Wave {
                cut_off: Some(_), ..
            },
            true,
            true,
        ) => Fit::WithBands,
        (Method::Wave { .. }, false, true) => Fit::Bands,
        (
            Method::Wave {
                cut_off: Some(_), ..
            },
            true,
            false,
        ) => Fit::WithoutCutOff,
        (Method::Bands { .. }, false, _) if wave_fits() => Fit::Wave,
        _ => Fit::AsChosen,
    }
}

/// The bands engine with `--engine auto`'s settings (`method` itself otherwise).
pub fn bands_of(method: Method) -> Method {
    match method {
        Method::Auto {
            batch,
            checkpoint,
            band,
            ..
        } => Method::Bands {
            batch,
            checkpoint,
            band,
        },
        other => other,
    }
}

/// The bound a wave run keeps its steps within on `pair`: the cost of an alignment found
/// first by a reduced wavefront (at least the final cost); with a `cut_off`, that bound where
/// it is within the cut-off (the run cannot pass it then), else the cut-off itself, the
/// reduced wavefront stopped there, whose cost then follows the cut-off, not the pair.
pub fn wave_bound(problem: Problem, pair: &Pair, cut_off: Option<usize>) -> usize {
    bound::for_run(problem, (&pair.x, &pair.y), cut_off)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::bands::CheckpointChoice;
    use crate::engines::config::HaloSteps;
    use lcs_core::diagonal_band::BandChoice;

    /// Every case of the memory limit: the engine the model chose where it fits (a wave run
    /// with the bands engine to give way to where that fits too), else the other where that
    /// fits; a wave run without a cut-off where the bands engine cannot take over.
    #[test]
    fn auto_takes_what_fits_the_limit() {
        let halo = HaloSteps::Auto;
        let guarded = Method::Wave {
            cut_off: Some(500),
            halo,
        };
        let bare = Method::Wave {
            cut_off: None,
            halo,
        };
        let bands = Method::Bands {
            batch: 256,
            checkpoint: CheckpointChoice::Auto,
            band: BandChoice::Auto,
        };
        let never = || -> bool { panic!("the wave's fit is not asked here") };
        assert_eq!(fit(guarded, true, true, never), Fit::WithBands);
        assert_eq!(fit(guarded, true, false, never), Fit::WithoutCutOff);
        assert_eq!(fit(guarded, false, true, never), Fit::Bands);
        assert_eq!(fit(guarded, false, false, never), Fit::AsChosen);
        assert_eq!(fit(bare, true, true, never), Fit::AsChosen);
        assert_eq!(fit(bare, false, true, never), Fit::Bands);
        assert_eq!(fit(bands, true, true, never), Fit::AsChosen);
        assert_eq!(fit(bands, false, false, || true), Fit::Wave);
        assert_eq!(fit(bands, false, false, || false), Fit::AsChosen);
    }
}
