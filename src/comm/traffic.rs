//! Counting a rank's messages as they happen: per kind, sent and received, messages and bytes,
//! and the boundary messages per target rank (a row of the report's `pairs`). When the run is
//! recorded (a trace or a picture was asked for), every message is also logged as an event.
//!
//! Counting costs two additions per message; recording is off unless asked for.

use serde::{Deserialize, Serialize};

use crate::comm::protocol::Kind;
use crate::comm::trace::{Event, Recording};
use crate::comm::words::record;
// The predicted counts are plain arithmetic on a plan, beside the algorithms.
pub use lcs_core::traffic::Predicted;

record! {
    /// Counts per message kind.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
    pub struct PerKind {
        pub boundary: u64,
        pub traceback: u64,
        pub control: u64,
    }
}

record! {
    /// A rank's control messages and their bytes, sent and received: all that the ranks of a
    /// search or of a pairs run send one another.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct Control {
        pub sent: u64,
        pub sent_bytes: u64,
        pub received: u64,
        pub received_bytes: u64,
    }
}

impl PerKind {
    /// `n` control messages (or bytes), and none of the other kinds.
    pub fn control(n: u64) -> PerKind {
        PerKind {
            control: n,
            ..PerKind::default()
        }
    }

    pub fn get(&self, kind: Kind) -> u64 {
        match kind {
            Kind::Boundary => self.boundary,
            Kind::Traceback => self.traceback,
            Kind::Control => self.control,
        }
    }

    fn slot(&mut self, kind: Kind) -> &mut u64 {
        match kind {
            Kind::Boundary => &mut self.boundary,
            Kind::Traceback => &mut self.traceback,
            Kind::Control => &mut self.control,
        }
    }

    pub fn total(&self) -> u64 {
        self.boundary + self.traceback + self.control
    }

    /// The sum of `items`, kind by kind.
    pub fn sum<'a>(items: impl IntoIterator<Item = &'a PerKind>) -> PerKind {
        items.into_iter().fold(PerKind::default(), |a, b| PerKind {
            boundary: a.boundary + b.boundary,
            traceback: a.traceback + b.traceback,
            control: a.control + b.control,
        })
    }
}

/// One rank's traffic.
#[derive(Debug, Clone, Default)]
pub struct Traffic {
    pub rank: usize,
    pub sent: PerKind,
    pub sent_bytes: PerKind,
    pub received: PerKind,
    pub received_bytes: PerKind,
    /// Boundary messages this rank sent to each rank.
    pub boundary_to: Vec<u64>,
    /// What a recorded run keeps: every message, and the values and walk for pictures.
    pub recording: Option<Recording>,
}

impl Traffic {
    pub fn new(rank: usize, ranks: usize, recording: bool) -> Traffic {
        Traffic {
            rank,
            boundary_to: vec![0; ranks],
            recording: recording.then(Recording::default),
            ..Traffic::default()
        }
    }

    /// Counts a message sent to `to`; `cell` is the cell it concerns (the boundary cell, or
    /// the next cell of the walk).
    pub fn sent(&mut self, kind: Kind, to: usize, bytes: usize, cell: Option<(usize, usize)>) {
        *self.sent.slot(kind) += 1;
        *self.sent_bytes.slot(kind) += bytes as u64;
        if kind == Kind::Boundary {
            self.boundary_to[to] += 1;
        }
        if let Some(recording) = &mut self.recording {
            recording
                .events
                .push(Event::new(kind, self.rank, to, cell, bytes));
        }
    }

    /// Counts a message received.
    pub fn received(&mut self, kind: Kind, bytes: usize) {
        *self.received.slot(kind) += 1;
        *self.received_bytes.slot(kind) += bytes as u64;
    }

    /// The control messages counted, and their bytes.
    pub fn control(&self) -> Control {
        Control {
            sent: self.sent.control,
            sent_bytes: self.sent_bytes.control,
            received: self.received.control,
            received_bytes: self.received_bytes.control,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_kind_and_target_and_records_when_asked() {
        let mut t = Traffic::new(1, 3, true);
        t.sent(Kind::Boundary, 2, 4, Some((3, 4)));
        t.sent(Kind::Boundary, 0, 4, Some((3, 5)));
        t.sent(Kind::Traceback, 0, 19, Some((2, 2)));
        t.received(Kind::Control, 0);
        assert_eq!(t.sent.boundary, 2);
        assert_eq!(t.sent_bytes.get(Kind::Traceback), 19);
        assert_eq!(t.boundary_to, vec![1, 0, 1]);
        assert_eq!(t.received.control, 1);
        let events = &t.recording.as_ref().unwrap().events;
        assert_eq!(events.len(), 3);
        assert_eq!(events[0].diagonal, Some(7));
        let quiet = Traffic::new(0, 1, false);
        assert!(quiet.recording.is_none());
        let total = PerKind::sum([&t.sent, &t.sent]);
        assert_eq!((total.boundary, total.traceback, total.total()), (4, 2, 6));
    }
}
