//! Filesystem confinement with Landlock: system directories read-only (and executable),
//! the champion's own directory read+execute (read-write for a build), the operator's
//! kits read+execute (never a folder beside the champion's), its scratch directory read-write, a few
//! devices, nothing else (no other champion's files, no results, no home directory). On
//! ABI >= 4 TCP bind/connect are denied too, and on ABI >= 6 signals and abstract unix
//! sockets cannot leave the champion's domain (it cannot signal the referee).
//!
//! The ruleset is built in the parent with the `landlock` crate; the child only calls
//! `landlock_restrict_self` on its fd.

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, BitFlags, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, Scope, ABI,
};
use nix::libc;

use super::layer::Layer;

/// The ABI whose rights we ask for (best effort below it).
const TARGET: ABI = ABI::V6;

/// Directories every champion may read and execute (interpreters, libraries).
const SYSTEM_EXEC: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
];
/// Readable only.
const SYSTEM_READ: &[&str] = &["/etc", "/proc", "/sys/devices/system/cpu", "/sys/fs/cgroup"];
/// Devices a champion may read and write.
const DEVICES_RW: &[&str] = &["/dev/null", "/dev/zero", "/dev/full"];
/// Devices a champion may read.
const DEVICES_READ: &[&str] = &["/dev/urandom", "/dev/random"];

/// The kernel's Landlock ABI version, if it has Landlock.
pub(crate) fn probe() -> (Option<i32>, Layer) {
    // SAFETY: the documented version query (no attribute, size 0).
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    if v >= 1 {
        (Some(v as i32), Layer::On(format!("v{v}")))
    } else {
        let e = io::Error::last_os_error();
        let why = match e.raw_os_error() {
            Some(libc::ENOSYS) => "kernel without Landlock".to_string(),
            Some(libc::EOPNOTSUPP) => "Landlock disabled at boot".to_string(),
            _ => e.to_string(),
        };
        (None, Layer::Off(why))
    }
}

/// The ruleset of one champion, as an fd for the child.
pub(crate) fn ruleset(read_exec: &[PathBuf], scratch: &Path) -> Result<OwnedFd, String> {
    build(read_exec, &[scratch.to_path_buf()])
        .map_err(|e| format!("cannot build the Landlock ruleset: {e}"))
}

fn build(read_exec: &[PathBuf], writable: &[PathBuf]) -> Result<OwnedFd, landlock::RulesetError> {
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    let read_exec_rights = AccessFs::from_read(TARGET);
    let device_rw: BitFlags<AccessFs> =
        AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::IoctlDev;
    let created: RulesetCreated = Ruleset::default()
        .handle_access(AccessFs::from_all(TARGET))?
        .handle_access(AccessNet::from_all(TARGET))?
        .scope(Scope::from_all(TARGET))?
        .create()?
        .add_rules(path_beneath_rules(SYSTEM_EXEC, read_exec_rights))?
        .add_rules(path_beneath_rules(SYSTEM_READ, read))?
        .add_rules(path_beneath_rules(DEVICES_RW, device_rw))?
        .add_rules(path_beneath_rules(DEVICES_READ, AccessFs::ReadFile))?
        .add_rules(path_beneath_rules(read_exec, read_exec_rights))?
        .add_rules(path_beneath_rules(writable, AccessFs::from_all(TARGET)))?;
    let fd: Option<OwnedFd> = created.into();
    // The kernel has Landlock (probed), so the best-effort ruleset has an fd.
    fd.ok_or(landlock::RulesetError::CreateRuleset(
        landlock::CreateRulesetError::MissingHandledAccess,
    ))
}

/// Enforces the ruleset on the calling (child) process. `no_new_privs` must be set, or
/// the process must have `CAP_SYS_ADMIN` in its user namespace: `ChildSteps::confine` sets
/// it just before.
pub(crate) fn restrict_self(fd: i32) -> io::Result<()> {
    // SAFETY: the landlock syscall with a valid ruleset fd and no flags.
    if unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The ruleset of a jailed champion, built inside its jail (paths as seen there: its own
/// files, the operator's kits, its scratch `/tmp`; its own files writable too for a build).
pub(crate) fn jail_ruleset(writable: bool) -> Result<OwnedFd, String> {
    use crate::view::{CHAMPION_DIR, KITS_DIR, SCRATCH_DIR};
    let read_exec = [CHAMPION_DIR, KITS_DIR].map(PathBuf::from);
    let mut writable_dirs = vec![PathBuf::from(SCRATCH_DIR)];
    if writable {
        writable_dirs.push(PathBuf::from(CHAMPION_DIR));
    }
    let mut read_exec = read_exec.to_vec();
    if writable {
        read_exec.extend(crate::view::BUILD_SYSTEM.iter().map(PathBuf::from));
    }
    build(&read_exec, &writable_dirs).map_err(|e| format!("cannot build the Landlock ruleset: {e}"))
}
