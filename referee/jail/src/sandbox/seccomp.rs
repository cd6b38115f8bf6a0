//! A seccomp deny list, built once per referee (tables compiled by `dispatch.rs` into one
//! program that searches the syscall number) and installed last in each child. Denied
//! calls fail with `EPERM` (the champion gets an error and goes on; nothing is killed),
//! except `clone3`, which fails with `ENOSYS` so that libc falls back to `clone`,
//! whose flags can be checked, `flock`, which does nothing and returns 0 (below), the
//! setters of extended attributes (`ENOTSUP`, below), the page cache's rules (below) and
//! shared futexes (`futex.rs`: sent to the jail's init, or skipped). A champion runs without capabilities (its own uid, or a user
//! namespace), so most administration calls fail anyway: they are denied here too in case it
//! has some (root without the uid layer) and to keep kernel code out of its reach.
//!
//! Arguments are compared on their low 32 bits (`Dword`): every one compared here is an
//! `int` (or flags the kernel reads as one), so high bits set by the caller change nothing.
//!
//! Denied, whatever the arguments:
//! - `setsid`, `setpgid`: the champion stays in its process group, which the sweep kills.
//! - `ptrace`, `process_vm_readv`, `process_vm_writev`: another process's memory.
//! - `kcmp`: compares the files and memory of two processes (tells what others hold).
//! - `pidfd_getfd`: copies a file descriptor out of another process.
//! - `process_madvise`, `process_mrelease`: act on another process's memory.
//! - `migrate_pages`: moves another process's pages between NUMA nodes.
//! - `rt_sigqueueinfo`, `rt_tgsigqueueinfo`: signal any process of the same uid (the
//!   referee, opponents when not root) with a forged `siginfo`; runtimes use `kill`/`tgkill`.
//! - `pidfd_send_signal`: its target is an fd, which a filter cannot check.
//! - `unshare`, `setns`: new namespaces (a user namespace gives capabilities over them).
//! - `mount`, `umount2`, `pivot_root`, `chroot`, `fsopen`, `fsmount`, `fspick`, `open_tree`,
//!   `open_tree_attr`, `move_mount`, `mount_setattr`: the mount table (`fsconfig` needs an
//!   fd from `fsopen`/`fspick`).
//! - `bpf`, `perf_event_open`: kernel programs, and observing other processes.
//! - `keyctl`, `add_key`, `request_key`: keyrings are shared by every process of a uid.
//! - `io_uring_setup`, `io_uring_enter`, `io_uring_register`: I/O this filter never sees.
//! - `io_setup`: Linux AIO contexts count against the machine-wide `aio-max-nr`.
//! - `userfaultfd`: stalls the kernel on the champion's page faults, an exploit primitive.
//! - `open_by_handle_at`, `name_to_handle_at`: open files by handle, around path checks.
//! - `fanotify_init`: watches other processes' accesses to files.
//! - `memfd_secret`: memory the kernel itself cannot read (nor the referee measure).
//! - `shmget`, `shmat`, `shmctl`, `msgget`, `msgsnd`, `msgrcv`, `msgctl`, `semget`, `semop`,
//!   `semtimedop`, `semctl`, `mq_open`, `mq_unlink`: System V and POSIX IPC objects live in
//!   the machine's IPC namespace: they outlive the champion (memory no sweep frees, even
//!   with a memory cgroup), and other champions and host processes reach them by id or name.
//! - `kexec_load`, `kexec_file_load`, `init_module`, `finit_module`, `delete_module`,
//!   `reboot`, `swapon`, `swapoff`, `acct`, `quotactl`, `quotactl_fd`, `vhangup`,
//!   `settimeofday`, `clock_settime`, `clock_adjtime`, `adjtimex`, `sethostname`,
//!   `setdomainname`: administration of the machine.
//! - `syslog`: the kernel log (readable by anyone where `dmesg_restrict` is 0).
//! - `lookup_dcookie`, `nfsservctl`, `uselib` (x86_64): obsolete, nothing calls them.
//! - `iopl`, `ioperm` (x86_64): I/O ports.
//! - `modify_ldt` (x86_64): 16-bit segments, for Wine; a history of kernel bugs.
//! - `vmsplice`: maps user pages into pipes; no champion needs it; a history of kernel bugs.
//! - `inotify_init`, `inotify_init1`, `inotify_add_watch`: a watch (as a lock, below) lives
//!   on an inode, and every jail sees some of the same inodes (the system directories,
//!   the kits, `/dev/null`, the one inode behind every eventfd, epoll and timerfd of the
//!   machine): one champion opens or reads, another sees it, a channel between jails that
//!   no namespace closes. No runtime needs them to play.
//!
//! Skipped, returning 0 without doing anything:
//! - `flock`, for the same reason as the record locks (below), but the JVM takes one on
//!   its performance-data file at start and, when refused, prints a warning on stdout (the
//!   protocol's pipe). A lock that locks nothing tells nothing to anyone; a champion that
//!   locks between its own processes gets no exclusion (none of the kits does).
//! - `sync`, `syncfs`: they write back every dirty page of the machine (or of a file system
//!   the host shares), which slows every other process's I/O and moves counters another
//!   jail may see (quota's count of syncs). A jail writes only to its tmpfs `/tmp`, which
//!   has nothing to write back; `fsync` of a file stays (it writes back that file only).
//!
//! Refused with `ENOTSUP`, what a file system without extended attributes answers (Python's
//! `shutil.copy2`, Java's `Files.copy` with `COPY_ATTRIBUTES` and `cp -a` copy a file that
//! has some without them, and succeed):
//! - `setxattr`, `lsetxattr`, `fsetxattr`, `setxattrat`: `user.*` attributes on the tmpfs
//!   `/tmp` hold tens of MiB that neither `--disk` (the tmpfs's size counts file data only)
//!   nor, without a memory cgroup, `--memory` counts. tmpfs has no mount option that turns
//!   them off. Reading and removing attributes stay allowed.
//!
//! Denied for some arguments:
//! - `socket`: every family but `AF_UNIX`.
//! - `clone`: a namespace flag, or `CLONE_PARENT` (the child would be the referee's, outside
//!   the champion's tree). `clone3` gets `ENOSYS`: its flags are in memory, out of reach.
//! - `kill`: the referee, its process group, every process (`-1`). `tkill`, `tgkill`,
//!   `pidfd_open`: the referee.
//! - `fcntl`: `F_SETOWN`, `F_SETOWN_EX` (whom `SIGIO` goes to: any process of the same uid,
//!   the caller's own pid included, for simplicity) and `F_SETSIG` (which signal, `SIGKILL`
//!   included). `F_GETOWN` and every other command stay. Record locks (`F_GETLK`,
//!   `F_SETLK`, `F_SETLKW` and the open-file ones `F_OFD_*`), leases (`F_SETLEASE`,
//!   `F_GETLEASE`) and directory notifications (`F_NOTIFY`), as `flock` above.
//! - `ioctl`: `FIOSETOWN`, `SIOCSPGRP` (`F_SETOWN` for sockets), `TIOCSTI` (types into a
//!   terminal), `TIOCLINUX` (console selection and paste), `TIOCSPGRP` (takes the terminal's
//!   foreground from the referee, so that Ctrl-C reaches the champion instead).
//! - `mmap`: `MAP_GROWSDOWN` (grows-down mappings escape `RLIMIT_DATA`; nothing uses them)
//!   and `MAP_HUGETLB` (huge pages come from the machine's pool: neither `memory.max` nor
//!   a process's resident memory counts them); without a memory cgroup,
//!   `MAP_SHARED | MAP_ANONYMOUS` too, and `memfd_create` (shared memory escapes
//!   `RLIMIT_DATA`; the shared memory a champion can still map, a tmpfs file or
//!   `/dev/zero`, is counted by the referee: `jail/usage.rs`).
//! - `memfd_create` with `MFD_HUGETLB`, as `MAP_HUGETLB`.
//! - `sched_setaffinity`, always: the referee pins a match and its champions to one CPU,
//!   and a champion's threads may not spread to the CPU of another match.
//! - `prlimit64`, `sched_setscheduler`, `sched_setparam`,
//!   `sched_setattr`, `move_pages`: a pid other than 0 (the caller). Other processes of the
//!   same uid (opponents and the referee when not root) would be slowed or limited; the
//!   caller's own threads, named by tid, are refused too (`pthread_setschedparam` and
//!   `pthread_setaffinity_np` fail): a PID namespace would let them through again.
//! - `setpriority`, `ioprio_set`: a `who` other than 0, or `PRIO_USER`/`IOPRIO_WHO_USER`
//!   (every process of the uid).
//! - `personality`: anything but the query (`0xffffffff`) and `PER_LINUX` (`0`): turning
//!   off ASLR or setting `READ_IMPLIES_EXEC` only weakens the champion, but nothing needs it.
//! - `prctl(PR_SCHED_CORE)`: core-scheduling cookies, settable on other processes.
//!
//! The page cache's exact channel between jails (`page_cache.rs`): advice that drops
//! cached pages (`fadvise64` `DONTNEED`/`NOREUSE`, `madvise` `MADV_PAGEOUT`/`MADV_COLD`)
//! returns 0 doing nothing; `preadv2`/`pwritev2` with `RWF_NOWAIT` fail with `EOPNOTSUPP`;
//! `mincore` and `cachestat` with `ENOSYS`.
//!
//! Allowed on purpose:
//! - `mremap`: it can grow the main stack past `RLIMIT_DATA`, but so can `mprotect` (below);
//!   denying it would only slow `realloc`.
//! - `mmap` with `MAP_STACK`: only a hint (no `VM_GROWSDOWN`); counted in `RLIMIT_DATA`.
//! - `mprotect`: the kernel checks `RLIMIT_DATA` when a private mapping becomes writable.
//! - `setrlimit`/`prlimit64` on the caller, `RLIMIT_STACK` included: raising the stack for
//!   deep recursion is a common idiom, and the stack escapes `RLIMIT_DATA` without it.
//! - `sched_*`, `setpriority`, `ioprio_set`, `move_pages` on pid 0: the caller's own.
//! - `sched_getaffinity`, `getpriority`, `ioprio_get`, `getpgid`, `getsid`, `capget`,
//!   `pidfd_open`, `kill(pid, 0)` on other pids: facts about other processes, no effect.
//! - `mbind`, `set_mempolicy`, `set_mempolicy_home_node`: the caller's memory (Java's NUMA).
//! - `seccomp`, `landlock_*`, `prctl` but `PR_SCHED_CORE`: restrict or configure the caller.
//! - `tkill`: musl's `raise` and `pthread_kill` use it (the referee's pid stays denied).
//! - `connect`/`sendmsg` on `AF_UNIX` sockets: Python's multiprocessing needs them.
//! - `mlock*`: bounded by `RLIMIT_MEMLOCK`; the pages it pins are the caller's own, counted
//!   with its memory.
//!
//! Out of a filter's reach (see the sandbox's other layers):
//! - Memory beyond `RLIMIT_DATA` without a memory cgroup: the kernel does not count stack
//!   mappings (`VM_GROWSDOWN`) nor shared ones in it. The main stack grows by faults below it,
//!   each piece up to `RLIMIT_STACK`; splitting it with `mprotect` or `munmap` makes new
//!   pieces, so it grows until `RLIMIT_AS` or the next mapping. Only a memory cgroup, a
//!   tighter `RLIMIT_AS` or the referee acting on `/proc/<pid>/statm` (whose data field
//!   counts the stack; `champion/clock.rs` samples it) bound it. Files written to the scratch directory (on a tmpfs, memory)
//!   are bounded by `RLIMIT_FSIZE` per file only.
//! - Signals and scheduling aimed at other processes of the same uid by pid: `tkill` of a
//!   referee thread, `kill` of an opponent. The uid layer (root), Landlock's signal scope
//!   (ABI 6) and a PID namespace stop them; the filter knows only the referee's pid.

