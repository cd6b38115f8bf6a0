//! `referee gauntlet` as a careless organiser and a hostile contestant run it, through the
//! binary: Ctrl-C and SIGTERM in the middle, then `--resume`, reach the very pairs and
//! verdict of an uninterrupted run and leave no champion behind; a champion that cannot
//! play (missing, not executable, crashing, a person) is refused before any match, naming
//! the problem and the fix; a resume with other champions or with a `matches.csv` that is
//! not the gauntlet's is refused; progress lines in a log carry the running estimate, and
//! a terminal gets a bar.

use crate::common;

use common::{output, succeeded, text};

use std::io::BufRead;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn builder() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../champions/shell/builder.sh")
        .display()
        .to_string()
}

/// `referee gauntlet ARGS` on seed 7 into `<results>/<name>`.
fn gauntlet(results: &Path, name: &str, args: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .arg("gauntlet")
        .args(args)
        .args([
            "--seed",
            "7",
            "--time-scale",
            "2",
            "--jobs",
            "2",
            "--name",
            name,
        ])
        .arg("--results")
        .arg(results)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// A slow passive champion under a file name no other test uses, so that `running` sees
/// only this test's processes.
fn slow_copy(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    std::fs::copy(tests_dir().join("fixtures/tournament/slow.sh"), &path).unwrap();
    path.display().to_string()
}

/// The verdict line and `pairs.csv` of a finished gauntlet.
fn verdict(out: &str, dir: &Path) -> (String, String) {
    (
        out.lines().next().unwrap_or_default().to_string(),
        std::fs::read_to_string(dir.join("pairs.csv")).unwrap(),
    )
}

/// The signal's name as the run prints it, sent once (or twice, the second after the
/// first is acknowledged); returns the interrupted run's stderr.
fn interrupt(
    mut command: Command,
    dir: &Path,
    signal: nix::sys::signal::Signal,
    twice: bool,
) -> String {
    let mut child = command.spawn().unwrap();
    common::wait_until("no match ended", Duration::from_secs(120), || {
        common::tables::played(dir) >= 3
    });
    // `referee status` sees it running (its `progress.json`, rewritten every 2 s).
    let running = status(dir);
    assert!(
        running.contains(" vs ")
            && running.contains("not decided yet")
            && running.contains(", running on "),
        "{running}"
    );
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (lines, told) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in stderr.lines().map_while(Result::ok) {
            if line.contains("stopping: no new match starts") {
                let _ = lines.send(());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, signal).unwrap();
    if twice {
        told.recv_timeout(Duration::from_secs(20))
            .expect("the first signal was not acknowledged");
        // The first signal abandons the matches in flight: the run may be over already.
        let _ = nix::sys::signal::kill(pid, signal);
    }
    let status = common::wait_timeout(&mut child, Duration::from_secs(120))
        .expect("the interrupted gauntlet did not end");
    let stderr = reader.join().unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    stderr
}

/// What `referee status` says of the gauntlet in `dir`.
fn status(dir: &Path) -> String {
    succeeded(&output({
        let mut c = Command::new(REFEREE);
        c.arg("status").arg(dir);
        c
    }))
}

/// The pairs complete in the `matches.csv` of `dir`: pair `k` is matches `2k` and `2k + 1`,
/// counted from 0 while both are there.
fn complete_pairs(dir: &Path) -> usize {
    let text = std::fs::read_to_string(dir.join("matches.csv")).unwrap();
    let ids: std::collections::BTreeSet<u64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    (0..)
        .take_while(|k| ids.contains(&(2 * k)) && ids.contains(&(2 * k + 1)))
        .count()
}

/// Interrupted by one Ctrl-C (the matches in flight are abandoned), or by two SIGTERMs
/// (the second exits at once), a gauntlet resumed with the command it printed ends with the pairs and the
/// verdict of the same gauntlet run without interruption, and no champion outlives an
/// interrupted referee.
#[test]
fn an_interrupted_gauntlet_resumes_to_the_uninterrupted_verdict() {
    use nix::sys::signal::Signal;
    let dir = common::fresh_dir("gauntlet_runs", "interrupt");
    let marker = "gauntlet-interrupt-slow.sh";
    let slow = slow_copy(&dir, marker);
    let args = [slow.as_str(), builder().leak(), "--max-pairs", "12"];
    let reference = succeeded(&output(gauntlet(&dir, "whole", &args)));
    let want = verdict(&reference, &dir.join("whole"));
    assert!(want.0.contains("points a match"), "{}", want.0);
    // `referee status` of the finished gauntlet: its pairs and the verdict's estimate.
    let estimate = &want.0[want.0.find(": ").unwrap() + 2..=want.0.find(']').unwrap()];
    let finished = status(&dir.join("whole"));
    assert!(
        finished.contains(&format!("12 pairs: {estimate}")) && finished.ends_with("finished\n"),
        "{finished}\n{}",
        want.0
    );

    for (name, signal, twice) in [
        ("int", Signal::SIGINT, false),
        ("term", Signal::SIGTERM, true),
    ] {
        let run = dir.join(name);
        let stderr = interrupt(gauntlet(&dir, name, &args), &run, signal, twice);
        common::wait_until(
            &format!("{name}: a champion outlived the referee"),
            Duration::from_secs(5),
            || !common::running(marker),
        );
        assert!(
            common::tables::played(&run) < 24,
            "{name}: the run was not cut short"
        );
        // `referee status` of the interrupted run: its complete pairs, stopped, and how
        // to resume.
        let stopped = status(&run);
        assert!(
            stopped.contains(&format!(", {} pairs: ", complete_pairs(&run)))
                && stopped.contains("stopped without finishing")
                && stopped.contains(&format!(
                    "resume with: {REFEREE} gauntlet --name {name} --resume"
                )),
            "{name}: {stopped}"
        );
        if !twice {
            // The command printed resumes as it is, from a shell without `referee` on PATH.
            let command = stderr
                .lines()
                .find_map(|l| l.split_once("resume with: ").map(|(_, c)| c.to_string()))
                .unwrap_or_else(|| panic!("no resume command: {stderr}"));
            assert!(
                command.starts_with(&format!("{REFEREE} gauntlet --name int --resume")),
                "{command}"
            );
            let out = output({
                let mut c = Command::new("bash");
                c.arg("-c").arg(&command).env("PATH", "/usr/bin:/bin");
                c
            });
            assert_eq!(verdict(&succeeded(&out), &run), want, "{name}: {command}");
        } else {
            // Resumed with the champions named again, as they were.
            let mut resume = gauntlet(&dir, name, &args);
            resume.arg("--resume");
            assert_eq!(verdict(&succeeded(&output(resume)), &run), want, "{name}");
        }
    }
}

/// A champion that cannot play is refused before any match is played, with the problem
/// and its fix; nothing is left that a later run would have to `--resume`.
#[test]
fn a_champion_that_cannot_play_is_refused_before_any_match() {
    let dir = common::fresh_dir("gauntlet_runs", "refused");
    let fixtures = tests_dir().join("fixtures");
    let no_exec = dir.join("no_exec.sh");
    std::fs::copy(builder(), &no_exec).unwrap();
    std::fs::set_permissions(&no_exec, std::fs::Permissions::from_mode(0o644)).unwrap();
    let broken = fixtures.join("tournament/broken.sh").display().to_string();
    let shebang = fixtures
        .join("champions/bad_shebang.sh")
        .display()
        .to_string();
    let missing = dir.join("missing.sh").display().to_string();
    let no_exec = no_exec.display().to_string();
    let cases: [(&str, [&str; 3], &[&str]); 5] = [
        (
            "missing",
            [&missing, "random", "greedy"],
            &["does not exist", "check the path"],
        ),
        (
            "no-exec",
            ["random", &no_exec, "greedy"],
            &["is not executable", "chmod +x"],
        ),
        (
            "crash",
            ["greedy", "random", &broken],
            &[
                "champion `broken.sh`",
                "failed the pre-run check",
                "no match was played: fix it",
                "then run the gauntlet again",
            ],
        ),
        (
            "shebang",
            [&shebang, "random", "greedy"],
            &["bad_shebang.sh", "failed the pre-run check"],
        ),
        (
            "human",
            ["human", "random", "greedy"],
            &["`human` cannot play in a gauntlet"],
        ),
    ];
    for (name, champions, needles) in cases {
        let mut command = gauntlet(&dir, name, &champions);
        command.arg("random");
        let out = output(command);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        for needle in needles {
            assert!(stderr.contains(needle), "{name}: no `{needle}` in {stderr}");
        }
        let run = dir.join(name);
        assert!(!run.join("gauntlet.json").exists(), "{name}");
        assert!(!run.join("matches.csv").exists(), "{name}");
        assert!(!run.join("matches").exists(), "{name}: a match was played");
    }
    // A difference no match can show would run to the cap: refused.
    let out = output(gauntlet(
        &dir,
        "diff",
        &["greedy", "random", "--min-diff", "4"],
    ));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--min-diff 4 is more than a match of"),
        "{stderr}"
    );
}

/// A resume goes on with the gauntlet's own matches only: other champions on the command
/// line are refused (the verdict would carry their names over another's matches), and so
/// is a `matches.csv` row that the gauntlet did not write (edited, or another gauntlet's).
#[test]
fn a_resume_with_other_champions_or_foreign_rows_is_refused() {
    let dir = common::fresh_dir("gauntlet_runs", "resume");
    let out = output(gauntlet(
        &dir,
        "g",
        &["greedy", "random", "--max-pairs", "10"],
    ));
    let line = verdict(&succeeded(&out), &dir.join("g")).0;

    // Other champions named: refused, naming both lists.
    for args in [
        &["random", "greedy", "--resume"][..],
        &["greedy", "random", "random", "--resume"][..],
    ] {
        let out = output(gauntlet(&dir, "g", args));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--resume: the champions given (")
                && stderr.contains("are not the gauntlet's (greedy random random greedy)"),
            "{args:?}: {stderr}"
        );
    }
    // The opponents may be left out or given as they were.
    let mut same = gauntlet(
        &dir,
        "g",
        &["greedy", "random", "random", "greedy", "--resume"],
    );
    same.arg("--max-pairs").arg("10");
    assert_eq!(succeeded(&output(same)).lines().next().unwrap(), line);

    // Rows that are not the gauntlet's: a point added, a seed changed, a match out of range;
    // and the scores and points of two seats swapped, which agree with each other but not
    // with the match's record.
    let csv = dir.join("g/matches.csv");
    let original = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = original.lines().next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for what in ["points", "seed", "id", "swapped"] {
        let mut lines: Vec<String> = original.lines().map(String::from).collect();
        // Match 0 (the candidate's, pair 0).
        let mut row: Vec<String> = lines[1].split(',').map(String::from).collect();
        match what {
            "points" => {
                // A seat that earned nothing is given 3 points.
                let zero = (0..3)
                    .map(|s| column(&format!("points{s}")))
                    .find(|&c| row[c] == "0")
                    .expect("a seat without points");
                row[zero] = "3".into();
            }
            "seed" => row[column("seed")] = "12345".into(),
            "swapped" => {
                let (a, b) = [(0, 1), (0, 2), (1, 2)]
                    .into_iter()
                    .find(|(a, b)| {
                        row[column(&format!("score{a}"))] != row[column(&format!("score{b}"))]
                    })
                    .expect("two seats with other scores");
                for field in ["place", "score", "points"] {
                    row.swap(
                        column(&format!("{field}{a}")),
                        column(&format!("{field}{b}")),
                    );
                }
            }
            _ => row[column("id")] = "20".into(),
        }
        lines[1] = row.join(",");
        std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
        let out = output(gauntlet(&dir, "g", &["greedy", "random", "--resume"]));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
        // A row that agrees with the gauntlet but not with its seal (under the run's key,
        // the rows counted are the ones the seals hold).
        let needle = match what {
            "swapped" => "the row of match 0 is not the one the referee wrote",
            _ => "this row is not one the gauntlet wrote",
        };
        assert!(stderr.contains(needle), "{what}: {stderr}");
    }
    std::fs::write(&csv, &original).unwrap();
}

/// The differences of points of `pairs.csv` in `dir`, in pair order.
fn diffs_of(dir: &Path) -> Vec<f64> {
    std::fs::read_to_string(dir.join("pairs.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(7).unwrap().parse().unwrap())
        .collect()
}

/// `+0.35 points a match [+0.12, +0.58]`: the mean of `diffs` and its 95% normal interval,
/// computed here.
fn estimate_of(diffs: &[f64]) -> String {
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let var = if diffs.len() > 1 {
        diffs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = 1.96 * (var / n).sqrt();
    format!(
        "{:+.2} points a match [{:+.2}, {:+.2}]",
        mean,
        mean - half,
        mean + half
    )
}

/// Without a terminal (a log), progress comes as lines, at most one every
/// `--progress-every` seconds and one at the decision, each with the running estimate of
/// the pairs complete so far: the mean and interval of the first N rows of `pairs.csv`.
#[test]
fn a_log_gets_progress_lines_with_the_running_estimate() {
    let dir = common::fresh_dir("gauntlet_runs", "progress");
    let out = output(gauntlet(
        &dir,
        "g",
        &["greedy", "random", "--progress-every", "0"],
    ));
    let stdout = succeeded(&out);
    let stderr = text(&out.stderr);
    let diffs = diffs_of(&dir.join("g"));
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(" pairs: ") && l.contains("matches played in"))
        .collect();
    assert!(lines.len() >= 2, "{stderr}");
    let mut last = 0;
    for line in &lines {
        let n: usize = line.split(' ').next().unwrap().parse().unwrap();
        assert!(n >= last && n <= diffs.len(), "{line}");
        last = n;
        if n == 0 {
            assert!(line.starts_with("0 pairs: none complete yet; "), "{line}");
            continue;
        }
        let want = format!("{n} pairs: {}; ", estimate_of(&diffs[..n]));
        assert!(line.starts_with(&want), "{line}\nwanted {want}");
    }
    // The last line is the decision's, as printed in the verdict.
    assert_eq!(last, diffs.len());
    let verdict = stdout.lines().next().unwrap();
    let estimate = lines.last().unwrap().split(": ").nth(1).unwrap();
    assert!(
        verdict.contains(estimate.split(';').next().unwrap()),
        "{verdict}"
    );

    // At the default 5 s, a run of a few seconds prints far fewer lines.
    let out = output(gauntlet(&dir, "quiet", &["greedy", "random"]));
    succeeded(&out);
    let quiet = text(&out.stderr)
        .lines()
        .filter(|l| l.contains("matches played in"))
        .count();
    assert!(
        quiet < lines.len(),
        "{quiet} lines at 5 s, {} at 0 s",
        lines.len()
    );
}

/// On a terminal, a bar of pairs carries the running estimate (`script` gives the referee a
/// pseudo-terminal).
#[test]
fn a_terminal_gets_a_bar_with_the_running_estimate() {
    if Command::new("script").arg("--version").output().is_err() {
        common::skip_missing("`script` (util-linux) gives the referee a terminal");
        return;
    }
    let dir = common::fresh_dir("gauntlet_runs", "bar");
    let command = format!(
        "{REFEREE} gauntlet greedy random --seed 7 --time-scale 2 --jobs 2 --results {}",
        dir.display()
    );
    let out = output({
        let mut c = Command::new("script");
        c.args(["-qec", &command, "/dev/null"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    });
    let screen = succeeded(&out);
    assert!(
        !screen.contains("matches played in"),
        "a log line on a terminal: {screen}"
    );
    // Every drawing of the bar shows N pairs and the estimate of the first N of pairs.csv
    // (the last drawing may be skipped: a bar redraws at most so many times a second).
    let diffs = diffs_of(&dir.join("gauntlet"));
    let mut drawn = 0;
    for bar in screen
        .split(['\r', '\n', '\x1b'])
        .filter(|l| l.contains("/1000 pairs"))
    {
        if bar.contains(" 0/1000 pairs ") {
            assert!(bar.contains("none complete yet"), "{bar}");
            continue;
        }
        let n: usize = bar
            .split("/1000 pairs")
            .next()
            .unwrap()
            .rsplit(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(n >= 1 && n <= diffs.len(), "{bar}");
        assert!(bar.contains(&estimate_of(&diffs[..n])), "{bar}");
        drawn += 1;
    }
    assert!(drawn >= 1, "no bar with an estimate: {screen}");
}

/// `referee status` of a gauntlet whose files were edited: it must refuse a `gauntlet.json`
/// that `--resume` refuses (or say what it can), never panic (exit 101), and print no raw
/// control character from `progress.json` (its `host` is text from the files).
#[test]
fn status_of_an_edited_gauntlet_neither_panics_nor_prints_control_characters() {
    let dir = common::fresh_dir("gauntlet", "status-edited");
    succeeded(&output(gauntlet(
        &dir,
        "g",
        &["greedy", "random", "--max-pairs", "10"],
    )));
    let g = dir.join("g");
    let edit = |file: &str, change: &dyn Fn(&mut serde_json::Value)| {
        let path = g.join(file);
        let mut value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let kept = std::fs::read(&path).unwrap();
        change(&mut value);
        std::fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
        kept
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    type Change = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(&str, &str, Change)> = vec![
        (
            "gauntlet.json",
            "max_pairs 0",
            Box::new(|v| v["max_pairs"] = 0.into()),
        ),
        (
            "gauntlet.json",
            "max_pairs 2^63",
            Box::new(|v| v["max_pairs"] = (1u64 << 63).into()),
        ),
        (
            "gauntlet.json",
            "one opponent",
            Box::new(|v| {
                v["champions"].as_array_mut().unwrap().truncate(3);
            }),
        ),
        (
            "progress.json",
            "every_s 2^63",
            Box::new(move |v| {
                v["state"] = "running".into();
                v["updated"] = now.into();
                v["every_s"] = (1u64 << 63).into();
            }),
        ),
        (
            "progress.json",
            "a host with escapes",
            Box::new(move |v| {
                v["state"] = "running".into();
                v["updated"] = now.into();
                v["host"] = "\u{1b}]0;owned\u{7}\u{1b}[2Jnode".into();
            }),
        ),
    ];
    // Not finished, so that progress.json is read: the last pairs taken out.
    let csv = std::fs::read_to_string(g.join("matches.csv")).unwrap();
    let kept: String = csv.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(g.join("matches.csv"), kept).unwrap();
    let mut wrong = Vec::new();
    for (file, what, change) in &cases {
        let before = edit(file, change.as_ref());
        let out = output({
            let mut c = Command::new(REFEREE);
            c.arg("status")
                .arg(&g)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            c
        });
        let all = [out.stdout.as_slice(), out.stderr.as_slice()].concat();
        if *file == "gauntlet.json" && out.status.code() != Some(2) {
            wrong.push(format!("{what}: not refused (exit 2): {}", text(&all)));
        } else if out.status.code() == Some(101) {
            wrong.push(format!("{what}: panicked: {}", text(&out.stderr)));
        } else if all.iter().any(|&b| b < 0x20 && b != b'\n') {
            wrong.push(format!("{what}: a raw control character: {:?}", text(&all)));
        }
        std::fs::write(g.join(file), before).unwrap();
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
