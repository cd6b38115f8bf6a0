//! The zygote: a small process started once per referee (the referee's own executable,
//! freshly executed with [`ZYGOTE_ARG`]), from which every jail is cloned. Cloning from it
//! rather than from the referee keeps the referee's memory (gigabytes after large matches)
//! out of every champion and makes each clone cheap. It serves spawn requests on one
//! `SOCK_SEQPACKET` socket (fd 3): a JSON [`Spec`] with the champion's stdin, stdout,
//! stderr, its control and acknowledgement sockets and optionally its cgroup's directory
//! (the jail is cloned straight into that group); it answers
//! `ok <pid>` with a pidfd of the jail's init, or `err <why>`. It dies with the referee
//! (parent-death signal, and end of file on its socket), and its jails with it.

use std::collections::HashMap;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

use nix::libc;

use crate::init::{self, Fds};
use crate::sandbox::seccomp::{self, Filters};
use crate::{wire, Spec};

/// The first argument that makes the referee's executable a zygote.
pub const ZYGOTE_ARG: &str = "__jail-zygote";
/// The zygote's end of its socket.
const SOCKET_FD: RawFd = 3;

/// If this process was started as a zygote, serves and exits; otherwise returns.
/// The referee's `main` calls it first.
pub fn serve_if_zygote() {
    if std::env::args_os().nth(1).as_deref() == Some(std::ffi::OsStr::new(ZYGOTE_ARG)) {
        serve();
    }
}

/// Starts a zygote from `exe`; returns the referee's end of its socket and the process.
pub(crate) fn start(exe: &std::path::Path) -> std::io::Result<(OwnedFd, Child)> {
    let (ours, theirs) = wire::pair()?;
    let theirs_raw = theirs.as_raw_fd();
    let mut cmd = Command::new(exe);
    // What a champion sees of its jail's init (PID 1): `jail __jail-zygote`.
    cmd.arg0("jail")
        .arg(ZYGOTE_ARG)
        .env_clear()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    // SAFETY: dup2 and prctl only, between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::dup2(theirs_raw, SOCKET_FD) < 0
                || libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd.spawn()?;
    drop(theirs);
    Ok((ours, child))
}

fn serve() -> ! {
    // SAFETY: process-wide settings of this fresh, single-threaded process: exited jails
    // are reaped by the kernel (SIGCHLD ignored), and the zygote dies with the referee.
    // The signals that tell a job to stop (Slurm sends SIGTERM to every process of a
    // cancelled job) are ignored: the zygote and the jails' inits (which inherit this)
    // end with the referee, which decides what becomes of its matches; a champion killed
    // by such a signal is seen as disturbed from outside (`interrupt.rs`).
    unsafe {
        libc::signal(libc::SIGCHLD, libc::SIG_IGN);
        for signal in crate::signals::STOP_SIGNALS {
            libc::signal(signal, libc::SIG_IGN);
        }
        libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        );
        if libc::getppid() == 1 {
            libc::_exit(0);
        }
    }
    let mut filters: HashMap<bool, Option<Filters>> = HashMap::new();
    let mut nets = NetPool::default();
    // One buffer for every request (a fresh one cost a memset and page faults a spawn).
    let mut buf = vec![0u8; wire::MAX_MESSAGE];
    loop {
        let (n, fds) = match wire::recv_into(SOCKET_FD, &mut buf) {
            Ok(Some(m)) => m,
            // SAFETY: ends the zygote; its jails die with it.
            _ => unsafe { libc::_exit(0) },
        };
        let reply = match serde_json::from_slice::<Spec>(&buf[..n]) {
            Ok(spec) => {
                let net = (spec.pool_net && spec.map_user.is_none())
                    .then(|| nets.enter())
                    .flatten();
                let reply = if spec.seccomp {
                    let filter = filters
                        .entry(spec.deny_shared_memory)
                        .or_insert_with(|| seccomp::build(spec.deny_shared_memory).ok());
                    match filter.as_ref() {
                        Some(f) => clone_jail(&spec, fds, Some(f), net.is_some()),
                        // Never run a champion without the filter the report promised.
                        None => Err("cannot build the seccomp filter".into()),
                    }
                } else {
                    clone_jail(&spec, fds, None, net.is_some())
                };
                if let (Some(net), Ok((_, pidfd))) = (net, &reply) {
                    nets.lend(net, pidfd);
                }
                wipe(spec);
                reply
            }
            Err(e) => Err(format!("bad request: {e}")),
        };
        // Every jail is cloned from this process: leave no earlier request (another seat's
        // seed) in the memory the next one inherits.
        buf[..n].fill(0);
        let sent = match reply {
            Ok((pid, pidfd)) => wire::send(
                SOCKET_FD,
                format!("ok {pid}").as_bytes(),
                &[pidfd.as_raw_fd()],
            ),
            Err(why) => wire::send(SOCKET_FD, format!("err {why}").as_bytes(), &[]),
        };
        if sent.is_err() {
            // SAFETY: ends the zygote; its jails die with it.
            unsafe { libc::_exit(0) }
        }
    }
}

