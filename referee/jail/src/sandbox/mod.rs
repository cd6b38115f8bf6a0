//! The sandbox layers on top of the process containment of `champion/` (process group,
//! rlimits, sweep): which ones the kernel and the user allow ([`probe`], one line printed by
//! every run and kept in every record), and how each is applied to one champion.
//!
//! | layer | what it does | when |
//! |---|---|---|
//! | `netns` | a network namespace of its own: no interface but a down loopback | root; or through a user namespace |
//! | `landlock` | system directories read-only, the champion's directory read+execute, its scratch read-write, nothing else; no signals or abstract sockets out of its domain | Landlock in the kernel |
//! | `seccomp` | a deny list answering `EPERM`: non-`AF_UNIX` sockets, `setsid`/`setpgid`, `ptrace`, namespaces, `mount`, `bpf`, ... | seccomp in the kernel |
//! | `cgroup` | one cgroup v2 per champion: `memory.max` (no swap), `pids.max`, `cgroup.kill`, `memory.events` | a writable cgroup v2 with the memory and pids controllers |
//! | `uid` | each live champion under its own unprivileged uid (200000+) | root |
//!
//! Everything a child applies between fork and exec is prepared in the parent (`prepare`):
//! the seccomp programs (once per referee), the Landlock ruleset fd, the cgroup's
//! `cgroup.procs` fd and the uid lease; the child (`ChildSteps`) only makes syscalls.

mod cgroup;
pub(crate) mod futex;
pub(crate) mod landlock;
mod layer;
mod netns;
pub(crate) mod seccomp;
pub(crate) mod uid;

use std::fmt;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use seccomp::Filters;

pub use layer::Layer;

/// Whether to use the sandbox layers (`--sandbox`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SandboxMode {
    /// Every layer the kernel and the user allow.
    #[default]
    Auto,
    /// None: only the process containment (process group, rlimits, sweep).
    Off,
}

impl SandboxMode {
    /// Every mode, with its name and what it does (for the command line's help).
    pub const ALL: [(SandboxMode, &'static str, &'static str); 2] = [
        (
            SandboxMode::Auto,
            "auto",
            "Every layer the kernel and the user allow",
        ),
        (
            SandboxMode::Off,
            "off",
            "None: only the process containment (process group, rlimits, sweep)",
        ),
    ];

    /// Its name: `auto` or `off`.
    pub fn name(self) -> &'static str {
        SandboxMode::ALL
            .iter()
            .find(|(mode, _, _)| *mode == self)
            .map_or("auto", |(_, name, _)| name)
    }

    /// The mode named `name` (`auto` or `off`).
    pub fn from_name(name: &str) -> Option<SandboxMode> {
        SandboxMode::ALL
            .into_iter()
            .find(|(_, n, _)| *n == name)
            .map(|(mode, _, _)| mode)
    }
}

/// What [`probe`] found, and the prepared layers to apply to champions.
#[derive(Clone)]
pub struct SandboxReport {
    pub mode: SandboxMode,
    /// One jail per champion ([`crate::Jail`]): PID, mount, IPC, UTS, network and cgroup
    /// namespaces, plus a user namespace when not root.
    pub jail: Layer,
    pub netns: Layer,
    pub landlock: Layer,
    pub seccomp: Layer,
    pub cgroup: Layer,
    pub uid: Layer,
    /// `cgroup` (memory.max) or `rlimit` (RLIMIT_DATA + RLIMIT_AS, shared memory denied).
    pub memory: String,
    /// Where a jail's CPU is read: `cgroup` (every process that ever ran in it) or `proc`
    /// (a walk of /proc: children the kernel reaps at once, SIGCHLD ignored, are missed,
    /// and only the wall deadline bounds them).
    pub cpu: String,
    /// How a jail is frozen between its callbacks: `cgroup` (the cgroup freezer, which no
    /// signal undoes), `sigstop(no cgroup freezer)` (its init's `SIGSTOP`: a `SIGCONT` of
    /// the champion's own wakes it, and the referee finds out before the thaw), or `off`.
    pub freeze: String,
    /// What bounds the number of processes: `cgroup`, `rlimit(uid)`, `rlimit(userns)`, `off(...)`.
    pub pids: Layer,
    /// How shared futexes are kept out of the kernel's queues (`futex.rs`): `notify` (the
    /// jail's init emulates the waits), `spin(<why>)` (a wait returns at once, so a shared
    /// wait spins), or `off(no seccomp)`.
    pub futex: String,
    /// What a jail's `/proc` shows: `pid` (mounted with `subset=pid`: its processes' own
    /// directories only, no file of the machine's) or `masked(<why not pid>)` (every file,
    /// the machine-wide counters of [`crate::proc_masks::MASKED`] read empty), or `off`.
    pub proc: String,
    layers: Option<Arc<Layers>>,
}

