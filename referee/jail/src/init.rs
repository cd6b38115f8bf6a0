//! The first process of a jail (PID 1 of its namespace), running the zygote's code after
//! `clone`: it maps the user, builds the file system view, starts the champion's main
//! process and then serves the referee on the control socket: `stop` and `cont` freeze and
//! thaw every other process of the namespace (`kill(-1, SIGSTOP)`). `stop` is answered on a
//! socket of its own: `stopped` once every thread has stopped, `woke` at once when a thread
//! seen stopped runs again (the champion's own `SIGCONT`), `late` when threads still ran
//! after a second. `cont` is answered `thawed`, or without thawing `woke` when a child of
//! the init was continued meanwhile, or `ran <n>` when the namespace handed out pids. It
//! reports `started`, `exit <status>` of the main process, or why it could not start.
//! (Where the champion has a cgroup, the referee freezes it with the cgroup freezer
//! instead, which no `SIGCONT` undoes.) When it dies, by the referee's `SIGKILL` or because
//! the control socket closed, the kernel kills every process of the namespace and reaps
//! them: nothing of the champion is left.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;

use nix::libc;

use crate::sandbox::seccomp::Filters;
use crate::{wire, Spec};

/// The descriptors the zygote received for this jail.
pub(crate) struct Fds {
    pub stdin: OwnedFd,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
    pub ctl: OwnedFd,
    /// Where `stopped` is answered to each `stop` (not on `ctl`, whose readability tells
    /// the referee that the main process exited).
    pub acks: OwnedFd,
    /// The champion's `cgroup.procs`, to join by writing, when the zygote could not clone
    /// the jail straight into its group (`zygote::clone_into`).
    pub cgroup_procs: Option<OwnedFd>,
}

/// Runs the init. Never returns.
pub(crate) fn run(spec: &Spec, fds: Fds, filters: Option<&Filters>) -> ! {
    // The zygote's socket (its fd 3) is not the jail's: drop our copy at once, so that
    // nothing of this jail can ask the zygote for anything.
    // SAFETY: closes a descriptor number this process inherited and never uses; every
    // descriptor of `fds` was received after it, under another number.
    unsafe { libc::close(3) };
    // Our own copy of the control socket, which no error path closes.
    // SAFETY: dup of a descriptor we hold.
    let ctl = unsafe { libc::fcntl(fds.ctl.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 0) };
    // SAFETY: dup of a descriptor we hold.
    let acks = unsafe { libc::fcntl(fds.acks.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 0) };
    // SAFETY: plain prctl; the zygote is our parent (single-threaded, long-lived).
    unsafe {
        libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        )
    };
    let main = match setup(spec, &fds)
        .and_then(|build| handed_over(ctl, build))
        .and_then(|()| start_main(spec, fds, filters))
    {
        Ok(Some(main)) => main,
        Ok(None) => exit(0),
        Err(message) => {
            let _ = wire::send(ctl, format!("setup {message}").as_bytes(), &[]);
            exit(1)
        }
    };
    serve(ctl, acks, main)
}

fn exit(code: i32) -> ! {
    // SAFETY: ends the process without running the zygote's destructors.
    unsafe { libc::_exit(code) }
}

fn check(r: libc::c_int, what: &str) -> Result<(), String> {
    if r < 0 {
        Err(format!("{what}: {}", io::Error::last_os_error()))
    } else {
        Ok(())
    }
}

/// A build's tmpfs, handed to the referee (`ready`, with its descriptor), which fills it:
/// the build starts when the referee says `go`; the init ends when the referee is gone.
fn handed_over(ctl: RawFd, build: Option<OwnedFd>) -> Result<(), String> {
    let Some(build) = build else {
        return Ok(());
    };
    wire::send(ctl, b"ready", &[build.as_raw_fd()])
        .map_err(|e| format!("handing the build's tmpfs over: {e}"))?;
    drop(build);
    match wire::recv(ctl) {
        Ok(Some((msg, _))) if msg == b"go" => Ok(()),
        _ => exit(0),
    }
}

