//! Red team, issue 26 (F4): work done after a champion's last callback, checked before the
//! match's result is fixed. Through the real binary, as root and as a user: a tournament
//! of the attacker and two honest champions, its record replayed and its leaderboard read.
//! The test FAILS (`THE ATTACK WORKED`) while the hole is open.
//!
//! Fixture: `tests/fixtures/redteam/late_worker.c` (built with `cc`), opponents
//! `tests/fixtures/attacks/slow.sh` (50 ms asleep a callback: the stretch the worker has).

use crate::common;

use common::users::Who;

use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// `late_worker.c`, built into `dir`, readable and executable by everyone.
fn compiled(dir: &Path) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/redteam/late_worker.c");
    let out = dir.join("champion");
    let built = Command::new("cc")
        .args(["-O1", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .expect("cc");
    assert!(built.success(), "compiling late_worker.c failed");
    common::chmod(&out, 0o755);
    out
}

/// `referee ARGS` as `who`, in `dir`.
fn referee(who: Who, dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(REFEREE);
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid).env("HOME", "/tmp");
    }
    command.output().expect("the referee runs")
}

fn text(out: &Output) -> String {
    format!(
        "[{}]\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The row of `champion` in `leaderboard.csv` of `results`, as `column -> value`.
fn leaderboard_row(results: &Path, champion: &str) -> BTreeMap<String, String> {
    let text = fs::read_to_string(results.join("leaderboard.csv")).expect("leaderboard.csv");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>()
        })
        .find(|row| row["champion"] == champion)
        .unwrap_or_else(|| panic!("no row of {champion} in the leaderboard:\n{text}"))
}

