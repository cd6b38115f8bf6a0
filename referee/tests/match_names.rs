//! Names in a match tell its champions apart, as in a tournament: `c/random`,
//! `python/random` and the built-in `random` in one match are three names in the table, the
//! record and the default results folder (one folder, not nested ones).

mod common;

use std::path::Path;
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

#[test]
fn three_champions_named_random_get_three_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = common::fresh_dir("match", "names");
    let out = Command::new(REFEREE)
        .args([
            "match",
            "../champions/c/random",
            "../champions/python/random",
            "random",
            "--seed",
            "5",
            "--time-scale",
            "2",
        ])
        .current_dir(root.join("referee"))
        .env("TMPDIR", &dir)
        .arg("--out")
        .arg(dir.join("m"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (seat, name) in ["c/random", "python/random", "random"].iter().enumerate() {
        assert!(
            said.lines()
                .any(|l| l.starts_with(&format!("{seat} ")) && l.contains(name)),
            "seat {seat} is not `{name}`:\n{said}"
        );
    }
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("m/record.json")).unwrap()).unwrap();
    let names: Vec<&str> = record["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["c/random", "python/random", "random"]);

    // Without --out: one folder under results/matches, its name from the names.
    let out = Command::new(REFEREE)
        .args([
            "match",
            &root.join("champions/c/random").display().to_string(),
            &root.join("champions/python/random").display().to_string(),
            "random",
            "--seed",
            "5",
            "--time-scale",
            "2",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(dir
        .join("results/matches/5-c_random-python_random-random/record.json")
        .is_file());
}
