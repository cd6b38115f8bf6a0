//! Champion processes: spawning an untrusted executable, talking to it in `\n`-terminated
//! ASCII lines with deadlines, measuring the CPU of its whole process tree, and containing
//! it so that nothing it started survives `finish` or `kill`.
//!
//! ```no_run
//! use std::time::{Duration, Instant};
//! use jail::champion::{Budget, Champion, LaunchSpec, Limits};
//!
//! let spec = LaunchSpec::new("./champion", "/tmp/scratch", "/tmp/scratch/stderr.txt");
//! let mut champion = Champion::spawn(&spec)?;
//! champion.send("play_turn", Instant::now() + Duration::from_secs(1))?;
//! let budget = Budget::start(&champion, Duration::from_secs(1), Duration::from_secs(3));
//! let request = champion.recv(&budget)?;
//! let report = champion.finish(Duration::from_millis(500));
//! # Ok::<(), jail::fault::Fault>(())
//! ```
//!
//! Containment, without privileges: own process group, `PR_SET_PDEATHSIG(SIGKILL)`, a
//! cleared environment carrying a unique token ([`TOKEN_VAR`]), rlimits ([`Limits`]), and
//! the referee as child subreaper so escaped descendants come back to it to be swept.
//! Known limits of this layer alone: champions run as the referee's user, so they can see
//! each other in `/proc`; a process that leaves the session, loses its parent *and* drops
//! the token from its environment cannot be attributed to a champion. The sandbox layers
//! (`crate::sandbox`: a uid per champion, seccomp denying `setsid`, cgroups) close both.
//! Other code in the referee must not spawn children that call `setsid`: the sweep reaps
//! zombie children of the referee that left its session, taking them for champion strays.

mod clock;
mod fate;
mod io;
mod jailed;
mod launch;
mod spawn;
mod stderr;
mod sweep;

use std::cell::{Cell, RefCell};
use std::fs;
use std::os::fd::OwnedFd;
use std::time::{Duration, Instant};

pub use crate::limits::Limits;
pub(crate) use fate::describe_status;
pub(crate) use jailed::{describe_start_error, start_build};
pub use launch::LaunchSpec;
pub use spawn::TOKEN_VAR;
pub use spawn::{passed_through, PASSED_THROUGH};
/// The line that ends a stderr file cut at its cap.
pub use stderr::{pending, TRUNCATED_MARKER};
pub use sweep::kill_every_champion;

use crate::fault::{Fault, FaultKind};
use crate::{Refused, Stopped};
use clock::{Ident, Roster, TreeUsage};
use io::{Channel, Line, Wake, WriteEnd};
use sweep::Reaped;

/// Longest and shortest pause between two CPU measurements while waiting for a line.
const SLICE_MAX: Duration = Duration::from_millis(50);
const SLICE_MIN: Duration = Duration::from_millis(5);
/// How long to wait for the main process to die after its stdout closed or stdin broke.
const DEATH_GRACE: Duration = Duration::from_millis(300);
/// How long to wait for the stderr pipe to be drained after a death, for diagnosis.
const STDERR_GRACE: Duration = Duration::from_millis(300);
/// How long a sweep keeps trying (processes in uninterruptible sleep die late).
const SWEEP_PATIENCE: Duration = Duration::from_secs(10);
/// How often the CPU budget is checked while a champion keeps sending lines (it is also
/// checked whenever a wait for a line times out): a champion over budget is stopped within
/// this much wall time, times the CPUs it keeps busy.
const CHECK_EVERY: Duration = Duration::from_millis(2);
/// CPU a frozen champion may be measured to use before it is thawed (measurement noise:
/// a frozen process runs nothing) without a fault.
const FROZEN_SLACK: Duration = Duration::from_millis(20);

/// A `Timeout` for work found between a freeze and a thaw; `what` says what was seen.
fn worked_while_frozen(what: &str) -> Fault {
    Fault::new(
        FaultKind::Timeout,
        format!(
            "{} ({what} after its callback ended: a process of it woken by a SIGCONT, or \
             work it left the kernel to do, such as filling a large mapping); a champion \
             runs only during its own callbacks",
            crate::fault::WORKED_WHILE_FROZEN
        ),
    )
}

/// What a census difference shows, in words: `used 35 ms of CPU, 2 of its processes ended`.
fn describe_change(change: &crate::Change) -> String {
    let mut what = Vec::new();
    if change.cpu > Duration::ZERO {
        what.push(format!("used {} ms of CPU", change.cpu.as_millis()));
    }
    if change.ended > 0 {
        what.push(format!("{} of its processes ended", change.ended));
    }
    if change.appeared > 0 {
        what.push(format!("{} processes appeared", change.appeared));
    }
    what.join(", ")
}

