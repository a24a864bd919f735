//! The search kernel for patterns of up to 64 bytes: Myers' bit-vector step (Myers 1999,
//! doi:10.1145/316542.316550) with the pattern as the bit dimension and one text byte per step,
//! many patterns side by side, one per lane of a 32-byte vector ([`Group`]: 32 lanes of 8 bits,
//! 16 of 16, 8 of 32 or 4 of 64). A lane holds a column's vertical deltas as `pv` (+1) and `mv`
//! (-1); nothing is shifted into bit 0, so row 0 is free (the semi-global DP). Each pattern sits at
//! the top of its lane, its last row the lane's top bit, above padding rows that match every byte
//! and stay at distance 0.
//!
//! Each lane keeps the lowest score of a stretch of [`STRETCH`] bytes, and only a stretch where
//! some lane came within its limit is stepped again to say where. [`scan`] steps up to
//! [`INTERLEAVE`] groups per text byte so that their dependency chains overlap; the step is written
//! once over a small vector trait ([`Vector`]) compiled for AVX-512, AVX2 and plain arrays, and
//! [`Simd::detect`] chooses at run time.
//!
//! Cost: one step of some twenty vector operations per text byte and group; a group's table is 256
//! rows of 32 bytes (8 KiB). Why this is not `bitpar::Edit::step`, the padding and the reporting:
//! `docs/algorithms.md#the-lanes-kernel-patterns-of-up-to-64-bytes`.

use super::alphabet::Alphabet;

/// Bytes per vector of lanes: 256 bits.
pub const VECTOR_BYTES: usize = 32;

/// Text bytes between two checks of the lanes' lowest scores.
pub const STRETCH: usize = 32;

/// Groups stepped together per text byte (see the module doc).
pub const INTERLEAVE: usize = 2;

/// Which compilation of the kernel runs (see the module doc); the portable one by default,
/// the one every CPU runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Simd {
    Avx512,
    Avx2,
    #[default]
    Portable,
}

impl Simd {
    /// The best the CPU has.
    pub fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vl")
            {
                return Simd::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Simd::Avx2;
            }
        }
        Simd::Portable
    }

    /// Every variant this CPU can run, best first (for tests and benchmarks).
    pub fn available() -> Vec<Simd> {
        [Simd::Avx512, Simd::Avx2, Simd::Portable]
            .into_iter()
            .filter(|&s| s >= Simd::detect())
            .collect()
    }

    pub fn name(self) -> &'static str {
        match self {
            Simd::Avx512 => "avx512",
            Simd::Avx2 => "avx2",
            Simd::Portable => "portable",
        }
    }
}

impl PartialOrd for Simd {
    fn partial_cmp(&self, other: &Simd) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Simd {
    /// Better sets order first: `Avx512 < Avx2 < Portable`, so a CPU with one can run every
    /// later one.
    fn cmp(&self, other: &Simd) -> std::cmp::Ordering {
        (*self as u8).cmp(&(*other as u8))
    }
}

/// A match found by a scan: pattern number (the caller's), end (exclusive, counted from the
/// start of the scanned text, plus the scan's `base`) and distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    pub pattern: usize,
    pub end: u64,
    pub distance: usize,
}

/// The column state of every lane.
#[derive(Debug, Clone, Copy)]
struct State<T, const L: usize> {
    pv: [T; L],
    mv: [T; L],
    score: [T; L],
}

/// The score of a lane with no pattern: above every limit (at most 64), and with the high half
/// of a 64-bit lane clear, which the AVX2 minimum of such lanes relies on.
const NEVER: usize = 255;

/// Up to `L` patterns of up to `T::BITS` bytes, side by side, with their match table and the
/// state of the current column.
#[derive(Clone)]
pub struct Group<T: Lane, const L: usize> {
    /// Row `b`: each lane's bits equal to byte `b`, padding bits set.
    table: Box<[[T; L]; 256]>,
    /// The state at a column with no text before it: `D[i] = i` on the pattern's rows.
    start: State<T, L>,
    state: State<T, L>,
    /// A lane reports a score at most this.
    limit: [T; L],
    /// The caller's number of each lane's pattern (`usize::MAX`: no pattern).
    patterns: [usize; L],
    /// The warm-up its patterns need: the largest `m + min(k, m) - 1`.
    warm: usize,
}

