//! End-to-end tests of `referee tournament` and `referee merge`: the real binary, built-in
//! and shell champions, and misbehaving fixtures. Files are compared with their timing
//! columns set aside.

use crate::common;

use common::shell_champion as shell;
use common::tables::forget_last_match;

use common::running;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tournament")
        .join(name)
        .display()
        .to_string()
}

/// Four quick champions: 4 sets of three.
fn four() -> Vec<String> {
    vec![
        "random".into(),
        "greedy".into(),
        shell("passive.sh"),
        shell("builder.sh"),
    ]
}

fn tournament(results: &Path, champions: &[String], extra: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .arg("tournament")
        .args(champions)
        .args(["--name", "t", "--seed", "77", "--time-scale", "2"])
        .arg("--results")
        .arg(results)
        .args(extra)
        .stdin(Stdio::null());
    command
}

/// The three result tables and tournament.json of a tournament directory.
fn results(dir: &Path) -> (Vec<Vec<BTreeMap<String, String>>>, String) {
    let tables = ["matches.csv", "leaderboard.csv", "pairwise.csv"]
        .map(|f| common::tables::untimed(&dir.join(f)))
        .to_vec();
    let spec = std::fs::read_to_string(dir.join("tournament.json")).unwrap();
    (tables, spec)
}

#[test]
fn one_or_two_jobs_give_the_same_results_and_a_complete_balanced_round_robin() {
    let dir = common::fresh_dir("tournament", "jobs");
    let (a, b) = (dir.join("a"), dir.join("b"));
    common::run_ok(tournament(&a, &four(), &["--rounds", "3", "--jobs", "1"]));
    let out = common::run_ok(tournament(&b, &four(), &["--rounds", "3", "--jobs", "2"]));
    assert_eq!(results(&a.join("t")), results(&b.join("t")));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("rank") && stdout.contains("greedy"),
        "{stdout}"
    );

    // Complete: every set of three plays 3 times; balanced: 3 times in each seat.
    let matches = common::tables::untimed(&a.join("t/matches.csv"));
    assert_eq!(matches.len(), 12);
    let ids: Vec<String> = matches.iter().map(|r| r["id"].clone()).collect();
    assert_eq!(ids, (0..12).map(|i| i.to_string()).collect::<Vec<_>>());
    let mut sets: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    let mut seats: BTreeMap<(String, usize), usize> = BTreeMap::new();
    for row in &matches {
        let mut set: Vec<String> = (0..3)
            .map(|s| row[&format!("champion{s}")].clone())
            .collect();
        for (s, name) in set.iter().enumerate() {
            *seats.entry((name.clone(), s)).or_default() += 1;
        }
        set.sort();
        *sets.entry(set).or_default() += 1;
        assert!(row["reproduce"].starts_with("referee match "), "{row:?}");
        assert!(row["reproduce"].contains(&format!("--seed {}", row["seed"])));
        assert!(a
            .join("t/matches")
            .join(&row["id"])
            .join("record.json")
            .exists());
    }
    assert_eq!(sets.len(), 4);
    assert!(sets.values().all(|&n| n == 3), "{sets:?}");
    assert_eq!(seats.len(), 12);
    assert!(seats.values().all(|&n| n == 3), "{seats:?}");

    // The leaderboard's points are the sum of rule-26 points recomputed from the scores.
    let mut points: BTreeMap<String, u64> = BTreeMap::new();
    for row in &matches {
        let score = |s: usize| row[&format!("score{s}")].parse::<i32>().unwrap();
        for s in 0..3 {
            let ahead = (0..3).filter(|&o| o != s && score(o) >= score(s)).count();
            let p = [3, 1, 0][ahead];
            assert_eq!(row[&format!("points{s}")], p.to_string());
            *points
                .entry(row[&format!("champion{s}")].clone())
                .or_default() += p;
        }
    }
    for line in common::tables::untimed(&a.join("t/leaderboard.csv")) {
        assert_eq!(line["points"], points[&line["champion"]].to_string());
        assert_eq!(line["matches"], "9");
    }
}

