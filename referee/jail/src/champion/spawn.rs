//! Starting a champion process: checks on the program, a cleared environment, its own
//! process group, parent-death signal and rlimits, all forks done from one long-lived thread;
//! spawn failures turned into `Spawn` faults that name the file and the fix.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::launch::LaunchSpec;
use crate::fault::{Fault, FaultKind};
use crate::sandbox::Prepared;

/// Name of the environment variable that marks every process of one champion.
pub const TOKEN_VAR: &str = "PROLOGIN_SANDBOX_TOKEN";

/// The minimal `PATH` a champion gets.
pub(crate) const MINIMAL_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Variables of the referee's own environment that every champion gets too (protocol.md
/// section 6): the operator's choice of a kit's interpreter, read by the kit's launcher.
/// Nothing else of the operator's environment reaches a champion.
pub const PASSED_THROUGH: &[&str] = &["PROLOGIN_PYTHON"];

/// The [`PASSED_THROUGH`] variables set (and valid UTF-8) in the referee's environment.
pub fn passed_through() -> Vec<(String, String)> {
    PASSED_THROUGH
        .iter()
        .filter_map(|name| Some((name.to_string(), std::env::var(name).ok()?)))
        .collect()
}

/// A fresh token: unique within this referee and across referees started on this machine.
pub(crate) fn new_token() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{}-{}-{:x}", std::process::id(), n, nanos)
}

/// Checks the program before forking, so the common mistakes get precise messages.
/// Returns the absolute path to execute.
pub(crate) fn check_program(program: &Path) -> Result<PathBuf, Fault> {
    let shown = program.display();
    let meta = match fs::metadata(program) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let cwd = std::env::current_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|_| "?".into());
            return Err(spawn_fault(format!(
                "champion program `{shown}` does not exist; check the path (a relative path is \
                 resolved from the referee's working directory `{cwd}`)"
            )));
        }
        Err(e) => {
            return Err(spawn_fault(format!(
                "cannot access champion program `{shown}`: {e}; check the path and the \
                 permissions of its directories"
            )))
        }
    };
    if meta.is_dir() {
        return Err(spawn_fault(format!(
            "champion program `{shown}` is a directory; give the path of the executable inside it"
        )));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(spawn_fault(format!(
            "champion program `{shown}` is not executable; run `chmod +x {shown}`"
        )));
    }
    std::path::absolute(program)
        .map_err(|e| spawn_fault(format!("cannot resolve champion program `{shown}`: {e}")))
}

