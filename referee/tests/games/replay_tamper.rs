//! `referee replay` re-derives a record from the rules and refuses one edited at any place
//! the rules decide, for both games: a real match (built-in bots and a fixture that
//! crashes, a fixed seed) is played into a fresh folder, its record edited at one place
//! (as JSON), and the replay must exit 3 naming what disagrees, where, what the rules give
//! and what the record says; the untouched record replays. The 2009 game's records of
//! before (schema 4, and its schema-3 form) are the same match played by the referee of
//! then (`fixtures/records/loi-v4/crash` and `crash-full-log`), edited the same ways.

use crate::common;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// The fixture that crashes in its first `jouer` (both games accept its `mon_tour`).
fn quitter() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/match/quit.sh")
        .display()
        .to_string()
}

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

/// Plays `args` (a `match` command without `--out`) into a fresh folder named `name`.
fn play(name: &str, args: &[&str]) -> PathBuf {
    let dir = common::fresh_dir("tamper", name);
    let mut all = args.to_vec();
    all.extend(["--out", dir.to_str().unwrap()]);
    let (code, said) = referee(&all);
    assert_eq!(code, Some(0), "{args:?}: {said}");
    dir
}

/// The 2009 game: the crashing fixture (seat 0, a `crash` in its first `jouer`), `greedy`
/// and `random`, seed 5; with `--full-log` when `full_log`.
fn play_loi(name: &str, full_log: bool) -> PathBuf {
    let quitter = quitter();
    let mut args = vec!["match", &quitter, "greedy", "random", "--seed", "5"];
    if full_log {
        args.push("--full-log");
    }
    play(name, &args)
}

/// The same match as the referee of before recorded it (schema 4), copied into a fresh
/// folder named `name`; with its full log when `full_log`.
fn old_loi(name: &str, full_log: bool) -> PathBuf {
    let kept = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/records/loi-v4")
        .join(if full_log { "crash-full-log" } else { "crash" });
    let dir = copy(&kept, name);
    assert_eq!(read(&dir)["schema"], 4, "a record of before");
    dir
}

/// The Amazons: `mobility` (White) against the crashing fixture (Black, a `crash` in its
/// first `jouer`, after White's first move) when `fault`, else against `random` (seed 4:
/// the colours part after move 68).
fn play_amazons(name: &str, fault: bool) -> PathBuf {
    let black = if fault { quitter() } else { "random".into() };
    let args = [
        "--game", "amazons", "match", "mobility", &black, "--seed", "4",
    ];
    play(name, &args)
}

fn read(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap()
}

fn write(dir: &Path, record: &Value) {
    std::fs::write(
        dir.join("record.json"),
        serde_json::to_vec_pretty(record).unwrap(),
    )
    .unwrap();
}

/// `referee [--game amazons] replay` of the record in `dir`.
fn replay(dir: &Path, amazons: bool) -> (Option<i32>, String) {
    let path = dir.join("record.json");
    let mut args = if amazons {
        vec!["--game", "amazons"]
    } else {
        vec![]
    };
    args.extend(["replay", path.to_str().unwrap()]);
    referee(&args)
}

/// A copy of the match folder `from` (the record, and its full log if any) in a fresh
/// folder, for one edit.
fn copy(from: &Path, name: &str) -> PathBuf {
    let dir = common::fresh_dir("tamper", name);
    for file in ["record.json", referee::full_log::FILE] {
        if from.join(file).exists() {
            std::fs::copy(from.join(file), dir.join(file)).unwrap();
        }
    }
    dir
}

