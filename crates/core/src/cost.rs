//! What the bands and wave engines should take, in closed form, from a pair's shape and its
//! final cost: the model behind `--engine auto`'s choice between them (the MPI program's and
//! the Python package's alike) and the cut-off at which a wave run gives way. For `P` ranks,
//! `b = ceil(m / B)` batches of `B` rows and `w_0` the widest band's words:
//!
//! ```text
//! T_bands    = (b + p - 1) * (min(B, m) * w_0 * c_word + c_batch(p))
//! ```
//!
//! On similar pairs, for a final cost `s`: the bands engine's diagonal band, `W_band(s)` words
//! whose rows the ranks take in turn, and the wave engine's `D(s)` diagonal steps (about
//! `s^2 / 2`), shared among the ranks, one message each way per step:
//!
//! ```text
//! T_banded = W_band(s) * c_word
//! T_wave   = D(s) * c_diagonal / P + (m + n) * c_slide + s * c_wave_step(P)
//! ```
//!
//! The unit costs are the constants below, calibrated on `scripts/bench`'s runs (where each
//! comes from: `docs/performance.md`); reading and broadcasting the input are left out. Right
//! within a small factor, which is all their uses need. O(1), but O(s) for `D(s)`. The model:
//! `docs/algorithms.md#the-cost-model`.

use crate::bands::BandPlan;
use crate::diagonal_band::{Band, WHOLE_SHARE};
use crate::problem::Problem;
use crate::wave::front::Reach;

/// Seconds per 64-bit word of the bands engine, fill and traceback.
const WORD: f64 = 1.5e-9;
/// Seconds per batch of the bands engine on more than one rank: a message per band edge.
const BATCH: f64 = 10e-6;

/// Seconds the bands engine should take on an `m x n` matrix (`m <= n`) on `ranks` ranks with
/// `batch` rows per batch.
pub fn bands_seconds(m: usize, n: usize, ranks: usize, batch: usize) -> f64 {
    let plan = BandPlan::new(m, n, ranks, batch);
    let (p, batches) = (plan.active_ranks(), plan.batches());
    if batches == 0 {
        return 0.0;
    }
    let message = if p > 1 { BATCH } else { 0.0 };
    let per_batch = batch.min(m) as f64 * plan.words(0).len() as f64 * WORD + message;
    (batches + p - 1) as f64 * per_batch
}

/// Seconds per diagonal step of the wave engine (computing it and slid a little), and per
/// byte slid along the matches.
const DIAGONAL: f64 = 1.7e-9;
const SLID: f64 = 0.1e-9;
/// Seconds per score step of the wave engine on more than one rank: a message each way.
const WAVE_STEP: f64 = 2e-6;
/// The edit distance's word step against the LCS's.
const EDIT_WORD: f64 = 1.5;

/// Seconds the wave engine should take on an `m x n` matrix (`m <= n`) of final cost `cost`
/// on `ranks` ranks: every step's diagonals within the cost's bound, shared among the ranks.
pub fn wave_seconds(problem: Problem, m: usize, n: usize, cost: usize, ranks: usize) -> f64 {
    let diagonals = diagonal_steps(Reach::new(problem, m, n, cost), cost);
    let messages = if ranks > 1 {
        cost as f64 * WAVE_STEP
    } else {
        0.0
    };
    diagonals * DIAGONAL / ranks as f64 + (m + n) as f64 * SLID + messages
}

/// Steps whose counts [`diagonal_steps`] adds one by one; beyond, it samples them.
const EXACT_STEPS: usize = 4096;

/// The diagonal steps of `reach` up to step `cost` ([`Reach::total`]): added one by one up to
/// [`EXACT_STEPS`] steps, beyond by the midpoint rule over as many stretches, exact where a
/// step's count is linear (it is piecewise linear in the step, with a few corners), so that a
/// look costs the same at any cost (the cut-off looks many times).
fn diagonal_steps(reach: Reach, cost: usize) -> f64 {
    let steps = cost + 1;
    if steps <= EXACT_STEPS {
        return reach.total(cost) as f64;
    }
    (0..EXACT_STEPS)
        .map(|k| {
            let (lo, hi) = (k * steps / EXACT_STEPS, (k + 1) * steps / EXACT_STEPS);
            reach.count((lo + hi - 1) / 2) as f64 * (hi - lo) as f64
        })
        .sum()
}

/// Seconds the bands engine should take on an `m x n` matrix (`m <= n`) of final cost `cost`
/// with `--band auto`: the diagonal band that cost proves, its rows taken in turn whatever the
/// ranks; or, past half the matrix, the whole matrix ([`bands_seconds`]).
pub fn banded_seconds(
    problem: Problem,
    m: usize,
    n: usize,
    cost: usize,
    ranks: usize,
    batch: usize,
) -> f64 {
    let margin = match problem {
        Problem::Edit => cost.saturating_sub(n - m).div_ceil(2),
        Problem::Lcs => cost.saturating_sub(n - m).div_ceil(2),
    };
    let band = Band::new(m, n, Some(margin));
    let whole = Band::whole(m, n);
    let per_word = match problem {
        Problem::Edit => WORD * EDIT_WORD,
        Problem::Lcs => WORD,
    };
    if band.total_words() as f64 >= WHOLE_SHARE * whole.total_words() as f64 {
        return bands_seconds(m, n, ranks, batch) * per_word / WORD;
    }
    band.total_words() as f64 * per_word
}