/// A per-callback allowance: CPU time of the whole process tree, and wall time.
#[derive(Clone, Debug)]
pub struct Budget {
    cpu: Duration,
    wall: Duration,
    cpu_start: Duration,
    wall_start: Instant,
}

impl Budget {
    /// Starts a budget now: measures the tree's CPU so far (a walk of the tree in `/proc`, tens of µs).
    pub fn start(champion: &Champion, cpu: Duration, wall: Duration) -> Budget {
        Budget {
            cpu,
            wall,
            cpu_start: champion.budget_base(),
            wall_start: Instant::now(),
        }
    }

    /// CPU used by the champion's tree since the budget started (a walk of the tree in `/proc`).
    pub fn cpu_used(&self, champion: &Champion) -> Duration {
        champion.cpu_time().saturating_sub(self.cpu_start)
    }

    /// CPU charged to the budget as of the champion's last measurement (no new one: after
    /// [`Champion::pause`], which measures).
    pub fn cpu_measured(&self, champion: &Champion) -> Duration {
        champion.meter.get().cpu.saturating_sub(self.cpu_start)
    }

    /// The CPU allowance.
    pub fn cpu_allowance(&self) -> Duration {
        self.cpu
    }

    /// Wall time since the budget started.
    pub fn wall_used(&self) -> Duration {
        self.wall_start.elapsed()
    }

    /// When the wall allowance runs out.
    pub fn wall_deadline(&self) -> Instant {
        self.wall_start + self.wall
    }
}

/// How a champion ended, from [`Champion::finish`] or [`Champion::kill`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitReport {
    /// `"exit 0"`, `"signal 9 (SIGKILL)"`; `None` if the main process could not be reaped.
    pub status: Option<String>,
    /// Largest memory (data segment or resident set) seen in one process of the tree.
    pub peak_memory: Option<u64>,
    /// CPU (user + system) of the whole tree over its life.
    pub cpu_time: Duration,
    /// What the end reveals: a crash or memory fault, or a timeout when it did not exit
    /// within the grace period of `finish`. `None` for a clean exit and after `kill`.
    pub fault: Option<Fault>,
}

/// Peaks and accumulated CPU, updated at each measurement.
#[derive(Clone, Copy, Debug, Default)]
struct Meter {
    /// Highest tree CPU seen (the sum can drop when a member is reaped outside the tree).
    cpu: Duration,
    /// CPU of processes we reaped (main and strays).
    reaped_cpu: Duration,
    peak_data: u64,
    peak_rss: u64,
    peak_vsize: u64,
}

/// A running champion process and everything it started.
///
/// Dropping a `Champion` kills it like [`Champion::kill`].
pub struct Champion {
    pid: i32,
    limits: Limits,
    ident: Ident,
    io: Channel,
    stderr: stderr::Drain,
    meter: Cell<Meter>,
    roster: RefCell<Roster>,
    /// The main process's fate once reaped.
    reaped: Option<Reaped>,
    /// The fault that ended the conversation, repeated by later calls.
    fatal: Option<Fault>,
    /// Whether a call (`send`, `recv`) returned `fatal`: one found while it was frozen
    /// waits for its next callback, or for [`Champion::last_check`] after its last.
    told: bool,
    swept: bool,
    /// The sandbox layers held for this champion (cgroup, uid lease) until it is swept.
    sandbox: crate::sandbox::Prepared,
    /// The champion's jail, when the jail layer is on (then `ident` and `roster` are unused:
    /// the jail holds every process of the champion).
    jail: Option<crate::Jail>,
    /// When the CPU budget was last checked.
    last_check: Cell<Instant>,
    /// A jailed champion's CPU when it was last frozen (`None` while it runs): what its
    /// next callback counts from, and what it may not exceed when thawed.
    frozen_at: Cell<Option<Duration>>,
    /// The CPU it was frozen at when last thawed: what the running callback counts from.
    thawed_from: Cell<Option<Duration>>,
    /// A jailed champion stopped with `SIGSTOP` (no cgroup freezer): its processes when it
    /// was last frozen, compared with what they are before it is thawed.
    frozen_census: RefCell<Option<crate::Census>>,
    /// The referee's resident set when it forked this champion (without a jail): what the
    /// champion's `ru_maxrss` may count without having used it.
    inherited: u64,
}

impl Champion {
    /// Starts the champion described by `spec`. A `Spawn` fault names the file and the fix
    /// (missing file, `chmod +x`, bad `#!` line, ...).
    pub fn spawn(spec: &LaunchSpec) -> Result<Champion, Fault> {
        let stderr_file = fs::File::create(&spec.stderr_path).map_err(|e| {
            spawn::spawn_fault(format!(
                "cannot create the stderr file `{}`: {e}",
                spec.stderr_path.display()
            ))
        })?;
        Champion::spawn_into(spec, stderr_file)
    }

