//! `search`: the validated options become a search request, the engine's result becomes the
//! report, and the report and the matches feed every output asked for: the JSON report, the
//! result set's row, and the TSV of matches (to `--out`, with the summary then on standard
//! output, or to standard output alone). Only rank 0 writes, after the run, each file
//! atomically; every output path is checked before anything is read.

use super::stdout;
use crate::comm::world::World;
use crate::engines::search::run::{self, Request};
use crate::error::Error;
use crate::export::{self, ResultSet};
use crate::matches::{self, SearchReport};
use crate::options::SearchOptions;
use crate::provenance::{HostInfo, Provenance};

/// Runs `search` on this rank and writes its outputs. Rank 0 gets the report; other ranks
/// `None`.
pub fn run(world: &World, opts: &SearchOptions) -> Result<Option<SearchReport>, Error> {
    let inputs = [crate::input::file_read(&opts.patterns), opts.text.as_path()];
    let before_reading =
        || export::check_outputs_of(&opts.outputs.named(), &inputs, ResultSet::Search);
    let request = Request {
        patterns: opts.patterns.clone(),
        text: opts.text.clone(),
        max_input: opts.max_input,
        k: opts.k,
        allow_all: opts.allow_all,
        both_strands: opts.both_strands,
        alphabet: opts.alphabet,
        split: opts.split,
        memory_limit: opts.memory_limit,
        simd: opts.simd,
        device: opts.device,
        fault: opts.switches.fault,
        notes: !opts.quiet,
        waiting: opts.switches.waiting(),
        before_reading: &before_reading,
    };
    let Some(searched) = run::search(world, &request)? else {
        return Ok(None);
    };
    let hosts: Vec<HostInfo> = searched.ranks.iter().map(|r| r.host.info()).collect();
    let provenance = Provenance::new(searched.started_at, &opts.run, &hosts);
    let report = SearchReport::new(
        provenance,
        opts.patterns.display().to_string(),
        opts.text.display().to_string(),
        &searched,
    );
    if let Some(path) = &opts.outputs.json {
        export::write_json(path, &report)?;
    }
    if let Some(path) = &opts.outputs.append_csv {
        export::append_search_row(path, &report.row())?;
    }
    match &opts.outputs.out {
        Some(path) => export::write_streamed(path, |out| matches::write_tsv(out, &searched))?,
        None => stdout::stream(|out| matches::write_tsv(out, &searched))?,
    }
    Ok(Some(report))
}
