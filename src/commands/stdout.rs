//! Writing to standard output: a reader that went away (`| head`) ends the output quietly, as
//! in other Unix tools; any other failure is an error (exit 5).

use std::io::{self, BufWriter, StdoutLock, Write as _};

use crate::error::Error;

/// Writes `text` to standard output.
pub fn print(text: &str) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    ended(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

/// Writes to standard output with `write`, through a buffer (a TSV of many lines).
pub fn stream(
    write: impl FnOnce(&mut BufWriter<StdoutLock<'static>>) -> io::Result<()>,
) -> Result<(), Error> {
    let mut out = BufWriter::new(io::stdout().lock());
    ended(write(&mut out).and_then(|()| out.flush()))
}

/// What a write to standard output comes to: a reader that went away ends it without an error.
fn ended(written: io::Result<()>) -> Result<(), Error> {
    match written {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(Error::Stdout),
    }
}
