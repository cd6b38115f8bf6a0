//! The files of a tournament directory: `tournament.json`, and `matches.csv` appended and
//! flushed row by row, read back after a crash (a torn last line is ignored and cut off),
//! and rewritten sorted by match id at the end. Whole files are written atomically
//! (temporary file + rename).

use crate::export::matches_csv::{self, ParsedRow};
use crate::run_bounds::{self, Bound};
use crate::run_files::{Access, Folder};
use crate::standings::MatchRow;
use anyhow::{bail, Context};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::{Duration, Instant};

/// Held while a file is written through its temporary file, from its creation to its
/// rename ([`hold_writes`]).
static WRITES: Mutex<()> = Mutex::new(());
/// The temporary file being written, if any ([`finish_writes`] removes it if stuck).
static TEMP: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Waits for the file being written, if any, to be renamed into place, and keeps any other
/// write from starting while the guard lives.
fn hold_writes() -> MutexGuard<'static, ()> {
    WRITES.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What the referee does before it exits on a stop signal (`jail::interrupt::catch`): the
/// results file being written is finished first (no temporary file is left), and no
/// other write starts until the exit; one stuck for 2 s is given up.
pub fn finish_before_exit() {
    // The guard is never released: the process exits next.
    std::mem::forget(finish_writes(Duration::from_secs(2)));
}

/// For the referee's exit at a second stop signal, so that it leaves no temporary file
/// behind: waits up to `patience` for the file being written, if any, to be renamed into
/// place, and keeps any other write from starting while the guard lives. A write still
/// stuck then (a hung disk or network file system) has its temporary file removed, and
/// `None` is returned: the exit does not wait for it.
pub fn finish_writes(patience: Duration) -> Option<MutexGuard<'static, ()>> {
    let deadline = Instant::now() + patience;
    loop {
        match WRITES.try_lock() {
            Ok(guard) => return Some(guard),
            Err(TryLockError::Poisoned(e)) => return Some(e.into_inner()),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(TryLockError::WouldBlock) => {
                if let Some(temp) = TEMP.lock().unwrap_or_else(PoisonError::into_inner).take() {
                    let _ = std::fs::remove_file(temp);
                }
                return None;
            }
        }
    }
}

/// Writes `path` through a temporary file beside it (`.<name><suffix>`), which `fill`
/// writes, then syncs and renames into place: readers see the old file or the new one,
/// whole. The temporary file is created fresh, beneath its folder opened without following
/// a link (`run_files`): a link planted in its place or in the folder's is not written
/// through. The temporary file is removed if anything fails.
fn through_temp(
    path: &Path,
    suffix: &str,
    fill: impl FnOnce(&mut File) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let (folder, name) = Folder::of_file(path)?;
    through_temp_in(&folder, &name, suffix, Synced::Yes, fill)
}

/// Whether a file written through a temporary file is synced to the disk before its rename.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Synced {
    Yes,
    /// A match's own files, written at every match: the row appended to `matches.csv`
    /// after them is not synced either (a match survives the referee's death, whose files
    /// the kernel holds, not a machine's crash), and a sync each would make parallel
    /// matches wait on the disk in turn.
    No,
}

/// [`through_temp`] of the file `name` of `folder`.
fn through_temp_in(
    folder: &Folder,
    name: &str,
    suffix: &str,
    synced: Synced,
    fill: impl FnOnce(&mut File) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let temp_name = format!(".{name}{suffix}");
    let temp = folder.path().join(&temp_name);
    let _writing = hold_writes();
    // One left by a referee killed while writing (or planted) goes first.
    folder.remove(&temp_name)?;
    *TEMP.lock().unwrap_or_else(PoisonError::into_inner) = Some(temp.clone());
    let written = folder
        .open_file(&temp_name, Access::Create)
        .and_then(|mut file| {
            fill(&mut file)
                .and_then(|()| match synced {
                    Synced::Yes => Ok(file.sync_data()?),
                    Synced::No => Ok(()),
                })
                .with_context(|| format!("cannot write {}", temp.display()))
        })
        .and_then(|()| folder.rename(&temp_name, name));
    if written.is_err() {
        let _ = folder.remove(&temp_name);
    }
    *TEMP.lock().unwrap_or_else(PoisonError::into_inner) = None;
    written
}

/// Write `bytes` to the file `name` of a match's `folder` through a temporary file and a
/// rename, not synced: a match's own files (the row appended after them is not synced
/// either; a sync each would make parallel matches wait on the disk in turn).
pub fn write_in(folder: &Folder, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
    through_temp_in(folder, name, ".tmp", Synced::No, |file| {
        Ok(file.write_all(bytes)?)
    })
}

