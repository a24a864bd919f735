//! The two problems both engines solve, and the walk both share: its moves and how they travel.
//!
//! Rows are `x` (the shorter sequence), columns `y`; cells are 0-indexed, and virtual cells left
//! of column 0 or above row 0 hold the border (the DP of Wagner & Fischer 1974,
//! doi:10.1145/321796.321811):
//!
//! * [`Problem::Lcs`]: `M(i, j)` = LCS length of `x[..=i]` and `y[..=j]`, border 0;
//!   `M(i, j) = M(i-1, j-1) + 1` on a match, else `max(M(i-1, j), M(i, j-1))`.
//! * [`Problem::Edit`]: `D(i, j)` = unit-cost edit (Levenshtein) distance of `x[..=i]` and
//!   `y[..=j]`, border `D(-1, j) = j + 1`, `D(i, -1) = i + 1`, `D(-1, -1) = 0`;
//!   `D(i, j) = D(i-1, j-1)` on a match, else `1 + min(D(i-1, j-1), D(i-1, j), D(i, j-1))`.
//!
//! A virtual cell's border depends on its anti-diagonal `e = i + j` alone (`0`, or `e + 2`:
//! [`Problem::border`]). The walk goes from `(m-1, n-1)` until it leaves the matrix, one [`Move`]
//! per cell: a match diagonally; else for the LCS up when `M(i-1, j) >= M(i, j-1)`, else left;
//! for the edit distance diagonally when `D(i-1, j-1) = D(i, j) - 1`, else up when
//! `D(i-1, j) = D(i, j) - 1`, else left. The rest of the path runs along the border
//! ([`Path::leave`]), so it takes every byte of both sequences. A path travels in messages packed
//! four moves to a byte ([`Path::encode`]): at most `(m + n) / 4` bytes. Why the walk stops only
//! when it leaves the matrix: `docs/algorithms.md#problems-recurrences-and-the-walk`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Which problem a run solves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Problem {
    /// The longest common subsequence.
    #[default]
    Lcs,
    /// The edit (Levenshtein) distance, with its alignment.
    Edit,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Problem::Lcs => "lcs",
            Problem::Edit => "edit",
        })
    }
}

impl Problem {
    /// The problem's name in a title: `LCS` or `Edit distance`.
    pub fn title(self) -> &'static str {
        match self {
            Problem::Lcs => "LCS",
            Problem::Edit => "Edit distance",
        }
    }

    /// The value of a virtual cell on anti-diagonal `e` (`e >= -2`: row -1 or column -1).
    pub fn border(self, e: isize) -> u32 {
        debug_assert!(e >= -2, "diagonal {e} lies outside the border");
        match self {
            Problem::Lcs => 0,
            Problem::Edit => (e + 2) as u32,
        }
    }

    /// The walk's move at a mismatch cell whose kept bits are `bits`: for the LCS `[up, _]`
    /// (`M(i-1, j) >= M(i, j-1)`), for the edit distance `[sub, up]` (`D(i-1, j-1) = D(i, j) -
    /// 1`, `D(i-1, j) = D(i, j) - 1`).
    #[inline(always)]
    pub fn step(self, bits: [bool; 2]) -> Move {
        match (self, bits) {
            (Problem::Lcs, [true, _]) | (Problem::Edit, [false, true]) => Move::Up,
            (Problem::Edit, [true, _]) => Move::Sub,
            _ => Move::Left,
        }
    }

    /// Bits the walk keeps per cell: 1 for the LCS, 2 for the edit distance.
    pub fn planes(self) -> usize {
        match self {
            Problem::Lcs => 1,
            Problem::Edit => 2,
        }
    }

    /// The largest value a cell or a virtual cell of an `m x n` matrix (`m <= n`) can hold.
    pub fn max_value(self, m: usize, n: usize) -> usize {
        match self {
            Problem::Lcs => m,
            Problem::Edit => n,
        }
    }
}

/// One step of the walk, from the cell it leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// `x[i] == y[j]`: to `(i-1, j-1)`.
    Match = 0,
    /// A substitution (edit distance only): to `(i-1, j-1)`.
    Sub = 1,
    /// `x[i]` alone: to `(i-1, j)`.
    Up = 2,
    /// `y[j]` alone: to `(i, j-1)`.
    Left = 3,
}

impl Move {
    const ALL: [Move; 4] = [Move::Match, Move::Sub, Move::Up, Move::Left];

