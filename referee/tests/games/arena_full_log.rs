//! `--full-log` for a game on the arena (the Amazons, real processes through the binary):
//! every request streamed with its answer's code into `requests.log.gz` beside the record,
//! named by the record, in the reproduce command, and checked by `replay`: a log edited
//! (an answer, a request, one left out) or gone is refused. A request whose words a
//! champion separates with tabs is logged with spaces, in every game on the arena, so that
//! the genuine match replays.

use crate::common;

use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use std::io::{Read, Write};
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

fn replay(dir: &Path) -> Output {
    let record = dir.join("record.json");
    referee(&["--game", "amazons", "replay", record.to_str().unwrap()])
}

fn read_log(dir: &Path) -> String {
    let bytes = std::fs::read(dir.join("requests.log.gz")).unwrap();
    let mut text = String::new();
    MultiGzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .unwrap();
    text
}

fn write_log(dir: &Path, text: &str) {
    let mut out = GzEncoder::new(Vec::new(), flate2::Compression::fast());
    out.write_all(text.as_bytes()).unwrap();
    std::fs::write(dir.join("requests.log.gz"), out.finish().unwrap()).unwrap();
}

/// An edit of the log's lines: the log written instead (`None`: no log at all).
type Edit = Box<dyn Fn(&[&str]) -> Option<String>>;

#[test]
fn an_amazons_match_keeps_its_full_log_and_replay_checks_every_request() {
    let dir = common::fresh_dir("arena", "full-log");
    let played = dir.join("played");
    let out = referee(&[
        "--game",
        "amazons",
        "match",
        "mobility",
        "random",
        "--seed",
        "5",
        "--full-log",
        "--out",
        played.to_str().unwrap(),
    ]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("--full-log"),
        "the reproduce command keeps it: {said}"
    );
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(played.join("record.json")).unwrap()).unwrap();
    assert_eq!(
        record["full_log"],
        serde_json::json!({"file": "requests.log.gz", "cap_mib": 64})
    );
    let log = read_log(&played);
    let lines: Vec<&str> = log.lines().collect();
    let requests: u64 = record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["requests"].as_u64().unwrap())
        .sum();
    assert_eq!(lines.len() as u64, requests, "one line per request counted");
    // Each line: callback, request, answer's code (a board answered 0).
    let deplacer = lines
        .iter()
        .position(|l| {
            l.split('\t')
                .nth(1)
                .is_some_and(|r| r.starts_with("deplacer "))
        })
        .expect("a move is logged");
    assert!(lines[deplacer].ends_with("\t0"), "{}", lines[deplacer]);
    let out = replay(&played);
    assert!(out.status.success(), "{}", text(&out));

    // Each edit of the log, in a copy of the match: refused by `replay`.
    let question = lines
        .iter()
        .position(|l| {
            l.split('\t')
                .nth(1)
                .is_some_and(|r| !r.starts_with("deplacer "))
        })
        .expect("a question is logged");
    let edits: Vec<(&str, Edit)> = vec![
        (
            "an answer",
            Box::new(move |l: &[&str]| {
                let mut l: Vec<String> = l.iter().map(|s| s.to_string()).collect();
                let (head, _) = l[question].rsplit_once('\t').unwrap();
                l[question] = format!("{head}\t77");
                Some(l.join("\n") + "\n")
            }),
        ),
        (
            "a move",
            Box::new(move |l: &[&str]| {
                let mut l: Vec<String> = l.iter().map(|s| s.to_string()).collect();
                let fields: Vec<&str> = l[deplacer].split('\t').collect();
                let moved = fields[1].replacen("deplacer ", "deplacer 9 ", 1);
                let words: Vec<&str> = moved.split(' ').take(7).collect();
                l[deplacer] = format!("{}\t{}\t{}", fields[0], words.join(" "), fields[2]);
                Some(l.join("\n") + "\n")
            }),
        ),
        (
            "a request left out",
            Box::new(move |l: &[&str]| {
                let mut l = l.to_vec();
                l.remove(question);
                Some(l.join("\n") + "\n")
            }),
        ),
        ("the whole log", Box::new(|_: &[&str]| None)),
    ];
    for (what, edit) in edits {
        let copy = dir.join(what.replace(' ', "-"));
        std::fs::create_dir_all(&copy).unwrap();
        std::fs::copy(played.join("record.json"), copy.join("record.json")).unwrap();
        if let Some(log) = edit(&lines) {
            assert_ne!(log, read_log(&played), "{what}: the edit changes the log");
            write_log(&copy, &log);
        }
        let out = replay(&copy);
        // A log gone is bad input (exit 2, as for the 2009 game); an edited one differs.
        let code = if what == "the whole log" { 2 } else { 3 };
        assert_eq!(
            out.status.code(),
            Some(code),
            "{what} edited: {}",
            text(&out)
        );
        let said = text(&out);
        assert!(
            said.contains("full log") || said.contains("requests.log.gz"),
            "{what}: {said}"
        );
    }
    common::remove_dir(&dir);
}

/// Champions whose requests separate their words with tabs (Ticket to Ride's `hand<TAB>`,
/// `moves<TAB>0`, `keep<TAB>1<TAB>1<TAB>1`; the Amazons' `case<TAB>0<TAB>0`), which the
/// adapters accept: the log keeps each request's words joined by spaces, one request a
/// line of three tab-separated fields, and `replay` of the genuine match passes.
#[test]
fn requests_separated_by_tabs_are_logged_with_spaces_and_replay() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let dir = common::fresh_dir("arena", "full-log-tabs");
    let cases = [
        (
            "ticket-to-ride",
            "ticket/tab_separated.py",
            "random",
            "keep 1 1 1",
        ),
        ("amazons", "amazons/tab_separated.sh", "random", "case 0 0"),
    ];
    for (game, fixture, opponent, logged) in cases {
        let played = dir.join(game);
        let champion = fixtures.join(fixture);
        let out = referee(&[
            "--game",
            game,
            "match",
            champion.to_str().unwrap(),
            opponent,
            "--seed",
            "3",
            "--full-log",
            "--out",
            played.to_str().unwrap(),
        ]);
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{game}: {}",
            text(&out)
        );
        let record = played.join("record.json");
        let replayed = referee(&["--game", game, "replay", record.to_str().unwrap()]);
        assert!(replayed.status.success(), "{game}: {}", text(&replayed));
        let log = read_log(&played);
        for line in log.lines() {
            assert_eq!(line.split('\t').count(), 3, "{game}: {line:?}");
            assert!(!line.contains('\x0c'), "{game}: {line:?}");
        }
        assert!(
            log.lines().any(|l| l.split('\t').nth(1) == Some(logged)),
            "{game}: `{logged}` not logged in:\n{log}"
        );
    }
    common::remove_dir(&dir);
}
