//! CPU time and memory of a jail's processes, read from the host's `/proc` by walking the
//! tree under the jail's init (every process of the namespace descends from it: orphans
//! are reparented to it). Live processes are read with their CPU clocks (nanoseconds);
//! the processes they reaped count through `cutime`/`cstime` (clock ticks), and so do the
//! orphans the init reaped. Memory is the sum of the resident anonymous and shared memory
//! (`RssAnon` and `RssShmem`: the heap, and shared mappings of `/dev/zero`, of a tmpfs
//! file or of a memfd) of the live processes: many processes cannot dodge a limit on it,
//! and libraries shared with the host do not count. Shared memory mapped by several of a
//! champion's processes counts once in each, which overcounts, never under.
//! Each walk also leaves a [`Census`] of the processes it found, for the freeze check.

use std::time::Duration;

use nix::libc;

use crate::census::{Census, Seen};
use crate::proc_files::{ProcFiles, READ};

/// Most open files a seat's walk keeps (`stat`, `status` and `children` of each process
/// kept): past the limit of open files, the walk reads without keeping them (slower).
pub const KEPT_FILES: u64 = 3 * crate::proc_files::KEPT as u64;

/// Open files a seat holds besides those its walk keeps: its pipes, its jail's control
/// socket and pidfd, its stderr file, and the walk's file of the moment.
pub const SEAT_FILES: u64 = 16;

/// Open files of a program besides its seats' (its results, its journal, its terminal,
/// its threads' files).
pub const OWN_FILES: u64 = 64;

pub use crate::proc_files::{leave_open_files, LEFT_BY_DEFAULT};

/// What a jail's processes use now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// CPU (user + system) of every process of the jail over its life, the init's own
    /// excluded.
    pub cpu: Duration,
    /// Resident anonymous and shared memory of the live processes, in bytes.
    pub memory: u64,
    /// Live processes (the init excluded).
    pub processes: u32,
}

/// Walks the tree under `init` (a host pid) once.
pub fn measure(init: i32) -> Usage {
    Tracker::default().measure(init)
}

/// Walks a jail's tree again and again, keeping the `/proc` files of its processes open
/// between walks (`proc_files`: a walk is a few `pread`s; it runs at the end of every
/// callback).
#[derive(Default)]
pub struct Tracker {
    files: ProcFiles,
    /// The processes the last walk found.
    census: Census,
}

impl Tracker {
    /// Walks the tree under `init` (a host pid).
    pub fn measure(&mut self, init: i32) -> Usage {
        let mut usage = Usage::default();
        let mut stack = vec![init];
        let mut seen = Vec::new();
        let mut buf = [0u8; READ];
        self.census.clear();
        while let Some(pid) = stack.pop() {
            if seen.len() >= 100_000 {
                break;
            }
            seen.push(pid);
            let Some(stat) = self.files.stat(pid, &mut buf).and_then(parse_stat) else {
                continue;
            };
            let reaped = ticks(stat.cutime + stat.cstime);
            if pid == init {
                usage.cpu += reaped;
            } else {
                let cpu = process_clock(pid).unwrap_or(ticks(stat.utime + stat.stime)) + reaped;
                usage.cpu += cpu;
                usage.memory += self.files.status(pid, &mut buf).map_or(0, parse_status);
                usage.processes += 1;
                self.census.push(Seen {
                    pid,
                    start: stat.start,
                    cpu,
                    zombie: stat.zombie,
                });
            }
            // A kernel without children files leaves the walk at `init`, as it always did.
            let _ = self.files.children(pid, stat.threads, &mut stack);
        }
        self.census.finish();
        // Files of processes that are gone are closed.
        self.files.keep_only(&mut seen);
        usage
    }

    /// The processes the last [`Tracker::measure`] found.
    pub fn census(&self) -> &Census {
        &self.census
    }
}

/// The `flags` bit of a process that is exiting (`include/linux/sched.h`).
const PF_EXITING: u64 = 0x4;

struct Stat {
    /// `Z` or `X`, or exiting: it has ended, or is ending of its own.
    zombie: bool,
    utime: u64,
    stime: u64,
    cutime: u64,
    cstime: u64,
    threads: u64,
    /// Start time in clock ticks after boot.
    start: u64,
}

#[cfg(test)]
fn read_stat(pid: i32) -> Option<Stat> {
    parse_stat(&std::fs::read(format!("/proc/{pid}/stat")).ok()?)
}

fn parse_stat(text: &[u8]) -> Option<Stat> {
    let close = text.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(text.get(close + 2..)?).ok()?;
    // After the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
    // cmajflt utime stime cutime cstime priority nice num_threads itrealvalue starttime ...
    let fields: Vec<&str> = rest.split_ascii_whitespace().take(20).collect();
    let num = |i: usize| -> Option<u64> { Some(fields.get(i)?.parse::<i64>().ok()?.max(0) as u64) };
    Some(Stat {
        zombie: matches!(fields.first(), Some(&("Z" | "X"))) || num(6)? & PF_EXITING != 0,
        utime: num(11)?,
        stime: num(12)?,
        cutime: num(13)?,
        cstime: num(14)?,
        threads: num(17)?,
        start: num(19)?,
    })
}

fn ticks(n: u64) -> Duration {
    static TICKS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    // SAFETY: a plain sysconf query.
    let tps = *TICKS.get_or_init(|| match unsafe { libc::sysconf(libc::_SC_CLK_TCK) } {
        t if t > 0 => t as u64,
        _ => 100,
    });
    Duration::from_nanos(n.saturating_mul(1_000_000_000) / tps)
}

