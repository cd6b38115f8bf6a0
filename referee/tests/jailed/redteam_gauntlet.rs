//! Red-team tests of `referee gauntlet` (issue 16), through the binary: a stop signal during
//! the pre-run check, flags at the edge of their range, a `gauntlet.json` edited before a
//! resume, a run of identical pairs, a program given as both candidate and baseline trying
//! to tell which one it is, a candidate that crashes or hangs in every match, and an
//! interrupted gauntlet of the Amazons. Each test failed (or would fail) while its hole was
//! open; the message of an attack that works says `THE ATTACK WORKED`.
//!
//! Fixtures: `tests/fixtures/redteam/*.sh`, and the Amazons champion of
//! `protocol-amazons.md`, slowed down.

use crate::common;

use common::{output, succeeded, text};

use common::users::Who;

use std::collections::BTreeSet;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn builder() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../champions/shell/builder.sh")
        .display()
        .to_string()
}

/// A copy of `source` in `dir` under `name` (a name no other test uses, for `running`),
/// readable and executable by everyone.
fn copy(source: &Path, dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    std::fs::copy(source, &path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// `referee [--game GAME] gauntlet ARGS --results RESULTS --name NAME` on seed 7.
fn gauntlet(game: &[&str], results: &Path, name: &str, args: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .args(game)
        .arg("gauntlet")
        .args(args)
        .args(["--seed", "7", "--time-scale", "2", "--name", name])
        .arg("--results")
        .arg(results)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// `matches.csv` of `dir` as rows of `column -> value`.
fn matches(dir: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("matches.csv")).unwrap();
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
                .collect()
        })
        .collect()
}

/// The verdict line and `pairs.csv` of a finished gauntlet in `dir`.
fn verdict(stdout: &str, dir: &Path) -> (String, String) {
    (
        stdout.lines().next().unwrap_or_default().to_string(),
        std::fs::read_to_string(dir.join("pairs.csv")).unwrap(),
    )
}

/// The number of pairs the verdict line says the test took.
fn pairs_taken(line: &str) -> u64 {
    line.rsplit("after ")
        .next()
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no pair count in {line}"))
}

/// Sends `signal` to the running referee `child` once `ready` holds, and returns its
/// exit status and stderr.
fn interrupt(
    mut command: Command,
    signal: nix::sys::signal::Signal,
    ready: impl FnMut() -> bool,
) -> (std::process::ExitStatus, String) {
    let mut child = command.spawn().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        let _ = stderr.read_to_string(&mut all);
        all
    });
    common::wait_until(
        "the moment to interrupt never came",
        Duration::from_secs(120),
        ready,
    );
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), signal).unwrap();
    let status = common::wait_timeout(&mut child, Duration::from_secs(120))
        .expect("the interrupted gauntlet did not end");
    (status, reader.join().unwrap())
}

// ---- a stop during the pre-run check ------------------------------------------------------

/// SIGTERM while a champion is still in the pre-run check: the gauntlet exits as
/// interrupted (130), as a tournament does, not as a failure of the referee (1) nor as a
/// champion failing the check (2); nothing is written that a later run would have to
/// `--resume`, and the champion is gone.
#[test]
fn a_stop_during_the_pre_run_check_exits_as_interrupted() {
    let dir = common::fresh_dir("redteam_gauntlet", "check-stop");
    let marker = "redteam-gauntlet-slow-init.sh";
    let slow = copy(&fixture("redteam/slow_init.sh"), &dir, marker);
    let run = dir.join("g");
    let (status, stderr) = interrupt(
        gauntlet(&[], &dir, "g", &[&slow, "random"]),
        nix::sys::signal::Signal::SIGTERM,
        || run.join("check").exists() && common::running(marker),
    );
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted during the pre-run check: nothing was played"),
        "{stderr}"
    );
    assert!(!stderr.contains("failed the pre-run check"), "{stderr}");
    assert!(!run.join("gauntlet.json").exists());
    assert!(!run.join("matches.csv").exists());
    common::wait_until(
        "the champion in its pre-run check outlived the referee",
        Duration::from_secs(5),
        || !common::running(marker),
    );
    // The same command, run again, plays the gauntlet (the check is cut short here by
    // `--init-cpu`: the slow champion is refused, not waited for).
    let out = output(gauntlet(
        &[],
        &dir,
        "g",
        &[&slow, "random", "--init-cpu", "0.2"],
    ));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("failed the pre-run check"));
}

// ---- flags at the edge -----------------------------------------------------------------------

