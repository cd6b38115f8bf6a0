//! One cgroup v2 per champion, under a base cgroup of the referee: `memory.max` (and
//! `memory.swap.max` = 0) and `pids.max` when those controllers are available, the whole
//! group frozen between callbacks with `cgroup.freeze` and killed with `cgroup.kill`, and `memory.events` read to tell a memory fault from a
//! crash. Needs a writable cgroup v2 (root, or a delegated subtree).
//!
//! The base is `<the referee's cgroup>/prologin-referee-<pid>`. Enabling controllers for
//! children needs a cgroup without processes of its own: when the referee's cgroup has some
//! (a delegated scope), the referee moves itself into a `prologin-referee-<pid>-self` leaf
//! first. Bases of referees that are gone are removed at the next probe.

use std::fs;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::libc;

use super::layer::Layer;

/// The referee's base cgroup.
pub(crate) struct Base {
    dir: PathBuf,
    pub memory: bool,
    pub pids: bool,
}

/// Finds a writable cgroup v2 and makes the base.
pub(crate) fn probe() -> (Option<Base>, Layer) {
    match make_base() {
        Ok(base) => {
            let layer = match (base.memory, base.pids) {
                (true, true) => Layer::On(String::new()),
                (m, p) => {
                    let missing: Vec<&str> = [(!m, "memory"), (!p, "pids")]
                        .into_iter()
                        .filter_map(|(miss, name)| miss.then_some(name))
                        .collect();
                    Layer::Off(format!(
                        "no {} controller in cgroup v2 at {}; used for cgroup.freeze and cgroup.kill only",
                        missing.join(", "),
                        base.dir.parent().unwrap_or(Path::new("/")).display()
                    ))
                }
            };
            (Some(base), layer)
        }
        Err(why) => (None, Layer::Off(why)),
    }
}

fn make_base() -> Result<Base, String> {
    let mount = cgroup2_mount().ok_or("no cgroup v2 mounted")?;
    let own = fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("0::").map(|p| p.trim().to_string()))
        })
        .ok_or("not in a cgroup v2")?;
    let own_dir = mount.join(own.trim_start_matches('/'));
    if !writable(&own_dir) {
        return Err(format!(
            "{} not writable; run as root or delegate a cgroup v2 subtree",
            own_dir.display()
        ));
    }
    remove_stale(&own_dir);
    let pid = std::process::id();
    let available = fs::read_to_string(own_dir.join("cgroup.controllers")).unwrap_or_default();
    let has = |c: &str| available.split_whitespace().any(|w| w == c);
    let wanted: Vec<&str> = ["memory", "pids"].into_iter().filter(|c| has(c)).collect();
    let enable = wanted
        .iter()
        .map(|c| format!("+{c}"))
        .collect::<Vec<_>>()
        .join(" ");
    if !wanted.is_empty() {
        if let Err(e) = write(&own_dir.join("cgroup.subtree_control"), &enable) {
            if e.raw_os_error() != Some(libc::EBUSY) {
                return Err(format!(
                    "cannot enable {enable} in {}: {e}",
                    own_dir.display()
                ));
            }
            // Processes in our cgroup: move the referee into a leaf, then enable.
            let leaf = own_dir.join(format!("prologin-referee-{pid}-self"));
            mkdir(&leaf)?;
            write(&leaf.join("cgroup.procs"), "0")
                .map_err(|e| format!("cannot move the referee into {}: {e}", leaf.display()))?;
            write(&own_dir.join("cgroup.subtree_control"), &enable)
                .map_err(|e| format!("cannot enable {enable} in {}: {e}", own_dir.display()))?;
        }
    }
    let dir = own_dir.join(format!("prologin-referee-{pid}"));
    mkdir(&dir)?;
    if !wanted.is_empty() {
        write(&dir.join("cgroup.subtree_control"), &enable)
            .map_err(|e| format!("cannot enable {enable} in {}: {e}", dir.display()))?;
    }
    if !dir.join("cgroup.kill").exists() {
        let _ = fs::remove_dir(&dir);
        return Err("cgroup.kill missing (kernel < 5.14)".into());
    }
    if BASE.set(dir.clone()).is_ok() {
        // SAFETY: registers a plain function; it runs at exit.
        unsafe { libc::atexit(remove_base) };
    }
    Ok(Base {
        dir,
        memory: has("memory"),
        pids: has("pids"),
    })
}

static BASE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// At exit: removes the base and the (empty) groups left in it.
extern "C" fn remove_base() {
    if let Some(dir) = BASE.get() {
        remove_empty(dir);
    }
}

/// Removes the cgroup `dir` and its child cgroups, when they hold no process.
fn remove_empty(dir: &Path) {
    if let Ok(children) = fs::read_dir(dir) {
        for child in children.flatten() {
            if child.path().is_dir() {
                let _ = fs::remove_dir(child.path());
            }
        }
    }
    let _ = fs::remove_dir(dir);
}

fn cgroup2_mount() -> Option<PathBuf> {
    let info = fs::read_to_string("/proc/self/mountinfo").ok()?;
    info.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        if right.split_whitespace().next()? != "cgroup2" {
            return None;
        }
        left.split_whitespace().nth(4).map(PathBuf::from)
    })
}

fn writable(dir: &Path) -> bool {
    nix::unistd::access(dir, nix::unistd::AccessFlags::W_OK).is_ok()
        && nix::unistd::access(&dir.join("cgroup.procs"), nix::unistd::AccessFlags::W_OK).is_ok()
}

