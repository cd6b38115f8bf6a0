//! Results that whoever can write them, but not read the organiser's key, cannot forge
//! (issue 26, item 6), through the binary: a shard's record and row rewritten so that they
//! agree and replay (the red team's forgery), a record moved from another match or another
//! tournament, a MAC removed to pass for a run started before keys, a row dropped to have a
//! match played again; each refused by `merge` and `--resume`, naming the file. A run
//! started without a key (as before this change) still resumes and merges, saying once
//! that it is not authenticated. The attacker is `tests/fixtures/forge/forge.py`: files
//! only, no referee code.
//!
//! The key of a run is the default one of its results folder, in the `XDG_STATE_HOME` the
//! tests set (`common::state_home`), unless a test gives `--key`.

use crate::common;

use common::shell_champion as shell;
use common::tables::{delete_match, journals};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// random, greedy, passive.sh, builder.sh: four matches, two a shard.
fn four() -> Vec<String> {
    vec![
        "random".into(),
        "greedy".into(),
        shell("passive.sh"),
        shell("builder.sh"),
    ]
}

/// `referee tournament CHAMPIONS --name NAME --seed 77 --results RESULTS EXTRA`.
fn tournament(results: &Path, name: &str, champions: &[String], extra: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .arg("tournament")
        .args(champions)
        .args([
            "--name",
            name,
            "--seed",
            "77",
            "--time-scale",
            "2",
            "--jobs",
            "2",
        ])
        .arg("--results")
        .arg(results)
        .args(extra)
        .stdin(Stdio::null());
    command
}

/// Tournament `t` of [`four`] in `results`, as shards 1/2 and 2/2, with `extra` flags.
fn shards(results: &Path, extra: &[&str]) -> PathBuf {
    for shard in ["1/2", "2/2"] {
        let flags = [extra, &["--shard", shard]].concat();
        common::run_ok(tournament(results, "t", &four(), &flags));
    }
    results.join("t")
}

/// `referee merge` of the two shards of `t`, with `extra` flags.
fn merge(t: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(REFEREE);
    command
        .arg("merge")
        .arg(t.join("shard-1-of-2"))
        .arg(t.join("shard-2-of-2"))
        .args(extra)
        .stdin(Stdio::null());
    command
}

/// `--resume` of shard `shard` (`1/2`) of `t` in `results`, with `extra` flags.
fn resume(results: &Path, shard: &str, extra: &[&str]) -> Command {
    let flags = [extra, &["--resume", "--shard", shard]].concat();
    tournament(results, "t", &[], &flags)
}

/// Runs the attacker's `forge.py` with `args`.
fn forge(args: &[&str]) {
    let script = repo().join("referee/tests/fixtures/forge/forge.py");
    common::run_ok({
        let mut c = Command::new("python3");
        c.arg(script).args(args);
        c
    });
}

/// Refused with exit 2, every one of `needles` in its stderr, which is returned.
fn refused(mut command: Command, needles: &[&str]) -> String {
    let out: Output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "not refused:\n{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "`{needle}` not in:\n{stderr}");
    }
    stderr
}

