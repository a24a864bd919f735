//! The search kernel for one pattern of any length: the text as the bit dimension (as sassy does,
//! Beeloo and Groot Koerkamp 2025, github.com/RagnarGrootKoerkamp/sassy). The text goes in strips
//! of 64 columns, one word per strip, and [`LANES`] strips of different stretches of the text side
//! by side in the 64-bit lanes of two vectors stepped together; each strip is computed a pattern row at a time, from row 1
//! down, by Myers' step (Myers 1999, doi:10.1145/316542.316550) turned sideways: the word holds a
//! row's horizontal deltas, and the vertical delta at the strip's left edge comes in at bit 0 and
//! leaves at bit 63 for the next strip, one per row (edlib's `calculateBlock` with the roles of
//! the pattern and the text swapped).
//!
//! **The cut-off.** A strip stops at the first row `r` where every cell of the row in the strip
//! is above `k` and every cell of the column before the strip, from row `r` down, is too: no
//! path within `k` crosses that row or enters the strip below it, so every cell below is above
//! `k` (Ukkonen's cut-off, turned sideways). The vertical deltas of the rows not computed are
//! taken as `+1`, which never puts a cell below its true value and leaves every cell within `k`
//! exact. On random text the strip stops a few rows past `k`; the cost is then about `k` rows per
//! strip, whatever the pattern's length. The rows are checked only where they can stop: the
//! lowest cell of a row rises by at most one per row.
//!
//! **The lanes.** Each call splits its text among the lanes; every lane but the first starts
//! [`warm`](super::chunks::overlap) bytes before its own part, from a column with no text before
//! it, and reports only its part (the warm-up's argument: `super::chunks`). The first lane
//! starts at the warm-up bytes the previous call left (the *tail*), so no column state passes
//! from call to call.
//!
//! Cost per strip: the match masks of the pattern's distinct bytes (one compare of 64 bytes
//! each), then about thirty vector operations per row and vector, and the cut-off's checks
//! (every lane's lowest prefix sum). The arguments and the figures:
//! `docs/algorithms.md#one-pattern-alone-the-text-as-the-bit-dimension`.

use super::alphabet::Alphabet;
use super::lanes::{Hit, Simd, Vector};

/// Columns per strip: the bits of a word.
pub const STRIP: usize = 64;

/// Strips side by side in a vector: the 64-bit lanes of 256 bits.
const WIDTH: usize = 4;

/// Vectors stepped together, so that their steps' dependency chains overlap.
const VECTORS: usize = 2;

/// Strips side by side.
pub const LANES: usize = WIDTH * VECTORS;

/// Rows between two checks of the cut-off at least: a check (the prefix sums of every lane)
/// costs about as much as a few rows.
const SKIP: usize = 2;

/// The first check of a strip comes this many rows before the row the strip before it stopped
/// at (neighbouring strips stop at about the same row), or just past the last row whose cell
/// before the strip is within k, whichever is later.
const HINT: usize = 1;

/// A lane's text below this many bytes per warm-up (and strip) is not worth a lane of its own.
const LANE_PER_WARM: usize = 8;

/// A pattern, its rows' byte classes, and the tail of the text before the next call.
#[derive(Clone)]
pub struct Strips {
    /// The caller's number of the pattern.
    number: usize,
    /// Row `r`'s class (the pattern's distinct bytes, numbered in order of first use).
    codes: Vec<u32>,
    /// Each class's bytes: the text bytes that match it.
    classes: Vec<Vec<u8>>,
    limit: usize,
    warm: usize,
    /// The record's last `warm` bytes before the next call (fewer at a record's start).
    tail: Vec<u8>,
    /// Rows computed, and strips (the cut-off's effect, for the cost model and the tests).
    pub rows: u64,
    pub strips: u64,
}

