//! The recording of a run, for teaching and for checking counts by hand: every message sent,
//! and, for pictures, every computed value and every cell of the traceback walk.
//!
//! Recording is off unless `solve --trace` or a picture asks for it, and refused above
//! [`MAX_TRACE_CELLS`] cells, since a trace holds one event per boundary cell. Each rank records
//! what it sends, computes and walks; rank 0 gathers the recordings and orders them: boundary
//! messages by diagonal and sender, then the traceback hops and the walk in walk order (the
//! walk's diagonal `i + j` falls at every step), then the control messages. The trace is
//! written as CSV with the columns of [`Event`].

use serde::{Deserialize, Serialize};

use crate::engine::protocol::Kind;

/// Largest matrix (in cells) a run may be recorded for.
pub const MAX_TRACE_CELLS: u64 = 1_000_000;

/// One message. `i, j` is the cell whose value a boundary message carries, or the next cell of
/// the walk for a traceback hop; control messages have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub kind: Kind,
    /// Diagonal `i + j` of the cell.
    pub diagonal: Option<u64>,
    pub from: usize,
    pub to: usize,
    pub i: Option<u64>,
    pub j: Option<u64>,
    pub bytes: u64,
}

impl Event {
    pub fn new(
        kind: Kind,
        from: usize,
        to: usize,
        cell: Option<(usize, usize)>,
        bytes: usize,
    ) -> Event {
        Event {
            kind,
            diagonal: cell.map(|(i, j)| (i + j) as u64),
            from,
            to,
            i: cell.map(|c| c.0 as u64),
            j: cell.map(|c| c.1 as u64),
            bytes: bytes as u64,
        }
    }

    /// The cell the message concerns.
    pub fn cell(&self) -> Option<(usize, usize)> {
        Some((self.i? as usize, self.j? as usize))
    }
}

/// A computed value `M[i][j]`, as recorded by the rank that computed it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CellValue {
    pub i: u64,
    pub j: u64,
    pub value: u64,
}

/// What one rank recorded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recording {
    pub events: Vec<Event>,
    /// The values this rank computed (only when a picture needs them).
    pub values: Vec<CellValue>,
    /// The cells of the walk this rank visited.
    pub walk: Vec<(u64, u64)>,
}

impl Recording {
    /// Puts gathered recordings in the order of the run (see the module doc).
    pub fn order(&mut self) {
        let walk_order = |e: &Event| std::cmp::Reverse(e.diagonal);
        self.events.sort_by(|a, b| {
            a.kind.cmp(&b.kind).then_with(|| match a.kind {
                Kind::Boundary => (a.diagonal, a.from).cmp(&(b.diagonal, b.from)),
                Kind::Traceback => walk_order(a).cmp(&walk_order(b)),
                Kind::Control => (a.from, a.to).cmp(&(b.from, b.to)),
            })
        });
        self.walk.sort_by_key(|&(i, j)| std::cmp::Reverse(i + j));
        self.values.sort_by_key(|v| (v.i, v.j));
    }

    /// The recorded values as a full table `M[i][j]` of `rows x cols` (cells nobody recorded
    /// are 0).
    pub fn value_table(&self, rows: usize, cols: usize) -> Vec<Vec<u32>> {
        let mut table = vec![vec![0u32; cols]; rows];
        for v in &self.values {
            table[v.i as usize][v.j as usize] = v.value as u32;
        }
        table
    }
}

/// The trace as CSV: a header, then one line per message.
pub fn to_csv(events: &[Event]) -> Result<Vec<u8>, csv::Error> {
    let mut out = csv::Writer::from_writer(Vec::new());
    for e in events {
        out.serialize(e)?;
    }
    // An empty trace still names its columns.
    if events.is_empty() {
        out.write_record(["kind", "diagonal", "from", "to", "i", "j", "bytes"])?;
    }
    out.into_inner().map_err(|e| e.into_error().into())
}

/// An event as a fixed-size record, for gathering to rank 0 (`NONE` stands for a missing
/// field).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventWire {
    pub kind: u64,
    pub diagonal: u64,
    pub from: u64,
    pub to: u64,
    pub i: u64,
    pub j: u64,
    pub bytes: u64,
}

const NONE: u64 = u64::MAX;

impl From<&Event> for EventWire {
    fn from(e: &Event) -> EventWire {
        EventWire {
            kind: e.kind as u64,
            diagonal: e.diagonal.unwrap_or(NONE),
            from: e.from as u64,
            to: e.to as u64,
            i: e.i.unwrap_or(NONE),
            j: e.j.unwrap_or(NONE),
            bytes: e.bytes,
        }
    }
}

impl From<&EventWire> for Event {
    fn from(w: &EventWire) -> Event {
        let some = |v: u64| (v != NONE).then_some(v);
        Event {
            kind: Kind::ALL[(w.kind as usize).min(Kind::ALL.len() - 1)],
            diagonal: some(w.diagonal),
            from: w.from as usize,
            to: w.to as usize,
            i: some(w.i),
            j: some(w.j),
            bytes: w.bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: Kind, from: usize, to: usize, cell: Option<(usize, usize)>) -> Event {
        Event::new(kind, from, to, cell, 4)
    }

    #[test]
    fn events_round_trip_and_order_as_the_run() {
        let hop_late = event(Kind::Traceback, 1, 0, Some((1, 2)));
        let hop_early = event(Kind::Traceback, 2, 1, Some((5, 6)));
        let fill = event(Kind::Boundary, 2, 1, Some((4, 3)));
        let done = event(Kind::Control, 0, 1, None);
        for e in [hop_late, fill, done] {
            assert_eq!(Event::from(&EventWire::from(&e)), e);
        }
        let mut rec = Recording {
            events: vec![done, hop_late, fill, hop_early],
            values: vec![],
            walk: vec![(0, 0), (2, 3), (1, 1)],
        };
        rec.order();
        assert_eq!(rec.events, vec![fill, hop_early, hop_late, done]);
        assert_eq!(rec.walk, vec![(2, 3), (1, 1), (0, 0)]);
    }

    #[test]
    fn csv_has_one_line_per_event_and_empty_missing_fields() {
        let events = [
            event(Kind::Boundary, 2, 1, Some((4, 3))),
            event(Kind::Control, 0, 1, None),
        ];
        let text = String::from_utf8(to_csv(&events).unwrap()).unwrap();
        assert_eq!(
            text,
            "kind,diagonal,from,to,i,j,bytes\nboundary,7,2,1,4,3,4\ncontrol,,0,1,,,4\n"
        );
        let parsed: Vec<Event> = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(parsed, events);
        let empty = String::from_utf8(to_csv(&[]).unwrap()).unwrap();
        assert_eq!(empty, "kind,diagonal,from,to,i,j,bytes\n");
    }
}
