//! Little Town's kits (`champions/little-town/`) through the real binary, in their jails
//! as root and as a normal user: the Python sample (`python/random`, every action drawn
//! among the legal ones) and the C sample (`c/builder`, built here with `make` as
//! `scripts/build-champions.sh` does) play a four-seat match with the built-in `strong` and
//! `random`; neither faults, what they print lands in their logs, and the record replays.
//! A missing `python3`, `cc` or `make` skips the test with a message (a failure under
//! `CI=true`).

use crate::common;

use common::users::Who;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

fn tools_present(names: &[&str]) -> bool {
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
    common::skip_missing(&format!("town_kits: {} missing", missing.join(", ")));
    false
}

#[test]
fn the_python_and_c_samples_play_a_four_seat_match_in_their_jails() {
    if !tools_present(&["python3", "cc", "make"]) {
        return;
    }
    let builder = repo("champions/little-town/c/builder");
    let made = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(&builder)
        .env_remove("PROLOGIN_KITS")
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", common::text(&made.stderr));
    let python = repo("champions/little-town/python/random");
    common::users::each_run_in("town_kits", "samples", |who, dir| {
        let out_dir = dir.join("m");
        let mut command = Command::new(REFEREE);
        command
            .args(["--game", "little-town", "match"])
            .arg(&python)
            .arg(&builder)
            .args(["strong", "random", "--seed", "3", "--out"])
            .arg(&out_dir)
            .stdin(Stdio::null());
        if let Who::User(uid, gid) = who {
            command.uid(uid).gid(gid).env("HOME", "/nonexistent");
        }
        let out = common::run_ok(command);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let record = arena::GameRecord::load(&out_dir.join("record.json")).unwrap();
        assert!(record.faults.is_empty(), "{:?}\n{stdout}", record.faults);
        let jouer = |seat: u8| {
            record
                .callbacks
                .iter()
                .filter(|c| c.seat == seat && c.callback == "jouer")
                .count()
        };
        assert!(jouer(0) > 0 && jouer(1) > 0, "{stdout}");
        let log = |seat: usize| {
            std::fs::read_to_string(out_dir.join(format!("seat{seat}.stderr"))).unwrap()
        };
        assert!(log(0).contains("random champion in seat 0"), "{}", log(0));
        assert!(log(1).contains("builder in seat 1"), "{}", log(1));
        assert!(log(1).contains("builder: gold"), "end_game ran: {}", log(1));
        common::run_ok({
            let mut c = Command::new(REFEREE);
            c.args(["--game", "little-town", "replay"]).arg(&out_dir);
            c
        });
        common::assert_no_process_left(&serde_json::from_slice(&record.to_json()).unwrap());
    });
}

/// The README's 4-seat tournament of the bundled champions, run as printed (from the
/// repository root, the debug referee for `target/release/referee`, results in a fresh
/// directory): its leaderboard has four places, and the one the README shows.
#[test]
fn the_readme_four_seat_tournament_runs_as_printed_and_gives_its_leaderboard() {
    if !tools_present(&["python3", "cc", "make"]) {
        return;
    }
    let made = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(repo("champions/little-town/c/builder"))
        .env_remove("PROLOGIN_KITS")
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", common::text(&made.stderr));
    let root = repo("");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = &readme[readme.find("## Little Town").expect("the section")..];
    let block = &section[section.find("scripts/build-champions.sh\n").unwrap()..];
    let block = &block[..block.find("```").unwrap()];
    let command = block.replace("\\\n", " ");
    let command = command
        .lines()
        .find(|l| l.contains("--game little-town tournament"))
        .expect("the tournament command");
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[0], "target/release/referee");
    let dir = common::fresh_dir("town", "readme");
    let out = Command::new(REFEREE)
        .args(&words[1..])
        .arg("--results")
        .arg(&dir)
        .current_dir(&root)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let board = common::tables::table(&dir.join("town-demo/leaderboard.csv"));
    let shown = &section[section.find("rank  champion").unwrap()..];
    let shown: Vec<Vec<&str>> = shown
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(board.len(), shown.len());
    for (line, row) in board.iter().zip(&shown) {
        // rank, champion, points, matches; then 1st to 4th and ties after the rating.
        assert_eq!(
            [
                &line["rank"],
                &line["champion"],
                &line["points"],
                &line["matches"]
            ],
            [row[0], row[1], row[2], row[3]]
        );
        let places = &row[row.len() - 6..row.len() - 1];
        for (column, value) in ["firsts", "seconds", "thirds", "fourths", "ties"]
            .iter()
            .zip(places)
        {
            assert_eq!(&line[*column], value, "{column} of {line:?}");
        }
    }
}
