//! Where the referee keeps what outlives a run and stays out of every result and jail (the
//! organiser's keys, the owners of folders handed to builds): `$XDG_STATE_HOME`, or
//! `~/.local/state`, each only when absolute.

use std::path::PathBuf;

/// The user's state folder, when `XDG_STATE_HOME` or `HOME` names an absolute folder.
pub fn base() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    std::env::var_os("XDG_STATE_HOME")
        .and_then(absolute)
        .or_else(|| {
            std::env::var_os("HOME")
                .and_then(absolute)
                .map(|h| h.join(".local/state"))
        })
}
