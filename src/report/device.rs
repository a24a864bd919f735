//! Where a run's kernels ran, as its report says it: rank 0's device, how many ranks ran on
//! one, the slowest rank's seconds there, the bytes moved, and the cell updates per second
//! ([`DeviceLine`]); `pairs` and `search` reports carry it, and their summaries its line.

use serde::Serialize;

use crate::engines::device::{Placement, RankDevice};
use crate::report::text::{plural, thousands};

/// The devices of a run in its report: rank 0's device, how many ranks ran on one, the slowest
/// rank's seconds, the bytes moved summed, and the cell updates per second of the slowest
/// rank's compute.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeviceLine {
    pub placement: Placement,
    pub name: Option<String>,
    pub backend: Option<&'static str>,
    pub kind: Option<&'static str>,
    pub ranks_on_device: usize,
    pub seconds_kernel: f64,
    pub seconds_transfer: f64,
    pub seconds_build: f64,
    pub bytes_to_device: u64,
    pub bytes_from_device: u64,
    pub cell_updates_per_second: f64,
}

impl DeviceLine {
    /// The line of `devices` (every rank's, rank 0's first) for `placement`, where the ranks
    /// computed `cells` DP cells in `seconds_compute` (the slowest rank's).
    pub fn new(
        placement: Placement,
        devices: &[RankDevice],
        cells: u64,
        seconds_compute: f64,
    ) -> DeviceLine {
        let first = devices.iter().find(|d| d.used());
        let slowest = |f: fn(&RankDevice) -> f64| devices.iter().map(f).fold(0.0, f64::max);
        DeviceLine {
            placement,
            name: first.and_then(RankDevice::name),
            backend: first.and_then(RankDevice::backend),
            kind: first.and_then(RankDevice::kind),
            ranks_on_device: devices.iter().filter(|d| d.used()).count(),
            seconds_kernel: slowest(|d| d.seconds_kernel),
            seconds_transfer: slowest(|d| d.seconds_transfer),
            seconds_build: slowest(|d| d.seconds_build),
            bytes_to_device: devices.iter().map(|d| d.bytes_to_device).sum(),
            bytes_from_device: devices.iter().map(|d| d.bytes_from_device).sum(),
            cell_updates_per_second: match seconds_compute > 0.0 {
                true => cells as f64 / seconds_compute,
                false => 0.0,
            },
        }
    }

    /// The summary's line on the devices of a run of `ranks` ranks, where any rank used one.
    pub fn summary(&self, ranks: usize) -> Option<String> {
        (self.ranks_on_device > 0).then(|| {
            format!(
                "device: {} on {} of {}; kernels {:.6} s, copies {:.6} s ({} bytes to it, {} \
                 back); {:.2} G cell updates/s",
                self.label(),
                self.ranks_on_device,
                plural(ranks as u64, "rank", "ranks"),
                self.seconds_kernel,
                self.seconds_transfer,
                thousands(self.bytes_to_device),
                thousands(self.bytes_from_device),
                self.cell_updates_per_second / 1e9
            )
        })
    }

    /// `cpu`, or the device as `NAME (BACKEND GPU)`, for a CSV column and the summary.
    pub fn label(&self) -> String {
        match (&self.name, self.backend, self.kind) {
            (Some(name), Some(backend), Some(kind)) => {
                format!("{name} ({backend} {})", kind.to_uppercase())
            }
            _ => "cpu".to_string(),
        }
    }
}

/// A rank's own part on its device, in the report's `per_rank` (null for a rank on the CPU
/// engines): its launches, and the seconds of its kernels and of its copies to and from it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RankOnDevice {
    pub launches: u64,
    pub seconds_kernel: f64,
    pub seconds_transfer: f64,
}

impl RankOnDevice {
    /// The part of a rank whose record is `device`, or `None` where it ran on the CPU.
    pub fn of(device: &RankDevice) -> Option<RankOnDevice> {
        device.used().then_some(RankOnDevice {
            launches: device.launches,
            seconds_kernel: device.seconds_kernel,
            seconds_transfer: device.seconds_transfer,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_takes_the_slowest_rank_and_sums_the_bytes() {
        let gpu = |s: f64| RankDevice::of_parts(2, 2, "pthread-cpu", s, 10);
        let line = DeviceLine::new(Placement::Gpu, &[gpu(1.0), gpu(3.0)], 6_000, 2.0);
        assert_eq!(line.ranks_on_device, 2);
        assert_eq!(line.seconds_kernel, 3.0);
        assert_eq!(line.bytes_to_device, 20);
        assert_eq!(line.cell_updates_per_second, 3_000.0);
        assert_eq!(line.label(), "pthread-cpu (OpenCL CPU)");
        let cpu = DeviceLine::new(Placement::Cpu, &[RankDevice::default()], 1, 1.0);
        assert_eq!((cpu.label(), cpu.ranks_on_device), ("cpu".to_string(), 0));
        // Each rank's own part: a device's seconds, nothing for the CPU engines.
        let own = RankOnDevice::of(&gpu(1.5)).expect("a rank on a device");
        assert_eq!((own.seconds_kernel, own.seconds_transfer), (1.5, 0.0));
        assert_eq!(RankOnDevice::of(&RankDevice::default()), None);
    }
}