/// `--progress-every` takes any number of seconds, 0 or more: one larger than a clock can
/// hold means no line but the decision's, never a panic (it used to panic after writing
/// `gauntlet.json`, so that the same command could not even be run again).
#[test]
fn a_progress_interval_beyond_any_clock_is_no_panic() {
    let dir = common::fresh_dir("redteam_gauntlet", "progress-every");
    for every in ["1e20", "1e300"] {
        let out = output(gauntlet(
            &[],
            &dir,
            every,
            &[
                "greedy",
                "random",
                "--max-pairs",
                "10",
                "--progress-every",
                every,
            ],
        ));
        let stdout = succeeded(&out);
        assert!(stdout.contains("points a match"), "{stdout}");
        let lines = text(&out.stderr)
            .lines()
            .filter(|l| l.contains("matches played in"))
            .count();
        assert!(lines <= 1, "{}", text(&out.stderr));
    }
}

/// Extreme values of the test's flags are refused before anything runs, naming the flag.
#[test]
fn extreme_test_flags_are_refused_naming_the_flag() {
    let dir = common::fresh_dir("redteam_gauntlet", "flags");
    for (flag, value) in [
        ("--alpha", "0"),
        ("--alpha", "0.5"),
        ("--alpha", "NaN"),
        ("--beta", "1"),
        ("--beta", "-0.1"),
        ("--min-diff", "-0.2"),
        ("--min-diff", "0"),
        ("--min-diff", "inf"),
        ("--max-pairs", "0"),
        ("--max-pairs", "9"),
        ("--progress-every", "-1"),
    ] {
        let out = output(gauntlet(
            &[],
            &dir,
            "flags",
            &["greedy", "random", &format!("{flag}={value}")],
        ));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(stderr.contains(flag), "{flag} {value}: {stderr}");
    }
    assert!(
        !dir.join("flags").exists(),
        "a refused gauntlet wrote files"
    );
}

// ---- an edited gauntlet.json --------------------------------------------------------------

/// `--resume` reads the test's settings from `gauntlet.json`. Values no flag could give
/// (edited by hand) are refused with the field, the value and the fix, never obeyed (an
/// alpha above 1/2, a negative min-diff would turn the verdict around) and never a panic
/// (`max_pairs` 0 used to overflow).
#[test]
fn an_edited_gauntlet_json_is_refused_at_resume() {
    let dir = common::fresh_dir("redteam_gauntlet", "edited-json");
    let out = output(gauntlet(
        &[],
        &dir,
        "g",
        &["greedy", "random", "--max-pairs", "10"],
    ));
    let line = verdict(&succeeded(&out), &dir.join("g")).0;
    let path = dir.join("g/gauntlet.json");
    let original = std::fs::read_to_string(&path).unwrap();
    // (object, field, value): values a flag refuses (alpha and beta in (0, 0.5), min-diff
    // above 0 and at most the 3 points a match of 2009 can tell apart, max-pairs >= 10).
    let edits: [(&str, &str, f64); 8] = [
        ("sprt", "alpha", 0.7),
        ("sprt", "alpha", 0.0),
        ("sprt", "beta", 1.0),
        ("sprt", "min_diff", -2.0),
        ("sprt", "min_diff", 0.0),
        ("sprt", "min_diff", 9.0),
        ("", "max_pairs", 0.0),
        ("", "max_pairs", 3.0),
    ];
    for (object, field, value) in edits {
        let mut json: serde_json::Value = serde_json::from_str(&original).unwrap();
        let target = if object.is_empty() {
            &mut json
        } else {
            &mut json[object]
        };
        target[field] = if field == "max_pairs" {
            (value as u64).into()
        } else {
            value.into()
        };
        std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
        let out = output(gauntlet(&[], &dir, "g", &["--resume"]));
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "THE ATTACK WORKED: {field} = {value} in gauntlet.json was taken: {stderr}\n{}",
            text(&out.stdout)
        );
        assert!(
            stderr.contains(&format!("{field} {value}")) && stderr.contains("gauntlet.json"),
            "{field} = {value}: {stderr}"
        );
    }
    // Restored, the gauntlet resumes to its verdict.
    std::fs::write(&path, &original).unwrap();
    let out = output(gauntlet(&[], &dir, "g", &["--resume"]));
    assert_eq!(succeeded(&out).lines().next().unwrap(), line);
    // An edited pairs.csv is output only: a resume writes it again as it was.
    let pairs = dir.join("g/pairs.csv");
    let written = std::fs::read_to_string(&pairs).unwrap();
    std::fs::write(&pairs, "pair,seed\n0,1\n").unwrap();
    succeeded(&output(gauntlet(&[], &dir, "g", &["--resume"])));
    assert_eq!(std::fs::read_to_string(&pairs).unwrap(), written);
}

