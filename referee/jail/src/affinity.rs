//! CPU pinning of a match: the thread that referees a match and the match's champions share
//! one CPU. A request is a wake-up of the other side; on one CPU it costs about a third of a
//! cross-CPU wake-up (measured: a match of 107,000 requests takes 1.2 s pinned, 3.3 s not;
//! `referee/BENCHMARKS.md`). Budgets are CPU time, so pinning does not change what a
//! champion may spend, only how fast the conversation goes.
//!
//! A match only pins to a CPU that no other match on the machine holds: every referee (any
//! user, any tournament, shard or `referee match`) claims the CPU for the match's duration
//! with an exclusive `flock` on `<dir>/cpu<N>.lock`, `<dir>` being [`CLAIM_DIR`] or
//! `$REFEREE_CPU_CLAIMS`. When every allowed CPU is claimed, the match is not pinned and the
//! kernel places it: two referees never stack on one CPU while another idles (as they did
//! when each pinned its first match to the first CPU). A lock vanishes with its holder, so
//! a killed referee frees its CPUs. The claim is a placement hint only: whoever can write
//! the directory can defeat it (delete a file, hold every lock), which costs speed, never
//! results, since which CPU a match runs on is never recorded nor read by the game.

use nix::errno::Errno;
use nix::fcntl::{open, openat, Flock, FlockArg, OFlag};
use nix::sched::{sched_getaffinity, sched_setaffinity, CpuSet};
use nix::sys::stat::{fchmod, fstat, Mode, SFlag};
use nix::unistd::{mkdir, Pid};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The directory where the referees of a machine claim CPUs. A fixed path, not `$TMPDIR`,
/// which batch systems set per job: shards on one node must agree. Created world-writable
/// and sticky (like `/tmp`), its lock files readable by all, so that referees of several
/// users see each other's claims.
pub const CLAIM_DIR: &str = "/tmp/.prologin-referee-cpus";

/// Environment variable naming another claim directory: for referees in containers or with
/// a private `/tmp` that share CPUs (give them one shared directory), and for tests.
pub const CLAIM_DIR_ENV: &str = "REFEREE_CPU_CLAIMS";

/// The CPUs this process may use, as it started.
fn allowed() -> &'static [usize] {
    static ALLOWED: OnceLock<Vec<usize>> = OnceLock::new();
    ALLOWED.get_or_init(|| {
        let set = sched_getaffinity(Pid::from_raw(0)).unwrap_or_else(|_| CpuSet::new());
        (0..CpuSet::count())
            .filter(|&cpu| set.is_set(cpu).unwrap_or(false))
            .collect()
    })
}

/// The claim directory of this process: `$REFEREE_CPU_CLAIMS` if set and not empty.
fn claim_dir() -> PathBuf {
    match std::env::var_os(CLAIM_DIR_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(CLAIM_DIR),
    }
}

/// The current thread pinned to one CPU, until dropped (and the CPU's claim, if any).
pub struct Pin {
    cpu: usize,
    previous: Option<CpuSet>,
    _claim: Option<Flock<OwnedFd>>,
}

impl Pin {
    /// Claim a CPU that no other match on this machine holds, trying the allowed CPUs from
    /// the `slot`-th on (a tournament gives each worker its slot, so that a lone referee's
    /// workers spread in order), and pin the current thread to it. `None`, leaving the
    /// thread as it is, when every allowed CPU is claimed, the claim directory cannot be
    /// used (reported once on stderr) or the system refuses to pin.
    pub fn claim(slot: usize) -> Option<Pin> {
        let dir = claim_dir();
        match claim_in(&dir, slot, allowed()) {
            Ok(Some((cpu, lock))) => Pin::to(cpu, Some(lock)),
            Ok(None) => None,
            Err(error) => {
                static WARNED: OnceLock<()> = OnceLock::new();
                WARNED.get_or_init(|| {
                    eprintln!(
                        "warning: cannot claim a CPU in {} ({error}); matches are not pinned",
                        dir.display()
                    )
                });
                None
            }
        }
    }

