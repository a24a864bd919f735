//! The four fused rows of the edit-distance step ([`super::step4`]) as the four 64-bit lanes
//! of one AVX2 vector: every word operation of the step is done for four rows at once.
//!
//! # The wavefront
//!
//! Word `t` of row `i + 1` needs word `t` of row `i` (its `pv`, `mv`) and word `t - 1` of its
//! own row (`hin`: the `+1` and `-1` bits out of bit 63). So the rows cannot all work on the
//! same word: row `i + r` works on word `s - LAG * r` at step `s`. The vector holds the rows
//! from the last to the first, so that what goes in and out of memory sits at its ends:
//!
//! ```text
//! lane 3: row i,     word s            pv, mv loaded from the run
//! lane 2: row i + 1, word s - LAG      pv, mv = lane 3's output LAG steps ago
//! lane 1: row i + 2, word s - 2 LAG    pv, mv = lane 2's output LAG steps ago
//! lane 0: row i + 3, word s - 3 LAG    its output stored to the run
//! ```
//!
//! and each lane's `hin` is its own `hout` of the step before. A step's output goes to memory
//! whole: lane 0 is the finished word `s - 3 LAG`, the other three land on the words that the
//! next three steps store again (and that lane 3 has read long ago). Passing the state down is
//! one cross-lane permute per vector (`[o1, o2, o3, _]`) and a blend that puts the run's word
//! `s` into lane 3. The stagger costs `3 LAG` extra steps: a prologue where the later rows have
//! not started and an epilogue where the earlier ones have finished, done one lane at a time
//! with masks that keep an idle lane's `hin` (or `hout`); in between, every lane is busy and
//! nothing is checked.
//!
//! `LAG` is 3 because of latency. With `LAG = 1` each step would wait for the one before
//! (`pv` through eleven dependent operations and the permute: some 15 cycles for four
//! row-words); with `LAG = 3` a step waits for the one three steps back, so three steps are in
//! flight, and the only chain from one step to the next is a lane's own `-1` bit (two adds, xor,
//! or, and, shift: six cycles), below what the core needs to issue a step anyway. `LAG = 2`
//! measured some 15% slower, 4 no faster.
//!
//! # The word step, in vector form
//!
//! The operations of the scalar `word_step` (the `-1` bit of `hin` added as the carry into the
//! sum, whose carry out is `Mh[63]`: each lane's addition is a plain 64-bit add, nothing to
//! emulate), with the `+1` side kept complemented, `!Ph` and `!Ph_s`: AVX2 has and-not but no
//! or-not, and `Ph = Mv | !(Xh | Pv)`, `Pv' = Mh_s | !(Xv | Ph_s)` each become one and-not, so
//! the step is 18 operations with no complement. Each lane's `hin` is kept as `[hin = -1]` and
//! `[hin != +1]`, 0 or 1.
//!
//! # Memory
//!
//! The masks of the four rows are read at four different words; two steps' worth come from
//! two 256-bit loads of two 128-bit halves each (`Eq_3[s-9..s-7]` with `Eq_1[s-3..s-1]`,
//! `Eq_2[s-6..s-4]` with `Eq_0[s..s+2]`) and an unpack of 64-bit lanes; the traced bits go out
//! the same way backwards. So the steady loop takes two steps per iteration.
//!
//! # Cost
//!
//! Per step (four row-words): 18 operations; per vector of state (`pv`, `mv`) one permute, one
//! blend with a load and one store; for the masks one load and half a load, insert and unpack
//! each. The traced step adds five operations, one unpack and two 128-bit stores for its bits.
//! About 26 instructions for four row-words against some 20 per row-word for the scalar code.
//! The prologue and epilogue are `6 LAG` masked steps per call (782-word rows: about 2%).

use std::arch::x86_64::*;

use super::Delta;

/// Steps between one row and the next: row `i + r` works on word `s - LAG * r` at step `s`.
const LAG: usize = 3;

/// Steps from the first row's first word to the last row's: the length of the prologue and
/// of the epilogue.
const SPAN: usize = 3 * LAG;

