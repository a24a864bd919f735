//! A progress bar over diagonals on rank 0, for runs long enough to wonder about.
//!
//! Only rank 0 shows it, only when its stderr ends at a terminal, never with `--no-progress`,
//! and only once the fill has run for [`DELAY`]: short runs and scripted runs print nothing
//! extra. Checking costs one clock read every [`STRIDE`] diagonals.
//!
//! Under `mpirun` a rank's stderr is a pipe that mpirun copies to its own stderr, so "is a
//! terminal" is asked of mpirun (the rank's parent) on Linux, and the bar is drawn with plain
//! ANSI sequences that survive the copy.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// How long a fill runs before the bar appears.
pub const DELAY: Duration = Duration::from_secs(1);
/// Diagonals between two updates.
const STRIDE: usize = 256;

/// The bar, or nothing when it must not be shown.
pub struct Progress {
    enabled: bool,
    total: usize,
    started: Instant,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total` diagonals; `wanted` is false on ranks other than 0 and with
    /// `--no-progress`.
    pub fn new(wanted: bool, total: usize) -> Progress {
        Progress {
            enabled: wanted && stderr_reaches_terminal(),
            total,
            started: Instant::now(),
            bar: None,
        }
    }

    /// The fill has reached diagonal `d`.
    #[inline]
    pub fn at(&mut self, d: usize) {
        if !self.enabled || !d.is_multiple_of(STRIDE) {
            return;
        }
        if self.bar.is_none() && self.started.elapsed() >= DELAY {
            let bar = ProgressBar::with_draw_target(
                Some(self.total as u64),
                ProgressDrawTarget::term_like_with_hz(Box::new(AnsiStderr), 4),
            );
            bar.set_style(
                ProgressStyle::with_template(
                    "fill {bar:40} {pos}/{len} diagonals, {elapsed} elapsed, about {eta} left",
                )
                .expect("valid template"),
            );
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(d as u64);
        }
    }

    /// The fill is over: remove the bar.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Whether what this process writes to stderr ends up on a terminal: its own stderr, or, for a
/// process started by mpirun (which pipes it), mpirun's.
fn stderr_reaches_terminal() -> bool {
    if std::io::stderr().is_terminal() {
        return true;
    }
    if std::env::var_os("OMPI_COMM_WORLD_RANK").is_none() {
        return false;
    }
    let parent = std::os::unix::process::parent_id();
    std::fs::read_link(format!("/proc/{parent}/fd/2")).is_ok_and(|target| {
        let target = target.to_string_lossy();
        target.starts_with("/dev/pts/") || target.starts_with("/dev/tty")
    })
}

/// Draws on stderr with ANSI sequences, whether or not stderr itself is a terminal.
#[derive(Debug)]
struct AnsiStderr;

impl AnsiStderr {
    fn put(&self, s: &str) -> std::io::Result<()> {
        std::io::stderr().write_all(s.as_bytes())
    }

    /// Moves the cursor `n` places in the direction of ANSI code `dir` (`A` up, `B` down,
    /// `C` right, `D` left); nothing for 0, which ANSI would read as 1.
    fn cursor(&self, n: usize, dir: char) -> std::io::Result<()> {
        if n > 0 {
            self.put(&format!("\x1b[{n}{dir}"))?;
        }
        Ok(())
    }
}

impl TermLike for AnsiStderr {
    fn width(&self) -> u16 {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(100)
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'A')
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'B')
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'C')
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.cursor(n, 'D')
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.put(&format!("{s}\n"))
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.put(s)
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.put("\r\x1b[2K")
    }

    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}
