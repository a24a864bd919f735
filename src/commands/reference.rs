//! `reference`: the sequential DP in one process, no MPI (the tests' oracle and the experiments'
//! sequential row): the bit-parallel fill and walk, with a diagonal band when asked, or the wave
//! algorithm (`--engine wave`), or the length or distance alone (`--length-only`, any size).
//! Every output path is checked before the input is read, and each fill's memory before it is
//! allocated; the files are written before the summary is printed.

use super::start::init_logging;
use super::stdout::print;
use crate::cli::Sequential;
use crate::error::Error;
use crate::export;
use crate::options::ReferenceOptions;
use crate::provenance::{HostInfo, Provenance};
use crate::report::row::Row;
use crate::report::{Report, SequentialRun};
use lcs_core::bitpar;
use lcs_core::problem::Problem;

/// Runs `reference`.
pub fn run(opts: ReferenceOptions) -> Result<(), Error> {
    init_logging(None);
    let read = crate::input::file_read(&opts.input.path);
    export::check_outputs(&opts.outputs.named(), &[read])?;
    let started_at = std::time::SystemTime::now();
    let started = std::time::Instant::now();
    let input = &opts.input;
    let pair = crate::input::read_pair(&input.path, input.max_bytes, input.format)?;
    let seconds_input = started.elapsed().as_secs_f64();
    let problem = opts.problem;
    if opts.length_only {
        return print(&match problem {
            Problem::Lcs => format!("LCS length: {}\n", bitpar::lcs_length(&pair.x, &pair.y)),
            Problem::Edit => format!(
                "edit distance: {}\n",
                bitpar::edit::distance(&pair.x, &pair.y)
            ),
        });
    }
    // Each fill's memory is checked before it is allocated: a diagonal band's bits are a
    // fraction of the whole matrix's.
    let need = std::cell::Cell::new(0);
    let (opts_ref, pair_ref, need_ref) = (&opts, &pair, &need);
    let keeps = |what: String| {
        move |bytes: u64| {
            reference_memory(opts_ref, pair_ref, &what, bytes)
                .map(|n| need_ref.set(need_ref.get().max(n)))
        }
    };
    if opts.engine == Sequential::Wave {
        let bound = lcs_core::wave::bound::upper_bound(problem, (&pair.x, &pair.y));
        let (m, n) = (pair.x.len(), pair.y.len());
        let what = format!(
            "keeps the wave algorithm's steps (two whole, one in {} as a checkpoint; a final \
             cost of at most {bound}) and",
            lcs_core::wave::kept::EVERY
        );
        keeps(what)(lcs_core::wave::align::memory_bytes(problem, m, n, bound))?;
        let began = std::time::Instant::now();
        let aligned = lcs_core::wave::align::align(problem, &pair.x, &pair.y);
        let seconds = began.elapsed().as_secs_f64();
        let how = SequentialRun::Wave {
            cost: aligned.cost,
            bound: aligned.bound,
            bytes: aligned.bytes,
            cells: aligned.work.cells() + aligned.recomputed.cells(),
        };
        let total = started.elapsed().as_secs_f64();
        return reference_outputs(
            &opts,
            &pair,
            &aligned.path,
            (started_at, total, seconds_input, seconds, 0.0),
            (need.get(), &how),
        );
    }
    let bits = match problem {
        Problem::Lcs => "one bit",
        Problem::Edit => "two bits",
    };
    let check = keeps(format!("keeps {bits} per cell of its fill and"));
    let (path, band, fill, traceback) =
        lcs_core::reference::align_banded(problem, &pair.x, &pair.y, opts.band, check)?;
    let Some(path) = path else {
        return Err(Error::Usage(format!(
            "the band of {} diagonals does not prove itself optimal on this input: its answer \
             could be beaten by a path outside it; widen it, or use --band auto",
            band.last().unwrap_or(0)
        )));
    };
    let total = started.elapsed().as_secs_f64();
    let how = SequentialRun::BitParallel(band);
    reference_outputs(
        &opts,
        &pair,
        &path,
        (started_at, total, seconds_input, fill, traceback),
        (need.get(), &how),
    )
}

/// The reference's report and the files it was asked for.
fn reference_outputs(
    opts: &ReferenceOptions,
    pair: &crate::input::Pair,
    path: &lcs_core::problem::Path,
    (started_at, total, input, fill, traceback): (std::time::SystemTime, f64, f64, f64, f64),
    (need, how): (u64, &SequentialRun),
) -> Result<(), Error> {
    let run = Provenance::new(started_at, &opts.run, &[HostInfo::here()]);
    let report = Report::of_reference(
        run,
        opts.input.path.display().to_string(),
        (opts.problem, pair, path),
        (total, input, fill, traceback),
        (need, how),
    );
    if let Some(out) = &opts.outputs.json {
        export::write_json(out, &report)?;
    }
    if let Some(out) = &opts.outputs.paf {
        export::write_atomic(out, &crate::paf::paf_line(pair, path))?;
    }
    if let Some(out) = &opts.outputs.append_csv {
        export::append_row(out, &Row::of(&report))?;
    }
    print(&report.summary())
}

/// The reference holds `store` bytes, as `keeps` says (one bit per cell of its fill, two for
/// the edit distance; or the wave algorithm's steps): refuse before allocating what cannot fit.
fn reference_memory(
    opts: &ReferenceOptions,
    pair: &crate::input::Pair,
    keeps: &str,
    store: u64,
) -> Result<u64, Error> {
    let need = crate::engines::budget::need(crate::mem::peak_rss_bytes(), store);
    let limit = opts.memory_limit.or_else(crate::mem::available_bytes);
    match crate::mem::lowest(limit, crate::mem::address_space_limit()) {
        Some(limit) if need > limit => Err(Error::Memory(format!(
            "not enough memory: the sequential reference for {} x {} {keeps} needs about {}, \
             limit is {}",
            pair.x.len(),
            pair.y.len(),
            crate::mem::human(need),
            crate::mem::human(limit)
        ))),
        _ => Ok(need),
    }
}
