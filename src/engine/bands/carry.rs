//! Packed carry bits: the payload of a bands boundary message, and the store's record of each
//! row's carry-in.
//!
//! Row `start + t` of a run of rows is bit `t % 64` of word `t / 64`, so one bit per row of a
//! batch of `len` rows travels as `ceil(len / 64)` `u64` words (an MPI message of plain
//! numbers) and bits past `len` in the last word are 0. A row's carry is a small payload of
//! `planes` bits (the LCS's carry: one; the edit distance's delta: two, see
//! `bitpar::edit::Delta`): bit `p` of row `t`'s payload is bit `t` of plane `p`, the planes
//! laid one after the other, `words` words each ([`get_payload`], [`set_payload`]). O(1) per
//! bit.

use crate::engine::bitpar::WORD_BITS;

/// Bit `t` of `words`.
#[inline]
pub fn get(words: &[u64], t: usize) -> bool {
    debug_assert!(t / WORD_BITS < words.len(), "carry bit {t} out of range");
    (words[t / WORD_BITS] >> (t % WORD_BITS)) & 1 == 1
}

/// Sets bit `t` of `words` to `bit`.
#[inline]
pub fn set(words: &mut [u64], t: usize, bit: bool) {
    debug_assert!(t / WORD_BITS < words.len(), "carry bit {t} out of range");
    let mask = 1u64 << (t % WORD_BITS);
    let word = &mut words[t / WORD_BITS];
    // Branch-free: clear the bit, then or in the new value.
    *word = (*word & !mask) | (u64::from(bit) << (t % WORD_BITS));
}

/// Row `t`'s payload from `planes` planes of `words` words each.
#[inline]
pub fn get_payload(packed: &[u64], words: usize, planes: usize, t: usize) -> u8 {
    (0..planes).fold(0u8, |acc, p| {
        acc | (u8::from(get(&packed[p * words..(p + 1) * words], t)) << p)
    })
}

/// Sets row `t`'s payload in `planes` planes of `words` words each.
#[inline]
pub fn set_payload(packed: &mut [u64], words: usize, planes: usize, t: usize, payload: u8) {
    for p in 0..planes {
        set(
            &mut packed[p * words..(p + 1) * words],
            t,
            (payload >> p) & 1 == 1,
        );
    }
}

/// Packs `bits` into `ceil(len / 64)` words.
pub fn pack(bits: &[bool]) -> Vec<u64> {
    let mut words = vec![0u64; bits.len().div_ceil(WORD_BITS)];
    for (t, &bit) in bits.iter().enumerate() {
        set(&mut words, t, bit);
    }
    words
}

/// The first `len` bits of `words`.
pub fn unpack(words: &[u64], len: usize) -> Vec<bool> {
    debug_assert!(len <= words.len() * WORD_BITS);
    (0..len).map(|t| get(words, t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_spread_over_planes() {
        let words = 2;
        let mut packed = vec![0u64; 2 * words];
        for t in 0..100 {
            set_payload(&mut packed, words, 2, t, (t % 3) as u8);
        }
        for t in 0..100 {
            assert_eq!(get_payload(&packed, words, 2, t), (t % 3) as u8);
            assert_eq!(get(&packed[..words], t), t % 3 == 1, "plane 0 holds bit 0");
            assert_eq!(get(&packed[words..], t), t % 3 == 2, "plane 1 holds bit 1");
        }
        assert_eq!(
            get_payload(&packed, words, 1, 2),
            0,
            "one plane reads bit 0 only"
        );
    }

    #[test]
    fn pack_unpack_round_trip_at_word_edges() {
        for len in [0usize, 1, 2, 63, 64, 65, 127, 128, 129, 200] {
            let bits: Vec<bool> = (0..len).map(|t| (t * 7 + t / 3) % 5 < 2).collect();
            let words = pack(&bits);
            assert_eq!(words.len(), len.div_ceil(64), "len {len}");
            assert_eq!(unpack(&words, len), bits, "len {len}");
            // Bits past the batch are zero, so a message's content is a function of its rows.
            if len % 64 != 0 {
                assert_eq!(words[len / 64] >> (len % 64), 0);
            }
        }
    }

    #[test]
    fn set_overwrites_both_ways() {
        let mut words = vec![0u64; 2];
        set(&mut words, 70, true);
        assert!(get(&words, 70));
        assert_eq!(words, [0, 1 << 6]);
        set(&mut words, 70, false);
        assert_eq!(words, [0, 0]);
        set(&mut words, 0, true);
        set(&mut words, 63, true);
        assert_eq!(words[0], 1 | (1 << 63));
    }
}
