//! The hops of a picture's traceback walk: each traceback message the run recorded, placed on
//! the step of the walk that crosses onto another rank, with what it carries (the next cell and
//! the path so far, which for a reader spells the LCS found so far or the end of the
//! alignment). The picture, its legend and the page all show the hops from here, so they agree
//! on every one; a message that is not on the walk is an internal error.

use crate::comm::protocol::{Kind, HOP_HEADER_BYTES};
use crate::error::Error;
use lcs_core::alignment::Alignment;
use lcs_core::problem::{Move, Path, Problem, PATH_HEADER_BYTES};

use super::picture::{display_bytes, is_match, Picture};

/// A hop of the traceback walk: one traceback message, placed on the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    /// The walk's step `path[t] -> path[t + 1]` that crosses onto another rank.
    pub t: usize,
    pub from: usize,
    pub to: usize,
    /// The next cell, `path[t + 1]`: the first thing the message carries (16 bytes).
    pub next: (usize, usize),
    /// The message's size: the next cell, then the path so far ([`Path::encode`]).
    pub bytes: u64,
    /// Moves of the path so far, one per cell walked: `t + 1`.
    pub moves: usize,
    /// What the path so far spells, for a reader (known when the sequences are): its matches,
    /// the end of the LCS, for an LCS run (bytes as [`display_bytes`] shows them); its CIGAR,
    /// the end of the alignment, for an edit run.
    pub prefix: Option<String>,
}

impl Hop {
    /// Bytes a hop carrying `moves` moves has: the next cell, the path's length, its moves
    /// four to a byte.
    pub fn bytes_for(moves: usize) -> usize {
        HOP_HEADER_BYTES + PATH_HEADER_BYTES + moves.div_ceil(4)
    }
}

/// The walk's hops, from the traceback messages in `p.messages`: each is placed on the step of
/// the walk that enters its cell, and must cross between the owners the message names (a wave
/// run's walk stays on a rank while that rank can answer it, so there only the receiver must
/// own the cell it is sent).
pub fn hops(p: &Picture) -> Result<Vec<Hop>, Error> {
    let bad = |what: String| Err(Error::Internal(anyhow::anyhow!("picture: {what}")));
    let mut hops = Vec::new();
    for e in p.messages.iter().filter(|e| e.kind == Kind::Traceback) {
        let Some(next) = e.cell() else {
            return bad(format!("traceback message without a cell: {e:?}"));
        };
        let Some(t) = p.path.windows(2).position(|w| w[1] == next) else {
            return bad(format!("hop to {next:?} is not on the walk"));
        };
        let here = p.path[t];
        let sender = p.wave.is_some() || p.owner(here.0, here.1) == e.from;
        if !sender || p.owner(next.0, next.1) != e.to {
            return bad(format!(
                "hop {e:?} does not cross between the cells' owners"
            ));
        }
        let prefix = match p.x {
            Some(x) if p.y.is_some() => {
                let walked = walked(p, t + 1)?;
                Some(match p.problem {
                    Problem::Lcs => display_bytes(&walked.matched(x)),
                    Problem::Edit => Alignment::of_path(&walked, p.swapped).cigar(),
                })
            }
            _ => None,
        };
        hops.push(Hop {
            t,
            from: e.from,
            to: e.to,
            next,
            bytes: e.bytes,
            moves: t + 1,
            prefix,
        });
    }
    hops.sort_by_key(|h| h.t);
    Ok(hops)
}