impl fmt::Debug for SandboxReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

impl PartialEq for SandboxReport {
    fn eq(&self, other: &Self) -> bool {
        self.line() == other.line()
    }
}

impl Eq for SandboxReport {}

/// A missing layer, for `--require-sandbox`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub layer: &'static str,
    pub why: String,
    pub fix: &'static str,
}

impl SandboxReport {
    /// The line every run prints and every record keeps, e.g.
    /// `sandbox: jail=on(...) proc=pid netns=on landlock=v7 seccomp=on futex=notify cgroup=off(not writable) uid=on(200000+) memory=rlimit cpu=proc freeze=sigstop(no cgroup freezer) pids=rlimit(uid)`.
    pub fn line(&self) -> String {
        if self.mode == SandboxMode::Off {
            return "sandbox: off (as asked): process group, rlimits and sweep only".into();
        }
        format!(
            "sandbox: {} proc={} {} {} {} futex={} {} {} memory={} cpu={} freeze={} {}",
            self.jail.show("jail"),
            self.proc,
            self.netns.show("netns"),
            self.landlock.show("landlock"),
            self.seccomp.show("seccomp"),
            self.futex,
            self.cgroup.show("cgroup"),
            self.uid.show("uid"),
            self.memory,
            self.cpu,
            self.freeze,
            self.pids.show("pids"),
        )
    }

    /// The layers `--require-sandbox` asks for that are off, with how to get each: the jail
    /// and seccomp, and the uid layer of root (a user cannot switch uid; its jail has a
    /// user namespace instead). Landlock, the separate network namespace and the cgroup
    /// are used where available, not required: the jail covers what they do.
    pub fn missing(&self) -> Vec<Missing> {
        let mut out = Vec::new();
        let mut check = |layer: &'static str, state: &Layer, fix: &'static str| {
            if let Layer::Off(why) = state {
                out.push(Missing {
                    layer,
                    why: why.clone(),
                    fix,
                });
            }
        };
        if self.mode == SandboxMode::Off {
            out.push(Missing {
                layer: "all",
                why: "the sandbox is turned off".into(),
                fix: "turn it on",
            });
            return out;
        }
        check(
            "jail",
            &self.jail,
            "run as root, or allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0; on Ubuntu >= 23.10 also kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for the referee that allows userns)",
        );
        check(
            "seccomp",
            &self.seccomp,
            "use a kernel with CONFIG_SECCOMP_FILTER",
        );
        if is_root() {
            check("uid", &self.uid, "free a range of uids from 200000");
        }
        out
    }

    /// Whether the sandbox was turned off.
    pub fn is_off(&self) -> bool {
        self.mode == SandboxMode::Off
    }

    /// The plan for champions: these layers, or none when the mode is off.
    pub fn plan(&self) -> SandboxPlan {
        self.plan_with(true, true)
    }

