//! This process's control groups: the directories whose control files limit it, for one controller,
//! from its own cgroup up to the root (a limit on an ancestor binds as much as one on the cgroup
//! itself). `/proc/self/cgroup` names one path per hierarchy: `0::/PATH` for v2 (one hierarchy at
//! `/sys/fs/cgroup`), `N:CONTROLLERS:/PATH` for v1 (one per controller, at
//! `/sys/fs/cgroup/CONTROLLER`). Both `mem` and `cpus` read their files at [`levels`], through a
//! function so that the tests can give fake files.

use std::path::{Path, PathBuf};

/// Where the cgroup files are mounted.
pub const ROOT: &str = "/sys/fs/cgroup";

/// One directory whose control files limit this process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    pub dir: PathBuf,
    /// Cgroup v2 (else v1): the files are named differently.
    pub v2: bool,
}

/// The directories that limit this process for `controller` (`"memory"`, `"cpu"`), from the
/// cgroups that `proc_self_cgroup` (the text of `/proc/self/cgroup`) names, under `root`:
/// each cgroup itself, then every ancestor up to the hierarchy's root. A v1 controller is
/// looked for under every mount name in `mounts` (`["memory"]`, `["cpu,cpuacct", "cpu"]`).
pub fn levels(
    proc_self_cgroup: &str,
    root: &Path,
    controller: &str,
    mounts: &[&str],
) -> Vec<Level> {
    let mut out = Vec::new();
    for line in proc_self_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let v2 = controllers.is_empty();
        let dirs: Vec<PathBuf> = if v2 {
            vec![root.to_path_buf()]
        } else if controllers.split(',').any(|c| c == controller) {
            mounts.iter().map(|m| root.join(m)).collect()
        } else {
            continue;
        };
        for dir in dirs {
            let mut level = Some(Path::new(path.trim_start_matches('/')));
            while let Some(rel) = level {
                out.push(Level {
                    dir: dir.join(rel),
                    v2,
                });
                level = rel.parent().filter(|_| !rel.as_os_str().is_empty());
            }
        }
    }
    out
}

/// A file reader over fake files, for the tests of the modules that read control files.
#[cfg(test)]
pub(crate) fn fake(files: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> {
    let files: std::collections::HashMap<PathBuf, String> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect();
    move |p: &Path| files.get(p).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cgroup_and_its_ancestors_in_either_version() {
        let root = Path::new("/cg");
        let dirs = |text, controller, mounts: &[&str]| -> Vec<(String, bool)> {
            levels(text, root, controller, mounts)
                .into_iter()
                .map(|l| (l.dir.display().to_string(), l.v2))
                .collect()
        };
        assert_eq!(
            dirs("0::/a/b\n", "memory", &["memory"]),
            [("/cg/a/b", true), ("/cg/a", true), ("/cg/", true)].map(|(d, v)| (d.to_owned(), v))
        );
        let v1 = "5:cpu,cpuacct:/slurm/job\n4:memory:/slurm/job\n";
        assert_eq!(
            dirs(v1, "cpu", &["cpu,cpuacct", "cpu"]).len(),
            6,
            "three levels under each of two mount names"
        );
        assert_eq!(dirs(v1, "memory", &["memory"])[0].0, "/cg/memory/slurm/job");
        assert!(dirs("5:cpu:/x\n", "memory", &["memory"]).is_empty());
    }
}
