//! `referee status` of a `matches.csv` with rows repeated or not of the run's schedule,
//! through the binary: it counts distinct scheduled matches only, says how many rows it
//! left out and why, and never calls such a run finished; a fault forged into a row, which
//! it cannot tell without the key, it counts but says that nothing was checked, while
//! `--resume` refuses the row.

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

/// The red team's forgery: a fault written into a genuine row (`,,,` to `,timeout,,`).
/// `status` reads rows without the organiser's key: it counts the fault as written, and its
/// last line says that no row was checked against the key; `--resume`, which has the key,
/// refuses the row, naming its seal.
#[test]
fn status_says_a_forged_fault_is_unverified_and_resume_refuses_it() {
    let dir = common::fresh_dir("status_rows", "forged-fault");
    let passive = common::passive();
    let args = |extra: &[&str]| -> Vec<std::ffi::OsString> {
        let mut v: Vec<std::ffi::OsString> = ["tournament", "random", "greedy", &passive]
            .iter()
            .chain(["--seed", "5", "--name", "t", "--results"].iter())
            .map(|s| s.into())
            .collect();
        v.push(dir.clone().into());
        v.extend(extra.iter().map(|s| s.into()));
        v
    };
    let first: Vec<std::ffi::OsString> = args(&[]);
    let first: Vec<&std::ffi::OsStr> = first.iter().map(|s| s.as_os_str()).collect();
    referee(&first);
    let run = dir.join("t");
    let csv = run.join("matches.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let mut row: Vec<String> = text
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .map(String::from)
        .collect();
    let faults = (0..3).map(|s| {
        header
            .iter()
            .position(|c| *c == format!("fault{s}"))
            .unwrap()
    });
    let faults: Vec<usize> = faults.collect();
    let before = faults.iter().filter(|&&c| !row[c].is_empty()).count();
    let clean = *faults
        .iter()
        .find(|&&c| row[c].is_empty())
        .expect("a seat without fault");
    row[clean] = "timeout".into();
    std::fs::write(&csv, format!("{}\n{}\n", header.join(","), row.join(","))).unwrap();
    let said = common::text(&referee(&["status".as_ref(), run.as_os_str()]).stdout);
    assert!(said.contains(&format!("faults {}", before + 1)), "{said}");
    assert!(
        said.contains(referee::commands::status::UNVERIFIED),
        "status counts a forged fault without saying that it checked nothing: {said}"
    );
    let again: Vec<std::ffi::OsString> = args(&["--resume"]);
    let resume = Command::new(REFEREE)
        .args(&again)
        .env_remove(referee::reproduce_log::VARIABLE)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let refused = common::text(&resume.stderr);
    assert_eq!(resume.status.code(), Some(2), "{refused}");
    assert!(refused.contains("matches.csv"), "{refused}");
    common::remove_dir(&dir);
}
