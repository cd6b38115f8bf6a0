//! As root, a build runs under a champion uid of its own (`crate::sandbox::uid`), which must
//! be able to write the champion's folder: the folder is handed to that uid for the build
//! and given back after it, each file to its owner before, each new file to the folder's
//! owner. Links are never followed; a file hard-linked from outside the folder is refused
//! (the build could write through it).

use std::collections::HashMap;
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
        for (path, _) in &entries {
            if let Err(e) = std::os::unix::fs::lchown(path, Some(uid), Some(uid)) {
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
        let mut failed = Vec::new();
        for (path, meta) in &entries {
            let (uid, gid) = self
                .owners
                .get(&(meta.dev(), meta.ino()))
                .copied()
                .unwrap_or(self.default);
            if let Err(e) = std::os::unix::fs::lchown(path, Some(uid), Some(gid)) {
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
