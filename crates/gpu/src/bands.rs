//! One band of a long pair on a device: the bands engine's band of columns
//! ([`lcs_core::bands`]), its rows computed by `kernels/bands.cl` in passes (a batch at a time
//! where the band exchanges carries with its neighbours, else as many rows as the device holds),
//! each pass in tiles of 64 rows by a divisor of `f` words (`f` the band's seam span), a launch
//! per anti-diagonal of the pass's tiles, and kept by the store as if it had computed them
//! ([`BandStore::import_rows`]): the carries out (the message to the band on the right), the
//! seams and the checkpoints come back in the store's layouts, so the messages and the walk are
//! the CPU engine's, bit for bit.
//!
//! The rows' bytes, the masks and the state go to the device once; per pass the carries in go
//! up, the carries out, the seams and the checkpoints come back. A pass starts at a multiple of
//! 64 rows (a group of seams), so a batch is a multiple of 64 rows.
//!
//! Cost per pass of `r` rows on a band of `w` words in tiles of `t` words, blocks of `a` by `b`
//! tiles: `r * w` word steps in `r / 64a + w / tb - 1` launches of at most `min(r / 64a, w /
//! tb)` blocks each, `a + b - 1` steps a block.

use std::ops::Range;
use std::time::Instant;

use lcs_core::bands::imported::DeviceShape;
use lcs_core::bands::kernel;
use lcs_core::bands::BandStore;
use lcs_core::bitpar::Masks;
use lcs_core::problem::Problem;

use crate::device::{Arg, Buffer, Gpu, GpuError, Kind, Program};
use crate::source::Kernel;

/// Rows a tile takes: a group of seams.
pub const TILE_ROWS: usize = 64;
/// Words a tile takes on a CPU device for the length alone, where no seam span bounds it: long
/// enough that a launch's overhead is small beside its tiles.
const LENGTH_TILE: usize = 64;

/// When a pass's launches began and ended, on the host's clock: before them the pass copied
/// its carries in, after them it brought its carries (and a path's seams and checkpoints) back,
/// so a timeline can show the copies and the kernels apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launches {
    pub began: Instant,
    pub ended: Instant,
}

/// How a pass is cut: tiles of 64 rows by `words` words, in blocks of `down` tiles (a
/// work-group of as many work-items, one per group of 64 rows) by `across` tiles, a launch
/// per anti-diagonal of blocks, a barrier per anti-diagonal of tiles inside a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiling {
    pub words: usize,
    pub down: usize,
    pub across: usize,
}

/// Tiles a block takes each way on a GPU: a work-group of 64 work-items, each tile a
/// dependent chain of 64 row steps per word, 127 steps a launch.
const BLOCK: usize = 64;

/// The tiling of a pass of `pass` rows: on a CPU device a block of one tile (a work-group of
/// one; a launch per anti-diagonal of tiles, each tile `f` words wide), on a GPU blocks of 64
/// by 64 tiles of [`tile_words`] words.
pub fn tiling(shape: &DeviceShape, pass: usize, kind: Kind) -> Tiling {
    let words = tile_words(shape, pass, kind);
    match kind {
        Kind::Cpu => Tiling {
            words,
            down: 1,
            across: 1,
        },
        Kind::Gpu => Tiling {
            words,
            down: BLOCK,
            across: BLOCK,
        },
    }
}

/// A band on the device, ready for its passes.
pub struct BandOnDevice {
    shape: DeviceShape,
    program: Program,
    tiling: Tiling,
    /// The most rows a pass takes.
    pass: usize,
    x: Buffer,
    slot: Buffer,
    masks: Buffer,
    state: Buffer,
    incoming: Buffer,
    outgoing: Buffer,
    links: Buffer,
    seams: Buffer,
    checkpoints: Buffer,
}

