//! The memory budget of a run: what each rank will occupy, checked against the limit before
//! anything is allocated, and, when it does not fit, what would.
//!
//! A rank's need is what it already occupies (its peak resident set so far: the program, the
//! MPI library, the sequences it holds), plus what its engine will hold ([`Holding`]: its store,
//! and the copies of the sequences it reads), plus a margin for the MPI library's
//! communication buffers ([`need`]). The advice compares the busiest rank of other stores and
//! rank counts by closed-form bounds, so it costs O(1) per candidate whatever the size: a refusal
//! is as quick as an acceptance.

use crate::engines::bands::{self, BandPlan, Checkpoint};
use crate::engines::diagonal::schedule::Schedule;
use crate::engines::diagonal::store::StoreKind;
use crate::engines::holding::Holding;
pub use crate::engines::holding::{need, room};
use crate::engines::wave::plan::WavePlan;
use crate::input::Pair;
use crate::mem;
use lcs_core::diagonal_band::{Band, BandChoice};
use lcs_core::problem::Problem;

/// What the diagonal engine holds on a rank whose store takes `store` bytes: the store and the
/// reversed copy of the longer sequence the fill reads.
pub fn diagonal_holding(schedule: &Schedule, store: u64) -> Holding {
    Holding::new()
        .with("store", store)
        .with("reversed sequence", schedule.cols() as u64)
}

/// The diagonal engine's working memory (see [`diagonal_holding`]).
pub fn diagonal_working(schedule: &Schedule, store: u64) -> u64 {
    diagonal_holding(schedule, store).total()
}

/// What the bands engine holds on `rank` with `mode` for the plan's problem and band (nothing
/// on a rank with no band): see [`bands::holding`].
pub fn bands_holding(plan: &BandPlan, rank: usize, x: &[u8], mode: Checkpoint) -> Holding {
    bands::holding(plan, rank, x, mode)
}

/// The bands engine's working memory on `rank` (see [`bands_holding`]).
pub fn bands_working(plan: &BandPlan, rank: usize, x: &[u8], mode: Checkpoint) -> u64 {
    bands_holding(plan, rank, x, mode).total()
}

/// What the wave engine holds on `rank`: its wavefronts' checkpoints, the walk's recomputed
/// windows and the padded copies of the sequences ([`WavePlan::holding`]).
pub fn wave_holding(plan: &WavePlan, rank: usize) -> Holding {
    plan.holding(rank)
}

/// The plan with its checkpoints as close together as `budget` bytes allow rank `rank` (from
/// [`lcs_core::wave::kept::EVERY`] steps apart, doubling); where no spacing fits, the one
/// that needs the least (the walk's recomputed windows grow with the spacing, so past a point
/// a wider one needs more, not less).
pub fn wave_spacing(plan: WavePlan, rank: usize, budget: Option<u64>) -> WavePlan {
    let Some(budget) = budget else {
        return plan;
    };
    let mut least = (u64::MAX, plan.every());
    for every in spacings(plan.every()) {
        let bytes = plan.with_every(every).working_bytes(rank);
        if bytes <= budget {
            return plan.with_every(every);
        }
        least = least.min((bytes, every));
    }
    plan.with_every(least.1)
}

/// The spacings the wave engine's checkpoints may take, from `first` doubling to the widest.
fn spacings(first: usize) -> impl Iterator<Item = usize> {
    std::iter::successors(Some(first.max(1)), |&e| (e < MAX_SPACING).then_some(e * 2))
}

/// The widest spacing of the wave engine's checkpoints: beyond it the walk's recomputed
/// windows would cost more than the fill.
const MAX_SPACING: usize = 4096;

/// The message for a wave-engine run that will not fit: its need at the spacing it would use
/// (the one of least need), the limit, and what would fit, each checked: more ranks (the
/// wavefronts are divided among them), or the bands engine on the band it expects. Its
/// bound is `--engine auto`'s `cut_off`, or a cost the pair is known to be within.
pub fn wave_advice(
    plan: &WavePlan,
    pair: &Pair,
    (limit, baseline): (u64, u64),
    cut_off: bool,
) -> String {
    // The middle ranks hold the widest runs, rank 0 the first steps: the busier of two.
    let busiest = |p: &WavePlan| {
        [0, p.ranks() / 2]
            .iter()
            .map(|&r| need(baseline, p.working_bytes(r)))
            .max()
            .unwrap_or(0)
    };
    // A plan's need at its leanest spacing (the first that fits, else the least).
    let leanest = |p: WavePlan| {
        let mut least = u64::MAX;
        for every in spacings(lcs_core::wave::kept::EVERY) {
            least = least.min(busiest(&p.with_every(every)));
            if least <= limit {
                break;
            }
        }
        least
    };
    let (m, n) = (plan.rows(), plan.cols());
    let mut fits: Vec<String> = more_ranks(plan.ranks(), m, limit, |p| {
        leanest(WavePlan::new(plan.problem(), m, n, p, plan.bound()))
    })
    .into_iter()
    .collect();
    let bands = bands_need(plan.problem(), pair, plan.ranks(), baseline);
    if bands <= limit {
        fits.push(format!(
            "--engine bands needs about {} per rank",
            mem::human(bands)
        ));
    }
    let steps = match cut_off {
        true => format!(
            "its steps up to {}, where --engine auto would give way to the bands engine",
            plan.bound()
        ),
        false => format!("a final cost of at most {}", plan.bound()),
    };
    refusal(
        format!(
            "the wave engine ({steps}; checkpoints every {} steps) for {m} x {n} on {}",
            plan.every(),
            ranks(plan.ranks())
        ),
        (busiest(plan), limit, baseline),
        fits,
        "neither more ranks (up to 4096) nor the bands engine fits",
    )
}