#[test]
fn a_run_killed_midway_resumes_to_the_same_files() {
    let dir = common::fresh_dir("tournament", "resume");
    let (whole, cut) = (dir.join("whole"), dir.join("cut"));
    let args = ["--rounds", "6", "--jobs", "1"];
    common::run_ok(tournament(&whole, &four(), &args));

    let mut child = tournament(&cut, &four(), &args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    common::wait_until("no rows appear", Duration::from_secs(60), || {
        common::tables::played(&cut.join("t")) >= 5
    });
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let played = common::tables::played(&cut.join("t"));
    assert!(played < 24, "the run finished before it was killed");
    // Its progress.json still says running; `referee status` sees its referee is gone.
    let status = status(&cut.join("t"));
    assert!(
        status.contains(&format!("{played}/24 matches"))
            && status.contains("stopped without finishing (its referee on ")
            && status.contains(&format!("(pid {}) is gone", child.id())),
        "{status}"
    );
    // A write cut by the kill: a torn last line is ignored.
    let csv = cut.join("t/matches.csv");
    let mut text = std::fs::read_to_string(&csv).unwrap();
    text.push_str("23,1234,0,gre");
    std::fs::write(&csv, text).unwrap();

    // Conflicting flags are refused, naming the flag.
    let refused = Command::new(REFEREE)
        .args([
            "tournament",
            "--name",
            "t",
            "--resume",
            "--seed",
            "78",
            "--results",
        ])
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--seed 78 conflicts"), "{stderr}");

    let out = common::run_ok(tournament(&cut, &[], &["--resume", "--jobs", "2"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("{played} already played")),
        "{stderr}"
    );
    assert_eq!(results(&whole.join("t")), results(&cut.join("t")));
}

#[test]
fn shards_merged_equal_a_single_run() {
    let dir = common::fresh_dir("tournament", "shards");
    let (single, sharded) = (dir.join("single"), dir.join("sharded"));
    let args = ["--rounds", "2", "--jobs", "2"];
    common::run_ok(tournament(&single, &four(), &args));
    for i in 1..=3 {
        let shard = format!("{i}/3");
        common::run_ok(tournament(
            &sharded,
            &four(),
            &[&args[..], &["--shard", &shard]].concat(),
        ));
    }
    // Two of the three shards: refused, naming the missing one, unless --partial.
    let two = || {
        let mut merge = Command::new(REFEREE);
        merge.arg("merge");
        for i in [1, 3] {
            merge.arg(sharded.join(format!("t/shard-{i}-of-3")));
        }
        merge
    };
    let out = two().output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("shards missing: 2/3") && stderr.contains("--partial"),
        "{stderr}"
    );
    assert!(
        !sharded.join("t/leaderboard.csv").exists(),
        "nothing merged"
    );
    let out = common::run_ok({
        let mut merge = two();
        merge.arg("--partial");
        merge
    });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: shards missing: 2/3") && stderr.contains("partial"),
        "{stderr}"
    );

    // A shard that lost its last match (a task killed at that moment): the merge refuses,
    // naming it, and `referee status` says it stopped; its resume completes it.
    let csv = sharded.join("t/shard-2-of-3/matches.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let cut = text[..text.trim_end().rfind('\n').unwrap() + 1].to_string();
    std::fs::write(&csv, &cut).unwrap();
    let merge = || {
        let mut merge = Command::new(REFEREE);
        merge.arg("merge");
        for i in 1..=3 {
            merge.arg(sharded.join(format!("t/shard-{i}-of-3")));
        }
        merge
    };
    let out = merge().output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("incomplete: shard 2/3") && stderr.contains("has 2 of its 3 matches"),
        "{stderr}"
    );
    let status = status(&sharded.join("t"));
    assert!(
        status.contains("shard 1/3: 3/3 matches, faults 0, finished")
            && status.contains("shard 2/3: 2/3 matches, faults 0, stopped without finishing")
            && status.contains("tournament t (3 shards): 7/8 matches")
            && status.contains("stopped without finishing: shard 2/3; run each again"),
        "{status}"
    );
    // Shards without a folder yet (a task still queued looks the same): not started, with
    // no advice to run them "again".
    let partial = sharded.join("partial");
    std::fs::create_dir_all(&partial).unwrap();
    let copied = Command::new("cp")
        .arg("-a")
        .arg(sharded.join("t/shard-1-of-3"))
        .arg(&partial)
        .status()
        .unwrap();
    assert!(copied.success());
    let unstarted = self::status(&partial);
    assert!(
        unstarted.contains("shard 2/3: not started")
            && unstarted.contains("not started: shard 2/3, 3/3; start each with the same command")
            && unstarted.contains("waiting in a queue")
            && !unstarted.contains("run each again"),
        "{unstarted}"
    );
    common::run_ok(tournament(&sharded, &[], &["--resume", "--shard", "2/3"]));
    let out = common::run_ok(merge());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("warning"),
        "a complete merge warns: {stderr}"
    );
    assert_eq!(results(&single.join("t")), results(&sharded.join("t")));
    let status = self::status(&sharded.join("t"));
    assert!(
        status.contains("tournament t (3 shards): 8/8 matches, faults 0, complete")
            && !status.contains("stopped"),
        "{status}"
    );
}

/// What `referee status` prints for a tournament's directory.
fn status(dir: &Path) -> String {
    let out = common::run_ok({
        let mut c = Command::new(REFEREE);
        c.arg("status").arg(dir);
        c
    });
    String::from_utf8(out.stdout).unwrap()
}

/// Every process descended from `pid` (the jailed champions too: the host sees them).
fn descendants(pid: i32) -> Vec<i32> {
    let parents: Vec<(i32, i32)> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            let after = &stat[stat.rfind(')')? + 2..];
            let ppid = after.split(' ').nth(1)?.parse().ok()?;
            Some((e.file_name().to_str()?.parse().ok()?, ppid))
        })
        .collect();
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(parents.iter().filter(|p| p.1 == parent).map(|p| p.0));
        i += 1;
    }
    found.remove(0);
    found
}

/// Champions with matches long enough to be cut: `slow.sh` sits in half of them.
fn slow_four() -> Vec<String> {
    vec![
        "random".into(),
        "greedy".into(),
        fixture("slow.sh"),
        shell("passive.sh"),
    ]
}