    /// Pin the current thread to the `slot`-th allowed CPU (modulo their number) without
    /// claiming it: benchmarks that place both ends of a pipe themselves. `None` when the
    /// system refuses.
    pub fn current_thread(slot: usize) -> Option<Pin> {
        Pin::to(cpu_of(slot)?, None)
    }

    fn to(cpu: usize, claim: Option<Flock<OwnedFd>>) -> Option<Pin> {
        let previous = sched_getaffinity(Pid::from_raw(0)).ok();
        sched_setaffinity(Pid::from_raw(0), &one(cpu)?).ok()?;
        Some(Pin {
            cpu,
            previous,
            _claim: claim,
        })
    }

    /// The CPU of this pin.
    pub fn cpu(&self) -> usize {
        self.cpu
    }

    /// Pin process `pid` (a champion just started) to this CPU. Best effort: a champion
    /// that is already gone is not an error here.
    pub fn process(&self, pid: u32) {
        if let Some(set) = one(self.cpu) {
            let _ = sched_setaffinity(Pid::from_raw(pid as i32), &set);
        }
    }
}

impl Drop for Pin {
    fn drop(&mut self) {
        // The thread is unpinned before the claim (a field) is released.
        if let Some(previous) = &self.previous {
            let _ = sched_setaffinity(Pid::from_raw(0), previous);
        }
    }
}

/// Claim one of `cpus` in `dir`: an exclusive, non-blocking `flock` on `cpu<N>.lock`, trying
/// from the `slot`-th (modulo their number) round the list. `Ok(None)` when each is held by
/// someone else or its file cannot be used (not a regular file of one link, not readable);
/// `Err` when the directory itself cannot be opened or created.
fn claim_in(
    dir: &Path,
    slot: usize,
    cpus: &[usize],
) -> nix::Result<Option<(usize, Flock<OwnedFd>)>> {
    let dir = open_dir(dir)?;
    let n = cpus.len();
    for cpu in (0..n).map(|i| cpus[(slot + i) % n]) {
        let Ok(file) = open_claim_file(&dir, cpu) else {
            continue;
        };
        if let Ok(lock) = Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            return Ok(Some((cpu, lock)));
        }
    }
    Ok(None)
}

/// Open the claim directory, creating it mode 1777 (sticky, everyone may add a CPU's file,
/// nobody may remove another's) if it does not exist. Never follows a symlink at `dir`.
fn open_dir(dir: &Path) -> nix::Result<OwnedFd> {
    const FLAGS: OFlag = OFlag::O_RDONLY
        .union(OFlag::O_DIRECTORY)
        .union(OFlag::O_NOFOLLOW)
        .union(OFlag::O_CLOEXEC);
    match open(dir, FLAGS, Mode::empty()) {
        Err(Errno::ENOENT) => {}
        opened => return opened,
    }
    let shared = Mode::from_bits_truncate(0o1777);
    match mkdir(dir, shared) {
        Ok(()) | Err(Errno::EEXIST) => {}
        Err(error) => return Err(error),
    }
    let fd = open(dir, FLAGS, Mode::empty())?;
    // The umask took bits off; the owner (whoever created it) puts them back, anyone else
    // is refused (EPERM) and leaves them.
    let _ = fchmod(&fd, shared);
    Ok(fd)
}

