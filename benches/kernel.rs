//! Micro-benchmark of the kernels alone, no MPI: the dense store's diagonal segment, the
//! bit-parallel row steps (LCS and edit distance, one row and four fused, plain, traced and
//! reporting the carries at seams, on every kernel this CPU runs: [`Kernel::available`]), one
//! band of the bands engine (its fill and its traceback, with checkpoints and seams of several
//! spacings, and with every bit), and the search kernels. How each is timed and
//! where the figures go: `docs/performance.md#measuring`. Run with `cargo bench --bench kernel`, or
//! `-- steps` (or `dense`, `band`, `search`, `narrow`) for some sections only.

use std::hint::black_box;
use std::time::Instant;

use lcs_core::bands::plan::BandPlan;
use lcs_core::bands::store::{BandStore, Checkpoint, Exit};
use lcs_core::bitpar::{Carries4, Kernel, Masks, Planes, Row, SeamWords, FUSED_ROWS, WORD_BITS};
use lcs_core::problem::{Path, Problem};
use lcs_core::random::Random;
use lcs_core::recurrence::{Edit, Lcs, Recurrence, Value};
use lcs_core::search::alphabet::Alphabet;
use mpi_lcs::engines::diagonal::store::dense::{segment_bits, segment_values};

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

fn dense<V: Value, R: Recurrence>(name: &str) {
    for len in [1_000usize, 10_000, 50_000] {
        let (up, left, diag, xs, ys) = inputs::<V>(len);
        let mut out = vec![V::default(); len];
        let mut words = vec![0u64; len.div_ceil(64)];
        let values = ns_per_cell(len, || {
            segment_values::<V, R>(&mut out, &up, &left, &diag, &xs, &ys);
            black_box(&out);
        });
        let bits = ns_per_cell(len, || {
            segment_bits::<V, R, 0>(&out, &up, &left, &diag, &mut words);
            if R::PLANES > 1 {
                segment_bits::<V, R, 1>(&out, &up, &left, &diag, &mut words);
            }
            black_box(&words);
        });
        println!(
            "dense {} {name} segment of {len:>6}: values {values:.3} ns/cell, bits {bits:.3} \
             ns/cell",
            R::PROBLEM
        );
    }
}

/// One band holding every column: fill, walk and the traceback's recomputation, row by row and
/// four rows fused, with checkpoints (seams every `f` words for several `f`, and none: the
/// recompute from the band's first word) and with every bit. The configurations take turns,
/// five rounds, and each figure is the best round.
fn band(problem: Problem, (m, n): (usize, usize)) {
    let mut rng = Random::new(1);
    let x = rng.bytes(m, b"ACGT");
    let y = rng.bytes(n, b"ACGT");
    let plan = BandPlan::new(m, n, 1, 4096).with_problem(problem);
    let edge = lcs_core::bands::kernel::left_edge(problem);
    let words = (m * plan.total_words()) as f64;
    let k = m.isqrt();
    let f = plan.seam_words(k);
    let wide = plan.total_words();
    // (mode, four rows fused, f)
    let configs = [
        (Checkpoint::Every(k), false, f),
        (Checkpoint::Every(k), true, wide),
        (Checkpoint::Every(k), true, 256),
        (Checkpoint::Every(k), true, 64),
        (Checkpoint::Every(k), true, 32),
        (Checkpoint::Every(k), true, 16),
        (Checkpoint::Full, true, f),
    ];
    struct Best {
        fill: f64,
        walk: f64,
        recompute: Option<f64>,
        words: u64,
        answer: i64,
    }
    let mut best: Vec<Best> = configs
        .iter()
        .map(|_| Best {
            fill: f64::MAX,
            walk: f64::MAX,
            recompute: None,
            words: 0,
            answer: 0,
        })
        .collect();
    for _ in 0..5 {
        for (&(mode, fused, f), best) in configs.iter().zip(&mut best) {
            let plan = plan.with_seam_words(f);
            let mut band = BandStore::new(&plan, 0, &x, &y, mode);
            let started = Instant::now();
            if fused {
                for b in 0..plan.batches() {
                    let mut out = vec![0; plan.message_words(b)];
                    band.run_batch(b, None, &mut out);
                }
            } else {
                for i in 0..m {
                    band.row(i, edge);
                }
            }
            best.fill = best.fill.min(started.elapsed().as_secs_f64());
            let started = Instant::now();
            let mut path = Path::new();
            assert_eq!(band.walk((m - 1, n - 1), &mut path), Exit::Done);
            best.walk = best.walk.min(started.elapsed().as_secs_f64());
            let r = band.recompute_stats();
            best.words = r.words;
            if r.words > 0 {
                let per_word = r.seconds * 1e9 / r.words as f64;
                best.recompute = Some(best.recompute.map_or(per_word, |b| b.min(per_word)));
            }
            let answer = match problem {
                Problem::Lcs => path.matched(&x).len() as i64,
                Problem::Edit => path.edits() as i64 - m as i64,
            };
            assert_eq!(answer, band.row_share());
            best.answer = black_box(answer);
        }
    }
    for (&(mode, fused, f), best) in configs.iter().zip(&best) {
        let seams = match mode {
            Checkpoint::Every(_) if f >= wide => ", no seams".to_owned(),
            Checkpoint::Every(_) => format!(", seams every {f} words"),
            Checkpoint::Full => String::new(),
        };
        println!(
            "band {problem} {m} x {n} {mode:?}{seams}, {}: fill {:.3} s = {:.3} ns/word; \
             walk {:.4} s ({:.1}% of the fill), recompute {:.2}% of the fill's words at {} \
             ns/word; answer {}",
            if fused { "4 rows fused" } else { "row by row" },
            best.fill,
            best.fill * 1e9 / words,
            best.walk,
            100.0 * best.walk / best.fill,
            100.0 * best.words as f64 / words,
            best.recompute.map_or("-".into(), |r| format!("{r:.3}")),
            best.answer,
        );
    }
}

