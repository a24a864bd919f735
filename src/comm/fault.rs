//! Planted faults, for the tests: one rank crashes, or hangs, at a chosen step of its fill or
//! traceback, or its GPU fails at a chosen launch, so that the tests can show every other rank
//! still ends; or a search rank is slowed, so that they can show the others take its text.
//! Written `fill:RANK:STEP`, `traceback:RANK:STEP`, `stall:RANK:STEP`, `device:RANK:LAUNCH`
//! or `slow:RANK:MILLISECONDS` in `MPI_LCS_FAULT` (read by the options; nothing
//! happens unless it is set); a fault naming a rank the run does not have is a usage error once MPI
//! has started ([`Fault::check_ranks`]): a test that plants one must see it strike. What each
//! means: `docs/troubleshooting.md#planted-faults-for-the-tests`.

use std::str::FromStr;

/// The environment variable that plants a fault.
pub const FAULT_ENV: &str = "MPI_LCS_FAULT";

/// Where a fault strikes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Fill,
    Traceback,
    /// A `pairs` or `search` rank's device: its launch number `step` fails.
    Device,
    /// A `search` rank whose text is shared as the ranks go sleeps `step` milliseconds after
    /// each block (64 KiB) it scans.
    Slow,
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
        let bad =
            || format!("'{spec}' is not a fault (fill|traceback|stall|device|slow:RANK:STEP)");
        let mut parts = spec.split(':');
        let (phase, stall) = match parts.next() {
            Some("fill") => (Phase::Fill, false),
            Some("stall") => (Phase::Fill, true),
            Some("traceback") => (Phase::Traceback, false),
            Some("device") => (Phase::Device, false),
            Some("slow") => (Phase::Slow, false),
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

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let phase = match (self.phase, self.stall) {
            (Phase::Fill, false) => "fill",
            (Phase::Fill, true) => "stall",
            (Phase::Traceback, _) => "traceback",
            (Phase::Device, _) => "device",
            (Phase::Slow, _) => "slow",
        };
        write!(f, "{phase}:{}:{}", self.rank, self.step)
    }
}

impl Fault {
    /// Whether a run on `ranks` ranks has the rank this fault names; else what is wrong.
    pub fn check_ranks(&self, ranks: usize) -> Result<(), String> {
        if self.rank < ranks {
            return Ok(());
        }
        let have = match ranks {
            1 => "1 rank (rank 0)".to_owned(),
            _ => format!("{ranks} ranks (0 to {})", ranks - 1),
        };
        Err(format!(
            "{FAULT_ENV}: '{self}' names rank {}, but this run has {have}",
            self.rank
        ))
    }

    /// The fault planted for `rank` in `phase`, if any.
    pub fn for_rank(plan: Option<Fault>, phase: Phase, rank: usize) -> Option<Fault> {
        plan.filter(|f| f.phase == phase && f.rank == rank)
    }

    /// Ends this process as a crash would, without any MPI shutdown; or, for a stall, hangs
    /// until killed.
    pub fn trigger(self, at: usize) -> ! {
        let rank = self.rank;
        if self.stall {
            crate::error::say(&format!(
                "mpi-lcs: rank {rank}: injected stall at step {at} ({FAULT_ENV})"
            ));
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
        crate::error::say(&format!(
            "mpi-lcs: rank {rank}: injected fault at step {at} ({FAULT_ENV})"
        ));
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
        let slow: Fault = "slow:1:20".parse().unwrap();
        assert_eq!((slow.phase, slow.rank, slow.step), (Phase::Slow, 1, 20));
        for spec in ["stall:1:1000", "traceback:3:7", "fill:0:12", "slow:1:20"] {
            assert_eq!(spec.parse::<Fault>().unwrap().to_string(), spec);
        }
    }

    /// `fill:9:1` on 2 ranks struck nowhere and the run passed as if unharmed.
    #[test]
    fn a_fault_on_a_rank_the_run_does_not_have_is_refused() {
        let f: Fault = "fill:9:1".parse().unwrap();
        assert_eq!(
            f.check_ranks(2).unwrap_err(),
            "MPI_LCS_FAULT: 'fill:9:1' names rank 9, but this run has 2 ranks (0 to 1)"
        );
        assert!(f.check_ranks(9).unwrap_err().ends_with("9 ranks (0 to 8)"));
        assert!(f.check_ranks(10).is_ok());
        let first: Fault = "traceback:1:0".parse().unwrap();
        assert!(first
            .check_ranks(1)
            .unwrap_err()
            .ends_with("1 rank (rank 0)"));
        assert!(first.check_ranks(2).is_ok());
    }
}
