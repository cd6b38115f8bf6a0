//! Records forged where the referee observed, not where the rules decide: a red team's
//! Amazons record in which the winner's last `jouer` (its winning move kept) gets a
//! `timeout` fault, with the retire step, faults list, ranking, summary and digests made to
//! agree from `replay`'s own messages, so that the loser wins; a crash turned into a
//! timeout in both games; faults after the end; an unknown field. `replay` refuses each
//! (a timeout must agree with its callback's recorded time and the record's budgets;
//! output after the end, and the fault of the check of a seat's work after its last
//! callback, are written as the referee writes them, once per seat still in, and never
//! change the ranking the rules decided; a schema-5 record holds no field the referee does
//! not know).

use crate::common;

use jail::fault::WORKED_AFTER_LAST;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// The red team's timeout: more CPU than the budget, in words only.
const OVER: &str =
    "used 1200 ms of CPU (all its processes) in this callback; the budget is 1000 ms";

/// Runs the referee with `args`; its exit code and everything it printed.
fn referee(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(REFEREE)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the referee runs");
    (
        out.status.code(),
        common::text(&out.stdout) + &common::text(&out.stderr),
    )
}

/// Plays `args` (a `match` without `--out`) into a fresh folder; its record.
fn play(name: &str, args: &[&str]) -> (PathBuf, Value) {
    let dir = common::fresh_dir("forged", name);
    let mut all = args.to_vec();
    all.extend(["--out", dir.to_str().unwrap()]);
    let (code, said) = referee(&all);
    assert_eq!(code, Some(0), "{args:?}: {said}");
    let record = serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    (dir, record)
}

/// Writes `record` in `dir` and replays it (`amazons`: with `--game amazons`).
fn replay(dir: &Path, record: &Value, amazons: bool) -> (Option<i32>, String) {
    let path = dir.join("record.json");
    std::fs::write(&path, serde_json::to_vec_pretty(record).unwrap()).unwrap();
    let mut args = if amazons {
        vec!["--game", "amazons"]
    } else {
        vec![]
    };
    args.extend(["replay", path.to_str().unwrap()]);
    referee(&args)
}

/// The text of `said` between `start` and the next `end`.
fn between<'a>(said: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = said.find(start)? + start.len();
    Some(&said[from..from + said[from..].find(end)?])
}

/// The red team's forgery, from `replay`'s messages: one more fix of `record`, if one of
/// them names a value the rules give (the ranking, the summary, a callback's digest).
fn mend(record: &mut Value, said: &str) -> bool {
    if let Some(ranking) = between(said, "ranked Ranking { ", " } by the rules") {
        let list = |key: &str| -> Value {
            let text = between(ranking, &format!("{key}: "), "]").unwrap_or("[");
            serde_json::from_str(&format!("{text}]")).unwrap()
        };
        record["ranking"] = json!({"places": list("places"), "scores": list("scores")});
        return true;
    }
    if let Some(summary) = between(said, "its summary is ", " by the rules, ") {
        record["summary"] = serde_json::from_str(summary).unwrap();
        return true;
    }
    if let (Some(at), Some(digest)) = (
        between(said, "callback ", " ("),
        between(said, "the game's digest after it is ", " by the rules"),
    ) {
        let at: usize = at.parse().unwrap();
        record["callbacks"][at - 1]["digest"] = json!(digest);
        return true;
    }
    false
}

