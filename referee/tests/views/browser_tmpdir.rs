//! A `TMPDIR` too long for Chromium: Chromium makes its socket at
//! `TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket`, a socket's path holds 107 bytes,
//! and past that it died with "Socket path too long" and left that folder behind. Every
//! page driver (`tests/browser/*.mjs`, the screenshot scripts' and the tests') refuses such
//! a `TMPDIR` before any browser starts, naming the problem and the fix.

use crate::common;

use std::path::Path;
use std::process::Command;

#[test]
fn every_page_driver_names_a_tmpdir_too_long_for_chromium_and_the_fix() {
    let test = "every_page_driver_names_a_tmpdir_too_long_for_chromium_and_the_fix";
    let Some(chromium) = common::browser_ready(test) else {
        return;
    };
    let drivers = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/browser");
    let base = common::fresh_dir("browser-tmpdir", "");
    // One byte past what fits (more when this folder is already longer).
    let name = "t".repeat(63usize.saturating_sub(base.as_os_str().len() + 1).max(1));
    let long = base.join(name);
    let bytes = long.as_os_str().len();
    assert!(bytes >= 63, "{}", long.display());
    std::fs::create_dir_all(&long).unwrap();
    for driver in ["viewer", "index", "amazons", "ticket", "town", "web"] {
        let out = Command::new("node")
            .arg(drivers.join(format!("{driver}.mjs")))
            .arg(base.join("absent.html"))
            .env("CHROMIUM", &chromium)
            .env("TMPDIR", &long)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{driver}: {said}");
        assert!(
            said.contains(&format!(
                "TMPDIR is too long for Chromium ({bytes} bytes, at most 62)"
            )) && said.contains("Set TMPDIR to a shorter folder"),
            "{driver}: {said}"
        );
        // No browser started: nothing in that TMPDIR.
        assert_eq!(std::fs::read_dir(&long).unwrap().count(), 0, "{driver}");
    }
}
