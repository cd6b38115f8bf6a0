//! docs/results.md's column tables against the CSV files the `referee` binary really
//! writes: every header, in order, read from the tables of the document (parsed, not
//! copied here), for a La loi tournament (three seats), an Amazons one (two) and a
//! gauntlet's `pairs.csv`, whose rows are also checked against `matches.csv`.

use crate::common;

use std::collections::BTreeMap;
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
fn a_gauntlets_pairs_csv_is_the_documented_table() {
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
    check_pairs(&run, "greedy", "random");
    common::remove_dir(&dir);
}

/// Every row of a gauntlet's `pairs.csv` says what the documented table says, checked
/// against `matches.csv`: pair `k` is matches `2k` (the candidate) and `2k + 1` (the
/// baseline), on the row's seed, each in the row's seat, with their points and scores,
/// and the differences.
fn check_pairs(run: &Path, candidate: &str, baseline: &str) {
    let matches: BTreeMap<u64, BTreeMap<String, String>> =
        common::tables::table(&run.join("matches.csv"))
            .into_iter()
            .map(|r| (r["id"].parse().unwrap(), r))
            .collect();
    let pairs = common::tables::table(&run.join("pairs.csv"));
    assert!(!pairs.is_empty());
    let number = |r: &BTreeMap<String, String>, column: &str| -> i64 {
        r[column]
            .parse()
            .unwrap_or_else(|_| panic!("{column}: {r:?}"))
    };
    for (k, pair) in pairs.iter().enumerate() {
        let k = k as i64;
        assert_eq!(number(pair, "pair"), k);
        let seat = pair["seat"].clone();
        let mut points = Vec::new();
        let mut scores = Vec::new();
        for (side, who, id) in [
            ("candidate", candidate, 2 * k),
            ("baseline", baseline, 2 * k + 1),
        ] {
            assert_eq!(number(pair, &format!("{side}_match")), id, "{pair:?}");
            let played = &matches[&(id as u64)];
            assert_eq!(played["seed"], pair["seed"], "{pair:?} {played:?}");
            assert_eq!(
                played[&format!("champion{seat}")],
                who,
                "{pair:?} {played:?}"
            );
            points.push(number(played, &format!("points{seat}")));
            scores.push(number(played, &format!("score{seat}")));
            assert_eq!(
                number(pair, &format!("{side}_points")),
                points[points.len() - 1]
            );
            assert_eq!(
                number(pair, &format!("{side}_score")),
                scores[scores.len() - 1]
            );
        }
        assert_eq!(
            number(pair, "diff_points"),
            points[0] - points[1],
            "{pair:?}"
        );
        assert_eq!(
            number(pair, "diff_score"),
            scores[0] - scores[1],
            "{pair:?}"
        );
    }
}