/// The process's CPU clock (all its threads, live and exited), in nanoseconds.
fn process_clock(pid: i32) -> Option<Duration> {
    // The clock id of a process's CPU clock: see clock_getcpuclockid(3) (CPUCLOCK_SCHED).
    let clock = ((!pid) << 3) | 2;
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec pointer.
    if unsafe { libc::clock_gettime(clock as libc::clockid_t, &mut ts) } != 0 {
        return None;
    }
    Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// `RssAnon` plus `RssShmem` of a `status` file, in bytes (the kernel writes them in kB).
fn parse_status(text: &[u8]) -> u64 {
    let text = std::str::from_utf8(text).unwrap_or("");
    text.lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("RssAnon:")
                .or_else(|| line.strip_prefix("RssShmem:"))?;
            rest.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()
        })
        .sum::<u64>()
        * 1024
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::CommandExt;
    use std::process::{Child, Command, Stdio};

    /// `sh` standing for a jail's init, with one child that takes 64 MiB (pages touched),
    /// burns `cpu_ms` of CPU, says `ready` and sleeps.
    fn tree(cpu_ms: u32) -> (Child, u32) {
        let script = format!(
            "import time\nx = bytearray(64 << 20)\nfor i in range(0, len(x), 4096): x[i] = 1\n\
             t = time.process_time()\nwhile time.process_time() - t < {cpu_ms} / 1000: pass\n\
             print('ready', flush=True)\ntime.sleep(60)\n"
        );
        let mut init = Command::new("sh")
            .args(["-c", "python3 -c \"$0\" & echo $!; wait", &script])
            .stdout(Stdio::piped())
            .spawn()
            .expect("sh");
        let mut lines = BufReader::new(init.stdout.take().unwrap()).lines();
        let child: u32 = lines.next().unwrap().unwrap().trim().parse().unwrap();
        assert_eq!(lines.next().unwrap().unwrap(), "ready");
        (init, child)
    }

    #[test]
    fn measures_the_processes_under_the_init_not_the_init() {
        let (mut init, child) = tree(300);
        let live = measure(init.id() as i32);
        assert_eq!(live.processes, 1, "{live:?}");
        assert!(live.cpu >= Duration::from_millis(300), "{live:?}");
        assert!(live.cpu < Duration::from_secs(5), "{live:?}");
        assert!(live.memory >= 64 << 20, "{live:?}");
        assert!(live.memory < 512 << 20, "{live:?}");
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(child as i32),
            nix::sys::signal::Signal::SIGKILL,
        )
        .unwrap();
        init.wait().unwrap();
    }

    #[test]
    fn a_reaped_child_still_counts_through_the_init() {
        // The init (sh) waits for its child, which has burnt 300 ms: sh's cutime holds them.
        // `sleep` is started before `done` is said, so it is there when measured.
        let mut init = Command::new("sh")
            .args([
                "-c",
                "python3 -c 'import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass'; sleep 60 & echo done; wait",
            ])
            .stdout(Stdio::piped())
            // Its own group, killed whole at the end: `sleep` with it.
            .process_group(0)
            .spawn()
            .expect("sh");
        let mut lines = BufReader::new(init.stdout.take().unwrap()).lines();
        assert_eq!(lines.next().unwrap().unwrap(), "done");
        let after = measure(init.id() as i32);
        nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(init.id() as i32),
            nix::sys::signal::Signal::SIGKILL,
        )
        .unwrap();
        init.wait().unwrap();
        assert!(after.cpu >= Duration::from_millis(290), "{after:?}");
        // `sleep` is the one live process; python3 is gone.
        assert_eq!(after.processes, 1, "{after:?}");
        assert!(after.memory < 16 << 20, "{after:?}");
    }

    #[test]
    fn memory_is_anonymous_and_shared_not_file_pages() {
        let status = b"Name:\tx\nVmRSS:\t  9000 kB\nRssAnon:\t  1000 kB\n\
                       RssFile:\t  5000 kB\nRssShmem:\t  3000 kB\nVmSwap:\t 0 kB\n";
        assert_eq!(parse_status(status), 4000 * 1024);
        assert_eq!(parse_status(b"garbage"), 0);
    }

    /// A shared mapping of `/dev/zero` (shmem, outside `RLIMIT_DATA` and the anonymous
    /// pages) counts.
    #[test]
    fn a_shared_mapping_of_dev_zero_counts() {
        let script = "import mmap, os, time\nf = os.open('/dev/zero', os.O_RDWR)\n\
                      m = mmap.mmap(f, 64 << 20, mmap.MAP_SHARED)\n\
                      for i in range(0, len(m), 4096): m[i] = 1\n\
                      print('ready', flush=True)\ntime.sleep(60)\n";
        let mut init = Command::new("sh")
            .args(["-c", "python3 -c \"$0\" & wait", script])
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("sh");
        let mut lines = BufReader::new(init.stdout.take().unwrap()).lines();
        assert_eq!(lines.next().unwrap().unwrap(), "ready");
        let live = measure(init.id() as i32);
        nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(init.id() as i32),
            nix::sys::signal::Signal::SIGKILL,
        )
        .unwrap();
        init.wait().unwrap();
        assert!(live.memory >= 64 << 20, "{live:?}");
    }

    #[test]
    fn a_gone_process_measures_nothing() {
        assert_eq!(measure(i32::MAX), Usage::default());
    }

    #[test]
    fn stat_survives_a_hostile_command_name() {
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("x) R 1 2 3 (y");
        std::fs::copy("/bin/sleep", &odd).unwrap();
        let mut child = Command::new(&odd).arg("60").spawn().unwrap();
        let stat = read_stat(child.id() as i32);
        child.kill().unwrap();
        child.wait().unwrap();
        let stat = stat.expect("parsed");
        assert!(
            stat.utime + stat.stime < 100,
            "a sleeping process used little CPU"
        );
        assert_eq!((stat.cutime, stat.cstime), (0, 0));
    }
}