    /// [`Champion::spawn`] with its stderr into `stderr_file`, opened by the caller (a
    /// match's `seat<N>.stderr`, created beneath its folder through no link).
    pub fn spawn_into(spec: &LaunchSpec, stderr_file: fs::File) -> Result<Champion, Fault> {
        if sweep::is_shutting_down() {
            return Err(spawn::spawn_fault(
                "the referee is shutting down".to_string(),
            ));
        }
        let program = spawn::check_program(&spec.program)?;
        // A jailed champion's scratch is a tmpfs inside its jail: nothing on the host.
        if spec.limits.sandbox.jail().is_none() {
            fs::create_dir_all(&spec.scratch_dir).map_err(|e| {
                spawn::spawn_fault(format!(
                    "cannot create the scratch directory `{}`: {e}",
                    spec.scratch_dir.display()
                ))
            })?;
        }
        let scratch = std::path::absolute(&spec.scratch_dir).unwrap_or(spec.scratch_dir.clone());
        let spec = LaunchSpec {
            scratch_dir: scratch,
            ..spec.clone()
        };
        let sandbox = crate::sandbox::prepare(
            &spec.limits.sandbox,
            &program,
            &spec.scratch_dir,
            spec.limits.memory,
            spec.limits.processes,
        )
        .map_err(spawn::spawn_fault)?;
        if let Some(setup) = spec.limits.sandbox.jail() {
            return Champion::start_jailed(&spec, &program, setup, sandbox, stderr_file);
        }
        let inherited = referee_rss();
        let token = spawn::new_token();
        let mut child = spawn::fork_exec(&spec, program.clone(), &token, &sandbox)?;
        let pid = child.id() as i32;
        clock::live_mains().insert(pid);
        let ident = Ident {
            main: pid,
            main_reaped: false,
            token_entry: format!("{}={token}", spawn::TOKEN_VAR).into_bytes(),
        };
        let stdin: OwnedFd = child.stdin.take().expect("piped stdin").into();
        let stdout: OwnedFd = child.stdout.take().expect("piped stdout").into();
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        drop(child); // does not wait nor kill; the pid is ours to reap
        let setup = Channel::new(stdin, stdout, pid).and_then(|io| {
            let drain = stderr::Drain::start(stderr_pipe, stderr_file, spec.stderr_cap)?;
            Ok((io, drain))
        });
        let (io, stderr) = match setup {
            Ok(parts) => parts,
            Err(e) => {
                let mut ident = ident;
                let mut reaped = None;
                sandbox.kill_all();
                sweep::sweep(&mut ident, &mut reaped, SWEEP_PATIENCE);
                return Err(spawn::spawn_fault(format!(
                    "cannot set up the pipes of `{}`: {e}",
                    program.display()
                )));
            }
        };
        let mut champion = Champion::started(pid, &spec, ident, io, stderr, sandbox, None);
        champion.inherited = inherited;
        Ok(champion)
    }

    /// A champion just started, its main process `pid` (or its jail's init).
    fn started(
        pid: i32,
        spec: &LaunchSpec,
        ident: Ident,
        io: Channel,
        stderr: stderr::Drain,
        sandbox: crate::sandbox::Prepared,
        jail: Option<crate::Jail>,
    ) -> Champion {
        Champion {
            pid,
            limits: spec.limits.clone(),
            ident,
            io,
            stderr,
            meter: Cell::new(Meter::default()),
            roster: RefCell::new(Roster::default()),
            reaped: None,
            fatal: None,
            told: false,
            swept: false,
            sandbox,
            jail,
            last_check: Cell::new(Instant::now()),
            frozen_at: Cell::new(None),
            thawed_from: Cell::new(None),
            frozen_census: RefCell::new(None),
            inherited: 0,
        }
    }

    fn start_jailed(
        spec: &LaunchSpec,
        program: &std::path::Path,
        setup: crate::sandbox::JailSetup,
        sandbox: crate::sandbox::Prepared,
        stderr_file: fs::File,
    ) -> Result<Champion, Fault> {
        // With a cgroup freezer, the referee freezes the champion itself once it started;
        // otherwise its init stops it with SIGSTOP before reporting the start.
        let cgroup_freezer = spec.start_frozen && sandbox.has_freezer();
        let (jail, ends) = jailed::start(spec, program, setup, &sandbox, !cgroup_freezer)?;
        let watch = jail
            .exit_watch()
            .map_err(|e| spawn::spawn_fault(format!("cannot watch the jail: {e}")))?;
        let io = Channel::with_watch(ends.stdin, ends.stdout, Some(watch))
            .map_err(|e| spawn::spawn_fault(format!("cannot set up the pipes: {e}")))?;
        let stderr = stderr::Drain::start(ends.stderr, stderr_file, spec.stderr_cap)
            .map_err(|e| spawn::spawn_fault(format!("cannot read the champion's stderr: {e}")))?;
        // The jail holds every process of the champion: no token, no sweep by ident.
        let ident = Ident {
            main: jail.pid(),
            main_reaped: true,
            token_entry: Vec::new(),
        };
        let champion = Champion::started(jail.pid(), spec, ident, io, stderr, sandbox, Some(jail));
        if spec.start_frozen {
            if cgroup_freezer {
                champion.sandbox.freeze(true);
            }
            champion
                .frozen_at
                .set(Some(champion.measure(false, true).cpu));
            champion.take_census();
        }
        Ok(champion)
    }

