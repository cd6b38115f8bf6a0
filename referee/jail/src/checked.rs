//! What the referee checked of a champion's files before its jail starts: their device and
//! inode ([`identity`]), which the jail's init compares with what it opens before binding
//! it (`crate::view`), so that a folder or file swapped between the check and the jail is
//! refused rather than shown; and, in test builds only, a hook run right after the check
//! ([`after_check`]), which lets a test make that swap.

use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The variable naming a program that [`after_check`] runs with the path checked, in
/// builds with debug assertions only (tests): a release build has no such code.
pub const AFTER_CHECK_VARIABLE: &str = "REFEREE_TEST_AFTER_CHECK";

/// The device and inode of `path` (canonical; a folder when `folder`), opened through no
/// link.
pub fn identity(path: &Path, folder: bool) -> io::Result<(u64, u64)> {
    let fd = crate::beneath::open_top(path, folder, true)?;
    let meta = std::fs::File::from(fd).metadata()?;
    Ok((meta.dev(), meta.ino()))
}

/// In test builds (debug assertions), runs the program named by [`AFTER_CHECK_VARIABLE`],
/// if set, with `path` and waits for it: a test's way to swap what was just checked. Only
/// the referee's own environment sets it, and a release build never runs it.
pub fn after_check(path: &Path) {
    #[cfg(debug_assertions)]
    if let Some(program) = std::env::var_os(AFTER_CHECK_VARIABLE) {
        let _ = std::process::Command::new(program).arg(path).status();
    }
    #[cfg(not(debug_assertions))]
    let _ = path;
}
