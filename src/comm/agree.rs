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
    let code = result
        .as_ref()
        .err()
        .map_or(0, |e| u64::from(e.exit_code()));
    let rank = world.rank() as u64;
    // The highest status first, then the lowest rank: one maximum of both.
    let mine = match code {
        0 => 0,
        _ => code << 32 | (u64::from(u32::MAX) - rank),
    };
    let mut worst = 0u64;
    waiting.all_reduce(world, &mine, &mut worst, SystemOperation::max());
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