impl Strips {
    /// Pattern `number` (`bytes`, at least one), reporting distances up to `k`, its bytes
    /// matching the text's as `alphabet` says.
    pub fn new(number: usize, bytes: &[u8], k: usize, alphabet: Alphabet) -> Strips {
        assert!(!bytes.is_empty(), "a pattern of at least one byte");
        let mut slot = [u32::MAX; 256];
        let mut classes: Vec<Vec<u8>> = Vec::new();
        let codes = bytes
            .iter()
            .map(|&b| {
                if slot[usize::from(b)] == u32::MAX {
                    slot[usize::from(b)] = classes.len() as u32;
                    classes.push(alphabet.matching(b));
                }
                slot[usize::from(b)]
            })
            .collect();
        let m = bytes.len();
        Strips {
            number,
            codes,
            classes,
            limit: k.min(m),
            warm: super::chunks::overlap([m], k) as usize,
            tail: Vec::new(),
            rows: 0,
            strips: 0,
        }
    }

    /// The caller's number of the pattern.
    pub fn number(&self) -> usize {
        self.number
    }

    /// Back to a column with no text before it (a record's start).
    pub fn reset(&mut self) {
        self.tail.clear();
    }

    /// Bytes held: see [`Strips::held`].
    pub fn bytes(&self) -> u64 {
        Strips::held(self.codes.len(), self.classes.len(), self.warm)
    }

    /// Bytes a pattern of `m` bytes with `classes` distinct bytes and a warm-up of `warm`
    /// holds while it scans: each row's class and its four vectors of state (the deltas
    /// coming in and the cells of two strips' last columns), each class's masks, the tail
    /// and the padded strips.
    pub fn held(m: usize, classes: usize, warm: usize) -> u64 {
        let vector = 8 * WIDTH;
        (m * (4 + 4 * VECTORS * vector) + classes * (2 * VECTORS * vector + 32)) as u64
            + (2 * warm + LANES * STRIP) as u64
    }

    /// Scans `text`, continuing the record from the previous call; as
    /// [`super::lanes::scan`] for `base`, `from` and `hits`, with the `simd` compilation.
    pub fn scan(&mut self, simd: Simd, text: &[u8], base: u64, from: usize, hits: &mut Vec<Hit>) {
        if from < text.len() {
            let jobs = self.jobs(text.len(), from);
            let tail = std::mem::take(&mut self.tail);
            self.run(simd, (&tail, text), &jobs, base, hits);
            self.tail = tail;
        }
        // The tail for the next call.
        let keep = self.warm;
        if text.len() >= keep {
            self.tail.clear();
            self.tail.extend_from_slice(&text[text.len() - keep..]);
        } else {
            self.tail.extend_from_slice(text);
            let drop = self.tail.len().saturating_sub(keep);
            self.tail.drain(..drop);
        }
    }

    /// Computes `jobs` over `before` (the record's bytes before the call, as many as the jobs
    /// reach back) and the call's `text`, [`LANES`] at a time; reports as [`Strips::scan`]
    /// does. The pattern's own tail is left as it is.
    pub(super) fn run(
        &mut self,
        simd: Simd,
        (before, text): (&[u8], &[u8]),
        jobs: &[Job],
        base: u64,
        hits: &mut Vec<Hit>,
    ) {
        for batch in jobs.chunks(LANES) {
            let mut lanes = [Job::NONE; LANES];
            lanes[..batch.len()].clone_from_slice(batch);
            let mut run = Run {
                pattern: self,
                virt: Virtual { tail: before, text },
                jobs: lanes,
                base,
                hits,
                rows: 0,
                strips: 0,
            };
            run.go(simd);
            let (rows, strips) = (run.rows, run.strips);
            self.rows += rows;
            self.strips += strips;
        }
    }

    /// The pattern's warm-up: the columns a lane computes before the first it reports.
    pub fn warm(&self) -> usize {
        self.warm
    }

