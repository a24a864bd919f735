//! The PAF line of a solved pair: its alignment with the input's record names.

use lcs_core::alignment::Alignment;
use lcs_core::problem::Path;

use crate::input::Pair;

/// The PAF line of `pair`'s alignment by `path`, with its newline: the FASTA records' names
/// byte for byte (or `x` and `y`), the file's first sequence as the query.
pub fn paf_line(pair: &Pair, path: &Path) -> Vec<u8> {
    let (query, target) = pair.in_file_order();
    let [qname, tname] = &pair.names;
    let mut line =
        Alignment::of_path(path, pair.swapped).paf((qname, query.len()), (tname, target.len()));
    line.push(b'\n');
    line
}