/// The four rows' `hin` (their own `hout` from the step before): `[hin = -1]` and
/// `[hin != +1]`, 0 or 1 in each lane.
#[derive(Clone, Copy)]
struct Carry {
    minus: __m256i,
    nplus: __m256i,
}

/// The rows' state between steps.
#[derive(Clone, Copy)]
struct Lanes {
    carry: Carry,
    /// The outputs (`pv`, `mv`) of the last `LAG` steps, moved down a lane ([`down`]),
    /// oldest first: `back[0]` is the next step's input, but for lane 3.
    back: [[__m256i; 2]; LAG],
}

/// `back` without its first entry and with `newest` last: a value, not a move in memory, so
/// that the loop keeps it in registers.
#[inline(always)]
fn pushed(back: [[__m256i; 2]; LAG], newest: [__m256i; 2]) -> [[__m256i; 2]; LAG] {
    std::array::from_fn(|k| if k + 1 < LAG { back[k + 1] } else { newest })
}

/// One step's output for the four lanes.
struct Out {
    pv: __m256i,
    mv: __m256i,
    up: __m256i,
    sub: __m256i,
}

/// The word step (see the module doc) in the four lanes, updating their carries. `up` and
/// `sub` are computed only if `TRACED`.
#[inline]
#[target_feature(enable = "avx2")]
fn word4<const TRACED: bool>(pv: __m256i, mv: __m256i, eq: __m256i, c: &mut Carry) -> Out {
    let xv = _mm256_or_si256(eq, mv);
    // Xh = (((Eq & Pv) + Pv + [hin = -1]) ^ Pv) | Eq; the carry out of the sum is Mh[63].
    let sum = _mm256_add_epi64(_mm256_and_si256(eq, pv), pv);
    let sum = _mm256_add_epi64(sum, c.minus);
    let xh = _mm256_or_si256(_mm256_xor_si256(sum, pv), eq);
    // !Ph = !Mv & (Xh | Pv); Mh = Pv & Xh.
    let nph = _mm256_andnot_si256(mv, _mm256_or_si256(xh, pv));
    let mh = _mm256_and_si256(pv, xh);
    // !Ph_s = (!Ph << 1) | [hin != +1]; Mh_s = (Mh << 1) | [hin = -1].
    let nph_s = _mm256_or_si256(_mm256_slli_epi64::<1>(nph), c.nplus);
    let mh_s = _mm256_or_si256(_mm256_slli_epi64::<1>(mh), c.minus);
    c.nplus = _mm256_srli_epi64::<63>(nph);
    c.minus = _mm256_srli_epi64::<63>(mh);
    // Mv' = Ph_s & Xv; Pv' = Mh_s | (!Xv & !Ph_s).
    let mv_new = _mm256_andnot_si256(nph_s, xv);
    let pv_new = _mm256_or_si256(mh_s, _mm256_andnot_si256(xv, nph_s));
    let (up, sub) = if TRACED {
        let ones = _mm256_set1_epi64x(-1);
        // sub = (Pv' ^ Ph_s) & !(Mv' | Mh_s) = !((Pv' ^ !Ph_s) | Mv' | Mh_s).
        let any = _mm256_or_si256(_mm256_xor_si256(pv_new, nph_s), mv_new);
        let sub = _mm256_xor_si256(_mm256_or_si256(any, mh_s), ones);
        (_mm256_xor_si256(nph, ones), sub)
    } else {
        (pv_new, mv_new)
    };
    Out {
        pv: pv_new,
        mv: mv_new,
        up,
        sub,
    }
}

/// `[o1, o2, o3, o3]`: each lane's output moved to the lane of the next row; lane 3 is to be
/// replaced.
#[inline]
#[target_feature(enable = "avx2")]
fn down(v: __m256i) -> __m256i {
    _mm256_permute4x64_epi64::<0b11_11_10_01>(v)
}

/// `v` with lane 3 replaced by lane 3 of `w`.
#[inline]
#[target_feature(enable = "avx2")]
fn with_lane3(v: __m256i, w: __m256i) -> __m256i {
    _mm256_blend_epi32::<0b1100_0000>(v, w)
}

