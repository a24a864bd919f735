//! The OpenCL backend (`opencl3`, which loads `libOpenCL.so.1`, the ICD loader, when first
//! called): any vendor's GPU, and the CPU through PoCL, which is how the kernels run where
//! there is no GPU.

use std::ptr;
use std::sync::Mutex;

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{
    Device as ClDevice, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU,
    CL_DEVICE_TYPE_GPU,
};
use opencl3::error_codes::{ClError, CL_PLATFORM_NOT_FOUND_KHR, DLOPEN_RUNTIME_LOAD_FAILED};
use opencl3::kernel::{ExecuteKernel, Kernel as ClKernel};
use opencl3::memory::{Buffer as ClBuffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program as ClProgram;
use opencl3::types::{cl_device_id, CL_BLOCKING};

use crate::device::{Arg, Backend, Buffer, Device, GpuError, Info, Kind, Program, Slots};

/// An OpenCL device the loader lists: its id, kind and name.
#[derive(Debug, Clone)]
pub struct Listed {
    pub id: cl_device_id,
    pub kind: Kind,
    pub name: String,
    /// Its platform's name (its driver: e.g. `Portable Computing Language` for PoCL).
    pub platform: String,
}

/// One listing at a time: PoCL lists no device to a thread that asks while another thread's
/// first call is setting the driver up.
static LISTING: Mutex<()> = Mutex::new(());

/// Every device of every platform; an error says why there are none to list.
pub fn devices() -> Result<Vec<Listed>, String> {
    let _one = LISTING.lock().unwrap_or_else(|e| e.into_inner());
    let platforms = match get_platforms() {
        Ok(p) => p,
        Err(ClError(DLOPEN_RUNTIME_LOAD_FAILED)) => {
            return Err("libOpenCL.so.1 (the ICD loader) was not found".into())
        }
        Err(ClError(CL_PLATFORM_NOT_FOUND_KHR)) => {
            return Err("the ICD loader lists no platform (no OpenCL driver installed)".into())
        }
        Err(e) => return Err(format!("listing the platforms failed: {e}")),
    };
    let mut listed = Vec::new();
    let mut failures = Vec::new();
    for platform in platforms {
        let platform_name = platform
            .name()
            .unwrap_or_else(|_| "an OpenCL platform".into());
        let ids = match platform.get_devices(CL_DEVICE_TYPE_ALL) {
            Ok(ids) => ids,
            Err(e) => {
                let name = platform.name().unwrap_or_else(|_| "a platform".into());
                failures.push(format!("{}: {e}", name.trim()));
                continue;
            }
        };
        for id in ids {
            let device = ClDevice::new(id);
            let kind = match device.dev_type().unwrap_or(0) {
                t if t & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR) != 0 => Kind::Gpu,
                t if t & CL_DEVICE_TYPE_CPU != 0 => Kind::Cpu,
                _ => continue,
            };
            let name = device.name().unwrap_or_else(|_| "an OpenCL device".into());
            let platform = platform_name.clone();
            listed.push(Listed {
                id,
                kind,
                name,
                platform,
            });
        }
    }
    if listed.is_empty() && !failures.is_empty() {
        return Err(format!(
            "no platform lists a device ({})",
            failures.join("; ")
        ));
    }
    Ok(listed)
}

/// An OpenCL device in use: its context, one in-order queue, and the buffers and kernels
/// handed out by number.
pub struct OpenCl {
    info: Info,
    context: Context,
    queue: CommandQueue,
    buffers: Slots<ClBuffer<u8>>,
    kernels: Vec<ClKernel>,
}

fn failed(what: &str) -> impl Fn(ClError) -> GpuError + '_ {
    move |e| GpuError::Device(format!("OpenCL: {what}: {e}"))
}

