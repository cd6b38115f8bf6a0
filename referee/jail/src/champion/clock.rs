//! CPU time and memory of a champion's process tree, read from `/proc`: which processes
//! belong to a champion (process group, descendancy, sandbox token) and what they used.
//!
//! A full scan reads `/proc/<pid>/stat` of every process on the machine (about 1 ms on a
//! busy host), so it is only done every [`FULL_SCAN_EVERY`] while a wait lasts and while
//! sweeping; other measurements (`Budget::start`, `cpu_time`, expired poll slices) walk the
//! tree from the main process through `/proc/<pid>/task/<tid>/children` plus the escapees
//! the last full scan found: two `pread`s of kept files per one-thread member
//! ([`crate::proc_files`]).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use crate::proc_files::{ProcFiles, READ};

/// How often a long wait rescans all of `/proc` to find escaped members.
pub(crate) const FULL_SCAN_EVERY: Duration = Duration::from_millis(200);

/// One line of `/proc/<pid>/stat`, the fields we use.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProcStat {
    pub pid: i32,
    /// `R`, `S`, `D`, `Z`, ...
    pub state: u8,
    pub ppid: i32,
    pub pgrp: i32,
    pub session: i32,
    /// utime + stime + cutime + cstime, in clock ticks.
    pub cpu_ticks: u64,
    /// Virtual size in bytes.
    pub vsize: u64,
    /// Resident set in pages.
    pub rss_pages: u64,
    /// Start time in clock ticks after boot (tells a reused pid from the process we saw).
    pub start_time: u64,
    /// Threads of the process (`num_threads`).
    pub threads: u64,
}

impl ProcStat {
    pub fn is_zombie(&self) -> bool {
        self.state == b'Z' || self.state == b'X'
    }
}

/// Facts about the referee process itself, read once.
pub(crate) struct SelfInfo {
    pub pid: i32,
    pub session: i32,
    pub ticks_per_sec: u64,
    pub page_size: u64,
}

/// The referee's pid, session and clock constants.
pub(crate) fn self_info() -> &'static SelfInfo {
    static INFO: OnceLock<SelfInfo> = OnceLock::new();
    INFO.get_or_init(|| {
        // SAFETY: plain syscalls / libc queries without pointers.
        let (pid, session, ticks, page) = unsafe {
            (
                nix::libc::getpid(),
                nix::libc::getsid(0),
                nix::libc::sysconf(nix::libc::_SC_CLK_TCK),
                nix::libc::sysconf(nix::libc::_SC_PAGESIZE),
            )
        };
        SelfInfo {
            pid,
            session,
            ticks_per_sec: if ticks > 0 { ticks as u64 } else { 100 },
            page_size: if page > 0 { page as u64 } else { 4096 },
        }
    })
}

