//! How this process was started: by which launcher, how many processes that launcher says it
//! started, and whether the terminal the run was started from can be drawn on. Read once, from
//! the environment, when the options are built.
//!
//! Launchers announce themselves through their environment: Open MPI's `mpirun` sets
//! `OMPI_COMM_WORLD_SIZE`, MPICH's Hydra (`mpiexec`) sets `PMI_SIZE`, Slurm's `srun` sets
//! `SLURM_STEP_NUM_TASKS`, and a PMIx launcher `PMIX_RANK`. A process with none of them is an
//! MPI singleton. When the launcher's count and the MPI world's size differ, the binary was
//! built against another MPI than the launcher's (`commands` refuses to run then). `MPI_LCS_LAUNCHER` overrides the name recorded in reports
//! (the experiment scripts set it to the exact launcher command).

use std::io::IsTerminal;

/// Overrides the recorded launcher name.
pub const LAUNCHER_ENV: &str = "MPI_LCS_LAUNCHER";

/// What the environment says about how this process was started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    /// The launcher, for reports.
    pub name: String,
    /// How many processes the launcher says it started, when it says.
    pub size: Option<usize>,
    /// Which environment variable said so.
    pub size_from: Option<&'static str>,
    /// This process's rank, as the launcher numbered it.
    pub rank: Option<usize>,
    /// The launcher started this process (it is not a singleton).
    pub launched: bool,
}

/// Variables that give the number of processes started, most specific first. Only `srun`
/// sets `SLURM_STEP_NUM_TASKS`; `SLURM_NTASKS` is the allocation's, which a launcher inside
/// the allocation (or a one-process run) does not have to match, so it is not one of them.
const SIZE_VARS: [&str; 3] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"];

/// Variables that only a launched process has.
const RANK_VARS: [&str; 5] = [
    "OMPI_COMM_WORLD_RANK",
    "PMI_RANK",
    "PMIX_RANK",
    "SLURM_PROCID",
    "MPI_LOCALRANKID",
];

impl Launch {
    /// Reads the launcher's variables through `var` (the process environment in the binary).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Launch {
        let (size, size_from) = SIZE_VARS
            .iter()
            .find_map(|&v| Some((var(v)?.trim().parse::<usize>().ok()?, v)))
            .map_or((None, None), |(n, v)| (Some(n), Some(v)));
        let rank = RANK_VARS
            .iter()
            .find_map(|&v| var(v)?.trim().parse::<usize>().ok());
        let launched = rank.is_some() || size.is_some();
        let family = if var("OMPI_COMM_WORLD_SIZE").is_some() {
            "mpirun (Open MPI)"
        } else if var("SLURM_STEP_ID").is_some() {
            "srun"
        } else if var("PMI_SIZE").is_some() {
            "mpiexec (Hydra)"
        } else if var("PMIX_RANK").is_some() {
            "PMIx launcher"
        } else {
            "singleton"
        };
        Launch {
            name: var(LAUNCHER_ENV)
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(|| family.to_owned()),
            size,
            size_from,
            rank,
            launched,
        }
    }

    /// The process environment's launch.
    pub fn from_env() -> Launch {
        Launch::from_vars(|v| std::env::var(v).ok())
    }

    /// Whether what this process writes to stderr reaches a terminal: its own stderr, or, for
    /// a launched process whose stderr the launcher copies, the launcher's stderr. The launcher
    /// is the first process up the tree that is not one of its helpers (`HELPERS`): Open
    /// MPI's `mpirun` is the parent, Hydra's `mpiexec` the grandparent (its proxy between). Only
    /// the launcher's own stderr counts: with `mpiexec … 2>log` or `2>&1 | less` there is no
    /// bar, even when the shell above is on a terminal.
    pub fn stderr_reaches_terminal(&self) -> bool {
        if std::io::stderr().is_terminal() {
            return true;
        }
        if !self.launched {
            return false;
        }
        let mut pid = std::os::unix::process::parent_id();
        for _ in 0..4 {
            if pid <= 1 {
                return false;
            }
            let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            if !HELPERS.contains(&name.trim()) {
                return on_terminal(pid);
            }
            pid = parent_of(pid).unwrap_or(0);
        }
        false
    }
}

/// Processes a launcher puts between itself and the ranks it starts on its own host.
const HELPERS: [&str; 3] = ["hydra_pmi_proxy", "orted", "prted"];

/// Whether process `pid`'s stderr is a terminal.
fn on_terminal(pid: u32) -> bool {
    std::fs::read_link(format!("/proc/{pid}/fd/2")).is_ok_and(|target| {
        let target = target.to_string_lossy();
        target.starts_with("/dev/pts/") || target.starts_with("/dev/tty")
    })
}

/// The parent of process `pid`, from `/proc/PID/stat` (field 4, after the parenthesised name).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(vars: &[(&str, &str)]) -> Launch {
        Launch::from_vars(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn launchers_are_recognised() {
        let open_mpi = launch(&[("OMPI_COMM_WORLD_SIZE", "4"), ("OMPI_COMM_WORLD_RANK", "1")]);
        assert_eq!(open_mpi.name, "mpirun (Open MPI)");
        assert_eq!(
            (open_mpi.size, open_mpi.size_from),
            (Some(4), Some("OMPI_COMM_WORLD_SIZE"))
        );
        let hydra = launch(&[("PMI_SIZE", "3"), ("PMI_RANK", "0")]);
        assert_eq!(
            (hydra.name.as_str(), hydra.size),
            ("mpiexec (Hydra)", Some(3))
        );
        let srun = launch(&[
            ("SLURM_STEP_ID", "0"),
            ("SLURM_NTASKS", "8"),
            ("SLURM_STEP_NUM_TASKS", "2"),
            ("PMIX_RANK", "1"),
        ]);
        assert_eq!((srun.name.as_str(), srun.size), ("srun", Some(2)));
        // A batch script's allocation says nothing of how many processes this step has.
        let batch = launch(&[("SLURM_NTASKS", "8"), ("SLURM_JOB_ID", "7")]);
        assert_eq!((batch.size, batch.launched), (None, false));
        let alone = launch(&[]);
        assert_eq!((alone.name.as_str(), alone.size), ("singleton", None));
        assert!(!alone.launched);
        let named = launch(&[("OMPI_COMM_WORLD_SIZE", "2"), (LAUNCHER_ENV, "mpirun -n 2")]);
        assert_eq!(named.name, "mpirun -n 2");
    }

    #[test]
    fn parents_are_found_in_proc() {
        let me = std::process::id();
        assert_eq!(parent_of(me), Some(std::os::unix::process::parent_id()));
    }
}