/// Network namespaces with no interface up, each lent to one live jail at a time and
/// taken back once that jail is gone (as root: creating one and having the kernel tear
/// it down was the largest cost of a jail, so a run creates as many as it has jails alive
/// at once, and every later jail enters one of them). No two live jails share one: the
/// unix sockets of a jail (bound or not, listed in `/proc/net/unix`) are seen by no
/// other. A jail's sockets close with its processes, before its init's pidfd says it is
/// gone.
#[derive(Default)]
struct NetPool {
    /// Free namespaces.
    free: Vec<OwnedFd>,
    /// Lent namespaces, with a pidfd of the jail's init.
    lent: Vec<(OwnedFd, OwnedFd)>,
}

impl NetPool {
    /// Moves this process into a free namespace (a new one when none is free) and returns
    /// it; `None` (the jail then gets a new namespace of its own) when that fails.
    fn enter(&mut self) -> Option<OwnedFd> {
        self.take_back();
        let net = match self.free.pop() {
            Some(net) => net,
            None => create_network()?,
        };
        // SAFETY: a plain syscall on this single-threaded process, with a namespace fd.
        (unsafe { libc::setns(net.as_raw_fd(), libc::CLONE_NEWNET) } == 0).then_some(net)
    }

    /// Lends `net` to the jail whose init has `pidfd`.
    fn lend(&mut self, net: OwnedFd, pidfd: &OwnedFd) {
        match pidfd.try_clone() {
            Ok(pidfd) => self.lent.push((net, pidfd)),
            // Not tracked: the namespace is dropped, never lent twice.
            Err(_) => drop(net),
        }
    }

