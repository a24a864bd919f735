//! What a run is asked to do: the problem, the engine and its settings, and the switches that
//! change how it runs but not what it computes.

use lcs_core::diagonal_band::BandChoice;
use lcs_core::problem::Problem;

use crate::comm::fault::Fault;
use crate::comm::waiting::Waiting;
use crate::engines::device::Placement;
use crate::engines::diagonal::store::StoreKind;
use crate::progress::Show;
use lcs_core::bands::CheckpointChoice;

/// Which engine a run uses, with its settings: only valid combinations can be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Diagonal {
        store: StoreKind,
    },
    Bands {
        batch: usize,
        checkpoint: CheckpointChoice,
        /// The diagonal band (`--band`).
        band: BandChoice,
    },
    /// Diagonal transition: each score step's furthest rows, split by diagonals. With a
    /// `cut_off` (`--engine auto`'s guard against an estimate too low), the fill stops at that
    /// step if it has not found the end, and the bands engine runs instead.
    Wave {
        cut_off: Option<usize>,
        halo: HaloSteps,
    },
    /// The bands or the wave engine, chosen per pair (the bands engine's settings, should it
    /// be chosen).
    Auto {
        batch: usize,
        checkpoint: CheckpointChoice,
        band: BandChoice,
        /// The wave engine's setting, should it be chosen.
        halo: HaloSteps,
    },
}

/// How many score steps the wave engine's ranks compute between two halo exchanges
/// (`--halo-steps`): each exchange then carries the diagonals a neighbour reads over that many
/// steps, which both compute (ghost zones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HaloSteps {
    /// As many as pay on this run's ranks ([`HaloSteps::steps`]).
    #[default]
    Auto,
    /// At most this many (at least 1: an exchange after every step).
    Most(usize),
}

/// The steps `--halo-steps auto` takes between two exchanges, at most. Each exchange costs a
/// message's latency each way and its wait for the slower neighbour; each step more in a block
/// costs about one diagonal computed again each side per step, and a checkpoint inside a block
/// its halo's diagonals over the steps before it. At 64 the repeated diagonals are a few
/// percent of a 1% pair's wave and the exchanges `s / 64`; what the choice measured across two
/// network namespaces and on one host: `docs/performance.md` (the wave engine's paragraph).
pub const AUTO_HALO_STEPS: usize = 64;

impl HaloSteps {
    /// The most steps between two exchanges.
    pub fn steps(self) -> usize {
        match self {
            HaloSteps::Auto => AUTO_HALO_STEPS,
            HaloSteps::Most(h) => h.max(1),
        }
    }
}

/// Switches that change how the engine runs, not what it computes: the tests' faults and
/// synchronous sends, and how ranks wait for messages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Switches {
    pub fault: Option<Fault>,
    pub synchronous_sends: bool,
    /// How ranks wait: a choice made by the caller, else (`None`) chosen from the host's
    /// ranks and cores once MPI has started.
    pub waiting: Option<Waiting>,
    /// The ranks span more than one host (found once MPI has started): `--engine auto`'s
    /// model counts a network's latency for each message.
    pub several_hosts: bool,
}

impl Switches {
    /// How ranks wait (inside MPI until a choice is made).
    pub fn waiting(&self) -> Waiting {
        self.waiting.unwrap_or(Waiting::Spin)
    }
}

/// How a rank runs one pair.
#[derive(Debug, Clone, Copy)]
pub struct RunConfig {
    pub problem: Problem,
    pub method: Method,
    pub switches: Switches,
    /// Record every message, value and walk cell (for traces and pictures).
    pub recording: bool,
    /// Show a progress bar on rank 0, as this says.
    pub progress: Option<Show>,
    /// Where the run asked the bands engine to compute (`--device`; the same on every rank,
    /// whichever rank found a device).
    pub device: Placement,
}
