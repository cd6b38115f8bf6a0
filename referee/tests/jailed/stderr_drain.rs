//! Attacks on the drain of a champion's stderr (`champion/stderr.rs`: a thread per champion,
//! a lock, `FIONREAD`), each a whole match through `referee match` with a fixture of
//! `tests/fixtures/stderr/`: output of exactly the cap, then one byte more; a child that
//! floods stderr after its champion exits; stderr closed before the first callback; more
//! stderr than a pipe holds before every request. The referee must not block, keep more than
//! 1 MiB in a file, lose or delay a line of the protocol, or leave a process.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const CAP: usize = 1 << 20;
const MARKER: &[u8] = b"\n[stderr truncated]\n";

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/stderr")
        .join(name)
        .display()
        .to_string()
}

/// `fixture` in seat 0 against two passive champions: the record and the match directory.
fn play(name: &str, seed: u64) -> (Value, PathBuf) {
    let dir = common::fresh_dir("stderr_drain", name);
    let passive = common::passive();
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["match", &fixture(name), &passive, &passive])
        .args(["--seed", &seed.to_string(), "--first-player", "0"])
        .args(["--time-scale", "2", "--out"])
        .arg(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Generous: a match of passive champions takes seconds; a blocked drain, forever.
    let status = common::wait_timeout(&mut child, Duration::from_secs(300))
        .unwrap_or_else(|| panic!("{name}: the match never ended (the referee blocked)"));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(status.success(), "{name}: {stderr}");
    let record: Value =
        serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    common::assert_no_process_left(&record);
    (record, dir)
}

fn faults_of(record: &Value, seat: u64) -> Vec<&Value> {
    record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["seat"] == seat)
        .collect()
}

fn ended(record: &Value, seat: u64) -> bool {
    record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["seat"] == seat && c["callback"] == "end_game")
}

/// The bytes each callback of `seat` wrote, by the record's ranges, in order.
fn ranges(record: &Value, seat: u64) -> Vec<u64> {
    let callbacks = record["callbacks"].as_array().unwrap();
    let timings = record["timings"].as_array().unwrap();
    callbacks
        .iter()
        .zip(timings)
        .filter(|(c, _)| c["seat"] == seat)
        .map(|(_, t)| t["stderr"][1].as_u64().unwrap() - t["stderr"][0].as_u64().unwrap())
        .collect()
}

/// Exactly the cap is kept whole; one byte more, written in a later callback, and the file
/// ends with the marker, still at most the cap. (The file was 20 bytes over the cap.)
#[test]
fn output_at_the_cap_then_one_byte_more_stays_within_the_cap() {
    let (record, dir) = play("at_cap.sh", 3);
    assert!(faults_of(&record, 0).is_empty(), "{}", record["faults"]);
    let file = std::fs::read(dir.join("seat0.stderr")).unwrap();
    assert_eq!(file.len(), CAP);
    assert!(file.ends_with(MARKER));
    assert!(file[..CAP - MARKER.len()].iter().all(|&b| b == b'c'));
    // Every byte counted where it was written: the first callback's 1 MiB, the second's 1.
    let written = ranges(&record, 0);
    assert_eq!(written[..2], [CAP as u64, 1]);
}

/// A child that floods stderr after its champion exits holds the pipe open: the match ends
/// anyway, the file is capped, and the child is killed.
#[test]
fn a_child_flooding_stderr_after_its_champion_exits_is_not_waited_for() {
    let (record, dir) = play("child_flood.sh", 4);
    assert!(ended(&record, 0), "seat 0 got no end_game");
    let file = std::fs::read(dir.join("seat0.stderr")).unwrap();
    assert!(file.len() <= CAP, "{} bytes", file.len());
}

/// Stderr closed before the first callback: the drain ends at once, the champion plays the
/// whole match without a fault, and its callbacks wrote nothing.
#[test]
fn stderr_closed_early_does_not_disturb_the_protocol() {
    let (record, dir) = play("closed_early.sh", 5);
    assert!(faults_of(&record, 0).is_empty(), "{}", record["faults"]);
    assert!(ended(&record, 0));
    assert!(ranges(&record, 0).iter().all(|&n| n == 0));
    assert_eq!(std::fs::read(dir.join("seat0.stderr")).unwrap().len(), 0);
}

/// More stderr than a pipe holds before every request: every request waits on the drain,
/// none is lost, the champion plays the match (it builds, as `builder.sh` does) without a
/// fault, every byte is counted, and the file keeps 1 MiB.
#[test]
fn stderr_interleaved_with_every_request_loses_no_line() {
    let (record, dir) = play("interleaved.sh", 6);
    assert!(faults_of(&record, 0).is_empty(), "{}", record["faults"]);
    assert!(ended(&record, 0));
    let built = record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["seat"] == 0)
        .any(|c| {
            // An action taken, `fin` aside.
            c["steps"].as_array().is_some_and(|steps| {
                steps
                    .iter()
                    .any(|s| s["act"]["action"].as_str().is_some_and(|a| a != "fin"))
            })
        });
    assert!(built, "the interleaved champion's actions were lost");
    // One block before each request: each callback's range is its requests' blocks.
    let requests: Vec<u64> = record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["seat"] == 0)
        // The record counts each callback's `fin` too, which the champion sends unblocked.
        .map(|c| c["requests"].as_u64().unwrap() - 1)
        .collect();
    let written = ranges(&record, 0);
    let blocks: Vec<u64> = requests.iter().map(|r| r * 70_000).collect();
    assert_eq!(written, blocks);
    assert!(written.iter().sum::<u64>() > CAP as u64);
    let file = std::fs::read(dir.join("seat0.stderr")).unwrap();
    assert_eq!(file.len(), CAP);
}