/// Main pids of live champions (spawned, not yet reaped), process-wide, so that a sweep of
/// one champion never reaps or inspects another champion's main process. A panic elsewhere
/// does not lose the set: a poisoned lock is taken anyway.
pub(crate) fn live_mains() -> MutexGuard<'static, HashSet<i32>> {
    static MAINS: OnceLock<Mutex<HashSet<i32>>> = OnceLock::new();
    MAINS
        .get_or_init(|| Mutex::new(HashSet::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Converts clock ticks to a duration.
pub(crate) fn ticks_to_duration(ticks: u64) -> Duration {
    let tps = self_info().ticks_per_sec;
    Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / tps)
}

/// Parses one `/proc/<pid>/stat` content.
pub(crate) fn parse_stat(pid: i32, text: &[u8]) -> Option<ProcStat> {
    // The command name is in parentheses and may contain spaces or ')': cut at the last ')'.
    let close = text.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(text.get(close + 2..)?).ok()?;
    let mut fields = rest.split_ascii_whitespace();
    let mut next = || fields.next();
    let state = next()?.as_bytes().first().copied()?;
    let ppid: i32 = next()?.parse().ok()?;
    let pgrp: i32 = next()?.parse().ok()?;
    let session: i32 = next()?.parse().ok()?;
    // tty_nr tpgid flags minflt cminflt majflt cmajflt
    for _ in 0..7 {
        next()?;
    }
    let mut cpu = 0u64;
    // utime stime cutime cstime (cutime/cstime are signed in the ABI, never negative here)
    for _ in 0..4 {
        cpu += next()?.parse::<i64>().ok()?.max(0) as u64;
    }
    // priority nice num_threads itrealvalue
    next()?;
    next()?;
    let threads: u64 = next()?.parse().ok()?;
    next()?;
    let start_time: u64 = next()?.parse().ok()?;
    let vsize: u64 = next()?.parse().ok()?;
    let rss_pages: u64 = next()?.parse::<i64>().ok()?.max(0) as u64;
    Some(ProcStat {
        pid,
        state,
        ppid,
        pgrp,
        session,
        cpu_ticks: cpu,
        vsize,
        rss_pages,
        start_time,
        threads,
    })
}

/// Reads `/proc/<pid>/stat`; `None` if the process is gone.
pub(crate) fn read_stat(pid: i32, buf: &mut Vec<u8>) -> Option<ProcStat> {
    buf.clear();
    let mut file = fs::File::open(format!("/proc/{pid}/stat")).ok()?;
    file.read_to_end(buf).ok()?;
    parse_stat(pid, buf)
}

/// Data segment size (`VmData`, from `/proc/<pid>/statm`) in bytes; `None` if gone.
pub(crate) fn read_data_bytes(pid: i32, buf: &mut Vec<u8>) -> Option<u64> {
    buf.clear();
    let mut file = fs::File::open(format!("/proc/{pid}/statm")).ok()?;
    file.read_to_end(buf).ok()?;
    let text = std::str::from_utf8(buf).ok()?;
    let data_pages: u64 = text.split_ascii_whitespace().nth(5)?.parse().ok()?;
    Some(data_pages * self_info().page_size)
}

/// Read `/proc/<pid>/environ` into `buf`; false if it cannot be read. An environment
/// larger than 1 MiB is not one we built; reading is bounded anyway.
fn read_environ(pid: i32, buf: &mut Vec<u8>) -> bool {
    buf.clear();
    match fs::File::open(format!("/proc/{pid}/environ")) {
        Ok(file) => file.take(1 << 20).read_to_end(buf).is_ok(),
        Err(_) => false,
    }
}

/// Whether `/proc/<pid>/environ` holds exactly `needle` (`NAME=value`) as one entry.
pub(crate) fn has_env_entry(pid: i32, needle: &[u8], buf: &mut Vec<u8>) -> bool {
    read_environ(pid, buf) && buf.split(|&b| b == 0).any(|entry| entry == needle)
}

/// Whether `/proc/<pid>/environ` holds an entry that starts with `prefix`.
pub(crate) fn has_env_prefix(pid: i32, prefix: &[u8], buf: &mut Vec<u8>) -> bool {
    read_environ(pid, buf)
        && buf
            .split(|&b| b == 0)
            .any(|entry| entry.starts_with(prefix))
}

/// Every process visible in `/proc` right now, except the referee itself.
pub(crate) fn snapshot() -> Vec<ProcStat> {
    let me = self_info().pid;
    let mut out = Vec::with_capacity(256);
    let mut buf = Vec::with_capacity(512);
    let Ok(dir) = fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(pid) = parse_pid(name.as_bytes()) else {
            continue;
        };
        if pid == me {
            continue;
        }
        if let Some(stat) = read_stat(pid, &mut buf) {
            out.push(stat);
        }
    }
    out
}

fn parse_pid(name: &[u8]) -> Option<i32> {
    if name.is_empty() || !name.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(name).ok()?.parse().ok()
}

/// How to recognise the processes of one champion.
pub(crate) struct Ident {
    /// The main process; also the process group id.
    pub main: i32,
    /// Whether the main process has been reaped (its pid and pgid may then be reused).
    pub main_reaped: bool,
    /// `PROLOGIN_SANDBOX_TOKEN=<token>` as bytes.
    pub token_entry: Vec<u8>,
}

/// Selects the processes of `ident` among `procs`: the main process, its process group,
/// every descendant (by parent chains) of those, and every process whose environment
/// carries the champion's token.
///
/// Reading environments costs one more file per process: when `thorough` is false only
/// likely escapees are checked (children of the referee, or of init, that are not another
/// champion's main process); a sweep passes `thorough = true` and checks everyone.
pub(crate) fn members(procs: &[ProcStat], ident: &Ident, thorough: bool) -> Vec<ProcStat> {
    let me = self_info().pid;
    let others: HashSet<i32> = live_mains()
        .iter()
        .copied()
        .filter(|&p| p != ident.main)
        .collect();
    let mut buf = Vec::with_capacity(4096);
    let mut chosen: HashSet<i32> = HashSet::new();
    for p in procs {
        if others.contains(&p.pid) {
            continue;
        }
        let seed = if !ident.main_reaped && (p.pid == ident.main || p.pgrp == ident.main) {
            true
        } else if p.is_zombie() {
            // A zombie's environment is gone; a zombie in our (still held) group is ours.
            false
        } else if thorough || p.ppid == me || p.ppid == 1 || p.pgrp == ident.main {
            has_env_entry(p.pid, &ident.token_entry, &mut buf)
        } else {
            false
        };
        if seed {
            chosen.insert(p.pid);
        }
    }
    // Close over descendancy.
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for p in procs {
        children.entry(p.ppid).or_default().push(p.pid);
    }
    let mut stack: Vec<i32> = chosen.iter().copied().collect();
    while let Some(pid) = stack.pop() {
        if let Some(kids) = children.get(&pid) {
            for &kid in kids {
                if !others.contains(&kid) && chosen.insert(kid) {
                    stack.push(kid);
                }
            }
        }
    }
    procs
        .iter()
        .filter(|p| chosen.contains(&p.pid))
        .copied()
        .collect()
}

