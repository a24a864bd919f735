//! Micro-benchmark of the kernels alone: the dense store's diagonal segment (values, then
//! traceback bits, for `u16` and `u32` values) and the bands engine's row step. Each figure
//! is the median of 15 timed batches after a warm-up, as ns per cell.
//!
//! Run with `cargo bench --bench kernel`.

use std::hint::black_box;
use std::time::Instant;

use mpi_lcs::store::dense::{segment_bits, segment_values, Value};

/// Median nanoseconds per cell of `work`, which handles `cells` cells per call.
fn ns_per_cell(cells: usize, mut work: impl FnMut()) -> f64 {
    // Enough calls per batch for a batch to take about a millisecond.
    let started = Instant::now();
    work();
    let once = started.elapsed().as_secs_f64().max(1e-9);
    let calls = ((1e-3 / once) as usize).clamp(1, 100_000);
    let mut batches: Vec<f64> = (0..16)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..calls {
                work();
            }
            started.elapsed().as_secs_f64() / (calls * cells) as f64 * 1e9
        })
        .skip(1)
        .collect();
    batches.sort_by(f64::total_cmp);
    batches[batches.len() / 2]
}

/// A segment's inputs: up, left and diagonal values, then the two sequences' bytes.
type Segment<V> = (Vec<V>, Vec<V>, Vec<V>, Vec<u8>, Vec<u8>);

fn inputs<V: Value>(len: usize) -> Segment<V> {
    let v = |seed: usize| -> Vec<V> {
        (0..len)
            .map(|t| V::from_u32(((t * 31 + seed * 17) % 1000) as u32))
            .collect()
    };
    let bases =
        |mul: usize| -> Vec<u8> { (0..len).map(|t| b"ACGT"[(t * mul + t / 7) % 4]).collect() };
    (v(1), v(2), v(3), bases(5), bases(3))
}

fn dense<V: Value>(name: &str) {
    for len in [1_000usize, 10_000, 50_000] {
        let (up, left, diag, xs, ys) = inputs::<V>(len);
        let mut out = vec![V::default(); len];
        let mut words = vec![0u64; len.div_ceil(64)];
        let values = ns_per_cell(len, || {
            segment_values(&mut out, &up, &left, &diag, &xs, &ys);
            black_box(&out);
        });
        let bits = ns_per_cell(len, || {
            segment_bits(&up, &left, &mut words);
            black_box(&words);
        });
        println!(
            "dense {name} segment of {len:>6}: values {values:.3} ns/cell, bits {bits:.3} ns/cell"
        );
    }
}

fn main() {
    dense::<u16>("u16");
    dense::<u32>("u32");
}
