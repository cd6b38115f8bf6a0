//! The Amazons replay page without a browser: `referee --game amazons match A B --html`
//! writes it beside the record, self-contained, holding every move and the board after each
//! one as the `amazons` crate computes it, and champion names that cannot inject markup.

use crate::common;

use amazons::{Board, Cell, Color, Move, Square};
use arena::GameRecord;
use referee::view::amazons_html;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn play(dir: &Path, champions: [&str; 2], seed: u64) -> (Output, GameRecord) {
    let out = Command::new(REFEREE)
        .args(["--game", "amazons", "match"])
        .args(champions)
        .args(["--seed", &seed.to_string(), "--html", "--out"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let record = serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap();
    (out, record)
}

/// The board after each move of `record`, written as the page should show it, computed
/// here with the `amazons` crate.
fn expected_boards(record: &GameRecord) -> Vec<String> {
    let text = |board: &Board| -> String {
        Square::all()
            .map(|s| match board.cell(s) {
                Cell::Empty => '.',
                Cell::Amazon(Color::White) => 'W',
                Cell::Amazon(Color::Black) => 'B',
                Cell::Arrow => 'x',
            })
            .collect()
    };
    let mut board = Board::start();
    let mut boards = vec![text(&board)];
    for m in &common::amazons::moves(record) {
        board.play(m.parse::<Move>().unwrap()).unwrap();
        boards.push(text(&board));
    }
    boards
}

/// The JSON the page's script reads.
fn page_data(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"amazons\">";
    let start = page.find(open).expect("the data element") + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

#[test]
fn match_html_writes_a_page_with_every_move_and_board() {
    let dir = common::fresh_dir("amazons-view", "match");
    let (out, record) = play(&dir, ["mobility", "random"], 11);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let path = dir.join("replay.html");
    assert!(
        stdout.contains(&format!("replay: {}", path.display())),
        "{stdout}"
    );
    let page = std::fs::read_to_string(&path).unwrap();
    assert_eq!(page, amazons_html::page_in(&record, Some(&dir)).unwrap());
    assert!(common::amazons::moves(&record).len() > 10 && record.faults.is_empty());
    assert!(
        common::amazons::isolated_after(&record).is_some(),
        "seed 11 isolates the amazons"
    );

    // No network: nothing is loaded from elsewhere.
    for needle in ["http://", "https://", "src=", "<link", "@import"] {
        let hits: Vec<_> = page
            .match_indices(needle)
            .map(|(i, _)| &page[i.saturating_sub(20)..(i + 40).min(page.len())])
            .collect();
        assert!(
            hits.iter().all(|h| h.contains("www.w3.org/2000/svg")),
            "{needle}: {hits:?}"
        );
    }

    let data = page_data(&page);
    let moves: Vec<&str> = data["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves, common::amazons::moves(&record));
    for m in &common::amazons::moves(&record) {
        assert!(page.contains(&format!("\"{m}\"")), "{m}");
    }
    let boards: Vec<&str> = data["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    assert_eq!(boards, expected_boards(&record));
    for (i, m) in common::amazons::moves(&record).iter().enumerate() {
        let m: Move = m.parse().unwrap();
        let expected = serde_json::json!([m.from.index(), m.to.index(), m.arrow.index()]);
        assert_eq!(data["marks"][i], expected, "move {}", i + 1);
    }
    assert_eq!(
        data["isolated_after"],
        serde_json::json!(common::amazons::isolated_after(&record))
    );
    assert_eq!(
        data["winner"],
        serde_json::json!(common::amazons::winner(&record))
    );
    assert_eq!(data["seats"][0]["name"], "mobility");
    assert_eq!(data["seats"][1]["name"], "random");
    assert_eq!(data["stuck"], true);
}

#[test]
fn a_champion_named_like_markup_injects_none() {
    let dir = common::fresh_dir("amazons-view", "script");
    let name = "<script>alert(1)<!--";
    let champion = common::amazons_crashing_champion(&dir, name, 4);
    let (out, record) = play(&dir.join("m"), ["random", champion.to_str().unwrap()], 3);
    assert_eq!(record.seats[1].name, name, "the name is the file's");
    assert_eq!(common::amazons::winner(&record), Some(0));
    let page = std::fs::read_to_string(dir.join("m/replay.html")).unwrap();
    // The template's four <script> elements (the board's and the console's data and
    // code), and no markup from the name.
    assert_eq!(page.matches("<script").count(), 4, "{page}");
    assert_eq!(page.matches("</script>").count(), 4);
    assert!(!page.contains("<!--"));
    assert!(!page.contains("alert(1)<"));
    assert!(
        page.contains("<title>random (White) vs &lt;script&gt;alert(1)&lt;!-- (Black)"),
        "{}",
        &page[..400]
    );
    // The JSON keeps the exact name; the fault is there with the step where it happened.
    let data = page_data(&page);
    assert_eq!(data["seats"][1]["name"], name);
    let fault = &record.faults[0];
    assert_eq!(record.faults.len(), 1, "{:?}", record.faults);
    assert_eq!(data["faults"][0]["seat"], 1);
    assert_eq!(data["faults"][0]["kind"], "crash");
    assert_eq!(data["faults"][0]["step"], record.fault_steps()[0] as u64);
    assert_eq!(data["faults"][0]["step"], 9, "4 moves each, then White's");
    assert_eq!(data["faults"][0]["message"], fault.message.as_str());
    assert!(String::from_utf8_lossy(&out.stdout).contains("replay: "));
}

#[test]
fn a_record_whose_moves_do_not_replay_has_no_page() {
    let dir = common::fresh_dir("amazons-view", "tampered");
    let (_, mut record) = play(&dir, ["random", "random"], 2);
    // The fourth move (callback 6: two init_game, then one jouer a move).
    let game::Step::Act { action, .. } = &mut record.callbacks[5].steps[0] else {
        panic!("a move: {:?}", record.callbacks[5])
    };
    *action = "a1-a2/a3".into();
    let err = amazons_html::page(&record).unwrap_err();
    assert!(
        format!("{err:#}").contains("callback 6 (`jouer` of seat 1)"),
        "{err:#}"
    );
}

#[test]
fn the_options_of_the_2009_game_are_still_refused() {
    for flag in [
        ["--monuments", "0,1,2,3,4,5,6,7,8,9,10,11,12,13"],
        ["--first-player", "1"],
    ] {
        let out = Command::new(REFEREE)
            .args(["--game", "amazons", "match", "random", "random", "--html"])
            .args(flag)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("La loi du plus riche, not of The Game")
        );
    }
}
