//! One pair's path by the bands engine in one process, as a one-rank `solve --engine bands` takes
//! it: one band of every word of the matrix, batches of [`DEFAULT_BATCH`] rows, the traceback
//! kept as `--checkpoint auto` keeps it for rank 0 under a memory budget
//! ([`mode_within`]), then the band search of [`run_search`]. For callers with no MPI (a
//! binding): the path, the answer and the bands filled are those of the MPI run on one rank.
//!
//! Cost: the search's fills, each `m * w` word steps for a band of `w` words (`w = ceil(n / 64)`
//! for the whole matrix), the walk `O(m + n)` steps plus any recompute; memory, the last fill's
//! store ([`super::checkpoint::holding`]) and the sequences.

use super::checkpoint::{
    estimate_bytes, Checkpoint, CheckpointChoice, NoFit, AUTO_CHECKPOINT_ROWS,
};
use super::local::run_search;
use super::plan::{BandPlan, DEFAULT_BATCH};
use super::store::RecomputeStats;
use crate::diagonal_band::{Band, BandChoice, BandSearch};
use crate::problem::{Path, Problem};

/// What [`align()`] found.
#[derive(Debug, Clone)]
pub struct Aligned {
    /// The walk's path, move for move `reference::align`'s; `None` when a fixed band did not
    /// prove itself (no walk is taken: a path outside the band could beat its answer).
    pub path: Option<Path>,
    /// The last fill's answer: the LCS length, or the edit distance (for a fixed band that did
    /// not prove itself, only a bound: the band's best).
    pub answer: usize,
    /// The diagonal bands filled, the last the answer's.
    pub search: BandSearch,
    /// What the band kept for the walk.
    pub mode: Checkpoint,
    /// The walk's recompute (none when the band kept every bit).
    pub recompute: RecomputeStats,
}

/// The path of `problem` between `x`, the rows, and `y`, the columns, by the bands engine on
/// one rank with the diagonal band `choice` asks (`BandChoice::Off`: the whole matrix), its
/// traceback kept within `budget` bytes when given ([`mode_within`]). `x` must be the shorter
/// sequence, `x.len() <= y.len()`, as the MPI engine orients a pair: callers with a longer `x`
/// swap the two (the LCS is the same; for the edit distance, insertions and deletions trade
/// places).
///
/// # Errors
/// [`NoFit`] when no way of keeping the traceback fits `budget` on the band the run expects to
/// fill last ([`Band::expected`]), as the MPI run's memory pre-check refuses it. A search that
/// widens past that band is not checked again.
///
/// # Panics
/// When `x` is longer than `y`.
///
/// ```
/// use lcs_core::bands::align;
/// use lcs_core::diagonal_band::BandChoice;
/// use lcs_core::problem::Problem;
/// use lcs_core::reference;
///
/// let (x, y) = (b"kitten", b"sitting");
/// let got = align(Problem::Edit, x, y, BandChoice::Auto, None).unwrap();
/// assert_eq!(got.answer, 3);
/// assert_eq!(got.path, Some(reference::align(Problem::Edit, x, y)));
/// ```
pub fn align(
    problem: Problem,
    x: &[u8],
    y: &[u8],
    choice: BandChoice,
    budget: Option<u64>,
) -> Result<Aligned, NoFit> {
    assert!(
        x.len() <= y.len(),
        "the rows are the shorter sequence: {} rows, {} columns",
        x.len(),
        y.len()
    );
    let (m, n) = (x.len(), y.len());
    let band = match choice {
        BandChoice::Off => Band::whole(m, n),
        choice => Band::expected(problem, x, y, choice),
    };
    let plan = BandPlan::new(m, n, 1, DEFAULT_BATCH)
        .with_problem(problem)
        .with_band(band);
    let mode = mode_within(&plan, x, budget)?;
    let (search, run) = run_search(&plan, x, y, mode, choice);
    Ok(Aligned {
        path: search.proven.then_some(run.path),
        answer: run.answer_from_state,
        search,
        mode,
        recompute: run.recompute,
    })
}

