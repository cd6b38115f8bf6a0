//! A champion that sends itself SIGXCPU (the lifetime CPU backstop's signal) long before
//! its allowance is a `crash` naming the signal, not a `timeout`, in both games, as root
//! and as a user, and its record replays; the message of an attack that works says
//! `THE ATTACK WORKED`.
//!
//! Fixture: `tests/fixtures/redteam/self_xcpu.sh`.

use crate::common;

use common::users::Who;
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// `referee [--game GAME] ARGS` as `who`.
fn referee(who: Who, game: Option<&str>, args: &[&std::ffi::OsStr]) -> Output {
    let mut command = Command::new(REFEREE);
    if let Some(game) = game {
        command.args(["--game", game]);
    }
    command
        .args(args)
        .env_remove(referee::reproduce_log::VARIABLE)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Who::User(uid, gid) = who {
        command.uid(uid).gid(gid).env("HOME", "/tmp");
    }
    command.output().unwrap()
}

#[test]
fn a_champion_that_sends_itself_sigxcpu_crashed_and_its_record_replays() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/redteam/self_xcpu.sh");
    common::users::each_run_in("redteam_xcpu", "self_xcpu", |who, dir| {
        for (game, opponents) in [
            (None, &["random", "greedy"][..]),
            (Some("amazons"), &["random"]),
        ] {
            let out = dir.join(format!("out-{}", game.unwrap_or("loi")));
            let mut args = vec!["match".as_ref(), fixture.as_os_str()];
            args.extend(opponents.iter().map(std::ffi::OsStr::new));
            args.extend([
                "--seed".as_ref(),
                "5".as_ref(),
                "--out".as_ref(),
                out.as_os_str(),
            ]);
            let played = referee(who, game, &args);
            let said = common::text(&played.stderr);
            assert_eq!(played.status.code(), Some(0), "{game:?}: {said}");
            let record = out.join("record.json");
            let json: Value =
                serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
            let faults = json["faults"].as_array().expect("a faults list");
            let fault = faults
                .iter()
                .find(|f| f["seat"] == 0)
                .unwrap_or_else(|| panic!("{game:?}: no fault of seat 0: {json}"));
            let message = fault["message"].as_str().unwrap_or_default();
            assert_ne!(
                fault["kind"], "timeout",
                "THE ATTACK WORKED ({game:?}): its own SIGXCPU is called a timeout: {fault}"
            );
            assert_eq!(fault["kind"], "crash", "{game:?}: {fault}");
            assert!(
                message.contains("SIGXCPU") && message.contains("not its lifetime CPU backstop"),
                "{game:?}: the crash does not name the signal: {fault}"
            );
            let replayed = referee(who, game, &["replay".as_ref(), record.as_os_str()]);
            assert!(
                replayed.status.success(),
                "{game:?}: its genuine record does not replay: {}",
                common::text(&replayed.stderr)
            );
        }
    });
}
