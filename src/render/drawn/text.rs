//! The classroom text view of a diagonal schedule, without starting MPI: the ownership grid in the
//! report's own layout (one matrix row per line, `p0 p1 …`), the formulas in the report's names
//! (`diag_start_end`, `cell_proc`), each diagonal's segments with the numbers those formulas take,
//! and the boundary messages per diagonal and per rank
//! (`docs/classroom.md#1-who-computes-what-no-mpi`). Large matrices keep only the numbers (no grid
//! wider than [`MAX_GRID_COLS`], no table of more than [`MAX_TABLE_DIAGONALS`] diagonals), so the
//! cost stays O((m + n) * P), like [`Schedule::predicted_messages`].

use std::fmt::{self, Write};

use crate::engines::diagonal::schedule::Schedule;
use crate::render::shown::lesson::plural;

/// Widest matrix whose ownership grid is printed.
pub const MAX_GRID_COLS: usize = 64;

/// Most diagonals for which the per-diagonal segment table is printed.
pub const MAX_TABLE_DIAGONALS: usize = 200;

/// The whole text view: header, ownership grid, per-diagonal segments, predicted messages
/// and cells per rank.
pub fn schedule_text(s: &Schedule) -> String {
    let mut out = String::new();
    write_all(&mut out, s).expect("writing to a String cannot fail");
    out
}

fn write_all(out: &mut String, s: &Schedule) -> fmt::Result {
    writeln!(
        out,
        "schedule: {} rows x {} cols, {} ranks, {} diagonals, {} cells",
        s.rows(),
        s.cols(),
        s.ranks(),
        s.diagonals(),
        s.cells()
    )?;
    let wide = s.cols() > MAX_GRID_COLS;
    writeln!(out)?;
    if wide {
        writeln!(
            out,
            "ownership grid omitted: {} columns is wider than {MAX_GRID_COLS}",
            s.cols()
        )?;
    } else {
        write_grid(out, s)?;
    }
    writeln!(out)?;
    write_formulas(out, s)?;
    writeln!(out)?;
    if wide {
        writeln!(out, "per-diagonal segments omitted along with the grid")?;
    } else if s.diagonals() > MAX_TABLE_DIAGONALS {
        writeln!(
            out,
            "per-diagonal segments omitted: {} diagonals is more than {MAX_TABLE_DIAGONALS}",
            s.diagonals()
        )?;
    } else {
        write_segments(out, s)?;
    }
    writeln!(out)?;
    write_summary(out, s)
}

/// Names the ranks that own nothing, or `None` when every rank works.
fn idle_ranks(s: &Schedule) -> Option<String> {
    let first = s.working_ranks();
    let last = s.ranks() - 1;
    match first {
        _ if first > last => None,
        _ if first == last => Some(format!("p{first}")),
        _ => Some(format!("p{first}..p{last}")),
    }
}