impl<T: Lane, const L: usize> Group<T, L> {
    /// A group of `patterns` (their numbers and bytes; at most `L`, each of `1..=T::BITS`
    /// bytes), reporting distances up to `k`, their bytes matching the text's as `alphabet`
    /// says.
    pub fn new(patterns: &[(usize, &[u8])], k: usize, alphabet: Alphabet) -> Group<T, L> {
        assert!(
            L * std::mem::size_of::<T>() == VECTOR_BYTES,
            "a vector is 32 bytes"
        );
        assert!(
            patterns.len() <= L,
            "{} patterns in {L} lanes",
            patterns.len()
        );
        let mut table = Box::new([[T::MAX; L]; 256]);
        let mut start = State {
            pv: [T::ZERO; L],
            mv: [T::ZERO; L],
            score: [T::of(NEVER); L],
        };
        let mut limit = [T::ZERO; L];
        let mut numbers = [usize::MAX; L];
        for (lane, &(number, bytes)) in patterns.iter().enumerate() {
            let m = bytes.len();
            assert!(m >= 1 && m <= T::BITS as usize, "a pattern of {m} bytes");
            let pad = T::BITS as usize - m;
            let real = T::MAX << pad as u32;
            for row in table.iter_mut() {
                row[lane] = !real;
            }
            for (q, &b) in bytes.iter().enumerate() {
                for t in alphabet.matching(b) {
                    let row = &mut table[usize::from(t)][lane];
                    *row = *row | (T::ONE << (pad + q) as u32);
                }
            }
            start.pv[lane] = real;
            start.score[lane] = T::of(m);
            limit[lane] = T::of(k.min(m));
            numbers[lane] = number;
        }
        let lengths = patterns.iter().map(|(_, p)| p.len());
        Group {
            table,
            start,
            state: start,
            limit,
            patterns: numbers,
            warm: super::chunks::overlap(lengths, k) as usize,
        }
    }

    /// Back to a column with no text before it (a record's start, or a scan's).
    pub fn reset(&mut self) {
        self.state = self.start;
    }

    /// The caller's numbers of the group's patterns.
    pub fn patterns(&self) -> impl Iterator<Item = usize> + '_ {
        self.patterns.iter().copied().filter(|&p| p != usize::MAX)
    }

    /// The current score of each pattern (`D[m][j]` after the last byte scanned).
    pub fn scores(&self) -> Vec<(usize, usize)> {
        (0..L)
            .filter(|&l| self.patterns[l] != usize::MAX)
            .map(|l| (self.patterns[l], self.state.score[l].get()))
            .collect()
    }

    /// Bytes held: the table and the states.
    pub fn bytes(&self) -> u64 {
        (VECTOR_BYTES * (256 + 7)) as u64
    }
}

mod vector;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

pub use vector::{Base, Lane, Vector};

/// One step of every lane of `V` over the text byte whose table row is `eq` (see the module
/// doc).
#[inline(always)]
fn step<T: Lane, const L: usize, V: Vector<T, L>>(pv: &mut V, mv: &mut V, score: &mut V, eq: V) {
    let xv = eq.or(*mv);
    let xh = V::xor_or(eq.and(*pv).add(*pv), *pv, eq);
    let ph = V::or_nor(*mv, xh, *pv);
    let mh = pv.and(xh);
    *score = score.sub(ph.sign()).add(mh.sign());
    let ph_s = ph.add(ph);
    let mh_s = mh.add(mh);
    *pv = V::or_nor(mh_s, xv, ph_s);
    *mv = ph_s.and(xv);
}

/// Steps `group` from `(pv, mv, score)` over `text` one byte at a time, reporting every lane
/// whose score is within its limit after a byte at or past `from`; `base` is added to the
/// ends.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn report<T: Lane, const L: usize, V: Vector<T, L>>(
    group: &Group<T, L>,
    (mut pv, mut mv, mut score): (V, V, V),
    limit: V,
    text: &[u8],
    base: u64,
    from: usize,
    hits: &mut Vec<Hit>,
) {
    let size = std::mem::size_of::<T>();
    for (i, &c) in text.iter().enumerate() {
        step(
            &mut pv,
            &mut mv,
            &mut score,
            V::load(&group.table[usize::from(c)]),
        );
        let mut mask = score.at_most(limit);
        if i < from || mask == 0 {
            continue;
        }
        let scores = score.store();
        while mask != 0 {
            let l = mask.trailing_zeros() as usize / size;
            mask &= !(((1u64 << size) as u32 - 1) << (l * size));
            hits.push(Hit {
                pattern: group.patterns[l],
                end: base + i as u64 + 1,
                distance: scores[l].get(),
            });
        }
    }
}