/// Write `bytes` to `path`, a file of a match's folder, as [`write_in`] does.
pub fn write_match_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let (folder, name) = Folder::of_file(path)?;
    write_in(&folder, &name, bytes)
}

/// Write `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    through_temp(path, ".tmp", |file| Ok(file.write_all(bytes)?))
}

/// Read every complete row of `matches.csv` of a game of `seats` seats in file order,
/// calling `visit` with each, its offset and its exact bytes (with the `\n`); a last line
/// without its `\n` (a write cut by a crash) is skipped. Returns the length of the complete
/// part of the file.
pub fn read_rows(
    path: &Path,
    seats: usize,
    mut visit: impl FnMut(ParsedRow, u64, &[u8]) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    let file = open_file(path)?;
    let size = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    run_bounds::MATCHES_CSV.check(path, size)?;
    // Never more than the file's size when it was opened: one that grows is read so far.
    let mut reader = BufReader::new(file.take(size));
    let mut line = Vec::new();
    let mut offset = 0u64;
    let mut number = 0usize;
    loop {
        line.clear();
        let n = (&mut reader)
            .take(run_bounds::ROW.max + 1)
            .read_until(b'\n', &mut line)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if n as u64 > run_bounds::ROW.max {
            bail!(
                "{} line {}: longer than {} may be ({}): it is not a file the referee wrote \
                 (someone who can write the results put it there); restore the file the \
                 referee wrote",
                path.display(),
                number + 1,
                run_bounds::ROW.kind,
                run_bounds::size_text(run_bounds::ROW.max)
            );
        }
        if n == 0 || line.last() != Some(&b'\n') {
            return Ok(offset);
        }
        number += 1;
        if number == 1 {
            if line != matches_csv::header(seats) {
                bail!(
                    "{} does not start with the matches.csv header of results schema {} for \
                     a game of {seats} seats",
                    path.display(),
                    crate::export::RESULTS_SCHEMA
                );
            }
        } else {
            let row = matches_csv::parse_line(&line, seats)
                .map_err(|e| anyhow::anyhow!("{} line {number}: {e}", path.display()))?;
            visit(row, offset, &line)?;
        }
        offset += n as u64;
    }
}

/// A row of `matches.csv` read back: parsed, and its exact bytes (with the `\n`).
#[derive(Clone, Debug)]
pub struct Row {
    pub row: MatchRow,
    pub first_player: u8,
    pub line: Vec<u8>,
}

/// Every complete row of `matches.csv` (of a game of `seats` seats) at `path`, read once
/// ([`read_rows`]: bounded, a torn last line skipped).
pub fn load_rows(path: &Path, seats: usize) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    read_rows(path, seats, |(row, first_player), _, line| {
        rows.push(Row {
            row,
            first_player,
            line: line.to_vec(),
        });
        Ok(())
    })?;
    Ok(rows)
}

/// `matches.csv` open for appending, one flushed row at a time.
pub struct Appender {
    file: File,
}

impl Appender {
    /// Open `path` (of a game of `seats` seats) for appending: create it with its header,
    /// or cut a torn last line off. `complete_len` is what [`read_rows`] returned for it
    /// (`None` for a new file); 0 means that not even the header is whole (a crash right
    /// after the file was created): the file starts again with its header.
    pub fn open(path: &Path, seats: usize, complete_len: Option<u64>) -> anyhow::Result<Appender> {
        let (folder, name) = Folder::of_file(path)?;
        let mut file = folder.open_file(&name, Access::Append)?;
        match complete_len {
            Some(len) if len > 0 => file
                .set_len(len)
                .with_context(|| format!("cannot cut the torn line of {}", path.display()))?,
            _ => {
                file.set_len(0)?;
                file.write_all(&matches_csv::header(seats))?;
            }
        }
        Ok(Appender { file })
    }

    /// Append one row and hand it to the kernel (it survives `kill -9` of the referee).
    pub fn append(&mut self, line: &[u8]) -> anyhow::Result<()> {
        self.file
            .write_all(line)
            .and_then(|_| self.file.flush())
            .context("cannot append to matches.csv")
    }
}