/// One matrix row per line, `pK` per cell, single spaces, in the report's layout. With more
/// than ten ranks the labels are padded to one width so the columns still line up.
fn write_grid(out: &mut String, s: &Schedule) -> fmt::Result {
    writeln!(
        out,
        "ownership (line i, entry j: the rank that computes cell (i, j)):"
    )?;
    if s.cells() == 0 {
        return writeln!(out, "(empty matrix: no cells)");
    }
    let width = format!("p{}", s.working_ranks() - 1).len();
    let mut line = String::new();
    for i in 0..s.rows() {
        line.clear();
        for j in 0..s.cols() {
            if j > 0 {
                line.push(' ');
            }
            write!(line, "{:<width$}", format!("p{}", s.cell_proc(i, j)))?;
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The formulas of the schedule, with the report's names and this matrix's `m`, `n`, `P`.
fn write_formulas(out: &mut String, s: &Schedule) -> fmt::Result {
    let (m, n, p) = (s.rows(), s.cols(), s.ranks());
    writeln!(
        out,
        "formulas (the report's names; here m = {m}, n = {n}, P = {p}):"
    )?;
    writeln!(
        out,
        "  diagonal d = i + j, 0 <= d <= m + n - 2 = {}; length L(d) = min(d + 1, m, m + n - 1 - d)",
        (m + n).saturating_sub(2)
    )?;
    writeln!(
        out,
        "  pos(i, j) = min(i, n - 1 - j), counted from the diagonal's top-right end; \
         row i = max(0, d - n + 1) + pos"
    )?;
    writeln!(
        out,
        "  diag_start_end(d, k): p = min(P, L), c = ceil(L / p), f = floor(L / p), r = L mod p;"
    )?;
    writeln!(
        out,
        "    rank k < r owns positions [k*c, k*c + c), r <= k < p owns [r*c + (k - r)*f, ... + f), \
         k >= p none"
    )?;
    writeln!(
        out,
        "  cell_proc(i, j) = pos / c if pos < c*r, else (pos - r) / f (integer division)"
    )?;
    writeln!(
        out,
        "  send: the owner of (i, j) sends M[i][j] to cell_proc(i + 1, j) if that is another \
         rank, else to cell_proc(i, j + 1) if that is another rank"
    )
}

/// Rows `a..b` of a segment as `[a-b]` (or `[a]`).
fn segment_rows(rows: std::ops::Range<usize>) -> String {
    match rows.len() {
        1 => format!("[{}]", rows.start),
        _ => format!("[{}-{}]", rows.start, rows.end - 1),
    }
}

/// `diag`, `len`, the numbers `diag_start_end` takes, each working rank's positions `s..e`
/// with their rows (or `-`), and the boundary messages the diagonal sends.
fn write_segments(out: &mut String, s: &Schedule) -> fmt::Result {
    writeln!(
        out,
        "segments (diag_start_end(d, k) = positions s..e, end exclusive, rows i in brackets; \
         msgs: boundary messages sent from diagonal d):"
    )?;
    if s.diagonals() == 0 {
        return writeln!(out, "(no diagonals)");
    }
    let ranks = s.working_ranks();
    let mut per_diagonal = vec![0u64; s.diagonals()];
    for (d, _, _) in s.boundary_messages() {
        per_diagonal[d] += 1;
    }
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(s.diagonals() + 1);
    let mut header: Vec<String> = ["diag", "len", "p", "c", "f", "r"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    header.extend((0..ranks).map(|k| format!("p{k}")));
    header.push("msgs".into());
    rows.push(header);
    for (d, &msgs) in per_diagonal.iter().enumerate() {
        let len = s.diag_len(d);
        let p = s.active_ranks(d);
        let (f, r) = (len / p, len % p);
        let c = if r == 0 { f } else { f + 1 };
        let mut row: Vec<String> = [d, len, p, c, f, r].iter().map(|v| v.to_string()).collect();
        row.extend((0..ranks).map(|k| {
            let seg = s.diag_start_end(d, k);
            if seg.is_empty() {
                "-".to_string()
            } else {
                format!(
                    "{}..{} {}",
                    seg.start,
                    seg.end,
                    segment_rows(s.rank_rows(d, k))
                )
            }
        }));
        row.push(msgs.to_string());
        rows.push(row);
    }
    let columns = rows[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    let mut line = String::new();
    for row in &rows {
        line.clear();
        for (c, (cell, &w)) in row.iter().zip(&widths).enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            // Numbers right-aligned, segments left-aligned like the grid.
            if c < 6 || c == columns - 1 {
                write!(line, "{cell:>w$}")?;
            } else {
                write!(line, "{cell:<w$}")?;
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    if let Some(idle) = idle_ranks(s) {
        writeln!(out, "{idle}: no segment on any diagonal")?;
    }
    Ok(())
}

/// Predicted boundary messages (total, then each non-zero ordered pair), then each rank's
/// line: cells, the diagonals it works on, and its messages per neighbour.
fn write_summary(out: &mut String, s: &Schedule) -> fmt::Result {
    let predicted = s.predicted_messages();
    writeln!(out, "predicted boundary messages: {}", predicted.total)?;
    for (k, (&down, &up)) in predicted.down.iter().zip(&predicted.up).enumerate() {
        for (from, to, count) in [(k, k + 1, down), (k + 1, k, up)] {
            if count > 0 {
                writeln!(out, "  p{from} -> p{to}: {count}")?;
            }
        }
    }
    writeln!(
        out,
        "per rank (the diagonals it works on; boundary messages it sends and receives, per \
         neighbour):"
    )?;
    let per_neighbour = |counts: Vec<(usize, u64)>| -> String {
        let parts: Vec<String> = counts
            .into_iter()
            .filter(|&(_, c)| c > 0)
            .map(|(k, c)| format!("p{k}: {c}"))
            .collect();
        if parts.is_empty() {
            "-".into()
        } else {
            parts.join(", ")
        }
    };
    let mut rows = vec![["rank", "cells", "diagonals", "sends", "receives"].map(String::from)];
    for k in 0..s.working_ranks() {
        let diagonals = s.rank_diagonals(k);
        // Messages go between neighbours only: down[k] is k -> k + 1, up[k] is k + 1 -> k.
        let below = |v: &Vec<u64>| k.checked_sub(1).map(|j| (j, v[j]));
        let above = |v: &Vec<u64>| v.get(k).map(|&c| (k + 1, c));
        let sends = below(&predicted.up)
            .into_iter()
            .chain(above(&predicted.down))
            .collect();
        let receives = below(&predicted.down)
            .into_iter()
            .chain(above(&predicted.up))
            .collect();
        rows.push([
            format!("p{k}"),
            s.rank_cells(k).to_string(),
            format!(
                "{}..{} ({})",
                diagonals.start,
                diagonals.end - 1,
                diagonals.len()
            ),
            per_neighbour(sends),
            per_neighbour(receives),
        ]);
    }
    let widths: Vec<usize> = (0..5)
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let mut line = String::new();
        for (c, (cell, &w)) in row.iter().zip(&widths).enumerate() {
            if c == 1 {
                write!(line, "  {cell:>w$}")?;
            } else {
                write!(line, "  {cell:<w$}")?;
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    if let Some(idle) = idle_ranks(s) {
        writeln!(
            out,
            "  {idle}: 0 cells each (no diagonal is longer than {} cells)",
            s.rows()
        )?;
    }
    Ok(())
}

/// The bands engine's layout as text: each rank's band of whole 64-bit words, the batches, and
/// the boundary messages the pipeline will send, `(p - 1) * ceil(m / B)`.
pub fn bands_text(plan: &crate::engines::bands::BandPlan) -> String {
    let mut out = String::new();
    let (m, n, p) = (plan.rows(), plan.cols(), plan.active_ranks());
    let _ = writeln!(
        out,
        "bands: {m} rows x {n} cols, {} ranks, {} of 64 columns, batches of {} rows ({})",
        plan.ranks(),
        plural(plan.total_words() as u64, "word", "words"),
        plan.batch(),
        plural(plan.batches() as u64, "batch", "batches")
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "band  words  columns  cells");
    for k in 0..p {
        let (words, cols) = (plan.words(k), plan.cols_of(k));
        let _ = writeln!(
            out,
            "p{k}  {}..{}  {}..{}  {}",
            words.start,
            words.end,
            cols.start,
            cols.end,
            m as u64 * cols.len() as u64
        );
    }
    if p < plan.ranks() {
        let _ = writeln!(
            out,
            "p{}..p{}: no band ({} for {} ranks)",
            p,
            plan.ranks() - 1,
            plural(plan.total_words() as u64, "word", "words"),
            plan.ranks()
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "predicted boundary messages: {} ({} band edges x {} batches), {} bytes",
        plan.predicted_messages(),
        p.saturating_sub(1),
        plan.batches(),
        plan.predicted_bytes()
    );
    for k in plan.senders() {
        let _ = writeln!(out, "  p{k} -> p{}: {}", k + 1, plan.batches());
    }
    let words = plan.batch().div_ceil(64);
    let _ = writeln!(
        out,
        "each message: the carries into the next band's first word, one bit per row of the \
         batch ({words} word{})",
        if words == 1 { "" } else { "s" }
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid lines of `text`: those between the ownership heading and the blank line.
    fn grid_lines(text: &str) -> Vec<&str> {
        text.lines()
            .skip_while(|l| !l.starts_with("ownership ("))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect()
    }

    fn printed_total(text: &str) -> u64 {
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("predicted boundary messages: "))
            .unwrap_or_else(|| panic!("no predicted total in:\n{text}"));
        line.parse().unwrap()
    }

    /// Asserts that `text` holds each of `parts`, showing the whole text when one is missing.
    fn holds(text: &str, parts: &[&str]) {
        for part in parts {
            assert!(text.contains(part), "{part:?} is not in\n{text}");
        }
    }

    #[test]
    fn bands_text_lists_bands_and_messages() {
        let plan = crate::engines::bands::BandPlan::new(200, 1000, 20, 64);
        let text = bands_text(&plan);
        assert!(
            text.starts_with("bands: 200 rows x 1000 cols, 20 ranks, 16 words"),
            "{text}"
        );
        holds(
            &text,
            &[
                "p0  0..1  0..64  12800\n",
                "p15  15..16  960..1000  8000\n",
                "p16..p19: no band",
                "predicted boundary messages: 60 (15 band edges x 4 batches)",
                "  p2 -> p3: 4\n",
            ],
        );
    }

    #[test]
    fn report_grid_5x8_3_ranks() {
        let text = schedule_text(&Schedule::new(5, 8, 3));
        assert!(
            text.starts_with("schedule: 5 rows x 8 cols, 3 ranks, 12 diagonals, 40 cells\n"),
            "{text}"
        );
        assert_eq!(
            grid_lines(&text),
            [
                "p0 p0 p0 p0 p0 p0 p0 p0",
                "p1 p1 p0 p0 p0 p0 p0 p0",
                "p2 p1 p1 p1 p1 p1 p0 p0",
                "p2 p1 p1 p1 p1 p1 p1 p0",
                "p2 p2 p2 p2 p2 p2 p1 p0",
            ],
            "{text}"
        );
    }

    #[test]
    fn report_grid_4x6_2_ranks() {
        let text = schedule_text(&Schedule::new(4, 6, 2));
        assert_eq!(
            grid_lines(&text),
            [
                "p0 p0 p0 p0 p0 p0",
                "p1 p0 p0 p0 p0 p0",
                "p1 p1 p1 p1 p0 p0",
                "p1 p1 p1 p1 p1 p0",
            ],
            "{text}"
        );
    }

    #[test]
    fn segment_table_of_5x8_3_ranks() {
        let text = schedule_text(&Schedule::new(5, 8, 3));
        let table: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("segments"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(table.len(), 13, "{text}");
        assert_eq!(
            table[0], "diag  len  p  c  f  r  p0          p1          p2        msgs",
            "{text}"
        );
        assert_eq!(
            table[1], "   0    1  1  1  1  0  0..1 [0]    -           -            1",
            "{text}"
        );
        assert_eq!(
            table[5], "   4    5  3  2  1  2  0..2 [0-1]  2..4 [2-3]  4..5 [4]     2",
            "{text}"
        );
        assert_eq!(
            table[9], "   8    4  3  2  1  1  0..2 [1-2]  2..3 [3]    3..4 [4]     2",
            "{text}"
        );
        assert_eq!(
            table[12], "  11    1  1  1  1  0  0..1 [4]    -           -            0",
            "{text}"
        );
        // The formulas, in the report's names.
        assert!(
            text.contains("cell_proc(i, j) = pos / c if pos < c*r"),
            "{text}"
        );
        assert!(
            text.contains("diag_start_end(d, k): p = min(P, L)"),
            "{text}"
        );
    }

    /// Messages per diagonal add up to the predicted total, for any shape.
    #[test]
    fn messages_per_diagonal_sum_to_the_total() {
        for (m, n, p) in [(5, 8, 3), (4, 6, 2), (7, 7, 16), (9, 40, 5), (1, 1, 1)] {
            let s = Schedule::new(m, n, p);
            let text = schedule_text(&s);
            let sum: u64 = text
                .lines()
                .skip_while(|l| !l.starts_with("segments"))
                .skip(2)
                .take_while(|l| !l.is_empty() && !l.contains("no segment"))
                .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
                .sum();
            assert_eq!(sum, s.predicted_messages().total, "{m}x{n} P={p}:\n{text}");
        }
    }

    #[test]
    fn no_trailing_spaces() {
        for (m, n, p) in [(5, 8, 3), (4, 6, 2), (3, 12, 11), (7, 7, 16), (2, 64, 2)] {
            let text = schedule_text(&Schedule::new(m, n, p));
            for line in text.lines() {
                assert_eq!(line, line.trim_end(), "{m}x{n} P={p}:\n{text}");
            }
        }
    }

    /// Labels `p10` and up are padded so that every grid column has the same width.
    #[test]
    fn grid_columns_line_up_past_ten_ranks() {
        let text = schedule_text(&Schedule::new(12, 12, 12));
        let lines = grid_lines(&text);
        assert_eq!(lines.len(), 12, "{text}");
        assert_eq!(
            lines[0], "p0  p0  p0  p0  p0  p0  p0  p0  p0  p0  p0  p0",
            "{text}"
        );
        assert!(lines[11].starts_with("p11 "), "{text}");
    }

    #[test]
    fn wide_grid_is_omitted_but_summary_printed() {
        let s = Schedule::new(10, 100, 4);
        let text = schedule_text(&s);
        holds(
            &text,
            &[
                "ownership grid omitted: 100 columns is wider than 64",
                "segments omitted",
                "\n  p3    ",
            ],
        );
        assert!(grid_lines(&text).is_empty(), "{text}");
        assert!(!text.contains("p0 p0"), "{text}");
        assert!(!text.contains("diag  len"), "{text}");
        assert_eq!(printed_total(&text), s.predicted_messages().total);
    }

    #[test]
    fn grid_of_exactly_max_cols_is_printed() {
        let text = schedule_text(&Schedule::new(3, MAX_GRID_COLS, 2));
        assert_eq!(grid_lines(&text).len(), 3, "{text}");
        assert!(!text.contains("omitted"), "{text}");
    }

    #[test]
    fn many_diagonals_omit_the_table() {
        let s = Schedule::new(150, 150, 8);
        let text = schedule_text(&s);
        holds(&text, &["ownership grid omitted", "segments omitted"]);
        assert_eq!(printed_total(&text), s.predicted_messages().total);
    }

    #[test]
    fn printed_total_and_pairs_match_prediction() {
        for (m, n, p) in [(5, 8, 3), (4, 6, 2), (1, 1, 1), (9, 40, 5), (30, 200, 7)] {
            let s = Schedule::new(m, n, p);
            let text = schedule_text(&s);
            let predicted = s.predicted_messages();
            assert_eq!(printed_total(&text), predicted.total, "{m}x{n} P={p}");
            for (from, row) in predicted.pairs().iter().enumerate() {
                for (to, &count) in row.iter().enumerate() {
                    let line = format!("  p{from} -> p{to}: {count}\n");
                    assert_eq!(text.contains(&line), count > 0, "{line}in\n{text}");
                }
            }
        }
    }

    #[test]
    fn per_rank_lines_sum_to_all_cells_and_name_the_neighbours() {
        let s = Schedule::new(5, 8, 3);
        let text = schedule_text(&s);
        let tail: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("per rank"))
            .skip(2)
            .collect();
        let sum: u64 = tail
            .iter()
            .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(tail.len(), 3, "{text}");
        assert_eq!(sum, 40, "{text}");
        assert_eq!(
            tail[1], "  p1       14  1..10 (10)  p0: 4, p2: 6  p0: 7, p2: 3",
            "{text}"
        );
    }

    /// More ranks than rows: the idle ranks are named once, not given empty columns.
    #[test]
    fn idle_ranks_are_named() {
        let text = schedule_text(&Schedule::new(3, 5, 8));
        holds(
            &text,
            &[
                "p3..p7: no segment on any diagonal",
                "  p3..p7: 0 cells each",
                "  p0        p1        p2        msgs\n",
            ],
        );
    }

    #[test]
    fn empty_matrix() {
        let text = schedule_text(&Schedule::new(0, 4, 2));
        assert!(
            text.starts_with("schedule: 0 rows x 4 cols, 2 ranks, 0 diagonals, 0 cells\n"),
            "{text}"
        );
        holds(&text, &["(empty matrix: no cells)"]);
        assert_eq!(printed_total(&text), 0);
    }

    /// The summary of the largest experiment is pure arithmetic and must stay cheap (the
    /// prediction itself is checked at 64 ranks in `schedule`; 8 keeps debug builds quick).
    #[test]
    fn huge_matrix_prints_summary_only() {
        let s = Schedule::new(100_000, 100_000, 8);
        let text = schedule_text(&s);
        assert!(
            text.starts_with(
                "schedule: 100000 rows x 100000 cols, 8 ranks, 199999 diagonals, 10000000000 cells\n"
            ),
            "{text}"
        );
        holds(&text, &["ownership grid omitted", "segments omitted"]);
        assert!(printed_total(&text) > 0, "{text}");
        let cells: u64 = (0..8).map(|k| s.rank_cells(k)).sum();
        assert_eq!(cells, 10_000_000_000);
    }
}
