//! The harness every integration test uses: runs the real `mpi-lcs` binary, alone or under
//! `mpirun`, in a temporary directory of its own, with a hard timeout so a hung rank fails the
//! test instead of hanging the suite.

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mpi-lcs")
}

/// Longest any single run may take before the test fails as hung.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// What a run printed and how it ended.
#[derive(Debug)]
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Run {
    /// Panics with everything the run printed unless it succeeded.
    pub fn ok(self) -> Run {
        assert!(
            self.status.success(),
            "run failed with {}\n--- stdout\n{}\n--- stderr\n{}",
            self.status,
            self.stdout,
            self.stderr
        );
        self
    }
}

/// A scratch directory for one test.
pub struct Dir {
    pub dir: tempfile::TempDir,
}

impl Dir {
    pub fn new() -> Dir {
        Dir {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes a two-line input file and returns its path.
    pub fn input(&self, name: &str, x: &[u8], y: &[u8]) -> PathBuf {
        let mut bytes = x.to_vec();
        bytes.push(b'\n');
        bytes.extend_from_slice(y);
        bytes.push(b'\n');
        let path = self.path(name);
        std::fs::write(&path, bytes).expect("write input");
        path
    }
}

/// Fails with the setup hint when `mpirun` is missing: MPI tests are never skipped silently.
pub fn require_mpirun() {
    let found = Command::new("mpirun")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "mpirun not found: run scripts/setup.sh (or `make test`) to install Open MPI"
    );
}

/// Runs a command to completion, killing it and failing the test after [`TIMEOUT`].
pub fn run_with_timeout(mut cmd: Command) -> Run {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} still running after {TIMEOUT:?}: hung");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        status,
        stdout: String::from_utf8_lossy(&out_reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
        elapsed: started.elapsed(),
    }
}

/// `mpi-lcs ARGS` as a plain process (an MPI singleton for `solve`).
pub fn plain<S: AsRef<OsStr>>(args: &[S]) -> Run {
    let mut cmd = Command::new(bin());
    cmd.args(args).env_remove("RUST_BACKTRACE");
    let _session = open_mpi_env(&mut cmd);
    run_with_timeout(cmd)
}

/// `mpirun -n RANKS mpi-lcs ARGS`.
pub fn mpirun<S: AsRef<OsStr>>(ranks: usize, args: &[S]) -> Run {
    mpirun_env(ranks, args, &[])
}

/// `mpirun -n RANKS mpi-lcs ARGS` with extra environment variables for every rank.
pub fn mpirun_env<S: AsRef<OsStr>>(ranks: usize, args: &[S], env: &[(&str, &str)]) -> Run {
    require_mpirun();
    let mut cmd = Command::new("mpirun");
    cmd.args(["--oversubscribe", "-n", &ranks.to_string()]);
    for (k, v) in env {
        cmd.env(k, v);
        cmd.args(["-x", k]);
    }
    cmd.arg(bin()).args(args).env_remove("RUST_BACKTRACE");
    let _session = open_mpi_env(&mut cmd);
    run_with_timeout(cmd)
}

/// `mpirun -n RANKS mpi-lcs solve INPUT --json JSON EXTRA…`, with `env` for every rank: the
/// shape of most runs in these tests.
pub fn solve(
    ranks: usize,
    input: &Path,
    json: &Path,
    extra: &[&OsStr],
    env: &[(&str, &str)],
) -> Run {
    let mut args: Vec<&OsStr> = vec![
        OsStr::new("solve"),
        input.as_os_str(),
        OsStr::new("--json"),
        json.as_os_str(),
    ];
    args.extend_from_slice(extra);
    mpirun_env(ranks, &args, env)
}

/// Open MPI refuses to run as root without the first two; harmless otherwise. Each run also
/// gets a session directory of its own: runs started at the same moment otherwise race to
/// create the shared one under /tmp and fail.
pub fn open_mpi_env(cmd: &mut Command) -> tempfile::TempDir {
    let session = tempfile::tempdir().expect("session dir");
    cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_orte_tmpdir_base", session.path());
    session
}

/// Reads a JSON report.
pub fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON in {}: {e}", path.display()))
}

/// The repository's `inputs/` file `name`.
pub fn repo_input(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("inputs")
        .join(name)
}

/// Runs `jobs` on up to `width` threads at once (mpirun start-up is mostly waiting, so a few
/// runs in parallel finish much sooner even on two cores).
pub fn parallel<T: Send>(width: usize, jobs: Vec<Box<dyn FnOnce() -> T + Send + '_>>) -> Vec<T> {
    let jobs = std::sync::Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..width {
            s.spawn(|| loop {
                let next = jobs.lock().unwrap().pop();
                let Some((i, job)) = next else { break };
                let out = job();
                results.lock().unwrap().push((i, out));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}
