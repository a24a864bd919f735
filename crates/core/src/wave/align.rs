//! The wave engine in one process: filled step by step until the last cell is reached,
//! keeping a checkpoint every [`super::kept::EVERY`] steps ([`fill`]), then walked ([`align`]). The oracle
//! of the distributed wave engine, and the sequential entry (`reference --engine wave`).
//!
//! Memory: two wavefronts being computed and the checkpoints, about `s^2 / (2 * EVERY)`
//! values for a final cost `s`. Time: about `s^2 / 2` diagonal steps (with the bound near the
//! cost; half as many diagonals per step for the LCS's indel distance) and one compare per
//! run of matching bytes slid, plus the walk's recomputed windows.

use crate::problem::{Path, Problem};

use super::bound;
use super::compare::Compare;
use super::front::{seed, Prev, Reach, Work, NONE, PAD};
use super::kept::{Kept, Recall, EVERY};
use super::kernel;
use super::seqs::Seqs;
use super::walk::{self, At};

/// A finished fill: what it kept, the final cost and the work done.
#[derive(Debug, Clone)]
pub struct Filled {
    pub kept: Kept,
    pub cost: usize,
    pub work: Work,
}

/// Whether step `t`'s values `out` (diagonals from `first`) reach the last cell.
pub fn reaches_end(reach: &Reach, first: i64, out: &[i32]) -> bool {
    let (end, stride) = (reach.end(), reach.stride());
    let at = end - first;
    at >= 0
        && at % stride == 0
        && out
            .get((at / stride) as usize)
            .is_some_and(|&v| v >= reach.m as i32)
}

/// Fills the wavefronts of `x` (the rows, `m <= n`) and `y` step by step, each step over the
/// diagonals `Reach` gives for `bound` (at least the final cost), until the last cell is
/// reached, keeping every checkpoint.
pub fn fill(problem: Problem, compare: Compare, seqs: &Seqs, bound: usize) -> Filled {
    fill_until(problem, compare, seqs, bound, None).expect("no cut-off")
}

/// [`fill`] that gives up after step `cut_off` (`None` when the end was not reached by then).
pub fn fill_until(
    problem: Problem,
    compare: Compare,
    seqs: &Seqs,
    bound: usize,
    cut_off: Option<usize>,
) -> Option<Filled> {
    let reach = Reach::new(problem, seqs.x().len(), seqs.y().len(), bound);
    let mut kept = Kept::new(reach, EVERY);
    let (mut prev_first, mut prev) = seed(problem);
    let widest = (0..=reach.bound).map(|t| reach.count(t)).max().unwrap_or(1);
    prev.reserve(widest + 2 * PAD);
    let mut out: Vec<i32> = Vec::with_capacity(widest + 2 * PAD);
    let mut work = Work::default();
    let last = cut_off.map_or(reach.bound, |c| c.min(reach.bound));
    for t in 0..=last {
        let Some((first, _)) = reach.range(t) else {
            // A bound below the cost (a cut-off's) can leave a step no diagonal.
            assert!(cut_off.is_some(), "the bound holds the final cost");
            return None;
        };
        let count = reach.count(t);
        // The step writes every value before anything reads it: only the pads are reset, as
        // a pass over the whole front would cost as long as the step itself.
        out.resize(count + 2 * PAD, NONE);
        out[..PAD].fill(NONE);
        out[PAD + count..].fill(NONE);
        let p = Prev {
            first: prev_first,
            values: &prev,
        };
        let values = &mut out[PAD..PAD + count];
        work.add(kernel::step(problem, compare, p, first, values, seqs));
        if kept.is_checkpoint(t) {
            kept.keep(t, first, values);
        }
        if reaches_end(&reach, first, values) {
            return Some(Filled {
                kept,
                cost: t,
                work,
            });
        }
        std::mem::swap(&mut prev, &mut out);
        prev_first = first;
    }
    assert!(
        cut_off.is_some(),
        "a fill bounded by {} did not reach the end",
        reach.bound
    );
    None
}

/// Bytes [`align`] holds at most for an `m x n` pair (`m <= n`) whose fill is kept within
/// `bound`: the sequences' padded copies, two steps and the checkpoints.
pub fn memory_bytes(problem: Problem, m: usize, n: usize, bound: usize) -> u64 {
    let reach = Reach::new(problem, m, n, bound);
    let widest = (0..=reach.bound).map(|t| reach.count(t)).max().unwrap_or(0) as u64;
    let checkpoints: u64 = (0..=reach.bound)
        .step_by(EVERY)
        .map(|t| reach.count(t) as u64 + 2 * PAD as u64)
        .sum();
    let seqs = (m + n + 2 * super::seqs::SLACK) as u64;
    seqs + 4 * (2 * (widest + 2 * PAD as u64) + checkpoints) + (m + n) as u64 / 4
}

/// A pair aligned by the wave engine.
#[derive(Debug, Clone)]
pub struct Aligned {
    pub path: Path,
    /// The edit distance, or the indel distance for the LCS.
    pub cost: usize,
    /// The bound the fill was kept within.
    pub bound: usize,
    /// The fill's work, and the walk's recomputations'.
    pub work: Work,
    pub recomputed: Work,
    /// Bytes the checkpoints held.
    pub bytes: u64,
}

/// The alignment of `x` (the rows, `m <= n`) and `y` by the wave engine: the same path as
/// every other engine's.
pub fn align(problem: Problem, x: &[u8], y: &[u8]) -> Aligned {
    align_with(problem, Compare::detected(), x, y)
}

