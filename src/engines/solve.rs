//! One `solve` run over MPI: the input on rank 0, broadcast, checks, the engine's fill and
//! traceback, every rank's record gathered to rank 0; the command makes the report and writes the
//! files. Every failure a user can cause is decided collectively before any work (rank 0's checks
//! and input, then an ok/error code broadcast before any data; the size checks on every rank from
//! the broadcast lengths; the memory pre-check reduced over all ranks), so every rank leaves
//! together with one exit status and only rank 0 carries the message. Anything else that goes wrong
//! on one rank (a panic, a planted fault) aborts the whole job through `MPI_Abort`: no rank is ever
//! left blocked in a receive.

use std::path::PathBuf;
use std::time::{Instant, SystemTime};

use crate::comm::world::World;
use mpi::collective::SystemOperation;

use crate::comm::agree::{failure_word, settle};
use crate::comm::share;
use crate::comm::stats;
use crate::comm::traffic::Predicted;
use crate::comm::waiting::Waiting;
use crate::engines::budget;
use crate::engines::choice::{self, EngineChoice, Fit};
use crate::engines::config::{Method, RunConfig};
use crate::engines::device::{self, DeviceAsk, RankDevice};
use crate::engines::holding::{Holding, Room};
use crate::engines::layout::{run_layout, Layout};
use crate::engines::outcome::{GaveWay, WaveRun};
use crate::engines::record::Gathered;
use crate::error::{Error, EXIT_MEMORY};
use crate::input::{self, FormatChoice, Pair};
use crate::mem;
use lcs_core::diagonal_band::BandSearch;
use lcs_core::problem::{Path, Problem};

/// What a `solve` run is asked to do.
pub struct Request<'a> {
    pub input: PathBuf,
    /// Largest input accepted, in bytes.
    pub max_input: u64,
    pub format: FormatChoice,
    pub config: RunConfig,
    /// The device each rank computes on (`config.device` is its placement).
    pub device: DeviceAsk,
    /// Print the notes of the device's choice (rank 0).
    pub notes: bool,
    /// The user's per-rank memory limit, if any (else the host's memory decides).
    pub memory_limit: Option<u64>,
    /// Rank 0's checks before it reads the input (e.g. that every output path can be written).
    pub before_reading: &'a dyn Fn() -> Result<(), Error>,
    /// Every rank's check of an `m x n` matrix before any work (e.g. that a picture asked for
    /// is not too large): a usage problem, or `None`.
    pub refuse_size: &'a dyn Fn(usize, usize) -> Option<String>,
    /// Rank 0's call with the `m x n` matrix once the run is accepted, just before the fill
    /// (e.g. to say that the other engine suits this shape better): the engine prints nothing.
    pub before_fill: &'a dyn Fn(usize, usize),
}

/// What rank 0 holds once a run is over.
pub struct Solved {
    pub pair: Pair,
    pub problem: Problem,
    pub layout: Layout,
    /// The walk's path: the LCS is its matches, the alignment the path itself.
    pub path: Path,
    /// Every rank's record (`stats`), boundary messages per pair and recording.
    pub gathered: Gathered,
    /// The diagonal bands a bands run filled.
    pub band: Option<BandSearch>,
    /// What a wave run did (rank 0's share of the work).
    pub wave: Option<WaveRun>,
    /// What `--engine auto` chose, and why.
    pub choice: Option<EngineChoice>,
    /// The wave run `--engine auto` chose that passed its cut-off, which the bands engine took
    /// over from (rank 0's).
    pub gave_way: Option<GaveWay>,
    pub started_at: SystemTime,
    /// From the start until rank 0 held the path.
    pub seconds_total: f64,
    /// Where the run asked the bands engine to compute (`--device`).
    pub placement: crate::engines::device::Placement,
}

impl Solved {
    /// The boundary messages the run predicts: its layout's, and those of a wave run it gave
    /// way from.
    pub fn predicted(&self) -> Predicted {
        let cost = self.wave.map(|w| w.cost);
        (self.layout).predicted_run(self.band.as_ref(), cost, self.gave_way.as_ref())
    }
}