/// What the one band of `plan` (one rank's) keeps for the walk, as `--checkpoint auto` chooses
/// it for rank 0 within `budget` bytes ([`Checkpoint::choose`]; with no budget, every bit below
/// [`AUTO_CHECKPOINT_ROWS`] rows, else [`Checkpoint::for_walk`]), falling back to the interval
/// of least memory where that does not fit ([`Checkpoint::fallback`]), as the MPI run does.
/// `budget` is what the store may take: in an MPI run, the limit less what the process holds
/// already and the margin for MPI's buffers.
///
/// # Errors
/// [`NoFit`] when nothing fits: below [`AUTO_CHECKPOINT_ROWS`] rows with the least any interval
/// needs ([`Checkpoint::auto`]), from there with what the interval of least memory
/// ([`Checkpoint::leanest`]) needs.
pub fn mode_within(plan: &BandPlan, x: &[u8], budget: Option<u64>) -> Result<Checkpoint, NoFit> {
    let mode = Checkpoint::choose(plan, 0, x, CheckpointChoice::Auto, budget);
    let Some(budget) = budget else {
        return Ok(mode);
    };
    let fits = |mode: Checkpoint| estimate_bytes(plan, 0, x, mode) <= budget;
    let leanest = Checkpoint::fallback(plan, CheckpointChoice::Auto, mode);
    if let Some(mode) = [Some(mode), leanest]
        .into_iter()
        .flatten()
        .find(|&m| fits(m))
    {
        return Ok(mode);
    }
    if plan.rows() < AUTO_CHECKPOINT_ROWS {
        return Checkpoint::auto(plan, 0, x, budget);
    }
    let leanest = Checkpoint::leanest(plan.rows());
    let Checkpoint::Every(k) = leanest else {
        unreachable!("the leanest mode keeps checkpoints")
    };
    Err(NoFit {
        rank: 0,
        needed: estimate_bytes(plan, 0, x, leanest),
        k,
        budget,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{mutated_pair, Random};
    use crate::reference;

    const CHOICES: [BandChoice; 2] = [BandChoice::Auto, BandChoice::Off];

    /// `align` on `(x, y)` (or `(y, x)`, the shorter as the rows) against the reference, for
    /// both problems and both band choices.
    fn check(x: &[u8], y: &[u8], budget: Option<u64>) {
        let (x, y) = if x.len() <= y.len() { (x, y) } else { (y, x) };
        for problem in [Problem::Lcs, Problem::Edit] {
            let want = reference::align(problem, x, y);
            let answer = match problem {
                Problem::Lcs => want.matched(x).len(),
                Problem::Edit => want.edits(),
            };
            for choice in CHOICES {
                let what = format!("{problem} {choice} m={} n={}", x.len(), y.len());
                let got = align(problem, x, y, choice, budget).expect(&what);
                assert_eq!(got.path.as_ref(), Some(&want), "{what}");
                assert_eq!(got.answer, answer, "{what}");
                assert!(got.search.proven, "{what}");
                assert_eq!(got.search.alone, 0, "{what}");
                if choice == BandChoice::Off {
                    assert_eq!(got.search.fills, vec![None], "{what}");
                }
            }
        }
    }

    #[test]
    fn random_pairs_match_the_reference() {
        let mut rng = Random::new(0xa119);
        for alphabet in [&b"ab"[..], b"ACGT", b"abcdefghijklmnopqrstuvwxyz"] {
            for _ in 0..16 {
                let (a, b) = (rng.below(300), rng.below(300));
                check(&rng.bytes(a, alphabet), &rng.bytes(b, alphabet), None);
            }
        }
    }

    #[test]
    fn similar_pairs_match_the_reference() {
        for (s, len) in [0, 1, 40, 63, 64, 65, 127, 128, 129, 200, 299]
            .into_iter()
            .enumerate()
        {
            for rate in [0.0, 0.01, 0.1, 0.3] {
                let (x, y) = mutated_pair(len, rate, b"ACGT", 7 + s as u64);
                check(&x, &y, None);
            }
        }
    }

    #[test]
    fn a_long_similar_pair_is_filled_on_a_narrow_band() {
        for rate in [0.001, 0.01] {
            let (x, y) = mutated_pair(3000, rate, b"ACGT", 11);
            let (x, y) = if x.len() <= y.len() { (x, y) } else { (y, x) };
            check(&x, &y, None);
            for problem in [Problem::Lcs, Problem::Edit] {
                let got = align(problem, &x, &y, BandChoice::Auto, None).unwrap();
                assert!(
                    got.search.fills[0].is_some(),
                    "{problem} {rate}: {:?}",
                    got.search
                );
            }
        }
    }

    #[test]
    fn empty_and_word_boundary_lengths_match_the_reference() {
        let mut rng = Random::new(64);
        let lengths = [0, 1, 2, 63, 64, 65, 128];
        for &a in &lengths {
            for &b in &lengths {
                let x = rng.bytes(a, b"ACGT");
                // Half the pairs share a prefix: long diagonal runs.
                let mut y = x.clone();
                y.truncate(b);
                y.extend(rng.bytes(b.saturating_sub(y.len()), b"ACGT"));
                check(&x, &y, None);
                check(&x, &rng.bytes(b, b"ACGT"), None);
            }
        }
    }

    #[test]
    fn a_budget_picks_the_mode_or_refuses() {
        let (x, y) = mutated_pair(300, 0.05, b"ACGT", 3);
        let (x, y) = (&x[..250], &y[..]);
        let plan = BandPlan::new(x.len(), y.len(), 1, DEFAULT_BATCH).with_problem(Problem::Edit);
        // No budget, or room for every bit: every bit, as `auto` keeps on few rows.
        assert_eq!(mode_within(&plan, x, None), Ok(Checkpoint::Full));
        assert_eq!(mode_within(&plan, x, Some(u64::MAX)), Ok(Checkpoint::Full));
        let full = estimate_bytes(&plan, 0, x, Checkpoint::Full);
        // Less than every bit: the checkpoints of least memory, which fit.
        let mode = mode_within(&plan, x, Some(full - 1)).unwrap();
        assert!(matches!(mode, Checkpoint::Every(_)), "{mode:?}");
        assert!(estimate_bytes(&plan, 0, x, mode) < full);
        check(x, y, Some(full - 1));
        // Nothing fits: the least any interval needs.
        let err = align(Problem::Edit, x, y, BandChoice::Off, Some(1)).unwrap_err();
        assert_eq!((err.rank, err.budget), (0, 1));
        assert!(err.needed > 1 && err.k >= 1, "{err:?}");
        assert!(
            err.to_string()
                .starts_with("the bands store needs at least"),
            "{err}"
        );
        // From `AUTO_CHECKPOINT_ROWS` rows, `auto` checkpoints whatever the budget.
        let long = BandPlan::new(AUTO_CHECKPOINT_ROWS, AUTO_CHECKPOINT_ROWS, 1, DEFAULT_BATCH);
        let rows = vec![b'A'; AUTO_CHECKPOINT_ROWS];
        let leanest = Checkpoint::leanest(AUTO_CHECKPOINT_ROWS);
        assert_eq!(mode_within(&long, &rows, None), Ok(leanest));
        let err = mode_within(&long, &rows, Some(1)).unwrap_err();
        assert_eq!(Checkpoint::Every(err.k), leanest);
        assert_eq!(err.needed, estimate_bytes(&long, 0, &rows, leanest));
    }

    #[test]
    fn a_fixed_band_that_does_not_prove_itself_has_no_path() {
        let mut rng = Random::new(5);
        let (x, y) = (rng.bytes(200, b"ACGT"), rng.bytes(260, b"ACGT"));
        let got = align(Problem::Edit, &x, &y, BandChoice::Fixed(1), None).unwrap();
        assert!(!got.search.proven);
        assert_eq!(got.path, None);
        let want = reference::align(Problem::Edit, &x, &y).edits();
        assert!(got.answer >= want, "{} < {want}", got.answer);
    }
}
