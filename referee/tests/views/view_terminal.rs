//! The terminal view (`referee show`) on a recorded match: text snapshots, colour rules and
//! the meaning of `--turn`/`--phase`.
//!
//! Snapshots (insta) live in `tests/snapshots/`; a change of the view fails with a diff.
//! After an intended change, review and accept it with `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test -p referee --test views view_terminal::`, then read the diff).

use crate::common;

use common::loi::{load, load_in, timeline as timeline_of};
use referee::view::{console_text, loi_arena, terminal};
use std::path::PathBuf;
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// Play `random greedy random --seed N` (deterministic: built-in bots, fixed seeds) once
/// per test process and return the record's path.
fn record(seed: u64) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "referee-view-terminal-{}-{seed}",
        std::process::id()
    ));
    common::remove_at_exit(&dir);
    let path = dir.join("record.json");
    static PLAYING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = PLAYING.lock().unwrap_or_else(|e| e.into_inner());
    if !path.exists() {
        common::run_ok(
            Command::new(REFEREE)
                .args([
                    "match",
                    "random",
                    "greedy",
                    "random",
                    "--seed",
                    &seed.to_string(),
                    "--out",
                ])
                .arg(&dir),
        );
    }
    path
}

fn show(args: &[&str], envs: &[(&str, &str)]) -> (bool, String, String) {
    let out = Command::new(REFEREE)
        .arg("show")
        .args(args)
        .envs(envs.iter().copied())
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn snapshots_of_a_recorded_match() {
    let path = record(3);
    let record = load(&path);
    let timeline = timeline_of(&record);
    let start = timeline.stage_end(1, 0).unwrap();
    let mid = timeline.stage_end(7, 2).unwrap();
    let end = timeline.steps.len() - 1;
    let text = [start, mid, end]
        .map(|i| terminal::render(&timeline, i, false))
        .join("\n----------------\n\n");
    insta::assert_snapshot!("view_terminal_seed3", text);
    // The command prints the same text (stdout is a pipe here: no colour), then the
    // console of the step.
    let p = path.to_str().unwrap();
    let console = loi_arena::console(&record, path.parent(), &timeline);
    let shown =
        |i| terminal::render(&timeline, i, false) + &console_text::render(&console, &timeline, i);
    assert_eq!(show(&[p, "--turn", "7", "--phase", "2"], &[]).1, shown(mid));
    assert_eq!(show(&[p], &[]).1, shown(end));
    assert_eq!(show(&[p, "--turn", "0"], &[]).1, shown(start));
    // The end shows the record's result.
    let last = &timeline.steps[end];
    let result = common::loi::result(&record);
    assert_eq!(last.final_score, result.final_scores);
    assert_eq!(last.money, result.money);
}

#[test]
fn turn_and_phase_select_the_end_of_that_phase() {
    let record = load(&record(3));
    let timeline = timeline_of(&record);
    for turn in 1..=14u8 {
        for phase in 1..=3u8 {
            let i = timeline.stage_end(turn, phase).unwrap();
            let step = &timeline.steps[i];
            assert_eq!((step.turn, step.phase), (turn, phase));
            // Phase II's end resolves the auction: bids and a winner are known.
            assert_eq!(step.bids.is_some(), phase == 2);
            // The next step belongs to a later stage.
            let next = &timeline.steps[i + 1];
            assert!(next.turn > turn || next.phase > phase || next.phase == 0);
        }
    }
    assert!(timeline.stage_end(15, 1).is_some());
    assert!(timeline.stage_end(15, 2).is_none());
    let p = record_path_str(3);
    let (ok, _, err) = show(&[&p, "--turn", "15", "--phase", "2"], &[]);
    assert!(!ok && err.contains("--phase"), "{err}");
    let (ok, _, err) = show(&[&p, "--phase", "2"], &[]);
    assert!(!ok && err.contains("not provided:\n  --turn"), "{err}");
    let (ok, _, err) = show(&[&p, "--turn", "16"], &[]);
    assert!(!ok && err.contains("--turn"), "{err}");
    let (ok, out, _) = show(&[&p, "--step", "1"], &[]);
    assert!(ok && out.contains("step 1/"), "{out}");
}

fn record_path_str(seed: u64) -> String {
    record(seed).to_str().unwrap().to_string()
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_without_no_color() {
    let p = record_path_str(3);
    let (_, piped, _) = show(&[&p], &[]);
    assert!(!piped.contains('\x1b'), "no colour on a pipe");
    let (_, always, _) = show(&[&p, "--color", "always"], &[]);
    assert!(always.contains("\x1b[38;5;196m") && always.contains("\x1b[38;5;32m"));
    let (_, never, _) = show(&[&p, "--color", "never"], &[]);
    assert_eq!(never, piped);
    // Without colour, owners stay readable: A B C houses, a b c reservations.
    assert!(piped.contains("A B C houses of seats 0 1 2"));
}

/// `show` on a terminal (`script` gives it a pseudo-terminal): colour by default, none
/// with `NO_COLOR` set (to anything but the empty string) or `--color never`.
#[test]
fn on_a_terminal_colour_is_on_unless_no_color_is_set() {
    if Command::new("script").arg("--version").output().is_err() {
        common::skip_missing("`script` (util-linux) gives the referee a terminal");
        return;
    }
    let p = record_path_str(3);
    let on_terminal = |args: &str, no_color: Option<&str>| {
        let mut c = Command::new("script");
        c.args(["-qec", &format!("{REFEREE} show {p} {args}"), "/dev/null"])
            .env_remove("NO_COLOR")
            .stdin(std::process::Stdio::null());
        if let Some(value) = no_color {
            c.env("NO_COLOR", value);
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(
        on_terminal("", None).contains("\x1b[38;5;196m"),
        "colour on a terminal"
    );
    assert!(
        on_terminal("", Some("")).contains("\x1b[38;5;196m"),
        "an empty NO_COLOR"
    );
    assert!(!on_terminal("", Some("1")).contains('\x1b'), "NO_COLOR=1");
    assert!(
        !on_terminal("--color never", None).contains('\x1b'),
        "--color never"
    );
    assert!(on_terminal("--color always", Some("1")).contains("\x1b[38;5;196m"));
}

/// The colours of the board, the seats and the faults, escapes made visible (`\e[`): each
/// is one of xterm's 256 colours, readable on dark and light backgrounds (the contrast is
/// `terminal.rs`'s unit test); a fault line in bold red. The end of a match where a seat
/// crashed shows every kind of cell and a fault.
#[test]
fn colour_snapshot_of_the_board_seats_and_faults() {
    let dir = common::fresh_dir("view-terminal", "colours");
    let crash = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/champions/exit_mid.sh");
    common::run_ok(
        Command::new(REFEREE)
            .args(["match", "random", "greedy"])
            .arg(&crash)
            .args(["--seed", "3", "--out"])
            .arg(&dir),
    );
    let record = load_in(&dir);
    let timeline = timeline_of(&record);
    let text = terminal::render(&timeline, timeline.steps.len() - 1, true);
    assert!(text.contains("\x1b[1;38;5;196m  seat 2 "), "{text}");
    let p = dir.join("record.json");
    let shown = show(&[p.to_str().unwrap(), "--color", "always"], &[]).1;
    assert!(
        shown.starts_with(&text),
        "`show --color always` prints the same"
    );
    insta::assert_snapshot!("view_terminal_colours", text.replace('\x1b', "\\e"));
}

/// Two-digit monument ids keep the columns (every cell starts under its column's digit,
/// apart from the next),
/// the board's header and legend fit 80 columns, and the end of a phase lists the actions
/// of each of its callbacks.
#[test]
fn columns_hold_with_two_digit_monuments_and_a_phase_lists_its_actions() {
    let path = record(3);
    let record = load(&path);
    let timeline = timeline_of(&record);
    let end = terminal::render(&timeline, timeline.steps.len() - 1, false);
    let lines: Vec<&str> = end.lines().collect();
    let units = lines
        .iter()
        .position(|l| l.starts_with("     ") && l.trim_start().starts_with(char::is_numeric))
        .map(|i| i + 1)
        .expect("the units line");
    let starts: Vec<usize> = lines[units]
        .char_indices()
        .filter(|(_, c)| c.is_ascii_digit())
        .map(|(i, _)| i)
        .collect();
    let rows: Vec<&str> = lines[units + 1..]
        .iter()
        .take_while(|l| !l.is_empty())
        .copied()
        .collect();
    assert!(
        rows.iter().any(|r| r
            .split_whitespace()
            .any(|t| t.len() == 2 && t.parse::<u8>().is_ok_and(|n| n >= 10))),
        "the end of seed 3 shows a monument of two digits:\n{end}"
    );
    for row in &rows {
        // One token a cell: an id never runs into the cell after it.
        assert_eq!(
            row.split_whitespace().count(),
            starts.len() + 1,
            "cells run together:\n{row}"
        );
        for &at in &starts {
            let c = row.as_bytes().get(at).copied().unwrap_or(b' ');
            assert!(
                c != b' ',
                "a cell does not start at column {at}:\n{row}\n{}",
                lines[units]
            );
        }
    }
    let header = lines.iter().position(|l| l.starts_with("board,")).unwrap();
    for line in &lines[header..units] {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
    }
    // The end of turn 7's Phase II: one line per seat's enchere.
    let mid = terminal::render(&timeline, timeline.stage_end(7, 2).unwrap(), false);
    let actions: Vec<&str> = mid
        .lines()
        .filter(|l| l.starts_with("actions of seat"))
        .collect();
    assert_eq!(actions.len(), 3, "{mid}");
    assert!(
        actions.iter().all(|l| l.contains(" in enchere: encherir ")),
        "{actions:?}"
    );
}

/// Refused actions, which a record keeps with their arguments, are listed in order, the same
/// ones in a row with their count: the 20000 off-map roads of `tests/fixtures/viewer/actor.sh` in the jouer of turn 2.
#[test]
fn refused_actions_are_counted_in_a_step_s_actions() {
    let dir = common::fresh_dir("view-terminal", "refused");
    let fixture = |name: &str| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/viewer")
            .join(name)
    };
    common::run_ok(
        Command::new(REFEREE)
            .arg("match")
            .arg(fixture("actor.sh"))
            .arg(fixture("actor.sh"))
            .arg(fixture("quitter.sh"))
            .args(["--first-player", "0", "--seed", "1", "--out"])
            .arg(&dir),
    );
    let record = load_in(&dir);
    let timeline = timeline_of(&record);
    let flood = timeline
        .steps
        .iter()
        .position(|s| s.seat == Some(1) && s.turn == 2 && s.callback.to_string() == "jouer")
        .unwrap();
    let (ok, stdout, stderr) = show(
        &[
            dir.to_str().unwrap(),
            "--step",
            &(flood + 1).to_string(),
            "--color",
            "never",
        ],
        &[],
    );
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains(
            "actions of seat 1 in jouer: construire_route 200 3 -> HORS_TERRAIN x 100, \
             1 refused construire_maison -> NON_CONNEXE, 19900 refused construire_route -> \
             HORS_TERRAIN; 1 information request(s)"
        ),
        "{stdout}"
    );
}
