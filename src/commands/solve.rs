//! `solve`: the validated options become an engine request, the engine's result becomes the
//! report, and the report (with the run's recording) feeds every output asked for: the JSON
//! report, the experiment's CSV row, the message trace, the picture and the page, and the
//! summary when `--output` takes it from standard output. Only rank 0
//! writes, after the run, each file atomically; what the outputs need is checked before the
//! run (paths on rank 0 before the input is read, sizes on every rank before any work).

use crate::comm::world::World;

use crate::comm::trace;
use crate::engines::bands::BandPlan;
use crate::engines::config::{HaloSteps, Method, RunConfig};
use crate::engines::cost;
use crate::engines::device::Placement;
use crate::engines::diagonal::store::StoreKind;
use crate::engines::layout::Layout;
use crate::engines::solve::{self, Request, Solved};
use crate::error::Error;
use crate::export;
use crate::options::{Outputs, SolveOptions, DEFAULT_BATCH};
use crate::provenance::{HostInfo, Provenance};
use crate::render::drawn::bands_picture;
use crate::render::drawn::svg;
use crate::render::drawn::wave_picture;
use crate::render::page::html;
use crate::render::shown::picture::Picture;
use crate::render::shown::pipeline::Pipeline;
use crate::render::shown::wave_words;
use crate::render::shown::wavefront::Wavefronts;
use crate::report::row::Row;
use crate::report::Report;

/// Runs `solve` on this rank and writes its outputs. Rank 0 gets the report; other ranks
/// `None`.
pub fn run(world: &World, opts: &SolveOptions) -> Result<Option<Report>, Error> {
    let input = &opts.input;
    let read = crate::input::file_read(&input.path);
    let before_reading = || export::check_outputs(&opts.outputs.named(), &[read]);
    let ranks = world.size() as usize;
    let refuse_size = |m, n| refuse_size(&opts.outputs, opts.method, m, n, ranks);
    let before_fill = |m, n| {
        // On a device the bands engine is the only one: no other engine is worth a note.
        let note = match opts.device.placement {
            Placement::Cpu => engine_note(opts.method, m, n, ranks),
            _ => opts.device_note.clone(),
        };
        if let Some(note) = note.filter(|_| !opts.quiet) {
            crate::error::say(&format!("mpi-lcs: note: {note}"));
        }
    };
    let config = RunConfig {
        problem: opts.problem,
        method: drawn_method(opts.method, &opts.outputs),
        switches: opts.switches,
        recording: opts.outputs.recording(),
        progress: opts.progress,
        device: opts.device.placement,
    };
    let request = request(opts, config, &before_reading, &refuse_size, &before_fill);
    let Some(solved) = solve::solve(world, &request)? else {
        return Ok(None);
    };
    let hosts: Vec<HostInfo> = solved
        .gathered
        .stats
        .iter()
        .map(|s| s.host.info())
        .collect();
    let provenance = Provenance::new(solved.started_at, &opts.run, &hosts);
    let report = Report::of_run(provenance, input.path.display().to_string(), &solved);
    write_outputs(&opts.outputs, &solved, &report)?;
    Ok(Some(report))
}

/// What `solve` asks of the engines for `opts` (the input, its device, its memory limit) with
/// the run's `config`: rank 0's check `before_reading`, every rank's `refuse_size` and rank 0's
/// `before_fill` (see [`Request`]).
pub(super) fn request<'a>(
    opts: &SolveOptions,
    config: RunConfig,
    before_reading: &'a dyn Fn() -> Result<(), Error>,
    refuse_size: &'a dyn Fn(usize, usize) -> Option<String>,
    before_fill: &'a dyn Fn(usize, usize),
) -> Request<'a> {
    Request {
        input: opts.input.path.clone(),
        max_input: opts.input.max_bytes,
        format: opts.input.format,
        config,
        device: opts.device,
        notes: !opts.quiet,
        memory_limit: opts.memory_limit,
        before_reading,
        refuse_size,
        before_fill,
    }
}

