//! What a command is given to read or asked to write beyond an ordinary file: lengths
//! `generate` cannot write, result sets that are devices, FIFOs or too large. Each case ends
//! with one message and a documented exit status.
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

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0, "mkfifo");
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

/// `table /dev/zero` grew without bound (9 GB in 5 s) and a FIFO kept `table` waiting
/// forever: a result set that is not a regular file is refused at once, and one too large or
/// with too long a line before it is read past the bound.
#[test]
fn result_sets_are_read_within_bounds() {
    let dir = Dir::new();
    let mut table = util::plain_command(&["table", "/dev/zero"]);
    // A guard, so that a regression fails on an allocation instead of filling the machine.
    // SAFETY: setrlimit touches nothing of the parent.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut table, || {
            let limit = libc::rlimit {
                rlim_cur: 2 << 30,
                rlim_max: 2 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    let (run, peak) = util::run_measured(table);
    assert_refused(&run, 3, "'/dev/zero': is not a regular file");
    assert!(peak < 100 << 20, "peak resident set {peak} bytes");

    let fifo = dir.path("runs.csv");
    mkfifo(&fifo);
    let sparse = dir.path("sparse.csv");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    let long = dir.file("long.csv", &vec![b'x'; (1 << 20) + 1]);
    let cases: [(&Path, &str); 3] = [
        (&fifo, "is not a regular file"),
        (&sparse, "larger than the limit of 67108864 bytes"),
        (&long, "line 1 is longer than 1048576 bytes"),
    ];
    for (csv, problem) in cases {
        let run = util::plain(&args(&[&"table", &csv]));
        assert_refused(&run, 3, problem);
        let out = dir.path("plots");
        let run = util::plain(&args(&[&"plot", &csv, &"--out", &out]));
        assert_refused(&run, 3, problem);
        assert!(!out.exists());
    }
}
