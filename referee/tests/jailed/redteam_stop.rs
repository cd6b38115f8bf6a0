//! Red-team tests of stopping (issue 17), through the binary, as root and as a user: a
//! champion that kills itself with SIGTERM when it is losing must not get its match played
//! again; a jailed champion that sends stop signals to every process it can name must
//! neither stop the referee nor disturb a match; a `matches.csv` cut by `kill -9` before its
//! header was whole must not stop every later `--resume`; a gauntlet killed with `kill -9`
//! leaves no champion and resumes to the verdict of an uninterrupted run. Each test failed
//! (or would fail) while its hole was open; the message of an attack that works says
//! `THE ATTACK WORKED`.
//!
//! Fixtures: `tests/fixtures/redteam/reroll.sh`, `signaller.c` (built with `cc`).

use crate::common;

use referee::games::model::Parts;

use common::shell_champion as shell;

use common::{output, succeeded, text};

use common::users::Who;

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// Runs `body` as root and as the test user (or as this user), each in a fresh directory
/// writable by that run's user; fails after all of them, naming each failure.
fn each_run(test: &str, body: impl Fn(Who, &Path)) {
    common::users::each_run_in("redteam_stop", test, body);
}

use common::chmod;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `referee SUBCOMMAND ARGS --seed 7 --time-scale 2 --results DIR` as `who`.
fn referee(who: Who, subcommand: &str, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .arg(subcommand)
        .args(args)
        .args(["--seed", "7", "--time-scale", "2", "--results"])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid).env("HOME", "/tmp");
    }
    command
}

