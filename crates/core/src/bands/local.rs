//! The whole bands engine in one process: every rank's band driven in the pipeline's dependency
//! order (for each batch, band 0, then its carries as the packed words an MPI message would carry
//! to band 1, and so on), then the walk from band to band, starting in the last active band and
//! hopping left. For tests, for checking the MPI engine, and for one-rank runs. Cost: the fill's
//! `m * ceil(n / 64)` word steps, the walk's `O(m + n)` steps plus any recompute, and every band's
//! store at once.

use super::checkpoint::Checkpoint;
use super::plan::BandPlan;
use super::store::{BandStore, Exit, RecomputeStats};
use crate::diagonal_band::{self, BandChoice, BandSearch};
use crate::problem::{Path, Problem};
use crate::traffic::Predicted;

/// What an in-process run produced and counted.
#[derive(Debug, Clone, Default)]
pub struct InProcess {
    /// The walk's path, with the same tie-breaking as `reference::align`.
    pub path: Path,
    /// The answer read from the last row's state: the LCS length (the bands' +1 steps added
    /// up), or the edit distance (`m` plus the bands' horizontal deltas).
    pub answer_from_state: usize,
    /// Boundary messages between each pair of ranks (band `k`'s to band `k + 1`'s).
    pub messages: Predicted,
    /// Boundary bytes over all edges.
    pub message_bytes: u64,
    /// Moves of the walk from one band to the next.
    pub hops: u64,
    /// Recompute work of all bands together.
    pub recompute: RecomputeStats,
}

/// Runs the bands engine on `problem` for rows `x` and columns `y` (`x.len() <= y.len()`) on
/// `ranks` simulated ranks with batches of `batch` rows, every band keeping `mode`.
pub fn run_in_process(
    problem: Problem,
    x: &[u8],
    y: &[u8],
    ranks: usize,
    batch: usize,
    mode: Checkpoint,
) -> InProcess {
    let plan = BandPlan::new(x.len(), y.len(), ranks, batch).with_problem(problem);
    run_plan(&plan, x, y, mode)
}

/// The band search of `choice` ([`crate::diagonal_band::search`]) on `plan` (its problem,
/// ranks, batches and seams; its band is ignored): one [`run_plan`] per band, the last
/// one's path, the messages and bytes of every fill added up.
pub fn run_search(
    plan: &BandPlan,
    x: &[u8],
    y: &[u8],
    mode: Checkpoint,
    choice: BandChoice,
) -> (BandSearch, InProcess) {
    let mut messages = Predicted::none(plan.ranks());
    let mut bytes = 0;
    let (search, mut out) = diagonal_band::search(plan.problem(), (x, y), choice, |b| {
        let run = run_plan(&plan.with_band(b), x, y, mode);
        messages.plus(&run.messages);
        bytes += run.message_bytes;
        Ok::<_, std::convert::Infallible>((run.answer_from_state, run))
    })
    .unwrap_or_else(|(_, never)| match never {});
    out.messages = messages;
    out.message_bytes = bytes;
    (search, out)
}

/// [`run_in_process`] on `plan` (its problem, ranks, batches, seams and band); with a band
/// that does not prove itself the walk is not taken (the path is empty).
pub fn run_plan(plan: &BandPlan, x: &[u8], y: &[u8], mode: Checkpoint) -> InProcess {
    let plan = *plan;
    let problem = plan.problem();
    let p = plan.active_bands();
    let mut bands: Vec<BandStore<'_>> = (0..p)
        .map(|k| BandStore::new(&plan, k, x, y, mode))
        .collect();
    let mut out = InProcess {
        messages: Predicted::none(plan.ranks()),
        ..InProcess::default()
    };
    fill(&plan, &mut bands, &mut out);
    let shares: i64 = bands.iter().map(BandStore::row_share).sum();
    out.answer_from_state = answer(problem, x.len(), shares);

    let proven = plan.band().proves(problem, out.answer_from_state);
    if plan.rows() > 0 && proven {
        let (mut k, mut cell) = (p - 1, (plan.rows() - 1, plan.cols() - 1));
        debug_assert_eq!(plan.owner_of_col(cell.1), k);
        while let Exit::Hop { i, j } = bands[k].walk(cell, &mut out.path) {
            debug_assert_eq!(plan.owner_of_col(j), k - 1, "a hop goes one band left");
            (k, cell) = (k - 1, (i, j));
            out.hops += 1;
        }
    } else if plan.rows() == 0 {
        out.path = Path::of_no_rows(plan.cols());
    }
    for band in &bands {
        out.recompute.add(band.recompute_stats());
    }
    out
}

