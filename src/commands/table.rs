//! `table`: the Markdown tables of result sets (see `crate::table`), to standard output or to
//! `--out`, whose path is checked before any result set is read (and may not be one of them).

use super::stdout::print;
use crate::error::Error;
use crate::export;
use crate::options::TableOptions;

/// Runs `table`.
pub fn run(opts: TableOptions) -> Result<(), Error> {
    if let Some(out) = &opts.out {
        let inputs: Vec<&std::path::Path> = opts.csvs.iter().map(|p| p.as_path()).collect();
        export::check_outputs(&[("--out", out)], &inputs)?;
    }
    let rows = crate::runs::read_result_sets(&opts.csvs)?;
    let markdown = crate::table::markdown(&rows);
    match &opts.out {
        Some(path) => export::write_atomic(path, markdown.as_bytes()),
        None => print(&markdown),
    }
}