    /// Frees the namespaces of the jails that are gone (their pidfd is readable).
    fn take_back(&mut self) {
        let mut i = 0;
        while i < self.lent.len() {
            let mut poll = libc::pollfd {
                fd: self.lent[i].1.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd, no wait.
            let gone = unsafe { libc::poll(&mut poll, 1, 0) } == 1;
            if gone {
                let (net, _) = self.lent.swap_remove(i);
                self.free.push(net);
            } else {
                i += 1;
            }
        }
    }
}

/// A new network namespace (this process moves into it), as a file descriptor.
fn create_network() -> Option<OwnedFd> {
    // SAFETY: plain syscalls on this single-threaded process; the path is a C string.
    unsafe {
        if libc::unshare(libc::CLONE_NEWNET) != 0 {
            return None;
        }
        let fd = libc::open(
            c"/proc/self/ns/net".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        (fd >= 0).then(|| OwnedFd::from_raw_fd(fd))
    }
}

/// Zeroes the environment and arguments of a request before their memory is freed: the
/// next jail is cloned from this process, and another seat's `PROLOGIN_SEED` must not be
/// in what it inherits.
fn wipe(spec: Spec) {
    let Spec { args, env, .. } = spec;
    let strings = args
        .into_iter()
        .chain(env.into_iter().flat_map(|(k, v)| [k, v]));
    for s in strings {
        let mut bytes = s.into_bytes();
        bytes.fill(0);
        std::hint::black_box(&bytes);
    }
}

/// Clones the jail's init into fresh namespaces (a network namespace too, unless
/// `in_pooled_net`: this process is in one of its [`NetPool`]). Returns its pid and a pidfd.
fn clone_jail(
    spec: &Spec,
    fds: Vec<OwnedFd>,
    filters: Option<&Filters>,
    in_pooled_net: bool,
) -> Result<(i32, OwnedFd), String> {
    let mut fds_left = fds.into_iter();
    let (Some(stdin), Some(stdout), Some(stderr), Some(ctl), Some(acks)) = (
        fds_left.next(),
        fds_left.next(),
        fds_left.next(),
        fds_left.next(),
        fds_left.next(),
    ) else {
        return Err("a spawn request needs five descriptors".into());
    };
    let mut fds = Fds {
        stdin,
        stdout,
        stderr,
        ctl,
        acks,
        cgroup_procs: None,
    };
    let cgroup = fds_left.next();
    let mut flags = libc::CLONE_NEWPID
        | libc::CLONE_NEWNS
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS
        | libc::CLONE_PIDFD;
    if spec.map_user.is_some() {
        flags |= libc::CLONE_NEWUSER;
    }
    if !in_pooled_net {
        flags |= libc::CLONE_NEWNET;
    }
    let mut pidfd: libc::c_int = -1;
    // Born in its cgroup: moving a process into a group by writing `cgroup.procs` takes
    // the kernel's lock of every thread group for writing, which waits for an RCU grace
    // period (milliseconds) at most starts; a clone into the group only reads it.
    let mut pid = match &cgroup {
        Some(dir) => clone_into(flags, dir, &mut pidfd),
        None => -1,
    };
    if pid < 0 {
        if let Some(dir) = &cgroup {
            // Kernels before 5.7, or a group on cgroup v1: the init joins by writing.
            fds.cgroup_procs = Some(open_procs(dir)?);
        }
        // SAFETY: clone without CLONE_VM behaves like fork (this process is
        // single-threaded); the pidfd is written to `pidfd` (the third argument on every
        // architecture).
        pid = unsafe {
            libc::syscall(
                libc::SYS_clone,
                (flags | libc::SIGCHLD) as libc::c_ulong,
                0usize,
                &mut pidfd as *mut libc::c_int,
                0usize,
                0usize,
            )
        };
    }
    if pid == 0 {
        init::run(spec, fds, filters);
    }
    if pid < 0 {
        let err = std::io::Error::last_os_error();
        let hint = match (spec.map_user, err.raw_os_error()) {
            (Some(_), Some(libc::EPERM | libc::ENOSPC | libc::EACCES)) => {
                " (unprivileged user namespaces are disabled or restricted on this machine)"
            }
            _ => "",
        };
        return Err(format!("cannot create the jail's namespaces: {err}{hint}"));
    }
    // SAFETY: the kernel gave us this pidfd.
    Ok((pid as i32, unsafe { OwnedFd::from_raw_fd(pidfd) }))
}

/// `clone3` of a fork-like child (no `CLONE_VM`) with `flags`, born in the cgroup of
/// directory `dir` (`CLONE_INTO_CGROUP`, kernel 5.7+, cgroup v2); the pidfd into `pidfd`.
/// Returns what the syscall returns: 0 in the child, its pid in the parent, -1 if not.
fn clone_into(flags: libc::c_int, dir: &OwnedFd, pidfd: &mut libc::c_int) -> libc::c_long {
    const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;
    let args = libc::clone_args {
        flags: flags as u64 | CLONE_INTO_CGROUP,
        pidfd: pidfd as *mut libc::c_int as u64,
        child_tid: 0,
        parent_tid: 0,
        exit_signal: libc::SIGCHLD as u64,
        stack: 0,
        stack_size: 0,
        tls: 0,
        set_tid: 0,
        set_tid_size: 0,
        cgroup: dir.as_raw_fd() as u64,
    };
    // SAFETY: clone3 without CLONE_VM and without a stack behaves like fork (this process
    // is single-threaded); the kernel reads `args` (its size given) and writes the pidfd.
    unsafe {
        libc::syscall(
            libc::SYS_clone3,
            &args as *const libc::clone_args,
            std::mem::size_of::<libc::clone_args>(),
        )
    }
}

/// The `cgroup.procs` of the cgroup of directory `dir`, open for writing.
fn open_procs(dir: &OwnedFd) -> Result<OwnedFd, String> {
    // SAFETY: a plain syscall on a valid descriptor and a static path.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            c"cgroup.procs".as_ptr(),
            libc::O_WRONLY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(format!(
            "cannot open the champion's cgroup.procs: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: the kernel gave us this descriptor.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_dir(path: &std::path::Path) -> OwnedFd {
        std::fs::File::open(path).unwrap().into()
    }

    /// A directory that is no cgroup is refused by the kernel before any child exists, so
    /// that `clone_jail` falls back to joining by a write (which then names the problem).
    #[test]
    fn a_clone_into_a_folder_that_is_no_cgroup_fails_without_a_child() {
        let dir = tempfile::tempdir().unwrap();
        let mut pidfd = -1;
        let pid = clone_into(0, &open_dir(dir.path()), &mut pidfd);
        if pid == 0 {
            // SAFETY: the unexpected child leaves at once.
            unsafe { libc::_exit(0) };
        }
        assert_eq!(pid, -1, "a child was created in a folder that is no cgroup");
        assert_eq!(pidfd, -1);
        let err = open_procs(&open_dir(dir.path())).unwrap_err();
        assert!(
            err.contains("cannot open the champion's cgroup.procs"),
            "{err}"
        );
    }
}
