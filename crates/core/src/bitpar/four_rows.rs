//! Four consecutive rows of a bit-parallel row step ([`Row::step4`](super::Row::step4)) as the
//! four 64-bit lanes of one 256-bit vector, staggered in a wavefront: row `i + r` works on word
//! `s - LAG * r` at step `s`, lane 3 loading the run's state, lane 0 storing the finished word,
//! the state passed down one lane per step ([`Step::down`]), each lane's carry its own from the
//! step before. The driver is shared by both problems and by the AVX2 and AVX-512 kernels
//! ([`avx2`], [`avx512`]), which differ only in how they spell one word step ([`Step`]); a
//! problem says once how the lanes keep its carry ([`LaneCarry`]).
//!
//! Cost per step (four row-words): the word step; per plane of state one load, one cross-lane move
//! and one store; the masks of two steps in two 256-bit loads. A prologue and an epilogue of
//! `3 LAG` steps each per call, every lane checked there. Why `LAG` is 3, and the memory layout:
//! `docs/algorithms.md#the-four-row-vector-wavefront`.
//!
//! Logged (given `logged`), a call also reports the four rows' carries out of chosen words
//! ([`super::seams`]): lane `3 - r`, row `i + r`, finishes word `t` at step `t + LAG r`, so at
//! those four steps ([`Marks`]) it reads the sign bits of the lanes' carries (a move-mask per
//! plane), and at the fourth writes the word's four carries out, packed into a byte. Between
//! them a step costs one compare: the scalar work runs beside the vector chain.

#![deny(unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::*;
use std::mem::MaybeUninit;
use std::ops::Range;

use super::carry::Carried;
use super::seams::{Carries4, SeamWords};

/// Steps between one row and the next: row `i + r` works on word `s - LAG * r` at step `s`.
const LAG: usize = 3;

/// Steps from the first row's first word to the last row's: the length of the prologue and
/// of the epilogue. Words whose carries a logged call reports are at least `SPAN + 1` apart.
const SPAN: usize = 3 * LAG;
const _: () = assert!(SPAN + 1 == super::seams::LOGGED_APART);

/// One step's output for the four lanes: the new state and the traceback bits (where asked),
/// `P` planes of each.
pub struct Out<const P: usize> {
    pub state: [__m256i; P],
    pub bits: [__m256i; P],
}

/// How the lanes keep a problem's carry: as words whose bit 63 it is, one per plane, taken
/// from and given back to the scalar carry at a call's ends.
pub trait LaneCarry<const P: usize>: Carried {
    /// `carry` as the words whose bit 63 it is (the rest is ignored), one per plane.
    fn carry_words(carry: Self::Carry) -> [u64; P];

    /// The carry out of bit 63 of each plane's word.
    fn carry_of(words: [u64; P]) -> Self::Carry;

    /// The bits of a packed carry ([`Carries4`]) that the lanes keep complemented: bit 63 of
    /// plane `p`'s carry word is bit `p` of the payload, or its complement where this has bit
    /// `4 p` set (for the whole nibble).
    const COMPLEMENTED: u8;
}

/// A problem's word step in an instruction set, with `P` planes of state, of carry and of
/// traceback bits.
///
/// # Safety
///
/// `word4` and `down` may be called only where the CPU has the kernel's features (and inline
/// only into functions that enable them).
pub trait Step<const P: usize> {
    /// The problem whose step this is.
    type Row: LaneCarry<P>;

    /// The word step in the four lanes: the new state from `state` and the masks `eq`, `carry`
    /// (as [`LaneCarry::carry_words`]) updated to this word's; the traceback bits computed
    /// only if `TRACED`.
    unsafe fn word4<const TRACED: bool>(
        state: [__m256i; P],
        eq: __m256i,
        carry: &mut [__m256i; P],
    ) -> Out<P>;

    /// `[o1, o2, o3, w]`: each lane's output moved to the lane of the next row, and `w` (the
    /// first row's next word) into lane 3.
    unsafe fn down(o: __m256i, w: u64) -> __m256i;
}

/// The carry of `K`'s problem.
type Carry<K, const P: usize> = <<K as Step<P>>::Row as Carried>::Carry;

/// [`Step::down`] in AVX2: a permute and a blend.
#[inline]
#[target_feature(enable = "avx2")]
pub fn down_avx2(o: __m256i, w: u64) -> __m256i {
    let moved = _mm256_permute4x64_epi64::<0b11_11_10_01>(o);
    _mm256_blend_epi32::<0b1100_0000>(moved, _mm256_set1_epi64x(w as i64))
}

