//! `pairs`: the validated options become a pairs request, the engine's result becomes the
//! report, and the report and the values feed every output asked for: the JSON report, the
//! result set's row, and the pairs (a TSV or a `.npy` matrix to `--out`, with the summary then
//! on standard output, or the TSV alone to standard output). Only rank 0 writes, after the run,
//! each file atomically; every output path is checked before anything is read, and neither
//! file of sequences may be one of them.

use super::stdout;
use crate::comm::world::World;
use crate::engines::device::Placement;
use crate::engines::pairs::assemble::Keeping;
use crate::engines::pairs::run::{self, Request};
use crate::error::Error;
use crate::export::{self, ResultSet};
use crate::options::PairsOptions;
use crate::provenance::{HostInfo, Provenance};
use crate::scores::{self, PairsReport};
use lcs_core::pairs::banded;
use lcs_core::problem::Problem;

/// Runs `pairs` on this rank and writes its outputs. Rank 0 gets the report; other ranks
/// `None`.
pub fn run(world: &World, opts: &PairsOptions) -> Result<Option<PairsReport>, Error> {
    let mut inputs = vec![crate::input::file_read(&opts.queries)];
    inputs.extend(opts.targets.as_deref().map(crate::input::file_read));
    let before_reading =
        || export::check_outputs_of(&opts.outputs.named(), &inputs, ResultSet::Pairs);
    // The dense matrix for a .npy file, and for a TSV of every pair; a TSV with a bound lists
    // the pairs within it alone.
    let keeping = match (opts.npy(), opts.bound) {
        (false, Some(_)) => Keeping::Passing,
        _ => Keeping::Matrix,
    };
    if world.rank() == 0 && !opts.quiet {
        note(opts);
    }
    let request = Request {
        queries: opts.queries.clone(),
        targets: opts.targets.clone(),
        max_input: opts.max_input,
        problem: opts.problem,
        bound: opts.bound,
        keeping,
        memory_limit: opts.memory_limit,
        spill_dir: opts.spill_dir.clone(),
        simd: opts.simd,
        device: opts.device,
        fault: opts.switches.fault,
        notes: !opts.quiet,
        waiting: opts.switches.waiting(),
        progress: opts.progress,
        before_reading: &before_reading,
    };
    let Some(computed) = run::pairs(world, &request)? else {
        return Ok(None);
    };
    let hosts: Vec<HostInfo> = computed.ranks.iter().map(|r| r.host.info()).collect();
    let provenance = Provenance::new(computed.started_at, &opts.run, &hosts);
    let files = (
        opts.queries.display().to_string(),
        opts.targets.as_ref().map(|t| t.display().to_string()),
    );
    let output = if opts.npy() { "npy" } else { "tsv" };
    let report = PairsReport::new(provenance, files, output, &computed);
    if let Some(path) = &opts.outputs.json {
        export::write_json(path, &report)?;
    }
    if let Some(path) = &opts.outputs.append_csv {
        export::append_pairs_row(path, &report.row())?;
    }
    match &opts.outputs.out {
        Some(path) if opts.npy() => {
            export::write_streamed(path, |out| scores::write_npy(out, &computed))?
        }
        Some(path) => export::write_streamed(path, |out| scores::write_tsv(out, &computed))?,
        None => stdout::stream(|out| scores::write_tsv(out, &computed))?,
    }
    Ok(Some(report))
}

/// Rank 0's notes on stderr before the work.
fn note(opts: &PairsOptions) {
    // The GPU's kernels compute every pair whole, with an early exit past the bound.
    let cpu = opts.device.placement == Placement::Cpu;
    if let (Problem::Edit, Some(k), true) = (opts.problem, opts.bound, cpu) {
        if banded::lane_bits(k).is_none() {
            eprintln!(
                "mpi-lcs: note: --max-edits {k} is wider than the band one lane holds (31 \
                 edits): pairs are computed whole and cut at {k}, which costs more than a band"
            );
        }
    }
}