    /// The lanes' parts of a call's text of `n` bytes after the tail, reporting from byte
    /// `from`: equal spans of columns to compute, each but the first starting `warm` before
    /// its part.
    fn jobs(&self, n: usize, from: usize) -> [Job; LANES] {
        let t = self.tail.len();
        let total = t + n;
        let per_lane = LANE_PER_WARM * (self.warm + STRIP);
        let lanes = (n / per_lane).clamp(1, LANES);
        let span = (total + (lanes - 1) * self.warm).div_ceil(lanes);
        let mut jobs = [Job::NONE; LANES];
        let mut begin = t + from;
        let mut start = 0;
        for (l, job) in jobs.iter_mut().enumerate().take(lanes) {
            let end = if l + 1 == lanes { total } else { start + span };
            *job = Job {
                start,
                end,
                report: begin.min(end)..end,
            };
            begin = end.max(begin);
            start = end.saturating_sub(self.warm);
        }
        jobs
    }
}

/// A lane's columns: computed from `start` (a column with no text before it) to `end`, the
/// ends in `report` reported (virtual byte offsets: the tail, then the call's text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Job {
    start: usize,
    end: usize,
    report: std::ops::Range<usize>,
}

/// The jobs that report the ends at the columns `report` of a virtual text, each starting `warm`
/// columns before its first (at column 0 at the most, which must then be the record's start):
/// one, or up to [`LANES`] equal parts where the columns are many; added to `out`.
pub(super) fn jobs_for(report: std::ops::Range<usize>, warm: usize, out: &mut Vec<Job>) {
    let per_lane = LANE_PER_WARM * (warm + STRIP);
    let parts = (report.len() / per_lane).clamp(1, LANES);
    let span = report.len().div_ceil(parts);
    let mut at = report.start;
    while at < report.end {
        let end = (at + span).min(report.end);
        out.push(Job {
            start: at.saturating_sub(warm),
            end,
            report: at..end,
        });
        at = end;
    }
}

impl Job {
    const NONE: Job = Job {
        start: 0,
        end: 0,
        report: 0..0,
    };
}

/// The tail and the call's text, one run of bytes.
#[derive(Clone, Copy)]
struct Virtual<'a> {
    tail: &'a [u8],
    text: &'a [u8],
}

impl Virtual<'_> {
    /// The 64 bytes from `at` (in `out` where they are not all in the call's text, zeros
    /// past the end), and the mask of those that exist.
    #[inline(always)]
    fn strip<'s>(
        &'s self,
        at: usize,
        end: usize,
        out: &'s mut [u8; STRIP],
    ) -> (&'s [u8; STRIP], u64) {
        let t = self.tail.len();
        let have = end.saturating_sub(at).min(STRIP);
        if at >= t && have == STRIP {
            let bytes = self.text[at - t..at - t + STRIP]
                .try_into()
                .expect("64 bytes");
            return (bytes, u64::MAX);
        }
        out.fill(0);
        for (i, o) in out.iter_mut().enumerate().take(have) {
            let v = at + i;
            *o = if v < t {
                self.tail[v]
            } else {
                self.text[v - t]
            };
        }
        let exists = if have == STRIP {
            u64::MAX
        } else {
            (1u64 << have) - 1
        };
        (out, exists)
    }
}

/// One call's scan.
struct Run<'a, 'h> {
    pattern: &'a Strips,
    virt: Virtual<'a>,
    jobs: [Job; LANES],
    base: u64,
    hits: &'h mut Vec<Hit>,
    rows: u64,
    strips: u64,
}

/// The 64-bit match mask of a strip's bytes against one byte: the portable way and the x86
/// ones.
trait Compare {
    fn mask(strip: &[u8; STRIP], byte: u8) -> u64;
}

struct Plain;

impl Compare for Plain {
    #[inline(always)]
    fn mask(strip: &[u8; STRIP], byte: u8) -> u64 {
        strip
            .iter()
            .enumerate()
            .fold(0, |m, (i, &b)| m | (u64::from(b == byte) << i))
    }
}

