//! `--device gpu`: the GPU kernels under mpirun, on whatever OpenCL device the machine has (PoCL
//! on the CPU where there is no GPU: `make test` installs it). Every output is the CPU engines'
//! byte for byte — `pairs`' TSV and `.npy`, `search`'s TSV — at P = 1, 2, 3, on sequences of the
//! lengths where the kernels' words turn over; the report says where the kernels ran; and a
//! machine without an OpenCL driver gets one clear error on every rank (or, with `--device
//! auto`, the CPU engines and a note).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::util::{self, args, assert_refused_writing_nothing, Dir, Rng, Run};

/// Sequences of the lengths where the words turn over (empty, one byte, 63 to 65, 127 to 129,
/// past the largest class in local memory), every other one a piece of a common sequence so
/// that bounds pass; one per line.
fn sequences(rng: &mut Rng, count: usize, common: &[u8]) -> Vec<u8> {
    let lengths = [0, 1, 2, 31, 63, 64, 65, 100, 127, 128, 129, 300, 1100, 2100];
    let mut out = Vec::new();
    for i in 0..count {
        let len = lengths[rng.below(lengths.len())];
        match i % 2 {
            0 => out.extend_from_slice(&common[..len]),
            _ => out.extend(rng.bytes(len)),
        }
        out.push(b'\n');
    }
    out
}

/// One case's command on the CPU and on the GPU, with `--out` and `--json` beside `name`.
fn on_both(ranks: usize, command: &[OsString], dir: &Dir, name: &str) -> [(Run, PathBuf); 2] {
    ["cpu", "gpu"].map(|device| {
        let ext = if name.ends_with(".npy") { "npy" } else { "tsv" };
        let out = dir.path(&format!("{name}-{ranks}-{device}.{ext}"));
        let mut a = command.to_vec();
        a.extend(args(&[&"--device", &device, &"--out", &out]));
        a.extend(args(&[&"--json", &out.with_extension("json")]));
        (util::mpirun(ranks, &a), out)
    })
}

/// A case's runs on the CPU and on the GPU.
type Both = [(Run, PathBuf); 2];

/// Every case (its name, the command) on both devices at 1, 2 and 3 ranks, side by side.
fn on_both_at_every_count(cases: &[(&str, Vec<OsString>)], dir: &Dir) -> Vec<(Both, String)> {
    let mut jobs: Vec<util::Task<'_, (Both, String)>> = Vec::new();
    for ranks in 1..=3 {
        for (name, command) in cases {
            jobs.push(Box::new(move || {
                (
                    on_both(ranks, command, dir, name),
                    format!("{name} on {ranks}"),
                )
            }));
        }
    }
    util::parallel(3, jobs)
}

/// The same files, byte for byte, and the GPU run's report and note.
fn assert_same(cpu: (Run, PathBuf), gpu: (Run, PathBuf), what: &str) {
    let (cpu_run, cpu_out) = (cpu.0.ok(), cpu.1);
    let (gpu_run, gpu_out) = (gpu.0.ok(), gpu.1);
    let (a, b) = (
        std::fs::read(&cpu_out).unwrap(),
        std::fs::read(&gpu_out).unwrap(),
    );
    let lines = a.split(|&b| b == b'\n').count();
    assert!(
        lines > 2 || a.len() > 200,
        "{what}: an output with values: {}",
        a.len()
    );
    assert!(a == b, "{what}: the GPU's output differs from the CPU's");
    assert!(
        cpu_run.our_messages().is_empty(),
        "{what}: {}",
        cpu_run.stderr
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(gpu_out.with_extension("json")).unwrap()).unwrap();
    let device = &json["device"];
    assert_eq!(device["placement"], "gpu", "{what}: {device}");
    assert_eq!(device["ranks_on_device"], json["ranks"], "{what}: {device}");
    assert!(
        device["name"].is_string() && device["backend"].is_string(),
        "{device}"
    );
    assert!(device["seconds_kernel"].as_f64().unwrap() > 0.0, "{device}");
    assert!(device["bytes_to_device"].as_u64().unwrap() > 0, "{device}");
    assert!(
        device["cell_updates_per_second"].as_f64().unwrap() > 0.0,
        "{device}"
    );
    let cpu_json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(cpu_out.with_extension("json")).unwrap()).unwrap();
    assert_eq!(cpu_json["device"]["ranks_on_device"], 0, "{what}");
    assert_eq!(
        cpu_json["device"]["name"],
        serde_json::Value::Null,
        "{what}"
    );
    // Where the machine has no GPU, the kernels ran on the CPU, and rank 0 said so once.
    if device["kind"] == "cpu" {
        let notes: Vec<&str> = gpu_run.our_messages();
        assert_eq!(notes.len(), 1, "{what}: {}", gpu_run.stderr);
        assert!(
            notes[0].contains("no GPU found: the GPU kernels run on the CPU"),
            "{notes:?}"
        );
    }
}

