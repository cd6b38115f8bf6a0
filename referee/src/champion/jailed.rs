//! Starting a champion in a jail (`crate::jail`): what it sees (its own files, the kits),
//! its environment, its limits, and the pipes the referee talks to it through.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use super::limits::RlimitPlan;
use super::spawn::{diagnose_exec_error, passed_through, spawn_fault, MINIMAL_PATH};
use super::LaunchSpec;
use crate::fault::Fault;
use crate::jail::view::{KITS_DIR, SCRATCH_DIR};
use crate::jail::{Jail, Spec, StartError, View};
use crate::sandbox::{JailSetup, Prepared};

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
    let kit = program
        .parent()
        .and_then(Path::parent)
        .map(|p| p.join("kit"))
        .filter(|k| k.is_dir() && champion.is_dir() && *k != champion);
    let masks = spec
        .stderr_path
        .parent()
        .and_then(|p| std::path::absolute(p).ok())
        .and_then(|p| p.canonicalize().ok())
        .filter(|p| p.starts_with(&champion) && *p != champion)
        .into_iter()
        .collect();
    let owner = match (sandbox.uid(), setup.map_user) {
        (Some(uid), _) => (uid, uid),
        (None, Some(ids)) => ids,
        // SAFETY: plain id queries.
        (None, None) => unsafe { (nix::libc::getuid(), nix::libc::getgid()) },
    };
    let view = View {
        champion_is_dir: champion.is_dir(),
        champion,
        kit,
        kits: crate::sandbox::bundled_kits_by_language(),
        masks,
        disk: spec.limits.disk,
        owner,
        remount: std::env::var_os(crate::jail::view::REMOUNT_VARIABLE).is_some(),
    };
    let inside = view
        .inside(&program)
        .ok_or_else(|| spawn_fault(format!("`{}` is outside its own files", program.display())))?;
    let mut env = vec![
        ("PATH".to_string(), MINIMAL_PATH.to_string()),
        ("HOME".to_string(), SCRATCH_DIR.to_string()),
        ("TMPDIR".to_string(), SCRATCH_DIR.to_string()),
        ("LANG".to_string(), "C.UTF-8".to_string()),
    ];
    if !view.kits.is_empty() {
        env.push(("PROLOGIN_KITS".to_string(), KITS_DIR.to_string()));
    }
    env.extend(passed_through());
    env.extend(spec.env.iter().cloned());
    let (landlock, seccomp, deny_shared_memory) = spec.limits.sandbox.inner_layers();
    let jail_spec = Spec {
        program: inside,
        args: spec.args.clone(),
        env,
        view,
        rlimits: RlimitPlan::new(&spec.limits, sandbox.nproc_rlimit()),
        uid: sandbox.uid(),
        map_user: setup.map_user,
        landlock,
        seccomp,
        deny_shared_memory,
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
        sandbox.cgroup_procs(),
    )
    .map_err(|e| match e {
        StartError::Exec(errno) => {
            let err = std::io::Error::from_raw_os_error(errno);
            let mut fault = diagnose_exec_error(&program, &err, sandbox.uid());
            fault.message.push_str(
                " (in its jail the champion sees only /usr, /bin, /lib*, /etc, /opt, its own \
                     files at /champion and the kits at /kit and /kits)",
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

fn pipe() -> Result<(OwnedFd, OwnedFd), Fault> {
    nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| spawn_fault(format!("cannot create a pipe: {e}")))
}