/// A copy of the tournament folder `t` as `to` (its shards, their records and seals).
fn copy(t: &Path, to: &Path) -> PathBuf {
    let ok = Command::new("cp")
        .arg("-a")
        .arg(t)
        .arg(to)
        .status()
        .unwrap()
        .success();
    assert!(ok, "cannot copy {}", t.display());
    to.to_path_buf()
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

/// The red team's forgery: match 0 of shard 1 rewritten from the attacker's own run of the
/// same tournament (greedy's seat held by a copy of passive.sh, passive.sh's by a copy of
/// builder.sh, their names kept), its record patched to name the real champions and its row
/// to agree with it. The records replay and the rows agree with them, so a merge without
/// keys took it, and greedy's win of match 0 went to random (first place changed hands).
/// Now `merge` and the shard's `--resume` refuse it, naming the record.
#[test]
fn a_forged_shard_is_refused_by_merge_and_by_resume() {
    let dir = common::fresh_dir("signed", "forged");
    let results = dir.join("results");
    let t = shards(&results, &[]);
    let evil = dir.join("evil");
    std::fs::create_dir_all(&evil).unwrap();
    // Another program under a genuine champion's name (a program cannot pass for a
    // built-in: it would be `evil/greedy`).
    std::fs::copy(shell("builder.sh"), evil.join("passive.sh")).unwrap();
    let donor = dir.join("donor");
    let donors = [
        "random".to_string(),
        "greedy".to_string(),
        display(&evil.join("passive.sh")),
        shell("builder.sh"),
    ];
    common::run_ok(tournament(&donor, "t", &donors, &[]));
    let shard = t.join("shard-1-of-2");
    forge(&["rewrite", &display(&shard), &display(&donor.join("t")), "0"]);
    let record = display(&shard.join("matches/0/record.json"));
    refused(merge(&t, &[]), &[&record, "does not match its MAC"]);
    assert!(
        !t.join("leaderboard.csv").exists(),
        "THE ATTACK WORKED: the forged shard was merged"
    );
    refused(
        resume(&results, "1/2", &[]),
        &["--resume", &record, "does not match its MAC"],
    );
}

/// A genuine record and its seal, moved whole (with its row) from another tournament of
/// the same champions and seed under the same `--key` (it replays, and its row agrees with
/// it: a merge without keys took it), or from another match of the same shard: refused,
/// naming the seal, since each MAC is bound to the tournament's name and seed and to the
/// match's id.
#[test]
fn a_record_moved_from_another_match_or_tournament_is_refused() {
    let dir = common::fresh_dir("signed", "moved");
    let results = dir.join("results");
    let private = dir.join("private");
    let key = private.join("final.key");
    let key_flag = ["--key", &display(&key)];
    let t = shards(&results, &key_flag);
    common::run_ok(tournament(&results, "u", &four(), &key_flag));
    let key_mode = std::fs::metadata(&key).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&key_mode.permissions()) & 0o777,
        0o600
    );

    // From tournament u, match 0 into t's shard 1.
    let other = copy(&t, &dir.join("other"));
    let shard = other.join("shard-1-of-2");
    forge(&["move", &display(&results.join("u")), &display(&shard), "0"]);
    refused(
        merge(&other, &key_flag),
        &[
            &display(&shard.join("matches/0/mac")),
            "does not verify for match 0",
        ],
    );

    // Within shard 1, the record of match 2 and its seal in the place of match 0's.
    let swapped = copy(&t, &dir.join("swapped"));
    let shard = swapped.join("shard-1-of-2");
    for file in ["record.json", "mac"] {
        std::fs::copy(
            shard.join("matches/2").join(file),
            shard.join("matches/0").join(file),
        )
        .unwrap();
    }
    refused(
        merge(&swapped, &key_flag),
        &[&display(&shard.join("matches/0/mac"))],
    );
    common::run_ok(merge(&t, &key_flag));
}

/// A MAC removed does not make an authenticated run pass for one started before keys: a
/// match's seal, `tournament.json.mac`, or every MAC of the run, each refused by merge and
/// resume, naming what is missing; and an authenticated run whose key is not found is
/// refused, naming how to give it.
#[test]
fn a_removed_mac_is_refused_not_taken_for_an_older_run() {
    let dir = common::fresh_dir("signed", "removed");
    let results = dir.join("results");
    let t = shards(&results, &[]);
    let backup = copy(&t, &dir.join("backup"));
    let restore = || {
        std::fs::remove_dir_all(&t).unwrap();
        copy(&backup, &t);
    };
    let shard = t.join("shard-1-of-2");

    std::fs::remove_file(shard.join("matches/2/mac")).unwrap();
    let seal = display(&shard.join("matches/2/mac"));
    refused(merge(&t, &[]), &[&seal, "is missing"]);
    refused(resume(&results, "1/2", &[]), &[&seal, "is missing"]);
    restore();

    std::fs::remove_file(shard.join("tournament.json.mac")).unwrap();
    let mac = display(&shard.join("tournament.json.mac"));
    refused(merge(&t, &[]), &[&mac, "is missing"]);
    refused(resume(&results, "1/2", &[]), &[&mac, "is missing"]);
    restore();

    strip_macs(&t);
    refused(merge(&t, &[]), &["has no MAC", "its key exists"]);
    refused(
        resume(&results, "1/2", &[]),
        &["has no MAC", "its key exists"],
    );
    restore();

    let key = common::default_key(&t);
    std::fs::rename(&key, key.with_extension("away")).unwrap();
    refused(
        merge(&t, &[]),
        &["its key is not at", "--key FILE or REFEREE_KEY=FILE"],
    );
    refused(
        resume(&results, "1/2", &[]),
        &["--key FILE or REFEREE_KEY=FILE"],
    );
    std::fs::rename(key.with_extension("away"), &key).unwrap();
    common::run_ok(merge(&t, &[]));
}

/// Removes every MAC of the tournament folder `t`: `tournament.json.mac` and the matches'
/// seals of each shard.
fn strip_macs(t: &Path) {
    for shard in ["shard-1-of-2", "shard-2-of-2"] {
        let shard = t.join(shard);
        std::fs::remove_file(shard.join("tournament.json.mac")).unwrap();
        for m in std::fs::read_dir(shard.join("matches")).unwrap() {
            std::fs::remove_file(m.unwrap().path().join("mac")).unwrap();
        }
    }
}

