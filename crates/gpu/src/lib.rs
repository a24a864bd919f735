//! Many pairs, the approximate search and one long pair's bands on a GPU, with no MPI: the kernels as one text in the
//! C that OpenCL C and CUDA C share (`kernels/`, a prelude mapping the few differences), and a
//! host side behind one small trait ([`device::Device`]) with two implementations, OpenCL
//! ([`opencl`], `opencl3`) and CUDA ([`cuda`], `cudarc`'s driver API and NVRTC), each loading
//! its library when a run asks for it: a program built with this crate builds and runs where
//! neither exists.
//!
//! - [`find`] — which device a process takes: a GPU first (CUDA, then OpenCL), else, asked
//!   for, an OpenCL device on the CPU (PoCL), with a note;
//! - [`device`] — the trait, the buffers and arguments, and [`device::Gpu`], which builds each
//!   program once and counts what the device did;
//! - [`pairs`] — a share of a `lcs_core::pairs` plan on the device: a work-item per pair, a
//!   work-group per pattern, its values handed on in the plan's order as the CPU's are;
//! - [`search`] — every end within `k` of each pattern in a window of text, by chunks;
//! - [`bands`] — one band of a long pair (the bands engine's), in tiles of 64 rows.
//!
//! The values are the CPU kernels', bit for bit: the tests run every kernel through whatever
//! OpenCL device the machine has (PoCL on the CPU where there is no GPU) against the plain
//! DPs.

pub mod bands;
pub mod cuda;
pub mod device;
pub mod find;
pub mod opencl;
pub mod pairs;
pub mod search;
pub mod source;

pub use device::{Backend, Gpu, GpuError, Info, Kind, Spent};
pub use find::{open, Found, Prefer, Want};