/// `matches.csv` of `dir` as rows of `column -> value`.
fn matches(dir: &Path) -> Vec<BTreeMap<String, String>> {
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

/// The seat of `name` in `row`, if it played.
fn seat_of(row: &BTreeMap<String, String>, name: &str) -> Option<usize> {
    (0..3).find(|s| row.get(&format!("champion{s}")).is_some_and(|c| c == name))
}

// ---- a champion that kills itself when losing --------------------------------------------

/// `reroll.sh` kills itself with SIGTERM (a stop signal, which the referee never sends)
/// the first time it plays a match, as a champion that sees it is losing would; if the
/// match were played again it would play it for real (it marks the match beside itself:
/// the test runs without the jail, `--sandbox off`, so that it can). A match is never
/// played again to its advantage: its result is that first play, with its crash, and the
/// champion never gets the second chance it asks for. (It used to be played again, and the
/// second play kept: a champion that kills itself whenever it is behind re-rolls every
/// losing match, and its random choices with it.)
#[test]
fn a_champion_that_kills_itself_when_losing_gets_no_second_chance() {
    each_run("reroll", |who, dir| {
        let folder = dir.join("reroll");
        std::fs::create_dir_all(&folder).unwrap();
        chmod(&folder, 0o777);
        let program = folder.join("champion");
        // Its marks outside the run: it plays from the run's snapshot of its folder, which
        // must not change.
        let marks = dir.join("marks");
        std::fs::create_dir_all(&marks).unwrap();
        chmod(&marks, 0o777);
        let script = std::fs::read_to_string(fixture("redteam/reroll.sh")).unwrap();
        std::fs::write(&program, script.replace("MARKS", marks.to_str().unwrap())).unwrap();
        chmod(&program, 0o755);
        // Its folder, holding `champion`: it plays as `reroll`.
        let program = folder.display().to_string();
        let mut command = referee(
            who,
            "tournament",
            dir,
            &[
                &program,
                "random",
                "greedy",
                &shell("passive.sh"),
                "--sandbox",
                "off",
                "--jobs",
                "2",
            ],
        );
        // Played again, it would play for real (that is the attack): the suite does not
        // play its matches again (scripts/test.sh).
        command.env_remove(referee::reproduce_log::VARIABLE);
        let out = output(command);
        succeeded(&out);
        let stderr = text(&out.stderr);
        let results = dir.join("tournament");
        let rows = matches(&results);
        assert_eq!(rows.len(), 4, "{stderr}");
        let mut played = 0;
        for row in &rows {
            let Some(seat) = seat_of(row, "reroll") else {
                continue;
            };
            played += 1;
            let log = std::fs::read_to_string(
                results.join(format!("matches/{}/seat{seat}.stderr", row["id"])),
            )
            .unwrap();
            assert!(
                row[&format!("fault{seat}")] == "crash" && !log.contains("second-chance"),
                "THE ATTACK WORKED: match {} was played again after the champion killed \
                 itself, and the second play kept: {row:?}\n{stderr}",
                row["id"]
            );
        }
        assert_eq!(played, 3);
        assert!(!stderr.contains("played again"), "{stderr}");
        // Its crash says what killed it.
        let record = std::fs::read_to_string(results.join("matches/0/record.json")).unwrap();
        assert!(record.contains("SIGTERM"), "{record}");
    });
}

// ---- a jailed champion signalling everyone -----------------------------------------------

/// Builds `tests/fixtures/redteam/<source>` into `dir`, readable by everyone.
fn compiled(source: &str, dir: &Path) -> String {
    let out = dir.join(source.trim_end_matches(".c"));
    let status = Command::new("cc")
        .args(["-O1", "-o"])
        .arg(&out)
        .arg(fixture("redteam").join(source))
        .status();
    match status {
        Ok(s) if s.success() => {}
        _ => panic!("compiling {source} failed"),
    }
    chmod(&out, 0o755);
    out.display().to_string()
}

/// `signaller.c` sends SIGTERM, SIGINT and SIGHUP to every process (-1), its group, its
/// parent, pid 1 and every pid it sees, and SIGKILL to its parent and pid 1, in the first
/// callback of every match, then plays on. In the jail none of these reaches the referee,
/// the jail's init or another champion: the referee does not stop, every match is played
/// once and written, nobody gets a fault (the signaller included: it ignores its own
/// signals), and no match is taken for one disturbed from outside.
#[test]
fn a_jailed_champion_cannot_signal_the_referee_or_other_champions() {
    if Command::new("cc").arg("--version").output().is_err() {
        common::skip_missing("`cc` builds the signalling champion (apt install gcc)");
        return;
    }
    each_run("signaller", |who, dir| {
        let signaller = compiled("signaller.c", dir);
        let out = output(referee(
            who,
            "tournament",
            dir,
            &[
                &signaller,
                "random",
                "greedy",
                &shell("passive.sh"),
                &shell("builder.sh"),
                "--jobs",
                "2",
            ],
        ));
        let stderr = text(&out.stderr);
        if !stderr.contains("jail=on") {
            common::skip_missing(&format!(
                "redteam_stop signaller as {who:?}: no jail here (root, or unprivileged user \
                 namespaces): {}",
                stderr
                    .lines()
                    .find(|l| l.starts_with("sandbox:"))
                    .unwrap_or("")
            ));
            return;
        }
        assert!(
            out.status.success() && !stderr.contains("stopping"),
            "THE ATTACK WORKED: the referee was stopped ({}): {stderr}",
            out.status
        );
        assert!(!stderr.contains("disturbed"), "{stderr}");
        let results = dir.join("tournament");
        let rows = matches(&results);
        assert_eq!(rows.len(), 10, "{stderr}");
        let mut attacks = 0;
        for row in &rows {
            for seat in 0..3 {
                assert_eq!(
                    row[&format!("fault{seat}")],
                    "",
                    "THE ATTACK WORKED: a fault in match {}: {row:?}",
                    row["id"]
                );
            }
            let Some(seat) = seat_of(row, "signaller") else {
                continue;
            };
            let log = std::fs::read_to_string(
                results.join(format!("matches/{}/seat{seat}.stderr", row["id"])),
            )
            .unwrap();
            assert!(log.contains("info signaller: done"), "{log}");
            for line in log.lines().filter(|l| l.contains(") = ")) {
                attacks += 1;
                let reached = line.ends_with(") = 0");
                assert!(
                    !reached || line.contains("(own group 0,"),
                    "THE ATTACK WORKED: a signal was delivered: {line}\n{log}"
                );
            }
        }
        assert!(attacks > 0, "the signaller attacked nothing");
    });
}

// ---- a matches.csv cut before its header was whole ---------------------------------------

/// `kill -9` (or a lost node) between the creation of `matches.csv` and the end of its
/// header leaves an empty file or part of a header. A `--resume` then plays every match
/// again and writes a whole file; it used to append the rows without a header, so that
/// this resume and every later one failed on a file that "does not start with the header".
#[test]
fn a_matches_csv_cut_inside_its_header_does_not_stop_the_resume() {
    let dir = common::fresh_dir("redteam_stop", "torn-header");
    let champions = ["random", "greedy", &shell("builder.sh")];
    let whole = dir.join("whole");
    succeeded(&output(referee(Who::Me, "tournament", &whole, &champions)));
    // The rows without their timing columns (CPU, duration), which no two runs share.
    let untimed = |dir: &Path| {
        matches(dir)
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .filter(|(h, _)| !referee::export::matches_csv::is_timing(h))
                    .collect::<BTreeMap<_, _>>()
            })
            .collect::<Vec<_>>()
    };
    let want = untimed(&whole.join("tournament"));
    for (name, keep) in [("empty", 0), ("torn", 10)] {
        let results = dir.join(name);
        succeeded(&output(referee(
            Who::Me,
            "tournament",
            &results,
            &champions,
        )));
        let csv = results.join("tournament/matches.csv");
        let bytes = std::fs::read(&csv).unwrap();
        std::fs::write(&csv, &bytes[..keep]).unwrap();
        let out = output(referee(Who::Me, "tournament", &results, &["--resume"]));
        succeeded(&out);
        let got = untimed(&results.join("tournament"));
        assert_eq!(got, want, "{name}: {}", text(&out.stderr));
    }
    // A gauntlet appends to its matches.csv the same way.
    let results = dir.join("gauntlet");
    let args = ["greedy", "random", "--max-pairs", "10"];
    let line = succeeded(&output(referee(Who::Me, "gauntlet", &results, &args)));
    let csv = results.join("gauntlet/matches.csv");
    std::fs::write(&csv, b"id,seed,fir").unwrap();
    let again = succeeded(&output(referee(
        Who::Me,
        "gauntlet",
        &results,
        &["--resume"],
    )));
    assert_eq!(again.lines().next(), line.lines().next());
}

