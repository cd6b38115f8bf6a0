//! Claims of the README and docs/results.md about tournaments that no other test runs
//! through the binary: rule 26's points in a real tie, a row's `reproduce` command played
//! again, `--html`'s index linking every replay, and `--format groups`.

use crate::common;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `referee tournament CHAMPIONS... --name t --results DIR EXTRA...`; fails unless it
/// succeeds.
fn tournament(results: &Path, champions: &[String], extra: &[&str]) -> Output {
    let out = Command::new(REFEREE)
        .arg("tournament")
        .args(champions)
        .args(["--name", "t", "--results"])
        .arg(results)
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .expect("the referee runs");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A tournament made to tie: `spender.sh` pays its 10 roubles for a monument it never
/// places and ends with 0; `even-a.sh` and `even-b.sh` (two copies of protocol.md's
/// passive champion) end every match with their 10 roubles, tied for first. Three rounds,
/// with `--html`. Returns the tournament folder.
fn tied() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::fresh_dir("tournament-doc", "ties");
        let passive = repo().join("champions/shell/passive.sh");
        let mut champions = vec![Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claims/spender.sh")
            .display()
            .to_string()];
        for name in ["even-a.sh", "even-b.sh"] {
            std::fs::copy(&passive, dir.join(name)).unwrap();
            champions.push(dir.join(name).display().to_string());
        }
        tournament(
            &dir,
            &champions,
            &["--rounds", "3", "--seed", "26", "--html"],
        );
        dir.join("t")
    })
}

/// docs/rules.md rule 26, as README and docs/results.md state it for `points<s>`: "3/1/0
/// per match, tied players get the smallest points of the places they share". Two tied
/// first get 1 each (not 3, not 0); leaderboard places: "tied seats share the better
/// place", and champions equal on points, firsts, mean score and faults share a rank.
#[test]
fn tied_seats_get_the_smallest_points_of_the_places_they_share() {
    let t = tied();
    let matches = common::tables::table(&t.join("matches.csv"));
    assert_eq!(matches.len(), 3);
    for row in &matches {
        for seat in 0..3 {
            let (name, score, points) = (
                &row[&format!("champion{seat}")],
                &row[&format!("score{seat}")],
                &row[&format!("points{seat}")],
            );
            let (want_score, want_points) = if name == "spender.sh" {
                ("0", "0")
            } else {
                ("10", "1")
            };
            assert_eq!(
                (score.as_str(), points.as_str()),
                (want_score, want_points),
                "{row:?}"
            );
        }
    }
    let board = common::tables::table(&t.join("leaderboard.csv"));
    let line = |name: &str| board.iter().find(|r| r["champion"] == name).unwrap();
    for even in ["even-a.sh", "even-b.sh"] {
        let r = line(even);
        let got = ["rank", "points", "firsts", "seconds", "thirds", "ties"].map(|c| r[c].as_str());
        assert_eq!(got, ["1", "3", "3", "0", "0", "3"], "{r:?}");
    }
    let r = line("spender.sh");
    let got = ["rank", "points", "firsts", "thirds", "ties"].map(|c| r[c].as_str());
    assert_eq!(got, ["3", "0", "0", "3", "0"], "{r:?}");
}

/// A record without its `timings`, the only field that differs between two plays of a
/// match (ARCHITECTURE.md, `record.rs`).
fn without_timings(record: &Path) -> Value {
    let mut record: Value = serde_json::from_slice(&std::fs::read(record).unwrap()).unwrap();
    record.as_object_mut().unwrap().remove("timings");
    record
}

/// docs/results.md, `reproduce`: "the one-line `referee match ...` command that plays this
/// match again". Each row's command, run as a shell line with this `referee` on the PATH,
/// plays a match whose record is the tournament's, timings aside.
#[test]
fn each_rows_reproduce_command_plays_the_same_match() {
    let t = tied();
    let bin = Path::new(REFEREE).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for row in common::tables::table(&t.join("matches.csv")) {
        let command = &row["reproduce"];
        assert!(command.starts_with("referee match "), "{command}");
        let again = t.join(format!("again-{}", row["id"]));
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("{command} --out \"$1\""))
            .arg("sh")
            .arg(&again)
            .env("PATH", &path)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            without_timings(&again.join("record.json")),
            without_timings(&t.join("matches").join(&row["id"]).join("record.json")),
            "{command} played another match"
        );
    }
}

/// README: "A tournament writes an `index.html` linking every replay" (with `--html`).
/// Only that the page exists and links each match's replay page, which exists: the rest of
/// the page is `view_html.rs`'s.
#[test]
fn the_html_index_links_every_matchs_replay() {
    let t = tied();
    let index = std::fs::read_to_string(t.join("index.html")).expect("index.html");
    let linked: BTreeSet<String> = index
        .split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|href| href.ends_with("/replay.html"))
        .map(str::to_string)
        .collect();
    let ids: BTreeSet<String> = common::tables::table(&t.join("matches.csv"))
        .into_iter()
        .map(|r| format!("matches/{}/replay.html", r["id"]))
        .collect();
    assert_eq!(linked, ids);
    for page in &ids {
        assert!(t.join(page).is_file(), "{page} is linked but missing");
    }
}

