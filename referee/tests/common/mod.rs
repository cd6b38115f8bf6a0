//! Helpers shared by the integration tests that spawn real champions: fresh directories,
//! the passive champion, and checks that nothing is left running. Each test crate uses some of them.
#![allow(dead_code)]

pub mod amazons;
pub mod browser_host;
pub mod browser_scratch;
pub mod high_card;
pub mod loi;
pub mod nobody;
pub mod stage;
pub mod tables;
pub mod users;

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// `text` is the file `tests/golden/<name>` kept, line by line (written anew under
/// `GOLDEN_WRITE`, only for a deliberate change of what it keeps).
pub fn assert_golden(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("GOLDEN_WRITE").is_some() {
        std::fs::write(&path, text).unwrap();
    }
    let kept = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    for (n, (got, want)) in text.lines().zip(kept.lines()).enumerate() {
        assert_eq!(got, want, "{} line {}", path.display(), n + 1);
    }
    assert_eq!(
        text.lines().count(),
        kept.lines().count(),
        "{}",
        path.display()
    );
}

/// Sets the mode of `path` (a test's own file: a failure is the test's).
pub fn chmod(path: &std::path::Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The bundled shell champion `name` (`champions/shell/<name>`), as the path string the
/// tests give the referee.
pub fn shell_champion(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../champions/shell")
        .join(name)
        .display()
        .to_string()
}

/// A fresh, empty directory for one test, readable by everyone (champions may run under
/// other uids): `<tmp>/referee-<kind>-<pid>-<n>-<name>`. Removed when the test binary exits
/// (set `REFEREE_KEEP_TEST_DIRS=1` to keep them for a look).
pub fn fresh_dir(kind: &str, name: &str) -> PathBuf {
    state_home();
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

/// Sets `XDG_STATE_HOME`, for every referee the tests start, to a directory of their own:
/// the referee keeps there the key of each tournament or gauntlet it starts
/// (`prologin-referee/keys`), which must be left neither in a home directory nor in the
/// temporary directory. Writable by the user the tests switch to as well (sticky, as
/// `/tmp`); removed at exit. Done once, by the first [`fresh_dir`].
pub fn state_home() -> PathBuf {
    static HOME: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    HOME.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("referee-state-{}", std::process::id()));
        let keys = dir.join("prologin-referee/keys");
        std::fs::create_dir_all(&keys).unwrap();
        for d in [&dir, &dir.join("prologin-referee"), &keys] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o1777)).unwrap();
        }
        remove_at_exit(&dir);
        std::env::set_var("XDG_STATE_HOME", &dir);
        dir
    })
    .clone()
}

/// The referee's default key file of the run whose folder is `top` (`results/<name>`,
/// which its shards share): in the tests' [`state_home`], named by the first 16 bytes of
/// the SHA-256 of the folder's absolute path, in hexadecimal.
pub fn default_key(top: &std::path::Path) -> PathBuf {
    use sha2::Digest;
    let top = std::fs::canonicalize(top).unwrap();
    let digest = sha2::Sha256::digest(top.as_os_str().as_encoded_bytes());
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    state_home()
        .join("prologin-referee/keys")
        .join(format!("{hex}.key"))
}

/// Makes the run in `top` (a tournament's or a gauntlet's folder, with its shards) what a
/// referee of before results were authenticated wrote: no MAC, no match seal, no key. Its
/// resume and merge then meet the checks of rows against records alone.
pub fn without_keys(top: &std::path::Path) {
    let shards = std::fs::read_dir(top)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("tournament.json").exists());
    for run in std::iter::once(top.to_path_buf()).chain(shards) {
        for file in ["tournament.json.mac", "gauntlet.json.mac"] {
            let _ = std::fs::remove_file(run.join(file));
        }
        for m in std::fs::read_dir(run.join("matches")).into_iter().flatten() {
            let _ = std::fs::remove_file(m.unwrap().path().join("mac"));
        }
    }
    let _ = std::fs::remove_file(default_key(top));
}

