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

use std::sync::atomic::{AtomicBool, Ordering};

use signal_hook::iterator::Signals;

pub use crate::signals::{
    match_starts, signal_name, stopping, tolerating, undisturbed, wait_for_abort, Disturbed,
    EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, OUTSIDE_GRACE, STOP_SIGNALS,
};
use crate::signals::{ABORT, STOP};

/// Catch the [`STOP_SIGNALS`] from now on; returns the flag a graceful run polls.
/// `before_exit` runs when the referee exits on a signal, after every champion was killed:
/// it finishes what must not be left half done (a results file being written).
pub fn catch(graceful: bool, before_exit: fn()) -> &'static AtomicBool {
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
                    before_exit();
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