/// The answer of a fill of `rows` rows whose bands' shares of the last row add up to `shares`:
/// `M'` for the LCS, `D'` for the edit distance (`D(m-1, -1) = m` plus the last row's
/// horizontal deltas).
pub fn answer(problem: Problem, rows: usize, shares: i64) -> usize {
    let base = match problem {
        Problem::Lcs => 0,
        Problem::Edit => rows as i64,
    };
    usize::try_from(base + shares).expect("a non-negative answer")
}

/// The fill of `plan` on its bands `bands`, in one process, counting the messages in `out`.
fn fill(plan: &BandPlan, bands: &mut [BandStore<'_>], out: &mut InProcess) {
    for b in 0..plan.batches() {
        let mut incoming: Option<Vec<u64>> = None;
        for (k, band) in bands.iter_mut().enumerate() {
            let work = plan.work_rows(k);
            let rows = plan.batch_rows(b);
            if rows.start < work.end && work.start < rows.end {
                let mut outgoing = vec![0u64; plan.message_words(b)];
                band.run_batch(b, incoming.as_deref(), &mut outgoing);
                // A message only where a row's window spans the edge, as the MPI fill sends.
                incoming = plan.edge_batches(k).contains(&b).then(|| {
                    out.messages.add(plan.rank_of(k), plan.rank_of(k + 1), 1);
                    out.message_bytes += plan.message_bytes(b);
                    outgoing
                });
            } else {
                debug_assert!(!plan.edge_batches(k).contains(&b));
                incoming = None;
            }
        }
    }
    for band in bands {
        band.skip_to(plan.rows());
    }
}

/// A fill of `plan` (one rank's) on this rank alone: its answer and its band, filled, ready for
/// the walk. The answer is `M'` or `D'`, as the MPI fill's all-reduce gives it.
pub fn fill_alone<'a>(
    plan: &BandPlan,
    x: &'a [u8],
    y: &'a [u8],
    mode: Checkpoint,
) -> (usize, BandStore<'a>) {
    debug_assert_eq!(plan.ranks(), 1, "a plan of one rank");
    let mut bands = vec![BandStore::new(plan, 0, x, y, mode)];
    let mut out = InProcess {
        messages: Predicted::none(1),
        ..InProcess::default()
    };
    fill(plan, &mut bands, &mut out);
    let store = bands.pop().expect("the one band");
    (answer(plan.problem(), x.len(), store.row_share()), store)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bands::carry;
    use crate::bands::estimate_bytes;
    use crate::diagonal_band::{self, BandChoice, BandSearch};
    use crate::problem::Problem;
    use crate::random::Random;

    const RANKS: [usize; 5] = [1, 2, 3, 5, 8];
    const BATCHES: [usize; 4] = [1, 63, 64, 200];
    /// Words between seams: every word a seam, an odd spacing, and the least the plan takes
    /// (wider than every band in these tests).
    const SEAMS: [usize; 3] = [1, 3, crate::bands::plan::SEAM_WORDS];

    fn modes(m: usize) -> [Checkpoint; 5] {
        [
            Checkpoint::Full,
            Checkpoint::Every(1),
            Checkpoint::Every(3),
            Checkpoint::Every(17),
            Checkpoint::Every(m + 5),
        ]
    }

    /// Runs both problems on every rank count, batch size and mode on `(x, y)` and checks the
    /// path move for move against the reference, the answer read from the state, the message
    /// counts and bytes, and the hops.
    fn check(x: &[u8], y: &[u8]) {
        for problem in [Problem::Lcs, Problem::Edit] {
            check_problem(problem, x, y);
        }
    }

    fn check_problem(problem: Problem, x: &[u8], y: &[u8]) {
        let want = crate::reference::align(problem, x, y);
        let answer = match problem {
            Problem::Lcs => want.matched(x).len(),
            Problem::Edit => want.edits(),
        };
        let plans = RANKS.into_iter().flat_map(|ranks| {
            BATCHES.into_iter().flat_map(move |batch| {
                modes(x.len()).into_iter().flat_map(move |mode| {
                    // The seams matter to checkpointed bands only.
                    let seams = match mode {
                        Checkpoint::Full => &SEAMS[..1],
                        Checkpoint::Every(_) => &SEAMS[..],
                    };
                    seams.iter().map(move |&f| (ranks, batch, mode, f))
                })
            })
        });
        for (ranks, batch, mode, f) in plans {
            let plan = BandPlan::new(x.len(), y.len(), ranks, batch)
                .with_problem(problem)
                .with_seam_words(f);
            let got = run_plan(&plan, x, y, mode);
            let what = format!(
                "{problem} m={} n={} P={ranks} B={batch} {mode:?} f={f}\nx={:?}\ny={:?}",
                x.len(),
                y.len(),
                String::from_utf8_lossy(x),
                String::from_utf8_lossy(y)
            );
            assert_eq!(got.path, want, "{what}");
            assert_eq!(got.answer_from_state, answer, "{what}");
            // One message per batch on every edge between active ranks, all to the right.
            for (k, &count) in got.messages.down.iter().enumerate() {
                let active = k + 1 < plan.active_ranks();
                let want = if active { plan.batches() as u64 } else { 0 };
                assert_eq!(count, want, "{what}");
            }
            assert!(got.messages.up.iter().all(|&c| c == 0), "{what}");
            assert_eq!(got.messages.total, plan.predicted_messages(), "{what}");
            assert_eq!(got.message_bytes, plan.predicted_bytes(), "{what}");
            assert!(got.hops < ranks as u64, "{what}: {} hops", got.hops);
            if mode == Checkpoint::Full {
                assert_eq!(got.recompute.blocks, 0);
            }
        }
    }

    #[test]
    fn random_pairs_match_the_reference() {
        let all: Vec<u8> = (0..=255).collect();
        let alphabets: [&[u8]; 4] = [b"ab", b"ACGT", b"abcdefghijklmnopqrstuvwxyz", &all];
        let mut rng = Random::new(0xba4d5);
        for (a, alphabet) in alphabets.iter().enumerate() {
            for case in 0..12 {
                // Half the pairs short enough that m < B and a single word; the rest up to 300.
                let top = if case % 2 == 0 { 70 } else { 300 };
                let la = rng.below(top);
                let lb = rng.below(top);
                let (s, t) = (rng.bytes(la, alphabet), rng.bytes(lb, alphabet));
                let (x, y) = if s.len() <= t.len() { (s, t) } else { (t, s) };
                check(&x, &y);
                // Similar sequences make long diagonal runs and many hops.
                if a < 2 && !y.is_empty() {
                    let mut z = y.clone();
                    for _ in 0..y.len() / 10 {
                        let at = rng.below(z.len());
                        z[at] = alphabet[rng.below(alphabet.len())];
                    }
                    check(&z, &y);
                }
            }
        }
    }

    #[test]
    fn shapes_at_word_and_batch_edges() {
        let mut rng = Random::new(64);
        // (m, n): one row, one column, empty x, widths around multiples of 64, more ranks
        // than words.
        let shapes = [
            (0, 0),
            (0, 1),
            (0, 130),
            (1, 1),
            (1, 64),
            (1, 65),
            (1, 300),
            (2, 2),
            (63, 64),
            (64, 64),
            (64, 65),
            (65, 128),
            (127, 129),
            (200, 200),
            (201, 257),
            (299, 300),
        ];
        for (m, n) in shapes {
            for alphabet in [&b"ab"[..], b"ACGT"] {
                let x = rng.bytes(m, alphabet);
                let y = rng.bytes(n, alphabet);
                check(&x, &y);
            }
        }
        // Matches along row 0 and column 0 only: the walk must run to the matrix edge.
        check(
            b"a",
            b"abbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
        );
        check(&[b'b'; 70], &[b'a'; 200]);
        let mut col0 = vec![b'x'; 90];
        col0[0] = b'a';
        let mut row0 = vec![b'y'; 200];
        row0[0] = b'a';
        check(&col0, &row0);
        // Identical sequences: the walk is the main diagonal, crossing every band edge.
        let same: Vec<u8> = (0..300u32).map(|k| (k * 7 % 251) as u8).collect();
        check(&same, &same);
        for mode in [Checkpoint::Full, Checkpoint::Every(17)] {
            let run = run_in_process(Problem::Lcs, &same, &same, 8, 64, mode);
            assert_eq!(
                run.hops, 4,
                "five bands of one word each: four edges crossed"
            );
            // All matches: the walk never asks a bit, so nothing is recomputed.
            assert_eq!(run.recompute.blocks, 0);
        }
    }

    #[test]
    fn walks_drift_across_many_windows_within_a_block() {
        // Rows much shorter than the columns: the walk drifts left by about n/m columns a row,
        // so within a block it crosses many seams, each window between two recomputed for the
        // rows it still needs. Seams every word up to wider than the band, blocks of one row up
        // to more than all of them.
        let mut rng = Random::new(77);
        let shapes: [(usize, usize, &[u8]); 4] = [
            (120, 64 * 30 + 17, b"ACGT"),
            (40, 64 * 25, b"ab"),
            (200, 64 * 12, b"ACGT"),
            (1, 64 * 9, b"ab"),
        ];
        for (m, n, alphabet) in shapes {
            let x = rng.bytes(m, alphabet);
            let y = rng.bytes(n, alphabet);
            for problem in [Problem::Lcs, Problem::Edit] {
                let want = crate::reference::align(problem, &x, &y);
                for ranks in [1, 2, 4] {
                    for f in [1, 2, 5, 7, 64] {
                        for k in [1, 4, 13, m, m + 5] {
                            let plan = BandPlan::new(m, n, ranks, 32)
                                .with_problem(problem)
                                .with_seam_words(f);
                            let got = run_plan(&plan, &x, &y, Checkpoint::Every(k));
                            let what = format!("{problem} m={m} n={n} P={ranks} f={f} K={k}");
                            assert_eq!(got.path, want, "{what}");
                            let r = got.recompute;
                            assert!(r.windows >= r.blocks, "{what}: {r:?}");
                            // No row-word twice: never more than one more fill.
                            assert!(r.words <= (m * plan.total_words()) as u64, "{what}: {r:?}");
                        }
                    }
                }
            }
        }
        // x[i] matches every 40th column of y: the walk goes 40 columns left per row, so in
        // one block of all 40 rows it crosses all 25 words, seams every word, one window each.
        let x = [b'a'; 40];
        let y: Vec<u8> = (0..40 * 40)
            .map(|t| if t % 40 == 39 { b'a' } else { b'b' })
            .collect();
        for problem in [Problem::Lcs, Problem::Edit] {
            let plan = BandPlan::new(40, 1600, 1, 32)
                .with_problem(problem)
                .with_seam_words(1);
            let got = run_plan(&plan, &x, &y, Checkpoint::Every(45));
            assert_eq!(got.path, crate::reference::align(problem, &x, &y));
            assert_eq!(got.recompute.blocks, 1, "{problem}");
            assert_eq!(got.recompute.windows, 25, "{problem}: {:?}", got.recompute);
        }
    }

    #[test]
    fn wide_bands_keep_the_seams_the_vector_kernels_report() {
        // Bands of 65 words and more, whose four-row passes go through the vector kernels
        // (`Kernel::for_words`), one call per row window reporting the carries at every seam in
        // it: the walk, recomputing its windows from those seams, is the reference's. Seams
        // closer than the wavefront's span (stepped in pieces), just past it, and wider apart.
        let mut rng = Random::new(0x5ea3);
        let (x, y) = (rng.bytes(300, b"ACGT"), rng.bytes(64 * 130 + 5, b"ACGT"));
        for problem in [Problem::Lcs, Problem::Edit] {
            let want = crate::reference::align(problem, &x, &y);
            for ranks in [1, 2] {
                for f in [5, 10, 16, 23, 64] {
                    for k in [7, 50] {
                        let plan = BandPlan::new(x.len(), y.len(), ranks, 64)
                            .with_problem(problem)
                            .with_seam_words(f);
                        let got = run_plan(&plan, &x, &y, Checkpoint::Every(k));
                        let what = format!("{problem} P={ranks} f={f} K={k}");
                        assert_eq!(got.path, want, "{what}");
                        let r = got.recompute;
                        assert!(r.windows > r.blocks, "{what}: {r:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn batch_messages_round_trip() {
        // What band k sends for a batch is what band k+1 reads as its carry-ins: run two bands
        // row by row, pack the first's carry-outs per batch (one plane per bit of payload),
        // unpack on the second.
        let mut rng = Random::new(5);
        let x = rng.bytes(250, b"ACGT");
        let y = rng.bytes(256, b"ACGT");
        for problem in [Problem::Lcs, Problem::Edit] {
            let edge = crate::bands::kernel::left_edge(problem);
            for batch in BATCHES {
                let plan = BandPlan::new(250, 256, 2, batch).with_problem(problem);
                let planes = problem.planes();
                let mut left = BandStore::new(&plan, 0, &x, &y, Checkpoint::Full);
                let mut by_row = BandStore::new(&plan, 0, &x, &y, Checkpoint::Full);
                for b in 0..plan.batches() {
                    let mut msg = vec![u64::MAX; plan.message_words(b)];
                    left.run_batch(b, None, &mut msg);
                    let rows = plan.batch_rows(b);
                    let payloads: Vec<u8> = rows.clone().map(|i| by_row.row(i, edge)).collect();
                    let words = plan.carry_words(b);
                    for (t, &p) in payloads.iter().enumerate() {
                        assert_eq!(carry::get_payload(&msg, words, planes, t), p);
                    }
                    for plane in 0..planes {
                        let bits: Vec<bool> =
                            payloads.iter().map(|p| p >> plane & 1 == 1).collect();
                        let packed = &msg[plane * words..(plane + 1) * words];
                        assert_eq!(packed, carry::pack(&bits), "{problem} B={batch} batch {b}");
                    }
                    assert_eq!(msg.len() as u64 * 8, plan.message_bytes(b));
                }
            }
        }
    }

    #[test]
    fn large_case_matches_the_reference() {
        let mut rng = Random::new(3000);
        let x = rng.bytes(3000, b"ACGT");
        let y = rng.bytes(5000, b"ACGT");
        let plan = BandPlan::new(3000, 5000, 3, 256);
        for problem in [Problem::Lcs, Problem::Edit] {
            let want = crate::reference::align(problem, &x, &y);
            for mode in [Checkpoint::Every(50), Checkpoint::Full] {
                let got = run_in_process(problem, &x, &y, 3, 256, mode);
                assert_eq!(got.path, want, "{problem} {mode:?}");
                assert_eq!(got.messages.down, [12, 12]);
                assert_eq!(plan.predicted_messages(), 24);
                assert!(got.hops <= 2);
            }
        }
        // Checkpoints use a fraction of the full bits.
        let full = estimate_bytes(&plan, 0, &x, Checkpoint::Full);
        let every = estimate_bytes(&plan, 0, &x, Checkpoint::Every(50));
        assert!(every * 10 < full, "{every} vs {full}");
    }

    /// The pairs of the diagonal band's tests: `generate --mutate` copies at 0.1%, 1% and
    /// 10% (substitutions and indels, so the path drifts off the main diagonal and m != n),
    /// as rows and columns.
    fn near_pairs(len: usize) -> Vec<(f64, Vec<u8>, Vec<u8>)> {
        [0.001, 0.01, 0.1]
            .into_iter()
            .enumerate()
            .map(|(s, rate)| {
                let (a, b) = crate::random::mutated_pair(len, rate, b"ACGT", 40 + s as u64);
                let (x, y) = if a.len() <= b.len() { (a, b) } else { (b, a) };
                (rate, x, y)
            })
            .collect()
    }

    /// Checks a band search's run against the whole matrix's walk and the predictions.
    fn check_search(
        plan: &BandPlan,
        x: &[u8],
        y: &[u8],
        mode: Checkpoint,
        what: &str,
    ) -> BandSearch {
        let problem = plan.problem();
        let want = crate::reference::align(problem, x, y);
        let (search, got) = run_search(plan, x, y, mode, BandChoice::Auto);
        assert!(search.proven, "{what}");
        assert_eq!(got.path, want, "{what}: {:?}", search.fills);
        let answer = match problem {
            Problem::Lcs => want.matched(x).len(),
            Problem::Edit => want.edits(),
        };
        assert_eq!(got.answer_from_state, answer, "{what}");
        let predicted = plan.predicted_fills(&search.fills);
        assert_eq!(got.messages, predicted, "{what}: {:?}", search.fills);
        let bytes: u64 = search
            .fills
            .iter()
            .map(|&k| {
                plan.with_band(diagonal_band::Band::new(x.len(), y.len(), k))
                    .predicted_bytes()
            })
            .sum();
        assert_eq!(got.message_bytes, bytes, "{what}");
        search
    }

    #[test]
    fn banded_paths_equal_the_whole_matrix_move_for_move() {
        for (rate, x, y) in near_pairs(3000) {
            for problem in [Problem::Lcs, Problem::Edit] {
                let mut banded = 0;
                for ranks in [1, 2, 3, 5] {
                    for (mode, f) in [
                        (Checkpoint::Full, 64),
                        (Checkpoint::Every(17), 1),
                        (Checkpoint::Every(55), 3),
                        (Checkpoint::Every(55), 64),
                    ] {
                        let plan = BandPlan::new(x.len(), y.len(), ranks, 64)
                            .with_problem(problem)
                            .with_seam_words(f);
                        let what = format!("{problem} rate {rate} P={ranks} {mode:?} f={f}");
                        let search = check_search(&plan, &x, &y, mode, &what);
                        banded += usize::from(search.last().is_some());
                    }
                }
                // The near copies are filled in a band, not the whole matrix.
                if rate < 0.05 {
                    assert_eq!(banded, 16, "{problem} rate {rate}");
                }
            }
        }
    }

    #[test]
    fn unrelated_pairs_take_one_narrow_fill_then_the_bound() {
        // Unrelated sequences: the first fill's bound is far from proving itself; the LCS's
        // is so far that the second fill is the whole matrix, the edit distance's proves a
        // band of under half the cells, reached by one doubling and a jump.
        let mut rng = Random::new(0xba2d);
        let (x, y) = (rng.bytes(2500, b"ACGT"), rng.bytes(2600, b"ACGT"));
        for problem in [Problem::Lcs, Problem::Edit] {
            for ranks in [1, 3] {
                let plan = BandPlan::new(2500, 2600, ranks, 256).with_problem(problem);
                let search = check_search(&plan, &x, &y, Checkpoint::Every(50), "random");
                assert_eq!(search.fills[0], Some(diagonal_band::AUTO_START));
                match problem {
                    Problem::Lcs => assert_eq!(search.fills, [Some(64), None]),
                    Problem::Edit => assert_eq!(search.fills.len(), 3, "{:?}", search.fills),
                }
            }
        }
    }

    #[test]
    fn fixed_bands_prove_themselves_or_give_no_path() {
        let (_, x, y) = near_pairs(2000).swap_remove(1);
        for problem in [Problem::Lcs, Problem::Edit] {
            let want = crate::reference::align(problem, &x, &y);
            let (mut proven, mut refused) = (0, 0);
            for k in [0, 1, 5, 20, 63, 64, 65, 200, 1999] {
                for ranks in [1, 2, 5] {
                    let plan = BandPlan::new(x.len(), y.len(), ranks, 63).with_problem(problem);
                    let choice = BandChoice::Fixed(k);
                    let (search, got) = run_search(&plan, &x, &y, Checkpoint::Every(9), choice);
                    assert_eq!(search.fills.len(), 1);
                    if search.proven {
                        assert_eq!(got.path, want, "{problem} K={k} P={ranks}");
                        proven += 1;
                    } else {
                        assert!(got.path.is_empty(), "no walk in an unproven band");
                        refused += 1;
                    }
                }
            }
            assert!(
                proven > 0 && refused > 0,
                "{problem}: {proven} proven, {refused} not"
            );
        }
    }

    #[test]
    fn doubling_from_a_narrow_band_proves_itself_after_several_fills() {
        // Edlib's plain doubling from a margin of 1: every fill that does not prove itself is
        // followed by one twice as wide; the first that proves itself gives the whole
        // matrix's walk, at every rank count, with or without checkpoints.
        for (rate, x, y) in near_pairs(3000).into_iter().skip(1) {
            for problem in [Problem::Lcs, Problem::Edit] {
                let want = crate::reference::align(problem, &x, &y);
                for (ranks, mode) in [(1, Checkpoint::Full), (3, Checkpoint::Every(20))] {
                    let plan = BandPlan::new(x.len(), y.len(), ranks, 100).with_problem(problem);
                    let mut k = 1;
                    let mut fills = 0;
                    loop {
                        let b = diagonal_band::Band::new(x.len(), y.len(), Some(k));
                        let run = run_plan(&plan.with_band(b), &x, &y, mode);
                        fills += 1;
                        let total = run.messages.total;
                        assert_eq!(total, plan.with_band(b).predicted_messages());
                        if b.proves(problem, run.answer_from_state) {
                            assert_eq!(run.path, want, "{problem} rate {rate} K={k}");
                            break;
                        }
                        k *= 2;
                    }
                    assert!(fills >= 4, "{problem} rate {rate}: {fills} fills");
                }
            }
        }
    }

    #[test]
    fn lapping_bands_give_the_whole_matrix_s_walk() {
        // Several bands per rank, ranks in a ring: the same path, answer and predictions as
        // one band per rank, whatever the band count, the batch and the checkpoints.
        for (rate, x, y) in near_pairs(2000) {
            for problem in [Problem::Lcs, Problem::Edit] {
                let want = crate::reference::align(problem, &x, &y);
                let margin = match rate {
                    r if r > 0.05 => 400,
                    _ => 150,
                };
                let band = diagonal_band::Band::new(x.len(), y.len(), Some(margin));
                for (ranks, laps, batch) in [(2, 2, 64), (2, 4, 17), (3, 2, 100), (4, 3, 64)] {
                    for mode in [Checkpoint::Full, Checkpoint::Every(13)] {
                        let plan = BandPlan::new(x.len(), y.len(), ranks, batch)
                            .with_problem(problem)
                            .with_band(band)
                            .with_laps(laps);
                        let what = format!("{problem} rate {rate} P={ranks} laps {laps} {mode:?}");
                        assert_eq!(plan.bands(), ranks * laps, "{what}");
                        let got = run_plan(&plan, &x, &y, mode);
                        assert_eq!(got.path, want, "{what}");
                        assert_eq!(got.messages, plan.predicted(), "{what}");
                        assert_eq!(got.message_bytes, plan.predicted_bytes(), "{what}");
                        assert!(got.hops < plan.active_bands() as u64, "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn banded_shapes_at_the_edges() {
        // m much smaller than n, one row, one column, empty x, identical sequences: every
        // fixed band that proves itself and auto give the whole matrix's walk.
        let mut rng = Random::new(0x5a9e);
        let long = rng.bytes(5000, b"ACGT");
        let shapes: Vec<(Vec<u8>, Vec<u8>)> = vec![
            (long[100..103].to_vec(), long.clone()),
            (long[..1].to_vec(), long.clone()),
            (rng.bytes(40, b"AC"), long.clone()),
            (Vec::new(), long.clone()),
            (Vec::new(), Vec::new()),
            (b"A".to_vec(), b"A".to_vec()),
            (long[..3000].to_vec(), long[..3000].to_vec()),
            (long[..2990].to_vec(), long[5..3001].to_vec()),
        ];
        for (x, y) in shapes {
            for problem in [Problem::Lcs, Problem::Edit] {
                let want = crate::reference::align(problem, &x, &y);
                for ranks in [1, 2, 5] {
                    let plan = BandPlan::new(x.len(), y.len(), ranks, 64).with_problem(problem);
                    for choice in [BandChoice::Auto, BandChoice::Fixed(0), BandChoice::Fixed(3)] {
                        for mode in [Checkpoint::Full, Checkpoint::Every(7)] {
                            let what = format!(
                                "{problem} {} x {} P={ranks} {choice} {mode:?}",
                                x.len(),
                                y.len()
                            );
                            let (search, got) = run_search(&plan, &x, &y, mode, choice);
                            if search.proven {
                                assert_eq!(got.path, want, "{what}");
                            }
                            let total = got.messages.total;
                            assert_eq!(total, plan.predicted_fills(&search.fills).total, "{what}");
                        }
                    }
                }
            }
        }
    }
}