#[test]
fn a_cancelled_job_is_no_result_and_its_resume_equals_an_uninterrupted_run() {
    // `scancel` (or a time limit) sends SIGTERM to every process of the job: the referee
    // and its champions at once. Before, the match in flight was kept as three crashes.
    let dir = common::fresh_dir("tournament", "cancelled");
    let (whole, cut) = (dir.join("whole"), dir.join("cut"));
    let args = ["--rounds", "6", "--jobs", "2"];
    common::run_ok(tournament(&whole, &slow_four(), &args));
    let child = tournament(&cut, &slow_four(), &args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    common::wait_until("no rows appear", Duration::from_secs(60), || {
        common::tables::played(&cut.join("t")) >= 2
            && descendants(pid).iter().any(|&p| {
                std::fs::read(format!("/proc/{p}/cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains("slow.sh"))
            })
    });
    common::wait_until("no progress.json", Duration::from_secs(10), || {
        cut.join("t/progress.json").exists()
    });
    let watched = status(&cut.join("t"));
    assert!(
        watched.starts_with("tournament t: ")
            && watched.contains("/24 matches, faults 0, running on"),
        "{watched}"
    );
    let mut victims = descendants(pid);
    victims.push(pid);
    for p in victims {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(p),
            nix::sys::signal::Signal::SIGTERM,
        );
    }
    let started = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    // Slurm's default grace before its SIGKILL is 30 s; the referee needs about one.
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?} to stop",
        started.elapsed()
    );
    assert!(stderr.contains("SIGTERM: stopping"), "{stderr}");
    let played = common::tables::played(&cut.join("t"));
    assert!(played < 24, "the run finished before it was cancelled");
    let text = std::fs::read_to_string(cut.join("t/matches.csv")).unwrap();
    assert!(
        !text.contains("crash"),
        "a cancelled match was kept:\n{text}"
    );
    let stopped = status(&cut.join("t"));
    assert!(
        stopped.contains(&format!(
            "{played}/24 matches, faults 0, stopped without finishing"
        )),
        "{stopped}"
    );

    common::run_ok(tournament(&cut, &[], &["--resume", "--jobs", "2"]));
    assert_eq!(results(&whole.join("t")), results(&cut.join("t")));
    let finished = status(&cut.join("t"));
    let mut lines = finished.lines();
    assert_eq!(
        lines.next(),
        Some("tournament t: 24/24 matches, faults 0, finished"),
        "{finished}"
    );
    assert!(
        lines.next().is_some_and(|l| l.starts_with("unverified: ")) && lines.next().is_none(),
        "{finished}"
    );
}

/// The `slow.sh` champions running under the referee `pid`.
fn slow_champions(pid: i32) -> Vec<i32> {
    descendants(pid)
        .into_iter()
        .filter(|&p| {
            std::fs::read(format!("/proc/{p}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains("slow.sh"))
        })
        .collect()
}

fn sigterm(pid: i32) {
    let _ = nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGTERM,
    );
}

/// A champion killed by SIGTERM (a stop signal the referee never sends) while the referee
/// itself is not told to stop: nobody stopped the run, and the death is the champion's
/// crash, kept as any other; the match is not played again (from the referee, a champion
/// killed from outside and one that killed itself look the same, and a replay would be a
/// second roll of a lost match: `redteam_stop.rs`).
#[test]
fn a_champion_killed_from_outside_alone_is_its_crash_and_never_played_again() {
    let dir = common::fresh_dir("tournament", "outside");
    let hit = dir.join("hit");
    let args = ["--rounds", "6", "--jobs", "2"];
    let child = tournament(&hit, &slow_four(), &args)
        // The match whose champion this test kills would go another way alone: the suite
        // does not play its matches again (scripts/test.sh).
        .env_remove(referee::reproduce_log::VARIABLE)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    common::wait_until("slow.sh never ran", Duration::from_secs(60), || {
        common::tables::played(&hit.join("t")) >= 1 && !slow_champions(pid).is_empty()
    });
    slow_champions(pid).into_iter().for_each(sigterm);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("played again"), "{stderr}");
    let matches = common::tables::untimed(&hit.join("t/matches.csv"));
    assert_eq!(matches.len(), 24);
    let killed: Vec<&BTreeMap<String, String>> = matches
        .iter()
        .filter(|m| (0..3).any(|s| m[&format!("fault{s}")] == "crash"))
        .collect();
    assert!(!killed.is_empty(), "no crash kept: {matches:?}");
    for m in killed {
        let seat = (0..3).find(|s| m[&format!("fault{s}")] == "crash").unwrap();
        assert_eq!(m[&format!("champion{seat}")], "slow.sh", "{m:?}");
        let record =
            std::fs::read_to_string(hit.join(format!("t/matches/{}/record.json", m["id"])))
                .unwrap();
        assert!(record.contains("SIGTERM"), "{record}");
    }
    // Without a terminal, a progress line every 5 s (the run lasts longer: 24 matches of
    // slow.sh, and a 2 s wait for the referee's own signal after each kill).
    let progress = stderr
        .lines()
        .find(|l| l.starts_with("progress: "))
        .unwrap_or_else(|| panic!("no progress line: {stderr}"));
    let (done, rest) = progress["progress: ".len()..]
        .split_once("/24 matches (")
        .unwrap();
    assert!(done.parse::<u32>().unwrap() <= 24, "{progress}");
    assert!(
        rest.contains("%), ") && rest.contains(" matches/s, ETA ") && rest.contains(", faults "),
        "{progress}"
    );
}

