//! Starting a champion in a jail (`crate::jail`): what it sees (its own files, the
//! operator's kits), its environment, its limits, and the pipes the referee talks to it
//! through; and a champion's build (`referee build`) in the same jail, its folder writable.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use super::launch::LaunchSpec;
use super::spawn::{diagnose_exec_error, passed_through, spawn_fault, MINIMAL_PATH};
use crate::fault::Fault;
use crate::sandbox::{JailSetup, Prepared};
use crate::view::{KITS_DIR, SCRATCH_DIR};
use crate::{Jail, Spec, StartError, View};

/// The referee's ends of a jailed champion's pipes.
pub(crate) struct Ends {
    pub stdin: OwnedFd,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
}

/// What a champion may see of its own: its folder when its program is the `champion` of a
/// folder (the layout of `champions/`), otherwise its program file alone (single-file
/// champions kept side by side must not read each other).
pub(crate) fn own_files(program: &Path) -> PathBuf {
    let in_folder = program.file_name().is_some_and(|n| n == "champion");
    match program.parent() {
        Some(dir) if in_folder => dir.to_path_buf(),
        _ => program.to_path_buf(),
    }
}

/// Starts `program` (checked, absolute) as `spec` says, in a jail; its init stops it with
/// `SIGSTOP` right after `exec` when `stop_at_start`.
pub(crate) fn start(
    spec: &LaunchSpec,
    program: &Path,
    setup: JailSetup,
    sandbox: &Prepared,
    stop_at_start: bool,
) -> Result<(Jail, Ends), Fault> {
    let program = program
        .canonicalize()
        .unwrap_or_else(|_| program.to_path_buf());
    let champion = own_files(&program);
    let match_dir = spec
        .stderr_path
        .parent()
        .and_then(|p| std::path::absolute(p).ok());
    let folder = champion.is_dir();
    let masks = if folder {
        crate::hidden::masks_for(&champion, match_dir.as_deref()).map_err(spawn_fault)?
    } else {
        Vec::new()
    };
    // What the jail binds must be what was checked (by the caller, or here and now).
    let checked = match spec.checked {
        Some(checked) => checked,
        None => crate::checked::identity(&champion, folder).map_err(|e| {
            spawn_fault(format!(
                "cannot open {} through no link: {e}",
                crate::untrusted::printable_path(&champion)
            ))
        })?,
    };
    crate::checked::after_check(&champion);
    let view = View {
        champion_is_dir: folder,
        champion,
        checked,
        build: false,
        kits: crate::kits::installed().by_language.clone(),
        masks,
        disk: spec.limits.disk,
        inodes: 0,
        owner: owner(setup, sandbox),
        remount: std::env::var_os(crate::view::REMOUNT_VARIABLE).is_some(),
        proc_subset: setup.proc_subset,
    };
    let inside = view
        .inside(&program)
        .ok_or_else(|| spawn_fault(format!("`{}` is outside its own files", program.display())))?;
    let mut env = environment();
    env.extend(spec.env.iter().cloned());
    let (landlock, seccomp, deny_shared_memory) = spec.limits.sandbox.inner_layers();
    let jail_spec = Spec {
        program: inside,
        args: spec.args.clone(),
        env,
        view,
        rlimits: spec.limits.rlimits(sandbox.nproc_rlimit()),
        uid: sandbox.uid(),
        map_user: setup.map_user,
        landlock,
        seccomp,
        deny_shared_memory,
        futex_listener: spec.limits.sandbox.futex_listener(),
        start_frozen: spec.start_frozen && stop_at_start,
        cpu: spec.cpu,
        pool_net: true,
    };
    let (stdin_r, stdin_w) = pipe()?;
    let (stdout_r, stdout_w) = pipe()?;
    let (stderr_r, stderr_w) = pipe()?;
    let jail = Jail::start(
        &jail_spec,
        stdin_r,
        stdout_w,
        stderr_w,
        sandbox.cgroup_dir(),
    )
    .map_err(|e| match e {
        StartError::Exec(errno) => {
            let err = std::io::Error::from_raw_os_error(errno);
            let mut fault = diagnose_exec_error(&program, &err, sandbox.uid());
            fault.message.push_str(
                " (in its jail the champion sees only /usr, /bin, /lib*, /etc, /opt, its own \
                     files at /champion and the operator's kits at /kits)",
            );
            fault
        }
        StartError::Setup(why) => spawn_fault(format!(
            "cannot build the jail of `{}`: {why}; with the sandbox turned off, champions run \
             without it",
            program.display()
        )),
    })?;
    Ok((
        jail,
        Ends {
            stdin: stdin_w,
            stdout: stdout_r,
            stderr: stderr_r,
        },
    ))
}