/// Open (creating it, mode 0444, if missing) the claim file of `cpu` in `dir`, read-only:
/// `flock` needs no more, so a file one user created serves every user. Refuses anything
/// but a regular file with one link (no symlink, FIFO or hard link to someone's file).
fn open_claim_file(dir: &OwnedFd, cpu: usize) -> nix::Result<OwnedFd> {
    // Not inherited by the champions (forked while other matches hold claims); no waiting
    // on a FIFO.
    const FLAGS: OFlag = OFlag::O_RDONLY
        .union(OFlag::O_NOFOLLOW)
        .union(OFlag::O_NONBLOCK)
        .union(OFlag::O_CLOEXEC);
    const CREATE: OFlag = FLAGS.union(OFlag::O_CREAT).union(OFlag::O_EXCL);
    let name = format!("cpu{cpu}.lock");
    let readable = Mode::from_bits_truncate(0o444);
    let fd = match openat(dir, name.as_str(), FLAGS, Mode::empty()) {
        Err(Errno::ENOENT) => match openat(dir, name.as_str(), CREATE, readable) {
            Ok(fd) => {
                fchmod(&fd, readable)?;
                fd
            }
            Err(Errno::EEXIST) => openat(dir, name.as_str(), FLAGS, Mode::empty())?,
            Err(error) => return Err(error),
        },
        opened => opened?,
    };
    let stat = fstat(&fd)?;
    let regular = SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT == SFlag::S_IFREG;
    if !regular || stat.st_nlink != 1 {
        return Err(Errno::EINVAL);
    }
    Ok(fd)
}

/// The `slot`-th allowed CPU, modulo their number.
fn cpu_of(slot: usize) -> Option<usize> {
    let cpus = allowed();
    cpus.get(slot % cpus.len().max(1)).copied()
}

/// Pin process `pid` to the `slot`-th allowed CPU (benchmarks use it to place the two ends
/// of a pipe on chosen CPUs). Best effort.
pub fn pin_process(pid: u32, slot: usize) {
    if let Some(set) = cpu_of(slot).and_then(one) {
        let _ = sched_setaffinity(Pid::from_raw(pid as i32), &set);
    }
}

