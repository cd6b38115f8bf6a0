//! The organiser's tests of a champion being what ran (issue 26, items 8 and 9), through the
//! binary with real champions, as root and as a user: a tournament copies its champions'
//! files once at its start (`<results>/<name>/snapshots/<sha256>/`) and plays every match
//! and every resume from that copy, so a champion rebuilt or deleted during the run plays
//! as it was at the start; a snapshot made unreadable during the run is the operator's
//! trouble (the run stops, nothing of that match counts, a resume after the fix ends as an
//! undisturbed run); a tournament started before snapshots still resumes; and a gauntlet
//! plays from its snapshots as a tournament does.
//!
//! Champions: `alpha` (a folder whose `champion` is the slow passive fixture, so that the
//! run lasts long enough to change it in the middle) and `beta` (a folder whose `champion`
//! is the shell builder); their "rebuilt" version exits at once, so any match it played
//! would show a crash.

use crate::common;

use common::tables::forget_last_match;
use common::users::Who;
use sha2::Digest;
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// Matches of the tournament: 4 champions, 4 sets of three, 4 rounds.
const TOTAL: usize = 16;

/// Runs `body` as root and as the test user (or as this user), each in a fresh directory
/// writable by that run's user; fails after all of them, naming each failure.
fn each_run(test: &str, body: impl Fn(Who, &Path)) {
    common::users::each_run_in("tournament_snapshot", test, body);
}

use common::chmod;

/// The champion folders `ops/alpha` and `ops/beta` in `dir`, with a results folder inside
/// `alpha` that no snapshot may copy; their paths.
fn champions(dir: &Path) -> [PathBuf; 2] {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sources = [
        repo.join("tests/fixtures/tournament/slow.sh"),
        repo.join("../champions/shell/builder.sh"),
    ];
    ["alpha", "beta"]
        .map(|name| dir.join("ops").join(name))
        .iter()
        .zip(sources)
        .for_each(|(folder, source)| {
            std::fs::create_dir_all(folder).unwrap();
            std::fs::copy(source, folder.join("champion")).unwrap();
            chmod(&folder.join("champion"), 0o755);
            std::fs::write(folder.join("notes.txt"), "version 1\n").unwrap();
        });
    chmod(&dir.join("ops"), 0o755);
    let hidden = dir.join("ops/alpha/results/old");
    std::fs::create_dir_all(&hidden).unwrap();
    std::fs::write(hidden.join("tournament.json"), "{\"seed\": 1}\n").unwrap();
    ["alpha", "beta"].map(|name| dir.join("ops").join(name))
}

/// `referee tournament` of random, greedy, alpha and beta (none when resuming) into
/// `results`, as `who`.
fn tournament(who: Who, results: &Path, dir: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command.arg("tournament");
    if !extra.contains(&"--resume") {
        command.args(["random", "greedy"]);
        command.args(["alpha", "beta"].map(|n| dir.join("ops").join(n)));
    }
    command
        .args([
            "--name",
            "t",
            "--seed",
            "2026",
            "--time-scale",
            "2",
            "--jobs",
            "1",
        ])
        .args(["--rounds", "4", "--results"])
        .arg(results)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid).env("HOME", "/tmp");
    }
    command
}

/// The untimed `matches.csv` and `leaderboard.csv` of the tournament folder `t`.
fn tables(t: &Path) -> Vec<Vec<BTreeMap<String, String>>> {
    ["matches.csv", "leaderboard.csv"]
        .map(|f| common::tables::untimed(&t.join(f)))
        .to_vec()
}

/// The undisturbed run's tables, played into `dir/whole`.
fn undisturbed(who: Who, dir: &Path) -> Vec<Vec<BTreeMap<String, String>>> {
    let whole = dir.join("whole");
    common::succeeded(&common::output(tournament(who, &whole, dir, &[])));
    let tables = tables(&whole.join("t"));
    assert_eq!(tables[0].len(), TOTAL);
    assert!(
        tables[0].iter().all(|row| row
            .iter()
            .all(|(column, value)| { !column.starts_with("fault") || value.is_empty() })),
        "the undisturbed run has faults: {:?}",
        tables[0]
    );
    tables
}

