//! The bands engine's algorithms, with no MPI: the bit-parallel steps of [`crate::bitpar`] split
//! by columns into bands of whole 64-bit words, rows taken in batches of `B`; after each batch a
//! band hands the band on its right the carries of its rows (one bit per row for the LCS, two
//! for the edit distance), as one message when the bands are on different ranks. On similar
//! sequences a fill computes only a diagonal band ([`crate::diagonal_band`]), band after band
//! until one proves itself. The walk is the reference's, so the answer is the same byte for
//! byte. The MPI crate runs these bands one per rank, pipelined; here they run in one process
//! ([`local`]), and [`align()`] takes one pair's path as a one-rank run of the MPI engine does.
//!
//! [`plan`] says who owns which words and predicts the messages; [`kernel`] is each problem's row
//! step, [`advance`] a band's way through a batch, [`carry`] the packed carries; [`store`] holds a
//! band and what the traceback keeps (every bit, or checkpoints every `K` rows; on a diagonal
//! band only the rows' windows, [`kept`]), which [`checkpoint`] chooses and counts; [`walk`]
//! is the walk inside a band, [`local`] the whole engine in one process, [`align()`] its
//! entry for one pair; [`imported`] keeps batches a device computed.
//!
//! Cost per band of `w` words: `m * w` word steps, `ceil(m / B)` carry messages each way; the
//! walk `O(m + n)` steps plus any recompute (never more than one more fill), crossing at most
//! one edge per band. `docs/algorithms.md#the-bands-engine`.

pub mod advance;
pub mod align;
pub mod carry;
pub mod checkpoint;
pub mod imported;
pub mod kept;
pub mod kernel;
pub mod local;
pub mod plan;
pub mod store;
pub mod walk;

pub use align::{align, mode_within, Aligned};
pub use checkpoint::{
    estimate_bytes, holding, Checkpoint, CheckpointChoice, NoFit, AUTO_CHECKPOINT_ROWS,
};
pub use local::{answer, fill_alone, run_in_process, run_plan, run_search, InProcess};
pub use plan::{BandPlan, DEFAULT_BATCH};
pub use store::{BandStore, Exit, RecomputeStats};
