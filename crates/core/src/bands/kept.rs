//! Rows a band keeps for its traceback (every row's bits, or the state every `K` rows), each
//! over its own window only: on a diagonal band a row computes a few words of a wide band, and
//! the words it never computed are never read again (see [`super::store`]), so they are not
//! kept either. For the whole matrix every window is the band's width, and a kept row is the
//! whole row.
//!
//! The rows' words lie one after the other in each plane, row `t` at `starts[t]..starts[t +
//! 1]`: one index word per row beside its words.

use super::kernel::Planes;
use super::plan::BandPlan;
use crate::bitpar::WORD_BYTES;

/// `planes` planes of `len` zeroed words (the others empty).
pub(super) fn planes_of(planes: usize, len: usize) -> Planes {
    let plane = |p: usize| {
        if p < planes {
            vec![0u64; len]
        } else {
            Vec::new()
        }
    };
    [plane(0), plane(1)]
}

/// Rows of one band, each holding only its window's words ([`BandPlan::window`]).
pub(super) struct Kept {
    pub(super) planes: Planes,
    /// Where each row begins in each plane; one more for the end of the last.
    starts: Vec<usize>,
}

impl Kept {
    /// The matrix rows `rows` of `rank`'s band on `plan`, in `planes` planes, zeroed.
    pub fn new(
        plan: &BandPlan,
        rank: usize,
        rows: impl Iterator<Item = usize>,
        planes: usize,
    ) -> Kept {
        let mut starts = Vec::with_capacity(rows.size_hint().0 + 1);
        let mut total = 0usize;
        starts.push(0);
        for i in rows {
            total = total
                .checked_add(plan.window(rank, i).len())
                .expect("band does not fit in the address space");
            starts.push(total);
        }
        Kept {
            planes: planes_of(planes, total),
            starts,
        }
    }

    /// Bytes [`Kept::new`] allocates for the same rows: their windows' words in every plane,
    /// and the index. O(1) for the whole matrix (every window the band's width), else O(rows).
    pub fn bytes(
        plan: &BandPlan,
        rank: usize,
        rows: impl ExactSizeIterator<Item = usize>,
        planes: usize,
    ) -> u64 {
        let count = rows.len() as u64;
        let words = match plan.band().is_whole() {
            true => count * plan.words(rank).len() as u64,
            false => rows.map(|i| plan.window(rank, i).len() as u64).sum(),
        };
        (planes as u64 * words + count + 1) * WORD_BYTES
    }

    /// Where kept row `t` begins in each plane.
    #[inline]
    pub fn start(&self, t: usize) -> usize {
        self.starts[t]
    }

    /// Kept rows `t..t + count`, one after the other, in each plane (the second empty for
    /// one plane).
    #[inline]
    pub fn span_mut(&mut self, t: usize, count: usize) -> [&mut [u64]; 2] {
        let range = self.starts[t]..self.starts[t + count];
        super::kernel::words_of(self.planes.each_mut().map(|p| &mut p[..]), range)
    }

    /// Kept row `t` in each plane.
    #[inline]
    pub fn row(&self, t: usize) -> [&[u64]; 2] {
        let range = self.starts[t]..self.starts[t + 1];
        let [a, b] = &self.planes;
        [&a[range.clone()], b.get(range).unwrap_or_default()]
    }

    /// Words held (capacities), the index included, for checking [`Kept::bytes`].
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.planes[0].capacity() + self.planes[1].capacity() + self.starts.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagonal_band::Band;

    #[test]
    fn rows_hold_their_windows_one_after_the_other() {
        let plan = BandPlan::new(300, 1000, 3, 64).with_band(Band::new(300, 1000, Some(40)));
        for rank in 0..3 {
            let rows = (0..300).step_by(7);
            let mut kept = Kept::new(&plan, rank, rows.clone(), 2);
            assert_eq!(
                Kept::bytes(&plan, rank, rows.clone(), 2),
                kept.capacity() as u64 * 8
            );
            for (t, i) in rows.clone().enumerate() {
                let len = plan.window(rank, i).len();
                assert_eq!(kept.row(t)[0].len(), len);
                assert_eq!(kept.row(t)[1].len(), len);
                kept.span_mut(t, 1)[1].fill(i as u64);
            }
            for (t, i) in rows.enumerate() {
                assert!(kept.row(t)[1].iter().all(|&w| w == i as u64));
                assert!(kept.row(t)[0].iter().all(|&w| w == 0));
            }
        }
        // One plane: the second is empty.
        let mut kept = Kept::new(&plan, 0, 0..8, 1);
        assert!(kept.span_mut(0, 8)[1].is_empty());
        // The whole matrix keeps whole rows.
        let whole = BandPlan::new(300, 1000, 3, 64);
        let kept = Kept::new(&whole, 1, 0..300, 1);
        assert_eq!(kept.start(299), 299 * whole.words(1).len());
    }
}
