//! The cores a process may run on: its CPU affinity mask (`sched_getaffinity`, which `taskset`,
//! cpusets and launchers' binding set), bounded by the CPU quota of its cgroup and its ancestors
//! (v2 `cpu.max`, v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`), rounded up to whole cores, not the
//! CPUs merely online on the host. Ranks on one host compare this with how many of them there are
//! (reports' `oversubscribed`, and whether a waiting rank yields its core); since a launcher that
//! binds each rank to a core of its own leaves each a mask of one, the engine combines the masks of
//! a host's ranks once MPI has started and records the host's count here ([`set_host_cores`]);
//! until then, and without MPI, a process counts its own. Linux only; elsewhere the count is what
//! `available_parallelism` says. And how long a thread waited for a core ([`queued_seconds`]),
//! which a busy core or more ranks than cores make long.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::cgroup::{self, Level};

/// A set of CPUs, as `sched_getaffinity` gives it: bit `c` of word `c / 64` is CPU `c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuSet(pub [u64; CpuSet::WORDS]);

impl CpuSet {
    /// Words of a set: 1,024 CPUs, the kernel's `cpu_set_t`.
    pub const WORDS: usize = 16;

    /// The CPUs this process may run on; `None` where the system cannot say.
    pub fn of_this_process() -> Option<CpuSet> {
        // SAFETY: cpu_set_t is plain bits; sched_getaffinity writes at most its size.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
            return None;
        }
        let mut words = [0u64; CpuSet::WORDS];
        for (cpu, word) in (0..CpuSet::WORDS * 64).map(|c| (c, c / 64)) {
            // SAFETY: cpu is below the set's 1,024 bits.
            if unsafe { libc::CPU_ISSET(cpu, &set) } {
                words[word] |= 1 << (cpu % 64);
            }
        }
        Some(CpuSet(words))
    }

    /// How many CPUs the set holds.
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// The cores a process may use, from its affinity (`cpus` CPUs) and its cgroups' quota
/// (`quota` cores, if any): the smaller, and at least one.
pub fn usable(cpus: usize, quota: Option<usize>) -> usize {
    quota.map_or(cpus, |q| q.min(cpus)).max(1)
}

/// The cores this process may use, on its own (see the module doc).
pub fn process_cores() -> usize {
    let cpus = CpuSet::of_this_process()
        .map(|set| set.count())
        .filter(|&n| n > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1);
    usable(cpus, quota_cores())
}

/// The whole cores the CPU quota of this process's cgroup and its ancestors allows, rounded
/// up; `None` when no level sets one.
pub fn quota_cores() -> Option<usize> {
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    read(Path::new("/proc/self/cgroup"))
        .and_then(|text| cgroup_quota(&text, Path::new(cgroup::ROOT), read))
}

/// The smallest CPU quota, in whole cores rounded up, of the cgroup that `proc_self_cgroup`
/// (the text of `/proc/self/cgroup`) names and of its ancestors, reading control files under
/// `root` through `read`. `None` when no level has a quota.
fn cgroup_quota(
    proc_self_cgroup: &str,
    root: &Path,
    read: impl Fn(&Path) -> Option<String>,
) -> Option<usize> {
    let number = |p: PathBuf| read(&p).and_then(|t| t.trim().parse::<i64>().ok());
    let mut cores: Option<usize> = None;
    for Level { dir, v2 } in cgroup::levels(proc_self_cgroup, root, "cpu", &["cpu,cpuacct", "cpu"])
    {
        let quota = if v2 {
            // `max 100000` (no quota) or `QUOTA PERIOD`, in microseconds.
            read(&dir.join("cpu.max")).and_then(|text| {
                let mut fields = text.split_whitespace();
                let quota = fields.next()?.parse::<i64>().ok()?;
                let period = fields.next()?.parse::<i64>().ok()?;
                Some((quota, period))
            })
        } else {
            // -1 for no quota.
            number(dir.join("cpu.cfs_quota_us")).zip(number(dir.join("cpu.cfs_period_us")))
        };
        if let Some((quota, period)) = quota.filter(|&(q, p)| q > 0 && p > 0) {
            let whole = (quota as u64).div_ceil(period as u64) as usize;
            cores = Some(cores.map_or(whole, |c| c.min(whole)));
        }
    }
    cores
}

/// The host's cores, once the ranks on it have combined theirs.
static HOST_CORES: OnceLock<usize> = OnceLock::new();

/// Records the cores the ranks on this process's host may use between them, as the engine
/// found them once MPI started. The first record stands.
pub fn set_host_cores(cores: usize) {
    let _ = HOST_CORES.set(cores.max(1));
}

