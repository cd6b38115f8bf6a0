//! The one headless Chromium a test binary's page drivers share (`tests/browser/host.mjs`):
//! started by the first page a test opens, started again if it died, ended when the binary
//! exits. A browser's start costs about three times what a tab in a running one does, and
//! a pass opens a hundred pages or more (`referee/BENCHMARKS.md`, "The suite's own time");
//! each driver still gets a browser context of its own and its own scratch folder.

use super::browser_scratch::BrowserScratch;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The running host: its process (its stdin kept open: the host ends when it closes), the
/// socket its drivers connect to, and the folder it and its Chromium run in.
struct Host {
    child: Child,
    socket: PathBuf,
    /// The process that started it (the test binary, not a child it forked).
    owner: u32,
    // Dropped after the host ended: kills what is left with its TMPDIR, removes the folder.
    scratch: BrowserScratch,
}

impl Host {
    /// Whether its process still runs.
    fn alive(&mut self) -> bool {
        self.child.try_wait().is_ok_and(|status| status.is_none())
    }
}

static HOST: Mutex<Option<Host>> = Mutex::new(None);

/// Held while a page is driven: one page at a time in a test binary (the tests that read
/// timings, sizes and focus see the browser as before, when each had its own).
pub fn one_page() -> MutexGuard<'static, ()> {
    static ONE: Mutex<()> = Mutex::new(());
    ONE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The running host's process id, if one runs.
pub fn pid() -> Option<u32> {
    let mut host = HOST.lock().unwrap_or_else(|e| e.into_inner());
    let running = host.as_mut()?;
    running.alive().then(|| running.child.id())
}

/// The socket of this binary's shared browser (`chromium`), started if none runs; give it
/// to a page driver as `CDP_SOCKET`.
pub fn socket(chromium: &Path) -> PathBuf {
    static AT_EXIT: std::sync::Once = std::sync::Once::new();
    // SAFETY: registers a plain function that runs at exit.
    AT_EXIT.call_once(|| unsafe {
        nix::libc::atexit(end_at_exit);
    });
    let mut host = HOST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(running) = host.as_mut() {
        if running.alive() {
            return running.socket.clone();
        }
        // It died (its Chromium crashed or was killed): a new one for this page.
        end(host.take().unwrap());
    }
    let started = start(chromium);
    let socket = started.socket.clone();
    *host = Some(started);
    socket
}

fn start(chromium: &Path) -> Host {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/browser/host.mjs");
    let scratch = BrowserScratch::new();
    let mut child = Command::new("node")
        .arg(&script)
        .env("CHROMIUM", chromium)
        .env("TMPDIR", scratch.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("node {}: {e}", script.display()));
    // One line once it listens; nothing (it said why on stderr) if it could not start.
    let mut line = String::new();
    let read = std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line);
    let socket = PathBuf::from(line.trim_end());
    if !matches!(read, Ok(n) if n > 0) || !socket.is_absolute() {
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "the shared browser (node {}) did not start: {read:?}, said {line:?}",
            script.display()
        );
    }
    Host {
        child,
        socket,
        owner: std::process::id(),
        scratch,
    }
}

/// Closes the host's stdin, waits for it to end (it kills its Chromium first), then drops
/// its scratch folder (whatever still runs in it is killed, the folder removed).
fn end(mut host: Host) {
    drop(host.child.stdin.take());
    if super::wait_timeout(&mut host.child, Duration::from_secs(10)).is_none() {
        eprintln!("the shared browser did not end within 10 s of its stdin closing: killed");
    }
    drop(host.scratch);
}

extern "C" fn end_at_exit() {
    // A test thread may still hold the lock if the binary exits early: leave it then, the
    // host sees its stdin close when this process is gone.
    if let Ok(mut host) = HOST.try_lock() {
        // Only the process that started it: a forked child exiting is not the binary's end.
        if host.as_ref().is_some_and(|h| h.owner == std::process::id()) {
            end(host.take().unwrap());
        }
    }
}
