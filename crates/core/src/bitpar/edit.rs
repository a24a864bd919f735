//! The bit-parallel edit-distance row: Myers' step (Myers 1999, doi:10.1145/316542.316550) for
//! the global distance as in Hyyrö 2003 ("A bit-vector algorithm for computing Levenshtein and
//! Damerau edit distances"); edlib's `calculateBlock` (Šošić & Šikić 2017,
//! doi:10.1093/bioinformatics/btw753) computes the same block. The traceback bits follow Hyyrö
//! 2004 ("A note on bit-parallel alignment computation"). The step family is [`Row`]'s; this is
//! the edit distance's word step, its carry ([`Delta`]), and its portable four rows.
//!
//! Row `i` is kept as its horizontal deltas `D(i, j) - D(i, j-1)`: bit `j` of `pv` set iff +1, of
//! `mv` iff -1; before row 0 `pv` is all ones. Per word, with `Eq` the match mask of `x[i]` and
//! `Ph_s`/`Mh_s` the vectors `Ph`/`Mh` moved up one column (bit 0 from `hin`):
//!
//! ```text
//! Xv  = Eq | Mv                  Xh  = Eq | Mh_s            (an addition's carry chain)
//! Ph  = Mv | !(Xh | Pv)          Mh  = Pv & Xh              (vertical +1 / -1)
//! Pv' = Mh_s | !(Xv | Ph_s)      Mv' = Ph_s & Xv            (horizontal +1 / -1)
//! ```
//!
//! What crosses a word edge is one vertical delta in {-1, 0, +1} ([`Delta`]; +1 at the matrix's
//! left edge, [`Delta::EDGE`]): runs chained left to right, each `hout` the next run's `hin`,
//! compute the whole row. The traced steps also write the walk's "substitute" bits
//! (`(Pv' ^ Ph_s) & !(Mv' | Mh_s)`) and "up" bits (`Ph`), in that order, the walk's
//! ([`Problem::step`]). Padding columns match nothing and never affect a real one; the distance
//! sums real columns only ([`delta_sum`]).
//!
//! Cost: per word three loads, about twenty operations (one add with carry) and two stores (four
//! traced), no branch. The portable four rows make two passes of two rows; where the CPU has
//! AVX2 or AVX-512 the four rows run as the lanes of one vector. The derivation, the padding and
//! why two passes: `docs/algorithms.md#the-bit-parallel-edit-distance-step`.

use crate::problem::Problem;
use crate::recurrence::Edit;

use super::carry::Carried;
#[cfg(target_arch = "x86_64")]
use super::four_rows::LaneCarry;
use super::kernel::FUSED_ROWS;
use super::masks::{Masks, WORD_BITS};
use super::row::{Planes, Row};

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod delta;

pub use delta::Delta;

impl Delta {
    /// Bits a message spends on one delta.
    pub const BITS: u32 = 2;

    /// The delta at the matrix's left edge, `D(i, -1) - D(i-1, -1)`: the `hin` of a run that
    /// starts at column 0.
    pub const EDGE: Delta = Delta::Plus;

    /// The delta as a number.
    #[inline]
    pub fn value(self) -> i8 {
        self as i8
    }

    /// The two-bit payload: `0b01` for +1, `0b10` for -1, `0b00` for 0.
    #[inline]
    pub fn to_bits(self) -> u8 {
        let (plus, minus) = self.split();
        plus as u8 | (u8::from(minus) << 1)
    }

    /// The delta a two-bit payload ([`Delta::to_bits`]) carries; only the low two bits are
    /// read, and `0b11` is no delta (panics).
    #[inline]
    pub fn from_bits(bits: u8) -> Delta {
        match bits & 0b11 {
            0b00 => Delta::Zero,
            0b01 => Delta::Plus,
            0b10 => Delta::Minus,
            _ => panic!("0b11 is not an edit-distance delta"),
        }
    }

    /// As the kernel reads it: the `+1` bit (shifted into `Ph_s`) and the `-1` bit (the
    /// addition's carry).
    #[inline(always)]
    fn split(self) -> (u64, bool) {
        (u64::from(self == Delta::Plus), self == Delta::Minus)
    }