/// What one group of a scan reads: its text, the base of its ends, and the first byte after
/// which it reports matches (see [`scan`]).
#[derive(Debug, Clone, Copy)]
pub struct Stream<'t> {
    pub text: &'t [u8],
    pub base: u64,
    pub from: usize,
}

/// The body every compilation shares: `N` groups, each over its stream, the streams of one
/// length, stepped together byte by byte (see [`scan`]).
#[inline(always)]
fn scan_body<T: Lane, const L: usize, const N: usize, V: Vector<T, L>>(
    groups: [&mut Group<T, L>; N],
    streams: [Stream<'_>; N],
    hits: &mut Vec<Hit>,
) {
    let len = streams[0].text.len();
    assert!(
        streams.iter().all(|s| s.text.len() == len),
        "streams of one length"
    );
    let texts: [&[u8]; N] = std::array::from_fn(|g| &streams[g].text[..len]);
    let mut pv: [V; N] = std::array::from_fn(|g| V::load(&groups[g].state.pv));
    let mut mv: [V; N] = std::array::from_fn(|g| V::load(&groups[g].state.mv));
    let mut score: [V; N] = std::array::from_fn(|g| V::load(&groups[g].state.score));
    let tables: [&[[T; L]; 256]; N] = std::array::from_fn(|g| &*groups[g].table);
    let limits: [V; N] = std::array::from_fn(|g| V::load(&groups[g].limit));
    let never = V::load(&[T::of(NEVER); L]);
    for at in (0..len).step_by(STRETCH) {
        let end = (at + STRETCH).min(len);
        let saved = (pv, mv, score);
        let mut low = [never; N];
        for i in at..end {
            for g in 0..N {
                let eq = V::load(&tables[g][usize::from(texts[g][i])]);
                step(&mut pv[g], &mut mv[g], &mut score[g], eq);
                low[g] = low[g].min(score[g]);
            }
        }
        for g in 0..N {
            let s = streams[g];
            if end > s.from && low[g].at_most(limits[g]) != 0 {
                let state = (saved.0[g], saved.1[g], saved.2[g]);
                let (text, base) = (&texts[g][at..end], s.base + at as u64);
                let skip = s.from.saturating_sub(at);
                report(groups[g], state, limits[g], text, base, skip, hits);
            }
        }
    }
    for (g, group) in groups.into_iter().enumerate() {
        group.state = State {
            pv: pv[g].store(),
            mv: mv[g].store(),
            score: score[g].store(),
        };
    }
}

/// The compilations, one per instruction set, of the scan's body for lanes of `T`.
pub trait Compiled<T: Lane, const L: usize> {
    /// `N` groups over their streams (of one length) with the compilation `simd`, which the
    /// CPU must have.
    fn scan<const N: usize>(
        simd: Simd,
        groups: [&mut Group<T, L>; N],
        streams: [Stream<'_>; N],
        hits: &mut Vec<Hit>,
    );
}

macro_rules! compiled {
    ($t:ty, $l:literal) => {
        impl Compiled<$t, $l> for $t {
            fn scan<const N: usize>(
                simd: Simd,
                groups: [&mut Group<$t, $l>; N],
                streams: [Stream<'_>; N],
                hits: &mut Vec<Hit>,
            ) {
                #[cfg(target_arch = "x86_64")]
                #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
                fn avx512<const N: usize>(
                    groups: [&mut Group<$t, $l>; N],
                    streams: [Stream<'_>; N],
                    hits: &mut Vec<Hit>,
                ) {
                    scan_body::<$t, $l, N, x86::Avx512<$t>>(groups, streams, hits)
                }
                #[cfg(target_arch = "x86_64")]
                #[target_feature(enable = "avx2")]
                fn avx2<const N: usize>(
                    groups: [&mut Group<$t, $l>; N],
                    streams: [Stream<'_>; N],
                    hits: &mut Vec<Hit>,
                ) {
                    scan_body::<$t, $l, N, x86::Avx2<$t>>(groups, streams, hits)
                }
                match simd {
                    #[cfg(target_arch = "x86_64")]
                    Simd::Avx512 => {
                        assert!(Simd::detect() == Simd::Avx512, "the CPU has no AVX-512");
                        // SAFETY: the CPU has AVX-512 F, BW and VL, and AVX2: checked above.
                        unsafe { avx512(groups, streams, hits) }
                    }
                    #[cfg(target_arch = "x86_64")]
                    Simd::Avx2 => {
                        assert!(Simd::detect() <= Simd::Avx2, "the CPU has no AVX2");
                        // SAFETY: the CPU has AVX2: checked just above.
                        unsafe { avx2(groups, streams, hits) }
                    }
                    _ => scan_body::<$t, $l, N, [$t; $l]>(groups, streams, hits),
                }
            }
        }
    };
}

compiled!(u8, 32);
compiled!(u16, 16);
compiled!(u32, 8);
compiled!(u64, 4);

/// Scans `text` with `N` groups together, continuing from their states and leaving them at
/// its end, with the `simd` compilation (which the CPU must have: [`Simd::detect`]). Matches
/// ending after text byte `from` or later are pushed to `hits`, their ends counted from the
/// text's start plus `base`; those ending before are not reported (the scan's warm-up).
pub fn scan<T: Lane + Compiled<T, L>, const L: usize, const N: usize>(
    simd: Simd,
    groups: [&mut Group<T, L>; N],
    text: &[u8],
    base: u64,
    from: usize,
    hits: &mut Vec<Hit>,
) {
    let stream = Stream { text, base, from };
    T::scan(simd, groups, [stream; N], hits)
}

/// Texts shorter than this are not split by [`scan_halves`].
pub const HALVES_FROM: usize = 4096;

/// [`scan`] of one group, as two streams stepped together: the text's first half, continuing
/// from the group's state, and its second half from a column with no text before it, started
/// the group's warm-up earlier (see [`chunks`](super::chunks): a scan so started reports the
/// same matches, and its state goes on as the whole text's would for every later match). A
/// lone group waits on its step's chain; two streams of it overlap their chains, as two groups
/// do. Leaves the group in the second stream's state.
pub fn scan_halves<T: Lane + Compiled<T, L>, const L: usize>(
    simd: Simd,
    group: &mut Group<T, L>,
    text: &[u8],
    base: u64,
    from: usize,
    hits: &mut Vec<Hit>,
) {
    let (len, warm) = (text.len(), group.warm);
    if len < HALVES_FROM.max(4 * warm) {
        return scan(simd, [group], text, base, from, hits);
    }
    // The first stream ends at `half`, the second starts `warm` bytes before it; the second is
    // as long as the first, or one byte shorter.
    let half = (len + warm).div_ceil(2);
    let second = half - warm;
    let common = len - second;
    let mut twin = group.clone();
    twin.reset();
    let streams = [
        Stream {
            text: &text[..common],
            base,
            from,
        },
        Stream {
            text: &text[second..],
            base: base + second as u64,
            from: warm.max(from.saturating_sub(second)),
        },
    ];
    T::scan(simd, [&mut *group, &mut twin], streams, hits);
    let rest = &text[common..half];
    scan(
        simd,
        [&mut *group],
        rest,
        base + common as u64,
        from.saturating_sub(common),
        hits,
    );
    group.state = twin.state;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;
    use crate::search::oracle;

    /// Every group shape, every compilation, against the plain DP: the same ends and
    /// distances, whatever the split of the text into calls and the warm-up.
    fn check<T: Lane + Compiled<T, L>, const L: usize>(rng: &mut Random, alphabet: &[u8]) {
        for _ in 0..12 {
            let count = 1 + rng.below(L);
            let patterns: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    let m = 1 + rng.below(T::BITS as usize);
                    rng.bytes(m, alphabet)
                })
                .collect();
            let len = rng.below(700);
            let text = rng.bytes(len, alphabet);
            let k = rng.below(6);
            let numbered: Vec<(usize, &[u8])> = patterns
                .iter()
                .enumerate()
                .map(|(p, b)| (p * 3 + 1, &b[..]))
                .collect();
            let from = rng.below(text.len() + 1);
            let mut want: Vec<Hit> = Vec::new();
            for &(number, p) in &numbered {
                for (end, distance) in oracle::ends(p, &text, k) {
                    if end > from {
                        want.push(Hit {
                            pattern: number,
                            end: end as u64 + 100,
                            distance,
                        });
                    }
                }
            }
            want.sort();
            for simd in Simd::available() {
                let mut group = Group::<T, L>::new(&numbered, k, Alphabet::Exact);
                let mut got = Vec::new();
                // In pieces, the state carried from one call to the next.
                let cut = rng.below(text.len() + 1);
                let (a, b) = text.split_at(cut);
                scan(simd, [&mut group], a, 100, from, &mut got);
                scan(
                    simd,
                    [&mut group],
                    b,
                    100 + cut as u64,
                    from.saturating_sub(cut),
                    &mut got,
                );
                got.sort();
                assert_eq!(got, want, "{simd:?} {patterns:?} k {k}");
                // Two groups together give what each gives alone.
                let mut one = Group::<T, L>::new(&numbered, k, Alphabet::Exact);
                let mut two = Group::<T, L>::new(&numbered[..1], k, Alphabet::Exact);
                let mut both = Vec::new();
                scan(simd, [&mut one, &mut two], &text, 100, from, &mut both);
                let mut alone = Vec::new();
                two.reset();
                scan(simd, [&mut two], &text, 100, from, &mut alone);
                both.sort();
                alone.extend(want.iter().copied());
                alone.sort();
                assert_eq!(both, alone, "{simd:?} interleaved");
            }
        }
    }

    #[test]
    fn every_lane_width_and_compilation_finds_what_the_plain_dp_finds() {
        let mut rng = Random::new(11);
        for alphabet in [&b"AC"[..], b"ACGT", b"abcdefghij"] {
            check::<u8, 32>(&mut rng, alphabet);
            check::<u16, 16>(&mut rng, alphabet);
            check::<u32, 8>(&mut rng, alphabet);
            check::<u64, 4>(&mut rng, alphabet);
        }
    }

    /// A lone group over two halves of a long text (and a text too short to halve), the
    /// state carried into a next call: the plain DP's matches, none doubled at the halves.
    #[test]
    fn a_lone_group_over_two_halves_finds_what_the_plain_dp_finds() {
        let mut rng = Random::new(29);
        for round in 0..16 {
            let m = 1 + rng.below(32);
            let p = rng.bytes(m, b"ACGT");
            let len = [100, HALVES_FROM + rng.below(3000)][round % 2];
            let mut text = rng.bytes(len, b"ACGT");
            // Copies around the middle, where the halves meet.
            for _ in 0..6 {
                let at = (len / 2 + rng.below(2 * m + 8)).saturating_sub(m + 4);
                let end = (at + m).min(len);
                text[at..end].copy_from_slice(&p[..end - at]);
            }
            let k = rng.below(m.min(4));
            let from = [0, rng.below(len)][rng.below(2)];
            let want: Vec<Hit> = oracle::ends(&p, &text, k)
                .into_iter()
                .filter(|&(e, _)| e > from)
                .map(|(e, d)| Hit {
                    pattern: 0,
                    end: e as u64,
                    distance: d,
                })
                .collect();
            for simd in Simd::available() {
                let mut group = Group::<u32, 8>::new(&[(0, &p[..])], k, Alphabet::Exact);
                let cut = len - rng.below(50);
                let mut got = Vec::new();
                scan_halves(simd, &mut group, &text[..cut], 0, from, &mut got);
                scan_halves(
                    simd,
                    &mut group,
                    &text[cut..],
                    cut as u64,
                    from.saturating_sub(cut),
                    &mut got,
                );
                got.sort();
                assert_eq!(got, want, "{simd:?} m {m} k {k} len {len} from {from}");
            }
        }
    }

    #[test]
    fn a_full_width_pattern_and_an_empty_lane() {
        let p = b"ACGTACGTACGTACGTACGTACGTACGTACGT";
        let text = b"TTTACGTACGTACGTACGTACGTACGTACGTACGTTT";
        let mut group = Group::<u32, 8>::new(&[(0, &p[..])], 0, Alphabet::Exact);
        let mut hits = Vec::new();
        scan(Simd::detect(), [&mut group], text, 0, 0, &mut hits);
        assert_eq!(
            hits,
            vec![Hit {
                pattern: 0,
                end: 35,
                distance: 0
            }]
        );
        assert_eq!(group.patterns().collect::<Vec<_>>(), vec![0]);
        assert_eq!(group.scores(), vec![(0, 2)]);
    }

    #[test]
    fn simd_variants_order_best_first() {
        assert!(Simd::Avx512 < Simd::Avx2 && Simd::Avx2 < Simd::Portable);
        let all = Simd::available();
        assert_eq!(all.first(), Some(&Simd::detect()));
        assert_eq!(all.last(), Some(&Simd::Portable));
        // The lanes kernels' tests (the search's and the pairs') run each of these.
        let missing: Vec<&str> = [Simd::Avx512, Simd::Avx2]
            .into_iter()
            .filter(|s| !all.contains(s))
            .map(Simd::name)
            .collect();
        crate::bitpar::kernel::say_unchecked("lanes", &missing);
    }
}