/// Starts the tournament into `results` as `who`, waits for its first row, calls `change`
/// (the organiser's doing in the middle of the run), and returns the run's output and how
/// many rows there were when `change` ran.
fn change_mid_run(
    who: Who,
    results: &Path,
    dir: &Path,
    change: impl FnOnce(),
) -> (std::process::Output, usize) {
    let child = tournament(who, results, dir, &[]).spawn().unwrap();
    let t = results.join("t");
    common::wait_until("the run played no match", Duration::from_secs(120), || {
        common::tables::played(&t) >= 1
    });
    change();
    let at = common::tables::played(&t);
    let out = child.wait_with_output().unwrap();
    assert!(
        at < TOTAL - 2,
        "the run had played {at} of {TOTAL} matches before the change: it cannot show \
         anything (make the matches slower)"
    );
    (out, at)
}

/// The snapshot of `folder` in the tournament folder `t`: `tournament.json`'s entry for it.
fn snapshot_of(t: &Path, name: &str) -> (PathBuf, String) {
    let spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.join("tournament.json")).unwrap()).unwrap();
    let entry = spec["champions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .unwrap();
    let relative = entry["snapshot"]
        .as_str()
        .unwrap_or_else(|| panic!("{entry}"));
    let root = t
        .join("snapshots")
        .join(relative)
        .parent()
        .unwrap()
        .to_path_buf();
    (root, entry["sha256"].as_str().unwrap().to_string())
}

/// A rebuild as a build tool does it: the new program written beside, then renamed over.
fn rebuild(folder: &Path) {
    let new = folder.join(".champion.new");
    std::fs::write(&new, "#!/bin/sh\n# version 2: gives up at once\nexit 3\n").unwrap();
    chmod(&new, 0o755);
    std::fs::rename(&new, folder.join("champion")).unwrap();
    std::fs::write(folder.join("notes.txt"), "version 2\n").unwrap();
}

/// Item 8 and 9: `alpha` rebuilt and `beta` deleted after the first match; every match
/// plays them as they were at the start (the results are the undisturbed run's, no
/// fault), each record's SHA-256 is its snapshot's program's, the snapshot holds no
/// results folder, and a resume says once that their files changed or are gone and plays
/// the snapshot again.
#[test]
fn a_champion_rebuilt_and_one_deleted_mid_run_play_as_they_were_at_the_start() {
    each_run("rebuilt", |who, dir| {
        let [alpha, beta] = champions(dir);
        let want = undisturbed(who, dir);
        let results = dir.join("cut");
        let (out, _) = change_mid_run(who, &results, dir, || {
            rebuild(&alpha);
            std::fs::remove_dir_all(&beta).unwrap();
        });
        common::succeeded(&out);
        let t = results.join("t");
        assert_eq!(
            tables(&t),
            want,
            "the run played another program than its start's"
        );

        let (root, sha256) = snapshot_of(&t, "alpha");
        let digest = sha2::Sha256::digest(std::fs::read(root.join("champion")).unwrap());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex, sha256,
            "tournament.json's SHA-256 is not the snapshot's program's"
        );
        assert_eq!(
            std::fs::read(root.join("champion")).unwrap(),
            std::fs::read(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tournament/slow.sh")
            )
            .unwrap()
        );
        assert!(
            !root.join("results").exists(),
            "a results folder was copied"
        );
        let said = common::text(&out.stderr);
        assert!(
            said.contains("left out of its snapshot: results/ (the referee's results"),
            "{said}"
        );
        for entry in std::fs::read_dir(t.join("matches")).unwrap() {
            let record: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(entry.unwrap().path().join("record.json")).unwrap(),
            )
            .unwrap();
            for seat in record["seats"].as_array().unwrap() {
                if seat["name"] == "alpha" {
                    assert_eq!(seat["sha256"], sha256.as_str());
                    assert_eq!(
                        seat["path"],
                        alpha
                            .canonicalize()
                            .unwrap()
                            .join("champion")
                            .display()
                            .to_string()
                    );
                }
            }
        }

        forget_last_match(&t);
        let out = common::output(tournament(who, &results, dir, &["--resume"]));
        common::succeeded(&out);
        let said = common::text(&out.stderr);
        for (name, what) in [("alpha", "changed"), ("beta", "are gone")] {
            let line = format!("champion `{name}`: its files (");
            assert_eq!(said.matches(&line).count(), 1, "{said}");
            assert!(
                said.contains(what) && said.contains("the snapshot taken then"),
                "{said}"
            );
        }
        assert_eq!(
            tables(&t),
            want,
            "the resume played another program than the start's"
        );
    });
}

