//! The kernels on whatever OpenCL device this machine has (PoCL on the CPU where there is no
//! GPU: `make test` installs it), against the plain DPs: every pair's value and every search
//! end, bit for bit.

use lcs_core::pairs::oracle;
use lcs_core::pairs::plan::{Ask, Plan, Side};
use lcs_core::pairs::work::{self, Item, Share};
use lcs_core::problem::Problem;
use lcs_core::random::{mutated_pair, Random};
use lcs_core::search::lanes::{Hit, Simd};
use lcs_core::search::oracle as search_oracle;
use lcs_gpu::pairs::{run_in_batches, Limits};
use lcs_gpu::search::Searcher;
use lcs_gpu::{open, Gpu, Prefer, Want};

/// The OpenCL device the tests run on: a GPU, else the CPU through PoCL.
fn device() -> Gpu {
    match open(Want::Gpu, Prefer::OpenCl, 0) {
        Ok(found) => found.gpu,
        Err(e) => {
            panic!("the GPU tests need an OpenCL device (scripts/setup.sh installs PoCL): {e}")
        }
    }
}

/// Every pair's value of `queries` against `targets` (or all against all), through the GPU
/// share runner with `ranks` shares, as a dense matrix (None: not computed).
fn gpu_values(
    gpu: &mut Gpu,
    ask: Ask,
    queries: &[Vec<u8>],
    targets: &[Vec<u8>],
    ranks: usize,
) -> Vec<Option<u32>> {
    let q: Vec<&[u8]> = queries.iter().map(Vec::as_slice).collect();
    let t: Vec<&[u8]> = targets.iter().map(Vec::as_slice).collect();
    let scanned = if ask.all_against_all { &q } else { &t };
    let lens = |s: &[&[u8]]| s.iter().map(|x| x.len()).collect::<Vec<_>>();
    let plan = Plan::new(ask, &lens(&q), &lens(scanned));
    let (lane_side, scanned_side) = match plan.lane_side {
        Side::Queries => (&q, scanned),
        Side::Targets => (scanned, &q),
    };
    let share = Share {
        plan: &plan,
        lane_side,
        scanned_side,
        simd: Simd::detect(),
    };
    let cols = scanned.len();
    let mut got = vec![None; q.len() * cols];
    let mut cpu = vec![None; q.len() * cols];
    // Batches of a few pairs, cut inside jobs, at three ranks; whole ones at one.
    let limits = match ranks {
        1 => Limits::default(),
        _ => Limits {
            pairs: 23,
            carries: 5000,
        },
    };
    for jobs in plan.shares(ranks) {
        let emit = &mut |item: &Item, values: &[u32]| {
            for (p, &v) in item.members.clone().zip(values) {
                let (a, b) = plan.pair(p, item.target);
                assert!(got[a * cols + b].is_none(), "({a}, {b}) twice");
                got[a * cols + b] = Some(v);
            }
        };
        let (tally, counts) = run_in_batches(gpu, &share, &jobs, limits, emit).unwrap();
        if ranks > 1 && tally.values > 23 {
            assert!(counts.batches > 1, "{counts:?}");
        }
        let want = work::run(&share, &jobs, &mut |item, values| {
            for (p, &v) in item.members.clone().zip(values) {
                let (a, b) = plan.pair(p, item.target);
                cpu[a * cols + b] = Some(v);
            }
        });
        assert_eq!(tally.values, want.values, "the values counted");
        assert_eq!(tally.cells, want.cells, "the cells counted");
        assert_eq!(counts.pairs, tally.values, "a value per pair computed");
    }
    assert_eq!(got, cpu, "the GPU's values are the CPU kernels'");
    got
}

fn check_pairs(gpu: &mut Gpu, queries: &[Vec<u8>], targets: &[Vec<u8>], what: &str) {
    for (problem, bound) in [
        (Problem::Edit, None),
        (Problem::Lcs, None),
        (Problem::Edit, Some(0)),
        (Problem::Edit, Some(3)),
        (Problem::Edit, Some(40)),
        (Problem::Lcs, Some(20)),
    ] {
        for all_against_all in [false, true] {
            let ask = Ask {
                problem,
                bound,
                all_against_all,
            };
            let scanned = if all_against_all { queries } else { targets };
            for ranks in [1, 3] {
                let got = gpu_values(gpu, ask, queries, targets, ranks);
                for (a, qa) in queries.iter().enumerate() {
                    for (b, tb) in scanned.iter().enumerate() {
                        let v = got[a * scanned.len() + b];
                        if all_against_all && a >= b {
                            continue;
                        }
                        let plain = oracle::value(problem, qa, tb);
                        let want = if ask.passes(plain) {
                            plain
                        } else {
                            ask.default_value()
                        };
                        assert_eq!(
                            v.unwrap_or(ask.default_value()),
                            want,
                            "{what}: {problem:?} {bound:?} all {all_against_all}, ({a}, {b})"
                        );
                    }
                }
            }
        }
    }
}