#[cfg(target_arch = "x86_64")]
struct Avx2Compare;

#[cfg(target_arch = "x86_64")]
impl Compare for Avx2Compare {
    #[inline(always)]
    fn mask(strip: &[u8; STRIP], byte: u8) -> u64 {
        use std::arch::x86_64::*;
        // SAFETY: two 32-byte loads from a 64-byte array; only ever inlined into the AVX2 and
        // AVX-512 compilations below, which run once the CPU is known to have AVX2.
        unsafe {
            let b = _mm256_set1_epi8(byte as i8);
            let lo = _mm256_loadu_si256(strip.as_ptr().cast());
            let hi = _mm256_loadu_si256(strip.as_ptr().add(32).cast());
            let lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, b)) as u32;
            let hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, b)) as u32;
            u64::from(lo) | (u64::from(hi) << 32)
        }
    }
}

/// A table of the lowest prefix sum (the empty prefix included) and the sum of the deltas a
/// byte holds, for each byte: four deltas, the low nibble's bits `+1` and the high nibble's
/// `-1` (`pairs`), or eight, a set bit `-1` and a clear one `+1`.
const fn prefix_table(pairs: bool) -> [(i8, i8); 256] {
    let mut table = [(0i8, 0i8); 256];
    let mut i = 0;
    while i < 256 {
        let (mut low, mut sum) = (0i8, 0i8);
        let mut b = 0;
        while b < if pairs { 4 } else { 8 } {
            sum += if pairs {
                ((i >> b) & 1) as i8 - ((i >> (4 + b)) & 1) as i8
            } else if (i >> b) & 1 == 1 {
                -1
            } else {
                1
            };
            if sum < low {
                low = sum;
            }
            b += 1;
        }
        table[i] = (low, sum);
        i += 1;
    }
    table
}

/// [`prefix_table`] of pairs of nibbles.
const NIBBLES: [(i8, i8); 256] = prefix_table(true);

/// [`prefix_table`] of bytes of eight deltas.
const BYTES: [(i8, i8); 256] = prefix_table(false);

/// The lowest prefix sum of the deltas of `bytes` (indices into `table`), in order, the empty
/// prefix included.
#[inline(always)]
fn fold(table: &[(i8, i8); 256], bytes: impl Iterator<Item = u64>) -> i64 {
    let (mut low, mut sum) = (0i64, 0i64);
    for byte in bytes {
        let (l, s) = table[byte as usize & 255];
        low = low.min(sum + i64::from(l));
        sum += i64::from(s);
    }
    low
}

/// The lowest prefix sum of a strip's deltas (`+1` where `p`, `-1` where `m`), the empty
/// prefix included: by nibbles ([`Nibbles`]), or by bytes of the deltas gathered together
/// with BMI2's `pext` ([`Gathered`], where `pext` is fast).
trait Lowest {
    fn lowest(p: u64, m: u64) -> i64;
}

struct Nibbles;

impl Lowest for Nibbles {
    #[inline(always)]
    fn lowest(p: u64, m: u64) -> i64 {
        lowest(p, m)
    }
}

#[cfg(target_arch = "x86_64")]
struct Gathered;

#[cfg(target_arch = "x86_64")]
impl Lowest for Gathered {
    #[inline(always)]
    fn lowest(p: u64, m: u64) -> i64 {
        // SAFETY: only ever inlined into the compilations with BMI2, which run once the CPU
        // is known to have it. The deltas that are not 0, in order, `-1` as a set bit; past
        // them, clear bits (+1) lower nothing.
        let gathered = unsafe { std::arch::x86_64::_pext_u64(m, p | m) };
        fold(&BYTES, (0..8).map(|b| gathered >> (8 * b)))
    }
}

