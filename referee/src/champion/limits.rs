//! Resource limits of a champion and how they are applied (rlimits, in the child between
//! fork and exec).

use std::time::Duration;

use nix::sys::resource::{getrlimit, setrlimit, Resource};

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
    /// The sandbox layers (none by default; `LimitArgs` sets the probed ones).
    pub sandbox: crate::sandbox::SandboxPlan,
}

impl Default for Limits {
    /// 1 GiB of memory, 16 GiB of address space, 256 files, 64 MiB files, 300 s of CPU,
    /// 256-byte lines, 256 processes, no sandbox layer.
    fn default() -> Self {
        Limits {
            memory: 1 << 30,
            address_space: 16 << 30,
            open_files: 256,
            file_size: 64 << 20,
            cpu_backstop: Duration::from_secs(300),
            max_line: 256,
            processes: 256,
            sandbox: crate::sandbox::SandboxPlan::none(),
        }
    }
}

/// The rlimits to set, computed before fork so that the child only makes syscalls.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RlimitPlan {
    items: [(Resource, u64, u64); 6],
    /// `RLIMIT_NPROC`, set only where it counts the champion's processes alone.
    nproc: Option<u64>,
}

impl RlimitPlan {
    /// `nproc`: whether to set `RLIMIT_NPROC` to `limits.processes`.
    pub(crate) fn new(limits: &Limits, nproc: bool) -> Self {
        let cpu = limits.cpu_backstop.as_secs().max(1);
        RlimitPlan {
            nproc: nproc.then_some(limits.processes),
            items: [
                (Resource::RLIMIT_CORE, 0, 0),
                (Resource::RLIMIT_FSIZE, limits.file_size, limits.file_size),
                (
                    Resource::RLIMIT_NOFILE,
                    limits.open_files,
                    limits.open_files,
                ),
                (Resource::RLIMIT_DATA, limits.memory, limits.memory),
                (
                    Resource::RLIMIT_AS,
                    limits.address_space,
                    limits.address_space,
                ),
                // SIGXCPU at the soft limit, SIGKILL one second later.
                (Resource::RLIMIT_CPU, cpu, cpu + 1),
            ],
        }
    }

    /// Applies the plan in the current process. Async-signal-safe (getrlimit/setrlimit
    /// only): meant for `pre_exec`. Limits are clamped to the current hard limits, which an
    /// unprivileged process cannot raise.
    pub(crate) fn apply(&self) -> std::io::Result<()> {
        for &(resource, soft, hard) in &self.items {
            let (_, cur_hard) = getrlimit(resource).map_err(std::io::Error::from)?;
            let hard = hard.min(cur_hard);
            let soft = soft.min(hard);
            setrlimit(resource, soft, hard).map_err(std::io::Error::from)?;
        }
        if let Some(n) = self.nproc {
            setrlimit(Resource::RLIMIT_NPROC, n, n).map_err(std::io::Error::from)?;
        }
        Ok(())
    }
}