    /// At the end of a callback: freezes every process of a jailed champion until
    /// [`Champion::resume`] (with its cgroup's freezer when it has one, otherwise with
    /// `SIGSTOP` from its init), then measures what it used so far. A jailed champion that
    /// holds more memory than its limit gets a `Memory` fault, and one that woke itself while
    /// being stopped (its own `SIGCONT`) a `Timeout`, for its next callback; either is
    /// killed at once. (Without a jail, nothing is frozen.)
    pub fn pause(&mut self) {
        let mut stopped = Stopped::Yes;
        if let Some(jail) = &mut self.jail {
            if !self.sandbox.freeze(true) {
                stopped = jail.stop();
            }
        }
        if stopped == Stopped::Woke && self.fatal.is_none() {
            self.kill_jail();
            self.fatal = Some(worked_while_frozen(
                "one of its processes ran again while the referee was stopping them",
            ));
            return;
        }
        let meter = self.measure(false, true);
        // A walk that could not read a process's files could not freeze or count it: the
        // match fails closed (`blind`), so its champion plays no further.
        if crate::blind::is_blind() && self.fatal.is_none() {
            self.kill_jail();
            self.fatal = Some(Fault::new(
                FaultKind::Crash,
                "the referee could not watch its processes (this match counts nothing)",
            ));
            return;
        }
        if self.jail.is_some() && self.fatal.is_none() {
            self.frozen_at.set(Some(meter.cpu));
            self.take_census();
            if let Some(fault) = self.memory_fault(meter.peak_rss) {
                self.kill_jail();
                self.fatal = Some(fault);
            }
        }
    }

    /// Keeps the census of the measurement just made, for the thaw's check, where the
    /// champion is stopped with `SIGSTOP` (the cgroup freezer needs none: no signal undoes
    /// it, and its CPU count holds every process).
    fn take_census(&self) {
        if let (Some(jail), false) = (&self.jail, self.sandbox.has_freezer()) {
            *self.frozen_census.borrow_mut() = Some(jail.census());
        }
    }

    /// Thaws a jailed champion (at the start of its callbacks), after checking that nothing
    /// of it ran while it was frozen: its CPU, and where it was stopped with `SIGSTOP`, each
    /// of its processes (one that used CPU, ended or appeared meanwhile: a worker that ran
    /// and was reaped at once by the kernel leaves no CPU to measure, but is gone) and the
    /// pids its jail handed out. A process woken by a `SIGCONT` (its own timer can send one)
    /// gets the champion a `Timeout` fault, and is killed with the rest of the jail before
    /// it runs again.
    pub fn resume(&mut self) {
        self.check_frozen();
        if self.fatal.is_none() {
            if let Some(jail) = &mut self.jail {
                if !self.sandbox.freeze(false) {
                    if let Err(refused) = jail.cont() {
                        self.kill_jail();
                        self.fatal = Some(worked_while_frozen(&match refused {
                            Refused::Woke => "one of its processes was continued".to_string(),
                            Refused::Started(n) => format!("started {n} processes or threads"),
                        }));
                    }
                }
            }
        }
        if let Some(base) = self.frozen_at.take() {
            self.thawed_from.set(Some(base));
        }
        self.last_check.set(Instant::now());
    }

    /// After its last callback, before the match's result is fixed: the check that
    /// [`Champion::resume`] makes before every thaw, made once more (a worker woken while
    /// the others played their last callbacks, or while the referee computes the result,
    /// would otherwise escape it). Its fault (a `Timeout` that says it worked while frozen
    /// after its last callback, or a `Memory` fault), its jail then killed; or a fault found
    /// when it was last frozen that no call returned yet. `None` when nothing ran. It
    /// stays frozen: [`Champion::finish`] or [`Champion::kill`] follows.
    pub fn last_check(&mut self) -> Option<Fault> {
        self.check_frozen();
        if self.told {
            return None;
        }
        let mut fault = self.fatal.clone()?;
        if let Some(rest) = fault
            .message
            .strip_prefix(crate::fault::WORKED_WHILE_FROZEN)
        {
            fault.message = format!("{}{rest}", crate::fault::WORKED_AFTER_LAST);
        }
        Some(fault)
    }