// ---- kill -9 of a gauntlet ---------------------------------------------------------------

/// `kill -9` of a gauntlet's referee in the middle of its matches leaves no champion
/// running (each jail dies with the referee), and `--resume` plays the missing matches to
/// the pairs and the verdict of the same gauntlet run without interruption.
#[test]
fn a_gauntlet_killed_with_sigkill_resumes_to_the_uninterrupted_verdict() {
    let dir = common::fresh_dir("redteam_stop", "gauntlet-kill9");
    let marker = "redteam-stop-kill9-slow.sh";
    let slow = dir.join(marker);
    std::fs::copy(fixture("tournament/slow.sh"), &slow).unwrap();
    chmod(&slow, 0o755);
    let slow = slow.display().to_string();
    let args = [slow.as_str(), "random", "--max-pairs", "12", "--jobs", "2"];
    let whole = dir.join("whole");
    let want_line = succeeded(&output(referee(Who::Me, "gauntlet", &whole, &args)));
    let want_pairs = std::fs::read_to_string(whole.join("gauntlet/pairs.csv")).unwrap();

    let cut = dir.join("cut");
    let mut child = referee(Who::Me, "gauntlet", &cut, &args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let csv = cut.join("gauntlet/matches.csv");
    common::wait_until("no match ended", Duration::from_secs(120), || {
        std::fs::read_to_string(&csv).is_ok_and(|t| t.lines().count() > 3)
    });
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    common::wait_until(
        "a champion outlived the referee killed with SIGKILL",
        Duration::from_secs(5),
        || !common::running(marker),
    );
    let line = succeeded(&output(referee(Who::Me, "gauntlet", &cut, &["--resume"])));
    assert_eq!(line.lines().next(), want_line.lines().next());
    assert_eq!(
        std::fs::read_to_string(cut.join("gauntlet/pairs.csv")).unwrap(),
        want_pairs
    );
}

// ---- a stop during a tournament's pre-run check -----------------------------------------

/// SIGTERM while a champion is still in a tournament's pre-run check: exit 130 (an
/// interruption), not 2 with the champions killed by the stop taken for broken ones; no
/// `tournament.json` is written and the champion is gone. (The gauntlet's check, which
/// shares this code, is `redteam_gauntlet.rs`.)
#[test]
fn a_stop_during_a_tournaments_pre_run_check_exits_as_interrupted() {
    let dir = common::fresh_dir("redteam_stop", "check-stop");
    let marker = "redteam-stop-slow-init.sh";
    let slow = dir.join(marker);
    std::fs::copy(fixture("redteam/slow_init.sh"), &slow).unwrap();
    chmod(&slow, 0o755);
    let slow = slow.display().to_string();
    let mut child = referee(Who::Me, "tournament", &dir, &[&slow, "random", "greedy"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let check = dir.join("tournament/check");
    common::wait_until(
        "the pre-run check never started",
        Duration::from_secs(60),
        || check.exists() && common::running(marker),
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let status = common::wait_timeout(&mut child, Duration::from_secs(60))
        .expect("the interrupted tournament did not end");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted during the pre-run check: nothing was played"),
        "{stderr}"
    );
    assert!(!stderr.contains("failed the pre-run check"), "{stderr}");
    assert!(!dir.join("tournament/tournament.json").exists());
    common::wait_until(
        "the champion in its pre-run check outlived the referee",
        Duration::from_secs(5),
        || !common::running(marker),
    );
}

// ---- an edited shard directory at merge ------------------------------------------------

/// A tournament of four champions (two built in, two shell scripts) played in two shards
/// under `dir/results`: the directory of its shards. The second shard's referee has a
/// Python interpreter set for the kits ([`SHARD_TWO_PYTHON`]), as another machine may: its
/// reproduce commands start with it.
fn two_shards(dir: &Path) -> PathBuf {
    let champions = [
        "random",
        "greedy",
        &shell("passive.sh"),
        &shell("builder.sh"),
    ];
    let results = dir.join("results");
    for shard in ["1/2", "2/2"] {
        let mut args = champions.to_vec();
        args.extend(["--shard", shard]);
        let mut command = referee(Who::Me, "tournament", &results, &args);
        command.env_remove("PROLOGIN_PYTHON");
        if shard == "2/2" {
            command.env("PROLOGIN_PYTHON", SHARD_TWO_PYTHON);
        }
        succeeded(&output(command));
    }
    results.join("tournament")
}

/// The kits' Python of the second shard of [`two_shards`] (a word the shell quotes).
const SHARD_TWO_PYTHON: &str = "/opt/my python/bin/python3";

/// `referee merge` counts a shard complete by its number of rows, then checks every row:
/// a shard whose file was edited so that the count still looks right (a row given twice
/// in place of a missing one, another shard's row in place of its own), a shard that
/// claims another's index, the same shard given twice, another tournament's shard, a row
/// whose points are not its places', a row whose places, scores and points were swapped between
/// two seats (they agree with each other, not with the record), a row without its record,
/// a record swapped the same way as its row (it no longer replays), and a row whose
/// command is not the one its shard's referee wrote (something run after it, another
/// environment, other limits) or with a number written another way (`+030`), and a record
/// naming another built-in as a seat's program, or with other time allowances or none, are
/// each refused, naming the problem, and no results are written; a record of schema 3,
/// before time allowances were recorded, merges without them. Untouched, the shards merge, though their referees' environments differ.
#[test]
fn an_edited_shard_directory_is_refused_at_merge() {
    let dir = common::fresh_dir("redteam_stop", "merge");
    let shards = two_shards(&dir);
    // Rows of one shard's matches.csv: (header, rows).
    let lines = |shard: &Path| -> (String, Vec<String>) {
        let text = std::fs::read_to_string(shard.join("matches.csv")).unwrap();
        let mut lines = text.lines().map(String::from);
        (lines.next().unwrap(), lines.collect())
    };
    let write = |shard: &Path, header: &str, rows: &[String]| {
        std::fs::write(
            shard.join("matches.csv"),
            format!("{header}\n{}\n", rows.join("\n")),
        )
        .unwrap();
    };
    // Untouched, they merge, each row's command as its shard's referee wrote it.
    let merged = dir.join("untouched");
    let out = output({
        let mut c = Command::new(REFEREE);
        c.arg("merge")
            .arg(shards.join("shard-1-of-2"))
            .arg(shards.join("shard-2-of-2"))
            .arg("--out")
            .arg(&merged)
            .env_remove("PROLOGIN_PYTHON");
        c
    });
    succeeded(&out);
    let commands: Vec<String> = matches(&merged)
        .into_iter()
        .map(|row| row["reproduce"].clone())
        .collect();
    let python = format!("PROLOGIN_PYTHON='{SHARD_TWO_PYTHON}' referee match ");
    assert!(
        commands.iter().any(|c| c.starts_with(&python))
            && commands.iter().any(|c| c.starts_with("referee match ")),
        "{commands:?}"
    );
    // The row of shard one's first match with its cell of `column` edited by `edit`.
    let cell_edited = |one: &Path, column: &str, edit: &dyn Fn(&str) -> String| {
        let path = one.join("matches.csv");
        let mut reader = csv::Reader::from_path(&path).unwrap();
        let header = reader.headers().unwrap().clone();
        let at = header.iter().position(|h| h == column).unwrap();
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(&header).unwrap();
        for (i, record) in reader.records().enumerate() {
            let mut cells: Vec<String> = record.unwrap().iter().map(String::from).collect();
            if i == 0 {
                cells[at] = edit(&cells[at]);
            }
            writer.write_record(&cells).unwrap();
        }
        std::fs::write(&path, writer.into_inner().unwrap()).unwrap();
    };
    // The record of shard one's first match, edited by `edit`.
    let record_edited = move |one: &Path, edit: &dyn Fn(&mut serde_json::Value)| {
        let (_, rows) = lines(one);
        let id = rows[0].split(',').next().unwrap().to_string();
        let path = one.join("matches").join(id).join("record.json");
        let mut record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        edit(&mut record);
        std::fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    };
    type Edit = Box<dyn Fn(&Path, &Path)>;
    let cases: Vec<(&str, Edit, &[&str])> = vec![
        (
            "a built-in's record naming the other built-in as the program",
            Box::new(move |one, _| {
                record_edited(one, &|record| {
                    let seat = record["seats"]
                        .as_array_mut()
                        .unwrap()
                        .iter_mut()
                        .find(|s| s["path"].as_str().unwrap().starts_with("builtin:"))
                        .expect("a built-in in every match");
                    let other = match seat["path"].as_str().unwrap() {
                        "builtin:random" => "builtin:greedy",
                        _ => "builtin:random",
                    };
                    seat["path"] = other.into();
                })
            }),
            &["shard-1-of-2/matches.csv line 2: ", "has program builtin:"],
        ),
        (
            "a record with other time allowances",
            Box::new(move |one, _| {
                record_edited(one, &|record| {
                    let cpu = record["budgets"]["init"]["cpu_us"].as_u64().unwrap();
                    record["budgets"]["init"]["cpu_us"] = (cpu * 2).into();
                })
            }),
            &[
                "shard-1-of-2/matches.csv line 2: ",
                "its record's time allowances are",
            ],
        ),
        (
            "a record without its time allowances",
            Box::new(move |one, _| {
                record_edited(one, &|record| {
                    record.as_object_mut().unwrap().remove("budgets");
                })
            }),
            &[
                "shard-1-of-2/matches.csv line 2: ",
                // Today's record must have them: without, it is no record of the game.
                "is not a record of La loi du plus riche (missing field `budgets`",
            ],
        ),
        (
            "a command that runs something else too",
            Box::new(move |one, _| cell_edited(one, "reproduce", &|c| format!("{c}; rm -rf ~"))),
            &["shard-1-of-2/matches.csv line 2: ", "says reproduce"],
        ),
        (
            "a command with another environment than the kits' Python",
            Box::new(move |one, _| {
                cell_edited(one, "reproduce", &|c| format!("LD_PRELOAD=/tmp/spy.so {c}"))
            }),
            &["shard-1-of-2/matches.csv line 2: ", "says reproduce"],
        ),
        (
            "a number written another way than the referee's",
            Box::new(move |one, _| cell_edited(one, "calls0", &|c| format!("+0{c}"))),
            &[
                "shard-1-of-2/matches.csv line 2: ",
                "not written as the referee writes its rows",
            ],
        ),
        (
            "a command with other limits",
            Box::new(move |one, _| {
                cell_edited(one, "reproduce", &|c| {
                    c.replace("--time-scale 2", "--time-scale 3")
                })
            }),
            &["shard-1-of-2/matches.csv line 2: ", "says reproduce"],
        ),
        (
            "a row twice, another missing",
            Box::new(move |one, _| {
                let (header, rows) = lines(one);
                write(one, &header, &[rows[0].clone(), rows[0].clone()]);
            }),
            &["shard-1-of-2/matches.csv line 3: ", "appears twice"],
        ),
        (
            "another shard's row",
            Box::new(move |one, two| {
                let (header, rows) = lines(one);
                let (_, theirs) = lines(two);
                write(one, &header, &[rows[0].clone(), theirs[0].clone()]);
            }),
            &[
                "shard-1-of-2/matches.csv line 3: ",
                "is not one of shard 1/2",
            ],
        ),
        (
            "points that are not the places'",
            Box::new(move |one, _| {
                let (header, mut rows) = lines(one);
                let names: Vec<&str> = header.split(',').collect();
                let mut cells: Vec<String> = rows[0].split(',').map(String::from).collect();
                let at = names.iter().position(|h| *h == "place0").unwrap();
                cells[at] = if cells[at] == "1" { "3" } else { "1" }.to_string();
                rows[0] = cells.join(",");
                write(one, &header, &rows);
            }),
            &["shard-1-of-2/matches.csv line 2: ", "which earn"],
        ),
        (
            "scores and points swapped between two seats",
            Box::new(move |one, _| {
                let (header, mut rows) = lines(one);
                rows[0] = swap_seats(&header, &rows[0]);
                write(one, &header, &rows);
            }),
            &["shard-1-of-2/matches.csv line 2: ", "says places"],
        ),
        (
            "a row without its record",
            Box::new(move |one, _| {
                let (_, rows) = lines(one);
                let id = rows[0].split(',').next().unwrap();
                std::fs::remove_dir_all(one.join("matches").join(id)).unwrap();
            }),
            &[
                "shard-1-of-2/matches.csv line 2: ",
                "record.json is missing",
            ],
        ),
        (
            "a record edited as its row",
            Box::new(move |one, _| {
                let (header, mut rows) = lines(one);
                rows[0] = swap_seats(&header, &rows[0]);
                write(one, &header, &rows);
                let id = rows[0].split(',').next().unwrap();
                let path = one.join("matches").join(id).join("record.json");
                let mut record: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                for field in ["scores", "places"] {
                    let values = record["ranking"][field].as_array_mut().unwrap();
                    values.swap(0, 1);
                }
                std::fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
            }),
            &[
                "shard-1-of-2/matches.csv line 2: ",
                "its record does not replay",
            ],
        ),
        (
            "another shard's index",
            Box::new(|_, two| {
                let path = two.join("tournament.json");
                let text = std::fs::read_to_string(&path).unwrap();
                std::fs::write(&path, text.replace("\"index\": 2", "\"index\": 1")).unwrap();
            }),
            &["shard 1/2 is given twice"],
        ),
        (
            "another tournament's shard",
            Box::new(|_, two| {
                let path = two.join("tournament.json");
                let text = std::fs::read_to_string(&path).unwrap();
                std::fs::write(&path, text.replace("\"seed\": 7,", "\"seed\": 8,")).unwrap();
            }),
            &[
                "is not a shard of the same tournament",
                "(its seed differs;",
            ],
        ),
    ];
    for (i, (what, edit, needles)) in cases.iter().enumerate() {
        let copy = dir.join(format!("case{i}"));
        copy_tree(&shards, &copy);
        let (one, two) = (copy.join("shard-1-of-2"), copy.join("shard-2-of-2"));
        edit(&one, &two);
        let out_dir = dir.join(format!("merged{i}"));
        let out = output({
            let mut c = Command::new(REFEREE);
            c.arg("merge")
                .arg(&one)
                .arg(&two)
                .arg("--out")
                .arg(&out_dir)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            c
        });
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{what}: not refused as bad input (exit 2): {stderr}"
        );
        assert!(
            needles.iter().all(|n| stderr.contains(n)),
            "{what}: {needles:?} in {stderr}"
        );
        assert!(!out_dir.exists(), "{what}: {} created", out_dir.display());
    }
    // A record of schema 3, before time allowances were recorded, is read without them: a
    // run the referee of then played (the same champions, `fixtures/records/loi-v4-run`),
    // one of its records made schema 3.
    let copy = dir.join("schema3");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records/loi-v4-run/t"),
        &copy,
    );
    record_edited(&copy.join("shard-1-of-2"), &|record| {
        assert_eq!(record["schema"], 4, "a record of before");
        record["schema"] = 3.into();
        record.as_object_mut().unwrap().remove("budgets");
    });
    succeeded(&output({
        let mut c = Command::new(REFEREE);
        c.arg("merge")
            .arg(copy.join("shard-1-of-2"))
            .arg(copy.join("shard-2-of-2"))
            .arg("--out")
            .arg(dir.join("merged-schema3"))
            .env_remove("PROLOGIN_PYTHON");
        c
    }));
    // The same shard given twice.
    let one = shards.join("shard-1-of-2");
    let out = output({
        let mut c = Command::new(REFEREE);
        c.arg("merge")
            .arg(&one)
            .arg(&one)
            .arg("--out")
            .arg(dir.join("twice"));
        c
    });
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("shard 1/2 is given twice"));
}

