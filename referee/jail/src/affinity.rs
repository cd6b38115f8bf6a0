//! CPU pinning of a match: the thread that referees a match and the match's champions share
//! one CPU. A request is a wake-up of the other side; on one CPU it costs about a third of a
//! cross-CPU wake-up (measured: a match of 107,000 requests takes 1.2 s pinned, 3.3 s not;
//! `referee/BENCHMARKS.md`). Budgets are CPU time, so pinning does not change what a
//! champion may spend, only how fast the conversation goes.
//!
//! A match only pins to a CPU that no other match of its user holds: every referee (any
//! tournament, shard or `referee match`) claims the CPU for the match's duration by binding
//! a Unix socket to the abstract name `<set>/uid<U>/cpu<N>` (`<set>` being [`CLAIM_SET`] or
//! `$REFEREE_CPU_CLAIMS`, `<U>` the referee's user): a bind that fails because the name is
//! bound by a socket of the same user means another match holds that CPU. When every
//! allowed CPU is claimed, the match is not pinned and the kernel places it (said once on
//! stderr): two referees never stack on one CPU while another idles (as they did when each
//! pinned its first match to the first CPU). An abstract name is no file: it vanishes with
//! the last descriptor of its socket, so a killed referee frees its CPUs and nothing is
//! left on disk. Abstract names are per network namespace and carry no permission: anyone
//! sharing the namespace may bind any name, so a name of the referee's held by a socket of
//! another user ([`holder`], the kernel's socket diagnostics) is a squat, meant to steer
//! matches to a CPU of the squatter's choice (a hogged one): then the referee pins no match
//! and says so once on stderr, naming the squatter's uid. A squatter can thus only cost
//! speed (unpinned matches), never choose where a match runs. Each user's referees see
//! their own claims only (a user's and root's matches may share a CPU); a referee in a
//! network namespace of its own (a container with its own network) sees only the claims
//! made there; champions, each in a network namespace of its jail's, see no claim.

mod holder;

use nix::errno::Errno;
use nix::sched::{sched_getaffinity, sched_setaffinity, CpuSet};
use nix::sys::socket::{bind, socket, AddressFamily, SockFlag, SockType, UnixAddr};
use nix::unistd::Pid;
use std::os::fd::OwnedFd;
use std::sync::OnceLock;

/// The set of claims the referees of a machine share: the prefix of the abstract socket
/// names of their CPUs (`prologin-referee-cpus/cpu0`, ...).
pub const CLAIM_SET: &str = "prologin-referee-cpus";

/// Environment variable naming another set of claims: referees with the same value see each
/// other's claims and no one else's (tests use a set of their own).
pub const CLAIM_SET_ENV: &str = "REFEREE_CPU_CLAIMS";

/// The longest abstract name a Unix socket takes (`sun_path` less its leading NUL).
const MAX_NAME: usize = 107;

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

/// The set of claims of this process: `$REFEREE_CPU_CLAIMS` if set and not empty.
fn claim_set() -> String {
    match std::env::var_os(CLAIM_SET_ENV) {
        Some(set) if !set.is_empty() => set.to_string_lossy().into_owned(),
        _ => CLAIM_SET.to_string(),
    }
}

/// The current thread pinned to one CPU, until dropped (and the CPU's claim, if any).
pub struct Pin {
    cpu: usize,
    previous: Option<CpuSet>,
    _claim: Option<OwnedFd>,
}

