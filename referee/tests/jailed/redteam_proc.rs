//! What a jailed champion reads of the machine-wide counters of `/proc`, through the
//! binary, as root and as a user, in both of a jail's `/proc`s: with `subset=pid`
//! (`proc=pid` on the sandbox line, kernels 5.8+) nothing in `/proc` but its processes,
//! `self` and `thread-self`; with the masks (`proc=masked`, forced here as on an older
//! kernel) the stall times of `/proc/pressure/*`, the interrupts and softirqs per CPU, the
//! file systems' counters (`/proc/fs`), quota's count of `sync` calls, the live cgroups and
//! the other counters of the whole machine that `jail::proc_masks::MASKED` lists read empty
//! (or not at all), and no pressure trigger can be written; its own `/proc/self/stat`
//! still reads in both. The message of an attack that works says `THE ATTACK WORKED`.
//!
//! Fixture: `tests/fixtures/redteam/machine_counters.sh`.

use crate::common;

use common::users::Who;
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// The files a red team read in every jail: each exists on any kernel with pressure
/// stall information (the first three) or at all (the others).
const FOUND_BY_THE_RED_TEAM: &[&str] = &[
    "pressure/cpu",
    "pressure/memory",
    "pressure/io",
    "interrupts",
    "softirqs",
    "fs",
    "cgroups",
    "irq",
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
        .filter(|f| {
            let path = Path::new("/proc").join(f);
            std::fs::read(&path).is_ok_and(|b| !b.is_empty())
                || std::fs::read_dir(&path).is_ok_and(|mut d| d.next().is_some())
        })
        .collect();
    for needed in ["interrupts", "softirqs", "fs", "irq"] {
        if !on_host.contains(&needed) {
            panic!("/proc/{needed} reads nothing here: {on_host:?}");
        }
    }
    if on_host.len() < FOUND_BY_THE_RED_TEAM.len() {
        common::skip_missing(
            "redteam_proc: this kernel has no pressure stall information (/proc/pressure, \
             CONFIG_PSI) or no /proc/cgroups: their masks are not shown here",
        );
    }
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/redteam/machine_counters.sh");
    common::users::each_run_in("redteam_proc", "counters", |who, dir| {
        // The masks first: a mask dropped shows as the attack working there.
        for masked in [true, false] {
            let out = dir.join(if masked { "out-masked" } else { "out-pid" });
            let mut command = Command::new(REFEREE);
            command
                .arg("match")
                .arg(&fixture)
                .arg(common::passive())
                .args(["random", "--seed", "11", "--out"])
                .arg(&out)
                .env_remove(referee::reproduce_log::VARIABLE)
                .env_remove(jail::view::PROC_MASKED_VARIABLE)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            if masked {
                command.env(jail::view::PROC_MASKED_VARIABLE, "1");
            }
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
            let mode = if masked {
                "proc=masked(as asked)"
            } else {
                "proc=pid"
            };
            if !sandbox.contains(mode) {
                assert!(
                    !masked && sandbox.contains("proc=masked(subset=pid refused"),
                    "the sandbox line does not say {mode}\n{sandbox}"
                );
                common::skip_missing(
                    "redteam_proc: this kernel refuses subset=pid (before 5.8): only the \
                     masks are shown here",
                );
                continue;
            }
            let read = counters(&stderr);
            let seen: Vec<String> = read
                .iter()
                .filter(|(_, bytes)| !matches!(bytes.as_str(), "0" | "0d" | "refused"))
                .map(|(file, bytes)| format!("/proc/{file}: {bytes}"))
                .collect();
            assert!(
                seen.is_empty(),
                "THE ATTACK WORKED ({mode}): a jailed champion reads the machine's counters: \
                 {}\n{stderr}",
                seen.join(", ")
            );
            let listed: Vec<&str> = read.keys().map(String::as_str).collect();
            let mut all = jail::proc_masks::MASKED.to_vec();
            all.sort_unstable();
            assert_eq!(
                listed, all,
                "the fixture reads other files than the jail hides: keep both lists alike"
            );
            if masked {
                for file in &on_host {
                    assert!(
                        matches!(read[*file].as_str(), "0" | "0d"),
                        "/proc/{file} is not empty\n{stderr}"
                    );
                }
            } else {
                let names = stderr
                    .lines()
                    .find_map(|l| l.strip_prefix("PROC-NAMES "))
                    .unwrap_or_default();
                assert_eq!(
                    names.split_whitespace().collect::<Vec<_>>(),
                    ["self", "thread-self"],
                    "THE ATTACK WORKED: /proc shows more than its processes\n{stderr}"
                );
            }
            assert!(
                !stderr.contains("COUNTER-TRIGGER"),
                "THE ATTACK WORKED: a jailed champion wrote a pressure trigger\n{stderr}"
            );
            let kept = stderr
                .lines()
                .find_map(|l| l.strip_prefix("COUNTER-KEPT self/stat "))
                .and_then(|n| n.trim().parse::<u64>().ok());
            assert!(
                kept.is_some_and(|n| n > 0),
                "the fixture did not read /proc/self/stat (did it run?)\n{stderr}\n{said}"
            );
        }
    });
}
