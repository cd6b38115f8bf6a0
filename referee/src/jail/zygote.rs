//! The zygote: a small process started once per referee (the referee's own executable,
//! freshly executed with [`ZYGOTE_ARG`]), from which every jail is cloned. Cloning from it
//! rather than from the referee keeps the referee's memory (gigabytes after large matches)
//! out of every champion and makes each clone cheap. It serves spawn requests on one
//! `SOCK_SEQPACKET` socket (fd 3): a JSON [`Spec`] with the champion's stdin, stdout,
//! stderr, its control and acknowledgement sockets and optionally its cgroup's
//! `cgroup.procs`; it answers
//! `ok <pid>` with a pidfd of the jail's init, or `err <why>`. It dies with the referee
//! (parent-death signal, and end of file on its socket), and its jails with it.

use std::collections::HashMap;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

use nix::libc;

use super::init::{self, Fds};
use super::{wire, Spec};
use crate::sandbox::seccomp::{self, Filters};

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
        for signal in crate::interrupt::STOP_SIGNALS {
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
    // Whether this process is in its own empty network namespace (tried at the first
    // request that may share one: `Spec::share_net`).
    let mut empty_net: Option<bool> = None;
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
                let share_net = spec.share_net
                    && spec.map_user.is_none()
                    && *empty_net.get_or_insert_with(enter_empty_network);
                let reply = if spec.seccomp {
                    let filter = filters
                        .entry(spec.deny_shared_memory)
                        .or_insert_with(|| seccomp::build(spec.deny_shared_memory).ok());
                    match filter.as_ref() {
                        Some(f) => clone_jail(&spec, fds, Some(f), share_net),
                        // Never run a champion without the filter the report promised.
                        None => Err("cannot build the seccomp filter".into()),
                    }
                } else {
                    clone_jail(&spec, fds, None, share_net)
                };
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

/// Moves this process (as root) into a new network namespace, which has no interface up
/// and which the jails cloned with [`Spec::share_net`] then share. Whether it did.
fn enter_empty_network() -> bool {
    // SAFETY: a plain syscall on this single-threaded process.
    unsafe { libc::unshare(libc::CLONE_NEWNET) == 0 }
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

/// Clones the jail's init into fresh namespaces. Returns its pid and a pidfd.
fn clone_jail(
    spec: &Spec,
    fds: Vec<OwnedFd>,
    filters: Option<&Filters>,
    share_net: bool,
) -> Result<(i32, OwnedFd), String> {
    let mut fds = fds.into_iter();
    let (Some(stdin), Some(stdout), Some(stderr), Some(ctl), Some(acks)) =
        (fds.next(), fds.next(), fds.next(), fds.next(), fds.next())
    else {
        return Err("a spawn request needs five descriptors".into());
    };
    let fds = Fds {
        stdin,
        stdout,
        stderr,
        ctl,
        acks,
        cgroup_procs: fds.next(),
    };
    let mut flags = libc::CLONE_NEWPID
        | libc::CLONE_NEWNS
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS
        | libc::CLONE_PIDFD
        | libc::SIGCHLD;
    if spec.map_user.is_some() {
        flags |= libc::CLONE_NEWUSER;
    }
    if !share_net {
        flags |= libc::CLONE_NEWNET;
    }
    let mut pidfd: libc::c_int = -1;
    // SAFETY: clone without CLONE_VM behaves like fork (this process is single-threaded);
    // the pidfd is written to `pidfd` (the third argument on every architecture).
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            flags as libc::c_ulong,
            0usize,
            &mut pidfd as *mut libc::c_int,
            0usize,
            0usize,
        )
    };
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
