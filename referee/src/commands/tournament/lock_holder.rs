//! Who holds a run's lock, for the message that refuses a second referee: the process
//! `/proc/locks` lists on the lock's device and inode, with its name and user.

use std::os::unix::fs::MetadataExt;

/// "process 1234 (`python3`, uid 1001)", or `None` when the system does not tell (no
/// `/proc/locks`, the holder in another PID namespace, the lock released meanwhile).
pub(crate) fn describe(lock: &std::fs::File) -> Option<String> {
    let meta = lock.metadata().ok()?;
    let (major, minor) = (nix::libc::major(meta.dev()), nix::libc::minor(meta.dev()));
    let wanted = format!("{major:02x}:{minor:02x}:{}", meta.ino());
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    let pid = holder(&locks, &wanted)?;
    let name = std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .map(|n| n.trim().to_string())
        .unwrap_or_default();
    let uid = std::fs::metadata(format!("/proc/{pid}")).map(|m| m.uid());
    Some(match uid {
        Ok(uid) if !name.is_empty() => format!(
            "process {pid} (`{}`, uid {uid})",
            jail::untrusted::printable(&name)
        ),
        _ => format!("process {pid}"),
    })
}

/// The pid of the first `FLOCK` line of `locks` (`/proc/locks`) on `device_inode`
/// (`MAJ:MIN:INODE`, as that file writes it), waiters (`->`) left out.
fn holder(locks: &str, device_inode: &str) -> Option<u32> {
    locks.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        // `1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF`
        (fields.len() >= 6 && fields[1] == "FLOCK" && fields[5] == device_inode)
            .then(|| fields[4].parse().ok())
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_holder_is_read_from_proc_locks() {
        let locks = "1: POSIX  ADVISORY  WRITE 77 fd:01:5678 0 EOF\n\
                     2: FLOCK  ADVISORY  READ 1234 fd:01:5678 0 EOF\n\
                     2: -> FLOCK  ADVISORY  WRITE 99 fd:01:5678 0 EOF\n";
        assert_eq!(holder(locks, "fd:01:5678"), Some(1234));
        assert_eq!(holder(locks, "fd:01:5679"), None);
    }

    #[test]
    fn a_lock_held_here_names_this_process() {
        let file = tempfile::tempfile().unwrap();
        let held = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockSharedNonblock).unwrap();
        let said = describe(&held).expect("this kernel lists flocks in /proc/locks");
        assert!(
            said.starts_with(&format!("process {} (`", std::process::id())),
            "{said}"
        );
    }
}
