//! The seccomp program for futexes, the one filter whose answers depend on the operation:
//! private futexes pass, shared ones never reach the kernel's futex queues.
//!
//! The kernel keys a shared futex (an operation without `FUTEX_PRIVATE_FLAG`, or `futex_wait`
//! and `futex_wake` without `FUTEX2_PRIVATE`) on a page of a file by the file's inode and
//! offset, whatever the namespaces, even in a read-only `MAP_PRIVATE` mapping: a waiter left
//! by one jail on a file every jail maps (`/etc/passwd`, a kit, its own program in another
//! seat) is woken by another jail's `FUTEX_WAKE`, and a wake counts the waiters others left,
//! a covert channel. A filter cannot tell the page behind an address, so no shared waiter is
//! ever queued by the kernel:
//! - with a listener ([`Variant::Notify`], in a jail): the shared waits (`FUTEX_WAIT`,
//!   `FUTEX_WAIT_BITSET`, `futex_wait`) and wakes (`FUTEX_WAKE`, `FUTEX_WAKE_BITSET`,
//!   `FUTEX_REQUEUE`, `FUTEX_CMP_REQUEUE`, `futex_wake`) go to the jail's init as user
//!   notifications, which emulates them (`crate::futex_waits`): a waiter sleeps without
//!   spinning, and is woken by its own jail only;
//! - without one ([`Variant::Spin`]: outside a jail, or where the kernel refuses a listener,
//!   `EBUSY` when an outer filter of the machine has one): a shared wait returns 0 at once
//!   (a spurious wake-up, which every futex user takes: it looks at its word again) and a
//!   wake returns 0 (nobody woken): glibc's shared waits (`pthread_join`, process-shared and
//!   robust locks, named semaphores) then spin.
//!
//! Not an error for those: glibc aborts ("The futex facility returned an unexpected error
//! code") on `EPERM` or `ENOSYS` from a wait or a wake. The other shared operations get
//! `ENOSYS`, what a kernel without them says: priority inheritance (glibc then refuses such
//! mutexes at `pthread_mutex_init`), `FUTEX_WAKE_OP` (its store would be skipped), any
//! command a newer kernel adds, and `futex_waitv` and `futex_requeue` always (their flags
//! are in memory, out of a filter's reach; libc falls back to `futex`).
//!
//! Written by hand (classic BPF): it has four answers (allow, the listener, `ENOSYS`, 0)
//! and tests bits of the operation; the filter (`seccomp/dispatch.rs`) jumps to it for the
//! [`NUMBERS`] only. Arguments are read on
//! their low 32 bits (the kernel reads `op` and `flags` as `int`), little-endian as both
//! supported architectures are.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

use nix::libc;

/// `futex_wake` (Linux 6.7): `(uaddr, mask, nr, flags)`.
pub(crate) const SYS_FUTEX_WAKE: u32 = 454;
/// `futex_wait` (Linux 6.7): `(uaddr, val, mask, flags, timeout, clockid)`.
pub(crate) const SYS_FUTEX_WAIT: u32 = 455;
/// `futex_requeue` (Linux 6.7): its flags are in the `futex_waitv` array it points to.
pub(crate) const SYS_FUTEX_REQUEUE: u32 = 456;
/// `futex_wait`, `futex_wake`: the private flag of `flags`.
pub(crate) const FUTEX2_PRIVATE: u32 = 128;
/// `futex`: the bits of `op` that are not its command (private and clock flags).
const FUTEX_FLAGS: u32 = (libc::FUTEX_PRIVATE_FLAG | libc::FUTEX_CLOCK_REALTIME) as u32;

#[cfg(target_arch = "x86_64")]
pub(crate) const AUDIT_ARCH: u32 = 0xc000_003e;
#[cfg(target_arch = "aarch64")]
pub(crate) const AUDIT_ARCH: u32 = 0xc000_00b7;

