//! A champion's folder built with `make` inside a jail (`referee build`): a contestant's
//! Makefile is code too. The jail is a champion's (`jail`: no network, the system
//! directories and the operator's kits read-only at `/kits`, a private `/tmp`, seccomp and
//! Landlock), with its own folder writable for the build's outputs, and bounds on CPU, wall
//! clock and memory. As root the build runs under a champion uid, to which the folder is
//! handed for the build and then given back (`handover`).

mod handover;
mod record;
mod walk;

use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::champion::Limits;
use crate::sandbox::SandboxPlan;

/// The output kept for the message of a failed build: its last bytes.
const OUTPUT_KEPT: usize = 64 << 10;
/// How often the CPU and memory of the build are measured.
const MEASURE_EVERY: Duration = Duration::from_millis(100);
/// The files `make` reads, in its order.
const MAKEFILES: &[&str] = &["GNUmakefile", "makefile", "Makefile"];
/// Where `make` is looked for on the host (the same directories inside the jail).
const MAKE_AT: &[&str] = &["/usr/local/bin/make", "/usr/bin/make", "/bin/make"];

/// What to build, with its bounds.
#[derive(Clone, Debug)]
pub struct BuildSpec {
    /// The champion's folder, with its Makefile.
    pub dir: PathBuf,
    /// CPU of every process of the build together.
    pub cpu: Duration,
    /// Wall-clock time.
    pub wall: Duration,
    /// Bytes of memory: the build's cgroup's `memory.max` where it has one, else the sum
    /// of the resident memory of its processes, measured, and `RLIMIT_DATA` of each.
    pub memory: u64,
    /// Bytes of its private `/tmp`.
    pub disk: u64,
    /// Processes and threads at once.
    pub processes: u64,
}

/// What a build that succeeded wrote (its last `OUTPUT_KEPT` bytes).
#[derive(Clone, Debug)]
pub struct Built {
    pub output: Vec<u8>,
    pub cpu: Duration,
    pub wall: Duration,
}

/// Why a build did not succeed.
#[derive(Debug)]
pub enum BuildError {
    /// Nothing to build: the folder or its Makefile is missing.
    Input(String),
    /// The jail cannot be built here, or the folder cannot be handed to it.
    Unavailable(String),
    /// The build ran and failed (`make` failed, or a bound was hit): why, and its output.
    Failed { why: String, output: Vec<u8> },
}

/// Builds `spec.dir` with `make` in a jail of `plan` (whose jail layer must be on);
/// `note` is told what the operator should know beside the build's outcome.
pub fn build(
    spec: &BuildSpec,
    plan: &SandboxPlan,
    note: &mut dyn FnMut(&str),
) -> Result<Built, BuildError> {
    let dir = spec.dir.canonicalize().map_err(|e| {
        BuildError::Input(format!(
            "cannot open the folder {}: {e}",
            spec.dir.display()
        ))
    })?;
    if !dir.is_dir() {
        return Err(BuildError::Input(format!(
            "{} is not a folder: give the champion's folder, the one holding its Makefile",
            dir.display()
        )));
    }
    let Some(makefile) = MAKEFILES.iter().map(|m| dir.join(m)).find(|m| m.is_file()) else {
        return Err(BuildError::Input(format!(
            "{} has no Makefile: nothing to build (a champion in a language without a build \
             step needs none)",
            dir.display()
        )));
    };
    let Some(setup) = plan.jail() else {
        return Err(BuildError::Unavailable(format!(
            "a build runs in a jail, and none can be built here ({})",
            plan.line()
        )));
    };
    let Some(make) = MAKE_AT.iter().map(Path::new).find(|m| m.is_file()) else {
        return Err(BuildError::Unavailable(format!(
            "`make` is not installed (looked for {})",
            MAKE_AT.join(", ")
        )));
    };
    // The folder, opened once: the hand-over, the build and the hand-back act on it, not on
    // its path, which its contestant may swap meanwhile.
    let folder = walk::Folder::open(&dir).map_err(BuildError::Unavailable)?;
    // One build of a folder at a time: two would hand it to two uids at once.
    let _lock = lock(&folder, &dir)?;
    let limits = limits(spec, plan);
    let sandbox = crate::sandbox::prepare(plan, &makefile, &dir, limits.memory, limits.processes)
        .map_err(BuildError::Unavailable)?;
    let handed = match sandbox.uid() {
        Some(uid) => {
            let state = record::state_dir().map_err(BuildError::Unavailable)?;
            if let Some(recovered) =
                handover::recover(&folder, &state).map_err(BuildError::Unavailable)?
            {
                note(&recovered);
            }
            Some(handover::Handover::give(&folder, uid, &state).map_err(BuildError::Unavailable)?)
        }
        None => None,
    };
    let args = ["-C".to_string(), crate::view::CHAMPION_DIR.to_string()];
    let outcome = crate::champion::start_build(&dir, make, &args, &limits, setup, &sandbox)
        .map_err(BuildError::Unavailable)
        .and_then(|(jail, output)| watch(spec, jail, output, &sandbox));
    drop(sandbox);
    if let Some(handed) = handed {
        handed.give_back().map_err(|e| {
            BuildError::Unavailable(format!(
                "{e}; the next `referee build` of this folder gives it back again"
            ))
        })?;
    }
    outcome
}

