//! Little Town's replay page (`match --html`), in a real browser (headless Chromium driven
//! by `tests/browser/town.mjs`): at every step it shows the board (mines, buildings, workers
//! by colour) as the `town` crate replays the record, each seat's stock and gold, who is out
//! and why, the fault and the elimination marked on the timeline, a gold chart per seat,
//! the result in words.
//!
//! Skipped, with a message, when `chromium` or `node` is missing, except under `CI=true`,
//! where a missing browser fails the test.

use crate::common;

use arena::GameRecord;
use std::process::Command;
use town::{Cell, Resource, TownState};

/// A position's content as the page shows it (the `etat` line's codes).
fn code(cell: Option<Cell>) -> i64 {
    match cell {
        Some(Cell::Free) => 0,
        Some(Cell::Mine(r)) => 1 + r as i64,
        Some(Cell::Building { kind, .. }) => 5 + kind as i64,
        _ => -1,
    }
}

fn board(state: &TownState) -> (Vec<i64>, Vec<i64>) {
    let grid = &state.rules().grid;
    let at = (0..grid.height()).flat_map(|y| (0..grid.width()).map(move |x| (x, y)));
    (
        at.clone().map(|xy| code(state.cell(xy))).collect(),
        at.map(|xy| state.worker(xy).map_or(-1, |w| w as i64))
            .collect(),
    )
}

