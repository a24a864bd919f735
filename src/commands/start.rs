//! How a command starts and how it ends: with MPI under a launcher or as one process alone,
//! logging and the panic hook each way, and every outcome turned into one message and an exit
//! status.
//!
//! Under a launcher, every process must leave together and say each thing once: a usage error
//! is said by rank 0 alone ([`together`]), a run's error by rank 0 after every rank agreed on
//! it ([`with_mpi`]), a panic on any rank aborts the whole job instead of leaving the others
//! blocked in a receive, and a binary started by another MPI library's launcher stops at once
//! ([`Error::Mismatch`], exit 6) instead of running as many one-process worlds.

use std::io::Write as _;
use std::process::ExitCode;

use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives};

use crate::comm::fault::FAULT_ENV;
use crate::comm::host;
use crate::comm::waiting::Waiting;
use crate::comm::world::World;
use crate::error::{self, Error};
use crate::launch::Launch;
use crate::options::Env;

/// Says what is wrong (`say`), and under a launcher leaves only once every process of the job
/// has said it: a launcher may end the whole job as soon as one process exits non-zero (Open
/// MPI's at once with `odls_base_sigkill_timeout 0`), which could end rank 0 before its message
/// is out. A process on its own just says it.
pub fn together(launch: &Launch, say: impl FnOnce() -> ExitCode) -> ExitCode {
    if !launch.launched {
        return say();
    }
    let universe = mpi::initialize();
    let code = say();
    if let Some(universe) = &universe {
        universe.world().barrier();
    }
    code
}

/// Prints an error once, as `mpi-lcs: error: …` (when this process `speaks`), and returns
/// the exit status.
pub fn finish(result: Result<(), Error>, speaks: bool) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Peer(code)) => ExitCode::from(code),
        Err(e) => {
            if speaks {
                error::say(&format!("mpi-lcs: error: {e:#}"));
            }
            ExitCode::from(e.exit_code())
        }
    }
}

/// The MPI library the binary is linked with, as its own description begins: `Open MPI
/// v4.1.4`, `MPICH Version: 4.0.2`.
pub fn mpi_library() -> String {
    let text = mpi::environment::library_version().unwrap_or_default();
    // The C string's terminating NUL may be part of the text.
    let first = text
        .trim_end_matches('\0')
        .lines()
        .next()
        .unwrap_or_default();
    let name = first.split(", ").next().unwrap_or_default();
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        "unknown".to_owned()
    } else {
        name
    }
}

/// How long the silent processes of a mismatched launch wait before they exit.
const MISMATCH_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Runs `body` on the run's ranks: under a launcher with MPI started (see [`with_mpi`]), else as
/// one process without MPI, whose start-up would take longer than a small input's whole run.
pub fn with_world(env: &Env, body: impl FnOnce(&World, &Env) -> Result<(), Error>) -> ExitCode {
    if env.launch.launched {
        return with_mpi(env, body);
    }
    init_logging(Some(0));
    exit_on_panic();
    let world = World::Alone;
    finish(
        check_fault(&world, env).and_then(|()| body(&world, env)),
        true,
    )
}

/// Runs `body` with MPI started and, in the environment it is given, the way ranks wait for
/// messages chosen (see `waiting`); errors are printed by rank 0 only. Dropping the universe
/// finalises MPI on every rank before the process exits.
///
/// A binary linked with one MPI library and started by another's launcher runs as that many
/// separate one-process worlds, each computing the whole answer and reporting one rank: every
/// process stops at once with [`Error::Mismatch`] instead (the launcher's rank 0 says why).
fn with_mpi(env: &Env, body: impl FnOnce(&World, &Env) -> Result<(), Error>) -> ExitCode {
    let launch = &env.launch;
    if let Some(error) = launch.world_alone.and_then(|world| mismatch(launch, world)) {
        // Known before MPI starts, which would only start a world of one here.
        init_logging(launch.rank.and_then(|r| i32::try_from(r).ok()));
        return refuse_mismatch(launch, error);
    }
    let Some(mut universe) = mpi::initialize() else {
        return finish(
            Err(anyhow::anyhow!("MPI was already initialised").into()),
            true,
        );
    };
    universe.set_buffer_size(send_buffer_bytes(universe.world().size() as usize));
    let communicator = universe.world();
    let world = World::Mpi(&communicator);
    init_logging(Some(world.rank()));
    abort_on_panic();
    let mut env = env.clone();
    if let Some(error) = mismatch(launch, world.size() as usize) {
        let code = refuse_mismatch(launch, error);
        drop(universe);
        return code;
    }
    let (here, cores) = host::ranks_and_cores(&communicator);
    env.switches.waiting = Some(Waiting::for_host(here, cores, env.switches.waiting));
    env.switches.several_hosts = here < world.size() as usize;
    let result = check_fault(&world, &env).and_then(|()| body(&world, &env));
    let code = finish(result, world.rank() == 0);
    // Rank 0 may still be writing its files: the others wait for it here, not in MPI's
    // finalisation.
    env.switches.waiting().barrier(&world);
    drop(universe);
    code
}

