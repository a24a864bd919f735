//! The page's data: one JSON block (schema 3) holding everything the page's script plays, the
//! run's sizes and sequences, each row's values as the steps along it, the messages, the walk and
//! its hops, how many units a step groups, the colours, the two engines compared, and a bands
//! page's pipeline or a wave page's score steps. The fields:
//! `docs/classroom.md#the-pictures-marks-and-the-pages-data`.

use serde::Serialize;

use crate::comm::trace::Event;
use crate::engines::bands::BandPlan;
use crate::error::Error;
use crate::render::drawn::bands_layout::Detail;
use crate::render::drawn::style::{hex, rank_colour, RANK_COLOURS};
use crate::render::shown::hops::{self, Hop};
use crate::render::shown::lesson;
use crate::render::shown::picture::Picture;
use crate::render::shown::pipeline::Pipeline;
use crate::render::shown::wavefront::{Wavefronts, UNREACHED};
use crate::render::shown::words;
use crate::report::{RankReport, Report};
use lcs_core::problem::{Move, Problem};

/// Most steps the fill or the walk is played in; beyond, one step shows several diagonals (or
/// walk cells).
pub const MAX_STEPS_PER_PHASE: usize = 100;

/// The data block of a page (see the module doc).
#[derive(Debug, Serialize)]
pub(super) struct Data<'a> {
    schema: u32,
    command: &'static str,
    problem: Problem,
    title: &'a str,
    rows: usize,
    cols: usize,
    ranks: usize,
    swapped: bool,
    x: Option<&'a [u8]>,
    y: Option<&'a [u8]>,
    value_rows: Option<Vec<String>>,
    lcs: Option<String>,
    distance: Option<usize>,
    cigar: Option<&'a str>,
    view: Option<&'a [String; 3]>,
    cigar_ops: [char; 4],
    events: &'a [Event],
    walk: &'a [(usize, usize)],
    hops: Vec<HopData>,
    per_rank: Option<&'a [RankReport]>,
    control: Option<String>,
    steps: Steps,
    palette: Vec<String>,
    rank_colours: usize,
    /// `diagonal`, `bands` or `wave`.
    engine: &'static str,
    bands: Option<BandsData>,
    pub(super) compare: Vec<lesson::EngineLine>,
    batches: Vec<lesson::BatchOption>,
    wave: Option<WaveData>,
}

/// A wave page's steps: per score step its first diagonal, each diagonal's row before and after
/// its slide and each rank's run of diagonals; each cell's cost (`null`: no step reached it);
/// every halo message on its step.
#[derive(Debug, Serialize)]
struct WaveData {
    /// The steps the page plays: the score steps, then those that pass the end on.
    units: usize,
    cost: usize,
    bound: usize,
    stride: i64,
    min_share: usize,
    steps: Vec<WaveStep>,
    costs: Vec<Vec<Option<u32>>>,
    halos: Vec<HaloData>,
}

#[derive(Debug, Serialize)]
struct WaveStep {
    first: i64,
    start: Vec<i64>,
    end: Vec<i64>,
    ranges: Vec<Option<[i64; 2]>>,
}

/// A halo message as the page counts it: a boundary message of its step.
#[derive(Debug, Serialize)]
struct HaloData {
    kind: &'static str,
    step: usize,
    from: usize,
    to: usize,
    values: usize,
    bytes: u64,
    diagonals: Option<[i64; 2]>,
}

impl WaveData {
    fn of(w: &Wavefronts) -> WaveData {
        WaveData {
            units: w.units(),
            cost: w.cost,
            bound: w.bound,
            stride: w.stride,
            min_share: w.min_share(),
            steps: w
                .steps
                .iter()
                .map(|s| WaveStep {
                    first: s.points.first().map_or(0, |p| p.k),
                    start: s.points.iter().map(|p| p.start).collect(),
                    end: s.points.iter().map(|p| p.end).collect(),
                    ranges: s.ranges.iter().map(|r| r.map(|(a, b)| [a, b])).collect(),
                })
                .collect(),
            costs: w
                .cost_rows()
                .into_iter()
                .map(|row| {
                    row.into_iter()
                        .map(|c| (c != UNREACHED).then_some(c))
                        .collect()
                })
                .collect(),
            halos: w
                .halos
                .iter()
                .map(|h| HaloData {
                    kind: "boundary",
                    step: h.step,
                    from: h.from,
                    to: h.to,
                    values: h.values,
                    bytes: h.bytes,
                    diagonals: h.diagonals.map(|(a, b)| [a, b]),
                })
                .collect(),
        }
    }
}

/// A bands page's pipeline: its word, batches and each active rank's columns.
#[derive(Debug, Serialize)]
struct BandsData {
    word: usize,
    teaching: bool,
    batch: usize,
    batches: usize,
    stages: usize,
    cols: Vec<[usize; 2]>,
    /// The timeline is the run's own (else a model).
    recorded: bool,
    /// `cells` or `blocks`.
    detail: &'static str,
}

impl BandsData {
    /// The data of `pipe`, whose timeline the run `recorded` (else a model).
    fn of(pipe: &Pipeline, recorded: bool) -> BandsData {
        BandsData {
            word: pipe.word(),
            teaching: pipe.teaching(),
            batch: pipe.batch(),
            batches: pipe.batches(),
            stages: pipe.stages(),
            cols: (0..pipe.active_ranks())
                .map(|k| [pipe.cols_of(k).start, pipe.cols_of(k).end])
                .collect(),
            recorded,
            detail: Detail::of(pipe).name(),
        }
    }
}