/// [`Step::down`] in AVX-512: the 512 bits `w:o` shifted down one lane (`valignq`).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
pub fn down_avx512(o: __m256i, w: u64) -> __m256i {
    _mm256_alignr_epi64::<1>(_mm256_set1_epi64x(w as i64), o)
}

/// The rows' state between steps.
#[derive(Clone, Copy)]
struct Lanes<const P: usize> {
    carry: [__m256i; P],
    /// The outputs of the last `LAG` steps, oldest first: `back[0]` feeds the next step.
    back: [[__m256i; P]; LAG],
}

/// `back` without its first entry and with `newest` last: a value, not a move in memory, so
/// that the loop keeps it in registers.
#[inline(always)]
fn pushed<const P: usize>(back: [[__m256i; P]; LAG], newest: [__m256i; P]) -> [[__m256i; P]; LAG] {
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

/// The sign bits of the lanes' carries, bit `4 p + L` for plane `p`'s lane `L`.
#[inline]
#[target_feature(enable = "avx2")]
fn signs<const P: usize>(carry: [__m256i; P]) -> u8 {
    let mut byte = 0;
    for (p, c) in carry.into_iter().enumerate() {
        byte |= (_mm256_movemask_pd(_mm256_castsi256_pd(c)) as u8) << (4 * p);
    }
    byte
}

/// Where a logged call reports: the words whose carries are asked, and a byte for each of
/// those below the run's width, in order, the packed carries ([`Carries4`]).
pub type Logged<'a> = (SeamWords, &'a mut [MaybeUninit<u8>]);

/// The steps at which a logged call reads the lanes' carries, `t + LAG r` for each word `t`
/// asked and each row `i + r` (lane `3 - r`), in order: the words at least `SPAN + 1` apart, so
/// that the steps of one word all come before the next word's. At the fourth step of a word the
/// call packs its four carries and writes them out.
#[derive(Clone, Copy)]
struct Marks {
    /// The next step to read.
    next: usize,
    /// Rows of the current word read so far (0 to 3).
    turn: usize,
    /// Steps from the last row's step of a word to the first row's of the next.
    rest: usize,
    /// The sign bits read for the current word, a byte per row ([`signs`]), the latest lowest.
    signs: u32,
    /// Words written out so far.
    written: usize,
    /// [`LaneCarry::COMPLEMENTED`].
    complemented: u8,
}

impl Marks {
    /// The steps of the words `seams` asks (`every > SPAN`), or none.
    fn of(seams: Option<SeamWords>, complemented: u8) -> Marks {
        let (next, rest) = match seams {
            Some(s) => {
                assert!(s.every > SPAN, "logged words {} apart", s.every);
                (s.first, s.every - SPAN)
            }
            None => (usize::MAX, 1),
        };
        Marks {
            next,
            turn: 0,
            rest,
            signs: 0,
            written: 0,
            complemented,
        }
    }

    /// Takes the sign bits of step `next`, writing the word's packed carries to `out` at its
    /// fourth row.
    ///
    /// # Safety
    ///
    /// `out` has room for every word asked below the run's width: a word's fourth row comes at
    /// step `t + SPAN`, within the call's steps only for `t` below the width.
    #[inline(always)]
    unsafe fn read(&mut self, signs: u8, out: *mut MaybeUninit<u8>) {
        self.signs = (self.signs << 8) | u32::from(signs);
        if self.turn < 3 {
            self.turn += 1;
            self.next += LAG;
            return;
        }
        // Row r's byte is byte 3 - r of `signs`, its carries bits 3 - r and 7 - r there:
        // packed, bits r and 4 + r.
        let s = self.signs;
        let packed =
            ((s >> 27) & 0x11) | ((s >> 17) & 0x22) | ((s >> 7) & 0x44) | ((s << 3) & 0x88);
        let byte = MaybeUninit::new(packed as u8 ^ self.complemented);
        // SAFETY: the caller promised room for this word.
        unsafe { out.add(self.written).write(byte) };
        self.written += 1;
        self.turn = 0;
        self.next += self.rest;
    }
}

