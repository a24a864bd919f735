//! How this process was started: by which launcher, how many processes that launcher says it
//! started, and whether the terminal the run was started from can be drawn on. Read once, from the
//! environment, when the options are built.
//!
//! Launchers announce themselves through their environment: Open MPI's `mpirun` sets
//! `OMPI_COMM_WORLD_SIZE`, MPICH's Hydra `PMI_SIZE`, Slurm's `srun` `SLURM_STEP_NUM_TASKS`, a PMIx
//! launcher `PMIX_RANK`; a process with none of them was started on its own (launcher `none`: it
//! runs without MPI). The variables of the library the binary is linked with
//! ([`Family::of_library`]) are read first, then the other family's, then `srun`'s: a variable of
//! the other family can be left over in an environment, and only when the binary's own launcher
//! said nothing is it the sign of a launcher from another MPI (whose count then differs from the
//! world's size, which `commands` refuses). `MPI_LCS_LAUNCHER` overrides the name recorded in
//! reports.

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
    /// The world MPI will start, where that is certain before it starts: Open MPI's library
    /// under MPICH's Hydra (outside a Slurm step, with no PMIx server) talks to no launcher
    /// and starts a world of its own, 1. Such a process is refused before MPI starts: two of
    /// them starting at once raced over Open MPI's session directory, and one could die in
    /// `MPI_Init` before the refusal was said.
    pub world_alone: Option<usize>,
}

/// The family of the MPI library the binary is linked with: whose launcher's variables are
/// believed first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    OpenMpi,
    /// MPICH and the libraries derived from it (Intel MPI, MVAPICH, Cray MPICH).
    Mpich,
    Unknown,
}

impl Family {
    /// The family a library's own description (`MPI_Get_library_version`) names.
    pub fn of_library(description: &str) -> Family {
        if description.contains("Open MPI") {
            Family::OpenMpi
        } else if ["MPICH", "Intel(R) MPI", "MVAPICH"]
            .iter()
            .any(|name| description.contains(name))
        {
            Family::Mpich
        } else {
            Family::Unknown
        }
    }
}

/// A launcher's variables: the number of processes, the rank, and the launcher's name.
struct Announcer {
    size: &'static str,
    rank: &'static str,
    name: &'static str,
}

const OPEN_MPI: Announcer = Announcer {
    size: "OMPI_COMM_WORLD_SIZE",
    rank: "OMPI_COMM_WORLD_RANK",
    name: "mpirun (Open MPI)",
};
const HYDRA: Announcer = Announcer {
    size: "PMI_SIZE",
    rank: "PMI_RANK",
    name: "mpiexec (Hydra)",
};
/// Only `srun` sets `SLURM_STEP_NUM_TASKS`; `SLURM_NTASKS` is the allocation's, which a
/// launcher inside the allocation (or a one-process run) does not have to match, so it is not
/// read.
const SRUN: Announcer = Announcer {
    size: "SLURM_STEP_NUM_TASKS",
    rank: "SLURM_PROCID",
    name: "srun",
};

/// The launchers in the order their variables are believed for a binary of `family`: its own
/// launcher's, then the other family's, then `srun`'s (which also starts the proxies of the
/// other launchers, where its variables count proxies, not ranks).
fn announcers(family: Family) -> [Announcer; 3] {
    match family {
        Family::Mpich => [HYDRA, OPEN_MPI, SRUN],
        Family::OpenMpi | Family::Unknown => [OPEN_MPI, HYDRA, SRUN],
    }
}

/// Variables that only a launched process has, besides the MPI launchers' ranks, most
/// specific first.
const OTHER_RANK_VARS: [&str; 3] = ["PMIX_RANK", SRUN.rank, "MPI_LOCALRANKID"];