/// The other engine is worth a note when it should take under a tenth of the chosen one's
/// time, and at least this many seconds less: a run of a second or two is not worth a switch.
const NOTE_FACTOR: f64 = 10.0;
const NOTE_SECONDS: f64 = 3.0;

/// What to tell a user about to run `method` on an `m x n` matrix (`m <= n`) on `ranks` ranks,
/// when the other engine should be much faster (see `cost`): the two estimates, why, and the
/// flag that switches.
fn engine_note(method: Method, m: usize, n: usize, ranks: usize) -> Option<String> {
    let (chosen, other, switch) = match method {
        // The wave engine's cost follows the difference, which the shape does not tell; auto
        // chooses with a sample of the pair.
        Method::Wave { .. } | Method::Auto { .. } => return None,
        Method::Diagonal { store } => (
            cost::diagonal_seconds(m, n, ranks, store),
            cost::bands_seconds(m, n, ranks, DEFAULT_BATCH),
            match store {
                StoreKind::Dense => "--engine bands",
                StoreKind::Hash => "--engine bands (without --store)",
            },
        ),
        Method::Bands { batch, .. } => (
            cost::bands_seconds(m, n, ranks, batch),
            cost::diagonal_seconds(m, n, ranks, StoreKind::Dense),
            "--engine diagonal (without --batch and --checkpoint)",
        ),
    };
    if chosen < NOTE_FACTOR * other || chosen - other < NOTE_SECONDS {
        return None;
    }
    let why = match method {
        Method::Diagonal { .. } if ranks > 1 => format!(
            "it synchronises its {ranks} ranks once per anti-diagonal, {} times",
            crate::report::text::thousands((m + n - 1) as u64)
        ),
        Method::Diagonal { .. } => format!(
            "it steps through the {} anti-diagonals one at a time",
            crate::report::text::thousands((m + n - 1) as u64)
        ),
        _ => "its bands are narrow for the rows they pipeline".to_owned(),
    };
    let (engine, other_engine) = match method {
        Method::Diagonal { .. } => ("diagonal", "bands"),
        _ => ("bands", "diagonal"),
    };
    Some(format!(
        "on this {} x {} matrix the {engine} engine should take about {} ({why}), the \
         {other_engine} engine about {}: run with {switch} (--quiet hides notes)",
        crate::report::text::thousands(m as u64),
        crate::report::text::thousands(n as u64),
        duration(chosen),
        duration(other)
    ))
}

/// Seconds for a note: `0.02 s`, `3.2 s`, `45 s`, `3 min`.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 0.01 => "0.01 s or less".to_owned(),
        s if s < 1.0 => format!("{s:.2} s"),
        s if s < 10.0 => format!("{s:.1} s"),
        s if s < 120.0 => format!("{s:.0} s"),
        s => format!("{:.0} min", s / 60.0),
    }
}

/// A trace holds one record per boundary cell, a picture or page of the diagonal engine a box
/// per cell, one of the bands engine its recorded values and its walk: the problem with an
/// `m x n` matrix on `ranks` ranks for the outputs asked for, if any, naming what works.
fn refuse_size(
    outputs: &Outputs,
    method: Method,
    m: usize,
    n: usize,
    ranks: usize,
) -> Option<String> {
    let cells = m as u64 * n as u64;
    let side = svg::MAX_PICTURE_CELLS_SIDE;
    let drawn = outputs.svg.is_some() || outputs.html.is_some();
    let pipeline = |batch| Pipeline::of_plan(&BandPlan::new(m, n, ranks, batch));
    // The diagonal engine's refusals say when the bands engine would draw the run.
    let or_bands = |problem: String| match bands_picture::refusal(&pipeline(DEFAULT_BATCH), true) {
        None => format!("{problem}: --engine bands draws it"),
        Some(_) => problem,
    };
    if outputs.trace.is_some() && cells > trace::MAX_TRACE_CELLS {
        Some(format!(
            "--trace is limited to {} cells; this matrix is {m} x {n} = {cells} cells",
            trace::MAX_TRACE_CELLS,
        ))
    } else if let (true, Method::Auto { .. }) = (drawn, method) {
        Some(
            "--svg and --html draw one engine's run, and --engine auto chooses per pair; \
             choose --engine diagonal, bands or wave"
                .to_owned(),
        )
    } else if let (true, Method::Wave { .. }) = (drawn, method) {
        wave_picture::too_large(m, n)
    } else if let (true, Method::Bands { batch, .. }) = (drawn, method) {
        bands_picture::refusal(&pipeline(batch), true).map(|p| format!("--svg and --html: {p}"))
    } else if outputs.svg.is_some() && (m > side || n > side) {
        Some(or_bands(format!(
            "--svg pictures are limited to {side} x {side} cells; this matrix is {m} x {n}"
        )))
    } else {
        outputs
            .html
            .as_ref()
            .and_then(|_| html::too_large(m, n))
            .map(or_bands)
    }
}

