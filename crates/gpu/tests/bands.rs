//! One long pair's bands on whatever OpenCL device this machine has (PoCL on the CPU where there
//! is no GPU), against the CPU engine run beside it on the same plan: every batch's message,
//! the answer from the last row and the walk's path (which reads every seam and checkpoint it
//! passes), equal on random, similar, unrelated, empty, one-byte, word-edge and very unequal
//! pairs, one to three bands, with seams and checkpoints forced close.

use lcs_core::bands::{local, BandPlan, BandStore, Checkpoint, Exit};
use lcs_core::problem::{Path, Problem};
use lcs_core::random::{mutated_pair, Random};
use lcs_gpu::bands::{BandOnDevice, Tiling};
use lcs_gpu::{open, Gpu, Prefer, Want};

fn device() -> Gpu {
    match open(Want::Gpu, Prefer::OpenCl, 0) {
        Ok(found) => found.gpu,
        Err(e) => {
            panic!("the GPU tests need an OpenCL device (scripts/setup.sh installs PoCL): {e}")
        }
    }
}

/// The fill of `plan` on the device (tiles of `tile` words) and on the CPU side by side,
/// messages compared batch by batch (a lone band in passes of two batches); then both walks.
/// Returns the device's answer and path.
fn both(
    gpu: &mut Gpu,
    plan: &BandPlan,
    (x, y): (&[u8], &[u8]),
    mode: Checkpoint,
    tile: Tiling,
) -> (usize, Path) {
    let p = plan.active_bands();
    let mut cpu: Vec<BandStore<'_>> = (0..p)
        .map(|k| BandStore::new(plan, k, x, y, mode))
        .collect();
    let mut dev: Vec<BandStore<'_>> = (0..p)
        .map(|k| BandStore::new(plan, k, x, y, mode))
        .collect();
    let mut on: Vec<BandOnDevice> = dev
        .iter()
        .map(|s| BandOnDevice::tiled(gpu, s, 2 * plan.batch(), tile).expect("the band fits"))
        .collect();
    if p == 1 {
        for b in 0..plan.batches() {
            cpu[0].run_batch(b, None, &mut vec![0u64; plan.message_words(b)]);
        }
        on[0].run_rows(gpu, &mut dev[0]).expect("the rows run");
    }
    for b in (0..plan.batches()).filter(|_| p > 1) {
        let (mut from_cpu, mut from_dev): (Option<Vec<u64>>, Option<Vec<u64>>) = (None, None);
        for k in 0..p {
            let mut a = vec![0u64; plan.message_words(b)];
            let mut d = vec![0u64; plan.message_words(b)];
            cpu[k].run_batch(b, from_cpu.as_deref(), &mut a);
            on[k]
                .run_batch(gpu, &mut dev[k], b, from_dev.as_deref(), &mut d)
                .expect("the batch runs");
            assert_eq!(a, d, "batch {b} of band {k}: the messages differ");
            (from_cpu, from_dev) = (Some(a), Some(d));
        }
    }
    for (k, band) in on.into_iter().enumerate() {
        let mut b = band;
        b.finish(gpu, &mut dev[k]).expect("the state comes back");
        b.release(gpu);
    }
    let shares = |s: &[BandStore<'_>]| s.iter().map(BandStore::row_share).sum::<i64>();
    let answer = local::answer(plan.problem(), x.len(), shares(&dev));
    assert_eq!(answer, local::answer(plan.problem(), x.len(), shares(&cpu)));
    let walk = |stores: &mut [BandStore<'_>]| {
        let mut path = Path::new();
        if plan.rows() == 0 {
            return Path::of_no_rows(plan.cols());
        }
        let (mut k, mut cell) = (p - 1, (plan.rows() - 1, plan.cols() - 1));
        while let Exit::Hop { i, j } = stores[k].walk(cell, &mut path) {
            (k, cell) = (k - 1, (i, j));
        }
        path
    };
    let path = walk(&mut dev);
    assert_eq!(path, walk(&mut cpu), "the paths differ");
    (answer, path)
}

/// Pairs of every shape the engine meets, rows the shorter.
fn pairs() -> Vec<(&'static str, Vec<u8>, Vec<u8>)> {
    let mut rng = Random::new(44);
    let dna = b"ACGT";
    let (a, b) = mutated_pair(700, 0.05, dna, 7);
    let mut out = vec![
        ("random", rng.bytes(300, dna), rng.bytes(420, dna)),
        ("similar", a, b),
        ("unrelated", rng.bytes(200, b"AC"), rng.bytes(260, b"GT")),
        ("empty rows", Vec::new(), rng.bytes(70, dna)),
        ("one byte", b"G".to_vec(), rng.bytes(129, dna)),
        ("word edges", rng.bytes(64, dna), rng.bytes(128, dna)),
        ("word edges + 1", rng.bytes(65, dna), rng.bytes(193, dna)),
        ("very unequal", rng.bytes(40, dna), rng.bytes(3000, dna)),
        (
            "bytes",
            rng.bytes(150, b"abcdefghijklmnopqrstuvwxyz0123456789"),
            rng.bytes(600, b"abcdefghijklmnopqrstuvwxyz"),
        ),
    ];
    out.retain(|(_, x, y)| x.len() <= y.len());
    out
}

#[test]
fn bands_on_the_device_match_the_cpu_engine() {
    let mut gpu = device();
    for (name, x, y) in pairs() {
        for problem in [Problem::Lcs, Problem::Edit] {
            let reference = lcs_core::reference::align(problem, &x, &y);
            for ranks in 1..=3 {
                // Tiles of 1 to 4 words, in blocks of one tile, or of up to 4 x 3 (a
                // work-group of 4 stepping its block's anti-diagonals between barriers).
                let tiles = |words, down, across| Tiling {
                    words,
                    down,
                    across,
                };
                let shapes = [
                    (64, 1, 1, tiles(1, 1, 1)),
                    (128, 3, 2, tiles(1, 2, 3)),
                    (256, 64, 16, tiles(4, 4, 2)),
                    (192, 100, 3, tiles(3, 3, 1)),
                ];
                for (batch, k, f, tile) in shapes {
                    let plan = BandPlan::new(x.len(), y.len(), ranks, batch)
                        .with_problem(problem)
                        .with_seam_words(f);
                    let mode = Checkpoint::Every(k);
                    let (_, path) = both(&mut gpu, &plan, (&x, &y), mode, tile);
                    assert_eq!(
                        path, reference,
                        "{name} {problem:?} on {ranks} bands, batch {batch}, K {k}, f {f}, \
                         {tile:?}"
                    );
                }
            }
        }
    }
}

/// The length alone (no seams, no checkpoints), one band in passes of 128 rows or two bands
/// passing their carries batch by batch: the LCS length and the distance of the bit-parallel
/// DP.
#[test]
fn the_length_alone_on_the_device_is_the_dps() {
    let mut gpu = device();
    for (name, x, y) in pairs() {
        for problem in [Problem::Lcs, Problem::Edit] {
            let expected = match problem {
                Problem::Lcs => lcs_core::bitpar::lcs_length(&x, &y),
                Problem::Edit => lcs_core::bitpar::edit::distance(&x, &y),
            };
            let m = x.len();
            let mut one = BandOnDevice::for_length(&mut gpu, problem, (&x, &y), 128).unwrap();
            for start in (0..m).step_by(128) {
                one.compute(&mut gpu, start..(start + 128).min(m), None, None)
                    .unwrap();
            }
            let share = one.share(&mut gpu, y.len()).unwrap();
            one.release(&mut gpu);
            assert_eq!(
                local::answer(problem, m, share),
                expected,
                "{name} {problem:?}"
            );
            // Two bands, the first of whole words.
            let cut = (y.len() / 2) / 64 * 64;
            let (left, right) = y.split_at(cut);
            let mut bands = [left, right]
                .map(|band| BandOnDevice::for_length(&mut gpu, problem, (&x, band), 64).unwrap());
            for start in (0..m).step_by(64) {
                let rows = start..(start + 64).min(m);
                let mut carries = vec![0u64; problem.planes()];
                let [a, b] = &mut bands;
                a.compute(&mut gpu, rows.clone(), None, Some(&mut carries))
                    .unwrap();
                b.compute(&mut gpu, rows, Some(&carries), None).unwrap();
            }
            let [mut a, mut b] = bands;
            let shares =
                a.share(&mut gpu, left.len()).unwrap() + b.share(&mut gpu, right.len()).unwrap();
            a.release(&mut gpu);
            b.release(&mut gpu);
            assert_eq!(
                local::answer(problem, m, shares),
                expected,
                "{name} {problem:?} in two bands"
            );
        }
    }
}
