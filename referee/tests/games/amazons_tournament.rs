//! `referee --game amazons tournament` and `merge` as an organiser types them: a round-robin
//! of pairs with real champions in their jails (the built-ins, the protocol page's Python
//! champion and one that never moves), colours balanced, a seed a match unless `--deal
//! rotated` (then a pair's two matches share one, and a resume keeps it), win/loss points
//! counted again here from the rows, every record replayed, a row's reproduce command played
//! again, shards merged into the single run's results, and a resume of the other game
//! refused.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn passive() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../champions/shell/passive.sh")
        .display()
        .to_string()
}

/// Four champions: 6 pairs.
fn four(dir: &Path) -> Vec<String> {
    vec![
        "mobility".into(),
        "random".into(),
        common::amazons_page_champion(dir).display().to_string(),
        passive(),
    ]
}

fn tournament(results: &Path, champions: &[String], extra: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .args(["--game", "amazons", "tournament"])
        .args(champions)
        .args(["--name", "t", "--seed", "31", "--time-scale", "2"])
        .arg("--results")
        .arg(results)
        .args(extra)
        .stdin(Stdio::null());
    command
}

fn refused(mut command: Command, needles: &[&str]) {
    let out = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "`{needle}` not in: {stderr}");
    }
}

#[test]
fn a_round_robin_of_pairs_swaps_colours_and_counts_wins() {
    let dir = common::fresh_dir("amazons-tournament", "round-robin");
    let champions = four(&dir);
    let out = common::run_ok(tournament(
        &dir,
        &champions,
        &["--rounds", "2", "--jobs", "2", "--html"],
    ));
    let t = dir.join("t");
    // The index leads to every match's replay page.
    let index = std::fs::read_to_string(t.join("index.html")).unwrap();
    assert!(index.contains("The Game of the Amazons"), "{index}");
    for id in 0..12 {
        let href = format!("matches/{id}/replay.html");
        assert!(index.contains(&href), "{href} not linked");
    }
    let header = std::fs::read_to_string(t.join("matches.csv")).unwrap();
    assert!(
        header.starts_with(
            "id,seed,first_player,champion0,champion1,place0,place1,score0,score1,points0,\
             points1,fault0,fault1,"
        ),
        "{header}"
    );
    let matches = common::tables::untimed(&t.join("matches.csv"));
    assert_eq!(matches.len(), 12, "6 pairs, 2 rounds");
    for row in &matches {
        let page = t.join(format!("matches/{}/replay.html", row["id"]));
        let page = std::fs::read_to_string(page).unwrap();
        for s in 0..2 {
            assert!(page.contains(&row[&format!("champion{s}")]), "{row:?}");
        }
    }

    // Each pair plays twice, colours swapped, on two seeds (fresh deals: what a champion
    // remembers of the first tells it nothing of the second).
    let mut pairs: BTreeMap<(String, String), Vec<&BTreeMap<String, String>>> = BTreeMap::new();
    for row in &matches {
        let (a, b) = (row["champion0"].clone(), row["champion1"].clone());
        pairs
            .entry(if a < b { (a, b) } else { (b, a) })
            .or_default()
            .push(row);
    }
    assert_eq!(pairs.len(), 6, "{pairs:?}");
    for (pair, games) in &pairs {
        assert_eq!(games.len(), 2, "{pair:?}");
        assert_ne!(games[0]["seed"], games[1]["seed"], "{pair:?}");
        assert_eq!(games[0]["champion0"], games[1]["champion1"], "{pair:?}");
        assert_eq!(games[0]["first_player"], "0");
    }

    // Win/loss, counted here from the scores: the winner scores 1 and earns 1 point.
    let passive_name = "passive.sh";
    let mut wins: BTreeMap<String, u64> = BTreeMap::new();
    for row in &matches {
        let winner = match (row["score0"].as_str(), row["score1"].as_str()) {
            ("1", "0") => 0,
            ("0", "1") => 1,
            other => panic!("not one winner: {other:?} in {row:?}"),
        };
        assert_eq!(row[&format!("points{winner}")], "1", "{row:?}");
        assert_eq!(row[&format!("points{}", 1 - winner)], "0", "{row:?}");
        *wins
            .entry(row[&format!("champion{winner}")].clone())
            .or_default() += 1;
        // The champion that never moves loses every game by a protocol fault.
        for s in 0..2 {
            let faulty = row[&format!("champion{s}")] == passive_name;
            assert_eq!(
                row[&format!("fault{s}")],
                if faulty { "protocol" } else { "" },
                "{row:?}"
            );
        }
    }
    assert!(!wins.contains_key(passive_name), "{wins:?}");
    let board = common::tables::untimed(&t.join("leaderboard.csv"));
    assert_eq!(board.len(), 4);
    for line in &board {
        let won = wins.get(&line["champion"]).copied().unwrap_or(0);
        assert_eq!(line["points"], won.to_string(), "{line:?}");
        assert_eq!(line["firsts"], won.to_string(), "{line:?}");
        assert_eq!(line["matches"], "6", "{line:?}");
        assert_eq!(line["thirds"], "0", "two seats: {line:?}");
    }
    assert_eq!(board.last().unwrap()["champion"], passive_name);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("mobility"), "{stdout}");

    // Every record replays; one row's reproduce command plays the same game again.
    for id in 0..12 {
        let record = t.join(format!("matches/{id}/record.json"));
        let replay = Command::new(REFEREE)
            .args(["--game", "amazons", "replay"])
            .arg(&record)
            .output()
            .unwrap();
        assert!(
            replay.status.success(),
            "{}",
            String::from_utf8_lossy(&replay.stderr)
        );
    }
    let (id, row) = matches
        .iter()
        .enumerate()
        .find(|(_, r)| r["champion0"] == "mobility" && r["champion1"] == "first_legal.py")
        .expect("mobility plays White against the page's champion once");
    let again = dir.join("again");
    let reproduce = format!("{} --out {}", row["reproduce"], again.display());
    let words: Vec<&str> = reproduce.split_whitespace().collect();
    assert_eq!(&words[..4], ["referee", "--game", "amazons", "match"]);
    common::run_ok({
        let mut command = Command::new(REFEREE);
        command.args(&words[1..]);
        command
    });
    let moves = |path: PathBuf| -> serde_json::Value {
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        v["summary"]["moves"].clone()
    };
    assert_eq!(
        moves(again.join("record.json")),
        moves(t.join(format!("matches/{id}/record.json")))
    );
}

