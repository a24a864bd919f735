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
//! over its `m` rows, and the wave engine's `D(s)` diagonal steps (about `s^2 / 2`) in `s`
//! score steps. On `P > 1` ranks both engines share their work, each losing a part of what a
//! rank adds (`L`: a pipeline's turns, the halos computed twice, the slowest rank's share), and
//! each message pays the ranks' latency `l` (one host's shared memory, or a network): the
//! bands engine one per batch, the wave one per exchange, every `h` steps:
//!
//! ```text
//! T_banded = (m * c_row + W_band(s) * c_word) * (1 + L_bands (P - 1)) / P + b * l
//! T_wave   = D(s) * c_diagonal * (1 + L_wave (P - 1)) / P + (m + n) * c_slide
//!            + s * c_step + (s / h) * (l + c_exchange)
//! ```
//!
//! On one rank the terms of `P` vanish. The unit costs are the constants below, calibrated on
//! `scripts/bench`'s runs (where each comes from: `docs/performance.md`); reading and
//! broadcasting the input are left out. Right within a small factor, which is all their uses
//! need. O(1), but O(s) for `D(s)`. The model: `docs/algorithms.md#the-cost-model`.

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

/// Where a run's ranks are, as the model counts them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranks {
    /// How many.
    pub count: usize,
    /// Seconds a message takes from one rank to the next.
    pub latency: f64,
    /// The wave engine's most score steps between two exchanges.
    pub halo_steps: usize,
}

/// Seconds a message takes between ranks on one host (shared memory), and between hosts (a
/// network: TCP on Ethernet).
pub const ONE_HOST_LATENCY: f64 = 1e-6;
pub const NETWORK_LATENCY: f64 = 30e-6;

impl Ranks {
    /// One rank: no message.
    pub fn one() -> Ranks {
        Ranks {
            count: 1,
            latency: 0.0,
            halo_steps: 1,
        }
    }

    /// `count` ranks, on one host or on several, exchanging every `halo_steps` steps at most.
    pub fn new(count: usize, one_host: bool, halo_steps: usize) -> Ranks {
        Ranks {
            count: count.max(1),
            latency: match (count, one_host) {
                (0 | 1, _) => 0.0,
                (_, true) => ONE_HOST_LATENCY,
                (_, false) => NETWORK_LATENCY,
            },
            halo_steps: halo_steps.max(1),
        }
    }

    /// The share of work the busiest of them takes when each loses `loss` of what a rank adds.
    fn share(&self, loss: f64) -> f64 {
        (1.0 + loss * (self.count - 1) as f64) / self.count as f64
    }
}

/// Seconds per diagonal step of the wave engine (computing it and slid a little), per byte
/// slid along the matches, and per score step (its front and its checkpoint).
const DIAGONAL: f64 = 1.7e-9;
const SLID: f64 = 0.1e-9;
const WAVE_STEP: f64 = 3e-6;
/// Seconds per exchange of the wave engine on more than one rank, besides the latency: a
/// message each way, packed and unpacked.
const EXCHANGE: f64 = 5e-6;
/// What each rank past the first adds that the wave engine loses: the cones computed twice,
/// the split's rounding, the wait for the slowest.
const WAVE_LOSS: f64 = 0.24;
/// The edit distance's word step against the LCS's (the whole matrix's bands engine).
const EDIT_WORD: f64 = 1.5;

