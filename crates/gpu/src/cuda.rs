//! The CUDA backend (`cudarc`): the driver API (`libcuda.so`, which comes with the NVIDIA
//! driver) and NVRTC (`libnvrtc.so`, from the CUDA toolkit or the `nvidia-cuda-nvrtc-cu12`
//! wheel), both loaded when first called. The kernel text is compiled to the machine code of
//! the device's architecture (a CUBIN) and loaded as a module.
//!
//! `cudarc` ends the process where a library it calls into is missing, so every entry here
//! asks first whether the libraries load ([`libraries`]).

use std::ffi::CString;
use std::sync::Arc;

use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};

use crate::device::{Arg, Backend, Buffer, Device, GpuError, Info, Kind, Program, Slots};

/// Whether the driver and NVRTC load; an error names the one that does not.
pub fn libraries() -> Result<(), String> {
    // SAFETY: these only try to open the libraries.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("libcuda.so (the NVIDIA driver) was not found".into());
    }
    nvrtc()
}

/// Whether NVRTC loads.
pub fn nvrtc() -> Result<(), String> {
    // SAFETY: this only tries to open the library.
    match unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        true => Ok(()),
        false => Err(
            "libnvrtc.so (NVRTC, from the CUDA toolkit or the nvidia-cuda-nvrtc-cu12 \
                      wheel) was not found on the library path"
                .into(),
        ),
    }
}

/// How many CUDA devices the driver sees.
pub fn count() -> Result<usize, String> {
    libraries()?;
    CudaContext::device_count()
        .map(|n| n.max(0) as usize)
        .map_err(|e| format!("the driver lists no device: {e}"))
}

/// The names of the devices the driver sees, by ordinal.
pub fn devices() -> Result<Vec<String>, String> {
    let n = count()?;
    (0..n)
        .map(|i| {
            let context = CudaContext::new(i).map_err(|e| format!("device {i}: {e:?}"))?;
            context.name().map_err(|e| format!("device {i}: {e:?}"))
        })
        .collect()
}

/// What NVRTC makes of a kernel text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// PTX for a virtual architecture (`compute_XX`), which the driver compiles when it loads
    /// it: only a driver at least as new as NVRTC reads it.
    Ptx,
    /// The machine code of one GPU architecture (`sm_XX`), which any driver of the major
    /// version loads as it is.
    Cubin,
}

/// `text` compiled by NVRTC for compute capability `arch` (e.g. 90) as `output`: its bytes
/// (PTX text or a CUBIN image), or NVRTC's log.
pub fn compile(text: &str, arch: u32, output: Output) -> Result<Vec<u8>, GpuError> {
    use cudarc::nvrtc::{result, sys};
    nvrtc().map_err(GpuError::NotFound)?;
    let source = CString::new(text).map_err(|_| GpuError::Build("a NUL in the text".into()))?;
    let target = match output {
        Output::Ptx => format!("--gpu-architecture=compute_{arch}"),
        Output::Cubin => format!("--gpu-architecture=sm_{arch}"),
    };
    let options = ["--std=c++11".to_string(), target];
    let failed =
        |what: &str, e: result::NvrtcError| GpuError::Build(format!("NVRTC {what}: {e:?}"));
    let program = result::create_program(&source, None).map_err(|e| failed("create", e))?;
    // SAFETY: `program` is live until it is destroyed at the end, and the buffers passed for
    // the image are as long as NVRTC says it is.
    let made = unsafe {
        match result::compile_program(program, &options) {
            Ok(()) => {
                let mut size = 0usize;
                let mut image = Vec::new();
                let status = match output {
                    Output::Ptx => sys::nvrtcGetPTXSize(program, &mut size),
                    Output::Cubin => sys::nvrtcGetCUBINSize(program, &mut size),
                };
                status
                    .result()
                    .map_err(|e| failed("size", e))
                    .and_then(|()| {
                        image.resize(size, 0u8);
                        let at = image.as_mut_ptr() as *mut std::ffi::c_char;
                        let status = match output {
                            Output::Ptx => sys::nvrtcGetPTX(program, at),
                            Output::Cubin => sys::nvrtcGetCUBIN(program, at),
                        };
                        status
                            .result()
                            .map_err(|e| failed("output", e))
                            .map(|()| image)
                    })
            }
            Err(e) => {
                let log = result::get_program_log(program).unwrap_or_default();
                let log: Vec<u8> = log
                    .iter()
                    .map(|&c| c as u8)
                    .take_while(|&b| b != 0)
                    .collect();
                Err(GpuError::Build(format!(
                    "NVRTC {e:?}: {}",
                    String::from_utf8_lossy(&log).trim()
                )))
            }
        }
    };
    // SAFETY: created above, destroyed once.
    let _ = unsafe { result::destroy_program(program) };
    made
}