/// Before the main process: signals, user mapping, cgroup, file system, host name; a
/// build's tmpfs, for a build.
fn setup(spec: &Spec, fds: &Fds) -> Result<Option<OwnedFd>, String> {
    // SAFETY: signal-mask and disposition changes of this single-threaded process.
    unsafe {
        libc::signal(libc::SIGCHLD, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGCHLD);
        check(
            libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()),
            "sigprocmask",
        )?;
    }
    // The referee's umask must not shape the jail (a 077 would leave /champion and /kits
    // unreadable to the champion's uid) nor the champion's files.
    // SAFETY: a plain syscall.
    unsafe { libc::umask(0o022) };
    if let Some((uid, gid)) = spec.map_user {
        write_file("/proc/self/setgroups", b"deny")?;
        write_file("/proc/self/uid_map", format!("{uid} {uid} 1").as_bytes())?;
        write_file("/proc/self/gid_map", format!("{gid} {gid} 1").as_bytes())?;
    }
    if let Some(fd) = &fds.cgroup_procs {
        // SAFETY: a write of two bytes from a static buffer.
        let r = unsafe { libc::write(fd.as_raw_fd(), b"0\n".as_ptr().cast(), 2) };
        check(r as libc::c_int, "joining the cgroup")?;
    }
    // The cgroup namespace starts here, after joining: its root is the champion's own
    // group, so /proc/self/cgroup reads `0::/`, not the referee's path and the seat's group.
    check(
        // SAFETY: a plain syscall of this single-threaded process.
        unsafe { libc::unshare(libc::CLONE_NEWCGROUP) },
        "unshare(CLONE_NEWCGROUP)",
    )?;
    if spec.map_user.is_some() {
        limit_user_counts()?;
    }
    if let Some(cpu) = spec.cpu {
        // The jail and everything it starts share the match's CPU (crate::affinity).
        let mut set = nix::sched::CpuSet::new();
        if set.set(cpu).is_ok() {
            let _ = nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), &set);
        }
    }
    let build = spec.view.enter()?;
    // SAFETY: a NUL-terminated name for this process (what `comm` shows inside).
    unsafe { libc::prctl(libc::PR_SET_NAME, c"init".as_ptr(), 0, 0, 0) };
    let name = b"champion";
    check(
        // SAFETY: a valid buffer and its length.
        unsafe { libc::sethostname(name.as_ptr().cast(), name.len()) },
        "sethostname",
    )?;
    // The champion runs as the same user as this init when not root: keep it from
    // reading or tracing the init's memory.
    check(
        // SAFETY: plain prctl.
        unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) },
        "PR_SET_DUMPABLE",
    )?;
    Ok(build)
}

/// In the jail's user namespace (as a user): the counts the kernel keeps per user, which
/// the champion would otherwise share with the operator, are bounded for this namespace
/// (inotify instances and watches), and it may create no namespace of its own.
fn limit_user_counts() -> Result<(), String> {
    const LIMITS: [(&str, &[u8]); 12] = [
        ("max_inotify_instances", b"16"),
        ("max_inotify_watches", b"8192"),
        ("max_fanotify_groups", b"0"),
        ("max_fanotify_marks", b"0"),
        ("max_user_namespaces", b"0"),
        ("max_mnt_namespaces", b"0"),
        ("max_pid_namespaces", b"0"),
        ("max_net_namespaces", b"0"),
        ("max_ipc_namespaces", b"0"),
        ("max_uts_namespaces", b"0"),
        ("max_cgroup_namespaces", b"0"),
        ("max_time_namespaces", b"0"),
    ];
    for (name, value) in LIMITS {
        let path = format!("/proc/sys/user/{name}");
        match std::fs::write(&path, value) {
            Ok(()) => {}
            // An older kernel without this count.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("writing {path}: {e}")),
        }
    }
    Ok(())
}

fn write_file(path: &str, data: &[u8]) -> Result<(), String> {
    std::fs::write(path, data).map_err(|e| format!("writing {path}: {e}"))
}

/// The champion's main process, as started.
struct Main {
    pid: i32,
    /// When it starts stopped, the namespace's last pid then.
    stopped_at: Option<u64>,
    /// The listener of its shared futex calls, when the init serves them.
    futex_listener: Option<OwnedFd>,
}