    /// The delta from the kernel's two bits (never both set).
    #[inline(always)]
    fn join(plus: u64, minus: bool) -> Delta {
        debug_assert!(plus <= 1 && !(plus == 1 && minus));
        match plus as i8 - i8::from(minus) {
            1 => Delta::Plus,
            -1 => Delta::Minus,
            _ => Delta::Zero,
        }
    }
}

/// One word of a row, as the kernel leaves it; `M` is how the -1 bit of `hout` is kept (a
/// carry flag, or a 0/1 word).
struct Word<M> {
    /// The new horizontal deltas (`Pv'`, `Mv'`).
    pv: u64,
    mv: u64,
    /// The traceback bits: `v(i, j) = +1` and `D(i, j) - D(i-1, j-1) = +1`.
    up: u64,
    sub: u64,
    /// `hout`, split: `Ph[63]` (0 or 1) and `Mh[63]`.
    plus: u64,
    minus: M,
}

/// One word of the row step with `hin` split into its `+1` bit and its `-1` bit (see the
/// module doc). The untraced steps drop `up` and `sub`, which the compiler then never computes.
#[inline(always)]
fn word_step(pv: u64, mv: u64, eq: u64, plus: u64, minus: bool) -> Word<bool> {
    let xv = eq | mv;
    // Xh = ((Eq & Pv) + Pv + [hin = -1]) ^ Pv | Eq; at most one of the two additions overflows,
    // and the carry out of the sum is Mh[63].
    let (partial, c1) = (eq & pv).overflowing_add(pv);
    let (sum, c2) = partial.overflowing_add(u64::from(minus));
    let xh = (sum ^ pv) | eq;
    let ph = mv | !(xh | pv);
    let mh = pv & xh;
    let ph_s = (ph << 1) | plus;
    let mh_s = (mh << 1) | u64::from(minus);
    let pv_new = mh_s | !(xv | ph_s);
    let mv_new = ph_s & xv;
    Word {
        pv: pv_new,
        mv: mv_new,
        up: ph,
        sub: (pv_new ^ ph_s) & !(mv_new | mh_s),
        plus: ph >> (WORD_BITS - 1),
        minus: c1 | c2,
    }
}

impl Carried for Edit {
    type Carry = Delta;
}

impl Row<2> for Edit {
    const PROBLEM: Problem = Problem::Edit;
    const EDGE: Delta = Delta::EDGE;
    /// `hin` split into its `+1` bit (shifted into `Ph_s`) and its `-1` bit (the addition's
    /// carry).
    type Kept = (u64, bool);

    #[inline(always)]
    fn keep(carry: Delta) -> (u64, bool) {
        carry.split()
    }

    #[inline(always)]
    fn give((plus, minus): (u64, bool)) -> Delta {
        Delta::join(plus, minus)
    }

    #[inline(always)]
    fn payload(carry: Delta) -> u8 {
        carry.to_bits()
    }

    #[inline(always)]
    fn of_payload(payload: u8) -> Delta {
        Delta::from_bits(payload)
    }

    /// The new `Pv` and `Mv` words, and the walk's `sub` and `up` bits.
    #[inline(always)]
    fn word([pv, mv]: [u64; 2], eq: u64, (plus, minus): &mut (u64, bool)) -> ([u64; 2], [u64; 2]) {
        let w = word_step(pv, mv, eq, *plus, *minus);
        (*plus, *minus) = (w.plus, w.minus);
        ([w.pv, w.mv], [w.sub, w.up])
    }

    /// Two passes of two rows, which is faster than one pass of four here
    /// (`docs/algorithms.md#the-bit-parallel-edit-distance-step`).
    #[inline(always)]
    fn portable4<const TRACED: bool>(
        [pv, mv]: Planes<'_, 2>,
        eq: [&[u64]; 4],
        hin: [Delta; 4],
        trace: [Planes<'_, 2>; 4],
    ) -> [Delta; 4] {
        let [t0, t1, t2, t3] = trace;
        let [a, b] = step2::<TRACED>(pv, mv, [eq[0], eq[1]], [hin[0], hin[1]], [t0, t1]);
        let [c, d] = step2::<TRACED>(pv, mv, [eq[2], eq[3]], [hin[2], hin[3]], [t2, t3]);
        [a, b, c, d]
    }

    #[cfg(target_arch = "x86_64")]
    type Avx2 = avx2::Avx2;
    #[cfg(target_arch = "x86_64")]
    type Avx512 = avx512::Avx512;
}

#[cfg(target_arch = "x86_64")]
impl LaneCarry<2> for Edit {
    /// The words `!Ph` and `Mh` of the word to the left, of which only bit 63 is read:
    /// `[hin != +1]` and `[hin = -1]`.
    fn carry_words(hin: Delta) -> [u64; 2] {
        let (plus, minus) = hin.split();
        [(1 - plus) << 63, u64::from(minus) << 63]
    }

