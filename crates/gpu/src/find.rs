//! Which device a process takes. The GPUs of the first backend that has any (CUDA, then
//! OpenCL, unless one is asked for), the `index`-th modulo their number: an MPI rank passes its
//! rank among the ranks of its host, so the ranks of a host spread over its GPUs. Where there
//! is no GPU, `--device gpu` takes an OpenCL device on the CPU (PoCL) with a note, which is how
//! the kernels run on a laptop and in CI; `--device auto` never does, and falls back to the CPU
//! engines instead.

use crate::cuda::{self, Cuda};
use crate::device::{Gpu, GpuError, Kind};
use crate::opencl::{self, OpenCl};

/// What a run asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// A GPU, else an OpenCL CPU device.
    Gpu,
    /// A GPU only.
    Auto,
}

/// Which backend to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefer {
    /// CUDA where its driver sees a device, else OpenCL.
    Auto,
    Cuda,
    OpenCl,
}

/// The device a process took, and a note on the choice where it is not a GPU.
pub struct Found {
    pub gpu: Gpu,
    pub note: Option<String>,
}

/// What to install, said after "no GPU found".
pub const INSTALL: &str = "an NVIDIA GPU needs its driver (libcuda.so.1) and NVRTC \
    (libnvrtc.so.12: the CUDA toolkit, or `pip install nvidia-cuda-nvrtc-cu12` with its lib \
    folder on LD_LIBRARY_PATH); any GPU runs through its vendor's OpenCL driver and the ICD \
    loader (Debian: ocl-icd-libopencl1); without a GPU, PoCL (Debian: pocl-opencl-icd) runs \
    the kernels on the CPU";

/// Opens the device for `want` through `prefer`, the `index`-th of the GPUs found.
pub fn open(want: Want, prefer: Prefer, index: usize) -> Result<Found, GpuError> {
    let mut tried = Vec::new();
    if prefer != Prefer::OpenCl {
        match cuda::count() {
            Ok(0) => tried.push("CUDA: the driver sees no device".to_string()),
            Ok(n) => {
                let gpu = Gpu::new(Box::new(Cuda::open(index % n)?));
                return Ok(Found { gpu, note: None });
            }
            Err(why) => tried.push(format!("CUDA: {why}")),
        }
    }
    if prefer != Prefer::Cuda {
        match opencl::devices() {
            Ok(listed) => {
                let gpus: Vec<_> = listed.iter().filter(|d| d.kind == Kind::Gpu).collect();
                let cpus: Vec<_> = listed.iter().filter(|d| d.kind == Kind::Cpu).collect();
                if !gpus.is_empty() {
                    let device = OpenCl::open(gpus[index % gpus.len()])?;
                    return Ok(Found {
                        gpu: Gpu::new(Box::new(device)),
                        note: None,
                    });
                }
                if let (Want::Gpu, Some(cpu)) = (want, cpus.first()) {
                    let note = format!(
                        "no GPU found: the GPU kernels run on the CPU, through the OpenCL device \
                         '{}'",
                        cpu.name.trim()
                    );
                    let gpu = Gpu::new(Box::new(OpenCl::open(cpu)?));
                    return Ok(Found {
                        gpu,
                        note: Some(note),
                    });
                }
                tried.push(format!(
                    "OpenCL: no GPU among its {} device{}",
                    listed.len(),
                    if listed.len() == 1 { "" } else { "s" }
                ));
            }
            Err(why) => tried.push(format!("OpenCL: {why}")),
        }
    }
    Err(GpuError::NotFound(format!(
        "no GPU found ({}); {INSTALL}",
        tried.join("; ")
    )))
}
