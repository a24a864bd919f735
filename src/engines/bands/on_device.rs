//! A rank's bands on its device (`solve --device gpu`): each band's rows computed by
//! [`lcs_gpu::bands`] and kept by its store as if the CPU had computed them, the messages and
//! the walk unchanged. A band that exchanges no carries (the only band of a run) takes its rows
//! in passes as long as the device holds; a band between neighbours takes a batch at a time.
//!
//! A device that fails during the fill leaves the pipeline going: the rank still sends each
//! message it owes (of zeros) and receives each one it is owed, so no neighbour is left
//! waiting, and the ranks then decide the failure together before any walk
//! ([`DeviceBands::finish`]).

use std::time::Instant;

use lcs_core::bands::imported::DeviceShape;
use lcs_gpu::bands::{device_bytes, lone_pass, shape_of, BandOnDevice, Launches, TILE_ROWS};
use lcs_gpu::{Gpu, GpuError};

use lcs_core::bands::plan::BandPlan;
use lcs_core::bands::store::BandStore;

/// A rank's bands on its device.
pub struct DeviceBands<'g> {
    gpu: &'g mut Gpu,
    /// One per store, in the stores' order.
    bands: Vec<BandOnDevice>,
    /// The only band of the run: it takes all its rows at once.
    lone: bool,
    failed: Option<GpuError>,
}

/// A batch that a device with `room` bytes does not hold (`why`), for a band of `shape` with
/// `distinct` mask rows: the refusal, with the batch that would fit.
fn batch_refusal(why: &str, (shape, distinct): (&DeviceShape, usize), room: u64) -> GpuError {
    let fits = lone_pass(shape, distinct, TILE_ROWS, room);
    let (bytes, _) = device_bytes(shape, distinct, fits);
    GpuError::Memory(match 2 * bytes <= room {
        true => format!("{why}; batches of {fits} rows would fit (--batch {fits})"),
        false => format!("{why}; not even a batch of {TILE_ROWS} rows fits"),
    })
}

impl<'g> DeviceBands<'g> {
    /// Puts `stores` (this rank's bands of `plan`, none computed yet) on `gpu`: an error where
    /// a band has no device layout, its kernel does not build or the device does not hold it.
    pub fn open(
        gpu: &'g mut Gpu,
        plan: &BandPlan,
        stores: &[BandStore<'_>],
    ) -> Result<DeviceBands<'g>, GpuError> {
        let lone = plan.active_bands() == 1;
        let room = gpu.info().free_memory.unwrap_or(gpu.info().memory);
        let mut bands = Vec::with_capacity(stores.len());
        for store in stores {
            let shape = shape_of(store)?;
            let distinct = store.mask_table().1.len() / shape.width.max(1);
            let pass = match lone {
                true => lone_pass(&shape, distinct, plan.batch(), room),
                false => plan.batch(),
            };
            let band = BandOnDevice::new(gpu, store, pass).map_err(|e| match e {
                GpuError::Memory(why) if !lone => batch_refusal(&why, (&shape, distinct), room),
                e => e,
            })?;
            bands.push(band);
        }
        Ok(DeviceBands {
            gpu,
            bands,
            lone,
            failed: None,
        })
    }

    /// Whether the rank's band is the run's only one: [`DeviceBands::run_lone`] computes it.
    pub fn lone(&self) -> bool {
        self.lone
    }

    /// Computes every row of the run's only band, `stores[0]`; returns the seconds it took.
    pub fn run_lone(&mut self, stores: &mut [BandStore<'_>]) -> f64 {
        let started = Instant::now();
        for (band, store) in self.bands.iter_mut().zip(stores.iter_mut()) {
            if self.failed.is_none() {
                self.failed = band.run_rows(self.gpu, store).err();
            }
        }
        started.elapsed().as_secs_f64()
    }

    /// Batch `b` of the band `stores[s]`, as [`BandStore::run_batch`] computes it, and when its
    /// launches began and ended; after a failure, a message of zeros and `None`.
    pub fn run_batch(
        &mut self,
        (s, store): (usize, &mut BandStore<'_>),
        b: usize,
        incoming: Option<&[u64]>,
        outgoing: &mut [u64],
    ) -> Option<Launches> {
        let mut launches = None;
        if self.failed.is_none() {
            match self.bands[s].run_batch(self.gpu, store, b, incoming, outgoing) {
                Ok(ran) => launches = Some(ran),
                Err(e) => self.failed = Some(e),
            }
        }
        if self.failed.is_some() {
            outgoing.fill(0);
        }
        launches
    }

    /// Whether the device failed: the fill's rows are then not all computed.
    pub fn failed(&self) -> bool {
        self.failed.is_some()
    }

    /// After the fill: each band's last row into its store, and the buffers freed; the
    /// device's failure, if any.
    pub fn finish(mut self, stores: &mut [BandStore<'_>]) -> Result<(), GpuError> {
        for (band, store) in self.bands.iter_mut().zip(stores.iter_mut()) {
            if self.failed.is_none() {
                self.failed = band.finish(self.gpu, store).err();
            }
        }
        for band in self.bands {
            band.release(self.gpu);
        }
        self.failed.map_or(Ok(()), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_that_does_not_fit_names_one_that_does() {
        // 10^6 columns on one rank, edit distance, K = 1000: a batch's checkpoints and seams.
        let shape = DeviceShape {
            rows: 1_000_000,
            width: 15_625,
            planes: 2,
            k: 1000,
            f: 64,
            seams: 244,
        };
        let room = 1 << 28;
        let GpuError::Memory(said) = batch_refusal("the band takes 9 GiB", (&shape, 4), room)
        else {
            panic!("a memory refusal");
        };
        let fits: usize = said
            .split("(--batch ")
            .nth(1)
            .and_then(|rest| rest.strip_suffix(')'))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{said}"));
        assert!(
            said.starts_with("the band takes 9 GiB; batches of"),
            "{said}"
        );
        assert!(
            fits.is_multiple_of(TILE_ROWS) && fits >= TILE_ROWS,
            "{said}"
        );
        assert!(2 * device_bytes(&shape, 4, fits).0 <= room, "{said}");
        assert!(
            2 * device_bytes(&shape, 4, fits + TILE_ROWS).0 > room,
            "{said}"
        );
        let GpuError::Memory(none) = batch_refusal("too big", (&shape, 4), 1 << 20) else {
            panic!("a memory refusal");
        };
        assert_eq!(none, "too big; not even a batch of 64 rows fits");
    }
}
