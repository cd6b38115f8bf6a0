//! CPU claims of `referee match` and `referee tournament` (`affinity.rs`), observed from
//! outside: the champions report the CPUs they may run on (`Cpus_allowed_list`) on stderr,
//! and the test holds or probes the claims (abstract socket names) itself. Every test uses
//! its own set of claims (`REFEREE_CPU_CLAIMS`), so that referees running elsewhere on the
//! machine do not count. Each user's referees see their own claims; as root, a normal user
//! that squats root's claims steers no match of root's (red team 11, finding 8).

use crate::common;

use common::users::{each_run, Who};
use jail::affinity::{claim_name, hold, is_claimed};
use serde_json::Value;
use std::fs::File;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// Long enough for any machine; the tests never wait for it, only up to it.
const PATIENCE: Duration = Duration::from_secs(60);

/// The CPUs this test process may use, as the kernel lists them (`0-1`, `0,2`, ...).
fn own_cpus() -> String {
    cpus_allowed(&std::fs::read_to_string("/proc/thread-self/status").unwrap()).unwrap()
}

/// The `Cpus_allowed_list` value in a `/proc/<pid>/status` text (or a champion's stderr).
fn cpus_allowed(status: &str) -> Option<String> {
    status
        .lines()
        .find_map(|line| line.strip_prefix("Cpus_allowed_list:"))
        .map(|list| list.trim().to_string())
}

/// Expand a CPU list (`0-2,5`) into its CPUs.
fn expand(list: &str) -> Vec<usize> {
    list.split(',')
        .flat_map(|part| match part.split_once('-') {
            Some((a, b)) => (a.parse().unwrap()..=b.parse().unwrap()).collect(),
            None => vec![part.parse().unwrap()],
        })
        .collect()
}

/// A champion, written into `dir`, that reports its CPUs and its open files on stderr when
/// `init_game` arrives, then (with `hold`) waits for `SIGUSR1` before it answers, then answers
/// `fin` to everything.
fn reporter(dir: &Path, hold: bool) -> String {
    let path = dir.join(if hold { "holder.sh" } else { "reporter.sh" });
    // The champion runs in its jail, where the test's files do not exist: it is released
    // by a signal (see `release_holders`).
    let wait = if hold {
        "trap 'released=1' USR1\nwhile [ -z \"$released\" ]; do sleep 0.02; done\n".to_string()
    } else {
        String::new()
    };
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nread -r _\nls -l /proc/$$/fd >&2\ngrep Cpus_allowed_list /proc/self/status >&2\n{wait}\
             echo fin\nwhile read -r _; do echo fin; done\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// Sends `SIGUSR1` to every holder champion (found by its command line in /proc: in its
/// jail, its program is `/champion/holder.sh`).
fn release_holders() {
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        // The path the holder has inside its jail (the referees name it by its host path).
        if String::from_utf8_lossy(&cmdline).contains("/champion/holder.sh") {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGUSR1,
            );
        }
    }
}

/// `referee match <seat0> passive passive --seed 5 --out <out>` with the set of claims
/// `claims`.
fn referee_match(seat0: &str, claims: &str, out: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .args(["match", seat0])
        .args([common::passive(), common::passive()])
        .args(["--seed", "5", "--time-scale", "4", "--out"])
        .arg(out)
        .args(extra)
        .env("REFEREE_CPU_CLAIMS", claims)
        // A holder plays until this test signals it: alone, its match would go another
        // way, so the suite does not play it again (scripts/test.sh).
        .env_remove(referee::reproduce_log::VARIABLE)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn succeeded(output: Output) -> Output {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The CPUs seat 0 of the match in `out` reported, once it has.
fn reported(out: &Path) -> String {
    let stderr = out.join("seat0.stderr");
    let mut list = None;
    common::wait_until("seat 0 did not report its CPUs", PATIENCE, || {
        list = std::fs::read_to_string(&stderr)
            .ok()
            .and_then(|s| cpus_allowed(&s));
        list.is_some()
    });
    list.unwrap()
}

/// A set of claims of this test alone.
fn claim_set(dir: &Path) -> String {
    let unique = dir.file_name().unwrap().to_string_lossy();
    format!("referee-test/{unique}")
}

/// The record of the match in `out` without its timings.
fn without_timings(out: &Path) -> Value {
    let mut record: Value =
        serde_json::from_slice(&std::fs::read(out.join("record.json")).unwrap()).unwrap();
    record.as_object_mut().unwrap().remove("timings");
    record
}

/// Stops the referee if a test fails before it is done with it.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `command` run as `who` (root's and a user's referees share the claims of a machine).
fn run_as(command: &mut Command, who: Who) -> &mut Command {
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid).env("HOME", "/tmp");
    }
    command
}