/// A hop as the page plays it.
#[derive(Debug, Serialize)]
struct HopData {
    t: usize,
    from: usize,
    to: usize,
    i: usize,
    j: usize,
    bytes: u64,
    moves: usize,
    prefix: Option<String>,
}

impl HopData {
    fn of(h: Hop) -> HopData {
        HopData {
            t: h.t,
            from: h.from,
            to: h.to,
            i: h.next.0,
            j: h.next.1,
            bytes: h.bytes,
            moves: h.moves,
            prefix: h.prefix,
        }
    }
}

/// How many units (diagonals, stages or score steps) one step of the fill shows, and how many
/// cells one step of the walk.
#[derive(Debug, Serialize)]
struct Steps {
    unit: &'static str,
    group: usize,
    walk_group: usize,
}

impl<'a> Data<'a> {
    /// The data of `picture`'s page (a run's, with its `report`); the comparison predicts the
    /// bands engine with batches of `bands_batch` rows when it did not run.
    pub(super) fn of(
        picture: &'a Picture,
        report: Option<&'a Report>,
        bands_batch: usize,
    ) -> Result<Data<'a>, Error> {
        let s = picture.schedule;
        let hops = hops::hops(picture)?.into_iter().map(HopData::of).collect();
        let per_phase = |units: usize| units.div_ceil(MAX_STEPS_PER_PHASE).max(1);
        let compare = match picture.wave {
            Some(w) => lesson::compare_wave(w, report),
            None => lesson::compare(
                (s.rows(), s.cols(), s.ranks()),
                picture.problem,
                picture.bands,
                bands_batch,
                report,
            ),
        };
        let batches = match picture.wave {
            Some(_) => Vec::new(),
            None => batch_options(picture, bands_batch),
        };
        Ok(Data {
            schema: 3,
            command: if report.is_some() {
                "solve"
            } else {
                "schedule"
            },
            problem: picture.problem,
            title: &picture.title,
            rows: s.rows(),
            cols: s.cols(),
            ranks: s.ranks(),
            swapped: picture.swapped,
            x: picture.x,
            y: picture.y,
            value_rows: picture
                .values
                .filter(|_| picture.wave.is_none())
                .map(|v| value_rows(picture.problem, v))
                .transpose()?,
            lcs: report
                .and_then(|r| r.answer.lcs.as_ref())
                .map(|l| l.display()),
            distance: picture.answer.and_then(|a| a.distance),
            cigar: picture.answer.map(|a| a.cigar.as_str()),
            view: picture.answer.and_then(|a| a.view.as_ref()),
            cigar_ops: [Move::Match, Move::Sub, Move::Up, Move::Left]
                .map(|step| words::letter(step, picture.swapped)),
            events: picture.messages,
            walk: picture.path,
            hops,
            per_rank: report.map(|r| r.per_rank.as_slice()),
            control: report.map(Report::control_explanation),
            steps: Steps {
                unit: match (picture.bands, picture.wave) {
                    (Some(_), _) => "stage",
                    (_, Some(_)) => "step",
                    _ => "diagonal",
                },
                group: per_phase(match (picture.bands, picture.wave) {
                    (Some(b), _) => b.stages(),
                    (_, Some(w)) => w.units(),
                    _ => s.diagonals(),
                }),
                walk_group: per_phase(picture.path.len()),
            },
            palette: (0..RANK_COLOURS).map(|k| hex(rank_colour(k))).collect(),
            rank_colours: RANK_COLOURS,
            engine: match (picture.bands, picture.wave) {
                (Some(_), _) => "bands",
                (_, Some(_)) => "wave",
                _ => "diagonal",
            },
            bands: picture
                .bands
                .map(|b| BandsData::of(b, !picture.spans.is_empty())),
            compare,
            batches,
            wave: picture.wave.map(WaveData::of),
        })
    }

    /// The block as JSON that a script element holds whole: inside one, only `</script` could
    /// end the block early, and JSON may spell `<` as an escape anywhere it occurs (in strings).
    pub(super) fn json(&self) -> Result<String, Error> {
        let json = serde_json::to_string(self).map_err(anyhow::Error::from)?;
        Ok(json.replace('<', "\\u003c"))
    }
}

/// Each row of `values` as the steps along it, a character a cell (see `Data::of`).
fn value_rows(problem: Problem, values: &[Vec<u32>]) -> Result<Vec<String>, Error> {
    let mut rows = Vec::with_capacity(values.len());
    for (i, row) in values.iter().enumerate() {
        let mut before = match problem {
            Problem::Lcs => 0,
            Problem::Edit => i as i64 + 1,
        };
        let mut text = String::with_capacity(row.len());
        for (j, &v) in row.iter().enumerate() {
            text.push(match v as i64 - before {
                -1 => '-',
                0 => '0',
                1 => '+',
                step => {
                    return Err(Error::Internal(anyhow::anyhow!(
                        "page: the value of ({i}, {j}) is {step} from its left neighbour's"
                    )))
                }
            });
            before = v as i64;
        }
        rows.push(text);
    }
    Ok(rows)
}

/// The bands engine's messages, bytes and stages by batch (`lesson::batch_options`): of the
/// bands `picture` shows, or else of the bands engine on its matrix with batches of
/// `bands_batch` rows.
fn batch_options(picture: &Picture, bands_batch: usize) -> Vec<lesson::BatchOption> {
    let s = picture.schedule;
    let plan =
        BandPlan::new(s.rows(), s.cols(), s.ranks(), bands_batch).with_problem(picture.problem);
    let pipe = picture
        .bands
        .copied()
        .unwrap_or_else(|| Pipeline::of_plan(&plan));
    lesson::batch_options(&pipe)
}