/// What one scan of a champion's tree found.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TreeUsage {
    /// CPU of the live (and zombie) members, including what they reaped.
    pub cpu: Duration,
    /// Largest data segment of one member.
    pub peak_data: u64,
    /// Largest resident set of one member.
    pub peak_rss: u64,
    /// Largest virtual size of one member.
    pub peak_vsize: u64,
}

/// Remembers the members that a walk from the main process cannot reach (escapees that
/// were reparented to the referee), as found by the last full scan.
#[derive(Debug, Default)]
pub(crate) struct Roster {
    /// (pid, start time) of the members found by the last full scan.
    known: Vec<(i32, u64)>,
    last_full: Option<std::time::Instant>,
    /// Children files are missing (kernel without CONFIG_PROC_CHILDREN): always scan.
    no_children_files: bool,
    /// The `/proc` files of the members, kept open between walks.
    files: ProcFiles,
}

impl Roster {
    /// Whether the last full scan is older than `age` (or there was none).
    pub(crate) fn is_stale(&self, age: Duration) -> bool {
        match self.last_full {
            None => true,
            Some(t) => t.elapsed() >= age,
        }
    }
}

/// The processes reachable from `roots` through `/proc/<pid>/task/<tid>/children`, a few
/// reads of kept files per process (a one-thread process: its `stat` and its `children`)
/// instead of one file per process on the machine. `None` when the kernel has no children
/// files.
fn walk(roots: &[(i32, Option<u64>)], files: &mut ProcFiles) -> Option<Vec<ProcStat>> {
    let mut out: Vec<ProcStat> = Vec::new();
    let mut seen: Vec<i32> = Vec::new();
    let mut stack: Vec<i32> = Vec::new();
    let mut buf = [0u8; READ];
    for &(root, start) in roots.iter().rev() {
        stack.push(root);
        while let Some(pid) = stack.pop() {
            if seen.contains(&pid) {
                continue;
            }
            seen.push(pid);
            let Some(stat) = files
                .stat(pid, &mut buf)
                .and_then(|text| parse_stat(pid, text))
            else {
                continue;
            };
            if pid == root && start.is_some_and(|s| s != stat.start_time) {
                continue; // the pid was reused by another process
            }
            out.push(stat);
            files
                .children(pid, stat.threads, &mut stack)
                .map_err(|_no_children_files| ())
                .ok()?;
        }
    }
    files.keep_only(&mut seen);
    Some(out)
}

/// Measures the tree of `ident`. `full`: scan all of `/proc` (finds escapees, refreshes the
/// roster); otherwise walk from the main process and the roster's known members.
/// `memory`: also read each member's data segment size.
pub(crate) fn measure(ident: &Ident, roster: &mut Roster, full: bool, memory: bool) -> TreeUsage {
    let mut found = None;
    if !full && !roster.no_children_files {
        let mut roots: Vec<(i32, Option<u64>)> = roster
            .known
            .iter()
            .map(|&(pid, start)| (pid, Some(start)))
            .collect();
        if !ident.main_reaped {
            roots.push((ident.main, None));
        }
        found = walk(&roots, &mut roster.files);
        if found.is_none() {
            roster.no_children_files = true;
        }
    }
    let found = match found {
        Some(found) => found,
        None => {
            let procs = snapshot();
            let found = members(&procs, ident, false);
            roster.known = found.iter().map(|p| (p.pid, p.start_time)).collect();
            roster.last_full = Some(std::time::Instant::now());
            found
        }
    };
    let mut usage = TreeUsage::default();
    let mut ticks = 0u64;
    let mut buf = Vec::with_capacity(128);
    let page = self_info().page_size;
    for p in &found {
        ticks += p.cpu_ticks;
        usage.peak_rss = usage.peak_rss.max(p.rss_pages * page);
        usage.peak_vsize = usage.peak_vsize.max(p.vsize);
        if memory && !p.is_zombie() {
            if let Some(data) = read_data_bytes(p.pid, &mut buf) {
                usage.peak_data = usage.peak_data.max(data);
            }
        }
    }
    usage.cpu = ticks_to_duration(ticks);
    usage
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_with_odd_comm() {
        let line = b"1234 (a) b (c)) S 1 1234 1234 0 -1 4194560 100 0 0 0 7 3 2 1 20 0 1 0 \
                     500 10485760 300 18446744073709551615";
        let stat = parse_stat(1234, line).unwrap();
        assert_eq!(stat.state, b'S');
        assert_eq!(stat.ppid, 1);
        assert_eq!(stat.pgrp, 1234);
        assert_eq!(stat.cpu_ticks, 13);
        assert_eq!(stat.vsize, 10485760);
        assert_eq!(stat.rss_pages, 300);
        assert_eq!(stat.start_time, 500);
    }

    #[test]
    fn sees_itself_not() {
        let me = self_info().pid;
        assert!(snapshot().iter().all(|p| p.pid != me));
    }
}