fn one(cpu: usize) -> Option<CpuSet> {
    let mut set = CpuSet::new();
    set.set(cpu).ok()?;
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A fresh directory that does not exist yet.
    fn fresh(name: &str) -> PathBuf {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "referee-affinity-{}-{}-{name}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn claim(dir: &Path, slot: usize, cpus: &[usize]) -> Option<(usize, Flock<OwnedFd>)> {
        claim_in(dir, slot, cpus).unwrap()
    }

    fn cpu(claimed: &Option<(usize, Flock<OwnedFd>)>) -> Option<usize> {
        claimed.as_ref().map(|(cpu, _)| *cpu)
    }

    /// Whether someone holds the claim of `cpu` in `dir`.
    fn held(dir: &Path, cpu: usize) -> bool {
        let file = std::fs::File::open(dir.join(format!("cpu{cpu}.lock"))).unwrap();
        Flock::lock(file, FlockArg::LockExclusiveNonblock).is_err()
    }

    #[test]
    fn claims_take_free_cpus_from_the_slot_on_then_none() {
        let dir = fresh("order");
        let cpus = [3, 5, 7];
        let first = claim(&dir, 4, &cpus);
        assert_eq!(cpu(&first), Some(5), "slot 4 of three CPUs is the second");
        let second = claim(&dir, 4, &cpus);
        assert_eq!(cpu(&second), Some(7));
        let third = claim(&dir, 4, &cpus);
        assert_eq!(cpu(&third), Some(3), "round the list");
        assert!(held(&dir, 3) && held(&dir, 5) && held(&dir, 7));
        assert_eq!(cpu(&claim(&dir, 0, &cpus)), None, "every CPU is claimed");
        drop(second);
        assert!(!held(&dir, 7), "dropping a claim frees its CPU");
        assert_eq!(cpu(&claim(&dir, 0, &cpus)), Some(7));
        assert_eq!(cpu(&claim(&dir, 0, &[])), None, "no CPU at all");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_directory_is_shared_and_the_files_readable_by_all() {
        let dir = fresh("modes");
        let _claimed = claim(&dir, 0, &[0]);
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode(&dir), 0o1777);
        assert_eq!(mode(&dir.join("cpu0.lock")), 0o444);
        // A file that exists (created by someone else) is opened as it is.
        assert_eq!(cpu(&claim(&dir, 0, &[0, 1])), Some(1));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn symlinks_fifos_and_hard_links_are_not_claimed() {
        let dir = fresh("odd");
        std::fs::create_dir_all(&dir).unwrap();
        let (linked, symlinked) = (dir.join("linked"), dir.join("symlinked"));
        std::fs::write(&linked, "").unwrap();
        std::fs::write(&symlinked, "").unwrap();
        std::os::unix::fs::symlink(&symlinked, dir.join("cpu0.lock")).unwrap();
        nix::unistd::mkfifo(&dir.join("cpu1.lock"), Mode::from_bits_truncate(0o644)).unwrap();
        std::fs::hard_link(&linked, dir.join("cpu2.lock")).unwrap();
        std::fs::create_dir(dir.join("cpu3.lock")).unwrap();
        let claimed = claim(&dir, 0, &[0, 1, 2, 3, 4]);
        assert_eq!(cpu(&claimed), Some(4));
        for file in [&linked, &symlinked] {
            let file = std::fs::File::open(file).unwrap();
            assert!(
                Flock::lock(file, FlockArg::LockExclusiveNonblock).is_ok(),
                "the file behind a link is not locked"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_that_cannot_be_used_is_an_error() {
        let dir = fresh("symlinked");
        let real = fresh("real");
        std::fs::create_dir_all(&real).unwrap();
        std::os::unix::fs::symlink(&real, &dir).unwrap();
        assert!(
            claim_in(&dir, 0, &[0]).is_err(),
            "a symlink is not followed"
        );
        assert!(!real.join("cpu0.lock").exists());
        assert!(claim_in(&real.join("missing/claims"), 0, &[0]).is_err());
        std::fs::write(real.join("file"), "").unwrap();
        assert!(claim_in(&real.join("file"), 0, &[0]).is_err());
        let _ = std::fs::remove_file(&dir);
        let _ = std::fs::remove_dir_all(&real);
    }

    /// The allowed CPUs in `set`.
    fn members(set: &CpuSet) -> Vec<usize> {
        let all = 0..CpuSet::count();
        all.filter(|&c| set.is_set(c).unwrap()).collect()
    }

    #[test]
    fn slots_go_round_the_allowed_cpus() {
        let cpus = allowed();
        assert!(!cpus.is_empty());
        for slot in 0..3 * cpus.len() {
            assert_eq!(cpu_of(slot), Some(cpus[slot % cpus.len()]), "slot {slot}");
        }
    }

    #[test]
    fn a_pin_pins_the_thread_and_restores_it() {
        let cpus = allowed();
        let before = sched_getaffinity(Pid::from_raw(0)).unwrap();
        let last = cpus.len() - 1;
        let pin = Pin::current_thread(last).expect("pinned");
        assert_eq!(
            members(&sched_getaffinity(Pid::from_raw(0)).unwrap()),
            [cpus[last]]
        );
        drop(pin);
        assert_eq!(sched_getaffinity(Pid::from_raw(0)).unwrap(), before);
    }

    #[test]
    fn processes_are_pinned_where_asked() {
        let cpus = allowed();
        let last = cpus.len() - 1;
        let mut child = std::process::Command::new("sleep")
            .arg("60")
            .spawn()
            .unwrap();
        let pid = Pid::from_raw(child.id() as i32);
        pin_process(child.id(), last);
        assert_eq!(members(&sched_getaffinity(pid).unwrap()), [cpus[last]]);
        let pin = Pin::current_thread(0).expect("pinned");
        pin.process(child.id());
        assert_eq!(members(&sched_getaffinity(pid).unwrap()), [cpus[0]]);
        let _ = child.kill();
        let _ = child.wait();
    }
}
