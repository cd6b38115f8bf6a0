//! A walk of a champion's processes that could not open or read one of their `/proc` files
//! for a reason other than the process being gone (`ENOENT`, `ESRCH`): out of open files
//! even with none kept, `/proc` mounted so that the referee may not read it, the kernel out
//! of memory. Such a walk cannot say what the champion used nor stop all of it, so the match
//! on this thread fails closed: its champion is killed, the match counts nothing, and its run
//! stops with what to fix, as the operator's problem, never a champion's fault, and never a
//! process skipped from the count or the freeze.

use std::cell::RefCell;

thread_local! {
    /// The first file the walks of the match on this thread could not read, and why.
    static BLIND: RefCell<Option<Blind>> = const { RefCell::new(None) };
}

/// Why the match on this thread is no result: a champion's processes could not be watched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blind {
    path: String,
    error: String,
    /// Out of open files (`EMFILE`, `ENFILE`).
    files: bool,
}

impl std::fmt::Display for Blind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the referee could not read {} ({}), so it could not count or stop every process \
             of a champion: the match counts nothing (the referee's problem, not the \
             champion's); {}",
            self.path,
            self.error,
            match self.files {
                true =>
                    "the referee ran out of open files: raise its limit (`ulimit -n`) or \
                         play fewer matches at once",
                false =>
                    "the referee must be able to read the /proc files of the processes \
                          it starts",
            }
        )
    }
}

impl std::error::Error for Blind {}

/// Notes that `path` could not be read for `error` (not its process being gone).
pub(crate) fn note(path: &str, error: &std::io::Error) {
    BLIND.with_borrow_mut(|blind| {
        blind.get_or_insert_with(|| Blind {
            path: path.to_string(),
            error: error.to_string(),
            files: matches!(
                error.raw_os_error(),
                Some(nix::libc::EMFILE | nix::libc::ENFILE)
            ),
        });
    });
}

/// Whether a walk of the match on this thread was blind.
pub(crate) fn is_blind() -> bool {
    BLIND.with_borrow(Option::is_some)
}

/// Called when a match starts on this thread: no walk was blind yet.
pub(crate) fn match_starts() {
    BLIND.set(None);
}

/// Called when a match on this thread is over, before its result is written: an error if a
/// walk of its champions' processes was blind.
pub fn watched() -> Result<(), Blind> {
    match BLIND.take() {
        Some(blind) => Err(blind),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first blind read is the one named; a match start forgets it; a process gone is
    /// no blindness (`proc_files` never notes it).
    #[test]
    fn the_first_blind_read_names_the_match_s_error() {
        match_starts();
        assert_eq!(watched(), Ok(()));
        note(
            "/proc/7/stat",
            &std::io::Error::from_raw_os_error(nix::libc::EMFILE),
        );
        note(
            "/proc/8/stat",
            &std::io::Error::from_raw_os_error(nix::libc::EACCES),
        );
        assert!(is_blind());
        let text = watched().unwrap_err().to_string();
        assert!(
            text.contains("/proc/7/stat") && text.contains("ulimit -n"),
            "{text}"
        );
        assert_eq!(watched(), Ok(()));
        note(
            "/proc/8/stat",
            &std::io::Error::from_raw_os_error(nix::libc::EACCES),
        );
        match_starts();
        assert_eq!(watched(), Ok(()));
    }
}
