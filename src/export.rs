//! Writing a run's files: every output path checked before any work ([`check_outputs`]), whole
//! files written atomically (a temporary file in the target's directory, synced, renamed over the
//! target), and CSV rows appended under a lock in a single write that is cut back if it fails.
//!
//! An output must be absent or a regular file (a symbolic link is followed); not a directory,
//! device, FIFO or socket, nor one of the run's inputs (compared by device and inode), nor another
//! output of the same run; and its directory must accept a new file. The null device is the one
//! device accepted: nothing is written there. A CSV row is appended only to a result set that
//! begins with exactly this program's header and ends with a newline. So a bad path costs no work,
//! and a reader, a crash or a failed run never sees half a file or a torn result set. The rules as
//! users meet them: `docs/troubleshooting.md#outputs`.

use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::Error;
use crate::matches::SearchRow;
use crate::report::row::Row;
use crate::scores::PairsRow;

/// The kinds of result sets `--append-csv` writes: `solve`'s runs ([`Row`]), `search`'s
/// ([`SearchRow`]) and `pairs`'s ([`PairsRow`]), each with its own header (see `matches` and
/// `scores`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultSet {
    Solve,
    Search,
    Pairs,
}

impl ResultSet {
    const ALL: [ResultSet; 3] = [ResultSet::Solve, ResultSet::Search, ResultSet::Pairs];

    fn header(self) -> String {
        match self {
            ResultSet::Solve => Row::header(),
            ResultSet::Search => SearchRow::header(),
            ResultSet::Pairs => PairsRow::header(),
        }
    }

    fn runs(self) -> &'static str {
        match self {
            ResultSet::Solve => "solve and reference runs",
            ResultSet::Search => "search runs",
            ResultSet::Pairs => "pairs runs",
        }
    }
}

