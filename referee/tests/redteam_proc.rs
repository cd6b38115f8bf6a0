//! What a jailed champion reads of the machine-wide counters of `/proc`, through the
//! binary, as root and as a user: the stall times of `/proc/pressure/*`, the interrupts
//! and softirqs per CPU, and the other counters of the whole machine that
//! `jail::proc_masks::MASKED` lists read empty (or not at all) in its jail, and no
//! pressure trigger can be written, while `/proc/loadavg` (kept: runtimes read it) still
//! reads. The message of an attack that works says `THE ATTACK WORKED`.
//!
//! Fixture: `tests/fixtures/redteam/machine_counters.sh`.

mod common;

use common::users::Who;
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// The files a red team read in every jail: each exists on any kernel with pressure
/// stall information (the first three) or at all (the last two).
const FOUND_BY_THE_RED_TEAM: &[&str] = &[
    "pressure/cpu",
    "pressure/memory",
    "pressure/io",
    "interrupts",
    "softirqs",
];

/// The `COUNTER <file> <bytes>` lines of the fixture's stderr: file -> what it read.
fn counters(stderr: &str) -> BTreeMap<String, String> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("COUNTER "))
        .filter_map(|l| l.split_once(' '))
        .map(|(file, read)| (file.to_string(), read.to_string()))
        .collect()
}

#[test]
fn a_jailed_champion_reads_nothing_of_the_machine_wide_counters() {
    // What the host shows: the red team's files must be there for the test to show anything.
    let on_host: Vec<&str> = FOUND_BY_THE_RED_TEAM
        .iter()
        .copied()
        .filter(|f| std::fs::read(Path::new("/proc").join(f)).is_ok_and(|b| !b.is_empty()))
        .collect();
    if !on_host.contains(&"interrupts") || !on_host.contains(&"softirqs") {
        panic!("/proc/interrupts or /proc/softirqs reads nothing here: {on_host:?}");
    }
    if on_host.len() < FOUND_BY_THE_RED_TEAM.len() {
        common::skip_missing(
            "redteam_proc: this kernel has no pressure stall information (/proc/pressure, \
             CONFIG_PSI): its masks are not shown here",
        );
    }
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/redteam/machine_counters.sh");
    common::users::each_run_in("redteam_proc", "counters", |who, dir| {
        let out = dir.join("out");
        let mut command = Command::new(REFEREE);
        command
            .arg("match")
            .arg(&fixture)
            .arg(common::passive())
            .args(["random", "--seed", "11", "--out"])
            .arg(&out)
            .env_remove(referee::reproduce_log::VARIABLE)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Who::User(uid, gid) = who {
            command.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        let done = command.output().unwrap();
        let said = common::text(&done.stderr);
        assert_eq!(done.status.code(), Some(0), "{said}");
        let stderr = std::fs::read_to_string(out.join("seat0.stderr")).unwrap();
        let sandbox = std::fs::read_to_string(out.join("record.json")).unwrap();
        assert!(
            sandbox.contains("jail=on"),
            "no jail here: nothing to show\n{sandbox}"
        );
        let read = counters(&stderr);
        let listed: Vec<&str> = read.keys().map(String::as_str).collect();
        let mut masked = jail::proc_masks::MASKED.to_vec();
        masked.sort_unstable();
        assert_eq!(
            listed, masked,
            "the fixture reads other files than the jail hides: keep both lists alike"
        );
        let seen: Vec<String> = read
            .iter()
            .filter(|(_, bytes)| !matches!(bytes.as_str(), "0" | "refused"))
            .map(|(file, bytes)| format!("/proc/{file}: {bytes} bytes"))
            .collect();
        assert!(
            seen.is_empty(),
            "THE ATTACK WORKED: a jailed champion reads the machine's counters: {}\n{stderr}",
            seen.join(", ")
        );
        for file in &on_host {
            assert_eq!(
                read[*file], "0",
                "/proc/{file} is not an empty file\n{stderr}"
            );
        }
        assert!(
            !stderr.contains("COUNTER-TRIGGER"),
            "THE ATTACK WORKED: a jailed champion wrote a pressure trigger\n{stderr}"
        );
        let kept = stderr
            .lines()
            .find_map(|l| l.strip_prefix("COUNTER-KEPT loadavg "))
            .and_then(|n| n.trim().parse::<u64>().ok());
        assert!(
            kept.is_some_and(|n| n > 0),
            "the fixture did not read /proc/loadavg (did it run?)\n{stderr}\n{said}"
        );
    });
}