/// Whether the CPU has BMI2 and its `pext` is fast: not on AMD's families before Zen 3
/// (0x19), where it is microcoded and takes up to hundreds of cycles.
#[cfg(target_arch = "x86_64")]
pub fn fast_pext() -> bool {
    use std::sync::OnceLock;
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(|| {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return false;
        }
        // CPUID leaves 0 (the vendor) and 1 (the family) exist on every x86-64 CPU.
        use std::arch::x86_64::__cpuid;
        let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let family = ((signature >> 8) & 0xf) + ((signature >> 20) & 0xff);
        !(amd && family < 0x19)
    })
}

/// [`Nibbles`]' sum.
#[inline(always)]
fn lowest(p: u64, m: u64) -> i64 {
    let pairs = (0..16).map(|n| ((p >> (4 * n)) & 15) | (((m >> (4 * n)) & 15) << 4));
    fold(&NIBBLES, pairs)
}

impl Run<'_, '_> {
    fn go(&mut self, simd: Simd) {
        match simd {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => {
                #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi2")]
                fn avx512(run: &mut Run<'_, '_>) {
                    run.body::<super::lanes::x86::Avx512<u64>, Avx2Compare, Gathered>()
                }
                assert!(Simd::detect() == Simd::Avx512, "the CPU has no AVX-512");
                assert!(fast_pext(), "a CPU with AVX-512 and no fast BMI2");
                // SAFETY: the CPU has AVX-512 F, BW and VL, AVX2 and BMI2: checked above.
                unsafe { avx512(self) }
            }
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 if fast_pext() => {
                #[target_feature(enable = "avx2,bmi2")]
                fn avx2(run: &mut Run<'_, '_>) {
                    run.body::<super::lanes::x86::Avx2<u64>, Avx2Compare, Gathered>()
                }
                assert!(Simd::detect() <= Simd::Avx2, "the CPU has no AVX2");
                // SAFETY: the CPU has AVX2 and BMI2: checked just above and by the guard.
                unsafe { avx2(self) }
            }
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => {
                #[target_feature(enable = "avx2")]
                fn avx2(run: &mut Run<'_, '_>) {
                    run.body::<super::lanes::x86::Avx2<u64>, Avx2Compare, Nibbles>()
                }
                assert!(Simd::detect() <= Simd::Avx2, "the CPU has no AVX2");
                // SAFETY: the CPU has AVX2: checked just above.
                unsafe { avx2(self) }
            }
            _ => self.body::<[u64; WIDTH], Plain, Nibbles>(),
        }
    }

