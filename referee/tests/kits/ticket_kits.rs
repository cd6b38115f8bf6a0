//! Ticket to Ride's champion kits (`champions/ticket/`) played by the real referee through
//! the jail: the Python sample (`python/random-py`) against the C sample (`c/random-c`, built
//! from the subject's API names with the C kit), both ways round, as root and as a normal
//! user; each match ends without a fault and its record replays. And a program written to
//! the subject's own header builds against the kit unchanged and plays, and so does one
//! written to the subject's library's own calls (`clientAPI.h`).

use crate::common;

use common::users::Who;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// Builds the C sample with the kit's Makefile (the repository's own code, trusted as it
/// is: `scripts/build-champions.sh` builds it the same way without a referee).
fn build_c() -> PathBuf {
    let dir = repo("champions/ticket/c/random-c");
    let out = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(&dir)
        .env_remove("PROLOGIN_KITS")
        .output()
        .expect("make runs");
    assert!(
        out.status.success(),
        "make -C {}: {}",
        dir.display(),
        common::text(&out.stderr)
    );
    dir.join("champion")
}

#[test]
fn the_python_and_c_samples_play_each_other_through_the_jail() {
    let c = build_c();
    let python = repo("champions/ticket/python/random-py/champion");
    common::users::each_run_in("ticket_kits", "samples", |who, dir| {
        for (i, seats) in [[&python, &c], [&c, &python]].iter().enumerate() {
            let out_dir = dir.join(i.to_string());
            let mut command = Command::new(REFEREE);
            command
                .args(["--game", "ticket-to-ride", "match"])
                .args(seats.iter().map(|p| p.as_os_str()))
                .args(["--seed", "9", "--option", "board=small", "--out"])
                .arg(&out_dir)
                .stdin(Stdio::null());
            if let Who::User(uid, gid) = who {
                command.uid(uid).gid(gid).env("HOME", "/tmp");
            }
            let out = command.output().unwrap();
            let said = common::text(&out.stdout) + &common::text(&out.stderr);
            assert!(out.status.success(), "{said}");
            assert!(said.contains("wins after"), "{said}");
            let record: serde_json::Value =
                serde_json::from_slice(&std::fs::read(out_dir.join("record.json")).unwrap())
                    .unwrap();
            let log = |s: usize| {
                std::fs::read_to_string(out_dir.join(format!("seat{s}.stderr"))).unwrap()
            };
            assert!(
                record["faults"].as_array().unwrap().is_empty(),
                "{}\n--- seat 0\n{}\n--- seat 1\n{}",
                record["faults"],
                log(0),
                log(1)
            );
            assert_eq!(record["summary"]["end"], "Counted", "{said}");
            // Both claimed routes: each plays as `random`, not as `do-nothing`.
            for s in 0..2 {
                let routes = record["summary"]["counts"][s]["routes"].as_i64().unwrap();
                assert!(routes > 0, "seat {s} claimed nothing: {said}");
                // Each told its result from the kit's return code: won when placed first.
                let won = record["ranking"]["places"][s] == 1;
                let told = log(s);
                let said_won = if won { "comment: won" } else { "comment: lost" };
                assert!(told.contains(said_won), "seat {s}: {told}");
            }
            let replay = Command::new(REFEREE)
                .args(["--game", "ticket-to-ride", "replay"])
                .arg(out_dir.join("record.json"))
                .output()
                .unwrap();
            assert!(replay.status.success(), "{}", common::text(&replay.stderr));
        }
    });
}

/// A program written to the subject's own header (`TicketToRideAPI.h`, `clientAPI.h`'s
/// names, every function at the exact type of the subject's prototype, every enum value
/// checked at compile time) builds against the kit unchanged and plays a whole match in
/// its jail.
#[test]
fn a_program_written_to_the_subject_s_header_builds_unchanged_and_plays() {
    subject_program_plays("subject_api", "subject-api", |_, stderr| {
        assert!(stderr.contains("comment: "), "{stderr}");
    });
}

