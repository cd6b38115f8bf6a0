//! No network: each champion gets a network namespace of its own, with nothing in it but a
//! loopback interface that is down. Root unshares it directly; a user first unshares a
//! user namespace (mapping only its own uid and gid, so files and `getuid()` look the
//! same), which also makes `RLIMIT_NPROC` count the champion's processes alone.

use std::io;

use nix::libc;

use super::layer::Layer;

/// How the network namespace is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NetMode {
    Off,
    /// `unshare(CLONE_NEWNET)` (root).
    Root,
    /// `unshare(CLONE_NEWUSER | CLONE_NEWNET)` and identity uid/gid maps (a user).
    UserNs,
}

/// The contents of `uid_map` and `gid_map`, formatted before fork.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Maps {
    uid: [u8; 32],
    uid_len: usize,
    gid: [u8; 32],
    gid_len: usize,
}

impl Maps {
    /// `U U 1` and `G G 1` for the referee's effective ids.
    pub(crate) fn current() -> Maps {
        // SAFETY: no arguments.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let fill = |id: u32| {
            let text = format!("{id} {id} 1\n");
            let mut buf = [0u8; 32];
            buf[..text.len()].copy_from_slice(text.as_bytes());
            (buf, text.len())
        };
        let (uid, uid_len) = fill(uid);
        let (gid, gid_len) = fill(gid);
        Maps {
            uid,
            uid_len,
            gid,
            gid_len,
        }
    }
}

/// Which mode works here, tried in a short-lived child.
pub(crate) fn probe(root: bool) -> (NetMode, Layer) {
    let mode = if root { NetMode::Root } else { NetMode::UserNs };
    let maps = Maps::current();
    match try_in_child(|| enter(mode, Some(&maps))) {
        Ok(()) if root => (mode, Layer::On(String::new())),
        Ok(()) => (mode, Layer::On("on(userns)".into())),
        Err(e) if root => (
            NetMode::Off,
            Layer::Off(format!("unshare(CLONE_NEWNET): {e}")),
        ),
        Err(e) => (
            NetMode::Off,
            Layer::Off(format!(
                "no unprivileged user namespace: {e}; run as root or allow user namespaces"
            )),
        ),
    }
}

/// Enters a new network namespace (child side, async-signal-safe).
pub(crate) fn enter(mode: NetMode, maps: Option<&Maps>) -> io::Result<()> {
    match mode {
        NetMode::Off => Ok(()),
        // SAFETY: a plain syscall of the child.
        NetMode::Root => check(unsafe { libc::unshare(libc::CLONE_NEWNET) }),
        NetMode::UserNs => {
            // SAFETY: a plain syscall of the child.
            check(unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) })?;
            let Some(maps) = maps else {
                return Ok(());
            };
            write_file(c"/proc/self/setgroups", b"deny")?;
            write_file(c"/proc/self/uid_map", &maps.uid[..maps.uid_len])?;
            write_file(c"/proc/self/gid_map", &maps.gid[..maps.gid_len])
        }
    }
}

fn check(r: libc::c_int) -> io::Result<()> {
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// open/write/close, async-signal-safe.
pub(crate) fn write_file(path: &std::ffi::CStr, data: &[u8]) -> io::Result<()> {
    // SAFETY: valid C string and buffer.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let n = libc::write(fd, data.as_ptr().cast(), data.len());
        let err = io::Error::last_os_error();
        libc::close(fd);
        if n != data.len() as isize {
            return Err(err);
        }
    }
    Ok(())
}

/// Runs `step` in a forked child and reports whether it succeeded (the errno comes back as
/// the exit status).
pub(crate) fn try_in_child(step: impl Fn() -> io::Result<()>) -> io::Result<()> {
    use nix::sys::wait::{waitpid, WaitStatus};
    use nix::unistd::{fork, ForkResult};
    // SAFETY: the child only makes syscalls (step is async-signal-safe) and _exits.
    let child = match unsafe { fork() }.map_err(io::Error::from)? {
        ForkResult::Parent { child } => child,
        ForkResult::Child => {
            let code = match step() {
                Ok(()) => 0,
                Err(e) => e.raw_os_error().unwrap_or(libc::EINVAL).clamp(1, 255),
            };
            // SAFETY: ends the forked child without running the parent's destructors.
            unsafe { libc::_exit(code) };
        }
    };
    let status = loop {
        match waitpid(child, None) {
            Err(nix::errno::Errno::EINTR) => continue,
            other => break other.map_err(io::Error::from)?,
        }
    };
    match status {
        WaitStatus::Exited(_, 0) => Ok(()),
        WaitStatus::Exited(_, errno) => Err(io::Error::from_raw_os_error(errno)),
        other => Err(io::Error::other(format!("probe child ended: {other:?}"))),
    }
}
