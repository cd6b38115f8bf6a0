//! End-to-end proof of the Game of the Amazons' champion kits (`champions/amazons/`): the
//! real `referee --game amazons` binary plays whole matches with the kits' champions, in
//! their jails (or without, where said), and every match must end with a winner, no fault
//! and a record that `replay` accepts.
//!
//! - the Python sample (`champions/amazons/python/greedy`) against the built-in `random`,
//!   with both colours, winning most games; also copied outside the repository (it then
//!   finds the kit the referee bundles) and run without the sandbox;
//! - the C sample (`champions/amazons/c/territory`) against the built-in `mobility`;
//! - fixtures (`tests/fixtures/amazons_kits/`): champions that print on stdout from their
//!   callbacks (the text lands in their log, the kit's answers agree with the record), and
//!   champions whose `jouer` returns without a move (the page's `protocol` fault).
//!
//! The C champions are built here with `make`. A missing `python3`, `cc` or `make` skips a
//! test with a message, and fails it when `CI=true`.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

fn fixture(name: &str) -> PathBuf {
    repo("referee/tests/fixtures/amazons_kits").join(name)
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Whether every tool is on PATH; if not, the test is skipped with a message, or fails
/// under `CI=true`.
fn tools(test: &str, names: &[&str]) -> bool {
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|t| {
            !Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {t}"))
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    common::skip_missing(&format!("{test}: {} missing", missing.join(", ")));
    false
}

/// Builds the C champions once: the sample and the C fixtures.
fn build_c() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        for dir in [
            repo("champions/amazons/c/territory"),
            fixture("noisy_c"),
            fixture("lazy_c"),
        ] {
            let out = Command::new("make")
                .arg("-s")
                .arg("-C")
                .arg(&dir)
                .output()
                .expect("make runs");
            assert!(
                out.status.success(),
                "make -C {}: {}",
                dir.display(),
                text(&out)
            );
        }
    });
}

/// A played match: its directory and record.
struct Played {
    dir: PathBuf,
    record: Value,
}

impl Played {
    fn log(&self, seat: usize) -> String {
        std::fs::read_to_string(self.dir.join(format!("seat{seat}.stderr"))).unwrap()
    }

    fn winner(&self) -> Option<u64> {
        self.record["summary"]["winner"].as_u64()
    }

    /// Asserts what every match of well-behaved champions shows: a winner, no fault, a
    /// record that replays, no process left.
    fn assert_clean(&self, what: &str) {
        let faults = &self.record["faults"];
        assert!(
            faults.as_array().unwrap().is_empty(),
            "{what}: faults {faults}\n--- seat0\n{}\n--- seat1\n{}",
            self.log(0),
            self.log(1)
        );
        assert!(self.winner().is_some(), "{what}: no winner");
        let moves = self.record["summary"]["moves"].as_array().unwrap().len();
        let replay = Command::new(REFEREE)
            .args(["--game", "amazons", "replay"])
            .arg(self.dir.join("record.json"))
            .output()
            .unwrap();
        assert!(
            replay.status.success() && text(&replay).contains(&format!("replay ok: {moves} moves")),
            "{what}: replay: {}",
            text(&replay)
        );
        common::assert_no_process_left(&self.record);
    }
}

/// `referee --game amazons match a b --seed N [extra...]`, as typed. Every match of this
/// file has a seed of its own: the leftover check finds a match's processes by the seats'
/// `PROLOGIN_SEED`, which the match seed decides, and the tests run at once.
fn play(a: &str, b: &str, seed: u64, extra: &[&str]) -> Played {
    let dir = common::fresh_dir("amazons-kits", &format!("s{seed}"));
    let out = Command::new(REFEREE)
        .args([
            "--game",
            "amazons",
            "match",
            a,
            b,
            "--seed",
            &seed.to_string(),
        ])
        .args(extra)
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "match {a} {b}: {}", text(&out));
    let record = serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap())
        .expect("record.json is JSON");
    Played { dir, record }
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn the_python_sample_beats_random_with_both_colours() {
    if !tools("python sample", &["python3"]) {
        return;
    }
    let greedy = path(&repo("champions/amazons/python/greedy"));
    let mut wins = 0;
    let mut games = 0;
    for seed in 1..=5 {
        for white in [true, false] {
            let (a, b) = if white {
                (greedy.as_str(), "random")
            } else {
                ("random", greedy.as_str())
            };
            let played = play(a, b, seed, &[]);
            played.assert_clean(&format!("{a} vs {b} seed {seed}"));
            wins += usize::from(played.winner() == Some(u64::from(!white)));
            games += 1;
            assert!(
                played
                    .log(usize::from(!white))
                    .contains("greedy (Python): I play"),
                "its print() is in its log"
            );
        }
    }
    // Measured: 20 wins in 20 games (seeds 1..=10, both colours).
    assert!(wins >= 8, "greedy won {wins} of {games} against random");
}