use std::collections::BTreeMap;
use std::io;

use nix::libc;

use super::futex;
use super::layer::Layer;
use dispatch::{Cond, Op, Rule, Table};

#[cfg(test)]
mod bpf_run;
#[cfg(any(test, feature = "bench-reference"))]
mod chain;
mod dispatch;
#[cfg(test)]
mod dispatch_rules;
#[cfg(test)]
mod equivalence;
mod page_cache;
#[cfg(any(test, feature = "bench-reference"))]
mod reference;

/// The filter (the futex program's spin variant) and the chained programs it replaced, as
/// `cargo bench -p jail --bench seccomp_install --features bench-reference` installs them.
#[cfg(feature = "bench-reference")]
pub fn programs_for_bench() -> Result<[Vec<libc::sock_filter>; 2], Box<dyn std::error::Error>> {
    let tables = tables(true)?;
    let futex = futex::build(futex::Variant::Spin).0;
    let search = dispatch::compile(futex::AUDIT_ARCH, &tables, &futex::NUMBERS, &futex)?;
    Ok([search, reference::reference(&tables, &futex)?])
}

// Linux constants the `libc` crate lacks; the same on x86_64 and aarch64.
/// `fcntl`: the signal sent to the owner.
const F_SETSIG: u64 = 10;
/// `fcntl`: the owner, as a thread, process or process group.
const F_SETOWN_EX: u64 = 15;
/// `ioctl` on sockets: the owner, as `F_SETOWN`.
const FIOSETOWN: u64 = 0x8901;
/// `ioctl` on sockets: the owner's process group.
const SIOCSPGRP: u64 = 0x8902;
/// `ioctl` on terminals: pushes a byte into the terminal's input, as if typed.
const TIOCSTI: u64 = 0x5412;
/// `ioctl` on virtual consoles: selection, paste and more.
const TIOCLINUX: u64 = 0x541c;
/// `ioctl` on terminals: the foreground process group (`tcsetpgrp`).
const TIOCSPGRP: u64 = 0x5410;
/// `ioprio_set`: every process of a uid.
const IOPRIO_WHO_USER: u64 = 3;
/// `personality(0xffffffff)` returns the personality and changes nothing.
const PERSONALITY_QUERY: u64 = 0xffff_ffff;
/// `open_tree_attr` (Linux 6.15); numbers from 424 on are the same on every architecture.
const SYS_OPEN_TREE_ATTR: i64 = 467;
/// `setxattrat` (Linux 6.13).
const SYS_SETXATTRAT: i64 = 463;

/// The tables, compiled into one filter ([`dispatch`]) in each of the futex program's two
/// variants: the extended attributes and `RWF_NOWAIT` (`ENOTSUP`), `flock` and the page
/// cache's dropping advice (skipped, 0), `clone3` and the page cache's questions
/// (`ENOSYS`), the deny list (`EPERM`), then the futex program.
pub struct Filters {
    notify: futex::Program,
    spin: futex::Program,
}

impl Filters {
    /// Installs the filters in the calling (child) process, shared futex waits and wakes
    /// skipped (no listener: outside a jail, or where the kernel gives none).
    /// `no_new_privs` must be set. Async-signal-safe: no allocation on success.
    pub(crate) fn apply(&self) -> io::Result<()> {
        self.spin.install(false).map(drop)
    }

    /// As [`Filters::apply`], but shared futex waits and wakes are sent to the listener
    /// returned (close-on-exec), which the jail's init serves.
    pub(crate) fn apply_notifying(&self) -> io::Result<std::os::fd::OwnedFd> {
        self.notify
            .install(true)?
            .ok_or_else(|| io::Error::from_raw_os_error(libc::EINVAL))
    }

    /// Whether the kernel gives a listener for shared futexes here (probed in a child):
    /// `Err` says why not.
    pub(crate) fn probe_listener(&self) -> io::Result<()> {
        futex::probe_listener(&self.notify)
    }
}

/// Builds the filters and checks that the kernel takes them (in a short-lived child).
pub(crate) fn probe(deny_shared_memory: bool) -> (Option<Filters>, Layer) {
    let filters = match build(deny_shared_memory) {
        Ok(f) => f,
        Err(e) => return (None, Layer::Off(format!("cannot build the filter: {e}"))),
    };
    if x32_enabled() {
        return (
            None,
            Layer::Off("the x32 syscall ABI is enabled and would bypass the filter".into()),
        );
    }
    let check = super::netns::try_in_child(|| {
        // SAFETY: plain prctl.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        filters.apply()?;
        // The filter must answer EPERM to setsid.
        // SAFETY: no arguments.
        let r = unsafe { libc::setsid() };
        if is_eperm(r, io::Error::last_os_error().raw_os_error()) {
            Ok(())
        } else {
            Err(io::Error::from_raw_os_error(libc::ENOTSUP))
        }
    });
    match check {
        Ok(()) => (Some(filters), Layer::On(String::new())),
        Err(e) => (None, Layer::Off(format!("seccomp filter refused: {e}"))),
    }
}

