//! The operator's stop signals as flags: whether the referee was told to stop, and
//! whether the match on this thread was disturbed by it (no killing here: [`crate::interrupt`]
//! catches the signals and kills).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// Exit code of a run stopped by Ctrl-C, SIGTERM or SIGHUP.
pub const EXIT_INTERRUPTED: i32 = 130;

/// The signals that tell the referee to stop. Neither the referee nor the jail sends them
/// to a champion: a champion killed by one was killed from outside.
pub const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// Raised by the first signal when the run stops gracefully.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);
/// Raised when the referee kills everything and exits.
pub(crate) static ABORT: AtomicBool = AtomicBool::new(false);

/// `SIGTERM` for 15.
pub fn signal_name(signal: i32) -> String {
    nix::sys::signal::Signal::try_from(signal)
        .map_or_else(|_| format!("signal {signal}"), |s| s.as_str().to_string())
}

/// Exit code when the reader of the referee's output went away (128 + SIGPIPE, as a shell
/// reports a program killed by it).
pub const EXIT_BROKEN_PIPE: i32 = 141;

/// Whether the referee was told to stop: a match that ends now ended because its
/// champions were killed, and its result must not be kept.
pub fn stopping() -> bool {
    STOP.load(Ordering::SeqCst) || ABORT.load(Ordering::SeqCst)
}

/// How long a match whose champion died of a stop signal waits for the referee's own
/// signal (a cancelled job's processes are signalled one by one) before it keeps its
/// result.
pub const OUTSIDE_GRACE: Duration = Duration::from_secs(2);

/// Why a match is no result: it was disturbed from outside, the referee being told to stop
/// while it played (or within [`OUTSIDE_GRACE`] of a champion's death by a stop signal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Disturbed;

impl std::fmt::Display for Disturbed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the referee was told to stop during the match")
    }
}

impl std::error::Error for Disturbed {}

thread_local! {
    /// A champion of the match this thread plays died of a stop signal.
    static OUTSIDE: Cell<bool> = const { Cell::new(false) };
    /// Keep a match whose champion died of a stop signal without waiting for the
    /// referee's own signal (a single match: its first signal exits at once).
    static TOLERATE: Cell<bool> = const { Cell::new(false) };
}

/// Called when a champion of the match on this thread died of `signal`.
pub(crate) fn note_death(signal: i32) {
    if STOP_SIGNALS.contains(&signal) {
        OUTSIDE.set(true);
    }
}

/// Called when a match starts on this thread: nothing disturbed it yet.
pub fn match_starts() {
    OUTSIDE.set(false);
    crate::blind::match_starts();
}

/// Called when a match on this thread is over, before its result is written: whether it is
/// a result, or was disturbed from outside. If a champion died of a stop signal, waits up
/// to [`OUTSIDE_GRACE`] for the referee's own (module doc); without one, the match is a
/// result.
pub fn undisturbed() -> Result<(), Disturbed> {
    if OUTSIDE.take() && !TOLERATE.get() {
        let deadline = std::time::Instant::now() + OUTSIDE_GRACE;
        while !stopping() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    match stopping() {
        true => Err(Disturbed),
        false => Ok(()),
    }
}

/// Runs `play` (a match on this thread) keeping its result even if a champion dies of a
/// stop signal, without waiting for the referee's own (still not if the referee is told
/// to stop).
pub fn tolerating<T>(play: impl FnOnce() -> T) -> T {
    TOLERATE.set(true);
    let result = play();
    TOLERATE.set(false);
    result
}

/// Called before the referee exits normally: if an abort has begun, the signal thread is
/// killing the champions and will exit with [`EXIT_INTERRUPTED`]; wait for it rather than
/// exit with a result that was cut short.
pub fn wait_for_abort() {
    while ABORT.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(20));
    }
}
