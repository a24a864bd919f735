//! Approximate search (`search`) over ranks: the problem and the kernels are
//! [`lcs_core::search`]'s; here the text (and, when it is short for the patterns, the patterns) is
//! split among the ranks as [`lcs_core::search::chunks`] plans it. [`scan`] is one rank's share,
//! without MPI (its units over its range of the text, the warm-up first, every match located),
//! and [`on_device`] the same on the rank's GPU; [`sharing`] lets ranks that have finished their
//! part of a plain text take the rest of others' as they go; [`strands`] adds each pattern's reverse
//! complement for `--both-strands`, before the plan;
//! [`run`] is the MPI run (rank 0 reads the patterns, every rank reads its own byte range of a text
//! all ranks see, the matches go to rank 0 in counted `control` messages), and [`record`] what
//! each rank did, gathered on rank 0. Memory per rank is bounded whatever the text's size.
//! `docs/algorithms.md#approximate-search`.

pub mod on_device;
pub mod record;
pub mod run;
pub mod scan;
pub mod sharing;
pub mod strands;