/// `text` compiled to PTX for compute capability `arch`, as text.
pub fn ptx(text: &str, arch: u32) -> Result<String, GpuError> {
    let mut bytes = compile(text, arch, Output::Ptx)?;
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A CUDA device in use: its context, one stream, and the buffers and kernels handed out by
/// number.
pub struct Cuda {
    info: Info,
    context: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    arch: u32,
    buffers: Slots<CudaSlice<u8>>,
    functions: Vec<CudaFunction>,
}

fn failed<E: std::fmt::Debug>(what: &str) -> impl Fn(E) -> GpuError + '_ {
    move |e| GpuError::Device(format!("CUDA: {what}: {e:?}"))
}

impl Cuda {
    /// Device `ordinal` (of [`count`]).
    pub fn open(ordinal: usize) -> Result<Cuda, GpuError> {
        let context = CudaContext::new(ordinal).map_err(failed("creating a context"))?;
        let query = failed("querying the device");
        let (major, minor) = context.compute_capability().map_err(&query)?;
        let (free, total) = context.mem_get_info().map_err(&query)?;
        let attribute = |a| context.attribute(a).map_err(&query);
        let local = attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?;
        let group = attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?;
        let info = Info {
            name: context.name().map_err(&query)?,
            backend: Backend::Cuda,
            kind: Kind::Gpu,
            memory: total as u64,
            free_memory: Some(free as u64),
            max_buffer: total as u64,
            local_memory: local.max(0) as u64,
            max_group: group.max(1) as usize,
        };
        let stream = context.default_stream();
        Ok(Cuda {
            info,
            context,
            stream,
            arch: (major * 10 + minor).max(0) as u32,
            buffers: Slots::new(),
            functions: Vec::new(),
        })
    }

    fn buffer(&self, b: &Buffer) -> &CudaSlice<u8> {
        self.buffers.get(b)
    }
}

impl Device for Cuda {
    fn info(&self) -> &Info {
        &self.info
    }

    fn build(&mut self, text: &str, entry: &str) -> Result<Program, GpuError> {
        // Machine code for this device: no PTX for the driver to compile, so an NVRTC newer
        // than the driver (a wheel beside an older driver) still serves.
        let cubin = compile(text, self.arch, Output::Cubin)?;
        let module = self
            .context
            .load_module(cudarc::nvrtc::Ptx::from_binary(cubin))
            .map_err(|e| GpuError::Build(format!("loading the PTX: {e:?}")))?;
        let function = module
            .load_function(entry)
            .map_err(|e| GpuError::Build(format!("no kernel '{entry}': {e:?}")))?;
        self.functions.push(function);
        Ok(Program(self.functions.len() - 1))
    }

    fn alloc(&mut self, bytes: usize) -> Result<Buffer, GpuError> {
        let len = bytes.max(1);
        let slice = self
            .stream
            .alloc_zeros::<u8>(len)
            .map_err(|e| GpuError::Memory(format!("a buffer of {len} bytes: {e:?}")))?;
        self.stream
            .synchronize()
            .map_err(failed("filling a buffer"))?;
        Ok(self.buffers.keep(slice, len))
    }

    fn write(&mut self, buffer: &Buffer, bytes: &[u8]) -> Result<(), GpuError> {
        assert!(bytes.len() <= buffer.bytes, "a write past the buffer");
        let slice = self.buffers.get_mut(buffer);
        let mut head = slice.slice_mut(..bytes.len());
        self.stream
            .memcpy_htod(bytes, &mut head)
            .map_err(failed("copying to the device"))?;
        self.stream
            .synchronize()
            .map_err(failed("copying to the device"))
    }

    fn download(&mut self, buffer: &Buffer, out: &mut [u8]) -> Result<(), GpuError> {
        assert!(out.len() <= buffer.bytes, "a read past the buffer");
        if out.is_empty() {
            return Ok(());
        }
        let head = self.buffer(buffer).slice(..out.len());
        self.stream
            .memcpy_dtoh(&head, out)
            .map_err(failed("copying from the device"))?;
        self.stream
            .synchronize()
            .map_err(failed("copying from the device"))
    }

    fn launch(
        &mut self,
        program: Program,
        groups: usize,
        group: usize,
        args: &[Arg<'_>],
    ) -> Result<(), GpuError> {
        let function = &self.functions[program.0];
        let mut launch = self.stream.launch_builder(function);
        for arg in args {
            match arg {
                Arg::Buffer(b) => launch.arg(self.buffer(b)),
                Arg::U32(v) => launch.arg(v),
            };
        }
        let config = LaunchConfig {
            grid_dim: (groups as u32, 1, 1),
            block_dim: (group as u32, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: the arguments are the kernel's, in its order (the callers pass them so).
        unsafe { launch.launch(config) }.map_err(failed("launching a kernel"))?;
        self.stream
            .synchronize()
            .map_err(failed("running a kernel"))
    }

    fn release(&mut self, buffer: Buffer) {
        self.buffers.free(buffer);
    }
}