/// The numbers the program answers for: every other call is allowed.
pub(crate) const NUMBERS: [u32; 5] = [
    libc::SYS_futex as u32,
    SYS_FUTEX_WAIT,
    SYS_FUTEX_WAKE,
    libc::SYS_futex_waitv as u32,
    SYS_FUTEX_REQUEUE,
];

/// Which answers the shared waits and wakes get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    /// Sent to the listener (the jail's init).
    Notify,
    /// 0 at once: a spurious wake-up, nobody woken.
    Spin,
}

/// A program, one per [`Variant`], built once (the others chained before it: `seccomp`).
pub(crate) struct Program(pub(crate) Vec<libc::sock_filter>);

/// Where an instruction jumps: a label of [`build`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Label {
    Next,
    Futex,
    Futex2Wait,
    Futex2Wake,
    Allow,
    Wait,
    Wake,
    Enosys,
}

/// One instruction before its jumps are resolved.
enum Insn {
    Load(u32),
    And(u32),
    /// Jump to the label when `A == k`, else on.
    Eq(u32, Label),
    /// Jump to the label when `A & k != 0`, else on.
    Set(u32, Label),
    Ret(u32),
    At(Label),
}

/// The low 32 bits of argument `i` in `struct seccomp_data`.
const fn arg(i: u32) -> u32 {
    16 + 8 * i
}

/// The instructions, with labels.
fn insns(variant: Variant) -> Vec<Insn> {
    use Insn::*;
    use Label::*;
    let (wait, wake) = match variant {
        Variant::Notify => (libc::SECCOMP_RET_USER_NOTIF, libc::SECCOMP_RET_USER_NOTIF),
        Variant::Spin => (libc::SECCOMP_RET_ERRNO, libc::SECCOMP_RET_ERRNO),
    };
    vec![
        Load(4), // arch
        Eq(AUDIT_ARCH, Next),
        Ret(libc::SECCOMP_RET_KILL_PROCESS),
        At(Next),
        Load(0), // nr
        Eq(libc::SYS_futex as u32, Futex),
        Eq(SYS_FUTEX_WAIT, Futex2Wait),
        Eq(SYS_FUTEX_WAKE, Futex2Wake),
        Eq(libc::SYS_futex_waitv as u32, Enosys),
        Eq(SYS_FUTEX_REQUEUE, Enosys),
        Ret(libc::SECCOMP_RET_ALLOW),
        At(Futex),
        Load(arg(1)),
        Set(libc::FUTEX_PRIVATE_FLAG as u32, Allow),
        And(!FUTEX_FLAGS),
        Eq(libc::FUTEX_WAIT as u32, Wait),
        Eq(libc::FUTEX_WAIT_BITSET as u32, Wait),
        Eq(libc::FUTEX_WAKE as u32, Wake),
        Eq(libc::FUTEX_WAKE_BITSET as u32, Wake),
        Eq(libc::FUTEX_REQUEUE as u32, Wake),
        Eq(libc::FUTEX_CMP_REQUEUE as u32, Wake),
        Ret(libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
        At(Futex2Wait),
        Load(arg(3)),
        Set(FUTEX2_PRIVATE, Allow),
        Ret(wait),
        At(Futex2Wake),
        Load(arg(3)),
        Set(FUTEX2_PRIVATE, Allow),
        Ret(wake),
        At(Allow),
        Ret(libc::SECCOMP_RET_ALLOW),
        At(Wait),
        Ret(wait),
        At(Wake),
        Ret(wake),
        At(Enosys),
        Ret(libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
    ]
}

/// Resolves the labels into jump offsets.
fn assemble(insns: &[Insn]) -> Vec<libc::sock_filter> {
    // Index of the instruction that follows each label.
    let mut index = 0usize;
    let mut labels = Vec::new();
    for insn in insns {
        match insn {
            Insn::At(label) => labels.push((*label, index)),
            _ => index += 1,
        }
    }
    let target = |label: Label| {
        labels
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, i)| *i)
            .expect("every label is placed")
    };
    let mut out = Vec::new();
    for insn in insns {
        let at = out.len();
        let jump = |label: Label| {
            u8::try_from(target(label) - at - 1).expect("a short program: jumps fit in a byte")
        };
        let (code, jt, jf, k) = match *insn {
            Insn::Load(offset) => (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, offset),
            Insn::And(mask) => (libc::BPF_ALU | libc::BPF_AND | libc::BPF_K, 0, 0, mask),
            Insn::Eq(k, label) => (
                libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
                jump(label),
                0,
                k,
            ),
            Insn::Set(k, label) => (
                libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K,
                jump(label),
                0,
                k,
            ),
            Insn::Ret(k) => (libc::BPF_RET | libc::BPF_K, 0, 0, k),
            Insn::At(_) => continue,
        };
        out.push(libc::sock_filter {
            code: code as u16,
            jt,
            jf,
            k,
        });
    }
    out
}

