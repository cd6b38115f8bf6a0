//! Names in a match tell its champions apart, as in a tournament: `c/random`,
//! `python/random` and the built-in `random` in one match are three names in the table, the
//! record and the default results folder (one folder, not nested ones). And the command a
//! match prints to play it again names what else it was played with: the interpreter
//! variable of the referee's environment that reaches the champions.

use crate::common;

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

/// `PROLOGIN_PYTHON` (the Python kit's interpreter) reaches every champion from the
/// referee's environment: the reproduce command sets it first, shell-quoted, so that the
/// pasted command plays with the same interpreter; without it, the command starts with
/// the program.
#[test]
fn the_reproduce_command_sets_the_interpreter_it_was_played_with() {
    let dir = common::fresh_dir("match", "interpreter");
    for (value, start) in [
        (
            Some("my python"),
            format!("reproduce: PROLOGIN_PYTHON='my python' {REFEREE} match "),
        ),
        (None, format!("reproduce: {REFEREE} match ")),
    ] {
        let mut command = Command::new(REFEREE);
        command
            .args([
                "match", "random", "greedy", "random", "--seed", "3", "--out",
            ])
            .arg(dir.join(value.map_or("without", |_| "with")))
            .env_remove("PROLOGIN_PYTHON");
        if let Some(value) = value {
            command.env("PROLOGIN_PYTHON", value);
        }
        let out = command.output().unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{said}");
        assert!(
            said.lines().any(|l| l.starts_with(&start)),
            "{start}\n{said}"
        );
    }
}
