//! A run's path as the alignment tools write it: the extended CIGAR of SAM (Li et al. 2009,
//! doi:10.1093/bioinformatics/btp352), the PAF line of minimap2 (Li 2018,
//! doi:10.1093/bioinformatics/bty191), and the three-line view a person reads.
//!
//! The file's first sequence is the **query** and its second the **target**, as edlib's
//! `align(query, target)` and minimap2 read them, whichever of the two became the matrix's
//! rows: `=` a match, `X` a substitution, `I` a byte of the query that the target lacks, `D` a
//! byte of the target that the query lacks. A path's `Up` takes a byte of the rows alone and
//! `Left` one of the columns alone, so `Up` is `I` and `Left` is `D` when the rows are the
//! query (the file's order kept), and the other way round when they were swapped. An LCS
//! run's CIGAR has no `X`: its `=` bytes spell the LCS.
//!
//! Cost: O(m + n) to build, one operation per run of equal moves.
//!
//! ```
//! use lcs_core::alignment::{apply, Alignment};
//! use lcs_core::problem::Problem;
//! use lcs_core::reference;
//!
//! let (query, target) = (&b"kitten"[..], &b"sitting"[..]);
//! let alignment = Alignment::of_path(&reference::align(Problem::Edit, query, target), false);
//! assert_eq!(alignment.cigar(), "1X3=1X1=1D");
//! assert_eq!(alignment.edits(), 3);
//! assert_eq!(apply(&alignment.cigar(), query, target).as_deref(), Some(target));
//! ```

use std::fmt::Write as _;

use crate::problem::{Move, Path};

/// A CIGAR operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Match,
    Mismatch,
    /// A byte of the query alone.
    Insertion,
    /// A byte of the target alone.
    Deletion,
}

impl Op {
    pub fn letter(self) -> char {
        match self {
            Op::Match => '=',
            Op::Mismatch => 'X',
            Op::Insertion => 'I',
            Op::Deletion => 'D',
        }
    }

    /// The operation a walk's `step` spells; `swapped`: the rows are the target (the file's
    /// second sequence), so `Up` takes a target byte.
    pub fn of_move(step: Move, swapped: bool) -> Op {
        match (step, swapped) {
            (Move::Match, _) => Op::Match,
            (Move::Sub, _) => Op::Mismatch,
            (Move::Up, false) | (Move::Left, true) => Op::Insertion,
            (Move::Up, true) | (Move::Left, false) => Op::Deletion,
        }
    }

    /// Query and target bytes the operation takes.
    pub fn takes(self) -> (usize, usize) {
        match self {
            Op::Match | Op::Mismatch => (1, 1),
            Op::Insertion => (1, 0),
            Op::Deletion => (0, 1),
        }
    }
}

/// An alignment of the query to the target: runs of operations, in reading order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Alignment {
    pub runs: Vec<(usize, Op)>,
}

impl Alignment {
    /// The alignment `path` spells: of the whole sequences for a finished walk, of their
    /// ends for a walk so far; `swapped`: the rows are the target (the file's second
    /// sequence).
    pub fn of_path(path: &Path, swapped: bool) -> Alignment {
        let mut runs: Vec<(usize, Op)> = Vec::new();
        path.for_each_run(|step, count| {
            let op = Op::of_move(step, swapped);
            match runs.last_mut() {
                Some((run, last)) if *last == op => *run += count,
                _ => runs.push((count, op)),
            }
        });
        Alignment { runs }
    }

    /// The extended CIGAR: `12=1X3I`.
    pub fn cigar(&self) -> String {
        let mut s = String::new();
        for &(count, op) in &self.runs {
            let _ = write!(s, "{count}{}", op.letter());
        }
        s
    }

    /// Operations that are not matches: the alignment's cost in edits.
    pub fn edits(&self) -> usize {
        self.runs
            .iter()
            .filter(|(_, op)| *op != Op::Match)
            .map(|(count, _)| count)
            .sum()
    }

    /// Matching bytes.
    pub fn matches(&self) -> usize {
        self.runs
            .iter()
            .filter(|(_, op)| *op == Op::Match)
            .map(|(count, _)| count)
            .sum()
    }

    /// Columns of the alignment: every operation.
    pub fn columns(&self) -> usize {
        self.runs.iter().map(|(count, _)| count).sum()
    }

