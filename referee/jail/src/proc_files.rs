//! The `/proc/<pid>` files of the processes a walk of a champion's tree reads again and
//! again (`stat`, `status`, the main thread's `children`), kept open between walks: a walk
//! is then a few `pread`s instead of opens, reads, directory listings and closes. Used by
//! both walks, the jail's ([`crate::usage::Tracker`], at the end of every callback) and the
//! one of a champion without the jail (`champion::clock`, at the start of every callback).
//!
//! A walk never leaves a process unwatched for want of open files: when the referee is out
//! of them (`EMFILE`, `ENFILE`: a champion of many processes makes it keep hundreds), the
//! kept files are closed, none is kept from then on, and the file is opened again. Should a
//! file still not open or read for any reason but its process being gone (`ENOENT`,
//! `ESRCH`), the walk is blind ([`crate::blind`]): the match on this thread counts nothing
//! and its run stops, the operator's problem, never a subtree skipped from the count.
//!
//! The kept files of every walk of the process together (all its seats, all its matches)
//! take no more than the limit of open files leaves once [`leave_open_files`] is set
//! aside: what the process's other files need, the seats still to start first of all. A
//! walk that filled the limit (a champion of 64 processes kept 192 files) left a match
//! played at the same time, or its own match's next seat, unable to start its jail.
//!
//! An open `/proc/<pid>` file stays bound to its process: once the process is reaped its
//! reads fail, and it is opened again under the same pid (should a new process get it, the
//! caller tells them apart by start time), so a reused pid is never read through an old
//! process's file.

use nix::libc;
use std::collections::HashMap;
use std::fs;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};

/// Most processes whose files are kept open (past them, files are opened and closed at
/// each read).
pub(crate) const KEPT: usize = 64;

/// Size of one read of a `/proc` file: `stat`, `status` and a `children` list of fewer
/// than about 500 processes fit; a longer `children` is read whole.
pub(crate) const READ: usize = 4096;

/// Open files the walks leave to the rest of the process unless the program says how many
/// ([`leave_open_files`]): a match of three seats, and the program's own files.
pub const LEFT_BY_DEFAULT: u64 = 3 * crate::usage::SEAT_FILES + crate::usage::OWN_FILES;

/// The files every walk of the process keeps now.
static KEPT_NOW: AtomicU64 = AtomicU64::new(0);
/// What the walks leave of the limit of open files.
static LEFT: AtomicU64 = AtomicU64::new(LEFT_BY_DEFAULT);

/// Sets how many of the process's open files the walks of champions' processes leave to
/// everything else (the pipes, jails and stderr files of the seats played at once, its own
/// files): past the limit less these, a walk reads its files without keeping them
/// (slower, never blind). The referee sets what it checked its limit against, before any
/// seat starts.
pub fn leave_open_files(files: u64) {
    LEFT.store(files, Ordering::Relaxed);
}

/// Files the walks may keep in all: the soft limit of open files now, less what they leave.
fn room() -> u64 {
    let limit = nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
        .map_or(0, |(soft, _)| soft);
    limit.saturating_sub(LEFT.load(Ordering::Relaxed))
}

/// A `/proc` file kept open between walks, counted among the files the process keeps
/// while it lives.
#[derive(Debug)]
struct Kept(fs::File);

impl Kept {
    /// `file` kept if the process's walks have room for one more, else given back.
    fn keep(file: fs::File) -> Result<Kept, fs::File> {
        let room = room();
        match KEPT_NOW.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < room).then_some(n + 1)
        }) {
            Ok(_) => Ok(Kept(file)),
            Err(_) => Err(file),
        }
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        KEPT_NOW.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The kept files, by pid.
#[derive(Debug, Default)]
pub(crate) struct ProcFiles {
    open: HashMap<i32, Files>,
    /// The referee ran out of open files: none is kept any more (each read opens and
    /// closes its file).
    unkept: bool,
}

/// The files of one process, each opened on first use.
#[derive(Debug)]
struct Files {
    stat: Kept,
    status: Option<Kept>,
    /// The main thread's `children`.
    children: Option<Kept>,
}