/// Sorts the rows of `sources` by match id into `out` (with the header of a game of
/// `seats` seats), calling `visit` with each row, its `first_player`, its source's index and
/// its exact bytes first: a row `visit` refuses stops it, naming the file and the line. The
/// rows written are the bytes `visit` saw (kept in memory, never read again: a file swapped
/// meanwhile changes nothing). A match that appears twice is refused.
pub fn write_sorted(
    sources: &[PathBuf],
    seats: usize,
    out: &Path,
    mut visit: impl FnMut(&MatchRow, u8, usize, &[u8]) -> Result<(), String>,
) -> anyhow::Result<u64> {
    let mut rows: Vec<(u64, usize, Vec<u8>)> = Vec::new();
    for (source, path) in sources.iter().enumerate() {
        let mut number = 1;
        read_rows(path, seats, |(row, first_player), _, line| {
            number += 1;
            visit(&row, first_player, source, line)
                .map_err(|e| anyhow::anyhow!("{} line {number}: {e}", path.display()))?;
            rows.push((row.id, source, line.to_vec()));
            Ok(())
        })?;
    }
    rows.sort_by_key(|(id, _, _)| *id);
    if let Some(pair) = rows.windows(2).find(|w| w[0].0 == w[1].0) {
        bail!(
            "match {} appears twice ({} and {})",
            pair[0].0,
            sources[pair[0].1].display(),
            sources[pair[1].1].display()
        );
    }
    write_lines(out, seats, rows.iter().map(|(_, _, line)| line.as_slice()))?;
    Ok(rows.len() as u64)
}

/// Writes `out` as a `matches.csv` of a game of `seats` seats: its header, then `lines` (rows
/// with their `\n`) in the order given, through a temporary file and a rename.
pub fn write_lines<'a>(
    out: &Path,
    seats: usize,
    lines: impl Iterator<Item = &'a [u8]>,
) -> anyhow::Result<()> {
    through_temp(out, ".sorted.tmp", |file| {
        let mut writer = std::io::BufWriter::new(file);
        writer.write_all(&matches_csv::header(seats))?;
        for line in lines {
            writer.write_all(line)?;
        }
        Ok(writer.flush()?)
    })
}

/// Read a whole file's bytes, a regular file of at most `bound` bytes (`run_bounds`).
pub fn read_bytes(path: &Path, bound: Bound) -> anyhow::Result<Vec<u8>> {
    crate::run_files::read_within(open_file(path)?, path, bound)
}

/// Read a whole file as text, a regular file of at most `bound` bytes (`run_bounds`).
pub fn read_text(path: &Path, bound: Bound) -> anyhow::Result<String> {
    String::from_utf8(read_bytes(path, bound)?)
        .map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", path.display()))
}