/// A copy of the directory `from` (the shards of [`two_shards`]) at `to`, to edit, without
/// its MACs: a run started before results were authenticated (no key is found for the
/// copy's folder), so that an edit meets the checks of rows against records, which such a
/// run still gets, and not the MACs first (`signed_results.rs` tests those).
fn copy_tree(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-r")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "cp -r {} {}",
        from.display(),
        to.display()
    );
    for shard in std::fs::read_dir(to).unwrap().flatten() {
        let _ = std::fs::remove_file(shard.path().join("tournament.json.mac"));
        for m in std::fs::read_dir(shard.path().join("matches"))
            .into_iter()
            .flatten()
        {
            let _ = std::fs::remove_file(m.unwrap().path().join("mac"));
        }
    }
}

/// `row` (a line of `matches.csv` whose header is `header`) with the places, scores and
/// points of seats 0 and 1 swapped: they still agree with each other. Seats with equal scores would
/// swap nothing: the test's champions never tie in seats 0 and 1 of their first match.
fn swap_seats(header: &str, row: &str) -> String {
    let names: Vec<&str> = header.split(',').collect();
    let mut cells: Vec<String> = row.split(',').map(String::from).collect();
    let at = |name: &str| names.iter().position(|h| *h == name).unwrap();
    assert_ne!(cells[at("score0")], cells[at("score1")], "a tie: {row}");
    for field in ["place", "score", "points"] {
        cells.swap(at(&format!("{field}0")), at(&format!("{field}1")));
    }
    cells.join(",")
}