/// Forks and execs the champion. `Ok(None)`: exec failed, and the referee was told.
fn start_main(spec: &Spec, fds: Fds, filters: Option<&Filters>) -> Result<Option<Main>, String> {
    let c = |s: &[u8]| CString::new(s).map_err(|_| "a NUL byte in an argument".to_string());
    let program = c(spec.program.as_os_str().as_bytes())?;
    let mut argv = vec![program.clone()];
    for a in &spec.args {
        argv.push(c(a.as_bytes())?);
    }
    let envp: Vec<CString> = spec
        .env
        .iter()
        .map(|(k, v)| c(format!("{k}={v}").as_bytes()))
        .collect::<Result<_, _>>()?;
    // The child's reports: the futex listener (with its descriptor), then the errno of a
    // failure, or the end of the stream at exec.
    let (reports, child_end) = wire::pair().map_err(|e| format!("socketpair: {e}"))?;
    let ruleset = if spec.landlock {
        Some(crate::sandbox::landlock::jail_ruleset(spec.view.build)?)
    } else {
        None
    };
    // SAFETY: this process is single-threaded: the child may do anything.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(format!("fork: {}", io::Error::last_os_error()));
    }
    if pid == 0 {
        exec_main(
            spec,
            &fds,
            child_end.as_raw_fd(),
            &program,
            &argv,
            &envp,
            ruleset,
            filters,
        );
    }
    drop(fds.stdin);
    drop(fds.stdout);
    drop(fds.stderr);
    drop(fds.cgroup_procs);
    drop(fds.acks);
    drop(child_end);
    let mut futex_listener = None;
    let failed = loop {
        match wire::recv(reports.as_raw_fd()) {
            Ok(Some((message, fds))) if message == FUTEX_LISTENER => {
                futex_listener = fds.into_iter().next();
            }
            Ok(Some((message, _))) => {
                break <[u8; 4]>::try_from(message.as_slice())
                    .map_or(Some(libc::EINVAL), |errno| Some(i32::from_ne_bytes(errno)))
            }
            _ => break None,
        }
    };
    drop(reports);
    let ctl = fds.ctl.as_raw_fd();
    std::mem::forget(fds.ctl); // kept open for the champion's life
    if let Some(errno) = failed {
        let _ = wire::send(ctl, format!("exec {errno}").as_bytes(), &[]);
        return Ok(None);
    }
    if spec.futex_listener && futex_listener.is_none() {
        return Err("the champion's shared futex listener never came".into());
    }
    let mut stopped_at = None;
    if spec.start_frozen {
        let pids = std::fs::File::open("/proc/sys/kernel/ns_last_pid").ok();
        // Whatever of it ran since is found before its first thaw.
        let _ = stop_all(pid, pids.as_ref());
        stopped_at = last_pid(pids.as_ref());
    }
    wire::send(ctl, b"started", &[]).map_err(|e| format!("reporting the start: {e}"))?;
    Ok(Some(Main {
        pid,
        stopped_at,
        futex_listener,
    }))
}

/// The child's message that carries the futex listener.
const FUTEX_LISTENER: &[u8] = b"futex-listener";