/// The winner's last `jouer`, its winning move kept, ends in a `timeout` fault (said in
/// words, its recorded time untouched); its later callbacks are dropped and the rest
/// mended from `replay`'s messages until it says ok or names nothing to mend.
#[test]
fn a_timeout_added_to_the_winner_s_last_move_is_refused() {
    let (dir, played) = play(
        "flip",
        &[
            "--game", "amazons", "match", "mobility", "random", "--seed", "4",
        ],
    );
    let winner = played["summary"]["winner"].as_u64().expect("a winner");
    let callbacks = played["callbacks"].as_array().unwrap();
    let k = (0..callbacks.len())
        .rev()
        .find(|&i| callbacks[i]["callback"] == "jouer" && callbacks[i]["seat"] == winner)
        .unwrap();
    let mut record = played.clone();
    record["callbacks"][k]["fault"] = json!({"kind": "timeout", "message": OVER});
    record["callbacks"][k]["steps"]
        .as_array_mut()
        .unwrap()
        .push(json!({"retire": winner}));
    for i in (k + 1..callbacks.len()).rev() {
        if callbacks[i]["seat"] == winner {
            record["callbacks"].as_array_mut().unwrap().remove(i);
            record["timings"].as_array_mut().unwrap().remove(i);
        }
    }
    record["faults"].as_array_mut().unwrap().push(json!({
        "seat": winner, "callback": k, "kind": "timeout", "message": format!("jouer: {OVER}")
    }));
    let mut last = (None, String::new());
    for _ in 0..12 {
        last = replay(&dir, &record, true);
        if last.0 == Some(0) || !mend(&mut record, &last.1) {
            break;
        }
    }
    let (code, said) = last;
    assert_ne!(
        code,
        Some(0),
        "THE ATTACK WORKED: replay accepts the record where seat {winner} won and lost: \
         ranking {}",
        record["ranking"]
    );
    assert_eq!(code, Some(3), "{said}");
    for needle in [
        format!("callback {} (`jouer` of seat {winner})", k + 1),
        "its `timeout` fault".into(),
        "disagrees with its recorded time".into(),
        "within its budget of 1000.0 ms of CPU".into(),
    ] {
        assert!(said.contains(&needle), "expected `{needle}` in: {said}");
    }
}

/// A seat's crash made a timeout in its callback and in the faults list alike (both games,
/// the fixture that exits in its first `jouer`, after one request): refused, its time
/// being far within its budgets.
#[test]
fn a_crash_made_a_timeout_is_refused_in_both_games() {
    let quitter = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/match/quit.sh")
        .display()
        .to_string();
    for amazons in [true, false] {
        let (dir, mut record) = if amazons {
            play(
                "crash-amazons",
                &[
                    "--game", "amazons", "match", "mobility", &quitter, "--seed", "4",
                ],
            )
        } else {
            play(
                "crash-2009",
                &["match", &quitter, "greedy", "random", "--seed", "5"],
            )
        };
        let (code, said) = replay(&dir, &record, amazons);
        assert_eq!(code, Some(0), "the untouched record replays: {said}");
        let at = record["callbacks"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c.get("fault").is_some())
            .expect("the fixture's crash");
        assert_eq!(record["faults"][0]["kind"], "crash", "{record}");
        record["callbacks"][at]["fault"]["kind"] = json!("timeout");
        record["faults"][0]["kind"] = json!("timeout");
        let (code, said) = replay(&dir, &record, amazons);
        assert_eq!(
            code,
            Some(3),
            "THE ATTACK WORKED (amazons: {amazons}): {said}"
        );
        assert!(
            said.contains("disagrees with its recorded time"),
            "amazons: {amazons}: {said}"
        );
    }
}

