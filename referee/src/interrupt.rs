//! Ctrl-C and SIGTERM. With a graceful stop (tournaments), the first signal raises a flag the
//! run polls, so running matches end and partial results are written; the next signal, or
//! the first one without a graceful stop (a single match), kills every champion and
//! everything they started, and exits. No champion outlives an interrupted referee.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Exit code of a run stopped by Ctrl-C or SIGTERM.
pub const EXIT_INTERRUPTED: i32 = 130;

/// Raised by the first signal when the run stops gracefully.
static STOP: AtomicBool = AtomicBool::new(false);
/// Raised when the referee must kill everything and exit now.
static ABORT: AtomicBool = AtomicBool::new(false);
/// Whether the first signal only raises `STOP`.
static GRACEFUL: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: nix::libc::c_int) {
    if !GRACEFUL.load(Ordering::SeqCst) || STOP.swap(true, Ordering::SeqCst) {
        ABORT.store(true, Ordering::SeqCst);
    }
}

/// Catch SIGINT and SIGTERM from now on; returns the flag a graceful run polls. The kill
/// is done by a watcher thread, since a signal handler may not scan `/proc`.
pub fn catch(graceful: bool) -> &'static AtomicBool {
    use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};
    GRACEFUL.store(graceful, Ordering::SeqCst);
    std::thread::spawn(|| loop {
        if ABORT.load(Ordering::SeqCst) {
            crate::champion::kill_every_champion();
            std::process::exit(EXIT_INTERRUPTED);
        }
        std::thread::sleep(Duration::from_millis(20));
    });
    let action = SigAction::new(
        SigHandler::Handler(on_signal),
        SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    for signal in [Signal::SIGINT, Signal::SIGTERM] {
        // SAFETY: the handler only touches atomics.
        let _ = unsafe { sigaction(signal, &action) };
    }
    &STOP
}

/// Called before the referee exits normally: if an abort has begun, the watcher thread is
/// killing the champions and will exit with [`EXIT_INTERRUPTED`]; wait for it rather than
/// exit with a result that was cut short.
pub fn wait_for_abort() {
    while ABORT.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(20));
    }
}
