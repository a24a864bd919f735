//! Memory: the peak a process reached, what the host can still give it, and the sizes users write
//! (`512M`, `2G`, `1.5GiB`, plain bytes; binary both ways, `512M` printed as `512.0 MiB`). The
//! pre-check compares a run's estimate with the smallest of the user's limit, the kernel's
//! `MemAvailable` (`/proc/meminfo`) and the room left under the memory limits of this process's
//! cgroup and its ancestors (v2 `memory.max` − `memory.current`, v1 `memory.limit_in_bytes` −
//! `memory.usage_in_bytes`); without these (not Linux) only the user's limit applies. An
//! address-space limit (`ulimit -v`, `RLIMIT_AS`) caps every limit: past it an allocation fails
//! whatever the host has free ([`address_space_limit`]).

use std::path::{Path, PathBuf};

use crate::cgroup::{self, Level};
/// A byte count for people, in the units [`parse_size`] reads: `512.0 MiB`.
pub use lcs_core::holding::human;

/// Peak resident set size of this process in bytes: `VmHWM` of `/proc/self/status`, the high
/// water mark of this program's own memory, else `getrusage`'s `ru_maxrss`. Not `ru_maxrss`
/// first: Linux carries it over `exec` from the process that started this one, so a program
/// started by a script holding 300 MB would report 300 MB.
pub fn peak_rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").ok();
    if let Some(kb) = status.and_then(|s| kb_field(&s, "VmHWM:")) {
        return kb * 1024;
    }
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    // Kilobytes on Linux.
    u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024
}

/// Memory this process can still get, in bytes: the smaller of `MemAvailable` and the room
/// under its cgroups' limits. `None` when neither is known.
pub fn available_bytes() -> Option<u64> {
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    let meminfo = read(Path::new("/proc/meminfo"))
        .and_then(|m| kb_field(&m, "MemAvailable:"))
        .map(|kb| kb * 1024);
    let cgroup = read(Path::new("/proc/self/cgroup"))
        .and_then(|text| cgroup_room(&text, Path::new(cgroup::ROOT), read));
    lowest(meminfo, cgroup)
}

