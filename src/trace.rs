//! The message trace: one record per message a run sent, for teaching and for checking the
//! counts by hand.
//!
//! Recording is off unless `solve --trace` or `--svg` asks for it, and refused above
//! [`MAX_TRACE_CELLS`] cells, since a trace holds one record per boundary cell. Each rank
//! records what it sends; rank 0 gathers the records, sorts them by (phase, diagonal, sender)
//! and writes them as CSV.

use std::fmt::Write as _;

use serde::Serialize;

/// Largest matrix (in cells) a trace may be recorded for.
pub const MAX_TRACE_CELLS: u64 = 1_000_000;

/// The phase a message belongs to; the order is the order of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// A boundary value of the fill.
    Fill,
    /// A hop of the traceback walk.
    Traceback,
    /// The LCS delivered to rank 0, or an end-of-walk notice.
    Control,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Fill => "fill",
            Phase::Traceback => "traceback",
            Phase::Control => "control",
        }
    }

    fn code(self) -> u64 {
        self as u64
    }

    fn from_code(code: u64) -> Phase {
        match code {
            0 => Phase::Fill,
            1 => Phase::Traceback,
            _ => Phase::Control,
        }
    }
}

/// One message. `cell` is the cell whose value a fill message carries, or the next cell of the
/// walk for a traceback hop; control messages have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Event {
    pub phase: Phase,
    /// Diagonal of `cell` (none for control messages).
    pub diagonal: Option<u64>,
    pub from: usize,
    pub to: usize,
    pub cell: Option<(u64, u64)>,
    pub bytes: u64,
}

/// Words one event takes when gathered (phase, diagonal, from, to, i, j, bytes).
pub const WORDS: usize = 7;
const NONE: u64 = u64::MAX;

impl Event {
    pub fn to_words(&self) -> [u64; WORDS] {
        let (i, j) = self.cell.unwrap_or((NONE, NONE));
        [
            self.phase.code(),
            self.diagonal.unwrap_or(NONE),
            self.from as u64,
            self.to as u64,
            i,
            j,
            self.bytes,
        ]
    }

    pub fn from_words(w: &[u64]) -> Event {
        let some = |v: u64| (v != NONE).then_some(v);
        Event {
            phase: Phase::from_code(w[0]),
            diagonal: some(w[1]),
            from: w[2] as usize,
            to: w[3] as usize,
            cell: some(w[4]).zip(some(w[5])),
            bytes: w[6],
        }
    }
}

/// Sorts events by (phase, diagonal, sender), keeping each sender's order within a diagonal.
pub fn sort(events: &mut [Event]) {
    events.sort_by_key(|e| (e.phase, e.diagonal, e.from));
}

/// The trace as CSV: a header, then one line per message.
pub fn to_csv(events: &[Event]) -> String {
    let mut out = String::from("phase,diagonal,from,to,i,j,bytes\n");
    let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    for e in events {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{}",
            e.phase.name(),
            opt(e.diagonal),
            e.from,
            e.to,
            opt(e.cell.map(|c| c.0)),
            opt(e.cell.map(|c| c.1)),
            e.bytes
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip_through_words_and_sort_by_phase_diagonal_sender() {
        let a = Event {
            phase: Phase::Traceback,
            diagonal: Some(3),
            from: 1,
            to: 0,
            cell: Some((1, 2)),
            bytes: 18,
        };
        let b = Event {
            phase: Phase::Fill,
            diagonal: Some(7),
            from: 2,
            to: 1,
            cell: Some((4, 3)),
            bytes: 4,
        };
        let c = Event {
            phase: Phase::Control,
            diagonal: None,
            from: 0,
            to: 1,
            cell: None,
            bytes: 0,
        };
        for e in [a, b, c] {
            assert_eq!(Event::from_words(&e.to_words()), e);
        }
        let mut events = vec![c, a, b];
        sort(&mut events);
        assert_eq!(events, vec![b, a, c]);
        let csv = to_csv(&events);
        assert_eq!(
            csv,
            "phase,diagonal,from,to,i,j,bytes\nfill,7,2,1,4,3,4\ntraceback,3,1,0,1,2,18\ncontrol,,0,1,,,0\n"
        );
    }
}
