//! `schedule`: who owns which cell, each diagonal's segments and the predicted messages, for
//! the diagonal or the bands engine, from the sizes alone (no MPI, no input); the picture and the
//! classroom page when asked, refused (exit 2) when too large, after the text is printed.

use super::stdout::print;
use crate::engines::config::Method;
use crate::engines::diagonal::schedule::Schedule;
use crate::error::Error;
use crate::export;
use crate::options::{named, ScheduleOptions, DEFAULT_BATCH};

/// `schedule`: the text, and the picture and page when asked for. A picture or page too large
/// is refused (exit 2) before any file is written, after the text is printed.
pub fn run(opts: ScheduleOptions) -> Result<(), Error> {
    use crate::render::drawn::svg;
    use crate::render::page::html;
    use crate::render::shown::picture::{predicted_messages, Picture};
    let outputs = named([("--svg", &opts.svg), ("--html", &opts.html)]);
    let (m, n) = (opts.rows, opts.cols);
    // The wave engine's split follows the pair's cost, which the sizes do not tell: only a run
    // shows it. `auto` chooses per pair.
    match opts.method {
        Method::Wave { .. } => {
            return Err(Error::Usage(
                "schedule --engine wave: the wave engine's steps and their split follow the \
                 sequences (their cost), not only the sizes; `solve FILE --engine wave --html \
                 PAGE` draws a run's"
                    .into(),
            ))
        }
        Method::Auto { .. } => {
            return Err(Error::Usage(
                "schedule --engine auto: auto chooses the bands or the wave engine per pair; \
                 `schedule --engine bands` shows the bands' schedule, and `solve FILE --engine \
                 wave --html PAGE` draws a wave run"
                    .into(),
            ))
        }
        _ => {}
    }
    export::check_outputs(&outputs, &[])?;
    if let Method::Bands { batch, .. } = opts.method {
        use crate::render::drawn::{bands_picture, bands_to_scale};
        let plan = crate::engines::bands::BandPlan::new(m, n, opts.ranks, batch);
        let pipe = crate::render::shown::pipeline::Pipeline::with_word(&plan, opts.word);
        // Cell by cell, or by bands and batches when cells are too small; beyond what those
        // hold, `--svg` draws the bands to scale, one arrow per message.
        let drawn = bands_picture::refusal(&pipe, false);
        let refusal = match (&opts.svg, &opts.html) {
            (_, Some(_)) if drawn.is_some() => drawn.clone().map(|p| format!("--html: {p}")),
            (Some(_), _) if drawn.is_some() => bands_to_scale::too_large(&plan),
            _ => None,
        };
        if let (Some(path), Some(_), None) = (&opts.svg, &drawn, &refusal) {
            bands_to_scale::write_svg(path, &plan)?;
        }
        if refusal.is_none() && drawn.is_none() {
            let schedule = Schedule::new(m, n, opts.ranks);
            let messages = pipe.messages();
            let mut picture = Picture::of_schedule(
                &schedule,
                &messages,
                format!(
                    "bands: {m} x {n} on {} rank{}, batches of {} rows{}",
                    opts.ranks,
                    if opts.ranks == 1 { "" } else { "s" },
                    batch,
                    if pipe.teaching() {
                        format!(", teaching words of {} columns", pipe.word())
                    } else {
                        String::new()
                    }
                ),
                vec![],
            );
            picture.bands = Some(&pipe);
            picture.swapped = opts.swapped;
            if let Some(path) = &opts.svg {
                svg::write_svg(path, &picture)?;
            }
            if let Some(path) = &opts.html {
                html::write_html(path, &picture, None, DEFAULT_BATCH)?;
            }
        }
        let mut text = crate::render::drawn::text::bands_text(&plan);
        if pipe.teaching() && (opts.svg.is_some() || opts.html.is_some()) {
            text += &format!(
                "(the picture and the page use words of {} columns, for teaching: {} bands, {} \
                 boundary messages)\n",
                pipe.word(),
                pipe.active_ranks(),
                pipe.predicted_messages()
            );
        }
        print(&text)?;
        return refusal.map_or(Ok(()), |problem| Err(Error::Usage(problem)));
    }
    let schedule = Schedule::new(m, n, opts.ranks);
    let bands_draw = || {
        let plan = crate::engines::bands::BandPlan::new(m, n, opts.ranks, DEFAULT_BATCH);
        let pipe = crate::render::shown::pipeline::Pipeline::of_plan(&plan);
        crate::render::drawn::bands_picture::refusal(&pipe, false).is_none()
    };
    let refusal = opts
        .svg
        .as_ref()
        .and_then(|_| svg::too_large(&schedule).map(|p| format!("--svg {p}")))
        .or_else(|| opts.html.as_ref().and_then(|_| html::too_large(m, n)))
        .map(|p| match bands_draw() {
            true => format!("{p}: `schedule --engine bands` draws it"),
            false => p,
        });
    if refusal.is_none() && (opts.svg.is_some() || opts.html.is_some()) {
        let messages = predicted_messages(&schedule);
        let ranks = match opts.ranks {
            1 => "1 rank".to_owned(),
            p => format!("{p} ranks"),
        };
        let mut picture = Picture::of_schedule(
            &schedule,
            &messages,
            format!("{m} x {n} matrix on {ranks}"),
            vec![format!("predicted boundary messages: {}", messages.len())],
        );
        picture.swapped = opts.swapped;
        if let Some(path) = &opts.svg {
            svg::write_svg(path, &picture)?;
        }
        if let Some(path) = &opts.html {
            html::write_html(path, &picture, None, DEFAULT_BATCH)?;
        }
    }
    let mut text = String::new();
    if opts.swapped {
        text += &format!("(rows are the shorter sequence: showing {m} rows x {n} cols)\n");
    }
    text += &crate::render::drawn::text::schedule_text(&schedule);
    print(&text)?;
    match refusal {
        Some(problem) => Err(Error::Usage(problem)),
        None => Ok(()),
    }
}
