//! One `pairs` run over MPI: rank 0 reads the files and broadcasts the sequences, every rank
//! plans the same work from their lengths (`lcs_core::pairs::plan`) and computes its share, and
//! the values go to rank 0 in counted messages.
//!
//! 1. Rank 0 runs the caller's checks (the output paths), reads QUERIES and TARGETS, and
//!    broadcasts an ok/error code with the files' shape; on error every rank returns it
//!    together, only rank 0's carrying the message. Then the sequences follow: their lengths,
//!    then their bytes in pieces of at most [`PIECE`] bytes. The names stay on rank 0.
//! 2. Every rank plans the run and takes its share: a contiguous run of the plan's items of
//!    about an even part of the estimated cost.
//! 3. The memory check, decided over all ranks as `solve`'s is: rank 0 holds the dense matrix
//!    (`4 |Q| |T|` bytes) unless it keeps only the pairs within a bound; every other rank holds
//!    its own values, written straight into the message that carries them; and every rank its
//!    kernel's tables for the largest unit of its share. The pairs within a bound, as many as
//!    there are, are kept in memory up to what the limit leaves, and spilled to disk beyond
//!    ([`super::passing`]).
//! 4. Every rank computes its share ([`work::run`]); rank 0 places its values in what it keeps
//!    as they come (a progress bar over them on long runs). A rank that could not spill its
//!    pairs within the bound says so once its share is done, and every rank stops with it.
//! 5. Every rank other than 0 sends rank 0 its values: one `control` message, or pieces of at
//!    most [`PIECE`] bytes when larger, a rank with nothing to send one empty message, so that
//!    rank 0 knows when it has them all. With a dense matrix every message is predicted from
//!    the plan alone; the pairs within a bound are as many as there are, so their messages
//!    (a stream of pieces of [`PASSING_PIECE`] pairs, which rank 0 takes one at a time and
//!    spills in turn where they do not fit) are counted, not predicted.
//! 6. Every rank's record is gathered to rank 0 (a collective, not counted, as `solve`'s).
//!
//! The setup's exchanges (the broadcasts, the agreement on errors) are collectives, and not
//! counted: what the counts show is what the pairs themselves send.

use std::path::PathBuf;
use std::time::{Instant, SystemTime};

use crate::comm::world::World;
use mpi::traits::*;

use super::assemble::{self, passing_of, Keeping, Kept};
use super::passing::{Passing, BYTES_PER_CAPPED_PAIR, LEAST_CAP, PAIR_BYTES};
use crate::comm::agree::agree;
use crate::comm::fault::Fault;
use crate::comm::protocol::pairs::{
    every_of, pairs_of, passing_first, passing_more, passing_of_first, values_len, EveryWriter,
    Header, PASSING_PIECE,
};
use crate::comm::protocol::{tag, Kind};
use crate::comm::share::{self, PIECE};
use crate::comm::stats;
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::comm::words::RankHost;
use crate::engines::budget;
use crate::engines::device::{self, DeviceAsk, Placement, RankDevice};
use crate::engines::pairs::record::RankPairs;
use crate::engines::search::run::choose_simd;
use crate::engines::solve::{check_memory, memory_limit};
use crate::error::Error;
use crate::input::sequences::{self, Sequences};
use crate::input::{is_stdin, Format};
use crate::mem;
use crate::progress::{Progress, Show};
use crate::provenance::HostInfo;
use lcs_core::pairs::plan::{Ask, Job, Plan, Side};
use lcs_core::pairs::work::{self, Item};
use lcs_core::problem::Problem;
use lcs_core::search::lanes::Simd;

