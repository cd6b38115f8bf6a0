//! Ctrl-C, SIGTERM and SIGHUP (what a terminal, `kill`, `scancel` or a cluster's time
//! limit sends), and matches disturbed from outside.
//!
//! With a graceful stop (tournaments, gauntlets), the first signal raises a flag the run
//! polls: no new match starts, every champion is killed at once, the matches in flight are
//! abandoned (not written: `--resume` plays them again), the finished ones are written, and
//! the referee exits with [`EXIT_INTERRUPTED`] within a second or so, well inside the grace
//! a cluster gives before its `SIGKILL`. The next signal, or the first one without a
//! graceful stop (a single match), kills every champion and everything they started, and
//! exits at once (once a results file being written, if any, is in place, or after 2 s
//! if the write is stuck: no temporary file is left). No champion outlives an interrupted referee.
//!
//! A match is disturbed from outside when its champions were killed because the referee
//! was told to stop: it is no result ([`undisturbed`] says so, as a [`Disturbed`] error),
//! and a resume plays it again. A champion may die of one of the [`STOP_SIGNALS`], which
//! neither the referee nor the jail sends (they kill with `SIGKILL`), before the referee
//! hears its own: `scancel` signals every process of a job one by one. So a match whose
//! champion died of one waits up to [`OUTSIDE_GRACE`] for the referee's signal: if it
//! comes, the match is disturbed; if not, nobody stopped the run, and the death is the
//! champion's crash, kept as any other. It is never played again: a champion that kills
//! itself with SIGTERM whenever it is losing would get a second roll of every match it
//! loses, its random choices and its opponents' with it.
//!
//! The signals are received by a thread blocked on them (signal-hook's `Signals`, a
//! self-pipe written by the handler), which does the killing: a signal handler may not scan
//! `/proc`.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Exit code of a run stopped by Ctrl-C, SIGTERM or SIGHUP.
pub const EXIT_INTERRUPTED: i32 = 130;

/// The signals that tell the referee to stop. Neither the referee nor the jail sends them
/// to a champion: a champion killed by one was killed from outside.
pub const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// Raised by the first signal when the run stops gracefully.
static STOP: AtomicBool = AtomicBool::new(false);
/// Raised when the referee kills everything and exits.
static ABORT: AtomicBool = AtomicBool::new(false);

/// Catch the [`STOP_SIGNALS`] from now on; returns the flag a graceful run polls.
pub fn catch(graceful: bool) -> &'static AtomicBool {
    match Signals::new(STOP_SIGNALS) {
        Ok(mut signals) => {
            std::thread::spawn(move || {
                for signal in signals.forever() {
                    if graceful && !STOP.swap(true, Ordering::SeqCst) {
                        eprintln!(
                            "\n{}: stopping: no new match starts, the matches in flight are \
                             abandoned (a resume plays them again) and the finished ones are \
                             written",
                            signal_name(signal)
                        );
                        // No champion starts from now on; the matches in flight end at once.
                        crate::champion::kill_every_champion();
                        continue;
                    }
                    ABORT.store(true, Ordering::SeqCst);
                    crate::champion::kill_every_champion();
                    // A results file being written is finished first (no temporary file
                    // is left), and no other starts; one stuck for 2 s is given up.
                    let _writes = crate::store::finish_writes(Duration::from_secs(2));
                    std::process::exit(EXIT_INTERRUPTED);
                }
            });
        }
        Err(e) => eprintln!(
            "warning: cannot catch Ctrl-C ({e}); an interrupted run may leave champions \
             running"
        ),
    }
    &STOP
}

/// `SIGTERM` for 15.
pub fn signal_name(signal: i32) -> String {
    nix::sys::signal::Signal::try_from(signal)
        .map_or_else(|_| format!("signal {signal}"), |s| s.as_str().to_string())
}

/// Exit code when the reader of the referee's output went away (128 + SIGPIPE, as a shell
/// reports a program killed by it).
pub const EXIT_BROKEN_PIPE: i32 = 141;

/// From now on, a `print!` to a closed pipe (`referee show ... | head`) ends the referee
/// quietly with [`EXIT_BROKEN_PIPE`], every champion killed first, instead of a panic. (The
/// referee ignores SIGPIPE, as Rust programs do, so that a champion closing its input never
/// kills it; std's print macros then panic on the broken pipe.) Other panics keep the
/// default report.
pub fn exit_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            ABORT.store(true, Ordering::SeqCst);
            crate::champion::kill_every_champion();
            std::process::exit(EXIT_BROKEN_PIPE);
        }
        default(info);
    }));
}

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