/// The kernel has no `children` files (built without `CONFIG_PROC_CHILDREN`): the tree
/// cannot be walked, only found by a scan of all of `/proc`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct NoChildrenFiles;

impl ProcFiles {
    /// The text of the process's `stat`, from its kept file (opened again once if that
    /// fails: the process it was bound to is gone, and a new one may have its pid).
    pub(crate) fn stat<'a>(&mut self, pid: i32, buf: &'a mut [u8; READ]) -> Option<&'a [u8]> {
        if let Some(files) = self.open.get(&pid) {
            if let Some(n) = read_len(&files.stat.0, buf) {
                return Some(&buf[..n]);
            }
            self.open.remove(&pid);
        }
        let path = format!("/proc/{pid}/stat");
        let file = self.opened(&path, |p| fs::File::open(p))?;
        let n = fresh_read(&file, buf, &path)?;
        if self.open.len() < KEPT && !self.unkept {
            if let Ok(stat) = Kept::keep(file) {
                let files = Files {
                    stat,
                    status: None,
                    children: None,
                };
                self.open.insert(pid, files);
            }
        }
        Some(&buf[..n])
    }

    /// The text of the process's `status`.
    pub(crate) fn status<'a>(&mut self, pid: i32, buf: &'a mut [u8; READ]) -> Option<&'a [u8]> {
        let kept = |files: &Files| files.status.is_some();
        if !self.open.get(&pid).is_some_and(kept) {
            let path = format!("/proc/{pid}/status");
            let file = self.opened(&path, |p| fs::File::open(p))?;
            // Read once without keeping it: its process's files are not kept, or the
            // walks have no room left.
            let unkept = match self.open.get_mut(&pid) {
                Some(files) => Kept::keep(file).map(|kept| files.status = Some(kept)).err(),
                None => Some(file),
            };
            if let Some(file) = unkept {
                let n = fresh_read(&file, buf, &path)?;
                return Some(&buf[..n]);
            }
        }
        let path = format!("/proc/{pid}/status");
        let n = fresh_read(&self.open.get(&pid)?.status.as_ref()?.0, buf, &path)?;
        Some(&buf[..n])
    }

    /// Pushes the children of every thread of `pid` (`threads` of them, from its `stat`):
    /// one `pread` of the kept `children` file of a one-thread process, a listing of its
    /// tasks otherwise.
    pub(crate) fn children(
        &mut self,
        pid: i32,
        threads: u64,
        out: &mut Vec<i32>,
    ) -> Result<(), NoChildrenFiles> {
        let mut buf = [0u8; READ];
        if threads <= 1 {
            if self.open.get(&pid).is_some_and(|f| f.children.is_none()) {
                let path = format!("/proc/{pid}/task/{pid}/children");
                // Not kept (no room left): the listing below reads it.
                let file = self.opened(&path, |p| fs::File::open(p));
                if let Some(files) = self.open.get_mut(&pid) {
                    files.children = file.and_then(|file| Kept::keep(file).ok());
                }
            }
            if let Some(files) = self.open.get(&pid) {
                match files
                    .children
                    .as_ref()
                    .and_then(|f| read_len(&f.0, &mut buf))
                {
                    Some(n) if n < READ => {
                        push_pids(&buf[..n], out);
                        return Ok(());
                    }
                    Some(_) => {} // more children than one read holds: read whole below
                    None => {}    // gone, or no children files: the listing tells which
                }
            }
        }
        let listing = format!("/proc/{pid}/task");
        let Some(tasks) = self.opened(&listing, |p| fs::read_dir(p)) else {
            return Ok(()); // the process is gone (or the walk is blind)
        };
        for task in tasks {
            let task = match task {
                Ok(task) => task,
                Err(e) => {
                    watched(&listing, &e);
                    continue;
                }
            };
            let path = task.path().join("children");
            let name = path.display().to_string();
            // A thread with more children than fit in one read is read whole.
            match self.retried(|| fs::File::open(&path)) {
                Ok(file) => match fresh_read(&file, &mut buf, &name) {
                    Some(n) if n < READ => push_pids(&buf[..n], out),
                    Some(_) => match fs::read(&path) {
                        Ok(text) => push_pids(&text, out),
                        Err(e) => watched(&name, &e),
                    },
                    None => {} // the thread ended meanwhile (or the walk is blind)
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && task.path().exists() => {
                    return Err(NoChildrenFiles);
                }
                Err(e) => watched(&name, &e), // the thread ended meanwhile, or blind
            }
        }
        Ok(())
    }

    /// What `open` opens from `path` (`None` if it fails: the process is gone, or the walk
    /// is blind, which is noted), see [`Self::retried`].
    fn opened<T>(&mut self, path: &str, open: impl Fn(&str) -> io::Result<T>) -> Option<T> {
        self.retried(|| open(path))
            .map_err(|e| watched(path, &e))
            .ok()
    }

    /// What `open` opens; when the referee is out of open files, the kept ones are closed
    /// first, none is kept from then on, and it is tried again.
    fn retried<T>(&mut self, open: impl Fn() -> io::Result<T>) -> io::Result<T> {
        match open() {
            Err(e) if matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE)) => {
                self.open.clear();
                self.unkept = true;
                open()
            }
            done => done,
        }
    }

    /// Closes the files of the processes not in `seen` (sorted here), once there are more
    /// files than processes seen.
    pub(crate) fn keep_only(&mut self, seen: &mut [i32]) {
        if self.open.len() > seen.len() {
            seen.sort_unstable();
            self.open.retain(|pid, _| seen.binary_search(pid).is_ok());
        }
    }
}

