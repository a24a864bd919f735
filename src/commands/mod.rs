//! What each subcommand does with its validated options, one file per subcommand; this file
//! parses the command line and dispatches, and `start` starts each command (with MPI or
//! without) and turns its outcome into one message and an exit status.
//!
//! Only `solve`, `search`, `pairs` and `self-test` start MPI, and only under a launcher: started on
//! their own they run as one rank without MPI ([`World::Alone`]), as `reference`, `schedule`,
//! `generate`, `devices`, `plot` and `table` always do. Every command
//! checks its output paths before it reads or computes anything, writes its files before it
//! prints, and treats a reader of standard output that goes away (`| head`) as the end of the
//! output, not as an error (`stdout`).
//!
//! [`World::Alone`]: crate::comm::world::World::Alone

mod devices;
mod generate;
mod length;
mod pairs;
mod plot;
mod reference;
mod schedule;
mod search;
mod selftest;
mod solve;
mod start;
mod stdout;
mod table;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};
use crate::launch::Launch;
use crate::options::{
    Env, GenerateOptions, PairsOptions, PlotOptions, ReferenceOptions, ScheduleOptions,
    SearchOptions, SelfTestOptions, SolveOptions, TableOptions,
};
use start::{finish, mpi_library, together, with_world};
use stdout::print;

/// The whole program: parse, validate, run, exit.
pub fn main() -> ExitCode {
    // Under a launcher every process parses the same command line: only rank 0 (or a process
    // whose rank is unknown) says what is wrong with it. The rank is the launcher's, read with
    // the linked library's variables first (`launch`); the library can say which it is before
    // MPI starts.
    let library = mpi_library();
    let launch = Launch::from_env(&library);
    let speaks = launch.rank.is_none_or(|r| r == 0);
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            return together(&launch, || {
                if speaks {
                    let _ = e.print();
                }
                ExitCode::from(e.exit_code().clamp(0, 255) as u8)
            })
        }
    };
    let env = match Env::read(&library) {
        Ok(env) => env,
        Err(e) => return together(&launch, || finish(Err(e), speaks)),
    };
    match cli.command {
        Command::Solve(args) => with_world(&env, |world, env| {
            let opts = SolveOptions::new(args, env, &library)?;
            if opts.length_only {
                return match length::run(world, &opts)? {
                    Some(summary) => print(&summary),
                    None => Ok(()),
                };
            }
            match solve::run(world, &opts)? {
                Some(report) if opts.outputs.output.is_none() => print(&report.summary()),
                _ => Ok(()),
            }
        }),
        Command::Search(args) => with_world(&env, |world, env| {
            let opts = SearchOptions::new(args, env, &library);
            match search::run(world, &opts)? {
                Some(report) if opts.outputs.out.is_some() => print(&report.summary()),
                _ => Ok(()),
            }
        }),
        Command::Pairs(args) => with_world(&env, |world, env| {
            let opts = PairsOptions::new(args, env, &library)?;
            match pairs::run(world, &opts)? {
                Some(report) if opts.outputs.out.is_some() => print(&report.summary()),
                _ => Ok(()),
            }
        }),
        Command::SelfTest(args) => with_world(&env, |world, env| {
            selftest::run(world, &SelfTestOptions::new(args, env)?)
        }),
        Command::Reference(args) => finish(
            reference::run(ReferenceOptions::new(args, &env, &library)),
            speaks,
        ),
        Command::Schedule(args) => {
            finish(ScheduleOptions::new(args).and_then(schedule::run), speaks)
        }
        Command::Generate(args) => {
            finish(GenerateOptions::new(args).and_then(generate::run), speaks)
        }
        Command::Devices => finish(devices::run(), speaks),
        Command::Plot(args) => finish(plot::run(PlotOptions::new(args)), speaks),
        Command::Table(args) => finish(table::run(TableOptions::new(args)), speaks),
    }
}