/// The buffers of a band on a device whose passes take at most `pass` rows, in bytes: the
/// rows' bytes, the slots, the masks (`distinct` rows), the state, the carries in and out, the
/// links, the seams and the checkpoints of a pass.
fn buffers(shape: &DeviceShape, distinct: usize, pass: usize) -> [u64; 9] {
    let (w, p) = (shape.width as u64, shape.planes as u64);
    let groups = pass.div_ceil(TILE_ROWS) as u64;
    let message = 8 * p * groups;
    [
        shape.rows as u64,
        4 * 256,
        8 * distinct as u64 * w,
        8 * p * w,
        message,
        message,
        message,
        8 * groups * shape.seams as u64 * p,
        8 * (pass / shape.k + 1) as u64 * p * w,
    ]
}

/// Bytes a band takes on the device with passes of at most `pass` rows, and the largest of its
/// buffers.
pub fn device_bytes(shape: &DeviceShape, distinct: usize, pass: usize) -> (u64, u64) {
    let b = buffers(shape, distinct, pass);
    (b.iter().sum(), b.iter().copied().max().unwrap_or(0))
}

/// The rows a band that exchanges no carries takes per pass: all of them where its buffers
/// hold them in half of `room` bytes, else the most whole batches of `batch` rows that do (at
/// least one).
pub fn lone_pass(shape: &DeviceShape, distinct: usize, batch: usize, room: u64) -> usize {
    let all = shape.rows.div_ceil(batch).max(1);
    let fits = |batches: usize| device_bytes(shape, distinct, batches * batch).0 <= room / 2;
    if fits(all) {
        return all * batch;
    }
    let (mut lo, mut hi) = (1, all);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo * batch
}

/// Words a tile takes: the seam span `f` on a CPU device (fewer, longer launches); on a GPU
/// the largest divisor of `f` that gives about as many tiles across the band as a pass has
/// groups of rows, so a launch in the middle of the pass has the most tiles.
pub fn tile_words(shape: &DeviceShape, pass: usize, kind: Kind) -> usize {
    if kind == Kind::Cpu {
        return shape.f;
    }
    let target = shape
        .width
        .div_ceil(pass.div_ceil(TILE_ROWS).max(1))
        .clamp(1, shape.f);
    (1..=target)
        .rev()
        .find(|&t| shape.f.is_multiple_of(t))
        .unwrap_or(1)
}

impl BandOnDevice {
    /// Puts `store`'s band on `gpu`, before any of its rows is computed, for passes of at most
    /// `pass` rows (a multiple of 64): its rows go in order through
    /// [`BandOnDevice::run_batch`] or [`BandOnDevice::run_rows`], then
    /// [`BandOnDevice::finish`].
    pub fn new(
        gpu: &mut Gpu,
        store: &BandStore<'_>,
        pass: usize,
    ) -> Result<BandOnDevice, GpuError> {
        let shape = shape_of(store)?;
        let tiling = tiling(&shape, pass, gpu.info().kind);
        BandOnDevice::tiled(gpu, store, pass, tiling)
    }

    /// [`BandOnDevice::new`] cut as `tiling` says (its tiles' words must divide the band's
    /// seam span).
    pub fn tiled(
        gpu: &mut Gpu,
        store: &BandStore<'_>,
        pass: usize,
        tiling: Tiling,
    ) -> Result<BandOnDevice, GpuError> {
        let shape = shape_of(store)?;
        assert!(
            tiling.words > 0 && shape.f.is_multiple_of(tiling.words),
            "tiles within seam spans"
        );
        let table = (store.x(), store.mask_table());
        BandOnDevice::build(gpu, shape, table, pass, tiling)
    }