/// Four consecutive rows' masks, as the fused steps take them.
fn fused<'a>(rows: &[&'a [u64]]) -> [&'a [u64]; FUSED_ROWS] {
    [rows[0], rows[1], rows[2], rows[3]]
}

/// The row steps alone, of both problems ([`Row`]): over one run of `words` words, `ROWS` rows
/// per call, one row and four fused on every kernel this CPU runs. The traced variants write
/// their bits into the same four rows again and again, so these figures leave out the memory
/// traffic a band's fill adds when it keeps every bit; the seam variants report the four rows'
/// carries out of every 16th word, as a checkpointed band's fill does.
fn steps(words: usize) {
    row_steps::<Lcs, 1>("lcs ", words, [u64::MAX, 0]);
    row_steps::<Edit, 2>("edit", words, [u64::MAX, 0]);
}

/// The planes of `v`, borrowed.
fn planes<const P: usize>(v: &mut [Vec<u64>; P]) -> Planes<'_, P> {
    v.each_mut().map(|p| &mut p[..])
}

/// [`steps`] for one problem, whose state starts with `first` in each plane's words.
fn row_steps<R: Row<P>, const P: usize>(name: &str, words: usize, first: [u64; 2]) {
    const ROWS: usize = 64;
    let mut rng = Random::new(2);
    let x = rng.bytes(ROWS, b"ACGT");
    let y = rng.bytes(words * WORD_BITS, b"ACGT");
    let masks = Masks::new(&x, &y);
    let eq: Vec<&[u64]> = x.iter().map(|&b| masks.of(b)).collect();
    let units = ROWS * words;
    let mut state: [Vec<u64>; P] = std::array::from_fn(|p| vec![first[p]; words]);
    let mut bits: Vec<[Vec<u64>; P]> = (0..FUSED_ROWS)
        .map(|_| std::array::from_fn(|_| vec![0u64; words]))
        .collect();
    let one = ns_per_cell(units, || {
        for e in &eq {
            R::step(planes(&mut state), e, R::EDGE);
        }
        black_box(&state);
    });
    let one_traced = ns_per_cell(units, || {
        for (r, e) in eq.iter().enumerate() {
            let b = planes(&mut bits[r % FUSED_ROWS]);
            R::step_traced(planes(&mut state), e, R::EDGE, b);
        }
        black_box(&bits);
    });
    println!(
        "{name} row step over {words} words: one row {one:.3} ns/word (traced {one_traced:.3})"
    );
    const SEAM: usize = 16;
    let every = SeamWords {
        first: SEAM - 1,
        every: SEAM,
    };
    let mut seamed = vec![Carries4::default(); words.div_ceil(SEAM)];
    for kernel in Kernel::available() {
        let plain = ns_per_cell(units, || {
            for r in eq.chunks_exact(FUSED_ROWS) {
                R::step4_with(kernel, planes(&mut state), fused(r), [R::EDGE; FUSED_ROWS]);
            }
            black_box(&state);
        });
        let traced = ns_per_cell(units, || {
            for r in eq.chunks_exact(FUSED_ROWS) {
                let trace: [Planes<'_, P>; FUSED_ROWS] = {
                    let mut rows = bits.iter_mut();
                    std::array::from_fn(|_| planes(rows.next().expect("four rows")))
                };
                let carry = [R::EDGE; FUSED_ROWS];
                R::step4_traced_with(kernel, planes(&mut state), fused(r), carry, trace);
            }
            black_box(&bits);
        });
        let seams = ns_per_cell(units, || {
            for r in eq.chunks_exact(FUSED_ROWS) {
                let put = |t: usize, c: Carries4| seamed[t / SEAM] = c;
                let carry = [R::EDGE; FUSED_ROWS];
                R::step4_seams_with(kernel, planes(&mut state), fused(r), carry, every, put);
            }
            black_box(&seamed);
        });
        println!(
            "{name} row step over {words} words: four fused, {:<8} {plain:.3} ns/word (traced \
             {traced:.3}, seams every {SEAM} {seams:.3})",
            kernel.name()
        );
    }
}

