//! The folder a browser test's Chromium runs in (its `TMPDIR`: its profile, its
//! `org.chromium.Chromium.*` files), and the guard that leaves nothing of it behind: when it
//! is dropped, also when the test failed and whatever the driver had time to do, every
//! process still running with that `TMPDIR` (the page driver, Chromium and the processes
//! Chromium started in its own group) is killed, and the folder removed once none is left
//! to write in it.

use std::path::Path;
use std::time::Duration;

/// The scratch folder of one browser (`referee-browser-*` in `$TMPDIR`); give its
/// [`BrowserScratch::path`] to the driver as its `TMPDIR`.
pub struct BrowserScratch(Option<tempfile::TempDir>);

impl BrowserScratch {
    pub fn new() -> BrowserScratch {
        let dir = tempfile::Builder::new()
            .prefix("referee-browser-")
            .tempdir()
            .expect("a browser's scratch folder in TMPDIR");
        BrowserScratch(Some(dir))
    }

    pub fn path(&self) -> &Path {
        self.0.as_ref().expect("not dropped").path()
    }
}

impl Drop for BrowserScratch {
    fn drop(&mut self) {
        let Some(dir) = self.0.take() else {
            return;
        };
        let marker = format!("TMPDIR={}", dir.path().display());
        // Killed again until none is left alive: Chromium may start a process while its
        // others die. A zombie writes nothing more.
        let gone = super::poll_until(Duration::from_secs(10), || {
            let alive = alive_with(&marker);
            for &pid in &alive {
                // SAFETY: kill takes a pid and a signal number.
                unsafe { nix::libc::kill(pid, nix::libc::SIGKILL) };
            }
            alive.is_empty()
        });
        // Removed even when a process was left (it is named then): a folder left behind
        // is what this guard is for.
        let path = dir.path().to_path_buf();
        if let Err(e) = dir.close() {
            eprintln!("browser scratch {}: not removed: {e}", path.display());
        }
        assert!(
            gone || std::thread::panicking(),
            "a process with {marker} outlived its browser test"
        );
    }
}

/// The processes alive (not zombies) whose environment holds `marker` (`TMPDIR=...`), of
/// those this user may read.
fn alive_with(marker: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| pid != me)
        .filter(|pid| {
            let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The state follows the command's closing parenthesis.
            let zombie = stat
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X'));
            !zombie
                && environ
                    .split(|&b| b == 0)
                    .any(|var| var == marker.as_bytes())
        })
        .collect()
}