#[test]
fn the_python_sample_plays_copied_anywhere_and_without_the_sandbox() {
    if !tools("python sample elsewhere", &["python3"]) {
        return;
    }
    // Outside the repository there is no `kit` beside its folder: it finds the bundled one
    // at $PROLOGIN_KITS/amazons-python, which the referee sets in the jail (/kits) and
    // without it (the repository's kits/).
    let elsewhere = common::fresh_dir("amazons-kits", "elsewhere").join("mine");
    let copy = Command::new("cp")
        .arg("-r")
        .arg(repo("champions/amazons/python/greedy"))
        .arg(&elsewhere)
        .status()
        .unwrap();
    assert!(copy.success());
    play(&path(&elsewhere), "random", 17, &[]).assert_clean("a copy outside the repository");
    play("random", &path(&elsewhere), 19, &["--sandbox", "off"])
        .assert_clean("a copy outside the repository, sandbox off");
    // In place, with the sandbox off, it finds the kit beside its folder.
    let greedy = path(&repo("champions/amazons/python/greedy"));
    play("random", &greedy, 18, &["--sandbox", "off"]).assert_clean("greedy, sandbox off");
}

#[test]
fn the_c_sample_plays_mobility_with_both_colours() {
    if !tools("C sample", &["cc", "make"]) {
        return;
    }
    build_c();
    let territory = path(&repo("champions/amazons/c/territory"));
    let mut wins = 0;
    for (seed, white) in [(11, true), (12, false)] {
        let (a, b) = if white {
            (territory.as_str(), "mobility")
        } else {
            ("mobility", territory.as_str())
        };
        let played = play(a, b, seed, &[]);
        played.assert_clean(&format!("{a} vs {b}"));
        wins += usize::from(played.winner() == Some(u64::from(!white)));
        assert!(played
            .log(usize::from(!white))
            .contains("territory (C): I play"));
    }
    // Measured: it wins both (both players are deterministic).
    assert!(wins >= 1, "territory won {wins} of 2 against mobility");
}

/// The `<prefix> jouer couleur C coup N tour T after coup M tour U` lines of a log.
fn jouer_reports(log: &str, prefix: &str) -> Vec<[i64; 5]> {
    log.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(|rest| {
            let n: Vec<i64> = rest
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            n.try_into().unwrap_or_else(|n| panic!("bad report {n:?}"))
        })
        .collect()
}

#[test]
fn stdout_from_callbacks_lands_in_the_log_and_the_kits_answer_right() {
    let python = tools("noisy Python", &["python3"]);
    let c = tools("noisy C", &["cc", "make"]);
    let mut games = Vec::new();
    if python {
        games.push((
            0,
            "noisy_py",
            play(&path(&fixture("noisy_py")), "random", 13, &[]),
        ));
    }
    if c {
        build_c();
        games.push((
            1,
            "noisy_c",
            play("random", &path(&fixture("noisy_c")), 14, &[]),
        ));
    }
    for (seat, name, played) in &games {
        // Its `hello`, `fin` and `etat` were not read as requests: no fault.
        played.assert_clean(name);
        let log = played.log(*seat);
        for line in ["hello", "fin", "etat"] {
            assert!(
                log.lines().any(|l| l == line),
                "{name}: no `{line}` in\n{log}"
            );
        }
        assert!(
            log.contains(&format!("{name} init couleur {seat} mon_tour 0")),
            "{log}"
        );
        // Every jouer: its colour, the moves so far (it moves on the even moves as White,
        // the odd ones as Black), its turn before and not after its move.
        let reports = jouer_reports(&log, &format!("{name} jouer"));
        let jouers = played.record["callbacks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["seat"] == *seat && c["callback"] == "jouer")
            .count();
        assert_eq!(reports.len(), jouers, "{name}: one report per jouer\n{log}");
        for (k, r) in reports.iter().enumerate() {
            let coup = (2 * k + seat) as i64;
            assert_eq!(*r, [*seat as i64, coup, 1, coup + 1, 0], "{name} jouer {k}");
        }
        let moves = played.record["summary"]["moves"].as_array().unwrap().len();
        assert!(
            log.contains(&format!("{name} end coup {moves} mon_tour 0")),
            "{log}"
        );
    }
}

#[test]
fn a_jouer_that_returns_without_moving_is_a_protocol_fault() {
    let python = tools("lazy Python", &["python3"]);
    let c = tools("lazy C", &["cc", "make"]);
    let mut games = Vec::new();
    if python {
        games.push((0, play(&path(&fixture("lazy_py")), "random", 15, &[])));
    }
    if c {
        build_c();
        games.push((1, play("random", &path(&fixture("lazy_c")), 16, &[])));
    }
    for (seat, played) in &games {
        let faults = played.record["faults"].as_array().unwrap();
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!(faults[0]["seat"], *seat);
        assert_eq!(faults[0]["kind"], "protocol");
        let message = faults[0]["message"].as_str().unwrap();
        assert!(message.contains("ended jouer without a move"), "{message}");
        assert_eq!(
            played.winner(),
            Some(1 - *seat as u64),
            "the other seat wins"
        );
        assert_eq!(
            played.record["summary"]["moves"].as_array().unwrap().len(),
            *seat
        );
    }
    if python {
        // Its refused moves: the page's codes, and nothing changed (still its turn).
        let log = games[0].1.log(0);
        assert!(
            log.contains("lazy_py codes -2 -3 -4 -2 -2 mon_tour 1 coup 0"),
            "{log}"
        );
    }
}
