//! The four fused rows of the edit-distance step ([`super::step4`]) as the four 64-bit lanes
//! of one 256-bit vector, staggered in a wavefront: the driver, shared by the AVX2 and the
//! AVX-512 kernels ([`super::avx2`], [`super::avx512`]), which differ only in how they spell
//! one word step ([`Isa`]).
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
//! and each lane's `hin` is its own `hout` of the step before ([`Carry`]). A step's output goes
//! to memory whole: lane 0 is the finished word `s - 3 LAG`, the other three land on words that
//! the next three steps store again (and that lane 3 read long ago). Passing the state down is
//! one cross-lane move per vector ([`Isa::down`]: `[o1, o2, o3, w]`, with `w` the run's word
//! `s` for row `i`). The stagger costs `3 LAG` extra steps: a prologue where the later rows
//! have not started and an epilogue where the earlier ones have finished, done with every lane
//! checked and an idle lane's `hin` (or `hout`) kept; in between, nothing is checked.
//!
//! `LAG` is 3 because of latency. With `LAG = 1` each step would wait for the one before
//! (`pv` through some ten dependent operations and the cross-lane move: 15 cycles or so for
//! four row-words); with `LAG = 3` three steps are in flight, and what remains from one step
//! to the next is a lane's own `-1` bit (shift, add, xor, or, and: five or six cycles), close
//! to what the core needs to issue a step anyway. `LAG = 2` measured 10–15% slower, 4 no
//! faster.
//!
//! # Memory
//!
//! The four rows' masks are read at four different words: two steps' worth come from two
//! 256-bit loads of two 128-bit halves each (`Eq_3[s-9..s-7]` with `Eq_1[s-3..s-1]`,
//! `Eq_2[s-6..s-4]` with `Eq_0[s..s+2]`) and an unpack of 64-bit lanes; the traced bits go out
//! the same way backwards. So the steady loop takes two steps per iteration.
//!
//! # Cost
//!
//! Per step (four row-words): the word step ([`Isa::word4`]: 18 operations in AVX2, 13 in
//! AVX-512); per vector of state (`pv`, `mv`) one load, one cross-lane move (and a blend in
//! AVX2) and one store; for the masks one load and half a load, insert and unpack each. With
//! the traceback bits, a few operations more, one unpack and two 128-bit stores. The prologue
//! and epilogue are `6 LAG` steps of about twice the cost per call (a 782-word run: some 3%).

#![deny(unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::*;

use super::Delta;

/// Steps between one row and the next: row `i + r` works on word `s - LAG * r` at step `s`.
const LAG: usize = 3;

/// Steps from the first row's first word to the last row's: the length of the prologue and
/// of the epilogue.
const SPAN: usize = 3 * LAG;

/// The four rows' `hin` between steps: `!Ph` and `Mh` of the word before, whose bit 63 is
/// `[hin != +1]` and `[hin = -1]` (the rest is what the funnel shifts of the next word read
/// and ignore).
#[derive(Clone, Copy)]
pub(super) struct Carry {
    pub nph: __m256i,
    pub mh: __m256i,
}

/// One step's output for the four lanes: the new `pv`, `mv`, and the traceback bits (`up`,
/// `sub`) where asked.
pub(super) struct Out {
    pub pv: __m256i,
    pub mv: __m256i,
    pub up: __m256i,
    pub sub: __m256i,
}

/// What the driver needs of an instruction set.
///
/// # Safety
///
/// Each function may be called only where the CPU has the kernel's features (and inlines
/// only into functions that enable them).
pub(super) trait Isa {
    /// The word step in the four lanes: the new state from `pv`, `mv` and the masks `eq`,
    /// `carry` updated to this word's; `up` and `sub` computed only if `TRACED`.
    unsafe fn word4<const TRACED: bool>(
        pv: __m256i,
        mv: __m256i,
        eq: __m256i,
        carry: &mut Carry,
    ) -> Out;

    /// `[o1, o2, o3, w]`: each lane's output moved to the lane of the next row, and `w` (the
    /// first row's next word) into lane 3.
    unsafe fn down(o: __m256i, w: u64) -> __m256i;
}

