//! A band's rows computed elsewhere (on a device), kept by the store as if it had computed
//! them: the device steps the same rows in tiles of 64 rows by a divisor of `f` words (a seam's
//! span, [`super::plan::BandPlan::seam_words`]), so the carries out of every `f`-th word are the band's
//! seams, and it writes them, the checkpoints and the carries out in the store's own layouts;
//! the store copies them in ([`BandStore::import_rows`]) and the walk runs on them as it does
//! after its own fill. Only a checkpointed band of the whole matrix is laid out so ([`DeviceShape`]): every
//! row's window is the band, and seam group `q` (rows `64 q..64 q + 64`) holds every seam.
//!
//! Cost per `r` rows: `O(r / 64 * s + r / K * w)` words copied for `s` seams and `w` words.

use std::ops::Range;

use super::carry;
use super::kernel::left_edge;
use super::store::{BandStore, Trace};
use crate::bitpar::WORD_BITS;
use crate::problem::Problem;

/// What a device computes for a band, and in which layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceShape {
    /// Rows of the matrix.
    pub rows: usize,
    /// Words of the band.
    pub width: usize,
    /// Planes of state and of carries (1 for the LCS, 2 for the edit distance).
    pub planes: usize,
    /// Rows between checkpoints.
    pub k: usize,
    /// Words between seams: a tile's width.
    pub f: usize,
    /// Seams of the band: `ceil(width / f) - 1`.
    pub seams: usize,
}

impl DeviceShape {
    /// The problem of its planes: two for the edit distance, one for the LCS.
    pub fn problem(&self) -> Problem {
        match self.planes {
            2 => Problem::Edit,
            _ => Problem::Lcs,
        }
    }

    /// Tiles across the band: `ceil(width / f)`.
    pub fn chunks(&self) -> usize {
        self.width.div_ceil(self.f)
    }

    /// The checkpoints rows `rows` write: their numbers (checkpoint `c` is the state after row
    /// `(c + 1) k - 1`, and the last row's is never kept).
    pub fn checkpoints_in(&self, rows: Range<usize>) -> Range<usize> {
        let end = rows.end.min(self.rows.saturating_sub(1)).max(rows.start);
        rows.start / self.k..end / self.k
    }
}

/// Why a band cannot be computed elsewhere.
pub const NOT_WHOLE: &str = "a diagonal band";
/// As [`NOT_WHOLE`], for a band that keeps every bit.
pub const FULL: &str = "every bit kept (--checkpoint full)";

impl BandStore<'_> {
    /// The layout of this band's batches on a device, or why it has none.
    pub fn device_shape(&self) -> Result<DeviceShape, &'static str> {
        if !self.plan.band().is_whole() {
            return Err(NOT_WHOLE);
        }
        match &self.trace {
            Trace::Full { .. } => Err(FULL),
            Trace::Every { k, f, .. } => Ok(DeviceShape {
                rows: self.plan.rows(),
                width: self.width,
                planes: self.plan.problem().planes(),
                k: *k,
                f: *f,
                seams: self.plan.seams(self.rank, *f),
            }),
        }
    }

    /// The match masks as a device takes them: the slot of each byte of `x` (`u32::MAX` for a
    /// byte that is not in it), and the slots' masks, `width` words each.
    pub fn mask_table(&self) -> (&[u32; 256], &[u64]) {
        self.masks.table()
    }

    /// The rows' bytes.
    pub fn x(&self) -> &[u8] {
        self.x
    }

    /// Keeps rows `rows` as computed elsewhere from the carries `incoming` (packed as a
    /// message of those rows: `planes` planes of `ceil(len / 64)` words; `None` for the
    /// matrix's left edge), with `seams` the seam words of the rows' groups of 64 (group after
    /// group, `seams * planes` words each, as [`carry::Seams`] lays them out) and
    /// `checkpoints` the states [`DeviceShape::checkpoints_in`] names, one after the other,
    /// `planes * width` words each (plane after plane). The rows start at a multiple of 64
    /// and follow the rows computed so far.
    pub fn import_rows(
        &mut self,
        rows: Range<usize>,
        incoming: Option<&[u64]>,
        seams: &[u64],
        checkpoints: &[u64],
    ) {
        let shape = self.device_shape().expect("a band laid out for a device");
        assert_eq!(rows.start % WORD_BITS, 0, "rows start a group of 64");
        assert_eq!(self.next_row, rows.start, "rows are imported in order");
        let (words, planes) = (rows.len().div_ceil(WORD_BITS), shape.planes);
        let m = self.plan.rows();
        let edge = left_edge(self.plan.problem());
        let Trace::Every {
            carries,
            seams: kept_seams,
            checkpoints: kept,
            ..
        } = &mut self.trace
        else {
            unreachable!("device_shape admits checkpointed bands only")
        };
        let all = m.div_ceil(WORD_BITS);
        for t in 0..rows.len() {
            let payload = incoming.map_or(edge, |w| carry::get_payload(w, words, planes, t));
            carry::set_payload(carries, all, planes, rows.start + t, payload);
        }
        let groups = rows.start / WORD_BITS..rows.end.div_ceil(WORD_BITS);
        kept_seams.group_words_mut(groups).copy_from_slice(seams);
        let row = planes * shape.width;
        let numbers = shape.checkpoints_in(rows.clone());
        assert_eq!(
            checkpoints.len(),
            numbers.len() * row,
            "one state per checkpoint"
        );
        for (c, state) in numbers.zip(checkpoints.chunks_exact(row.max(1))) {
            let planes = state.chunks_exact(shape.width.max(1));
            for (to, from) in kept.span_mut(c, 1).into_iter().zip(planes) {
                if !to.is_empty() {
                    to.copy_from_slice(from);
                }
            }
        }
        self.next_row = rows.end;
    }

    /// Sets the state after the last row computed elsewhere: `planes * width` words, plane
    /// after plane. The fill is then done.
    pub fn import_state(&mut self, state: &[u64]) {
        let width = self.width;
        assert_eq!(
            self.next_row,
            self.plan.rows(),
            "the state after the last batch"
        );
        for (to, from) in self.state.iter_mut().zip(state.chunks_exact(width.max(1))) {
            if !to.is_empty() {
                to.copy_from_slice(from);
            }
        }
    }
}
