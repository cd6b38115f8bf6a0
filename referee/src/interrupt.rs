//! Ctrl-C and SIGTERM. With a graceful stop (tournaments), the first signal raises a flag the
//! run polls, so running matches end and partial results are written; the next signal, or
//! the first one without a graceful stop (a single match), kills every champion and
//! everything they started, and exits. No champion outlives an interrupted referee.
//!
//! The signals are received by a thread blocked on them (signal-hook's `Signals`, a
//! self-pipe written by the handler), which does the killing: a signal handler may not scan
//! `/proc`.

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Exit code of a run stopped by Ctrl-C or SIGTERM.
pub const EXIT_INTERRUPTED: i32 = 130;

/// Raised by the first signal when the run stops gracefully.
static STOP: AtomicBool = AtomicBool::new(false);
/// Raised when the referee kills everything and exits.
static ABORT: AtomicBool = AtomicBool::new(false);

/// Catch SIGINT and SIGTERM from now on; returns the flag a graceful run polls.
pub fn catch(graceful: bool) -> &'static AtomicBool {
    match Signals::new([SIGINT, SIGTERM]) {
        Ok(mut signals) => {
            std::thread::spawn(move || {
                for _ in signals.forever() {
                    if graceful && !STOP.load(Ordering::SeqCst) {
                        eprintln!(
                            "\ninterrupted: no new match starts; the running ones finish and \
                             their results are kept (interrupt again to stop them now)"
                        );
                    }
                    if !graceful || STOP.swap(true, Ordering::SeqCst) {
                        ABORT.store(true, Ordering::SeqCst);
                        crate::champion::kill_every_champion();
                        std::process::exit(EXIT_INTERRUPTED);
                    }
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

/// Whether the referee is killing every champion to exit: a match that ends now ended
/// because its champions were killed, and its result must not be kept.
pub fn aborting() -> bool {
    ABORT.load(Ordering::SeqCst)
}

/// Called before the referee exits normally: if an abort has begun, the signal thread is
/// killing the champions and will exit with [`EXIT_INTERRUPTED`]; wait for it rather than
/// exit with a result that was cut short.
pub fn wait_for_abort() {
    while ABORT.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(20));
    }
}
