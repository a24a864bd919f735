//! The wave engine's halo message, one each way between neighbours per score step: the step,
//! whether the fill is over (the final cost plus one, or 0), and the sender's values of the
//! diagonals the receiver holds next (the first diagonal, the count, then one value each), all
//! as `i32` words. Steps, costs and diagonals fit: the wave engine takes sequences of at most
//! `i32::MAX / 2` bytes.

/// Words before the values.
pub const HEADER: usize = 4;

/// A halo message, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Halo<'a> {
    pub step: usize,
    /// The final cost, once the sender knows the fill is over.
    pub done: Option<usize>,
    pub first: i64,
    pub values: &'a [i32],
}

/// The message of step `step` carrying `values` of the diagonals from `first`, into `out`.
pub fn halo_words(
    step: usize,
    done: Option<usize>,
    first: i64,
    values: &[i32],
    out: &mut Vec<i32>,
) {
    out.clear();
    out.extend([
        step as i32,
        done.map_or(0, |d| d as i32 + 1),
        first as i32,
        values.len() as i32,
    ]);
    out.extend_from_slice(values);
}

/// The message of [`halo_words`]; `None` when the words are not one.
pub fn halo_of(words: &[i32]) -> Option<Halo<'_>> {
    let (header, values) = words.split_at_checked(HEADER)?;
    let [step, done, first, count] = header.try_into().ok()?;
    (usize::try_from(count).ok()? == values.len()).then_some(Halo {
        step: usize::try_from(step).ok()?,
        done: usize::try_from(done).ok()?.checked_sub(1),
        first: i64::from(first),
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_halo_round_trips_and_a_cut_one_is_refused() {
        let mut words = Vec::new();
        halo_words(12, Some(40), -7, &[3, 9, -1], &mut words);
        assert_eq!(words.len(), HEADER + 3);
        let halo = halo_of(&words).unwrap();
        assert_eq!((halo.step, halo.done, halo.first), (12, Some(40), -7));
        assert_eq!(halo.values, [3, 9, -1]);
        halo_words(0, None, 5, &[], &mut words);
        assert_eq!(halo_of(&words).unwrap().done, None);
        assert_eq!(halo_of(&words[..3]), None);
        halo_words(1, None, 0, &[1, 2], &mut words);
        assert_eq!(halo_of(&words[..words.len() - 1]), None);
        words[0] = -1;
        assert_eq!(halo_of(&words), None);
    }
}
