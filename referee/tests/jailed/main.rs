//! The `jailed` test binary: the jail against hostile champions: the attacks, the red-team
//! rounds, the sandbox's layers, seccomp, the fallbacks, the environment, CPU pinning. One
//! module per former test file (each was its own binary, linking the whole referee);
//! `common` is compiled once here.

#[path = "../common/mod.rs"]
mod common;

mod attacks;
mod attacks_build;
mod attacks_kit;
mod environment;
mod fallback;
mod open_files;
mod pinning;
mod redteam;
mod redteam_amazons;
mod redteam_checked;
mod redteam_gauntlet;
mod redteam_late;
mod redteam_proc;
mod redteam_snapshot;
mod redteam_stop;
mod redteam_xcpu;
mod sandbox;
mod seccomp;
mod stderr_drain;
