//! Memory: what a rank has used (peak resident set), what the machine offers, and the
//! `--memory-limit` sizes users write (`512M`, `2G`, `1.5GiB`, plain bytes).
//!
//! The pre-check before a fill compares each store's estimate against the smallest of the
//! user's limit, the cgroup's limit and the memory the kernel says is available, divided among
//! the ranks that share this host.

use std::fs;

/// Peak resident set size of this process in bytes (`VmHWM`), or 0 where /proc is missing.
pub fn peak_rss_bytes() -> u64 {
    proc_status_kb("VmHWM:").map_or(0, |kb| kb * 1024)
}

fn proc_status_kb(field: &str) -> Option<u64> {
    kb_field(&fs::read_to_string("/proc/self/status").ok()?, field)
}

/// The value of a `Field:   1234 kB` line of a /proc file, in kB.
fn kb_field(text: &str, field: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Memory this host can still give, in bytes: the smaller of `MemAvailable` and the cgroup's
/// remaining limit. `None` when neither can be read.
pub fn available_bytes() -> Option<u64> {
    let meminfo = fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| kb_field(&m, "MemAvailable:"))
        .map(|kb| kb * 1024);
    let cgroup = cgroup_remaining();
    match (meminfo, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn cgroup_remaining() -> Option<u64> {
    let max = fs::read_to_string("/sys/fs/cgroup/memory.max").ok()?;
    let max: u64 = max.trim().parse().ok()?; // "max" means no limit
    let current: u64 = fs::read_to_string("/sys/fs/cgroup/memory.current")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or(0);
    Some(max.saturating_sub(current))
}

/// Parses a size: a number with an optional unit `K`, `M`, `G`, `T` (powers of 1024, with or
/// without a trailing `B` or `iB`) or `B`. Case does not matter.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num
        .parse()
        .map_err(|_| format!("'{text}' is not a size (try 512M or 2G)"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        other => {
            return Err(format!(
                "'{text}': unknown unit '{other}' (use K, M, G or T)"
            ))
        }
    };
    Ok((value * (1u64 << shift) as f64) as u64)
}

/// A byte count for people: `312.5 MB`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("1024").unwrap(), 1024);
        assert_eq!(parse_size("4K").unwrap(), 4096);
        assert_eq!(parse_size("512M").unwrap(), 512 << 20);
        assert_eq!(parse_size("2GiB").unwrap(), 2 << 30);
        assert_eq!(parse_size("1.5g").unwrap(), 3 << 29);
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5Q").is_err());
    }

    #[test]
    fn peak_rss_is_positive_on_linux() {
        assert!(peak_rss_bytes() > 0);
        assert!(available_bytes().unwrap() > 0);
        assert_eq!(human(999), "999 B");
        assert_eq!(human(312_500_000), "312.5 MB");
    }
}