/// A program written to the subject's library's own calls (`clientAPI.h`: `connectToCGS`,
/// `waitForGame`, `getGameData`, `getCGSMove`, `sendCGSMove`, `printCGSGame`,
/// `sendCGSComment`, `closeCGSConnection`, `dispDebug` and `debug`, each at the exact type
/// of the library's prototype) builds against the kit and plays a whole match in its jail:
/// its data, answers and the other's moves come in the subject's server's strings, and
/// agree with the match's record.
#[test]
fn a_program_written_to_the_subject_s_library_calls_builds_and_plays() {
    const COLOURS: [&str; 10] = [
        "none",
        "purple",
        "white",
        "blue",
        "yellow",
        "orange",
        "black",
        "red",
        "green",
        "locomotive",
    ];
    subject_program_plays("subject_internal", "subject-internal", |record, stderr| {
        // The small board: 8 cities, 11 tracks, the first Zero-Six, 6 wagons, grey.
        for line in [
            "wait: 8 11\n",
            "first track: 0 6 6 9 0\n",
            "[main] debug shown at level 1\n",
            "route 0: 0-6, 6 grey, free\n",
            "comment: hello from the subject's library\n",
        ] {
            assert!(stderr.contains(line), "no {line:?} in:\n{stderr}");
        }
        assert!(!stderr.contains("hidden at level 2"), "{stderr}");
        // Each seat's moves in the record, with their answers.
        let acts = |seat: u64| -> Vec<(String, String)> {
            record["callbacks"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|c| c["steps"].as_array().cloned().unwrap_or_default())
                .filter(|s| s["act"]["seat"] == seat)
                .map(|s| {
                    let answer = s["act"]["answer"]["Ok"].as_str().unwrap_or("").to_string();
                    (s["act"]["action"].as_str().unwrap().to_string(), answer)
                })
                .collect()
        };
        let mine = acts(0);
        assert_eq!(mine[0].0, "tickets");
        let offered = mine[0].1.replace(',', "");
        assert!(
            stderr.contains(&format!("tickets: {offered}\n")),
            "{stderr}"
        );
        // Every blind card, by the subject's colour numbers, in order (the last draw
        // found no card: the game ended, and the kit gave NONE).
        let blind: Vec<&str> = mine
            .iter()
            .filter(|(action, _)| action == "blind")
            .map(|(_, answer)| answer.as_str())
            .collect();
        let (ended, cards) = blind.split_last().unwrap();
        assert!(ended.starts_with("no card left"), "{blind:?}");
        let drawn: Vec<String> = cards
            .iter()
            .map(|card| COLOURS.iter().position(|c| c == card).unwrap().to_string())
            .collect();
        let told: Vec<&str> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("card: "))
            .filter(|&c| c != "0")
            .collect();
        assert!(drawn.len() > 10, "{mine:?}");
        assert_eq!(told, drawn, "{stderr}");
        // The other's draws, each given by getCGSMove as `2` or `3 <colour>`.
        let theirs = acts(1)
            .iter()
            .filter(|(action, _)| action == "blind" || action.starts_with("take "))
            .count();
        let given = stderr
            .lines()
            .filter(|l| l.starts_with("their move: 2 |") || l.starts_with("their move: 3 "))
            .count();
        assert_eq!(given, theirs, "{stderr}");
        let end = record["summary"]["end"].as_str().unwrap();
        assert!(end.starts_with("CardsOut"), "{end}");
    });
}

/// Builds the program of `tests/fixtures/ticket/FIXTURE` against the installed C kit and
/// plays it against `do-nothing` on the small board (seed 5), as root and as the user: each
/// match ends with no fault, and `check` gets its record and the program's stderr.
fn subject_program_plays(fixture: &str, test: &str, check: impl Fn(&serde_json::Value, &str)) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ticket")
        .join(fixture);
    let built = common::fresh_dir("ticket_kits", test);
    for file in ["champion.c", "Makefile"] {
        std::fs::copy(source.join(file), built.join(file)).unwrap();
    }
    let out = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(&built)
        .arg(format!("KIT={}", repo("kits/ticket-c").display()))
        .env_remove("PROLOGIN_KITS")
        .output()
        .expect("make runs");
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let champion = built.join("champion");
    common::users::each_run_in("ticket_kits", test, |who, dir| {
        let out_dir = dir.join("m");
        let mut command = Command::new(REFEREE);
        command
            .args(["--game", "ticket-to-ride", "match"])
            .arg(&champion)
            .args([
                "do-nothing",
                "--seed",
                "5",
                "--option",
                "board=small",
                "--out",
            ])
            .arg(&out_dir)
            .stdin(Stdio::null());
        if let Who::User(uid, gid) = who {
            command.uid(uid).gid(gid).env("HOME", "/tmp");
        }
        let out = command.output().unwrap();
        let said = common::text(&out.stdout) + &common::text(&out.stderr);
        assert!(out.status.success(), "{said}");
        let record: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out_dir.join("record.json")).unwrap()).unwrap();
        let stderr = std::fs::read_to_string(out_dir.join("seat0.stderr")).unwrap();
        assert!(
            record["faults"].as_array().unwrap().is_empty(),
            "{record}\n{said}\n{stderr}"
        );
        check(&record, &stderr);
    });
}
