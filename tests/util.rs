//! The harness every integration test uses: runs the real `mpi-lcs` binary, alone or under an MPI
//! launcher, in a temporary directory of its own, with a hard timeout so a hung rank fails the test
//! instead of hanging the suite. Every launched command is a [`Job`] in a session of its own,
//! marked by a variable its processes inherit; a job dropped before it ended (a timeout, a failed
//! assertion, a panic) is killed with every process of its session or with its mark, the launcher's
//! ranks included (Hydra's proxies and ranks start sessions of their own). The launcher is `mpirun`
//! unless `MPI_LCS_TEST_LAUNCHER` names another (`mpiexec.mpich`); its family decides the flags
//! (Open MPI's `--oversubscribe` and `-x VAR`; Hydra needs neither).

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mpi-lcs")
}

/// Longest any single run may take before the test fails as hung: a hang guard, generous
/// because a shared, loaded machine is slow with no bug. Tests check what a run did, never how
/// long it took (speed is for `scripts/bench`).
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// What a run printed and how it ended.
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    /// How long it took, for failure messages only: no test asserts on it.
    elapsed: Duration,
}

/// Long output is cut in failure messages: the start and the end tell what happened.
fn excerpt(text: &str) -> String {
    const KEEP: usize = 1500;
    if text.len() <= 2 * KEEP {
        return text.to_owned();
    }
    let start = text.floor_char_boundary(KEEP);
    let end = text.ceil_char_boundary(text.len() - KEEP);
    format!(
        "{}\n[… {} bytes …]\n{}",
        &text[..start],
        end - start,
        &text[end..]
    )
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("status", &self.status)
            .field("elapsed", &self.elapsed)
            .field("stdout", &excerpt(&self.stdout))
            .field("stderr", &excerpt(&self.stderr))
            .finish()
    }
}

impl Run {
    /// Panics with everything the run printed unless it succeeded.
    pub fn ok(self) -> Run {
        assert!(
            self.status.success(),
            "run failed with {}\n--- stdout\n{}\n--- stderr\n{}",
            self.status,
            excerpt(&self.stdout),
            excerpt(&self.stderr)
        );
        self
    }

    /// The lines this program printed on stderr (a launcher adds its own banners).
    pub fn our_messages(&self) -> Vec<&str> {
        self.stderr
            .lines()
            .filter(|l| l.starts_with("mpi-lcs"))
            .collect()
    }
}

