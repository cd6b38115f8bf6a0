//! A started jail, from the referee's side: its handle (control socket, pidfd), the
//! spawn request sent to the zygote, stop and cont, its end; and the jails of the process.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use nix::libc;
use serde::{Deserialize, Serialize};

use crate::census::{Census, Change};
use crate::rlimits::RlimitPlan;
use crate::usage::Usage;
use crate::view::View;
use crate::wire;

/// How long to wait for a killed jail to be gone.
const KILL_PATIENCE_MS: i32 = 10_000;
/// How long a jail may take to start (namespaces, mounts, exec) before it is given up.
const START_TIMEOUT_MS: i32 = 20_000;
/// How long to wait for the init to acknowledge a `stop` or a `cont` (it does at once; it
/// is never frozen itself).
const STOP_PATIENCE_MS: i32 = 2_000;

/// Everything the zygote needs to start one champion in a jail.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Spec {
    /// The program, as a path inside the jail.
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The whole environment.
    pub env: Vec<(String, String)>,
    pub view: View,
    pub rlimits: RlimitPlan,
    /// As root: the champion's own uid (and gid).
    pub uid: Option<u32>,
    /// As a user: the (uid, gid) mapped to themselves in a new user namespace.
    pub map_user: Option<(u32, u32)>,
    pub landlock: bool,
    pub seccomp: bool,
    pub deny_shared_memory: bool,
    /// Shared futex waits and wakes go to the init, which emulates them (else, under
    /// seccomp, they return at once: `sandbox/futex.rs`).
    pub futex_listener: bool,
    /// Stop the champion right after exec (it runs from its first callback on).
    pub start_frozen: bool,
    /// The CPU every process of the jail is pinned to, if any.
    pub cpu: Option<usize>,
    /// Enter a network namespace of the zygote's pool, one that no live jail uses, rather
    /// than create one (creating and tearing down a network namespace was the largest
    /// cost of a jail). Only as root: as a user, the jail's network namespace is made with
    /// its user namespace.
    pub pool_net: bool,
}

/// How a [`Jail::stop`] went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Every process of the jail is stopped.
    Yes,
    /// A process stopped and ran again before the others were: the champion continued it
    /// itself (a `SIGCONT` from its own timer or process). The init did not wait.
    Woke,
    /// Processes still ran after the init's wait (a loaded machine, or a champion that
    /// keeps waking itself faster than it is looked at): the next thaw finds what they did.
    Late,
}

/// Why [`Jail::cont`] did not thaw a jail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A process of the init's (the main process, an adopted orphan) was continued while
    /// frozen, by a `SIGCONT` of the champion's own.
    Woke,
    /// The namespace handed out this many pids (processes or threads) while frozen.
    Started(u64),
}

/// Why a jail did not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// `execve` of the program failed with this errno.
    Exec(i32),
    /// The jail could not be built.
    Setup(String),
}

/// The referee's handle on one running jail.
pub struct Jail {
    pid: i32,
    pidfd: OwnedFd,
    ctl: OwnedFd,
    /// The init's answers to `stop`.
    acks: OwnedFd,
    /// The main process's wait status, once reported.
    status: Option<i32>,
    /// The largest resident size of the main process, bytes, reported with its status.
    max_rss: u64,
    frozen: bool,
    dead: bool,
    /// The `/proc` files of its processes, kept open between measurements.
    tracker: std::cell::RefCell<crate::usage::Tracker>,
    /// A build's tmpfs, handed over by the init before the build starts ([`Jail::go`]).
    build: Option<OwnedFd>,
}

impl Jail {
    /// Starts `spec` with the given ends of the champion's pipes (and, where the cgroup
    /// layer is on, its cgroup's directory).
    pub fn start(
        spec: &Spec,
        stdin: OwnedFd,
        stdout: OwnedFd,
        stderr: OwnedFd,
        cgroup_dir: Option<RawFd>,
    ) -> Result<Jail, StartError> {
        let setup = |e: io::Error| StartError::Setup(e.to_string());
        let (ours, theirs) = wire::pair().map_err(setup)?;
        let (acks, their_acks) = wire::pair().map_err(setup)?;
        let request = serde_json::to_vec(spec).map_err(|e| StartError::Setup(e.to_string()))?;
        let mut fds = vec![
            stdin.as_raw_fd(),
            stdout.as_raw_fd(),
            stderr.as_raw_fd(),
            theirs.as_raw_fd(),
            their_acks.as_raw_fd(),
        ];
        fds.extend(cgroup_dir);
        let (pid, pidfd) = zygote_request(&request, &fds)?;
        drop((stdin, stdout, stderr, theirs, their_acks));
        let mut jail = Jail {
            pid,
            pidfd,
            ctl: ours,
            acks,
            status: None,
            max_rss: 0,
            frozen: spec.start_frozen,
            dead: false,
            tracker: Default::default(),
            build: None,
        };
        if let Ok(fd) = jail.pidfd.try_clone() {
            registry()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((jail.pid, fd));
        }
        jail.started().map(|()| jail)
    }

