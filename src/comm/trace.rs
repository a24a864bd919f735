//! The recording of a run, for teaching and for checking counts by hand: every message sent, and,
//! for pictures, every computed value (a bands run: each cell's step along its row,
//! [`Recording::deltas`]) and every cell of the walk, and when a bands rank computed, sent and
//! waited on each batch ([`Span`]). Off unless `solve --trace` or a picture asks for it, refused
//! above [`MAX_TRACE_CELLS`] cells. Rank 0 gathers the recordings and orders them: boundary
//! messages by diagonal and sender, then the hops and the walk in walk order, then the control
//! messages; the trace is written as CSV with the columns of [`Event`].

use serde::{Deserialize, Serialize};

use crate::comm::protocol::Kind;
use crate::comm::words::{record, Words};

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

record! {
    /// A computed value `M[i][j]`, as recorded by the rank that computed it.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct CellValue {
        pub i: u64,
        pub j: u64,
        pub value: u64,
    }
}

/// What a rank was doing during a [`Span`] of the bands engine's fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpanKind {
    /// Computing the batch's rows of its band (on a device: its kernels).
    Compute,
    /// Posting the batch's message of carries (and the next batch's receive).
    Send,
    /// Waiting for the carries it needs, and for its own send to complete.
    Wait,
    /// On a device: copying the batch's carries to it, or its carries, seams and checkpoints
    /// back.
    Copy,
}

impl SpanKind {
    pub const ALL: [SpanKind; 4] = [
        SpanKind::Compute,
        SpanKind::Send,
        SpanKind::Wait,
        SpanKind::Copy,
    ];
}

/// A kind as its number in [`SpanKind::ALL`].
impl Words for SpanKind {
    const WORDS: usize = 1;

    fn put(&self, out: &mut Vec<u64>) {
        let kind = SpanKind::ALL.iter().position(|k| k == self);
        out.push(kind.unwrap_or(0) as u64);
    }

    fn take(words: &[u64]) -> SpanKind {
        SpanKind::ALL[(words[0] as usize).min(SpanKind::ALL.len() - 1)]
    }
}

record! {
    /// A stretch of one rank's fill in the bands engine: what it did for which batch, from
    /// `start` to `end`, in seconds of the wall clock (since the Unix epoch, so that ranks on
    /// one host share a clock; the page shows them from the earliest).
    #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
    pub struct Span {
        pub rank: usize,
        pub batch: usize,
        pub kind: SpanKind,
        pub start: f64,
        pub end: f64,
    }
}

/// What one rank recorded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recording {
    pub events: Vec<Event>,
    /// The values this rank computed (only when a picture needs them).
    pub values: Vec<CellValue>,
    /// The bands engine's cells as it computes them: `value` is `M[i][j] − M[i][j−1] + 1`
    /// (`D` for the edit distance), the step along the row that its bits hold; the values are
    /// their sums along each row ([`Recording::value_table`]).
    pub deltas: Vec<CellValue>,
    /// The bands engine's fill, batch by batch (the classroom page's timeline).
    pub spans: Vec<Span>,
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
        self.deltas.sort_by_key(|v| (v.i, v.j));
        self.spans.sort_by(|a, b| {
            (a.rank, a.batch)
                .cmp(&(b.rank, b.batch))
                .then(a.start.total_cmp(&b.start))
        });
    }

    /// The recorded values as a full table `M[i][j]` of `rows x cols` (cells nobody recorded
    /// are 0). A bands run's values are its steps summed along each row from the matrix's left
    /// edge, `M[i][−1] = 0`, or `D[i][−1] = i + 1` for the edit distance (`edit`).
    pub fn value_table(&self, rows: usize, cols: usize, edit: bool) -> Vec<Vec<u32>> {
        let mut table = vec![vec![0u32; cols]; rows];
        for v in &self.values {
            table[v.i as usize][v.j as usize] = v.value as u32;
        }
        let mut steps = vec![vec![0i64; cols]; if self.deltas.is_empty() { 0 } else { rows }];
        for v in &self.deltas {
            steps[v.i as usize][v.j as usize] = v.value as i64 - 1;
        }
        for (i, row) in steps.iter().enumerate() {
            let mut at = if edit { i as i64 + 1 } else { 0 };
            for (j, step) in row.iter().enumerate() {
                at += step;
                table[i][j] = at.max(0) as u32;
            }
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

record! {
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
    use crate::comm::words::tests::words;

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
            walk: vec![(0, 0), (2, 3), (1, 1)],
            ..Recording::default()
        };
        rec.order();
        assert_eq!(rec.events, vec![fill, hop_early, hop_late, done]);
        assert_eq!(rec.walk, vec![(2, 3), (1, 1), (0, 0)]);
    }

    #[test]
    fn a_bands_runs_steps_sum_to_its_values() {
        let (x, y) = (b"GACA".as_slice(), b"AGCATGA".as_slice());
        for edit in [false, true] {
            let problem = if edit {
                lcs_core::problem::Problem::Edit
            } else {
                lcs_core::problem::Problem::Lcs
            };
            let table = lcs_core::reference::full_table_of(problem, x, y);
            let mut rec = Recording::default();
            for (i, row) in table.iter().enumerate() {
                let mut before = if edit { i as i64 + 1 } else { 0 };
                for (j, &v) in row.iter().enumerate() {
                    let value = (v as i64 - before + 1) as u64;
                    rec.deltas.push(CellValue {
                        i: i as u64,
                        j: j as u64,
                        value,
                    });
                    before = v as i64;
                }
            }
            rec.deltas.reverse();
            rec.order();
            assert_eq!(
                rec.value_table(x.len(), y.len(), edit),
                table,
                "edit {edit}"
            );
        }
    }

    /// Each record's words are its fields', in order: a span's kind its number in
    /// [`SpanKind::ALL`], its seconds their bits.
    #[test]
    fn records_survive_their_words_in_order() {
        let value = CellValue {
            i: 3,
            j: u64::MAX,
            value: 9,
        };
        assert_eq!(words(&value), [3, u64::MAX, 9]);
        assert_eq!(CellValue::take(&words(&value)), value);
        let span = Span {
            rank: 2,
            batch: 7,
            kind: SpanKind::Wait,
            start: 1.7e9 + 0.125,
            end: 1.7e9 + 0.5,
        };
        let expected = [2, 7, 2, span.start.to_bits(), span.end.to_bits()];
        assert_eq!(words(&span), expected);
        assert_eq!(Span::take(&words(&span)), span);
        let event = EventWire {
            kind: 2,
            diagonal: u64::MAX,
            from: 1,
            to: 0,
            i: 5,
            j: 6,
            bytes: 17,
        };
        assert_eq!(words(&event), [2, u64::MAX, 1, 0, 5, 6, 17]);
        assert_eq!(EventWire::take(&words(&event)), event);
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