/// Removes `dir` now (whatever champions left in it, as [`remove_at_exit`] does), unless
/// `REFEREE_KEEP_TEST_DIRS` is set: then it stays, for a look, and for `scripts/test.sh` to
/// play its matches again.
pub fn remove_dir(dir: &std::path::Path) {
    if std::env::var_os("REFEREE_KEEP_TEST_DIRS").is_some() {
        return;
    }
    remove_tree(dir);
}

/// `chmod -R u+rwX` then `rm -rf`: champions may leave directories without permissions,
/// and very deep trees.
fn remove_tree(dir: &std::path::Path) {
    let _ = std::process::Command::new("chmod")
        .arg("-R")
        .arg("u+rwX")
        .arg(dir)
        .stderr(std::process::Stdio::null())
        .status();
    let _ = std::process::Command::new("rm")
        .arg("-rf")
        .arg(dir)
        .status();
}

/// The one lock of the tests that load the machine (CPU burners, gigabytes of memory,
/// disk or files, hundreds of MiB of kernel memory) or measure what another test would
/// load: one at a time, whichever file they come from (a binary holds several files, each
/// with such tests: the attacks, the red team's, the builds') and whichever test binary
/// (`scripts/test.sh` runs two binaries at once): a mutex in the binary, then a lock on a
/// file of the target's temporary folder that every binary and both users open.
pub fn heavy() -> Heavy {
    static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let in_binary = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("heavy.lock");
    // Read-only once made: the test user opens the file root made, and the reverse.
    let file = std::fs::File::open(&path)
        .or_else(|_| std::fs::File::create(&path))
        .expect("the heavy tests' lock file in the target's temporary folder");
    let across_binaries = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusive)
        .map_err(|(_, errno)| errno)
        .expect("the heavy tests' lock");
    Heavy {
        _across_binaries: across_binaries,
        _in_binary: in_binary,
    }
}