/// A snapshot made unreadable during the run (here, its folder's mode cleared) is the
/// operator's to fix: the run stops with a message naming the snapshot and the fix and a
/// non-zero exit, no match counts a fault for it, and the resume after the fix ends with
/// the undisturbed run's results.
#[test]
fn a_snapshot_made_unreadable_mid_run_stops_the_run_and_resumes_once_fixed() {
    each_run("unreadable", |who, dir| {
        champions(dir);
        let want = undisturbed(who, dir);
        let results = dir.join("cut");
        let t = results.join("t");
        let (out, _) = change_mid_run(who, &results, dir, || {
            chmod(&snapshot_of(&t, "alpha").0, 0o000);
        });
        let said = common::text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{said}");
        let (root, _) = snapshot_of(&t, "alpha");
        for needle in [
            "champion `alpha` cannot be started from its snapshot",
            "is not a folder that everyone may read (mode 0)",
            "its match counts nothing",
            &format!("chmod -R a+rX {}", root.display()),
            "resume with: ",
        ] {
            assert!(said.contains(needle), "expected `{needle}` in: {said}");
        }
        let rows = common::tables::untimed(&t.join("matches.csv"));
        assert!(rows.len() < TOTAL, "{said}");
        for row in &rows {
            let same = want[0].iter().find(|w| w["id"] == row["id"]).unwrap();
            assert_eq!(
                row, same,
                "a match counted other results than the undisturbed run's"
            );
        }

        chmod(&root, 0o755);
        let out = common::output(tournament(who, &results, dir, &["--resume"]));
        common::succeeded(&out);
        assert_eq!(tables(&t), want);
    });
}

/// A tournament started before snapshots (no `snapshot` in `tournament.json`, the old
/// identity of each champion, no `snapshots/` folder) resumes from the champions' own
/// folders, as it did.
#[test]
fn a_tournament_started_before_snapshots_still_resumes() {
    each_run("old-format", |who, dir| {
        let [alpha, _] = champions(dir);
        let want = undisturbed(who, dir);
        let t = dir.join("whole/t");
        forget_last_match(&t);
        let path = t.join("tournament.json");
        let mut spec: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        spec.as_object_mut().unwrap().remove("kits");
        for entry in spec["champions"].as_array_mut().unwrap() {
            if let Some(entry) = entry.as_object_mut() {
                if entry.remove("snapshot").is_some() {
                    let program = PathBuf::from(entry["path"].as_str().unwrap());
                    entry["identity"] = referee::roster::identity_of(&program).unwrap().into();
                }
            }
        }
        std::fs::write(&path, serde_json::to_string_pretty(&spec).unwrap()).unwrap();
        std::fs::remove_dir_all(t.join("snapshots")).unwrap();
        // A run of that time had no key either: no MAC beside its files.
        std::fs::remove_file(common::default_key(&t)).unwrap();
        std::fs::remove_file(t.join("tournament.json.mac")).unwrap();
        for entry in std::fs::read_dir(t.join("matches")).unwrap() {
            let _ = std::fs::remove_file(entry.unwrap().path().join("mac"));
        }

        common::succeeded(&common::output(tournament(
            who,
            &dir.join("whole"),
            dir,
            &["--resume"],
        )));
        assert_eq!(tables(&t), want);
        assert!(!t.join("snapshots").exists());
        // Its folder changed: refused as before (the old form has no snapshot to play).
        rebuild(&alpha);
        let out = common::output(tournament(who, &dir.join("whole"), dir, &["--resume"]));
        assert_eq!(out.status.code(), Some(2));
        assert!(
            common::text(&out.stderr).contains("changed since the tournament started"),
            "{}",
            common::text(&out.stderr)
        );
    });
}

/// A gauntlet plays from its snapshots too: its candidate rebuilt after the run, a resume
/// that plays a missing match says so once and plays the copy (the matches and the verdict
/// of the run as it was).
#[test]
fn a_gauntlet_resumed_after_its_candidate_was_rebuilt_plays_its_snapshot() {
    each_run("gauntlet", |who, dir| {
        let [_, beta] = champions(dir);
        let results = dir.join("g");
        let gauntlet = |extra: &[&str]| {
            let mut command = Command::new(REFEREE);
            command.arg("gauntlet");
            if extra.is_empty() {
                command.arg(&beta).arg("random");
            }
            command
                .args([
                    "--name",
                    "g",
                    "--seed",
                    "5",
                    "--time-scale",
                    "2",
                    "--jobs",
                    "1",
                ])
                .args(["--max-pairs", "10", "--results"])
                .arg(&results)
                .args(extra)
                .stdin(Stdio::null());
            if let Who::User(uid, gid) = who {
                command.uid(uid).gid(gid).env("HOME", "/tmp");
            }
            common::output(command)
        };
        let first = gauntlet(&[]);
        let verdict = common::succeeded(&first);
        let g = results.join("g");
        let want = common::tables::untimed(&g.join("matches.csv"));
        rebuild(&beta);
        forget_last_match(&g);
        let again = gauntlet(&["--resume"]);
        assert_eq!(common::succeeded(&again), verdict);
        let said = common::text(&again.stderr);
        assert_eq!(
            said.matches("champion `beta`: its files (").count(),
            1,
            "{said}"
        );
        assert_eq!(common::tables::untimed(&g.join("matches.csv")), want);
    });
}

