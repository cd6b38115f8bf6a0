//! The jail's init serving the shared futex calls of its champion, sent by the futex filter
//! (`sandbox/futex.rs`) to the listener the init holds: waits kept pending, never queued
//! in the kernel, and answered as `futex_call.rs` decides.
//!
//! A call is never let through (`SECCOMP_USER_NOTIF_FLAG_CONTINUE` is never answered):
//! checking the address and then letting the kernel queue the waiter is a race that another
//! thread wins by mapping another page there. The word is read with `process_vm_readv`
//! (the init may: it is PID 1 of the jail, root in it) and the notification then checked
//! still valid (`SECCOMP_IOCTL_NOTIF_ID_VALID`): the pid read was the caller's, not a pid
//! reused since. A notification whose caller died or took a signal is gone: answering it
//! fails with `ENOENT`, which is ignored. A frozen champion's waits are such: a stop (the
//! cgroup freezer or `SIGSTOP`) interrupts them, and they are made again, from the
//! caller's word, once it is thawed (a relative timeout then starts again: frozen time is
//! not the champion's). The init looks only at waits that are pending, so it costs nothing
//! while the champion is frozen, and a few microseconds a look while it plays.

use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use nix::libc;

use crate::futex_call::{self, Call, Deadline, Timeout, Verdict};

/// A wait kept pending.
struct Pending {
    id: u64,
    pid: u32,
    addr: u64,
    value: u32,
    deadline: Option<Deadline>,
    /// When to look at its word again, and the pause before that look.
    next: Instant,
    pause: Duration,
}

/// The listener and the waits it holds.
pub(crate) struct Waits {
    listener: Option<OwnedFd>,
    pending: Vec<Pending>,
    /// Waits found gone (interrupted), the latest last: `(tid, addr, value, pause)`.
    gone: Vec<(u32, u64, u32, Duration)>,
}

/// How many gone waits [`Waits`] remembers.
const GONE_KEPT: usize = 16;

impl Waits {
    pub(crate) fn new(listener: OwnedFd) -> Waits {
        Waits {
            listener: Some(listener),
            pending: Vec::new(),
            gone: Vec::new(),
        }
    }

    /// The listener to poll, until it hangs up (no process of the champion is left).
    pub(crate) fn fd(&self) -> Option<RawFd> {
        self.listener.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// After a poll: `revents` of the listener.
    pub(crate) fn ready(&mut self, revents: libc::c_short) {
        if revents & libc::POLLIN != 0 {
            self.receive();
        } else if revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
            self.listener = None;
            self.pending.clear();
        }
    }

    /// How long a poll may wait before [`Waits::look`] is due (`None`: for ever).
    pub(crate) fn timeout(&self, now: Instant) -> Option<Duration> {
        self.pending
            .iter()
            .map(|p| p.next.saturating_duration_since(now))
            .min()
    }

    /// Looks at the words of the waits that are due: answers those that changed or timed
    /// out, drops those whose caller is gone.
    pub(crate) fn look(&mut self, now: Instant) {
        let Some(listener) = self.fd() else { return };
        let mut i = 0;
        while i < self.pending.len() {
            let p = &mut self.pending[i];
            if p.next > now {
                i += 1;
                continue;
            }
            let read = read_word(p.pid, p.addr);
            let verdict = if !is_valid(listener, p.id) {
                Verdict::Gone
            } else {
                match futex_call::later_look(read, p.value) {
                    Verdict::Pend => match left(p.deadline) {
                        Some(Duration::ZERO) => Verdict::Answer(Err(libc::ETIMEDOUT)),
                        left => {
                            p.pause = futex_call::next_pause(p.pause);
                            p.next = now + futex_call::next_look(p.pause, left);
                            Verdict::Pend
                        }
                    },
                    other => other,
                }
            };
            match verdict {
                Verdict::Pend => i += 1,
                Verdict::Answer(answer) => {
                    respond(listener, p.id, answer);
                    self.pending.swap_remove(i);
                }
                Verdict::Gone => {
                    let p = self.pending.swap_remove(i);
                    if self.gone.len() == GONE_KEPT {
                        self.gone.remove(0);
                    }
                    self.gone.push((p.pid, p.addr, p.value, p.pause));
                }
            }
        }
    }

    /// The previous wait of thread `tid`, now gone (a thread makes one call at a time: a
    /// wait of its still pending was interrupted), forgotten: its word, value and pause.
    fn previous(&mut self, tid: u32) -> Option<(u64, u32, Duration)> {
        if let Some(i) = self.pending.iter().position(|p| p.pid == tid) {
            let p = self.pending.swap_remove(i);
            return Some((p.addr, p.value, p.pause));
        }
        let i = self.gone.iter().rposition(|g| g.0 == tid)?;
        let (_, addr, value, pause) = self.gone.remove(i);
        Some((addr, value, pause))
    }