    /// Waits for the init's report of the start: `started`, or a build's tmpfs (`ready`,
    /// kept for [`Jail::build_tmpfs`]), or why it failed (the jail is then killed).
    fn started(&mut self) -> Result<(), StartError> {
        let jail = self;
        if !wire::wait_readable(&jail.ctl, START_TIMEOUT_MS) {
            jail.kill();
            return Err(StartError::Setup("the jail did not start in time".into()));
        }
        match wire::recv(jail.ctl.as_raw_fd()) {
            Ok(Some((msg, _))) if msg == b"started" => Ok(()),
            Ok(Some((msg, mut fds))) if msg == b"ready" && fds.len() == 1 => {
                jail.build = fds.pop();
                Ok(())
            }
            Ok(Some((msg, _))) => {
                jail.kill();
                let text = String::from_utf8_lossy(&msg).into_owned();
                Err(match text.strip_prefix("exec ") {
                    Some(n) => StartError::Exec(n.parse().unwrap_or(libc::EINVAL)),
                    None => StartError::Setup(text.strip_prefix("setup ").unwrap_or(&text).into()),
                })
            }
            _ => {
                jail.kill();
                Err(StartError::Setup(
                    "the jail's init died while starting".into(),
                ))
            }
        }
    }

    /// A build's tmpfs (holding `champion` and `tmp`), handed over by its init before the
    /// build starts: the referee fills it, then starts the build with [`Jail::go`].
    pub fn build_tmpfs(&self) -> Option<&OwnedFd> {
        self.build.as_ref()
    }

    /// Starts a build whose tmpfs the referee filled ([`Jail::build_tmpfs`]).
    pub fn go(&mut self) -> Result<(), StartError> {
        if self.build.is_none() {
            return Ok(());
        }
        if let Err(e) = wire::send(self.ctl.as_raw_fd(), b"go", &[]) {
            self.kill();
            return Err(StartError::Setup(format!("the jail's init: {e}")));
        }
        self.started()
    }

    /// The host pid of the jail's init (the parent of the champion's main process).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// A descriptor that becomes readable when the main process exits (or the jail dies).
    pub fn exit_watch(&self) -> io::Result<OwnedFd> {
        self.ctl.try_clone()
    }

    /// Stops every process of the champion (between its callbacks) with `SIGSTOP`, and
    /// returns once the init has sent the signals and seen them stopped, so that a
    /// measurement right after counts nothing the champion runs later. A stopped process is
    /// woken by any `SIGCONT`: the init says so when it sees it happen ([`Stopped::Woke`]),
    /// the referee compares what it measures at the freeze and before the next
    /// [`Jail::cont`] ([`Census`]), and uses the cgroup freezer instead where the champion
    /// has a cgroup.
    pub fn stop(&mut self) -> Stopped {
        let mut stopped = Stopped::Yes;
        if !self.frozen && !self.dead {
            if wire::send(self.ctl.as_raw_fd(), b"stop", &[]).is_ok()
                && wire::wait_readable(&self.acks, STOP_PATIENCE_MS)
            {
                match wire::recv(self.acks.as_raw_fd()) {
                    Ok(Some((answer, _))) if answer == b"woke" => stopped = Stopped::Woke,
                    Ok(Some((answer, _))) if answer == b"late" => stopped = Stopped::Late,
                    _ => {}
                }
            }
            self.frozen = true;
        }
        stopped
    }

    /// Thaws them, unless the init found that something of the champion ran while they
    /// were stopped: then they stay stopped, and `Err` says what.
    pub fn cont(&mut self) -> Result<(), Refused> {
        if self.frozen && !self.dead {
            self.frozen = false;
            if wire::send(self.ctl.as_raw_fd(), b"cont", &[]).is_ok()
                && wire::wait_readable(&self.acks, STOP_PATIENCE_MS)
            {
                if let Ok(Some((answer, _))) = wire::recv(self.acks.as_raw_fd()) {
                    if answer == b"woke" {
                        self.frozen = true;
                        return Err(Refused::Woke);
                    }
                    if let Some(n) = answer.strip_prefix(b"ran ") {
                        self.frozen = true;
                        let n = std::str::from_utf8(n).ok().and_then(|n| n.parse().ok());
                        return Err(Refused::Started(n.unwrap_or(1)));
                    }
                }
            }
        }
        Ok(())
    }