/// A run started before this change has no key and no MAC (its files are otherwise the
/// same): its resume plays its missing match and its merge takes it, each saying once that
/// it is not authenticated; a resume does not start signing it half-way.
#[test]
fn a_run_started_without_a_key_resumes_and_merges_saying_so_once() {
    let dir = common::fresh_dir("signed", "older");
    let results = dir.join("results");
    let t = shards(&results, &[]);
    common::without_keys(&t);
    let shard = t.join("shard-1-of-2");
    let csv = std::fs::read_to_string(shard.join("matches.csv")).unwrap();
    let kept: Vec<&str> = csv.lines().filter(|l| !l.starts_with("2,")).collect();
    std::fs::write(shard.join("matches.csv"), kept.join("\n") + "\n").unwrap();
    std::fs::remove_dir_all(shard.join("matches/2")).unwrap();

    let out = common::run_ok(resume(&results, "1/2", &[]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("not authenticated").count(), 1, "{stderr}");
    assert!(stderr.contains("played 1 matches"), "{stderr}");
    assert!(
        !shard.join("matches/2/mac").exists(),
        "an older run signed half-way"
    );
    let out = common::run_ok(merge(&t, &[]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("not authenticated").count(), 1, "{stderr}");
    assert!(t.join("leaderboard.csv").exists());
}

/// A row dropped from a shard's `matches.csv` (to have a lost match played again): the
/// merge refuses the shard as incomplete, and its resume puts the row back from the match's
/// seal instead of playing the match again (its record stays as it was).
#[test]
fn a_dropped_row_comes_back_from_its_seal_and_is_not_played_again() {
    let dir = common::fresh_dir("signed", "dropped");
    let results = dir.join("results");
    let t = shards(&results, &[]);
    let shard = t.join("shard-1-of-2");
    let record = std::fs::read(shard.join("matches/2/record.json")).unwrap();
    let csv = std::fs::read_to_string(shard.join("matches.csv")).unwrap();
    let kept: Vec<&str> = csv.lines().filter(|l| !l.starts_with("2,")).collect();
    std::fs::write(shard.join("matches.csv"), kept.join("\n") + "\n").unwrap();
    refused(
        merge(&t, &[]),
        &["incomplete: shard 1/2", "has 1 of its 2 matches"],
    );
    let out = common::run_ok(resume(&results, "1/2", &[]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("restored the rows of 1 match(es)") && stderr.contains("played 0 matches"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(shard.join("matches/2/record.json")).unwrap(),
        record,
        "the dropped match was played again"
    );
    common::run_ok(merge(&t, &[]));
}

/// A gauntlet's files are authenticated the same way: `gauntlet.json` edited (a legal
/// value) or a match's seal removed is refused by its resume, naming the file.
#[test]
fn an_edited_gauntlet_is_refused_by_its_resume() {
    let dir = common::fresh_dir("signed", "gauntlet");
    let results = dir.join("results");
    let gauntlet = |extra: &[&str]| {
        let mut c = Command::new(REFEREE);
        c.args(["--game", "amazons", "gauntlet"])
            .args(extra)
            .args([
                "--seed",
                "7",
                "--name",
                "g",
                "--max-pairs",
                "10",
                "--results",
            ])
            .arg(&results)
            .stdin(Stdio::null());
        c
    };
    common::run_ok(gauntlet(&["mobility", "random"]));
    let g = results.join("g");
    common::run_ok(gauntlet(&["--resume"]));
    let spec = g.join("gauntlet.json");
    let original = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(&spec, original.replace("\"alpha\": 0.05", "\"alpha\": 0.2")).unwrap();
    refused(
        gauntlet(&["--resume"]),
        &[&display(&spec), "does not match its MAC"],
    );
    std::fs::write(&spec, &original).unwrap();
    std::fs::remove_file(g.join("matches/3/mac")).unwrap();
    refused(
        gauntlet(&["--resume"]),
        &[&display(&g.join("matches/3/mac")), "is missing"],
    );
}

/// The red team's race: `matches.csv` checked against the seals, then swapped for a forged
/// one (scores and points of a match exchanged) before the referee writes the leaderboard.
/// The swap is made by the test's hook, right after the check (debug builds run it:
/// `REFEREE_TEST_AFTER_CHECK`). `merge` reads each file once and writes what it checked:
/// the swap changes nothing. The shard's `--resume` reads the file again once its matches
/// are played, and refuses the forged row, naming the seal, since the standings are made of
/// the bytes the seals hold. A leaderboard is never written from the forged file.
#[test]
fn a_matches_csv_swapped_after_its_check_gives_nothing() {
    let dir = common::fresh_dir("signed", "toctou");
    let t = shards(&dir.join("results"), &[]);
    // The forgery: the first row's two places, two scores and two points exchanged.
    let csv = t.join("shard-1-of-2/matches.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut fields: Vec<String> = lines[1].split(',').map(String::from).collect();
    // id seed first_player champion0..2 place0..2 score0..2 points0..2 ...
    assert!(text.starts_with("id,seed,first_player,champion0,champion1,champion2,place0,place1,place2,score0,score1,score2,points0,points1"));
    fields.swap(6, 7);
    fields.swap(9, 10);
    fields.swap(12, 13);
    assert_ne!(fields.join(","), lines[1], "the forgery changes the row");
    lines[1] = fields.join(",");
    let forged = dir.join("forged.csv");
    std::fs::write(&forged, lines.join("\n") + "\n").unwrap();
    let hook = dir.join("swap.sh");
    std::fs::write(
        &hook,
        format!("#!/bin/sh\ncp '{}' '{}'\n", forged.display(), csv.display()),
    )
    .unwrap();
    common::chmod(&hook, 0o755);
    let mut command = merge(&t, &[]);
    command.env("REFEREE_TEST_AFTER_CHECK", &hook);
    common::run_ok(command);
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        lines.join("\n") + "\n",
        "the hook did not swap the file"
    );
    let merged = std::fs::read_to_string(t.join("matches.csv")).unwrap();
    assert!(
        !merged.contains(&lines[1]),
        "THE ATTACK WORKED (merge): the forged row was taken:\n{merged}"
    );
    std::fs::write(&csv, &text).unwrap();
    std::fs::remove_file(t.join("leaderboard.csv")).unwrap();
    let mut command = resume(&dir.join("results"), "1/2", &[]);
    command.env("REFEREE_TEST_AFTER_CHECK", &hook);
    let out = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        !out.status.success() && stderr.contains("is not the one the referee wrote"),
        "THE ATTACK WORKED (resume): the swapped file was taken:\n{stderr}"
    );
    assert!(
        !t.join("leaderboard.csv").exists(),
        "resume: a leaderboard was written from the forged file:\n{stderr}"
    );
    // Without the swap, both go through.
    std::fs::write(&csv, &text).unwrap();
    common::run_ok(resume(&dir.join("results"), "1/2", &[]));
    common::run_ok(merge(&t, &[]));
    common::remove_dir(&dir);
}

/// The re-roll: a match's folder and its row deleted, so that nothing is left for a MAC to
/// refuse and `--resume` would play it again for another result (a champion whose play is
/// not deterministic is re-rolled until it wins). The run's journal beside the key says it
/// was played: `--resume` refuses, naming the match and the journal, and plays nothing;
/// `merge --partial` of shards refuses the same. A run whose journal is not there (begun
/// before journals) resumes, saying that it begins one, and is then held to it.
#[test]
fn a_match_deleted_to_be_played_again_is_refused_by_resume_and_merge() {
    let dir = common::fresh_dir("signed", "reroll");
    let results = dir.join("results");
    let key = dir.join("private/final.key");
    let key_flag = ["--key", &display(&key)];
    common::run_ok(tournament(&results, "r", &four(), &key_flag));
    let run = results.join("r");
    assert_eq!(journals(&key).len(), 1, "one journal beside the key");
    delete_match(&run, "1");
    let resume_r = || tournament(&results, "r", &[], &[&key_flag[..], &["--resume"]].concat());
    let said = refused(
        resume_r(),
        &[
            "were played, as the run's journal",
            ": 1 (deleted",
            "--name",
        ],
    );
    assert!(said.contains(&display(&journals(&key)[0])), "{said}");
    assert!(
        !run.join("matches/1").exists(),
        "the match was played again"
    );

    // Shards: each its journal; a shard's match deleted is refused by merge, --partial too.
    let t = shards(&results, &key_flag);
    assert_eq!(journals(&key).len(), 3, "a journal a shard");
    let shard = t.join("shard-2-of-2");
    let csv = std::fs::read_to_string(shard.join("matches.csv")).unwrap();
    let id = csv.lines().nth(1).unwrap().split(',').next().unwrap();
    delete_match(&shard, id);
    let gone = format!(": {id} (deleted");
    refused(
        merge(&t, &[&key_flag[..], &["--partial"]].concat()),
        &[&gone, "shard 2/2"],
    );
    refused(resume(&results, "2/2", &key_flag), &[&gone]);

    // Begun before journals: resumed with a note, then held to the journal it begins.
    let older = results.join("older");
    common::run_ok(tournament(&results, "older", &four(), &key_flag));
    for journal in journals(&key) {
        let _ = std::fs::remove_file(journal);
    }
    let out = common::run_ok(tournament(
        &results,
        "older",
        &[],
        &[&key_flag[..], &["--resume"]].concat(),
    ));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("no journal of the matches played") && said.contains("played 0 matches"),
        "{said}"
    );
    delete_match(&older, "0");
    refused(
        tournament(
            &results,
            "older",
            &[],
            &[&key_flag[..], &["--resume"]].concat(),
        ),
        &[": 0 (deleted"],
    );
}
