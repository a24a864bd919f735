//! What a classroom picture shows, before anything is placed or drawn: the [`Picture`] (a schedule,
//! and for a solved run its problem, sequences, values, messages, walk and answer), the arrow each
//! boundary message becomes, and how sequence bytes are labelled; the walk's hops are in
//! [`super::hops`]. The picture and the page are both drawn from this model, so they agree on
//! every arrow and label; a recorded part that disagrees with the schedule is an internal error
//! rather than a wrong picture.

use std::fmt::Write as _;

use crate::comm::protocol::Kind;
use crate::comm::trace::{Event, Span};
use crate::engines::diagonal::schedule::Schedule;
use crate::error::Error;
use crate::input::Pair;
use crate::report::{Answer, Report};
use lcs_core::problem::Problem;

use super::pipeline::Pipeline;
use super::wavefront::Wavefronts;

/// Everything one picture shows. `x`, `y`, `values` and `path` are optional extras of a solved
/// run; `schedule --svg` draws the schedule alone with its predicted messages.
pub struct Picture<'a> {
    pub schedule: &'a Schedule,
    /// What the run solved, which every text follows (a schedule's picture: LCS; its cells
    /// show owners, not values).
    pub problem: Problem,
    /// The rows' sequence, one byte per row (`None`: the left axis shows row indices only).
    pub x: Option<&'a [u8]>,
    /// The columns' sequence, one byte per column.
    pub y: Option<&'a [u8]>,
    /// `values[i][j]`: the value the run recorded for the cell (`M[i][j]` of an LCS run,
    /// `D[i][j]` of an edit run), written in it (`None`: each cell shows its owner).
    pub values: Option<&'a [Vec<u32>]>,
    /// Where `values` came from when the run did not record them (a device keeps none, and
    /// the host computes them again for the page); `None`: the run's own.
    pub values_from: Option<&'a str>,
    /// Messages as the trace lists them: each boundary message with a cell is drawn as an
    /// arrow, each traceback message as a hop of the walk.
    pub messages: &'a [Event],
    /// The traceback walk's cells in walk order (empty: no walk is drawn).
    pub path: &'a [(usize, usize)],
    /// The rows and columns are the input's sequences in the other order (the longer came
    /// first), or the command line named the longer side as rows.
    pub swapped: bool,
    /// What the run found, which the end of the walk shows (a solved run).
    pub answer: Option<&'a Answer>,
    pub title: String,
    /// Lines of text added under the legend's keys, such as counts.
    pub legend: Vec<String>,
    /// A bands run or schedule: its pipeline owns the cells (the schedule gives the sizes).
    pub bands: Option<&'a Pipeline>,
    /// A bands run's recorded timeline (empty: a schedule, whose timeline is modelled).
    pub spans: &'a [Span],
    /// A wave run: its score steps own the cells (the schedule gives the sizes).
    pub wave: Option<&'a Wavefronts>,
}

impl<'a> Picture<'a> {
    /// A picture of a solved run, from what it recorded: the values its ranks computed, the
    /// messages they sent and the cells their walk visited.
    pub fn of_run(
        schedule: &'a Schedule,
        pair: &'a Pair,
        values: &'a [Vec<u32>],
        messages: &'a [Event],
        path: &'a [(usize, usize)],
        report: &'a Report,
    ) -> Picture<'a> {
        let ranks = match report.ranks {
            1 => "1 rank".to_owned(),
            p => format!("{p} ranks"),
        };
        Picture {
            schedule,
            problem: report.answer.problem,
            x: Some(&pair.x),
            y: Some(&pair.y),
            values: Some(values),
            messages,
            path,
            swapped: pair.swapped,
            answer: Some(&report.answer),
            title: format!(
                "{} of {} x {} on {ranks}: {}",
                report.answer.problem.title(),
                report.rows,
                report.cols,
                headline(&report.answer)
            ),
            legend: vec![
                format!(
                    "boundary messages: {} (predicted {})",
                    report.messages.boundary, report.predicted.boundary
                ),
                format!("traceback hops: {}", report.traceback_hops),
                format!(
                    "control messages: {} (the end of the walk: see the summary)",
                    report.messages.control
                ),
            ],
            bands: None,
            spans: &[],
            wave: None,
            values_from: None,
        }
    }

    /// The rank that computes cell `(i, j)`: its band's, the owner of its diagonal at the
    /// score step that reached it (`usize::MAX`: none did), or `cell_proc(i, j)`.
    pub fn owner(&self, i: usize, j: usize) -> usize {
        match (self.bands, self.wave) {
            (Some(pipe), _) => pipe.owner_of_col(j),
            (_, Some(w)) => w.owner(i, j).unwrap_or(usize::MAX),
            _ => self.schedule.cell_proc(i, j),
        }
    }

    /// A picture of the schedule alone: ownership and `messages`, no sequences, values or
    /// walk (what `schedule --svg` draws).
    pub fn of_schedule(
        schedule: &'a Schedule,
        messages: &'a [Event],
        title: String,
        legend: Vec<String>,
    ) -> Picture<'a> {
        Picture {
            schedule,
            problem: Problem::Lcs,
            x: None,
            y: None,
            values: None,
            messages,
            path: &[],
            swapped: false,
            answer: None,
            title,
            legend,
            bands: None,
            spans: &[],
            wave: None,
            values_from: None,
        }
    }
}