/// Opens `path` for reading if it is a regular file (a results file, a record): a FIFO, a
/// device or a directory put in its place (an edited directory) is refused at once, never
/// waited on (the open does not block); so is a symbolic link, naming it (`run_files`).
pub fn open_file(path: &Path) -> anyhow::Result<File> {
    let (folder, name) = Folder::of_file(path)?;
    folder.open_file(&name, Access::Read)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files in `dir`, by name.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("leaderboard.csv");
        write_atomic(&path, b"old\n").unwrap();
        write_atomic(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
        assert_eq!(names(dir.path()), ["leaderboard.csv"]);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_removes_its_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("leaderboard.csv");
        write_atomic(&path, b"old\n").unwrap();
        let failed = through_temp(&path, ".tmp", |file| {
            file.write_all(b"half")?;
            anyhow::bail!("the disk is full")
        });
        let error = format!("{:#}", failed.unwrap_err());
        assert!(
            error.contains("cannot write") && error.contains("the disk is full"),
            "{error}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"old\n");
        assert_eq!(names(dir.path()), ["leaderboard.csv"]);
    }

    /// A two-seat row of match `id`.
    fn row(id: u64) -> Vec<u8> {
        matches_csv::row(
            &MatchRow {
                id,
                seed: 100 + id,
                champions: vec!["a".into(), "b".into()],
                scores: vec![1, 0],
                points: vec![1, 0],
                faults: vec![None, None],
                calls: vec![1, 1],
                cpu_us: vec![0, 0],
                max_cpu_us: vec![0, 0],
                duration_ms: 0,
                digest: "00".into(),
                reproduce: String::new(),
            },
            0,
        )
    }

    /// Rows of two files come out sorted by id, each handed to the visitor with its
    /// source; a row the visitor refuses is named by its file and line, and nothing is
    /// written.
    #[test]
    fn rows_are_sorted_across_files_and_a_refused_one_is_named_by_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let one = dir.path().join("one.csv");
        let two = dir.path().join("two.csv");
        std::fs::write(
            &one,
            [matches_csv::header(2), row(3), row(0), row(4)].concat(),
        )
        .unwrap();
        std::fs::write(&two, [matches_csv::header(2), row(1), row(2)].concat()).unwrap();
        let out = dir.path().join("matches.csv");
        let mut seen = Vec::new();
        let rows = write_sorted(&[one.clone(), two.clone()], 2, &out, |r, _, source, _| {
            seen.push((r.id, source));
            Ok(())
        })
        .unwrap();
        assert_eq!(rows, 5);
        assert_eq!(seen, [(3, 0), (0, 0), (4, 0), (1, 1), (2, 1)]);
        let want = [
            matches_csv::header(2),
            row(0),
            row(1),
            row(2),
            row(3),
            row(4),
        ]
        .concat();
        assert_eq!(std::fs::read(&out).unwrap(), want);

        std::fs::remove_file(&out).unwrap();
        let err = write_sorted(&[one, two.clone()], 2, &out, |r, _, _, _| match r.id {
            2 => Err("not this one".into()),
            _ => Ok(()),
        })
        .unwrap_err();
        assert_eq!(
            format!("{err:#}"),
            format!("{} line 3: not this one", two.display())
        );
        assert!(!out.exists());
    }

    /// A FIFO, a directory or a device in the place of a results file is refused at once,
    /// naming it (a FIFO was waited on forever).
    #[test]
    fn only_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("gauntlet.json");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        for path in [fifo.as_path(), dir.path(), Path::new("/dev/zero")] {
            let err = format!(
                "{:#}",
                read_text(path, run_bounds::DESCRIPTION).unwrap_err()
            );
            assert!(
                err.contains(&format!("{} is not a regular file", path.display())),
                "{err}"
            );
        }
        let err = format!("{:#}", read_rows(&fifo, 3, |_, _, _| Ok(())).unwrap_err());
        assert!(err.contains("is not a regular file"), "{err}");
        let err = format!("{:#}", crate::GameRecord::load(&fifo).unwrap_err());
        assert!(err.contains("not a regular file"), "{err}");
    }

    /// A line of `matches.csv` longer than a row may be is refused, naming the file, its
    /// line and the bound, without being read whole (a line cut by a crash is shorter).
    #[test]
    fn a_line_longer_than_a_row_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("matches.csv");
        let mut bytes = matches_csv::header(2);
        bytes.extend(std::iter::repeat_n(b'7', run_bounds::ROW.max as usize + 1));
        std::fs::write(&path, &bytes).unwrap();
        let err = format!("{:#}", read_rows(&path, 2, |_, _, _| Ok(())).unwrap_err());
        assert!(
            err.starts_with(&format!(
                "{} line 2: longer than a row of matches.csv may be (64.0 KiB",
                path.display()
            )),
            "{err}"
        );
        bytes.truncate(bytes.len() - 1);
        std::fs::write(&path, &bytes).unwrap();
        let len = read_rows(&path, 2, |_, _, _| Ok(())).unwrap();
        assert_eq!(
            len,
            matches_csv::header(2).len() as u64,
            "a torn line is skipped"
        );
    }

    /// A write stuck (here, on a channel) is waited for no longer than the patience given;
    /// its temporary file is then removed.
    #[test]
    fn a_stuck_write_is_not_waited_for_and_its_temporary_file_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seats.csv");
        let temp = dir.path().join(".seats.csv.tmp");
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let writer = {
            let path = path.clone();
            std::thread::spawn(move || {
                through_temp(&path, ".tmp", |file| {
                    file.write_all(b"half")?;
                    let _ = wait.recv();
                    Ok(())
                })
            })
        };
        while !temp.exists() {
            std::thread::sleep(Duration::from_millis(5));
        }
        let started = Instant::now();
        assert!(finish_writes(Duration::from_millis(300)).is_none());
        assert!(started.elapsed() >= Duration::from_millis(300));
        assert!(!temp.exists(), "the stuck write's temporary file is left");
        go.send(()).unwrap();
        assert!(writer.join().unwrap().is_err(), "renamed a removed file");
        assert_eq!(names(dir.path()), Vec::<String>::new());
    }

    /// What the exit at a second stop signal relies on: while [`hold_writes`] is held, no
    /// write starts; one in flight is renamed into place before the guard is given.
    #[test]
    fn no_write_starts_while_the_writes_are_held() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pairwise.csv");
        let held = hold_writes();
        let writer = {
            let path = path.clone();
            std::thread::spawn(move || write_atomic(&path, b"rows\n").unwrap())
        };
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert_eq!(names(dir.path()), Vec::<String>::new(), "a write started");
        drop(held);
        writer.join().unwrap();
        assert_eq!(names(dir.path()), ["pairwise.csv"]);
    }
}