impl OpenCl {
    pub fn open(listed: &Listed) -> Result<OpenCl, GpuError> {
        let device = ClDevice::new(listed.id);
        let query = failed("querying the device");
        let info = Info {
            name: listed.name.trim().to_string(),
            backend: Backend::OpenCl,
            kind: listed.kind,
            memory: device.global_mem_size().map_err(&query)?,
            free_memory: None,
            max_buffer: device.max_mem_alloc_size().map_err(&query)?,
            local_memory: device.local_mem_size().map_err(&query)?,
            max_group: device.max_work_group_size().map_err(&query)?,
        };
        let context = Context::from_device(&device).map_err(failed("creating a context"))?;
        #[allow(deprecated)] // clCreateCommandQueue: every OpenCL version has it.
        let queue =
            CommandQueue::create_default(&context, 0).map_err(failed("creating a queue"))?;
        Ok(OpenCl {
            info,
            context,
            queue,
            buffers: Slots::new(),
            kernels: Vec::new(),
        })
    }

    fn buffer(&self, b: &Buffer) -> &ClBuffer<u8> {
        self.buffers.get(b)
    }
}

impl Device for OpenCl {
    fn info(&self) -> &Info {
        &self.info
    }

    fn build(&mut self, text: &str, entry: &str) -> Result<Program, GpuError> {
        let program = ClProgram::create_and_build_from_source(&self.context, text, "")
            .map_err(GpuError::Build)?;
        let kernel = ClKernel::create(&program, entry)
            .map_err(|e| GpuError::Build(format!("no kernel '{entry}': {e}")))?;
        self.kernels.push(kernel);
        Ok(Program(self.kernels.len() - 1))
    }

    fn alloc(&mut self, bytes: usize) -> Result<Buffer, GpuError> {
        let len = bytes.max(1);
        // SAFETY: no host pointer; the buffer is filled with zeros below, before any use.
        let mut buffer = unsafe {
            ClBuffer::<u8>::create(&self.context, CL_MEM_READ_WRITE, len, ptr::null_mut())
        }
        .map_err(|e| GpuError::Memory(format!("a buffer of {len} bytes: {e}")))?;
        // SAFETY: a fill within the buffer, waited for.
        unsafe {
            self.queue
                .enqueue_fill_buffer(&mut buffer, &[0u8], 0, len, &[])
                .map_err(failed("filling a buffer"))?;
        }
        self.queue.finish().map_err(failed("filling a buffer"))?;
        Ok(self.buffers.keep(buffer, len))
    }

    fn write(&mut self, buffer: &Buffer, bytes: &[u8]) -> Result<(), GpuError> {
        assert!(bytes.len() <= buffer.bytes, "a write past the buffer");
        let b = self.buffers.get_mut(buffer);
        // SAFETY: a blocking write within the buffer.
        unsafe {
            self.queue
                .enqueue_write_buffer(b, CL_BLOCKING, 0, bytes, &[])
                .map_err(failed("copying to the device"))?;
        }
        Ok(())
    }

    fn download(&mut self, buffer: &Buffer, out: &mut [u8]) -> Result<(), GpuError> {
        assert!(out.len() <= buffer.bytes, "a read past the buffer");
        if out.is_empty() {
            return Ok(());
        }
        // SAFETY: a blocking read within the buffer.
        unsafe {
            self.queue
                .enqueue_read_buffer(self.buffer(buffer), CL_BLOCKING, 0, out, &[])
                .map_err(failed("copying from the device"))?;
        }
        Ok(())
    }

    fn launch(
        &mut self,
        program: Program,
        groups: usize,
        group: usize,
        args: &[Arg<'_>],
    ) -> Result<(), GpuError> {
        let kernel = &self.kernels[program.0];
        let mut run = ExecuteKernel::new(kernel);
        for arg in args {
            // SAFETY: the arguments are the kernel's, in its order (the callers pass them so).
            unsafe {
                match arg {
                    Arg::Buffer(b) => run.set_arg(self.buffer(b)),
                    Arg::U32(v) => run.set_arg(v),
                };
            }
        }
        run.set_global_work_size(groups * group)
            .set_local_work_size(group);
        // SAFETY: every argument is set, and the buffers outlive the wait below.
        unsafe { run.enqueue_nd_range(&self.queue) }.map_err(failed("launching a kernel"))?;
        self.queue.finish().map_err(failed("running a kernel"))
    }

    fn release(&mut self, buffer: Buffer) {
        self.buffers.free(buffer);
    }
}
