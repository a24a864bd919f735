//! What a command is given to read or asked to write beyond an ordinary file: lengths
//! `generate` cannot write, result sets that are devices, FIFOs or too large, standard input,
//! FIFOs and gzip for `solve` and `reference`, and `self-test --file`. Each case ends with one
//! message and a documented exit status, or with the same answer as the plain file.
//!
//! No test here asserts how long anything took: a hang fails on the harness's timeout.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::util::{self, args, assert_refused, Dir, Run};

/// Bytes an unprivileged writer may still use where `dir` is (`statvfs`).
fn free_bytes(dir: &Path) -> u64 {
    let c_path = std::ffi::CString::new(dir.as_os_str().as_bytes()).unwrap();
    // SAFETY: statvfs reads the NUL-terminated path and writes the struct it is given.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::statvfs(c_path.as_ptr(), &mut stat) }, 0);
    stat.f_bavail as u64 * stat.f_frsize as u64
}

/// `generate --len 18446744073709551615` panicked on a capacity overflow and `--len 10^12`
/// aborted allocating the sequence: both are refused (exit 2) before anything is written.
#[test]
fn generate_refuses_lengths_it_cannot_write() {
    let dir = Dir::new();
    let out = dir.path("g.txt");
    let run = util::plain(&args(&[
        &"generate",
        &"--len",
        &u64::MAX.to_string(),
        &"--seed",
        &"1",
        &"-o",
        &out,
    ]));
    assert_refused(&run, 2, "generate writes at most 1.0 TiB");
    // Twice the free space (as one sequence, within the maximum where the disk allows).
    let free = free_bytes(dir.dir.path());
    let len = (free * 2).min((1 << 40) - 2);
    let run = util::plain(&args(&[
        &"generate",
        &"--len",
        &len.to_string(),
        &"--len2",
        &"0",
        &"--seed",
        &"1",
        &"-o",
        &out,
    ]));
    let problem = if len > free { "free in" } else { "at most" };
    assert_refused(&run, 2, problem);
    assert!(dir.names().is_empty(), "{:?}", dir.names());
}