/// Queries x targets and all against all, the edit distance with and without a bound (the
/// GPU's early exit), the LCS lengths, as `.npy` and TSV, on 1, 2 and 3 ranks.
#[test]
fn pairs_on_the_gpu_write_the_cpu_engines_bytes() {
    let mut rng = Rng(0x6b0_0040);
    let dir = Dir::new();
    let common = rng.bytes(2200);
    let q = dir.file("q.txt", &sequences(&mut rng, 30, &common));
    let t = dir.file("t.txt", &sequences(&mut rng, 17, &common));
    let cases: Vec<(&str, Vec<OsString>)> = vec![
        ("edit.npy", args(&[&"pairs", &q, &t])),
        ("edit-k.tsv", args(&[&"pairs", &q, &t, &"-k", &"25"])),
        ("lcs.npy", args(&[&"pairs", &q, &t, &"--problem", &"lcs"])),
        ("all-k0.tsv", args(&[&"pairs", &q, &"-k", &"0"])),
        ("all.npy", args(&[&"pairs", &q])),
    ];
    for ([cpu, gpu], what) in on_both_at_every_count(&cases, &dir) {
        assert_same(cpu, gpu, &what);
    }
}

/// A text with planted copies, plain and FASTA, patterns of one word, several, and past the
/// local memory's class (in stripes), k 3: the same matches, starts and all, on 1, 2 and 3
/// ranks.
#[test]
fn the_search_on_the_gpu_writes_the_cpu_engines_bytes() {
    let mut rng = Rng(0x5ea_0040);
    let dir = Dir::new();
    let patterns: Vec<Vec<u8>> = [32, 32, 32, 64, 65, 100, 1300]
        .iter()
        .map(|&m| rng.bytes(m))
        .collect();
    let mut text = rng.bytes(400_000);
    for p in &patterns {
        for _ in 0..4 {
            let mut copy = p.clone();
            let at = rng.below(copy.len());
            copy[at] = b"ACGT"[rng.below(4)];
            let at = rng.below(text.len());
            text.splice(at..at, copy);
        }
    }
    let lines: Vec<u8> = patterns
        .iter()
        .flat_map(|p| p.iter().copied().chain([b'\n']))
        .collect();
    let p_file = dir.file("p.txt", &lines);
    let mut plain = text.clone();
    plain.push(b'\n');
    let plain = dir.file("text.txt", &plain);
    let mut fasta = Vec::new();
    for (i, record) in text.chunks(90_001).enumerate() {
        fasta.extend(format!(">r{i}\n").bytes());
        for line in record.chunks(70) {
            fasta.extend_from_slice(line);
            fasta.push(b'\n');
        }
    }
    let fasta = dir.file("text.fa", &fasta);
    let cases: Vec<(&str, Vec<OsString>)> = vec![
        ("plain", args(&[&"search", &p_file, &plain, &"-k", &"3"])),
        ("fasta", args(&[&"search", &p_file, &fasta, &"-k", &"3"])),
    ];
    for ([cpu, gpu], what) in on_both_at_every_count(&cases, &dir) {
        let matches = std::fs::read_to_string(&cpu.1).unwrap().lines().count();
        assert!(
            matches > 28,
            "{what}: the planted copies are found ({matches})"
        );
        assert_same(cpu, gpu, &what);
    }
}

