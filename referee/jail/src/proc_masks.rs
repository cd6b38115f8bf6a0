//! Where the kernel refuses `subset=pid` (before 5.8; the sandbox line's `proc=masked`),
//! the files of a jail's fresh `/proc` that count for the whole machine, finer than
//! anything a runtime needs, each covered by an empty read-only file or folder
//! ([`MASKED`]), so that no champion reads from them what another jail of the same machine
//! does. With `subset=pid` (`proc=pid`) none of them exists in a jail.

use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;

/// Files under `/proc` shown empty in every jail (those the kernel has). Each counts for
/// the whole machine, and a champion can move the counts another reads: stall times in
/// microseconds (`pressure/*`, writable too: a trigger wakes its poller on another jail's
/// stalls), interrupts and softirqs per CPU, the scheduler's and the memory manager's
/// counters, the disks' I/O, the slab and page allocators' free lists, every timer and
/// file lock of the machine, the counts of open files, inodes, dentries and asynchronous
/// I/O requests, the keys of every user; the file systems' own counters (`fs`: ext4's
/// extent-status shrinker, which any `lseek(SEEK_DATA)` moves, jbd2's transactions, ext4's
/// block groups), quota's count of `sync` calls (`sys/fs/quota`), the live cgroups of each
/// controller (`cgroups`: as root, one per live jail), each interrupt's counts (`irq`: the
/// folders show empty). No bundled kit's runtime reads any of them (they read
/// `/proc/self/*`, `meminfo`, `stat`, `cpuinfo`, which stay on such a kernel: the README's
/// "What is not protected").
pub const MASKED: &[&str] = &[
    "pressure/cpu",
    "pressure/memory",
    "pressure/io",
    "pressure/irq",
    "interrupts",
    "softirqs",
    "schedstat",
    "sched_debug",
    "vmstat",
    "diskstats",
    "zoneinfo",
    "buddyinfo",
    "pagetypeinfo",
    "slabinfo",
    "vmallocinfo",
    "timer_list",
    "locks",
    "key-users",
    "latency_stats",
    "sys/fs/file-nr",
    "sys/fs/inode-nr",
    "sys/fs/inode-state",
    "sys/fs/dentry-state",
    "sys/fs/aio-nr",
    "sys/fs/quota",
    "fs",
    "cgroups",
    "irq",
];

/// Covers each file of [`MASKED`] under `proc` (the jail's fresh `/proc`, mounted) with
/// `empty`, an empty file made here (mode 0444), and each folder with `empty` followed by
/// `.d`, an empty folder (mode 0555), bound read-only by `bind`.
pub(crate) fn mask(
    proc: &str,
    empty: &str,
    bind: impl Fn(&Path, &str) -> io::Result<()>,
) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o444)
        .open(empty)
        .map_err(|e| format!("the empty file that hides /proc's counters, {empty}: {e}"))?;
    let empty_dir = format!("{empty}.d");
    std::fs::DirBuilder::new()
        .mode(0o555)
        .create(&empty_dir)
        .map_err(|e| format!("the empty folder that hides /proc's counters, {empty_dir}: {e}"))?;
    for name in MASKED {
        let target = format!("{proc}/{name}");
        // A kernel without it (no PSI, no schedstats): nothing to hide.
        let Ok(meta) = std::fs::symlink_metadata(&target) else {
            continue;
        };
        let cover = if meta.is_dir() { &empty_dir } else { empty };
        bind(Path::new(cover), &target).map_err(|e| format!("hiding /proc/{name}: {e}"))?;
    }
    Ok(())
}
