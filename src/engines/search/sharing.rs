//! The text shared out as the ranks go (`--split shared`), where every rank searches every
//! pattern in a part of a plain text: a rank slowed by its host (a busy core, a slower machine)
//! hands the rest of its part to the ranks that are not, and the search ends when the text
//! does, not when the slowest rank's part does.
//!
//! 1. Each rank scans its own part from its start.
//! 2. Every [`PIECE`] bytes it answers the asks that have come: to each in turn, the second
//!    half of what it has not scanned yet, when that is at least [`LEAST_GIVEN`], else nothing.
//! 3. A rank with nothing left asks the other ranks in turn, from the next one on, and waits
//!    for the answer, meanwhile answering the asks it gets with nothing. What it is given it
//!    scans as its own (step 1), and then asks the same rank again; after an answer of nothing
//!    it asks the next.
//! 4. A rank that every other has answered with nothing is done. The ranks leave together
//!    through a non-blocking barrier, each answering every ask with nothing until the last rank
//!    is done. A rank asks only while it is not done, and is done only once it has its answer,
//!    so no ask is left unanswered.
//!
//! Answers go as buffered sends (`MPI_Bsend`, into the buffer attached when MPI starts), which
//! never wait for their receiver: two ranks that ask each other at once each answer the
//! other, whatever the library's eager limit. Every ask and answer is a counted `control`
//! message. A rank whose scan fails, or has found more matches than it may keep, stops
//! scanning and asking and answers nothing; the run then ends as a failed scan does.
//!
//! The matches are the same whatever the split: a piece is scanned with its warm-up, the text
//! before it that a match ending in it may start in, as a rank's part is.

use std::io;
use std::ops::Range;
use std::time::Duration;

use lcs_core::search::chunks::Grid;
use mpi::traits::*;

use crate::comm::protocol::search::{given_of, given_words};
use crate::comm::protocol::{tag, Kind};
use crate::comm::traffic::Traffic;
use crate::comm::waiting::Waiting;
use crate::comm::world::World;
use crate::engines::device::Placement;
use crate::engines::search::scan::{search_shrinking, Found, Task};
use crate::input::text::{self, TextFile};
use crate::input::Format;

/// How the ranks split a plain text among them (`--split`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Split {
    /// Each rank its own part, then half of another's rest as they go (this module).
    Shared,
    /// Each rank its own part.
    Static,
}

impl Split {
    pub fn name(self) -> &'static str {
        match self {
            Split::Shared => "shared",
            Split::Static => "static",
        }
    }

    /// The split a run asked for this one makes: shared only where every rank searches every
    /// pattern (one pattern part) in a part of a plain text on the CPU. Asked of the run, not
    /// of the rank: with `--device auto` some ranks may find a GPU and others not, and every
    /// rank must share or none.
    pub fn for_run(self, ranks: usize, placement: Placement, format: Format, grid: Grid) -> Split {
        let shares = ranks > 1
            && placement == Placement::Cpu
            && format == Format::Plain
            && grid.pattern_parts == 1;
        match self {
            Split::Shared if shares => Split::Shared,
            _ => Split::Static,
        }
    }
}

/// Text bytes scanned between two looks for asks: four blocks of the scan, so an ask waits
/// about as long as four blocks take for its answer, and the looks cost nothing beside them.
pub const PIECE: u64 = 256 << 10;

/// The least a rank gives: below two pieces, it scans the rest itself.
pub const LEAST_GIVEN: u64 = 2 * PIECE;

/// Bytes of text a rank handed to others, and took from them.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Shared {
    pub given: u64,
    pub taken: u64,
}

/// A rank's side of the sharing. Collective: every rank of the world makes one, scans the parts
/// [`Sharing::next`] hands it, looking for asks as it goes ([`Sharing::end_at`]), until `next`
/// says the ranks are done, which they learn together.
pub struct Sharing<'a, 'w> {
    world: &'a World<'w>,
    waiting: Waiting,
    traffic: &'a mut Traffic,
    /// What the rank has not scanned yet of the part it scans.
    queue: Range<u64>,
    /// Where it last looked for asks.
    looked: u64,
    /// The ranks it has still to ask, in turn.
    asking: std::ops::Range<usize>,
    /// Its own part, until handed to the scan.
    mine: Option<Range<u64>>,
    pub shared: Shared,
}

impl<'a, 'w> Sharing<'a, 'w> {
    pub fn new(
        world: &'a World<'w>,
        waiting: Waiting,
        traffic: &'a mut Traffic,
        mine: Range<u64>,
    ) -> Sharing<'a, 'w> {
        Sharing {
            world,
            waiting,
            traffic,
            queue: mine.start..mine.start,
            looked: mine.start,
            asking: 1..world.size() as usize,
            mine: Some(mine),
            shared: Shared::default(),
        }
    }