// ---- a row given twice at resume --------------------------------------------------------

/// A `matches.csv` edited so that one row stands twice (in place of another match's): a
/// `--resume` of the tournament or of the gauntlet refuses it before playing anything,
/// naming the match and the fix. (It used to play the missing match, then fail writing the
/// sorted file, exit 1, without a fix, and so on at every later resume.)
#[test]
fn a_row_given_twice_is_refused_at_resume_before_any_match() {
    let dir = common::fresh_dir("redteam_stop", "twice");
    let cases: [(&str, &[&str]); 2] = [
        ("tournament", &["random", "greedy", "--rounds", "2"]),
        ("gauntlet", &["greedy", "random", "--max-pairs", "10"]),
    ];
    for (subcommand, args) in cases {
        let results = dir.join(subcommand);
        let mut args = args.to_vec();
        let builder = shell("builder.sh");
        if subcommand == "tournament" {
            args.push(&builder);
        }
        succeeded(&output(referee(Who::Me, subcommand, &results, &args)));
        let csv = results.join(subcommand).join("matches.csv");
        let written = std::fs::read_to_string(&csv).unwrap();
        let mut lines: Vec<&str> = written.lines().collect();
        lines[2] = lines[1];
        let edited = lines.join("\n") + "\n";
        std::fs::write(&csv, &edited).unwrap();
        let out = output(referee(Who::Me, subcommand, &results, &["--resume"]));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{subcommand}: {stderr}");
        assert!(
            stderr.contains("match 0 appears twice") && stderr.contains("delete the row"),
            "{subcommand}: {stderr}"
        );
        assert_eq!(
            std::fs::read_to_string(&csv).unwrap(),
            edited,
            "{subcommand}"
        );
    }
}

