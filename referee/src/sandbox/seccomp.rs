//! A seccomp deny list, built once per referee with `seccompiler` and installed last in each
//! child. Denied calls fail with `EPERM` (the champion gets an error and goes on; nothing is
//! killed), except `clone3`, which fails with `ENOSYS` so that libc falls back to `clone`,
//! whose flags can be checked.
//!
//! Denied: sockets other than `AF_UNIX`; `setsid`/`setpgid` (the process-group kill holds);
//! `ptrace`, `process_vm_readv`/`writev`; `unshare`, `setns`, `clone` with a namespace flag;
//! `mount`, `umount2`, `pivot_root`, `chroot`; `bpf`, `perf_event_open`; `keyctl`,
//! `add_key`, `request_key`; `io_uring_*`; `userfaultfd`; `open_by_handle_at`; signals
//! (`kill`, `tkill`, `tgkill`, `pidfd_open`) aimed at the referee or at every process
//! (`kill(-1)`). Without a memory cgroup, memory that escapes `RLIMIT_DATA` is denied too:
//! shared anonymous mappings, `memfd_create`, System V `shmget`.

use std::collections::BTreeMap;
use std::io;

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen as Len, SeccompCmpOp as Op, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch,
};

use super::Layer;

/// The two programs: the deny list (`EPERM`) and `clone3` (`ENOSYS`).
pub struct Filters {
    deny: BpfProgram,
    clone3: BpfProgram,
}

impl Filters {
    /// Installs both filters in the calling (child) process. `no_new_privs` must be set.
    /// Async-signal-safe: no allocation on success.
    pub(crate) fn apply(&self) -> io::Result<()> {
        for program in [&self.deny, &self.clone3] {
            seccompiler::apply_filter(program).map_err(|e| match e {
                seccompiler::Error::Seccomp(e) | seccompiler::Error::Prctl(e) => e,
                _ => io::Error::from_raw_os_error(libc::EINVAL),
            })?;
        }
        Ok(())
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
        if unsafe { libc::setsid() } == -1
            && io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
        {
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

/// Whether x32 system calls (numbers with bit 30 set) are accepted by this kernel.
fn x32_enabled() -> bool {
    if std::env::consts::ARCH != "x86_64" {
        return false;
    }
    // SAFETY: x32 getpid takes no argument; ENOSYS when x32 is off.
    let r = unsafe { libc::syscall(0x4000_0000 | libc::SYS_getpid) };
    r >= 0
}

pub(crate) fn build(deny_shared_memory: bool) -> Result<Filters, seccompiler::BackendError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)?;
    let referee = i64::from(std::process::id());
    // SAFETY: no arguments.
    let group = i64::from(unsafe { libc::getpgrp() });
    let always = |rules: &mut BTreeMap<i64, Vec<SeccompRule>>, nr: i64| {
        rules.insert(nr, Vec::new());
    };
    let arg_is = |index: u8, len: Len, op: Op, value: u64| {
        SeccompRule::new(vec![SeccompCondition::new(index, len, op, value)?])
    };
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    rules.insert(
        libc::SYS_socket,
        vec![arg_is(0, Len::Dword, Op::Ne, libc::AF_UNIX as u64)?],
    );
    for nr in [
        libc::SYS_setsid,
        libc::SYS_setpgid,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_userfaultfd,
        libc::SYS_open_by_handle_at,
        libc::SYS_fsopen,
        libc::SYS_fsmount,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
    ] {
        always(&mut rules, nr);
    }
    let namespaces = [
        libc::CLONE_NEWNS,
        libc::CLONE_NEWCGROUP,
        libc::CLONE_NEWUTS,
        libc::CLONE_NEWIPC,
        libc::CLONE_NEWUSER,
        libc::CLONE_NEWPID,
        libc::CLONE_NEWNET,
    ];
    let mut clone = Vec::new();
    for flag in namespaces {
        let flag = flag as u64;
        clone.push(arg_is(0, Len::Qword, Op::MaskedEq(flag), flag)?);
    }
    rules.insert(libc::SYS_clone, clone);
    // Signals to the referee (its pid is its main thread's tid), its process group, or all.
    let minus = |v: i64| (-v) as i32 as u32 as u64;
    let mut kill = vec![
        arg_is(0, Len::Dword, Op::Eq, referee as u64)?,
        arg_is(0, Len::Dword, Op::Eq, minus(1))?,
    ];
    if group > 1 {
        kill.push(arg_is(0, Len::Dword, Op::Eq, minus(group))?);
    }
    rules.insert(libc::SYS_kill, kill);
    for nr in [libc::SYS_tkill, libc::SYS_tgkill, libc::SYS_pidfd_open] {
        rules.insert(nr, vec![arg_is(0, Len::Dword, Op::Eq, referee as u64)?]);
    }
    if deny_shared_memory {
        let shared_anon = (libc::MAP_SHARED | libc::MAP_ANONYMOUS) as u64;
        rules.insert(
            libc::SYS_mmap,
            vec![arg_is(
                3,
                Len::Dword,
                Op::MaskedEq(shared_anon),
                shared_anon,
            )?],
        );
        always(&mut rules, libc::SYS_memfd_create);
        always(&mut rules, libc::SYS_shmget);
    }
    let deny = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )?;
    let mut clone3 = BTreeMap::new();
    clone3.insert(libc::SYS_clone3, Vec::new());
    let clone3 = SeccompFilter::new(
        clone3,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )?;
    Ok(Filters {
        deny: deny.try_into()?,
        clone3: clone3.try_into()?,
    })
}