/// The lower of two limits, where either may be unknown.
pub fn lowest(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The most a process that holds `peak_rss_bytes()` may hold under its address-space limit
/// (`ulimit -v`): what it holds, plus the address space it has not mapped yet (the soft limit
/// less `VmSize`). An allocation maps its whole size at once, touched or not, so this is the
/// limit a run's need must stay under, even where the host has memory to spare. `None`
/// without such a limit.
pub fn address_space_limit() -> Option<u64> {
    // SAFETY: getrlimit writes the struct it is given and nothing else.
    let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let mapped = kb_field(&status, "VmSize:")? * 1024;
    Some(room_under(limit.rlim_cur, mapped, peak_rss_bytes()))
}

/// [`address_space_limit`]'s arithmetic: `held` plus what `limit` leaves beyond `mapped`.
fn room_under(limit: u64, mapped: u64, held: u64) -> u64 {
    limit.saturating_sub(mapped).saturating_add(held)
}

/// The value of a `Field:   1234 kB` line of a /proc file, in kB.
fn kb_field(text: &str, field: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The room left under the memory limits of the cgroup that `proc_self_cgroup` (the text of
/// `/proc/self/cgroup`) names and of its ancestors, reading control files through `read`.
/// `None` when no level has a limit.
fn cgroup_room(
    proc_self_cgroup: &str,
    root: &Path,
    read: impl Fn(&Path) -> Option<String>,
) -> Option<u64> {
    let number = |p: PathBuf| read(&p).and_then(|t| t.trim().parse::<u64>().ok());
    let mut room: Option<u64> = None;
    for Level { dir, v2 } in cgroup::levels(proc_self_cgroup, root, "memory", &["memory"]) {
        let (limit, usage) = if v2 {
            ("memory.max", "memory.current")
        } else {
            ("memory.limit_in_bytes", "memory.usage_in_bytes")
        };
        // v2 writes "max" for no limit; v1 a number near 2^63.
        if let Some(max) = number(dir.join(limit)).filter(|&m| m < 1 << 60) {
            let used = number(dir.join(usage)).unwrap_or(0);
            let left = max.saturating_sub(used);
            room = Some(room.map_or(left, |r| r.min(left)));
        }
    }
    room
}

/// The largest size any flag or variable takes: 1024T (1 PiB), beyond any machine's memory or
/// file, so a typing slip (`99999999999T`) is refused instead of read as "no limit".
pub const MAX_SIZE: u64 = 1 << 50;

/// Parses a size between `min` and `max` bytes (both included): a number with an optional unit
/// `K`, `M`, `G`, `T` (powers of 1024, with or without a trailing `B` or `iB`) or `B`. Case
/// does not matter. A whole number is read exactly; a fraction (`1.5G`) is rounded down to a
/// byte. Beyond the bounds, overflowing 64 bits included, it is an error naming them.
pub fn parse_size(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let not_a_size = || format!("'{text}' is not a size (try 512M or 2G)");
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ if num.is_empty() => return Err(not_a_size()),
        other => {
            return Err(format!(
                "'{text}': unknown unit '{other}' (use K, M, G or T)"
            ))
        }
    };
    let too_large = || format!("'{text}': a size must be at most {}", size_text(max));
    let bytes = if num.contains('.') {
        let value: f64 = num.parse().map_err(|_| not_a_size())?;
        let bytes = value * (1u64 << shift) as f64;
        if bytes > max as f64 {
            return Err(too_large());
        }
        bytes as u64
    } else {
        num.parse::<u64>()
            .map_err(|e| match e.kind() {
                std::num::IntErrorKind::PosOverflow => too_large(),
                _ => not_a_size(),
            })?
            .checked_mul(1 << shift)
            .ok_or_else(too_large)?
    };
    if bytes > max {
        return Err(too_large());
    }
    if bytes < min {
        return Err(format!(
            "'{text}': a size must be at least {}",
            size_text(min)
        ));
    }
    Ok(bytes)
}

/// A bound of [`parse_size`] as a user would write it: `1024T`, `1B`.
fn size_text(bytes: u64) -> String {
    let (unit, shift) = [("T", 40), ("G", 30), ("M", 20), ("K", 10)]
        .into_iter()
        .find(|&(_, shift)| bytes >= 1 << shift && bytes.is_multiple_of(1 << shift))
        .unwrap_or(("B", 0));
    format!("{}{unit}", bytes >> shift)
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgroup::fake;

    fn size(text: &str) -> Result<u64, String> {
        parse_size(text, 1, MAX_SIZE)
    }

    #[test]
    fn sizes_parse_and_print_in_the_same_units() {
        assert_eq!(size("1024").unwrap(), 1024);
        assert_eq!(size("4K").unwrap(), 4096);
        assert_eq!(size("512M").unwrap(), 512 << 20);
        assert_eq!(size("2GiB").unwrap(), 2 << 30);
        assert_eq!(size("1.5g").unwrap(), 3 << 29);
        assert_eq!(size(".5K").unwrap(), 512);
        assert_eq!(size("1024T").unwrap(), MAX_SIZE);
        for bad in ["lots", "", "K", "-1", "1..5G", ".", "+5"] {
            assert!(size(bad).unwrap_err().contains("not a size"), "{bad}");
        }
        assert!(size("5Q").unwrap_err().contains("unknown unit 'q'"));
        assert!(size("1e9").unwrap_err().contains("unknown unit 'e9'"));
        assert_eq!(human(999), "999 B");
        assert_eq!(human(size("512M").unwrap()), "512.0 MiB");
        assert_eq!(human(size("100K").unwrap()), "100.0 KiB");
        assert_eq!(human(size("1.5G").unwrap()), "1.5 GiB");
    }

    /// `--memory-limit 0` was taken as a limit of nothing (exit 4), and `99999999999T`
    /// overflowed into "no limit"; both are refused with the bounds.
    #[test]
    fn sizes_beyond_their_bounds_are_refused_not_wrapped() {
        for zero in ["0", "0K", "0.0001K", "0.4"] {
            let e = size(zero).unwrap_err();
            assert!(e.ends_with("a size must be at least 1B"), "{zero}: {e}");
        }
        for huge in [
            "99999999999T",
            "18446744073709551616",
            "18446744073709551615",
            "1025T",
            "1024.5T",
            "99999999999999999999999999999999.5T",
        ] {
            let e = size(huge).unwrap_err();
            assert!(e.ends_with("a size must be at most 1024T"), "{huge}: {e}");
        }
        assert_eq!(parse_size("16", 16, 16), Ok(16));
        assert!(parse_size("15", 16, 1 << 20).unwrap_err().contains("16B"));
        assert!(parse_size("2M", 16, 1 << 20).unwrap_err().contains("1M"));
    }

    #[test]
    fn peak_rss_grows_with_what_was_touched() {
        let before = peak_rss_bytes();
        let block = vec![1u8; 64 << 20];
        assert!(block.iter().step_by(4096).all(|&b| b == 1));
        assert!(peak_rss_bytes() >= before.max(64 << 20), "{before}");
    }

    #[test]
    fn cgroup_v2_limits_are_read_at_every_level() {
        let root = Path::new("/cg");
        let read = fake(&[
            ("/cg/user.slice/job/memory.max", "1000\n"),
            ("/cg/user.slice/job/memory.current", "400\n"),
            ("/cg/user.slice/memory.max", "max\n"),
            ("/cg/memory.max", "500\n"),
            ("/cg/memory.current", "300\n"),
        ]);
        assert_eq!(cgroup_room("0::/user.slice/job\n", root, &read), Some(200));
        let read = fake(&[("/cg/a/memory.max", "max\n")]);
        assert_eq!(cgroup_room("0::/a\n", root, &read), None);
    }

    #[test]
    fn cgroup_v1_memory_controller_is_read() {
        let root = Path::new("/cg");
        let read = fake(&[
            ("/cg/memory/slurm/job_1/memory.limit_in_bytes", "4096\n"),
            ("/cg/memory/slurm/job_1/memory.usage_in_bytes", "1024\n"),
            ("/cg/memory/memory.limit_in_bytes", "9223372036854771712\n"),
        ]);
        let text = "5:cpu,cpuacct:/slurm/job_1\n4:memory:/slurm/job_1\n";
        assert_eq!(cgroup_room(text, root, &read), Some(3072));
    }

    /// `ulimit -v 2G` aborted a run that the host's free memory admitted: the room under an
    /// address-space limit is what is not mapped yet, beside what the process holds.
    #[test]
    fn an_address_space_limit_leaves_what_is_not_mapped() {
        assert_eq!(
            room_under(2 << 30, 500 << 20, 7 << 20),
            (1548 << 20) + (7 << 20)
        );
        assert_eq!(room_under(100, 300, 7), 7);
        // This test process has no such limit unless its shell set one.
        let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) }, 0);
        assert_eq!(
            address_space_limit().is_none(),
            limit.rlim_cur == libc::RLIM_INFINITY
        );
    }

    #[test]
    fn this_machine_reports_available_memory() {
        let available = available_bytes().expect("Linux has /proc/meminfo");
        let total = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| kb_field(&m, "MemTotal:"))
            .unwrap()
            * 1024;
        assert!(available <= total, "{available} > {total}");
    }
}
