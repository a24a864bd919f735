//! What a run should take, in closed form, on either engine: enough to tell a user before the
//! fill that the other engine would take a small fraction of the time on this input's shape.
//!
//! The diagonal engine's busiest rank (rank 0) computes its share of the `m x n` cells and
//! steps through the `m + n - 1` anti-diagonals one after another; on more than one rank every
//! step is a synchronisation with its neighbours (the boundary values of one diagonal are
//! needed on the next). So, with `C_0` the busiest rank's cells,
//!
//! ```text
//! T_diagonal = C_0 * c_cell + (m + n - 1) * c_step(P)
//! ```
//!
//! The bands engine advances `m` rows of `W = ceil(n / 64)` words, split among `p = min(P, W)`
//! ranks (the widest band `w_0 = ceil(W / p)` words), in `b = ceil(m / B)` batches pipelined
//! from band to band: the last band starts `p - 1` batches after the first, and each batch
//! ends with one message per band edge. So
//!
//! ```text
//! T_bands = (b + p - 1) * (min(B, m) * w_0 * c_word + c_batch(p))
//! ```
//!
//! The unit costs are calibrated on the benches of `results/BENCH.md` (2 cores, Open MPI
//! 4.1.4, the LCS; the edit distance costs about the same per cell and per word):
//!
//! - `c_cell`: 0.35 ns with the dense store (diagonal dense P = 1 on large_2: 0.348 ns per
//!   cell), 20 ns with the hash store (19.8 ns);
//! - `c_step`: 0.3 µs per diagonal on one rank, 1 µs per synchronised diagonal on more
//!   (diagonal dense P = 2: once its cells are paid, large_2's fill leaves 0.55 µs per
//!   diagonal and large_3's 1.9 µs; a 10,000,000 x 64 input took 3.3 s on one rank and 8.4 s
//!   on two: 0.33 and 0.84 µs per diagonal);
//! - `c_word`: 1.5 ns per word, fill and traceback together (bands P = 1 on large_3: 0.0553 s
//!   for 3.9 x 10^7 words, 1.4 ns; 10^6 x 10^6 on two ranks: 1.4 ns per word per rank);
//! - `c_batch`: 10 µs per batch on more than one rank (bands P = 2, B = 64 on large_3: 7 ms
//!   of waiting over 782 messages, 9 µs).
//!
//! Reading and broadcasting the input cost both engines alike and are left out. The figures
//! are right within a small factor, which is all their one use needs: a note when one engine
//! should take ten times as long as the other. O(1).

use super::bands::BandPlan;
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
/// Seconds per 64-bit word of the bands engine, fill and traceback.
const WORD: f64 = 1.5e-9;
/// Seconds per batch of the bands engine on more than one rank: a message per band edge.
const BATCH: f64 = 10e-6;

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
        near(bands_seconds(50_000, 50_000, 1, 256), 0.0553);
        near(bands_seconds(50_000, 50_000, 2, 256), 0.0413);
        near(bands_seconds(1_000_000, 1_000_000, 2, 256), 10.7183);
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