/// What a `pairs` run is asked to do.
pub struct Request<'a> {
    pub queries: PathBuf,
    /// `None`: every pair of the queries.
    pub targets: Option<PathBuf>,
    /// Largest file accepted, in bytes.
    pub max_input: u64,
    pub problem: Problem,
    /// The most edits (edit distance) or the least length (LCS).
    pub bound: Option<usize>,
    pub keeping: Keeping,
    pub memory_limit: Option<u64>,
    /// Where a rank spills the pairs within a bound that its memory cannot keep.
    pub spill_dir: PathBuf,
    /// The kernels' compilation, if the caller chooses it (else the best the CPU has).
    pub simd: Option<Simd>,
    /// Where the kernels run: the CPU engines, or each rank's GPU.
    pub device: DeviceAsk,
    /// Whether rank 0 prints its notes (e.g. that the GPU kernels run on the CPU).
    pub notes: bool,
    /// A fault planted for the tests (a device's launch that fails).
    pub fault: Option<Fault>,
    pub waiting: Waiting,
    pub progress: Option<Show>,
    /// Rank 0's checks before it reads anything (e.g. that every output path can be written).
    pub before_reading: &'a dyn Fn() -> Result<(), Error>,
}

/// What rank 0 holds once a run is over.
pub struct Computed {
    pub queries: Sequences,
    pub targets: Option<Sequences>,
    pub plan: Plan,
    pub kept: Kept,
    pub ranks: Vec<RankPairs>,
    /// Control messages predicted from the plan (a dense matrix), `None` when they depend on
    /// how many pairs pass the bound.
    pub predicted_messages: Option<u64>,
    pub started_at: SystemTime,
    /// From the start until rank 0 held every value; of that, reading and sharing the files.
    pub seconds_total: f64,
    pub seconds_input: f64,
    /// Where the run asked the kernels to run (each rank's device is in its record).
    pub placement: Placement,
}