/// The uid of the referees run as `who`.
fn uid_of(who: Who) -> u32 {
    match who {
        Who::User(uid, _) => uid,
        Who::Root | Who::Me => jail::affinity::euid(),
    }
}

/// Both referees as root, then both as a normal user (as a user, both as that user).
#[test]
fn two_referees_at_once_take_different_cpus_and_a_killed_one_frees_its_own() {
    let cpus = expand(&own_cpus());
    if cpus.len() < 2 {
        common::skip_missing("pinning: spreading matches over CPUs needs at least two CPUs");
        return;
    }
    each_run("pinning", "two", |who| {
        let (first_as, second_as) = (who, who);
        let uid = uid_of(who);
        let is_claimed = |claims: &str, cpu: usize| is_claimed(claims, uid, cpu);
        let dir = common::fresh_dir("pinning", "two");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let claims = claim_set(&dir);
        let holder = reporter(&dir, true);
        let (out1, out2) = (dir.join("first"), dir.join("second"));
        let spawn = |out: &Path, who: Who| {
            std::fs::create_dir_all(out).unwrap();
            std::fs::set_permissions(out, std::fs::Permissions::from_mode(0o777)).unwrap();
            let stderr = File::create(out.join("stderr")).unwrap();
            let mut command = referee_match(&holder, &claims, out, &[]);
            Running(
                run_as(&mut command, who)
                    .stdout(Stdio::null())
                    .stderr(stderr)
                    .spawn()
                    .unwrap(),
            )
        };
        let mut first = spawn(&out1, first_as);
        let cpu1 = reported(&out1);
        let mut second = spawn(&out2, second_as);
        let cpu2 = reported(&out2);
        assert_eq!(cpu1, cpus[0].to_string(), "the first takes the first CPU");
        assert_eq!(
            cpu2,
            cpus[1].to_string(),
            "the second ({second_as:?}) sees the claim of the first ({first_as:?})"
        );
        assert!(is_claimed(&claims, cpus[0]) && is_claimed(&claims, cpus[1]));

        // Killed without a chance to clean up, the first referee leaves its CPU free.
        first.0.kill().unwrap();
        first.0.wait().unwrap();
        assert!(
            !is_claimed(&claims, cpus[0]),
            "a killed referee's claim is gone"
        );
        assert!(is_claimed(&claims, cpus[1]));

        release_holders();
        let status = second.0.wait().unwrap();
        assert!(
            status.success(),
            "{}",
            std::fs::read_to_string(out2.join("stderr")).unwrap()
        );
        assert!(
            !is_claimed(&claims, cpus[1]),
            "a finished match frees its CPU"
        );
        // A claim is no file: nothing is left beside the matches' own.
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["first", "holder.sh", "second"]);
        common::remove_dir(&dir);
    });
}