/// The path of the walk's first `k` cells: the move each makes to the next cell, a diagonal
/// step being a match when the cell's bytes are equal and a substitution when not (`k` is at
/// most the walk's length less one; the sequences are known).
fn walked(p: &Picture, k: usize) -> Result<Path, Error> {
    let mut path = Path::new();
    for w in p.path.windows(2).take(k) {
        let ((i, j), (a, b)) = (w[0], w[1]);
        let step = match (i.checked_sub(a), j.checked_sub(b)) {
            (Some(1), Some(1)) if is_match(p, i, j) => Move::Match,
            (Some(1), Some(1)) => Move::Sub,
            (Some(1), Some(0)) => Move::Up,
            (Some(0), Some(1)) => Move::Left,
            _ => {
                return Err(Error::Internal(anyhow::anyhow!(
                    "picture: the walk jumps from ({i}, {j}) to ({a}, {b})"
                )))
            }
        };
        path.push(step);
    }
    Ok(path)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::comm::trace::Event;
    use crate::engines::diagonal::schedule::Schedule;
    use crate::render::shown::picture::tests::solved;

    #[test]
    fn hops_off_the_walk_are_internal_errors() {
        let (x, y) = (b"GACA".as_slice(), b"AGCATGA".as_slice());
        let s = Schedule::new(x.len(), y.len(), 2);
        let values = lcs_core::reference::full_table(x, y);
        let path = lcs_core::reference::walk_path(x, y, &values);
        let stray = [Event::new(Kind::Traceback, 0, 1, Some((3, 0)), 16)];
        let picture = solved(&s, Problem::Lcs, (x, y), &values, &stray, &path);
        assert!(matches!(hops(&picture), Err(Error::Internal(_))));
    }

    /// The traceback messages a run on `s` sends along `walk`: one for each step onto another
    /// rank's cell, carrying the next cell and the path so far (a move per cell walked).
    pub(crate) fn hop_events(s: &Schedule, walk: &[(usize, usize)]) -> Vec<Event> {
        walk.windows(2)
            .enumerate()
            .filter_map(|(t, w)| {
                let (from, to) = (s.cell_proc(w[0].0, w[0].1), s.cell_proc(w[1].0, w[1].1));
                let bytes = Hop::bytes_for(t + 1);
                (from != to).then(|| Event::new(Kind::Traceback, from, to, Some(w[1]), bytes))
            })
            .collect()
    }

    /// The cells a finished `path` walks through from `(m-1, n-1)`, in walk order.
    pub(crate) fn cells(path: &Path, m: usize, n: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = (m.checked_sub(1), n.checked_sub(1));
        for step in path.iter() {
            let (Some(i), Some(j)) = at else { break };
            out.push((i, j));
            at = step.from(i, j);
        }
        out
    }

    #[test]
    fn an_edit_walks_hops_carry_the_cigar_of_the_path_so_far() {
        use lcs_core::reference;
        let (x, y) = (b"kitten".as_slice(), b"sitting".as_slice());
        let s = Schedule::new(x.len(), y.len(), 3);
        let values = reference::full_table_of(Problem::Edit, x, y);
        let path = reference::align(Problem::Edit, x, y);
        let walk = cells(&path, x.len(), y.len());
        let events = hop_events(&s, &walk);
        assert!(!events.is_empty(), "this walk crosses ranks");
        for swapped in [false, true] {
            let picture = Picture {
                swapped,
                ..solved(&s, Problem::Edit, (x, y), &values, &events, &walk)
            };
            let hops = hops(&picture).unwrap();
            assert_eq!(hops.len(), events.len());
            for h in &hops {
                // The moves the reference made first, read as the picture reads its cells.
                let mut so_far = Path::new();
                path.iter().take(h.moves).for_each(|m| so_far.push(m));
                let cigar = Alignment::of_path(&so_far, swapped).cigar();
                assert_eq!(h.prefix.as_deref(), Some(cigar.as_str()), "{h:?}");
                assert_eq!(
                    (h.moves, h.bytes),
                    (h.t + 1, Hop::bytes_for(h.t + 1) as u64)
                );
            }
        }
        // kitten -> sitting ends with the g of sitting alone, then the n matched.
        let picture = solved(&s, Problem::Edit, (x, y), &values, &[], &walk);
        let two = walked(&picture, 2).unwrap();
        assert_eq!(Alignment::of_path(&two, false).cigar(), "1=1D");
    }
}