    /// The main process's wait status if it has exited; waits up to `timeout` for it.
    pub fn main_status(&mut self, timeout: Duration) -> Option<i32> {
        if self.status.is_none() && !self.dead {
            let ms = timeout.as_millis().min(i32::MAX as u128) as i32;
            while wire::wait_readable(&self.ctl, ms) {
                match wire::recv(self.ctl.as_raw_fd()) {
                    Ok(Some((msg, _))) => {
                        if let Some(n) = msg.strip_prefix(b"exit ") {
                            let mut words = std::str::from_utf8(n).unwrap_or("").split(' ');
                            let status = words.next().and_then(|n| n.parse().ok());
                            let max_rss_kib: u64 =
                                words.next().and_then(|n| n.parse().ok()).unwrap_or(0);
                            self.status = Some(status.unwrap_or(libc::SIGKILL));
                            self.max_rss = max_rss_kib.saturating_mul(1024);
                            break;
                        }
                    }
                    _ => {
                        // The init is gone, and the main process with it.
                        self.dead = true;
                        break;
                    }
                }
            }
        }
        if self.dead && self.status.is_none() {
            self.status = Some(libc::SIGKILL);
        }
        self.status
    }

    /// The largest resident size the main process reached (bytes; 0 until it has exited,
    /// see [`Jail::main_status`]).
    pub fn main_max_rss(&self) -> u64 {
        self.max_rss
    }

    /// CPU and memory of the champion's processes now ([`crate::usage::Tracker`]).
    pub fn usage(&self) -> Usage {
        if self.dead {
            return Usage::default();
        }
        self.tracker.borrow_mut().measure(self.pid)
    }

    /// The processes of the jail as the last [`Jail::usage`] found them.
    pub fn census(&self) -> Census {
        self.tracker.borrow().census().clone()
    }

    /// What changed between `before` and the last [`Jail::usage`].
    pub fn changed_since(&self, before: &Census) -> Change {
        self.tracker.borrow().census().since(before)
    }

    /// Kills the jail and waits until the kernel has killed and reaped every process in it.
    pub fn kill(&mut self) {
        if self.dead {
            return;
        }
        kill_through(&self.pidfd);
        // The init exits once the kernel has killed and reaped the jail's processes; one
        // stuck in the kernel (uninterruptible sleep) is not waited for past this.
        if !wire::wait_readable(&self.pidfd, KILL_PATIENCE_MS) {
            eprintln!(
                "warning: the jail of pid {} did not end within {} s of SIGKILL",
                self.pid,
                KILL_PATIENCE_MS / 1000
            );
        }
        self.dead = true;
        if self.status.is_none() {
            self.status = Some(libc::SIGKILL);
        }
        let mut live = registry().lock().unwrap_or_else(|e| e.into_inner());
        live.retain(|(p, _)| *p != self.pid);
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `SIGKILL` to a process through its pidfd (never a reused pid).
fn kill_through(pidfd: &OwnedFd) {
    // SAFETY: a signal through a pidfd we own.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            pidfd.as_raw_fd(),
            libc::SIGKILL,
            std::ptr::null::<libc::siginfo_t>(),
            0u32,
        )
    };
}

/// The pids and pidfds of live jails' inits, for [`kill_every_jail`].
fn registry() -> &'static Mutex<Vec<(i32, OwnedFd)>> {
    static LIVE: OnceLock<Mutex<Vec<(i32, OwnedFd)>>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(Vec::new()))
}

/// Kills every live jail (on Ctrl-C or a fatal error): their inits die, and with them
/// everything they hold. Returns how many were alive.
pub fn kill_every_jail() -> usize {
    let live = std::mem::take(&mut *registry().lock().unwrap_or_else(|e| e.into_inner()));
    for (_, pidfd) in &live {
        kill_through(pidfd);
    }
    live.len()
}

/// The executable started as the zygote: the referee itself by default.
static HELPER: OnceLock<PathBuf> = OnceLock::new();

/// Names the executable that serves as the zygote (a program whose `main` calls
/// [`crate::zygote::serve_if_zygote`] first; the `referee` binary does). Programs other than the
/// referee that start jailed champions (tests using the library) must call it first.
pub fn use_helper(path: impl Into<PathBuf>) {
    let _ = HELPER.set(path.into());
}

fn helper() -> PathBuf {
    HELPER
        .get_or_init(|| std::env::current_exe().unwrap_or_else(|_| PathBuf::from("/proc/self/exe")))
        .clone()
}

struct Zygote {
    socket: OwnedFd,
    _child: std::process::Child,
}