/// What the run found, for a title: a long LCS keeps its first and last 20 characters, so the
/// title stays one line on a projector (the page shows the whole LCS at the end of the walk).
fn headline(answer: &Answer) -> String {
    let Some(lcs) = &answer.lcs else {
        return answer.headline();
    };
    let text: Vec<char> = lcs.display().chars().collect();
    if text.len() <= 48 {
        return answer.headline();
    }
    let head: String = text[..20].iter().collect();
    let tail: String = text[text.len() - 20..].iter().collect();
    format!(
        "\"{head}…{tail}\" (length {})",
        answer.lcs_length.unwrap_or(0)
    )
}

/// The boundary messages the schedule predicts, as the events a recorded run would log,
/// ordered by (diagonal, sender, row) like a trace: one per [`Schedule::boundary_messages`].
pub fn predicted_messages(schedule: &Schedule) -> Vec<Event> {
    schedule
        .boundary_messages()
        .map(|(d, from, send)| {
            let cell = (send.row, d - send.row);
            Event::new(
                Kind::Boundary,
                from,
                send.peer,
                Some(cell),
                crate::comm::protocol::VALUE_BYTES,
            )
        })
        .collect()
}

/// The sizes of the optional parts must match the schedule.
pub(in crate::render) fn check(p: &Picture) -> Result<(), Error> {
    let (m, n) = (p.schedule.rows(), p.schedule.cols());
    let bad = |what: String| Err(Error::Internal(anyhow::anyhow!("picture: {what}")));
    if let Some(x) = p.x.filter(|x| x.len() != m) {
        return bad(format!("{} row bytes for {m} rows", x.len()));
    }
    if let Some(y) = p.y.filter(|y| y.len() != n) {
        return bad(format!("{} column bytes for {n} columns", y.len()));
    }
    if let Some(v) = p.values {
        if v.len() != m || v.iter().any(|row| row.len() != n) {
            return bad(format!("value table is not {m} x {n}"));
        }
    }
    if let Some(&(i, j)) = p.path.iter().find(|&&(i, j)| i >= m || j >= n) {
        return bad(format!("path cell ({i}, {j}) outside {m} x {n}"));
    }
    Ok(())
}

/// One message arrow: the message, and whether it points down (else right).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::render) struct Arrow {
    pub event: Event,
    pub from: (usize, usize),
    pub down: bool,
}

/// An arrow for each boundary event with a cell: into `(i + 1, j)` when the receiver owns it,
/// else into `(i, j + 1)`.
pub(in crate::render) fn message_arrows(p: &Picture) -> Result<Vec<Arrow>, Error> {
    let s = p.schedule;
    let (m, n) = (s.rows(), s.cols());
    let mut arrows = Vec::new();
    for e in p.messages.iter().filter(|e| e.kind == Kind::Boundary) {
        let Some((i, j)) = e.cell() else { continue };
        let down = i + 1 < m && j < n && s.cell_proc(i + 1, j) == e.to;
        let right = i < m && j + 1 < n;
        if !(down || right) {
            return Err(Error::Internal(anyhow::anyhow!(
                "picture: message from cell ({i}, {j}) to p{} has no neighbour to point into \
                 in {m} x {n}",
                e.to
            )));
        }
        arrows.push(Arrow {
            event: *e,
            from: (i, j),
            down,
        });
    }
    Ok(arrows)
}