/// Checks every output of a run (`(flag, path)`) against the rules in the module doc; an
/// `--append-csv` must be a result set of `solve` runs.
pub fn check_outputs(outputs: &[(&'static str, &Path)], inputs: &[&Path]) -> Result<(), Error> {
    check_outputs_of(outputs, inputs, ResultSet::Solve)
}

/// [`check_outputs`] for a run whose `--append-csv` takes rows of `set`.
pub fn check_outputs_of(
    outputs: &[(&'static str, &Path)],
    inputs: &[&Path],
    set: ResultSet,
) -> Result<(), Error> {
    let input_ids: Vec<(u64, u64)> = inputs
        .iter()
        .filter_map(|p| fs::metadata(p).ok())
        .map(|m| (m.dev(), m.ino()))
        .collect();
    let mut seen: Vec<(&'static str, Identity)> = Vec::new();
    for &(flag, path) in outputs {
        let refuse = |problem: String| Error::OutputRefused {
            flag,
            path: path.to_owned(),
            problem,
        };
        let target = resolve(path).map_err(refuse)?;
        if target.identity == Identity::Discard {
            continue;
        }
        if let Identity::Inode(dev, ino) = target.identity {
            if input_ids.contains(&(dev, ino)) {
                return Err(refuse("is the input file".into()));
            }
        }
        if let Some((other, _)) = seen.iter().find(|(_, id)| *id == target.identity) {
            return Err(refuse(format!("is also the path of {other}")));
        }
        probe_directory(&target.dir).map_err(refuse)?;
        if flag == "--append-csv" && target.exists {
            check_result_set(&target.path, set).map_err(refuse)?;
        }
        seen.push((flag, target.identity));
    }
    Ok(())
}

/// Checks a directory that files will be written into (`plot --out`): an existing directory
/// that accepts a new file, or an absent one whose parent exists (it is then created).
pub fn check_output_dir(flag: &'static str, dir: &Path) -> Result<(), Error> {
    let refuse = |problem: String| Error::OutputRefused {
        flag,
        path: dir.to_owned(),
        problem,
    };
    match fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => probe_directory(dir).map_err(refuse),
        Ok(_) => Err(refuse("is not a directory".into())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let parent = parent_dir(dir);
            probe_directory(&parent).map_err(refuse)
        }
        Err(e) => Err(refuse(format!("cannot inspect: {e}"))),
    }
}

/// Where an output path leads.
struct Target {
    /// The file that will be written (a symbolic link resolved).
    path: PathBuf,
    dir: PathBuf,
    exists: bool,
    identity: Identity,
}

/// What makes two outputs the same file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Identity {
    Inode(u64, u64),
    /// A file that does not exist yet: its directory (canonical) and name.
    Name(PathBuf, std::ffi::OsString),
    /// The null device: any number of outputs may discard.
    Discard,
}

fn resolve(path: &Path) -> Result<Target, String> {
    let text = path.as_os_str().as_encoded_bytes();
    if text.is_empty() {
        return Err("is an empty path".into());
    }
    if text.ends_with(b"/") || path.file_name().is_none() {
        return Err("names a directory, not a file".into());
    }
    match fs::symlink_metadata(path) {
        Ok(link) => {
            let meta = if link.file_type().is_symlink() {
                fs::metadata(path)
                    .map_err(|_| "is a symbolic link to nothing (dangling)".to_string())?
            } else {
                link
            };
            let kind = meta.file_type();
            if is_null_device(&meta) {
                return Ok(Target {
                    path: path.to_owned(),
                    dir: PathBuf::new(),
                    exists: true,
                    identity: Identity::Discard,
                });
            }
            if kind.is_dir() {
                return Err("is a directory".into());
            }
            if kind.is_block_device() || kind.is_char_device() {
                return Err(
                    "is a device, not a regular file (of the devices only /dev/null is taken, \
                     to discard)"
                        .into(),
                );
            }
            if kind.is_fifo() || kind.is_socket() {
                return Err("is a FIFO or socket, not a regular file".into());
            }
            let real = fs::canonicalize(path).map_err(|e| format!("cannot resolve: {e}"))?;
            Ok(Target {
                dir: parent_dir(&real),
                path: real,
                exists: true,
                identity: Identity::Inode(meta.dev(), meta.ino()),
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = parent_dir(path);
            let canonical = fs::canonicalize(&dir)
                .map_err(|_| format!("its directory '{}' does not exist", dir.display()))?;
            let name = path.file_name().expect("checked above").to_owned();
            Ok(Target {
                path: path.to_owned(),
                dir,
                exists: false,
                identity: Identity::Name(canonical, name),
            })
        }
        Err(e) => Err(format!("cannot inspect: {e}")),
    }
}

/// Whether `meta` (a file's, links followed) is the null device's.
fn is_null_device(meta: &fs::Metadata) -> bool {
    meta.file_type().is_char_device()
        && fs::metadata("/dev/null")
            .is_ok_and(|null| null.file_type().is_char_device() && null.rdev() == meta.rdev())
}

/// Whether writing to `path` discards: it is (or links to) the null device.
pub fn discards(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| is_null_device(&meta))
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// Creates and removes a file in `dir`, the one sure test that a new file can go there.
fn probe_directory(dir: &Path) -> Result<(), String> {
    if !dir.is_dir() {
        return Err(format!("'{}' is not a directory", dir.display()));
    }
    tempfile::Builder::new()
        .prefix(".mpi-lcs-probe")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| format!("cannot create a file in '{}': {e}", dir.display()))
}

/// An existing result set must begin with the header of `set`'s rows and end with a newline.
fn check_result_set(path: &Path, set: ResultSet) -> Result<(), String> {
    let mut file = File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    check_open_result_set(&mut file, set)
}

/// Whether `file` begins with the line `header`.
fn begins_with_line(file: &mut File, header: &str) -> Result<bool, String> {
    let mut start = vec![0u8; header.len() + 2];
    file.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    let got = file.read(&mut start).map_err(|e| e.to_string())?;
    let start = &start[..got];
    let first_line = start.split(|&b| b == b'\n').next().unwrap_or_default();
    Ok(
        first_line.strip_suffix(b"\r").unwrap_or(first_line) == header.as_bytes()
            && start.len() > header.len(),
    )
}

fn check_open_result_set(file: &mut File, set: ResultSet) -> Result<(), String> {
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len == 0 {
        return Ok(());
    }
    let header = set.header();
    if !begins_with_line(file, &header)? {
        for other in ResultSet::ALL.into_iter().filter(|&o| o != set) {
            if begins_with_line(file, &other.header())? {
                return Err(format!(
                    "is a result set of {}; this run appends {}: name another file",
                    other.runs(),
                    set.runs()
                ));
            }
        }
        return Err(format!(
            "is not a result set of this program: its first line is not the header '{}…' \
             (start a new file)",
            &header[..header.len().min(40)]
        ));
    }
    let mut last = [0u8; 1];
    file.seek(SeekFrom::End(-1)).map_err(|e| e.to_string())?;
    file.read_exact(&mut last).map_err(|e| e.to_string())?;
    if last[0] != b'\n' {
        return Err("does not end with a newline: its last row is incomplete".into());
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically (see the module doc); to the null device, nothing.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_streamed(path, |out| out.write_all(bytes))
}

/// Writes what `fill` writes to `path` atomically, streamed through a temporary file beside
/// the target that is synced and renamed over it once `fill` is done (see the module doc):
/// the one way every file of the program is written. To the null device, nothing: `fill` is
/// not called, and no file is made beside it.
pub fn write_streamed(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    let fail = |source| Error::Output {
        path: path.to_owned(),
        source,
    };
    if discards(path) {
        return Ok(());
    }
    // Replace the file a symbolic link names, and keep the link.
    let target = fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let mode = fs::metadata(&target).map_or(0o644, |m| m.permissions().mode() & 0o7777);
    let mut tmp = tempfile::Builder::new()
        .prefix(".mpi-lcs")
        .suffix(".tmp")
        .tempfile_in(parent_dir(&target))
        .map_err(fail)?;
    let mut out = std::io::BufWriter::new(tmp.as_file_mut());
    fill(&mut out).map_err(fail)?;
    out.flush().map_err(fail)?;
    drop(out);
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(mode))
        .map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(&target).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Writes `value` as pretty JSON to `path`, atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), Error> {
    let mut text = serde_json::to_vec_pretty(value).map_err(anyhow::Error::from)?;
    text.push(b'\n');
    write_atomic(path, &text)
}

/// Appends `row` to the result set at `path`, with the header first when the file is new or
/// empty. The file is locked for the append and the row goes out in a single write, so
/// concurrent runs appending to one file never interleave or lose rows; a write or sync that
/// fails cuts the file back to its length before, under the same lock.
pub fn append_row(path: &Path, row: &Row) -> Result<(), Error> {
    append(path, row, ResultSet::Solve)
}

/// [`append_row`] for a search's row.
pub fn append_search_row(path: &Path, row: &SearchRow) -> Result<(), Error> {
    append(path, row, ResultSet::Search)
}

/// [`append_row`] for a pairs run's row.
pub fn append_pairs_row(path: &Path, row: &PairsRow) -> Result<(), Error> {
    append(path, row, ResultSet::Pairs)
}

fn append<R: Serialize>(path: &Path, row: &R, set: ResultSet) -> Result<(), Error> {
    let fail = |source| Error::Output {
        path: path.to_owned(),
        source,
    };
    if discards(path) {
        return Ok(());
    }
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)
        .map_err(fail)?;
    file.lock().map_err(fail)?;
    // Checked again under the lock: another writer may have made the file since.
    check_open_result_set(&mut file, set).map_err(|problem| Error::OutputRefused {
        flag: "--append-csv",
        path: path.to_owned(),
        problem,
    })?;
    let before = file.metadata().map_err(fail)?.len();
    let mut text = csv::WriterBuilder::new()
        .has_headers(before == 0)
        .from_writer(Vec::new());
    text.serialize(row).map_err(anyhow::Error::from)?;
    let text = text.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Err(e) = file.write_all(&text).and_then(|()| file.sync_data()) {
        // Part of the row may be in the file (a full disk takes what fits): take it out, so
        // the file reads as before and later appends are still accepted. Cutting a file back
        // needs no room.
        let undone = file.set_len(before).and_then(|()| file.sync_data());
        return Err(match undone {
            Ok(()) => fail(e),
            Err(undo) => fail(std::io::Error::new(
                e.kind(),
                format!("{e}; and its last row could not be taken out again: {undo}"),
            )),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn atomic_write_leaves_no_temp_file_and_follows_links() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        write_json(&path, &serde_json::json!({"a": 1})).unwrap();
        assert_eq!(names(dir.path()), ["out.json"]);
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        write_atomic(&link, b"new\n").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&path).unwrap(), b"new\n");
        assert_eq!(names(dir.path()), ["link.json", "out.json"]);
        let missing = dir.path().join("no/such/dir/out.json");
        assert!(write_json(&missing, &1).is_err());
    }

    #[test]
    fn outputs_are_refused_before_the_work() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        fs::write(&input, "A\nC\n").unwrap();
        let refused = |flag: &'static str, path: &Path| -> String {
            match check_outputs(&[(flag, path)], &[&input]) {
                Err(Error::OutputRefused { problem, .. }) => problem,
                other => panic!("{} accepted: {other:?}", path.display()),
            }
        };
        assert_eq!(refused("--json", dir.path()), "is a directory");
        assert_eq!(
            refused("--json", Path::new(".")),
            "names a directory, not a file"
        );
        let slash = PathBuf::from(format!("{}/o/", dir.path().display()));
        assert_eq!(refused("--json", &slash), "names a directory, not a file");
        assert!(refused("--json", Path::new("/dev/zero")).starts_with("is a device"));
        assert_eq!(refused("--trace", &input), "is the input file");
        let hard = dir.path().join("hard.txt");
        fs::hard_link(&input, &hard).unwrap();
        assert_eq!(refused("--svg", &hard), "is the input file");
        assert!(refused("--json", &dir.path().join("none/x.json")).contains("does not exist"));
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink(dir.path().join("nothing"), &dangling).unwrap();
        assert!(refused("--json", &dangling).contains("dangling"));
        // Two outputs naming one file, existing or not.
        let out = dir.path().join("o.json");
        let twice = check_outputs(&[("--json", &out), ("--svg", &out)], &[&input]);
        assert!(matches!(
            twice,
            Err(Error::OutputRefused { flag: "--svg", .. })
        ));
        let dotted = dir.path().join(".").join("o.json");
        assert!(check_outputs(&[("--json", &out), ("--trace", &dotted)], &[&input]).is_err());
        assert!(check_outputs(&[("--json", &out)], &[&input]).is_ok());
        assert_eq!(names(dir.path()), ["dangling", "hard.txt", "in.txt"]);
    }

    /// `--json /dev/null` was refused (exit 5) where a user means "discard".
    #[test]
    fn the_null_device_discards_and_no_other_device_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        let null = Path::new("/dev/null");
        let link = dir.path().join("null");
        std::os::unix::fs::symlink(null, &link).unwrap();
        let outputs = [
            ("--json", null),
            ("--append-csv", null),
            ("--trace", &*link),
        ];
        check_outputs(&outputs, &[null]).unwrap();
        write_json(null, &1).unwrap();
        write_atomic(&link, b"gone\n").unwrap();
        append_row(null, &Row::default()).unwrap();
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(names(dir.path()), ["null"]);
        for device in ["/dev/full", "/dev/zero"] {
            let result = check_outputs(&[("--json", Path::new(device))], &[]);
            let Err(Error::OutputRefused { problem, .. }) = result else {
                panic!("{device} accepted");
            };
            assert!(problem.contains("only /dev/null"), "{problem}");
        }
    }

    /// A tmpfs of `bytes` mounted on a directory of its own, unmounted when dropped.
    struct SmallTmpfs {
        dir: tempfile::TempDir,
    }

    impl SmallTmpfs {
        fn mount(bytes: usize) -> Result<SmallTmpfs, String> {
            use std::os::unix::ffi::OsStrExt;
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let target = std::ffi::CString::new(dir.path().as_os_str().as_bytes()).unwrap();
            let options = std::ffi::CString::new(format!("size={bytes},mode=0700")).unwrap();
            // SAFETY: every pointer is a NUL-terminated string that outlives the call.
            let mounted = unsafe {
                libc::mount(
                    c"tmpfs".as_ptr(),
                    target.as_ptr(),
                    c"tmpfs".as_ptr(),
                    0,
                    options.as_ptr().cast(),
                )
            };
            if mounted != 0 {
                return Err(std::io::Error::last_os_error().to_string());
            }
            Ok(SmallTmpfs { dir })
        }

        fn path(&self) -> &Path {
            self.dir.path()
        }
    }

    impl Drop for SmallTmpfs {
        fn drop(&mut self) {
            use std::os::unix::ffi::OsStrExt;
            let target = std::ffi::CString::new(self.dir.path().as_os_str().as_bytes()).unwrap();
            // SAFETY: the path is a NUL-terminated string that outlives the call.
            unsafe { libc::umount2(target.as_ptr(), libc::MNT_DETACH) };
        }
    }

    /// Says on the terminal (past the test harness's capture) that a test did not run.
    fn skipped(test: &str, why: &str) {
        let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
    }

    /// `--append-csv` on a full disk exited 5 but left part of a row, after which every append
    /// and `table` refused the file. Now the file is cut back to what it was.
    #[test]
    fn an_append_that_fills_the_disk_leaves_the_result_set_as_it_was() {
        const TEST: &str = "export::an_append_that_fills_the_disk_leaves_the_result_set_as_it_was";
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return skipped(TEST, "mounting a small tmpfs needs root");
        }
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as u64;
        let disk = match SmallTmpfs::mount(16 * page as usize) {
            Ok(disk) => disk,
            Err(e) => return skipped(TEST, &format!("cannot mount a tmpfs: {e}")),
        };
        let csv = disk.path().join("runs.csv");
        append_row(&csv, &Row::default()).unwrap();
        // A row that ends 32 bytes short of a page: the next row fits only in part.
        let mut one = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        one.serialize(Row::default()).unwrap();
        let row = one.into_inner().unwrap().len() as u64;
        let len = fs::metadata(&csv).unwrap().len();
        let end = (len + row + 64).next_multiple_of(page) - 32;
        let padded = Row {
            input: "x".repeat((end - len - row) as usize),
            ..Row::default()
        };
        append_row(&csv, &padded).unwrap();
        assert_eq!(fs::metadata(&csv).unwrap().len(), end);
        let filler_path = disk.path().join("filler");
        let mut filler = File::create(&filler_path).unwrap();
        let block = vec![0u8; page as usize];
        while filler.write_all(&block).is_ok() {}
        let before = fs::read(&csv).unwrap();

        let err = append_row(&csv, &Row::default()).unwrap_err();
        assert!(matches!(err, Error::Output { .. }), "{err}");
        assert!(err.to_string().contains("No space left"), "{err}");
        let after = fs::read(&csv).unwrap();
        let torn = String::from_utf8_lossy(&after[before.len().min(after.len())..]);
        assert_eq!(after.len(), before.len(), "the file grew by {torn:?}");
        assert!(after == before, "the file changed");
        check_outputs(&[("--append-csv", &csv)], &[]).unwrap();
        // With room again, the next run's row goes in whole.
        drop(filler);
        fs::remove_file(&filler_path).unwrap();
        append_row(&csv, &Row::default()).unwrap();
        let text = fs::read_to_string(&csv).unwrap();
        assert_eq!(text.len() as u64, end + row);
        assert_eq!(text.lines().count(), 4);
    }

    #[test]
    fn read_only_directory_is_refused_even_as_root() {
        // A directory on a read-only mount refuses every user, root included.
        let proc_dir = Path::new("/proc/self/x.json");
        let result = check_outputs(&[("--json", proc_dir)], &[]);
        assert!(
            matches!(result, Err(Error::OutputRefused { .. })),
            "{result:?}"
        );
    }

    #[test]
    fn result_sets_are_checked_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("runs.csv");
        let row = Row {
            input: "a,b.txt".into(),
            ..Row::default()
        };
        append_row(&csv, &row).unwrap();
        append_row(&csv, &row).unwrap();
        let text = fs::read_to_string(&csv).unwrap();
        assert_eq!(text.lines().count(), 3);
        assert!(text.starts_with(&(Row::header() + "\n")));
        assert!(check_outputs(&[("--append-csv", &csv)], &[]).is_ok());

        let torn = dir.path().join("torn.csv");
        fs::write(&torn, text.trim_end()).unwrap();
        let other = dir.path().join("other.csv");
        fs::write(&other, "a,b,c\n1,2,3\n").unwrap();
        for (path, problem) in [(&torn, "newline"), (&other, "header")] {
            let err = check_outputs(&[("--append-csv", path)], &[]).unwrap_err();
            assert!(err.to_string().contains(problem), "{err}");
            let before = fs::read(path).unwrap();
            assert!(append_row(path, &row).is_err());
            assert_eq!(fs::read(path).unwrap(), before, "file changed");
        }
    }
}
