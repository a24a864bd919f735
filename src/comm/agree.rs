//! Deciding a failure over all ranks: one reduction, after which every rank returns the error
//! together, and one rank says what it was.

use mpi::collective::SystemOperation;

use crate::comm::waiting::Waiting;
use crate::comm::world::World;
use crate::error::Error;

/// Decides `result` over all ranks: every rank returns an error if one met one. Of the ranks
/// that met one, the one with the highest exit status, and of those the lowest rank, says it
/// (rank 0 through the caller, which prints its errors; another here, with its rank), so that
/// a failure every rank met is told once; the others get [`Error::Peer`] with that status.
/// Collective.
pub fn agree<T>(world: &World, waiting: Waiting, result: Result<T, Error>) -> Result<T, Error> {
    let rank = world.rank() as u64;
    let mine = failure_word(&result, rank);
    let mut worst = 0u64;
    waiting.all_reduce(world, &mine, &mut worst, SystemOperation::max());
    settle(result, worst, rank)
}

/// What `rank`'s `result` adds to [`agree`]'s maximum: 0 for none, else its exit status above
/// its rank (the highest status first, then the lowest rank: one maximum of both). Below
/// `1 << 40`.
pub fn failure_word<T>(result: &Result<T, Error>, rank: u64) -> u64 {
    match result {
        Ok(_) => 0,
        Err(e) => u64::from(e.exit_code()) << 32 | (u64::from(u32::MAX) - rank),
    }
}

/// `result` once the ranks' [`failure_word`]s have their maximum `worst`: as [`agree`]
/// returns it.
pub fn settle<T>(result: Result<T, Error>, worst: u64, rank: u64) -> Result<T, Error> {
    let (status, teller) = (
        (worst >> 32) as u8,
        u64::from(u32::MAX) - (worst & 0xffff_ffff),
    );
    match result {
        Ok(value) if worst == 0 => Ok(value),
        Err(e) if teller == rank && rank == 0 => Err(e),
        Err(e) if teller == rank => {
            crate::error::say(&format!("mpi-lcs: error: rank {rank}: {e:#}"));
            Err(Error::Peer(status))
        }
        _ => Err(Error::Peer(status)),
    }
}
