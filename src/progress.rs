//! A progress bar over diagonals on rank 0, for runs long enough to wonder about: only when its
//! stderr ends at a terminal (after [`DELAY`], so short runs print nothing extra) or `--progress`
//! asks for it (from the start), never with `--no-progress`; checking costs one clock read every
//! `STRIDE` steps. Under a launcher stderr is a pipe the launcher copies, so the options ask the
//! launcher's terminal (`launch`) and the bar is drawn with plain ANSI sequences that survive the
//! copy.

use std::io::Write;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// How long a fill runs before the bar appears.
pub const DELAY: Duration = Duration::from_secs(1);
/// Steps between two looks at the clock.
const STRIDE: usize = 256;

/// Where and when a bar may be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Show {
    /// The terminal's width.
    pub width: u16,
    /// How long the fill runs before the bar appears: [`DELAY`] on a terminal, nothing when
    /// `--progress` asked for it.
    pub after: Duration,
}

/// The bar, or nothing when it must not be shown.
pub struct Progress {
    /// Where and when, when the bar may be shown.
    show: Option<Show>,
    total: usize,
    /// What a step is: `diagonals` or `rows`.
    unit: &'static str,
    /// The step of the last look at the clock.
    seen: usize,
    started: Instant,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total` steps (`unit`: `diagonals`, `rows`) as `show` says; `None` on ranks
    /// other than 0, with `--no-progress`, and when stderr reaches no terminal without
    /// `--progress`.
    pub fn new(show: Option<Show>, total: usize, unit: &'static str) -> Progress {
        Progress {
            show,
            total,
            unit,
            seen: 0,
            started: Instant::now(),
            bar: None,
        }
    }

    /// The fill has reached step `d`.
    #[inline]
    pub fn at(&mut self, d: usize) {
        let Some(Show { width, after }) = self.show else {
            return;
        };
        if d < self.seen + STRIDE {
            return;
        }
        self.seen = d;
        if self.bar.is_none() && self.started.elapsed() >= after {
            let bar = ProgressBar::with_draw_target(
                Some(self.total as u64),
                ProgressDrawTarget::term_like_with_hz(Box::new(AnsiStderr { width }), 4),
            );
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "fill {{bar:40}} {{pos}}/{{len}} {}, {{elapsed}} elapsed, about {{eta}} left",
                    self.unit
                ))
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

/// Draws on stderr with ANSI sequences, whether or not stderr itself is a terminal.
#[derive(Debug)]
struct AnsiStderr {
    width: u16,
}

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
        self.width
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
