//! The champions' scratch directories on the host, for a match or a pre-run check played
//! without the jail (a jailed champion's scratch is a tmpfs inside its jail): made fresh
//! and unpredictable, removed whatever a champion left in them, and those of a referee
//! killed before it could remove them swept by the next one.

use anyhow::Context;
use std::path::Path;

/// A fresh directory for the champions' scratch directories of one match (used without
/// the jail; a jailed champion's scratch is a tmpfs inside its jail): an unpredictable
/// name, created exclusively with mode 0700 (`mkdtemp`), so nobody can plant a link there.
/// The name starts with `referee-<pid>-`: the scratch of a referee killed with `kill -9`
/// is removed by the next one (`remove_stale_scratch`).
pub fn scratch_root() -> anyhow::Result<tempfile::TempDir> {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(remove_stale_scratch);
    tempfile::Builder::new()
        .prefix(&format!("referee-{}-", std::process::id()))
        .tempdir()
        .with_context(|| {
            format!(
                "cannot create a scratch directory in the temporary directory {} (TMPDIR)",
                std::env::temp_dir().display()
            )
        })
}

/// Removes the scratch directories (`referee-<pid>-*`, ours) of referees that are gone.
fn remove_stale_scratch() {
    let tmp = std::env::temp_dir();
    let Ok(entries) = std::fs::read_dir(&tmp) else {
        return;
    };
    // SAFETY: no arguments.
    let me = unsafe { nix::libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("referee-"))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let ours = std::fs::symlink_metadata(entry.path())
            .is_ok_and(|m| m.is_dir() && std::os::unix::fs::MetadataExt::uid(&m) == me);
        if ours && !Path::new(&format!("/proc/{pid}")).exists() {
            remove_tree(&entry.path());
        }
    }
}

/// Removes a scratch tree whatever a champion left in it (directories without
/// permissions, deep chains), and says so on stderr when it cannot.
pub fn remove_scratch(root: tempfile::TempDir) {
    remove_tree(&root.keep());
}

fn remove_tree(path: &Path) {
    let path = path.to_path_buf();
    if std::fs::remove_dir_all(&path).is_ok() {
        return;
    }
    // A champion may have removed the owner's permissions on its directories.
    let mut stack = vec![path.clone()];
    while let Some(dir) = stack.pop() {
        let _ = std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o700));
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(entry.path());
                }
            }
        }
    }
    if let Err(e) = std::fs::remove_dir_all(&path) {
        eprintln!(
            "warning: cannot remove the scratch directory {}: {e}; remove it by hand",
            path.display()
        );
    }
}