    /// A band for its last row alone (`--length-only`): `problem` on rows `x` and the band's
    /// columns `band`, with no seams and no checkpoints, for passes of at most `pass` rows
    /// ([`BandOnDevice::compute`], then [`BandOnDevice::share`]).
    pub fn for_length(
        gpu: &mut Gpu,
        problem: Problem,
        (x, band): (&[u8], &[u8]),
        pass: usize,
    ) -> Result<BandOnDevice, GpuError> {
        let width = band.len().div_ceil(64);
        let shape = DeviceShape {
            rows: x.len(),
            width,
            planes: problem.planes(),
            // No row ends a block but the last, which is never kept; no word starts a seam.
            k: x.len().max(1),
            f: width.max(1),
            seams: 0,
        };
        let masks = Masks::new(x, band);
        let mut tiling = tiling(&shape, pass, gpu.info().kind);
        // The tiles need not divide the span: there is no seam to write.
        if gpu.info().kind == Kind::Cpu {
            tiling.words = tiling.words.min(LENGTH_TILE);
        }
        tiling.words = tiling.words.max(1);
        BandOnDevice::build(gpu, shape, (x, masks.table()), pass, tiling)
    }

    fn build(
        gpu: &mut Gpu,
        shape: DeviceShape,
        (x, (slot, masks)): (&[u8], (&[u32; 256], &[u64])),
        pass: usize,
        tiling: Tiling,
    ) -> Result<BandOnDevice, GpuError> {
        let group = gpu.info().max_group.max(1);
        assert!(
            tiling.words > 0 && tiling.across > 0,
            "tiles of words, blocks of tiles"
        );
        assert!(
            (1..=group).contains(&tiling.down),
            "a block's rows of tiles are a work-group's items"
        );
        assert!(
            pass > 0 && pass.is_multiple_of(TILE_ROWS),
            "passes of whole groups of 64 rows"
        );
        let distinct = masks.len() / shape.width.max(1);
        let (bytes, largest) = device_bytes(&shape, distinct, pass);
        gpu.check_fits(bytes, largest, "the band")?;
        let defines = [
            ("PROBLEM", problem_code(shape.problem())),
            ("WIDTH", shape.width as u64),
            ("F", shape.f as u64),
            ("TW", tiling.words as u64),
            ("GQ", tiling.down as u64),
            ("GC", tiling.across as u64),
            ("SEAMS", shape.seams.max(1) as u64),
            ("K", shape.k as u64),
            // The steps' text reads these; the band's kernel uses none of its column steps.
            ("WORDS", 1),
            ("SIGMA", 1),
        ];
        let program = gpu.program(Kernel::Bands, &defines)?;
        let state = kernel::fresh(shape.problem(), shape.width).concat();
        let [.., message, _, _, seams, kept] = buffers(&shape, distinct, pass);
        let words = |bytes: u64| (bytes / 8).max(1) as usize;
        Ok(BandOnDevice {
            shape,
            program,
            tiling,
            pass,
            x: gpu.upload(x)?,
            slot: gpu.upload(&slot[..])?,
            masks: gpu.upload(masks)?,
            state: gpu.upload(&state)?,
            incoming: gpu.zeroed::<u64>(words(message))?,
            outgoing: gpu.zeroed::<u64>(words(message))?,
            links: gpu.zeroed::<u64>(words(message))?,
            seams: gpu.zeroed::<u64>(words(seams))?,
            checkpoints: gpu.zeroed::<u64>(words(kept))?,
        })
    }

    /// How its passes are cut.
    pub fn tiling(&self) -> Tiling {
        self.tiling
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
    ) -> Result<Launches, GpuError> {
        let rows = store.plan().batch_rows(b);
        self.pass(gpu, store, rows, incoming, Some(outgoing))
    }

    /// Computes all of `store`'s rows from the next, a pass at a time, for a band that takes
    /// no carries from the left and sends none to the right.
    pub fn run_rows(&mut self, gpu: &mut Gpu, store: &mut BandStore<'_>) -> Result<(), GpuError> {
        let m = store.plan().rows();
        while store.rows_done() < m {
            let start = store.rows_done();
            self.pass(gpu, store, start..(start + self.pass).min(m), None, None)?;
        }
        Ok(())
    }