    /// Takes one notification and answers it, or keeps it pending.
    fn receive(&mut self) {
        let Some(listener) = self.fd() else { return };
        // SAFETY: all-zero is a valid notification, and the kernel wants it zeroed.
        let mut n: libc::seccomp_notif = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a notification of the kernel's size.
        if unsafe { libc::ioctl(listener, libc::SECCOMP_IOCTL_NOTIF_RECV, &mut n) } < 0 {
            // ENOENT: the caller was interrupted meanwhile.
            return;
        }
        let (addr, value, timeout) = match futex_call::decode(i64::from(n.data.nr), n.data.args) {
            Call::Fail(errno) => return respond(listener, n.id, Err(errno)),
            // Every pending wait of the jail is woken (each looks at its word again), and
            // the wake says it woke none: no count of waiters leaves the init, as none
            // leaves another jail.
            Call::Wake => {
                respond(listener, n.id, Ok(0));
                for p in self.pending.drain(..) {
                    respond(listener, p.id, Ok(0));
                }
                return;
            }
            Call::Wait {
                addr,
                value,
                timeout,
            } => (addr, value, timeout),
        };
        let deadline = match timeout {
            Timeout::Never => Ok(None),
            Timeout::Relative(at) | Timeout::Absolute(at, _) => match read_timespec(n.pid, at) {
                Ok(ts) => futex_call::deadline(timeout, ts, now(libc::CLOCK_MONOTONIC)),
                Err(errno) => Err(errno),
            },
        };
        let read = read_word(n.pid, addr);
        if !is_valid(listener, n.id) {
            return;
        }
        let deadline = match deadline {
            Ok(deadline) => deadline,
            Err(libc::ESRCH) => return,
            Err(errno) => return respond(listener, n.id, Err(errno)),
        };
        match futex_call::first_look(read, value) {
            Verdict::Pend => match left(deadline) {
                Some(Duration::ZERO) => respond(listener, n.id, Err(libc::ETIMEDOUT)),
                left => {
                    let previous = self.previous(n.pid);
                    let pause = futex_call::first_pause(previous, addr, value);
                    self.pending.push(Pending {
                        id: n.id,
                        pid: n.pid,
                        addr,
                        value,
                        deadline,
                        next: Instant::now() + futex_call::next_look(pause, left),
                        pause,
                    });
                }
            },
            Verdict::Answer(answer) => respond(listener, n.id, answer),
            Verdict::Gone => {}
        }
    }
}

/// What is left of `deadline` (`None`: no deadline; zero: passed).
fn left(deadline: Option<Deadline>) -> Option<Duration> {
    deadline.map(|d| d.at.saturating_sub(now(d.clock)))
}

/// `clock` now, as a time since its origin.
fn now(clock: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// `SECCOMP_IOCTL_NOTIF_ID_VALID` as kernels before 5.7 number it (`_IOR`; later ones take
/// both).
const NOTIF_ID_VALID_BEFORE_5_7: libc::Ioctl = 0x8008_2102;

/// Whether the notification `id` still waits for its answer: only `ENOENT` says it does
/// not (the caller died or took a signal).
fn is_valid(listener: RawFd, id: u64) -> bool {
    for request in [
        libc::SECCOMP_IOCTL_NOTIF_ID_VALID,
        NOTIF_ID_VALID_BEFORE_5_7,
    ] {
        // SAFETY: a valid pointer to the id.
        if unsafe { libc::ioctl(listener, request, &id) } == 0 {
            return true;
        }
        if std::io::Error::last_os_error().raw_os_error() == Some(libc::ENOENT) {
            return false;
        }
    }
    true
}

/// Answers notification `id` with a return value or an errno. A caller gone meanwhile
/// (`ENOENT`) needs no answer.
fn respond(listener: RawFd, id: u64, answer: Result<i64, i32>) {
    let (val, error) = match answer {
        Ok(val) => (val, 0),
        Err(errno) => (0, -errno),
    };
    let response = libc::seccomp_notif_resp {
        id,
        val,
        error,
        flags: 0,
    };
    // SAFETY: a valid pointer to a response.
    unsafe { libc::ioctl(listener, libc::SECCOMP_IOCTL_NOTIF_SEND, &response) };
}

/// Reads `N` bytes at `addr` of process `pid`; the errno of the failure.
fn read<const N: usize>(pid: u32, addr: u64) -> Result<[u8; N], i32> {
    let mut buf = [0u8; N];
    let local = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: N,
    };
    let remote = libc::iovec {
        iov_base: addr as *mut libc::c_void,
        iov_len: N,
    };
    // SAFETY: one local buffer of N bytes; the remote one is only read by the kernel.
    let n = unsafe { libc::process_vm_readv(pid as libc::pid_t, &local, 1, &remote, 1, 0) };
    if n == N as isize {
        Ok(buf)
    } else if n < 0 {
        Err(std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EFAULT))
    } else {
        Err(libc::EFAULT)
    }
}

/// The futex word at `addr` of `pid`.
fn read_word(pid: u32, addr: u64) -> Result<u32, i32> {
    read::<4>(pid, addr).map(u32::from_ne_bytes)
}

/// The `struct timespec` at `addr` of `pid`: seconds and nanoseconds.
fn read_timespec(pid: u32, addr: u64) -> Result<(i64, i64), i32> {
    let b = read::<16>(pid, addr)?;
    let half = |i: usize| {
        let mut h = [0u8; 8];
        h.copy_from_slice(&b[i..i + 8]);
        i64::from_ne_bytes(h)
    };
    Ok((half(0), half(8)))
}
