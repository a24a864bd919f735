//! One band of a long pair on a device: the bands engine's band of columns
//! ([`lcs_core::bands`]), its batches computed by `kernels/bands.cl` in tiles of 64 rows by `f`
//! words (the band's seam span), a launch per anti-diagonal of a batch's tiles, and kept by the
//! store as if it had computed them ([`BandStore::import_batch`]): the carries out (the message
//! to the band on the right), the seams and the checkpoints come back in the store's layouts,
//! so the messages and the walk are the CPU engine's, bit for bit.
//!
//! The rows' bytes, the masks and the state go to the device once; per batch the carries in go
//! up, the carries out, the seams and the checkpoints come back. A batch starts at a multiple of
//! 64 rows (a group of seams), so the batch size is one.
//!
//! Cost per batch of `B` rows on a band of `w` words: `B * w` word steps in `B / 64 + ceil(w /
//! f) - 1` launches of at most `min(B / 64, ceil(w / f))` tiles each.

use lcs_core::bands::imported::DeviceShape;
use lcs_core::bands::BandStore;

use crate::device::{Arg, Buffer, Gpu, GpuError};
use crate::source::Kernel;

/// Work-items per work-group (a tile each).
const GROUP: usize = 64;
/// Rows a tile takes: a group of seams.
pub const TILE_ROWS: usize = 64;

/// A band on the device, ready for its batches.
pub struct BandOnDevice {
    shape: DeviceShape,
    program: crate::device::Program,
    group: usize,
    x: Buffer,
    slot: Buffer,
    masks: Buffer,
    state: Buffer,
    incoming: Buffer,
    outgoing: Buffer,
    seams: Buffer,
    checkpoints: Buffer,
    /// Words of the longest message: a batch's carries, every plane.
    longest: usize,
}

/// Bytes a band takes on the device, and the largest of its buffers: the rows' bytes, the
/// masks, the state, a batch's carries, seams and checkpoints.
pub fn device_bytes(shape: &DeviceShape, distinct: usize, batch: usize) -> (u64, u64) {
    let (w, p) = (shape.width as u64, shape.planes as u64);
    let groups = batch.div_ceil(TILE_ROWS) as u64;
    let buffers = [
        shape.rows as u64,
        4 * 256,
        8 * distinct as u64 * w,
        8 * p * w,
        2 * 8 * p * groups,
        8 * groups * shape.seams as u64 * p,
        8 * (batch / shape.k + 1) as u64 * p * w,
    ];
    (buffers.iter().sum(), buffers.iter().copied().max().unwrap_or(0))
}

impl BandOnDevice {
    /// Puts `store`'s band on `gpu`, before any of its rows is computed: its batches go in
    /// order through [`BandOnDevice::run_batch`], then [`BandOnDevice::finish`].
    pub fn new(gpu: &mut Gpu, store: &BandStore<'_>) -> Result<BandOnDevice, GpuError> {
        let shape = store
            .device_shape()
            .map_err(|why| GpuError::Device(format!("a band with {why} has no device layout")))?;
        let plan = store.plan();
        assert_eq!(plan.batch() % TILE_ROWS, 0, "batches of whole groups of 64 rows");
        let (slot, masks) = store.mask_table();
        let distinct = masks.len() / shape.width.max(1);
        let (bytes, largest) = device_bytes(&shape, distinct, plan.batch());
        gpu.check_fits(bytes, largest, "the band")?;
        let defines = [
            ("PROBLEM", problem_code(shape.planes)),
            ("WIDTH", shape.width as u64),
            ("F", shape.f as u64),
            ("SEAMS", shape.seams.max(1) as u64),
            ("K", shape.k as u64),
            // The steps' text reads these; the band's kernel uses none of its column steps.
            ("WORDS", 1),
            ("SIGMA", 1),
        ];
        let program = gpu.program(Kernel::Bands, &defines)?;
        let mut state = vec![u64::MAX; shape.planes * shape.width];
        state[shape.width..].fill(0);
        let longest = plan.longest_message_words().max(1);
        let groups = plan.batch().div_ceil(TILE_ROWS);
        let kept = (plan.batch() / shape.k + 1) * shape.planes * shape.width;
        Ok(BandOnDevice {
            shape,
            program,
            group: GROUP.min(gpu.info().max_group).max(1),
            x: gpu.upload(store.x())?,
            slot: gpu.upload(&slot[..])?,
            masks: gpu.upload(masks)?,
            state: gpu.upload(&state)?,
            incoming: gpu.zeroed::<u64>(longest)?,
            outgoing: gpu.zeroed::<u64>(longest)?,
            seams: gpu.zeroed::<u64>((groups * shape.seams * shape.planes).max(1))?,
            checkpoints: gpu.zeroed::<u64>(kept.max(1))?,
            longest,
        })
    }

