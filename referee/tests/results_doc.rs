//! docs/results.md's column tables against the CSV files the `referee` binary really
//! writes: every header, in order, read from the tables of the document (parsed, not
//! copied here), for a La loi tournament (three seats), an Amazons one (two) and a
//! gauntlet's `pairs.csv`.

mod common;

use std::path::Path;
use std::process::Command;

fn doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/results.md"))
        .unwrap()
}

/// The column names of the first table after `heading` (a line of the document that
/// starts with it), seats expanded: a cell's backquoted names, `<s>` replaced by each seat
/// in `0..seats` in turn.
fn documented_columns(doc: &str, heading: &str, seats: usize) -> Vec<String> {
    let start = doc
        .lines()
        .position(|l| l.starts_with(heading))
        .unwrap_or_else(|| panic!("docs/results.md has no line starting with {heading:?}"));
    let rows = doc
        .lines()
        .skip(start)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2); // the header row and the |---| line
    let mut columns = Vec::new();
    for row in rows {
        let cell = row.split('|').nth(1).unwrap();
        for name in cell.split('`').skip(1).step_by(2) {
            if name.contains("<s>") {
                columns.extend((0..seats).map(|s| name.replace("<s>", &s.to_string())));
            } else {
                columns.push(name.to_string());
            }
        }
    }
    assert!(!columns.is_empty(), "no table after {heading:?}");
    columns
}

fn header(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let first = text.lines().next().expect("a header line");
    first.split(',').map(str::to_string).collect()
}

fn referee(args: &[&str], dir: &Path) {
    let output = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .arg("--results")
        .arg(dir)
        .args(["--name", "run", "--seed", "5", "--time-scale", "2"])
        .output()
        .expect("the referee runs");
    assert!(
        output.status.success(),
        "referee {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn check_tournament(dir: &Path, seats: usize) {
    let doc = doc();
    let run = dir.join("run");
    for (file, heading) in [
        ("matches.csv", "## `matches.csv`"),
        ("leaderboard.csv", "## `leaderboard.csv`"),
        ("seats.csv", "## `seats.csv`"),
        ("pairwise.csv", "## `pairwise.csv`"),
    ] {
        assert_eq!(
            header(&run.join(file)),
            documented_columns(&doc, heading, seats),
            "{file} and docs/results.md's table disagree"
        );
    }
}

#[test]
fn a_tournaments_csv_headers_are_the_documented_tables() {
    let dir = common::fresh_dir("results-doc", "loi");
    let passive = common::passive();
    referee(
        &["tournament", "random", "greedy", &passive, "--rounds", "1"],
        &dir,
    );
    check_tournament(&dir, 3);
    common::remove_dir(&dir);
}

#[test]
fn an_amazons_tournaments_csv_headers_are_the_documented_tables_for_two_seats() {
    let dir = common::fresh_dir("results-doc", "amazons");
    referee(
        &[
            "tournament",
            "--game",
            "amazons",
            "random",
            "mobility",
            "--rounds",
            "1",
        ],
        &dir,
    );
    check_tournament(&dir, 2);
    common::remove_dir(&dir);
}

#[test]
fn a_gauntlets_pairs_csv_header_is_the_documented_table() {
    let dir = common::fresh_dir("results-doc", "gauntlet");
    referee(
        &[
            "gauntlet",
            "greedy",
            "random",
            "--max-pairs",
            "10",
            "--jobs",
            "1",
        ],
        &dir,
    );
    let doc = doc();
    let run = dir.join("run");
    assert_eq!(
        header(&run.join("pairs.csv")),
        documented_columns(&doc, "| `pairs.csv` column", 3)
    );
    assert_eq!(
        header(&run.join("matches.csv")),
        documented_columns(&doc, "## `matches.csv`", 3)
    );
    common::remove_dir(&dir);
}