/// Asserts that `run` was refused: the exit status `code`, one message (ours, or clap's for a
/// flag's value) that says `problem`, and no panic.
pub fn assert_refused(run: &Run, code: i32, problem: &str) {
    assert_eq!(run.status.code(), Some(code), "{run:#?}");
    let messages: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("mpi-lcs") || l.starts_with("error:"))
        .collect();
    assert_eq!(messages.len(), 1, "expected one message:\n{}", run.stderr);
    assert!(
        messages[0].contains(problem),
        "the message should say '{problem}': {}",
        messages[0]
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

/// [`assert_refused`], with nothing written: nothing on standard output, none of `outputs`.
pub fn assert_refused_writing_nothing(run: &Run, code: i32, problem: &str, outputs: &[&Path]) {
    assert_refused(run, code, problem);
    assert!(run.stdout.is_empty(), "no partial output: {}", run.stdout);
    for path in outputs {
        assert!(!path.exists(), "{} was written", path.display());
    }
}

/// A run whose device failed at the planted `fault` (`MPI_LCS_FAULT`): exit 1, one message
/// besides the notes, naming the failed launch and the planted fault, nothing on standard
/// output and none of `outputs` written.
pub fn assert_device_lost(run: &Run, fault: &str, outputs: &[&Path]) {
    let messages: Vec<&str> = run
        .our_messages()
        .into_iter()
        .filter(|m| !m.contains("note:"))
        .collect();
    assert_eq!(run.status.code(), Some(1), "{fault}: {run:#?}");
    assert_eq!(messages.len(), 1, "{fault}: {}", run.stderr);
    assert!(
        messages[0].contains("the GPU failed: launch"),
        "{messages:?}"
    );
    assert!(messages[0].contains("a planted fault"), "{messages:?}");
    assert!(run.stdout.is_empty(), "{fault}: {}", run.stdout);
    for path in outputs {
        assert!(!path.exists(), "{fault}: {} was written", path.display());
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

    /// Writes a file and returns its path.
    pub fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, bytes).expect("write file");
        path
    }

    /// Writes a two-line input file and returns its path.
    pub fn input(&self, name: &str, x: &[u8], y: &[u8]) -> PathBuf {
        self.file(name, &[x, b"\n", y, b"\n"].concat())
    }

    /// Writes a random input of two sequences of `len` letters with `mpi-lcs generate` and
    /// returns its path.
    pub fn generated(&self, name: &str, len: usize, seed: u64) -> PathBuf {
        self.generate(name, &[&"--len", &len.to_string()], seed)
    }

    /// Writes a random `m x n` pair (sequences of `m` and `n` letters) with `mpi-lcs generate`
    /// and returns its path.
    pub fn generated_pair(&self, name: &str, m: usize, n: usize, seed: u64) -> PathBuf {
        let (m, n) = (m.to_string(), n.to_string());
        self.generate(name, &[&"--len", &m, &"--len2", &n], seed)
    }

    /// `mpi-lcs generate` with `lengths` and `seed` into the file `name`: its path.
    fn generate(&self, name: &str, lengths: &[&dyn AsRef<OsStr>], seed: u64) -> PathBuf {
        let path = self.path(name);
        let mut command = args(&[&"generate"]);
        command.extend(args(lengths));
        command.extend(args(&[&"--seed", &seed.to_string(), &"-o", &path]));
        plain(&command).ok();
        path
    }

    /// The names of the files in the directory, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

/// A command running in a session of its own, its output collected as it comes.
pub struct Job {
    child: Child,
    started: Instant,
    stdout: Arc<Mutex<Vec<u8>>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    readers: Vec<JoinHandle<()>>,
    done: bool,
    processes: JobProcesses,
    /// Keeps the launcher's session directory until the job ends.
    _session: Option<tempfile::TempDir>,
}

/// The variable that marks a job's processes.
const JOB_MARK: &str = "MPI_LCS_TEST_JOB";

/// How to find a job's processes, even after its first one has ended: those of its session,
/// and those that inherited its mark.
#[derive(Debug, Clone)]
pub struct JobProcesses {
    session: u32,
    mark: String,
}

impl JobProcesses {
    /// The processes of the job still running (or not yet reaped).
    pub fn list(&self) -> Vec<u32> {
        let mut pids = session_members(self.session);
        let needle = format!("{JOB_MARK}={}\0", self.mark);
        for pid in all_pids() {
            let marked = std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.windows(needle.len()).any(|w| w == needle.as_bytes()));
            if marked && !pids.contains(&pid) {
                pids.push(pid);
            }
        }
        pids
    }

    /// Waits until every process of the job has ended (and been reaped). Only a hang guard:
    /// after [`TIMEOUT`] the test fails, as for a hung run; how soon they end is not checked.
    pub fn wait_all_ended(&self) {
        wait_until(
            || self.list().is_empty(),
            || format!("left running: {:?}", self.list()),
        );
    }
}

fn collect(mut from: impl Read + Send + 'static, into: Arc<Mutex<Vec<u8>>>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            into.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    })
}

impl Job {
    /// Starts `cmd` in a new session, with stdin closed and its output collected.
    pub fn spawn(cmd: Command) -> Job {
        Job::spawn_with_input(cmd, None)
    }