/// Runs `request` on this rank. Collective. Rank 0 gets what the run computed, other ranks
/// `None`; an error is every rank's, with the message on the rank that met it.
pub fn pairs(world: &World, request: &Request<'_>) -> Result<Option<Computed>, Error> {
    let started = Instant::now();
    let started_at = SystemTime::now();
    let queued_before = crate::cpus::queued_seconds();
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let waiting = request.waiting;
    // The kernel first: the other ranks read the CPU's features while rank 0 reads the inputs
    // (some ten CPUID instructions, each a trap to the hypervisor in a virtual machine).
    let simd = choose_simd(request.simd);
    let loaded = (rank == 0).then(|| load(request));
    let (queries, targets) = share_inputs(world, waiting, loaded)?;
    let seconds_input = started.elapsed().as_secs_f64();
    let simd = agree(world, waiting, simd)?;
    let (ask, fault) = (&request.device, request.fault);
    let mut gpu = device::open(world, waiting, ask, fault, request.notes)?;

    let ask = Ask {
        problem: request.problem,
        bound: request.bound,
        all_against_all: targets.is_none(),
    };
    let lens = |s: &Sequences| s.sequences.iter().map(Vec::len).collect::<Vec<_>>();
    let query_lens = lens(&queries);
    let target_lens = targets.as_ref().map(lens).unwrap_or_default();
    let plan = Plan::new(ask, &query_lens, &target_lens);
    // Even shares, rank 0's too: it gathers the others' values only once they have all been
    // computed, so a head start for that would only make the others finish later.
    let shares = plan.shares(ranks);
    let mine = &shares[rank];
    log::info!("{} jobs, {} values", mine.len(), plan.jobs_values(mine));

    let distinct = distinct_bytes(&queries, targets.as_ref());
    let (need, budget) = check_memory_of(world, waiting, request, (&plan, &shares), distinct)?;

    let computing = Instant::now();
    let query_seqs = slices(&queries);
    let target_seqs = targets
        .as_ref()
        .map(slices)
        .unwrap_or_else(|| query_seqs.clone());
    let (lane_side, scanned_side) = match plan.lane_side {
        Side::Queries => (&query_seqs, &target_seqs),
        Side::Targets => (&target_seqs, &query_seqs),
    };
    let share = work::Share {
        plan: &plan,
        lane_side,
        scanned_side,
        simd,
    };
    let passing = || Passing::new(budget, &request.spill_dir);
    let mut kept = (rank == 0).then(|| match request.keeping {
        Keeping::Matrix => Kept::matrix(&plan),
        Keeping::Passing => Kept::Passing(passing()),
    });
    let dense = rank != 0 && request.keeping == Keeping::Matrix;
    let mut every = EveryWriter::new(if dense {
        plan.jobs_values(mine) as usize
    } else {
        0
    });
    let mut found = passing();
    let mut progress = Progress::new(
        request.progress.filter(|_| rank == 0),
        plan.jobs_values(mine) as usize,
        "pairs",
    );
    let mut done = 0usize;
    let (tally, failed) = {
        let mut emit = |item: &Item, values: &[u32]| {
            match (&mut kept, request.keeping) {
                (Some(kept), _) => kept.place(&plan, item, values),
                (None, Keeping::Matrix) => every.push(values),
                (None, Keeping::Passing) => found.extend(passing_of(&plan, item, values)),
            }
            done += values.len();
            progress.at(done);
        };
        match gpu.as_mut() {
            None => (work::run(&share, mine, &mut emit), None),
            Some(gpu) => match lcs_gpu::pairs::run(gpu, &share, mine, &mut emit) {
                Ok((tally, _)) => (tally, None),
                Err(e) => (work::Tally::default(), Some(e)),
            },
        }
    };
    progress.finish();
    // A device that failed mid-share fails every rank, before any value is delivered.
    if request.device.placement != Placement::Cpu {
        let result = failed.map_or(Ok(()), |e| Err(device::run_error(e)));
        agree(world, waiting, result)?;
    }
    let seconds_compute = computing.elapsed().as_secs_f64();
    // Rank 0's own: it keeps the other ranks' pairs with them from now on.
    let own = match &kept {
        Some(Kept::Passing(kept)) => kept,
        _ => &found,
    };
    let found_pairs = own.count();
    if request.keeping == Keeping::Passing {
        agree(
            world,
            waiting,
            own.error().map_or(Ok(()), |e| Err(Error::Memory(e))),
        )?;
    }

    let delivering = Instant::now();
    let mut traffic = Traffic::new(rank, ranks, false);
    let delivered = match (request.keeping, kept.as_mut()) {
        (Keeping::Matrix, kept) => {
            let route = (&plan, &shares[..]);
            deliver_every(world, waiting, route, every.finish(), kept, &mut traffic)
        }
        (Keeping::Passing, None) => send_passing(world, waiting, &found, &mut traffic),
        (Keeping::Passing, Some(kept)) => receive_passing(world, waiting, kept, &mut traffic),
    };
    // The pairs within the bound sorted (merged back from disk where spilled).
    let finished = match &mut kept {
        Some(kept) => kept.finish(&plan).map_err(|e| match kept {
            Kept::Passing(p) => Error::Memory(p.error().unwrap_or_else(|| {
                format!("not enough memory: reading back the pairs spilled to disk failed: {e}")
            })),
            Kept::Matrix(_) => Error::Internal(e.into()),
        }),
        None => Ok(()),
    };
    agree(world, waiting, delivered.and(finished))?;
    let seconds_total = started.elapsed().as_secs_f64();
    let spilled = match &kept {
        Some(Kept::Passing(kept)) => kept.spilled(),
        _ => found.spilled(),
    };
    let record = RankPairs {
        jobs: mine.len() as u64,
        pairs: tally.values,
        word_steps: tally.word_steps,
        cells: tally.cells,
        estimated_ps: plan.jobs_cost(mine),
        control: traffic.control(),
        peak_rss_bytes: mem::peak_rss_bytes(),
        memory_estimate_bytes: need,
        seconds_compute,
        seconds_deliver: delivering.elapsed().as_secs_f64(),
        seconds_queued: crate::cpus::queued_since(queued_before),
        simd,
        passing: found_pairs,
        spilled,
        host: RankHost::of(&HostInfo::here()),
        device: RankDevice::of(gpu.as_ref()),
    };
    let all = stats::gather_varcount(world, &[record], waiting);
    let (Some(kept), Some(all)) = (kept, all) else {
        return Ok(None);
    };
    let predicted_messages = (request.keeping == Keeping::Matrix).then(|| {
        (1..ranks)
            .map(|r| messages_for(every_bytes(&plan, &shares[r])))
            .sum()
    });
    Ok(Some(Computed {
        queries,
        targets,
        plan,
        kept,
        ranks: all,
        predicted_messages,
        started_at,
        seconds_total,
        seconds_input,
        placement: request.device.placement,
    }))
}