/// Builds the program of `variant`.
pub(crate) fn build(variant: Variant) -> Program {
    Program(assemble(&insns(variant)))
}

impl Program {
    /// Installs the program in the calling process (`no_new_privs` set), with a listener
    /// when `listener` (the descriptor returned, close-on-exec). Async-signal-safe.
    pub(crate) fn install(&self, listener: bool) -> io::Result<Option<OwnedFd>> {
        let prog = libc::sock_fprog {
            len: self.0.len() as u16,
            filter: self.0.as_ptr().cast_mut(),
        };
        let flags = if listener {
            libc::SECCOMP_FILTER_FLAG_NEW_LISTENER
        } else {
            0
        };
        // SAFETY: a valid program that outlives the call.
        let r = unsafe {
            libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                flags,
                &prog as *const libc::sock_fprog,
            )
        };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: with a listener, the kernel returns a new descriptor that is ours.
        Ok(listener.then(|| unsafe { OwnedFd::from_raw_fd(r as i32) }))
    }
}

/// Whether the kernel gives this process's children a listener (in a short-lived child):
/// `Err` says why not (`EBUSY`: an outer filter has one; `EINVAL`: too old a kernel).
pub(crate) fn probe_listener(program: &Program) -> io::Result<()> {
    super::netns::try_in_child(|| {
        // SAFETY: plain prctl.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        program.install(true).map(drop)
    })
}

#[cfg(test)]
mod tests {
    //! The program in a forked child, against calls whose kernel answer differs from the
    //! filter's (a misaligned word: `EINVAL`).

    use super::*;
    use libc::c_long;