/// The cores of this process's host that its job may use: as recorded by the engine, else
/// this process's own.
pub fn host_cores() -> usize {
    HOST_CORES.get().copied().unwrap_or_else(process_cores)
}

/// Seconds the calling thread has been ready to run but waited for a core since it started:
/// another process or rank held it (the kernel's `run_delay`, the second figure of
/// `/proc/thread-self/schedstat`). A hypervisor's steal is not in it: to the kernel of a
/// virtual machine a thread whose core the host took is running. `None` where the system does
/// not say.
pub fn queued_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    run_delay(&text)
}

/// The seconds the calling thread waited for a core since [`queued_seconds`] gave `before`:
/// NaN where either reading is missing (the records rank 0 gathers carry it so).
pub fn queued_since(before: Option<f64>) -> f64 {
    match (before, queued_seconds()) {
        (Some(before), Some(after)) => (after - before).max(0.0),
        _ => f64::NAN,
    }
}

/// The `run_delay` of a `schedstat` line (`cpu_time run_delay timeslices`, nanoseconds), in
/// seconds.
fn run_delay(schedstat: &str) -> Option<f64> {
    let nanos: u64 = schedstat.split_whitespace().nth(1)?.parse().ok()?;
    Some(nanos as f64 / 1e9)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgroup::fake;

    #[test]
    fn the_wait_for_a_core_is_schedstats_second_figure() {
        assert_eq!(run_delay("1509749011 336425074 817\n"), Some(0.336425074));
        assert_eq!(run_delay("0 0 1"), Some(0.0));
        assert_eq!(run_delay("1509749011"), None);
        assert_eq!(run_delay("a b c"), None);
        // Where the kernel keeps it, a thread that has run has a figure.
        if std::path::Path::new("/proc/thread-self/schedstat").exists() {
            assert!(queued_seconds().is_some_and(|s| s >= 0.0));
        }
    }

    #[test]
    fn cgroup_v2_quotas_are_read_at_every_level_and_rounded_up() {
        let root = Path::new("/cg");
        let read = fake(&[
            ("/cg/user.slice/job/cpu.max", "max 100000\n"),
            ("/cg/user.slice/cpu.max", "250000 100000\n"),
            ("/cg/cpu.max", "max 100000\n"),
        ]);
        assert_eq!(cgroup_quota("0::/user.slice/job\n", root, &read), Some(3));
        let read = fake(&[("/cg/a/cpu.max", "50000 100000\n")]);
        assert_eq!(cgroup_quota("0::/a\n", root, &read), Some(1));
        let read = fake(&[("/cg/a/cpu.max", "max 100000\n")]);
        assert_eq!(cgroup_quota("0::/a\n", root, &read), None);
    }

    #[test]
    fn cgroup_v1_cfs_quotas_are_read() {
        let root = Path::new("/cg");
        let read = fake(&[
            ("/cg/cpu,cpuacct/slurm/job_1/cpu.cfs_quota_us", "200000\n"),
            ("/cg/cpu,cpuacct/slurm/job_1/cpu.cfs_period_us", "100000\n"),
            ("/cg/cpu,cpuacct/slurm/cpu.cfs_quota_us", "-1\n"),
            ("/cg/cpu,cpuacct/slurm/cpu.cfs_period_us", "100000\n"),
        ]);
        let text = "5:cpu,cpuacct:/slurm/job_1\n4:memory:/slurm/job_1\n";
        assert_eq!(cgroup_quota(text, root, &read), Some(2));
        let unlimited = fake(&[
            ("/cg/cpu/cpu.cfs_quota_us", "-1\n"),
            ("/cg/cpu/cpu.cfs_period_us", "100000\n"),
        ]);
        assert_eq!(cgroup_quota("1:cpu:/\n", root, &unlimited), None);
    }

    #[test]
    fn the_quota_bounds_the_mask() {
        assert_eq!(usable(8, Some(2)), 2);
        assert_eq!(usable(1, Some(4)), 1);
        assert_eq!(usable(6, None), 6);
        assert_eq!(usable(0, None), 1);
    }

    /// Without a quota, the process's own count is its affinity mask's, as
    /// `available_parallelism` (which reads the mask too) also says.
    #[test]
    fn this_process_counts_the_cpus_it_may_run_on() {
        let set = CpuSet::of_this_process().expect("Linux has sched_getaffinity");
        assert!(set.count() >= 1);
        let cores = process_cores();
        assert!(cores <= set.count(), "{cores} > {}", set.count());
        if quota_cores().is_none() {
            let std_count = std::thread::available_parallelism().unwrap().get();
            assert_eq!(cores, std_count, "mask {set:?}");
        }
    }
}