/// An edit of a record: its name, the change, and what the refusal must say.
type Case = (&'static str, Box<dyn Fn(&mut Value)>, Vec<String>);

/// Plays every case on a copy of `played`: each edited record must be refused (exit 3)
/// with a message holding every expected fragment. Lists every case that was not.
fn refuse_each(played: &Path, amazons: bool, cases: Vec<Case>) {
    let (code, said) = replay(played, amazons);
    assert_eq!(code, Some(0), "the untouched record replays: {said}");
    let mut wrong = Vec::new();
    for (name, edit, expected) in cases {
        let dir = copy(played, &name.replace(' ', "-"));
        let mut record = read(&dir);
        let before = record.clone();
        edit(&mut record);
        assert_ne!(record, before, "{name}: the edit changes the record");
        write(&dir, &record);
        let (code, said) = replay(&dir, amazons);
        let missing: Vec<&String> = expected.iter().filter(|e| !said.contains(*e)).collect();
        if code != Some(3) || !missing.is_empty() {
            wrong.push(format!(
                "{name}: exit {code:?}, missing {missing:?} in:\n{said}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "edited records not refused as expected:\n{}",
        wrong.join("\n")
    );
}

/// The index of the first callback of `record` that `pick` accepts.
fn first(record: &Value, pick: impl Fn(&Value) -> bool) -> usize {
    record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .position(pick)
        .expect("the match has such a callback")
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Every edit of a 2009 record of before at a place the rules decide is refused, naming the place,
/// what the replay gives and what the record says: an action's answer, a callback's
/// count, the final digest, each part of the result (scores, money, houses, the points
/// that rank the seats), a fault, the seed and the setup.
#[test]
fn an_edited_2009_record_of_before_is_refused_naming_what_disagrees() {
    let played = old_loi("loi", false);
    let record = read(&played);
    let acting = first(&record, |c| c.get("actions").is_some());
    let asking = first(&record, |c| c["requests"].as_u64().unwrap() > 0);
    let asked = record["callbacks"][asking]["requests"].as_u64().unwrap();
    let faulted = first(&record, |c| c.get("fault").is_some());
    let result = record["result"].clone();
    let digest = result["digest"].as_str().unwrap().to_string();
    let seat_seed = arena::seeds::seat_seed(6, 0);
    let recorded_seat_seed = record["seats"][0]["seed"].clone();
    let mut swapped = record["monument_order"].clone();
    swapped.as_array_mut().unwrap().swap(12, 13);
    let mut ranked = result["points"].clone();
    ranked.as_array_mut().unwrap().swap(1, 2);
    let cases: Vec<Case> = vec![
        (
            "an answer",
            Box::new(move |r| r["callbacks"][acting]["actions"][0][1] = json!(-4)),
            vec![
                format!("callback #{acting}"),
                "answers 0, the record says -4".into(),
            ],
        ),
        (
            "a count",
            Box::new(move |r| r["callbacks"][asking]["requests"] = json!(asked + 1)),
            vec![
                format!("callback #{asking}: {} requests recorded", asked + 1),
                format!("add up to {asked}"),
            ],
        ),
        (
            "the final digest",
            Box::new(|r| r["result"]["digest"] = json!("0123456789abcdef")),
            vec![
                "result.digest".into(),
                format!("the replay gives {digest}"),
                "the record says 0123456789abcdef".into(),
            ],
        ),
        (
            "a score",
            Box::new(|r| r["result"]["final_scores"][1] = json!(9999)),
            strings(&["result.final_scores", "the record says [10, 9999, 29]"]),
        ),
        (
            "money",
            Box::new(|r| r["result"]["money"][0] = json!(11)),
            strings(&["result.money", "the record says [11, 114, 0]"]),
        ),
        (
            "houses",
            Box::new(|r| r["result"]["houses"][2] = json!(15)),
            strings(&["result.houses", "the record says [0, 0, 15]"]),
        ),
        (
            "the ranking",
            Box::new(move |r| r["result"]["points"] = ranked.clone()),
            strings(&[
                "result.points",
                "the replay gives [0, 3, 1]",
                "the record says [0, 1, 3]",
            ]),
        ),
        (
            "a fault's kind in the list",
            Box::new(|r| r["faults"][0]["kind"] = json!("timeout")),
            vec![
                "faults[0]".into(),
                format!("callback #{faulted}"),
                "kind crash".into(),
                "kind timeout".into(),
            ],
        ),
        (
            "a fault left out of the list",
            Box::new(|r| r["faults"] = json!([])),
            vec![format!("callback #{faulted}"), "not in the faults".into()],
        ),
        (
            "a fault added",
            Box::new(|r| {
                let mut added = r["faults"][0].clone();
                added["seat"] = json!(1);
                r["faults"].as_array_mut().unwrap().push(added);
            }),
            strings(&["faults[1]", "seat 1", "no callback"]),
        ),
        (
            "a fault taken off its callback",
            Box::new(move |r| {
                r["callbacks"][faulted]
                    .as_object_mut()
                    .unwrap()
                    .remove("fault");
            }),
            strings(&["seat 0 has no", "no fault stopped it"]),
        ),
        (
            "the seed",
            Box::new(|r| r["seed"] = json!(6)),
            vec![
                "seats[0].seed".into(),
                format!("the match seed 6 gives {seat_seed}"),
                format!("the record says {recorded_seat_seed}"),
            ],
        ),
        (
            "a seat's seed",
            Box::new(|r| r["seats"][2]["seed"] = json!(7)),
            strings(&["seats[2].seed", "the record says 7"]),
        ),
        (
            "the monuments' order",
            Box::new(move |r| r["monument_order"] = swapped.clone()),
            strings(&["result.digest", "the replay gives"]),
        ),
        (
            "the first player",
            Box::new(|r| r["first_player"] = json!(2)),
            strings(&["seat 2 has no jouer at turn 1"]),
        ),
    ];
    refuse_each(&played, false, cases);
}

/// Every edit of a 2009 record of today at a place the rules decide is refused, naming the
/// place: an action's answer, a callback's digest, the final digest, a score, the ranking,
/// a fault (its kind, left out, added, taken off its callback), the seed, a seat's seed,
/// the monuments' order and the first player (the options); with the full log, a count.
#[test]
fn an_edited_2009_record_is_refused_naming_what_disagrees() {
    let played = play_loi("loi-today", false);
    let record = read(&played);
    assert_eq!(
        record["schema"],
        arena::GAME_RECORD_SCHEMA,
        "today's record"
    );
    let acts = |c: &Value| -> bool {
        c["steps"].as_array().is_some_and(|steps| {
            steps
                .first()
                .is_some_and(|s| s["act"]["action"].as_str().is_some_and(|a| a != "fin"))
        })
    };
    let acting = first(&record, acts);
    let faulted = first(&record, |c| c.get("fault").is_some());
    let last = record["callbacks"].as_array().unwrap().len() - 1;
    let digest = record["callbacks"][last]["digest"]
        .as_str()
        .unwrap()
        .to_string();
    let scores = record["ranking"]["scores"].clone();
    let seat_seed = arena::seeds::seat_seed(6, 0);
    let recorded_seat_seed = record["seats"][0]["seed"].clone();
    let cases: Vec<Case> = vec![
        (
            "an answer",
            Box::new(move |r| {
                r["callbacks"][acting]["steps"][0]["act"]["answer"] = json!({"Ok": "-4"})
            }),
            vec![format!("callback {}", acting + 1), "its step 1".into()],
        ),
        (
            "a callback's digest",
            Box::new(|r| r["callbacks"][4]["digest"] = json!("0123456789abcdef")),
            strings(&[
                "callback 5",
                "the game's digest after it",
                "0123456789abcdef in the record",
            ]),
        ),
        (
            "the final digest",
            Box::new(move |r| r["callbacks"][last]["digest"] = json!("0123456789abcdef")),
            vec![
                format!("callback {}", last + 1),
                format!("the game's digest after it is {digest} by the rules"),
                "0123456789abcdef in the record".into(),
            ],
        ),
        (
            "a score",
            Box::new(|r| r["ranking"]["scores"][1] = json!(9999)),
            vec![
                "the match ends ranked".into(),
                format!(
                    "scores: {:?}",
                    scores
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_i64().unwrap())
                        .collect::<Vec<_>>()
                ),
            ],
        ),
        (
            "the ranking",
            Box::new(|r| {
                let places = r["ranking"]["places"].clone();
                r["ranking"]["places"] = json!([places[1], places[0], places[2]]);
            }),
            strings(&["the match ends ranked", "in the record"]),
        ),
        (
            "a fault's kind in the list",
            Box::new(|r| r["faults"][0]["kind"] = json!("timeout")),
            strings(&["the faults are", "Crash", "Timeout"]),
        ),
        (
            "a fault left out of the list",
            Box::new(|r| r["faults"] = json!([])),
            strings(&["the faults are", "[] in the record"]),
        ),
        (
            "a fault added",
            Box::new(|r| {
                let mut added = r["faults"][0].clone();
                added["seat"] = json!(1);
                r["faults"].as_array_mut().unwrap().push(added);
            }),
            strings(&["the faults are"]),
        ),
        (
            "a fault taken off its callback",
            Box::new(move |r| {
                r["callbacks"][faulted]
                    .as_object_mut()
                    .unwrap()
                    .remove("fault");
            }),
            vec![
                format!("callback {} (`jouer` of seat 0)", faulted + 1),
                "the turn ends without the action the rules wait for".into(),
            ],
        ),
        (
            "the seed",
            Box::new(|r| r["seed"] = json!(6)),
            vec![
                "seats[0].seed".into(),
                format!("the match seed 6 gives {seat_seed}"),
                format!("the record says {recorded_seat_seed}"),
            ],
        ),
        (
            "a seat's seed",
            Box::new(|r| r["seats"][2]["seed"] = json!(7)),
            strings(&["seats[2].seed", "the record says 7"]),
        ),
        (
            "the monuments' order",
            Box::new(|r| {
                let order: Vec<String> = (0..14u8).rev().map(|id| id.to_string()).collect();
                r["options"]["monuments"] = json!(order.join("-"));
            }),
            strings(&["replay differs", "where the referee sends"]),
        ),
        (
            "the first player",
            Box::new(|r| r["options"]["first-player"] = json!("2")),
            strings(&["seat 2 has no `jouer`", "no fault stopped it"]),
        ),
    ];
    refuse_each(&played, false, cases);

    // With the full log, a callback's count of requests is made again.
    let logged = play_loi("loi-today-logged", true);
    let record = read(&logged);
    let asking = first(&record, |c| c["requests"].as_u64().unwrap() > 2);
    let requests = record["callbacks"][asking]["requests"].as_u64().unwrap();
    let cases: Vec<Case> = vec![(
        "a count, logged",
        Box::new(move |r| r["callbacks"][asking]["requests"] = json!(requests + 1)),
        vec![
            format!("callback {}", asking + 1),
            format!(
                "the full log holds {requests} of its {} requests",
                requests + 1
            ),
        ],
    )];
    refuse_each(&logged, false, cases);
}

/// A callback's digest covers every request it made, information requests too: with the
/// full log (`--full-log`) every one is made again, so an edited digest or count is refused
/// naming the field; without it, the digest of a callback that made only actions (here,
/// none: `end_game`) is computed from them and compared, and any digest must be one.
#[test]
fn an_edited_callback_digest_or_count_is_refused() {
    let zeros = "0".repeat(64);
    let logged = old_loi("loi-logged", true);
    let record = read(&logged);
    let asking = first(&record, |c| c.get("info").is_some());
    let (function, count) = {
        let info = record["callbacks"][asking]["info"].as_object().unwrap();
        let (f, n) = info.iter().next().unwrap();
        (f.clone(), n.as_u64().unwrap())
    };
    let requests = record["callbacks"][asking]["requests"].as_u64().unwrap();
    let digest = record["callbacks"][asking]["digest"]
        .as_str()
        .unwrap()
        .to_string();
    let z = zeros.clone();
    let cases: Vec<Case> = vec![
        (
            "a digest, logged",
            Box::new(move |r| r["callbacks"][asking]["digest"] = json!(z)),
            vec![
                format!("callback #{asking}"),
                format!("digest: its full log gives {digest}"),
                format!("the record says {zeros}"),
            ],
        ),
        (
            "a count and the total, logged",
            Box::new(move |r| {
                r["callbacks"][asking]["info"][&function] = json!(count + 1);
                r["callbacks"][asking]["requests"] = json!(requests + 1);
            }),
            vec![
                format!("callback #{asking}"),
                format!("requests: its full log gives {requests}"),
                format!("the record says {}", requests + 1),
            ],
        ),
    ];
    refuse_each(&logged, false, cases);

    let played = old_loi("loi-unlogged", false);
    let record = read(&played);
    let last = record["callbacks"].as_array().unwrap().len() - 1;
    assert_eq!(
        record["callbacks"][last]["requests"], 0,
        "end_game asks nothing"
    );
    let a = record["callbacks"][last]["digest"].clone();
    let z = "0".repeat(64);
    let cases: Vec<Case> = vec![
        (
            "the digest of a callback without requests",
            Box::new(move |r| r["callbacks"][last]["digest"] = json!(z)),
            vec![
                format!("callback #{last}"),
                format!("digest: its requests give {}", a.as_str().unwrap()),
            ],
        ),
        (
            "a digest that is not one",
            Box::new(|r| r["callbacks"][0]["digest"] = json!("not hex")),
            strings(&["callback #0", "digest", "64 hexadecimal digits"]),
        ),
    ];
    refuse_each(&played, false, cases);
}

/// Records kept in schema 3 (before time allowances and stderr ranges) still replay, and
/// are refused when edited like new ones.
#[test]
fn a_schema_3_record_replays_and_an_edited_one_is_refused() {
    let played = old_loi("loi-schema3", true);
    let mut record = read(&played);
    record["schema"] = json!(3);
    record.as_object_mut().unwrap().remove("budgets");
    for timing in record["timings"].as_array_mut().unwrap() {
        timing.as_object_mut().unwrap().remove("stderr");
    }
    write(&played, &record);
    let cases: Vec<Case> = vec![(
        "the final digest",
        Box::new(|r| r["result"]["digest"] = json!("fedcba9876543210")),
        strings(&["result.digest", "the record says fedcba9876543210"]),
    )];
    refuse_each(&played, false, cases);
}

/// Every edit of an Amazons record at a place the rules decide is refused, naming it: a
/// move, a move left out, an answer, a callback's digest, the ranking (winner, scores), the
/// summary (the isolation), a fault (kind, callback, message, one left out or added), the
/// seed.
#[test]
fn an_edited_amazons_record_is_refused_naming_what_disagrees() {
    let played = play_amazons("amazons", false);
    let record = read(&played);
    let isolated = record["summary"]["isolated_after"]
        .as_u64()
        .expect("the colours part");
    let seat_seed = arena::seeds::seat_seed(9, 0);
    // The third and fourth moves' callbacks (two init_game first, then a jouer a move).
    let (third, fourth) = (4, 5);
    let last = record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .rposition(|c| c["callback"] == "jouer")
        .unwrap();
    let swapped = |r: &mut Value| {
        let ranking = r["ranking"].clone();
        for key in ["places", "scores"] {
            r["ranking"][key] = json!([ranking[key][1], ranking[key][0]]);
        }
    };
    let cases: Vec<Case> = vec![
        (
            "a move",
            Box::new(move |r| {
                r["callbacks"][third]["steps"][0]["act"]["action"] =
                    r["callbacks"][fourth]["steps"][0]["act"]["action"].clone()
            }),
            vec![format!("callback {} (`jouer` of seat 0)", third + 1)],
        ),
        (
            "a move left out",
            Box::new(move |r| r["callbacks"][last]["steps"] = json!([])),
            vec![
                format!("callback {}", last + 1),
                "without the action the rules wait for".into(),
            ],
        ),
        (
            "an answer",
            Box::new(move |r| {
                r["callbacks"][third]["steps"][0]["act"]["answer"] = json!({"Ok": "ko"})
            }),
            vec![format!("callback {}", third + 1), "its step 1".into()],
        ),
        (
            "a callback's digest",
            Box::new(move |r| r["callbacks"][third]["digest"] = json!("0000000000000000")),
            vec![
                format!("callback {}", third + 1),
                "the game's digest after it".into(),
            ],
        ),
        (
            "the winner",
            Box::new(swapped),
            strings(&["the match ends ranked", "in the record"]),
        ),
        (
            "the scores",
            Box::new(|r| r["ranking"]["scores"] = json!([1, 1])),
            strings(&["the match ends ranked"]),
        ),
        (
            "the isolation",
            Box::new(move |r| r["summary"]["isolated_after"] = json!(isolated + 1)),
            vec![
                format!("\"isolated_after\":{isolated}"),
                format!("\"isolated_after\":{}", isolated + 1),
            ],
        ),
        (
            "the seed",
            Box::new(|r| r["seed"] = json!(9)),
            vec![
                "seats[0].seed".into(),
                format!("the match seed 9 gives {seat_seed}"),
            ],
        ),
    ];
    refuse_each(&played, true, cases);

    let played = play_amazons("amazons-fault", true);
    let record = read(&played);
    assert_eq!(record["faults"].as_array().unwrap().len(), 1, "{record}");
    let faulted = first(&record, |c| c.get("fault").is_some());
    assert_eq!(record["faults"][0]["callback"], faulted, "{record}");
    let cases: Vec<Case> = vec![
        (
            "a fault's kind",
            Box::new(|r| r["faults"][0]["kind"] = json!("timeout")),
            strings(&["the faults are", "Crash", "Timeout"]),
        ),
        (
            "a fault's callback",
            Box::new(move |r| r["faults"][0]["callback"] = json!(faulted - 1)),
            strings(&["the faults are"]),
        ),
        (
            "a fault's message",
            Box::new(|r| r["faults"][0]["message"] = json!("jouer: gave up")),
            strings(&["the faults are", "gave up"]),
        ),
        (
            "a fault left out of the list",
            Box::new(|r| r["faults"] = json!([])),
            strings(&["the faults are", "[] in the record"]),
        ),
        (
            "a fault added",
            Box::new(|r| {
                let mut added = r["faults"][0].clone();
                added["seat"] = json!(0);
                r["faults"].as_array_mut().unwrap().push(added);
            }),
            strings(&["the faults are"]),
        ),
        (
            "the winner",
            Box::new(|r| r["ranking"] = json!({"places": [2, 1], "scores": [0, 1]})),
            strings(&["the match ends ranked", "in the record"]),
        ),
    ];
    refuse_each(&played, true, cases);
}
