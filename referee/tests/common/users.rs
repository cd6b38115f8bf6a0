//! Who a test's referee runs as: as root, both root and a normal user of the tests' own
//! (`referee-attacks`, made on first use), since the jail's layers differ between them; as
//! a normal user, that user alone (`scripts/test-as-user.sh` runs the whole suite so).

use std::panic::AssertUnwindSafe;
use std::process::Command;
use std::sync::OnceLock;

/// The normal user the tests switch to when they run as root.
pub const USER: &str = "referee-attacks";

/// `nobody`, when [`USER`] cannot be made.
pub const NOBODY: (u32, u32) = (65534, 65534);

/// Who runs one pass of a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Root,
    /// [`USER`]'s uid and gid, switched to from root.
    User(u32, u32),
    /// The caller, not root.
    Me,
}

pub fn is_root() -> bool {
    // SAFETY: no arguments.
    unsafe { nix::libc::geteuid() == 0 }
}

/// The uid and gid of the user `name` in /etc/passwd.
pub fn lookup_user(name: &str) -> Option<(u32, u32)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let f: Vec<&str> = line.split(':').collect();
        (f.len() > 3 && f[0] == name)
            .then(|| Some((f[2].parse().ok()?, f[3].parse().ok()?)))
            .flatten()
    })
}

/// The uid and gid of [`USER`], made on first use (a system user without a home or a
/// shell); [`NOBODY`] when it cannot be made, which is said on stderr.
pub fn test_user() -> (u32, u32) {
    static IDS: OnceLock<(u32, u32)> = OnceLock::new();
    *IDS.get_or_init(|| {
        if let Some(ids) = lookup_user(USER) {
            return ids;
        }
        let made = Command::new("useradd")
            .args(["--system", "--user-group", "--no-create-home"])
            .args(["--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin"])
            .arg(USER)
            .output();
        lookup_user(USER).unwrap_or_else(|| {
            eprintln!("cannot make the user {USER} ({made:?}): the user runs are `nobody`'s");
            NOBODY
        })
    })
}

/// Root and [`USER`] as root; the caller alone otherwise, which `binary`'s skip note says.
pub fn runs(binary: &str) -> Vec<Who> {
    if is_root() {
        let (uid, gid) = test_user();
        vec![Who::Root, Who::User(uid, gid)]
    } else {
        super::skip_by_design(&format!(
            "{binary}: the root run (not root); running as this user only (scripts/test.sh \
             runs it as root)"
        ));
        vec![Who::Me]
    }
}

/// [`each_run`] with a fresh directory for each run, writable by that run's user.
pub fn each_run_in(binary: &str, test: &str, body: impl Fn(Who, &std::path::Path)) {
    each_run(binary, test, |who| {
        let dir = super::fresh_dir(binary, test);
        std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o777))
            .unwrap();
        body(who, &dir)
    });
}

/// Runs `body` for each of `binary`'s [`runs`], all of them even when one fails, then fails
/// naming every failed run and its message.
pub fn each_run(binary: &str, test: &str, mut body: impl FnMut(Who)) {
    let mut failures = Vec::new();
    for who in runs(binary) {
        eprintln!("=== {binary} {test} as {who:?}");
        if let Err(panic) = std::panic::catch_unwind(AssertUnwindSafe(|| body(who))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            failures.push(format!("--- as {who:?}:\n{message}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{binary} {test} failed:\n{}",
        failures.join("\n")
    );
}
