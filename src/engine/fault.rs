//! Planted faults, for the tests: one rank crashes, or hangs, at a chosen step of its fill or
//! traceback, so that the tests can show every other rank still ends.
//!
//! A fault is written `fill:RANK:STEP` (the rank aborts when its fill reaches step `STEP`: a
//! diagonal of the diagonal engine), `traceback:RANK:STEP` (it aborts when the walk reaches one
//! of its cells on diagonal `STEP` or below), or `stall:RANK:STEP` (it hangs at that fill step
//! until killed). The options read it from `MPI_LCS_FAULT`; nothing happens unless it is set.

use std::str::FromStr;

/// The environment variable that plants a fault.
pub const FAULT_ENV: &str = "MPI_LCS_FAULT";

/// Where a fault strikes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Fill,
    Traceback,
}

/// A planted fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fault {
    pub phase: Phase,
    pub rank: usize,
    /// The fill step, or the traceback's diagonal bound.
    pub step: usize,
    /// Hang instead of aborting.
    pub stall: bool,
}

impl FromStr for Fault {
    type Err = String;

    fn from_str(spec: &str) -> Result<Fault, String> {
        let bad = || format!("'{spec}' is not a fault (fill|traceback|stall:RANK:STEP)");
        let mut parts = spec.split(':');
        let (phase, stall) = match parts.next() {
            Some("fill") => (Phase::Fill, false),
            Some("stall") => (Phase::Fill, true),
            Some("traceback") => (Phase::Traceback, false),
            _ => return Err(bad()),
        };
        let mut number = || parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad);
        let (rank, step) = (number()?, number()?);
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(Fault {
            phase,
            rank,
            step,
            stall,
        })
    }
}

impl Fault {
    /// The fault planted for `rank` in `phase`, if any.
    pub fn for_rank(plan: Option<Fault>, phase: Phase, rank: usize) -> Option<Fault> {
        plan.filter(|f| f.phase == phase && f.rank == rank)
    }

    /// Ends this process as a crash would, without any MPI shutdown; or, for a stall, hangs
    /// until killed.
    pub fn trigger(self, at: usize) -> ! {
        let rank = self.rank;
        if self.stall {
            eprintln!("mpi-lcs: rank {rank}: injected stall at step {at} ({FAULT_ENV})");
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
        eprintln!("mpi-lcs: rank {rank}: injected fault at step {at} ({FAULT_ENV})");
        std::process::abort()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_parse() {
        let f: Fault = "stall:1:1000".parse().unwrap();
        assert_eq!(
            f,
            Fault {
                phase: Phase::Fill,
                rank: 1,
                step: 1000,
                stall: true
            }
        );
        let f: Fault = "traceback:3:7".parse().unwrap();
        assert_eq!(
            (f.phase, f.rank, f.step, f.stall),
            (Phase::Traceback, 3, 7, false)
        );
        for bad in ["", "fill", "fill:1", "fill:x:2", "crash:1:2", "fill:1:2:3"] {
            assert!(bad.parse::<Fault>().is_err(), "{bad}");
        }
        assert_eq!(Fault::for_rank(Some(f), Phase::Traceback, 3), Some(f));
        assert_eq!(Fault::for_rank(Some(f), Phase::Fill, 3), None);
        assert_eq!(Fault::for_rank(Some(f), Phase::Traceback, 2), None);
    }
}