    fn pass(
        &mut self,
        gpu: &mut Gpu,
        store: &mut BandStore<'_>,
        rows: Range<usize>,
        incoming: Option<&[u64]>,
        outgoing: Option<&mut [u64]>,
    ) -> Result<Launches, GpuError> {
        let launches = self.compute(gpu, rows.clone(), incoming, outgoing)?;
        let shape = self.shape;
        let groups = rows.len().div_ceil(TILE_ROWS);
        let seams: Vec<u64> = gpu.download(&self.seams, groups * shape.seams * shape.planes)?;
        let kept = shape.checkpoints_in(rows.clone()).len() * shape.planes * shape.width;
        let checkpoints: Vec<u64> = gpu.download(&self.checkpoints, kept)?;
        store.import_rows(rows, incoming, &seams, &checkpoints);
        Ok(launches)
    }

    /// Rows `rows` (at most a pass, after the rows computed so far) from the carries
    /// `incoming` (`None`: the matrix's left edge): the launches of one pass, writing the
    /// carries out to `outgoing` where given. A band built `for_length` needs nothing else;
    /// a band with a path's seams and checkpoints goes through `run_batch` or `run_rows`,
    /// which also bring them back.
    pub fn compute(
        &mut self,
        gpu: &mut Gpu,
        rows: Range<usize>,
        incoming: Option<&[u64]>,
        outgoing: Option<&mut [u64]>,
    ) -> Result<Launches, GpuError> {
        assert!(
            rows.len() <= self.pass,
            "a pass of at most {} rows",
            self.pass
        );
        let shape = self.shape;
        let groups = rows.len().div_ceil(TILE_ROWS);
        let carry_words = groups;
        if let Some(words) = incoming {
            gpu.write(&self.incoming, words)?;
        }
        let Tiling {
            words,
            down,
            across,
        } = self.tiling;
        let (down, across) = (
            groups.div_ceil(down),
            shape.width.div_ceil(words).div_ceil(across),
        );
        let began = Instant::now();
        for diagonal in 0..(down + across).saturating_sub(1) {
            let lowest = (diagonal + 1).saturating_sub(down);
            let blocks = across.min(diagonal + 1) - lowest;
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
                Arg::Buffer(&self.links),
                Arg::Buffer(&self.seams),
                Arg::Buffer(&self.checkpoints),
            ];
            gpu.launch(self.program, blocks, self.tiling.down, &args)?;
        }
        let ended = Instant::now();
        if let Some(outgoing) = outgoing {
            let out: Vec<u64> = gpu.download(&self.outgoing, outgoing.len())?;
            outgoing.copy_from_slice(&out);
        }
        Ok(Launches { began, ended })
    }

    /// After the last row of a band for its length alone: its share of the answer over `cols`
    /// real columns, as [`BandStore::row_share`] counts it.
    pub fn share(&mut self, gpu: &mut Gpu, cols: usize) -> Result<i64, GpuError> {
        let w = self.shape.width;
        let state: Vec<u64> = gpu.download(&self.state, self.shape.planes * w)?;
        Ok(kernel::share(
            self.shape.problem(),
            [&state[..w], &state[w..]],
            cols,
        ))
    }

    /// After the last row: its state, into `store`.
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
            self.links,
            self.seams,
            self.checkpoints,
        ] {
            gpu.release(buffer);
        }
    }
}

/// The band's layout on a device, or why it has none.
pub fn shape_of(store: &BandStore<'_>) -> Result<DeviceShape, GpuError> {
    store
        .device_shape()
        .map_err(|why| GpuError::Device(format!("a band with {why} has no device layout")))
}

/// The kernels' number for a problem: the edit distance 1, the LCS 2.
fn problem_code(problem: Problem) -> u64 {
    match problem {
        Problem::Edit => 1,
        Problem::Lcs => 2,
    }
}

fn word(n: usize) -> u32 {
    u32::try_from(n).expect("a band of fewer than 2^32 rows and words")
}
