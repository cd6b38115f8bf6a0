//! `referee --game amazons ...` as a user types it: a match of the built-in players and of
//! the protocol page's Python champion (real processes, in their jails), its record
//! replayed and shown, the printed reproduce command played again, and bad input refused.

use crate::common;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn referee(args: &[&str]) -> Output {
    Command::new(REFEREE)
        .args(args)
        .output()
        .expect("the referee runs")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The record without its timings.
fn record(dir: &Path) -> Value {
    let mut v: Value =
        serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("timings");
    v
}

#[test]
fn a_match_is_played_replayed_shown_and_reproduced() {
    let dir = common::fresh_dir("amazons", "cli");
    let first = dir.join("first");
    let out = referee(&[
        "--game",
        "amazons",
        "match",
        "mobility",
        "random",
        "--seed",
        "11",
        "--out",
        first.to_str().unwrap(),
    ]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("wins after"), "{said}");
    let played = record(&first);
    assert_eq!(played["game"], "amazons");
    assert!(played["faults"].as_array().unwrap().is_empty(), "{played}");
    let moves = played["summary"]["moves"].as_array().unwrap().len();
    assert!(moves > 10 && moves <= 92, "{moves}");

    let replay = referee(&[
        "--game",
        "amazons",
        "replay",
        first.join("record.json").to_str().unwrap(),
    ]);
    assert!(replay.status.success(), "{}", text(&replay));
    assert!(text(&replay).contains(&format!("replay ok: {moves} moves")));

    let show = referee(&[
        "--game",
        "amazons",
        "show",
        first.to_str().unwrap(),
        "--step",
        "1",
    ]);
    let shown = text(&show);
    assert!(show.status.success(), "{shown}");
    assert!(
        shown.contains("after move 1/") && shown.contains("    a b c d e f g h i j"),
        "{shown}"
    );
    // The moment the colours were isolated, as recorded, before and after it.
    if let Some(after) = played["summary"]["isolated_after"].as_u64() {
        let at = |step: u64| {
            let out = referee(&[
                "--game",
                "amazons",
                "show",
                first.to_str().unwrap(),
                "--step",
                &step.to_string(),
            ]);
            text(&out)
        };
        assert!(
            at(after - 1).contains(&format!(
                "isolated: not yet (it happens after move {after})"
            )),
            "{}",
            at(after - 1)
        );
        assert!(
            at(after).contains(&format!("isolated: since move {after}")),
            "{}",
            at(after)
        );
    }
    let bad_step = referee(&[
        "--game",
        "amazons",
        "show",
        first.to_str().unwrap(),
        "--step",
        "500",
    ]);
    assert_eq!(bad_step.status.code(), Some(2));
    assert!(
        text(&bad_step).contains("--step must be in 1..="),
        "{}",
        text(&bad_step)
    );
    let turn = referee(&[
        "--game",
        "amazons",
        "show",
        first.to_str().unwrap(),
        "--turn",
        "3",
    ]);
    assert_eq!(turn.status.code(), Some(2));
    assert!(
        text(&turn).contains("no turns or phases"),
        "{}",
        text(&turn)
    );
    // Without --game, an Amazons record is named as one, with the flag that reads it.
    let plain = referee(&["show", first.to_str().unwrap()]);
    assert_eq!(plain.status.code(), Some(2), "{}", text(&plain));
    assert!(
        text(&plain).contains(&format!(
            "{} is a record of the Game of the Amazons: add --game amazons",
            first.join("record.json").display()
        )),
        "{}",
        text(&plain)
    );

    // Every printed command works pasted where the user stands, however the referee was
    // started: by its absolute path, by a path relative to the working directory (not on
    // PATH), or by the name `referee` on PATH; started by its path while the `referee` on
    // PATH is this very program, it is named `referee`.
    let bin = Path::new(REFEREE).parent().unwrap();
    std::os::unix::fs::symlink(bin, dir.join("bin")).unwrap();
    let on_path = format!("{}:/usr/bin:/bin", bin.display());
    for (way, typed, path, program) in [
        ("absolute", REFEREE, "/usr/bin:/bin", REFEREE),
        ("relative", "bin/referee", "/usr/bin:/bin", "bin/referee"),
        ("on-path", "referee", on_path.as_str(), "referee"),
        ("path-also-on-path", REFEREE, on_path.as_str(), "referee"),
    ] {
        let shell = |command: &str| {
            Command::new("bash")
                .arg("-c")
                .arg(command)
                .current_dir(&dir)
                .env("PATH", path)
                .output()
                .unwrap()
        };
        let out = shell(&format!(
            "{typed} --game amazons match mobility random --seed 11 --out {way}"
        ));
        let said = text(&out);
        assert!(out.status.success(), "{way}: {said}");
        assert_eq!(record(&dir.join(way)), played, "{way}");
        let printed = |prefix: &str| {
            said.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .unwrap_or_else(|| panic!("{way}: no `{prefix}` line in {said}"))
                .to_string()
        };
        let reproduce = printed("reproduce: ");
        assert!(reproduce.starts_with(&format!("{program} ")), "{reproduce}");
        let again = shell(&format!("{reproduce} --out {way}-again"));
        assert!(again.status.success(), "{reproduce}: {}", text(&again));
        assert_eq!(
            record(&dir.join(format!("{way}-again"))),
            played,
            "{reproduce}"
        );
        let see = printed("see it: ");
        let see = see.split(" (or add").next().unwrap();
        let shown = shell(see);
        assert!(shown.status.success(), "{see}: {}", text(&shown));
        assert!(text(&shown).contains("    a b c d e f g h i j"), "{see}");
    }

    // A tampered move fails the replay.
    let mut tampered: Value =
        serde_json::from_slice(&std::fs::read(first.join("record.json")).unwrap()).unwrap();
    // The fourth move: callback 6 (two init_game, then a jouer per move).
    tampered["callbacks"][5]["steps"][0]["act"]["action"] = Value::String("a1-a2/a3".into());
    std::fs::write(
        first.join("record.json"),
        serde_json::to_vec(&tampered).unwrap(),
    )
    .unwrap();
    let replay = referee(&[
        "--game",
        "amazons",
        "replay",
        first.join("record.json").to_str().unwrap(),
    ]);
    assert_eq!(replay.status.code(), Some(3), "{}", text(&replay));
    assert!(
        text(&replay).contains("callback 6 (`jouer` of seat 1)"),
        "{}",
        text(&replay)
    );
}

#[test]
fn the_protocol_page_s_champion_plays_from_the_command_line() {
    let dir = common::fresh_dir("amazons", "page");
    let program = common::amazons_page_champion(&dir);
    let out_dir = dir.join("m");
    let out = referee(&[
        "--game",
        "amazons",
        "match",
        "random",
        program.to_str().unwrap(),
        "--seed",
        "5",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let played = record(&out_dir);
    assert!(played["faults"].as_array().unwrap().is_empty(), "{played}");
    assert!(played["summary"]["winner"].is_u64(), "{played}");
}

#[test]
fn bad_input_is_refused_naming_the_fix() {
    for (args, expected) in [
        (
            vec!["--game", "amazons", "match", "random"],
            "2 values required",
        ),
        (
            vec!["--game", "amazons", "match", "random", "random", "random"],
            "takes 2 champions",
        ),
        (
            vec![
                "--game",
                "amazons",
                "match",
                "random",
                "random",
                "--first-player",
                "1",
            ],
            "not of The Game of the Amazons",
        ),
        (
            vec!["--game", "amazons", "match", "random", "greedy"],
            "built-in champion: random, mobility",
        ),
        (vec!["--game", "chess", "match", "a", "b"], "--game"),
        (vec!["match", "random", "greedy"], "takes 3 champions"),
    ] {
        let out = referee(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(expected), "{args:?}: {}", text(&out));
    }
}

/// Output into a closed pipe (`referee ... show | head`) ends the referee quietly with
/// 141, as a program killed by SIGPIPE, never a panic.
#[test]
fn a_closed_output_pipe_ends_the_referee_quietly() {
    let dir = common::fresh_dir("amazons", "pipe");
    let out = referee(&[
        "--game",
        "amazons",
        "match",
        "random",
        "random",
        "--seed",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    // A pipe whose reading end is closed before the referee writes anything.
    let (read, write) = nix::unistd::pipe().unwrap();
    drop(read);
    for args in [
        vec!["--game", "amazons", "show", dir.to_str().unwrap()],
        vec!["--game", "amazons", "replay", dir.to_str().unwrap()],
    ] {
        let out = Command::new(REFEREE)
            .args(&args)
            .stdout(std::process::Stdio::from(write.try_clone().unwrap()))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