    /// The PAF line (minimap2's format, 12 columns then the `NM:i:` and `cg:Z:` tags) of a
    /// global alignment of the whole query to the whole target, without a newline. The names
    /// are written byte for byte, whatever their encoding.
    pub fn paf(&self, query: (&[u8], usize), target: (&[u8], usize)) -> Vec<u8> {
        let ((qname, qlen), (tname, tlen)) = (query, target);
        let mut line = qname.to_vec();
        line.extend(format!("\t{qlen}\t0\t{qlen}\t+\t").bytes());
        line.extend_from_slice(tname);
        line.extend(
            format!(
                "\t{tlen}\t0\t{tlen}\t{}\t{}\t255\tNM:i:{}\tcg:Z:{}",
                self.matches(),
                self.columns(),
                self.edits(),
                self.cigar()
            )
            .bytes(),
        );
        line
    }

    /// The three lines a person reads: the query with `-` where it lacks a target byte, `|`
    /// under a match, `.` under a substitution and a space under a gap, and the target with
    /// `-`. Bytes that are not printable ASCII show as `?`.
    pub fn three_lines(&self, query: &[u8], target: &[u8]) -> [String; 3] {
        let show = |b: u8| {
            if b.is_ascii_graphic() || b == b' ' {
                b as char
            } else {
                '?'
            }
        };
        self.three_lines_shown(query, target, show)
    }

    /// [`Alignment::three_lines`] with each byte shown as `show` says (for sequences coded
    /// from other symbols).
    pub fn three_lines_shown(
        &self,
        query: &[u8],
        target: &[u8],
        show: impl Fn(u8) -> char,
    ) -> [String; 3] {
        let mut lines = [String::new(), String::new(), String::new()];
        let (mut q, mut t) = (0, 0);
        for &(count, op) in &self.runs {
            for _ in 0..count {
                let (dq, dt) = op.takes();
                lines[0].push(if dq == 1 { show(query[q]) } else { '-' });
                lines[2].push(if dt == 1 { show(target[t]) } else { '-' });
                lines[1].push(match op {
                    Op::Match => '|',
                    Op::Mismatch => '.',
                    _ => ' ',
                });
                (q, t) = (q + dq, t + dt);
            }
        }
        lines
    }
}

/// A CIGAR shortened for a terminal: whole when it has at most `most` characters, else its
/// first and last operations (about `most / 2` characters each) around the number of
/// characters left out.
pub fn shorten(cigar: &str, most: usize) -> String {
    if cigar.len() <= most {
        return cigar.to_owned();
    }
    // Operation boundaries: just after each operation letter.
    let ends: Vec<usize> = cigar
        .char_indices()
        .filter(|&(_, c)| !c.is_ascii_digit())
        .map(|(at, c)| at + c.len_utf8())
        .collect();
    let head = ends
        .iter()
        .copied()
        .take_while(|&e| e <= most / 2)
        .last()
        .unwrap_or(0);
    let tail = std::iter::once(0)
        .chain(ends.iter().copied())
        .filter(|&start| start >= head && cigar.len() - start <= most / 2)
        .min()
        .unwrap_or(cigar.len());
    format!(
        "{}…({} characters)…{}",
        &cigar[..head],
        tail - head,
        &cigar[tail..]
    )
}

/// A CIGAR with every operation written out, one letter per column: `2=1X` is `==X`.
pub fn expand(cigar: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in cigar.chars() {
        match c.to_digit(10) {
            Some(d) => count = count * 10 + d as usize,
            None => {
                out.extend(std::iter::repeat_n(c, count));
                count = 0;
            }
        }
    }
    out
}