    /// Every strip of every lane, a row at a time down to the cut-off (see the module doc).
    #[inline(always)]
    fn body<V: Vector<u64, WIDTH>, C: Compare, L: Lowest>(&mut self) {
        let pattern = self.pattern;
        let m = pattern.codes.len();
        let k = pattern.limit as i64;
        let jobs = self.jobs.clone();
        let strips = jobs
            .iter()
            .map(|j| (j.end - j.start).div_ceil(STRIP))
            .max()
            .unwrap_or(0);
        let splat = |v: u64| V::load(&[v; WIDTH]);
        let (one, ones, zero) = (splat(1), splat(u64::MAX), splat(0));
        let limit = splat(pattern.limit as u64);
        let classes = pattern.classes.len();
        // Each row's vertical delta at the last strip's right edge, as masks: +1 at first.
        let mut hp = vec![[ones; VECTORS]; m];
        let mut hm = vec![[zero; VECTORS]; m];
        // The rows whose deltas are not the initial +1.
        let mut touched = 0;
        // The last row of the column before the strip with a cell within k: at first, the
        // column before the text, `D[r] = r`.
        let mut left_last = pattern.limit;
        let mut masks = vec![[zero; VECTORS]; classes];
        let mut padded = [[0u8; STRIP]; LANES];
        let mut lane_masks = vec![[0u64; LANES]; classes];
        // The cells of each row at the last column of the strip (`rights`, the rows computed)
        // and of the strip before it (`lefts`, its first `computed` rows; the rows below
        // them go up by one per row).
        let mut rights = vec![[zero; VECTORS]; m];
        let mut lefts = vec![[zero; VECTORS]; m];
        let mut computed = 0;
        for s in 0..strips {
            for ((l, job), out) in jobs.iter().enumerate().zip(padded.iter_mut()) {
                let (bytes, exists) = self.virt.strip(job.start + s * STRIP, job.end, out);
                for (class, lanes) in pattern.classes.iter().zip(lane_masks.iter_mut()) {
                    lanes[l] = class.iter().fold(0, |acc, &b| acc | C::mask(bytes, b)) & exists;
                }
            }
            for (lanes, mask) in lane_masks.iter().zip(masks.iter_mut()) {
                *mask = std::array::from_fn(|g| {
                    V::load(
                        lanes[g * WIDTH..][..WIDTH]
                            .try_into()
                            .expect("a vector's lanes"),
                    )
                });
            }
            std::mem::swap(&mut lefts, &mut rights);
            let left = |row: usize| -> [V; VECTORS] {
                if row <= computed {
                    lefts[row - 1]
                } else {
                    let (base, below) = match computed {
                        0 => ([zero; VECTORS], row),
                        c => (lefts[c - 1], row - c),
                    };
                    base.map(|b| b.add(splat(below as u64)))
                }
            };
            let mut pv = [zero; VECTORS];
            let mut mv = [zero; VECTORS];
            let mut right = [zero; VECTORS];
            let mut right_last = 0;
            let mut check = (left_last + 1).max(computed.saturating_sub(HINT));
            let mut r = 0;
            let mut cut = false;
            while r < m {
                let eq = masks[pattern.codes[r] as usize];
                let (hp_r, hm_r) = (&mut hp[r], &mut hm[r]);
                let mut low = 0;
                for g in 0..VECTORS {
                    let (hp_in, hm_in) = (hp_r[g], hm_r[g]);
                    // Myers' step with the left edge's delta coming in (edlib's
                    // calculateBlock).
                    let xv = eq[g].or(mv[g]);
                    let eq = eq[g].or(hm_in.and(one));
                    let xh = V::xor_or(eq.and(pv[g]).add(pv[g]), pv[g], eq);
                    let ph = V::or_nor(mv[g], xh, pv[g]);
                    let mh = pv[g].and(xh);
                    let (hp_out, hm_out) = (ph.sign(), mh.sign());
                    let ph = ph.add(ph).or(hp_in.and(one));
                    let mh = mh.add(mh).or(hm_in.and(one));
                    pv[g] = V::or_nor(mh, xv, ph);
                    mv[g] = ph.and(xv);
                    hp_r[g] = hp_out;
                    hm_r[g] = hm_out;
                    // Masks are -1 where set: the cells go up by the +1s, down by the -1s.
                    right[g] = right[g].sub(hp_out).add(hm_out);
                    low |= right[g].at_most(limit);
                }
                rights[r] = right;
                r += 1;
                // Without a branch: whether a lane's last cell is within k changes often.
                right_last = right_last.max(r * usize::from(low != 0));
                if r == check && r < m {
                    let low = lowest_all::<V, L>(&left(r), &pv, &mv);
                    if low > k {
                        cut = true;
                        break;
                    }
                    check = r + ((k - low) as usize + 1).max(SKIP);
                }
            }
            self.rows += r as u64;
            self.strips += 1;
            if cut {
                // The rows below the cut: +1 again.
                for row in r..touched.max(r) {
                    hp[row] = [ones; VECTORS];
                    hm[row] = [zero; VECTORS];
                }
            } else {
                self.report(s, &left(m), &pv, &mv, k);
            }
            touched = touched.max(r);
            computed = r;
            left_last = right_last;
        }
    }