// ---- a real record of another match than its seed's, at merge ---------------------------

/// A shard's match 0 replaced by a record that `referee match` really played (nothing in
/// it edited by hand) on the match's seed with the match's champion names, and its row
/// written from that record (every field agrees): once with another first player than the
/// seed draws (`--first-player`), once with another program under the seat's name. The
/// record says so (its `first_player` is not `Setup::from_seed(seed)`'s; its seat's
/// `sha256` and `path` are not `tournament.json`'s), so merge must refuse both, naming
/// what differs.
#[test]
fn a_real_record_of_another_setup_or_program_is_refused_at_merge() {
    let dir = common::fresh_dir("redteam_stop", "forged");
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    // Another program under passive.sh's name.
    std::fs::copy(shell("builder.sh"), other.join("passive.sh")).unwrap();
    let shards = two_shards(&dir);
    let spec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(shards.join("shard-1-of-2/tournament.json")).unwrap(),
    )
    .unwrap();
    let given = |name: &str| -> String {
        let entry = spec["champions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no champion {name}"));
        entry["given"].as_str().unwrap().to_string()
    };
    // The first row of shard 1 in which passive.sh plays.
    let passive = spec["champions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["given"].as_str().unwrap().ends_with("passive.sh"))
        .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string();
    let row = matches(&shards.join("shard-1-of-2"))
        .into_iter()
        .find(|r| (0..3).any(|s| r[&format!("champion{s}")] == passive))
        .expect("a match of passive.sh");
    let id: u64 = row["id"].parse().unwrap();
    let first: u8 = row["first_player"].parse().unwrap();
    let cases: [(&str, bool, Option<u8>, &str); 2] = [
        (
            "another first player",
            false,
            Some((first + 1) % 3),
            "draws seat",
        ),
        (
            "another program under the seat's name",
            true,
            None,
            "has SHA-256",
        ),
    ];
    let mut worked = Vec::new();
    for (i, (what, swap_program, first_player, needle)) in cases.into_iter().enumerate() {
        let copy = dir.join(format!("case{i}"));
        copy_tree(&shards, &copy);
        let one = copy.join("shard-1-of-2");
        // Play the match again, for real, as the forger would.
        let forged = dir.join(format!("forged{i}"));
        let mut play = Command::new(REFEREE);
        play.arg("match");
        for s in 0..3 {
            let name = &row[&format!("champion{s}")];
            match (swap_program, *name == passive) {
                (true, true) => play.arg(other.join("passive.sh")),
                _ => play.arg(given(name)),
            };
        }
        play.args(["--seed", &row["seed"], "--time-scale", "2", "--out"])
            .arg(&forged);
        if let Some(seat) = first_player {
            play.args(["--first-player", &seat.to_string()]);
        }
        succeeded(&output({
            play.stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            play
        }));
        let record = common::loi::load_in(&forged);
        let parts = &referee::games::loi_wire::LoiWire;
        let mut new = referee::standings::MatchRow {
            // The engine's digest, as the 2009 rows have it.
            digest: parts.row_digest(&record),
            ..record.row(parts.points(), row["reproduce"].clone())
        };
        new.id = id;
        assert_eq!(
            new.champions,
            (0..3)
                .map(|s| row[&format!("champion{s}")].clone())
                .collect::<Vec<_>>(),
            "{what}: the forged record's names"
        );
        let line = referee::export::matches_csv::row(&new, parts.first_player(&record));
        let csv = std::fs::read_to_string(one.join("matches.csv")).unwrap();
        let edited: String = csv
            .lines()
            .map(|l| match l.starts_with(&format!("{id},")) {
                true => String::from_utf8(line.clone()).unwrap(),
                false => format!("{l}\n"),
            })
            .collect();
        std::fs::write(one.join("matches.csv"), edited).unwrap();
        std::fs::copy(
            forged.join("record.json"),
            one.join("matches").join(id.to_string()).join("record.json"),
        )
        .unwrap();
        let out = output({
            let mut c = Command::new(REFEREE);
            c.arg("merge")
                .arg(&one)
                .arg(copy.join("shard-2-of-2"))
                .arg("--out")
                .arg(dir.join(format!("merged{i}")))
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            c
        });
        if out.status.code() != Some(2) || !text(&out.stderr).contains(needle) {
            worked.push(format!(
                "{what}: THE ATTACK WORKED (merge exit {:?}: {})",
                out.status.code(),
                text(&out.stderr)
            ));
        }
    }
    assert!(worked.is_empty(), "{}", worked.join("\n"));
}