    /// The check before a thaw ([`Champion::resume`]): a fault in `fatal`, the jail killed,
    /// when something of it ran since it was frozen or it holds more memory than its limit.
    fn check_frozen(&mut self) {
        if let Some(base) = self.frozen_at.get() {
            let meter = self.thaw_measure();
            let mut change = crate::Change {
                cpu: meter.cpu.saturating_sub(base),
                ..Default::default()
            };
            if let (Some(jail), Some(before)) = (&self.jail, self.frozen_census.take()) {
                let seen = jail.changed_since(&before);
                change.ended = seen.ended;
                change.appeared = seen.appeared;
                change.cpu = change.cpu.max(seen.cpu);
            }
            if change.is_work(FROZEN_SLACK) && self.fatal.is_none() {
                let fault = worked_while_frozen(&describe_change(&change));
                self.kill_jail();
                self.fatal = Some(fault);
            } else if let Some(fault) = self.memory_fault(meter.peak_rss) {
                self.kill_jail();
                self.fatal.get_or_insert(fault);
            }
        }
    }

    /// A `Memory` fault if the jailed champion's processes hold more than its limit.
    fn memory_fault(&self, held: u64) -> Option<Fault> {
        (self.jail.is_some() && held > self.limits.memory).then(|| {
            Fault::new(
                FaultKind::Memory,
                format!(
                    "{}{} of memory together; the limit is {}",
                    crate::fault::HELD_TOO_MUCH,
                    fate::mib(held),
                    fate::mib(self.limits.memory)
                ),
            )
        })
    }

    fn kill_jail(&mut self) {
        if let Some(jail) = &mut self.jail {
            jail.kill();
        }
    }

    /// The CPU a new budget counts from: for a jailed champion, what was measured when it
    /// was last frozen (so that every CPU second of its processes is charged to one of its
    /// callbacks); otherwise a fresh measurement.
    fn budget_base(&self) -> Duration {
        if self.jail.is_some() {
            let frozen = self.frozen_at.get().or(self.thawed_from.get());
            frozen.unwrap_or_else(|| self.meter.get().cpu)
        } else {
            self.cpu_time()
        }
    }

    /// The main process's id (also its process group id).
    pub fn pid(&self) -> u32 {
        self.pid as u32
    }

    /// Writes `line` and a `\n`, never blocking past `deadline` (the write is non-blocking
    /// and polled; output the champion writes meanwhile is buffered). A champion that does
    /// not read in time gets a `Timeout`; one whose stdin is closed gets its real fate
    /// (`Crash`/`Memory` if it died, `Protocol` if it closed stdin and lives on).
    pub fn send(&mut self, line: &str, deadline: Instant) -> Result<(), Fault> {
        debug_assert!(!line.contains('\n'), "a line to send contains a newline");
        if let Some(fault) = &self.fatal {
            self.told = true;
            return Err(fault.clone());
        }
        let result = match self.io.write_line(line, deadline) {
            Ok(WriteEnd::Done) => return Ok(()),
            Ok(WriteEnd::Deadline { written, total }) => Fault::new(
                FaultKind::Timeout,
                format!(
                    "did not read its input: only {written} of the {total} bytes of the line \
                     {} were written before the deadline; expected it to read each line the \
                     referee sends",
                    io::quote_start(line.as_bytes())
                ),
            ),
            Ok(WriteEnd::Exited) => self.death_fault("while the referee was writing to it"),
            Ok(WriteEnd::Closed) => {
                if self.wait_death(DEATH_GRACE) {
                    self.death_fault("while the referee was writing to it")
                } else {
                    Fault::new(
                        FaultKind::Protocol,
                        "closed its standard input while still running; expected it to keep \
                         reading lines until the end of the match",
                    )
                }
            }
            Err(e) => Fault::new(
                FaultKind::Crash,
                format!("writing to its standard input failed: {e}"),
            ),
        };
        self.fatal = Some(result.clone());
        self.told = true;
        Err(result)
    }

