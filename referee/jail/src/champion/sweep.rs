//! Killing everything a champion started, and reaping: the main process, its process group,
//! every descendant, and every process carrying the champion's token, even one that left the
//! group with `setsid` and was reparented to the referee (a child subreaper).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nix::libc;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;

use super::clock::{self, Ident, ProcStat};

/// How the main process ended, with what the kernel accounted for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reaped {
    /// The raw wait status.
    pub status: i32,
    /// User + system CPU, including the children it reaped.
    pub cpu: Duration,
    /// Peak resident set in bytes (`ru_maxrss`): it includes what the process inherited
    /// at fork, so it tells only when it exceeds the referee's own size (see `record_main`).
    pub max_rss: u64,
}

/// Whether `pid` (our child) has exited, without reaping it: the zombie keeps holding its
/// pid and process group id, so neither can be reused while we still signal them.
pub(crate) fn has_exited(pid: i32) -> bool {
    matches!(
        waitid(
            Id::Pid(Pid::from_raw(pid)),
            WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT,
        ),
        Ok(status) if status != WaitStatus::StillAlive
    )
}

/// Reaps `pid` if it has exited (`block`: waits for it), returning its status and usage.
pub(crate) fn reap(pid: i32, block: bool) -> Option<Reaped> {
    let mut status = 0;
    // SAFETY: zeroed rusage is a valid out-parameter.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if block { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: valid out-pointers.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if r == pid {
            let tv = |t: libc::timeval| {
                Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
            };
            return Some(Reaped {
                status,
                cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
                max_rss: (usage.ru_maxrss.max(0) as u64) * 1024,
            });
        }
        if r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        return None;
    }
}

/// What a sweep collected from the processes it reaped besides the main one.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Collected {
    pub cpu: Duration,
}

/// Kills and reaps every process of `ident`. `main` receives the main process's fate when
/// this sweep reaps it. Returns when nothing of the champion is left, or after `patience`
/// (a process stuck in uninterruptible sleep cannot be killed sooner).
pub(crate) fn sweep(ident: &mut Ident, main: &mut Option<Reaped>, patience: Duration) -> Collected {
    let me = clock::self_info();
    let mut collected = Collected::default();
    let deadline = Instant::now() + patience;
    let mut round = 0u32;
    // A process caught in the middle of `execve` shows an empty environment for an instant,
    // so one clean snapshot may miss it: only two clean rounds in a row end the sweep.
    let mut clean_rounds = 0;
    loop {
        round += 1;
        if !ident.main_reaped {
            // The main process is unreaped, so its pid and pgid are still ours to signal.
            let _ = kill(Pid::from_raw(ident.main), Signal::SIGKILL);
            let _ = kill(Pid::from_raw(-ident.main), Signal::SIGKILL);
        }
        let procs = clock::snapshot();
        let found = clock::members(&procs, ident, true);
        let mut alive = 0;
        for p in &found {
            if !p.is_zombie() {
                alive += 1;
                let _ = kill(Pid::from_raw(p.pid), Signal::SIGKILL);
            }
        }
        // Reap the main process once it is dead, and keep its fate.
        if !ident.main_reaped && has_exited(ident.main) {
            if let Some(r) = reap(ident.main, false) {
                *main = Some(r);
                ident.main_reaped = true;
                clock::live_mains().remove(&ident.main);
            }
        }
        // Reap zombies reparented to us: our members, and strays of any champion that left
        // their session (a main process never did, so no other champion's main is touched).
        let mut pending_zombies = 0;
        for p in procs
            .iter()
            .filter(|p| p.ppid == me.pid && p.pid != ident.main)
        {
            let ours = found.iter().any(|f| f.pid == p.pid);
            let stray = p.session != me.session && !is_live_main(p.pid);
            if !(ours || stray) {
                continue;
            }
            if let Some(r) = reap(p.pid, false) {
                if ours {
                    collected.cpu += r.cpu;
                }
            } else if ours && p.is_zombie() {
                pending_zombies += 1;
            }
        }
        if alive == 0 && ident.main_reaped && pending_zombies == 0 && only_foreign_zombies(&found) {
            clean_rounds += 1;
            if clean_rounds == 2 {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        clean_rounds = 0;
        if Instant::now() >= deadline {
            break;
        }
        if round > 3 {
            std::thread::sleep(Duration::from_millis(1));
        } else {
            std::thread::yield_now();
        }
    }
    collected
}

/// True when every member left is a zombie whose parent is not us (it is reaped by its own,
/// dying, parent or reparented to us and reaped in a later round).
fn only_foreign_zombies(found: &[ProcStat]) -> bool {
    let me = clock::self_info().pid;
    found.iter().all(|p| p.is_zombie() && p.ppid != me)
}

fn is_live_main(pid: i32) -> bool {
    clock::live_mains().contains(&pid)
}

/// Set once the referee is killing everything to exit: no champion starts after it.
static SHUTTING_DOWN: AtomicBool = AtomicBool::new(false);

/// Whether [`kill_every_champion`] has begun.
pub(crate) fn is_shutting_down() -> bool {
    SHUTTING_DOWN.load(Ordering::SeqCst)
}

/// Kill every champion this referee started and everything they started: each live main
/// process's group, and every process whose token names this referee. For a referee about
/// to exit in a hurry (Ctrl-C): no reaping. No champion starts once this has begun, and
/// passes repeat until two in a row find nothing (a champion caught starting, or a process
/// in `execve`, shows no token for an instant), for one second at most.
pub fn kill_every_champion() {
    SHUTTING_DOWN.store(true, Ordering::SeqCst);
    let prefix = format!("{}={}-", super::spawn::TOKEN_VAR, std::process::id()).into_bytes();
    let mut buf = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut quiet = 0;
    while quiet < 2 && Instant::now() < deadline {
        let mains: Vec<i32> = clock::live_mains().iter().copied().collect();
        for main in mains {
            // The main process leads its own group (a zombie leader still answers `kill`,
            // so only the token scan below counts what was found).
            let _ = kill(Pid::from_raw(-main), Signal::SIGKILL);
            let _ = kill(Pid::from_raw(main), Signal::SIGKILL);
        }
        // A jail dies whole with its init.
        let mut found = crate::kill_every_jail();
        for process in clock::snapshot() {
            if !process.is_zombie() && clock::has_env_prefix(process.pid, &prefix, &mut buf) {
                found += 1;
                let _ = kill(Pid::from_raw(process.pid), Signal::SIGKILL);
            }
        }
        quiet = if found == 0 { quiet + 1 } else { 0 };
        std::thread::sleep(Duration::from_millis(5));
    }
}