    /// The plan with the jail (`jail`: else the layers apply to a plain process, as where
    /// no jail can be built) and with or without the jail's inner layers (`inner`: Landlock
    /// and seccomp). For benchmarks and tests of one layer at a time.
    pub fn plan_with(&self, jail: bool, inner: bool) -> SandboxPlan {
        SandboxPlan {
            layers: self.layers.clone(),
            line: self.line(),
            read_exec: Vec::new(),
            use_jail: jail,
            inner,
        }
    }
}

/// Probes the kernel and the user once per mode (later calls return the same report).
pub fn probe(mode: SandboxMode) -> SandboxReport {
    static AUTO: OnceLock<SandboxReport> = OnceLock::new();
    static OFF: OnceLock<SandboxReport> = OnceLock::new();
    match mode {
        SandboxMode::Auto => AUTO.get_or_init(probe_auto).clone(),
        SandboxMode::Off => OFF.get_or_init(probe_off).clone(),
    }
}

fn probe_off() -> SandboxReport {
    let off = || Layer::Off("turned off".into());
    SandboxReport {
        mode: SandboxMode::Off,
        jail: off(),
        netns: off(),
        landlock: off(),
        seccomp: off(),
        cgroup: off(),
        uid: off(),
        memory: "rlimit".into(),
        cpu: "proc".into(),
        freeze: "off".into(),
        pids: off(),
        futex: "off".into(),
        proc: "off".into(),
        layers: None,
    }
}

fn probe_auto() -> SandboxReport {
    let root = is_root();
    let (net, netns) = netns::probe(root);
    let (landlock_abi, landlock) = landlock::probe();
    let (cg, cgroup) = cgroup::probe();
    let memory_cgroup = cg.as_ref().is_some_and(|c| c.memory);
    let (filters, seccomp) = seccomp::probe(!memory_cgroup);
    let (uids, uid) = uid::probe(root);
    let pids = if cg.as_ref().is_some_and(|c| c.pids) {
        Layer::On("cgroup".into())
    } else if uids.is_some() {
        Layer::On("rlimit(uid)".into())
    } else if net == netns::NetMode::UserNs {
        Layer::On("rlimit(userns)".into())
    } else if root {
        Layer::Off("root without uid switch or pids cgroup".into())
    } else {
        Layer::Off("no user namespace or pids cgroup".into())
    };
    let map_user = (!root).then(|| {
        // SAFETY: plain id queries.
        unsafe { (nix::libc::getuid(), nix::libc::getgid()) }
    });
    // `subset=pid` where the kernel takes it (5.8+), else the masks: a jail of each, tried.
    let (proc_subset, proc) = if std::env::var_os(crate::view::PROC_MASKED_VARIABLE).is_some() {
        (false, "masked(as asked)".to_string())
    } else {
        match crate::probe(map_user, true) {
            Ok(()) => (true, "pid".to_string()),
            Err(why) => (false, format!("masked(subset=pid refused: {why})")),
        }
    };
    let probed = if proc_subset {
        Ok(())
    } else {
        crate::probe(map_user, false)
    };
    let (jail_setup, jail) = match probed {
        Ok(()) => (
            Some(JailSetup {
                map_user,
                proc_subset,
            }),
            Layer::On(format!(
                "on(pid,mount,ipc,uts,net,cgroup,{})",
                if root { "uid" } else { "user" }
            )),
        ),
        Err(why) => (None, Layer::Off(why)),
    };
    let memory = if memory_cgroup {
        "cgroup".to_string()
    } else if jail_setup.is_some() {
        "jail".to_string()
    } else {
        "rlimit".to_string()
    };
    let cpu = if cg.is_some() { "cgroup" } else { "proc" }.to_string();
    let freeze = match (&jail_setup, &cg) {
        (Some(_), Some(_)) => "cgroup",
        (Some(_), None) => "sigstop(no cgroup freezer)",
        (None, _) => "off(no jail)",
    }
    .to_string();
    let (futex_listener, futex) = futex_mode(filters.as_ref(), jail_setup.is_some());
    let layers = Layers {
        jail: jail_setup,
        net,
        landlock_abi,
        seccomp: filters,
        futex_listener,
        cgroup: cg,
        uids,
        nproc_rlimit: pids.is_on() && !matches!(&pids, Layer::On(d) if d == "cgroup"),
    };
    SandboxReport {
        mode: SandboxMode::Auto,
        jail,
        netns,
        landlock,
        seccomp,
        cgroup,
        uid,
        memory,
        cpu,
        freeze,
        pids,
        futex,
        proc: if jail_setup.is_some() {
            proc
        } else {
            "off(no jail)".into()
        },
        layers: Some(Arc::new(layers)),
    }
}