#[test]
fn the_page_shows_the_board_workers_stocks_and_who_went_out_at_every_step() {
    let Some(chromium) = common::browser_ready(
        "the_page_shows_the_board_workers_stocks_and_who_went_out_at_every_step",
    ) else {
        return;
    };
    let dir = common::fresh_dir("town-page", "play");
    let hostile =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/town/free_quarry.sh");
    // Seed 2: the hostile seat 1 is excluded at its first turn, and a `random` seat is
    // eliminated by its upkeep later.
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["--game", "little-town", "match", "random"])
        .arg(&hostile)
        .args(["strong", "random", "--seed", "2", "--html", "--out"])
        .arg(dir.join("m"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let record = GameRecord::load(&dir.join("m/record.json")).unwrap();
    let states = referee::games::town_play::states(&record);
    let last = states.len() - 1;
    let mid = (1..last)
        .find(|&n| board(&states[n]).1.iter().filter(|&&w| w >= 0).count() >= 3)
        .expect("a step with three workers out");
    let page = format!("{}#step=0", dir.join("m/replay.html").display());
    let json = common::drive_page(
        "town.mjs",
        &chromium,
        &page,
        &[&format!("hash:step={mid}"), "key:End"],
    );
    let shown = json["states"].as_array().unwrap();
    for (state, n) in shown.iter().zip([0, mid, last]) {
        assert_eq!(state["step"], n as u64, "{state}");
        let (content, workers) = board(&states[n]);
        assert_eq!(state["content"], serde_json::json!(content), "step {n}");
        assert_eq!(state["workers"], serde_json::json!(workers), "step {n}");
        for (s, seat) in state["seats"].as_array().unwrap().iter().enumerate() {
            let gold = states[n].players()[s].stock.get(Resource::Gold);
            let stock = seat["stock"].as_str().unwrap();
            assert!(
                stock.ends_with(&format!("gold {gold}")),
                "{stock} at step {n}"
            );
        }
    }
    // The result in words, each seat's gold after its colour (it once read
    // `scores [0, 1, 0, 15]`).
    let scores: Vec<String> = record
        .ranking
        .scores
        .iter()
        .zip(town::COLOURS)
        .map(|(gold, colour)| format!("{colour} {gold}"))
        .collect();
    let result = shown[2]["result"].as_str().unwrap();
    assert!(
        result.ends_with(&format!(
            " after {last} moves (scores: {}: each seat's gold, 0 for a seat out)",
            scores.join(", ")
        )),
        "{result}"
    );
    // Workers by colour: as many colours as seats with a worker out at the middle step.
    let mut seats_out: Vec<i64> = board(&states[mid])
        .1
        .into_iter()
        .filter(|&w| w >= 0)
        .collect();
    seats_out.sort();
    seats_out.dedup();
    let mut colours: Vec<String> = shown[1]["worker_colours"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), seats_out.len(), "{}", shown[1]);
    // And by shape, for whoever cannot tell the colours apart (white and pink look alike
    // under protanopia): one shape a seat.
    let mut shapes: Vec<&str> = shown[1]["worker_shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    shapes.sort();
    shapes.dedup();
    assert_eq!(shapes.len(), seats_out.len(), "{}", shown[1]);
    // A building's frame: one line style an owner, the same for all of one owner's.
    let mut frames: Vec<(u64, String)> = shown[2]["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f[0].as_u64().unwrap(), f[1].as_str().unwrap().to_string()))
        .collect();
    frames.sort();
    frames.dedup();
    let owners = frames
        .iter()
        .map(|f| f.0)
        .collect::<std::collections::BTreeSet<_>>();
    let styles = frames
        .iter()
        .map(|f| &f.1)
        .collect::<std::collections::BTreeSet<_>>();
    assert!(
        owners.len() >= 2,
        "seed 2 has two owners of buildings: {}",
        shown[2]
    );
    assert_eq!(frames.len(), owners.len(), "{}", shown[2]);
    assert_eq!(styles.len(), owners.len(), "{}", shown[2]);
    // The console and its CPU chart draw each seat in its card's colour (violet too: the
    // console once knew only three seats' colours, a fourth was grey), and the chart's dots
    // in one shape a seat.
    let mut dot_shapes = std::collections::BTreeMap::new();
    for state in shown {
        let colours = state["seat_colours"].as_array().unwrap();
        assert_eq!(colours.len(), 4, "{state}");
        for (what, seat, colour) in ["console_colours", "cpu_dots"].iter().flat_map(|what| {
            state[what]
                .as_array()
                .unwrap()
                .iter()
                .map(move |c| (what, c[0].as_u64().unwrap() as usize, &c[1]))
        }) {
            assert_eq!(colour, &colours[seat], "{what} of seat {seat}: {state}");
        }
        for dot in state["cpu_dots"].as_array().unwrap() {
            dot_shapes
                .entry(dot[0].as_u64().unwrap())
                .or_insert_with(std::collections::BTreeSet::new)
                .insert(dot[2].as_str().unwrap().to_string());
        }
    }
    assert!(dot_shapes.contains_key(&3), "seat 3's CPU: {dot_shapes:?}");
    let shapes_shown: std::collections::BTreeSet<_> = dot_shapes.values().collect();
    assert!(
        dot_shapes.values().all(|s| s.len() == 1) && shapes_shown.len() == dot_shapes.len(),
        "one shape a seat on the CPU chart: {dot_shapes:?}"
    );
    // Who is out, and why: on the cards at the end, and on the timeline.
    let end = &shown[2];
    let cards = end["seats"].as_array().unwrap();
    assert_eq!(cards[1]["state"], "excluded", "{end}");
    assert_eq!(cards[1]["out"], true);
    let eliminated: Vec<usize> = (0..4)
        .filter(|&s| {
            matches!(
                states[last].players()[s].out,
                Some((_, town::Why::Eliminated))
            )
        })
        .collect();
    assert!(!eliminated.is_empty(), "seed 2 eliminates a seat");
    for &s in &eliminated {
        assert_eq!(cards[s]["state"], "eliminated", "{end}");
    }
    let faults: Vec<&str> = end["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(
        faults.iter().any(|f| f.contains("fault of free_quarry.sh")),
        "{faults:?}"
    );
    assert!(
        faults.iter().any(|f| f.contains("eliminated")),
        "{faults:?}"
    );
    let marks = end["slider_marks"].as_array().unwrap();
    assert!(marks.iter().any(|m| m == "fault") && marks.iter().any(|m| m != "fault"));
    assert_eq!(end["chart_lines"], 4, "a gold curve per seat");
    crate::assert_sandbox_in_words(&end["footer"]);
}

/// With `powers=on`, the gold each seat's buildings' powers paid at a round's end shows on
/// its card at the move that ended the round (not the move before nor the one after), the
/// stock's gold with it, and the payment is listed with its step beside the faults and
/// eliminations.
#[test]
fn the_page_shows_the_gold_the_powers_paid_at_the_move_that_ended_the_round() {
    let Some(chromium) = common::browser_ready(
        "the_page_shows_the_gold_the_powers_paid_at_the_move_that_ended_the_round",
    ) else {
        return;
    };
    let dir = common::fresh_dir("town-page", "powers");
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "--game",
            "little-town",
            "match",
            "strong",
            "random",
            "strong",
        ])
        .args([
            "random",
            "--seed",
            "4",
            "--option",
            "powers=on",
            "--html",
            "--out",
        ])
        .arg(dir.join("m"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let record = GameRecord::load(&dir.join("m/record.json")).unwrap();
    let states = referee::games::town_play::states(&record);
    // The first move that ended a round in which a power paid a seat.
    let (n, paid) = (1..states.len())
        .find_map(|n| {
            let ended = states[n].powers_paid();
            let paid = ended
                .last()
                .filter(|_| ended.len() > states[n - 1].powers_paid().len())?;
            paid.iter().any(|&g| g > 0).then(|| (n, paid.clone()))
        })
        .expect("seed 4 has a round's end where a power pays");
    let page = format!("{}#step={}", dir.join("m/replay.html").display(), n - 1);
    let json = common::drive_page(
        "town.mjs",
        &chromium,
        &page,
        &[&format!("hash:step={n}"), &format!("hash:step={}", n + 1)],
    );
    let (before, at, after) = (&json["states"][0], &json["states"][1], &json["states"][2]);
    assert_eq!(after["step"], n as u64 + 1, "a move after: {after}");
    assert_eq!(at["step"], n as u64, "{at}");
    for (s, card) in at["seats"].as_array().unwrap().iter().enumerate() {
        let powers = card["powers"].as_str().unwrap();
        assert!(
            powers.starts_with(&format!("+{} gold from its powers", paid[s])),
            "seat {s} at step {n}: `{powers}`, paid {paid:?}"
        );
        let gold = states[n].players()[s].stock.get(Resource::Gold);
        let stock = card["stock"].as_str().unwrap();
        assert!(stock.ends_with(&format!("gold {gold}")), "{stock}");
        assert_eq!(before["seats"][s]["powers"], "", "not before: {before}");
        assert_eq!(after["seats"][s]["powers"], "", "not after: {after}");
    }
    let listed: Vec<&str> = at["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let payer = (0..paid.len()).find(|&s| paid[s] > 0).unwrap();
    let said = format!("{} gold", paid[payer]);
    assert!(
        listed
            .iter()
            .any(|f| f.contains(&format!("step {n}: round"))
                && f.contains("the powers pay")
                && f.contains(&said)),
        "{listed:?}"
    );
    common::remove_dir(&dir);
}