/// [`align`] with the compare kernel `compare`.
pub fn align_with(problem: Problem, compare: Compare, x: &[u8], y: &[u8]) -> Aligned {
    let bound = bound::upper_bound(problem, (x, y));
    align_until(problem, compare, (x, y), (bound, None)).expect("no cut-off")
}

/// [`align_with`] within `bound` (at least the final cost, or the cut-off:
/// [`bound::for_run`]) that gives up (`None`) when the cost is above `cut_off`: the fill
/// stops after that step, and there is no walk.
pub fn align_until(
    problem: Problem,
    compare: Compare,
    (x, y): (&[u8], &[u8]),
    (bound, cut_off): (usize, Option<usize>),
) -> Option<Aligned> {
    let seqs = Seqs::new(x, y);
    let filled = fill_until(problem, compare, &seqs, bound, cut_off)?;
    let mut path = Path::new();
    let at = At {
        i: x.len(),
        j: y.len(),
        cost: filled.cost,
    };
    let mut recall = Recall::new(&filled.kept, compare, &seqs);
    let walk = walk::Walk {
        problem,
        compare,
        x,
        y,
    };
    let stop = walk.walk(&mut recall, at, |_, _| true, &mut path, None);
    debug_assert_eq!(stop, walk::Stop::Done);
    Some(Aligned {
        path,
        cost: filled.cost,
        bound,
        work: filled.work,
        recomputed: recall.work,
        bytes: filled.kept.bytes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{mutated_pair, Random};
    use crate::reference;

    /// Rows first, as the engines take a pair.
    fn oriented(a: Vec<u8>, b: Vec<u8>) -> (Vec<u8>, Vec<u8>) {
        if a.len() <= b.len() {
            (a, b)
        } else {
            (b, a)
        }
    }

    fn check(x: &[u8], y: &[u8]) {
        for problem in [Problem::Lcs, Problem::Edit] {
            let want = reference::align(problem, x, y);
            let cost = match problem {
                Problem::Edit => want.edits(),
                Problem::Lcs => x.len() + y.len() - 2 * want.matched(x).len(),
            };
            for compare in Compare::available() {
                let got = align_with(problem, compare, x, y);
                assert_eq!(
                    got.path,
                    want,
                    "{problem:?} {compare:?} x={:?} y={:?}",
                    String::from_utf8_lossy(x),
                    String::from_utf8_lossy(y)
                );
                assert_eq!(got.cost, cost);
                // A cut-off at the cost is reached; one below it gives up.
                let within = |c| {
                    let bound = bound::for_run(problem, (x, y), Some(c));
                    align_until(problem, compare, (x, y), (bound, Some(c))).map(|a| a.path)
                };
                assert_eq!(within(cost).as_ref(), Some(&want));
                if cost > 0 {
                    assert!(within(cost - 1).is_none());
                }
                // Unbounded, the same cost in more work.
                let full = fill(problem, compare, &Seqs::new(x, y), usize::MAX);
                assert_eq!(full.cost, cost);
                assert!(full.work.diagonals >= got.work.diagonals);
            }
        }
    }

    #[test]
    fn every_short_pair_walks_the_reference_path() {
        for (x, y) in crate::exhaustive::short_pairs(5) {
            check(&x, &y);
        }
    }

    #[test]
    fn random_near_and_unrelated_pairs_walk_the_reference_path() {
        let mut rng = Random::new(17);
        for case in 0..60 {
            let alphabet: &[u8] = [&b"AB"[..], b"ACGT", b"abcdefghijklmnopqrstuvwxyz"][case % 3];
            let (a, b) = (rng.below(300), rng.below(300));
            let (x, y) = oriented(rng.bytes(a, alphabet), rng.bytes(b, alphabet));
            check(&x, &y);
        }
        for (len, rate, seed) in [
            (2000, 0.001, 1),
            (3000, 0.01, 2),
            (1500, 0.1, 3),
            (700, 0.3, 4),
        ] {
            let (a, b) = mutated_pair(len, rate, b"ACGT", seed);
            let (x, y) = oriented(a, b);
            check(&x, &y);
        }
    }

    #[test]
    fn empty_and_one_byte_sequences() {
        let pairs: [(&[u8], &[u8]); 6] = [
            (b"", b""),
            (b"", b"A"),
            (b"", b"ACGT"),
            (b"A", b"A"),
            (b"A", b"C"),
            (b"A", b"CAG"),
        ];
        for (x, y) in pairs {
            check(x, y);
        }
    }

    #[test]
    fn checkpoints_keep_a_fraction_and_the_walk_recomputes_little() {
        // A cost of about 1,000: blocks of 32 steps, windows of a few hundred diagonals.
        let (a, b) = mutated_pair(100_000, 0.01, b"ACGT", 9);
        let (x, y) = oriented(a, b);
        let got = align(Problem::Edit, &x, &y);
        assert_eq!(got.cost, crate::bitpar::edit::distance(&x, &y));
        assert!(got.path.spans(&x, &y));
        assert_eq!(got.path.edits(), got.cost);
        // A quarter of the four bytes per diagonal step that keeping every step would take.
        assert!(got.bytes < got.work.diagonals, "{} bytes", got.bytes);
        assert!(
            got.recomputed.diagonals < got.work.diagonals / 2,
            "{:?} {:?}",
            got.recomputed,
            got.work
        );
    }
}