/// The run the four rows step over.
struct Run<'a, 'b, const P: usize> {
    state: [&'a mut [u64]; P],
    eq: [&'a [u64]; 4],
    /// Per plane, per row.
    bits: [[&'b mut [u64]; 4]; P],
    /// When logged, a byte per word asked ([`Logged`]), at the steps [`Marks`] says.
    out: &'b mut [MaybeUninit<u8>],
    marks: Marks,
}

impl<const P: usize> Run<'_, '_, P> {
    /// Step `s` with every lane checked: the prologue and epilogue (and any step, slowly).
    ///
    /// # Safety
    ///
    /// The CPU has `K`'s features.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn edge_step<K: Step<P>, const TRACED: bool, const LOGGED: bool>(
        &mut self,
        s: usize,
        lanes: &mut Lanes<P>,
    ) {
        let width = self.eq[0].len();
        // Row i + r's word, or past the run's end (before its start, wrapped) when idle.
        let words = [0, 1, 2, 3].map(|r| s.wrapping_sub(LAG * r));
        let busy = words.map(|t| t < width);
        let eq = from_rows([0, 1, 2, 3].map(|r| self.eq[r].get(words[r]).map_or(0, |&e| e)));
        let before = lanes.carry;
        let mut input = lanes.back[0];
        for (plane, v) in self.state.iter().zip(&mut input) {
            let w = if busy[0] { plane[s] } else { 0 };
            // SAFETY: the caller promised K's features.
            *v = unsafe { K::down(*v, w) };
        }
        // SAFETY: the caller promised K's features.
        let out = unsafe { K::word4::<TRACED>(input, eq, &mut lanes.carry) };
        // An idle lane keeps its carry: the one in before its first word, out after its last.
        let busy_lanes = from_rows(busy.map(|b| if b { u64::MAX } else { 0 }));
        for (c, old) in lanes.carry.iter_mut().zip(before) {
            *c = _mm256_blendv_epi8(old, *c, busy_lanes);
        }
        if LOGGED && s == self.marks.next {
            // SAFETY: `drive` checked that `out` has room for every word asked.
            unsafe { self.marks.read(signs(lanes.carry), self.out.as_mut_ptr()) };
        }
        if busy[3] {
            for (plane, v) in self.state.iter_mut().zip(out.state) {
                plane[words[3]] = rows_of(v)[3];
            }
        }
        if TRACED {
            for (plane, v) in self.bits.iter_mut().zip(out.bits) {
                for (r, (row, w)) in plane.iter_mut().zip(rows_of(v)).enumerate() {
                    if busy[r] {
                        row[words[r]] = w;
                    }
                }
            }
        }
        lanes.back = pushed(lanes.back, out.state);
    }

    /// Steps `from..to`, two at a time, with every lane busy in each: `to - from` even and,
    /// unless there is no step, `SPAN <= from` and `to <= width`.
    ///
    /// # Safety
    ///
    /// The CPU has `K`'s features.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn steady<K: Step<P>, const TRACED: bool, const LOGGED: bool>(
        &mut self,
        from: usize,
        to: usize,
        lanes: &mut Lanes<P>,
    ) {
        assert!((to - from).is_multiple_of(2));
        if from == to {
            return;
        }
        assert!(SPAN <= from && to <= self.eq[0].len());
        // Every access below, for a step t in from..to (pairs s, s + 1), is to words
        // t - SPAN ..= t of a slice `width` words long: in bounds since SPAN <= t < width.
        // The state in locals, whose address is never taken: registers.
        let Lanes {
            mut carry,
            mut back,
        } = *lanes;
        let state = self.state.each_mut().map(|p| p.as_mut_ptr());
        let eq = self.eq.map(<[u64]>::as_ptr);
        let bits = self
            .bits
            .each_mut()
            .map(|p| p.each_mut().map(|r| r.as_mut_ptr()));
        let written = self.out.as_mut_ptr();
        let mut marks = self.marks;
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
            let mut traced = [[_mm256_setzero_si256(); P]; 2];
            for k in 0..2 {
                let t = s + k;
                let mut input = back[0];
                for (v, plane) in input.iter_mut().zip(state) {
                    // SAFETY: word t < width; the caller promised K's features.
                    *v = unsafe { K::down(*v, *plane.add(t)) };
                }
                // SAFETY: the caller promised K's features.
                let out = unsafe { K::word4::<TRACED>(input, eq[k], &mut carry) };
                if LOGGED && t == marks.next {
                    // SAFETY: `drive` checked that `out` has room for every word asked.
                    unsafe { marks.read(signs(carry), written) };
                }
                for (v, plane) in out.state.into_iter().zip(state) {
                    // SAFETY: 32 bytes from word t - SPAN (up to t - SPAN + 3 < t < width);
                    // no alignment needed.
                    unsafe { _mm256_storeu_si256(plane.add(t - SPAN).cast(), v) };
                }
                back = pushed(back, out.state);
                traced[k] = out.bits;
            }
            if TRACED {
                for (p, rows) in bits.iter().enumerate() {
                    let (a, b) = (traced[0][p], traced[1][p]);
                    // Lanes 0 and 2 of both steps (rows 3 and 1), then lanes 1 and 3 (2, 0).
                    let (even, odd) = (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b));
                    // SAFETY: 16 bytes at each row's words s - LAG r, s - LAG r + 1, within
                    // s - SPAN ..= s + 1 (see above); no alignment needed.
                    unsafe {
                        let at = |r: usize| rows[r].add(s - LAG * r).cast();
                        _mm256_storeu2_m128i(at(1), at(3), even);
                        _mm256_storeu2_m128i(at(0), at(2), odd);
                    }
                }
            }
        }
        *lanes = Lanes { carry, back };
        self.marks = marks;
    }
}

