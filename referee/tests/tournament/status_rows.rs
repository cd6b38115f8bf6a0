//! `referee status` of a `matches.csv` with rows repeated or not of the run's schedule,
//! through the binary: it counts distinct scheduled matches only, says how many rows it
//! left out and why, and never calls such a run finished.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn referee(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let mut command = Command::new(REFEREE);
    command
        .args(args)
        .env_remove(referee::reproduce_log::VARIABLE)
        .stdin(Stdio::null());
    common::run_ok(command)
}

#[test]
fn status_counts_distinct_scheduled_matches_and_names_the_other_rows() {
    let dir = common::fresh_dir("status_rows", "repeated");
    let passive = common::passive();
    referee(&[
        "tournament".as_ref(),
        "random".as_ref(),
        "greedy".as_ref(),
        passive.as_ref(),
        "--rounds".as_ref(),
        "4".as_ref(),
        "--seed".as_ref(),
        "5".as_ref(),
        "--name".as_ref(),
        "t".as_ref(),
        "--results".as_ref(),
        dir.as_os_str(),
    ]);
    let run = dir.join("t");
    let csv = run.join("matches.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let total = lines.len() - 1;
    assert!(total >= 3, "too few matches to show anything: {text}");
    // The red team's file: every match but the first removed, the first repeated, and a
    // row of a match the schedule does not have.
    let first = lines[1];
    let (_, rest) = first.split_once(',').unwrap();
    let mut forged = format!("{}\n", lines[0]);
    for _ in 0..total {
        forged += &format!("{first}\n");
    }
    forged += &format!("999999,{rest}\n");
    std::fs::write(&csv, forged).unwrap();
    let status = |dir: &Path| common::text(&referee(&["status".as_ref(), dir.as_os_str()]).stdout);
    let said = status(&run);
    assert!(
        said.contains(&format!(": 1/{total} matches,")),
        "THE ATTACK WORKED: status counts rows, not distinct scheduled matches: {said}"
    );
    assert!(
        !said.contains("finished"),
        "THE ATTACK WORKED: a run of one match played is called finished: {said}"
    );
    assert!(
        said.contains(&format!(
            "{} repeated row(s) and 1 row(s) not of this run's schedule",
            total - 1
        )) && said.contains("no record or seal was checked"),
        "status does not say which rows it left out: {said}"
    );
    common::remove_dir(&dir);
}