/// The rows of `v`, row `i + r` at `r`.
#[inline]
#[target_feature(enable = "avx2")]
fn rows_of(v: __m256i) -> [u64; 4] {
    [
        _mm256_extract_epi64::<3>(v) as u64,
        _mm256_extract_epi64::<2>(v) as u64,
        _mm256_extract_epi64::<1>(v) as u64,
        _mm256_extract_epi64::<0>(v) as u64,
    ]
}

/// The vector with row `i + r`'s word `w[r]` in its lane.
#[inline]
#[target_feature(enable = "avx2")]
fn from_rows(w: [u64; 4]) -> __m256i {
    // `_mm256_set_epi64x` takes lane 3 first: row i.
    _mm256_set_epi64x(w[0] as i64, w[1] as i64, w[2] as i64, w[3] as i64)
}

/// The run the four rows step over.
struct Run<'a, 'b> {
    pv: &'a mut [u64],
    mv: &'a mut [u64],
    eq: [&'a [u64]; 4],
    up: [&'b mut [u64]; 4],
    sub: [&'b mut [u64]; 4],
}

impl Run<'_, '_> {
    /// Step `s` with every lane checked: the prologue and epilogue (and any step, slowly).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn edge_step<const TRACED: bool>(&mut self, s: usize, lanes: &mut Lanes) {
        // Row i + r's word, or past the run's end (before its start, wrapped) when idle.
        let words = [0, 1, 2, 3].map(|r| s.wrapping_sub(LAG * r));
        let busy = words.map(|t| t < self.pv.len());
        let eq = from_rows([0, 1, 2, 3].map(|r| self.eq[r].get(words[r]).map_or(0, |&e| e)));
        let [mut p, mut m] = lanes.back[0];
        if busy[0] {
            let (p0, m0) = (self.pv[s] as i64, self.mv[s] as i64);
            p = with_lane3(p, _mm256_set1_epi64x(p0));
            m = with_lane3(m, _mm256_set1_epi64x(m0));
        }
        let before = lanes.carry;
        let out = word4::<TRACED>(p, m, eq, &mut lanes.carry);
        // An idle lane keeps its carry: hin before its first word, hout after its last.
        let busy_lanes = from_rows(busy.map(|b| if b { u64::MAX } else { 0 }));
        lanes.carry = Carry {
            minus: _mm256_blendv_epi8(before.minus, lanes.carry.minus, busy_lanes),
            nplus: _mm256_blendv_epi8(before.nplus, lanes.carry.nplus, busy_lanes),
        };
        if busy[3] {
            let t = words[3];
            (self.pv[t], self.mv[t]) = (rows_of(out.pv)[3], rows_of(out.mv)[3]);
        }
        if TRACED {
            let (up, sub) = (rows_of(out.up), rows_of(out.sub));
            for r in 0..4 {
                if busy[r] {
                    let t = words[r];
                    (self.up[r][t], self.sub[r][t]) = (up[r], sub[r]);
                }
            }
        }
        lanes.back = pushed(lanes.back, [down(out.pv), down(out.mv)]);
    }

    /// Steps `from..to`, two at a time, with every lane busy in each: `to - from` even and,
    /// unless there is no step, `SPAN <= from` and `to <= width`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn steady<const TRACED: bool>(&mut self, from: usize, to: usize, lanes: &mut Lanes) {
        assert!((to - from).is_multiple_of(2));
        if from == to {
            return;
        }
        assert!(SPAN <= from && to <= self.pv.len());
        // Every access below, for a step t in from..to (pairs s, s + 1), is to words
        // t - SPAN ..= t of a slice `width` words long: in bounds since SPAN <= t < width.
        // The state in locals, whose address is never taken: registers.
        let Lanes {
            mut carry,
            mut back,
        } = *lanes;
        let (pv, mv) = (self.pv.as_mut_ptr(), self.mv.as_mut_ptr());
        let eq = self.eq.map(<[u64]>::as_ptr);
        let up = self.up.each_mut().map(|u| u.as_mut_ptr());
        let sub = self.sub.each_mut().map(|u| u.as_mut_ptr());
        for s in (from..to).step_by(2) {
            // SAFETY: 16 bytes each at words s - 3 LAG, s - LAG (eq[3], eq[1]) and s - 2 LAG,
            // s (eq[2], eq[0]), all within s - SPAN ..= s + 1 (see above); no alignment needed.
            let (x, y) = unsafe {
                let at = |r: usize| eq[r].add(s - LAG * r).cast();
                (
                    _mm256_loadu2_m128i(at(1), at(3)),
                    _mm256_loadu2_m128i(at(0), at(2)),
                )
            };
            let eq = [_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y)];
            let mut bits = [[_mm256_setzero_si256(); 2]; 2];
            for k in 0..2 {
                let t = s + k;
                // SAFETY: 32 bytes from word t - 3 (3 < SPAN, t < width); no alignment needed.
                let (p, m) = unsafe {
                    let at = |a: *mut u64| _mm256_loadu_si256(a.add(t - 3).cast());
                    (at(pv), at(mv))
                };
                let [p_in, m_in] = back[0];
                let (p, m) = (with_lane3(p_in, p), with_lane3(m_in, m));
                let out = word4::<TRACED>(p, m, eq[k], &mut carry);
                // SAFETY: 32 bytes from word t - SPAN (up to t - SPAN + 3 < t < width); no
                // alignment needed.
                unsafe {
                    _mm256_storeu_si256(pv.add(t - SPAN).cast(), out.pv);
                    _mm256_storeu_si256(mv.add(t - SPAN).cast(), out.mv);
                }
                back = pushed(back, [down(out.pv), down(out.mv)]);
                bits[k] = [out.up, out.sub];
            }
            if TRACED {
                for (plane, to) in [(0, up), (1, sub)] {
                    let (a, b) = (bits[0][plane], bits[1][plane]);
                    // Lanes 0 and 2 of both steps (rows 3 and 1), then lanes 1 and 3 (2, 0).
                    let (even, odd) = (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b));
                    // SAFETY: 16 bytes at each row's words s - LAG r, s - LAG r + 1, within
                    // s - SPAN ..= s + 1 (see above); no alignment needed.
                    unsafe {
                        let at = |r: usize| to[r].add(s - LAG * r).cast();
                        _mm256_storeu2_m128i(at(1), at(3), even);
                        _mm256_storeu2_m128i(at(0), at(2), odd);
                    }
                }
            }
        }
        *lanes = Lanes { carry, back };
    }
}

