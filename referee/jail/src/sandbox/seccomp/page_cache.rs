//! The seccomp rules that close the page cache's exact channel between jails. Every jail
//! reads some of the same files (system libraries, the kits, runtimes' jars), so every jail
//! shares the kernel's cache of their pages: one champion drops or loads a page, another
//! asks whether it is cached, and a bit passes between them, exactly and at once.
//!
//! Advice that drops pages does nothing and returns 0 (advice is advisory: a caller cannot
//! tell it from advice the kernel ignored):
//! - `fadvise64` with `POSIX_FADV_DONTNEED` (drops the clean pages of a range) or
//!   `POSIX_FADV_NOREUSE`;
//! - `madvise` with `MADV_PAGEOUT` (reclaims the pages of a mapping at once) or `MADV_COLD`
//!   (puts them first in line for reclaim).
//!
//! Asking without loading fails as a kernel without the feature answers (callers have a
//! fallback for it):
//! - `preadv2`/`pwritev2` with `RWF_NOWAIT` (`EAGAIN` on an uncached page, and it starts
//!   reading the page): `EOPNOTSUPP`, what a file system without non-blocking reads says;
//! - `mincore` (on a mapping of a file the caller owns or may write: which pages are
//!   cached) and `cachestat` (Linux 6.5: how many pages of a range are): `ENOSYS`.
//!
//! Left open, loaders all: a read, `readahead`, `POSIX_FADV_WILLNEED`, `MADV_WILLNEED` and
//! `MADV_POPULATE_READ` load pages as any read does, and the page faults of a mapping are
//! counted (`getrusage`), which runtimes need. A page loaded by one champion is still seen
//! by another (a fault on its neighbour maps it at once when cached, and the fault counters
//! tell), so the page cache stays a channel: README, "What is not protected".

use std::collections::BTreeMap;

use super::{BadRule, Rule, Rules};
use nix::libc;

/// `cachestat` (Linux 6.5); numbers from 424 on are the same on every architecture.
const SYS_CACHESTAT: i64 = 451;

/// Advice that drops cached pages: answered 0, nothing done.
pub(super) fn skipped() -> Result<BTreeMap<u32, Vec<Rule>>, BadRule> {
    let mut rules = Rules::default();
    rules.when_arg_is(
        libc::SYS_fadvise64,
        3,
        &[
            libc::POSIX_FADV_DONTNEED as u64,
            libc::POSIX_FADV_NOREUSE as u64,
        ],
    )?;
    rules.when_arg_is(
        libc::SYS_madvise,
        2,
        &[libc::MADV_PAGEOUT as u64, libc::MADV_COLD as u64],
    )?;
    Ok(rules.0)
}

/// Reads and writes that would fail rather than wait for a page: `EOPNOTSUPP`.
pub(super) fn unsupported() -> Result<BTreeMap<u32, Vec<Rule>>, BadRule> {
    let mut rules = Rules::default();
    for nr in [libc::SYS_preadv2, libc::SYS_pwritev2] {
        rules.when_any_flag(nr, 5, &[libc::RWF_NOWAIT as u64])?;
    }
    Ok(rules.0)
}

/// The questions about the cache itself: `ENOSYS`.
pub(super) fn absent() -> BTreeMap<u32, Vec<Rule>> {
    let mut rules = Rules::default();
    rules.always(&[libc::SYS_mincore, SYS_CACHESTAT]);
    rules.0
}

/// `SYS_CACHESTAT`, for the tests of the filters.
#[cfg(test)]
pub(super) const CACHESTAT: i64 = SYS_CACHESTAT;