/// The search kernels alone: ns per text byte for groups of patterns side by side (one group
/// at a time, alone or as two halves of the text, and two groups interleaved), each
/// compilation the CPU has, and a long pattern.
fn search() {
    use lcs_core::search::lanes::{scan, scan_halves, Compiled, Group, Lane, Simd};
    use lcs_core::search::sifted::Sifted;
    use lcs_core::search::strips::Strips;
    const TEXT: usize = 1 << 20;
    let mut rng = Random::new(3);
    let text = rng.bytes(TEXT, b"ACGT");
    fn lanes<T: Lane + Compiled<T, L>, const L: usize>(rng: &mut Random, text: &[u8], m: usize) {
        let patterns: Vec<Vec<u8>> = (0..2 * L).map(|_| rng.bytes(m, b"ACGT")).collect();
        let numbered: Vec<(usize, &[u8])> = patterns
            .iter()
            .enumerate()
            .map(|(p, b)| (p, &b[..]))
            .collect();
        // Few matches on random text: about one edit per eight bytes.
        let k = (m / 8).min(3);
        for simd in Simd::available() {
            let mut a = Group::<T, L>::new(&numbered[..L], k, Alphabet::Exact);
            let mut b = Group::<T, L>::new(&numbered[L..], k, Alphabet::Exact);
            let mut hits = Vec::new();
            let one = ns_per_cell(text.len(), || {
                scan(simd, [&mut a], text, 0, 0, &mut hits);
                scan(simd, [&mut b], text, 0, 0, &mut hits);
                hits.clear();
            });
            let two = ns_per_cell(text.len(), || {
                scan(simd, [&mut a, &mut b], text, 0, 0, &mut hits);
                hits.clear();
            });
            let halves = ns_per_cell(text.len(), || {
                scan_halves(simd, &mut a, text, 0, 0, &mut hits);
                scan_halves(simd, &mut b, text, 0, 0, &mut hits);
                hits.clear();
            });
            println!(
                "search {} lanes of {} bits, {} patterns of {m}, k {k}, {}: one group at a \
                 time {one:.3} ns/byte (each as two halves {halves:.3}), two interleaved \
                 {two:.3} ns/byte",
                L,
                T::BITS,
                2 * L,
                simd.name()
            );
        }
    }
    lanes::<u8, 32>(&mut rng, &text, 8);
    lanes::<u16, 16>(&mut rng, &text, 16);
    lanes::<u32, 8>(&mut rng, &text, 32);
    lanes::<u64, 4>(&mut rng, &text, 64);
    // The text as the bit dimension, in calls of 64 KiB as a rank's scan makes them.
    for (m, k) in [
        (8, 1),
        (16, 2),
        (24, 2),
        (32, 3),
        (32, 8),
        (64, 3),
        (200, 10),
        (1000, 30),
    ] {
        let p = rng.bytes(m, b"ACGT");
        for simd in Simd::available() {
            let mut strips = Strips::new(0, &p, k, Alphabet::Exact);
            let mut hits = Vec::new();
            let ns = ns_per_cell(text.len(), || {
                strips.reset();
                for (at, part) in text.chunks(1 << 16).enumerate() {
                    strips.scan(simd, part, (at << 16) as u64, 0, &mut hits);
                }
                hits.clear();
            });
            let rows = strips.rows as f64 / strips.strips as f64;
            println!(
                "search strips, one pattern of {m}, k {k}, {}: {ns:.3} ns/byte, {rows:.1} rows \
                 per strip",
                simd.name()
            );
        }
    }
    // Through the sieve: the text in memory (the page cache's pages, as a rank maps them).
    for (count, m, k) in [
        (1, 32, 3),
        (1, 200, 10),
        (16, 32, 3),
        (64, 24, 2),
        (512, 32, 3),
    ] {
        let patterns: Vec<Vec<u8>> = (0..count).map(|_| rng.bytes(m, b"ACGT")).collect();
        let numbered: Vec<(usize, &[u8])> = patterns
            .iter()
            .enumerate()
            .map(|(p, b)| (p, &b[..]))
            .collect();
        for simd in Simd::available() {
            let mut sifted = Sifted::new(&numbered, k);
            let mut hits = Vec::new();
            let ns = ns_per_cell(text.len(), || {
                sifted.reset();
                for (at, part) in text.chunks(1 << 16).enumerate() {
                    sifted.scan(simd, part, (at << 16) as u64, 0, &mut hits);
                }
                hits.clear();
            });
            // One more pass, alone, for the strips it computes.
            let mut once = Sifted::new(&numbered, k);
            for (at, part) in text.chunks(1 << 16).enumerate() {
                once.scan(simd, part, (at << 16) as u64, 0, &mut hits);
            }
            let (_, strips) = once.work();
            let share = strips as f64 * 64.0 / (count * text.len()) as f64;
            println!(
                "search sieve, {count} patterns of {m}, k {k}, {}: {ns:.3} ns/byte, the strips \
                 over {:.2}% of each pattern's columns",
                simd.name(),
                100.0 * share
            );
        }
    }
}

