//! Folders handed over by an older version of `referee build`, which built in place under
//! the build's uid and handed the folder to that uid for the build: a referee killed
//! during such a build left the folder to it, and its record of whom each file belonged to
//! in the referee's own state (`record`). The next build of that folder gives it back
//! first ([`recover`]). The hand-back acts on the folder opened once (`walk::Folder`),
//! never on its path: every entry is reached beneath it, one name at a time, never through
//! a link, and changed through its descriptor. It gives back only what the build's uid
//! owns, never stops at the first file it cannot give back, and leaves no file with a
//! set-user-id or set-group-id bit, nor write permission for everyone. (Builds now run in
//! a tmpfs and hand nothing over: `super::copy`.)

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;

use nix::sys::stat::FileStat;

use super::record::{self, Record};
use super::walk::{self, Folder};

/// Gives `folder` back from the record a build left behind in `state` (its referee was
/// killed, or its hand-back failed), if there is one: `Some` says so.
pub(super) fn recover(folder: &Folder, state: &Path) -> Result<Option<String>, String> {
    let Some(record) = record::read(state, folder.id())? else {
        return Ok(None);
    };
    give_back(folder, &record)?;
    record::remove(state, folder.id())?;
    Ok(Some(format!(
        "an earlier build of this folder did not give it back (its referee was stopped): \
         given back to its owners from the record in {}",
        state.display()
    )))
}

/// Gives every file of `folder` that the build's uid owns back to its owner in `record`
/// (one the build made, to the folder's owner), children before their folder and the
/// folder last. It never stops early: a file that cannot be given back is named in the
/// error, every other one is given back. A file the build's uid does not own is left as
/// it is (so is anything a contestant could put in meanwhile: its own files, or a link).
fn give_back(folder: &Folder, record: &Record) -> Result<(), String> {
    crate::raise_open_files();
    let mut failed = Vec::new();
    let mut back = |fd: &OwnedFd, stat: &FileStat, rel: &Path| {
        if stat.st_uid != record.uid || stat.st_dev != folder.stat.st_dev {
            return;
        }
        let owner = record
            .owners
            .get(&walk::id(stat))
            .copied()
            .unwrap_or(record.default);
        if let Err(e) = change(fd, owner, true) {
            failed.push(format!("{}: {e}", shown(rel)));
        }
    };
    let problems = walk::walk(folder, true, &mut back);
    match nix::sys::stat::fstat(&folder.fd) {
        Ok(stat) if walk::id(&stat) == folder.id() => back(&folder.fd, &stat, Path::new("")),
        Ok(_) => failed.push("the folder is not the one handed".into()),
        Err(e) => failed.push(format!("the folder: {e}")),
    }
    failed.extend(problems);
    if failed.is_empty() {
        return Ok(());
    }
    let (count, list) = super::listed(failed);
    Err(format!(
        "cannot give {count} built file(s) back to their owners: {list}"
    ))
}

/// An entry's path inside the folder, for messages.
fn shown(rel: &Path) -> String {
    if rel.as_os_str().is_empty() {
        "the folder".into()
    } else {
        crate::untrusted::printable_path(rel)
    }
}

/// Gives the entry opened as `fd` (`O_PATH`, never following a link) to `owner`: the
/// entry itself, not what a link names; `strip`: without set-id bits or write for
/// everyone.
fn change(fd: &OwnedFd, (uid, gid): (u32, u32), strip: bool) -> std::io::Result<()> {
    use nix::libc;
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
        let meta = nix::sys::stat::fstat(fd).map_err(std::io::Error::from)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    }

    /// A folder of the champion swapped for a link to elsewhere (the contestant racing the
    /// hand-back): what lies elsewhere keeps its mode; an entry of the folder itself loses
    /// write for everyone and its set-id bits.
    #[test]
    fn a_link_swapped_in_is_never_followed_and_modes_are_stripped() {
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
        let folder = Folder::open(&dir.canonicalize().unwrap()).unwrap();
        std::fs::remove_dir(dir.join("sub")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join("sub")).unwrap();
        // SAFETY: plain id queries.
        let me = unsafe { (nix::libc::getuid(), nix::libc::getgid()) };
        let record = Record {
            uid: me.0,
            default: me,
            owners: HashMap::new(),
        };
        give_back(&folder, &record).unwrap();
        assert_eq!(mode(&elsewhere.join("victim")), 0o666);
        assert_eq!(mode(&dir.join("mine")), 0o775);
    }
}