/// In the main process's child: sets it up and execs the program; on failure, writes the
/// errno to the report socket and exits. The seccomp filters come last; with the futex
/// listener, its descriptor is sent to the init first (a socket made before the fork is the
/// one way: the filter is the child's own, installed after it gave up its privileges, and
/// the listener is close-on-exec). Nothing between the filter and `execve` makes a shared
/// futex call, which would wait for an init that is still reading this socket.
#[allow(clippy::too_many_arguments)]
fn exec_main(
    spec: &Spec,
    fds: &Fds,
    reports: RawFd,
    program: &CString,
    argv: &[CString],
    envp: &[CString],
    ruleset: Option<OwnedFd>,
    filters: Option<&Filters>,
) -> ! {
    let fail = || {
        io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EINVAL)
    };
    // Descriptors are closed by number below: nothing here may close them again on drop.
    let ruleset_fd = ruleset.map(std::os::fd::IntoRawFd::into_raw_fd);
    // SAFETY: syscalls on descriptors and credentials of this child process only.
    unsafe {
        // The report socket moves to 3 first (over the zygote's socket), so every failure
        // below can be reported there.
        if libc::dup3(reports, 3, libc::O_CLOEXEC) < 0 {
            libc::write(reports, fail().to_ne_bytes().as_ptr().cast(), 4);
            libc::_exit(127);
        }
        let report = |errno: i32| -> ! {
            libc::write(3, errno.to_ne_bytes().as_ptr().cast(), 4);
            libc::_exit(127)
        };
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        if libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut()) != 0 {
            report(fail());
        }
        // The init ignores the stop signals (from the zygote); the champion starts with
        // every signal at its default, as outside a jail.
        for signal in crate::signals::STOP_SIGNALS {
            libc::signal(signal, libc::SIG_DFL);
        }
        libc::setsid();
        // The ruleset moves to 4; everything above is closed.
        if libc::dup2(fds.stdin.as_raw_fd(), 0) < 0
            || libc::dup2(fds.stdout.as_raw_fd(), 1) < 0
            || libc::dup2(fds.stderr.as_raw_fd(), 2) < 0
        {
            report(fail());
        }
        if let Some(fd) = ruleset_fd {
            if libc::dup3(fd, 4, libc::O_CLOEXEC) < 0 {
                report(fail());
            }
        }
        libc::syscall(libc::SYS_close_range, 5u32, u32::MAX, 0u32);
        if ruleset_fd.is_none() {
            libc::close(4);
        }
        if spec.rlimits.apply().is_err() {
            report(fail());
        }
        if let Some(uid) = spec.uid {
            if crate::sandbox::uid::switch(uid).is_err() {
                report(fail());
            }
        }
        if libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        ) != 0
            || libc::chdir(c"/tmp".as_ptr()) != 0
            || libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        {
            report(fail());
        }
        if ruleset_fd.is_some() {
            if crate::sandbox::landlock::restrict_self(4).is_err() {
                report(fail());
            }
            libc::close(4);
        }
        if let Some(filters) = filters {
            let applied = if spec.futex_listener {
                filters
                    .apply_notifying()
                    .and_then(|l| wire::send(3, FUTEX_LISTENER, &[l.as_raw_fd()]))
            } else {
                filters.apply()
            };
            if let Err(e) = applied {
                report(e.raw_os_error().unwrap_or(libc::EINVAL));
            }
        }
        let mut argv_ptrs: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
        argv_ptrs.push(std::ptr::null());
        let mut envp_ptrs: Vec<*const libc::c_char> = envp.iter().map(|e| e.as_ptr()).collect();
        envp_ptrs.push(std::ptr::null());
        libc::execve(program.as_ptr(), argv_ptrs.as_ptr(), envp_ptrs.as_ptr());
        report(fail())
    }
}

/// Stops (`true`) or continues every process of the namespace but this one.
fn freeze(stop: bool) {
    use nix::sys::signal::{kill, Signal};
    let signal = if stop {
        Signal::SIGSTOP
    } else {
        Signal::SIGCONT
    };
    // From PID 1 of a PID namespace, -1 means every other process of it.
    let _ = kill(nix::unistd::Pid::from_raw(-1), signal);
}

/// How a [`stop_all`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// Every thread of the namespace but the init's is stopped (or in an uninterruptible
    /// sleep, which it leaves only to stop).
    Stopped,
    /// A thread seen stopped ran again before the others were: a `SIGCONT` of the
    /// champion's own (a timer, another of its processes) undid the freeze. Not waited for.
    Woke,
    /// [`STOP_WAIT`] went by with threads still running and none seen waking.
    Late,
}

/// Stops every process of the namespace but this one and waits (up to [`STOP_WAIT`]) until
/// each of their threads has stopped: a thread that was in the middle of a `clone` when the
/// signal came finishes it first, and its new pid must be counted before the freeze. A
/// thread that stopped and runs again was continued by the champion itself: that ends the
/// wait at once (`Woke`), so that no timer of the champion can make a freeze wait.
fn stop_all(main: i32, pids: Option<&std::fs::File>) -> Stop {
    freeze(true);
    // When nothing but the main process ever started (the namespace handed out no pid
    // after it), its stop report says it all, without reading /proc.
    if main > 0 && last_pid(pids) == Some(main as u64) {
        use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
        let flags = WaitPidFlag::WSTOPPED | WaitPidFlag::WNOHANG;
        for _ in 0..200 {
            match waitid(Id::Pid(nix::unistd::Pid::from_raw(main)), flags) {
                Ok(WaitStatus::StillAlive) => std::thread::yield_now(),
                _ => break,
            }
        }
        if last_pid(pids) == Some(main as u64) {
            return Stop::Stopped;
        }
    }
    // A deadline in time, not a count of rounds: on a loaded machine a thread with the
    // signal pending may wait many milliseconds for a CPU, and a clone it finishes after
    // the wait would be taken for a process started while frozen (a false timeout).
    let deadline = std::time::Instant::now() + STOP_WAIT;
    let mut pause = std::time::Duration::from_micros(20);
    let mut stopped = Vec::new();
    for round in 0.. {
        match states(&mut stopped) {
            States::AllStopped => return Stop::Stopped,
            States::Woke => return Stop::Woke,
            States::Running if std::time::Instant::now() >= deadline => return Stop::Late,
            States::Running => {}
        }
        // Stop again whatever a SIGCONT woke since: a thread that then stops and runs
        // again is seen waking at a later round. (A stop signal to a thread that is
        // stopped, or has one pending, changes nothing.)
        if round > 0 {
            freeze(true);
        }
        // The jail shares one CPU: yielding lets a thread that has the signal pending
        // run into its stop at once; past that, sleep (a thread in a long system call),
        // longer and longer up to a millisecond.
        if round < 100 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(pause);
            pause = (pause * 2).min(std::time::Duration::from_millis(1));
        }
    }
    unreachable!("the loop returns")
}

