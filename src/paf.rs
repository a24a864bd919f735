//! The PAF line of a solved pair: its alignment with the input's record names.

use lcs_core::alignment::Alignment;
use lcs_core::problem::Path;

use crate::input::Pair;

/// The PAF line of `pair`'s alignment by `path`, with its newline: the FASTA records' names
/// (or `x` and `y`), the file's first sequence as the query.
pub fn paf_line(pair: &Pair, path: &Path) -> String {
    let (query, target) = pair.in_file_order();
    let [qname, tname] = &pair.names;
    let line = Alignment::of_path(path, pair.swapped).paf(
        (qname.as_str(), query.len()),
        (tname.as_str(), target.len()),
    );
    line + "\n"
}
