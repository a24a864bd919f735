//! Many pairs (`pairs`) over ranks: the edit distance or the LCS length of every pair of two
//! files of sequences (or of every two sequences of one), shared among the ranks so that they
//! finish together whatever the lengths.
//!
//! The kernels and the plan are `lcs_core::pairs`'s: both sides sorted by length, the lane
//! side cut into units (vectors of lanes, or one long sequence), the (unit, target) items
//! ordered, and the order cut into one contiguous share per rank by estimated cost. Every rank
//! computes the same plan from the broadcast lengths, so the values a rank sends need no
//! labels: rank 0 knows whose they are from the plan.
//!
//! - [`run`] — the MPI run: rank 0 reads the files and broadcasts the sequences, every rank
//!   checks the memory it will need and computes its share, the values go to rank 0 in counted
//!   `control` messages, and the ranks' records ([`record`]) are gathered;
//! - [`assemble`] — what rank 0 keeps of the values: the dense matrix (every pair's value, in
//!   place as it arrives), or the pairs within the bound, and the memory that takes.

pub mod assemble;
pub mod passing;
pub mod record;
pub mod run;