    /// The ends within `k` in strip `s` of every lane (the last row computed).
    #[inline(always)]
    fn report<V: Vector<u64, WIDTH>>(
        &mut self,
        s: usize,
        left: &[V; VECTORS],
        pv: &[V; VECTORS],
        mv: &[V; VECTORS],
        k: i64,
    ) {
        let (left, pv, mv) = (lanes_of(left), lanes_of(pv), lanes_of(mv));
        for (l, job) in self.jobs.iter().enumerate() {
            let mut value = left[l] as i64;
            if value + lowest(pv[l], mv[l]) > k {
                continue;
            }
            let first = job.start + s * STRIP;
            for bit in 0..STRIP {
                value += ((pv[l] >> bit) & 1) as i64 - ((mv[l] >> bit) & 1) as i64;
                let at = first + bit;
                if value <= k && job.report.contains(&at) {
                    self.hits.push(Hit {
                        pattern: self.pattern.number,
                        end: self.base + (at + 1 - self.virt.tail.len()) as u64,
                        distance: value as usize,
                    });
                }
            }
        }
    }
}

/// The lanes of the vectors, in order.
#[inline(always)]
fn lanes_of<V: Vector<u64, WIDTH>>(v: &[V; VECTORS]) -> [u64; LANES] {
    let parts = v.map(V::store);
    std::array::from_fn(|l| parts[l / WIDTH][l % WIDTH])
}

