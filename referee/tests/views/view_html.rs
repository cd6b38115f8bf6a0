//! The HTML views without a browser: the replay page is self-contained and carries a
//! timeline that agrees with the record; a tournament's index links every replay and each
//! champion's page, whatever the CSV files hold.

use crate::common;

use arena::GameRecord;
use referee::games::loi_play::LOI;
use referee::view::{index, loi_arena};
use std::path::{Path, PathBuf};
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn temp_dir(name: &str) -> PathBuf {
    common::fresh_dir("view-html", name)
}

/// The record of the 2009 match in `dir`, checked.
fn load(dir: &Path) -> GameRecord {
    common::loi::load_in(dir)
}

#[test]
fn match_html_writes_a_self_contained_replay() {
    let dir = temp_dir("match");
    common::run_ok(
        Command::new(REFEREE)
            .args([
                "match", "random", "greedy", "random", "--seed", "11", "--html", "--out",
            ])
            .arg(&dir),
    );
    let page = std::fs::read_to_string(dir.join("replay.html")).unwrap();
    let record = load(&dir);
    assert_eq!(page, loi_arena::page(&record, Some(&dir)).unwrap());
    // No network: nothing is loaded from elsewhere.
    for needle in ["http://", "https://", "src=", "<link"] {
        let hits: Vec<_> = page
            .match_indices(needle)
            .map(|(i, _)| &page[i.saturating_sub(30)..(i + 40).min(page.len())])
            .collect();
        let allowed = |h: &&str| h.contains("www.w3.org/2000/svg") || h.contains("no-color.org");
        assert!(hits.iter().all(allowed), "{needle}: {hits:?}");
    }
    // The embedded timeline ends on the record's result, and no `</script>` leaks out of it.
    let start = page.find("id=\"timeline\">").unwrap() + "id=\"timeline\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    let json: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
    let steps = json["steps"].as_array().unwrap();
    let last = steps.last().unwrap();
    assert_eq!(last["final"], serde_json::json!(record.ranking.scores));
    assert_eq!(json["schema"], referee::view::timeline::TIMELINE_SCHEMA);
}

