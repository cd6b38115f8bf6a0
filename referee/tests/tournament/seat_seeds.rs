//! The `PROLOGIN_SEED` a champion gets, through `referee match` with real processes: it is
//! the seed the record gives for its seat, it differs from seat to seat, and it is not the
//! match seed (`seeds.rs` makes it a one-way function of the match seed).

use crate::common;

use common::assert_no_process_left;
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

/// The seed a `seed.sh` champion printed on its stderr.
fn printed_seed(dir: &Path, seat: u64) -> u64 {
    let stderr = std::fs::read_to_string(dir.join(format!("seat{seat}.stderr"))).unwrap();
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("PROLOGIN_SEED="))
        .unwrap_or_else(|| panic!("seat {seat} printed no seed: {stderr:?}"));
    line.parse()
        .unwrap_or_else(|e| panic!("seat {seat} printed {line:?}: {e}"))
}

#[test]
fn each_champion_gets_its_own_seat_seed_and_not_the_match_seed() {
    let champion = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/match/seed.sh")
        .display()
        .to_string();
    let match_seed: u64 = 2009;
    let dir = common::fresh_dir("seat-seeds", &match_seed.to_string());
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["match", &champion, &champion, &champion])
        .args(["--seed", &match_seed.to_string(), "--out"])
        .arg(&dir)
        .output()
        .expect("the referee runs");
    assert!(
        output.status.success(),
        "referee match failed: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let record: Value =
        serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    assert_no_process_left(&record);
    assert_eq!(record["seed"], match_seed);
    assert!(record["faults"].as_array().unwrap().is_empty());

    let mut seeds = HashSet::new();
    for seat in 0..3u64 {
        let recorded = &record["seats"][seat as usize];
        assert_eq!(recorded["seat"], seat);
        let printed = printed_seed(&dir, seat);
        assert_eq!(
            recorded["seed"], printed,
            "seat {seat}: the record and the champion's environment disagree"
        );
        assert_eq!(printed, arena::seeds::seat_seed(match_seed, seat as u8));
        assert_ne!(printed, match_seed, "seat {seat} was given the match seed");
        seeds.insert(printed);
    }
    assert_eq!(seeds.len(), 3, "two seats share a seed: {seeds:?}");
}
