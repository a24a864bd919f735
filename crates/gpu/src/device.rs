//! The host side of a run on a device, behind one small trait: build the kernel text, move
//! bytes to and from the device, launch a kernel over work-groups and wait for it. OpenCL
//! ([`crate::opencl`]) and CUDA ([`crate::cuda`]) implement it; [`Gpu`] wraps either, builds
//! each program once, and counts what went where and how long it took ([`Spent`]).
//!
//! Every call returns once its work is done: a launch is timed from its start to its end, and
//! a copy likewise, so the kernel and transfer seconds add up to the device's part of a run.

use std::collections::HashMap;
use std::fmt;
use std::time::Instant;

use crate::source::{self, Kernel};

/// The API a device is driven through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Cuda,
    OpenCl,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Cuda => "CUDA",
            Backend::OpenCl => "OpenCL",
        })
    }
}

/// What a device is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A GPU or another accelerator.
    Gpu,
    /// The CPU, through an OpenCL driver such as PoCL.
    Cpu,
}

/// A device, as its backend describes it.
#[derive(Debug, Clone)]
pub struct Info {
    pub name: String,
    pub backend: Backend,
    pub kind: Kind,
    /// Global memory, in bytes; and what is free of it where the backend says (CUDA).
    pub memory: u64,
    pub free_memory: Option<u64>,
    /// The largest buffer the device allocates.
    pub max_buffer: u64,
    /// Local (shared) memory a work-group may use.
    pub local_memory: u64,
    /// The most work-items in a work-group.
    pub max_group: usize,
}

/// Why work on a device failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GpuError {
    /// No device of the kind asked for: what each backend said, and what to install.
    NotFound(String),
    /// The kernel text did not build: the backend's log.
    Build(String),
    /// The work does not fit in the device's memory.
    Memory(String),
    /// A call to the device failed during the run.
    Device(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NotFound(s) => write!(f, "{s}"),
            GpuError::Build(s) => write!(f, "the GPU kernels did not build: {s}"),
            GpuError::Memory(s) => write!(f, "not enough GPU memory: {s}"),
            GpuError::Device(s) => write!(f, "the GPU failed: {s}"),
        }
    }
}

impl std::error::Error for GpuError {}

/// A buffer on the device (its backend's number for it) of `bytes` bytes.
#[derive(Debug, PartialEq, Eq)]
pub struct Buffer {
    pub(crate) id: usize,
    pub bytes: usize,
}

/// A backend's buffers by number, a released one's number taken again.
pub(crate) struct Slots<T>(Vec<Option<T>>);

impl<T> Slots<T> {
    pub(crate) fn new() -> Slots<T> {
        Slots(Vec::new())
    }

    /// Keeps `item`, a buffer of `bytes` bytes.
    pub(crate) fn keep(&mut self, item: T, bytes: usize) -> Buffer {
        let id = match self.0.iter().position(Option::is_none) {
            Some(free) => free,
            None => {
                self.0.push(None);
                self.0.len() - 1
            }
        };
        self.0[id] = Some(item);
        Buffer { id, bytes }
    }

    pub(crate) fn get(&self, buffer: &Buffer) -> &T {
        self.0[buffer.id].as_ref().expect("a live buffer")
    }

    pub(crate) fn get_mut(&mut self, buffer: &Buffer) -> &mut T {
        self.0[buffer.id].as_mut().expect("a live buffer")
    }

    pub(crate) fn free(&mut self, buffer: Buffer) {
        self.0[buffer.id] = None;
    }
}

/// A built kernel (its backend's number for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Program(pub(crate) usize);

/// A kernel's argument.
#[derive(Debug, Clone, Copy)]
pub enum Arg<'a> {
    Buffer(&'a Buffer),
    U32(u32),
}

