//! The one thread every champion and jail is forked from (a parent-death signal fires
//! when the forking thread ends), and the referee as child subreaper.

use std::sync::{mpsc, OnceLock};

type Job = Box<dyn FnOnce() + Send>;

/// Runs `job` on the spawner thread and returns its result.
///
/// `PR_SET_PDEATHSIG` fires when the *thread* that forked the child exits, not the process:
/// forking from a match's worker thread would kill the champion when that thread ends. All
/// forks therefore happen on one thread that lives as long as the referee. The same thread
/// makes the referee a child subreaper, once, so that orphaned descendants of champions are
/// reparented to the referee (where a sweep finds and reaps them) rather than to init.
pub(crate) fn on_spawner_thread<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> T {
    static SPAWNER: OnceLock<mpsc::Sender<Job>> = OnceLock::new();
    let sender = SPAWNER.get_or_init(|| {
        let _ = nix::sys::prctl::set_child_subreaper(true);
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("champion-spawner".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            })
            .expect("cannot start the champion spawner thread");
        tx
    });
    let (tx, rx) = mpsc::sync_channel(1);
    sender
        .send(Box::new(move || {
            let _ = tx.send(job());
        }))
        .expect("champion spawner thread is gone");
    rx.recv().expect("champion spawner thread dropped a job")
}