/// How long [`stop_all`] waits at most for every thread to stop: far above a scheduling
/// delay on a loaded machine, far below a callback's budget.
const STOP_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// What one look at the threads of the namespace found.
enum States {
    AllStopped,
    /// A thread is running or about to run (`R`, or `S`: a sleeper not yet woken by the
    /// signal).
    Running,
    /// A thread that an earlier look saw stopped runs again.
    Woke,
}

/// Looks at every thread of the namespace but this process's; `stopped` holds the threads
/// seen stopped so far (by tid, sorted), and gains those stopped now.
fn states(stopped: &mut Vec<u32>) -> States {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return States::AllStopped;
    };
    let mut running = false;
    let mut now_stopped = Vec::new();
    for entry in procs.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        if pid == 1 {
            continue;
        }
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Some(tid) = task
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read(task.path().join("stat")) else {
                continue;
            };
            let state = stat
                .iter()
                .rposition(|&b| b == b')')
                .and_then(|close| stat.get(close + 2).copied());
            match state {
                Some(b'R' | b'S') => {
                    if stopped.binary_search(&tid).is_ok() {
                        return States::Woke;
                    }
                    running = true;
                }
                Some(b'T') => now_stopped.push(tid),
                _ => {}
            }
        }
    }
    if running {
        stopped.extend(now_stopped);
        stopped.sort_unstable();
        stopped.dedup();
        States::Running
    } else {
        States::AllStopped
    }
}

/// The last pid the namespace handed out (`/proc/sys/kernel/ns_last_pid` of the jail's
/// own `/proc`): it moves when anything of the champion starts a process or a thread,
/// even one that is gone by the time anyone looks (a child reaped at once, whose CPU no
/// measurement sees).
fn last_pid(file: Option<&std::fs::File>) -> Option<u64> {
    use std::os::unix::fs::FileExt;
    let mut buf = [0u8; 24];
    let n = file?.read_at(&mut buf, 0).ok()?;
    std::str::from_utf8(&buf[..n]).ok()?.trim().parse().ok()
}