/// The lowest cell of the row in the strips of all lanes (the column before each included),
/// without a branch: which lanes come within k changes from strip to strip.
#[inline(always)]
fn lowest_all<V: Vector<u64, WIDTH>, L: Lowest>(
    left: &[V; VECTORS],
    pv: &[V; VECTORS],
    mv: &[V; VECTORS],
) -> i64 {
    let (left, pv, mv) = (lanes_of(left), lanes_of(pv), lanes_of(mv));
    (0..LANES)
        .map(|l| left[l] as i64 + L::lowest(pv[l], mv[l]))
        .fold(i64::MAX, i64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Random;
    use crate::search::oracle;

    fn want(p: &[u8], text: &[u8], k: usize, base: u64, from: usize) -> Vec<Hit> {
        oracle::ends(p, text, k)
            .into_iter()
            .filter(|&(e, _)| e > from)
            .map(|(e, d)| Hit {
                pattern: 7,
                end: base + e as u64,
                distance: d,
            })
            .collect()
    }

    #[test]
    fn lowest_prefix_sums() {
        assert_eq!(lowest(0, 0), 0);
        assert_eq!(lowest(0, u64::MAX), -64);
        assert_eq!(lowest(u64::MAX, 0), 0);
        // +1 -1 -1 ... : down to -1 after the third delta.
        assert_eq!(lowest(0b001, 0b110), -1);
        let mut rng = Random::new(3);
        for _ in 0..200 {
            let (a, b) = (rng.word(), rng.word());
            let (p, m) = (a & !b, b & !a);
            let mut sum = 0i64;
            let mut low = 0;
            for bit in 0..64 {
                sum += ((p >> bit) & 1) as i64 - ((m >> bit) & 1) as i64;
                low = low.min(sum);
            }
            assert_eq!(lowest(p, m), low);
        }
    }

    /// Every compilation, against the plain DP, the text cut into calls at random places.
    #[test]
    fn strips_find_what_the_plain_dp_finds() {
        let mut rng = Random::new(17);
        for round in 0..300 {
            let alphabet: &[u8] = [&b"AC"[..], b"ACGT", b"abcdefghijklmnop"][round % 3];
            let m = 1 + rng.below([8, 40, 150, 300][round % 4]);
            let p = rng.bytes(m, alphabet);
            let len = rng.below([200, 3000, 20_000][round % 3]);
            let mut text = rng.bytes(len, alphabet);
            for _ in 0..rng.below(8) {
                if len > m {
                    let at = rng.below(len - m);
                    text[at..at + m].copy_from_slice(&p);
                    let edits = rng.below(4);
                    for _ in 0..edits {
                        let i = at + rng.below(m);
                        text[i] = alphabet[rng.below(alphabet.len())];
                    }
                }
            }
            let k = rng.below(m.min(12) + 1);
            let from = [0, rng.below(len + 1)][rng.below(2)];
            let expect = want(&p, &text, k, 100, from);
            for simd in Simd::available() {
                let mut strips = Strips::new(7, &p, k, Alphabet::Exact);
                let mut got = Vec::new();
                let cuts = [rng.below(len + 1), rng.below(len + 1)];
                let (a, b) = (cuts[0].min(cuts[1]), cuts[0].max(cuts[1]));
                for (lo, hi) in [(0, a), (a, b), (b, len)] {
                    strips.scan(
                        simd,
                        &text[lo..hi],
                        100 + lo as u64,
                        from.saturating_sub(lo),
                        &mut got,
                    );
                }
                got.sort();
                assert_eq!(got, expect, "{simd:?} m {m} k {k} len {len} from {from}");
            }
        }
    }

    /// Matches planted across every boundary between two lanes' parts (ending just before,
    /// at and just after it, and spanning it), exact and with edits: each found once.
    #[test]
    fn matches_across_the_lanes_boundaries_are_found_once() {
        let mut rng = Random::new(23);
        for round in 0..40 {
            let m = [5, 20, 64, 90][round % 4];
            let k = rng.below(m.min(6) + 1);
            let p = rng.bytes(m, b"ACGT");
            let len = 40_000 + rng.below(30_000);
            let mut text = rng.bytes(len, b"ACGT");
            let strips = Strips::new(7, &p, k, Alphabet::Exact);
            let jobs = strips.jobs(len, 0);
            assert!(jobs.iter().filter(|j| j.end > j.start).count() > 1);
            for job in jobs.iter().skip(1).filter(|j| j.end > j.start) {
                let edge = job.report.start;
                for shift in [0, 1, 2, m / 2, m, m + 1] {
                    let end = edge + shift;
                    if end >= m && end <= len {
                        text[end - m..end].copy_from_slice(&p);
                        if rng.coin() && k > 0 {
                            text[end - 1 - rng.below(m)] = b'T';
                        }
                    }
                }
            }
            let expect = want(&p, &text, k, 0, 0);
            for simd in Simd::available() {
                let mut strips = Strips::new(7, &p, k, Alphabet::Exact);
                let mut got = Vec::new();
                strips.scan(simd, &text, 0, 0, &mut got);
                got.sort();
                assert_eq!(got, expect, "{simd:?} m {m} k {k}");
            }
        }
    }

    #[test]
    fn a_reset_starts_a_record() {
        let p = b"GATTACA";
        let mut strips = Strips::new(7, p, 1, Alphabet::Exact);
        let mut got = Vec::new();
        strips.scan(Simd::detect(), b"TTGATT", 0, 0, &mut got);
        strips.reset();
        // ACA alone is 4 edits from GATTACA: nothing carried over the record's start.
        strips.scan(Simd::detect(), b"ACATT", 6, 0, &mut got);
        assert_eq!(got, vec![]);
        strips.scan(Simd::detect(), b"GATTACA", 11, 0, &mut got);
        got.sort();
        assert_eq!(got, want(p, b"ACATTGATTACA", 1, 6, 5));
    }

    #[test]
    fn the_cut_off_computes_few_rows_on_random_text() {
        let mut rng = Random::new(5);
        let text = rng.bytes(1 << 20, b"ACGT");
        let p = rng.bytes(200, b"ACGT");
        let mut strips = Strips::new(0, &p, 10, Alphabet::Exact);
        let mut hits = Vec::new();
        strips.scan(Simd::detect(), &text, 0, 0, &mut hits);
        let per_strip = strips.rows as f64 / strips.strips as f64;
        assert!(per_strip < 60.0, "{per_strip} rows per strip of 200");
    }
}