    /// The cell the move reaches from `(i, j)`; `None` for a coordinate that leaves the matrix.
    pub fn from(self, i: usize, j: usize) -> (Option<usize>, Option<usize>) {
        match self {
            Move::Match | Move::Sub => (i.checked_sub(1), j.checked_sub(1)),
            Move::Up => (i.checked_sub(1), Some(j)),
            Move::Left => (Some(i), j.checked_sub(1)),
        }
    }
}

/// The moves of a walk, in the order the walk makes them (from `(m-1, n-1)` backwards),
/// packed four to a byte.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Path {
    packed: Vec<u8>,
    len: usize,
}

/// Bytes of an encoded path before its moves: the number of moves.
pub const PATH_HEADER_BYTES: usize = 8;

impl Path {
    pub fn new() -> Path {
        Path::default()
    }

    /// The path of a matrix with no rows (`x` empty) and `cols` columns: all of it along the
    /// border, one move left per column.
    pub fn of_no_rows(cols: usize) -> Path {
        let mut path = Path::new();
        path.leave((None, cols.checked_sub(1)));
        path
    }

    /// Moves so far.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends one move.
    #[inline]
    pub fn push(&mut self, step: Move) {
        let (byte, shift) = (self.len / 4, 2 * (self.len % 4));
        if shift == 0 {
            self.packed.push(0);
        }
        self.packed[byte] |= (step as u8) << shift;
        self.len += 1;
    }

    /// Appends `count` copies of `step`: one at a time to the next whole byte, then whole
    /// bytes of four.
    pub fn push_n(&mut self, step: Move, count: usize) {
        let mut left = count;
        while left > 0 && !self.len.is_multiple_of(4) {
            self.push(step);
            left -= 1;
        }
        let bytes = left / 4;
        self.packed
            .resize(self.packed.len() + bytes, (step as u8) * 0b0101_0101);
        self.len += 4 * bytes;
        for _ in 0..left % 4 {
            self.push(step);
        }
    }

    /// Move `t` (0 = the first the walk made).
    pub fn get(&self, t: usize) -> Move {
        debug_assert!(t < self.len, "move {t} of {}", self.len);
        Move::ALL[usize::from(self.packed[t / 4] >> (2 * (t % 4)) & 3)]
    }

