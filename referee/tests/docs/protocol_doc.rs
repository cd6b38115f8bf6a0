//! Claims of protocol.md that no other test runs through the binary: CRLF line ends
//! (section 1), the time budgets of section 5 (defaults, wall deadline = 3 x CPU + 1 s,
//! `--time-scale`) and the example messages of its protocol faults, each with `referee
//! match` and real champion processes.

use crate::common;

use common::{assert_no_process_left, passive};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(dir: &str, name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir)
        .join(name)
        .display()
        .to_string()
}

/// Plays `champions` with `--seed seed` and `extra` flags; returns the match folder and
/// its record.
fn play(champions: [&str; 3], seed: u64, extra: &[&str]) -> (PathBuf, Value) {
    let dir = common::fresh_dir("protocol-doc", &seed.to_string());
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .arg("match")
        .args(champions)
        .args(["--seed", &seed.to_string(), "--first-player", "0", "--out"])
        .arg(&dir)
        .args(extra)
        .output()
        .expect("the referee runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: Value =
        serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    assert_no_process_left(&record);
    (dir, record)
}

/// The faults of `seat`, as (kind, message).
fn faults(record: &Value, seat: u64) -> Vec<(String, String)> {
    record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["seat"] == seat)
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Section 1: "A single `\r` just before the `\n` is tolerated and ignored (so CRLF
/// output works)". A champion that ends every request and every `fin` with CRLF plays the
/// whole match and gets its answers; two `\r` are not a CRLF and are a protocol fault.
#[test]
fn crlf_lines_are_accepted_and_a_second_cr_is_not() {
    let (dir, record) = play(
        [&fixture("claims", "crlf.sh"), &passive(), &passive()],
        5,
        &[],
    );
    assert_eq!(faults(&record, 0), vec![], "CRLF lines were refused");
    let log = std::fs::read_to_string(dir.join("seat0.stderr")).unwrap();
    // `numero_tour\r` was answered as `numero_tour`, and every callback came, in section
    // 2's order: `init_game`, `jouer` and `enchere` of turns 1..=14 (`placement` only
    // after an `enchere`, when it won the auction), `jouer` of turn 15, `end_game`.
    let mut expected = vec!["init_game 1".to_string()];
    for turn in 1..=14 {
        expected.push(format!("jouer {turn}"));
        expected.push(format!("enchere {turn}"));
    }
    expected.extend(["jouer 15".to_string(), "end_game 15".to_string()]);
    let lines: Vec<&str> = log.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("placement ") {
            assert!(lines[i - 1].starts_with("enchere "), "{log}");
        }
    }
    let without_placement: Vec<&str> = lines
        .into_iter()
        .filter(|l| !l.starts_with("placement "))
        .collect();
    assert_eq!(without_placement, expected, "{log}");

    let (_, record) = play(
        [&fixture("claims", "double_cr.sh"), &passive(), &passive()],
        6,
        &[],
    );
    let seat0 = faults(&record, 0);
    assert_eq!(seat0.len(), 1, "{seat0:?}");
    assert_eq!(seat0[0].0, "protocol", "{seat0:?}");
    assert!(
        seat0[0].1.contains("\\x0d") || seat0[0].1.contains("\\r"),
        "{seat0:?}"
    );
}

/// A budget of section 5's table, in microseconds: the seconds of its cell (`10 s`).
fn seconds_us(cell: &str) -> u64 {
    let seconds: f64 = cell
        .trim()
        .strip_suffix(" s")
        .unwrap_or_else(|| panic!("a budget in seconds, got {cell:?}"))
        .parse()
        .unwrap();
    (seconds * 1e6).round() as u64
}

/// Section 5's table of defaults, read from protocol.md: (callback, CPU µs, wall µs).
fn documented_budgets() -> Vec<(String, u64, u64)> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol.md"))
        .unwrap();
    let section = doc
        .split("\n### `timeout`\n")
        .nth(1)
        .expect("protocol.md has a `timeout` section");
    let rows: Vec<_> = section
        .lines()
        .skip_while(|l| !l.starts_with("| callback"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').collect();
            assert_eq!(cells.len(), 3, "{l}");
            (
                cells[0].trim().to_string(),
                seconds_us(cells[1]),
                seconds_us(cells[2]),
            )
        })
        .collect();
    assert_eq!(rows.len(), 2, "two rows in section 5's table: {rows:?}");
    rows
}

