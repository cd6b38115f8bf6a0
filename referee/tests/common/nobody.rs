//! The tests that switch to `nobody` themselves (the sandbox layers' and the seccomp
//! filter's, end to end): who runs their referee, and that switch on a command.

use std::os::unix::process::CommandExt;
use std::process::Command;

pub const NOBODY: u32 = 65534;

/// Who runs the referee: the test's own user, or `nobody` (root only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Me,
    Nobody,
}

/// The users to test as: the caller, and `nobody` when root and `nobody` can run the
/// referee (a skip note names `test` otherwise); not root, the caller alone, said on
/// stderr with `why` (what a user's run cannot do).
pub fn users(test: &str, why: &str) -> Vec<Who> {
    let mut out = vec![Who::Me];
    if !super::users::is_root() {
        eprintln!("{test}: running as a user only (not root: {why})");
        return out;
    }
    let probe = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("--version")
        .uid(NOBODY)
        .gid(NOBODY)
        .output();
    match probe {
        Ok(o) if o.status.success() => out.push(Who::Nobody),
        other => super::skip_missing(&format!(
            "{test}: the non-root run: `nobody` cannot run {} ({other:?}); make the \
             target directory readable by others",
            env!("CARGO_BIN_EXE_referee")
        )),
    }
    out
}

/// `cmd` run as `who`: as `nobody`, its uid, gid and a `HOME` it may read.
pub fn run_as(cmd: &mut Command, who: Who) -> &mut Command {
    if who == Who::Nobody {
        cmd.uid(NOBODY).gid(NOBODY).env("HOME", "/tmp");
    }
    cmd
}
