//! How to start one champion: its program, arguments, environment, files and limits.

use std::path::PathBuf;

use crate::limits::Limits;

/// How to start one champion.
#[derive(Clone, Debug)]
pub struct LaunchSpec {
    /// The executable (native or a script with a `#!` line).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// The only environment the champion gets, besides `PATH=/usr/local/bin:/usr/bin:/bin`,
    /// `HOME=<scratch_dir>`, `LANG=C.UTF-8` and the sandbox token.
    pub env: Vec<(String, String)>,
    /// Working directory, created if missing.
    pub scratch_dir: PathBuf,
    /// Where the champion's stderr goes, capped at `stderr_cap` bytes.
    pub stderr_path: PathBuf,
    /// Bytes of stderr kept, the `[stderr truncated]` line that ends a cut file included.
    pub stderr_cap: u64,
    /// Resource limits.
    pub limits: Limits,
    /// The CPU a jailed champion's processes are pinned to from their start (the match's
    /// CPU: see `crate::affinity`); `None`: any.
    pub cpu: Option<usize>,
    /// Start a jailed champion frozen: it runs from its first [`super::Champion::resume`] on (what
    /// a match does: a champion runs only during its callbacks). Default `false`.
    pub start_frozen: bool,
    /// The device and inode of the champion's own files (its folder, or its program alone)
    /// as the caller checked them (a run's snapshot, hashed before each start): its jail
    /// shows them only if they are still that file. `None`: as the jail's start finds them.
    pub checked: Option<(u64, u64)>,
}

impl LaunchSpec {
    /// A spec with no arguments, no extra environment, a 1 MiB stderr cap and default limits.
    pub fn new(
        program: impl Into<PathBuf>,
        scratch_dir: impl Into<PathBuf>,
        stderr_path: impl Into<PathBuf>,
    ) -> Self {
        LaunchSpec {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            scratch_dir: scratch_dir.into(),
            stderr_path: stderr_path.into(),
            stderr_cap: 1 << 20,
            limits: Limits::default(),
            cpu: None,
            start_frozen: false,
            checked: None,
        }
    }
}
