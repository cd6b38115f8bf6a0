//! The rlimits of a champion, computed before fork and applied in the child between fork
//! and exec; and the referee's own limit of open files, raised at start.

use nix::libc;

/// Raises the soft limit of open files of this process to its hard one (a walk of a
/// champion's processes keeps their `/proc` files open, a build's walk a folder per
/// level, a server a file per connection); the soft limit now in force.
pub fn raise_open_files() -> u64 {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return 0;
    };
    match soft < hard && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok() {
        true => hard,
        false => soft,
    }
}

/// The rlimits to set, computed before fork so that the child only makes syscalls; plain
/// numbers, so that a spawn request to the jail's zygote carries them.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct RlimitPlan {
    /// (resource, soft, hard), resources as the kernel numbers them.
    pub(crate) items: Vec<(u32, u64, u64)>,
    /// `RLIMIT_NPROC`, set only where it counts the champion's processes alone.
    pub(crate) nproc: Option<u64>,
}

impl RlimitPlan {
    /// No limit at all.
    pub(crate) fn none() -> Self {
        RlimitPlan::default()
    }

    /// Applies the plan in the current process. Async-signal-safe (getrlimit/setrlimit
    /// only): meant for the child between fork and exec. Limits are clamped to the current
    /// hard limits, which an unprivileged process cannot raise.
    pub(crate) fn apply(&self) -> std::io::Result<()> {
        let set = |resource: u32, soft: u64, hard: u64| -> std::io::Result<()> {
            let mut cur = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: valid rlimit pointers.
            unsafe {
                if libc::getrlimit(resource as _, &mut cur) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                let hard = hard.min(cur.rlim_max);
                let new = libc::rlimit {
                    rlim_cur: soft.min(hard),
                    rlim_max: hard,
                };
                if libc::setrlimit(resource as _, &new) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        };
        for &(resource, soft, hard) in &self.items {
            set(resource, soft, hard)?;
        }
        if let Some(n) = self.nproc {
            let new = libc::rlimit {
                rlim_cur: n,
                rlim_max: n,
            };
            // SAFETY: a valid rlimit pointer.
            if unsafe { libc::setrlimit(libc::RLIMIT_NPROC as _, &new) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }
}