/// Bytes of the buffer that buffered sends (`MPI_Bsend`) go through: room for one small
/// message (of at most 64 bytes, with MPI's own overhead, `MPI_BSEND_OVERHEAD`) to every other
/// rank and one more, the most a search rank has on its way while the ranks share the text
/// (`engines::search::sharing`), which never waits for its receiver.
fn send_buffer_bytes(ranks: usize) -> usize {
    let message = 64 + mpi::ffi::MPI_BSEND_OVERHEAD as usize;
    (ranks + 1) * message * 2
}

/// The refusal of a launch whose launcher counts `world`'s processes otherwise than MPI does.
fn mismatch(launch: &Launch, world: usize) -> Option<Error> {
    match (launch.size, launch.size_from) {
        (Some(launched), Some(variable)) if launched != world => Some(Error::Mismatch {
            launched,
            variable,
            world,
            library: mpi_library(),
        }),
        _ => None,
    }
}

/// Ends a process of a mismatched launch. Every process is rank 0 of its own world and none
/// can wait for another: the launcher's rank 0 says why, and the silent ones leave a moment
/// later, so that a launcher ending the job at the first non-zero exit does not end the
/// launcher's rank 0 before its message is out (it did, in about 1 run in 4 on 8 ranks).
fn refuse_mismatch(launch: &Launch, error: Error) -> ExitCode {
    let speaks = launch.rank.is_none_or(|r| r == 0);
    let code = finish(Err(error), speaks);
    if !speaks {
        std::thread::sleep(MISMATCH_GRACE);
    }
    code
}

/// A planted fault must name a rank of this run, which is known only now. Each rank checks
/// the fault its own environment plants, and the ranks decide together: every rank leaves with
/// exit 2 and rank 0 says why.
fn check_fault(world: &World, env: &Env) -> Result<(), Error> {
    let problem = env
        .switches
        .fault
        .map_or(Ok(()), |f| f.check_ranks(world.size() as usize));
    let code = if problem.is_ok() {
        0
    } else {
        error::EXIT_USAGE
    };
    let mut worst = 0u8;
    let waiting = env.switches.waiting();
    waiting.all_reduce(world, &code, &mut worst, SystemOperation::max());
    match (worst, problem, world.rank()) {
        (0, _, _) => Ok(()),
        (_, Err(problem), 0) => Err(Error::Usage(problem)),
        (_, Ok(()), 0) => Err(Error::Usage(format!(
            "{FAULT_ENV} names a rank this run does not have, on a rank other than 0"
        ))),
        (code, _, _) => Err(Error::Peer(code)),
    }
}

/// Logs to stderr at `RUST_LOG`'s level (warnings by default), each line marked with `rank`
/// when the process has one.
pub fn init_logging(rank: Option<i32>) {
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    builder.format(move |buf, record| match rank {
        Some(r) => writeln!(buf, "[rank {r} {}] {}", record.level(), record.args()),
        None => writeln!(buf, "[{}] {}", record.level(), record.args()),
    });
    let _ = builder.try_init();
}

/// A panic in a process alone: print it, then leave with the internal error's status.
fn exit_on_panic() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        std::process::exit(error::EXIT_INTERNAL as i32);
    }));
}

/// A panic on one rank must not leave the others blocked in a receive: print it, then abort
/// the whole job.
fn abort_on_panic() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        SimpleCommunicator::world().abort(error::EXIT_INTERNAL as i32);
    }));
}