/// Whether jails' inits serve shared futexes (a listener), and the sandbox line's word for
/// it: `notify`, or `spin(<why not>)` where a shared wait returns at once (and spins), or
/// `off(no seccomp)`.
fn futex_mode(filters: Option<&Filters>, jail: bool) -> (bool, String) {
    let Some(filters) = filters else {
        return (false, "off(no seccomp)".into());
    };
    if !jail {
        return (false, "spin(no jail)".into());
    }
    match filters.probe_listener() {
        Ok(()) => (true, "notify".into()),
        Err(e) => (false, format!("spin({})", listener_refused(&e))),
    }
}

/// Why the kernel gave no seccomp listener, for the sandbox line.
fn listener_refused(e: &io::Error) -> String {
    match e.raw_os_error() {
        Some(nix::libc::EBUSY) => "an outer seccomp filter holds the listener".into(),
        Some(nix::libc::EINVAL) => "kernel without seccomp listeners".into(),
        _ => format!("no seccomp listener: {e}"),
    }
}

pub(crate) fn is_root() -> bool {
    // SAFETY: no arguments.
    unsafe { nix::libc::geteuid() == 0 }
}

/// The probed facilities, shared by every champion of the run.
pub(crate) struct Layers {
    jail: Option<JailSetup>,
    net: netns::NetMode,
    landlock_abi: Option<i32>,
    seccomp: Option<Filters>,
    /// Whether a jail's init serves shared futexes (`futex.rs`).
    futex_listener: bool,
    cgroup: Option<cgroup::Base>,
    uids: Option<uid::Pool>,
    /// Whether `RLIMIT_NPROC` bounds the champion's processes (own uid or user namespace).
    nproc_rlimit: bool,
}

/// How jails are built here (probed once).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JailSetup {
    /// As a user: the (uid, gid) mapped to themselves in each jail's user namespace.
    pub map_user: Option<(u32, u32)>,
    /// Whether a jail's `/proc` is mounted with `subset=pid` (else masked file by file).
    pub proc_subset: bool,
}

/// Which sandbox a champion gets: a field of [`crate::limits::Limits`], so every command
/// that builds limits from `LimitArgs` passes it to every champion it starts.
/// The default is no layer (the process containment only).
#[derive(Clone, Default)]
pub struct SandboxPlan {
    layers: Option<Arc<Layers>>,
    line: String,
    /// Paths the champion may read and execute besides the system directories, its own
    /// directory (the directory of its program; for a built-in bot, the referee's
    /// executable) and the kits bundled with the referee (`champions/<language>/kit` of its
    /// source tree). Never a `kit` folder beside its own: in a flat layout of contestants'
    /// folders, that one belongs to a contestant.
    pub read_exec: Vec<PathBuf>,
    /// Whether to use the jail when it is available.
    use_jail: bool,
    /// Whether a jail gets its inner layers (Landlock, seccomp) when they are available.
    inner: bool,
}

impl fmt::Debug for SandboxPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SandboxPlan")
            .field("line", &self.line)
            .field("read_exec", &self.read_exec)
            .finish()
    }
}

impl PartialEq for SandboxPlan {
    fn eq(&self, other: &Self) -> bool {
        self.line == other.line && self.read_exec == other.read_exec
    }
}

impl Eq for SandboxPlan {}