/// The sequences of `set`, borrowed.
fn slices(set: &Sequences) -> Vec<&[u8]> {
    set.sequences.iter().map(Vec::as_slice).collect()
}

/// Rank 0's part of step 1: the caller's checks, then the files.
fn load(request: &Request<'_>) -> Result<(Sequences, Option<Sequences>), Error> {
    (request.before_reading)()?;
    if let Some(targets) = &request.targets {
        if is_stdin(&request.queries) && is_stdin(targets) {
            return Err(Error::Usage(
                "QUERIES and TARGETS are both standard input ('-'): at most one file can be \
                 read from it"
                    .into(),
            ));
        }
    }
    let queries = sequences::read_sequences(&request.queries, request.max_input)?;
    let targets = request
        .targets
        .as_ref()
        .map(|t| sequences::read_sequences(t, request.max_input))
        .transpose()?;
    for (flag, set) in [("QUERIES", Some(&queries)), ("TARGETS", targets.as_ref())] {
        if let Some(set) = set.filter(|s| s.sequences.len() > u32::MAX as usize) {
            return Err(Error::Usage(format!(
                "{flag} holds {} sequences: a run takes at most {} per file",
                set.sequences.len(),
                u32::MAX
            )));
        }
    }
    Ok((queries, targets))
}

/// Step 1's broadcast: rank 0 passes what it loaded, the others `None`; every rank returns the
/// sequences (without names, but on rank 0), or the error.
fn share_inputs(
    world: &World,
    waiting: Waiting,
    loaded: Option<Result<(Sequences, Option<Sequences>), Error>>,
) -> Result<(Sequences, Option<Sequences>), Error> {
    let bytes = |s: &Sequences| s.sequences.iter().map(|q| q.len() as u64).sum();
    let (words, kept) = share::share_verdict(world, loaded, |(q, t)| {
        Header {
            code: 0,
            queries: q.sequences.len() as u64,
            query_bytes: bytes(q),
            queries_fasta: q.format == Format::Fasta,
            has_targets: t.is_some(),
            targets: t.as_ref().map_or(0, |t| t.sequences.len() as u64),
            target_bytes: t.as_ref().map_or(0, bytes),
            targets_fasta: t.as_ref().is_some_and(|t| t.format == Format::Fasta),
        }
        .to_words()
    })?;
    let header = Header::of_words(&words)
        .ok_or_else(|| Error::Internal(anyhow::anyhow!("a malformed pairs header from rank 0")))?;
    let format = |fasta: bool| if fasta { Format::Fasta } else { Format::Plain };
    let queries = share_set(
        world,
        waiting,
        kept.as_ref().map(|k| &k.0),
        (
            header.queries,
            header.query_bytes,
            format(header.queries_fasta),
        ),
    );
    let targets = header.has_targets.then(|| {
        share_set(
            world,
            waiting,
            kept.as_ref().and_then(|k| k.1.as_ref()),
            (
                header.targets,
                header.target_bytes,
                format(header.targets_fasta),
            ),
        )
    });
    Ok(match kept {
        Some(kept) => kept,
        None => (
            queries.expect("a rank other than 0 receives the queries"),
            targets.map(|t| t.expect("a rank other than 0 receives the targets")),
        ),
    })
}