    /// The next part to scan: the rank's own first, then what other ranks give it; `None`
    /// once the ranks are done (they have left together). `going` false (the rank's scan has
    /// failed, or may keep no more matches) asks for nothing more.
    pub fn next(&mut self, going: bool) -> Option<Range<u64>> {
        if let Some(mine) = self.mine.take().filter(|m| going && !m.is_empty()) {
            return Some(self.scanning(mine));
        }
        let rank = self.world.rank() as usize;
        let ranks = self.world.size() as usize;
        // The next rank to ask, until it answers nothing.
        while let Some(d) = self.asking.clone().next().filter(|_| going) {
            let given = self.ask((rank + d) % ranks);
            if !given.is_empty() {
                self.shared.taken += given.end - given.start;
                return Some(self.scanning(given));
            }
            self.asking.next();
        }
        self.queue = self.queue.end..self.queue.end;
        self.leave();
        None
    }

    fn scanning(&mut self, part: Range<u64>) -> Range<u64> {
        self.queue = part.clone();
        self.looked = part.start;
        part
    }

    /// Where the part being scanned ends now that the scan has reached `at`: every [`PIECE`]
    /// bytes, the asks that have come are answered, which may give its end away.
    pub fn end_at(&mut self, at: u64) -> u64 {
        self.queue.start = at.min(self.queue.end);
        if at >= self.looked + PIECE {
            self.looked = at;
            self.shared.given += answer(self.world, self.traffic, &mut self.queue);
        }
        self.queue.end
    }

    /// Asks rank `asked` for part of its text and waits for the answer, answering the asks
    /// that come meanwhile with nothing. Returns the part given (empty for none).
    fn ask(&mut self, asked: usize) -> Range<u64> {
        let (world, traffic) = (self.world, &mut *self.traffic);
        let none: [u64; 0] = [];
        let process = world.process_at_rank(asked as i32);
        process.buffered_send_with_tag(&none[..], tag::SHARE_ASK);
        traffic.sent(Kind::Control, asked, 0, None);
        let words = self.waiting.until(|| {
            answer(world, traffic, &mut (0..0));
            let probed = process.immediate_matched_probe_with_tag(tag::SHARE_GIVE)?;
            Some(probed.matched_receive_vec::<u64>().0)
        });
        traffic.received(Kind::Control, 8 * words.len());
        // A malformed answer gives nothing: the rank asks the next one.
        given_of(&words).unwrap_or(0..0)
    }

    /// Waits for every rank to be done, answering every ask with nothing meanwhile.
    fn leave(&mut self) {
        let Some(communicator) = self.world.mpi() else {
            return;
        };
        let (world, traffic) = (self.world, &mut *self.traffic);
        let mut barrier = Some(communicator.immediate_barrier());
        self.waiting.until(|| {
            answer(world, traffic, &mut (0..0));
            match barrier.take()?.test() {
                Ok(_) => Some(()),
                Err(pending) => {
                    barrier = Some(pending);
                    None
                }
            }
        });
    }
}

/// What a rank scans its pieces of the text with: the text open, its description, the task,
/// and a planted slowness (`slow:RANK:MS`), a sleep after each block.
pub type Pieces<'a> = (
    &'a text::Source,
    &'a TextFile,
    &'a Task<'a>,
    Option<Duration>,
);

/// A rank's scan of a plain text shared as the ranks go: its part `mine`, then what others
/// give, each part searched from its warm-up, until the ranks are done. Collective.
pub fn scan(
    world: &World,
    waiting: Waiting,
    traffic: &mut Traffic,
    (file, text, task, slow): Pieces<'_>,
    mine: Range<u64>,
) -> (io::Result<Found>, Shared) {
    let mut found = Found::default();
    let mut failed = None;
    let mut sharing = Sharing::new(world, waiting, traffic, mine);
    let mut going = true;
    while let Some(part) = sharing.next(going) {
        let room = Task {
            most_matches: task.most_matches.saturating_sub(found.matches.len()),
            ..*task
        };
        let mut end = |at: u64| {
            if let Some(pause) = slow {
                std::thread::sleep(pause);
            }
            sharing.end_at(at)
        };
        match search_shrinking(file, text, part, &room, &mut end) {
            Ok(part) => found.absorb(part),
            Err(e) => failed = Some(e),
        }
        going = failed.is_none() && !found.too_many;
    }
    let shared = sharing.shared;
    match failed {
        Some(e) => (Err(e), shared),
        None => (Ok(found), shared),
    }
}

/// Answers every ask that has come, each in turn: the second half of what is left of `queue`,
/// when at least [`LEAST_GIVEN`], else nothing. Returns the bytes given.
fn answer(world: &World, traffic: &mut Traffic, queue: &mut Range<u64>) -> u64 {
    let mut given = 0;
    while let Some(probed) = world
        .any_process()
        .immediate_matched_probe_with_tag(tag::SHARE_ASK)
    {
        let (_, status) = probed.matched_receive_vec::<u64>();
        traffic.received(Kind::Control, 0);
        let left = queue.end - queue.start;
        let part = match left >= LEAST_GIVEN {
            true => {
                let middle = queue.start + left / 2;
                let part = middle..queue.end;
                queue.end = middle;
                given += left - left / 2;
                part
            }
            false => queue.end..queue.end,
        };
        let asker = status.source_rank();
        let words = given_words(&part);
        world
            .process_at_rank(asker)
            .buffered_send_with_tag(&words[..], tag::SHARE_GIVE);
        traffic.sent(Kind::Control, asker as usize, 16, None);
    }
    given
}