/// Builds the command and forks it on the spawner thread. `sandbox` was prepared in the
/// parent ([`crate::sandbox::prepare`]); the child applies it between fork and exec.
pub(crate) fn fork_exec(
    spec: &LaunchSpec,
    program: PathBuf,
    token: &str,
    sandbox: &Prepared,
) -> Result<Child, Fault> {
    let mut cmd = Command::new(&program);
    cmd.args(&spec.args)
        .env_clear()
        .env("PATH", MINIMAL_PATH)
        .env("HOME", &spec.scratch_dir)
        .env("TMPDIR", &spec.scratch_dir)
        .env("LANG", "C.UTF-8");
    // The jail's `/kits` is the operator's kits folder here (protocol.md section 6).
    if let Some(kits) = &crate::kits::installed().folder {
        cmd.env("PROLOGIN_KITS", kits);
    }
    cmd.envs(passed_through());
    for (key, value) in &spec.env {
        cmd.env(key, value);
    }
    cmd.env(TOKEN_VAR, token)
        .current_dir(&spec.scratch_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let plan = spec.limits.rlimits(sandbox.nproc_rlimit());
    let steps = sandbox.child_steps();
    let referee_pid = std::process::id() as i32;
    // SAFETY: the closure only makes async-signal-safe syscalls (setpgid, write, unshare,
    // setrlimit, setresuid, prctl, getppid, kill, landlock, seccomp) and allocates nothing.
    // Order: own group; cgroup and namespaces while still privileged; rlimits (root may
    // still raise them); uid; the parent-death signal after the last credential change
    // (which clears it); no_new_privs, Landlock and seccomp last.
    unsafe {
        cmd.pre_exec(move || {
            if nix::libc::setpgid(0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            steps.isolate()?;
            plan.apply()?;
            steps.switch_uid()?;
            if nix::libc::prctl(
                nix::libc::PR_SET_PDEATHSIG,
                nix::libc::SIGKILL as nix::libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // The referee may have died between fork and prctl: then nobody would kill us.
            if nix::libc::getppid() != referee_pid {
                nix::libc::kill(nix::libc::getpid(), nix::libc::SIGKILL);
            }
            steps.confine()
        });
    }
    let program_for_errors = program.clone();
    let uid = sandbox.uid();
    crate::spawner::on_spawner_thread(move || cmd.spawn())
        .map_err(|e| diagnose_exec_error(&program_for_errors, &e, uid))
}

/// Turns an exec failure into a message naming the cause and the fix.
pub(crate) fn diagnose_exec_error(program: &Path, err: &io::Error, uid: Option<u32>) -> Fault {
    let shown = program.display();
    let shebang = read_shebang(program);
    let crlf = shebang.as_deref().is_some_and(|l| l.ends_with('\r'));
    let message = match (err.raw_os_error(), shebang) {
        (Some(nix::libc::ENOENT), Some(line)) => {
            if line.ends_with('\r') {
                format!(
                    "the #! line of `{shown}` ends with a carriage return (Windows line \
                     endings); convert the file with `dos2unix {shown}` or `sed -i 's/\\r$//' {shown}`"
                )
            } else {
                let interpreter = line.split_whitespace().next().unwrap_or("").to_string();
                format!(
                    "the interpreter `{interpreter}` named on the #! line of `{shown}` does not \
                     exist; fix the first line (for example `#!/usr/bin/env python3` or `#!/bin/sh`)"
                )
            }
        }
        (Some(nix::libc::ENOENT), None) => format!(
            "cannot execute `{shown}`: a file it needs is missing (for a native program, its \
             dynamic loader or libraries: build it statically or for this machine)"
        ),
        (Some(nix::libc::ENOEXEC), _) => format!(
            "`{shown}` is neither a native executable for this machine nor a script starting \
             with a #! line; add a first line such as `#!/bin/sh` or `#!/usr/bin/env python3`, or \
             build it for this machine"
        ),
        (Some(nix::libc::EACCES), Some(line)) => format!(
            "permission denied executing `{shown}` or its interpreter `{}`; check `chmod +x` on \
             both and that the file system is not mounted noexec",
            line.split_whitespace().next().unwrap_or("")
        ),
        (Some(nix::libc::EACCES), None) => format!(
            "permission denied executing `{shown}`; run `chmod +x {shown}` and check that its \
             directories are searchable and the file system is not mounted noexec"
        ),
        (Some(nix::libc::ETXTBSY), _) => format!(
            "`{shown}` is still open for writing (text file busy); finish writing it before \
             starting the match"
        ),
        _ => format!("cannot start `{shown}`: {err}"),
    };
    match (uid, err.raw_os_error()) {
        (Some(uid), Some(nix::libc::EACCES | nix::libc::ENOENT)) if !crlf => spawn_fault(format!(
            "{message} (the champion runs as uid {uid}, not as root: the program, its \
             interpreter and every directory above them must be readable and searchable by \
             others, e.g. `chmod o+rX`; or, for a champion you trust, turn the sandbox off)"
        )),
        _ => spawn_fault(message),
    }
}

/// The interpreter part of the first line, if the file starts with `#!`.
fn read_shebang(program: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let mut file = fs::File::open(program).ok()?;
    let n = file.read(&mut head).ok()?;
    let head = &head[..n];
    let rest = head.strip_prefix(b"#!")?;
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    Some(
        String::from_utf8_lossy(&rest[..end])
            .trim_start()
            .to_string(),
    )
}

pub(crate) fn spawn_fault(message: String) -> Fault {
    Fault::new(FaultKind::Spawn, message)
}
