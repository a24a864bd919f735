//! What each picture's legend explains, one key per mark: the diagonal engine's picture (the
//! cells' text, the diagonals' numbers, the messages, the walk with its matches and hops, each hop
//! listed) and a wave run's (the cells' costs and colours, the unreached cells, the slides, the
//! walk). The layout wraps the keys into the legend's lines and the legend draws them, each after
//! a sample of its mark.

use super::layout::{swap_note, Key, MAX_CELL_TEXT_SIDE};
use crate::comm::protocol::Kind;
use crate::render::shown::hops::Hop;
use crate::render::shown::picture::{byte_label, is_match, Picture};
use crate::render::shown::wave_words::{
    cell_words, unreached_words, walk_words, MATCH_WORDS, SLIDE_WORDS,
};
use crate::render::shown::wavefront::Wavefronts;
use crate::render::shown::words;
use lcs_core::alignment::shorten;
use lcs_core::problem::Problem;

/// Hops listed one by one in a picture's legend.
const MAX_LISTED_HOPS: usize = 12;

/// What the marks of a diagonal picture mean, one key each.
pub(super) fn diagonal(p: &Picture, cell_text: bool, hops: &[Hop]) -> Vec<(Key, String)> {
    let s = p.schedule;
    let mut keys: Vec<(Key, String)> = Vec::new();
    let arrows = p
        .messages
        .iter()
        .filter(|e| e.kind == Kind::Boundary && e.cell().is_some())
        .count();
    match (p.values.is_some(), cell_text) {
        (true, true) => keys.push((Key::Text, words::plain(words::cell(p.problem)))),
        (false, true) => keys.push((
            Key::Text,
            "pK in a cell: the rank that computes it, cell_proc(i, j)".into(),
        )),
        (_, false) => keys.push((
            Key::Text,
            format!(
                "cells carry no text above {MAX_CELL_TEXT_SIDE} a side; the colour is the owner"
            ),
        )),
    }
    keys.push((
        Key::Diagonal,
        "d=N: diagonal d = i + j, numbered where it leaves the grid, along the top and right edges"
            .into(),
    ));
    keys.push((
        Key::Message,
        format!(
            "boundary message ({arrows}): an arrow a cell long in the sender's ink (its colour, \
             dark), from the sending cell into the neighbour cell its receiver owns; one per \
             cell at most"
        ),
    ));
    if !p.path.is_empty() {
        let matches = p.path.iter().filter(|&&(i, j)| is_match(p, i, j)).count();
        keys.push((
            Key::Walk,
            format!(
                "traceback walk ({} cells): {}",
                p.path.len(),
                words::plain(&words::walk(p.problem, p.swapped))
            ),
        ));
        keys.push((
            Key::Match,
            format!(
                "match ({matches}): {}",
                words::plain(words::matched(p.problem))
            ),
        ));
        keys.push((
            Key::Hop,
            format!(
                "hop ({}): {}",
                hops.len(),
                words::plain(words::hop(p.problem))
            ),
        ));
        for (k, h) in hops.iter().take(MAX_LISTED_HOPS).enumerate() {
            let found = h.prefix.as_deref().map_or(String::new(), |text| {
                match p.problem {
                    // The LCS so far is the LCS's end: a long one keeps its last characters.
                    Problem::Lcs => {
                        let chars: Vec<char> = text.chars().collect();
                        let start = chars.len().saturating_sub(20);
                        let dots = if start > 0 { "…" } else { "" };
                        let end: String = chars[start..].iter().collect();
                        format!(", \"{dots}{end}\" so far")
                    }
                    Problem::Edit => format!(", CIGAR {}", shorten(text, 24)),
                }
            });
            keys.push((
                Key::Text,
                format!(
                    "hop {}: p{} -> p{}, next cell ({}, {}), {} move{}{found}, {} bytes",
                    k + 1,
                    h.from,
                    h.to,
                    h.next.0,
                    h.next.1,
                    h.moves,
                    if h.moves == 1 { "" } else { "s" },
                    h.bytes
                ),
            ));
        }
        if hops.len() > MAX_LISTED_HOPS {
            keys.push((
                Key::Text,
                format!(
                    "… and {} more hops (see the trace)",
                    hops.len() - MAX_LISTED_HOPS
                ),
            ));
        }
    }
    let hex = |seq: Option<&[u8]>| seq.is_some_and(|b| b.iter().any(|&b| byte_label(b).1));
    if hex(p.x) || hex(p.y) {
        keys.push((
            Key::Text,
            "labels in italics: bytes that are not printable ASCII, as two hex digits".into(),
        ));
    }
    if p.swapped {
        keys.push((Key::Text, swap_note(p).into()));
    }
    if s.ranks() > s.working_ranks() {
        let first = s.working_ranks();
        let idle = if first + 1 == s.ranks() {
            format!("p{first}")
        } else {
            format!("p{first}..p{}", s.ranks() - 1)
        };
        keys.push((
            Key::Text,
            format!(
                "{idle}: no cell (no diagonal is longer than {} cells)",
                s.rows()
            ),
        ));
    }
    keys
}

/// What the marks of a wave run's picture mean, one key each.
pub(super) fn wave(
    p: &Picture,
    w: &Wavefronts,
    cell_text: bool,
    hops: usize,
) -> Vec<(Key, String)> {
    let mut keys = vec![
        (
            Key::Text,
            match cell_text {
                true => words::plain(cell_words(p.problem)),
                false => format!(
                    "cells carry no text above {MAX_CELL_TEXT_SIDE} a side; the colour is the rank"
                ),
            },
        ),
        (
            Key::Text,
            "a cell's colour: the rank that owned its diagonal at the step that reached it".into(),
        ),
        (Key::Text, unreached_words(w)),
        (Key::Text, SLIDE_WORDS.into()),
    ];
    if !p.path.is_empty() {
        keys.push((
            Key::Walk,
            format!(
                "traceback walk ({} cells): {}",
                p.path.len(),
                words::plain(&walk_words(p.problem, p.swapped))
            ),
        ));
        let matches = p.path.iter().filter(|&&(i, j)| is_match(p, i, j)).count();
        keys.push((
            Key::Match,
            format!("match ({matches}): {}", words::plain(MATCH_WORDS)),
        ));
        keys.push((
            Key::Hop,
            format!("hop ({hops}): {}", words::plain(words::hop(p.problem))),
        ));
    }
    keys
}
