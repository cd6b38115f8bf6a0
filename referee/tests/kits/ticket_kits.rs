//! Ticket to Ride's champion kits (`champions/ticket/`) played by the real referee through
//! the jail: the Python sample (`python/random-py`) against the C sample (`c/random-c`, built
//! from the subject's API names with the C kit), both ways round, as root and as a normal
//! user; each match ends without a fault and its record replays. And a program written to
//! the subject's own header builds against the kit unchanged and plays.

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
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ticket/subject_api");
    let built = common::fresh_dir("ticket_kits", "subject-api");
    for file in ["champion.c", "Makefile"] {
        std::fs::copy(fixture.join(file), built.join(file)).unwrap();
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
    common::users::each_run_in("ticket_kits", "subject-api", |who, dir| {
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
        assert!(
            record["faults"].as_array().unwrap().is_empty(),
            "{record}\n{said}"
        );
        let stderr = std::fs::read_to_string(out_dir.join("seat0.stderr")).unwrap();
        assert!(stderr.contains("comment: "), "{stderr}");
    });
}