impl Pin {
    /// Claim a CPU that no other match on this machine holds, trying the allowed CPUs from
    /// the `slot`-th on (a tournament gives each worker its slot, so that a lone referee's
    /// workers spread in order), and pin the current thread to it. `None`, leaving the
    /// thread as it is, when every allowed CPU is claimed, no claim can be made (reported
    /// once on stderr) or the system refuses to pin.
    pub fn claim(slot: usize) -> Option<Pin> {
        let set = claim_set();
        let why = match claim_in(&set, slot, allowed()) {
            Ok(Some((cpu, lock))) => return Pin::to(cpu, Some(lock)),
            Ok(None) => {
                static TAKEN: OnceLock<()> = OnceLock::new();
                TAKEN.get_or_init(|| {
                    eprintln!(
                        "note: every CPU of this referee is claimed by another match of its \
                         user (set {set:?}): matches that find none free run unpinned"
                    )
                });
                return None;
            }
            Err(NoClaim::Squatted { cpu, uid }) => format!(
                "the claim of CPU {cpu} in the set {set:?} is held by uid {uid}, not by a \
                 referee of this user: someone squats the claims to steer matches to a CPU \
                 of their choice"
            ),
            Err(NoClaim::Error(error)) => {
                format!("cannot claim a CPU in the set {set:?} ({error})")
            }
        };
        static WARNED: OnceLock<()> = OnceLock::new();
        WARNED.get_or_init(|| eprintln!("warning: {why}; matches are not pinned"));
        None
    }

    /// Pin the current thread to the `slot`-th allowed CPU (modulo their number) without
    /// claiming it: benchmarks that place both ends of a pipe themselves. `None` when the
    /// system refuses.
    pub fn current_thread(slot: usize) -> Option<Pin> {
        Pin::to(cpu_of(slot)?, None)
    }