/// Runs `request` on this rank. Collective. Rank 0 gets what the run produced, other ranks
/// `None`; an error is every rank's, with the message on rank 0's.
pub fn solve(world: &World, request: &Request<'_>) -> Result<Option<Solved>, Error> {
    let started = Instant::now();
    let started_at = SystemTime::now();
    let queued_before = crate::cpus::queued_seconds();
    let rank = world.rank() as usize;
    let config = &request.config;
    let waiting = config.switches.waiting();
    let pair = share_input(world, request, waiting)?;
    let seconds_input = started.elapsed().as_secs_f64();
    log::debug!("input shared after {seconds_input:.4} s");
    if let Some(problem) = (request.refuse_size)(pair.x.len(), pair.y.len()) {
        return Err(match rank {
            0 => Error::Usage(problem),
            _ => Error::Peer(crate::error::EXIT_USAGE),
        });
    }
    let ranks = world.size() as usize;
    let fault = config.switches.fault;
    let mut gpu = device::open(world, waiting, &request.device, fault, request.notes)?;
    let (method, mut choice) = choice::resolve(
        config.method,
        config.problem,
        &pair,
        (ranks, config.switches.several_hosts),
    );
    let baseline = mem::peak_rss_bytes();
    let limit = memory_limit(world, request.memory_limit);
    let fits = |held: &Holding| {
        fits_everywhere(world, waiting, budget::need(baseline, held.total()), limit)
    };
    let lay = |method: Method| {
        let config = RunConfig { method, ..*config };
        let (layout, holding) = lay_out(world, waiting, &config, &pair, (limit, baseline));
        (config, layout, holding)
    };
    let chosen = lay(method);
    let ((config, mut layout, holding), fallback) = match choice.as_mut() {
        Some(choice) => {
            let auto = (request.config.method, chosen);
            auto_within_limit(choice, auto, &lay, &fits, baseline)
        }
        None => (chosen, None),
    };
    let config = &config;
    // The run and the bands engine it may give way to, one after the other: the larger need.
    let (working, need) = [Some(&holding), fallback.as_ref().map(|f| &f.2)]
        .into_iter()
        .flatten()
        .map(|held| (held.total(), budget::need(baseline, held.total())))
        .max_by_key(|&(_, need)| need)
        .expect("the run's own");
    log::debug!("rank {rank} will hold {holding}: {need} bytes in all");
    check_memory(world, waiting, need, limit, || {
        layout.advice(config, &pair, limit.unwrap_or(0), baseline)
    })?;
    log::info!("{} x {} matrix, {layout:?}", pair.x.len(), pair.y.len());
    if rank == 0 {
        (request.before_fill)(pair.x.len(), pair.y.len());
    }

    let room = Room { limit, baseline };
    let seconds_setup = started.elapsed().as_secs_f64() - seconds_input;
    let fallback_run = fallback.as_ref().map(|(c, l, _)| (l, c));
    let on = (Some(room), gpu.as_mut());
    let mut outcome = run_layout(world, &pair, &layout, config, on, fallback_run);
    if let Some(e) = outcome.failed.take() {
        return Err(e);
    }
    outcome.stats.device = RankDevice::of(gpu.as_ref());
    // Rank 0 holds the path now: what follows is gathering.
    let seconds_total = started.elapsed().as_secs_f64();
    let seconds_queued = crate::cpus::queued_since(queued_before);
    if let (Some(gave_way), Some((_, bands, _))) = (&outcome.gave_way, fallback) {
        if let Some(choice) = choice.as_mut() {
            choice.engine = "bands";
            choice.gave_way = true;
            choice.seconds_given_up = gave_way.seconds;
        }
        layout = bands;
    }
    // A band that did not fit: every rank knows it, none has a path.
    if let Some(widening) = outcome.refused {
        return Err(match rank {
            0 => Error::Memory(widening.message()),
            _ => Error::Peer(EXIT_MEMORY),
        });
    }
    // A fixed band that did not prove itself: every rank knows it, none has a path.
    if let Some(search) = outcome.band.as_ref().filter(|s| !s.proven) {
        return Err(match rank {
            0 => Error::Usage(format!(
                "the band of {} diagonals does not prove itself optimal on this input: its \
                 answer could be beaten by a path outside it; widen it, or use --band auto",
                search.last().unwrap_or(0)
            )),
            _ => Error::Peer(crate::error::EXIT_USAGE),
        });
    }
    outcome.stats.store_bytes_estimate = working;
    outcome.stats.memory_estimate_bytes = need;
    outcome.stats.seconds_input = seconds_input;
    outcome.stats.seconds_setup = seconds_setup;
    outcome.stats.seconds_queued = seconds_queued;
    let Some(gathered) = stats::gather(world, &outcome.stats, &outcome.traffic, waiting) else {
        return Ok(None);
    };
    Ok(Some(Solved {
        pair,
        problem: config.problem,
        layout,
        path: outcome.path.expect("rank 0 holds the path"),
        gathered,
        band: outcome.band,
        wave: outcome.wave,
        choice,
        gave_way: outcome.gave_way,
        started_at,
        seconds_total,
        placement: config.device,
    }))
}