    /// Reads the next line (without its `\n`).
    ///
    /// Faults: `Timeout` when the tree's CPU since `budget` started, or the wall time,
    /// exceeds the budget; `Protocol` for a line longer than `max_line` or not ASCII;
    /// `Crash`/`Memory` when the main process dies or stdout closes. A fault is final: later
    /// calls return it again.
    pub fn recv(&mut self, budget: &Budget) -> Result<String, Fault> {
        let deadline = budget.wall_deadline();
        loop {
            if let Some(fault) = &self.fatal {
                self.told = true;
                return Err(fault.clone());
            }
            match self.io.take_line(self.limits.max_line) {
                Line::Complete(line) => {
                    if self.last_check.get().elapsed() >= CHECK_EVERY {
                        if let Some(fault) = self.check_budget(budget) {
                            return Err(self.fail(fault));
                        }
                    }
                    return Ok(line);
                }
                Line::Partial => {}
                Line::TooLong { start, len } => {
                    return Err(self.fail(Fault::new(
                        FaultKind::Protocol,
                        format!(
                            "wrote a line of {len}{} bytes starting with {start}; expected \
                             lines of at most {} bytes",
                            if self.io.is_eof() { "" } else { "+" },
                            self.limits.max_line
                        ),
                    )))
                }
                Line::NotAscii { start, offset } => {
                    return Err(self.fail(Fault::new(
                        FaultKind::Protocol,
                        format!(
                            "wrote a non-ASCII byte at offset {offset} of the line {start}; \
                             expected ASCII lines"
                        ),
                    )))
                }
            }
            if self.io.is_eof() {
                let fault = if self.wait_death(DEATH_GRACE.min(remaining(deadline))) {
                    self.death_fault("while the referee waited for a line")
                } else {
                    // protocol.md section 5: closing stdout before the end is a crash. Its
                    // stderr says why, as for a death: a runtime slow to exit after its
                    // error (a JVM, Node, a launcher around the interpreter, on a loaded
                    // machine) outlives the grace, and its error is still the news.
                    self.stderr.wait_eof(STDERR_GRACE);
                    Fault::new(
                        FaultKind::Crash,
                        format!(
                            "closed its standard output while still running; expected it to \
                             answer until the end of the match{}",
                            fate::what_it_said(&self.stderr.tail())
                        ),
                    )
                };
                return Err(self.fail(fault));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(self.fail(self.wall_timeout(budget)));
            }
            let slice = self.slice(budget).min(deadline - now);
            let wake = match self.io.wait_readable(slice) {
                Ok(wake) => wake,
                Err(e) => {
                    return Err(self.fail(Fault::new(
                        FaultKind::Crash,
                        format!("reading its standard output failed: {e}"),
                    )))
                }
            };
            match wake {
                Wake::Data | Wake::Eof => {}
                Wake::Exited => {
                    // It may have written its last lines before dying: take them first.
                    let _ = self.io.read_available();
                    if let Line::Complete(line) = self.io.take_line(self.limits.max_line) {
                        return Ok(line);
                    }
                    let fault = self.death_fault("while the referee waited for a line");
                    return Err(self.fail(fault));
                }
                Wake::Timeout => {
                    if let Some(fault) = self.check_slice(budget) {
                        return Err(self.fail(fault));
                    }
                }
            }
        }
    }

    /// Whether the champion wrote output that was not asked for (non-blocking): bytes
    /// buffered or readable now.
    pub fn has_pending_output(&mut self) -> bool {
        if self.io.has_buffered() {
            return true;
        }
        matches!(self.io.read_available(), Ok(n) if n > 0)
    }

    /// Bytes the champion has written to its stderr so far (kept in its file or dropped
    /// past the cap), those still in the pipe included. Never waits on the champion.
    pub fn stderr_written(&self) -> u64 {
        self.stderr.written()
    }

    /// CPU (user + system) of the whole process tree so far, including reaped children.
    /// Walks the tree in `/proc` from the main process (a few file reads per process).
    pub fn cpu_time(&self) -> Duration {
        self.measure(false, false).cpu
    }

    /// Closes stdin, waits up to `grace` for the main process to exit, then kills and
    /// reaps everything that is left.
    pub fn finish(mut self, grace: Duration) -> ExitReport {
        self.resume();
        self.io.close_stdin();
        let exited = self.wait_death(grace);
        self.measure(false, true);
        let mut report = self.sweep_all();
        if exited {
            if let Some(r) = self.reaped {
                if !fate::is_clean(r.status) {
                    report.fault = Some(self.classify(r.status, "after its input was closed"));
                }
            }
        } else {
            report.fault = Some(Fault::new(
                FaultKind::Timeout,
                format!(
                    "did not exit within {} ms after its input was closed; it was killed",
                    grace.as_millis()
                ),
            ));
        }
        report
    }

    /// Stops the champion now and leaves nothing behind.
    pub fn kill(mut self) -> ExitReport {
        self.measure(false, true);
        self.sweep_all()
    }

    /// The token in the environment of every process of this champion.
    pub fn token(&self) -> &str {
        if self.jail.is_some() {
            return "";
        }
        let entry = &self.ident.token_entry[TOKEN_VAR.len() + 1..];
        std::str::from_utf8(entry).unwrap_or("")
    }

    // ---- internals ----

    fn fail(&mut self, fault: Fault) -> Fault {
        self.fatal = Some(fault.clone());
        self.told = true;
        fault
    }