impl SandboxPlan {
    /// No layer.
    pub fn none() -> SandboxPlan {
        SandboxPlan::default()
    }

    /// Whether any layer is applied.
    pub fn is_on(&self) -> bool {
        self.layers.is_some()
    }

    /// Whether champions start in jails (which make their own scratch: none on the host).
    pub fn jails(&self) -> bool {
        self.jail().is_some()
    }

    /// How to build jails, when the jail layer is on.
    pub(crate) fn jail(&self) -> Option<JailSetup> {
        self.layers
            .as_ref()
            .and_then(|l| l.jail)
            .filter(|_| self.use_jail)
    }

    /// Whether Landlock and seccomp are on (inner layers of a jail).
    pub(crate) fn inner_layers(&self) -> (bool, bool, bool) {
        let layers = self.layers.as_deref().filter(|_| self.inner);
        (
            layers.is_some_and(|l| l.landlock_abi.is_some()),
            layers.is_some_and(|l| l.seccomp.is_some()),
            layers.is_some_and(|l| l.cgroup.as_ref().is_none_or(|c| !c.memory)),
        )
    }

    /// Whether a jail's shared futex calls go to its init (a listener): seccomp is on and
    /// the kernel gives listeners.
    pub(crate) fn futex_listener(&self) -> bool {
        let (_, seccomp, _) = self.inner_layers();
        seccomp
            && self
                .layers
                .as_deref()
                .is_some_and(|l| l.futex_listener && l.jail.is_some())
    }

    /// The sandbox line this plan was made from (empty for [`SandboxPlan::none`]).
    pub fn line(&self) -> &str {
        &self.line
    }
}

/// One champion's layers, prepared in the parent before fork; kept by the champion until
/// everything it started is swept (the cgroup is removed and the uid freed on drop).
pub(crate) struct Prepared {
    landlock: Option<OwnedFd>,
    cgroup: Option<cgroup::Group>,
    uid: Option<uid::Lease>,
    userns_maps: Option<netns::Maps>,
    layers: Option<Arc<Layers>>,
}

impl Prepared {
    /// No layer.
    pub(crate) fn none() -> Prepared {
        Prepared {
            landlock: None,
            cgroup: None,
            uid: None,
            userns_maps: None,
            layers: None,
        }
    }

    /// CPU of every process of the champion's cgroup, reaped ones included, if it has one.
    pub(crate) fn cgroup_cpu(&self) -> Option<std::time::Duration> {
        self.cgroup.as_ref().and_then(|g| g.cpu())
    }

    /// Whether the champion's processes can be frozen with its cgroup's freezer.
    pub(crate) fn has_freezer(&self) -> bool {
        self.cgroup.as_ref().is_some_and(|g| g.has_freezer())
    }

    /// Freezes or thaws the champion's cgroup; whether it could.
    pub(crate) fn freeze(&self, frozen: bool) -> bool {
        self.cgroup.as_ref().is_some_and(|g| g.freeze(frozen))
    }

    /// The directory of the champion's cgroup, open, if it has one.
    pub(crate) fn cgroup_dir(&self) -> Option<i32> {
        self.cgroup.as_ref().map(|g| g.dir_fd())
    }

    /// The uid the champion runs under, if switched.
    pub(crate) fn uid(&self) -> Option<u32> {
        self.uid.as_ref().map(|l| l.uid())
    }

    /// The steps of the child, as plain values (nothing to allocate or drop after fork).
    pub(crate) fn child_steps(&self) -> ChildSteps {
        let layers = self.layers.as_deref();
        ChildSteps {
            cgroup_procs: self.cgroup.as_ref().map(|g| g.procs_fd()),
            net: layers.map_or(netns::NetMode::Off, |l| l.net),
            maps: self.userns_maps,
            uid: self.uid.as_ref().map(|l| l.uid()),
            landlock: self.landlock.as_ref().map(|fd| fd.as_raw_fd()),
            seccomp: layers
                .and_then(|l| l.seccomp.as_ref())
                .map(|f| f as *const Filters),
        }
    }