/// Faults after the end, and a field of no schema: a `protocol` fault outside every
/// callback not written as the referee writes late output, a second one for one seat, a
/// `timeout` on the winner's `end_game`, one that comes with the ranking turned over, and
/// an unknown top-level key are each refused, naming why.
#[test]
fn faults_after_the_end_and_unknown_fields_are_refused() {
    let (dir, played) = play(
        "late",
        &[
            "--game", "amazons", "match", "mobility", "random", "--seed", "4",
        ],
    );
    let winner = played["summary"]["winner"].as_u64().expect("a winner");
    let late =
        |seat: u64, message: &str| json!({"seat": seat, "kind": "protocol", "message": message});
    let well_formed = "unexpected output `gg` after end_game: logs belong on stderr";
    let end_game = played["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .rposition(|c| c["callback"] == "end_game" && c["seat"] == winner)
        .unwrap();
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "a late fault in other words",
            Box::new(move |r| {
                r["faults"]
                    .as_array_mut()
                    .unwrap()
                    .push(late(winner, "jouer: gave up"))
            }),
            "outside every callback",
        ),
        (
            "two late faults of one seat",
            Box::new(move |r| {
                let faults = r["faults"].as_array_mut().unwrap();
                faults.push(late(winner, well_formed));
                faults.push(late(winner, well_formed));
            }),
            "once per seat in seats' order",
        ),
        (
            "a late fault that turns the ranking over",
            Box::new(move |r| {
                r["faults"]
                    .as_array_mut()
                    .unwrap()
                    .push(late(winner, well_formed));
                let ranking = r["ranking"].clone();
                for key in ["places", "scores"] {
                    r["ranking"][key] = json!([ranking[key][1], ranking[key][0]]);
                }
            }),
            "the match ends ranked",
        ),
        (
            "a fault of work after the end that turns the ranking over",
            Box::new(move |r| {
                r["faults"].as_array_mut().unwrap().push(json!({
                    "seat": winner, "kind": "timeout",
                    "message": format!("{WORKED_AFTER_LAST} (used 30 ms of CPU)")
                }));
                let ranking = r["ranking"].clone();
                for key in ["places", "scores"] {
                    r["ranking"][key] = json!([ranking[key][1], ranking[key][0]]);
                }
            }),
            "the match ends ranked",
        ),
        (
            "a crash after the end",
            Box::new(move |r| {
                r["faults"].as_array_mut().unwrap().push(json!({
                    "seat": winner, "kind": "crash",
                    "message": format!("{WORKED_AFTER_LAST} (used 30 ms of CPU)")
                }));
            }),
            "outside every callback",
        ),
        (
            "a timeout on the winner's end_game",
            Box::new(move |r| {
                r["callbacks"][end_game]["fault"] = json!({"kind": "timeout", "message": OVER});
                r["faults"].as_array_mut().unwrap().push(json!({
                    "seat": winner, "callback": end_game, "kind": "timeout",
                    "message": format!("end_game: {OVER}")
                }));
            }),
            "disagrees with its recorded time",
        ),
        (
            "an unknown field",
            Box::new(|r| r["verified_by"] = json!("the organiser")),
            "unknown field `verified_by`",
        ),
    ];
    let mut wrong = Vec::new();
    for (name, edit, needle) in cases {
        let mut record = played.clone();
        edit(&mut record);
        let (code, said) = replay(&dir, &record, true);
        if code == Some(0) || !said.contains(needle) {
            wrong.push(format!(
                "{name}: exit {code:?}, `{needle}` expected in:\n{said}"
            ));
        }
    }
    // What a real match may record: one seat's output after the end, which changes nothing.
    let mut record = played.clone();
    record["faults"]
        .as_array_mut()
        .unwrap()
        .push(late(winner, well_formed));
    let (code, said) = replay(&dir, &record, true);
    if code != Some(0) {
        wrong.push(format!("a real late output: exit {code:?}:\n{said}"));
    }
    // And the check of its work since, which places it as a fault in its last callback
    // would: after the rules decided the match, the ranking stands.
    record["faults"].as_array_mut().unwrap().push(json!({
        "seat": winner, "kind": "timeout",
        "message": format!("{WORKED_AFTER_LAST} (used 30 ms of CPU)")
    }));
    let (code, said) = replay(&dir, &record, true);
    if code != Some(0) {
        wrong.push(format!("a real late fault of work: exit {code:?}:\n{said}"));
    }
    assert!(wrong.is_empty(), "THE ATTACK WORKED:\n{}", wrong.join("\n"));
}