/// One device, driven through its backend (from one thread at a time, which may change).
pub trait Device: Send {
    fn info(&self) -> &Info;
    /// Builds `text` and finds its kernel `entry`.
    fn build(&mut self, text: &str, entry: &str) -> Result<Program, GpuError>;
    /// A buffer of `bytes` zero bytes (at least one), made on the device: nothing is copied.
    fn alloc(&mut self, bytes: usize) -> Result<Buffer, GpuError>;
    /// A buffer holding `bytes` (at least one byte long: an empty one is a byte of 0).
    fn upload(&mut self, bytes: &[u8]) -> Result<Buffer, GpuError> {
        let buffer = self.alloc(bytes.len())?;
        if !bytes.is_empty() {
            self.write(&buffer, bytes)?;
        }
        Ok(buffer)
    }
    /// Overwrites the start of `buffer` with `bytes`.
    fn write(&mut self, buffer: &Buffer, bytes: &[u8]) -> Result<(), GpuError>;
    /// Copies the start of `buffer` into `out`.
    fn download(&mut self, buffer: &Buffer, out: &mut [u8]) -> Result<(), GpuError>;
    /// Runs `program` over `groups` work-groups of `group` work-items each, and waits for it.
    fn launch(
        &mut self,
        program: Program,
        groups: usize,
        group: usize,
        args: &[Arg<'_>],
    ) -> Result<(), GpuError>;
    fn release(&mut self, buffer: Buffer);
}

/// What a device did for a run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spent {
    pub launches: u64,
    pub kernel_seconds: f64,
    /// Bytes copied to the device and back, and the seconds the copies took.
    pub bytes_up: u64,
    pub bytes_down: u64,
    pub transfer_seconds: f64,
    /// Seconds building the kernel text.
    pub build_seconds: f64,
}

