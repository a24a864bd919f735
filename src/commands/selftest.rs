//! `mpi-lcs self-test`: many random pairs through the real engine inside one launch, each answer
//! compared with the sequential reference on rank 0, so that the test suite checks hundreds of
//! pairs per rank count and store with one launch each instead of one per pair.
//!
//! Every rank draws the same pairs from the same seed ([`crate::generate::test_pairs`]: the edge
//! shapes, then random pairs); the pairs of the `--file` inputs are read by rank 0 and broadcast as
//! `solve` broadcasts its input ([`crate::comm::share`], in pieces of `--piece` bytes). For each
//! pair rank 0 checks what a `solve` run checks and more: the LCS is the reference's byte for byte,
//! boundary messages equal the prediction in total and per rank pair, every cell is owned once, one
//! traceback message per hop, hops bounded by the walk's length. It prints one line per failed pair
//! and a summary; the exit status is 1 when any pair failed.

use crate::comm::world::World;

use crate::comm::share;
use crate::comm::traffic::PerKind;
use crate::engines::bands::CheckpointChoice;
use crate::engines::config::Method;
use crate::engines::config::RunConfig;
use crate::engines::device::Placement;
use crate::engines::layout::{run_pair, Layout};
use crate::engines::outcome::GaveWay;
use crate::engines::record::Gathered;
use crate::error::Error;
use crate::input::{read_pair, FormatChoice, DEFAULT_MAX_INPUT_BYTES};
use crate::options::SelfTestOptions;
use lcs_core::alignment::Alignment;
use lcs_core::diagonal_band::BandSearch;
use lcs_core::problem::{Path, Problem};

