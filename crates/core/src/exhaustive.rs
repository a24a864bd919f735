//! The exhaustive cases of the tests: every short word over a two-letter alphabet, and every
//! pair of them.
//!
//! ```
//! let words = lcs_core::exhaustive::short_words(2);
//! assert_eq!(words.len(), 1 + 2 + 4);
//! ```

/// Every word over `{a, b}` of at most `longest` bytes, shortest first: the exhaustive cases
/// of the tests (127 words up to six bytes).
pub fn short_words(longest: usize) -> Vec<Vec<u8>> {
    (0..=longest)
        .flat_map(|len| {
            (0..1u64 << len).map(move |bits| {
                (0..len)
                    .map(|k| if bits >> k & 1 == 1 { b'b' } else { b'a' })
                    .collect()
            })
        })
        .collect()
}

/// Every pair of [`short_words`] with the first no longer than the second (rows first).
pub fn short_pairs(longest: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
    let words = short_words(longest);
    let mut pairs = Vec::new();
    for x in &words {
        for y in words.iter().filter(|y| y.len() >= x.len()) {
            pairs.push((x.clone(), y.clone()));
        }
    }
    pairs
}