/// Held while a heavy test runs (`heavy`): the file's lock is let go before the mutex.
pub struct Heavy {
    _across_binaries: nix::fcntl::Flock<std::fs::File>,
    _in_binary: std::sync::MutexGuard<'static, ()>,
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
            remove_tree(&dir);
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
    // A process under a running referee is another test's match that drew the same seeds
    // (`scripts/test.sh` runs test binaries at once, and tests choose seeds like 7): this
    // match's referee has ended, so what it left has none above it.
    let carries_a_seed = |entry: &std::fs::DirEntry| {
        std::fs::read(entry.path().join("environ")).is_ok_and(|environ| {
            String::from_utf8_lossy(&environ)
                .split('\0')
                .any(|v| seeds.iter().any(|s| s == v))
        }) && !under_a_running_referee(&entry.file_name().to_string_lossy())
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

/// Whether a `referee` process is an ancestor of `pid` (its parents read from `/proc`).
fn under_a_running_referee(pid: &str) -> bool {
    let mut pid = pid.to_string();
    // Bounded: a chain of parents ends at 1 (or 0 for the kernel's threads).
    for _ in 0..64 {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            return false;
        };
        let Some(parent) = status
            .lines()
            .find_map(|l| l.strip_prefix("PPid:"))
            .map(|p| p.trim().to_string())
        else {
            return false;
        };
        if parent == "0" || parent == "1" {
            return false;
        }
        if std::fs::read_to_string(format!("/proc/{parent}/comm"))
            .is_ok_and(|comm| comm.trim_end() == "referee")
        {
            return true;
        }
        pid = parent;
    }
    false
}

/// Poll `done` until it holds; fail with `what` after `timeout`.
///
/// The one polling wait of the tests, for states that raise no event the tests can wait on:
/// processes that are not their children appearing in or leaving `/proc`, and files written
/// by a champion inside the referee. A process that is a child, or whose pid is known, is
/// waited on through a pidfd ([`wait_exit`], [`wait_timeout`]).
pub fn wait_until(what: &str, timeout: Duration, done: impl FnMut() -> bool) {
    assert!(poll_until(timeout, done), "{what}");
}

/// [`wait_until`] that says whether `done` came to hold instead of failing.
pub fn poll_until(timeout: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while !done() {
        if start.elapsed() >= timeout {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// Waits up to `timeout` for process `pid` to end (a zombie counts), on a pidfd: the kernel
/// wakes the wait. True if it ended (or was already gone).
pub fn wait_exit(pid: i32, timeout: Duration) -> bool {
    // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
    let fd = unsafe { nix::libc::syscall(nix::libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return true; // no such process
    }
    // SAFETY: a fresh fd that nothing else owns.
    let fd = unsafe { <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd as i32) };
    let deadline = Instant::now() + timeout;
    loop {
        let mut pfd = nix::libc::pollfd {
            fd: std::os::fd::AsRawFd::as_raw_fd(&fd),
            events: nix::libc::POLLIN,
            revents: 0,
        };
        let left = deadline.saturating_duration_since(Instant::now());
        // SAFETY: one valid pollfd.
        let n =
            unsafe { nix::libc::poll(&mut pfd, 1, left.as_millis().min(i32::MAX as u128) as i32) };
        if n > 0 {
            return true;
        }
        if n == 0 || Instant::now() >= deadline {
            return false;
        }
    }
}

/// Waits up to `timeout` for `child` to exit; past it, kills it, reaps it and returns
/// `None`.
pub fn wait_timeout(
    child: &mut std::process::Child,
    timeout: Duration,
) -> Option<std::process::ExitStatus> {
    if wait_exit(child.id() as i32, timeout) {
        return Some(child.wait().unwrap());
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// The Python champion of `protocol-amazons.md` (its section 5), written into `dir` as an
/// executable file: the page's example, run as it is printed.
pub fn amazons_page_champion(dir: &std::path::Path) -> PathBuf {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol-amazons.md"),
    )
    .unwrap();
    let start = page.find("```python\n").expect("a Python block") + "```python\n".len();
    let end = start + page[start..].find("```").unwrap();
    let program = dir.join("first_legal.py");
    std::fs::write(&program, &page[start..end]).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    program
}

/// The champion of [`amazons_page_champion`], written into `dir` as `file_name`, that
/// plays `moves` moves and then exits with status 3 in its next `jouer` (a crash fault).
pub fn amazons_crashing_champion(dir: &std::path::Path, file_name: &str, moves: u32) -> PathBuf {
    let page = std::fs::read_to_string(amazons_page_champion(dir)).unwrap();
    let loop_start = "for callback in sys.stdin:\n    if callback.strip() == \"jouer\":\n";
    assert!(page.contains(loop_start), "the page's champion changed");
    let crashing = page.replace(
        loop_start,
        &format!(
            "played = 0\n{loop_start}        played += 1\n        if played > {moves}:\n            sys.exit(3)\n"
        ),
    );
    let program = dir.join(file_name);
    std::fs::write(&program, crashing).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    program
}

/// A test part that cannot run here because a tool or privilege is missing (`why` says
/// which, and how to get it). Under `CI=true` that is a failure: CI installs everything
/// (`scripts/ci-install.sh`), so a skip there would hide a missing install step. Elsewhere
/// it prints a `SKIPPED` line and notes it in `$REFEREE_SKIP_LOG`, whose lines
/// `scripts/test.sh` counts and prints at the end: never a silent pass.
pub fn skip_missing(why: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true, and this cannot be skipped there: {why}"
    );
    note_skip(why);
}

/// A test part that does not apply to this run by design (`why` says which run covers
/// it: e.g. the root part of an attack when the suite runs as a normal user, which
/// `scripts/test-as-user.sh` does after the root run). Printed and noted like
/// [`skip_missing`], never a failure.
pub fn skip_by_design(why: &str) {
    note_skip(why);
}

fn note_skip(why: &str) {
    eprintln!("SKIPPED {why}");
    if let Some(log) = std::env::var_os("REFEREE_SKIP_LOG") {
        use std::io::Write;
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
        {
            // One write a line: test processes append to the log at once.
            let line = format!("{}\n", why.replace('\n', " "));
            let _ = file.write_all(line.as_bytes());
        }
    }
}

/// Runs the page driver `tests/browser/<script>` (Node) on `page` with `args`, one page at a
/// time in a test binary, in a browser context of its own of the binary's one Chromium
/// ([`browser_host`]), and returns the JSON it prints; fails the test if the driver fails
/// or the page logged an error.
pub fn drive_page(
    script: &str,
    chromium: &std::path::Path,
    page: impl AsRef<std::ffi::OsStr>,
    args: &[&str],
) -> Value {
    drive_page_with(script, chromium, page, args, &[])
}

/// [`drive_page`] with variables added to the driver's environment (`VISION`: the page as
/// a colour vision sees it, `tests/browser/cdp.mjs`).
pub fn drive_page_with(
    script: &str,
    chromium: &std::path::Path,
    page: impl AsRef<std::ffi::OsStr>,
    args: &[&str],
    env: &[(&str, &str)],
) -> Value {
    let _one = browser_host::one_page();
    let driver = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/browser")
        .join(script);
    let socket = browser_host::socket(chromium);
    // Every temporary file the driver makes goes into a folder of this run, removed after
    // it with whatever still runs in it, also when the test fails.
    let scratch = browser_scratch::BrowserScratch::new();
    let out = std::process::Command::new("node")
        .arg(driver)
        .arg(page)
        .args(args)
        .env("CHROMIUM", chromium)
        .env("CDP_SOCKET", socket)
        .env("TMPDIR", scratch.path())
        .envs(env.iter().copied())
        .output()
        .unwrap();
    drop(scratch);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{script} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_str(stdout.trim()).unwrap();
    // No page ever logs an error or throws.
    assert_eq!(json["errors"], serde_json::json!([]), "console errors");
    json
}

/// Chromium, if the browser tests can run here (Chromium and Node both installed). When
/// they cannot, [`skip_missing`] says why (a failure under `CI=true`).
pub fn browser_ready(test: &str) -> Option<PathBuf> {
    let chromium = [
        std::env::var_os("CHROMIUM").map(PathBuf::from),
        Some(PathBuf::from("/usr/bin/chromium")),
        Some(PathBuf::from("/usr/bin/chromium-browser")),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.is_file());
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let missing = match (chromium, node) {
        (Some(c), true) => return Some(c),
        (None, false) => "chromium and node are",
        (None, true) => "chromium is",
        (Some(_), false) => "node is",
    };
    skip_missing(&format!(
        "{test}: {missing} missing (install Debian's `chromium` and `nodejs`, e.g. \
         scripts/ci-install.sh)"
    ));
    None
}

/// Runs `command` to its end and returns its output.
pub fn output(mut command: std::process::Command) -> std::process::Output {
    command.output().expect("the referee runs")
}

/// Bytes a program wrote, as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The stdout of `out`, failing the test with its status, stderr and stdout unless it
/// succeeded.
pub fn succeeded(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "the referee failed ({}):\n{}\n{}",
        out.status,
        text(&out.stderr),
        text(&out.stdout)
    );
    text(&out.stdout)
}

/// Runs `command` (stdin closed) and returns its output, failing the test with its stderr
/// and stdout unless it succeeded.
pub fn run_ok(
    mut command: impl std::borrow::BorrowMut<std::process::Command>,
) -> std::process::Output {
    let command = command.borrow_mut();
    let output = command
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{command:?} cannot start: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    output
}