/// The method a run draws with: a wave run drawn as pictures (`--svg`, `--html`) with
/// `--halo-steps auto` exchanges after every step, the one-step halo the pages teach first
/// (a picture's pair is small, and blocks gain nothing there); `--halo-steps H` draws its
/// blocks. Any other run's method as asked.
fn drawn_method(method: Method, outputs: &Outputs) -> Method {
    let drawn = outputs.svg.is_some() || outputs.html.is_some();
    match method {
        Method::Wave {
            cut_off,
            halo: HaloSteps::Auto,
        } if drawn => Method::Wave {
            cut_off,
            halo: HaloSteps::Most(1),
        },
        other => other,
    }
}

/// The page's note on a device run's values, which the host computed again.
const RECOMPUTED: &str = "The values in the cells were computed again on the host for this \
     page: the GPU kept only the checkpoints the walk needs. They are the matrix's values, the \
     same wherever they are computed.";

/// Rank 0 writes the files the run was asked for. A picture of the diagonal engine is drawn on
/// its schedule, one of the bands engine on its pipeline with the recorded timeline.
fn write_outputs(outputs: &Outputs, solved: &Solved, report: &Report) -> Result<(), Error> {
    if let Some(path) = &outputs.json {
        export::write_json(path, report)?;
    }
    if let Some(path) = &outputs.paf {
        let line = crate::paf::paf_line(&solved.pair, &solved.path);
        export::write_atomic(path, &line)?;
    }
    if let Some(recording) = &solved.gathered.recording {
        if let Some(path) = &outputs.trace {
            let csv = trace::to_csv(&recording.events).map_err(anyhow::Error::from)?;
            export::write_atomic(path, &csv)?;
        }
        let drawn = outputs.svg.is_some() || outputs.html.is_some();
        if drawn {
            let (m, n) = (solved.pair.x.len(), solved.pair.y.len());
            let edit = solved.problem == lcs_core::problem::Problem::Edit;
            let values = recording.value_table(m, n, edit);
            let walk: Vec<(usize, usize)> = recording
                .walk
                .iter()
                .map(|&(i, j)| (i as usize, j as usize))
                .collect();
            let sizes = |ranks| crate::engines::diagonal::schedule::Schedule::new(m, n, ranks);
            let (schedule, pipe, wave) = match &solved.layout {
                Layout::Diagonal(schedule, _) => (*schedule, None, None),
                Layout::Bands(plan, _) => {
                    (sizes(plan.ranks()), Some(Pipeline::of_plan(plan)), None)
                }
                Layout::Wave(plan) => {
                    let cost = solved.wave.map_or(0, |w| w.cost);
                    let pair = (solved.pair.x.as_slice(), solved.pair.y.as_slice());
                    let fronts = Wavefronts::of_run(plan, pair, cost, &recording.events)?;
                    (sizes(plan.ranks()), None, Some(fronts))
                }
            };
            let values = match &wave {
                Some(w) => w.cost_rows(),
                None => values,
            };
            let mut picture = Picture::of_run(
                &schedule,
                &solved.pair,
                &values,
                &recording.events,
                &walk,
                report,
            );
            // A device keeps no cell's value: the picture's cells show their owners, its
            // timeline the copies and kernels; the page replays the walk on the values, which
            // the host computes again for it (the matrix's values are the same wherever they
            // are computed; the page is limited to small matrices).
            let on_device = solved.gathered.stats.iter().any(|s| s.device.used());
            let recomputed = (on_device && outputs.html.is_some()).then(|| {
                let (x, y) = (&solved.pair.x, &solved.pair.y);
                lcs_core::reference::full_table_of(solved.problem, x, y)
            });
            if on_device {
                picture.values = None;
            }
            picture.bands = pipe.as_ref();
            picture.spans = &recording.spans;
            if let Some(w) = &wave {
                picture.wave = Some(w);
                picture.title = format!("Wave engine: {}", picture.title);
                picture.legend = wave_words::legend_counts(
                    w,
                    report.messages.boundary,
                    report.predicted.boundary,
                );
            }
            if let Some(path) = &outputs.svg {
                svg::write_svg(path, &picture)?;
            }
            if let Some(path) = &outputs.html {
                if let Some(values) = &recomputed {
                    picture.values = Some(values);
                    picture.values_from = Some(RECOMPUTED);
                }
                html::write_html(path, &picture, Some(report), DEFAULT_BATCH)?;
            }
        }
    }
    if let Some(path) = &outputs.append_csv {
        export::append_row(path, &Row::of(report))?;
    }
    // Last, as standard output would be: after every file the run was asked for.
    if let Some(path) = &outputs.output {
        export::write_atomic(path, report.summary().as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::bands::CheckpointChoice;

    const DIAGONAL: Method = Method::Diagonal {
        store: StoreKind::Dense,
    };

    /// A 200,000,000 x 64 input ran for three minutes on the default engine without a word
    /// that the bands engine takes two seconds.
    #[test]
    fn a_long_thin_input_on_the_diagonal_engine_gets_a_note() {
        let note = engine_note(DIAGONAL, 64, 200_000_000, 2).expect("a note");
        assert!(
            note.starts_with("on this 64 x 200,000,000 matrix"),
            "{note}"
        );
        assert!(
            note.contains("diagonal engine should take about 3 min"),
            "{note}"
        );
        assert!(note.contains("synchronises its 2 ranks once per anti-diagonal, 200,000,063 times"));
        assert!(note.contains("bands engine about 0.3"), "{note}");
        assert!(note.contains("run with --engine bands (--quiet"), "{note}");
        let alone = engine_note(DIAGONAL, 64, 10_000_000, 1).expect("a note");
        assert!(alone.contains("one at a time"), "{alone}");
        let hash = Method::Diagonal {
            store: StoreKind::Hash,
        };
        let note = engine_note(hash, 50_000, 50_000, 2).expect("a note");
        assert!(note.contains("--engine bands (without --store)"), "{note}");
    }

    #[test]
    fn ordinary_shapes_and_short_runs_get_none() {
        // Ten times slower, but by less than a few seconds: not worth a word.
        assert_eq!(engine_note(DIAGONAL, 50_000, 50_000, 2), None);
        assert_eq!(engine_note(DIAGONAL, 64, 1_000_000, 2), None);
        assert_eq!(engine_note(DIAGONAL, 0, 10, 2), None);
        let bands = Method::Bands {
            batch: DEFAULT_BATCH,
            checkpoint: CheckpointChoice::Auto,
            band: lcs_core::diagonal_band::BandChoice::Auto,
        };
        for (m, n) in [(64, 200_000_000), (1_000_000, 1_000_000), (1, 1)] {
            assert_eq!(engine_note(bands, m, n, 2), None, "{m} x {n}");
        }
    }

    #[test]
    fn durations_read_as_people_say_them() {
        let said: Vec<String> = [0.001, 0.3, 3.24, 45.4, 190.0]
            .map(duration)
            .into_iter()
            .collect();
        assert_eq!(said, ["0.01 s or less", "0.30 s", "3.2 s", "45 s", "3 min"]);
    }
}
