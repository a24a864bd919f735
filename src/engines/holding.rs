//! What one rank of a run will hold at its peak, beside what it holds already: the engine's
//! working memory, part by part, as the engine allocates it. Every engine describes its own
//! parts (the bands engine its band's masks, state, checkpoints, carries, seams and block; the
//! diagonal engine its store and its copy of a sequence); [`need`] adds what the rank holds
//! already and a margin for MPI's buffers, and the memory budget ([`super::budget`]) compares
//! that with the limit, before anything is allocated and, where a run grows as it goes (a
//! diagonal band widened), before each growth ([`Room`]).

// The parts are named and added up beside the algorithms that allocate them.
pub use lcs_core::holding::Holding;

/// Room left for the MPI library's buffers, which grow with the number of peers: a fixed part
/// and a fraction of the rest.
const MARGIN_FIXED: u64 = 1 << 20;
const MARGIN_PERCENT: u64 = 3;

/// What one rank will occupy at its peak, in bytes: `baseline` plus `working`, with the
/// margin.
pub fn need(baseline: u64, working: u64) -> u64 {
    let planned = baseline + working;
    planned + MARGIN_FIXED + planned * MARGIN_PERCENT / 100
}

/// The most working memory a rank that already occupies `baseline` can add to `working` and
/// still [`need`] no more than `limit`.
pub fn room(limit: u64, baseline: u64, working: u64) -> u64 {
    let planned = limit.saturating_sub(MARGIN_FIXED) * 100 / (100 + MARGIN_PERCENT);
    planned.saturating_sub(baseline + working)
}

/// What a rank may hold: the per-rank limit in force (none when none is known) and what the
/// rank occupied before its engine allocated anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Room {
    pub limit: Option<u64>,
    pub baseline: u64,
}

impl Room {
    /// What the rank will occupy holding `held`, and whether that fits.
    pub fn admits(&self, held: &Holding) -> (u64, bool) {
        let need = need(self.baseline, held.total());
        (need, self.limit.is_none_or(|l| need <= l))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_is_what_need_leaves() {
        for (limit, baseline, working) in [(100 << 20, 10 << 20, 5 << 20), (1 << 30, 0, 0)] {
            let room = room(limit, baseline, working);
            assert!(need(baseline, working + room) <= limit);
            assert!(need(baseline, working + room + 100) > limit);
        }
        assert_eq!(room(1 << 20, 0, 0), 0);
        assert_eq!(room(50 << 20, 60 << 20, 0), 0);
        let held = Holding::new().with("band", 10 << 20);
        let tight = Room {
            limit: Some(need(1 << 20, 10 << 20)),
            baseline: 1 << 20,
        };
        assert_eq!(tight.admits(&held), (need(1 << 20, 10 << 20), true));
        assert!(!tight.admits(&held.clone().with("more", 1)).1);
        let open = Room {
            limit: None,
            baseline: 0,
        };
        assert!(open.admits(&held).1);
    }
}