    /// Whether `RLIMIT_NPROC` should be set (it then bounds this champion alone).
    pub(crate) fn nproc_rlimit(&self) -> bool {
        self.layers.as_ref().is_some_and(|l| l.nproc_rlimit)
    }

    /// Kills every process in the champion's cgroup (`cgroup.kill`), if it has one.
    pub(crate) fn kill_all(&self) {
        if let Some(group) = &self.cgroup {
            group.kill();
        }
    }

    /// Whether the cgroup's memory controller killed a process for exceeding `memory.max`.
    pub(crate) fn oom_killed(&self) -> bool {
        self.cgroup.as_ref().is_some_and(|g| g.oom_kills() > 0)
    }

    /// After the sweep: removes the cgroup (waiting a little for it to empty).
    pub(crate) fn release(&mut self) {
        if let Some(group) = self.cgroup.take() {
            group.remove();
        }
        self.uid = None;
    }
}

impl Drop for Prepared {
    fn drop(&mut self) {
        self.release();
    }
}

/// Prepares the layers of `plan` for a champion running `program` in `scratch` (which it
/// owns when its uid is switched).
pub(crate) fn prepare(
    plan: &SandboxPlan,
    program: &Path,
    scratch: &Path,
    memory: u64,
    processes: u64,
) -> Result<Prepared, String> {
    let Some(layers) = plan.layers.clone() else {
        return Ok(Prepared::none());
    };
    let jailed = plan.jail().is_some();
    let uid = match &layers.uids {
        Some(pool) => {
            let lease = pool.lease()?;
            if !jailed {
                lease.own(scratch)?;
            }
            Some(lease)
        }
        None => None,
    };
    let cgroup = match &layers.cgroup {
        Some(base) => Some(base.group(memory, processes)?),
        None => None,
    };
    let landlock = match layers.landlock_abi {
        Some(_) if !jailed => {
            // Its own folder and the operator's kits: never a `kit` folder beside its own,
            // which another contestant may control (a flat layout of logins).
            let mut read_exec = plan.read_exec.clone();
            read_exec.push(champion_area(program));
            read_exec.extend(
                crate::kits::installed()
                    .by_language
                    .iter()
                    .map(|(_, dir)| dir.clone()),
            );
            Some(landlock::ruleset(&read_exec, scratch)?)
        }
        _ => None,
    };
    let userns_maps = (!jailed && layers.net == netns::NetMode::UserNs).then(netns::Maps::current);
    Ok(Prepared {
        landlock,
        cgroup,
        uid,
        userns_maps,
        layers: Some(layers),
    })
}

/// What a champion may read and execute of its own: the directory of its program, or the
/// program alone when it is the referee itself (a built-in bot).
fn champion_area(program: &Path) -> PathBuf {
    let exe = std::env::current_exe().ok();
    if exe.as_deref() == Some(program)
        || exe
            .as_deref()
            .and_then(|e| e.canonicalize().ok())
            .zip(program.canonicalize().ok())
            .is_some_and(|(a, b)| a == b)
    {
        return program.to_path_buf();
    }
    program
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| program.to_path_buf())
}

/// The steps the child takes between fork and exec, as plain values.
#[derive(Clone, Copy)]
pub(crate) struct ChildSteps {
    cgroup_procs: Option<i32>,
    net: netns::NetMode,
    maps: Option<netns::Maps>,
    uid: Option<u32>,
    landlock: Option<i32>,
    /// Points into the `Layers` kept alive by the parent's `Prepared` (the child has a copy
    /// of the parent's memory).
    seccomp: Option<*const Filters>,
}

// SAFETY: the raw pointer is only dereferenced in the forked child, where the `Filters` it
// points to is part of the copied address space and never freed before exec.
unsafe impl Send for ChildSteps {}
// SAFETY: as for `Send`: nothing reads through the pointer but the forked child.
unsafe impl Sync for ChildSteps {}

