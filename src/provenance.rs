//! Where, when and with what a run happened: enough to tell the rows of an experiment apart,
//! and to notice when a result set mixes machines, launchers or commits.
//!
//! Host facts come from system calls (`gethostname`, `sched_getaffinity`) and the cgroup files
//! (see `cpus`); the CPU model is read from `/proc/cpuinfo`, for which there is no call. Every
//! rank describes its own host and rank 0 combines them: a run is *oversubscribed* when any
//! host ran more ranks than the cores they may use there, and then its timings measure the
//! protocol (ranks taking turns), not parallel speed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What one rank knows about its host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostInfo {
    pub name: String,
    /// The cores the run's ranks on this host may use between them: the union of their CPU
    /// affinity masks, bounded by their cgroup's CPU quota (see `cpus`). Not the CPUs online:
    /// `taskset -c 0 mpirun -n 2` runs two ranks on one core of any host.
    pub cores: usize,
}

impl HostInfo {
    pub fn here() -> HostInfo {
        HostInfo {
            name: host_name(),
            cores: crate::cpus::host_cores(),
        }
    }
}

/// The facts of a run that do not come from the hosts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunInfo {
    /// The git commit of the build, as `MPI_LCS_COMMIT` names it, else `unknown`.
    pub commit: String,
    /// How the ranks were started (see `launch`).
    pub launcher: String,
    /// The MPI library the binary is linked with.
    pub mpi_library: String,
}

/// Where, when and with what a run happened.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// UTC start time, RFC 3339.
    pub timestamp: String,
    pub version: String,
    pub commit: String,
    pub mpi_library: String,
    pub launcher: String,
    /// Rank 0's host.
    pub host: String,
    /// Every host of the run, in order of their first rank.
    pub hosts: Vec<String>,
    /// Rank 0's CPU model.
    pub cpu: String,
    /// The cores the ranks on rank 0's host may use (see `HostInfo::cores`).
    pub cores: usize,
    /// The most ranks any one host ran.
    pub ranks_per_host: usize,
    /// Some host ran more ranks than it has cores.
    pub oversubscribed: bool,
}

impl Provenance {
    /// Combines the run's facts with `hosts`, one entry per rank in rank order.
    pub fn new(started: std::time::SystemTime, run: &RunInfo, hosts: &[HostInfo]) -> Provenance {
        let mut per_host: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        let mut names: Vec<String> = Vec::new();
        for h in hosts {
            let entry = per_host.entry(&h.name).or_insert((0, h.cores));
            if entry.0 == 0 {
                names.push(h.name.clone());
            }
            entry.0 += 1;
        }
        let first = hosts.first().cloned().unwrap_or_else(HostInfo::here);
        Provenance {
            timestamp: humantime::format_rfc3339_seconds(started).to_string(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            commit: run.commit.clone(),
            mpi_library: run.mpi_library.clone(),
            launcher: run.launcher.clone(),
            host: first.name,
            hosts: names,
            cpu: cpu_model(),
            cores: first.cores,
            ranks_per_host: per_host
                .values()
                .map(|&(ranks, _)| ranks)
                .max()
                .unwrap_or(0),
            oversubscribed: per_host.values().any(|&(ranks, cores)| ranks > cores),
        }
    }
}

/// This host's name, as `gethostname` gives it.
pub fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its whole length; gethostname writes at most that much.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    if ok && len > 0 {
        String::from_utf8_lossy(&buf[..len]).into_owned()
    } else {
        "unknown".to_owned()
    }
}

/// The CPU model, from `/proc/cpuinfo` (`unknown` where there is none).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .and_then(|rest| rest.split_once(':'))
                .map(|(_, model)| model.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(name: &str, cores: usize) -> HostInfo {
        HostInfo {
            name: name.into(),
            cores,
        }
    }

    #[test]
    fn hosts_are_combined_and_oversubscription_is_per_host() {
        let run = RunInfo {
            commit: "abc".into(),
            launcher: "mpirun".into(),
            mpi_library: "Open MPI".into(),
        };
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_646_490);
        let hosts = [host("a", 2), host("b", 4), host("a", 2), host("b", 4)];
        let p = Provenance::new(at, &run, &hosts);
        assert_eq!(p.timestamp, "2026-11-25T22:41:30Z");
        assert_eq!((p.host.as_str(), p.cores), ("a", 2));
        assert_eq!(p.hosts, ["a", "b"]);
        assert_eq!(p.ranks_per_host, 2);
        assert!(!p.oversubscribed);
        let crowded = [host("a", 2), host("a", 2), host("a", 2), host("b", 4)];
        let p = Provenance::new(at, &run, &crowded);
        assert_eq!(p.ranks_per_host, 3);
        assert!(p.oversubscribed);
    }

    #[test]
    fn this_host_has_a_name() {
        let here = HostInfo::here();
        assert!(!here.name.is_empty() && here.name != "unknown");
        assert!(here.cores >= 1);
    }
}
