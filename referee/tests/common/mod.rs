//! Helpers shared by the integration tests that spawn real champions: fresh directories,
//! the passive champion, and checks that nothing is left running. Each test crate uses some of them.
#![allow(dead_code)]

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A fresh, empty directory for one test, readable by everyone (champions may run under
/// other uids): `<tmp>/referee-<kind>-<pid>-<n>-<name>`. Removed when the test binary exits
/// (set `REFEREE_KEEP_TEST_DIRS=1` to keep them for a look).
pub fn fresh_dir(kind: &str, name: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "referee-{kind}-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    remove_at_exit(&dir);
    dir
}

/// Removes `dir` (whatever champions left in it) when the test binary exits.
pub fn remove_at_exit(dir: &std::path::Path) {
    static DIRS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    static REGISTER: std::sync::Once = std::sync::Once::new();
    extern "C" fn cleanup() {
        if std::env::var_os("REFEREE_KEEP_TEST_DIRS").is_some() {
            return;
        }
        let dirs = std::mem::take(&mut *DIRS.lock().unwrap_or_else(|e| e.into_inner()));
        for dir in dirs {
            // Champions may leave directories without permissions, and very deep trees.
            let _ = std::process::Command::new("chmod")
                .arg("-R")
                .arg("u+rwX")
                .arg(&dir)
                .stderr(std::process::Stdio::null())
                .status();
            let _ = std::process::Command::new("rm")
                .arg("-rf")
                .arg(&dir)
                .status();
        }
    }
    // SAFETY: registers a plain function that runs at exit.
    REGISTER.call_once(|| unsafe {
        nix::libc::atexit(cleanup);
    });
    DIRS.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(dir.to_path_buf());
}

/// The smallest valid champion, the shell one of protocol.md (answers `fin` to everything).
pub fn passive() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../champions/shell/passive.sh")
        .display()
        .to_string()
}

/// Whether a running process has `marker` in its command line.
pub fn running(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|p| {
        std::fs::read(p.path().join("cmdline"))
            .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
    })
}

/// No process anywhere carries the `PROLOGIN_SEED` of a seat of this match: the champions
/// and everything they started are gone.
pub fn assert_no_process_left(record: &Value) {
    let seeds: Vec<String> = record["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("PROLOGIN_SEED={}", s["seed"]))
        .collect();
    let carries_a_seed = |entry: &std::fs::DirEntry| {
        std::fs::read(entry.path().join("environ")).is_ok_and(|environ| {
            String::from_utf8_lossy(&environ)
                .split('\0')
                .any(|v| seeds.iter().any(|s| s == v))
        })
    };
    // The sweep is synchronous, but give the kernel a moment to reap.
    wait_until(
        "processes of the match are still running",
        Duration::from_secs(1),
        || {
            !std::fs::read_dir("/proc")
                .unwrap()
                .flatten()
                .any(|e| carries_a_seed(&e))
        },
    );
}

/// Poll `done` until it holds; fail with `what` after `timeout`.
pub fn wait_until(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < timeout, "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}