/// [`super::step4`] (or, if `TRACED`, [`super::step4_traced`]; otherwise `up` and `sub` are
/// not read and may be empty) in the wavefront.
#[target_feature(enable = "avx2")]
pub(super) fn step4<const TRACED: bool>(
    pv: &mut [u64],
    mv: &mut [u64],
    eq: [&[u64]; 4],
    hin: [Delta; 4],
    up: [&mut [u64]; 4],
    sub: [&mut [u64]; 4],
) -> [Delta; 4] {
    let width = pv.len();
    // The steady steps rely on these (as well as on the slices' own bounds).
    assert!(mv.len() == width && eq.iter().all(|e| e.len() == width));
    assert!(!TRACED || up.iter().chain(&sub).all(|b| b.len() == width));
    if width == 0 {
        return hin;
    }
    let split = hin.map(Delta::split);
    let mut lanes = Lanes {
        carry: Carry {
            minus: from_rows(split.map(|(_, m)| u64::from(m))),
            nplus: from_rows(split.map(|(p, _)| 1 - p)),
        },
        back: [[_mm256_setzero_si256(); 2]; LAG],
    };
    let mut run = Run {
        pv,
        mv,
        eq,
        up,
        sub,
    };
    // The prologue, the steady steps in pairs, then what is left (an odd step, the epilogue);
    // one call site each, so that both are inlined and the lanes stay in registers.
    let steady = width.saturating_sub(SPAN) / 2 * 2;
    let mut s = 0;
    while s < width + SPAN {
        if s == SPAN && steady > 0 {
            run.steady::<TRACED>(s, s + steady, &mut lanes);
            s += steady;
        } else {
            run.edge_step::<TRACED>(s, &mut lanes);
            s += 1;
        }
    }
    let (minus, nplus) = (rows_of(lanes.carry.minus), rows_of(lanes.carry.nplus));
    [0, 1, 2, 3].map(|r| Delta::join(1 - nplus[r], minus[r] == 1))
}