    fn carry_of([nph, mh]: [u64; 2]) -> Delta {
        Delta::join(1 - (nph >> 63), mh >> 63 == 1)
    }

    // The `+1` flag is kept as `!Ph`.
    const COMPLEMENTED: u8 = 0x0f;
}

/// [`word_step`] in edlib's spelling: `[hin = -1]` ORed into bit 0 of `Eq` rather than carried
/// into the addition, and `hout`'s -1 bit read from `Mh[63]` rather than from the carry flag.
/// The same addition and the same outputs (see the module doc) with two instructions fewer, but
/// the -1 bit goes through seven dependent operations from one word to the next (or, and, add,
/// xor, or, and, shift) instead of the add with carry and the flag's round trip: slower for one
/// row, faster where two rows' chains overlap ([`step2`]).
#[inline(always)]
fn word_step_eq(pv: u64, mv: u64, eq: u64, plus: u64, minus: u64) -> Word<u64> {
    let xv = eq | mv;
    let eq_h = eq | minus;
    let xh = ((eq_h & pv).wrapping_add(pv) ^ pv) | eq_h;
    let ph = mv | !(xh | pv);
    let mh = pv & xh;
    let ph_s = (ph << 1) | plus;
    let mh_s = (mh << 1) | minus;
    let pv_new = mh_s | !(xv | ph_s);
    let mv_new = ph_s & xv;
    Word {
        pv: pv_new,
        mv: mv_new,
        up: ph,
        sub: (pv_new ^ ph_s) & !(mv_new | mh_s),
        plus: ph >> (WORD_BITS - 1),
        minus: mh >> (WORD_BITS - 1),
    }
}

/// Two consecutive rows in one pass over the run, writing their traceback bits (per row `[sub,
/// up]`) if `TRACED` (otherwise they are not read and may be empty). Two rows' carried bits and
/// streams (eight in the traced pass) about fit x86-64's registers; four rows' do not.
#[inline(always)]
fn step2<const TRACED: bool>(
    pv: &mut [u64],
    mv: &mut [u64],
    eq: [&[u64]; 2],
    hin: [Delta; 2],
    trace: [Planes<'_, 2>; 2],
) -> [Delta; 2] {
    let [(mut p0, m0), (mut p1, m1)] = hin.map(Delta::split);
    let (mut m0, mut m1) = (u64::from(m0), u64::from(m1));
    let [[s0, u0], [s1, u1]] = trace;
    let state = pv
        .iter_mut()
        .zip(mv.iter_mut())
        .zip(eq[0].iter().zip(eq[1]));
    if TRACED {
        let outs = u0.iter_mut().zip(u1).zip(s0.iter_mut().zip(s1));
        for (((p, m), (&e0, &e1)), ((u0, u1), (s0, s1))) in state.zip(outs) {
            let a = word_step_eq(*p, *m, e0, p0, m0);
            (p0, m0, *u0, *s0) = (a.plus, a.minus, a.up, a.sub);
            let b = word_step_eq(a.pv, a.mv, e1, p1, m1);
            (p1, m1, *u1, *s1) = (b.plus, b.minus, b.up, b.sub);
            (*p, *m) = (b.pv, b.mv);
        }
    } else {
        for ((p, m), (&e0, &e1)) in state {
            let a = word_step_eq(*p, *m, e0, p0, m0);
            (p0, m0) = (a.plus, a.minus);
            let b = word_step_eq(a.pv, a.mv, e1, p1, m1);
            (p1, m1) = (b.plus, b.minus);
            (*p, *m) = (b.pv, b.mv);
        }
    }
    [Delta::join(p0, m0 == 1), Delta::join(p1, m1 == 1)]
}

/// The sum of a run's horizontal deltas over its first `columns` columns (the real ones):
/// `D(i, j0 + columns - 1) - D(i, j0 - 1)` for the run starting at column `j0`. A band's share
/// of a row's distance; the shares of all bands add up to `D(i, n-1) - (i + 1)`. The band
/// also knows `D(i, j0 - 1) = j0 + Σ_{r <= i} hin(r)` from the deltas it has received, so the
/// last band alone has the distance: `j0 + Σ hin + delta_sum(pv, mv, n - j0)` after row `m-1`.
pub fn delta_sum(pv: &[u64], mv: &[u64], columns: usize) -> i64 {
    debug_assert_eq!(pv.len(), mv.len(), "pv and mv widths differ");
    debug_assert!(columns <= pv.len() * WORD_BITS, "more columns than bits");
    let (full, rest) = (columns / WORD_BITS, columns % WORD_BITS);
    let count = |p: u64, m: u64| i64::from(p.count_ones()) - i64::from(m.count_ones());
    let whole: i64 = pv[..full]
        .iter()
        .zip(&mv[..full])
        .map(|(&p, &m)| count(p, m))
        .sum();
    let tail = match rest {
        0 => 0,
        r => {
            let mask = (1u64 << r) - 1;
            count(pv[full] & mask, mv[full] & mask)
        }
    };
    whole + tail
}

/// Edit distance of `x` and `y` (either may be the longer; columns are `y`) in `O(n / 64)`
/// memory: the rows stepped over one run spanning every column, four at a time, then read as
/// `D(m-1, n-1) = D(m-1, -1) + Σ h(m-1, j) = m + Σ (pv bit - mv bit)` over the real columns.
/// No traceback bits, as [`super::lcs_length`].
pub fn distance(x: &[u8], y: &[u8]) -> usize {
    let masks = Masks::new(x, y);
    let mut pv = vec![u64::MAX; masks.width()];
    let mut mv = vec![0; masks.width()];
    let mut rows = x.chunks_exact(FUSED_ROWS);
    for r in rows.by_ref() {
        let eq = [0, 1, 2, 3].map(|d| masks.of(r[d]));
        Edit::step4([&mut pv, &mut mv], eq, [Delta::EDGE; 4]);
    }
    for &b in rows.remainder() {
        Edit::step([&mut pv, &mut mv], masks.of(b), Delta::EDGE);
    }
    let last = x.len() as i64 + delta_sum(&pv, &mv, y.len());
    usize::try_from(last).expect("an edit distance is never negative")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;

    const ALL_BYTES: [u8; 256] = {
        let mut all = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            all[b] = b as u8;
            b += 1;
        }
        all
    };

    const ALPHABETS: [&[u8]; 4] = [b"ab", b"ACGT", b"abcdefghijklmnopqrstuvwxyz", &ALL_BYTES];

    /// The plain DP over prefix lengths, `t[i + 1][j + 1] = D(i, j)`, for `cols >= y.len()`
    /// columns: those past `y` match nothing, as the kernel's padding bits.
    fn table(x: &[u8], y: &[u8], cols: usize) -> Vec<Vec<i64>> {
        let mut t = vec![vec![0i64; cols + 1]; x.len() + 1];
        for (j, c) in t[0].iter_mut().enumerate() {
            *c = j as i64;
        }
        for i in 1..=x.len() {
            t[i][0] = i as i64;
            for j in 1..=cols {
                let sub = i64::from(j > y.len() || x[i - 1] != y[j - 1]);
                t[i][j] = (t[i - 1][j - 1] + sub)
                    .min(t[i - 1][j] + 1)
                    .min(t[i][j - 1] + 1);
            }
        }
        t
    }

    fn dp_distance(x: &[u8], y: &[u8]) -> usize {
        table(x, y, y.len())[x.len()][y.len()] as usize
    }

    fn bit(words: &[u64], j: usize) -> bool {
        (words[j / WORD_BITS] >> (j % WORD_BITS)) & 1 == 1
    }

    /// A random row state: `pv` and `mv` disjoint, as every real state is.
    fn random_state(rng: &mut Random, words: usize) -> (Vec<u64>, Vec<u64>) {
        let pv: Vec<u64> = (0..words).map(|_| rng.word()).collect();
        let mv = pv.iter().map(|&p| rng.word() & !p).collect();
        (pv, mv)
    }

    /// Lengths around the word sizes, and any other below 300.
    fn length(rng: &mut Random) -> usize {
        const EDGES: [usize; 10] = [0, 1, 2, 63, 64, 65, 127, 128, 129, 191];
        match rng.below(3) {
            0 => EDGES[rng.below(EDGES.len())],
            _ => rng.below(300),
        }
    }

    fn sequence(rng: &mut Random, alphabet: &[u8]) -> Vec<u8> {
        let len = length(rng);
        rng.bytes(len, alphabet)
    }

    /// `count` random pairs over each of [`ALPHABETS`], from `seed`.
    fn pairs(seed: u64, count: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
        let mut rng = Random::new(seed);
        let mut out = Vec::new();
        for alphabet in ALPHABETS {
            for _ in 0..count {
                let x = sequence(&mut rng, alphabet);
                out.push((x, sequence(&mut rng, alphabet)));
            }
        }
        out
    }

    use crate::bitpar::Row as _;

    /// One row, as the tests below spell it.
    fn step(pv: &mut [u64], mv: &mut [u64], eq: &[u64], hin: Delta) -> Delta {
        Edit::step([pv, mv], eq, hin)
    }

    /// One row with its `up` and `sub` bits.
    fn step_traced(
        pv: &mut [u64],
        mv: &mut [u64],
        eq: &[u64],
        hin: Delta,
        up: &mut [u64],
        sub: &mut [u64],
    ) -> Delta {
        Edit::step_traced([pv, mv], eq, hin, [sub, up])
    }

    /// A row's state and bits after one step (whole row or chained runs).
    #[derive(Clone, Debug, PartialEq)]
    struct Row {
        pv: Vec<u64>,
        mv: Vec<u64>,
        up: Vec<u64>,
        sub: Vec<u64>,
        hout: Delta,
    }

    /// One traced step over the whole row, checking that the untraced step agrees.
    fn whole(pv: &[u64], mv: &[u64], eq: &[u64], hin: Delta) -> Row {
        let w = pv.len();
        let (mut p, mut m, mut up, mut sub) = (pv.to_vec(), mv.to_vec(), vec![0; w], vec![0; w]);
        let hout = step_traced(&mut p, &mut m, eq, hin, &mut up, &mut sub);
        let (mut p2, mut m2) = (pv.to_vec(), mv.to_vec());
        assert_eq!(step(&mut p2, &mut m2, eq, hin), hout);
        assert_eq!((&p2, &m2), (&p, &m));
        Row {
            pv: p,
            mv: m,
            up,
            sub,
            hout,
        }
    }

    /// The row stepped as runs `cuts[0]..cuts[1]`, `cuts[1]..cuts[2]`, ... (word indices, from
    /// 0 to the width), each run's `hout` the next one's `hin`; traced and untraced agree.
    fn chained(pv: &[u64], mv: &[u64], eq: &[u64], hin: Delta, cuts: &[usize]) -> Row {
        let w = pv.len();
        let (mut p, mut m, mut up, mut sub) = (pv.to_vec(), mv.to_vec(), vec![0; w], vec![0; w]);
        let (mut p2, mut m2) = (pv.to_vec(), mv.to_vec());
        let (mut h, mut h2) = (hin, hin);
        for run in cuts.windows(2) {
            let r = run[0]..run[1];
            let (ps, ms, us, ss) = (
                &mut p[r.clone()],
                &mut m[r.clone()],
                &mut up[r.clone()],
                &mut sub[r.clone()],
            );
            h = step_traced(ps, ms, &eq[r.clone()], h, us, ss);
            h2 = step(&mut p2[r.clone()], &mut m2[r.clone()], &eq[r], h2);
        }
        assert_eq!((h2, &p2, &m2), (h, &p, &m));
        Row {
            pv: p,
            mv: m,
            up,
            sub,
            hout: h,
        }
    }

    #[test]
    fn rows_match_the_dp_cell_by_cell() {
        // Every row, every column (padding ones too, as columns that match nothing): the
        // horizontal deltas, the traceback bits, hout and the row's delta sum; and the row cut
        // into one run per word, chained, gives the same.
        for (x, y) in pairs(0xed17, 25) {
            let masks = Masks::new(&x, &y);
            let w = masks.width();
            let cols = w * WORD_BITS;
            let t = table(&x, &y, cols);
            let mut pv = vec![u64::MAX; w];
            let mut mv = vec![0; w];
            let every_word: Vec<usize> = (0..=w).collect();
            for (i, &xi) in x.iter().enumerate() {
                let row = whole(&pv, &mv, masks.of(xi), Delta::EDGE);
                let runs = chained(&pv, &mv, masks.of(xi), Delta::EDGE, &every_word);
                assert_eq!(runs, row, "row {i} in runs of one word");
                let (above, here) = (&t[i], &t[i + 1]);
                for j in 0..cols {
                    let h = here[j + 1] - here[j];
                    let v = here[j + 1] - above[j + 1];
                    let d = here[j + 1] - above[j];
                    let got = [&row.pv, &row.mv, &row.up, &row.sub].map(|w| bit(w, j));
                    let want = [h == 1, h == -1, v == 1, d == 1];
                    assert_eq!(got, want, "pv mv up sub at ({i}, {j}), x={x:?} y={y:?}");
                }
                if cols > 0 {
                    let v = here[cols] - above[cols];
                    assert_eq!(i64::from(row.hout.value()), v, "hout of row {i}");
                } else {
                    // No column: hin passes through.
                    assert_eq!(row.hout, Delta::EDGE);
                }
                let sum = delta_sum(&row.pv, &row.mv, y.len());
                assert_eq!(sum, here[y.len()] - (i as i64 + 1), "row {i}");
                (pv, mv) = (row.pv, row.mv);
            }
        }
    }

    #[test]
    fn the_last_band_alone_has_the_distance() {
        // The row cut before its last word: the right band, starting at j0, adds up the deltas
        // it receives, D(i, j0 - 1) = j0 + Σ hin, and its own share gives D(i, n - 1).
        for (x, y) in pairs(0x1a57, 25) {
            let masks = Masks::new(&x, &y);
            let Some(cut) = masks.width().checked_sub(1) else {
                continue;
            };
            let j0 = cut * WORD_BITS;
            let t = table(&x, &y, y.len());
            let mut pv = vec![u64::MAX; masks.width()];
            let mut mv = vec![0; masks.width()];
            let (left_pv, right_pv) = pv.split_at_mut(cut);
            let (left_mv, right_mv) = mv.split_at_mut(cut);
            let mut received = j0 as i64;
            for (i, &xi) in x.iter().enumerate() {
                let (left_eq, right_eq) = masks.of(xi).split_at(cut);
                let hin = step(left_pv, left_mv, left_eq, Delta::EDGE);
                step(right_pv, right_mv, right_eq, hin);
                received += i64::from(hin.value());
                assert_eq!(received, t[i + 1][j0], "D({i}, j0 - 1)");
                let share = delta_sum(right_pv, right_mv, y.len() - j0);
                assert_eq!(received + share, t[i + 1][y.len()], "D({i}, n - 1)");
            }
        }
    }

    #[test]
    fn sub_is_the_diagonal_delta() {
        // The two spellings of `sub` agree with h + v = +1 for every pair of deltas the kernel
        // can meet (pv/mv and ph_s/mh_s disjoint), one pair per bit.
        let deltas = [-1i64, 0, 1];
        let bits = |d: i64| (u64::from(d == 1), u64::from(d == -1));
        for (k, (h, v)) in deltas
            .iter()
            .flat_map(|&h| deltas.iter().map(move |&v| (h, v)))
            .enumerate()
        {
            let ((pv, mv), (ph_s, mh_s)) = (bits(h), bits(v));
            let spelled = (pv & !ph_s & !mh_s) | (ph_s & !pv & !mv);
            let computed = (pv ^ ph_s) & !(mv | mh_s);
            assert_eq!(spelled, u64::from(h + v == 1), "case {k}: h {h} v {v}");
            assert_eq!(computed, spelled, "case {k}");
        }
        // And word-wide, on random disjoint pairs.
        let mut rng = Random::new(5);
        for _ in 0..1000 {
            let (pv, mv) = random_state(&mut rng, 1);
            let (ph, mh) = random_state(&mut rng, 1);
            let (pv, mv, ph_s, mh_s) = (pv[0], mv[0], ph[0], mh[0]);
            assert_eq!(
                (pv ^ ph_s) & !(mv | mh_s),
                (pv & !ph_s & !mh_s) | (ph_s & !pv & !mv)
            );
        }
    }

    #[test]
    fn distance_agrees_with_the_dp() {
        for (x, y) in pairs(0xd157, 40) {
            let want = dp_distance(&x, &y);
            assert_eq!(distance(&x, &y), want, "x={x:?} y={y:?}");
            assert_eq!(distance(&y, &x), want, "symmetric");
        }
    }

    #[test]
    fn distance_of_near_copies() {
        // A copy with a few substitutions, insertions and deletions: small distances over long
        // rows, where the deltas are mostly 0 and -1.
        let mut rng = Random::new(0x9ea5);
        for alphabet in ALPHABETS {
            for _ in 0..30 {
                let x = sequence(&mut rng, alphabet);
                let mut y = x.clone();
                for _ in 0..rng.below(6) {
                    let at = rng.below(y.len() + 1);
                    match rng.below(3) {
                        0 if at < y.len() => y[at] = alphabet[rng.below(alphabet.len())],
                        1 if at < y.len() => {
                            y.remove(at);
                        }
                        _ => y.insert(at, alphabet[rng.below(alphabet.len())]),
                    }
                }
                let want = dp_distance(&x, &y);
                assert_eq!(distance(&x, &y), want, "x={x:?} y={y:?}");
                assert_eq!(distance(&y, &x), want);
            }
        }
    }

    #[test]
    fn distance_of_every_short_pair_over_two_letters() {
        let words = crate::exhaustive::short_words(6);
        assert_eq!(words.len(), 127);
        for x in &words {
            for y in &words {
                assert_eq!(distance(x, y), dp_distance(x, y), "x={x:?} y={y:?}");
            }
        }
    }

    #[test]
    fn distance_edge_cases() {
        assert_eq!(distance(b"", b""), 0);
        assert_eq!(distance(b"", b"abc"), 3);
        assert_eq!(distance(b"abc", b""), 3);
        assert_eq!(distance(b"a", b"a"), 0);
        assert_eq!(distance(b"a", b"b"), 1);
        assert_eq!(distance(b"a", b"bab"), 2);
        assert_eq!(distance(b"kitten", b"sitting"), 3);
        assert_eq!(distance(&[7; 64], &[7; 64]), 0);
        assert_eq!(distance(&[7; 65], &[7; 130]), 65);
        assert_eq!(distance(&[7; 130], &[8; 65]), 130);
        assert_eq!(distance(b"abc", b"xyz"), 3);
    }

    #[test]
    fn deltas_travel_as_two_bits() {
        for d in [Delta::Minus, Delta::Zero, Delta::Plus] {
            assert!(u32::from(d.to_bits()) < 1 << Delta::BITS);
            assert_eq!(Delta::from_bits(d.to_bits()), d);
            let (plus, minus) = d.split();
            assert_eq!(Delta::join(plus, minus), d);
            assert_eq!(plus as i8 - i8::from(minus), d.value());
        }
        assert_eq!(Delta::Plus.to_bits(), 0b01);
        assert_eq!(Delta::Minus.to_bits(), 0b10);
        assert_eq!(Delta::EDGE.value(), 1);
    }

    #[test]
    #[should_panic(expected = "not an edit-distance delta")]
    fn both_bits_are_no_delta() {
        Delta::from_bits(0b11);
    }

    #[test]
    fn delta_sum_reads_real_columns_only() {
        let pv = [u64::MAX, 0b1011];
        let mv = [0, 0b0100 | 1 << 63];
        assert_eq!(delta_sum(&pv, &mv, 0), 0);
        assert_eq!(delta_sum(&pv, &mv, 64), 64);
        assert_eq!(delta_sum(&pv, &mv, 66), 66);
        assert_eq!(delta_sum(&pv, &mv, 67), 65);
        assert_eq!(delta_sum(&pv, &mv, 68), 66);
        assert_eq!(delta_sum(&pv, &mv, 128), 66 - 1);
    }
}