/// The share of the bands engine's modelled seconds a wave run of `--engine auto` may spend
/// before it gives way to the bands engine (see [`wave_cut_off`]).
const GIVE_WAY: f64 = 0.5;

/// Steps beyond twice the estimate before a cut-off: the estimate is a sample's, within a
/// few times the cost on similar pairs.
const CUT_OFF_SLACK: usize = 64;

/// The score step past which a wave run that `--engine auto` chose for an `m x n` pair of
/// estimated cost `estimate` gives way to the bands engine, or `None` where it never need:
/// the first step at which the wave engine's modelled seconds reach `GIVE_WAY` (half) of the bands
/// engine's for that cost, and not before twice the estimate. A pair the samples misjudged
/// (similar only where they were taken) then costs at most that share more than the bands
/// engine would have alone; one whose cost the estimate saw does not pass it.
pub fn wave_cut_off(
    problem: Problem,
    (m, n): (usize, usize),
    estimate: usize,
    ranks: usize,
    batch: usize,
) -> Option<usize> {
    let trivial = crate::wave::front::trivial_bound(problem, m, n);
    let past = |t: usize| {
        wave_seconds(problem, m, n, t, ranks)
            >= GIVE_WAY * banded_seconds(problem, m, n, t, ranks, batch)
    };
    let floor = estimate.saturating_mul(2).saturating_add(CUT_OFF_SLACK);
    if floor >= trivial {
        return None;
    }
    // The wave's seconds grow as the square of the cost, the bands engine's at most linearly:
    // once past, past for good. Doubling, then halving the gap to a 32nd of the step: the
    // model is right within a small factor, and each look costs O(t).
    let (mut below, mut at) = (floor, floor);
    while !past(at) {
        if at >= trivial {
            return None;
        }
        below = at;
        at = at.saturating_mul(2).min(trivial);
    }
    if at == floor {
        return Some(floor);
    }
    while (at - below) * 32 > at {
        let mid = below + (at - below) / 2;
        match past(mid) {
            true => at = mid,
            false => below = mid,
        }
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cut-off: past twice the estimate, where the wave's modelled time reaches half the
    /// bands engine's; none on a pair too small to need one.
    #[test]
    fn an_auto_wave_run_gives_way_where_half_the_bands_time_is_spent() {
        let (m, n) = (100_000, 100_000);
        for problem in [Problem::Edit, Problem::Lcs] {
            let t = wave_cut_off(problem, (m, n), 0, 1, 256).expect("a cut-off");
            let half = |t| GIVE_WAY * banded_seconds(problem, m, n, t, 1, 256);
            assert!(
                wave_seconds(problem, m, n, t, 1) >= half(t),
                "{problem:?} {t}"
            );
            let before = t - t / 32;
            assert!(
                wave_seconds(problem, m, n, before, 1) < half(before),
                "{problem:?} {t}"
            );
            // About a thousand steps on 10^5: a few milliseconds of a fill.
            assert!((300..5_000).contains(&t), "{problem:?} {t}");
            let later = wave_cut_off(problem, (m, n), 4 * t, 1, 256).unwrap();
            assert_eq!(later, 8 * t + CUT_OFF_SLACK);
        }
        assert_eq!(wave_cut_off(Problem::Edit, (20, 30), 0, 1, 256), None);
    }

    /// The sampled count of diagonal steps is the exact one within a thousandth.
    #[test]
    fn sampled_diagonal_steps_are_near_the_exact_count() {
        for problem in [Problem::Edit, Problem::Lcs] {
            for (m, n, cost) in [
                (100_000, 100_000, 30_000),
                (50_000, 300_000, 280_000),
                (10, 9_000, 9_000),
            ] {
                let reach = Reach::new(problem, m, n, cost);
                let (exact, sampled) = (reach.total(cost) as f64, diagonal_steps(reach, cost));
                assert!(
                    (sampled / exact - 1.0).abs() < 1e-3,
                    "{problem:?} {m} {n}: {sampled} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn the_bands_estimates_are_near_what_the_benches_measured() {
        let near = |estimate: f64, measured: f64| {
            let ratio = estimate / measured;
            assert!(
                (0.5..=2.0).contains(&ratio),
                "{estimate} s for {measured} s"
            );
        };
        near(bands_seconds(50_000, 50_000, 1, 256), 0.0553);
        near(bands_seconds(50_000, 50_000, 2, 256), 0.0413);
        near(bands_seconds(1_000_000, 1_000_000, 2, 256), 10.7183);
        assert_eq!(bands_seconds(0, 5, 2, 256), 0.0);
    }
}