    /// The moves in walk order (last cell of the matrix first).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Move> + ExactSizeIterator + '_ {
        (0..self.len).map(|t| self.get(t))
    }

    /// The moves in reading order (the first row and column first: the walk's order reversed),
    /// as runs: `visit(step, count)` for `count` copies of `step`, where two calls in a row may
    /// give the same move. Moves are read 32 at a time, a word of 32 matches (a word of zeros)
    /// is one call: a near-identical pair's path of 10^6 moves takes some 30,000 calls.
    pub fn for_each_run(&self, mut visit: impl FnMut(Move, usize)) {
        const WORD: usize = 32;
        let mut t = self.len;
        while !t.is_multiple_of(WORD) {
            t -= 1;
            visit(self.get(t), 1);
        }
        while t > 0 {
            let bytes = &self.packed[t / 4 - 8..t / 4];
            if bytes == [0; 8] {
                visit(Move::Match, WORD);
                t -= WORD;
                continue;
            }
            for _ in 0..WORD {
                t -= 1;
                visit(self.get(t), 1);
            }
        }
    }

    /// The walk left the matrix towards `(i, j)` (`None` = -1): the rest of the path runs along
    /// the border, `Left` for each column still ahead on row -1, `Up` for each row on column
    /// -1.
    pub fn leave(&mut self, next: (Option<usize>, Option<usize>)) {
        match next {
            (None, Some(j)) => self.push_n(Move::Left, j + 1),
            (Some(i), None) => self.push_n(Move::Up, i + 1),
            (None, None) => {}
            (Some(i), Some(j)) => unreachable!("({i}, {j}) is inside the matrix"),
        }
    }

    /// The bytes of `x` (the rows) that the path matches, in reading order: for an LCS run,
    /// the LCS; for a walk so far, the matches of the last rows it has crossed.
    pub fn matched(&self, x: &[u8]) -> Vec<u8> {
        // A walk so far covers the last rows of `x`: its first row in reading order is past
        // those it has yet to cross.
        let mut rows = 0;
        self.for_each_run(|step, count| {
            if step != Move::Left {
                rows += count;
            }
        });
        let mut i = x.len() - rows;
        let mut out = Vec::new();
        self.for_each_run(|step, count| match step {
            Move::Match => {
                out.extend_from_slice(&x[i..i + count]);
                i += count;
            }
            Move::Sub | Move::Up => i += count,
            Move::Left => {}
        });
        out
    }

    /// Moves that are not matches: the cost of the alignment the path spells, the edit
    /// distance of an edit run's path. A match is the move 0, so these are the non-zero pairs
    /// of bits, counted eight bytes at a time (the bytes past the last move are 0).
    pub fn edits(&self) -> usize {
        const LOW: u64 = 0x5555_5555_5555_5555;
        let mut words = self.packed.chunks_exact(8);
        let count = |w: u64| ((w | (w >> 1)) & LOW).count_ones() as usize;
        let whole: usize = words
            .by_ref()
            .map(|c| count(u64::from_le_bytes(c.try_into().expect("8 bytes"))))
            .sum();
        let rest = words
            .remainder()
            .iter()
            .map(|&b| count(u64::from(b)))
            .sum::<usize>();
        whole + rest
    }

    /// Whether the path spans exactly `m` rows and `n` columns, matching only equal bytes and
    /// substituting only unequal ones: what every finished path must be.
    pub fn spans(&self, x: &[u8], y: &[u8]) -> bool {
        let (mut i, mut j) = (x.len(), y.len());
        for step in self.iter() {
            let (di, dj) = match step {
                Move::Match | Move::Sub => (1, 1),
                Move::Up => (1, 0),
                Move::Left => (0, 1),
            };
            if i < di || j < dj {
                return false;
            }
            (i, j) = (i - di, j - dj);
            let equal = di == 1 && dj == 1 && x[i] == y[j];
            if (step == Move::Match) != equal && di + dj == 2 {
                return false;
            }
        }
        i == 0 && j == 0
    }

    /// Bytes [`Path::encode`] writes.
    pub fn encoded_len(&self) -> usize {
        PATH_HEADER_BYTES + self.packed.len()
    }

    /// Appends the path to `out`: the number of moves (little-endian `u64`), then the moves.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.len as u64).to_le_bytes());
        out.extend_from_slice(&self.packed);
    }

    /// The path encoded at the start of `bytes`; `None` when they are not one.
    pub fn decode(bytes: &[u8]) -> Option<Path> {
        let header: [u8; PATH_HEADER_BYTES] = bytes.get(..PATH_HEADER_BYTES)?.try_into().ok()?;
        let len = usize::try_from(u64::from_le_bytes(header)).ok()?;
        let packed = bytes.get(PATH_HEADER_BYTES..)?;
        (packed.len() == len.div_ceil(4)).then(|| Path {
            packed: packed.to_vec(),
            len,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_count_the_moves_that_are_not_matches() {
        for len in [0usize, 1, 3, 4, 5, 31, 32, 33, 100, 1000] {
            let mut path = Path::new();
            let moves: Vec<Move> = (0..len).map(|t| Move::ALL[(t * 5 + t / 7) % 4]).collect();
            for &m in &moves {
                path.push(m);
            }
            let plain = moves.iter().filter(|&&m| m != Move::Match).count();
            assert_eq!(path.edits(), plain, "{len} moves");
        }
        let mut path = Path::new();
        path.push_n(Move::Match, 77);
        path.push_n(Move::Left, 9);
        assert_eq!(path.edits(), 9);
    }

    #[test]
    fn moves_pack_four_to_a_byte_and_round_trip() {
        for len in [0usize, 1, 3, 4, 5, 8, 9, 100] {
            let mut path = Path::new();
            let moves: Vec<Move> = (0..len).map(|t| Move::ALL[(t * 7 + t / 3) % 4]).collect();
            for &m in &moves {
                path.push(m);
            }
            assert_eq!(path.len(), len);
            assert_eq!(path.iter().collect::<Vec<_>>(), moves);
            let mut bytes = vec![0xaa];
            path.encode(&mut bytes);
            assert_eq!(bytes.len(), 1 + path.encoded_len());
            assert_eq!(path.encoded_len(), 8 + len.div_ceil(4));
            assert_eq!(Path::decode(&bytes[1..]), Some(path.clone()));
            assert_eq!(
                Path::decode(&bytes[1..bytes.len() - 1]),
                None,
                "one byte short"
            );
        }
        assert_eq!(Path::decode(&[1, 0, 0]), None);
    }

    #[test]
    fn runs_of_one_move_pack_like_single_moves() {
        for before in 0..5 {
            for count in [0usize, 1, 3, 4, 5, 9, 100] {
                let (mut bulk, mut one) = (Path::new(), Path::new());
                for p in [&mut bulk, &mut one] {
                    for _ in 0..before {
                        p.push(Move::Up);
                    }
                }
                bulk.push_n(Move::Left, count);
                for _ in 0..count {
                    one.push(Move::Left);
                }
                assert_eq!(bulk, one, "{before} then {count}");
            }
        }
    }

    /// Runs of matches across and between whole words, a lone edit at each place of a word,
    /// and lengths on either side of a word's end: the runs spell the moves in reading order,
    /// and the matched bytes are the plain walk's.
    #[test]
    fn runs_read_the_moves_backwards_a_word_of_matches_at_once() {
        for len in [0usize, 1, 31, 32, 33, 64, 95, 96, 97, 300] {
            for edit_at in [None, Some(0), Some(31), Some(32), Some(len / 2)] {
                let mut path = Path::new();
                let moves: Vec<Move> = (0..len)
                    .map(|t| match (Some(t) == edit_at, t) {
                        (true, _) => Move::ALL[1 + t % 3],
                        (false, t) if t % 101 > 90 => Move::ALL[t % 4],
                        _ => Move::Match,
                    })
                    .collect();
                for &m in &moves {
                    path.push(m);
                }
                let mut spelled = Vec::new();
                let mut calls = 0;
                path.for_each_run(|step, count| {
                    spelled.extend(std::iter::repeat_n(step, count));
                    calls += 1;
                });
                let reading: Vec<Move> = moves.iter().rev().copied().collect();
                assert_eq!(spelled, reading, "{len} moves, edit at {edit_at:?}");
                if edit_at.is_none() && len == 64 {
                    assert_eq!(calls, 2, "two words of matches");
                }
                let x: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
                let rows = moves.iter().filter(|&&m| m != Move::Left).count();
                let mut i = rows;
                let mut want = Vec::new();
                for &step in &moves {
                    if step != Move::Left {
                        i -= 1;
                        if step == Move::Match {
                            want.push(x[i]);
                        }
                    }
                }
                want.reverse();
                assert_eq!(path.matched(&x[..rows]), want, "{len} moves");
                // A walk so far: the last rows of a longer x.
                let longer: Vec<u8> = [&b"xyz"[..], &x[..rows]].concat();
                assert_eq!(path.matched(&longer), want, "{len} moves of a longer x");
            }
        }
    }

    #[test]
    fn leaving_the_matrix_follows_the_border() {
        let mut path = Path::new();
        path.leave((None, Some(2)));
        path.leave((Some(1), None));
        path.leave((None, None));
        use Move::*;
        assert_eq!(path.iter().collect::<Vec<_>>(), [Left, Left, Left, Up, Up]);
        assert_eq!(Match.from(0, 3), (None, Some(2)));
        assert_eq!(Up.from(2, 0), (Some(1), Some(0)));
        assert_eq!(Left.from(2, 0), (Some(2), None));
    }

    #[test]
    fn a_path_spells_its_matches_and_costs_its_edits() {
        use Move::*;
        // x = "ab", y = "cab": walk from (1, 2): Match b, Match a, then Left c.
        let mut path = Path::new();
        for step in [Match, Match, Left] {
            path.push(step);
        }
        assert_eq!(path.matched(b"ab"), b"ab");
        assert_eq!(path.edits(), 1);
        assert!(path.spans(b"ab", b"cab"));
        assert!(!path.spans(b"ab", b"cb"), "too many columns");
        assert!(!path.spans(b"ab", b"cax"), "a match of unequal bytes");
        let mut sub = Path::new();
        sub.push(Sub);
        assert!(sub.spans(b"a", b"b") && !sub.spans(b"a", b"a"));
        assert_eq!(Problem::Edit.step([true, true]), Sub);
        assert_eq!(Problem::Edit.step([false, true]), Up);
        assert_eq!(Problem::Edit.step([false, false]), Left);
        assert_eq!(Problem::Lcs.step([true, false]), Up);
        assert_eq!(Problem::Lcs.step([false, true]), Left);
    }

    #[test]
    fn borders_depend_on_the_diagonal_alone() {
        assert_eq!(Problem::Lcs.border(5), 0);
        // D(-1, j) = j + 1 lies on diagonal j - 1; D(i, -1) = i + 1 on i - 1.
        for j in 0..10isize {
            assert_eq!(Problem::Edit.border(j - 1), (j + 1) as u32);
        }
        assert_eq!(Problem::Edit.border(-2), 0);
    }
}