/// A run as this rank will make it: its settings, its layout, what it will hold.
type Laid = (RunConfig, Layout, Holding);

/// `--engine auto`'s run of the method it `chose` (laid out), as the memory limit lets it go,
/// and the bands run it may give way to: a wave run whose bound is within its cut-off cannot
/// pass it, and has none; the other engine where the chosen one does not fit; beside a wave
/// run with a cut-off, the bands engine, which must fit too (else the wave runs without a
/// cut-off). `lay` lays a method out, `fits` says whether a holding fits every rank (both
/// collective); `baseline` is what the rank holds already. The `choice` records what was
/// taken, and why.
fn auto_within_limit(
    choice: &mut EngineChoice,
    (auto, chosen): (Method, Laid),
    lay: &dyn Fn(Method) -> Laid,
    fits: &dyn Fn(&Holding) -> bool,
    baseline: u64,
) -> (Laid, Option<Laid>) {
    let (mut config, layout, holding) = chosen;
    if let (
        Method::Wave {
            cut_off: Some(t),
            halo,
        },
        Layout::Wave(plan),
    ) = (config.method, layout)
    {
        if plan.bound() < t {
            config.method = Method::Wave {
                cut_off: None,
                halo,
            };
            choice.cut_off = None;
        }
    }
    let chosen_fits = fits(&holding);
    let guarded = matches!(
        config.method,
        Method::Wave {
            cut_off: Some(_),
            ..
        }
    );
    if !guarded && chosen_fits {
        return ((config, layout, holding), None);
    }
    let Method::Auto { halo, .. } = auto else {
        unreachable!("auto_within_limit lays out --engine auto's runs")
    };
    let wave = Method::Wave {
        cut_off: None,
        halo,
    };
    let bands = lay(choice::bands_of(auto));
    let mut wave_run = None;
    let fit = choice::fit(config.method, chosen_fits, fits(&bands.2), || {
        fits(&wave_run.insert(lay(wave)).2)
    });
    let (taken, engine) = match fit {
        Fit::AsChosen => return ((config, layout, holding), None),
        Fit::WithBands => return ((config, layout, holding), Some(bands)),
        Fit::WithoutCutOff => {
            choice.cut_off = None;
            return (lay(wave), None);
        }
        Fit::Bands => (bands, "bands"),
        Fit::Wave => (wave_run.expect("the wave's fit was asked"), "wave"),
    };
    choice.preferred_needs = Some(budget::need(baseline, holding.total()));
    choice.engine = engine;
    choice.cut_off = None;
    (taken, None)
}

