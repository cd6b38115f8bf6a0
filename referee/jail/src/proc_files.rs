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
//! An open `/proc/<pid>` file stays bound to its process: once the process is reaped its
//! reads fail, and it is opened again under the same pid (should a new process get it, the
//! caller tells them apart by start time), so a reused pid is never read through an old
//! process's file.

use nix::libc;
use std::collections::HashMap;
use std::fs;
use std::io;
use std::os::unix::fs::FileExt;

/// Most processes whose files are kept open (past them, files are opened and closed at
/// each read).
pub(crate) const KEPT: usize = 64;

/// Size of one read of a `/proc` file: `stat`, `status` and a `children` list of fewer
/// than about 500 processes fit; a longer `children` is read whole.
pub(crate) const READ: usize = 4096;

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
    stat: fs::File,
    status: Option<fs::File>,
    /// The main thread's `children`.
    children: Option<fs::File>,
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
            if let Some(n) = read_len(&files.stat, buf) {
                return Some(&buf[..n]);
            }
            self.open.remove(&pid);
        }
        let path = format!("/proc/{pid}/stat");
        let file = self.opened(&path, |p| fs::File::open(p))?;
        let n = fresh_read(&file, buf, &path)?;
        if self.open.len() < KEPT && !self.unkept {
            self.open.insert(
                pid,
                Files {
                    stat: file,
                    status: None,
                    children: None,
                },
            );
        }
        Some(&buf[..n])
    }

    /// The text of the process's `status`.
    pub(crate) fn status<'a>(&mut self, pid: i32, buf: &'a mut [u8; READ]) -> Option<&'a [u8]> {
        let kept = |files: &Files| files.status.is_some();
        if !self.open.get(&pid).is_some_and(kept) {
            let path = format!("/proc/{pid}/status");
            let file = self.opened(&path, |p| fs::File::open(p))?;
            match self.open.get_mut(&pid) {
                Some(files) => files.status = Some(file),
                None => {
                    let n = fresh_read(&file, buf, &path)?;
                    return Some(&buf[..n]);
                }
            }
        }
        let path = format!("/proc/{pid}/status");
        let n = fresh_read(self.open.get(&pid)?.status.as_ref()?, buf, &path)?;
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
                let file = self.opened(&path, |p| fs::File::open(p));
                if let Some(files) = self.open.get_mut(&pid) {
                    files.children = file;
                }
            }
            if let Some(files) = self.open.get(&pid) {
                match files.children.as_ref().and_then(|f| read_len(f, &mut buf)) {
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
