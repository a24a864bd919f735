//! Two numbers about the final cost `s` before the exact fill: an upper bound ([`upper_bound`])
//! that keeps the fill to the diagonals that can matter, and an estimate from samples
//! ([`estimate`]) for choosing an engine and checking memory.
//!
//! The bound is the cost of a real alignment, found by the same steps over a reduced
//! wavefront: after each step the diagonals that lag more than [`REDUCTION`] cells of
//! anti-diagonal progress (`I + J`) behind the furthest are dropped from both ends, as
//! WFA2-lib's adaptive reduction does (Marco-Sola et al. 2021,
//! doi:10.1093/bioinformatics/btaa777). Every value it keeps is reached by real moves, so when
//! it reaches the last cell its step is the cost of an alignment: at least `s`, usually `s`
//! itself on similar sequences. Cost: `O(s * REDUCTION)` diagonal steps and one slide along
//! the best diagonals, in plain code (the gathering kernel pays off on wide steps only).
//!
//! The estimate aligns [`SAMPLES`] pieces of [`SAMPLE_ROWS`] bytes of `x`, spread along it,
//! each against the stretch of `y` at the same place with [`SLACK`] bytes more on either side
//! and free ends in `y` (so that the indels before a piece do not count in it), and scales
//! their edits to the whole: `max(n - m, rate * m)` for the edit distance, `(n - m) + 2 *
//! rate * m` for the indel distance (`rate` the share of the pieces' bytes left unmatched).
//! Cost: `SAMPLES * SAMPLE_ROWS * (SAMPLE_ROWS + 2 * SLACK) / 64` word steps.

use crate::bitpar::{self, edit::Delta, Edit, Masks, Row};
use crate::problem::Problem;

use super::front::{self, seed, trivial_bound, Prev, PAD};

/// Anti-diagonal progress a diagonal may lag behind the furthest before the bound's reduced
/// wavefront drops it.
pub const REDUCTION: i64 = 48;

/// Pieces of `x` the estimate aligns, and their length.
pub const SAMPLES: usize = 4;
pub const SAMPLE_ROWS: usize = 1024;

/// Bytes of `y` on either side of a piece's place.
pub const SLACK: usize = 256;

/// An upper bound of the final cost of `x` (the rows, `m <= n`) and `y`: the cost of the
/// alignment a reduced wavefront finds, or the trivial bound.
pub fn upper_bound(problem: Problem, (x, y): (&[u8], &[u8])) -> usize {
    let trivial = trivial_bound(problem, x.len(), y.len());
    upper_bound_within(problem, (x, y), trivial).unwrap_or(trivial)
}

/// The bound a wave run keeps its steps within: [`upper_bound`]; with a `cut_off`, that bound
/// where it is within the cut-off (the run cannot pass it then), else the cut-off itself, the
/// reduced wavefront stopped there, whose cost then follows the cut-off, not the pair.
pub fn for_run(problem: Problem, seqs: (&[u8], &[u8]), cut_off: Option<usize>) -> usize {
    match cut_off {
        None => upper_bound(problem, seqs),
        Some(cap) => upper_bound_within(problem, seqs, cap).unwrap_or(cap),
    }
}

/// [`upper_bound`] where it is at most `cap`, else `None`: the reduced wavefront stops at
/// step `cap`, so what it costs follows the cap, not the pair's distance.
pub fn upper_bound_within(problem: Problem, (x, y): (&[u8], &[u8]), cap: usize) -> Option<usize> {
    let (m, n) = (x.len(), y.len());
    let trivial = trivial_bound(problem, m, n);
    if m == 0 {
        return (trivial <= cap).then_some(trivial);
    }
    let stride = match problem {
        Problem::Edit => 1,
        Problem::Lcs => 2,
    };
    let (mut prev_first, mut prev) = seed(problem);
    let (mut first, mut last) = (0i64, 0i64);
    let end = (n - m) as i64;
    let mut out: Vec<i32> = Vec::new();
    for t in 0..=trivial.min(cap) {
        let count = ((last - first) / stride) as usize + 1;
        out.clear();
        out.resize(count, 0);
        let p = Prev {
            first: prev_first,
            values: &prev,
        };
        front::step_words(problem, p, first, &mut out, (x, y));
        let at = end - first;
        if at >= 0 && end <= last && at % stride == 0 && out[(at / stride) as usize] >= m as i32 {
            return Some(t);
        }
        // Drop the laggards from both ends.
        let progress = |q: usize| 2 * i64::from(out[q]) + first + stride * q as i64;
        let best = (0..count).map(progress).max().unwrap_or(0);
        let keep = |q: usize| progress(q) >= best - REDUCTION;
        let lo = (0..count).find(|&q| keep(q)).unwrap_or(0);
        let hi = (0..count).rev().find(|&q| keep(q)).unwrap_or(count - 1);
        prev_first = first + stride * lo as i64;
        prev.clear();
        prev.resize(PAD, front::NONE);
        prev.extend_from_slice(&out[lo..=hi]);
        prev.resize(prev.len() + PAD, front::NONE);
        let kept_last = first + stride * hi as i64;
        // The next step: one diagonal further each way, inside the matrix, of its parity.
        first = prev_first - 1;
        last = kept_last + 1;
        while first < -(m as i64) {
            first += stride;
        }
        while last > n as i64 {
            last -= stride;
        }
    }
    (trivial <= cap).then_some(trivial)
}

