//! CPU pinning of a match: the thread that referees a match and the match's champions share
//! one CPU. A request is a wake-up of the other side; on one CPU it costs about a third of a
//! cross-CPU wake-up (measured: a match of 107,000 requests takes 1.2 s pinned, 3.3 s not;
//! `referee/BENCHMARKS.md`). Budgets are CPU time, so pinning does not change what a
//! champion may spend, only how fast the conversation goes.

use nix::sched::{sched_getaffinity, sched_setaffinity, CpuSet};
use nix::unistd::Pid;
use std::sync::OnceLock;

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

/// The current thread pinned to one CPU, until dropped.
pub struct Pin {
    cpu: usize,
    previous: Option<CpuSet>,
}

impl Pin {
    /// Pin the current thread to the `slot`-th allowed CPU (modulo their number): a
    /// tournament gives each worker its slot, so parallel matches spread over the CPUs.
    /// `None` when the system refuses.
    pub fn current_thread(slot: usize) -> Option<Pin> {
        let cpu = cpu_of(slot)?;
        let previous = sched_getaffinity(Pid::from_raw(0)).ok();
        sched_setaffinity(Pid::from_raw(0), &one(cpu)?).ok()?;
        Some(Pin { cpu, previous })
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
        if let Some(previous) = &self.previous {
            let _ = sched_setaffinity(Pid::from_raw(0), previous);
        }
    }
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
