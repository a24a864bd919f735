//! Where a rank computes `pairs` and `search`: the CPU engines, or its GPU (`--device`), and
//! what the device did, as a record every rank sends to rank 0 ([`RankDevice`]; the report's
//! line is `report::device`).
//!
//! A rank takes the GPU of its rank among the ranks of its host (MPI's shared-memory split),
//! modulo the GPUs the backend lists, or modulo `--gpus-per-host`; `MPI_LCS_GPU` names the
//! device itself where a scheduler pins one per process (e.g. `MPI_LCS_GPU=$SLURM_LOCALID`), and
//! a scheduler that hides the others (`CUDA_VISIBLE_DEVICES`) leaves each rank its own as device
//! 0. Opening is decided over all ranks: with `--device gpu` a rank that finds none fails the
//! run, every rank with it (exit 2); with `--device auto` it runs the CPU engines instead.

use std::fmt;

use clap::ValueEnum;
use lcs_gpu::{Backend, Gpu, GpuError, Kind, Prefer, Spent, Want};
use mpi::collective::SystemOperation;
use mpi::traits::Communicator;
use serde::Serialize;

use crate::comm::agree::agree;
use crate::comm::fault::{Fault, Phase};
use crate::comm::waiting::Waiting;
use crate::comm::words::{record, Name};
use crate::comm::world::World;
use crate::error::Error;

/// `--device`: where the kernels run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Placement {
    /// The CPU engines.
    #[default]
    Cpu,
    /// The rank's GPU; with none, an OpenCL device on the CPU (PoCL), with a note.
    Gpu,
    /// The rank's GPU where it finds one, else the CPU engines.
    Auto,
}

/// `--gpu-backend`: the API a GPU is driven through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum GpuBackend {
    /// CUDA where its driver sees a device, else OpenCL.
    #[default]
    Auto,
    Cuda,
    #[value(name = "opencl")]
    OpenCl,
}

/// What a run asks of its devices.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeviceAsk {
    pub placement: Placement,
    pub backend: GpuBackend,
    /// The GPUs a host's ranks share, the first this many of those listed.
    pub gpus_per_host: Option<usize>,
    /// The device this process takes, where the environment pins one (`MPI_LCS_GPU`).
    pub pinned: Option<usize>,
}

/// Opens the device `ask` names on every rank (`None`: the CPU engines), `fault` planted for
/// the tests; with `notes`, rank 0 says where the kernels run when it is not a GPU (an OpenCL
/// CPU device, ranks that fell back to the CPU engines). Collective when the run asks for a
/// device: the ranks agree on failures, and count those that took one.
pub fn open(
    world: &World,
    waiting: Waiting,
    ask: &DeviceAsk,
    fault: Option<Fault>,
    notes: bool,
) -> Result<Option<Gpu>, Error> {
    if ask.placement == Placement::Cpu {
        return Ok(None);
    }
    let rank = world.rank() as usize;
    let local = match world.mpi() {
        Some(w) => w.split_shared(0).rank() as usize,
        None => 0,
    };
    let index = ask
        .pinned
        .unwrap_or_else(|| ask.gpus_per_host.map_or(local, |n| local % n.max(1)));
    let opened = {
        let want = match ask.placement {
            Placement::Gpu => Want::Gpu,
            _ => Want::Auto,
        };
        let prefer = match ask.backend {
            GpuBackend::Auto => Prefer::Auto,
            GpuBackend::Cuda => Prefer::Cuda,
            GpuBackend::OpenCl => Prefer::OpenCl,
        };
        match (lcs_gpu::open(want, prefer, index), ask.placement) {
            (Ok(found), _) => Ok((Some(found.gpu), found.note)),
            (Err(GpuError::NotFound(why)), Placement::Auto) => {
                let tried = why.strip_suffix(&format!("; {}", lcs_gpu::find::INSTALL));
                Ok((None, Some(tried.unwrap_or(&why).to_string())))
            }
            (Err(e), _) => Err(setup_error(e)),
        }
    };
    let (mut gpu, note) = agree(world, waiting, opened)?;
    if let (Some(gpu), Some(f)) = (gpu.as_mut(), Fault::for_rank(fault, Phase::Device, rank)) {
        gpu.fail_at_launch = Some(f.step as u64);
    }
    let mut on_device = 0u64;
    waiting.all_reduce(
        world,
        &u64::from(gpu.is_some()),
        &mut on_device,
        SystemOperation::sum(),
    );
    let ranks = world.size() as u64;
    let note = match (gpu.is_some(), note) {
        (true, note) => note,
        (false, Some(why)) => Some(format!(
            "--device auto: {} of {ranks} rank{} found no GPU and run{} the CPU engines ({why})",
            ranks - on_device,
            if ranks == 1 { "" } else { "s" },
            if ranks - on_device == 1 { "s" } else { "" },
        )),
        (false, None) => None,
    };
    if let (0, Some(note), true) = (rank, note, notes) {
        eprintln!("mpi-lcs: note: {note}");
    }
    Ok(gpu)
}