/// What the bands engine's busiest rank needs for `problem` on `pair` over `ranks` ranks with
/// its defaults (`--band auto`, on the band it expects to fill last), keeping the checkpoints
/// of least memory: the least it could run in.
pub fn bands_need(problem: Problem, pair: &Pair, ranks: usize, baseline: u64) -> u64 {
    let (m, n) = (pair.x.len(), pair.y.len());
    let band = Band::expected(problem, &pair.x, &pair.y, BandChoice::Auto);
    let plan = BandPlan::new(m, n, ranks, bands::DEFAULT_BATCH)
        .with_problem(problem)
        .with_band(band);
    need(
        baseline,
        bands_working(&plan, 0, &pair.x, Checkpoint::leanest(m)),
    )
}

/// `1 rank`, `4 ranks`.
fn ranks(p: usize) -> String {
    match p {
        1 => "1 rank".to_owned(),
        p => format!("{p} ranks"),
    }
}

/// The message for a diagonal-engine run that will not fit: its need, the limit, and what
/// would fit: the other store, or more ranks. `baseline` is rank 0's.
pub fn diagonal_advice(
    problem: Problem,
    schedule: &Schedule,
    store: StoreKind,
    limit: u64,
    baseline: u64,
) -> String {
    let busiest = |s: &Schedule, kind: StoreKind| {
        need(
            baseline,
            diagonal_working(s, kind.busiest_bytes(problem, s)),
        )
    };
    let mut fits = Vec::new();
    let other = store.other();
    let other_need = busiest(schedule, other);
    if other_need <= limit {
        fits.push(format!(
            "--store {other} needs about {} per rank",
            mem::human(other_need)
        ));
    }
    let (m, n) = (schedule.rows(), schedule.cols());
    fits.extend(more_ranks(schedule.ranks(), m, limit, |p| {
        busiest(&Schedule::new(m, n, p), store)
    }));
    refusal(
        format!("store {store} for {m} x {n} on {}", ranks(schedule.ranks())),
        (busiest(schedule, store), limit, baseline),
        fits,
        "no store or rank count up to 4096 fits",
    )
}

/// The message for a bands-engine run that will not fit, keeping `mode` (rank 0's: the
/// interval of least memory unless the command line chose another): its need, the limit, and
/// the rank count that would fit. Rank 0 has the widest band.
pub fn bands_advice(
    plan: &BandPlan,
    x: &[u8],
    mode: Checkpoint,
    (limit, baseline): (u64, u64),
) -> String {
    let busiest = |plan: &BandPlan| need(baseline, bands_working(plan, 0, x, mode));
    let (m, n, batch) = (plan.rows(), plan.cols(), plan.batch());
    let fits = more_ranks(plan.ranks(), plan.total_words(), limit, |p| {
        let more = BandPlan::new(m, n, p, batch).with_problem(plan.problem());
        busiest(&more.with_band(plan.band()))
    });
    refusal(
        format!(
            "the bands engine for {m} x {n} on {} ({})",
            ranks(plan.ranks()),
            match mode {
                Checkpoint::Every(k) => format!("checkpoints every {k} rows"),
                Checkpoint::Full => "every bit kept".to_owned(),
            }
        ),
        (busiest(plan), limit, baseline),
        fits.into_iter().collect(),
        "no store or rank count up to 4096 fits",
    )
}

/// The smallest power-of-two multiple of `ranks` (up to 4,096, and no more than `useful`)
/// whose busiest rank, as `busiest` says, fits in `limit`.
fn more_ranks(
    ranks: usize,
    useful: usize,
    limit: u64,
    busiest: impl Fn(usize) -> u64,
) -> Option<String> {
    let mut p = ranks;
    while p < 4096 && p < useful {
        p = (p * 2).min(useful);
        let need = busiest(p);
        if need <= limit {
            return Some(format!(
                "{p} ranks need about {} each (on hosts with that much per rank)",
                mem::human(need)
            ));
        }
    }
    None
}

