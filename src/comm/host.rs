//! The cores the ranks on one host may use between them, found together once MPI has started:
//! the union of their CPU affinity masks (a launcher that binds each rank to a core of its own
//! leaves each rank a mask of one, yet the ranks have a core each), bounded by the smallest
//! CPU quota among their cgroups (ranks on a host normally share one). See `cpus`.

use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::cpus::{self, CpuSet};

/// How many of `world`'s ranks run on this rank's host, and the cores they may use there; the
/// cores are recorded for this process's reports ([`cpus::set_host_cores`]). Collective.
pub fn ranks_and_cores(world: &SimpleCommunicator) -> (usize, usize) {
    let host = world.split_shared(0);
    let mine = CpuSet::of_this_process().unwrap_or_else(|| {
        // No mask to be had: as many CPUs as the process counts, from the first.
        let mut set = CpuSet([0; CpuSet::WORDS]);
        for cpu in 0..cpus::process_cores().min(CpuSet::WORDS * 64) {
            set.0[cpu / 64] |= 1 << (cpu % 64);
        }
        set
    });
    let mut union = CpuSet([0; CpuSet::WORDS]);
    host.all_reduce_into(&mine.0[..], &mut union.0[..], SystemOperation::bitwise_or());
    let quota = cpus::quota_cores().map_or(u64::MAX, |q| q as u64);
    let mut smallest = u64::MAX;
    host.all_reduce_into(&quota, &mut smallest, SystemOperation::min());
    let quota = (smallest != u64::MAX).then_some(smallest as usize);
    let cores = cpus::usable(union.count(), quota);
    cpus::set_host_cores(cores);
    (host.size() as usize, cores)
}