    /// Next pause between CPU checks: long while much CPU budget is left, short near the
    /// end (the tree can burn up to one CPU per core per second).
    fn slice(&self, budget: &Budget) -> Duration {
        let meter = self.meter.get();
        let used = meter.cpu.saturating_sub(budget.cpu_start);
        let left = budget.cpu.saturating_sub(used);
        // available_parallelism reads cgroup files (tens of µs): once per process.
        static CORES: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
        let cores = *CORES
            .get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()) as u32);
        (left / cores).clamp(SLICE_MIN, SLICE_MAX)
    }

    /// At an expired poll slice: CPU budget, memory sample, main process still alive.
    fn check_slice(&mut self, budget: &Budget) -> Option<Fault> {
        if let Some(fault) = self.check_budget(budget) {
            return Some(fault);
        }
        if self.io.has_exited().is_none() && sweep::has_exited(self.pid) {
            let _ = self.io.read_available();
            if !self.io.has_buffered() {
                return Some(self.death_fault("while the referee waited for a line"));
            }
        }
        None
    }

    /// Measures CPU and memory now: a `Timeout` over the CPU budget, a `Memory` fault (the
    /// jail killed) when a jailed champion's processes together hold more than its limit.
    fn check_budget(&mut self, budget: &Budget) -> Option<Fault> {
        self.last_check.set(Instant::now());
        let full = self.jail.is_none() && self.roster.borrow().is_stale(clock::FULL_SCAN_EVERY);
        let usage = self.measure(full, true);
        let used = usage.cpu.saturating_sub(budget.cpu_start);
        if used > budget.cpu {
            return Some(Fault::new(
                FaultKind::Timeout,
                format!(
                    "used {} ms of CPU (all its processes) without finishing; the budget is {} ms",
                    used.as_millis(),
                    budget.cpu.as_millis()
                ),
            ));
        }
        if let Some(fault) = self.memory_fault(usage.peak_rss) {
            self.kill_jail();
            return Some(fault);
        }
        None
    }

    fn wall_timeout(&self, budget: &Budget) -> Fault {
        let cpu = budget.cpu_used(self);
        let mut message = format!(
            "no complete line after {} ms of wall time (CPU used {} ms); the wall budget is {} ms",
            budget.wall_used().as_millis(),
            cpu.as_millis(),
            budget.wall.as_millis()
        );
        if self.io.has_buffered() {
            message.push_str(
                "; it wrote the start of a line without its end of line: end every line with \
                 `\\n` (protocol.md section 1)",
            );
        } else if cpu * 10 < budget.cpu {
            // Waiting, not computing: most often a line still sitting in its output buffer.
            message.push_str(
                "; it used almost no CPU, so it was waiting: did you flush stdout after each \
                 line? (e.g. `print(..., flush=True)`, `fflush(stdout)`, `std::endl`; \
                 protocol.md section 1)",
            );
        }
        Fault::new(FaultKind::Timeout, message)
    }

    /// Measures the tree (`full`: scanning all of `/proc`; `memory`: sampling memory too)
    /// and updates the peaks.
    fn measure(&self, full: bool, memory: bool) -> Meter {
        let mut meter = self.meter.get();
        if let Some(jail) = &self.jail {
            let usage = jail.usage();
            // The cgroup counts every process that ever ran in the jail, also those the
            // kernel reaped at once (SIGCHLD ignored), which no walk of /proc sees.
            let cpu = usage.cpu.max(self.sandbox.cgroup_cpu().unwrap_or_default());
            meter.cpu = meter.cpu.max(cpu);
            if memory {
                meter.peak_rss = meter.peak_rss.max(usage.memory);
            }
            self.meter.set(meter);
            return meter;
        }
        if !self.swept {
            let mut roster = self.roster.borrow_mut();
            let usage: TreeUsage = clock::measure(&self.ident, &mut roster, full, memory);
            meter.cpu = meter.cpu.max(usage.cpu + meter.reaped_cpu);
            meter.peak_data = meter.peak_data.max(usage.peak_data);
            meter.peak_rss = meter.peak_rss.max(usage.peak_rss);
            meter.peak_vsize = meter.peak_vsize.max(usage.peak_vsize);
            self.meter.set(meter);
        }
        meter
    }

    /// What the thaw's check measures: where the cgroup's freezer holds every process of
    /// the jail and its cgroup counts their CPU, that count alone (one read: nothing of the
    /// jail ran since the pause walked its processes, and a process that did would be in
    /// the count); otherwise the whole walk of [`Champion::measure`].
    fn thaw_measure(&self) -> Meter {
        let cgroup = match (&self.jail, self.sandbox.has_freezer()) {
            (Some(_), true) => self.sandbox.cgroup_cpu(),
            _ => None,
        };
        let Some(cpu) = cgroup else {
            return self.measure(false, true);
        };
        let mut meter = self.meter.get();
        meter.cpu = meter.cpu.max(cpu);
        self.meter.set(meter);
        meter
    }

    /// Waits up to `timeout` for the main process to exit (without reaping it).
    fn wait_death(&mut self, timeout: Duration) -> bool {
        if self.reaped.is_some() {
            return true;
        }
        if let Some(jail) = &mut self.jail {
            return jail.main_status(timeout).is_some();
        }
        if let Some(done) = self.io.wait_exit(timeout) {
            return done;
        }
        let deadline = Instant::now() + timeout;
        loop {
            if sweep::has_exited(self.pid) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The fault of a main process that has exited: reaps it (its fate is then known, and
    /// its group is swept later by token) and classifies the death.
    fn death_fault(&mut self, context: &str) -> Fault {
        // Sample memory of the tree one last time while the zombie still holds the group.
        self.measure(false, true);
        if self.reaped.is_none() {
            let reaped = match &mut self.jail {
                Some(jail) => jail.main_status(DEATH_GRACE).map(|status| Reaped {
                    status,
                    cpu: Duration::ZERO,
                    max_rss: jail.main_max_rss(),
                }),
                None => sweep::reap(self.pid, false),
            };
            if let Some(r) = reaped {
                self.record_main(r);
            }
        }
        match self.reaped {
            Some(r) => {
                self.stderr.wait_eof(STDERR_GRACE);
                self.classify(r.status, context)
            }
            None => Fault::new(FaultKind::Crash, format!("died {context}")),
        }
    }

    fn record_main(&mut self, r: Reaped) {
        self.reaped = Some(r);
        self.ident.main_reaped = true;
        let mut meter = self.meter.get();
        meter.reaped_cpu += r.cpu;
        meter.cpu = meter.cpu.max(meter.reaped_cpu);
        // Without a jail the champion was forked from the referee: its `ru_maxrss` counts
        // the referee's pages it inherited (item 14 of the jail issue), so it is evidence
        // only beyond the referee's size at that fork.
        if r.max_rss > self.inherited + (16 << 20) {
            meter.peak_rss = meter.peak_rss.max(r.max_rss);
        }
        self.meter.set(meter);
        clock::live_mains().remove(&self.pid);
    }

    fn classify(&self, status: i32, context: &str) -> Fault {
        if let Some(signal) = fate::term_signal(status) {
            crate::signals::note_death(signal);
        }
        let meter = self.meter.get();
        let tail = self.stderr.tail();
        fate::classify(
            &fate::Evidence {
                status,
                peak_data: meter.peak_data,
                peak_rss: meter.peak_rss,
                peak_vsize: meter.peak_vsize,
                stderr_tail: &tail,
                limits: &self.limits,
                oom_killed: self.sandbox.oom_killed(),
                cpu: meter.cpu,
            },
            context,
        )
    }

    /// Kills and reaps everything, and builds the report (with the peaks of the last
    /// measurement, kept in `meter`).
    fn sweep_all(&mut self) -> ExitReport {
        if !self.swept {
            self.io.close_stdin();
            let mut main = None;
            self.sandbox.kill_all();
            let collected = match &mut self.jail {
                Some(jail) => {
                    if self.reaped.is_none() {
                        main = jail.main_status(Duration::ZERO).map(|status| Reaped {
                            status,
                            cpu: Duration::ZERO,
                            max_rss: jail.main_max_rss(),
                        });
                    }
                    jail.kill();
                    sweep::Collected::default()
                }
                None => sweep::sweep(&mut self.ident, &mut main, SWEEP_PATIENCE),
            };
            self.sandbox.release();
            if let Some(r) = main {
                self.record_main(r);
            }
            let mut meter = self.meter.get();
            meter.reaped_cpu += collected.cpu;
            meter.cpu = meter.cpu.max(meter.reaped_cpu);
            self.meter.set(meter);
            self.swept = true;
            clock::live_mains().remove(&self.pid);
            self.stderr.wait_eof(STDERR_GRACE);
        }
        let meter = self.meter.get();
        let peak = meter.peak_data.max(meter.peak_rss);
        ExitReport {
            status: self.reaped.map(|r| fate::describe_status(r.status)),
            peak_memory: (peak > 0).then_some(peak),
            cpu_time: meter.cpu,
            fault: None,
        }
    }
}

impl Drop for Champion {
    fn drop(&mut self) {
        if !self.swept {
            self.sweep_all();
        }
    }
}

/// The referee's resident set now, in bytes.
fn referee_rss() -> u64 {
    let statm = fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_ascii_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * clock::self_info().page_size
}

fn remaining(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}