/// A refusal: `what` needs `needed` against `limit`; what `fits`, or `nothing` and the advice
/// of more memory. Where the process already holds more than the limit before any work (its
/// `baseline`: the program, the MPI library, the input), it says so, as nothing can fit then.
fn refusal(
    what: String,
    (needed, limit, baseline): (u64, u64, u64),
    fits: Vec<String>,
    nothing: &str,
) -> String {
    let held = need(baseline, 0);
    let hint = if !fits.is_empty() {
        format!("would fit: {}", fits.join("; "))
    } else if held > limit {
        format!(
            "{nothing}: the process holds about {} before any work (the program, the MPI \
             library, the input), more than the limit; use a machine with more memory",
            mem::human(held)
        )
    } else {
        format!("{nothing}; use a machine with more memory")
    };
    format!(
        "not enough memory: {what} needs about {} per rank, limit is {} per rank; {hint}",
        mem::human(needed),
        mem::human(limit),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_names_what_fits_at_any_size() {
        let s = Schedule::new(540, 550, 2);
        let text = diagonal_advice(Problem::Lcs, &s, StoreKind::Hash, 20 << 20, 12 << 20);
        assert!(text.starts_with("not enough memory: store hash for 540 x 550 on 2 ranks"));
        assert!(text.contains("limit is 20.0 MiB per rank"), "{text}");
        assert!(text.contains("--store dense needs about"), "{text}");
        // 300,000 x 300,000 with a limit nothing meets, and 10^6 rows: closed-form bounds, so
        // this ends at once whatever the size (the tests assert what it says, not how fast).
        for (m, p) in [(300_000, 1), (300_000, 2), (1_000_000, 3)] {
            let s = Schedule::new(m, m, p);
            let text = diagonal_advice(Problem::Lcs, &s, StoreKind::Hash, 1 << 20, 12 << 20);
            assert!(
                text.contains("no store or rank count up to 4096 fits"),
                "{text}"
            );
            let plan = BandPlan::new(m, m, p, 256);
            let leanest = Checkpoint::leanest(m);
            let text = bands_advice(&plan, b"ACGT", leanest, (1 << 20, 12 << 20));
            assert!(text.contains("no store or rank count"), "{text}");
        }
        // More ranks help the dense store of a long matrix, and the bands engine.
        let s = Schedule::new(50_000, 50_000, 1);
        let text = diagonal_advice(Problem::Lcs, &s, StoreKind::Dense, 100 << 20, 12 << 20);
        assert!(text.contains("ranks need about"), "{text}");
        let plan = BandPlan::new(1_000_000, 1_000_000, 1, 256);
        let leanest = Checkpoint::leanest(1_000_000);
        let text = bands_advice(&plan, b"ACGT", leanest, (200 << 20, 12 << 20));
        assert!(text.contains("2 ranks need about"), "{text}");
        // A limit below what the process holds already: nothing fits, and it says why.
        let text = diagonal_advice(Problem::Lcs, &s, StoreKind::Dense, 8 << 20, 12 << 20);
        assert!(
            text.contains("the process holds about 13.4 MiB before any work"),
            "{text}"
        );
    }

    /// `--engine wave --memory-limit 3M` on a 100,000 x 100,001 pair at 1% said it needed 403
    /// MiB (its need at the widest spacing, where the walk's windows are widest) where the run
    /// peaks at 7 MiB, and advised the bands engine, which did not fit either. The need is the
    /// least over the spacings, and the bands engine is named only where it fits.
    #[test]
    fn the_wave_refusal_names_its_least_need_and_only_what_fits() {
        let (a, b) = lcs_core::random::mutated_pair(20_000, 0.01, b"ACGT", 3);
        let pair = Pair::from_file_order(a, b, crate::input::Format::Plain);
        let (x, y) = (&pair.x, &pair.y);
        let bound = lcs_core::wave::bound::upper_bound(Problem::Edit, (x, y));
        let plan = WavePlan::new(Problem::Edit, x.len(), y.len(), 1, bound);
        let baseline = 7 << 20;
        let least = spacings(32)
            .map(|e| need(baseline, plan.with_every(e).working_bytes(0)))
            .min()
            .unwrap();
        // Nothing fits below the least need; the spacing chosen is the one of least need.
        let chosen = wave_spacing(plan, 0, Some(room(least - 1, baseline, 0)));
        assert_eq!(need(baseline, chosen.working_bytes(0)), least);
        let text = wave_advice(&chosen, &pair, (least - 1, baseline), false);
        assert!(
            text.contains(&format!("needs about {}", mem::human(least))),
            "{text}"
        );
        let bands = bands_need(Problem::Edit, &pair, 1, baseline);
        assert_eq!(
            text.contains("--engine bands needs about"),
            bands < least,
            "{text}"
        );
        // With room for the bands engine's leanest run, it is named.
        let text = wave_advice(&chosen, &pair, (bands.max(least - 1), baseline), false);
        assert!(text.contains("--engine bands needs about"), "{text}");
    }
}
