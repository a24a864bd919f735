//! `devices`: what each GPU backend sees on this host, one device per line, or why it sees
//! none (the library that did not load, the driver that lists nothing), and which device a
//! `--device gpu` run's rank 0 would take. Always exit 0: a host with no GPU is an answer.

use super::stdout::print;
use crate::error::Error;
use lcs_gpu::{cuda, opencl, Kind};

/// Runs `devices`.
pub fn run() -> Result<(), Error> {
    let mut s = String::new();
    s.push_str("CUDA:\n");
    match cuda::devices() {
        Ok(names) if names.is_empty() => s.push_str("  none: the driver lists no device\n"),
        Ok(names) => {
            for (i, name) in names.iter().enumerate() {
                s.push_str(&format!("  {i}: {name} (GPU)\n"));
            }
        }
        Err(why) => s.push_str(&format!("  none: {why}\n")),
    }
    s.push_str("OpenCL:\n");
    match opencl::devices() {
        Ok(listed) if listed.is_empty() => s.push_str("  none: no platform lists a device\n"),
        Ok(listed) => {
            let mut gpus = 0;
            for d in &listed {
                let kind = match d.kind {
                    Kind::Gpu => {
                        gpus += 1;
                        format!("GPU {}", gpus - 1)
                    }
                    Kind::Cpu => "CPU: --device gpu runs here where there is no GPU".into(),
                };
                s.push_str(&format!(
                    "  {} [{}] ({kind})\n",
                    d.name.trim(),
                    d.platform.trim()
                ));
            }
        }
        Err(why) => s.push_str(&format!("  none: {why}\n")),
    }
    print(&s)
}
