//! `generate`: a reproducible random input, streamed to its file (see `crate::generate`), the
//! path checked before anything is written.

use crate::error::Error;
use crate::export;
use crate::options::GenerateOptions;

/// Runs `generate`.
pub fn run(opts: GenerateOptions) -> Result<(), Error> {
    export::check_outputs(&[("--output", &opts.output)], &[])?;
    match opts.mutate {
        Some(rate) => {
            crate::generate::write_mutated(&opts.output, opts.len, rate, &opts.alphabet, opts.seed)
        }
        None => crate::generate::write_generated(
            &opts.output,
            opts.len,
            opts.len2,
            &opts.alphabet,
            opts.seed,
        ),
    }
}