/// A label for one sequence byte: the character when it is printable ASCII, else two hex
/// digits (`true`: drawn in italics and explained in the legend).
pub fn byte_label(b: u8) -> (String, bool) {
    if b.is_ascii_graphic() {
        ((b as char).to_string(), false)
    } else {
        (format!("{b:02x}"), true)
    }
}

/// Bytes for a reader: printable ASCII and spaces as they are, anything else as `\xNN`.
pub fn display_bytes(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        if b.is_ascii_graphic() || b == b' ' {
            s.push(b as char);
        } else {
            let _ = write!(s, "\\x{b:02x}");
        }
    }
    s
}

/// Whether the walk takes cell `(i, j)` as a match (the sequences are known when a walk is).
pub(in crate::render) fn is_match(p: &Picture, i: usize, j: usize) -> bool {
    matches!((p.x, p.y), (Some(x), Some(y)) if x[i] == y[j])
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A picture of `s` with the sequences, values, messages and walk of a solved run, and no
    /// answer, title or legend.
    pub(crate) fn solved<'a>(
        s: &'a Schedule,
        problem: Problem,
        (x, y): (&'a [u8], &'a [u8]),
        values: &'a [Vec<u32>],
        messages: &'a [Event],
        path: &'a [(usize, usize)],
    ) -> Picture<'a> {
        Picture {
            problem,
            x: Some(x),
            y: Some(y),
            values: Some(values),
            path,
            ..Picture::of_schedule(s, messages, String::new(), vec![])
        }
    }

    #[test]
    fn predicted_messages_match_the_schedule() {
        for (m, n, p) in [
            (5, 8, 3),
            (4, 6, 2),
            (1, 1, 1),
            (9, 40, 5),
            (64, 64, 16),
            (3, 5, 8),
        ] {
            let s = Schedule::new(m, n, p);
            let events = predicted_messages(&s);
            let predicted = s.predicted_messages();
            assert_eq!(events.len() as u64, predicted.total, "{m}x{n} P={p}");
            let mut pairs = vec![vec![0u64; p]; p];
            for e in &events {
                let (i, j) = e.cell().unwrap();
                assert_eq!(e.kind, Kind::Boundary);
                assert_eq!(e.bytes, 4);
                assert_eq!(e.diagonal, Some((i + j) as u64));
                assert_eq!(e.from, s.cell_proc(i, j));
                assert_eq!(Some(e.to), s.send_target(i, j));
                pairs[e.from][e.to] += 1;
            }
            assert_eq!(pairs, predicted.pairs(), "{m}x{n} P={p}");
            let brute = (0..m)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .filter(|&(i, j)| s.send_target(i, j).is_some())
                .count();
            assert_eq!(events.len(), brute, "{m}x{n} P={p}");
            let mut sorted = crate::comm::trace::Recording {
                events: events.clone(),
                ..Default::default()
            };
            sorted.order();
            assert_eq!(sorted.events, events, "already in trace order");
        }
    }

    #[test]
    fn mismatched_parts_are_internal_errors() {
        let s = Schedule::new(2, 3, 2);
        let base = Picture {
            x: Some(b"ab"),
            y: Some(b"abc"),
            ..Picture::of_schedule(&s, &[], String::new(), vec![])
        };
        assert!(check(&base).is_ok());
        let short_y = Picture {
            y: Some(b"ab"),
            ..base
        };
        assert!(matches!(check(&short_y), Err(Error::Internal(_))));
        let outside = Picture {
            path: &[(2, 0)],
            ..Picture::of_schedule(&s, &[], String::new(), vec![])
        };
        assert!(matches!(check(&outside), Err(Error::Internal(_))));
    }

    #[test]
    fn bytes_are_labelled_for_a_reader() {
        assert_eq!(display_bytes(b"a\x01 b"), "a\\x01 b");
        assert_eq!(byte_label(b'G'), ("G".to_owned(), false));
        assert_eq!(byte_label(0x01), ("01".to_owned(), true));
    }
}