/// A build's defines: `#define NAME VALUE` each.
pub type Defines = Vec<(&'static str, u64)>;

/// A device in use: its programs built once each, what it did counted, and the note its
/// choice left (e.g. that it is the CPU).
pub struct Gpu {
    device: Box<dyn Device>,
    programs: HashMap<(Kernel, Defines), Program>,
    pub spent: Spent,
    /// A planted failure, for the tests: the launch of this number (from 0) fails as a lost
    /// device would.
    pub fail_at_launch: Option<u64>,
}

impl Gpu {
    pub fn new(device: Box<dyn Device>) -> Gpu {
        Gpu {
            device,
            programs: HashMap::new(),
            spent: Spent::default(),
            fail_at_launch: None,
        }
    }

    pub fn info(&self) -> &Info {
        self.device.info()
    }

    /// `kernel` built with `defines`, once per set of them.
    pub fn program(
        &mut self,
        kernel: Kernel,
        defines: &[(&'static str, u64)],
    ) -> Result<Program, GpuError> {
        let key = (kernel, defines.to_vec());
        if let Some(&p) = self.programs.get(&key) {
            return Ok(p);
        }
        let started = Instant::now();
        let program = self
            .device
            .build(&source::text(kernel, defines), kernel.entry())?;
        self.spent.build_seconds += started.elapsed().as_secs_f64();
        self.programs.insert(key, program);
        Ok(program)
    }

    /// A buffer holding `words`.
    pub fn upload<W: Word>(&mut self, words: &[W]) -> Result<Buffer, GpuError> {
        let bytes = W::bytes(words);
        let started = Instant::now();
        let buffer = self.device.upload(&bytes)?;
        self.count_up(bytes.len(), started);
        Ok(buffer)
    }

    /// A buffer of `len` words of zero, made on the device (no copy).
    pub fn zeroed<W: Word>(&mut self, len: usize) -> Result<Buffer, GpuError> {
        self.device.alloc(len * std::mem::size_of::<W>())
    }

    /// Overwrites the start of `buffer` with `words`.
    pub fn write<W: Word>(&mut self, buffer: &Buffer, words: &[W]) -> Result<(), GpuError> {
        let bytes = W::bytes(words);
        let started = Instant::now();
        self.device.write(buffer, &bytes)?;
        self.count_up(bytes.len(), started);
        Ok(())
    }

    /// The first `len` words of `buffer`.
    pub fn download<W: Word>(&mut self, buffer: &Buffer, len: usize) -> Result<Vec<W>, GpuError> {
        let mut bytes = vec![0u8; len * std::mem::size_of::<W>()];
        let started = Instant::now();
        self.device.download(buffer, &mut bytes)?;
        self.spent.bytes_down += bytes.len() as u64;
        self.spent.transfer_seconds += started.elapsed().as_secs_f64();
        Ok(W::of_bytes(&bytes))
    }

    pub fn launch(
        &mut self,
        program: Program,
        groups: usize,
        group: usize,
        args: &[Arg<'_>],
    ) -> Result<(), GpuError> {
        if groups == 0 {
            return Ok(());
        }
        if self.fail_at_launch == Some(self.spent.launches) {
            return Err(GpuError::Device(format!(
                "launch {} failed: a planted fault",
                self.spent.launches
            )));
        }
        let started = Instant::now();
        self.device.launch(program, groups, group, args)?;
        self.spent.launches += 1;
        self.spent.kernel_seconds += started.elapsed().as_secs_f64();
        Ok(())
    }

    pub fn release(&mut self, buffer: Buffer) {
        self.device.release(buffer);
    }

    fn count_up(&mut self, bytes: usize, started: Instant) {
        self.spent.bytes_up += bytes as u64;
        self.spent.transfer_seconds += started.elapsed().as_secs_f64();
    }

    /// Refuses `bytes` of buffers at once, or a buffer of `largest`, where the device does not
    /// hold them (what is free where the backend says, else its memory).
    pub fn check_fits(&self, bytes: u64, largest: u64, what: &str) -> Result<(), GpuError> {
        let info = self.info();
        let room = info.free_memory.unwrap_or(info.memory);
        if bytes > room || largest > info.max_buffer {
            return Err(GpuError::Memory(format!(
                "{what} takes {} MiB on the device ({} MiB in its largest buffer); {} ({} \
                 {}) has {} MiB{} and buffers of at most {} MiB",
                mib(bytes),
                mib(largest),
                info.name,
                info.backend,
                kind_name(info.kind),
                mib(room),
                if info.free_memory.is_some() {
                    " free"
                } else {
                    ""
                },
                mib(info.max_buffer),
            )));
        }
        Ok(())
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / (1u64 << 20) as f64)
}

/// "GPU" or "CPU".
pub fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Gpu => "GPU",
        Kind::Cpu => "CPU",
    }
}

/// A word the kernels read or write: its bytes in the device's order (little-endian, as
/// every GPU and CPU this runs on).
pub trait Word: Copy + Default {
    fn bytes(words: &[Self]) -> Vec<u8>;
    fn of_bytes(bytes: &[u8]) -> Vec<Self>;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            fn bytes(words: &[$t]) -> Vec<u8> {
                words.iter().flat_map(|w| w.to_le_bytes()).collect()
            }
            fn of_bytes(bytes: &[u8]) -> Vec<$t> {
                bytes
                    .chunks_exact(std::mem::size_of::<$t>())
                    .map(|c| <$t>::from_le_bytes(c.try_into().expect("a word's bytes")))
                    .collect()
            }
        }
    };
}

word!(u8);
word!(u32);
word!(u64);

#[cfg(test)]
mod tests {
    use super::*;

    /// A device in memory: buffers as vectors, builds counted, launches that do nothing.
    struct Fake {
        info: Info,
        buffers: Slots<Vec<u8>>,
        builds: usize,
    }