/// README: "`--format groups --matches K`: each champion plays K matches in random balanced
/// groups of three", one or two playing K + 1 when the field times K is not a multiple of
/// 3; docs/results.md: groups draw a new seed for every match, and `tournament.json`'s
/// `format` is `{"kind": "groups", "matches": K}`. Seven champions, K = 2: 14 seats, so 5
/// matches, one champion in three of them.
#[test]
fn groups_give_every_champion_k_matches_in_groups_of_three() {
    let dir = common::fresh_dir("tournament-doc", "groups");
    let shell = |name: &str| repo().join("champions/shell").join(name);
    let mut champions = vec![
        "random".to_string(),
        "greedy".to_string(),
        shell("passive.sh").display().to_string(),
        shell("builder.sh").display().to_string(),
    ];
    for name in ["p1.sh", "p2.sh", "p3.sh"] {
        std::fs::copy(shell("passive.sh"), dir.join(name)).unwrap();
        champions.push(dir.join(name).display().to_string());
    }
    tournament(
        &dir,
        &champions,
        &["--format", "groups", "--matches", "2", "--seed", "5"],
    );
    let t = dir.join("t");
    let spec: Value =
        serde_json::from_slice(&std::fs::read(t.join("tournament.json")).unwrap()).unwrap();
    assert_eq!(
        spec["format"],
        serde_json::json!({"kind": "groups", "matches": 2})
    );
    let matches = common::tables::table(&t.join("matches.csv"));
    assert_eq!(
        matches.len(),
        5,
        "7 champions x 2 matches / 3 seats, rounded up"
    );
    let mut played: BTreeMap<String, usize> = BTreeMap::new();
    let mut seeds = BTreeSet::new();
    for row in &matches {
        let group: BTreeSet<&String> = (0..3).map(|s| &row[&format!("champion{s}")]).collect();
        assert_eq!(group.len(), 3, "a group of three champions: {row:?}");
        for name in group {
            *played.entry(name.clone()).or_default() += 1;
        }
        seeds.insert(row["seed"].clone());
    }
    assert_eq!(seeds.len(), 5, "a new seed for every match");
    let mut counts: Vec<usize> = played.values().copied().collect();
    counts.sort();
    assert_eq!(counts, [2, 2, 2, 2, 2, 2, 3], "{played:?}");
    for r in common::tables::table(&t.join("leaderboard.csv")) {
        assert_eq!(r["matches"], played[&r["champion"]].to_string(), "{r:?}");
    }
}

/// README: groups need 3 champions, or 6 or more; 4 or 5 are refused naming the fix.
#[test]
fn groups_of_four_or_five_champions_are_refused_naming_the_fix() {
    let dir = common::fresh_dir("tournament-doc", "groups-of-four");
    let out = Command::new(REFEREE)
        .args(["tournament", "random", "greedy"])
        .arg(repo().join("champions/shell/passive.sh"))
        .arg(repo().join("champions/shell/builder.sh"))
        .args(["--format", "groups", "--matches", "3", "--results"])
        .arg(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--format round-robin"), "{stderr}");
    assert!(!dir.join("t").exists() && !dir.join("tournament").exists());
}

/// Two tournaments of the same three quick champions, each run with no flag but
/// `--results` (no `--name`, `--seed` or limit flag); their `tournament.json`s.
fn unflagged() -> &'static [Value; 2] {
    static SPECS: OnceLock<[Value; 2]> = OnceLock::new();
    SPECS.get_or_init(|| {
        let dir = common::fresh_dir("tournament-doc", "unflagged");
        let champions = vec![
            "random".to_string(),
            "greedy".to_string(),
            repo()
                .join("champions/shell/passive.sh")
                .display()
                .to_string(),
        ];
        ["a", "b"].map(|run| {
            let results = dir.join(run);
            let out = Command::new(REFEREE)
                .arg("tournament")
                .args(&champions)
                .arg("--results")
                .arg(&results)
                .stdin(Stdio::null())
                .output()
                .expect("the referee runs");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            // `--name` defaults to `tournament`.
            let spec = results.join("tournament/tournament.json");
            serde_json::from_slice(&std::fs::read(&spec).expect("tournament/tournament.json"))
                .unwrap()
        })
    })
}

/// README: `--init-cpu` (default 10 s of CPU), `--call-cpu` (default 1 s), `--memory`
/// (default 1024), `--processes` (default 256), `--disk` (default 64), `--sandbox` (default
/// `auto`), `--name` (default `tournament`), `--format round-robin --rounds R` (default R =
/// 1) with `--deal fresh`; docs/results.md: `tournament.json` records them.
#[test]
fn a_tournament_without_limit_flags_records_the_documented_defaults() {
    let spec = &unflagged()[0];
    assert_eq!(spec["name"], "tournament");
    assert_eq!(
        spec["limits"],
        serde_json::json!({
            "time_scale": 1.0, "init_cpu": 10.0, "call_cpu": 1.0, "memory": 1024,
            "processes": 256, "disk": 64, "sandbox": "auto", "require_sandbox": false
        })
    );
    assert_eq!(
        spec["format"],
        serde_json::json!({"kind": "round-robin", "rounds": 1, "deal": "fresh"})
    );
}

/// README: "Without it [`--seed`] the seed is drawn from the operating system's random
/// source": two runs of the same tournament without `--seed` get different seeds.
#[test]
fn without_a_seed_every_tournament_draws_its_own() {
    let [a, b] = unflagged();
    assert!(a["seed"].is_u64(), "{a}");
    assert_ne!(a["seed"], b["seed"]);
}