/// A device that failed before the work: no device, a kernel that did not build (exit 2), or
/// not enough memory (exit 4).
pub fn setup_error(e: GpuError) -> Error {
    match e {
        GpuError::Memory(m) => Error::Memory(GpuError::Memory(m).to_string()),
        other => Error::Device(other.to_string()),
    }
}

/// A device that failed during the work (exit 1), or whose memory did not hold it (exit 4).
pub fn run_error(e: GpuError) -> Error {
    match e {
        GpuError::Memory(m) => Error::Memory(GpuError::Memory(m).to_string()),
        other => Error::Internal(anyhow::anyhow!("{other}")),
    }
}

record! {
    /// What a rank's device was and did, as its record keeps it: `on` 0 for the CPU engines,
    /// 1 for a GPU, 2 for an OpenCL device on the CPU; the backend (0 none, 1 CUDA, 2
    /// OpenCL); the device's name; the launches, seconds and bytes of [`Spent`].
    #[derive(Debug, Clone, Copy, Default, PartialEq)]
    pub struct RankDevice {
        on: u64,
        backend: u64,
        name: Name,
        pub launches: u64,
        pub seconds_kernel: f64,
        pub seconds_transfer: f64,
        pub seconds_build: f64,
        pub bytes_to_device: u64,
        pub bytes_from_device: u64,
    }
}

impl RankDevice {
    /// The record of `gpu` (the CPU engines' where `None`).
    pub fn of(gpu: Option<&Gpu>) -> RankDevice {
        let Some(gpu) = gpu else {
            return RankDevice::default();
        };
        let info = gpu.info();
        let Spent {
            launches,
            kernel_seconds,
            bytes_up,
            bytes_down,
            transfer_seconds,
            build_seconds,
        } = gpu.spent;
        RankDevice {
            on: match info.kind {
                Kind::Gpu => 1,
                Kind::Cpu => 2,
            },
            backend: match info.backend {
                Backend::Cuda => 1,
                Backend::OpenCl => 2,
            },
            name: Name::of(&info.name),
            launches,
            seconds_kernel: kernel_seconds,
            seconds_transfer: transfer_seconds,
            seconds_build: build_seconds,
            bytes_to_device: bytes_up,
            bytes_from_device: bytes_down,
        }
    }

    /// Whether the rank ran on a device (not the CPU engines).
    pub fn used(&self) -> bool {
        self.on != 0
    }

    /// The device's name, as the record keeps it.
    pub fn name(&self) -> Option<String> {
        self.used().then(|| self.name.text())
    }

    pub fn backend(&self) -> Option<&'static str> {
        match self.backend {
            1 => Some("CUDA"),
            2 => Some("OpenCL"),
            _ => None,
        }
    }

    /// `gpu`, `cpu` (an OpenCL device on the CPU), or `None` (the CPU engines).
    pub fn kind(&self) -> Option<&'static str> {
        match self.on {
            1 => Some("gpu"),
            2 => Some("cpu"),
            _ => None,
        }
    }
}

/// A record of a device `on` (1 GPU, 2 OpenCL CPU) through `backend` (1 CUDA, 2 OpenCL), for
/// the report's tests.
#[cfg(test)]
impl RankDevice {
    pub fn of_parts(on: u64, backend: u64, name: &str, kernel: f64, bytes: u64) -> RankDevice {
        RankDevice {
            on,
            backend,
            name: Name::of(name),
            seconds_kernel: kernel,
            bytes_to_device: bytes,
            ..RankDevice::default()
        }
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Placement::Cpu => "cpu",
            Placement::Gpu => "gpu",
            Placement::Auto => "auto",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comm::words::tests::words;
    use crate::comm::words::Words;

    #[test]
    fn a_device_record_survives_its_words() {
        let d = RankDevice {
            on: 1,
            backend: 2,
            name: Name::of("NVIDIA H200"),
            launches: 3,
            seconds_kernel: 1.5,
            seconds_transfer: 0.25,
            seconds_build: 0.125,
            bytes_to_device: 7,
            bytes_from_device: 8,
        };
        let w = words(&d);
        assert_eq!(w.len(), RankDevice::WORDS);
        let back = RankDevice::take(&w);
        assert_eq!(back, d);
        assert_eq!(back.name().as_deref(), Some("NVIDIA H200"));
        assert_eq!((back.backend(), back.kind()), (Some("OpenCL"), Some("gpu")));
        assert!(!RankDevice::default().used());
        assert_eq!(RankDevice::default().name(), None);
    }
}
