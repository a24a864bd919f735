//! `solve`: the validated options become an engine request, the engine's result becomes the
//! report, and the report (with the run's recording) feeds every output asked for: the JSON
//! report, the experiment's CSV row, the message trace, the picture and the page, and the
//! summary when `--output` takes it from standard output. Only rank 0
//! writes, after the run, each file atomically; what the outputs need is checked before the
//! run (paths on rank 0 before the input is read, sizes on every rank before any work).

use std::path::Path;

use mpi::topology::SimpleCommunicator;

use crate::alignment;
use crate::engine::run::{self, Request, Solved};
use crate::engine::{Layout, RunConfig};
use crate::error::Error;
use crate::export;
use crate::options::{Outputs, SolveOptions};
use crate::provenance::{HostInfo, Provenance};
use crate::render::html;
use crate::render::picture::Picture;
use crate::render::svg;
use crate::report::Report;
use crate::trace;

/// Runs `solve` on this rank and writes its outputs. Rank 0 gets the report; other ranks
/// `None`.
pub fn run(world: &SimpleCommunicator, opts: &SolveOptions) -> Result<Option<Report>, Error> {
    let input = &opts.input;
    let before_reading = || export::check_outputs(&opts.outputs.named(), &[&input.path]);
    let refuse_size = |m, n| refuse_size(&opts.outputs, m, n);
    let request = Request {
        input: input.path.clone(),
        max_input: input.max_bytes,
        format: input.format,
        config: RunConfig {
            problem: opts.problem,
            method: opts.method,
            switches: opts.switches,
            recording: opts.outputs.recording(),
            progress: opts.progress,
        },
        memory_limit: opts.memory_limit,
        before_reading: &before_reading,
        refuse_size: &refuse_size,
    };
    let Some(solved) = run::solve(world, &request)? else {
        return Ok(None);
    };
    let hosts: Vec<HostInfo> = solved.gathered.stats.iter().map(|s| s.host()).collect();
    let provenance = Provenance::new(solved.started_at, &opts.run, &hosts);
    let report = Report::of_run(provenance, input.path.display().to_string(), &solved);
    write_outputs(&opts.outputs, &solved, &report)?;
    Ok(Some(report))
}

/// A trace holds one record per boundary cell and a picture or page one box per cell: the
/// problem with an `m x n` matrix for the outputs asked for, if any.
fn refuse_size(outputs: &Outputs, m: usize, n: usize) -> Option<String> {
    let cells = m as u64 * n as u64;
    let side = svg::MAX_PICTURE_CELLS_SIDE;
    if outputs.trace.is_some() && cells > trace::MAX_TRACE_CELLS {
        Some(format!(
            "--trace is limited to {} cells; this matrix is {m} x {n} = {cells} cells",
            trace::MAX_TRACE_CELLS,
        ))
    } else if outputs.svg.is_some() && n > side {
        Some(format!(
            "--svg pictures are limited to {side} x {side} cells; this matrix is {m} x {n}"
        ))
    } else {
        outputs.html.as_ref().and_then(|_| html::too_large(m, n))
    }
}

/// Rank 0 writes the files the run was asked for. Pictures need the diagonal schedule (the
/// options refuse them for the bands engine).
fn write_outputs(outputs: &Outputs, solved: &Solved, report: &Report) -> Result<(), Error> {
    if let Some(path) = &outputs.json {
        export::write_json(path, report)?;
    }
    if let Some(path) = &outputs.paf {
        let line = alignment::paf_line(&solved.pair, &solved.path);
        export::write_atomic(path, line.as_bytes())?;
    }
    if let Some(recording) = &solved.gathered.recording {
        if let Some(path) = &outputs.trace {
            let csv = trace::to_csv(&recording.events).map_err(anyhow::Error::from)?;
            export::write_atomic(path, &csv)?;
        }
        let drawn = outputs.svg.is_some() || outputs.html.is_some();
        if let (true, Layout::Diagonal(schedule, _)) = (drawn, &solved.layout) {
            let values = recording.value_table(schedule.rows(), schedule.cols());
            let walk: Vec<(usize, usize)> = recording
                .walk
                .iter()
                .map(|&(i, j)| (i as usize, j as usize))
                .collect();
            let picture = Picture::of_run(
                schedule,
                &solved.pair,
                &values,
                &recording.events,
                &walk,
                report,
            );
            write_picture(
                outputs.svg.as_deref(),
                outputs.html.as_deref(),
                &picture,
                report,
            )?;
        }
    }
    if let Some(path) = &outputs.append_csv {
        export::append_row(path, &report.row())?;
    }
    // Last, as standard output would be: after every file the run was asked for.
    if let Some(path) = &outputs.output {
        export::write_atomic(path, report.summary().as_bytes())?;
    }
    Ok(())
}

fn write_picture(
    svg_path: Option<&Path>,
    html_path: Option<&Path>,
    picture: &Picture<'_>,
    report: &Report,
) -> Result<(), Error> {
    if let Some(path) = svg_path {
        svg::write_svg(path, picture)?;
    }
    if let Some(path) = html_path {
        html::write_html(path, picture, Some(report))?;
    }
    Ok(())
}