impl ChildSteps {
    /// Before the credentials change (still root, or still the user outside any user
    /// namespace): joins the cgroup and enters the network namespace.
    pub(crate) fn isolate(&self) -> io::Result<()> {
        if let Some(fd) = self.cgroup_procs {
            cgroup::join(fd)?;
        }
        netns::enter(self.net, self.maps.as_ref())
    }

    /// Switches to the champion's uid (root only).
    pub(crate) fn switch_uid(&self) -> io::Result<()> {
        match self.uid {
            Some(uid) => uid::switch(uid),
            None => Ok(()),
        }
    }

    /// Last, right before exec: `no_new_privs` (which both need), Landlock, seccomp.
    pub(crate) fn confine(&self) -> io::Result<()> {
        // SAFETY: plain prctl.
        if unsafe { nix::libc::prctl(nix::libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        if let Some(fd) = self.landlock {
            landlock::restrict_self(fd)?;
        }
        if let Some(filters) = self.seccomp {
            // SAFETY: see the `Send` impl: the parent keeps the filters alive.
            unsafe { &*filters }.apply()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_line_says_off() {
        let report = probe(SandboxMode::Off);
        assert!(report.line().contains("off"));
        assert!(report.is_off());
        assert_eq!(report.missing().len(), 1);
        assert!(!report.plan().is_on());
    }

    fn report_with(jail: Layer, seccomp: Layer, cgroup: Layer) -> SandboxReport {
        let on = || Layer::On(String::new());
        SandboxReport {
            mode: SandboxMode::Auto,
            jail,
            netns: on(),
            landlock: Layer::Off("kernel without Landlock".into()),
            seccomp,
            cgroup,
            uid: on(),
            memory: "jail".into(),
            cpu: "proc".into(),
            freeze: "sigstop(no cgroup freezer)".into(),
            pids: on(),
            futex: "notify".into(),
            proc: "pid".into(),
            layers: None,
        }
    }

    #[test]
    fn require_asks_for_the_jail_and_seccomp_only() {
        let on = || Layer::On(String::new());
        let off = |why: &str| Layer::Off(why.into());
        let optional_off = report_with(on(), on(), off("not writable"));
        assert_eq!(optional_off.missing(), vec![]);
        let missing = report_with(off("no user namespaces"), on(), on()).missing();
        assert_eq!(missing.len(), 1);
        assert_eq!(
            (missing[0].layer, missing[0].why.as_str()),
            ("jail", "no user namespaces")
        );
        assert!(
            missing[0].fix.starts_with("run as root"),
            "{:?}",
            missing[0]
        );
        let missing = report_with(off("a"), off("b"), on()).missing();
        let names: Vec<_> = missing.iter().map(|m| (m.layer, m.why.as_str())).collect();
        assert_eq!(names, [("jail", "a"), ("seccomp", "b")]);
    }

    #[test]
    fn a_refused_listener_is_named_on_the_line() {
        let why = |errno| listener_refused(&io::Error::from_raw_os_error(errno));
        assert_eq!(
            why(nix::libc::EBUSY),
            "an outer seccomp filter holds the listener"
        );
        assert_eq!(why(nix::libc::EINVAL), "kernel without seccomp listeners");
        assert!(why(nix::libc::ENOMEM).starts_with("no seccomp listener: "));
        assert_eq!(
            futex_mode(None, true),
            (false, "off(no seccomp)".to_string())
        );
    }

    #[test]
    fn auto_line_names_every_layer() {
        let line = probe(SandboxMode::Auto).line();
        for name in [
            "jail=",
            "netns=",
            "landlock=",
            "seccomp=",
            "futex=",
            "cgroup=",
            "uid=",
            "memory=",
            "cpu=",
            "freeze=",
            "pids=",
        ] {
            assert!(line.contains(name), "{line}");
        }
    }
}