/// Serves the referee until the control socket closes. `stop` is answered as [`stop_all`]
/// found it (`stopped`, `woke` or `late`); `cont` is answered `thawed`, or without thawing
/// `woke` when a child of the init was continued while frozen, or `ran <n>` when `n`
/// processes or threads were started while the champion was stopped (a `SIGCONT` woke it).
///
/// Meanwhile it serves the champion's shared futex calls (`futex_waits.rs`), when it holds
/// their listener.
fn serve(ctl: RawFd, acks: RawFd, main: Main) -> ! {
    let pids = std::fs::File::open("/proc/sys/kernel/ns_last_pid").ok();
    let Main {
        pid: main,
        mut stopped_at,
        futex_listener,
    } = main;
    let mut waits = futex_listener.map(crate::futex_waits::Waits::new);
    // SAFETY: a signalfd for the SIGCHLD blocked in `setup`.
    let sigfd = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGCHLD);
        libc::signalfd(-1, &set, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK)
    };
    let mut main_alive = true;
    // Whether a child may have ended since the last reap (not after a wake-up for a shared
    // futex alone: the init looks at pending waits every few milliseconds).
    let mut reap_now = true;
    loop {
        if reap_now && main_alive {
            main_alive = reap(ctl, main);
        } else if reap_now {
            reap(ctl, -1);
        }
        let listener = waits.as_ref().and_then(|w| w.fd());
        let pollfd = |fd: RawFd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // Without a signalfd, reap every 10 ms (a negative fd is skipped by poll).
        let mut pfd = [pollfd(ctl), pollfd(sigfd), pollfd(listener.unwrap_or(-1))];
        let now = std::time::Instant::now();
        let mut timeout = waits.as_ref().and_then(|w| w.timeout(now));
        if sigfd < 0 {
            let reap_every = std::time::Duration::from_millis(10);
            timeout = Some(timeout.map_or(reap_every, |t| t.min(reap_every)));
        }
        let ts = timeout.map(|t| libc::timespec {
            tv_sec: t.as_secs() as libc::time_t,
            tv_nsec: libc::c_long::from(t.subsec_nanos()),
        });
        // SAFETY: three valid pollfds and an optional timespec.
        let n = unsafe {
            libc::ppoll(
                pfd.as_mut_ptr(),
                pfd.len() as libc::nfds_t,
                ts.as_ref().map_or(std::ptr::null(), |t| t as *const _),
                std::ptr::null(),
            )
        };
        if let Some(waits) = waits.as_mut() {
            if n > 0 && pfd[2].revents != 0 {
                waits.ready(pfd[2].revents);
            }
            waits.look(std::time::Instant::now());
        }
        reap_now = sigfd < 0 || n < 0 || pfd[0].revents != 0 || pfd[1].revents != 0;
        if n < 0 {
            continue;
        }
        if pfd[1].revents != 0 {
            let mut info = [0u8; 128];
            // SAFETY: drains the signalfd into a buffer of one siginfo.
            while unsafe { libc::read(sigfd, info.as_mut_ptr().cast(), info.len()) } > 0 {}
        }
        if pfd[0].revents != 0 {
            match wire::recv(ctl) {
                Ok(Some((msg, _))) => match msg.as_slice() {
                    b"stop" => {
                        // What its own signals did while it ran is no matter: only a
                        // continue from now on is. (Bounded: it may be continuing its
                        // own processes again and again.)
                        for _ in 0..64 {
                            if !continued() {
                                break;
                            }
                        }
                        let outcome = stop_all(if main_alive { main } else { 0 }, pids.as_ref());
                        let answer = match outcome {
                            Stop::Stopped => &b"stopped"[..],
                            Stop::Woke => b"woke",
                            Stop::Late => b"late",
                        };
                        stopped_at = last_pid(pids.as_ref());
                        let _ = wire::send(acks, answer, &[]);
                    }
                    b"cont" => {
                        let now = last_pid(pids.as_ref());
                        match (stopped_at.take(), now) {
                            _ if continued() => {
                                let _ = wire::send(acks, b"woke", &[]);
                            }
                            (Some(then), Some(now)) if now != then => {
                                let started = now.wrapping_sub(then);
                                let _ = wire::send(acks, format!("ran {started}").as_bytes(), &[]);
                            }
                            _ => {
                                freeze(false);
                                let _ = wire::send(acks, b"thawed", &[]);
                            }
                        }
                    }
                    _ => {}
                },
                _ => exit(0),
            }
        }
    }
}

/// Whether a child of this init (the main process, or an orphan it adopted) was continued
/// since it last stopped and this was last asked: the kernel's report of it is taken.
/// Asked when a `stop` comes (reports of the callback that ended do not count) and before
/// a thaw (one of the champion's own `SIGCONT`s continued it while frozen).
fn continued() -> bool {
    use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
    let flags = WaitPidFlag::WCONTINUED | WaitPidFlag::WNOHANG | WaitPidFlag::__WALL;
    matches!(waitid(Id::All, flags), Ok(WaitStatus::Continued(_)))
}

/// Reaps every exited child; reports the main process's end, with the largest resident
/// size the kernel saw it reach (`ru_maxrss`, KiB: evidence of memory use that no sampling
/// can miss). Returns whether the main process (when `main` > 0) is still alive.
fn reap(ctl: RawFd, main: i32) -> bool {
    let mut alive = main > 0;
    loop {
        let mut status = 0;
        // SAFETY: all-zero is a valid rusage.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: valid status and rusage pointers.
        let pid = unsafe { libc::wait4(-1, &mut status, libc::WNOHANG | libc::__WALL, &mut usage) };
        if pid <= 0 {
            return alive;
        }
        if pid == main {
            alive = false;
            let max_rss_kib = usage.ru_maxrss.max(0);
            let _ = wire::send(ctl, format!("exit {status} {max_rss_kib}").as_bytes(), &[]);
        }
    }
}
