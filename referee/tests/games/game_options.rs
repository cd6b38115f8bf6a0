//! A game's options (`--option NAME=VALUE`) and seat count (`--seats K`) as a user gives
//! them to the binary: `referee options` lists them, an option or a count the game does not
//! take is refused with what it takes (exit 2), and a tournament keeps its seats: a resume
//! with another `--seats` or an `--option` is refused, naming both, and `tournament.json`
//! of a game's fewest seats and no options is written as before.

use crate::common;

use std::process::{Command, Output};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn referee(args: &[&str]) -> Output {
    common::output({
        let mut command = Command::new(REFEREE);
        command.args(args);
        command
    })
}

/// Its exit code and everything it printed.
fn said(out: &Output) -> (Option<i32>, String) {
    let mut text = common::text(&out.stdout);
    text.push_str(&common::text(&out.stderr));
    (out.status.code(), text)
}

#[test]
fn options_lists_each_game_s_seats_and_options() {
    let (code, text) = said(&referee(&["options"]));
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(
        text,
        "La loi du plus riche: matches of 3 seats; its options (--option NAME=VALUE; a \
         match's also by --monuments and --first-player):\n  first-player: one of drawn, 0, \
         1, 2 (default drawn): the seat that opens Phase I of turn 1 (rule 11): 0, 1 or 2, or \
         `drawn` from the match's seed\n  monuments: text without `=` or `,` (default \
         drawn): the order the monuments are drawn in (rule 14): the ids 0 to 13, each once, \
         joined by `-` (the 2009 reference order is 0-1-2-3-4-5-6-7-8-9-10-11-12-13), or \
         `drawn` from the match's seed\n"
    );
    let (code, text) = said(&referee(&["--game", "amazons", "options"]));
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(
        text,
        "The Game of the Amazons: matches of 2 seats; it takes no --option\n"
    );
}

/// Refused before anything runs, with the game's options: no champion is started.
#[test]
fn an_option_a_game_does_not_take_is_refused_with_what_it_takes() {
    let dir = common::fresh_dir("options", "refused");
    let out = dir.join("out").display().to_string();
    let results = dir.join("results").display().to_string();
    let cases: &[&[&str]] = &[
        &[
            "--game", "amazons", "match", "random", "mobility", "--option", "deck=20",
        ],
        &[
            "--game",
            "amazons",
            "tournament",
            "random",
            "mobility",
            "--option",
            "deck=20",
        ],
    ];
    for case in cases {
        let mut args = case.to_vec();
        args.extend(match args.contains(&"match") {
            true => ["--out", out.as_str()],
            false => ["--results", results.as_str()],
        });
        let (code, text) = said(&referee(&args));
        assert_eq!(code, Some(2), "{args:?}: {text}");
        assert!(
            text.contains("--option: this game takes no option (`deck` given)"),
            "{args:?}: {text}"
        );
        assert!(text.contains("it takes no --option"), "{args:?}: {text}");
    }
    // The 2009 game names its options and the flags of its setup, a match and a gauntlet
    // alike.
    for case in [
        &[
            "match", "random", "greedy", "random", "--option", "x=1", "--out", &out,
        ][..],
        &[
            "gauntlet",
            "random",
            "greedy",
            "--option",
            "deck=20",
            "--results",
            &results,
        ],
    ] {
        let (code, text) = said(&referee(case));
        assert_eq!(code, Some(2), "{case:?}: {text}");
        assert!(
            text.contains("this game takes first-player, monuments"),
            "{case:?}: {text}"
        );
        assert!(text.contains("--monuments and --first-player"), "{text}");
    }
    assert!(!dir.join("out").exists());
    for run in ["tournament/tournament.json", "gauntlet/gauntlet.json"] {
        assert!(!dir.join("results").join(run).exists(), "{run}");
    }
}

#[test]
fn a_seat_count_the_game_does_not_take_is_refused_naming_its_counts() {
    let dir = common::fresh_dir("options", "seats");
    let results = dir.join("results").display().to_string();
    let (code, text) = said(&referee(&[
        "tournament",
        "random",
        "greedy",
        "random",
        "greedy",
        "--seats",
        "4",
        "--results",
        &results,
    ]));
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("--seats 4: La loi du plus riche is played by 3 seats only; drop --seats"),
        "{text}"
    );
    let (code, text) = said(&referee(&[
        "--game",
        "amazons",
        "gauntlet",
        "random",
        "mobility",
        "--seats",
        "3",
        "--results",
        &results,
    ]));
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("--seats 3: The Game of the Amazons is played by 2 seats only"),
        "{text}"
    );
    // Beyond what any schedule seats: clap names the range.
    let (code, text) = said(&referee(&[
        "tournament",
        "random",
        "greedy",
        "random",
        "--seats",
        "9",
    ]));
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("a number of seats is a whole number from 2 to 8"),
        "{text}"
    );
    for run in ["tournament/tournament.json", "gauntlet/gauntlet.json"] {
        assert!(!dir.join("results").join(run).exists(), "{run}");
    }
}

/// `--seats` at the game's own count plays the tournament it always did (its file has no
/// `seats` or `options`); a resume that asks for other seats or an option is refused.
#[test]
fn a_tournament_keeps_its_seats_and_options_on_resume() {
    let dir = common::fresh_dir("options", "resume");
    let results = dir.join("results").display().to_string();
    let key = dir.join("key").display().to_string();
    let start = [
        "--game",
        "amazons",
        "tournament",
        "random",
        "mobility",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--seats",
        "2",
        "--results",
        &results,
        "--key",
        &key,
    ];
    let (code, text) = said(&referee(&start));
    assert_eq!(code, Some(0), "{text}");
    let spec: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join("results/tournament/tournament.json")).unwrap(),
    )
    .unwrap();
    assert!(
        spec.get("seats").is_none() && spec.get("options").is_none(),
        "{spec}"
    );
    let resume = |extra: &[&str]| {
        let mut args = vec![
            "--game",
            "amazons",
            "tournament",
            "--resume",
            "--results",
            &results,
            "--key",
            &key,
        ];
        args.extend(extra);
        said(&referee(&args))
    };
    let (code, text) = resume(&["--seats", "3"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("--resume: --seats 3 conflicts with the tournament's 2 seats"),
        "{text}"
    );
    let (code, text) = resume(&["--option", "deck=20"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("this game takes no option (`deck` given)"),
        "{text}"
    );
    let (code, text) = resume(&["--seats", "2"]);
    assert_eq!(code, Some(0), "{text}");
}