impl Launch {
    /// Reads the launcher's variables through `var` (the process environment in the binary),
    /// for a binary linked with a library of `family`.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>, family: Family) -> Launch {
        let number = |v: &str| var(v)?.trim().parse::<usize>().ok();
        let order = announcers(family);
        let said = order.iter().find_map(|a| Some((number(a.size)?, a)));
        let rank = order
            .iter()
            .filter(|a| a.size != SRUN.size)
            .map(|a| a.rank)
            .chain(OTHER_RANK_VARS)
            .find_map(number);
        let launched = rank.is_some() || said.is_some();
        // Inside a Slurm step, Open MPI's mpirun is still itself, and Hydra's ranks (whose
        // proxies `srun` starts) are `srun`'s.
        let family_name = match said {
            Some((_, announcer)) if announcer.size == OPEN_MPI.size => announcer.name,
            _ if var("SLURM_STEP_ID").is_some() => SRUN.name,
            Some((_, announcer)) => announcer.name,
            None if var("PMIX_RANK").is_some() => "PMIx launcher",
            None => "none",
        };
        let world_alone = (family == Family::OpenMpi
            && said.is_some_and(|(_, a)| a.size == HYDRA.size)
            && var("PMIX_RANK").is_none()
            && var("SLURM_STEP_ID").is_none())
        .then_some(1);
        Launch {
            name: var(LAUNCHER_ENV)
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(|| family_name.to_owned()),
            size: said.map(|(n, _)| n),
            size_from: said.map(|(_, a)| a.size),
            rank,
            launched,
            world_alone,
        }
    }

    /// The process environment's launch, for a binary linked with `library` (its
    /// description, as `MPI_Get_library_version` gives it).
    pub fn from_env(library: &str) -> Launch {
        Launch::from_vars(|v| std::env::var(v).ok(), Family::of_library(library))
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

    fn launch_of(family: Family, vars: &[(&str, &str)]) -> Launch {
        Launch::from_vars(
            |name| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            },
            family,
        )
    }

    fn launch(vars: &[(&str, &str)]) -> Launch {
        launch_of(Family::OpenMpi, vars)
    }

    #[test]
    fn launchers_are_recognised() {
        let open_mpi = launch(&[("OMPI_COMM_WORLD_SIZE", "4"), ("OMPI_COMM_WORLD_RANK", "1")]);
        assert_eq!(open_mpi.name, "mpirun (Open MPI)");
        assert_eq!(
            (open_mpi.size, open_mpi.size_from, open_mpi.rank),
            (Some(4), Some("OMPI_COMM_WORLD_SIZE"), Some(1))
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
        assert_eq!(
            (srun.name.as_str(), srun.size, srun.rank),
            ("srun", Some(2), Some(1))
        );
        // A batch script's allocation says nothing of how many processes this step has.
        let batch = launch(&[("SLURM_NTASKS", "8"), ("SLURM_JOB_ID", "7")]);
        assert_eq!((batch.size, batch.launched), (None, false));
        let alone = launch(&[]);
        assert_eq!((alone.name.as_str(), alone.size), ("none", None));
        assert!(!alone.launched);
        let pmix = launch(&[("PMIX_RANK", "0")]);
        assert_eq!((pmix.name.as_str(), pmix.launched), ("PMIx launcher", true));
        let named = launch(&[("OMPI_COMM_WORLD_SIZE", "2"), (LAUNCHER_ENV, "mpirun -n 2")]);
        assert_eq!(named.name, "mpirun -n 2");
    }

    /// An exported `OMPI_COMM_WORLD_SIZE=5` stopped an MPICH run started by Hydra (exit 6): the
    /// linked library's own launcher is believed first.
    #[test]
    fn the_linked_librarys_launcher_is_believed_first() {
        let hydra_with_leftovers = [
            ("OMPI_COMM_WORLD_SIZE", "5"),
            ("OMPI_COMM_WORLD_RANK", "3"),
            ("PMI_SIZE", "2"),
            ("PMI_RANK", "0"),
        ];
        let mpich = launch_of(Family::Mpich, &hydra_with_leftovers);
        assert_eq!(
            (mpich.size, mpich.size_from, mpich.rank),
            (Some(2), Some("PMI_SIZE"), Some(0))
        );
        assert_eq!(mpich.name, "mpiexec (Hydra)");
        // Open MPI's mpirun sets its own variables over any exported ones.
        let open_mpi = launch_of(
            Family::OpenMpi,
            &[("OMPI_COMM_WORLD_SIZE", "2"), ("PMI_SIZE", "5")],
        );
        assert_eq!(open_mpi.size_from, Some("OMPI_COMM_WORLD_SIZE"));
        // Where the binary's own launcher says nothing, another family's launcher is still
        // seen, so that the mismatch is caught in both directions.
        let under_hydra = launch_of(Family::OpenMpi, &[("PMI_SIZE", "3"), ("PMI_RANK", "1")]);
        assert_eq!((under_hydra.size, under_hydra.rank), (Some(3), Some(1)));
        let under_mpirun = launch_of(Family::Mpich, &[("OMPI_COMM_WORLD_SIZE", "4")]);
        assert_eq!(under_mpirun.size_from, Some("OMPI_COMM_WORLD_SIZE"));
        let unknown = launch_of(Family::Unknown, &hydra_with_leftovers);
        assert_eq!(unknown.size, Some(5));
    }

    /// Open MPI's library under Hydra starts alone, which is known before MPI starts; under
    /// its own launcher, a PMIx server or a Slurm step it may join the others, and MPICH's
    /// library may join Open MPI's launcher through PMIx: those are told after MPI starts.
    #[test]
    fn a_world_of_one_is_foreseen_only_where_certain() {
        let hydra = [("PMI_SIZE", "3"), ("PMI_RANK", "1")];
        assert_eq!(launch_of(Family::OpenMpi, &hydra).world_alone, Some(1));
        for family in [Family::Mpich, Family::Unknown] {
            assert_eq!(launch_of(family, &hydra).world_alone, None, "{family:?}");
        }
        for extra in [("PMIX_RANK", "1"), ("SLURM_STEP_ID", "0")] {
            let vars = [hydra[0], hydra[1], extra];
            assert_eq!(
                launch_of(Family::OpenMpi, &vars).world_alone,
                None,
                "{extra:?}"
            );
        }
        let own = launch(&[("OMPI_COMM_WORLD_SIZE", "2"), ("PMI_SIZE", "5")]);
        assert_eq!(own.world_alone, None);
        let under_mpirun = launch_of(Family::Mpich, &[("OMPI_COMM_WORLD_SIZE", "4")]);
        assert_eq!(under_mpirun.world_alone, None);
    }

    #[test]
    fn families_are_told_by_their_library() {
        for (description, family) in [
            ("Open MPI v4.1.4, package: Debian OpenMPI", Family::OpenMpi),
            (
                "MPICH Version:      4.0.2\nMPICH Release date: …",
                Family::Mpich,
            ),
            ("Intel(R) MPI Library 2021.10 for Linux* OS", Family::Mpich),
            ("MPI VERSION    : CRAY MPICH version 8.1.26", Family::Mpich),
            ("MVAPICH2 Version      :\t2.3.7", Family::Mpich),
            ("", Family::Unknown),
        ] {
            assert_eq!(Family::of_library(description), family, "{description}");
        }
    }

    #[test]
    fn parents_are_found_in_proc() {
        let me = std::process::id();
        assert_eq!(parent_of(me), Some(std::os::unix::process::parent_id()));
    }
}