/// Whether a call that returned `result` and left `errno` failed with `EPERM`.
fn is_eperm(result: libc::c_int, errno: Option<i32>) -> bool {
    result == -1 && errno == Some(libc::EPERM)
}

/// Whether x32 system calls (numbers with bit 30 set) are accepted by this kernel.
fn x32_enabled() -> bool {
    if std::env::consts::ARCH != "x86_64" {
        return false;
    }
    // SAFETY: x32 getpid takes no argument; ENOSYS when x32 is off.
    let r = unsafe { libc::syscall(0x4000_0000 | libc::SYS_getpid) };
    r >= 0
}

/// A rule the filter cannot hold (a mistake in the tables, never the champion's).
#[derive(Debug)]
pub(crate) struct BadRule(String);

impl std::fmt::Display for BadRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadRule {}

/// The deny list being built: syscall number to rules. No rule: always denied; otherwise
/// denied when all the conditions of one of its rules hold.
#[derive(Default)]
struct Rules(BTreeMap<u32, Vec<Rule>>);

/// `nr` as the filter reads it.
fn number(nr: i64) -> u32 {
    u32::try_from(nr).expect("a syscall number of this architecture")
}

impl Rules {
    fn always(&mut self, numbers: &[i64]) {
        for &nr in numbers {
            self.0.insert(number(nr), Vec::new());
        }
    }