/// An OpenCL loader with no driver to load, and no CUDA: `--device gpu` is refused on every
/// rank with one message naming what to install, exit 2, nothing written; `--device auto`
/// runs the CPU engines with a note; `--gpu-backend cuda` names the missing driver.
#[test]
fn no_driver_is_one_clear_error_and_auto_falls_back() {
    let mut rng = Rng(0xd0_0040);
    let dir = Dir::new();
    let common = rng.bytes(2200);
    let q = dir.file("q.txt", &sequences(&mut rng, 12, &common));
    let empty = dir.path("no-vendors");
    std::fs::create_dir(&empty).unwrap();
    let env = [("OCL_ICD_VENDORS", empty.to_str().unwrap())];
    let out = dir.path("out.npy");
    let gpu = args(&[&"pairs", &q, &"--device", &"gpu", &"--out", &out]);
    for ranks in [1, 2] {
        let run = util::mpirun_env(ranks, &gpu, &env);
        assert_refused_writing_nothing(&run, 2, "no GPU found", &[out.as_path()]);
        assert!(run.stderr.contains("pocl-opencl-icd"), "{}", run.stderr);
        assert!(
            run.stderr
                .contains("OpenCL: the ICD loader lists no platform"),
            "{}",
            run.stderr
        );
    }
    let auto = args(&[&"pairs", &q, &"--device", &"auto", &"--out", &out]);
    let run = util::mpirun_env(2, &auto, &env).ok();
    let notes = run.our_messages();
    assert_eq!(notes.len(), 1, "{}", run.stderr);
    assert!(
        notes[0].contains("--device auto: 2 of 2 ranks found no GPU and run the CPU engines"),
        "{notes:?}"
    );
    let cpu_out = dir.path("cpu.npy");
    util::mpirun(2, &args(&[&"pairs", &q, &"--out", &cpu_out])).ok();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&cpu_out).unwrap()
    );
    std::fs::remove_file(&out).unwrap();
    let cuda = args(&[
        &"pairs",
        &q,
        &"--device",
        &"gpu",
        &"--gpu-backend",
        &"cuda",
        &"--out",
        &out,
    ]);
    if !Path::new("/dev/nvidia0").exists() {
        let run = util::mpirun(2, &cuda);
        assert_refused_writing_nothing(&run, 2, "CUDA: libcuda.so", &[out.as_path()]);
    }
    let bad = util::mpirun_env(1, &gpu, &[("MPI_LCS_GPU", "first")]);
    assert_refused_writing_nothing(&bad, 2, "MPI_LCS_GPU: 'first'", &[out.as_path()]);
}

/// A device that fails during the work (a planted fault: its launch fails as a lost device's
/// would) ends every rank before any value is delivered: exit 1, one message from the rank
/// that met it, nothing written; in pairs and in the search.
#[test]
fn a_device_lost_mid_run_ends_every_rank_writing_nothing() {
    let mut rng = Rng(0xfa_0040);
    let dir = Dir::new();
    let common = rng.bytes(2200);
    let q = dir.file("q.txt", &sequences(&mut rng, 12, &common));
    let p = dir.file("p.txt", b"ACGTACGTAC\nTTGACCAGTT\n");
    let t = dir.file("t.txt", &rng.bytes(50_000));
    let (out, tsv) = (dir.path("out.npy"), dir.path("m.tsv"));
    let cases = [
        (
            2,
            "device:1:0",
            args(&[&"pairs", &q, &"--device", &"gpu", &"--out", &out]),
        ),
        (
            3,
            "device:2:0",
            args(&[
                &"search",
                &p,
                &t,
                &"-k",
                &"2",
                &"--device",
                &"gpu",
                &"--out",
                &tsv,
            ]),
        ),
    ];
    for (ranks, fault, command) in cases {
        let run = util::mpirun_env(ranks, &command, &[("MPI_LCS_FAULT", fault)]);
        util::assert_device_lost(&run, fault, &[&out, &tsv]);
    }
}

/// `devices` lists what each backend sees, or why it sees nothing.
#[test]
fn devices_lists_each_backend() {
    let run = util::plain(&["devices"]).ok();
    assert!(run.stdout.starts_with("CUDA:\n"), "{}", run.stdout);
    assert!(run.stdout.contains("\nOpenCL:\n  "), "{}", run.stdout);
    let dir = Dir::new();
    let empty = dir.path("none");
    std::fs::create_dir(&empty).unwrap();
    let mut cmd = util::plain_command(&["devices"]);
    cmd.env("OCL_ICD_VENDORS", &empty);
    let run = util::run_with_timeout(cmd).ok();
    assert!(
        run.stdout
            .contains("OpenCL:\n  none: the ICD loader lists no platform"),
        "{}",
        run.stdout
    );
}