#[test]
fn timeline_changes_rebuild_the_final_board() {
    let dir = temp_dir("board");
    let out = Command::new(REFEREE)
        .args([
            "match", "greedy", "random", "greedy", "--seed", "4", "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let record = load(&dir);
    let timeline = loi_arena::timeline(&record).unwrap();
    let cells = timeline.cells_at(timeline.steps.len() - 1);
    let owned = |seat: i32| cells.iter().filter(|c| c[2] == 1 && c[3] == seat).count() as u32;
    assert_eq!(
        [owned(0), owned(1), owned(2)],
        common::loi::result(&record).houses
    );
    // Every request but each callback's `fin`, which the protocol does not count.
    let fins = record.actions().filter(|a| *a == "fin").count();
    let requests: usize = record
        .callbacks
        .iter()
        .map(|c| c.requests as usize)
        .sum::<usize>()
        - fins;
    let counted: usize = timeline
        .steps
        .iter()
        .map(|s| {
            s.actions.iter().map(|a| a.count as usize).sum::<usize>()
                + s.refused.iter().map(|r| r.2 as usize).sum::<usize>()
                + s.info as usize
        })
        .sum();
    assert_eq!(counted, requests);
    // The same match with every request kept gives the same timeline.
    let full = temp_dir("board-full");
    let out = Command::new(REFEREE)
        .args([
            "match",
            "greedy",
            "random",
            "greedy",
            "--seed",
            "4",
            "--full-log",
            "--out",
        ])
        .arg(&full)
        .output()
        .unwrap();
    assert!(out.status.success());
    let full = load(&full);
    assert_eq!(
        full.full_log.as_ref().map(|log| log.file.as_str()),
        Some(referee::full_log::FILE)
    );
    let compact = load(&dir);
    assert_eq!(
        full.callbacks, compact.callbacks,
        "the log is beside the record, not in it"
    );
    let again = loi_arena::timeline(&full).unwrap();
    assert_eq!(
        serde_json::to_string(&again).unwrap(),
        serde_json::to_string(&timeline).unwrap()
    );
}

#[test]
fn tournament_index_links_every_replay() {
    let dir = temp_dir("tournament");
    let matches = dir.join("matches");
    for (id, seed) in [("0", "21"), ("1", "22")] {
        let out = Command::new(REFEREE)
            .args([
                "match", "random", "greedy", "random", "--seed", seed, "--out",
            ])
            .arg(matches.join(id))
            .output()
            .unwrap();
        assert!(out.status.success());
    }
    std::fs::write(
        dir.join("leaderboard.csv"),
        "rank,champion,points,matches\n1,greedy,6,2\n2,random,1,4\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("pairwise.csv"),
        "champion,opponent,wins,losses\ngreedy,random,4,0\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("matches.csv"),
        "id,seed,champion0,champion1,champion2\n0,21,random,greedy,random\n1,22,random,greedy,random\n",
    )
    .unwrap();
    write_index(&dir);
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(index.contains(">Leaderboard</h2>") && index.contains(">Pairwise results</h2>"));
    assert!(index.contains("<td><a href=\"champions/greedy.html\">greedy</a></td>"));
    assert!(dir.join("champions/greedy.html").is_file());
    for id in ["0", "1"] {
        assert!(
            index.contains(&format!("href=\"matches/{id}/replay.html\"")),
            "{index}"
        );
        assert!(matches.join(id).join("replay.html").is_file());
    }
}

#[test]
fn tournament_index_shows_the_pairwise_matrix() {
    let dir = temp_dir("matrix");
    std::fs::write(
        dir.join("pairwise.csv"),
        "champion,opponent,met,ahead,tied,behind\n\
         greedy,random,4,3,1,0\ngreedy,builder,2,2,0,0\n\
         random,greedy,4,0,1,3\nrandom,builder,2,1,0,1\n\
         builder,greedy,2,0,0,2\nbuilder,random,2,1,0,1\n",
    )
    .unwrap();
    write_index(&dir);
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let matrix = &index[index.find("id=\"pairwise-matrix\"").expect("a matrix")..];
    let matrix = &matrix[..matrix.find("</table>").unwrap()];
    let row = |name: &str| {
        let start = matrix.find(&format!("<tr><th>{name}</th>")).unwrap();
        matrix[start..start + matrix[start..].find("</tr>").unwrap()].to_string()
    };
    // Each cell lists those matches: the head-to-head filter of the two.
    assert!(row("greedy").contains("href=\"#champion=greedy&amp;against=random\""));
    assert!(
        row("greedy").contains(">3 ahead, 0 behind, 1 tied<")
            && row("greedy").contains(">2 ahead, 0 behind<"),
        "{matrix}"
    );
    assert!(
        row("random").contains(">0 ahead, 3 behind, 1 tied<")
            && row("random").contains(">1 ahead, 1 behind<"),
        "{matrix}"
    );
}

/// A `matches.csv` field holding an absolute path is not a match directory (a match's is
/// `matches/<id>/`): the index writes no replay outside the tournament directory.
#[test]
fn tournament_index_stays_in_its_directory() {
    let dir = temp_dir("outside");
    let elsewhere = temp_dir("outside-match");
    let out = Command::new(REFEREE)
        .args([
            "match", "random", "greedy", "random", "--seed", "21", "--out",
        ])
        .arg(&elsewhere)
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(
        dir.join("matches.csv"),
        format!("id,where\n7,{}\n", elsewhere.display()),
    )
    .unwrap();
    write_index(&dir);
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(!index.contains("href=\"/"), "{index}");
    assert!(index.contains(">no record</td>"), "{index}");
    assert!(!elsewhere.join("replay.html").exists());
}

fn write_index(dir: &std::path::Path) {
    index::write(dir, &LOI, &index::Layout::default()).unwrap();
}