/// Runs the self-test on this rank. Collective.
pub fn run(world: &World, opts: &SelfTestOptions) -> Result<(), Error> {
    let waiting = opts.switches.waiting();
    let ranks = world.size() as usize;
    let methods: Vec<Method> = match opts.method {
        Method::Bands { band, .. } if opts.sweep => {
            let batches = [1, 63, 64, crate::options::DEFAULT_BATCH];
            let keeps = [
                CheckpointChoice::Auto,
                CheckpointChoice::Full,
                CheckpointChoice::Every(1),
                CheckpointChoice::Every(17),
            ];
            batches
                .iter()
                .flat_map(|&batch| keeps.iter().map(move |&checkpoint| (batch, checkpoint)))
                .map(|(batch, checkpoint)| Method::Bands {
                    batch,
                    checkpoint,
                    band,
                })
                .collect()
        }
        method => vec![method],
    };
    let mut pairs = crate::generate::test_pairs(opts.seed, opts.cases, opts.max_len);
    for path in &opts.files {
        let loaded = (world.rank() == 0).then(|| {
            let (max, choice) = (DEFAULT_MAX_INPUT_BYTES, FormatChoice::Auto);
            read_pair(path, max, choice).map_err(Error::from)
        });
        pairs.push(share::share_pair_in(world, waiting, loaded, opts.piece)?);
    }
    let mut failures = Vec::new();
    let runs: Vec<(Problem, Method)> = opts
        .problems
        .iter()
        .flat_map(|&problem| methods.iter().map(move |&method| (problem, method)))
        .collect();
    for (case, pair) in pairs.iter().enumerate() {
        for &(problem, method) in &runs {
            let config = RunConfig {
                problem,
                method,
                switches: opts.switches,
                recording: false,
                progress: None,
                device: Placement::Cpu,
            };
            let (layout, outcome) = run_pair(world, pair, &config);
            let gathered =
                crate::comm::stats::gather(world, &outcome.stats, &outcome.traffic, waiting);
            let band = outcome.band.as_ref();
            if gathered.is_some() && band.is_some_and(|b| !b.proven) {
                failures.push(format!(
                    "case {case} ({} x {}), {problem}: band {:?} did not prove itself",
                    pair.x.len(),
                    pair.y.len(),
                    band.map(|b| &b.fills)
                ));
            }
            if let (Some(gathered), Some(path)) = (gathered, outcome.path) {
                let run = (&layout, band, outcome.wave.map(|w| w.cost));
                let gave_way = outcome.gave_way.as_ref();
                if let Err(why) = check(problem, (run, gave_way), pair, &path, &gathered) {
                    failures.push(format!(
                        "case {case} ({} x {}), {problem}, {layout:?}, bands {:?}: {why}",
                        pair.x.len(),
                        pair.y.len(),
                        band.map(|b| &b.fills)
                    ));
                }
            }
        }
    }
    let mut verdict = failures.len() as u64;
    waiting.broadcast(world, &mut verdict);
    if world.rank() != 0 {
        return if verdict == 0 {
            Ok(())
        } else {
            Err(Error::Peer(crate::error::EXIT_INTERNAL))
        };
    }
    for f in &failures {
        println!("FAILED {f}");
    }
    let how = match opts.method {
        Method::Diagonal { store } => format!("diagonal engine, store {store}"),
        Method::Wave { .. } => "wave engine".to_owned(),
        Method::Auto { .. } => "bands or wave engine, chosen per pair".to_owned(),
        Method::Bands { .. } if opts.sweep => format!("bands engine, {} settings", methods.len()),
        Method::Bands {
            batch,
            checkpoint,
            band,
        } => {
            format!("bands engine, batch {batch}, checkpoint {checkpoint:?}, band {band}")
        }
    };
    println!(
        "self-test: {} pairs ({}) on {ranks} rank{}, {how}: {} failed",
        pairs.len(),
        opts.problems
            .iter()
            .map(Problem::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        if ranks == 1 { "" } else { "s" },
        failures.len()
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(anyhow::anyhow!("{} of {} pairs failed", failures.len(), pairs.len()).into())
    }
}

/// A run's layout, a bands run's band search and a wave run's cost.
type Run<'a> = (&'a Layout, Option<&'a BandSearch>, Option<usize>);

/// Rank 0's checks of one pair: a run on `layout` (a bands run's `band`, a wave run's `cost`),
/// after a wave run it `gave_way` from (`--engine auto`), whose messages count too.
fn check(
    problem: Problem,
    ((layout, band, cost), gave_way): (Run<'_>, Option<&GaveWay>),
    pair: &crate::input::Pair,
    path: &Path,
    gathered: &Gathered,
) -> Result<(), String> {
    let expected = lcs_core::reference::align(problem, &pair.x, &pair.y);
    if path != &expected {
        let cigar = |p: &Path| Alignment::of_path(p, pair.swapped).cigar();
        return Err(format!(
            "{problem} path {} (LCS {:?}), reference {} (LCS {:?})",
            cigar(path),
            String::from_utf8_lossy(&path.matched(&pair.x)),
            cigar(&expected),
            String::from_utf8_lossy(&expected.matched(&pair.x))
        ));
    }
    if !path.spans(&pair.x, &pair.y) {
        return Err("the path does not span both sequences".into());
    }
    let sent = PerKind::sum(gathered.stats.iter().map(|s| &s.sent));
    let received = PerKind::sum(gathered.stats.iter().map(|s| &s.received));
    let predicted = layout.predicted_run(band, cost, gave_way);
    if sent.boundary != predicted.total || gathered.pairs != predicted.pairs() {
        return Err(format!(
            "boundary messages {} (pairs {:?}), predicted {} (pairs {:?})",
            sent.boundary,
            gathered.pairs,
            predicted.total,
            predicted.pairs()
        ));
    }
    if sent != received {
        return Err(format!("sent {sent:?} but received {received:?}"));
    }
    let (m, n) = (pair.x.len(), pair.y.len());
    let owned: u64 = gathered.stats.iter().map(|s| s.matrix_cells).sum();
    let all = m as u64 * n as u64;
    if owned != all {
        return Err(format!("{owned} cells owned of {all}"));
    }
    // Every fill's windows, split among the ranks: the band's cells, once each.
    // The wave engine computes what its steps reach, not a band.
    let computed: u64 = gathered.stats.iter().map(|s| s.cells).sum();
    let filled = band.map_or(all, |b| {
        let band = |k| lcs_core::diagonal_band::Band::new(m, n, k);
        b.fills.iter().map(|&k| band(k).cells()).sum()
    });
    // A wave run that gave way computed cells of its own before the bands' fills.
    if computed != filled && !matches!(layout, Layout::Wave(_)) && gave_way.is_none() {
        return Err(format!(
            "{computed} cells computed, the fills hold {filled}"
        ));
    }
    let hops: u64 = gathered.stats.iter().map(|s| s.hops).sum();
    let most = match layout {
        Layout::Diagonal(..) => (pair.x.len() + pair.y.len()) as u64,
        // The walk leaves a band only to its left: of the last fill's bands, `laps` a rank
        // where they lap.
        Layout::Bands(plan, _) => {
            let last = band.map_or(plan.band(), |b| {
                lcs_core::diagonal_band::Band::new(plan.rows(), plan.cols(), b.last())
            });
            (plan.active_ranks() * plan.with_band(last).laps()).saturating_sub(1) as u64
        }
        // A hop where the walk strays far into another rank's diagonals: at most once per
        // edit, and per the path's length at most.
        Layout::Wave(_) => path.edits() as u64,
    };
    if hops != sent.traceback || hops > most {
        return Err(format!(
            "{hops} hops (at most {most}), {} traceback messages",
            sent.traceback
        ));
    }
    let ranks = gathered.stats.len() as u64;
    let finished_elsewhere = u64::from(sent.control == ranks);
    if sent.control != ranks - 1 + finished_elsewhere {
        return Err(format!(
            "{} control messages on {ranks} ranks",
            sent.control
        ));
    }
    Ok(())
}