/// The entries into the wavefront for one instruction set: `$features` enabled around the
/// driver, so that the word step of that set inlines into it; one entry per way the driver is
/// called (plain or traced, and logged), so that each inlines it whole.
macro_rules! entries {
    ($(#[$doc:meta])* $name:ident, $(#[$logged_doc:meta])* $logged:ident, $features:literal) => {
        $(#[$doc])*
        #[target_feature(enable = $features)]
        pub unsafe fn $name<K: Step<P>, const P: usize, const TRACED: bool>(
            state: [&mut [u64]; P],
            eq: [&[u64]; 4],
            carry_in: [Carry<K, P>; 4],
            bits: [[&mut [u64]; 4]; P],
        ) -> [Carry<K, P>; 4] {
            // SAFETY: the caller promised the features.
            unsafe { drive::<K, P, TRACED, false>(state, eq, carry_in, bits, None) }
        }

        $(#[$logged_doc])*
        #[target_feature(enable = $features)]
        pub unsafe fn $logged<K: Step<P>, const P: usize>(
            state: [&mut [u64]; P],
            eq: [&[u64]; 4],
            carry_in: [Carry<K, P>; 4],
            logged: Logged<'_>,
        ) -> [Carry<K, P>; 4] {
            let none = std::array::from_fn(|_| [(); 4].map(|_| &mut [][..]));
            // SAFETY: the caller promised the features.
            unsafe { drive::<K, P, false, true>(state, eq, carry_in, none, Some(logged)) }
        }
    };
}

entries!(
    /// Four rows of `K`'s step over the run `state` (`P` planes) with the masks `eq` and the
    /// carries `carry_in` into the rows, returning the carries out; writes the traceback bits
    /// (per plane, per row) if `TRACED` (otherwise `bits` is not read and may be empty
    /// slices). `K` is an AVX2 word step.
    ///
    /// # Safety
    ///
    /// The CPU has AVX2.
    avx2,
    /// [`avx2`] (untraced) that also writes the four rows' carries out of the words `logged`
    /// asks (at least `SPAN + 1` apart) to its buffer, a byte per word below the run's width,
    /// packed ([`Carries4`]). Not generic over what the caller does with them, so that each
    /// kernel has one copy, with the word step inlined.
    ///
    /// # Safety
    ///
    /// The CPU has AVX2.
    avx2_logged,
    "avx2"
);

entries!(
    /// [`avx2`] for an AVX-512 word step (AVX-512F, VL and VBMI2 on 256-bit vectors).
    ///
    /// # Safety
    ///
    /// The CPU has those features.
    avx512,
    /// [`avx2_logged`] for an AVX-512 word step.
    ///
    /// # Safety
    ///
    /// The CPU has those features.
    avx512_logged,
    "avx2,avx512f,avx512vl,avx512vbmi2"
);

/// Words asked of one logged call at most ([`seams_in_pieces`]): a run with more goes in
/// pieces, each paying the prologue and the epilogue again, so that what a call writes fits on
/// the stack (a piece of `256 f` words for words `f` apart).
const LOGGED_WORDS: usize = 256;

/// A run of `width` words stepped four rows at a time, the rows' carries out of the words
/// `seams` asks reported through `seam(t, carries)` in increasing `t`, packed
/// ([`super::seams`]). `kernel(words, carry, logged)` steps the run's words `words` from `carry`
/// and returns the carries out: with `Some` as [`avx2_logged`] does (at most
/// [`LOGGED_WORDS`] words asked, counted from `words.start`), with `None` without. The
/// words asked are more than `SPAN` apart; a run with none is one plain call.
///
/// # Safety
///
/// `kernel` with `Some` writes what [`avx2_logged`] does.
#[inline(always)]
pub unsafe fn seams_in_pieces<K: Step<P>, const P: usize>(
    width: usize,
    carry_in: [Carry<K, P>; 4],
    seams: SeamWords,
    mut kernel: impl FnMut(Range<usize>, [Carry<K, P>; 4], Option<Logged<'_>>) -> [Carry<K, P>; 4],
    mut seam: impl FnMut(usize, Carries4),
) -> [Carry<K, P>; 4] {
    assert!(seams.every >= 1, "seams at least a word apart");
    if seams.first >= width {
        return kernel(0..width, carry_in, None);
    }
    assert!(seams.every > SPAN, "logged words {} apart", seams.every);
    let mut out = [MaybeUninit::<u8>::uninit(); LOGGED_WORDS];
    let (mut carry, mut t) = (carry_in, seams.first);
    let mut start = 0;
    while start < width {
        // The piece ends before the word asked after its last.
        let end = (t + LOGGED_WORDS * seams.every - seams.every + 1).min(width);
        let asked = SeamWords {
            first: t - start,
            every: seams.every,
        };
        carry = kernel(start..end, carry, Some((asked, &mut out)));
        let mut written = 0;
        while t < end {
            // SAFETY: the kernel wrote a byte for each word asked below `end`, in order.
            let byte = unsafe { out[written].assume_init() };
            seam(t, Carries4(byte));
            written += 1;
            t += seams.every;
        }
        start = end;
    }
    carry
}

/// The four rows, writing the carries out of the words `logged` asks if `LOGGED` (see
/// [`avx2_logged`]; otherwise `logged` is `None`).
///
/// # Safety
///
/// The CPU has `K`'s features; for the word steps to be inlined, the caller enables them.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn drive<K: Step<P>, const P: usize, const TRACED: bool, const LOGGED: bool>(
    state: [&mut [u64]; P],
    eq: [&[u64]; 4],
    carry_in: [Carry<K, P>; 4],
    bits: [[&mut [u64]; 4]; P],
    logged: Option<Logged<'_>>,
) -> [Carry<K, P>; 4] {
    let width = eq[0].len();
    // The steady steps rely on these (as well as on the slices' own bounds).
    assert!(state.iter().all(|w| w.len() == width) && eq.iter().all(|w| w.len() == width));
    assert!(!TRACED || bits.iter().flatten().all(|b| b.len() == width));
    let (asked, out) = match logged {
        Some((seams, out)) => (Some(seams), out),
        None => (None, &mut [][..]),
    };
    // Every word asked below the width has its byte.
    let below = |s: &SeamWords| (width - 1 - s.first) / s.every + 1;
    let reported = asked.filter(|s| s.first < width).map_or(0, |s| below(&s));
    assert!(!LOGGED || out.len() >= reported);
    let marks = Marks::of(asked.filter(|_| LOGGED), K::Row::COMPLEMENTED);
    if width == 0 {
        return carry_in;
    }
    let words = carry_in.map(K::Row::carry_words);
    let mut lanes = Lanes {
        carry: std::array::from_fn(|p| from_rows(words.map(|w| w[p]))),
        back: [[_mm256_setzero_si256(); P]; LAG],
    };
    let mut run = Run {
        state,
        eq,
        bits,
        out,
        marks,
    };
    // The prologue, the steady steps in pairs, then what is left (an odd step, the epilogue);
    // one call site each, so that both are inlined and the lanes stay in registers.
    let steady = width.saturating_sub(SPAN) / 2 * 2;
    let mut s = 0;
    while s < width + SPAN {
        // SAFETY: the caller promised K's features.
        unsafe {
            if s == SPAN && steady > 0 {
                run.steady::<K, TRACED, LOGGED>(s, s + steady, &mut lanes);
                s += steady;
            } else {
                run.edge_step::<K, TRACED, LOGGED>(s, &mut lanes);
                s += 1;
            }
        }
    }
    let words = lanes.carry.map(|v| rows_of(v));
    [0, 1, 2, 3].map(|r| K::Row::carry_of(words.map(|w| w[r])))
}
