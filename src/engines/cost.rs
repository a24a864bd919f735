//! What a run should take, in closed form, on either engine: enough to tell a user before the
//! fill that the other engine would take a small fraction of the time on this input's shape.
//!
//! ```text
//! T_diagonal = C_0 * c_cell + (m + n - 1) * c_step(P)
//! T_bands    = (b + p - 1) * (min(B, m) * w_0 * c_word + c_batch(p))
//! ```
//!
//! with `C_0` the busiest rank's cells, `b = ceil(m / B)` batches and `w_0` the widest band's
//! words. On similar pairs, for a final cost `s`: the bands engine's diagonal band, `W_band(s)`
//! words whose rows the ranks take in turn, and the wave engine's `D(s)` diagonal steps (about
//! `s^2 / 2`), shared among the ranks, one message each way per step:
//!
//! ```text
//! T_banded = W_band(s) * c_word
//! T_wave   = D(s) * c_diagonal / P + (m + n) * c_slide + s * c_wave_step(P)
//! ```
//!
//! The unit costs are the constants below, calibrated on `scripts/bench`'s runs (where each
//! comes from: `docs/performance.md`); reading and broadcasting the input are left out. Right
//! within a small factor, which is all their uses need: a note when one engine should take ten
//! times as long as the other, and `--engine auto`'s choice between the bands and wave engines.
//! O(1), but O(s) for `D(s)`. The model: `docs/algorithms.md#the-cost-model`. The diagonal
//! engine's part is here; the bands and wave engines' is in [`lcs_core::cost`], which the
//! Python package's `auto` uses as well.

pub use lcs_core::cost::{banded_seconds, bands_seconds, wave_cut_off, wave_seconds, Ranks};

use super::diagonal::schedule::Schedule;
use super::diagonal::store::StoreKind;

/// Seconds per cell of the diagonal engine with the dense store.
const DENSE_CELL: f64 = 0.35e-9;
/// Seconds per cell of the diagonal engine with the hash store.
const HASH_CELL: f64 = 20e-9;
/// Seconds per diagonal of the diagonal engine on one rank.
const LONE_STEP: f64 = 0.3e-6;
/// Seconds per diagonal of the diagonal engine on more than one rank: a synchronisation.
const SYNC_STEP: f64 = 1e-6;

/// Seconds the diagonal engine should take on an `m x n` matrix (`m <= n`) on `ranks` ranks
/// with `store`.
pub fn diagonal_seconds(m: usize, n: usize, ranks: usize, store: StoreKind) -> f64 {
    let schedule = Schedule::new(m, n, ranks);
    let cell = match store {
        StoreKind::Dense => DENSE_CELL,
        StoreKind::Hash => HASH_CELL,
    };
    let step = if ranks > 1 { SYNC_STEP } else { LONE_STEP };
    schedule.busiest_cells() as f64 * cell + schedule.diagonals() as f64 * step
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs the unit costs come from, and the report of a long thin input, are estimated
    /// within a factor of two of what they measured.
    #[test]
    fn estimates_are_near_what_the_benches_measured() {
        let near = |estimate: f64, measured: f64| {
            let ratio = estimate / measured;
            assert!(
                (0.5..=2.0).contains(&ratio),
                "{estimate} s for {measured} s"
            );
        };
        let dense = StoreKind::Dense;
        near(diagonal_seconds(10_000, 10_000, 1, dense), 0.0373);
        near(diagonal_seconds(10_000, 10_000, 2, dense), 0.0301);
        near(diagonal_seconds(50_000, 50_000, 1, dense), 0.7940);
        near(diagonal_seconds(50_000, 50_000, 2, dense), 0.6037);
        near(diagonal_seconds(10_000, 10_000, 1, StoreKind::Hash), 2.1897);
        near(diagonal_seconds(64, 10_000_000, 1, dense), 3.3);
        near(diagonal_seconds(64, 10_000_000, 2, dense), 8.4);
    }

    #[test]
    fn a_long_thin_input_is_the_bands_engines() {
        let (diagonal, bands) = (
            diagonal_seconds(64, 200_000_000, 2, StoreKind::Dense),
            bands_seconds(64, 200_000_000, 2, 256),
        );
        // About three minutes, as reported, against well under the two seconds measured.
        assert!((120.0..300.0).contains(&diagonal), "{diagonal}");
        assert!(bands < 1.0, "{bands}");
        assert_eq!(bands_seconds(0, 5, 2, 256), 0.0);
        assert_eq!(diagonal_seconds(0, 5, 2, StoreKind::Dense), 0.0);
    }
}