    /// `(nr, args)` in a child under the spin program (with no listener, a notified call
    /// would fail with `ENOSYS`): its result, or `-errno`.
    fn under_spin(nr: c_long, args: [c_long; 6]) -> i32 {
        let program = build(Variant::Spin);
        let r = crate::sandbox::netns::try_in_child(|| {
            // SAFETY: plain prctl.
            unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) };
            program.install(false)?;
            // SAFETY: the calls below are harmless whatever they do (a misaligned word).
            let r =
                unsafe { libc::syscall(nr, args[0], args[1], args[2], args[3], args[4], args[5]) };
            if r < 0 {
                Err(io::Error::last_os_error())
            } else {
                Ok(())
            }
        });
        match r {
            Ok(()) => 0,
            Err(e) => -e.raw_os_error().unwrap_or(255),
        }
    }

    fn futex(op: i32) -> i32 {
        under_spin(libc::SYS_futex, [1, op as c_long, 0, 0, 0, 0])
    }

    #[test]
    fn shared_waits_and_wakes_are_skipped_other_shared_operations_are_absent() {
        let private = libc::FUTEX_PRIVATE_FLAG;
        for op in [
            libc::FUTEX_WAIT,
            libc::FUTEX_WAKE,
            libc::FUTEX_REQUEUE,
            libc::FUTEX_CMP_REQUEUE,
            libc::FUTEX_WAIT_BITSET,
            libc::FUTEX_WAKE_BITSET,
            libc::FUTEX_WAIT_BITSET | libc::FUTEX_CLOCK_REALTIME,
        ] {
            assert_eq!(futex(op), 0, "shared op {op}");
            assert_eq!(futex(op | private), -libc::EINVAL, "private op {op}");
        }
        for op in [
            libc::FUTEX_WAKE_OP,
            libc::FUTEX_LOCK_PI,
            libc::FUTEX_UNLOCK_PI,
            libc::FUTEX_TRYLOCK_PI,
            libc::FUTEX_WAIT_REQUEUE_PI,
            libc::FUTEX_CMP_REQUEUE_PI,
            libc::FUTEX_LOCK_PI2,
        ] {
            assert_eq!(futex(op), -libc::ENOSYS, "shared op {op}");
            assert_ne!(futex(op | private), -libc::ENOSYS, "private op {op}");
        }
        // An unknown command: what the kernel says too.
        assert_eq!(futex(1 << 9), -libc::ENOSYS);
        // High bits of `op` (an int to the kernel) change nothing.
        let high = 1 << 32;
        assert_eq!(
            under_spin(libc::SYS_futex, [1, high, 0, 0, 0, 0]),
            0,
            "FUTEX_WAIT | high bits"
        );
        assert_eq!(
            under_spin(
                libc::SYS_futex,
                [1, high | c_long::from(private), 0, 0, 0, 0]
            ),
            -libc::EINVAL
        );
    }

    #[test]
    fn futex2_waits_and_wakes_are_skipped_when_shared_waitv_and_requeue_absent() {
        let u32_size = 2;
        let private = c_long::from(FUTEX2_PRIVATE);
        let wait = c_long::from(SYS_FUTEX_WAIT);
        let wake = c_long::from(SYS_FUTEX_WAKE);
        assert_eq!(under_spin(wait, [1, 0, -1, u32_size, 0, 0]), 0);
        assert_eq!(under_spin(wake, [1, -1, 1, u32_size, 0, 0]), 0);
        assert_eq!(
            under_spin(wait, [1, 0, -1, u32_size | private, 0, 0]),
            -libc::EINVAL
        );
        assert_eq!(
            under_spin(wake, [1, -1, 1, u32_size | private, 0, 0]),
            -libc::EINVAL
        );
        assert_eq!(under_spin(libc::SYS_futex_waitv, [0; 6]), -libc::ENOSYS);
        assert_eq!(
            under_spin(c_long::from(SYS_FUTEX_REQUEUE), [0; 6]),
            -libc::ENOSYS
        );
        // Other calls pass: getpid succeeds.
        assert_eq!(under_spin(libc::SYS_getpid, [0; 6]), 0);
    }

    #[test]
    fn a_listener_is_given_here() {
        probe_listener(&build(Variant::Notify)).unwrap();
    }

    /// Where a filter of the process already holds a listener (an outer one of the
    /// machine), the probe says why there is none: `EBUSY`.
    #[test]
    fn the_probe_finds_no_listener_under_a_filter_that_holds_one() {
        let program = build(Variant::Notify);
        let r = crate::sandbox::netns::try_in_child(|| {
            // SAFETY: plain prctl.
            unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) };
            let _outer = program.install(true)?;
            match probe_listener(&program) {
                Err(e) if e.raw_os_error() == Some(libc::EBUSY) => Ok(()),
                Err(e) => Err(e),
                Ok(()) => Err(io::Error::from_raw_os_error(libc::EEXIST)),
            }
        });
        r.unwrap();
    }

    #[test]
    fn a_second_listener_is_refused_busy() {
        let program = build(Variant::Notify);
        let r = crate::sandbox::netns::try_in_child(|| {
            // SAFETY: plain prctl.
            unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) };
            let _first = program.install(true)?;
            program.install(true).map(drop)
        });
        assert_eq!(r.map_err(|e| e.raw_os_error()), Err(Some(libc::EBUSY)));
    }
}