/// The pairs kernels alone: ns per pair for groups of lanes (four and two interleaved, and one
/// at a time) against reads of the same lengths, each compilation the CPU has; the banded
/// kernel for `--max-edits` on unrelated reads (the early exit) and on near copies; a whole
/// share of 4,000 x 4,000 reads as a run computes it; and one long pair by the bit-parallel
/// rows.
fn pairs() {
    use lcs_core::pairs::banded::{self, Banded};
    use lcs_core::pairs::lanes::{self, Lanes};
    use lcs_core::pairs::rows;
    use lcs_core::search::lanes::Simd;
    let mut rng = Random::new(13);
    let mut reads = |count: usize, lo: usize, hi: usize| -> Vec<Vec<u8>> {
        (0..count)
            .map(|_| {
                let m = lo + rng.below(hi - lo + 1);
                rng.bytes(m, b"ACGT")
            })
            .collect()
    };
    fn unit<const W: usize>(problem: Problem, group: &[Vec<u8>], targets: &[Vec<u8>], label: &str) {
        let seqs: Vec<&[u8]> = group.iter().map(Vec::as_slice).collect();
        let a = Lanes::<u64, 4, W>::new(&seqs[..4]);
        let b = Lanes::<u64, 4, W>::new(&seqs[4..8]);
        for simd in Simd::available() {
            let pairs = 8 * targets.len();
            let two = ns_per_cell(pairs, || {
                for t in targets {
                    black_box(lanes::scan(simd, problem, [&a, &b], t));
                }
            });
            let four = ns_per_cell(2 * pairs, || {
                for t in targets {
                    black_box(lanes::scan(simd, problem, [&a, &b, &b, &a], t));
                }
            });
            let one = ns_per_cell(pairs, || {
                for t in targets {
                    black_box(lanes::scan(simd, problem, [&a], t));
                    black_box(lanes::scan(simd, problem, [&b], t));
                }
            });
            println!(
                "pairs {problem:?} {label}, 4 lanes of {W} words, {}: four groups interleaved \
                 {four:.1} ns/pair, two {two:.1}, one at a time {one:.1}",
                simd.name()
            );
        }
    }
    let long = reads(8, 129, 150);
    let mid = reads(8, 100, 128);
    let short = reads(8, 40, 60);
    let targets = reads(500, 100, 150);
    let short_targets = reads(500, 40, 60);
    for problem in [Problem::Edit, Problem::Lcs] {
        unit::<3>(problem, &long, &targets, "129-150 x 100-150");
        unit::<2>(problem, &mid, &targets, "100-128 x 100-150");
        unit::<1>(problem, &short, &short_targets, "40-60 x 40-60");
    }
    let seqs: Vec<&[u8]> = long.iter().chain(&mid).map(Vec::as_slice).collect();
    let a = Banded::<u64, 4>::new(&seqs[..4], 20);
    let b = Banded::<u64, 4>::new(&seqs[4..8], 20);
    let near: Vec<Vec<u8>> = (0..500)
        .map(|t| lcs_core::random::mutated_pair(125, 0.05, b"ACGT", t).1)
        .collect();
    let c = Banded::<u64, 4>::new(
        &near.iter().take(4).map(Vec::as_slice).collect::<Vec<_>>(),
        20,
    );
    for simd in Simd::available() {
        let far = ns_per_cell(8 * targets.len(), || {
            for t in &targets {
                black_box(banded::scan(simd, [&a, &b], t).0);
            }
        });
        let close = ns_per_cell(4 * near.len(), || {
            for t in &near {
                black_box(banded::scan(simd, [&c], t).0);
            }
        });
        println!(
            "pairs banded k 20, {}: unrelated reads of 100-150 {far:.1} ns/pair (two groups), \
             near copies of 125 {close:.1} ns/pair (one group)",
            simd.name()
        );
    }
    // A whole share: the plan's units and items, every value handed on, against the kernel
    // alone on the same units.
    {
        use lcs_core::pairs::plan::{Ask, Plan};
        use lcs_core::pairs::work::{self, Share};
        let q = reads(4000, 40, 60);
        let t = reads(4000, 40, 60);
        let lens = |s: &[Vec<u8>]| s.iter().map(Vec::len).collect::<Vec<_>>();
        let ask = Ask {
            problem: Problem::Edit,
            bound: None,
            all_against_all: false,
        };
        let plan = Plan::new(ask, &lens(&q), &lens(&t));
        let qs: Vec<&[u8]> = q.iter().map(Vec::as_slice).collect();
        let ts: Vec<&[u8]> = t.iter().map(Vec::as_slice).collect();
        let (lane_side, scanned_side) = match plan.lane_side {
            lcs_core::pairs::plan::Side::Queries => (&qs, &ts),
            lcs_core::pairs::plan::Side::Targets => (&ts, &qs),
        };
        let jobs = plan.shares(1).remove(0);
        for simd in Simd::available() {
            let share = Share {
                plan: &plan,
                lane_side,
                scanned_side,
                simd,
            };
            let mut sum = 0u64;
            let whole = ns_per_cell(16_000_000, || {
                work::run(&share, &jobs, &mut |_, v| sum += u64::from(v[0]));
            });
            println!(
                "pairs Edit 4,000 x 4,000 reads of 40-60, a whole share, {}: {whole:.1} ns/pair",
                simd.name()
            );
            black_box(sum);
        }
    }
    let x = rng.bytes(20_000, b"ACGT");
    let y = rng.bytes(20_000, b"ACGT");
    let z = rng.bytes(100, b"ACGT");
    for problem in [Problem::Edit, Problem::Lcs] {
        let words = 20_000 * 20_000usize.div_ceil(64);
        let ns = ns_per_cell(words, || {
            black_box(rows::value(problem, None, &x, &y));
        });
        let short = ns_per_cell(100 * 313, || {
            black_box(rows::value(problem, None, &z, &y));
        });
        println!(
            "pairs {problem:?} by rows: 20,000 x 20,000 {ns:.3} ns/word, 100 x 20,000 \
             {short:.3} ns/word"
        );
    }
}

/// Runs the sections named on the command line (`dense`, `band`, `steps`, `narrow`, `search`), or all of them.
fn main() {
    // Cargo passes `--bench`; any other argument names a section.
    let named: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let run = |section: &str| named.is_empty() || named.iter().any(|n| n == section);
    if run("dense") {
        dense::<u16, Lcs>("u16");
        dense::<u32, Lcs>("u32");
        dense::<u16, Edit>("u16");
        dense::<u32, Edit>("u32");
    }
    if run("band") {
        // A wide band, and large_3's at one rank.
        for shape in [(20_000, 200_000), (50_000, 50_000)] {
            band(Problem::Lcs, shape);
            band(Problem::Edit, shape);
        }
    }
    if run("steps") {
        // A band of large_3 at one rank, and a run that is no longer short beside the fused
        // kernels' prologue and epilogue.
        steps(782);
        steps(4096);
    }
    if run("narrow") {
        // A narrow diagonal band's windows: where the portable kernel overtakes the vector
        // ones (`Kernel::for_words`).
        for words in [3, 8, 12, 16, 32, 48, 64] {
            steps(words);
        }
    }
    if run("search") {
        search();
    }
    if run("pairs") {
        pairs();
    }
}
