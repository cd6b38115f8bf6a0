//! What `--resume` says of a match whose record or seal a crash left empty or missing
//! behind its row (records are not synced to the disk before their row), through the
//! binary: that the referee probably stopped while writing it, and how to play it again,
//! not that someone edited the files.

use crate::common;

use std::path::Path;

use crate::tournament_t as tournament;

#[test]
fn a_torn_record_or_seal_is_named_as_a_crash_with_its_fix() {
    let dir = common::fresh_dir("torn_records", "resume");
    let passive = common::passive();
    common::run_ok(tournament(
        &dir,
        &["random", "greedy", &passive, "--rounds", "1"],
    ));
    let run = dir.join("t");
    let record = run.join("matches/0/record.json");
    let seal = run.join("matches/0/mac");
    let genuine = (
        std::fs::read(&record).unwrap(),
        std::fs::read(&seal).unwrap(),
    );
    let cases: [(&str, &Path, bool); 4] = [
        ("an empty record", &record, true),
        ("a missing record", &record, false),
        ("an empty seal", &seal, true),
        ("a missing seal", &seal, false),
    ];
    for (case, file, empty) in cases {
        if empty {
            std::fs::write(file, b"").unwrap();
        } else {
            std::fs::remove_file(file).unwrap();
        }
        let refused = tournament(&dir, &["--resume"]).output().unwrap();
        let said = common::text(&refused.stderr);
        assert_eq!(refused.status.code(), Some(2), "{case}: {said}");
        let state = if empty { "is empty" } else { "is missing" };
        assert!(
            said.contains(&format!("{} {state}", file.display()))
                && said.contains("probably stopped while writing it")
                && said.contains("--resume"),
            "{case}: not named as a crash while writing, with its fix: {said}"
        );
        assert!(
            !said.contains("is not what the referee wrote"),
            "{case}: said to be edited: {said}"
        );
        std::fs::write(&record, &genuine.0).unwrap();
        std::fs::write(&seal, &genuine.1).unwrap();
    }
    common::run_ok(tournament(&dir, &["--resume"]));
    common::remove_dir(&dir);
}