/// Random DNA and bytes of the lengths where the words turn over, empty and one-byte ones,
/// near copies so that bounds pass, and long ones past the largest class (in stripes).
#[test]
fn pairs_give_the_plain_dp_values_at_every_length() {
    let mut gpu = device();
    let mut rng = Random::new(40);
    let lengths = [0, 1, 2, 63, 64, 65, 127, 128, 129, 200, 700, 1100, 2100];
    let draw = |rng: &mut Random, count: usize, alphabet: &[u8]| -> Vec<Vec<u8>> {
        let base = rng.bytes(2200, alphabet);
        (0..count)
            .map(|i| {
                let len = lengths[rng.below(lengths.len())];
                match i % 3 {
                    0 => mutated_pair(len, 0.03, alphabet, i as u64).1,
                    1 => base[..len].to_vec(),
                    _ => rng.bytes(len, alphabet),
                }
            })
            .collect()
    };
    let queries = draw(&mut rng, 21, b"ACGT");
    let targets = draw(&mut rng, 9, b"ACGT");
    check_pairs(&mut gpu, &queries, &targets, "DNA");
    let bytes: Vec<u8> = (0..=255).collect();
    let queries = draw(&mut rng, 8, &bytes);
    let targets = draw(&mut rng, 11, &bytes);
    check_pairs(&mut gpu, &queries, &targets, "bytes");
    assert!(gpu.spent.launches > 0 && gpu.spent.kernel_seconds > 0.0);
    assert!(gpu.spent.bytes_up > 0 && gpu.spent.bytes_down > 0);
}

/// One query, one target, each empty or not: the edges of the plan.
#[test]
fn pairs_of_empty_and_single_sequences() {
    let mut gpu = device();
    let seqs = [b"".to_vec(), b"A".to_vec(), b"ACGTTGCA".to_vec()];
    for q in &seqs {
        for t in &seqs {
            check_pairs(
                &mut gpu,
                std::slice::from_ref(q),
                std::slice::from_ref(t),
                "edges",
            );
        }
    }
}

/// Every end the GPU finds, by pattern and end, against the plain DP's.
fn gpu_ends(gpu: &mut Gpu, patterns: &[Vec<u8>], text: &[u8], k: usize, from: usize) -> Vec<Hit> {
    let numbered: Vec<(usize, &[u8])> = patterns
        .iter()
        .enumerate()
        .map(|(i, p)| (10 + i, p.as_slice()))
        .collect();
    let mut searcher = Searcher::new(gpu, &numbered, k).unwrap();
    let mut hits = Vec::new();
    searcher.scan(gpu, text, 1000, from, &mut hits).unwrap();
    searcher.release(gpu);
    hits.sort();
    hits
}

fn plain_ends(patterns: &[Vec<u8>], text: &[u8], k: usize, from: usize) -> Vec<Hit> {
    let mut want = Vec::new();
    for (i, p) in patterns.iter().enumerate() {
        for (end, distance) in search_oracle::ends(p, text, k) {
            if end > from {
                want.push(Hit {
                    pattern: 10 + i,
                    end: 1000 + end as u64,
                    distance,
                });
            }
        }
    }
    want.sort();
    want
}

/// Patterns of every class (1 to 16 words, and longer in stripes) over texts of several
/// chunks, with planted near copies, every k up to past a pattern's length, ends from `from`.
#[test]
fn the_search_finds_every_end_the_plain_dp_finds() {
    let mut gpu = device();
    let mut rng = Random::new(41);
    for round in 0..10 {
        let alphabet: &[u8] = if round % 3 == 2 { b"ACGTN" } else { b"ACGT" };
        let patterns: Vec<Vec<u8>> = (0..1 + rng.below(5))
            .map(|_| {
                let m = [1, 3, 32, 64, 65, 129, 300, 1025, 1500][rng.below(9)];
                rng.bytes(m, alphabet)
            })
            .collect();
        let len = rng.below(9000);
        let mut text = rng.bytes(len, alphabet);
        for p in &patterns {
            let (_, copy) = mutated_pair(p.len(), 0.02, alphabet, round);
            let at = rng.below(text.len() + 1);
            text.splice(at..at, copy);
        }
        let k = [0, 1, 3, 8, 40][rng.below(5)];
        let from = match round % 2 {
            0 => 0,
            _ => rng.below(text.len() + 1),
        };
        let got = gpu_ends(&mut gpu, &patterns, &text, k, from);
        let want = plain_ends(&patterns, &text, k, from);
        assert_eq!(got, want, "round {round}, k {k}, from {from}");
    }
}

/// A pattern no longer than k ends everywhere: more hits than the first buffer's room, so the
/// window runs again with room for them all.
#[test]
fn a_window_with_more_hits_than_room_runs_again() {
    let mut gpu = device();
    let mut rng = Random::new(42);
    let text = rng.bytes((1 << 20) + 5000, b"ACGT");
    let patterns = vec![b"ACG".to_vec(), b"TT".to_vec()];
    let got = gpu_ends(&mut gpu, &patterns, &text, 3, 7);
    assert_eq!(got.len(), 2 * (text.len() - 7));
    assert_eq!(got, plain_ends(&patterns, &text, 3, 7));
}

/// The OpenCL loader with no driver to load: a clean error that names what to install.
#[test]
fn no_driver_is_a_clear_error() {
    let empty = tempfile_dir();
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "no_driver_child", "--nocapture", "--ignored"])
        .env("OCL_ICD_VENDORS", &empty)
        .env("OCL_ICD_FILENAMES", "")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&status.stdout);
    assert!(status.status.success(), "{out}");
    assert!(out.contains("child saw: no GPU found"), "{out}");
    std::fs::remove_dir_all(empty).unwrap();
}

#[test]
#[ignore = "run by no_driver_is_a_clear_error with no OpenCL driver"]
fn no_driver_child() {
    let e = match open(Want::Gpu, Prefer::OpenCl, 0) {
        Ok(_) => panic!("a device with no driver"),
        Err(e) => e.to_string(),
    };
    assert!(
        e.contains("OpenCL: the ICD loader lists no platform"),
        "{e}"
    );
    assert!(e.contains("pocl-opencl-icd"), "{e}");
    println!("child saw: {e}");
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lcs-gpu-no-icd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