/// One file's sequences from rank 0 (which passes `Some` and gets `None`: it keeps its own) to
/// every other rank: the lengths, then the bytes in pieces. The others get the sequences without
/// names. Nothing travels on one rank.
fn share_set(
    world: &World,
    waiting: Waiting,
    set: Option<&Sequences>,
    (count, total, format): (u64, u64, Format),
) -> Option<Sequences> {
    if world.size() == 1 {
        return None;
    }
    let mut lengths: Vec<u64> = match set {
        Some(s) => s.sequences.iter().map(|q| q.len() as u64).collect(),
        None => vec![0; count as usize],
    };
    waiting.broadcast(world, &mut lengths[..]);
    let mut bytes = match set {
        Some(s) => s.sequences.concat(),
        None => vec![0u8; total as usize],
    };
    for range in share::pieces(bytes.len(), PIECE) {
        waiting.broadcast(world, &mut bytes[range]);
    }
    if set.is_some() {
        return None;
    }
    let mut at = 0;
    let sequences = lengths
        .iter()
        .map(|&len| {
            let q = bytes[at..at + len as usize].to_vec();
            at += len as usize;
            q
        })
        .collect();
    Some(Sequences {
        sequences,
        names: Vec::new(),
        format,
    })
}

/// Bytes of the message of every value of `jobs`.
fn every_bytes(plan: &Plan, jobs: &[Job]) -> u64 {
    values_bytes_len(plan.jobs_values(jobs))
}

fn values_bytes_len(values: u64) -> u64 {
    crate::comm::protocol::pairs::VALUES_HEADER_BYTES as u64 + 4 * values
}

/// Messages that carry `bytes`: pieces of at most [`PIECE`], and never none.
fn messages_for(bytes: u64) -> u64 {
    bytes.div_ceil(PIECE as u64).max(1)
}

/// Byte values the sequences hold: what sizes a band's tables and a long pair's masks.
fn distinct_bytes(queries: &Sequences, targets: Option<&Sequences>) -> usize {
    let mut seen = [false; 256];
    for set in std::iter::once(queries).chain(targets) {
        for s in &set.sequences {
            s.iter().for_each(|&b| seen[usize::from(b)] = true);
        }
    }
    seen.iter().filter(|&&b| b).count()
}

/// The memory `rank` works in beyond what it holds already (see step 3): the matrix on rank 0
/// (with the largest message it receives), the message of its values elsewhere, or the least
/// buffer of pairs within the bound (with, on rank 0, the piece it receives); and its kernel's
/// tables for its share, over sequences of `distinct` byte values. `None` beyond this
/// machine's address space.
fn working_bytes(
    request: &Request<'_>,
    (plan, shares): (&Plan, &[Vec<Job>]),
    rank: usize,
    distinct: usize,
) -> Option<u64> {
    let tables = plan.tables_bytes(&shares[rank], distinct);
    let least_passing = LEAST_CAP as u64 * BYTES_PER_CAPPED_PAIR;
    let working = match (rank, request.keeping) {
        (0, Keeping::Matrix) => {
            let largest = shares.iter().skip(1).map(|s| every_bytes(plan, s)).max();
            assemble::matrix_bytes(plan)?.checked_add(largest.unwrap_or(0))?
        }
        (0, Keeping::Passing) if shares.len() > 1 => {
            least_passing + (PASSING_PIECE * PAIR_BYTES) as u64
        }
        (0, Keeping::Passing) => least_passing,
        (_, Keeping::Matrix) => every_bytes(plan, &shares[rank]),
        (_, Keeping::Passing) => least_passing,
    };
    let working = working.checked_add(tables)?;
    (working <= isize::MAX as u64).then_some(working)
}

/// Where no limit is known, the memory a rank keeps pairs within the bound in before it
/// spills them.
const UNLIMITED_PASSING: u64 = 1 << 30;