/// Removes the (empty) bases of referees that are gone.
fn remove_stale(own_dir: &Path) {
    let Ok(entries) = fs::read_dir(own_dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("prologin-referee-") else {
            continue;
        };
        let Ok(pid) = rest.trim_end_matches("-self").parse::<i32>() else {
            continue;
        };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        remove_empty(&entry.path());
    }
}

fn mkdir(dir: &Path) -> Result<(), String> {
    match fs::create_dir(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(format!("cannot create {}: {e}", dir.display())),
    }
}

fn write(path: &Path, text: &str) -> io::Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .open(path)?
        .write_all(text.as_bytes())
}

impl Base {
    /// A new cgroup for one champion, limits set, with `cgroup.procs` open for the child.
    pub(crate) fn group(&self, memory: u64, processes: u64) -> Result<Group, String> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = self
            .dir
            .join(format!("c{}", NEXT.fetch_add(1, Ordering::Relaxed)));
        mkdir(&dir)?;
        let set = |file: &str, value: String| {
            write(&dir.join(file), &value)
                .map_err(|e| format!("cannot write {file} of {}: {e}", dir.display()))
        };
        let result = (|| {
            if self.memory {
                set("memory.max", memory.to_string())?;
                set("memory.swap.max", "0".into())?;
                // Whole group killed by the OOM killer, not one victim in it.
                let _ = set("memory.oom.group", "1".into());
            }
            if self.pids {
                set("pids.max", processes.to_string())?;
            }
            let procs: OwnedFd = fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
                .map_err(|e| format!("cannot open cgroup.procs of {}: {e}", dir.display()))?
                .into();
            // The jail is cloned straight into the group through this (`zygote.rs`).
            let dir_fd: OwnedFd = fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_DIRECTORY)
                .open(&dir)
                .map_err(|e| format!("cannot open {}: {e}", dir.display()))?
                .into();
            Ok((procs, dir_fd))
        })();
        match result {
            Ok((procs, dir_fd)) => {
                let cpu_stat = fs::File::open(dir.join("cpu.stat")).ok();
                let freeze = fs::OpenOptions::new()
                    .write(true)
                    .open(dir.join("cgroup.freeze"))
                    .ok();
                Ok(Group {
                    dir,
                    dir_fd,
                    procs,
                    cpu_stat,
                    freeze,
                })
            }
            Err(e) => {
                let _ = fs::remove_dir(&dir);
                Err(e)
            }
        }
    }
}

/// One champion's cgroup.
pub(crate) struct Group {
    dir: PathBuf,
    /// The group's directory, open: a jail is cloned into it (`CLONE_INTO_CGROUP`).
    dir_fd: OwnedFd,
    procs: OwnedFd,
    /// `cpu.stat`, kept open: it is read at the end of every callback.
    cpu_stat: Option<fs::File>,
    /// `cgroup.freeze` (kernel 5.2+), kept open: written twice a callback.
    freeze: Option<fs::File>,
}

impl Group {
    pub(crate) fn procs_fd(&self) -> i32 {
        self.procs.as_raw_fd()
    }

    pub(crate) fn dir_fd(&self) -> i32 {
        self.dir_fd.as_raw_fd()
    }

    /// CPU (user + system) of every process that was ever in the group, reaped or not
    /// (`cpu.stat`'s `usage_usec`, present in every cgroup v2 group).
    pub(crate) fn cpu(&self) -> Option<std::time::Duration> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 1024];
        let n = self.cpu_stat.as_ref()?.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        let usec = text
            .lines()
            .find_map(|l| l.strip_prefix("usage_usec "))?
            .trim()
            .parse()
            .ok()?;
        Some(std::time::Duration::from_micros(usec))
    }

    /// Freezes (`true`) or thaws every process of the group with the cgroup freezer, which
    /// no signal undoes (a process stopped with `SIGSTOP` is woken by any `SIGCONT`, its own
    /// timers' included). Whether the group has a freezer and the write worked.
    pub(crate) fn freeze(&self, frozen: bool) -> bool {
        use std::os::unix::fs::FileExt;
        let Some(file) = &self.freeze else {
            return false;
        };
        let value: &[u8] = if frozen { b"1" } else { b"0" };
        file.write_at(value, 0).is_ok()
    }

    /// Whether the group can be frozen ([`Group::freeze`]).
    pub(crate) fn has_freezer(&self) -> bool {
        self.freeze.is_some()
    }

    pub(crate) fn kill(&self) {
        let _ = write(&self.dir.join("cgroup.kill"), "1");
    }

    /// The `oom_kill` count of `memory.events`.
    pub(crate) fn oom_kills(&self) -> u64 {
        fs::read_to_string(self.dir.join("memory.events"))
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("oom_kill ")?.trim().parse().ok())
            })
            .unwrap_or(0)
    }

    /// Kills what is left and removes the group once empty (tries for up to a second).
    pub(crate) fn remove(self) {
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            match fs::remove_dir(&self.dir) {
                Ok(()) => return,
                Err(e) if e.raw_os_error() == Some(libc::EBUSY) && Instant::now() < deadline => {
                    self.kill();
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(_) => return,
            }
        }
    }
}

/// Moves the calling (child) process into the group: writes "0" to its `cgroup.procs`.
pub(crate) fn join(fd: i32) -> io::Result<()> {
    // SAFETY: a valid fd and buffer.
    let n = unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) };
    if n == 1 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
