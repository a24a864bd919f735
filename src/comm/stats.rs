//! Gathering to rank 0 what every rank measured and recorded: its record of counts and times
//! (one fixed-size record, of a type each engine declares beside itself: `RankStats` for
//! `solve`, `RankSearch`, `RankPairs`), its boundary messages per target, and, for a recorded
//! run, its events, values (or a bands run's steps and timeline) and walk. These are MPI
//! collectives, whose internal traffic depends on the MPI library; they are not counted as
//! messages. Records travel as plain 64-bit words ([`Words`]).

use crate::comm::world::World;

use crate::comm::trace::{CellValue, Event, EventWire, Recording};
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::comm::words::Words;

/// Everything gathered on rank 0: every rank's record `R`, in rank order, and its messages.
pub struct Gathered<R> {
    pub stats: Vec<R>,
    /// `pairs[from][to]`: boundary messages.
    pub pairs: Vec<Vec<u64>>,
    pub recording: Option<Recording>,
}

/// Gathers every rank's record `stats` with its boundary messages (and recording, when the run
/// was recorded) to rank 0. Collective: every rank calls it; rank 0 gets `Some`.
pub fn gather<R: Words>(
    world: &World,
    stats: &R,
    traffic: &Traffic,
    waiting: Waiting,
) -> Option<Gathered<R>> {
    let ranks = world.size() as usize;
    let is_root = world.rank() == 0;
    let mut mine = Vec::with_capacity(R::WORDS);
    stats.put(&mut mine);
    let mut all_stats = vec![0u64; if is_root { ranks * R::WORDS } else { 0 }];
    let mut all_pairs = vec![0u64; if is_root { ranks * ranks } else { 0 }];
    let (stats_in, pairs_in) = if is_root {
        (Some(&mut all_stats[..]), Some(&mut all_pairs[..]))
    } else {
        (None, None)
    };
    waiting.gather(world, &mine[..], stats_in);
    waiting.gather(world, &traffic.boundary_to[..], pairs_in);
    let recording = traffic.recording.as_ref().map(|r| {
        let events: Vec<EventWire> = r.events.iter().map(EventWire::from).collect();
        let walk: Vec<CellValue> = r
            .walk
            .iter()
            .map(|&(i, j)| CellValue { i, j, value: 0 })
            .collect();
        let events = gather_varcount(world, &events, waiting);
        let values = gather_varcount(world, &r.values, waiting);
        let deltas = gather_varcount(world, &r.deltas, waiting);
        let spans = gather_varcount(world, &r.spans, waiting);
        let walk = gather_varcount(world, &walk, waiting);
        Some(Recording {
            events: events?.iter().map(Event::from).collect(),
            values: values?,
            deltas: deltas?,
            spans: spans?,
            walk: walk?.iter().map(|c| (c.i, c.j)).collect(),
        })
    });
    if !is_root {
        return None;
    }
    let mut recording = recording.flatten();
    if let Some(r) = &mut recording {
        r.order();
    }
    Some(Gathered {
        stats: all_stats.chunks(R::WORDS).map(R::take).collect(),
        pairs: all_pairs.chunks(ranks).map(<[u64]>::to_vec).collect(),
        recording,
    })
}

/// Gathers a different number of records from every rank to rank 0, in rank order.
pub fn gather_varcount<T: Words>(world: &World, records: &[T], waiting: Waiting) -> Option<Vec<T>> {
    let mut local = Vec::with_capacity(records.len() * T::WORDS);
    for record in records {
        record.put(&mut local);
    }
    let all = waiting.gather_words(world, &local)?.concat();
    Some(all.chunks(T::WORDS).map(T::take).collect())
}