/// Step 3: refuses, on every rank, a run whose values do not fit (see the module doc), saying
/// what would; the need, when they fit, and the memory left for the pairs within a bound.
/// Values beyond the address space never fit, whatever the limit.
fn check_memory_of(
    world: &World,
    waiting: Waiting,
    request: &Request<'_>,
    (plan, shares): (&Plan, &[Vec<Job>]),
    distinct: usize,
) -> Result<(u64, u64), Error> {
    let rank = world.rank() as usize;
    let baseline = mem::peak_rss_bytes();
    let working = working_bytes(request, (plan, shares), rank, distinct);
    // Beyond the address space: a need no limit accepts.
    let need = working.map_or(u64::MAX / 2, |w| budget::need(baseline, w));
    let limit = memory_limit(world, request.memory_limit);
    let limit = match working {
        None => Some(limit.unwrap_or(0).min(u64::MAX / 4)),
        Some(_) => limit,
    };
    check_memory(world, waiting, need, limit, || {
        let (rows, cols) = assemble::shape(plan);
        if working.is_none() {
            return format!(
                "not enough memory: rank 0 would keep every value of {} x {} pairs, beyond \
                 what this machine can address; fewer sequences per run, or a bound with a TSV \
                 output, which keeps only the pairs within it",
                rows, cols,
            );
        }
        let limit = limit.unwrap_or(0);
        if request.keeping == Keeping::Passing {
            return format!(
                "not enough memory: rank 0 needs about {} for {} x {} pairs within a bound (the \
                 kernels' tables, and the least buffer of the pairs within it, which are spilled \
                 to disk beyond what the limit keeps), the limit is {}",
                mem::human(need),
                rows,
                cols,
                mem::human(limit),
            );
        }
        let room = budget::need(baseline, 0);
        let fit = limit.saturating_sub(room) / 4;
        format!(
            "not enough memory: rank 0 keeps every value of {} x {} pairs ({} at 4 bytes each) \
             and needs about {}, the limit is {}; about {} values would fit (fewer sequences \
             per run){}",
            rows,
            cols,
            mem::human(assemble::matrix_bytes(plan).unwrap_or(u64::MAX)),
            mem::human(need),
            mem::human(limit),
            mem::thousands(fit),
            match plan.ask.problem {
                Problem::Edit => {
                    ", or --max-edits with a TSV output, which keeps only the pairs within it"
                }
                Problem::Lcs => {
                    ", or --min-length with a TSV output, which keeps only the pairs above it"
                }
            }
        )
    })?;
    let left = match limit {
        Some(l) => budget::room(l, baseline, working.unwrap_or(0)),
        None => UNLIMITED_PASSING,
    };
    Ok((need, left + LEAST_CAP as u64 * BYTES_PER_CAPPED_PAIR))
}

/// Step 5 with a dense matrix: every rank other than 0 sends rank 0 the message `bytes` of its
/// values (see the module doc); rank 0 places each rank's as they arrive.
fn deliver_every(
    world: &World,
    waiting: Waiting,
    (plan, shares): (&Plan, &[Vec<Job>]),
    bytes: Vec<u8>,
    kept: Option<&mut Kept>,
    traffic: &mut Traffic,
) -> Result<(), Error> {
    let Some(kept) = kept else {
        let mut pieces: Vec<_> = share::pieces(bytes.len(), PIECE).collect();
        if pieces.is_empty() {
            pieces.push(0..0);
        }
        for range in pieces {
            send_to_root(world, waiting, &bytes[range], traffic);
        }
        return Ok(());
    };
    // A malformed message (a bug) is answered after every rank has delivered, so that no rank
    // is left waiting in the collectives that follow.
    let ranks = world.size() as usize;
    let mut pending: Vec<Vec<u8>> = vec![Vec::new(); ranks];
    let mut problem = None;
    let mut done = 1;
    while done < ranks {
        let (piece, from) = receive_at_root(world, waiting, traffic);
        // A rank's values come in one piece unless they pass `PIECE` bytes: taken as they
        // are, not copied.
        match pending[from].is_empty() {
            true => pending[from] = piece,
            false => pending[from].extend_from_slice(&piece),
        }
        let buffer = std::mem::take(&mut pending[from]);
        if values_len(&buffer) != Some(buffer.len()) {
            pending[from] = buffer;
            continue;
        }
        done += 1;
        let placed = every_of(&buffer).is_some_and(|v| kept.place_every(plan, &shares[from], v));
        if !placed {
            problem.get_or_insert_with(|| malformed(from));
        }
    }
    problem.map_or(Ok(()), Err)
}

