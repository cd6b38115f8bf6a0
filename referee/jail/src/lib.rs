//! The jail layer: champions as processes, each in its own jail, with their budgets.
//!
//! One jail per champion, the way isolate, nsjail and bubblewrap build theirs: its own PID,
//! mount, IPC, UTS, network and cgroup namespaces, a user namespace when the referee is not
//! root (and a uid of its own when it is), a file system view with nothing of the host but
//! the system directories, its own files and a private size-limited tmpfs ([`view`]), and
//! the champion's processes frozen between its callbacks.
//!
//! ```text
//! referee ──spawn request (JSON + fds)──> zygote ──clone(namespaces)──> init (PID 1) ──fork+exec──> champion
//!    ├──────────────────── control socket: stop / cont, started / exit <status> ──────┤
//!    └──────────── acknowledgements: stopped / woke / late, thawed / woke / ran <n> ───┘
//! ```
//!
//! The jail ends when its init dies (the referee's `SIGKILL` through a pidfd, or end of
//! file on the control socket when the referee is gone): the kernel then kills every
//! process of the namespace and reaps it, so nothing outlives the match, not even a
//! zombie. The zygote ([`zygote`]) is a small process cloned from, so that the referee's
//! size never reaches a champion; [`usage`] measures a jail's processes from outside.

//!
//! Layers, bottom up: [`fault`] (how a champion misbehaved), [`limits`], [`affinity`] and
//! [`interrupt`] (the operator's signals); the sandbox's layers ([`sandbox`]: seccomp,
//! Landlock, cgroup, uids, network namespaces); the jail itself (this crate's root:
//! [`Jail`], [`zygote`], [`view`], [`census`], [`usage`], [`hidden`]); and [`champion`], a
//! champion as a process the referee talks to, jailed or not, with its CPU and wall-clock
//! budgets. This crate knows no game and no command line.

pub mod affinity;
pub mod beneath;
pub mod blind;
pub mod build;
pub mod census;
pub mod champion;
pub mod checked;
pub mod fault;
mod futex_call;
mod futex_waits;
mod handle;
pub mod hidden;
mod init;
pub mod interrupt;
pub mod kits;
pub mod limits;
mod proc_files;
pub mod proc_masks;
mod rlimits;
pub mod sandbox;
mod signals;
mod spawner;
pub mod state;
pub mod untrusted;
pub mod usage;
pub mod view;
mod wire;
pub mod zygote;

pub use census::{Census, Change};
pub use handle::{kill_every_jail, probe, use_helper, Jail, Refused, Spec, StartError, Stopped};
pub use rlimits::raise_open_files;
pub use usage::Usage;

#[cfg(feature = "bench-reference")]
#[doc(hidden)]
pub use sandbox::seccomp::programs_for_bench as seccomp_programs_for_bench;
pub use view::View;