/// A run records each installed kit's hash: a kit added to the referee since (a new game's)
/// does not stop it resuming, a kit it had that changed or is gone does, naming the kit.
#[test]
fn a_kit_added_since_does_not_stop_a_resume_one_changed_or_gone_does() {
    let dir = common::fresh_dir("snapshot", "kits-each");
    let results = dir.join("results");
    let run = |extra: &[&str]| {
        let mut command = Command::new(REFEREE);
        command.args(["--game", "amazons", "tournament"]);
        if !extra.contains(&"--resume") {
            command.args(["random", "mobility"]);
        }
        command
            .args([
                "--name",
                "t",
                "--seed",
                "2026",
                "--rounds",
                "1",
                "--results",
            ])
            .arg(&results)
            .args(extra)
            .stdin(Stdio::null());
        common::output(command)
    };
    common::succeeded(&run(&[]));
    let t = results.join("t");
    common::without_keys(&t);
    let path = t.join("tournament.json");
    let spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let kits = spec["kits"].as_object().expect("each kit's hash").clone();
    assert!(kits.contains_key("python"), "{kits:?}");
    let with_kits = |kits: serde_json::Map<String, serde_json::Value>| {
        let mut spec = spec.clone();
        spec["kits"] = kits.into();
        std::fs::write(&path, serde_json::to_string_pretty(&spec).unwrap()).unwrap();
    };
    // `python` was installed after the run started: nothing it plays changed.
    let mut fewer = kits.clone();
    fewer.remove("python");
    with_kits(fewer);
    common::succeeded(&run(&["--resume"]));
    for (edit, says) in [
        ("changed", "the kit `python` changed"),
        ("gone", "the kit `cobol` is gone"),
    ] {
        let mut edited = kits.clone();
        match edit {
            "changed" => edited["python"] = "0".repeat(64).into(),
            _ => drop(edited.insert("cobol".into(), "0".repeat(64).into())),
        }
        with_kits(edited);
        let out = run(&["--resume"]);
        assert_eq!(out.status.code(), Some(2), "{edit}");
        assert!(
            common::text(&out.stderr).contains(says),
            "{edit}: {}",
            common::text(&out.stderr)
        );
    }
}

/// A results folder deeper than the longest path the system opens (PATH_MAX) leaves the
/// referee unable to open its own copy of any champion: the pre-run check stops the run as
/// the operator's to fix (exit 1, naming the snapshot, the cause and the fix), blaming no
/// champion, and `--exclude-broken` does not play the built-ins alone (exit 0, before).
#[test]
fn a_snapshot_the_referee_cannot_open_stops_the_pre_run_check_as_its_own() {
    each_run("too-deep", |who, dir| {
        champions(dir);
        let key = dir.join("deep.key").display().to_string();
        let referee = tournament(
            who,
            Path::new("res"),
            dir,
            &["--exclude-broken", "--key", &key],
        );
        // 230 folders of 20 bytes, entered one by one: no path of them is ever opened whole.
        let mut deep = Command::new("sh");
        deep.arg("-c")
            .arg(
                "i=0; while [ $i -lt 230 ]; do d=d$(printf %018d $i); mkdir $d && cd -P $d \
                 || exit 99; i=$((i+1)); done; exec \"$@\"",
            )
            .arg("sh")
            .arg(referee.get_program())
            .args(referee.get_args())
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Who::User(uid, gid) = who {
            deep.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        let out = common::output(deep);
        let stderr = common::text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("the pre-run check cannot start champion `")
                && stderr.contains("on the referee's side, not the champion's")
                && stderr.contains("a shorter --results"),
            "{stderr}"
        );
        assert!(!stderr.contains("failed the pre-run check"), "{stderr}");
        assert!(!stderr.contains("excluding"), "{stderr}");
    });
}