/// Step 5 with a bound, on a rank other than 0: its pairs within the bound to rank 0 as a
/// stream (see the module doc), read back from disk where they were spilled. Should the disk
/// fail, the stream is made up to the count it announced (with pairs that say nothing) so that
/// rank 0 is not left waiting, and the failure is this rank's.
fn send_passing(
    world: &World,
    waiting: Waiting,
    found: &Passing,
    traffic: &mut Traffic,
) -> Result<(), Error> {
    let count = found.count();
    let mut sent = None;
    let mut send = |pairs: &[[u32; 3]], sent: &mut Option<u64>| {
        let message = match sent {
            None => passing_first(count, pairs),
            Some(_) => passing_more(pairs),
        };
        send_to_root(world, waiting, &message, traffic);
        *sent = Some(sent.unwrap_or(0) + pairs.len() as u64);
    };
    let read = found.for_each_piece(PASSING_PIECE, |piece| {
        send(piece, &mut sent);
        Ok(())
    });
    while sent.is_none_or(|s| s < count) {
        let fill = (count - sent.unwrap_or(0)).min(PASSING_PIECE as u64) as usize;
        send(&vec![[0; 3]; fill], &mut sent);
    }
    read.map_err(|e| {
        Error::Memory(format!(
            "not enough memory: reading back the pairs within the bound spilled to disk \
             failed: {e}"
        ))
    })
}

/// Step 5 with a bound, on rank 0: every other rank's stream of pairs within the bound, a
/// message at a time, into what it keeps (which spills them in turn where they do not fit).
fn receive_passing(
    world: &World,
    waiting: Waiting,
    kept: &mut Kept,
    traffic: &mut Traffic,
) -> Result<(), Error> {
    let Kept::Passing(passing) = kept else {
        return Err(Error::Internal(anyhow::anyhow!(
            "pairs within a bound need their store"
        )));
    };
    let ranks = world.size() as usize;
    // The pairs each rank has still to send, once its first message said how many.
    let mut left: Vec<Option<u64>> = vec![None; ranks];
    let mut problem = None;
    let mut done = 1;
    while done < ranks {
        let (message, from) = receive_at_root(world, waiting, traffic);
        let pairs = match left[from] {
            None => passing_of_first(&message).map(|(count, pairs)| {
                left[from] = Some(count);
                pairs
            }),
            Some(_) => pairs_of(&message),
        };
        let fits = |pairs: &Vec<[u32; 3]>| left[from].is_some_and(|l| pairs.len() as u64 <= l);
        match pairs.filter(fits) {
            Some(pairs) => {
                let rest = left[from].map(|l| l - pairs.len() as u64);
                left[from] = rest;
                passing.extend(pairs);
            }
            // Nothing more is taken from a rank that sent what it should not have; it ends
            // its stream all the same.
            None => {
                problem.get_or_insert_with(|| malformed(from));
                left[from] = Some(0);
            }
        }
        if left[from] == Some(0) {
            done += 1;
        }
    }
    match (problem, passing.error()) {
        (Some(p), _) => Err(p),
        (None, Some(e)) => Err(Error::Memory(e)),
        (None, None) => Ok(()),
    }
}

fn malformed(from: usize) -> Error {
    Error::Internal(anyhow::anyhow!(
        "a malformed message of values from rank {from}"
    ))
}

/// Sends one counted `control` message of values to rank 0.
fn send_to_root(world: &World, waiting: Waiting, bytes: &[u8], traffic: &mut Traffic) {
    let root = world.process_at_rank(0);
    mpi::request::scope(|scope| {
        waiting.wait(root.immediate_send_with_tag(scope, bytes, tag::VALUES));
    });
    traffic.sent(Kind::Control, 0, bytes.len(), None);
}

/// Rank 0's next message of values from any rank, counted, and the rank it came from.
fn receive_at_root(world: &World, waiting: Waiting, traffic: &mut Traffic) -> (Vec<u8>, usize) {
    let (bytes, status) = waiting.receive_any(world);
    debug_assert_eq!(status.tag(), tag::VALUES);
    traffic.received(Kind::Control, bytes.len());
    (bytes, status.source_rank() as usize)
}