/// Whether a shell champion (`*.sh`) runs under the referee `pid`.
fn shell_champions_run(pid: i32) -> bool {
    descendants(pid).into_iter().any(|p| {
        std::fs::read(format!("/proc/{p}/cmdline"))
            .is_ok_and(|c| String::from_utf8_lossy(&c).contains(".sh"))
    })
}

/// A cancelled job's processes are signalled one by one: a champion may die of SIGTERM
/// some time before the referee hears its own. Its match, over, waits for it (2 s) before
/// anything is written: with the referee's signal in that wait, the match is no result,
/// not the champion's crash, and the resume equals an uninterrupted run. (One job, three
/// shell champions: once none runs, the match is over and in its wait.)
#[test]
fn a_champion_killed_just_before_the_referee_is_stopped_is_no_result() {
    let dir = common::fresh_dir("tournament", "outside-then-stop");
    let (whole, cut) = (dir.join("whole"), dir.join("cut"));
    let champions = vec![fixture("slow.sh"), shell("passive.sh"), shell("builder.sh")];
    let args = ["--rounds", "3", "--jobs", "1"];
    common::run_ok(tournament(&whole, &champions, &args));
    let child = tournament(&cut, &champions, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    // In a match (tournament.json is written after the pre-run check).
    common::wait_until("slow.sh never ran", Duration::from_secs(60), || {
        cut.join("t/tournament.json").exists() && !slow_champions(pid).is_empty()
    });
    slow_champions(pid).into_iter().for_each(sigterm);
    let killed = std::time::Instant::now();
    common::wait_until("the match never ended", Duration::from_secs(30), || {
        !shell_champions_run(pid)
    });
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        killed.elapsed() < Duration::from_millis(1800),
        "inconclusive: the match took {:?} to end after the kill (a loaded machine?)",
        killed.elapsed()
    );
    // Over, and not written: it waits for the referee's signal.
    assert_eq!(
        common::tables::played(&cut.join("t")),
        0,
        "the match was written at once"
    );
    sigterm(pid);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let text = std::fs::read_to_string(cut.join("t/matches.csv")).unwrap();
    assert!(
        !text.contains("crash"),
        "a disturbed match was kept:\n{text}"
    );
    common::run_ok(tournament(&cut, &[], &["--resume", "--jobs", "1"]));
    assert_eq!(results(&whole.join("t")), results(&cut.join("t")));
}

