//! The CUDA path without a GPU: NVRTC (from the `nvidia-cuda-nvrtc-cu12` wheel, installed into
//! this test's own folder on first use) compiles every kernel the runs build to PTX and to the
//! machine code the CUDA backend loads (a CUBIN), so the
//! kernel text cannot drift from what CUDA C accepts unseen. The compile runs in a child
//! process of this test, with the wheel's libraries on its library path, as a user's run would.

use std::path::PathBuf;
use std::process::Command;

use lcs_gpu::cuda::{self, Output};
use lcs_gpu::source::{text, Kernel};

/// The folder the wheel goes to (`MPI_LCS_NVRTC_DIR` names another, holding it already).
fn wheel_dir() -> PathBuf {
    match std::env::var_os("MPI_LCS_NVRTC_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nvrtc"),
    }
}

#[test]
fn nvrtc_compiles_every_kernel_to_ptx() {
    let dir = wheel_dir();
    let lib = dir.join("nvidia/cuda_nvrtc/lib");
    if !lib.join("libnvrtc.so.12").exists() {
        let out = Command::new("python3")
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(["--target"])
            .arg(&dir)
            .arg("nvidia-cuda-nvrtc-cu12<13")
            .output()
            .expect("python3 runs (scripts/setup.sh installs it with pip)");
        assert!(
            out.status.success(),
            "installing NVRTC's wheel failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(
        lib.join("libnvrtc.so.12").exists(),
        "the wheel holds libnvrtc.so.12"
    );
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "nvrtc_child", "--nocapture", "--ignored"])
        .env("LD_LIBRARY_PATH", &lib)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("child compiled 16 kernels"), "{said}");
}

#[test]
#[ignore = "run by nvrtc_compiles_every_kernel_to_ptx with NVRTC on the library path"]
fn nvrtc_child() {
    cuda::nvrtc().expect("NVRTC loads");
    let mut compiled = 0;
    for arch in [70, 90] {
        for words in [1, 16] {
            for problem in [1, 2] {
                let t = text(
                    Kernel::Pairs,
                    &[("WORDS", words), ("SIGMA", 4), ("PROBLEM", problem)],
                );
                let ptx = cuda::ptx(&t, arch).unwrap();
                assert!(ptx.contains(".entry pairs("), "{ptx}");
                assert!(ptx.contains(&format!(".target sm_{arch}")), "{ptx}");
                let cubin = cuda::compile(&t, arch, Output::Cubin).unwrap();
                assert!(cubin.starts_with(b"\x7fELF"), "a CUBIN is an ELF image");
                compiled += 1;
            }
            let t = text(Kernel::Search, &[("WORDS", words), ("SIGMA", 256)]);
            let ptx = cuda::ptx(&t, arch).unwrap();
            assert!(ptx.contains(".entry search("), "{ptx}");
            let cubin = cuda::compile(&t, arch, Output::Cubin).unwrap();
            assert!(
                cubin.windows(6).any(|w| w == b"search"),
                "the CUBIN names its kernel"
            );
            compiled += 1;
        }
        // A long pair's band, both problems, in one-tile blocks and in 64 x 64 blocks.
        for (problem, down) in [(1, 1), (2, 64)] {
            let band = [
                ("PROBLEM", problem),
                ("WIDTH", 15625),
                ("F", 64),
                ("TW", 1),
                ("GQ", down),
                ("GC", down),
                ("SEAMS", 244),
                ("K", 1000),
                ("WORDS", 1),
                ("SIGMA", 1),
            ];
            let t = text(Kernel::Bands, &band);
            let ptx = cuda::ptx(&t, arch).unwrap();
            assert!(ptx.contains(".entry bands("), "{ptx}");
            assert!(
                ptx.contains("bar.sync"),
                "a block's steps are separated by barriers"
            );
            compiled += 1;
        }
    }
    // No driver here: the CUDA backend says so, and does not end the process.
    if std::path::Path::new("/dev/nvidia0").exists() {
        assert!(cuda::count().is_ok());
    } else {
        let why = cuda::count().unwrap_err();
        assert!(
            why.contains("libcuda.so") || why.contains("no device"),
            "{why}"
        );
    }
    // A text that is not C: NVRTC's log comes back as a build error.
    let broken = cuda::ptx("KERNEL oops(", 90).unwrap_err();
    assert!(broken.to_string().contains("did not build"), "{broken}");
    assert!(
        broken.to_string().contains("error"),
        "NVRTC's log: {broken}"
    );
    println!("child compiled {compiled} kernels");
}