    /// Denies `nr` when every `(argument, comparison, value)` holds (on the low 32 bits).
    fn when(&mut self, nr: i64, conditions: &[(u8, Op, u64)]) -> Result<(), BadRule> {
        if conditions.is_empty() {
            return Err(BadRule(format!("syscall {nr}: a rule without a condition")));
        }
        let conditions = conditions
            .iter()
            .map(|&(arg, op, value)| match u32::try_from(value) {
                Ok(value) if arg < 6 => Ok(Cond { arg, op, value }),
                _ => Err(BadRule(format!(
                    "syscall {nr}: argument {arg} compared with {value:#x}: arguments are 0 \
                     to 5, values 32 bits"
                ))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.0.entry(number(nr)).or_default().push(conditions);
        Ok(())
    }

    /// Denies `nr` when argument `arg` equals one of `values`.
    fn when_arg_is(&mut self, nr: i64, arg: u8, values: &[u64]) -> Result<(), BadRule> {
        for &value in values {
            self.when(nr, &[(arg, Op::Eq, value)])?;
        }
        Ok(())
    }

    /// Denies `nr` when argument `arg` has any of the bits of `flags`, each on its own.
    fn when_any_flag(&mut self, nr: i64, arg: u8, flags: &[u64]) -> Result<(), BadRule> {
        for &flag in flags {
            let mask = u32::try_from(flag).map_err(|_| BadRule(format!("flag {flag:#x}")))?;
            self.when(nr, &[(arg, Op::MaskedEq(mask), flag)])?;
        }
        Ok(())
    }
}

/// `-v` as the low 32 bits of a negative `pid_t`.
fn negative(v: i64) -> u64 {
    u64::from((-v) as i32 as u32)
}

/// The deny list, for a referee of pid `referee` in process group `group`.
fn deny_list(
    referee: i64,
    group: i64,
    deny_shared_memory: bool,
) -> Result<BTreeMap<u32, Vec<Rule>>, BadRule> {
    let mut rules = Rules::default();
    // Other processes: their memory, files, signals.
    rules.always(&[
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_kcmp,
        libc::SYS_pidfd_getfd,
        libc::SYS_process_madvise,
        libc::SYS_process_mrelease,
        libc::SYS_migrate_pages,
        libc::SYS_rt_sigqueueinfo,
        libc::SYS_rt_tgsigqueueinfo,
        libc::SYS_pidfd_send_signal,
    ]);
    // The process group, namespaces, mounts.
    rules.always(&[
        libc::SYS_setsid,
        libc::SYS_setpgid,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_fsopen,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_open_tree,
        SYS_OPEN_TREE_ATTR,
        libc::SYS_move_mount,
        libc::SYS_mount_setattr,
    ]);
    // Kernel attack surface nothing needs.
    rules.always(&[
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_io_setup,
        libc::SYS_userfaultfd,
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        libc::SYS_fanotify_init,
        libc::SYS_memfd_secret,
        libc::SYS_vmsplice,
        libc::SYS_lookup_dcookie,
        libc::SYS_nfsservctl,
    ]);
    #[cfg(target_arch = "x86_64")]
    rules.always(&[
        libc::SYS_uselib,
        libc::SYS_iopl,
        libc::SYS_ioperm,
        libc::SYS_modify_ldt,
    ]);
    // IPC objects of the machine's IPC namespace.
    rules.always(&[
        libc::SYS_shmget,
        libc::SYS_shmat,
        libc::SYS_shmctl,
        libc::SYS_msgget,
        libc::SYS_msgsnd,
        libc::SYS_msgrcv,
        libc::SYS_msgctl,
        libc::SYS_semget,
        libc::SYS_semop,
        libc::SYS_semtimedop,
        libc::SYS_semctl,
        libc::SYS_mq_open,
        libc::SYS_mq_unlink,
    ]);
    // Administration.
    rules.always(&[
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_quotactl_fd,
        libc::SYS_syslog,
        libc::SYS_vhangup,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        libc::SYS_sethostname,
        libc::SYS_setdomainname,
    ]);

    rules.when(libc::SYS_socket, &[(0, Op::Ne, libc::AF_UNIX as u64)])?;
    let clone_flags = [
        libc::CLONE_NEWNS,
        libc::CLONE_NEWCGROUP,
        libc::CLONE_NEWUTS,
        libc::CLONE_NEWIPC,
        libc::CLONE_NEWUSER,
        libc::CLONE_NEWPID,
        libc::CLONE_NEWNET,
        libc::CLONE_PARENT,
    ];
    rules.when_any_flag(libc::SYS_clone, 0, &clone_flags.map(|f| f as u64))?;
    // Signals to the referee (its pid is its main thread's tid), its process group, or all.
    let referee = referee as u64;
    rules.when_arg_is(libc::SYS_kill, 0, &[referee, negative(group), negative(1)])?;
    for nr in [libc::SYS_tkill, libc::SYS_tgkill, libc::SYS_pidfd_open] {
        rules.when_arg_is(nr, 0, &[referee])?;
    }
    rules.when_arg_is(
        libc::SYS_fcntl,
        1,
        &[libc::F_SETOWN as u64, F_SETOWN_EX, F_SETSIG],
    )?;
    // Kernel objects that two jails can both lock or watch on a file they both see (a
    // system file, a kit, `/dev/null`, even the one inode behind every eventfd and epoll
    // fd): a channel between champions whatever their namespaces.
    rules.when_arg_is(
        libc::SYS_fcntl,
        1,
        &[
            libc::F_GETLK as u64,
            libc::F_SETLK as u64,
            libc::F_SETLKW as u64,
            libc::F_OFD_GETLK as u64,
            libc::F_OFD_SETLK as u64,
            libc::F_OFD_SETLKW as u64,
            libc::F_SETLEASE as u64,
            libc::F_GETLEASE as u64,
            libc::F_NOTIFY as u64,
        ],
    )?;
    rules.always(&[libc::SYS_inotify_init1, libc::SYS_inotify_add_watch]);
    #[cfg(target_arch = "x86_64")]
    rules.always(&[libc::SYS_inotify_init]);
    rules.when_arg_is(
        libc::SYS_ioctl,
        1,
        &[FIOSETOWN, SIOCSPGRP, TIOCSTI, TIOCLINUX, TIOCSPGRP],
    )?;
    // The referee pins a match and its champions to one CPU: a champion may not leave it
    // (its threads would take the CPU of another match's champion).
    rules.always(&[libc::SYS_sched_setaffinity]);
    // Another process than the caller (pid 0).
    for nr in [
        libc::SYS_prlimit64,
        libc::SYS_sched_setscheduler,
        libc::SYS_sched_setparam,
        libc::SYS_sched_setattr,
        libc::SYS_move_pages,
    ] {
        rules.when(nr, &[(0, Op::Ne, 0)])?;
    }
    rules.when(libc::SYS_setpriority, &[(1, Op::Ne, 0)])?;
    rules.when_arg_is(libc::SYS_setpriority, 0, &[libc::PRIO_USER as u64])?;
    rules.when(libc::SYS_ioprio_set, &[(1, Op::Ne, 0)])?;
    rules.when_arg_is(libc::SYS_ioprio_set, 0, &[IOPRIO_WHO_USER])?;
    rules.when(
        libc::SYS_personality,
        &[(0, Op::Ne, 0), (0, Op::Ne, PERSONALITY_QUERY)],
    )?;
    rules.when_arg_is(libc::SYS_prctl, 0, &[libc::PR_SCHED_CORE as u64])?;
    // Memory that escapes RLIMIT_DATA; huge pages, which no memory count holds (they come
    // from the machine's pool, outside `memory.max` and the resident memory of a process).
    rules.when_any_flag(
        libc::SYS_mmap,
        3,
        &[libc::MAP_GROWSDOWN as u64, libc::MAP_HUGETLB as u64],
    )?;
    rules.when_any_flag(libc::SYS_memfd_create, 1, &[libc::MFD_HUGETLB as u64])?;
    if deny_shared_memory {
        let (shared, anonymous) = (libc::MAP_SHARED as u64, libc::MAP_ANONYMOUS as u64);
        rules.when(
            libc::SYS_mmap,
            &[
                (3, Op::MaskedEq(shared as u32), shared),
                (3, Op::MaskedEq(anonymous as u32), anonymous),
            ],
        )?;
        rules.always(&[libc::SYS_memfd_create]);
    }
    Ok(rules.0)
}

/// The setters of extended attributes, answered `ENOTSUP`.
fn xattr_list() -> BTreeMap<u32, Vec<Rule>> {
    let mut rules = Rules::default();
    rules.always(&[
        libc::SYS_setxattr,
        libc::SYS_lsetxattr,
        libc::SYS_fsetxattr,
        SYS_SETXATTRAT,
    ]);
    rules.0
}

pub(crate) fn build(deny_shared_memory: bool) -> Result<Filters, String> {
    programs(deny_shared_memory).map_err(|e| e.to_string())
}

/// The tables, in the order the kernel gave them when each was a filter of its own,
/// installed in turn from the deny list to the futex program: the one installed last first.
fn tables(deny_shared_memory: bool) -> Result<Vec<Table>, BadRule> {
    // SAFETY: no arguments.
    let group = i64::from(unsafe { libc::getpgrp() });
    let rules = deny_list(i64::from(std::process::id()), group, deny_shared_memory)?;
    let errno = |e: i32| libc::SECCOMP_RET_ERRNO | e as u32;
    let mut enosys = BTreeMap::from([(number(libc::SYS_clone3), Vec::new())]);
    enosys.extend(page_cache::absent());
    let mut skip = BTreeMap::from([
        (number(libc::SYS_flock), Vec::new()),
        (number(libc::SYS_sync), Vec::new()),
        (number(libc::SYS_syncfs), Vec::new()),
    ]);
    skip.extend(page_cache::skipped()?);
    let mut unsupported = xattr_list();
    unsupported.extend(page_cache::unsupported()?);
    Ok(vec![
        Table {
            answer: errno(libc::ENOTSUP),
            rules: unsupported,
        },
        Table {
            answer: errno(0),
            rules: skip,
        },
        Table {
            answer: errno(libc::ENOSYS),
            rules: enosys,
        },
        Table {
            answer: errno(libc::EPERM),
            rules,
        },
    ])
}

fn programs(deny_shared_memory: bool) -> Result<Filters, Box<dyn std::error::Error>> {
    let tables = tables(deny_shared_memory)?;
    let whole = |variant| -> Result<futex::Program, String> {
        let futex = futex::build(variant);
        dispatch::compile(futex::AUDIT_ARCH, &tables, &futex::NUMBERS, &futex.0).map(futex::Program)
    };
    Ok(Filters {
        notify: whole(futex::Variant::Notify)?,
        spin: whole(futex::Variant::Spin)?,
    })
}

#[cfg(test)]
mod tests {
    //! Each rule, in a forked child under the filters: the denied calls get `EPERM`, the
    //! calls next to them do not. The arguments are harmless without the filter too (a bad
    //! fd, a pid that does not exist, the caller itself, signal 0), and `plain` calls would
    //! get another answer than `EPERM` from the kernel, even as a user: for them, the
    //! `EPERM` is the filter's.

    use super::*;
    use libc::c_long;
    use std::ptr::null;

    /// What a call gets under the filters.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Expect {
        /// `EPERM` from the filter; without it, never `EPERM`.
        Denied,
        /// `EPERM` from the filter; without it, `EPERM` too where the caller lacks a
        /// capability, or where a sysctl forbids the call.
        DeniedPrivileged,
        /// Through the filter: whatever the kernel answers, but not `EPERM`.
        Allowed,
        /// `ENOSYS` (clone3).
        Enosys,
        /// 0, the call skipped (flock), whatever it would have got.
        Skipped,
        /// `ENOTSUP` (the setters of extended attributes).
        Unsupported,
        /// Exactly what the same call gets without the filters.
        Unfiltered,
    }
    use Expect::*;

    /// A pid that no process has (above the largest `pid_max`).
    const NO_PID: c_long = 0x7fff_fff0;

    struct Case {
        name: &'static str,
        expect: Expect,
        /// Run in the child before the filters are installed.
        before: fn(),
        /// The call: negative with `errno` set on failure.
        call: Box<dyn Fn() -> c_long>,
    }

    fn case(name: &'static str, expect: Expect, call: impl Fn() -> c_long + 'static) -> Case {
        Case {
            name,
            expect,
            before: || {},
            call: Box::new(call),
        }
    }

    /// A raw system call.
    macro_rules! sys {
        ($nr:expr $(, $arg:expr)*) => {
            // SAFETY: every argument is a plain value or a pointer to a live local; the
            // calls are harmless (see the module's comment).
            unsafe { libc::syscall($nr $(, $arg)*) }
        };
    }

    /// The caller's pid.
    fn me() -> c_long {
        // SAFETY: no arguments.
        c_long::from(unsafe { libc::getpid() })
    }

    /// `clone` without a new stack (a fork): the child leaves at once.
    fn clone_with(flags: c_long) -> c_long {
        let r = sys!(libc::SYS_clone, flags | libc::SIGCHLD as c_long, 0, 0, 0, 0);
        if r == 0 {
            // SAFETY: the forked child leaves without running anything.
            unsafe { libc::_exit(0) };
        }
        r
    }

    /// Root gives itself up for a uid of nobody's (calls that act on every process of the
    /// caller's uid must not reach root's processes should the filter fail).
    fn drop_root() {
        // SAFETY: plain syscalls in the forked child.
        unsafe {
            if libc::geteuid() == 0 {
                let id = 0x7ffe_0000;
                libc::setgroups(0, null());
                libc::setresgid(id, id, id);
                libc::setresuid(id, id, id);
            }
        }
    }

    /// The child of a new session has no controlling terminal (for `vhangup`).
    fn new_session() {
        // SAFETY: no arguments.
        unsafe { libc::setsid() };
    }

    /// The errno of `case` in a child, under `filters` if any (0 on success).
    fn errno(filters: Option<&Filters>, case: &Case) -> i32 {
        let result = crate::sandbox::netns::try_in_child(|| {
            (case.before)();
            if let Some(filters) = filters {
                // SAFETY: plain prctl.
                if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
                    return Err(io::Error::from_raw_os_error(250));
                }
                filters
                    .apply()
                    .map_err(|_| io::Error::from_raw_os_error(251))?;
            }
            if (case.call)() < 0 {
                Err(io::Error::last_os_error())
            } else {
                Ok(())
            }
        });
        match result {
            Ok(()) => 0,
            Err(e) => e.raw_os_error().unwrap_or(-1),
        }
    }

    /// The cases of every rule but the shared-memory ones.
    fn cases() -> Vec<Case> {
        // SAFETY: no arguments.
        let referee = c_long::from(unsafe { libc::getpid() });
        // SAFETY: no arguments.
        let group = c_long::from(unsafe { libc::getpgrp() });
        let mut v = vec![
            case("setsid", Denied, || sys!(libc::SYS_setsid)),
            case("setpgid", Denied, || sys!(libc::SYS_setpgid, 0, 0)),
            case("ptrace", Denied, move || {
                sys!(libc::SYS_ptrace, libc::PTRACE_PEEKDATA, referee, 0, 0)
            }),
            case("process_vm_readv", Denied, move || {
                sys!(libc::SYS_process_vm_readv, referee, 0, 0, 0, 0, 0)
            }),
            case("process_vm_writev", Denied, move || {
                sys!(libc::SYS_process_vm_writev, referee, 0, 0, 0, 0, 0)
            }),
            case("kcmp", Denied, || {
                let me = me();
                sys!(libc::SYS_kcmp, me, me, 1 /* KCMP_VM */, 0, 0)
            }),
            case("pidfd_getfd", Denied, || {
                sys!(libc::SYS_pidfd_getfd, -1, 0, 0)
            }),
            case("process_madvise", Denied, || {
                sys!(libc::SYS_process_madvise, -1, 0, 0, 0, 0)
            }),
            case("process_mrelease", Denied, || {
                sys!(libc::SYS_process_mrelease, -1, 0)
            }),
            case("migrate_pages", Denied, || {
                sys!(libc::SYS_migrate_pages, NO_PID, 0, 0, 0)
            }),
            case("rt_sigqueueinfo", Denied, || {
                let mut info = [0i32; 32];
                info[2] = -1; // si_code = SI_QUEUE
                let me = me();
                sys!(libc::SYS_rt_sigqueueinfo, me, 0, info.as_mut_ptr())
            }),
            case("rt_tgsigqueueinfo", Denied, || {
                let mut info = [0i32; 32];
                info[2] = -1;
                let me = me();
                sys!(libc::SYS_rt_tgsigqueueinfo, me, me, 0, info.as_mut_ptr())
            }),
            case("pidfd_send_signal", Denied, || {
                sys!(libc::SYS_pidfd_send_signal, -1, 0, 0, 0)
            }),
            case("unshare(0)", Denied, || sys!(libc::SYS_unshare, 0)),
            case("setns", Denied, || sys!(libc::SYS_setns, -1, 0)),
            case("mount", DeniedPrivileged, || {
                sys!(libc::SYS_mount, 0, 0, 0, 0, 0)
            }),
            case("umount2", DeniedPrivileged, || {
                sys!(libc::SYS_umount2, c"/nonexistent-referee".as_ptr(), 0)
            }),
            case("pivot_root", DeniedPrivileged, || {
                let p = c"/nonexistent-referee".as_ptr();
                sys!(libc::SYS_pivot_root, p, p)
            }),
            case("chroot", DeniedPrivileged, || {
                sys!(libc::SYS_chroot, c"/nonexistent-referee".as_ptr())
            }),
            case("fsopen", DeniedPrivileged, || sys!(libc::SYS_fsopen, 0, 0)),
            case("fsmount", DeniedPrivileged, || {
                sys!(libc::SYS_fsmount, -1, 0, 0)
            }),
            case("fspick", DeniedPrivileged, || {
                sys!(libc::SYS_fspick, -1, 0, 0)
            }),
            case("open_tree", DeniedPrivileged, || {
                sys!(libc::SYS_open_tree, -1, 0, 0)
            }),
            case("open_tree_attr", DeniedPrivileged, || {
                sys!(SYS_OPEN_TREE_ATTR, -1, 0, 0, 0, 0)
            }),
            case("move_mount", DeniedPrivileged, || {
                sys!(libc::SYS_move_mount, -1, 0, -1, 0, 0)
            }),
            case("mount_setattr", DeniedPrivileged, || {
                sys!(libc::SYS_mount_setattr, -1, 0, 0, 0, 0)
            }),
            case("bpf", DeniedPrivileged, || sys!(libc::SYS_bpf, 9999, 0, 0)),
            case("perf_event_open", DeniedPrivileged, || {
                sys!(libc::SYS_perf_event_open, 0, 0, -1, -1, 0)
            }),
            case("keyctl", Denied, || {
                sys!(libc::SYS_keyctl, 9999, 0, 0, 0, 0)
            }),
            case("add_key", Denied, || sys!(libc::SYS_add_key, 0, 0, 0, 0, 0)),
            case("request_key", Denied, || {
                sys!(libc::SYS_request_key, 0, 0, 0, 0)
            }),
            case("io_uring_setup", DeniedPrivileged, || {
                sys!(libc::SYS_io_uring_setup, 0, 0)
            }),
            case("io_uring_enter", DeniedPrivileged, || {
                sys!(libc::SYS_io_uring_enter, -1, 0, 0, 0, 0, 0)
            }),
            case("io_uring_register", DeniedPrivileged, || {
                sys!(libc::SYS_io_uring_register, -1, 0, 0, 0)
            }),
            case("io_setup", Denied, || sys!(libc::SYS_io_setup, 0, 0)),
            case("userfaultfd", DeniedPrivileged, || {
                sys!(libc::SYS_userfaultfd, 0x7fff_ffff)
            }),
            case("open_by_handle_at", DeniedPrivileged, || {
                sys!(libc::SYS_open_by_handle_at, -1, 0, 0)
            }),
            case("name_to_handle_at", Denied, || {
                sys!(libc::SYS_name_to_handle_at, libc::AT_FDCWD, 0, 0, 0, 0)
            }),
            case("fanotify_init", DeniedPrivileged, || {
                sys!(libc::SYS_fanotify_init, 0x7fff_ffff, 0)
            }),
            case("memfd_secret", Denied, || {
                sys!(libc::SYS_memfd_secret, 0x7fff_ffff)
            }),
            case("vmsplice", Denied, || sys!(libc::SYS_vmsplice, -1, 0, 0, 0)),
            case("lookup_dcookie", DeniedPrivileged, || {
                sys!(libc::SYS_lookup_dcookie, 0, 0, 0)
            }),
            case("nfsservctl", Denied, || sys!(libc::SYS_nfsservctl, 0, 0, 0)),
            case("shmget", Denied, || {
                sys!(libc::SYS_shmget, libc::IPC_PRIVATE, 0, 0)
            }),
            case("shmat", Denied, || sys!(libc::SYS_shmat, -1, 0, 0)),
            case("shmctl", Denied, || {
                sys!(libc::SYS_shmctl, -1, libc::IPC_STAT, 0)
            }),
            case("msgget", Denied, || sys!(libc::SYS_msgget, 0x7e57_0001, 0)),
            case("msgsnd", Denied, || sys!(libc::SYS_msgsnd, -1, 0, 0, 0)),
            case("msgrcv", Denied, || sys!(libc::SYS_msgrcv, -1, 0, 0, 0, 0)),
            case("msgctl", Denied, || {
                sys!(libc::SYS_msgctl, -1, libc::IPC_STAT, 0)
            }),
            case("semget", Denied, || {
                sys!(libc::SYS_semget, 0x7e57_0001, 0, 0)
            }),
            case("semop", Denied, || sys!(libc::SYS_semop, -1, 0, 0)),
            case("semtimedop", Denied, || {
                sys!(libc::SYS_semtimedop, -1, 0, 0, 0)
            }),
            case("semctl", Denied, || {
                sys!(libc::SYS_semctl, -1, 0, libc::IPC_STAT, 0)
            }),
            case("mq_open", Denied, || sys!(libc::SYS_mq_open, 0, 0, 0, 0)),
            case("mq_unlink", Denied, || sys!(libc::SYS_mq_unlink, 0)),
            case("kexec_load", DeniedPrivileged, || {
                sys!(libc::SYS_kexec_load, 0, 0xffff, 0, 0)
            }),
            case("kexec_file_load", DeniedPrivileged, || {
                sys!(libc::SYS_kexec_file_load, -1, -1, 0, 0, 0x7fff_ffff)
            }),
            case("init_module", DeniedPrivileged, || {
                sys!(libc::SYS_init_module, 0, 0, 0)
            }),
            case("finit_module", DeniedPrivileged, || {
                sys!(libc::SYS_finit_module, -1, 0, 0)
            }),
            case("delete_module", DeniedPrivileged, || {
                sys!(libc::SYS_delete_module, c"no_such_module_ref".as_ptr(), 0)
            }),
            // Not a valid magic number: EINVAL without the filter.
            case("reboot", DeniedPrivileged, || {
                sys!(libc::SYS_reboot, 0, 0, 0, 0)
            }),
            case("swapon", DeniedPrivileged, || {
                sys!(libc::SYS_swapon, c"/nonexistent-referee".as_ptr(), 0)
            }),
            case("swapoff", DeniedPrivileged, || {
                sys!(libc::SYS_swapoff, c"/nonexistent-referee".as_ptr())
            }),
            case("acct", DeniedPrivileged, || {
                sys!(libc::SYS_acct, c"/nonexistent-referee/acct".as_ptr())
            }),
            case("quotactl", DeniedPrivileged, || {
                sys!(libc::SYS_quotactl, 0x7fff_ffff, 0, 0, 0)
            }),
            case("quotactl_fd", DeniedPrivileged, || {
                sys!(libc::SYS_quotactl_fd, -1, 0, 0, 0)
            }),
            // SYSLOG_ACTION_SIZE_BUFFER: reads a size.
            case("syslog", DeniedPrivileged, || {
                sys!(libc::SYS_syslog, 10, 0, 0)
            }),
            Case {
                before: new_session,
                ..case("vhangup", DeniedPrivileged, || sys!(libc::SYS_vhangup))
            },
            // No time given: sets nothing.
            case("settimeofday", DeniedPrivileged, || {
                sys!(libc::SYS_settimeofday, 0, 0)
            }),
            case("clock_settime", DeniedPrivileged, || {
                let ts = [0i64; 2];
                sys!(libc::SYS_clock_settime, libc::CLOCK_MONOTONIC, ts.as_ptr())
            }),
            case("clock_adjtime", DeniedPrivileged, || {
                sys!(libc::SYS_clock_adjtime, libc::CLOCK_REALTIME, 0)
            }),
            case("adjtimex", DeniedPrivileged, || sys!(libc::SYS_adjtimex, 0)),
            case("sethostname", DeniedPrivileged, || {
                sys!(libc::SYS_sethostname, c"x".as_ptr(), 100_000)
            }),
            case("setdomainname", DeniedPrivileged, || {
                sys!(libc::SYS_setdomainname, c"x".as_ptr(), 100_000)
            }),
            case("socket(AF_INET)", Denied, || {
                sys!(libc::SYS_socket, libc::AF_INET, libc::SOCK_STREAM, 0)
            }),
            case("socket(AF_NETLINK)", Denied, || {
                sys!(libc::SYS_socket, libc::AF_NETLINK, libc::SOCK_RAW, 0)
            }),
            case("socket(AF_UNIX)", Allowed, || {
                sys!(libc::SYS_socket, libc::AF_UNIX, libc::SOCK_STREAM, 0)
            }),
            case("clone(CLONE_PARENT)", Denied, || {
                clone_with(libc::CLONE_PARENT as c_long)
            }),
            case("clone(CLONE_NEWUSER)", DeniedPrivileged, || {
                clone_with(libc::CLONE_NEWUSER as c_long)
            }),
            case("clone(CLONE_NEWNET)", DeniedPrivileged, || {
                clone_with(libc::CLONE_NEWNET as c_long)
            }),
            case("clone(CLONE_NEWNS)", DeniedPrivileged, || {
                clone_with(libc::CLONE_NEWNS as c_long)
            }),
            case("clone(CLONE_NEWPID)", DeniedPrivileged, || {
                clone_with(libc::CLONE_NEWPID as c_long)
            }),
            case("clone(CLONE_NEWIPC)", DeniedPrivileged, || {
                clone_with(libc::CLONE_NEWIPC as c_long)
            }),
            case("clone(CLONE_NEWUTS)", DeniedPrivileged, || {
                clone_with(libc::CLONE_NEWUTS as c_long)
            }),
            case("clone(CLONE_NEWCGROUP)", DeniedPrivileged, || {
                clone_with(libc::CLONE_NEWCGROUP as c_long)
            }),
            case("clone (a fork)", Allowed, || clone_with(0)),
            case("clone3", Enosys, || sys!(libc::SYS_clone3, 0, 0)),
            case("kill(referee)", Denied, move || {
                sys!(libc::SYS_kill, referee, 0)
            }),
            case("kill(-1)", Denied, || sys!(libc::SYS_kill, -1, 0)),
            case("kill(-referee's group)", Denied, move || {
                sys!(libc::SYS_kill, -group, 0)
            }),
            case("kill(self)", Allowed, || sys!(libc::SYS_kill, me(), 0)),
            case("tkill(referee)", Denied, move || {
                sys!(libc::SYS_tkill, referee, 0)
            }),
            case("tgkill(referee)", Denied, move || {
                sys!(libc::SYS_tgkill, referee, referee, 0)
            }),
            case("pidfd_open(referee)", Denied, move || {
                sys!(libc::SYS_pidfd_open, referee, 0)
            }),
            case("pidfd_open(self)", Allowed, || {
                sys!(libc::SYS_pidfd_open, me(), 0)
            }),
            case("fcntl(F_SETOWN)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_SETOWN, 0)
            }),
            case("fcntl(F_SETOWN_EX)", Denied, || {
                sys!(libc::SYS_fcntl, -1, F_SETOWN_EX, 0)
            }),
            case("fcntl(F_SETSIG)", Denied, || {
                sys!(libc::SYS_fcntl, -1, F_SETSIG, 0)
            }),
            // The kernel reads `cmd` as an int: high bits change nothing.
            case("fcntl(F_SETOWN | high bits)", Denied, || {
                sys!(libc::SYS_fcntl, -1, (1 << 32) | libc::F_SETOWN as c_long, 0)
            }),
            case("fcntl(F_GETOWN)", Allowed, || {
                sys!(libc::SYS_fcntl, -1, libc::F_GETOWN, 0)
            }),
            case("fcntl(F_SETFL)", Allowed, || {
                sys!(libc::SYS_fcntl, -1, libc::F_SETFL, 0)
            }),
            case("fcntl(F_GETLK)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_GETLK, 0)
            }),
            case("fcntl(F_SETLK)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_SETLK, 0)
            }),
            case("fcntl(F_SETLKW)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_SETLKW, 0)
            }),
            case("fcntl(F_OFD_GETLK)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_OFD_GETLK, 0)
            }),
            case("fcntl(F_OFD_SETLK)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_OFD_SETLK, 0)
            }),
            case("fcntl(F_OFD_SETLKW)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_OFD_SETLKW, 0)
            }),
            case("fcntl(F_SETLEASE)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_SETLEASE, 0)
            }),
            case("fcntl(F_GETLEASE)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_GETLEASE, 0)
            }),
            case("fcntl(F_NOTIFY)", Denied, || {
                sys!(libc::SYS_fcntl, -1, libc::F_NOTIFY, 0)
            }),
            // A bad fd: EBADF without the filter, 0 (skipped) under it.
            case("flock", Skipped, || {
                sys!(libc::SYS_flock, -1, libc::LOCK_SH)
            }),
            // A bad fd: EBADF without the filter, 0 (skipped) under it.
            case("syncfs", Skipped, || sys!(libc::SYS_syncfs, -1)),
            // 0 either way: what tells is quota's count of syncs, which a real one moves.
            case("sync", Skipped, || {
                let syncs = || std::fs::read_to_string("/proc/sys/fs/quota/syncs").ok();
                let before = syncs();
                // SAFETY: no arguments.
                unsafe { libc::sync() };
                if before.is_some() && syncs() != before {
                    // SAFETY: errno of this thread.
                    unsafe { *libc::__errno_location() = libc::EIO };
                    -1
                } else {
                    0
                }
            }),
            case("inotify_init1", Denied, || {
                sys!(libc::SYS_inotify_init1, -1)
            }),
            case("inotify_add_watch", Denied, || {
                sys!(libc::SYS_inotify_add_watch, -1, c"/".as_ptr(), 0)
            }),
            case("ioctl(FIOSETOWN)", Denied, || {
                sys!(libc::SYS_ioctl, -1, FIOSETOWN, 0)
            }),
            case("ioctl(SIOCSPGRP)", Denied, || {
                sys!(libc::SYS_ioctl, -1, SIOCSPGRP, 0)
            }),
            case("ioctl(TIOCSTI)", Denied, || {
                sys!(libc::SYS_ioctl, -1, TIOCSTI, 0)
            }),
            case("ioctl(TIOCSTI | high bits)", Denied, || {
                sys!(libc::SYS_ioctl, -1, (1u64 << 32) | TIOCSTI, 0)
            }),
            case("ioctl(TIOCLINUX)", Denied, || {
                sys!(libc::SYS_ioctl, -1, TIOCLINUX, 0)
            }),
            case("ioctl(TIOCSPGRP)", Denied, || {
                sys!(libc::SYS_ioctl, -1, TIOCSPGRP, 0)
            }),
            case("ioctl(FIONREAD)", Allowed, || {
                sys!(libc::SYS_ioctl, -1, libc::FIONREAD, 0)
            }),
            case("prlimit64(other)", Denied, || {
                let mut old = [0u64; 2];
                sys!(
                    libc::SYS_prlimit64,
                    NO_PID,
                    libc::RLIMIT_NOFILE,
                    0,
                    old.as_mut_ptr()
                )
            }),
            case("prlimit64(0)", Allowed, || {
                let mut old = [0u64; 2];
                sys!(
                    libc::SYS_prlimit64,
                    0,
                    libc::RLIMIT_NOFILE,
                    0,
                    old.as_mut_ptr()
                )
            }),
            case("sched_setaffinity(other)", Denied, || {
                sys!(libc::SYS_sched_setaffinity, NO_PID, 0, 0)
            }),
            case("sched_setaffinity(0)", Denied, || {
                sys!(libc::SYS_sched_setaffinity, 0, 0, 0)
            }),
            case("sched_setscheduler(other)", Denied, || {
                sys!(libc::SYS_sched_setscheduler, NO_PID, 0, 0)
            }),
            case("sched_setscheduler(0)", Allowed, || {
                sys!(libc::SYS_sched_setscheduler, 0, 0, 0)
            }),
            case("sched_setparam(other)", Denied, || {
                sys!(libc::SYS_sched_setparam, NO_PID, 0)
            }),
            case("sched_setparam(0)", Allowed, || {
                sys!(libc::SYS_sched_setparam, 0, 0)
            }),
            case("sched_setattr(other)", Denied, || {
                sys!(libc::SYS_sched_setattr, NO_PID, 0, 0)
            }),
            case("sched_setattr(0)", Allowed, || {
                sys!(libc::SYS_sched_setattr, 0, 0, 0)
            }),
            case("move_pages(other)", Denied, || {
                sys!(libc::SYS_move_pages, NO_PID, 0, 0, 0, 0, 0)
            }),
            case("move_pages(0)", Allowed, || {
                sys!(libc::SYS_move_pages, 0, 0, 0, 0, 0, 0)
            }),
            case("setpriority(PRIO_PROCESS, other)", Denied, || {
                sys!(libc::SYS_setpriority, libc::PRIO_PROCESS, NO_PID, 19)
            }),
            case("setpriority(PRIO_PROCESS, 0)", Allowed, || {
                sys!(libc::SYS_setpriority, libc::PRIO_PROCESS, 0, 19)
            }),
            // Without the filter: EACCES (a user cannot lower a nice value).
            Case {
                before: drop_root,
                ..case("setpriority(PRIO_USER, 0)", Denied, || {
                    sys!(libc::SYS_setpriority, libc::PRIO_USER, 0, -20)
                })
            },
            case("ioprio_set(process, other)", Denied, || {
                sys!(libc::SYS_ioprio_set, 1, NO_PID, 4 | 2 << 13)
            }),
            // An invalid class: EINVAL without the filter.
            case("ioprio_set(user, 0)", Denied, || {
                sys!(libc::SYS_ioprio_set, IOPRIO_WHO_USER, 0, 7 << 13)
            }),
            case("ioprio_set(process, 0)", Allowed, || {
                sys!(libc::SYS_ioprio_set, 1, 0, 7 << 13)
            }),
            case("personality(ADDR_NO_RANDOMIZE)", Denied, || {
                sys!(libc::SYS_personality, libc::ADDR_NO_RANDOMIZE)
            }),
            case("personality(READ_IMPLIES_EXEC)", Denied, || {
                sys!(libc::SYS_personality, libc::READ_IMPLIES_EXEC)
            }),
            case("personality(query)", Allowed, || {
                sys!(libc::SYS_personality, PERSONALITY_QUERY)
            }),
            case("personality(PER_LINUX)", Allowed, || {
                sys!(libc::SYS_personality, 0)
            }),
            case("prctl(PR_SCHED_CORE)", Denied, || {
                sys!(libc::SYS_prctl, libc::PR_SCHED_CORE, 0xff, 0, 0, 0)
            }),
            case("prctl(PR_GET_DUMPABLE)", Allowed, || {
                sys!(libc::SYS_prctl, libc::PR_GET_DUMPABLE, 0, 0, 0, 0)
            }),
            case("mmap(MAP_GROWSDOWN)", Denied, || {
                mmap(libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_GROWSDOWN)
            }),
            case("mmap(MAP_PRIVATE | MAP_ANONYMOUS)", Allowed, || {
                mmap(libc::MAP_PRIVATE | libc::MAP_ANONYMOUS)
            }),
            // No huge page in the pool, or one: ENOMEM or a mapping, never EPERM.
            case("mmap(MAP_HUGETLB)", Denied, || {
                mmap(libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_HUGETLB)
            }),
            case("memfd_create(MFD_HUGETLB)", Denied, || {
                // SAFETY: a valid name.
                c_long::from(unsafe { libc::memfd_create(c"x".as_ptr(), libc::MFD_HUGETLB) })
            }),
            case("mmap(MAP_STACK)", Allowed, || {
                mmap(libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK)
            }),
            case("mremap", Allowed, || sys!(libc::SYS_mremap, 0, 0, 0, 0, 0)),
        ];
        v.extend(x86_64_cases());
        v.extend(xattr_cases());
        v.extend(page_cache_cases());
        v
    }

    /// The page cache's rules (`page_cache.rs`), on a bad fd or an unmapped page (without
    /// the filters: `EBADF` or `ENOMEM`); the advice and flags next to them stay through.
    fn page_cache_cases() -> Vec<Case> {
        let advise = |advice: i32| move || sys!(libc::SYS_fadvise64, -1, 0, 0, advice);
        let madvise = |advice: i32| move || sys!(libc::SYS_madvise, 0, 4096, advice);
        let vector = |flags: c_long| {
            move || {
                let mut byte = 0u8;
                let iov = libc::iovec {
                    iov_base: (&raw mut byte).cast(),
                    iov_len: 1,
                };
                let read = sys!(libc::SYS_preadv2, -1, &raw const iov, 1, 0, 0, flags);
                let write = sys!(libc::SYS_pwritev2, -1, &raw const iov, 1, 0, 0, flags);
                // Both fail alike, or the case fails (`EIO` is neither answer).
                if read == write {
                    read
                } else {
                    // SAFETY: sets the calling thread's errno.
                    unsafe { *libc::__errno_location() = libc::EIO };
                    -1
                }
            }
        };
        let nowait = c_long::from(libc::RWF_NOWAIT);
        vec![
            case(
                "fadvise64(DONTNEED)",
                Skipped,
                advise(libc::POSIX_FADV_DONTNEED),
            ),
            case(
                "fadvise64(NOREUSE)",
                Skipped,
                advise(libc::POSIX_FADV_NOREUSE),
            ),
            case(
                "fadvise64(WILLNEED)",
                Unfiltered,
                advise(libc::POSIX_FADV_WILLNEED),
            ),
            case(
                "fadvise64(RANDOM)",
                Unfiltered,
                advise(libc::POSIX_FADV_RANDOM),
            ),
            case(
                "madvise(MADV_PAGEOUT)",
                Skipped,
                madvise(libc::MADV_PAGEOUT),
            ),
            case("madvise(MADV_COLD)", Skipped, madvise(libc::MADV_COLD)),
            case(
                "madvise(MADV_WILLNEED)",
                Unfiltered,
                madvise(libc::MADV_WILLNEED),
            ),
            case(
                "madvise(MADV_DONTNEED)",
                Unfiltered,
                madvise(libc::MADV_DONTNEED),
            ),
            case("preadv2/pwritev2(RWF_NOWAIT)", Unsupported, vector(nowait)),
            case(
                "preadv2/pwritev2(RWF_NOWAIT | RWF_HIPRI)",
                Unsupported,
                vector(nowait | c_long::from(libc::RWF_HIPRI)),
            ),
            case("preadv2/pwritev2(0)", Unfiltered, vector(0)),
            case(
                "preadv2/pwritev2(RWF_HIPRI)",
                Unfiltered,
                vector(c_long::from(libc::RWF_HIPRI)),
            ),
            case("mincore", Enosys, || {
                let mut vec = [0u8; 1];
                sys!(libc::SYS_mincore, 0, 4096, vec.as_mut_ptr())
            }),
            case(CACHESTAT_CASE, Enosys, || {
                sys!(page_cache::CACHESTAT, -1, 0, 0, 0)
            }),
        ]
    }

    /// A kernel before 6.5 answers `ENOSYS` to `cachestat` without the filters too.
    const CACHESTAT_CASE: &str = "cachestat";

    /// The setters of extended attributes on a file that does not exist (without the
    /// filters: `ENOENT` or `EBADF`); reading and removing stay allowed.
    fn xattr_cases() -> Vec<Case> {
        let path = c"/nonexistent-referee";
        let name = c"user.x";
        vec![
            case("setxattr", Unsupported, move || {
                sys!(
                    libc::SYS_setxattr,
                    path.as_ptr(),
                    name.as_ptr(),
                    c"v".as_ptr(),
                    1,
                    0
                )
            }),
            case("lsetxattr", Unsupported, move || {
                sys!(
                    libc::SYS_lsetxattr,
                    path.as_ptr(),
                    name.as_ptr(),
                    c"v".as_ptr(),
                    1,
                    0
                )
            }),
            case("fsetxattr", Unsupported, move || {
                sys!(libc::SYS_fsetxattr, -1, name.as_ptr(), c"v".as_ptr(), 1, 0)
            }),
            case("setxattrat", Unsupported, move || {
                sys!(SYS_SETXATTRAT, -1, path.as_ptr(), 0, name.as_ptr(), 0, 0)
            }),
            case("removexattr", Unfiltered, move || {
                sys!(libc::SYS_removexattr, path.as_ptr(), name.as_ptr())
            }),
            case("getxattr", Unfiltered, move || {
                sys!(libc::SYS_getxattr, path.as_ptr(), name.as_ptr(), 0, 0)
            }),
        ]
    }

    /// The calls only x86_64 has.
    #[cfg(target_arch = "x86_64")]
    fn x86_64_cases() -> Vec<Case> {
        vec![
            case("uselib", Denied, || sys!(libc::SYS_uselib, 0)),
            case("inotify_init", Denied, || sys!(libc::SYS_inotify_init)),
            case("iopl", Denied, || sys!(libc::SYS_iopl, 4)),
            case("ioperm", Denied, || sys!(libc::SYS_ioperm, 0x10000, 1, 1)),
            case("modify_ldt", Denied, || {
                let mut buf = [0u8; 16];
                sys!(libc::SYS_modify_ldt, 0, buf.as_mut_ptr(), 0)
            }),
        ]
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn x86_64_cases() -> Vec<Case> {
        Vec::new()
    }

    /// One page mapped with `flags`, read-write.
    fn mmap(flags: i32) -> c_long {
        // SAFETY: a fresh mapping, never used.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                flags,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            -1
        } else {
            0
        }
    }

    fn shared_memory_cases() -> Vec<Case> {
        vec![
            case("mmap(MAP_SHARED | MAP_ANONYMOUS)", Denied, || {
                mmap(libc::MAP_SHARED | libc::MAP_ANONYMOUS)
            }),
            case("mmap(MAP_SHARED_VALIDATE | MAP_ANONYMOUS)", Denied, || {
                mmap(libc::MAP_SHARED_VALIDATE | libc::MAP_ANONYMOUS)
            }),
            case("memfd_create", Denied, || {
                // SAFETY: a valid name.
                c_long::from(unsafe { libc::memfd_create(c"x".as_ptr(), 0) })
            }),
        ]
    }

    /// The errors that differ from what `case` expects.
    fn check(filters: &Filters, cases: &[Case]) -> Vec<String> {
        let mut wrong = Vec::new();
        for case in cases {
            let got = errno(Some(filters), case);
            let ok = match case.expect {
                Denied | DeniedPrivileged => got == libc::EPERM,
                Allowed => got != libc::EPERM && got < 250,
                Enosys => got == libc::ENOSYS,
                Skipped => got == 0,
                Unsupported => got == libc::ENOTSUP,
                Unfiltered => got == errno(None, case),
            };
            if !ok {
                wrong.push(format!(
                    "{}: expected {:?}, got {}",
                    case.name,
                    case.expect,
                    io::Error::from_raw_os_error(got)
                ));
            }
        }
        wrong
    }

    #[test]
    fn every_rule_denies_what_it_should_and_no_more() {
        for deny_shared_memory in [false, true] {
            let filters = build(deny_shared_memory).unwrap();
            let wrong = check(&filters, &cases());
            assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        }
    }

    #[test]
    fn shared_memory_is_denied_only_without_a_memory_cgroup() {
        let cases = shared_memory_cases();
        let wrong = check(&build(true).unwrap(), &cases);
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        let with_cgroup = build(false).unwrap();
        for case in &cases {
            let got = errno(Some(&with_cgroup), case);
            assert_ne!(got, libc::EPERM, "{} with a memory cgroup", case.name);
        }
    }

    /// Without the filters, the `Denied` calls get something else than `EPERM`: the tests
    /// above see the filter's answer, not the kernel's.
    #[test]
    fn the_denied_calls_are_not_eperm_without_the_filter() {
        let mut cases = cases();
        cases.extend(shared_memory_cases());
        let mut wrong = Vec::new();
        for case in cases.iter().filter(|c| c.expect == Denied) {
            let got = errno(None, case);
            if got == libc::EPERM {
                wrong.push(case.name);
            }
        }
        assert!(wrong.is_empty(), "EPERM without the filter: {wrong:?}");
        for case in cases.iter().filter(|c| c.expect == Skipped) {
            assert_ne!(errno(None, case), 0, "{} without the filter", case.name);
        }
        for (expect, errno_of_filter) in [(Enosys, libc::ENOSYS), (Unsupported, libc::ENOTSUP)] {
            for case in cases
                .iter()
                .filter(|c| c.expect == expect && c.name != CACHESTAT_CASE)
            {
                let got = errno(None, case);
                assert_ne!(got, errno_of_filter, "{} without the filter", case.name);
            }
        }
    }

    /// The kernel takes at most 32768 instructions of filters per process: past that,
    /// `apply` passes the kernel's `ENOMEM` on.
    #[test]
    fn apply_reports_the_kernel_error() {
        let filters = build(true).unwrap();
        let refused = crate::sandbox::netns::try_in_child(|| {
            // SAFETY: plain prctl (as a user, a filter needs it).
            if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
                return Err(io::Error::last_os_error());
            }
            for _ in 0..10_000 {
                filters.apply()?;
            }
            Ok(())
        });
        assert_eq!(
            refused.map_err(|e| e.raw_os_error()),
            Err(Some(libc::ENOMEM))
        );
    }

    #[test]
    fn the_probe_takes_the_filters() {
        let (filters, layer) = probe(true);
        assert!(filters.is_some(), "{layer:?}");
        assert_eq!(layer, Layer::On(String::new()));
    }

    #[test]
    fn eperm_is_a_failure_with_eperm() {
        assert!(is_eperm(-1, Some(libc::EPERM)));
        assert!(!is_eperm(-1, Some(libc::EACCES)));
        assert!(!is_eperm(0, Some(libc::EPERM)));
    }

    #[test]
    fn a_rule_names_arguments_0_to_5_and_32_bit_values_only() {
        let mut rules = Rules(BTreeMap::new());
        assert!(rules.when(libc::SYS_kill, &[(5, Op::Eq, 0)]).is_ok());
        assert!(rules
            .when(libc::SYS_kill, &[(0, Op::Eq, u64::from(u32::MAX))])
            .is_ok());
        assert!(rules.when(libc::SYS_kill, &[(6, Op::Eq, 0)]).is_err());
        assert!(rules.when(libc::SYS_kill, &[(0, Op::Eq, 1 << 32)]).is_err());
        assert!(rules.when(libc::SYS_kill, &[]).is_err());
        assert_eq!(rules.0[&number(libc::SYS_kill)].len(), 2);
    }

    #[test]
    fn negative_pids_are_their_low_32_bits() {
        assert_eq!(negative(1), 0xffff_ffff);
        assert_eq!(negative(1234), u64::from((-1234i32) as u32));
    }
}
