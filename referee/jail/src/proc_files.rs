//! The `/proc/<pid>` files of the processes a walk of a champion's tree reads again and
//! again (`stat`, `status`, the main thread's `children`), kept open between walks: a walk
//! is then a few `pread`s instead of opens, reads, directory listings and closes. Used by
//! both walks, the jail's ([`crate::usage::Tracker`], at the end of every callback) and the
//! one of a champion without the jail (`champion::clock`, at the start of every callback).
//!
//! A walk never leaves a process unwatched for want of open files: when the referee is out
//! of them (`EMFILE`, `ENFILE`: a champion of many processes makes it keep hundreds), the
//! kept files are closed, none is kept from then on, and the file is opened again.
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
        let file = self.opened(|| fs::File::open(format!("/proc/{pid}/stat")))?;
        let n = read_len(&file, buf)?;
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
            let file = self.opened(|| fs::File::open(format!("/proc/{pid}/status")))?;
            match self.open.get_mut(&pid) {
                Some(files) => files.status = Some(file),
                None => {
                    let n = read_len(&file, buf)?;
                    return Some(&buf[..n]);
                }
            }
        }
        let n = read_len(self.open.get(&pid)?.status.as_ref()?, buf)?;
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
                let file =
                    self.opened(|| fs::File::open(format!("/proc/{pid}/task/{pid}/children")));
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
        let Some(tasks) = self.opened(|| fs::read_dir(format!("/proc/{pid}/task"))) else {
            return Ok(()); // the process is gone
        };
        for task in tasks.flatten() {
            let path = task.path().join("children");
            // A thread with more children than fit in one read is read whole.
            match self.retried(|| fs::File::open(&path)) {
                Ok(file) => match read_len(&file, &mut buf) {
                    Some(n) if n < READ => push_pids(&buf[..n], out),
                    _ => push_pids(
                        fs::read_to_string(&path).unwrap_or_default().as_bytes(),
                        out,
                    ),
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && task.path().exists() => {
                    return Err(NoChildrenFiles);
                }
                Err(_) => {} // the thread ended meanwhile
            }
        }
        Ok(())
    }

    /// What `open` opens (`None` if it fails: the process is gone), see [`Self::retried`].
    fn opened<T>(&mut self, open: impl Fn() -> io::Result<T>) -> Option<T> {
        self.retried(open).ok()
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

fn push_pids(text: &[u8], out: &mut Vec<i32>) {
    out.extend(
        String::from_utf8_lossy(text)
            .split_ascii_whitespace()
            .filter_map(|p| p.parse::<i32>().ok()),
    );
}
