//! As root, each live champion runs under a uid of its own (and the same gid), drawn at
//! random from the pool that starts at [`FIRST`], never as root: it cannot signal or
//! inspect the referee or another champion, and `RLIMIT_NPROC`, which applies to the uid,
//! bounds its processes. A uid is leased with an `flock` on a file under
//! `/run/lock/prologin-referee-uids` (or the temporary directory), so
//! concurrent referees on one machine never share one, and a dead referee's leases vanish
//! with it. The scratch directory is given to the champion's uid, mode 0700.

use std::fs;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use nix::libc;

use super::layer::Layer;

/// The first uid given to champions.
pub const FIRST: u32 = 200_000;
/// How many uids the pool spans.
pub const COUNT: u32 = 65_536;

pub(crate) struct Pool {
    locks: PathBuf,
}

pub(crate) fn probe(root: bool) -> (Option<Pool>, Layer) {
    if !root {
        return (
            None,
            Layer::Off("not root: champions run as you, in a user namespace".into()),
        );
    }
    match lock_dir() {
        Ok(locks) => (Some(Pool { locks }), Layer::On(format!("on({FIRST}+)"))),
        Err(e) => (None, Layer::Off(e)),
    }
}

fn lock_dir() -> Result<PathBuf, String> {
    let parent = if Path::new("/run/lock").is_dir() {
        PathBuf::from("/run/lock")
    } else {
        std::env::temp_dir()
    };
    let dir = parent.join("prologin-referee-uids");
    match fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
    }
    let meta = fs::symlink_metadata(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !meta.is_dir() || meta.uid() != 0 || meta.permissions().mode() & 0o022 != 0 {
        return Err(format!(
            "{} is not a directory owned by root and writable by root alone",
            dir.display()
        ));
    }
    Ok(dir)
}

impl Pool {
    /// Leases a free uid.
    pub(crate) fn lease(&self) -> Result<Lease, String> {
        // Start at a random uid of the pool: the uid a champion sees says nothing of the
        // match it plays (leased one after another, the uid of seat `s` of match `m` was a
        // base plus `3m + s`, which told a champion its match id, and in a gauntlet whether
        // it played as the candidate or the baseline); and concurrent referees rarely
        // probe the same files.
        let start: u32 = rand::random();
        for i in 0..COUNT {
            let uid = FIRST + (start.wrapping_add(i)) % COUNT;
            let path = self.locks.join(format!("uid-{uid}"));
            let file = match fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
            {
                Ok(file) => file,
                // Out of open files (or of memory, or the disk is full): no uid's lease can
                // open, and the real cause is said, not "all leased".
                Err(e) if is_ours(&e) => {
                    return Err(format!(
                        "cannot lease a champion uid: cannot open {}: {e}",
                        path.display()
                    ))
                }
                Err(_) => continue,
            };
            // SAFETY: a valid fd.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                return Ok(Lease { uid, _lock: file });
            }
        }
        Err(format!(
            "no free champion uid in {FIRST}..{} (all leased)",
            FIRST + COUNT
        ))
    }
}

/// Whether opening a lease file failed for a cause of the referee's, the same for every
/// uid (its open files, memory, the disk), rather than of that uid's file.
fn is_ours(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EMFILE | libc::ENFILE | libc::ENOMEM | libc::ENOSPC | libc::EROFS)
    )
}

/// A uid held for one champion until dropped (after its processes are swept).
pub(crate) struct Lease {
    uid: u32,
    _lock: fs::File,
}

impl Lease {
    pub(crate) fn uid(&self) -> u32 {
        self.uid
    }

    /// Gives `scratch` to the champion (mode 0700).
    pub(crate) fn own(&self, scratch: &Path) -> Result<(), String> {
        std::os::unix::fs::chown(scratch, Some(self.uid), Some(self.uid))
            .and_then(|()| fs::set_permissions(scratch, fs::Permissions::from_mode(0o700)))
            .map_err(|e| {
                format!(
                    "cannot give the scratch directory {} to uid {}: {e}",
                    scratch.display(),
                    self.uid
                )
            })
    }
}

/// Drops supplementary groups and switches gid and uid (child side, async-signal-safe).
pub(crate) fn switch(uid: u32) -> io::Result<()> {
    // SAFETY: plain syscalls.
    unsafe {
        if libc::setgroups(0, std::ptr::null()) != 0
            || libc::setresgid(uid, uid, uid) != 0
            || libc::setresuid(uid, uid, uid) != 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