// ---- identical pairs ------------------------------------------------------------------------

/// `ln(beta / (1 - alpha / 2))`, the test's lower bound, at the defaults.
fn lower_bound() -> f64 {
    (0.05f64 / (1.0 - 0.025)).ln()
}

/// A program against an exact copy of itself gives pairs of identical results (a
/// difference of 0 in every pair). Ten such pairs do not show that the difference is
/// below `--min-diff`: a candidate better by `min_diff` that gains its points in one pair
/// of `spread / min_diff` (where it earns `spread`, the most a match gives, more than the
/// baseline) gives ten zeros one time in ten for the Amazons (spread 1, min-diff 0.2), and
/// one time in two for the 2009 game (spread 3). The test says "no difference" only after
/// as many identical pairs as make such a run rarer than `beta`:
/// `2 * spread * |ln(beta / (1 - alpha/2))| / min_diff`, rounded up (it said so after 10,
/// whatever the game and `--min-diff`).
#[test]
fn identical_pairs_say_no_difference_only_once_they_rule_out_min_diff() {
    let dir = common::fresh_dir("redteam_gauntlet", "identical");
    let copy = copy(Path::new(&builder()), &dir, "builder-copy.sh");
    let cases: [(&[&str], [&str; 2], f64, f64); 2] = [
        (&[], [&copy, &builder()], 3.0, 1.0),
        (&["--game", "amazons"], ["mobility", "mobility"], 1.0, 0.5),
    ];
    for (game, [candidate, baseline], spread, min_diff) in cases {
        let name = if game.is_empty() { "loi" } else { "amazons" };
        let min_diff_text = min_diff.to_string();
        let out = output(gauntlet(
            game,
            &dir,
            name,
            &[
                candidate,
                baseline,
                "--min-diff",
                &min_diff_text,
                "--max-pairs",
                "60",
            ],
        ));
        let (line, pairs) = verdict(&succeeded(&out), &dir.join(name));
        let diffs: BTreeSet<&str> = pairs
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(7).unwrap())
            .collect();
        assert_eq!(
            diffs,
            BTreeSet::from(["0"]),
            "{name}: not identical: {pairs}"
        );
        let needed = (2.0 * spread * lower_bound().abs() / min_diff).ceil() as u64;
        assert!(
            line.contains("no difference: no gap of ") && line.contains(" (sure after "),
            "{name}: {line}"
        );
        assert_eq!(
            pairs_taken(&line),
            needed,
            "{name}: no difference after {} identical pairs, {needed} needed: {line}",
            pairs_taken(&line)
        );
    }
}

// ---- can a program tell whether it is the candidate or the baseline? -------------------

/// The seat-N stderr of match `id` in `dir`.
fn seat_stderr(dir: &Path, id: u64, seat: u64) -> String {
    std::fs::read_to_string(dir.join(format!("matches/{id}/seat{seat}.stderr"))).unwrap()
}

/// The number on the `uid N` line of `observer.sh`'s stderr.
fn uid_of(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("uid ")?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no uid line: {stderr}"))
}