#[test]
fn shards_merge_into_the_single_run_and_the_other_game_is_refused() {
    let dir = common::fresh_dir("amazons-tournament", "shards");
    let champions = four(&dir);
    let (whole, split) = (dir.join("whole"), dir.join("split"));
    common::run_ok(tournament(&whole, &champions, &["--jobs", "2"]));
    for shard in ["1/2", "2/2"] {
        common::run_ok(tournament(&split, &champions, &["--shard", shard]));
    }
    let t = split.join("t");
    common::run_ok({
        let mut command = Command::new(REFEREE);
        command
            .args(["--game", "amazons", "merge"])
            .arg(t.join("shard-1-of-2"))
            .arg(t.join("shard-2-of-2"));
        command
    });
    for file in ["matches.csv", "leaderboard.csv", "pairwise.csv"] {
        assert_eq!(
            common::tables::untimed(&whole.join("t").join(file)),
            common::tables::untimed(&t.join(file)),
            "{file}"
        );
    }

    // A run cut after three matches, its last row torn, resumes to the same files.
    let cut = dir.join("cut");
    std::fs::create_dir_all(cut.join("t")).unwrap();
    std::fs::copy(
        whole.join("t/tournament.json"),
        cut.join("t/tournament.json"),
    )
    .unwrap();
    let text = std::fs::read_to_string(whole.join("t/matches.csv")).unwrap();
    let mut kept: Vec<&str> = text.lines().take(4).collect();
    // The records of the rows kept stay (`--resume` checks each row against its record).
    for row in &kept[1..] {
        let id = row.split(',').next().unwrap();
        let to = cut.join("t/matches").join(id);
        std::fs::create_dir_all(&to).unwrap();
        let from = whole.join("t/matches").join(id).join("record.json");
        std::fs::copy(from, to.join("record.json")).unwrap();
    }
    kept.push("5,123,0,mobi");
    std::fs::write(cut.join("t/matches.csv"), kept.join("\n")).unwrap();
    let out = common::run_ok(tournament(&cut, &[], &["--resume"]));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("3 already played"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in ["matches.csv", "leaderboard.csv", "pairwise.csv"] {
        assert_eq!(
            common::tables::untimed(&whole.join("t").join(file)),
            common::tables::untimed(&cut.join("t").join(file)),
            "{file}"
        );
    }

    // The other game's commands name the flag that reads these files.
    let mut resume = Command::new(REFEREE);
    resume
        .args(["tournament", "--name", "t", "--resume", "--results"])
        .arg(&whole);
    refused(resume, &["The Game of the Amazons", "with --game amazons"]);
    let mut merge = Command::new(REFEREE);
    merge
        .arg("merge")
        .arg(t.join("shard-1-of-2"))
        .arg(t.join("shard-2-of-2"));
    refused(merge, &["with --game amazons"]);
    // And a resume of the Amazons tournament as itself has nothing left to play.
    let out = common::run_ok(tournament(&whole, &[], &["--resume"]));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("6 already played"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn what_the_amazons_cannot_do_is_refused_before_anyone_plays() {
    let dir = common::fresh_dir("amazons-tournament", "refused");
    refused(
        tournament(&dir, &["random".into()], &[]),
        &["needs at least 2 champions"],
    );
    assert!(!dir.join("t").exists(), "nothing was started");
}

/// The README's tournament of the bundled Amazons champions, run as printed (from the
/// repository root, the debug referee for `target/release/referee`, results in a fresh
/// directory).
/// `--deal rotated` plays a pair's two matches on one seed, colours swapped, and is kept in
/// `tournament.json`: a resume without `--deal` keeps it, one with `--deal fresh` is refused
/// naming the flag. (A run started before `--deal` resumes as rotated: `amazons_v1.rs`.)
#[test]
fn rotated_deals_share_a_seed_per_pair_and_a_resume_keeps_them() {
    let dir = common::fresh_dir("amazons-tournament", "rotated");
    let pair = ["mobility".to_string(), "random".to_string()];
    common::run_ok(tournament(
        &dir,
        &pair,
        &["--rounds", "2", "--deal", "rotated"],
    ));
    let t = dir.join("t");
    let matches = common::tables::untimed(&t.join("matches.csv"));
    assert_eq!(matches.len(), 2);
    assert_eq!(matches[0]["seed"], matches[1]["seed"]);
    assert_eq!(matches[0]["champion0"], matches[1]["champion1"]);
    let spec: serde_json::Value =
        serde_json::from_slice(&std::fs::read(t.join("tournament.json")).unwrap()).unwrap();
    assert_eq!(
        spec["format"],
        serde_json::json!({"kind": "round-robin", "rounds": 2, "deal": "rotated"})
    );
    common::run_ok(tournament(&dir, &[], &["--resume", "--rounds", "2"]));
    refused(
        tournament(&dir, &[], &["--resume", "--deal", "fresh"]),
        &["--deal fresh", "--deal rotated"],
    );
    refused(
        tournament(
            &dir.join("g"),
            &pair,
            &["--format", "groups", "--deal", "rotated"],
        ),
        &["--deal applies to --format round-robin"],
    );
    common::remove_dir(&dir);
}

#[test]
fn the_readme_tournament_of_the_bundled_champions_runs_as_printed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = &readme[readme
        .find("The\nbundled Amazons champions")
        .expect("the section")..];
    let block = &section[section.find("```sh\n").unwrap() + 6..];
    let block = &block[..block.find("```").unwrap()];
    let command = block
        .replace("\\\n", " ")
        .lines()
        .find(|l| l.contains("--game amazons tournament"))
        .expect("the tournament command")
        .split('#')
        .next()
        .unwrap()
        .to_string();
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[0], "target/release/referee");
    let dir = common::fresh_dir("amazons-tournament", "readme");
    let out = Command::new(REFEREE)
        .args(&words[1..])
        .arg("--results")
        .arg(&dir)
        .current_dir(&root)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t = dir.join("amazons-demo");
    assert!(t.join("index.html").exists());
    let board = common::tables::untimed(&t.join("leaderboard.csv"));
    assert_eq!(board.len(), 4, "{board:?}");
    for line in &board {
        assert_eq!(line["matches"], "6", "{line:?}");
        assert_eq!(line["faults_protocol"], "0", "{line:?}");
        assert_eq!(line["faults_crash"], "0", "{line:?}");
    }
}

/// The digest column of an Amazons match: the first 16 hex digits of the SHA-256 of its
/// moves joined by spaces (docs/results.md), a known answer computed with Python's hashlib.
#[test]
fn the_digest_is_the_sha256_of_the_moves() {
    let act = |seat: u8, m: &str| serde_json::json!({"act": {"seat": seat, "action": m, "answer": {"Ok": "ok"}}});
    let entry = |seat: u8, steps: Vec<serde_json::Value>| serde_json::json!({"seat": seat, "callback": "jouer", "steps": steps, "requests": 1, "digest": ""});
    let zero = serde_json::json!({"cpu_us": 0, "wall_us": 0});
    let record: arena::GameRecord = serde_json::from_value(serde_json::json!({
        "schema": 5, "game": "amazons", "version": 1, "options": {}, "seed": 1, "seats": [],
        "sandbox": "", "budgets": {"init": zero, "call": zero}, "start": [],
        "callbacks": [entry(0, vec![act(0, "d1-d7/g7")]), entry(1, vec![act(1, "a7-b7/c7")])],
        "faults": [], "ranking": {"places": [], "scores": []}, "timings": []
    }))
    .unwrap();
    assert_eq!(record.history_digest(), "6e0341546871dcac");
}