/// The layout of `config`'s run of `pair` on this rank and what it will hold, with the
/// memory limit in force and what the rank holds already (`baseline`). Collective: a wave run's
/// ranks agree on the widest spacing of checkpoints any of them needs.
fn lay_out(
    world: &World,
    waiting: Waiting,
    config: &RunConfig,
    pair: &Pair,
    (limit, baseline): (Option<u64>, u64),
) -> (Layout, Holding) {
    let (ranks, rank) = (world.size() as usize, world.rank() as usize);
    let mut layout = Layout::new(config, pair, ranks, rank, limit, baseline);
    if let Layout::Wave(plan) = layout {
        // Every rank runs the same plan: the widest spacing of checkpoints any rank needs.
        let mut every = 0u64;
        waiting.all_reduce(
            world,
            &(plan.every() as u64),
            &mut every,
            SystemOperation::max(),
        );
        layout = Layout::Wave(plan.with_every(every as usize));
    }
    let mut holding = layout.holding(config.problem, pair, rank);
    // The shorter checkpoint interval `auto` takes on a narrow band gives way where it does
    // not fit, to the interval of least memory.
    let over = |held: &Holding| limit.is_some_and(|l| budget::need(baseline, held.total()) > l);
    if let Some(leanest) = layout.leanest(config).filter(|_| over(&holding)) {
        layout = leanest;
        holding = layout.holding(config.problem, pair, rank);
    }
    (layout, holding)
}

/// Whether `need` fits `limit` on every rank (no limit: it fits). Collective.
fn fits_everywhere(world: &World, waiting: Waiting, need: u64, limit: Option<u64>) -> bool {
    let over = u8::from(limit.is_some_and(|l| need > l));
    let mut any = 0u8;
    waiting.all_reduce(world, &over, &mut any, SystemOperation::max());
    any == 0
}

/// Rank 0 runs the caller's checks, then reads and validates the input; [`share`] gives it to
/// every rank (see there), or the error.
pub(crate) fn share_input(
    world: &World,
    request: &Request<'_>,
    waiting: Waiting,
) -> Result<Pair, Error> {
    let loaded = (world.rank() == 0).then(|| {
        (request.before_reading)().and_then(|()| {
            input::read_pair(&request.input, request.max_input, request.format).map_err(Error::from)
        })
    });
    share::share_pair(world, waiting, loaded)
}

/// The per-rank memory limit in force: the user's, else what this host can give divided among
/// the ranks that share it; never beyond this process's address-space limit (`ulimit -v`).
pub(crate) fn memory_limit(world: &World, user: Option<u64>) -> Option<u64> {
    let ranks_on_host = world.ranks_on_host() as u64;
    let limit = user.or_else(|| mem::available_bytes().map(|b| b / ranks_on_host.max(1)));
    mem::lowest(limit, mem::address_space_limit())
}

/// Before any allocation: does every rank's `need` fit its `limit` (see `budget`)? Decided
/// over all ranks together; rank 0 words the refusal with `advice`.
pub(crate) fn check_memory(
    world: &World,
    waiting: Waiting,
    need: u64,
    limit: Option<u64>,
    advice: impl FnOnce() -> String,
) -> Result<(), Error> {
    agree_fitting(world, waiting, Ok(()), need, limit, advice)
}

/// Above every failure word of [`agree`](crate::comm::agree::agree): a rank met an error.
const FAILED: u64 = 1 << 40;

/// [`agree`](crate::comm::agree::agree) on each rank's `result` and [`check_memory`] of its
/// `need` in one collective: a rank's error comes first (the lowest rank with the highest
/// status tells it, as `agree` does), then the memory's refusal (worded by rank 0 with
/// `advice`).
pub(crate) fn agree_fitting<T>(
    world: &World,
    waiting: Waiting,
    result: Result<T, Error>,
    need: u64,
    limit: Option<u64>,
    advice: impl FnOnce() -> String,
) -> Result<T, Error> {
    if limit.is_none() && world.rank() == 0 {
        log::warn!("no memory limit known on this system: the memory pre-check is off");
    }
    let fits = limit.is_none_or(|l| need <= l);
    // An error outranks a refusal of memory (the flag above every failure word).
    let rank = world.rank() as u64;
    let mine = match &result {
        Err(_) => FAILED | failure_word(&result, rank),
        Ok(_) => u64::from(!fits),
    };
    let mut worst = 0u64;
    waiting.all_reduce(world, &mine, &mut worst, SystemOperation::max());
    if worst & FAILED != 0 {
        return settle(result, worst & !FAILED, rank);
    }
    match (worst, rank) {
        (0, _) => result,
        (_, 0) => Err(Error::Memory(advice())),
        _ => Err(Error::Peer(EXIT_MEMORY)),
    }
}
