//! The seccomp filter, end to end through `referee match`, as root and as a user (`nobody`,
//! when the test runs as root): a real Python champion (`tests/fixtures/sandbox/syscalls.py`)
//! makes the calls the filter denies, each aimed at itself (its own pid, signal 0) so that
//! only the filter can answer `EPERM`, and the calls next to them that must keep working.
//! Every denied call must fail with `EPERM` (`clone3`: `ENOSYS`), the match must complete,
//! the honest opponents must have no fault, and nothing may be left running. The filter's
//! rules one by one, with the calls no unprivileged champion can try, are the unit tests of
//! `src/sandbox/seccomp.rs`.

use crate::common;

use common::nobody::{self, Who, NOBODY};
use common::{assert_no_process_left, passive};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// The users to test as.
fn users() -> Vec<Who> {
    nobody::users("seccomp test", "cannot switch user")
}

/// A champion folder of its own holding the prober and its list of probes.
fn prober(arena: &Path, probes: &[&str]) -> PathBuf {
    let dir = arena.join("prober");
    fs::create_dir_all(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    let program = dir.join("champion");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sandbox/syscalls.py");
    fs::copy(fixture, &program).unwrap();
    fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(dir.join("probes"), probes.join("\n") + "\n").unwrap();
    program
}

/// What a match with the prober in seat 0 left.
struct Played {
    /// The match as its record tells it.
    game: common::loi::Match,
    line: String,
    /// Probe name to result (`ok` or an errno's name), from seat 0's stderr.
    results: BTreeMap<String, String>,
    /// Seat 0's resident set after the probes, in KiB.
    rss_kib: u64,
    stderr: String,
}

impl Played {
    fn faults(&self, seat: u64) -> Vec<String> {
        self.game
            .faults_of(seat as usize)
            .into_iter()
            .map(|f| format!("{}: {}", f.kind, f.message))
            .collect()
    }
}

/// Plays the prober against two passive champions as `who`.
fn play(who: Who, arena: &Path, probes: &[&str], extra: &[&str]) -> Played {
    let program = prober(arena, probes);
    let out = arena.join("results");
    fs::create_dir_all(&out).unwrap();
    if who == Who::Nobody {
        std::os::unix::fs::chown(&out, Some(NOBODY), Some(NOBODY)).unwrap();
    }
    // A seed of its own: the no-process-left check looks for the seats' seeds.
    static SEED: AtomicU32 = AtomicU32::new(1);
    let seed =
        u64::from(std::process::id()) << 20 | u64::from(SEED.fetch_add(1, Ordering::Relaxed));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_referee"));
    cmd.arg("match")
        .arg(&program)
        .args([passive(), passive()])
        .args(["--seed", &seed.to_string(), "--first-player", "0", "--out"])
        .arg(&out)
        .args(extra);
    let output = nobody::run_as(&mut cmd, who)
        .output()
        .expect("the referee runs");
    assert!(
        output.status.success(),
        "referee match as {who:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let record: Value =
        serde_json::from_slice(&fs::read(out.join("record.json")).unwrap()).unwrap();
    let game = common::loi::Match::read(&out);
    assert!(game.completed(), "the match did not complete: {record}");
    assert_no_process_left(&record);
    let stderr = fs::read_to_string(out.join("seat0.stderr")).unwrap_or_default();
    let results = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("probe "))
        .filter_map(|l| l.split_once(": "))
        .map(|(name, result)| (name.to_string(), result.to_string()))
        .collect();
    let rss_kib = stderr
        .lines()
        .find_map(|l| l.strip_prefix("rss "))
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    Played {
        game,
        line: record["sandbox"].as_str().unwrap().to_string(),
        results,
        rss_kib,
        stderr,
    }
}

/// The prober got through its list, every probe got its expected result, and nobody
/// (the prober included) has a fault.
fn assert_results(who: Who, played: &Played, expected: &[(&str, &str)]) {
    let context = format!("as {who:?} ({})\n{}", played.line, played.stderr);
    assert!(played.stderr.contains("probes done"), "{context}");
    for (name, want) in expected {
        let name = name.split_whitespace().next().unwrap();
        assert_eq!(
            played.results.get(name).map(String::as_str),
            Some(*want),
            "probe {name}, {context}"
        );
    }
    for seat in 0..3 {
        assert!(
            played.faults(seat).is_empty(),
            "seat {seat} {:?}, {context}",
            played.faults(seat)
        );
    }
}

/// Whether the filter is on in this match; says so when it is not.
fn filter_on(who: Who, played: &Played) -> bool {
    let on = played.line.contains("seccomp=on");
    if !on {
        common::skip_missing(&format!(
            "seccomp test: as {who:?}: no seccomp filter here ({})",
            played.line
        ));
    }
    on
}

/// Each probe and what it must get under the filter.
const CALLS: &[(&str, &str)] = &[
    // Signals that reach any process of the same uid.
    ("rt_sigqueueinfo", "EPERM"),
    ("rt_tgsigqueueinfo", "EPERM"),
    ("pidfd_send_signal", "EPERM"),
    ("fcntl_setown", "EPERM"),
    ("fcntl_setown_ex", "EPERM"),
    ("fcntl_setsig", "EPERM"),
    ("ioctl_fiosetown", "EPERM"),
    ("ioctl_siocspgrp", "EPERM"),
    ("fcntl_getown", "ok"),
    ("fcntl_setfl", "ok"),
    // The terminal.
    ("ioctl_tiocsti", "EPERM"),
    // Processes: clone3 must fall back to clone, whose flags are checked.
    ("clone3", "ENOSYS"),
    ("clone_parent", "EPERM"),
    ("clone_newuser", "EPERM"),
    ("fork", "ok"),
    // Other processes' memory and files.
    ("kcmp", "EPERM"),
    ("pidfd_getfd", "EPERM"),
    ("process_madvise", "EPERM"),
    ("migrate_pages", "EPERM"),
    ("move_pages_pid", "EPERM"),
    // Other processes' limits and scheduling (the caller's own pid is refused too).
    ("prlimit_pid", "EPERM"),
    ("prlimit_self", "ok"),
    ("setpriority_pid", "EPERM"),
    ("setpriority_user", "EPERM"),
    ("setpriority_self", "ok"),
    ("sched_setaffinity_pid", "EPERM"),
    ("sched_setaffinity_self", "EPERM"),
    ("sched_setscheduler_pid", "EPERM"),
    ("sched_setscheduler_self", "ok"),
    ("ioprio_set_pid", "EPERM"),
    ("prctl_sched_core", "EPERM"),
    // Kernel surface and IPC objects shared with the machine.
    ("personality_no_aslr", "EPERM"),
    ("personality_query", "ok"),
    ("shmget", "EPERM"),
    ("msgget", "EPERM"),
    ("semget", "EPERM"),
    ("mq_open", "EPERM"),
    ("io_setup", "EPERM"),
    ("memfd_secret", "EPERM"),
    ("userfaultfd", "EPERM"),
    ("vmsplice", "EPERM"),
    ("name_to_handle_at", "EPERM"),
    ("mmap_private", "ok"),
    // Locks and watches on inodes that several jails see: a channel between them.
    ("fcntl_getlk", "EPERM"),
    ("fcntl_setlk", "EPERM"),
    ("fcntl_ofd_getlk", "EPERM"),
    ("fcntl_ofd_setlk", "EPERM"),
    ("fcntl_setlease", "EPERM"),
    ("fcntl_notify", "EPERM"),
    // flock is skipped (0): it locks nothing, so a second lock does not conflict.
    ("flock", "ok"),
    // syncfs is skipped (0): on a bad descriptor it would say EBADF.
    ("syncfs_badfd", "ok"),
    ("inotify_init1", "EPERM"),
    // Huge pages: no memory count holds them.
    ("mmap_hugetlb", "EPERM"),
];

#[test]
fn a_champion_gets_eperm_from_each_denied_call_and_the_match_completes() {
    let mut calls = CALLS.to_vec();
    if cfg!(target_arch = "x86_64") {
        calls.push(("modify_ldt", "EPERM"));
    }
    let probes: Vec<&str> = calls.iter().map(|(name, _)| *name).collect();
    for who in users() {
        let arena = common::fresh_dir("seccomp", "calls");
        let played = play(who, &arena, &probes, &[]);
        eprintln!("as {who:?}: {}\n{}", played.line, played.stderr);
        if filter_on(who, &played) {
            assert_results(who, &played, &calls);
        }
        common::remove_dir(&arena);
    }
}

#[test]
fn a_grows_down_mapping_cannot_escape_the_memory_limit() {
    for who in users() {
        let arena = common::fresh_dir("seccomp", "growsdown");
        // 2.5 GiB under a 64 MiB limit (RLIMIT_DATA does not count grows-down mappings).
        let probes = ["mmap_growsdown 2560", "mmap_private"];
        let played = play(who, &arena, &probes, &["--memory", "64"]);
        eprintln!("as {who:?}: {}\n{}", played.line, played.stderr);
        if filter_on(who, &played) {
            assert_results(
                who,
                &played,
                &[("mmap_growsdown", "EPERM"), ("mmap_private", "ok")],
            );
            assert!(
                played.rss_kib < 64 << 10,
                "as {who:?}, the champion holds {} KiB under a 64 MiB limit",
                played.rss_kib
            );
        }
        common::remove_dir(&arena);
    }
}