/// Starts `program args` (a path inside, a system tool such as `make`) in a build's jail:
/// its `/champion` and `/tmp` are one tmpfs of `limits.disk` bytes and `inodes` files,
/// handed over empty ([`Jail::build_tmpfs`]); the caller fills it and starts the build
/// with [`Jail::go`]. Its standard output and error go to the one pipe returned (read
/// end); its standard input is empty.
pub(crate) fn start_build(
    program: &Path,
    args: &[String],
    limits: &crate::limits::Limits,
    inodes: u64,
    setup: JailSetup,
    sandbox: &Prepared,
) -> Result<(Jail, OwnedFd), String> {
    let view = View {
        champion: PathBuf::from(crate::view::CHAMPION_DIR),
        champion_is_dir: true,
        checked: (0, 0),
        build: true,
        kits: crate::kits::installed().by_language.clone(),
        masks: Vec::new(),
        disk: limits.disk,
        inodes,
        owner: owner(setup, sandbox),
        remount: std::env::var_os(crate::view::REMOUNT_VARIABLE).is_some(),
        proc_subset: setup.proc_subset,
    };
    let (landlock, seccomp, deny_shared_memory) = limits.sandbox.inner_layers();
    let spec = Spec {
        program: program.to_path_buf(),
        args: args.to_vec(),
        env: environment(),
        view,
        rlimits: limits.rlimits(sandbox.nproc_rlimit()),
        uid: sandbox.uid(),
        map_user: setup.map_user,
        landlock,
        seccomp,
        deny_shared_memory,
        futex_listener: limits.sandbox.futex_listener(),
        start_frozen: false,
        cpu: None,
        pool_net: true,
    };
    let text = |f: Fault| f.message;
    let (stdin_r, stdin_w) = pipe().map_err(text)?;
    drop(stdin_w);
    let (out_r, out_w) = pipe().map_err(text)?;
    let err_w = out_w
        .try_clone()
        .map_err(|e| format!("cannot create a pipe: {e}"))?;
    let jail = Jail::start(&spec, stdin_r, out_w, err_w, sandbox.cgroup_dir())
        .map_err(|e| describe_start_error(program, e))?;
    Ok((jail, out_r))
}

/// What a build's jail that did not start says.
pub(crate) fn describe_start_error(program: &Path, e: StartError) -> String {
    match e {
        StartError::Exec(errno) => format!(
            "cannot run `{}` in the jail: {}",
            program.display(),
            std::io::Error::from_raw_os_error(errno)
        ),
        StartError::Setup(why) => format!("cannot build the jail: {why}"),
    }
}

/// The environment every jailed program starts with: `PROLOGIN_KITS` names the operator's
/// kits (`/kits`, also when none is installed, so that a launcher never falls back to a
/// folder a contestant controls).
fn environment() -> Vec<(String, String)> {
    let mut env = vec![
        ("PATH".to_string(), MINIMAL_PATH.to_string()),
        ("HOME".to_string(), SCRATCH_DIR.to_string()),
        ("TMPDIR".to_string(), SCRATCH_DIR.to_string()),
        ("LANG".to_string(), "C.UTF-8".to_string()),
        ("PROLOGIN_KITS".to_string(), KITS_DIR.to_string()),
    ];
    env.extend(passed_through());
    env
}

/// Who owns the jail's `/tmp`: the champion's uid and gid.
fn owner(setup: JailSetup, sandbox: &Prepared) -> (u32, u32) {
    match (sandbox.uid(), setup.map_user) {
        (Some(uid), _) => (uid, uid),
        (None, Some(ids)) => ids,
        // SAFETY: plain id queries.
        (None, None) => unsafe { (nix::libc::getuid(), nix::libc::getgid()) },
    }
}

fn pipe() -> Result<(OwnedFd, OwnedFd), Fault> {
    nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| spawn_fault(format!("cannot create a pipe: {e}")))
}