/// Sends one request to the zygote (started on first use) and reads its answer.
fn zygote_request(request: &[u8], fds: &[RawFd]) -> Result<(i32, OwnedFd), StartError> {
    static ZYGOTE: OnceLock<Mutex<Option<Zygote>>> = OnceLock::new();
    let mut guard = ZYGOTE
        .get_or_init(|| Mutex::new(None))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    for attempt in 0..2 {
        if guard.is_none() {
            let exe = helper();
            let started = crate::spawner::on_spawner_thread(move || crate::zygote::start(&exe));
            let (socket, child) = started.map_err(|e| {
                StartError::Setup(format!(
                    "cannot start the jail's zygote ({}): {e}",
                    helper().display()
                ))
            })?;
            *guard = Some(Zygote {
                socket,
                _child: child,
            });
        }
        let socket = guard.as_ref().expect("started above").socket.as_raw_fd();
        let answer = wire::send(socket, request, fds).and_then(|()| wire::recv(socket));
        match answer {
            Ok(Some((msg, mut got))) => {
                let text = String::from_utf8_lossy(&msg).into_owned();
                if let Some(pid) = text.strip_prefix("ok ") {
                    let pid = pid.parse().map_err(|_| StartError::Setup(text.clone()))?;
                    let pidfd = got
                        .pop()
                        .ok_or_else(|| StartError::Setup("no pidfd".into()))?;
                    return Ok((pid, pidfd));
                }
                return Err(StartError::Setup(
                    text.strip_prefix("err ").unwrap_or(&text).into(),
                ));
            }
            // The zygote died (killed by someone): start a new one, once.
            _ if attempt == 0 => *guard = None,
            Ok(None) => {
                return Err(StartError::Setup(format!(
                    "the jail's zygote (`{} {}`) exited at once: that executable must be the \
                     referee (a program using the library names it with \
                     referee::jail::use_helper)",
                    helper().display(),
                    crate::zygote::ZYGOTE_ARG
                )))
            }
            Err(e) => return Err(StartError::Setup(format!("the jail's zygote: {e}"))),
        }
    }
    unreachable!("the loop returns on its second attempt")
}

/// Whether a pidfd-capable kernel lets this process build jails: tries one (a jail running
/// `/bin/true` with default settings, its `/proc` mounted with `subset=pid` if
/// `proc_subset`). `Err` names what is missing.
pub fn probe(map_user: Option<(u32, u32)>, proc_subset: bool) -> Result<(), String> {
    // `usage` finds a jail's processes through the `children` files of `/proc`.
    // SAFETY: a plain syscall.
    let tid = unsafe { libc::syscall(libc::SYS_gettid) };
    if !std::path::Path::new(&format!("/proc/self/task/{tid}/children")).exists() {
        return Err(
            "the kernel has no /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN), \
                    which the jail's CPU accounting needs"
                .into(),
        );
    }
    let champion = std::fs::canonicalize("/bin/true").map_err(|e| format!("/bin/true: {e}"))?;
    let checked = std::fs::metadata(&champion).map_err(|e| format!("/bin/true: {e}"))?;
    let spec = Spec {
        program: PathBuf::from("/bin/true"),
        args: Vec::new(),
        env: Vec::new(),
        view: View {
            champion,
            champion_is_dir: false,
            checked: (
                std::os::unix::fs::MetadataExt::dev(&checked),
                std::os::unix::fs::MetadataExt::ino(&checked),
            ),
            build: false,
            kits: Vec::new(),
            masks: Vec::new(),
            disk: 1 << 20,
            inodes: 0,
            owner: map_user.unwrap_or((0, 0)),
            remount: false,
            proc_subset,
        },
        rlimits: RlimitPlan::none(),
        uid: None,
        map_user,
        landlock: false,
        seccomp: false,
        deny_shared_memory: false,
        futex_listener: false,
        start_frozen: false,
        cpu: None,
        pool_net: false,
    };
    let null = || -> io::Result<OwnedFd> {
        Ok(OwnedFd::from(
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/null")?,
        ))
    };
    let (a, b, c) = (null(), null(), null());
    let (a, b, c) = (
        a.map_err(|e| e.to_string())?,
        b.map_err(|e| e.to_string())?,
        c.map_err(|e| e.to_string())?,
    );
    let mut jail = Jail::start(&spec, a, b, c, None).map_err(|e| match e {
        StartError::Exec(n) => format!("exec in the jail: {}", io::Error::from_raw_os_error(n)),
        StartError::Setup(why) => why,
    })?;
    jail.main_status(Duration::from_secs(5));
    jail.kill();
    Ok(())
}
