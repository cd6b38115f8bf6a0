//! As root, a build runs under a champion uid of its own (`crate::sandbox::uid`), which must
//! be able to write the champion's folder: the folder is handed to that uid for the build
//! and given back after it, each file to its owner before, each new file to the folder's
//! owner. Links are never followed; a file hard-linked from outside the folder is refused
//! (the build could write through it). The folder's contestant may change it while the
//! referee works as root: every entry is reached beneath the folder, opened once, with no
//! link on the way (`openat2`), and changed through its descriptor, so that a folder swapped
//! for a link to elsewhere is refused, never followed. Given back, no file keeps a
//! set-user-id or set-group-id bit, nor write permission for everyone.

use std::collections::HashMap;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Most entries handed over: a champion's folder is its program and its data.
const MAX_ENTRIES: usize = 200_000;

/// A folder handed to a build's uid; [`Handover::give_back`] returns it.
pub(super) struct Handover {
    dir: PathBuf,
    /// Owner of each file (device, inode) before the build.
    owners: HashMap<(u64, u64), (u32, u32)>,
    /// The folder's owner: the owner of what the build made.
    default: (u32, u32),
}

impl Handover {
    /// Hands every file of `dir` to `uid` (and its group of the same number).
    pub(super) fn give(dir: &Path, uid: u32) -> Result<Handover, String> {
        let entries = walk(dir)?;
        let top = std::fs::symlink_metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut owners = HashMap::new();
        let mut seen: HashMap<(u64, u64), u64> = HashMap::new();
        for (_, meta) in &entries {
            owners.insert((meta.dev(), meta.ino()), (meta.uid(), meta.gid()));
            *seen.entry((meta.dev(), meta.ino())).or_default() += 1;
        }
        for (path, meta) in &entries {
            if !meta.is_dir() && meta.nlink() > seen[&(meta.dev(), meta.ino())] {
                return Err(format!(
                    "{} is a hard link to a file outside the folder: the build could write \
                     through it; replace it with a copy",
                    path.display()
                ));
            }
        }
        let handover = Handover {
            dir: dir.to_path_buf(),
            owners,
            default: (top.uid(), top.gid()),
        };
        let root = open_root(dir)?;
        for (path, _) in &entries {
            if let Err(e) = change(&root, dir, path, (uid, uid), false) {
                let _ = handover.give_back();
                return Err(format!(
                    "cannot hand {} to the build's uid {uid}: {e}",
                    path.display()
                ));
            }
        }
        Ok(handover)
    }

    /// Gives every file of the folder back to its owner before the build (a new one to
    /// the folder's owner).
    pub(super) fn give_back(self) -> Result<(), String> {
        let entries = walk(&self.dir)?;
        let root = open_root(&self.dir)?;
        let mut failed = Vec::new();
        for (path, meta) in &entries {
            let (uid, gid) = self
                .owners
                .get(&(meta.dev(), meta.ino()))
                .copied()
                .unwrap_or(self.default);
            if let Err(e) = change(&root, &self.dir, path, (uid, gid), true) {
                failed.push(format!("{}: {e}", path.display()));
            }
        }
        if failed.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "cannot give the built files back to their owners: {}",
                failed.join("; ")
            ))
        }
    }
}

/// The folder `dir`, opened once: every entry is reached beneath it.
fn open_root(dir: &Path) -> Result<OwnedFd, String> {
    std::fs::File::open(dir)
        .map(OwnedFd::from)
        .map_err(|e| format!("{}: {e}", dir.display()))
}

/// Gives the entry at `path` (under `dir`, opened as `root`) to `owner`, reached beneath
/// `root` with no link on the way and changed through its descriptor (a link itself, not
/// what it names); `strip`: without set-id bits or write for everyone.
fn change(
    root: &OwnedFd,
    dir: &Path,
    path: &Path,
    (uid, gid): (u32, u32),
    strip: bool,
) -> std::io::Result<()> {
    use nix::fcntl::{OFlag, OpenHow, ResolveFlag};
    use nix::libc;
    let rel = path.strip_prefix(dir).unwrap_or(Path::new("."));
    let rel = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    let how = OpenHow::new()
        .flags(OFlag::O_PATH | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC)
        .resolve(
            ResolveFlag::RESOLVE_BENEATH
                | ResolveFlag::RESOLVE_NO_SYMLINKS
                | ResolveFlag::RESOLVE_NO_MAGICLINKS,
        );
    let fd = nix::fcntl::openat2(root, rel, how).map_err(std::io::Error::from)?;
    // SAFETY: a valid descriptor and an empty C string.
    let r = unsafe {
        libc::fchownat(
            fd.as_raw_fd(),
            c"".as_ptr(),
            uid,
            gid,
            libc::AT_EMPTY_PATH | libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if r != 0 {
        return Err(std::io::Error::last_os_error());
    }
    if strip {
        let meta = nix::sys::stat::fstat(&fd).map_err(std::io::Error::from)?;
        let kind = meta.st_mode & libc::S_IFMT;
        let mode = meta.st_mode & 0o7777;
        let kept = mode & !(libc::S_ISUID | libc::S_ISGID | libc::S_IWOTH);
        if (kind == libc::S_IFDIR || kind == libc::S_IFREG) && kept != mode {
            // The descriptor's own entry in /proc names the file opened, not a path again.
            let own = format!("/proc/self/fd/{}", fd.as_raw_fd());
            std::fs::set_permissions(own, std::os::unix::fs::PermissionsExt::from_mode(kept))?;
        }
    }
    Ok(())
}

/// Every entry of `dir`, itself included, with its metadata, not following links.
fn walk(dir: &Path) -> Result<Vec<(PathBuf, std::fs::Metadata)>, String> {
    let meta = std::fs::symlink_metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut out = vec![(dir.to_path_buf(), meta)];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let entries =
            std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", folder.display()))?;
            let path = entry.path();
            let meta =
                std::fs::symlink_metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            if meta.is_dir() {
                stack.push(path.clone());
            }
            out.push((path, meta));
            if out.len() > MAX_ENTRIES {
                return Err(format!(
                    "{} holds more than {MAX_ENTRIES} files: too many for a champion's folder",
                    dir.display()
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    }

    /// A folder of the champion swapped for a link to elsewhere after the referee listed it
    /// (the contestant racing the hand-back): the entry under it is refused, and what lies
    /// elsewhere keeps its owner and mode; an entry of the folder itself loses write for
    /// everyone and its set-id bits.
    #[test]
    fn an_entry_behind_a_swapped_folder_is_refused_and_modes_are_stripped() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("me");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("victim"), "x").unwrap();
        std::fs::set_permissions(elsewhere.join("victim"), PermissionsExt::from_mode(0o666))
            .unwrap();
        std::fs::write(dir.join("mine"), "y").unwrap();
        std::fs::set_permissions(dir.join("mine"), PermissionsExt::from_mode(0o2777)).unwrap();
        let root = open_root(&dir).unwrap();
        std::fs::remove_dir(dir.join("sub")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join("sub")).unwrap();
        // SAFETY: plain id queries.
        let me = unsafe { (nix::libc::getuid(), nix::libc::getgid()) };
        let err = change(&root, &dir, &dir.join("sub/victim"), me, true).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(nix::libc::ELOOP), "{err}");
        assert_eq!(mode(&elsewhere.join("victim")), 0o666);
        change(&root, &dir, &dir.join("mine"), me, true).unwrap();
        assert_eq!(mode(&dir.join("mine")), 0o775);
    }
}
