//! Claims of the README that no other test runs through the binary: the exit codes 1
//! (internal error) and 130 on SIGTERM, with `referee match` and real champion processes.

use crate::common;

use common::running;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn fixture(dir: &str, name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir)
        .join(name)
        .display()
        .to_string()
}

/// "130 interrupted (Ctrl-C or SIGTERM: every champion, and everything it started, is
/// killed)". Ctrl-C is `match_faults.rs`'s; this is SIGTERM, as a batch system or
/// `timeout(1)` sends it.
#[test]
fn sigterm_during_a_match_exits_130_and_kills_every_champion_and_what_it_started() {
    // Its own copy, so that the marker below is this test's only.
    let dir = common::fresh_dir("readme-doc", "sigterm");
    let spawner = dir.join("sigterm-spawner.sh");
    std::fs::copy(fixture("match", "spawner.sh"), &spawner).unwrap();
    let spawner = spawner.display().to_string();
    let out = dir.join("m");
    let child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "match", &spawner, &spawner, "random", "--seed", "24", "--out",
        ])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_until(
        "the grandchild never started",
        Duration::from_secs(30),
        || running("match-spawner-grandchild") && running(&spawner),
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let end = child.wait_with_output().unwrap();
    assert_eq!(
        end.status.code(),
        Some(130),
        "{:?}: {}",
        end.status,
        String::from_utf8_lossy(&end.stderr)
    );
    common::wait_until(
        "a champion's process outlived the terminated referee",
        Duration::from_secs(5),
        || !(running("match-spawner-grandchild") || running(&spawner)),
    );
    assert!(
        !out.join("record.json").exists(),
        "a record of a killed match"
    );
}

/// "Exit codes: ... 1 internal error": a failure that is not the input's (here, without
/// the jail, the champions' scratch cannot be made: the temporary directory is a file)
/// exits 1 with a message naming the path, where a bad flag, or a results folder that
/// cannot be made, exits 2.
#[test]
fn an_error_that_is_not_bad_input_exits_1_naming_the_path() {
    let dir = common::fresh_dir("readme-doc", "exit-1");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let end = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "match",
            "random",
            "greedy",
            "random",
            "--seed",
            "3",
            "--sandbox",
            "off",
            "--out",
        ])
        .arg(dir.join("m"))
        .env("TMPDIR", &file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&end.stderr);
    assert_eq!(end.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(file.to_str().unwrap()), "{stderr}");
    let end = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "match", "random", "greedy", "random", "--seed", "3", "--out",
        ])
        .arg(file.join("m"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&end.stderr);
    assert_eq!(end.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(file.to_str().unwrap()), "{stderr}");
}