/// An estimate of the final cost of `x` (the rows, `m <= n`) and `y` from samples (see the
/// module doc).
pub fn estimate(problem: Problem, x: &[u8], y: &[u8]) -> usize {
    let (m, n) = (x.len(), y.len());
    if m == 0 {
        return trivial_bound(problem, m, n);
    }
    let rows = SAMPLE_ROWS.min(m);
    let samples = (m / rows).clamp(1, SAMPLES);
    let mut unmatched = 0usize;
    for s in 0..samples {
        let a = match samples {
            1 => 0,
            _ => s * (m - rows) / (samples - 1),
        };
        // The same fraction of the way along y as a is along x.
        let b = (a as u128 * (n - rows) as u128 / (m - rows).max(1) as u128) as usize;
        let (lo, hi) = (b.saturating_sub(SLACK), (b + rows + SLACK).min(n));
        let (xs, ys) = (&x[a..a + rows], &y[lo..hi]);
        unmatched += match problem {
            Problem::Lcs => rows - bitpar::lcs_length(xs, ys),
            Problem::Edit => free_ends_distance(xs, ys),
        };
    }
    let scaled = (unmatched as u128 * m as u128).div_ceil((samples * rows) as u128) as usize;
    match problem {
        Problem::Edit => scaled.max(n - m),
        Problem::Lcs => (n - m) + 2 * scaled,
    }
}

/// The edit distance of `x` to its best place in `y` (free ends in `y`): Myers' step with the
/// row before the first free (no horizontal delta), the least value of the last row.
fn free_ends_distance(x: &[u8], y: &[u8]) -> usize {
    let words = y.len().div_ceil(bitpar::WORD_BITS);
    let masks = Masks::new(x, y);
    let (mut pv, mut mv) = (vec![0u64; words], vec![0u64; words]);
    for &b in x {
        Edit::step([&mut pv, &mut mv], masks.of(b), Delta::EDGE);
    }
    // D(m-1, -1) = m, then the last row's deltas column by column.
    let (mut value, mut least) = (x.len() as i64, x.len() as i64);
    for j in 0..y.len() {
        let bit = 1u64 << (j % bitpar::WORD_BITS);
        let w = j / bitpar::WORD_BITS;
        value += i64::from(pv[w] & bit != 0) - i64::from(mv[w] & bit != 0);
        least = least.min(value);
    }
    least as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{mutated_pair, Random};
    use crate::reference;

    fn cost(problem: Problem, x: &[u8], y: &[u8]) -> usize {
        let path = reference::align(problem, x, y);
        match problem {
            Problem::Edit => path.edits(),
            Problem::Lcs => x.len() + y.len() - 2 * path.matched(x).len(),
        }
    }

    #[test]
    fn the_bound_is_never_below_the_cost_and_tight_on_similar_pairs() {
        let mut rng = Random::new(5);
        for case in 0..80 {
            let (a, b) = (rng.below(200), rng.below(200));
            let (a, b) = (a.min(b), a.max(b));
            let (x, y) = (rng.bytes(a, b"ACGT"), rng.bytes(b, b"ACGT"));
            for problem in [Problem::Lcs, Problem::Edit] {
                let bound = upper_bound(problem, (&x, &y));
                assert!(bound >= cost(problem, &x, &y), "case {case}");
                assert!(bound <= trivial_bound(problem, a, b));
                // Capped: the same bound up to the cap, none below it.
                for cap in [0, bound / 2, bound.saturating_sub(1), bound, bound + 7] {
                    let within = upper_bound_within(problem, (&x, &y), cap);
                    assert_eq!(
                        within,
                        (bound <= cap).then_some(bound),
                        "case {case} cap {cap}"
                    );
                }
            }
        }
        let (x, y) = mutated_pair(20_000, 0.01, b"ACGT", 8);
        let (x, y) = if x.len() <= y.len() { (x, y) } else { (y, x) };
        for problem in [Problem::Lcs, Problem::Edit] {
            let bound = upper_bound(problem, (&x, &y));
            let exact = cost(problem, &x, &y);
            assert!(
                bound >= exact && bound <= exact + exact / 20,
                "{problem:?}: {bound} vs {exact}"
            );
        }
    }

    #[test]
    fn the_estimate_follows_the_rate_of_edits() {
        for (rate, seed) in [(0.001, 1), (0.01, 2), (0.1, 3)] {
            let (x, y) = mutated_pair(100_000, rate, b"ACGT", seed);
            let (x, y) = if x.len() <= y.len() { (x, y) } else { (y, x) };
            for problem in [Problem::Lcs, Problem::Edit] {
                let exact = cost(problem, &x, &y) as f64;
                let guess = estimate(problem, &x, &y) as f64;
                // Four pieces of a kilobyte: within a few times the cost, far from the size.
                assert!(
                    guess <= 4.0 * exact + 64.0 && guess >= exact / 4.0 - 64.0,
                    "{problem:?} {rate}: {guess} vs {exact}"
                );
            }
        }
        let mut rng = Random::new(2);
        let (x, y) = (rng.bytes(50_000, b"ACGT"), rng.bytes(50_000, b"ACGT"));
        assert!(
            estimate(Problem::Edit, &x, &y) > 15_000,
            "unrelated sequences look far apart"
        );
        assert_eq!(estimate(Problem::Edit, b"", b"ACG"), 3);
        assert_eq!(free_ends_distance(b"CGT", b"AACGTAA"), 0);
        assert_eq!(free_ends_distance(b"CGT", b"AACTAA"), 1);
    }
}