    fn to(cpu: usize, claim: Option<OwnedFd>) -> Option<Pin> {
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

/// Why no CPU was claimed, when it is not that each is claimed by a match of this user.
#[derive(Debug, PartialEq, Eq)]
enum NoClaim {
    /// No socket can be made or bound (a set's name too long, sockets refused).
    Error(Errno),
    /// The name of `cpu` is held by a socket of another user, `uid`.
    Squatted { cpu: usize, uid: u32 },
}

/// Claim one of `cpus` in the set `set`: a Unix socket bound to the abstract name
/// `<set>/uid<U>/cpu<N>` of this process's user, trying from the `slot`-th CPU (modulo
/// their number) round the list. `Ok(None)` when each name is bound by a socket of this
/// user; `Err` when one is bound by another user's, or none can be made or bound.
fn claim_in(set: &str, slot: usize, cpus: &[usize]) -> Result<Option<(usize, OwnedFd)>, NoClaim> {
    let n = cpus.len();
    let me = euid();
    for cpu in (0..n).map(|i| cpus[(slot + i) % n]) {
        let name = claim_name(set, me, cpu);
        match hold_name(&name) {
            Ok(socket) => return Ok(Some((cpu, socket))),
            Err(Errno::EADDRINUSE) => match holder::holder(&name) {
                Some(uid) if uid != me => return Err(NoClaim::Squatted { cpu, uid }),
                _ => continue,
            },
            Err(error) => return Err(NoClaim::Error(error)),
        }
    }
    Ok(None)
}

/// The abstract name of the claim of `cpu` in `set` by the referees of user `uid`.
pub fn claim_name(set: &str, uid: u32, cpu: usize) -> String {
    format!("{set}/uid{uid}/cpu{cpu}")
}

/// The uid of the owner of the socket bound to the abstract name `name`, if one is (and
/// the kernel tells it). For tests and diagnostics.
pub fn holder(name: &str) -> Option<u32> {
    holder::holder(name)
}

/// A socket bound to the claim name of `cpu` in `set` for this process's user.
fn bind_claim(set: &str, cpu: usize) -> nix::Result<OwnedFd> {
    hold_name(&claim_name(set, euid(), cpu))
}

/// A socket bound to the abstract name `name`: a stream socket that never listens (nobody
/// can connect to it nor send it anything), not inherited by the champions.
fn hold_name(name: &str) -> nix::Result<OwnedFd> {
    if name.len() > MAX_NAME {
        return Err(Errno::ENAMETOOLONG);
    }
    let address = UnixAddr::new_abstract(name.as_bytes())?;
    let socket = socket(
        AddressFamily::Unix,
        SockType::Stream,
        SockFlag::SOCK_CLOEXEC,
        None,
    )?;
    bind(std::os::fd::AsRawFd::as_raw_fd(&socket), &address)?;
    Ok(socket)
}

/// Whether the claim of `cpu` in `set` of the referees of user `uid` is held now (by any
/// process sharing this network namespace): its name cannot be bound. For tests and
/// diagnostics.
pub fn is_claimed(set: &str, uid: u32, cpu: usize) -> bool {
    matches!(
        hold_name(&claim_name(set, uid, cpu)),
        Err(Errno::EADDRINUSE)
    )
}

/// Holds the claim of `cpu` in `set` as a referee's match would, until the descriptor is
/// dropped; `None` if it is held already or cannot be made. For tests.
pub fn hold(set: &str, cpu: usize) -> Option<OwnedFd> {
    bind_claim(set, cpu).ok()
}

/// This process's effective user: whose claims it makes (its names carry it).
pub fn euid() -> u32 {
    // SAFETY: geteuid takes nothing and cannot fail.
    unsafe { nix::libc::geteuid() }
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

    /// A set of claims of this test alone.
    fn fresh(name: &str) -> String {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        format!(
            "referee-affinity-test/{}-{}-{name}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        )
    }

    fn claim(set: &str, slot: usize, cpus: &[usize]) -> Option<(usize, OwnedFd)> {
        claim_in(set, slot, cpus).unwrap()
    }

    fn cpu(claimed: &Option<(usize, OwnedFd)>) -> Option<usize> {
        claimed.as_ref().map(|(cpu, _)| *cpu)
    }

    #[test]
    fn claims_take_free_cpus_from_the_slot_on_then_none() {
        let set = fresh("order");
        let cpus = [3, 5, 7];
        let first = claim(&set, 4, &cpus);
        assert_eq!(cpu(&first), Some(5), "slot 4 of three CPUs is the second");
        let second = claim(&set, 4, &cpus);
        assert_eq!(cpu(&second), Some(7));
        let third = claim(&set, 4, &cpus);
        assert_eq!(cpu(&third), Some(3), "round the list");
        let me = euid();
        assert!(is_claimed(&set, me, 3) && is_claimed(&set, me, 5) && is_claimed(&set, me, 7));
        assert_eq!(cpu(&claim(&set, 0, &cpus)), None, "every CPU is claimed");
        drop(second);
        // A process another test forks in the meantime holds a copy of the descriptor until
        // its exec (close-on-exec) or its end: the name is free once the last copy goes.
        let freed = std::time::Instant::now();
        while is_claimed(&set, me, 7) {
            assert!(
                freed.elapsed() < std::time::Duration::from_secs(20),
                "dropping a claim frees its CPU"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(cpu(&claim(&set, 0, &cpus)), Some(7));
        assert_eq!(cpu(&claim(&set, 0, &[])), None, "no CPU at all");
    }

    #[test]
    fn sets_are_apart_and_leave_no_file() {
        let (one, other) = (fresh("one"), fresh("other"));
        let _held = hold(&one, 0).unwrap();
        assert!(hold(&one, 0).is_none(), "held once");
        assert_eq!(
            cpu(&claim(&other, 0, &[0])),
            Some(0),
            "another set is apart"
        );
        let name = claim_name(&one, euid(), 0);
        assert!(!std::path::Path::new(&name).exists());
        let listed = std::fs::read_to_string("/proc/net/unix").unwrap();
        assert!(
            listed.contains(&format!("@{name}")),
            "an abstract name, seen by the machine's referees"
        );
    }

    #[test]
    fn a_set_whose_names_cannot_be_bound_is_an_error() {
        let long = "x".repeat(MAX_NAME);
        assert_eq!(
            claim_in(&long, 0, &[0]).err(),
            Some(NoClaim::Error(Errno::ENAMETOOLONG))
        );
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