/// Section 5: the defaults (10 s of CPU for `init_game`, 1 s for every other callback),
/// the wall deadline of each (3 x CPU + 1 s), and `--time-scale F` multiplying every budget
/// and deadline. The record's budgets with the default flags are the table's; a champion
/// that sleeps in a callback is stopped at the scaled deadline, not before, and the fault
/// names it.
#[test]
fn the_wall_deadline_is_three_times_the_cpu_budget_plus_a_second_scaled() {
    let table = documented_budgets();
    for (_, cpu, wall) in &table {
        assert_eq!(*wall, 3 * cpu + 1_000_000, "the table itself: {table:?}");
    }
    let (init, call) = (&table[0], &table[1]);
    assert_eq!(init.0, "`init_game`");

    let (_, record) = play([&passive(), &passive(), &passive()], 7, &[]);
    let budgets = &record["budgets"];
    assert_eq!(budgets["init"]["cpu_us"], init.1, "{budgets}");
    assert_eq!(budgets["init"]["wall_us"], init.2, "{budgets}");
    assert_eq!(budgets["call"]["cpu_us"], call.1, "{budgets}");
    assert_eq!(budgets["call"]["wall_us"], call.2, "{budgets}");

    // --call-cpu 0.2 --time-scale 0.5: CPU 0.1 s, wall (3 x 0.2 + 1) x 0.5 = 0.8 s.
    let hang = fixture("match", "hang.sh");
    let flags = ["--call-cpu", "0.2", "--time-scale", "0.5"];
    let (_, record) = play([&hang, &passive(), &passive()], 8, &flags);
    let budgets = &record["budgets"];
    assert_eq!(budgets["call"]["cpu_us"], 100_000, "{budgets}");
    assert_eq!(budgets["call"]["wall_us"], 800_000, "{budgets}");
    assert_eq!(budgets["init"]["wall_us"], 15_500_000, "{budgets}");
    let seat0 = faults(&record, 0);
    assert_eq!(seat0.len(), 1, "{seat0:?}");
    let (kind, message) = &seat0[0];
    assert_eq!(kind, "timeout", "{message}");
    assert!(message.contains("the wall budget is 800 ms"), "{message}");
    // Stopped at the deadline, not before: the callback's measured wall time.
    let at = record["callbacks"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["seat"] == 0 && c.get("fault").is_some())
        .expect("the callback of the fault");
    let wall_us = record["timings"][at]["wall_us"].as_u64().unwrap();
    assert!(wall_us >= 800_000, "stopped after {wall_us} µs");
}

/// Section 1: fields split on runs of spaces and tabs, leading and trailing whitespace
/// ignored, integers with an optional `+`, leading zeros, in the signed 32-bit range; a
/// line of at most 256 bytes (without its `\n`). The champion logs the answers it got;
/// its 257-byte line in `end_game` is a protocol fault.
#[test]
fn requests_are_split_on_whitespace_and_lines_are_bounded_at_256_bytes() {
    let (dir, record) = play(
        [&fixture("claims", "spellings.sh"), &passive(), &passive()],
        9,
        &[],
    );
    let log = std::fs::read_to_string(dir.join("seat0.stderr")).unwrap();
    // `finances 0` is 10 (money at the start); player 2147483647 is JOUEUR_INCORRECT (-7).
    assert_eq!(log, "10\n10\n10\n-7\n10\n", "{log}");
    let seat0 = faults(&record, 0);
    assert_eq!(seat0.len(), 1, "{seat0:?}");
    let (kind, message) = &seat0[0];
    assert_eq!(kind, "protocol", "{message}");
    assert!(message.contains("256"), "{message}");
    let fault = record["faults"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["seat"] == 0)
        .unwrap();
    let callback = fault["callback"].as_u64().expect("the fault's callback") as usize;
    assert_eq!(
        record["callbacks"][callback]["callback"], "end_game",
        "{fault}"
    );
}

/// Section 5's example messages of protocol faults, as the page writes them: the lines
/// `- ``message``` of the section on `protocol` faults.
fn documented_protocol_messages() -> Vec<String> {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol.md"))
            .unwrap();
    let section = page
        .split("### `protocol`")
        .nth(1)
        .expect("protocol.md has a section on protocol faults");
    let section = section.split("\n### ").next().unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix("- ``")?.strip_suffix("``"))
        .map(|m| m.trim().to_string())
        .collect()
}

/// Section 5: the examples of protocol faults are the referee's own words. Each is made
/// by a champion doing what it quotes (a debug line in `jouer`, a call short of an
/// argument, a line written after `init_game`'s `fin` in the same write), and the
/// record's message (after the callback it stopped) is the page's, word for word.
#[test]
fn the_protocol_fault_examples_are_the_referee_s_messages() {
    let documented = documented_protocol_messages();
    assert_eq!(documented.len(), 3, "{documented:?}");
    let dir = common::fresh_dir("protocol-doc", "examples");
    let champions = [
        (
            "hello",
            "[ \"$callback\" = jouer ] && echo hello\n  echo fin",
        ),
        (
            "short",
            "[ \"$callback\" = jouer ] && echo 'construire_route 5'\n  echo fin",
        ),
        (
            "after-fin",
            // One write: the line is there before the next callback begins.
            "if [ \"$callback\" = init_game ]; then printf 'fin\\nhello\\n'; else echo fin; fi",
        ),
    ];
    let mut made = Vec::new();
    for (seed, (name, body)) in (30..).zip(champions) {
        let champion = dir.join(format!("{name}.sh"));
        std::fs::write(
            &champion,
            format!("#!/bin/sh\nwhile read -r callback; do\n  {body}\ndone\n"),
        )
        .unwrap();
        std::fs::set_permissions(&champion, std::fs::Permissions::from_mode(0o755)).unwrap();
        let (_, record) = play(
            [champion.to_str().unwrap(), &passive(), &passive()],
            seed,
            &[],
        );
        let seat0 = faults(&record, 0);
        assert_eq!(seat0.len(), 1, "{name}: {seat0:?}");
        assert_eq!(seat0[0].0, "protocol", "{name}: {seat0:?}");
        made.push(seat0[0].1.clone());
    }
    assert_eq!(
        documented, made,
        "protocol.md's examples are not the referee's words"
    );
}
