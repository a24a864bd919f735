//! What a command is given to read or asked to write beyond an ordinary file: lengths
//! `generate` cannot write. Each case ends with one message and a documented exit status.
//!
//! No test here asserts how long anything took: a hang fails on the harness's timeout.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::util::{self, args, Dir, Run};

/// One message, containing `problem`, the exit status `code`, no panic.
fn assert_refused(run: &Run, code: i32, problem: &str) {
    assert_eq!(run.status.code(), Some(code), "{run:#?}");
    let messages = run.our_messages();
    assert_eq!(messages.len(), 1, "expected one message:\n{}", run.stderr);
    assert!(
        messages[0].contains(problem),
        "message should say '{problem}': {}",
        messages[0]
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

/// Bytes an unprivileged writer may still use where `dir` is (`statvfs`).
fn free_bytes(dir: &Path) -> u64 {
    let c_path = std::ffi::CString::new(dir.as_os_str().as_bytes()).unwrap();
    // SAFETY: statvfs reads the NUL-terminated path and writes the struct it is given.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::statvfs(c_path.as_ptr(), &mut stat) }, 0);
    stat.f_bavail as u64 * stat.f_frsize as u64
}

/// `generate --len 18446744073709551615` panicked on a capacity overflow and `--len 10^12`
/// aborted allocating the sequence: both are refused (exit 2) before anything is written.
#[test]
fn generate_refuses_lengths_it_cannot_write() {
    let dir = Dir::new();
    let out = dir.path("g.txt");
    let run = util::plain(&args(&[
        &"generate",
        &"--len",
        &u64::MAX.to_string(),
        &"--seed",
        &"1",
        &"-o",
        &out,
    ]));
    assert_refused(&run, 2, "generate writes at most 1.0 TiB");
    // Twice the free space (as one sequence, within the maximum where the disk allows).
    let free = free_bytes(dir.dir.path());
    let len = (free * 2).min((1 << 40) - 2);
    let run = util::plain(&args(&[
        &"generate",
        &"--len",
        &len.to_string(),
        &"--len2",
        &"0",
        &"--seed",
        &"1",
        &"-o",
        &out,
    ]));
    let problem = if len > free { "free in" } else { "at most" };
    assert_refused(&run, 2, problem);
    assert!(dir.names().is_empty(), "{:?}", dir.names());
}
