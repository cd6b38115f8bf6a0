//! A champion's folder built with `make` inside a jail (`referee build`): a contestant's
//! Makefile is code too. The jail is a champion's (`jail`: no network, the system
//! directories and the operator's kits read-only at `/kits`, seccomp and Landlock, as root
//! a champion uid), with bounds on CPU, wall clock and memory. The build runs in a tmpfs
//! of `--disk` bytes (and one file or folder per [`BYTES_PER_INODE`] of it), its
//! `/champion` and `/tmp` together: the folder is copied in through the descriptor opened
//! once, and what the build made or changed is copied back after it (`copy`), so that
//! nothing else it writes reaches the real disk. A folder handed over to a build's uid by
//! an older version is given back first (`handover`).

mod copy;
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
/// Bytes of `--disk` per file or folder the build's tmpfs may hold (512 MiB: 131,072):
/// each costs the kernel memory that the tmpfs's size does not count.
pub const BYTES_PER_INODE: u64 = 4096;

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
    /// Bytes of its tmpfs: its copy of the folder, what it makes and its `/tmp` together.
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
    // The folder, opened once: the build's copy is read from it and written back into it,
    // not by its path, which its contestant may swap meanwhile.
    let folder = walk::Folder::open(&dir).map_err(BuildError::Unavailable)?;
    crate::checked::after_check(&dir);
    // One build of a folder at a time: two would write it back at once.
    let _lock = lock(&folder, &dir)?;
    let limits = limits(spec, plan);
    let sandbox = crate::sandbox::prepare(plan, &makefile, &dir, limits.memory, limits.processes)
        .map_err(BuildError::Unavailable)?;
    if sandbox.uid().is_some() {
        let state = record::state_dir().map_err(BuildError::Unavailable)?;
        if let Some(recovered) =
            handover::recover(&folder, &state).map_err(BuildError::Unavailable)?
        {
            note(&recovered);
        }
    }
    // Results folders under the champion's stay out of its build (their seeds).
    let skip: Vec<PathBuf> = crate::hidden::masks_for(&dir, None)
        .map_err(BuildError::Unavailable)?
        .iter()
        .filter_map(|m| m.strip_prefix(&dir).ok().map(Path::to_path_buf))
        .collect();
    let args = ["-C".to_string(), crate::view::CHAMPION_DIR.to_string()];
    let inodes = inodes(spec);
    let (mut jail, output) =
        crate::champion::start_build(make, &args, &limits, inodes, setup, &sandbox)
            .map_err(BuildError::Unavailable)?;
    let tmpfs = jail
        .build_tmpfs()
        .ok_or_else(|| BuildError::Unavailable("the build's jail handed over no tmpfs".into()))
        .and_then(|fd| walk::Folder::beneath(fd, "champion").map_err(BuildError::Unavailable))?;
    let full = format!(
        "the folder does not fit in the build's tmpfs ({} MiB and {inodes} files and folders, \
         the bound --disk {} sets): raise --disk",
        spec.disk >> 20,
        spec.disk >> 20
    );
    let copied = copy::copy_in(
        &folder,
        &tmpfs.fd,
        &skip,
        sandbox.uid().map(|u| (u, u)),
        &full,
    )
    .map_err(|why| BuildError::Failed {
        why,
        output: Vec::new(),
    })?;
    jail.go()
        .map_err(|e| BuildError::Unavailable(crate::champion::describe_start_error(make, e)))?;
    let outcome = watch(spec, jail, output, &sandbox);
    drop(sandbox);
    if let Some(full) = over_disk(&tmpfs, spec, inodes) {
        let output = match outcome {
            Ok(built) => built.output,
            Err(BuildError::Failed { output, .. }) => output,
            Err(other) => return Err(other),
        };
        return Err(BuildError::Failed { why: full, output });
    }
    if matches!(outcome, Err(BuildError::Unavailable(_))) {
        return outcome;
    }
    // What the build left, also when `make` failed (as a build in place would have).
    let owner = match crate::sandbox::is_root() {
        true => nix::sys::stat::fstat(&folder.fd)
            .map(|s| Some((s.st_uid, s.st_gid)))
            .map_err(|e| BuildError::Unavailable(format!("{}: {e}", dir.display())))?,
        false => None,
    };
    let bound = copy::Bound {
        bytes: spec.disk,
        entries: inodes,
    };
    match (
        outcome,
        copy::copy_back(&tmpfs, &folder, &copied, &skip, owner, bound),
    ) {
        (outcome, Ok(notes)) => {
            for n in notes {
                note(&n);
            }
            outcome
        }
        (Ok(built), Err(why)) => Err(BuildError::Failed {
            why,
            output: built.output,
        }),
        (Err(BuildError::Failed { why, output }), Err(back)) => Err(BuildError::Failed {
            why: format!("{why}; {back}"),
            output,
        }),
        (Err(other), Err(_)) => Err(other),
    }
}

/// Files and folders the build's tmpfs may hold.
/// `failed` for a message: how many, and the first ten joined (`a; b and 3 more`).
fn listed(mut failed: Vec<String>) -> (usize, String) {
    let count = failed.len();
    let more = count.saturating_sub(10);
    failed.truncate(10);
    let tail = match more {
        0 => String::new(),
        more => format!(" and {more} more"),
    };
    (count, format!("{}{tail}", failed.join("; ")))
}

fn inodes(spec: &BuildSpec) -> u64 {
    (spec.disk / BYTES_PER_INODE).max(1024)
}

/// What a build that filled its tmpfs is told, if it did: its tmpfs has no byte or no
/// file left (a write or a file was refused), whatever `make` made of it.
fn over_disk(tmpfs: &walk::Folder, spec: &BuildSpec, inodes: u64) -> Option<String> {
    let vfs = nix::sys::statvfs::fstatvfs(&tmpfs.fd).ok()?;
    let what = if vfs.blocks_available() == 0 {
        format!("more than {} MiB", spec.disk >> 20)
    } else if vfs.files_available() == 0 {
        format!(
            "more than {inodes} files and folders (one per {} KiB of it)",
            BYTES_PER_INODE >> 10
        )
    } else {
        return None;
    };
    Some(format!(
        "it filled its tmpfs, {what} (its copy of the folder, what it made and its /tmp \
         together), the bound --disk {} sets: raise --disk; nothing was copied back",
        spec.disk >> 20
    ))
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
