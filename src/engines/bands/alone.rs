//! `--band auto`'s first two fills side by side. They have the narrowest bands of a search
//! (`AUTO_START` and twice that), so split by columns the ranks would take their rows in turn
//! and a second rank would buy nothing. With two ranks or more, rank 0 fills the first band
//! and rank 1 the second, each alone, at the same time, and one all-reduce tells every rank
//! both answers. The search then goes on as ever: a band that proves itself is walked by the
//! rank that filled it, and one that does not only passes on its answer, so the bands filled
//! and the path are those of one rank, move for move. The second band is filled even when the
//! first proves itself or the search widens to another band; that costs rank 1 time in which it
//! would have waited, and the report counts the cells of the fills the search takes only.
//!
//! Cost: each of the two ranks one narrow fill of its own, no boundary message, one all-reduce.

use std::time::Instant;

use mpi::collective::SystemOperation;

use crate::comm::fault::{Fault, Phase};
use crate::comm::world::World;
use crate::engines::config::Switches;
use crate::engines::record::FillTimes;
use lcs_core::bands::checkpoint::Checkpoint;
use lcs_core::bands::local;
use lcs_core::bands::plan::BandPlan;
use lcs_core::bands::store::BandStore;
use lcs_core::diagonal_band::{Band, BandChoice, AUTO_START};

/// The two fills, rank 0's and rank 1's, and this rank's, kept for the walk.
pub struct Alone<'a> {
    /// Each fill's plan (one rank's, of its band) and answer.
    fills: [(BandPlan, usize); 2],
    /// This rank's band (ranks 0 and 1), filled, until the search takes it or moves past it.
    mine: Option<BandStore<'a>>,
}

/// A fill the search takes from [`Alone`]: its answer, and the plan and band the walk needs.
pub struct Taken<'a> {
    pub value: usize,
    /// One rank's plan of the fill's band.
    pub plan: BandPlan,
    /// The band, on the rank that filled it; nothing on the others.
    pub stores: Vec<BandStore<'a>>,
    /// The rank that filled it.
    pub owner: usize,
    /// The cells this rank computed for it: the band's on its owner, none elsewhere.
    pub cells: u64,
}

impl<'a> Alone<'a> {
    /// The two fills, when `plan` (every rank's) has two ranks or more, `choice` is `auto`, its
    /// search starts at `AUTO_START` on `first`, and a band twice as wide is not yet the whole
    /// matrix; `None` otherwise, without any communication (every rank decides alike).
    /// Collective. Adds this rank's time to `times`.
    pub fn run(
        world: &World,
        plan: &BandPlan,
        (first, choice): (Band, BandChoice),
        (x, y): (&'a [u8], &'a [u8]),
        (mode, switches): (Checkpoint, Switches),
        times: &mut FillTimes,
    ) -> Option<Alone<'a>> {
        let (m, n) = (plan.rows(), plan.cols());
        let second = Band::new(m, n, Some(2 * AUTO_START));
        let asked = choice == BandChoice::Auto && first.margin() == Some(AUTO_START);
        if plan.ranks() < 2 || !asked || second.is_whole() {
            return None;
        }
        let plans = [first, second].map(|band| plan.alone().with_band(band));
        let rank = world.rank() as usize;
        let started = Instant::now();
        let mine = plans.get(rank).map(|one| {
            if let Some(f) = Fault::for_rank(switches.fault, Phase::Fill, rank) {
                if f.step < m {
                    f.trigger(f.step);
                }
            }
            local::fill_alone(one, x, y, mode)
        });
        times.compute += started.elapsed().as_secs_f64();
        let mut values = [0u64; 2];
        if let Some((value, _)) = &mine {
            values[rank] = *value as u64;
        }
        let mut both = [0u64; 2];
        let started = Instant::now();
        switches.waiting().all_reduce_each(
            world,
            &values[..],
            &mut both[..],
            SystemOperation::max(),
        );
        times.wait_receive += started.elapsed().as_secs_f64();
        let [a, b] = plans;
        Some(Alone {
            fills: [(a, both[0] as usize), (b, both[1] as usize)],
            mine: mine.map(|(_, store)| store),
        })
    }

    /// The fill of `band`, if it is one of the two: on the rank that filled it with its band,
    /// elsewhere with its answer alone. Asked for another band (a search only widens), this
    /// rank's band is of no more use and is let go at once.
    pub fn take(&mut self, band: Band, rank: usize) -> Option<Taken<'a>> {
        let Some(owner) = self.fills.iter().position(|(p, _)| p.band() == band) else {
            self.mine = None;
            return None;
        };
        let (plan, value) = self.fills[owner];
        let (stores, cells) = match owner == rank {
            true => (
                self.mine.take().into_iter().collect(),
                plan.rank_computed_cells(0),
            ),
            false => (Vec::new(), 0),
        };
        Some(Taken {
            value,
            plan,
            stores,
            owner,
            cells,
        })
    }
}