/// The target a CIGAR makes of the query, with the target's bytes for every `X` and `D` taken
/// from `target`: applying a CIGAR, for checking one. `None` when the CIGAR does not fit the
/// query, or an `=` or `X` disagrees with the bytes it claims.
pub fn apply(cigar: &str, query: &[u8], target: &[u8]) -> Option<Vec<u8>> {
    let (mut q, mut t) = (0usize, 0usize);
    let mut out = Vec::new();
    let mut count = 0usize;
    for c in cigar.chars() {
        if let Some(d) = c.to_digit(10) {
            count = count.checked_mul(10)?.checked_add(d as usize)?;
            continue;
        }
        for _ in 0..count {
            match c {
                '=' => {
                    let b = *query.get(q)?;
                    (b == *target.get(t)?).then_some(())?;
                    out.push(b);
                    (q, t) = (q + 1, t + 1);
                }
                'X' => {
                    let (a, b) = (*query.get(q)?, *target.get(t)?);
                    (a != b).then_some(())?;
                    out.push(b);
                    (q, t) = (q + 1, t + 1);
                }
                'I' => {
                    query.get(q)?;
                    q += 1;
                }
                'D' => {
                    out.push(*target.get(t)?);
                    t += 1;
                }
                _ => return None,
            }
        }
        count = 0;
    }
    (q == query.len() && count == 0).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;
    use crate::reference;

    fn path(moves: &[Move]) -> Path {
        let mut p = Path::new();
        for &m in moves {
            p.push(m);
        }
        p
    }

    #[test]
    fn a_path_reads_backwards_and_swaps_its_gaps() {
        use Move::*;
        // Rows "ab", columns "xab": the walk goes Match b, Match a, Left x.
        let p = path(&[Match, Match, Left]);
        let a = Alignment::of_path(&p, false);
        assert_eq!(a.cigar(), "1D2=");
        assert_eq!(Alignment::of_path(&p, true).cigar(), "1I2=");
        assert_eq!((a.matches(), a.edits(), a.columns()), (2, 1, 3));
        assert_eq!(
            a.three_lines(b"ab", b"xab"),
            ["-ab", " ||", "xab"].map(String::from)
        );
        assert_eq!(
            apply(&a.cigar(), b"ab", b"xab").as_deref(),
            Some(&b"xab"[..])
        );
        let sub = Alignment::of_path(&path(&[Sub, Up]), false);
        assert_eq!(sub.cigar(), "1I1X");
        assert_eq!(
            sub.three_lines(b"ab", b"c"),
            ["ab", " .", "-c"].map(String::from)
        );
    }

    #[test]
    fn the_papers_example() {
        // kitten -> sitting: three edits, k/s and e/i substituted, g inserted in the target.
        let path = reference::align(Problem::Edit, b"kitten", b"sitting");
        let a = Alignment::of_path(&path, false);
        assert_eq!(a.edits(), 3);
        assert_eq!(a.cigar(), "1X3=1X1=1D");
        assert_eq!(expand(&a.cigar()), "X===X=D");
        assert_eq!(expand("12=").len(), 12);
        assert_eq!(
            apply(&a.cigar(), b"kitten", b"sitting").as_deref(),
            Some(&b"sitting"[..])
        );
        assert_eq!(
            a.paf((b"q", 6), (b"t", 7)),
            b"q\t6\t0\t6\t+\tt\t7\t0\t7\t4\t7\t255\tNM:i:3\tcg:Z:1X3=1X1=1D"
        );
        assert_eq!(
            a.paf((b"q\xff", 6), (b"\xfe", 7))[..13],
            b"q\xff\t6\t0\t6\t+\t\xfe\t"[..]
        );
    }

    #[test]
    fn applying_checks_every_operation() {
        assert_eq!(apply("2=", b"ab", b"ab").as_deref(), Some(&b"ab"[..]));
        assert_eq!(apply("2=", b"ab", b"ax"), None, "an = over unequal bytes");
        assert_eq!(apply("1X1=", b"ab", b"ab"), None, "an X over equal bytes");
        assert_eq!(apply("1=", b"ab", b"a"), None, "the query is not used up");
        assert_eq!(apply("3=", b"ab", b"abc"), None, "past the query");
        assert_eq!(apply("1Q", b"a", b"a"), None);
    }

    #[test]
    fn long_cigars_are_shortened_between_operations() {
        let long: String = (0..200).map(|k| format!("{}=1X", k % 7 + 1)).collect();
        let short = shorten(&long, 40);
        assert!(short.chars().count() < 80, "{short}");
        let (head, rest) = short.split_once('…').unwrap();
        let (_, tail) = rest.rsplit_once('…').unwrap();
        assert!(long.starts_with(head) && long.ends_with(tail), "{short}");
        assert!(head.ends_with(['=', 'X']) && tail.starts_with(char::is_numeric));
        assert_eq!(shorten("3=", 40), "3=");
    }
}
