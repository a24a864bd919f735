//! Micro-benchmark of the dense store's segment kernel alone: one diagonal segment of values,
//! then its traceback bits, for `u16` and `u32` values. Criterion reports time per segment and
//! throughput in cells per second; ns per cell = 1e9 / throughput.
//!
//! Run with `cargo bench --bench kernel`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mpi_lcs::store::dense::{segment_bits, segment_values, Value};

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

fn bench_width<V: Value>(c: &mut Criterion, name: &str) {
    let mut group = c.benchmark_group(format!("segment_{name}"));
    for len in [1_000usize, 10_000, 50_000] {
        let (up, left, diag, xs, ys) = inputs::<V>(len);
        let mut out = vec![V::default(); len];
        let mut words = vec![0u64; len.div_ceil(64)];
        group.throughput(Throughput::Elements(len as u64));
        group.bench_with_input(BenchmarkId::new("values", len), &len, |b, _| {
            b.iter(|| segment_values(&mut out, &up, &left, &diag, &xs, &ys))
        });
        group.bench_with_input(BenchmarkId::new("bits", len), &len, |b, _| {
            b.iter(|| segment_bits(&up, &left, &mut words))
        });
    }
    group.finish();
}

fn kernel(c: &mut Criterion) {
    bench_width::<u16>(c, "u16");
    bench_width::<u32>(c, "u32");
}

criterion_group!(benches, kernel);
criterion_main!(benches);