// ---- an edited full log at merge ---------------------------------------------------------

/// A shard played with `--full-log` whose log of one match was edited (an answer changed,
/// the gzip file written again): `referee replay` refuses that record, and so must
/// `merge`, naming the line of the row; the unedited shards merge.
#[test]
fn an_edited_full_log_is_refused_at_merge() {
    use std::io::{Read as _, Write as _};
    let dir = common::fresh_dir("redteam_stop", "full-log");
    let results = dir.join("results");
    for shard in ["1/2", "2/2"] {
        let passive = shell("passive.sh");
        let args = ["random", "greedy", &passive, "--full-log", "--shard", shard];
        succeeded(&output(referee(Who::Me, "tournament", &results, &args)));
    }
    let shards = results.join("tournament");
    let merge = |out: &str| {
        output({
            let mut c = Command::new(REFEREE);
            c.arg("merge")
                .arg(shards.join("shard-1-of-2"))
                .arg(shards.join("shard-2-of-2"))
                .arg("--out")
                .arg(dir.join(out))
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            c
        })
    };
    succeeded(&merge("honest"));
    let one = shards.join("shard-1-of-2");
    let first = matches(&one)[0]["id"].clone();
    let log = one.join("matches").join(&first).join("requests.log.gz");
    let mut log_text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&log).unwrap())
        .read_to_string(&mut log_text)
        .unwrap();
    // The answer of the first request that is not `etat`, one more.
    let mut lines: Vec<String> = log_text.lines().map(String::from).collect();
    let at = lines
        .iter()
        .position(|l| l.split('\t').nth(1).is_some_and(|r| r != "etat"))
        .expect("a call in the log");
    let (head, answer) = lines[at].rsplit_once('\t').unwrap();
    lines[at] = format!("{head}\t{}", answer.parse::<i64>().unwrap() + 1);
    let edited = lines.join("\n") + "\n";
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&log).unwrap(),
        flate2::Compression::fast(),
    );
    gz.write_all(edited.as_bytes()).unwrap();
    gz.finish().unwrap();
    let out = merge("edited");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "THE ATTACK WORKED: {stderr}");
    assert!(
        stderr.contains("shard-1-of-2/matches.csv line 2: ")
            && stderr.contains("its record does not replay"),
        "{stderr}"
    );
    assert!(!dir.join("edited/leaderboard.csv").exists());
}
