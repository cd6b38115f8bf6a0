//! The entries of a champion's folder, reached through descriptors only: the folder is
//! opened once (no link anywhere in its path), and every entry beneath it is opened one
//! name at a time relative to its own folder's descriptor, never following a link, never
//! leaving the folder's file system. A contestant who renames or swaps anything meanwhile
//! can make the walk miss an entry or meet one of its own files, never reach elsewhere.

use std::ffi::OsString;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use nix::fcntl::{OFlag, OpenHow, ResolveFlag};
use nix::sys::stat::{FileStat, SFlag};

/// A champion's folder, opened once: the hand-over, the build and the hand-back all act on
/// this descriptor, whatever its path names meanwhile.
pub(super) struct Folder {
    pub fd: OwnedFd,
    pub stat: FileStat,
}

impl Folder {
    /// Opens `dir`, a canonical path (no link in it): refused when a link appeared in it
    /// since (a contestant owning a parent swapped it), or when it is not a folder.
    pub(super) fn open(dir: &Path) -> Result<Folder, String> {
        let fd = crate::beneath::open_top(dir, true, true).map_err(|e| {
            format!(
                "cannot open the folder {} without following a link ({e}): was it or a \
                 folder above it replaced by a link while the referee opened it?",
                dir.display()
            )
        })?;
        let stat = nix::sys::stat::fstat(&fd).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Folder { fd, stat })
    }

    /// Opens the folder `name` beneath `parent`, through no link.
    pub(super) fn beneath(parent: &OwnedFd, name: &str) -> Result<Folder, String> {
        let how = OpenHow::new()
            .flags(OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC)
            .resolve(ResolveFlag::RESOLVE_BENEATH | ResolveFlag::RESOLVE_NO_SYMLINKS);
        let fd = nix::fcntl::openat2(parent, name, how).map_err(|e| format!("{name}: {e}"))?;
        let stat = nix::sys::stat::fstat(&fd).map_err(|e| format!("{name}: {e}"))?;
        Ok(Folder { fd, stat })
    }

    /// The device and inode of the folder: what is given back must be what was handed.
    pub(super) fn id(&self) -> (u64, u64) {
        id(&self.stat)
    }
}

/// The device and inode of a file.
pub(super) fn id(stat: &FileStat) -> (u64, u64) {
    (stat.st_dev, stat.st_ino)
}

pub(super) fn is_dir(stat: &FileStat) -> bool {
    SFlag::from_bits_truncate(stat.st_mode & SFlag::S_IFMT.bits()) == SFlag::S_IFDIR
}

/// One folder being listed: its descriptor, the names left to visit, where it is.
struct Frame {
    dir: OwnedFd,
    names: std::vec::IntoIter<OsString>,
    rel: PathBuf,
    /// The folder's own entry (`O_PATH`) and status, visited after its contents.
    own: Option<(OwnedFd, FileStat)>,
}

/// Visits every entry beneath `folder` (not the folder itself), each as an `O_PATH`
/// descriptor with its status and its path relative to the folder: a folder before its
/// contents, or after them when `post`. An entry that cannot be reached is named in the
/// returned list and skipped; the walk goes on with the others.
pub(super) fn walk(
    folder: &Folder,
    post: bool,
    visit: &mut dyn FnMut(&OwnedFd, &FileStat, &Path),
) -> Vec<String> {
    let mut problems = Vec::new();
    let top = match open_dir(folder.fd.as_fd(), Path::new("."), &folder.stat) {
        Ok(dir) => dir,
        Err(e) => return vec![format!("the folder: {e}")],
    };
    let mut stack = vec![frame(top, PathBuf::new(), None, &mut problems)];
    while let Some(current) = stack.last_mut() {
        let Some(name) = current.names.next() else {
            let done = stack.pop().expect("a frame");
            if let Some((fd, stat)) = done.own {
                if post {
                    visit(&fd, &stat, &done.rel);
                }
            }
            continue;
        };
        let rel = current.rel.join(&name);
        let how = crate::beneath::strictly(OFlag::O_PATH | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC);
        let entry = match nix::fcntl::openat2(current.dir.as_fd(), name.as_os_str(), how) {
            Ok(fd) => fd,
            Err(e) => {
                problems.push(format!("{}: {e}", rel.display()));
                continue;
            }
        };
        let stat = match nix::sys::stat::fstat(&entry) {
            Ok(stat) => stat,
            Err(e) => {
                problems.push(format!("{}: {e}", rel.display()));
                continue;
            }
        };
        if !is_dir(&stat) {
            visit(&entry, &stat, &rel);
            continue;
        }
        if !post {
            visit(&entry, &stat, &rel);
        }
        match open_dir(current.dir.as_fd(), Path::new(&name), &stat) {
            Ok(dir) => {
                let next = frame(dir, rel, Some((entry, stat)), &mut problems);
                stack.push(next);
            }
            Err(e) => {
                problems.push(format!("{}: {e}", rel.display()));
                if post {
                    visit(&entry, &stat, &rel);
                }
            }
        }
    }
    problems
}

/// Opens the folder `name` under `parent` for listing, checking that it is still the
/// entry `expected` (not one swapped in since it was looked at).
fn open_dir(
    parent: std::os::fd::BorrowedFd,
    name: &Path,
    expected: &FileStat,
) -> nix::Result<OwnedFd> {
    let how = crate::beneath::strictly(
        OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
    );
    let fd = nix::fcntl::openat2(parent, name, how)?;
    let stat = nix::sys::stat::fstat(&fd)?;
    if id(&stat) != id(expected) {
        return Err(nix::errno::Errno::ESTALE);
    }
    Ok(fd)
}

/// A frame for the folder `dir`, its names read at once (the listing is then closed).
fn frame(
    dir: OwnedFd,
    rel: PathBuf,
    own: Option<(OwnedFd, FileStat)>,
    problems: &mut Vec<String>,
) -> Frame {
    let listed = crate::beneath::entries(&dir)
        .and_then(|entries| entries.map(|e| e.map(|e| e.file_name())).collect());
    let names: Vec<OsString> = listed.unwrap_or_else(|e| {
        problems.push(format!("listing {}: {e}", rel.display()));
        Vec::new()
    });
    Frame {
        dir,
        names: names.into_iter(),
        rel,
        own,
    }
}