/// Reads a small `/proc` file whole from its start, with one `pread` (they are generated
/// whole at each read from offset 0); the length read.
fn read_len(file: &fs::File, buf: &mut [u8; READ]) -> Option<usize> {
    file.read_at(buf, 0).ok()
}

/// [`read_len`] of a file just opened at `path`: a failure for any reason but its process
/// being gone makes the walk blind.
fn fresh_read(file: &fs::File, buf: &mut [u8; READ], path: &str) -> Option<usize> {
    file.read_at(buf, 0).map_err(|e| watched(path, &e)).ok()
}

/// Notes that the walk is blind ([`crate::blind`]) if `error`, met on `path`, is not its
/// process (or thread) being gone.
fn watched(path: &str, error: &io::Error) {
    if !matches!(error.raw_os_error(), Some(libc::ENOENT | libc::ESRCH)) {
        crate::blind::note(path, error);
    }
}

fn push_pids(text: &[u8], out: &mut Vec<i32>) {
    out.extend(
        String::from_utf8_lossy(text)
            .split_ascii_whitespace()
            .filter_map(|p| p.parse::<i32>().ok()),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The environment variable that makes this test binary the out-of-files child below.
    const CHILD: &str = "PROC_FILES_OUT_OF_FILES_CHILD";

    /// Out of open files even once the kept ones are closed, a walk fails closed: the match
    /// on its thread is blind (its error names the file and `ulimit -n`), never a process
    /// skipped in silence. Run in a child (this test binary again) whose limit of open files
    /// is filled: the limit is the whole process's.
    #[test]
    fn a_walk_out_of_files_is_blind_not_silent() {
        if std::env::var_os(CHILD).is_some() {
            crate::blind::match_starts();
            let me = std::process::id() as i32;
            let limit = libc::rlimit {
                rlim_cur: 64,
                rlim_max: 64,
            };
            // SAFETY: a valid rlimit.
            assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) }, 0);
            let held: Vec<fs::File> = std::iter::from_fn(|| fs::File::open("/dev/null").ok())
                .take(64)
                .collect();
            let usage = crate::usage::Tracker::default().measure(me);
            drop(held);
            let blind = crate::blind::watched().expect_err("a blind walk went unnoticed");
            assert!(
                blind.to_string().contains("ulimit -n"),
                "{blind} ({usage:?})"
            );
            return;
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "proc_files::tests::a_walk_out_of_files_is_blind_not_silent",
                "--test-threads",
                "1",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && text.contains("1 passed"),
            "the child failed:\n{text}"
        );
    }
}