#[test]
fn a_broken_champion_is_reported_and_excluded_only_when_asked() {
    let dir = common::fresh_dir("tournament", "broken");
    let mut champions = four();
    champions.push(fixture("broken.sh"));
    let refused = tournament(&dir, &champions, &[]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("champion `broken.sh`") && stderr.contains("failed the pre-run check"),
        "{stderr}"
    );
    assert!(stderr.contains("--exclude-broken"), "{stderr}");
    assert!(!dir.join("t/matches.csv").exists());

    let out = common::run_ok(tournament(&dir, &champions, &["--exclude-broken"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("excluding `broken.sh`"), "{stderr}");
    let leaderboard = common::tables::untimed(&dir.join("t/leaderboard.csv"));
    assert_eq!(leaderboard.len(), 4);
    assert!(leaderboard.iter().all(|l| l["champion"] != "broken.sh"));
    let spec = std::fs::read_to_string(dir.join("t/tournament.json")).unwrap();
    assert!(
        spec.contains("\"excluded\"") && spec.contains("broken.sh"),
        "{spec}"
    );
}

/// A copy of slow.sh in `dir` under the name `name` (which must not contain `slow.sh`):
/// a test that checks that no process of its champions is left looks for that name, and
/// other tests of this file run slow.sh at the same time.
fn own_slow(dir: &Path, name: &str) -> String {
    assert!(!name.contains("slow.sh"));
    let path = dir.join(name);
    std::fs::copy(fixture("slow.sh"), &path).unwrap();
    path.display().to_string()
}

#[test]
fn ctrl_c_abandons_running_matches_writes_partial_results_and_leaves_no_champion() {
    let dir = common::fresh_dir("tournament", "sigint");
    let champions = vec![
        "random".into(),
        "greedy".into(),
        own_slow(&dir, "slow-sigint.sh"),
        shell("passive.sh"),
    ];
    let child = tournament(&dir, &champions, &["--rounds", "6", "--jobs", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_until("no rows appear", Duration::from_secs(60), || {
        common::tables::played(&dir.join("t")) >= 1
    });
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    // Started by its path (not on PATH), the referee prints the command with that path.
    assert!(
        stderr.contains(&format!(
            "resume with: {REFEREE} tournament --name t --resume"
        )),
        "{stderr}"
    );
    assert!(
        !running("slow-sigint.sh"),
        "a champion outlived the referee"
    );
    let played = common::tables::untimed(&dir.join("t/matches.csv")).len();
    assert!(played < 24);
    let leaderboard = common::tables::untimed(&dir.join("t/leaderboard.csv"));
    let total: usize = leaderboard
        .iter()
        .map(|l| l["matches"].parse::<usize>().unwrap())
        .sum();
    assert_eq!(total, 3 * played);
    // The printed command, pasted as printed into a shell whose PATH has no `referee`,
    // finishes the run.
    let command = stderr
        .lines()
        .find_map(|l| l.split_once("resume with: ").map(|(_, c)| c.to_string()))
        .unwrap();
    let out = common::run_ok({
        let mut c = Command::new("bash");
        c.arg("-c").arg(&command).env("PATH", "/usr/bin:/bin");
        c
    });
    assert!(out.status.success());
    assert_eq!(
        common::tables::untimed(&dir.join("t/matches.csv")).len(),
        24,
        "{command}"
    );
}

#[test]
fn a_second_ctrl_c_exits_at_once_and_kills_what_champions_started() {
    let dir = common::fresh_dir("tournament", "sigint2");
    let champions = vec![
        "random".into(),
        fixture("slow_spawner.sh"),
        own_slow(&dir, "slow-sigint2.sh"),
        shell("passive.sh"),
    ];
    let child = tournament(&dir, &champions, &["--rounds", "6", "--jobs", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_until(
        "the grandchild never started",
        Duration::from_secs(60),
        || running("slow-spawner-grandchild"),
    );
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    // The second signal once the first is handled (two pending signals would be one).
    let mut child = child;
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (lines, told) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in std::io::BufRead::lines(stderr).map_while(Result::ok) {
            if line.contains(": stopping: no new match starts") {
                let _ = lines.send(());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    told.recv_timeout(Duration::from_secs(10))
        .expect("the first Ctrl-C was not acknowledged");
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let status = child.wait().unwrap();
    let stderr = reader.join().unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    common::wait_until(
        "a champion's process outlived the referee",
        Duration::from_secs(5),
        || !(running("slow-spawner-grandchild") || running("slow-sigint2.sh")),
    );
}

#[test]
fn champions_come_from_a_manifest_and_a_directory() {
    let dir = common::fresh_dir("tournament", "manifest");
    let field = dir.join("field");
    std::fs::create_dir_all(field.join("builder")).unwrap();
    std::fs::copy(shell("passive.sh"), field.join("passive.sh")).unwrap();
    std::fs::copy(shell("builder.sh"), field.join("builder/champion")).unwrap();
    std::fs::write(field.join("notes.txt"), "not a champion").unwrap();
    std::fs::write(
        dir.join("finalists.txt"),
        format!(
            "# the finalists\nalice = {}   # a built-in\ngreedy\n",
            "random"
        ),
    )
    .unwrap();
    let mut command = tournament(&dir, &[], &[]);
    command
        .arg("--from-dir")
        .arg(&field)
        .arg("--manifest")
        .arg(dir.join("finalists.txt"));
    common::run_ok(command);
    let names: std::collections::BTreeSet<String> =
        common::tables::untimed(&dir.join("t/leaderboard.csv"))
            .into_iter()
            .map(|row| row["champion"].clone())
            .collect();
    let expected: std::collections::BTreeSet<String> = ["alice", "greedy", "passive.sh", "builder"]
        .map(String::from)
        .into();
    assert_eq!(names, expected);
    assert_eq!(common::tables::untimed(&dir.join("t/matches.csv")).len(), 4);
}

#[test]
fn a_bad_manifest_line_is_refused_with_its_line_number() {
    let dir = common::fresh_dir("tournament", "bad-manifest");
    std::fs::write(dir.join("m.txt"), "random\n = greedy\n").unwrap();
    let mut command = tournament(&dir, &["random".into(), "greedy".into()], &[]);
    command.arg("--manifest").arg(dir.join("m.txt"));
    let out = command.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("m.txt") && stderr.contains('2'), "{stderr}");
}

#[test]
fn an_unplayable_number_of_rounds_is_refused_before_anyone_plays() {
    let dir = common::fresh_dir("tournament", "huge-rounds");
    for (flag, value) in [
        ("--rounds", "18446744073709551615"),
        ("--rounds", "4294967296"),
    ] {
        let out = tournament(&dir, &four(), &[flag, value]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(
            stderr.contains(flag) && stderr.contains("at most 10000000"),
            "{flag} {value}: {stderr}"
        );
        assert!(!stderr.contains("pre-run check"), "{stderr}");
        assert!(
            !dir.join("t").exists(),
            "nothing is written for a refused tournament"
        );
    }
    let three = &four()[..3];
    let out = tournament(
        &dir,
        three,
        &["--format", "groups", "--matches", "99999999999"],
    )
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--matches"), "{stderr}");
}

/// `--rounds` belongs to a round-robin and `--matches` to groups: either given with the
/// other format is refused, naming the flag and its format; groups with `--matches` play.
#[test]
fn a_format_flag_of_the_other_format_is_refused() {
    let dir = common::fresh_dir("tournament", "format-flags");
    let three = &four()[..3];
    refused(
        &mut tournament(&dir, three, &["--format", "groups", "--rounds", "2"]),
        &["--rounds applies to --format round-robin"],
    );
    for extra in [
        &["--matches", "2"][..],
        &["--format", "round-robin", "--matches", "2"],
    ] {
        refused(
            &mut tournament(&dir, three, extra),
            &["--matches applies to --format groups"],
        );
    }
    assert!(
        !dir.join("t").exists(),
        "nothing is written for a refused tournament"
    );
    common::run_ok(tournament(
        &dir,
        three,
        &["--format", "groups", "--matches", "1"],
    ));
    let spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("t/tournament.json")).unwrap())
            .unwrap();
    assert_eq!(
        spec["format"],
        serde_json::json!({"kind": "groups", "matches": 1})
    );
}

/// `--full-log` keeps every request of each match beside its record (and a resume checks
/// the rows against those records, logs included).
#[test]
fn a_tournament_with_full_log_keeps_each_match_s_requests() {
    let dir = common::fresh_dir("tournament", "full-log");
    common::run_ok(tournament(&dir, &four()[..3], &["--full-log"]));
    let matches = dir.join("t/matches");
    let mut logs = 0;
    for m in std::fs::read_dir(&matches).unwrap() {
        let m = m.unwrap().path();
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(m.join("record.json")).unwrap()).unwrap();
        let log = record["full_log"]["file"]
            .as_str()
            .expect("the record names its full log");
        assert!(m.join(log).is_file(), "{}: no {log}", m.display());
        logs += 1;
    }
    assert_eq!(logs, common::tables::played(&dir.join("t")));
    common::run_ok(tournament(&dir, &[], &["--resume"]));
}

/// A new tournament never writes into a directory that holds results without a
/// `tournament.json` (another run's `matches.csv`, a gauntlet's): refused, the file as it
/// was.
#[test]
fn a_new_tournament_never_writes_over_a_matches_csv() {
    let dir = common::fresh_dir("tournament", "over-csv");
    std::fs::create_dir_all(dir.join("t")).unwrap();
    let csv = dir.join("t/matches.csv");
    std::fs::write(&csv, "someone's results\n").unwrap();
    refused(
        &mut tournament(&dir, &four()[..3], &[]),
        &["already holds a tournament", "--resume", "--name"],
    );
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "someone's results\n"
    );
    assert!(!dir.join("t/tournament.json").exists());
}

/// A built-in champion is the referee's release, not its binary: a tournament resumed by a
/// rebuilt referee (here, the same program with bytes appended) plays its missing match,
/// and a later resume (and its check of every row against its record) accepts the
/// records of both binaries; shards run by the two merge.
#[test]
fn a_rebuilt_referee_resumes_a_tournament_of_built_in_champions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::fresh_dir("tournament", "rebuilt");
    common::run_ok(tournament(&dir, &four(), &[]));
    let t = dir.join("t");
    let (_, kept) = forget_last_match(&t);
    let rebuilt = dir.join("referee-rebuilt");
    let mut bytes = std::fs::read(REFEREE).unwrap();
    bytes.extend_from_slice(b"rebuilt");
    std::fs::write(&rebuilt, bytes).unwrap();
    std::fs::set_permissions(&rebuilt, std::fs::Permissions::from_mode(0o755)).unwrap();
    // `tournament` in `results` with `extra`, run by `program`.
    let run = |program: &Path, results: &Path, champions: &[String], extra: &[&str]| {
        let command = tournament(results, champions, extra);
        let mut with = Command::new(program);
        with.args(command.get_args()).stdin(Stdio::null());
        common::run_ok(with)
    };
    run(&rebuilt, &dir, &[], &["--resume"]);
    assert_eq!(
        common::tables::played(&t),
        kept + 1,
        "the forgotten match is played again"
    );
    run(Path::new(REFEREE), &dir, &[], &["--resume"]);
    let sharded = dir.join("sharded");
    run(Path::new(REFEREE), &sharded, &four(), &["--shard", "1/2"]);
    run(&rebuilt, &sharded, &four(), &["--shard", "2/2"]);
    let mut merge = Command::new(REFEREE);
    merge
        .arg("merge")
        .arg(sharded.join("t/shard-1-of-2"))
        .arg(sharded.join("t/shard-2-of-2"))
        .arg("--out")
        .arg(dir.join("merged"));
    common::run_ok(merge);
    assert_eq!(common::tables::played(&dir.join("merged")), kept + 1);
}

/// A file champion is its code, not where it lies: a tournament of champions given by
/// relative paths, its folder moved, resumes from the new place (the same files), plays
/// its missing match there, and resumes again with records of both places.
#[test]
fn a_tournament_resumes_after_its_folder_moved() {
    let dir = common::fresh_dir("tournament", "moved");
    let (before, after) = (dir.join("before"), dir.join("after"));
    std::fs::create_dir_all(&before).unwrap();
    for name in ["passive.sh", "builder.sh"] {
        std::fs::copy(shell(name), before.join(name)).unwrap();
    }
    let champions: Vec<String> = ["random", "greedy", "./passive.sh", "./builder.sh"]
        .map(String::from)
        .to_vec();
    let results = dir.join("results");
    // `tournament` of `champions` with `extra`, run from `cwd`.
    let run = |cwd: &Path, champions: &[String], extra: &[&str]| {
        let mut command = tournament(&results, champions, extra);
        command.current_dir(cwd);
        common::run_ok(command)
    };
    run(&before, &champions, &[]);
    let t = results.join("t");
    let (_, kept) = forget_last_match(&t);
    std::fs::rename(&before, &after).unwrap();
    run(&after, &[], &["--resume"]);
    assert_eq!(common::tables::played(&t), kept + 1);
    run(&after, &[], &["--resume"]);
}

/// Refused with exit 2 and every word of `needles` in the message.
fn refused(command: &mut Command, needles: &[&str]) {
    crate::field_input::refused(&command.output().unwrap(), needles);
}

#[test]
fn a_name_that_leaves_the_results_folder_is_refused() {
    let dir = common::fresh_dir("tournament", "bad-name");
    let results = dir.join("results");
    for name in ["../escape", "/tmp/escape-abs", "a/b", "..", ""] {
        let mut command = Command::new(REFEREE);
        command
            .args(["tournament", "random", "greedy"])
            .arg(shell("passive.sh"))
            .args(["--name", name, "--results"])
            .arg(&results);
        refused(&mut command, &["--name", "not a folder name"]);
    }
    assert!(!dir.join("escape").exists() && !results.exists());
}

#[test]
fn one_champion_under_two_spellings_or_two_names_alike_is_refused() {
    let dir = common::fresh_dir("tournament", "twice");
    let c_random = Path::new(env!("CARGO_MANIFEST_DIR")).join("../champions/c/random");
    let spelled = format!("{}/./champion", c_random.display());
    let mut command = tournament(
        &dir,
        &["random".into(), c_random.display().to_string(), spelled],
        &[],
    );
    refused(
        &mut command,
        &["are the same champion", "give each champion once"],
    );
    std::fs::write(
        dir.join("m.txt"),
        format!("a = random\na = greedy\nb = {}\n", shell("passive.sh")),
    )
    .unwrap();
    let mut command = Command::new(REFEREE);
    command
        .args(["tournament", "--manifest"])
        .arg(dir.join("m.txt"))
        .arg("--results")
        .arg(&dir);
    refused(&mut command, &["`a` is given to two champions", "greedy"]);
}

#[test]
fn a_resume_with_other_rounds_names_the_flag_and_both_values() {
    let dir = common::fresh_dir("tournament", "resume-rounds");
    common::run_ok(tournament(&dir, &four(), &["--rounds", "1"]));
    let mut command = tournament(&dir, &four(), &["--rounds", "2", "--resume"]);
    refused(
        &mut command,
        &["--rounds 2 conflicts", "--format round-robin --rounds 1"],
    );
}

#[test]
fn the_scratch_of_a_killed_referee_is_removed_by_the_next_one() {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::fresh_dir("tournament", "stale-scratch");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    // A referee that is gone (a pid that exited) left its scratch, with a directory a
    // champion made unreadable; one of a live referee (this test) must stay.
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let stale = tmp.join(format!("referee-{dead}-AbC123"));
    std::fs::create_dir_all(stale.join("seat0/locked")).unwrap();
    std::fs::set_permissions(stale.join("seat0/locked"), PermissionsExt::from_mode(0o000)).unwrap();
    let live = tmp.join(format!("referee-{}-XyZ789", std::process::id()));
    std::fs::create_dir_all(&live).unwrap();
    let mut command = Command::new(REFEREE);
    command
        .args(["match", "random", "greedy"])
        .arg(shell("passive.sh"))
        .args(["--sandbox", "off", "--out"])
        .arg(dir.join("out"))
        .env("TMPDIR", &tmp);
    common::run_ok(command);
    assert!(!stale.exists(), "the stale scratch is still there");
    assert!(live.exists(), "a live referee's scratch was removed");
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, vec![live.file_name().unwrap().to_owned()], "{left:?}");
}

#[test]
fn a_resume_takes_every_limit_from_the_tournament_and_refuses_other_values() {
    let dir = common::fresh_dir("tournament", "strict-resume");
    common::run_ok(tournament(
        &dir,
        &four(),
        &["--memory", "512", "--disk", "32"],
    ));
    for (extra, needle) in [
        (
            &["--sandbox", "off"][..],
            "--sandbox off conflicts with the tournament's --sandbox auto",
        ),
        (
            &["--processes", "64"][..],
            "--processes 64 conflicts with the tournament's --processes 256",
        ),
        // Given explicitly at its default value: still not the tournament's.
        (
            &["--memory", "1024"][..],
            "--memory 1024 conflicts with the tournament's --memory 512",
        ),
        (&["--disk", "64"][..], "--disk 64 conflicts"),
        (
            &["--require-sandbox"][..],
            "--require-sandbox true conflicts",
        ),
    ] {
        let mut command = tournament(&dir, &four(), &[extra, &["--resume"][..]].concat());
        refused(&mut command, &[needle, "drop"]);
    }
    // Without limit flags, or with the same values, it resumes (here: nothing is left).
    common::run_ok(tournament(&dir, &[], &["--resume"]));
    common::run_ok(tournament(&dir, &[], &["--resume", "--memory", "512"]));
}

/// `--resume` plays as the tournament was started: with its champions (others given are
/// refused, the same ones accepted) and its sandbox mode (the match played again after its
/// row is deleted says `--sandbox off` in its command exactly when the tournament did).
#[test]
fn a_resume_keeps_the_tournament_s_champions_and_sandbox_mode() {
    let dir = common::fresh_dir("tournament", "resume-same");
    for (name, sandbox) in [("auto", &[][..]), ("off", &["--sandbox", "off"][..])] {
        let results = dir.join(name);
        common::run_ok(tournament(&results, &four(), sandbox));
        let t = results.join("t");
        // The last match forgotten: its row and its directory.
        let (id, _) = forget_last_match(&t);
        // Three of its four champions: a field that could play, but not this tournament's.
        let mut command = tournament(&results, &four()[..3], &["--resume"]);
        let (given, stored) = (four()[..3].join(" "), four().join(" "));
        refused(
            &mut command,
            &[
                &format!("--resume: the champions given ({given}) differ"),
                &format!("from the tournament's ({stored}); drop them"),
            ],
        );
        common::run_ok(tournament(&results, &four(), &["--resume"]));
        let replayed = common::tables::untimed(&t.join("matches.csv"))
            .into_iter()
            .find(|row| row["id"] == id)
            .expect("the forgotten match played again");
        assert_eq!(
            replayed["reproduce"].contains("--sandbox off"),
            name == "off",
            "{name}: {}",
            replayed["reproduce"]
        );
    }
}

/// A tournament plays its champions from the copy of their files taken at its start: a
/// Python champion (its kit beside it, as in `champions/`) whose `prologin.py` was edited,
/// or whose kit beside it was, resumes from that copy, saying so for the edited one only
/// (the kit beside a champion is not what it plays: the installed kits are).
#[test]
fn a_resume_plays_the_snapshot_of_a_champion_whose_folder_changed() {
    let dir = common::fresh_dir("tournament", "identity");
    let python = repo().join("champions/python");
    for sub in ["random", "kit"] {
        let status = Command::new("cp")
            .arg("-r")
            .arg(python.join(sub))
            .arg(dir.join(sub))
            .status()
            .unwrap();
        assert!(status.success());
    }
    let champions = vec![
        "random".to_string(),
        "greedy".to_string(),
        dir.join("random").display().to_string(),
    ];
    let results = dir.join("results");
    // The champion's folder changes after its matches (its program file does not): their
    // reproduce commands would play the new code, so they stay out of the reproduce pass.
    let unreplayed = |mut command: Command| {
        command.env("REFEREE_REPRODUCE_LOG", "/dev/null");
        command
    };
    common::run_ok(unreplayed(tournament(
        &results,
        &champions,
        &["--rounds", "2"],
    )));
    let (_, kept) = forget_last_match(&results.join("t"));
    for (file, said) in [("kit/run.py", false), ("random/prologin.py", true)] {
        let path = dir.join(file);
        let mut edited = std::fs::read(&path).unwrap();
        edited.extend_from_slice(b"\nraise SystemExit(3)\n");
        std::fs::write(&path, edited).unwrap();
        let out = common::run_ok(unreplayed(tournament(&results, &[], &["--resume"])));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.contains("its files (") && stderr.contains(") changed since the run started"),
            said,
            "{file}: {stderr}"
        );
    }
    let matches = common::tables::untimed(&results.join("t/matches.csv"));
    assert_eq!(matches.len(), kept + 1);
    assert!(matches
        .iter()
        .all(|m| m["fault0"].is_empty() && m["fault1"].is_empty() && m["fault2"].is_empty()));
}

/// A second referee in a tournament's directory is refused while the first runs (it would
/// rewrite the files under it), and may resume once the first has stopped.
#[test]
fn a_second_run_in_the_same_tournament_is_refused_while_the_first_runs() {
    let dir = common::fresh_dir("tournament", "lock");
    let champions = vec![
        "random".into(),
        "greedy".into(),
        own_slow(&dir, "slow-held.sh"),
        shell("passive.sh"),
    ];
    let child = tournament(&dir, &champions, &["--rounds", "6", "--jobs", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    common::wait_until(
        "the tournament never started",
        Duration::from_secs(60),
        || dir.join("t/tournament.json").exists(),
    );
    let second = tournament(&dir, &[], &["--resume"]).output().unwrap();
    let said = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{said}");
    assert!(said.contains("is in use by another referee"), "{said}");
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let resumed = common::run_ok(tournament(&dir, &[], &["--resume"]));
    assert!(resumed.status.success());
    assert_eq!(
        common::tables::untimed(&dir.join("t/matches.csv")).len(),
        24
    );
}

#[test]
fn a_champion_that_kills_itself_with_sigterm_cannot_void_its_matches() {
    let dir = common::fresh_dir("tournament", "self-term");
    let champions = vec![
        "random".into(),
        "greedy".into(),
        fixture("self_term.sh"),
        shell("passive.sh"),
    ];
    let out = common::run_ok(tournament(&dir, &champions, &["--jobs", "2"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Its 3 matches were each played once, and its crash kept.
    assert!(!stderr.contains("played again"), "{stderr}");
    let matches = common::tables::untimed(&dir.join("t/matches.csv"));
    assert_eq!(matches.len(), 4);
    let crashes = matches
        .iter()
        .flat_map(|m| (0..3).map(move |s| m[&format!("fault{s}")].clone()))
        .filter(|f| f == "crash")
        .count();
    assert_eq!(crashes, 3, "{matches:?}");
    let record = std::fs::read_to_string(dir.join("t/matches/0/record.json")).unwrap();
    assert!(record.contains("signal 15 (SIGTERM)"), "{record}");
}