/// Holds an exclusive lock on `folder` (waiting for another build of it to end).
fn lock(folder: &walk::Folder, dir: &Path) -> Result<nix::fcntl::Flock<std::fs::File>, BuildError> {
    let unavailable = |e: String| BuildError::Unavailable(format!("{}: {e}", dir.display()));
    let folder = folder
        .fd
        .try_clone()
        .map(std::fs::File::from)
        .map_err(|e| unavailable(e.to_string()))?;
    nix::fcntl::Flock::lock(folder, nix::fcntl::FlockArg::LockExclusive)
        .map_err(|(_, e)| unavailable(format!("cannot lock it for its build: {e}")))
}

/// The limits of a build's processes (what a champion's are, with room for compilers).
fn limits(spec: &BuildSpec, plan: &SandboxPlan) -> Limits {
    let mut limits = Limits {
        memory: spec.memory,
        processes: spec.processes,
        disk: spec.disk,
        open_files: 1024,
        file_size: 1 << 30,
        cpu_backstop: spec.cpu,
        sandbox: plan.clone(),
        ..Limits::default()
    };
    limits.address_space = limits.address_space.max(spec.memory * 4);
    limits
}

/// Runs the build to its end or to a bound, keeping its output.
fn watch(
    spec: &BuildSpec,
    mut jail: crate::Jail,
    output: OwnedFd,
    sandbox: &crate::sandbox::Prepared,
) -> Result<Built, BuildError> {
    let started = Instant::now();
    let mut kept = Tail::default();
    let mut reader = std::fs::File::from(output);
    let exited = jail
        .exit_watch()
        .map_err(|e| BuildError::Unavailable(format!("cannot watch the jail: {e}")))?;
    let mut open = true;
    let mut cpu = Duration::ZERO;
    let mut measured: Option<Instant> = None;
    let stop = loop {
        if let Some(status) = jail.main_status(Duration::ZERO) {
            break Ok(status);
        }
        if measured.is_none_or(|at| at.elapsed() >= MEASURE_EVERY) {
            measured = Some(Instant::now());
            let used = jail.usage();
            cpu = sandbox.cgroup_cpu().unwrap_or(used.cpu).max(cpu);
            if let Some(why) = over_bound(spec, cpu, started.elapsed(), used.memory, sandbox) {
                break Err(why);
            }
        }
        let mut fds = [
            nix::libc::pollfd {
                fd: exited.as_raw_fd(),
                events: nix::libc::POLLIN,
                revents: 0,
            },
            nix::libc::pollfd {
                fd: reader.as_raw_fd(),
                events: nix::libc::POLLIN,
                revents: 0,
            },
        ];
        let n = if open { 2 } else { 1 };
        let timeout = MEASURE_EVERY.as_millis() as i32;
        // SAFETY: `n` valid pollfds.
        unsafe { nix::libc::poll(fds.as_mut_ptr(), n, timeout) };
        if open && fds[1].revents != 0 {
            open = kept.read_from(&mut reader);
        }
    };
    // Whatever it left running dies with its jail; then the pipe ends and is read to its end.
    jail.kill();
    while open {
        open = kept.read_from(&mut reader);
    }
    let wall = started.elapsed();
    let output = kept.into_bytes();
    match stop {
        Ok(0) => Ok(Built { output, cpu, wall }),
        Ok(status) => Err(BuildError::Failed {
            why: match over_bound(spec, cpu, wall, 0, sandbox) {
                // A process killed by the kernel for its memory makes `make` fail.
                Some(why) => why,
                None => format!("make failed ({})", crate::champion::describe_status(status)),
            },
            output,
        }),
        Err(why) => Err(BuildError::Failed { why, output }),
    }
}

/// Which bound the build went over, if any.
fn over_bound(
    spec: &BuildSpec,
    cpu: Duration,
    wall: Duration,
    memory: u64,
    sandbox: &crate::sandbox::Prepared,
) -> Option<String> {
    if cpu > spec.cpu {
        Some(format!(
            "it used more than {} s of CPU, its bound",
            spec.cpu.as_secs_f64()
        ))
    } else if wall > spec.wall {
        Some(format!(
            "it ran for more than {} s, its wall-clock bound",
            spec.wall.as_secs_f64()
        ))
    } else if sandbox.oom_killed() || memory > spec.memory {
        Some(format!(
            "its processes held more than {} MiB of memory, its bound",
            spec.memory >> 20
        ))
    } else {
        None
    }
}

/// The last [`OUTPUT_KEPT`] bytes of the output, and how many came before them.
#[derive(Default)]
struct Tail {
    bytes: Vec<u8>,
    dropped: u64,
}

impl Tail {
    /// Reads what is there (one read); `false` at the end of the pipe or on an error.
    fn read_from(&mut self, reader: &mut std::fs::File) -> bool {
        let mut buf = [0u8; 16 << 10];
        match reader.read(&mut buf) {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.bytes.extend_from_slice(&buf[..n]);
                if self.bytes.len() > 2 * OUTPUT_KEPT {
                    let cut = self.bytes.len() - OUTPUT_KEPT;
                    self.bytes.drain(..cut);
                    self.dropped += cut as u64;
                }
                true
            }
        }
    }

    fn into_bytes(mut self) -> Vec<u8> {
        if self.bytes.len() > OUTPUT_KEPT {
            let cut = self.bytes.len() - OUTPUT_KEPT;
            self.bytes.drain(..cut);
            self.dropped += cut as u64;
        }
        if self.dropped == 0 {
            return self.bytes;
        }
        let mut out = format!("[{} bytes of output before these]\n", self.dropped).into_bytes();
        out.extend(self.bytes);
        out
    }
}
