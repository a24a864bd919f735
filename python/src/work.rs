//! How a call runs its work: small work at once, on the caller's thread; larger work on a
//! thread of its own with the GIL released, the caller waking every `POLL` to let Python
//! handle its signals, so that Ctrl-C interrupts a long call. On an interrupt the call returns
//! `KeyboardInterrupt` at once and sets the work's cancel flag: the search and `cdist` stop
//! at their next slice or job; an alignment, one walk that cannot stop half-way, finishes on its
//! thread and its answer is dropped. A panic in the work becomes a `RuntimeError`, never a
//! crash of the interpreter.
//!
//! Also: the number of threads a `workers` argument asks for, and the memory a call may take
//! (a `MemoryError` before work that would not fit).
//!
//! Cost: a thread's start (some tens of microseconds) for work above [`INLINE_WORK`].

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// How often a waiting call lets Python handle its signals.
const POLL: Duration = Duration::from_millis(50);

/// Work (in DP cells, or text bytes times patterns) below which a call runs on the caller's
/// thread: well under a millisecond, where a thread's start would cost more than the work.
pub const INLINE_WORK: u64 = 1 << 22;

/// Runs `work` (which should stop soon after its flag is set) as the module doc says: at once
/// when `inline`, otherwise on a thread of its own.
pub fn run<T, F>(py: Python<'_>, inline: bool, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(&AtomicBool) -> T + Send + 'static,
{
    if inline {
        let never = AtomicBool::new(false);
        return panic::catch_unwind(AssertUnwindSafe(|| work(&never))).map_err(internal);
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = mpsc::channel();
    let flag = Arc::clone(&cancel);
    std::thread::Builder::new()
        .name("mpi_lcs".into())
        .spawn(move || {
            let done = panic::catch_unwind(AssertUnwindSafe(|| work(&flag)));
            // The caller may have gone (interrupted): then the answer is dropped.
            let _ = sender.send(done);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    let mut receiver = receiver;
    loop {
        // The receiver goes into the wait and comes back: it may not be shared off the GIL.
        let (back, got) = py.detach(move || {
            let got = receiver.recv_timeout(POLL);
            (receiver, got)
        });
        receiver = back;
        match got {
            Ok(done) => return done.map_err(internal),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the work's thread ended without an answer",
                ));
            }
        }
    }
}

/// A panic's message as a `RuntimeError`.
fn internal(panic: Box<dyn Any + Send>) -> PyErr {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".into());
    PyRuntimeError::new_err(format!("mpi_lcs failed inside its kernels: {message}"))
}

/// The threads `workers` asks for: itself when positive, every core for -1.
pub fn threads(workers: i64) -> PyResult<usize> {
    match workers {
        -1 => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        w if w >= 1 => Ok(w as usize),
        w => Err(PyValueError::new_err(format!(
            "workers must be a positive number of threads, or -1 for every core, not {w}"
        ))),
    }
}

/// Bytes the machine can still give ("MemAvailable" of `/proc/meminfo`), where known.
pub fn available_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// A `MemoryError` when `bytes` (what `what` needs) exceed what the machine can give.
pub fn check_memory(bytes: u64, what: &str) -> PyResult<()> {
    fits(bytes).map_err(|free| {
        PyMemoryError::new_err(format!(
            "{what} needs about {} MiB and the machine has {} MiB free",
            bytes >> 20,
            free >> 20
        ))
    })
}

/// `Err(free)` when `bytes` are more than the machine's free memory (`free` bytes).
pub fn fits(bytes: u64) -> Result<(), u64> {
    match available_bytes() {
        Some(free) if bytes > free => Err(free),
        _ => Ok(()),
    }
}