/// F4: a champion that forks a worker in its last callback (`end_game`), `SIGCHLD`
/// ignored, the worker woken by its own `SIGCONT` timer while the champion is frozen and
/// the others play their `end_game`, burning CPU and exiting (reaped at once): no check
/// before a thaw followed, so the work went unseen and the match counted no fault. Where
/// it is stopped with `SIGSTOP` (`freeze=sigstop`: as a user), the check is made once more
/// before the result is fixed: its seat gets a `timeout` fault that says it worked while
/// frozen after its last callback, the record says so and replays, the leaderboard counts
/// it (`faults_timeout`), and the honest seats are clean. Where the cgroup freezer holds
/// it (`freeze=cgroup`: as root), the worker never runs while it is frozen: no fault,
/// nothing burnt.
#[test]
fn redteam_late_work_after_the_last_callback_is_a_fault() {
    let _heavy = common::heavy();
    common::users::each_run_in("redteam_late", "late_worker", |who, dir| {
        let attacker_dir = dir.join("late");
        fs::create_dir_all(&attacker_dir).unwrap();
        common::chmod(&attacker_dir, 0o755);
        compiled(&attacker_dir);
        let slow = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/attacks/slow.sh");
        for name in ["slow_a.sh", "slow_b.sh"] {
            fs::copy(&slow, dir.join(name)).unwrap();
            common::chmod(&dir.join(name), 0o755);
        }
        let results = dir.join("results");
        // The worker needs the machine to schedule it while its champion is frozen: a
        // match where it never ran (nothing burnt, no fault) shows nothing, and is played
        // again, at most 5 times.
        let mut attempt = 0;
        let (out, run, one, record, seat, stderr) = loop {
            let name = format!("late-{attempt}");
            let out = referee(
                who,
                dir,
                &[
                    "tournament",
                    "late",
                    "slow_a.sh",
                    "slow_b.sh",
                    "--rounds",
                    "1",
                    "--jobs",
                    "1",
                    "--seed",
                    "7",
                    "--name",
                    &name,
                    "--results",
                    results.to_str().unwrap(),
                ],
            );
            let run = results.join(&name);
            assert!(
                out.status.success(),
                "the tournament failed\n{}",
                text(&out)
            );
            let matches = run.join("matches");
            let ids: Vec<PathBuf> = fs::read_dir(&matches)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            let [one] = ids.as_slice() else {
                panic!("expected one match: {ids:?}\n{}", text(&out));
            };
            let record: Value =
                serde_json::from_slice(&fs::read(one.join("record.json")).unwrap()).unwrap();
            let seat = record["seats"]
                .as_array()
                .unwrap()
                .iter()
                .position(|s| s["name"] == "late")
                .expect("the attacker's seat");
            let stderr = fs::read_to_string(one.join(format!("seat{seat}.stderr"))).unwrap();
            let faulted = !record["faults"].as_array().unwrap().is_empty();
            let frozen_by_cgroup = record["sandbox"]
                .as_str()
                .unwrap()
                .contains("freeze=cgroup");
            if faulted || frozen_by_cgroup || stderr.contains("burnt") {
                break (out, run, one.clone(), record, seat, stderr);
            }
            attempt += 1;
            // The freeze can also keep the worker from ever running (its timer's SIGCONT
            // discarded by a stop): the attack held before any check. Whenever it runs, the
            // assertions below hold; 5 matches where it never ran show that much.
            if attempt == 5 {
                break (out, run, one.clone(), record, seat, stderr);
            }
        };
        let faults: Vec<&Value> = record["faults"].as_array().unwrap().iter().collect();
        let summary = format!(
            "[as {who:?}] sandbox: {}\nfaults: {faults:?}\nattacker's stderr:\n{stderr}\n{}",
            record["sandbox"],
            text(&out)
        );
        assert!(
            faults.iter().all(|f| f["seat"] == seat),
            "an honest seat got a fault\n{summary}"
        );
        let board = leaderboard_row(&run, "late");
        let sandbox = record["sandbox"].as_str().unwrap();
        if sandbox.contains("freeze=cgroup") {
            assert!(
                faults.is_empty() && !stderr.contains("info late_worker"),
                "the cgroup freezer did not hold the worker after the last callback\n{summary}"
            );
            assert_eq!(board["faults_timeout"], "0", "{board:?}\n{summary}");
            assert_eq!(board["rank"], "1", "{board:?}\n{summary}");
        } else if faults.is_empty() && !stderr.contains("burnt") {
            // The worker never ran while its champion was frozen, in any of the matches
            // above: nothing was taken, nothing is counted.
            eprintln!("[as {who:?}] the worker never ran after its last callback in 5 matches");
            assert_eq!(board["faults_timeout"], "0", "{board:?}\n{summary}");
        } else {
            assert!(
                sandbox.contains("freeze=sigstop(no cgroup freezer)"),
                "the sandbox line does not say how the jail is frozen\n{summary}"
            );
            let [fault] = faults.as_slice() else {
                panic!(
                    "THE ATTACK WORKED: the worker forked in the last callback ran while the \
                     champion was frozen and the match counted no fault of it\n{summary}"
                );
            };
            assert_eq!(fault["kind"], "timeout", "{summary}");
            // After its last callback (`end_game`): outside every callback, the record
            // puts it in none.
            assert!(fault["callback"].is_null(), "{summary}");
            let message = fault["message"].as_str().unwrap();
            assert!(
                message.starts_with(jail::fault::WORKED_AFTER_LAST),
                "{message}\n{summary}"
            );
            assert_eq!(board["faults_timeout"], "1", "{board:?}\n{summary}");
            // Rule 28 ranks the match by the final scores, which the three passive seats
            // share; the leaderboard then puts fewer faults first.
            assert_eq!(board["rank"], "3", "{board:?}\n{summary}");
        }
        // The record, late fault and all, is what the match wrote: it replays.
        let replay = referee(
            who,
            dir,
            &["replay", one.join("record.json").to_str().unwrap()],
        );
        assert!(
            replay.status.success(),
            "the record does not replay\n{}\n{summary}",
            text(&replay)
        );
    });
}