/// `table /dev/zero` grew without bound (9 GB in 5 s) and a FIFO kept `table` waiting
/// forever: a result set that is not a regular file is refused at once, and one too large or
/// with too long a line before it is read past the bound.
#[test]
fn result_sets_are_read_within_bounds() {
    let dir = Dir::new();
    // A guard, so that a regression fails on an allocation instead of filling the machine.
    let table = util::plain_command(&["table", "/dev/zero"]);
    let (run, peak) = util::run_measured(table, Some(2 << 30));
    assert_refused(&run, 3, "'/dev/zero': is not a regular file");
    assert!(peak < 100 << 20, "peak resident set {peak} bytes");

    let fifo = dir.path("runs.csv");
    util::mkfifo(&fifo);
    let sparse = dir.path("sparse.csv");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    let long = dir.file("long.csv", &vec![b'x'; (1 << 20) + 1]);
    let cases: [(&Path, &str); 3] = [
        (&fifo, "is not a regular file"),
        (&sparse, "larger than the limit of 67108864 bytes"),
        (&long, "line 1 is longer than 1048576 bytes"),
    ];
    for (csv, problem) in cases {
        let run = util::plain(&args(&[&"table", &csv]));
        assert_refused(&run, 3, problem);
        let out = dir.path("plots");
        let run = util::plain(&args(&[&"plot", &csv, &"--out", &out]));
        assert_refused(&run, 3, problem);
        assert!(!out.exists());
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// The summary's first two lines: the LCS's length and the LCS.
fn answer(run: &Run) -> String {
    let lines: Vec<&str> = run.stdout.lines().take(2).collect();
    assert!(lines[0].starts_with("LCS length: "), "{run:#?}");
    lines.join("\n")
}

/// `-` was "not found" and gzip was read as plain text: both now give the plain file's
/// answer, for `reference` and for `solve` on two ranks (standard input reaches rank 0, which
/// broadcasts the sequences), as does a FIFO.
#[test]
fn standard_input_fifos_and_gzip_read_as_the_plain_file() {
    let dir = Dir::new();
    let input = util::repo_input("medium.txt");
    let text = std::fs::read(&input).unwrap();
    let zipped = dir.file("medium.txt.gz", &gzip(&text));
    let expected = answer(&util::plain(&args(&[&"reference", &input])).ok());
    let from_stdin = util::run_with_input(util::plain_command(&["reference", "-"]), &text);
    assert_eq!(answer(&from_stdin.ok()), expected);
    let from_gzip = util::plain(&args(&[&"reference", &zipped])).ok();
    assert_eq!(answer(&from_gzip), expected);
    let fifo = dir.path("medium.fifo");
    util::mkfifo(&fifo);
    let writer = util::feed(&fifo, &gzip(&text));
    let from_fifo = util::plain(&args(&[&"reference", &fifo])).ok();
    writer.join().unwrap();
    assert_eq!(answer(&from_fifo), expected);
    let json = dir.path("solve.json");
    let solve = util::mpirun_command(2, &args(&[&"solve", &"-", &"--json", &json]), &[]);
    let solved = util::run_with_input(solve, &gzip(&text)).ok();
    assert_eq!(answer(&solved), expected);
    assert_eq!(util::json(&json)["input"], "-");
}

/// A gzip bomb, UTF-16 text and a stream longer than `--max-input` are refused by name, and
/// the bomb costs no more memory than the limit.
#[test]
fn gzip_bombs_wide_text_and_long_streams_are_refused() {
    let dir = Dir::new();
    // 1 GiB of zeros in 1,024 members of 1 MiB each: about 1 MB of gzip.
    let member = gzip(&vec![0u8; 1 << 20]);
    let bomb = dir.file("bomb.gz", &member.repeat(1024));
    let (run, peak) = util::run_measured(
        util::plain_command(&args(&[&"reference", &bomb, &"--max-input", &"1M"])),
        None,
    );
    assert_refused(
        &run,
        3,
        "gzip that decompresses to more than the limit of 1048576",
    );
    assert!(peak < 100 << 20, "peak resident set {peak} bytes");
    let utf16: Vec<u8> = "\u{feff}ACGT\nGATTACA\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let wide = dir.file("utf16.txt", &utf16);
    let run = util::plain(&args(&[&"reference", &wide]));
    assert_refused(&run, 3, "UTF-16LE text");
    let cmd = util::plain_command(&["reference", "-", "--max-input", "100"]);
    let run = util::run_with_input(cmd, &[b'A'; 1000]);
    assert_refused(&run, 3, "more than the limit of 100 bytes");
}

/// CPU time of a process so far (`/proc/PID/stat`: user and system), in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rfind(')').map_or("", |at| &stat[at + 1..]);
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After the name: state is field 3, utime 14 and stime 15.
    fields
        .get(11..13)
        .map_or(0, |f| f.iter().map(|v| v.parse::<u64>().unwrap_or(0)).sum())
}

/// While rank 0 waited for a FIFO's writer, the other ranks spun at 90 % of a core: they now
/// wait for the input's broadcast asleep, however the host says ranks should wait. Seen from
/// the CPU time the ranks take while rank 0 waits (at most a tenth of the time, in a window
/// of half a second; a spinning rank takes it all, and never shows such a window).
#[test]
fn ranks_waiting_for_rank_0_to_read_a_fifo_do_not_spin() {
    let dir = Dir::new();
    let input = std::fs::read(util::repo_input("small.txt")).unwrap();
    let bin = std::fs::canonicalize(util::bin()).unwrap();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    for waiting in ["spin", "yield"] {
        let fifo = dir.path(&format!("{waiting}.fifo"));
        util::mkfifo(&fifo);
        let json = dir.path(&format!("{waiting}.json"));
        let a = args(&[&"solve", &fifo, &"--json", &json]);
        let job = util::Job::spawn(util::mpirun_command(3, &a, &[("MPI_LCS_WAIT", waiting)]));
        // Rank 0 has opened the FIFO: every rank is past MPI's start.
        let mut writer = util::open_writer(&fifo);
        let ranks: Vec<u32> = job
            .processes()
            .list()
            .into_iter()
            .filter(|pid| std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|e| e == bin))
            .collect();
        assert_eq!(ranks.len(), 3, "{ranks:?}");
        let window = Duration::from_millis(500);
        let busy = |_| {
            let before: u64 = ranks.iter().map(|&p| cpu_ticks(p)).sum();
            std::thread::sleep(window);
            let after: u64 = ranks.iter().map(|&p| cpu_ticks(p)).sum();
            after - before
        };
        let quiet = window.as_millis() as u64 * hz / 1000 / 10;
        let spent: Vec<u64> = (0..20).map(busy).take_while(|&t| t > quiet).collect();
        assert!(
            spent.len() < 20,
            "{waiting}: the ranks kept busy while rank 0 waited: {spent:?} ticks per {window:?}"
        );
        writer.write_all(&input).unwrap();
        drop(writer);
        job.wait(util::TIMEOUT).ok();
        assert_eq!(util::json(&json)["lcs_length"], 7);
    }
}

/// `self-test --file` read the file on every rank: a FIFO fed once left a rank waiting for
/// ever. Rank 0 reads it now and broadcasts it, here in pieces of 7 bytes (as a
/// genome-sized sequence goes in pieces of 1 GiB), and a bad file ends every rank with one
/// message.
#[test]
fn self_test_reads_its_files_on_rank_0_and_shares_them_in_pieces() {
    let dir = Dir::new();
    let text = std::fs::read(util::repo_input("medium.txt")).unwrap();
    let fifo = dir.path("pair.fifo");
    util::mkfifo(&fifo);
    let zipped: PathBuf = dir.file("small.txt.gz", &gzip(b"GATTACA\nTACGATTAC\n"));
    let writer = util::feed(&fifo, &text);
    let a = args(&[
        &"self-test",
        &"--cases",
        &"0",
        &"--problem",
        &"lcs,edit",
        &"--file",
        &fifo,
        &"--file",
        &zipped,
        &"--piece",
        &"7",
    ]);
    let run = util::mpirun(3, &a).ok();
    writer.join().unwrap();
    assert!(
        run.stdout.contains("11 pairs (lcs, edit) on 3 ranks"),
        "{run:#?}"
    );
    assert!(run.stdout.contains(": 0 failed"), "{run:#?}");
    let writer = util::feed(&fifo, b"A\nC\nG\n");
    let run = util::mpirun(
        3,
        &args(&[&"self-test", &"--cases", &"0", &"--file", &fifo]),
    );
    writer.join().unwrap();
    assert_refused(&run, 3, "pair.fifo': more than two sequences");
}
