//! Reading a tree of files that someone else may change while the referee reads it (a
//! contestant's folder, a run's snapshot): its top opened once, then every folder listed,
//! every entry looked at and every file opened through that descriptor, never by a path
//! again, so that a folder swapped for a link to elsewhere is refused by the kernel, never
//! followed; and whose rights a copy keeps to (what the tree's owner may read).

use std::fs::{File, Metadata, ReadDir};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use nix::fcntl::{OFlag, OpenHow, ResolveFlag};

/// Opens the top of a tree: `path`, a folder when `folder`, never through a link in its
/// last component; when `strict`, through no link at all (`path` is the canonical path
/// the referee resolved and checked: a link found on the way now was put there since).
pub fn open_top(path: &Path, folder: bool, strict: bool) -> io::Result<OwnedFd> {
    let mut flags = OFlag::O_RDONLY | OFlag::O_CLOEXEC | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK;
    if folder {
        flags |= OFlag::O_DIRECTORY;
    }
    let mut resolve = ResolveFlag::RESOLVE_NO_MAGICLINKS;
    if strict {
        resolve |= ResolveFlag::RESOLVE_NO_SYMLINKS;
    }
    let how = OpenHow::new().flags(flags).resolve(resolve);
    nix::fcntl::openat2(nix::fcntl::AT_FDCWD, path, how).map_err(io::Error::from)
}

/// Whether `error`, of opening `path` with [`open_top`], says that a link stood where
/// none may (a folder that is now a link is "not a directory" to the kernel).
pub fn is_link_refused(error: &io::Error, path: &Path) -> bool {
    match error.raw_os_error() {
        Some(nix::libc::ELOOP) => true,
        Some(nix::libc::ENOTDIR) => {
            std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        }
        _ => false,
    }
}

/// Opens `rel` (relative to `root`) without leaving `root`, whatever links or renamed
/// folders lie on the way, and without following a last link or waiting on a FIFO.
pub fn open(root: &OwnedFd, rel: &Path, folder: bool) -> io::Result<File> {
    let mut flags = OFlag::O_RDONLY | OFlag::O_CLOEXEC | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK;
    if folder {
        flags |= OFlag::O_DIRECTORY;
    }
    open_with(root, rel, flags, ResolveFlag::empty())
}

fn open_with(root: &OwnedFd, rel: &Path, flags: OFlag, extra: ResolveFlag) -> io::Result<File> {
    let rel = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    let how = OpenHow::new()
        .flags(flags)
        .resolve(ResolveFlag::RESOLVE_BENEATH | ResolveFlag::RESOLVE_NO_MAGICLINKS | extra);
    let fd = nix::fcntl::openat2(root, rel, how).map_err(io::Error::from)?;
    Ok(File::from(fd))
}

/// How to open a name beneath a folder through no link at all (no symbolic or magic link on
/// the way, nor last), without leaving its file system: `flags` and that resolution.
pub(crate) fn strictly(flags: OFlag) -> OpenHow {
    OpenHow::new().flags(flags).resolve(
        ResolveFlag::RESOLVE_BENEATH
            | ResolveFlag::RESOLVE_NO_SYMLINKS
            | ResolveFlag::RESOLVE_NO_MAGICLINKS
            | ResolveFlag::RESOLVE_NO_XDEV,
    )
}

/// What `rel` beneath `root` is (a link is a link, not what it names).
pub fn stat(root: &OwnedFd, rel: &Path) -> io::Result<Metadata> {
    let flags = OFlag::O_PATH | OFlag::O_CLOEXEC | OFlag::O_NOFOLLOW;
    open_with(root, rel, flags, ResolveFlag::empty())?.metadata()
}

/// The entries of the folder `rel` beneath `root`, listed through a descriptor of it, and
/// what that folder is.
pub fn list(root: &OwnedFd, rel: &Path) -> io::Result<(ReadDir, Metadata)> {
    let dir = open(root, rel, true)?;
    let meta = dir.metadata()?;
    Ok((entries(&dir)?, meta))
}

/// The entries of the folder open as `dir`, listed through its descriptor's own entry in
/// /proc, which names the folder opened, not a path again.
pub fn entries(dir: &impl AsRawFd) -> io::Result<ReadDir> {
    std::fs::read_dir(format!("/proc/self/fd/{}", dir.as_raw_fd()))
}

/// Where the link `rel` beneath `root` leads, as a path relative to `root`, with what it
/// leads to; `None` when it leads out of `root` or nowhere. Links inside are followed,
/// never out.
pub fn link_inside(root: &OwnedFd, rel: &Path) -> Option<(PathBuf, Metadata)> {
    let top = std::fs::read_link(format!("/proc/self/fd/{}", root.as_raw_fd())).ok()?;
    let link = open_with(
        root,
        rel,
        OFlag::O_PATH | OFlag::O_CLOEXEC | OFlag::O_NOFOLLOW,
        ResolveFlag::empty(),
    )
    .ok()?;
    // readlinkat(fd, "") of an O_PATH descriptor of a link reads that link.
    let mut target = PathBuf::from(nix::fcntl::readlinkat(&link, "").ok()?);
    if target.is_absolute() {
        // A link naming a file inside by its absolute path is still inside.
        target = target.strip_prefix(&top).ok()?.to_path_buf();
    } else {
        target = rel.parent().unwrap_or(Path::new("")).join(target);
    }
    let found = open_with(
        root,
        &target,
        OFlag::O_PATH | OFlag::O_CLOEXEC,
        ResolveFlag::empty(),
    )
    .ok()?;
    let meta = found.metadata().ok()?;
    let now = std::fs::read_link(format!("/proc/self/fd/{}", found.as_raw_fd())).ok()?;
    let inside = now.strip_prefix(&top).ok()?.to_path_buf();
    Some((inside, meta))
}

/// Whether `owner` may read what `meta` describes (a folder: list and enter it), by its
/// mode alone: the owner's bits when it is `owner`'s, else everyone's (a group's bits are
/// not counted: the referee does not know `owner`'s groups). Root may read anything.
pub fn readable_by(owner: u32, meta: &Metadata) -> bool {
    if owner == 0 {
        return true;
    }
    let need = if meta.is_dir() { 0o5 } else { 0o4 };
    let bits = if meta.uid() == owner {
        meta.mode() >> 6
    } else {
        meta.mode()
    };
    bits & need == need
}
