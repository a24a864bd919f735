//! A window of a text file mapped into memory, read in place: the scan reads the page cache's
//! own pages, with no copy into a buffer of its own (a copy through `pread` costs about twice
//! the sieve's scan of the same bytes: `docs/performance.md`). Windows of [`WINDOW`] bytes,
//! mapped one at a time with their pages populated up front, keep a rank's resident memory to a
//! window however long its range.
//!
//! A mapped file that shrinks while it is read (another program truncating it) makes the next
//! read of a page past its new end raise `SIGBUS`: the handler installed before the first
//! mapping writes one message naming that cause and ends the process with exit status 3 (an
//! input error); the launcher then ends every other rank, and no output has been written.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::Once;

/// Bytes mapped at a time.
pub const WINDOW: usize = 1 << 20;

/// `len` bytes of a file from `offset`, mapped read-only.
pub struct Mapped {
    base: *mut libc::c_void,
    mapped: usize,
    /// Where the bytes asked for start within the mapping (the offset rounded down to a page).
    skip: usize,
    len: usize,
}

impl Mapped {
    /// Maps `len` bytes (at least one) of `file` from `offset`; `None` where the system does not
    /// map it (the caller reads instead).
    pub fn new(file: &File, offset: u64, len: usize) -> Option<Mapped> {
        assert!(len > 0, "a mapping of at least one byte");
        install_handler();
        // SAFETY: sysconf has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
        let skip = (offset % page as u64) as usize;
        let start = libc::off_t::try_from(offset - skip as u64).ok()?;
        let mapped = len + skip;
        // SAFETY: a fresh read-only private mapping of an open file: no memory of this process
        // is touched, and a failure is reported as MAP_FAILED.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_POPULATE,
                file.as_raw_fd(),
                start,
            )
        };
        (base != libc::MAP_FAILED).then_some(Mapped {
            base,
            mapped,
            skip,
            len,
        })
    }

    /// The bytes asked for.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the mapping holds `skip + len` readable bytes from `base` while `self` lives;
        // a page past the file's end (the file shrank) raises SIGBUS, handled below.
        unsafe { std::slice::from_raw_parts(self.base.cast::<u8>().add(self.skip), self.len) }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once; no slice of it outlives `self`.
        unsafe { libc::munmap(self.base, self.mapped) };
    }
}

/// The message of a `SIGBUS`, and its exit status.
const SHRANK: &[u8] = b"mpi-lcs: the text file shrank while it was being read (a program \
changed it during the search); nothing was written\n";
const SHRANK_STATUS: i32 = 3;

extern "C" fn on_sigbus(_: libc::c_int) {
    // SAFETY: write and _exit are async-signal-safe; the message is a static buffer.
    unsafe {
        libc::write(2, SHRANK.as_ptr().cast(), SHRANK.len());
        libc::_exit(SHRANK_STATUS);
    }
}

/// Installs the `SIGBUS` handler, once.
fn install_handler() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: a zeroed sigaction with its handler and an empty mask set is a valid one, and
        // the handler only calls async-signal-safe functions.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as usize;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Windows from any offset hold the file's bytes there.
    #[test]
    fn a_window_holds_the_file_s_bytes() {
        let mut file = tempfile::tempfile().unwrap();
        let bytes: Vec<u8> = (0..20_000u32).map(|i| (i * 7 % 251) as u8).collect();
        file.write_all(&bytes).unwrap();
        for (offset, len) in [(0, 1), (0, 20_000), (4095, 2), (4096, 100), (12_345, 7_655)] {
            let mapped = Mapped::new(&file, offset as u64, len).expect("a regular file maps");
            assert_eq!(mapped.bytes(), &bytes[offset..offset + len]);
        }
    }

    /// The child of the test below: maps a file, truncates it, and reads the mapping (only
    /// when named exactly, as the test below names it).
    #[test]
    #[ignore = "run by a_file_that_shrinks_ends_the_process_with_a_message, in a child"]
    fn child_reads_a_shrunk_mapping() {
        if !std::env::args().any(|a| a == CHILD) || !std::env::args().any(|a| a == "--exact") {
            return;
        }
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&vec![7u8; 1 << 16]).unwrap();
        let mapped = Mapped::new(&file, 0, 1 << 16).unwrap();
        file.set_len(0).unwrap();
        let sum: u64 = mapped.bytes().iter().map(|&b| u64::from(b)).sum();
        println!("read {sum} after the file shrank");
    }

    const CHILD: &str = "input::mapped::tests::child_reads_a_shrunk_mapping";

    /// A mapped file that shrinks under the reader ends its process with exit 3 and the
    /// message, not a crash.
    #[test]
    fn a_file_that_shrinks_ends_the_process_with_a_message() {
        let done = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                CHILD,
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(SHRANK_STATUS), "{stderr}");
        assert!(stderr.contains("the text file shrank"), "{stderr}");
        assert!(!String::from_utf8_lossy(&done.stdout).contains("read "));
    }
}