/// One program given as both the candidate and the baseline (the same path) sees exactly
/// the same surroundings in both matches of every pair (environment, seed, files, limits,
/// mounts, processes): it cannot tell which one it is, so an A/A gauntlet measures the
/// runner's noise only. The uid is the one thing that differs (as root each jail leases
/// its own); it must say nothing about the match either: leased one after another, a
/// champion learnt its match's id from it (with `--jobs 1`, the uid of seat `s` of match
/// `m` was `U + 3m + s` with `U` the same for the whole run and a multiple of 64 plus a
/// constant, so `m mod 64` and whether it plays as the candidate or the baseline). Nor
/// does the order in which the two matches of a pair start.
#[test]
fn a_program_cannot_tell_whether_it_is_the_candidate_or_the_baseline() {
    let mut failures = Vec::new();
    for who in common::users::runs("redteam_gauntlet") {
        let dir = common::fresh_dir("redteam_gauntlet", "observer");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let observer = copy(&fixture("redteam/observer.sh"), &dir, "observer.sh");
        let mut command = gauntlet(
            &[],
            &dir,
            "aa",
            &[
                &observer,
                &observer,
                "random",
                "greedy",
                "--max-pairs",
                "10",
                "--jobs",
                "1",
            ],
        );
        if let Who::User(uid, gid) = who {
            command.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        let out = output(command);
        if !out.status.success() {
            failures.push(format!(
                "as {who:?}: the gauntlet failed: {}",
                text(&out.stderr)
            ));
            continue;
        }
        let run = dir.join("aa");
        let mut leak = Vec::new();
        let mut offsets = BTreeSet::new();
        // A half whose observer got a fault before it had written everything is not
        // compared; most pairs must be. (Without a cgroup freezer, on a heavily loaded
        // machine, a champion that forks as it starts was seen to get a false "started
        // processes while frozen" timeout: the jail's init waits about 10 ms for every
        // thread to stop, `jail/init.rs`, `stop_all`.)
        let rows = matches(&run);
        let faulted = |id: u64| {
            let row = rows.iter().find(|r| r["id"] == id.to_string()).unwrap();
            (0..3).any(|s| !row[&format!("fault{s}")].is_empty())
        };
        let whole: Vec<u64> = (0..10u64)
            .filter(|&k| !faulted(2 * k) && !faulted(2 * k + 1))
            .collect();
        assert!(
            whole.len() >= 8,
            "as {who:?}: faults in most pairs: {rows:?}"
        );
        for pair in whole {
            let seat = pair % 3;
            let (c, b) = (
                seat_stderr(&run, 2 * pair, seat),
                seat_stderr(&run, 2 * pair + 1, seat),
            );
            for (id, view) in [(2 * pair, &c), (2 * pair + 1, &b)] {
                let uid = uid_of(view);
                offsets.insert((uid + 64 * 65536 - seat - 3 * id) % 64);
            }
            let blind = |view: &str| view.replace(&uid_of(view).to_string(), "<uid>");
            if blind(&c) != blind(&b) {
                leak.push(format!(
                    "pair {pair}: the candidate saw\n{c}\nthe baseline saw\n{b}"
                ));
            }
        }
        if !leak.is_empty() {
            failures.push(format!(
                "THE ATTACK WORKED as {who:?}: the two halves of a pair look different:\n{}",
                leak.join("\n")
            ));
        }
        // Which half of a pair starts first (here, with one job, which one ends first):
        // drawn from the seed, not always the candidate's. (Always the candidate's first,
        // with two jobs its match landed on the first worker's CPU three times in four: a
        // program read its role from `sched_getaffinity`.)
        let ended = |id: u64| {
            std::fs::metadata(run.join(format!("matches/{id}/record.json")))
                .and_then(|m| m.modified())
                .unwrap()
        };
        let baseline_first = (0..10u64)
            .filter(|&k| ended(2 * k + 1) < ended(2 * k))
            .count();
        if !(1..10).contains(&baseline_first) {
            failures.push(format!(
                "THE ATTACK WORKED as {who:?}: in {baseline_first} of 10 pairs the baseline's \
                 match ran first: the order of a pair's matches tells a program its role"
            ));
        }
        if matches!(who, Who::Root) && offsets.len() == 1 {
            failures.push(format!(
                "THE ATTACK WORKED as root: (uid - seat - 3 * match id) mod 64 is {offsets:?} in \
                 every match: a champion learns its match id mod 64 (and, in a gauntlet, \
                 whether it is the candidate or the baseline) from its uid"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n---\n"));
}

// ---- a candidate that crashes or hangs -------------------------------------------------------

/// A candidate that passes the pre-run check, then crashes (or never answers) in every
/// match: the gauntlet goes on, each of its matches is recorded with its fault (the champion
/// then plays no more, rule 28), the verdict is `worse`, and nothing it started is left running.
#[test]
fn a_candidate_that_crashes_or_hangs_in_every_match_is_worse() {
    let dir = common::fresh_dir("redteam_gauntlet", "crash-hang");
    for (name, source, fault) in [
        ("crash", fixture("redteam/crash_in_play.sh"), "crash"),
        ("hang", fixture("match/hang.sh"), "timeout"),
    ] {
        let marker = format!("redteam-gauntlet-{name}.sh");
        let candidate = copy(&source, &dir, &marker);
        let out = output(gauntlet(
            &[],
            &dir,
            name,
            &[
                &candidate,
                "greedy",
                "--max-pairs",
                "30",
                "--call-cpu",
                "0.05",
                "--jobs",
                "2",
            ],
        ));
        let stdout = succeeded(&out);
        assert!(
            stdout.lines().next().unwrap().contains(", worse: "),
            "{name}: {stdout}"
        );
        for row in matches(&dir.join(name)) {
            let id: u64 = row["id"].parse().unwrap();
            let seat = (id / 2) % 3;
            if id.is_multiple_of(2) {
                assert_eq!(row[&format!("fault{seat}")], fault, "{name}: {row:?}");
            } else {
                assert_eq!(row[&format!("fault{seat}")], "", "{name}: {row:?}");
            }
        }
        common::wait_until(
            &format!("{name}: a process of the candidate outlived the gauntlet"),
            Duration::from_secs(5),
            || !common::running(&marker),
        );
    }
}

// ---- the Amazons, interrupted ---------------------------------------------------------------

/// The champion of `protocol-amazons.md`, 20 ms a move, as `name` in `dir`: slow enough
/// to be caught in the middle of a match.
fn slow_amazons(dir: &Path, name: &str) -> String {
    let page = std::fs::read_to_string(common::amazons_page_champion(dir)).unwrap();
    let loop_start = "for callback in sys.stdin:\n    if callback.strip() == \"jouer\":\n";
    assert!(page.contains(loop_start), "the page's champion changed");
    let slow = page.replace(
        loop_start,
        &format!("import time\n{loop_start}        time.sleep(0.02)\n"),
    );
    let path = dir.join(name);
    std::fs::write(&path, slow).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// A gauntlet of the Amazons interrupted by Ctrl-C in the middle of its matches exits with
/// 130, leaves no champion running and only whole rows of its matches; `--resume` then
/// reaches the pairs and the verdict of the same gauntlet run without interruption.
#[test]
fn an_interrupted_amazons_gauntlet_resumes_to_the_uninterrupted_verdict() {
    let dir = common::fresh_dir("redteam_gauntlet", "amazons-interrupt");
    let marker = "redteam-gauntlet-slow-amazons.py";
    let slow = slow_amazons(&dir, marker);
    let args = [slow.as_str(), "random", "--max-pairs", "10", "--jobs", "2"];
    let amazons = ["--game", "amazons"];
    let want = verdict(
        &succeeded(&output(gauntlet(&amazons, &dir, "whole", &args))),
        &dir.join("whole"),
    );
    let run = dir.join("cut");
    let (status, stderr) = interrupt(
        gauntlet(&amazons, &dir, "cut", &args),
        nix::sys::signal::Signal::SIGINT,
        || common::tables::played(&run) >= 3,
    );
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("resume with: "), "{stderr}");
    common::wait_until(
        "a champion outlived the interrupted gauntlet",
        Duration::from_secs(5),
        || !common::running(marker),
    );
    let written = common::tables::played(&run);
    assert!((3..20).contains(&written), "{written} rows: not cut short");
    // Every row whole, each a match of the gauntlet (a resume checks them all).
    let text = std::fs::read_to_string(run.join("matches.csv")).unwrap();
    assert!(text.ends_with('\n'), "a torn row: {text}");
    let mut resume = gauntlet(&amazons, &dir, "cut", &["--resume"]);
    resume.env("PATH", "/usr/bin:/bin");
    assert_eq!(verdict(&succeeded(&output(resume)), &run), want);
}

// ---- a gauntlet named as a tournament ----------------------------------------------------

/// A gauntlet given the `--name` of a finished tournament used to run its pre-run check
/// there (overwriting the tournament's `check/*.stderr`), write `gauntlet.json` beside
/// `tournament.json`, fail, and leave `referee status` reading the directory as a gauntlet.
/// It is refused before anything is written, and the tournament is as it was.
#[test]
fn a_gauntlet_is_refused_in_a_tournaments_directory() {
    let dir = common::fresh_dir("redteam_gauntlet", "named-as-tournament");
    succeeded(&output({
        let mut c = Command::new(REFEREE);
        c.args(["tournament", "random", "greedy", &builder(), "--name", "t"])
            .args(["--rounds", "1", "--results"])
            .arg(&dir);
        c
    }));
    let files = |root: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut all = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let path = e.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    all.push((path.clone(), std::fs::read(&path).unwrap()));
                }
            }
        }
        all.sort();
        all
    };
    let before = files(&dir.join("t"));
    let out = output(gauntlet(&[], &dir, "t", &["greedy", "random"]));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("holds a tournament; choose another --name"),
        "{stderr}"
    );
    assert_eq!(
        files(&dir.join("t")),
        before,
        "the tournament's files changed"
    );
    let status = succeeded(&output({
        let mut c = Command::new(REFEREE);
        c.arg("status").arg(dir.join("t"));
        c
    }));
    assert!(status.contains("tournament t: "), "{status}");
}