    /// [`Job::spawn`], with `input` (when given) written to its standard input, which is then
    /// closed.
    pub fn spawn_with_input(mut cmd: Command, input: Option<Vec<u8>>) -> Job {
        static JOBS: AtomicUsize = AtomicUsize::new(0);
        let mark = format!(
            "{}-{}",
            std::process::id(),
            JOBS.fetch_add(1, Ordering::Relaxed)
        );
        cmd.env(JOB_MARK, &mark);
        let session = launcher_env(&mut cmd);
        // SAFETY: setsid is async-signal-safe and touches nothing of the parent.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
        let stdin = match input {
            Some(_) => Stdio::piped(),
            None => Stdio::null(),
        };
        let mut child = cmd
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
        let stdout = Arc::new(Mutex::new(Vec::new()));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut readers = vec![
            collect(child.stdout.take().unwrap(), stdout.clone()),
            collect(child.stderr.take().unwrap(), stderr.clone()),
        ];
        if let (Some(bytes), Some(mut to)) = (input, child.stdin.take()) {
            // A command that stops reading early makes this write fail: that is its business.
            readers.push(std::thread::spawn(move || {
                let _ = to.write_all(&bytes);
            }));
        }
        let processes = JobProcesses {
            session: child.id(),
            mark,
        };
        Job {
            child,
            started: Instant::now(),
            stdout,
            stderr,
            readers,
            done: false,
            processes,
            _session: session,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// How to find the job's processes, now or after it ended.
    pub fn processes(&self) -> JobProcesses {
        self.processes.clone()
    }

    /// What the job has written to stderr so far.
    pub fn stderr_so_far(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Whether the job has ended.
    pub fn finished(&mut self) -> bool {
        self.child.try_wait().expect("wait").is_some()
    }

    /// Waits for the job; kills it and fails the test after `limit`.
    pub fn wait(mut self, limit: Duration) -> Run {
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if self.started.elapsed() > limit {
                self.kill();
                panic!("still running after {limit:?}: hung");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let elapsed = self.started.elapsed();
        self.done = true;
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
        let text =
            |b: &Arc<Mutex<Vec<u8>>>| String::from_utf8_lossy(&b.lock().unwrap()).into_owned();
        Run {
            status,
            stdout: text(&self.stdout),
            stderr: text(&self.stderr),
            elapsed,
        }
    }

    /// Kills every process of the job (its session and its mark), then the job itself.
    pub fn kill(&mut self) {
        for pid in self.processes.list() {
            // SAFETY: sending a signal has no memory effects.
            unsafe {
                libc::kill(pid as i32, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.done = true;
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        if !self.done {
            self.kill();
        }
    }
}

/// Every process id in /proc.
fn all_pids() -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .collect()
}

/// The processes whose session is `sid` (a job's session is its first process's pid).
fn session_members(sid: u32) -> Vec<u32> {
    all_pids()
        .into_iter()
        .filter(|&pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                // Fields after the parenthesised name: state ppid pgrp session ...
                let after = stat.rfind(')').map_or("", |at| &stat[at + 1..]);
                after.split_whitespace().nth(3) == Some(&sid.to_string())
            })
        })
        .collect()
}

/// Checks `done` every 20 ms until it holds. Only a hang guard, never a measure of speed:
/// after [`TIMEOUT`] the test fails with `what`, as for a hung run (a loaded machine is slow
/// with no bug, so no test asserts how long anything took).
pub fn wait_until(mut done: impl FnMut() -> bool, what: impl FnOnce() -> String) {
    let started = Instant::now();
    while !done() {
        if started.elapsed() > TIMEOUT {
            panic!("still waiting after {TIMEOUT:?}: hung; {}", what());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs a command to completion, killing it and failing the test after [`TIMEOUT`].
pub fn run_with_timeout(cmd: Command) -> Run {
    Job::spawn(cmd).wait(TIMEOUT)
}

/// [`run_with_timeout`] with `input` on the command's standard input.
pub fn run_with_input(cmd: Command, input: &[u8]) -> Run {
    Job::spawn_with_input(cmd, Some(input.to_vec())).wait(TIMEOUT)
}

/// Runs one process to completion, as [`run_with_timeout`] does, and also returns its peak
/// resident set in bytes (`wait4`'s `ru_maxrss`), with its address space capped at `cap` bytes
/// as [`capped`] caps it. For a command that does not start others.
///
/// Linux counts in a process's peak the memory of the process that started it, as it was when
/// the new program was loaded: a child of this test process, which runs many tests at once,
/// measured 128 MB before it read a byte. So a fresh copy of this test binary, a few megabytes,
/// starts the command and measures it ([`measuring_child`]).
pub fn run_measured(cmd: Command, cap: Option<u64>) -> (Run, u64) {
    let out = tempfile::tempdir().unwrap();
    let text = |s: &OsStr| s.to_str().expect("a UTF-8 command line").to_owned();
    let spec = serde_json::json!({
        "program": text(cmd.get_program()),
        "args": cmd.get_args().map(text).collect::<Vec<_>>(),
        "dir": cmd.get_current_dir().map(|d| text(d.as_os_str())),
    });
    let mut measure = Command::new(std::env::current_exe().unwrap());
    measure
        .args(["--exact", MEASURING, "--ignored", "--nocapture"])
        .arg("--test-threads=1")
        .env(MEASURE_SPEC, spec.to_string())
        .env(MEASURE_OUT, out.path());
    for (name, value) in cmd.get_envs() {
        match value {
            Some(value) => measure.env(name, value),
            None => measure.env_remove(name),
        };
    }
    if let Some(bytes) = cap {
        measure = capped(measure, bytes);
    }
    let measurer = run_with_timeout(measure);
    assert!(measurer.status.success(), "measuring {cmd:?}: {measurer:?}");
    let read = |name: &str| std::fs::read(out.path().join(name)).unwrap();
    let usage = String::from_utf8(read("usage")).unwrap();
    let [status, peak, nanos] = [0, 1, 2].map(|i| {
        usage
            .split_whitespace()
            .nth(i)
            .unwrap()
            .parse::<u64>()
            .unwrap()
    });
    let run = Run {
        status: std::os::unix::process::ExitStatusExt::from_raw(status as i32),
        stdout: String::from_utf8_lossy(&read("stdout")).into_owned(),
        stderr: String::from_utf8_lossy(&read("stderr")).into_owned(),
        elapsed: Duration::from_nanos(nanos),
    };
    (run, peak)
}

/// The measuring child's test name, its command (JSON) and the folder it writes to.
const MEASURING: &str = "util::measuring_child";
const MEASURE_SPEC: &str = "MPI_LCS_TEST_MEASURE";
const MEASURE_OUT: &str = "MPI_LCS_TEST_MEASURE_OUT";

/// The process [`run_measured`] starts: runs the command it is given and writes its output,
/// its wait status, its peak resident set in bytes and its time (in `usage`). Does nothing
/// unless run by [`run_measured`].
#[test]
#[ignore = "run by run_measured, in a fresh copy of the test binary"]
fn measuring_child() {
    let (Some(spec), Some(out)) = (
        std::env::var_os(MEASURE_SPEC),
        std::env::var_os(MEASURE_OUT).map(PathBuf::from),
    ) else {
        return;
    };
    let spec: serde_json::Value = serde_json::from_str(spec.to_str().unwrap()).unwrap();
    let mut cmd = Command::new(spec["program"].as_str().unwrap());
    for arg in spec["args"].as_array().unwrap() {
        cmd.arg(arg.as_str().unwrap());
    }
    if let Some(dir) = spec["dir"].as_str() {
        cmd.current_dir(dir);
    }
    let file = |name: &str| File::create(out.join(name)).unwrap();
    #[expect(
        clippy::zombie_processes,
        reason = "wait4 reaps it, and gives its usage"
    )]
    let child = cmd
        .env_remove(MEASURE_SPEC)
        .env_remove(MEASURE_OUT)
        .stdin(Stdio::null())
        .stdout(file("stdout"))
        .stderr(file("stderr"))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let pid = child.id() as libc::pid_t;
    let started = Instant::now();
    let mut status = 0;
    // SAFETY: wait4 writes the status and the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    let peak = u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024;
    let nanos = started.elapsed().as_nanos();
    std::fs::write(out.join("usage"), format!("{status} {peak} {nanos}\n")).unwrap();
}

/// A pair and a copy of it with `rate` of edits, as `generate --mutate` writes it: `len` bytes
/// from `seed`, at `name` in `dir`.
pub fn mutated(dir: &Dir, name: &str, len: usize, rate: &str, seed: u64) -> PathBuf {
    let out = dir.path(name);
    plain(&args(&[
        &"generate",
        &"--len",
        &len.to_string(),
        &"--mutate",
        &rate,
        &"--seed",
        &seed.to_string(),
        &"-o",
        &out,
    ]))
    .ok();
    out
}

pub fn plain<S: AsRef<OsStr>>(args: &[S]) -> Run {
    run_with_timeout(plain_command(args))
}

pub fn plain_command<S: AsRef<OsStr>>(args: &[S]) -> Command {
    plain_command_of(bin().as_ref(), args)
}

/// [`plain_command`] with another copy of the binary.
pub fn plain_command_of<S: AsRef<OsStr>>(program: &Path, args: &[S]) -> Command {
    let mut cmd = Command::new(program);
    cmd.args(args).env_remove("RUST_BACKTRACE");
    cmd
}

/// `cmd` with its address space capped at `bytes`, as `ulimit -v` caps a shell's: for it and
/// every process it starts (a launcher's ranks too).
pub fn capped(mut cmd: Command, bytes: u64) -> Command {
    // SAFETY: setrlimit touches nothing of the parent.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    cmd
}

/// The MPI family of a launcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    OpenMpi,
    Hydra,
}

/// The launcher the tests use, and its family (asked once, from `--version`).
pub fn launcher() -> &'static (String, Family) {
    static LAUNCHER: OnceLock<(String, Family)> = OnceLock::new();
    LAUNCHER.get_or_init(|| {
        let program = std::env::var("MPI_LCS_TEST_LAUNCHER").unwrap_or_else(|_| "mpirun".into());
        let version = Command::new(&program)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| {
                panic!("{program} not found ({e}): run scripts/setup.sh (or `make test`) to install MPI")
            });
        let text = String::from_utf8_lossy(&version.stdout).to_lowercase()
            + &String::from_utf8_lossy(&version.stderr).to_lowercase();
        let family = if text.contains("open mpi") || text.contains("open-mpi") {
            Family::OpenMpi
        } else if text.contains("hydra") || text.contains("mpich") {
            Family::Hydra
        } else {
            panic!("{program} --version names neither Open MPI nor MPICH's Hydra:\n{text}")
        };
        (program, family)
    })
}

/// `LAUNCHER -n RANKS mpi-lcs ARGS` with `env` for every rank, not yet started.
pub fn mpirun_command<S: AsRef<OsStr>>(ranks: usize, args: &[S], env: &[(&str, &str)]) -> Command {
    let (program, family) = launcher();
    let mut cmd = Command::new(program);
    if *family == Family::OpenMpi {
        cmd.arg("--oversubscribe");
    }
    cmd.args(["-n", &ranks.to_string()]);
    for (k, v) in env {
        cmd.env(k, v);
        if *family == Family::OpenMpi {
            cmd.args(["-x", k]);
        }
    }
    cmd.arg(bin()).args(args).env_remove("RUST_BACKTRACE");
    cmd
}

/// One launch of several parts, `LAUNCHER -n R1 -wdir D1 mpi-lcs ARGS1 : -n R2 -wdir D2 …`,
/// not yet started: the ranks numbered in the parts' order, each part in its own working
/// directory (as hosts with file systems of their own would see a relative path).
pub fn mpirun_parts<S: AsRef<OsStr>>(parts: &[(usize, &Path, &[S])]) -> Command {
    let (program, family) = launcher();
    let mut cmd = Command::new(program);
    if *family == Family::OpenMpi {
        cmd.arg("--oversubscribe");
    }
    for (k, (ranks, wdir, args)) in parts.iter().enumerate() {
        if k > 0 {
            cmd.arg(":");
        }
        cmd.args(["-n", &ranks.to_string()])
            .arg("-wdir")
            .arg(wdir)
            .arg(bin())
            .args(args.iter());
    }
    cmd.env_remove("RUST_BACKTRACE");
    cmd
}

/// `taskset -c CPUS LAUNCHER -n RANKS mpi-lcs ARGS` with `env` for every rank, not yet
/// started: the job confined to `cpus`. Open MPI's `mpirun` binds each rank to a core of its
/// own by default, chosen among all the host's cores whatever its own affinity, so it is told
/// not to bind (its ranks then keep the affinity they inherit, as Hydra's do).
pub fn pinned_command<S: AsRef<OsStr>>(
    cpus: &str,
    ranks: usize,
    args: &[S],
    env: &[(&str, &str)],
) -> Command {
    let inner = mpirun_command(ranks, args, env);
    let mut cmd = Command::new("taskset");
    cmd.args(["-c", cpus]).arg(inner.get_program());
    if launcher().1 == Family::OpenMpi {
        cmd.args(["--bind-to", "none"]);
    }
    cmd.args(inner.get_args());
    for (k, v) in inner.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd
}

/// `LAUNCHER -n RANKS mpi-lcs ARGS`.
pub fn mpirun<S: AsRef<OsStr>>(ranks: usize, args: &[S]) -> Run {
    mpirun_env(ranks, args, &[])
}

/// `LAUNCHER -n RANKS mpi-lcs ARGS` with extra environment variables for every rank.
pub fn mpirun_env<S: AsRef<OsStr>>(ranks: usize, args: &[S], env: &[(&str, &str)]) -> Run {
    run_with_timeout(mpirun_command(ranks, args, env))
}

/// Arguments from a mix of strings and paths.
pub fn args(parts: &[&dyn AsRef<OsStr>]) -> Vec<OsString> {
    parts.iter().map(|p| p.as_ref().to_owned()).collect()
}

/// `solve INPUT --json JSON EXTRA…` on `ranks` ranks with `env` for every rank: the shape of
/// most runs in these tests.
pub fn solve(
    ranks: usize,
    input: &Path,
    json: &Path,
    extra: &[&OsStr],
    env: &[(&str, &str)],
) -> Run {
    let mut a = args(&[&"solve", &input, &"--json", &json]);
    a.extend(extra.iter().map(|s| s.to_os_string()));
    mpirun_env(ranks, &a, env)
}

/// Ranks yield their core while they wait (unless the test or the caller's environment says
/// otherwise): the tests run several jobs side by side, so the machine is oversubscribed even
/// when each job has a core per rank, which no rank can see (MPICH's ranks, which never yield
/// by themselves, then starve the other jobs).
///
/// Open MPI refuses to run as root without the first two variables; harmless otherwise. Its
/// `mpirun` also waits a second or two before it ends a job in which a rank exited non-zero
/// (it gives the others time to stop before it kills them); the failure tests have hundreds of
/// such jobs, whose ranks all stop at once, so the wait is set to nothing. Each job also gets
/// a session directory of its own: jobs started at the same moment otherwise race to create
/// the shared one under /tmp and fail.
fn launcher_env(cmd: &mut Command) -> Option<tempfile::TempDir> {
    let session = tempfile::tempdir().expect("session dir");
    let chosen = cmd.get_envs().any(|(k, _)| k == "MPI_LCS_WAIT");
    if !chosen && std::env::var_os("MPI_LCS_WAIT").is_none() {
        cmd.env("MPI_LCS_WAIT", "yield");
    }
    cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_odls_base_sigkill_timeout", "0")
        .env("OMPI_MCA_orte_tmpdir_base", session.path());
    Some(session)
}

/// The most memory any rank of `solve INPUT --store STORE` on `ranks` ranks expects to need
/// (the memory pre-check's figure), from a run's report: for tests that set limits between
/// what two configurations need.
pub fn memory_need(ranks: usize, input: &Path, store: &str) -> u64 {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("need.json");
    solve(
        ranks,
        input,
        &out,
        &["--store".as_ref(), store.as_ref()],
        &[],
    )
    .ok();
    json(&out)["per_rank"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["memory_estimate_bytes"].as_u64().unwrap())
        .max()
        .unwrap()
}

/// The keys of a JSON object, recursively for objects (`a.b`), not into arrays: what two
/// reports must share to have one schema.
pub fn json_keys(v: &serde_json::Value) -> std::collections::BTreeSet<String> {
    fn walk(v: &serde_json::Value, prefix: &str, out: &mut std::collections::BTreeSet<String>) {
        if let serde_json::Value::Object(map) = v {
            for (k, child) in map {
                let name = format!("{prefix}{k}");
                walk(child, &format!("{name}."), out);
                out.insert(name);
            }
        }
    }
    let mut out = std::collections::BTreeSet::new();
    walk(v, "", &mut out);
    out
}

/// Reads a JSON report.
/// A classroom page's data block (`--html`).
pub fn page_data(page: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(page).unwrap();
    let start = text.find("id=\"run-data\">").unwrap() + "id=\"run-data\">".len();
    let end = start + text[start..].find("</script>").unwrap();
    serde_json::from_str(&text[start..end]).unwrap()
}

pub fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON in {}: {e}", path.display()))
}

