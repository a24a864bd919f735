//! The LCS length alone, by the bit-parallel recurrence over one band spanning all columns.
//!
//! Same recurrence as [`super::kernel`]: `V_i = (V_{i-1} + U) | (V_{i-1} & !P)` from
//! `V_{-1}` all ones; after the last row the LCS length is the number of zero bits of `V` over
//! the real columns (the +1 steps along the last row; padding bits stay 1). Kept apart from the
//! engine so a run's length can be checked independently, e.g. for 10^6 x 10^6, where no
//! traceback fits in one process.
//!
//! Cost: `m * ceil(n / 64)` word steps, four rows per pass; memory `ceil(n / 64)` words of `V` plus one mask row
//! per distinct byte of `x`. No traceback bits.

use super::kernel::{self, Masks};

/// Length of the LCS of `x` and `y` (either may be the longer; columns are `y`).
pub fn lcs_length_bitparallel(x: &[u8], y: &[u8]) -> usize {
    let masks = Masks::new(x, y);
    let mut v = vec![u64::MAX; masks.width()];
    // Four rows per pass where possible, as the engine's fill does.
    let mut rows = x.chunks_exact(kernel::FUSED_ROWS);
    for r in rows.by_ref() {
        kernel::step4(&mut v, [0, 1, 2, 3].map(|d| masks.of(r[d])), [false; 4]);
    }
    for &b in rows.remainder() {
        kernel::step(&mut v, masks.of(b), false);
    }
    v.iter().map(|w| w.count_zeros() as usize).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Random;

    #[test]
    fn agrees_with_the_reference() {
        let mut rng = Random::new(0x1e4);
        let all: Vec<u8> = (0..=255).collect();
        let alphabets: [&[u8]; 4] = [b"ab", b"ACGT", b"abcdefghijklmnopqrstuvwxyz", &all];
        for alphabet in alphabets {
            for _ in 0..60 {
                let la = rng.below(300);
                let lb = la + rng.below(301 - la);
                let mut gen = |len| -> Vec<u8> {
                    (0..len)
                        .map(|_| alphabet[rng.below(alphabet.len())])
                        .collect()
                };
                let (x, y) = (gen(la), gen(lb));
                let want = crate::reference::lcs(&x, &y).length;
                assert_eq!(lcs_length_bitparallel(&x, &y), want, "x={x:?} y={y:?}");
                // Symmetric: the longer sequence may be the rows too.
                assert_eq!(lcs_length_bitparallel(&y, &x), want);
            }
        }
    }

    #[test]
    fn edge_cases() {
        assert_eq!(lcs_length_bitparallel(b"", b""), 0);
        assert_eq!(lcs_length_bitparallel(b"", b"abc"), 0);
        assert_eq!(lcs_length_bitparallel(b"abc", b""), 0);
        assert_eq!(lcs_length_bitparallel(b"a", b"a"), 1);
        assert_eq!(lcs_length_bitparallel(&[7; 64], &[7; 64]), 64);
        assert_eq!(lcs_length_bitparallel(&[7; 65], &[7; 130]), 65);
        assert_eq!(lcs_length_bitparallel(b"abc", b"xyz"), 0);
    }
}
