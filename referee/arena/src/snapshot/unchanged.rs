//! What lets the check before each start skip hashing a snapshot again: the identity of
//! every entry of it (device, inode, size, mode, owner, change time) when it last hashed to
//! its name, kept for the life of the referee's process.
//!
//! A snapshot is the referee's user's and writable by it alone (checked with these
//! identities each time), and its files are read-only: whoever changes one changes its
//! change time (`ctime`, which no call sets back), its inode (a file renamed over it) or its
//! size. The change time is read at the kernel's coarse clock, so a write in the same tick
//! as the last change would keep it: identities with a change younger than [`SETTLED`]
//! are never kept, and such a snapshot is hashed again at every start until it settles.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How old every change of a snapshot must be for its identities to be kept.
const SETTLED: Duration = Duration::from_secs(2);

/// One entry of a snapshot as the file system describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    path: PathBuf,
    device: u64,
    inode: u64,
    size: u64,
    mode: u32,
    owner: u32,
    /// The last change, in nanoseconds since the epoch.
    changed: i128,
}

impl Identity {
    /// The identity of the entry at `path` described by `meta`.
    pub fn of(path: &Path, meta: &std::fs::Metadata) -> Identity {
        Identity {
            path: path.to_path_buf(),
            device: meta.dev(),
            inode: meta.ino(),
            size: meta.size(),
            mode: meta.mode(),
            owner: meta.uid(),
            changed: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
        }
    }
}

/// The identities of each snapshot (by its folder) when it last hashed to its name.
static HASHED: Mutex<Option<HashMap<PathBuf, Vec<Identity>>>> = Mutex::new(None);

/// Whether the snapshot at `root`, whose entries are now `identity`, is unchanged since it
/// last hashed to its name in this process.
pub fn since_hashed(root: &Path, identity: &[Identity]) -> bool {
    let kept = HASHED.lock().unwrap_or_else(|e| e.into_inner());
    kept.as_ref()
        .and_then(|k| k.get(root))
        .is_some_and(|was| was == identity)
}

/// The snapshot at `root` hashed to its name with its entries as `identity`: kept if every
/// change of them is settled (older than [`SETTLED`]), else forgotten.
pub fn hashed(root: &Path, identity: Vec<Identity>) {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128);
    let settled = now - SETTLED.as_nanos() as i128;
    let mut kept = HASHED.lock().unwrap_or_else(|e| e.into_inner());
    let kept = kept.get_or_insert_with(HashMap::new);
    if identity.iter().all(|i| i.changed < settled) {
        kept.insert(root.to_path_buf(), identity);
    } else {
        kept.remove(root);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identities(dir: &Path) -> Vec<Identity> {
        let path = dir.join("champion");
        vec![Identity::of(&path, &std::fs::metadata(&path).unwrap())]
    }

    #[test]
    fn the_change_time_is_read_to_the_nanosecond() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("champion");
        std::fs::write(&file, b"a").unwrap();
        let meta = std::fs::metadata(&file).unwrap();
        // Just written: changed and modified at the same instant.
        let modified = meta.modified().unwrap().duration_since(UNIX_EPOCH).unwrap();
        assert_eq!(
            Identity::of(&file, &meta).changed,
            modified.as_nanos() as i128
        );
    }

    #[test]
    fn a_fresh_change_is_never_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("champion"), b"a").unwrap();
        hashed(dir.path(), identities(dir.path()));
        assert!(!since_hashed(dir.path(), &identities(dir.path())));
    }

    #[test]
    fn a_settled_snapshot_is_kept_until_an_entry_changes() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("champion");
        std::fs::write(&file, b"a").unwrap();
        let mut old = identities(dir.path());
        // As if it had changed long ago.
        old[0].changed -= 10 * 1_000_000_000;
        hashed(dir.path(), old.clone());
        assert!(since_hashed(dir.path(), &old));
        let mut other = old.clone();
        other[0].size += 1;
        assert!(!since_hashed(dir.path(), &other));
        let mut moved = old.clone();
        moved[0].inode += 1;
        assert!(!since_hashed(dir.path(), &moved));
        assert!(!since_hashed(&dir.path().join("x"), &old));
        // Hashed again while fresh: forgotten.
        hashed(dir.path(), identities(dir.path()));
        assert!(!since_hashed(dir.path(), &old));
    }
}