/// The rows' state between steps.
#[derive(Clone, Copy)]
struct Lanes {
    carry: Carry,
    /// The outputs (`pv`, `mv`) of the last `LAG` steps, oldest first: `back[0]` feeds the
    /// next step.
    back: [[__m256i; 2]; LAG],
}

/// `back` without its first entry and with `newest` last: a value, not a move in memory, so
/// that the loop keeps it in registers.
#[inline(always)]
fn pushed(back: [[__m256i; 2]; LAG], newest: [__m256i; 2]) -> [[__m256i; 2]; LAG] {
    std::array::from_fn(|k| if k + 1 < LAG { back[k + 1] } else { newest })
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
    ///
    /// # Safety
    ///
    /// The CPU has `K`'s features.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn edge_step<K: Isa, const TRACED: bool>(&mut self, s: usize, lanes: &mut Lanes) {
        // Row i + r's word, or past the run's end (before its start, wrapped) when idle.
        let words = [0, 1, 2, 3].map(|r| s.wrapping_sub(LAG * r));
        let busy = words.map(|t| t < self.pv.len());
        let eq = from_rows([0, 1, 2, 3].map(|r| self.eq[r].get(words[r]).map_or(0, |&e| e)));
        let (p0, m0) = match busy[0] {
            true => (self.pv[s], self.mv[s]),
            false => (0, 0),
        };
        let [p, m] = lanes.back[0];
        let before = lanes.carry;
        // SAFETY: the caller promised K's features.
        let out = unsafe {
            let (p, m) = (K::down(p, p0), K::down(m, m0));
            K::word4::<TRACED>(p, m, eq, &mut lanes.carry)
        };
        // An idle lane keeps its carry: hin before its first word, hout after its last.
        let busy_lanes = from_rows(busy.map(|b| if b { u64::MAX } else { 0 }));
        let keep = |old, new| _mm256_blendv_epi8(old, new, busy_lanes);
        lanes.carry = Carry {
            nph: keep(before.nph, lanes.carry.nph),
            mh: keep(before.mh, lanes.carry.mh),
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
        lanes.back = pushed(lanes.back, [out.pv, out.mv]);
    }

    /// Steps `from..to`, two at a time, with every lane busy in each: `to - from` even and,
    /// unless there is no step, `SPAN <= from` and `to <= width`.
    ///
    /// # Safety
    ///
    /// The CPU has `K`'s features.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn steady<K: Isa, const TRACED: bool>(
        &mut self,
        from: usize,
        to: usize,
        lanes: &mut Lanes,
    ) {
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
                let [p, m] = back[0];
                // SAFETY: word t < width; the caller promised K's features.
                let out = unsafe {
                    let (p, m) = (K::down(p, *pv.add(t)), K::down(m, *mv.add(t)));
                    K::word4::<TRACED>(p, m, eq[k], &mut carry)
                };
                // SAFETY: 32 bytes from word t - SPAN (up to t - SPAN + 3 < t < width); no
                // alignment needed.
                unsafe {
                    _mm256_storeu_si256(pv.add(t - SPAN).cast(), out.pv);
                    _mm256_storeu_si256(mv.add(t - SPAN).cast(), out.mv);
                }
                back = pushed(back, [out.pv, out.mv]);
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
/// not read and may be empty) in the wavefront, each word step in `K`.
///
/// # Safety
///
/// The CPU has `K`'s features; for the word steps to be inlined, the caller enables them.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn step4<K: Isa, const TRACED: bool>(
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
            nph: from_rows(split.map(|(plus, _)| (1 - plus) << 63)),
            mh: from_rows(split.map(|(_, minus)| u64::from(minus) << 63)),
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
        // SAFETY: the caller promised K's features.
        unsafe {
            if s == SPAN && steady > 0 {
                run.steady::<K, TRACED>(s, s + steady, &mut lanes);
                s += steady;
            } else {
                run.edge_step::<K, TRACED>(s, &mut lanes);
                s += 1;
            }
        }
    }
    let (nplus, minus) = (rows_of(lanes.carry.nph), rows_of(lanes.carry.mh));
    [0, 1, 2, 3].map(|r| Delta::join(1 - (nplus[r] >> 63), minus[r] >> 63 == 1))
}