    impl Device for Fake {
        fn info(&self) -> &Info {
            &self.info
        }
        fn build(&mut self, _: &str, _: &str) -> Result<Program, GpuError> {
            self.builds += 1;
            Ok(Program(self.builds))
        }
        fn alloc(&mut self, bytes: usize) -> Result<Buffer, GpuError> {
            Ok(self.buffers.keep(vec![0; bytes.max(1)], bytes.max(1)))
        }
        fn write(&mut self, buffer: &Buffer, bytes: &[u8]) -> Result<(), GpuError> {
            self.buffers.get_mut(buffer)[..bytes.len()].copy_from_slice(bytes);
            Ok(())
        }
        fn download(&mut self, buffer: &Buffer, out: &mut [u8]) -> Result<(), GpuError> {
            out.copy_from_slice(&self.buffers.get(buffer)[..out.len()]);
            Ok(())
        }
        fn launch(
            &mut self,
            _: Program,
            _: usize,
            _: usize,
            _: &[Arg<'_>],
        ) -> Result<(), GpuError> {
            Ok(())
        }
        fn release(&mut self, buffer: Buffer) {
            self.buffers.free(buffer);
        }
    }

    fn fake(memory: u64, free: Option<u64>) -> Gpu {
        Gpu::new(Box::new(Fake {
            info: Info {
                name: "fake".into(),
                backend: Backend::OpenCl,
                kind: Kind::Gpu,
                memory,
                free_memory: free,
                max_buffer: memory / 4,
                local_memory: 48 << 10,
                max_group: 256,
            },
            buffers: Slots::new(),
            builds: 0,
        }))
    }

    /// A program is built once per kernel and defines; copies are counted both ways.
    #[test]
    fn programs_build_once_and_copies_are_counted() {
        let mut gpu = fake(1 << 30, None);
        let a = gpu.program(Kernel::Pairs, &[("WORDS", 1)]).unwrap();
        let b = gpu.program(Kernel::Pairs, &[("WORDS", 1)]).unwrap();
        let c = gpu.program(Kernel::Pairs, &[("WORDS", 2)]).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let buffer = gpu.upload(&[1u32, 2, 3]).unwrap();
        gpu.write(&buffer, &[7u32]).unwrap();
        assert_eq!(gpu.download::<u32>(&buffer, 3).unwrap(), [7, 2, 3]);
        assert_eq!((gpu.spent.bytes_up, gpu.spent.bytes_down), (16, 12));
        let zeros = gpu.zeroed::<u64>(4).unwrap();
        assert_eq!(gpu.download::<u64>(&zeros, 4).unwrap(), [0; 4]);
        assert_eq!(gpu.spent.bytes_up, 16, "zeros are made there, not copied");
        gpu.release(buffer);
        let again = gpu.zeroed::<u8>(3).unwrap();
        assert_eq!(again.id, 0, "a released buffer's number is taken again");
        gpu.launch(a, 0, 64, &[]).unwrap();
        gpu.launch(a, 3, 64, &[]).unwrap();
        assert_eq!(gpu.spent.launches, 1, "no launch of no group");
    }

    /// Work past what is free (or, where the backend does not say, past the memory), or a
    /// buffer past the largest, is refused with what it takes and what the device has.
    #[test]
    fn work_that_does_not_fit_is_refused_with_the_sizes() {
        let gpu = fake(1 << 30, Some(100 << 20));
        assert!(gpu.check_fits(50 << 20, 10 << 20, "a batch").is_ok());
        let e = gpu.check_fits(200 << 20, 10 << 20, "a batch").unwrap_err();
        let said = e.to_string();
        assert!(matches!(e, GpuError::Memory(_)));
        assert!(said.contains("a batch takes 200.0 MiB"), "{said}");
        assert!(
            said.contains("fake (OpenCL GPU) has 100.0 MiB free"),
            "{said}"
        );
        let e = fake(1 << 30, None)
            .check_fits(1 << 20, 300 << 20, "a window")
            .unwrap_err();
        assert!(
            e.to_string().contains("buffers of at most 256.0 MiB"),
            "{e}"
        );
    }

    #[test]
    fn words_go_to_bytes_and_back() {
        let w = [1u64, u64::MAX, 0x0102_0304_0506_0708];
        assert_eq!(u64::of_bytes(&u64::bytes(&w)), w);
        assert_eq!(u32::bytes(&[0x0403_0201]), [1, 2, 3, 4]);
    }
}