#[test]
fn a_match_takes_a_free_cpu_and_runs_unpinned_when_every_cpu_is_claimed() {
    let cpus = expand(&own_cpus());
    let dir = common::fresh_dir("pinning", "claimed");
    let claims = claim_set(&dir);
    let reporter = reporter(&dir, false);
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        succeeded(
            referee_match(&reporter, &claims, &out, extra)
                .output()
                .unwrap(),
        );
        out
    };

    // Every CPU but the last one is claimed by someone else: the match takes the last.
    let mut others: Vec<_> = cpus[..cpus.len() - 1]
        .iter()
        .map(|&cpu| hold(&claims, cpu).unwrap())
        .collect();
    let one_free = run("one-free", &[]);
    assert_eq!(reported(&one_free), cpus[cpus.len() - 1].to_string());

    // Every CPU is claimed: not pinned (all the CPUs of the referee), and no error.
    others.push(hold(&claims, cpus[cpus.len() - 1]).unwrap());
    let all_claimed = run("all-claimed", &[]);
    assert_eq!(reported(&all_claimed), own_cpus());

    // `--no-pin` never pins, even with every CPU free.
    drop(others);
    let no_pin = run("no-pin", &["--no-pin"]);
    assert_eq!(reported(&no_pin), own_cpus());
    let free = run("free", &[]);
    assert_eq!(reported(&free), cpus[0].to_string());

    // Where a match runs never shows in its result; champions inherit no claim.
    let record = without_timings(&free);
    for out in [&free, &one_free, &all_claimed, &no_pin] {
        assert_eq!(without_timings(out), record, "{}", out.display());
        let stderr = std::fs::read_to_string(out.join("seat0.stderr")).unwrap();
        assert!(
            stderr.contains("/dev/null") || stderr.contains("pipe:"),
            "{stderr}"
        );
        assert!(!stderr.contains("socket:"), "{stderr}");
    }
    common::remove_dir(&dir);
}

#[test]
fn an_empty_claim_set_variable_means_the_default_one() {
    let dir = common::fresh_dir("pinning", "default");
    let holder = reporter(&dir, true);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut command = referee_match(&holder, "", &out, &[]);
    let stderr = File::create(out.join("stderr")).unwrap();
    let running = Running(command.stderr(stderr).spawn().unwrap());
    let list = reported(&out);
    // Unless other referees of the machine hold every CPU (then it runs unpinned), its CPU
    // is claimed in the machine's set.
    if list != own_cpus() {
        let cpu: usize = list.parse().unwrap();
        let me = jail::affinity::euid();
        assert!(is_claimed(jail::affinity::CLAIM_SET, me, cpu), "{list}");
    }
    release_holders();
    let mut running = running;
    assert!(running.0.wait().unwrap().success());
    let stderr = std::fs::read_to_string(out.join("stderr")).unwrap();
    assert!(!stderr.contains("cannot claim"), "{stderr}");
    common::remove_dir(&dir);
}

#[test]
fn a_claim_set_that_cannot_be_used_means_unpinned_matches_with_a_warning() {
    let dir = common::fresh_dir("pinning", "unusable");
    let reporter = reporter(&dir, false);
    // Longer than an abstract socket's name may be.
    let too_long = "x".repeat(200);
    let out = dir.join("out");
    let output = succeeded(
        referee_match(&reporter, &too_long, &out, &[])
            .output()
            .unwrap(),
    );
    assert_eq!(reported(&out), own_cpus());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot claim a CPU in the set") && stderr.contains("not pinned"),
        "{stderr}"
    );
    common::remove_dir(&dir);
}