/// Seconds the wave engine should take on an `m x n` matrix (`m <= n`) of final cost `cost`
/// on `ranks`: every step's diagonals within the cost's bound, shared among the ranks.
pub fn wave_seconds(problem: Problem, m: usize, n: usize, cost: usize, ranks: Ranks) -> f64 {
    let diagonals = diagonal_steps(Reach::new(problem, m, n, cost), cost);
    let steps = (cost + 1) as f64;
    let messages = match ranks.count {
        1 => 0.0,
        _ => (cost / ranks.halo_steps + 1) as f64 * (ranks.latency + EXCHANGE),
    };
    diagonals * DIAGONAL * ranks.share(WAVE_LOSS)
        + (m + n) as f64 * SLID
        + steps * WAVE_STEP
        + messages
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

/// Seconds per row and per 64-bit word of the bands engine in a diagonal band, fill and
/// traceback, for the LCS and for the edit distance (its doubling bands included).
const BAND_ROW_LCS: f64 = 0.12e-6;
const BAND_WORD_LCS: f64 = 0.43e-9;
const BAND_ROW_EDIT: f64 = 0.23e-6;
const BAND_WORD_EDIT: f64 = 0.68e-9;
/// What each rank past the first adds that the bands engine loses in a diagonal band: the
/// pipeline's turns at either end and the rows' uneven words.
const BANDS_LOSS: f64 = 0.42;

/// Seconds the bands engine should take on an `m x n` matrix (`m <= n`) of final cost `cost`
/// with `--band auto` on `ranks`: the diagonal band that cost proves, its rows' words shared
/// among the ranks batch by batch; or, past half the matrix, the whole matrix
/// ([`bands_seconds`]).
pub fn banded_seconds(
    problem: Problem,
    m: usize,
    n: usize,
    cost: usize,
    ranks: Ranks,
    batch: usize,
) -> f64 {
    let margin = cost.saturating_sub(n - m).div_ceil(2);
    let band = Band::new(m, n, Some(margin));
    let whole = Band::whole(m, n);
    if band.total_words() as f64 >= WHOLE_SHARE * whole.total_words() as f64 {
        let per_word = match problem {
            Problem::Edit => EDIT_WORD,
            Problem::Lcs => 1.0,
        };
        return bands_seconds(m, n, ranks.count, batch) * per_word;
    }
    let (row, word) = match problem {
        Problem::Edit => (BAND_ROW_EDIT, BAND_WORD_EDIT),
        Problem::Lcs => (BAND_ROW_LCS, BAND_WORD_LCS),
    };
    let alone = m as f64 * row + band.total_words() as f64 * word;
    let messages = match ranks.count {
        1 => 0.0,
        _ => m.div_ceil(batch.max(1)) as f64 * ranks.latency,
    };
    alone * ranks.share(BANDS_LOSS) + messages
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
    ranks: Ranks,
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
        let one = Ranks::one();
        for problem in [Problem::Edit, Problem::Lcs] {
            let t = wave_cut_off(problem, (m, n), 0, one, 256).expect("a cut-off");
            let half = |t| GIVE_WAY * banded_seconds(problem, m, n, t, one, 256);
            assert!(
                wave_seconds(problem, m, n, t, one) >= half(t),
                "{problem:?} {t}"
            );
            let before = t - t / 32;
            assert!(
                wave_seconds(problem, m, n, before, one) < half(before),
                "{problem:?} {t}"
            );
            // About a thousand steps on 10^5: a few milliseconds of a fill.
            assert!((300..5_000).contains(&t), "{problem:?} {t}");
            let later = wave_cut_off(problem, (m, n), 4 * t, one, 256).unwrap();
            assert_eq!(later, 8 * t + CUT_OFF_SLACK);
        }
        assert_eq!(wave_cut_off(Problem::Edit, (20, 30), 0, one, 256), None);
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

    /// The 10^6 pairs with 1%, 5% and 10% of edits (their final costs), both problems, on one
    /// rank and on two of one host: each engine's model within a factor of two of the
    /// seconds measured (`scripts/bench --auto`, medians of two runs of 3 on 2 cores), and the
    /// faster engine the faster by the model at each count of ranks.
    #[test]
    fn both_engines_models_follow_the_ranks_as_measured() {
        // (m, n, problem, cost, [bands P = 1, P = 2, wave P = 1, P = 2] measured).
        let runs = [
            (
                1_000_000,
                1_000_183,
                Problem::Edit,
                10_153,
                [0.32, 0.26, 0.14, 0.09],
            ),
            (
                1_000_000,
                1_000_183,
                Problem::Lcs,
                13_571,
                [0.225, 0.21, 0.125, 0.09],
            ),
            (
                999_872,
                1_000_000,
                Problem::Edit,
                48_953,
                [0.72, 0.55, 2.03, 1.21],
            ),
            (
                999_872,
                1_000_000,
                Problem::Lcs,
                65_508,
                [0.55, 0.42, 1.86, 1.16],
            ),
            (
                999_542,
                1_000_000,
                Problem::Edit,
                95_407,
                [1.19, 0.77, 7.5, 4.44],
            ),
            (
                999_542,
                1_000_000,
                Problem::Lcs,
                128_044,
                [0.90, 0.62, 6.84, 4.09],
            ),
        ];
        for (m, n, problem, cost, measured) in runs {
            for (p, ranks) in [(0, Ranks::one()), (1, Ranks::new(2, true, 64))] {
                let bands = banded_seconds(problem, m, n, cost, ranks, 256);
                let wave = wave_seconds(problem, m, n, cost, ranks);
                let what = format!("{problem:?} {cost} P = {}", p + 1);
                for (model, seconds) in [(bands, measured[p]), (wave, measured[2 + p])] {
                    let ratio = model / seconds;
                    assert!(
                        (0.5..=2.0).contains(&ratio),
                        "{what}: {model} s for {seconds} s"
                    );
                }
                assert_eq!(
                    wave < bands,
                    measured[2 + p] < measured[p],
                    "{what}: wave {wave} s, bands {bands} s"
                );
            }
        }
    }

    /// Ranks across hosts pay a network's latency a message: the wave engine's exchanges every
    /// `h` steps, the bands engine's every batch; one rank pays none.
    #[test]
    fn messages_across_hosts_cost_the_network_s_latency() {
        let (m, n, cost) = (1_000_000, 1_000_000, 10_000);
        let here = Ranks::new(2, true, 64);
        let apart = Ranks::new(2, false, 64);
        assert_eq!(Ranks::new(1, false, 64).latency, 0.0);
        let wave = wave_seconds(Problem::Edit, m, n, cost, apart)
            - wave_seconds(Problem::Edit, m, n, cost, here);
        let exchanges = (cost / 64 + 1) as f64;
        assert!((wave - exchanges * (NETWORK_LATENCY - ONE_HOST_LATENCY)).abs() < 1e-9);
        let bands = banded_seconds(Problem::Edit, m, n, cost, apart, 256)
            - banded_seconds(Problem::Edit, m, n, cost, here, 256);
        let batches = m.div_ceil(256) as f64;
        assert!((bands - batches * (NETWORK_LATENCY - ONE_HOST_LATENCY)).abs() < 1e-9);
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
