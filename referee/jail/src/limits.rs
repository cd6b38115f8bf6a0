//! Resource limits of a champion, and the rlimits that enforce them.

use std::time::Duration;

use nix::libc;

use crate::rlimits::RlimitPlan;

/// Resource limits of one champion. All of them are enforced by the kernel (rlimits) except
/// `max_line`, which the referee checks on every request line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of data segment (`RLIMIT_DATA`): heap and private mappings. The limit the
    /// memory fault refers to.
    pub memory: u64,
    /// Bytes of address space (`RLIMIT_AS`), a loose backstop for shared mappings, which
    /// escape `RLIMIT_DATA`. Keep it large: Java and Node reserve gigabytes at start.
    pub address_space: u64,
    /// Open file descriptors (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// Largest file the champion may write (`RLIMIT_FSIZE`).
    pub file_size: u64,
    /// CPU time for the whole life of each process (`RLIMIT_CPU`): a backstop behind the
    /// per-callback budgets, which the referee enforces itself.
    pub cpu_backstop: Duration,
    /// Longest request line in bytes, excluding the `\n`.
    pub max_line: usize,
    /// Processes and threads of the champion at once: `pids.max` in a cgroup, or
    /// `RLIMIT_NPROC` where it counts this champion alone (its own uid or user namespace);
    /// not enforced otherwise (see the sandbox line's `pids=`).
    pub processes: u64,
    /// Bytes of the jailed champion's private `/tmp` (its home and scratch), a tmpfs.
    pub disk: u64,
    /// The sandbox layers (none by default; `LimitArgs` sets the probed ones).
    pub sandbox: crate::sandbox::SandboxPlan,
}

impl Default for Limits {
    /// 1 GiB of memory, 16 GiB of address space, 256 files, 64 MiB files, 300 s of CPU,
    /// 256-byte lines, 256 processes, 64 MiB of disk, no sandbox layer.
    fn default() -> Self {
        Limits {
            memory: 1 << 30,
            address_space: 16 << 30,
            open_files: 256,
            file_size: 64 << 20,
            cpu_backstop: Duration::from_secs(300),
            max_line: 256,
            processes: 256,
            disk: 64 << 20,
            sandbox: crate::sandbox::SandboxPlan::none(),
        }
    }
}

/// Signals queued and POSIX timers of one champion (`RLIMIT_SIGPENDING`).
pub const SIGPENDING: u64 = 128;

impl Limits {
    /// The rlimits that enforce these limits; `nproc`: whether to set `RLIMIT_NPROC` to
    /// `processes`.
    pub(crate) fn rlimits(&self, nproc: bool) -> RlimitPlan {
        let limits = self;
        let cpu = limits.cpu_backstop.as_secs().max(1);
        RlimitPlan {
            nproc: nproc.then_some(limits.processes),
            items: vec![
                (libc::RLIMIT_CORE, 0, 0),
                (libc::RLIMIT_FSIZE, limits.file_size, limits.file_size),
                (libc::RLIMIT_NOFILE, limits.open_files, limits.open_files),
                (libc::RLIMIT_DATA, limits.memory, limits.memory),
                (libc::RLIMIT_AS, limits.address_space, limits.address_space),
                // SIGXCPU at the soft limit, SIGKILL one second later.
                (libc::RLIMIT_CPU, cpu, cpu + 1),
                // No real-time scheduling and no raised priority, whatever the referee's
                // own hard limits allow: a champion must not starve others on its CPU.
                (libc::RLIMIT_RTPRIO, 0, 0),
                (libc::RLIMIT_NICE, 0, 0),
                // Queued signals and POSIX timers are counted per user, and as a user the
                // champion's user is the operator's: a champion may not take them all.
                (libc::RLIMIT_SIGPENDING, SIGPENDING, SIGPENDING),
                (libc::RLIMIT_MSGQUEUE, 0, 0),
            ],
        }
    }
}