/// A tournament pins each match to a free CPU, as `referee match` does, and `--no-pin`
/// leaves every match on all the CPUs of the referee: seat 0's report in each match of
/// the reporter, with a claim directory of the test's own.
#[test]
fn a_tournament_pins_its_matches_unless_told_not_to() {
    let cpus = expand(&own_cpus());
    if cpus.len() < 2 {
        // Pinned or not, a champion then runs on the one CPU there is.
        common::skip_by_design("pinning: one CPU, where a pinned match looks unpinned");
        return;
    }
    let dir = common::fresh_dir("pinning", "tournament");
    let reporter = reporter(&dir, false);
    // The CPUs the reporter reported in each match it played of the tournament `name`.
    let run = |name: &str, extra: &[&str]| -> Vec<String> {
        let results = dir.join(name);
        succeeded(
            Command::new(REFEREE)
                .args(["tournament", &reporter, &common::passive(), "random"])
                .args([
                    "--seed",
                    "5",
                    "--time-scale",
                    "4",
                    "--jobs",
                    "1",
                    "--name",
                    "t",
                ])
                .arg("--results")
                .arg(&results)
                .args(extra)
                .env("REFEREE_CPU_CLAIMS", claim_set(&dir))
                .stdin(Stdio::null())
                .output()
                .unwrap(),
        );
        let matches = results.join("t/matches");
        let reports: Vec<String> = std::fs::read_dir(&matches)
            .unwrap()
            .flat_map(|m| {
                let m = m.unwrap().path();
                (0..3).filter_map(move |seat| {
                    let stderr = std::fs::read_to_string(m.join(format!("seat{seat}.stderr")));
                    stderr.ok().and_then(|s| cpus_allowed(&s))
                })
            })
            .collect();
        assert!(!reports.is_empty(), "no report in {}", matches.display());
        reports
    };
    for list in run("pinned", &[]) {
        assert_eq!(expand(&list).len(), 1, "pinned: {list}");
    }
    for list in run("unpinned", &["--no-pin"]) {
        assert_eq!(list, own_cpus(), "--no-pin");
    }
    common::remove_dir(&dir);
}

/// Red team 11, finding 8: a normal user holds every name of root's claims but the last
/// CPU's, to steer root's matches to the CPU it chose (a hogged one). Root's match is not
/// steered: it runs unpinned and says once who squats its claims.
#[test]
fn claims_squatted_by_another_user_steer_no_match() {
    let cpus = expand(&own_cpus());
    if !common::users::is_root() {
        common::skip_by_design(
            "pinning: a squatter as another user needs root (scripts/test.sh runs it as root)",
        );
        return;
    }
    if cpus.len() < 2 {
        common::skip_missing("pinning: a squatter of every CPU but one needs two CPUs");
        return;
    }
    let dir = common::fresh_dir("pinning", "squatted");
    let claims = claim_set(&dir);
    let reporter = reporter(&dir, false);
    let (uid, gid) = common::users::test_user();
    let me = jail::affinity::euid();
    // The squatter: root's names of every CPU but the last, held until its stdin closes.
    let names: Vec<String> = cpus[..cpus.len() - 1]
        .iter()
        .map(|&cpu| claim_name(&claims, me, cpu))
        .collect();
    let script = "import socket, sys\nheld = []\nfor name in sys.argv[1:]:\n    \
                  s = socket.socket(socket.AF_UNIX)\n    s.bind('\\0' + name)\n    \
                  held.append(s)\nprint('held', flush=True)\nsys.stdin.read()\n";
    let mut squatter = Command::new("python3");
    squatter
        .arg("-c")
        .arg(script)
        .args(&names)
        .uid(uid)
        .gid(gid)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut squatter = match squatter.spawn() {
        Ok(child) => Running(child),
        Err(_) => {
            common::skip_missing("pinning: the squatter needs python3");
            return;
        }
    };
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(squatter.0.stdout.as_mut().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line.trim(), "held");
    for name in &names {
        assert_eq!(jail::affinity::holder(name), Some(uid), "{name}");
    }
    let out = dir.join("out");
    let output = succeeded(
        referee_match(&reporter, &claims, &out, &[])
            .output()
            .unwrap(),
    );
    assert_eq!(
        reported(&out),
        own_cpus(),
        "unpinned, not steered to the one CPU left"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let said = format!("is held by uid {uid}, not by a referee of this user");
    assert_eq!(stderr.matches(&said).count(), 1, "{stderr}");
    drop(squatter);
    common::remove_dir(&dir);
}
