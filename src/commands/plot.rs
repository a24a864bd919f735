//! `plot`: the figures of result sets (see `crate::plot`), each result set checked to be there
//! and the directory to be writable before any is read; prints the files it wrote.

use super::stdout::print;
use crate::error::Error;
use crate::export;
use crate::options::PlotOptions;

/// Runs `plot`.
pub fn run(opts: PlotOptions) -> Result<(), Error> {
    for csv in &opts.csvs {
        crate::runs::check_present(csv)?;
    }
    export::check_output_dir("--out", &opts.out)?;
    let written = crate::plot::plot_runs(&opts.csvs, &opts.out)?;
    let text: String = written
        .iter()
        .map(|p| format!("wrote {}\n", p.display()))
        .collect();
    print(&text)
}