    /// Computes batch `b` of `store`'s band on the device, as [`BandStore::run_batch`] does
    /// on the CPU: from the carries `incoming`, writing the carries out to `outgoing`, and keeps
    /// what the walk needs in `store`.
    pub fn run_batch(
        &mut self,
        gpu: &mut Gpu,
        store: &mut BandStore<'_>,
        b: usize,
        incoming: Option<&[u64]>,
        outgoing: &mut [u64],
    ) -> Result<(), GpuError> {
        let plan = *store.plan();
        let rows = plan.batch_rows(b);
        let shape = self.shape;
        let carry_words = plan.carry_words(b);
        debug_assert!(outgoing.len() == plan.message_words(b) && outgoing.len() <= self.longest);
        if let Some(words) = incoming {
            gpu.write(&self.incoming, words)?;
        }
        let groups = rows.len().div_ceil(TILE_ROWS);
        let chunks = shape.chunks();
        for diagonal in 0..groups + chunks - 1 {
            let lowest = (diagonal + 1).saturating_sub(groups);
            let tiles = chunks.min(diagonal + 1) - lowest;
            let args = [
                Arg::Buffer(&self.x),
                Arg::Buffer(&self.slot),
                Arg::Buffer(&self.masks),
                Arg::Buffer(&self.state),
                Arg::U32(word(rows.start)),
                Arg::U32(word(rows.len())),
                Arg::U32(word(shape.rows)),
                Arg::U32(word(diagonal)),
                Arg::Buffer(&self.incoming),
                Arg::U32(u32::from(incoming.is_some())),
                Arg::U32(word(carry_words)),
                Arg::Buffer(&self.outgoing),
                Arg::Buffer(&self.seams),
                Arg::Buffer(&self.checkpoints),
            ];
            gpu.launch(self.program, tiles.div_ceil(self.group), self.group, &args)?;
        }
        let out: Vec<u64> = gpu.download(&self.outgoing, outgoing.len())?;
        outgoing.copy_from_slice(&out);
        let seams: Vec<u64> = gpu.download(&self.seams, groups * shape.seams * shape.planes)?;
        let kept = shape.checkpoints_in(rows.clone()).len() * shape.planes * shape.width;
        let checkpoints: Vec<u64> = gpu.download(&self.checkpoints, kept)?;
        store.import_batch(b, incoming, &seams, &checkpoints);
        Ok(())
    }

    /// After the last batch: the last row's state, into `store`.
    pub fn finish(&mut self, gpu: &mut Gpu, store: &mut BandStore<'_>) -> Result<(), GpuError> {
        let state: Vec<u64> = gpu.download(&self.state, self.shape.planes * self.shape.width)?;
        store.import_state(&state);
        Ok(())
    }

    /// Frees the band's buffers.
    pub fn release(self, gpu: &mut Gpu) {
        for buffer in [
            self.x,
            self.slot,
            self.masks,
            self.state,
            self.incoming,
            self.outgoing,
            self.seams,
            self.checkpoints,
        ] {
            gpu.release(buffer);
        }
    }
}

/// The kernels' number for a problem of `planes` planes: the edit distance 1, the LCS 2.
fn problem_code(planes: usize) -> u64 {
    match planes {
        2 => 1,
        _ => 2,
    }
}

fn word(n: usize) -> u32 {
    u32::try_from(n).expect("a band of fewer than 2^32 rows and words")
}
