//! Who watches the matches played on this thread: the game server's live site is told the
//! record so far when the match starts and at the end of each callback (`watching`), with no change to the match
//! loop, the seats or the games. Nobody watches by default, and then a callback's end costs
//! one look at a thread-local.

use super::GameRecord;
use std::cell::RefCell;

type Watcher = Box<dyn FnMut(&GameRecord)>;

thread_local! {
    static WATCHER: RefCell<Option<Watcher>> = const { RefCell::new(None) };
}

/// Runs `play` with `watcher` told the record so far of the match it plays on this thread
/// (at its start and after each callback); the watcher is dropped when `play` returns or panics.
pub fn watching<R>(watcher: impl FnMut(&GameRecord) + 'static, play: impl FnOnce() -> R) -> R {
    struct Unset;
    impl Drop for Unset {
        fn drop(&mut self) {
            WATCHER.with(|w| w.borrow_mut().take());
        }
    }
    WATCHER.with(|w| *w.borrow_mut() = Some(Box::new(watcher)));
    let _unset = Unset;
    play()
}

/// Tells this thread's watcher, if any, the record so far.
pub(super) fn tell(record: &GameRecord) {
    WATCHER.with(|w| {
        // A watcher that plays a match itself (none does) would find the cell taken: it is
        // then not told, rather than panicking.
        if let Ok(mut w) = w.try_borrow_mut() {
            if let Some(watcher) = w.as_mut() {
                watcher(record);
            }
        }
    });
}