/// Reads a CSV file into its header and records (with the csv crate: quoting is its job).
pub fn csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let header = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let records = reader
        .records()
        .map(|r| {
            r.unwrap_or_else(|e| panic!("bad CSV in {}: {e}", path.display()))
                .iter()
                .map(str::to_owned)
                .collect()
        })
        .collect();
    (header, records)
}

/// The values of column `name` of a CSV read by [`csv`].
pub fn column<'a>(table: &'a (Vec<String>, Vec<Vec<String>>), name: &str) -> Vec<&'a str> {
    let k = table
        .0
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {:?}", table.0));
    table.1.iter().map(|r| r[k].as_str()).collect()
}

/// The repository's `inputs/` file `name`.
pub fn repo_input(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("inputs")
        .join(name)
}

/// A piece of work for [`parallel`].
pub type Task<'a, T> = Box<dyn FnOnce() -> T + Send + 'a>;

/// Runs `jobs` on up to `width` threads at once (a launch is mostly waiting, so a few runs in
/// parallel finish much sooner even on two cores).
pub fn parallel<T: Send>(width: usize, jobs: Vec<Task<'_, T>>) -> Vec<T> {
    let jobs = Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let results = Mutex::new(Vec::new());
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

/// Makes a FIFO at `path`.
pub fn mkfifo(path: &Path) {
    let c_path = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// Opens the FIFO at `path` for writing once a reader has it open (until then an open without
/// blocking fails), so a test knows the reader is there.
pub fn open_writer(path: &Path) -> File {
    let mut file = None;
    wait_until(
        || {
            file = File::options()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(path)
                .ok();
            file.is_some()
        },
        || format!("nobody opened {} to read", path.display()),
    );
    let file = file.unwrap();
    // Writes block again, as a writer's would.
    // SAFETY: fcntl changes the flags of a descriptor this process owns.
    unsafe {
        use std::os::fd::AsRawFd;
        libc::fcntl(file.as_raw_fd(), libc::F_SETFL, 0);
    }
    file
}

/// Writes `bytes` into the FIFO at `path` once a reader opens it, from a thread of its own.
pub fn feed(path: &Path, bytes: &[u8]) -> std::thread::JoinHandle<()> {
    let (path, bytes) = (path.to_owned(), bytes.to_vec());
    std::thread::spawn(move || {
        let _ = open_writer(&path).write_all(&bytes);
    })
}

/// `1 rank`, `3 ranks`: how the program counts ranks in its summaries.
pub fn ranks(p: usize) -> String {
    if p == 1 {
        "1 rank".to_owned()
    } else {
        format!("{p} ranks")
    }
}

/// A small deterministic generator (xorshift64*), so the tests need nothing of the crate.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }

    /// `len` random DNA bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| b"ACGT"[self.below(4)]).collect()
    }
}
