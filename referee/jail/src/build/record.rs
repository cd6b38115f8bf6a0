//! What a hand-over of an older version changed, written down before it changed anything,
//! in the referee's own state (a folder only root can write, out of every jail:
//! `state_dir`): the build's uid, the folder's owner and each file's owner. A referee
//! killed during such a build left its record behind, and the next `referee build` of that
//! folder gives the folder back from it first. The record is named after the folder's
//! device and inode, not its path, which the contestant controls.

use std::collections::HashMap;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Where the records are kept, under the referee's state folder: `$XDG_STATE_HOME` (or
/// `~/.local/state`, or `/var/lib` without either) `/prologin-referee/builds`.
const BUILDS: &str = "prologin-referee/builds";

/// A hand-over, as written down.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Record {
    pub uid: u32,
    /// The folder's owner: the owner of every file the build made.
    pub default: (u32, u32),
    /// Owner of each file (device, inode) before the build.
    pub owners: HashMap<(u64, u64), (u32, u32)>,
}

/// The folder of the records, made (mode 0700) on first use; refused when someone else
/// than the referee's user could write it.
pub(super) fn state_dir() -> Result<PathBuf, String> {
    let state = crate::state::base().unwrap_or_else(|| PathBuf::from("/var/lib"));
    let dir = state.join(BUILDS);
    let made = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o755)
        .create(dir.parent().unwrap_or(&dir))
        .and_then(
            |()| match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
                other => other,
            },
        );
    let meta = made
        .and_then(|()| std::fs::symlink_metadata(&dir))
        .map_err(|e| {
            format!(
                "cannot keep the record of a build's hand-over in {} ({e}): set \
                 XDG_STATE_HOME to a folder of the referee's user",
                dir.display()
            )
        })?;
    // SAFETY: no arguments.
    let me = unsafe { nix::libc::geteuid() };
    if !meta.is_dir() || meta.uid() != me || meta.permissions().mode() & 0o022 != 0 {
        return Err(format!(
            "{} must be a folder of the referee's user that no one else can write (it keeps \
             the owners of the folders handed to builds): fix it, or set XDG_STATE_HOME to \
             another folder of the referee's user",
            dir.display()
        ));
    }
    Ok(dir)
}

fn path(state: &Path, (dev, ino): (u64, u64)) -> PathBuf {
    state.join(format!("{dev}-{ino}"))
}

/// Writes the record of the folder `id` (synced, in place at once by a rename), as an
/// older version did before handing a folder over.
#[cfg(test)]
pub(super) fn write(state: &Path, id: (u64, u64), record: &Record) -> Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let target = path(state, id);
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", target.display());
    let mut text = format!(
        "uid {}\nowner {} {}\n",
        record.uid, record.default.0, record.default.1
    );
    for ((dev, ino), (uid, gid)) in &record.owners {
        text.push_str(&format!("{dev} {ino} {uid} {gid}\n"));
    }
    let partial = target.with_extension("partial");
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&partial)
        .map_err(fail)?;
    file.write_all(text.as_bytes()).map_err(fail)?;
    file.sync_all().map_err(fail)?;
    std::fs::rename(&partial, &target).map_err(fail)
}

/// The record of the folder `id` left by a build that did not finish, if any.
pub(super) fn read(state: &Path, id: (u64, u64)) -> Result<Option<Record>, String> {
    let target = path(state, id);
    let text = match std::fs::read_to_string(&target) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", target.display())),
    };
    parse(&text).map(Some).ok_or_else(|| {
        format!(
            "{} is not a record of a hand-over: remove it",
            target.display()
        )
    })
}

/// Removes the record of the folder `id`: its folder is given back.
pub(super) fn remove(state: &Path, id: (u64, u64)) -> Result<(), String> {
    let target = path(state, id);
    match std::fs::remove_file(&target) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("cannot remove {}: {e}", target.display()))
        }
        _ => Ok(()),
    }
}

fn parse(text: &str) -> Option<Record> {
    let mut lines = text.lines();
    let uid = lines.next()?.strip_prefix("uid ")?.parse().ok()?;
    let mut owner = lines.next()?.strip_prefix("owner ")?.split(' ');
    let default = (owner.next()?.parse().ok()?, owner.next()?.parse().ok()?);
    let mut owners = HashMap::new();
    for line in lines {
        let f: Vec<&str> = line.split(' ').collect();
        if f.len() != 4 {
            return None;
        }
        owners.insert(
            (f[0].parse().ok()?, f[1].parse().ok()?),
            (f[2].parse().ok()?, f[3].parse().ok()?),
        );
    }
    Some(Record {
        uid,
        default,
        owners,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written_and_garbage_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let record = Record {
            uid: 201234,
            default: (1000, 1001),
            owners: HashMap::from([((1, 2), (1000, 1001)), ((1, 3), (0, 0))]),
        };
        write(tmp.path(), (7, 9), &record).unwrap();
        assert_eq!(read(tmp.path(), (7, 9)).unwrap(), Some(record));
        assert_eq!(read(tmp.path(), (7, 10)).unwrap(), None);
        std::fs::write(tmp.path().join("7-10"), "uid x\n").unwrap();
        assert!(read(tmp.path(), (7, 10)).unwrap_err().contains("remove it"));
        remove(tmp.path(), (7, 9)).unwrap();
        assert_eq!(read(tmp.path(), (7, 9)).unwrap(), None);
    }
}
