//! What a step of the replay page shows, in headless Chromium (see `view_browser.rs` for the
//! driver and when these tests are skipped), on a match of the `tests/fixtures/viewer`
//! champions (two `actor.sh`, who do known things at known turns, and `quitter.sh`, who
//! crashes in turn 5), played with the full log; every expected figure is the timeline's:
//!
//! - 20000 identical refused actions are one entry (`20000 × ... → HORS_TERRAIN`), and the
//!   page at that step is ready in under a second; the page of a record of before (which
//!   kept refusals counted by function) counts them by function; refusals in a row whose
//!   calls differed (`differ.sh`) are one entry with the first and the last arguments, and
//!   its tooltip says so;
//! - the step's changed cells are outlined and its refused targets crossed on the board;
//! - Phase II bids and sales are shown as pending until the auction is resolved; the
//!   auction's step gives the bids and explains its tie and the order that broke it; the
//!   end of a Phase III explains a lost monument;
//! - a seat's card is greyed from the step of the fault that stopped it, not before.

use crate::common;
use crate::viewer_page;

use referee::record::MatchRecord;
use referee::view::html;
use referee::view::timeline::{Step, StepKind, Timeline};
use std::path::Path;
use viewer_page::{actor_match, at, code, open, pixel, rgb, temp_dir};

fn step_of(t: &Timeline, seat: u8, turn: u8, callback: &str) -> usize {
    t.steps
        .iter()
        .position(|s| s.seat == Some(seat) && s.turn == turn && s.callback.to_string() == callback)
        .unwrap_or_else(|| panic!("no {callback} of seat {seat} in turn {turn}"))
}

fn stage_end(t: &Timeline, turn: u8, phase: u8) -> usize {
    t.stage_end(turn, phase).unwrap()
}

#[test]
fn repeated_refusals_are_grouped_and_a_huge_step_opens_at_once() {
    let Some(chromium) =
        common::browser_ready("repeated_refusals_are_grouped_and_a_huge_step_opens_at_once")
    else {
        return;
    };
    let dir = temp_dir("grouped");
    let (_, t) = actor_match(&dir);
    let flood = step_of(&t, 1, 2, "jouer");
    let step: &Step = &t.steps[flood];
    // The record keeps the callback's first refusals with their arguments and counts the
    // others by function and answer (`arena::REFUSALS_KEPT`).
    assert_eq!(step.actions[0].count as usize, ::arena::REFUSALS_KEPT);
    let seen = open(&chromium, &at(&dir.join("replay.html"), flood), &[]);
    // What makes the step open at once is what is drawn: two lines for its 20,001 refusals
    // (asserted below), not a time, which a loaded machine stretches.
    println!(
        "a step of 20,001 refusals: ready in {:.0} ms",
        seen.ready_ms
    );
    let kept = ::arena::REFUSALS_KEPT;
    assert_eq!(
        seen.card(1)["actions"],
        serde_json::json!([
            format!("{kept} × construire_route 200 3 → {}", code(-12)),
            format!("construire_maison (arguments not listed) → {}", code(-8)),
            format!(
                "{} × construire_route (arguments not listed) → {}",
                20000 - kept,
                code(-12)
            ),
        ])
    );
    assert!(seen.card(1)["note"]
        .as_str()
        .unwrap()
        .contains("20001 refused"));

    // The same step from a record alone that counted refusals by function: the same match
    // as the referee of before recorded it (schema 4, `fixtures/records/loi-v4-views`).
    let old = MatchRecord::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/records/loi-v4-views/actors/record.json"),
    )
    .unwrap();
    let page = dir.join("counted.html");
    std::fs::write(&page, html::replay_page(&old).unwrap()).unwrap();
    let seen = open(&chromium, &at(&page, flood), &[]);
    let actions = seen.card(1)["actions"].as_array().unwrap();
    assert!(
        actions.contains(&serde_json::json!(format!(
            "20000 × construire_route (arguments not listed) → {}",
            code(-12)
        ))),
        "{actions:?}"
    );
    assert!(seen.info("quiet").iter().any(|p| p.contains("--full-log")));
}

#[test]
fn refusals_whose_calls_differed_are_one_entry_with_the_first_and_the_last() {
    let test = "refusals_whose_calls_differed_are_one_entry_with_the_first_and_the_last";
    let Some(chromium) = common::browser_ready(test) else {
        return;
    };
    let dir = temp_dir("differed");
    let differ = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/viewer/differ.sh");
    let mut command = std::process::Command::new(viewer_page::REFEREE);
    command
        .arg("match")
        .arg(&differ)
        .args([
            "random",
            "random",
            "--first-player",
            "0",
            "--seed",
            "2",
            "--full-log",
            "--out",
        ])
        .arg(&dir);
    viewer_page::run(command);
    let (_, t) = viewer_page::arena_page(&dir);
    let at_step = step_of(&t, 0, 1, "jouer");
    let titles = "[...document.querySelectorAll('#actions-0 li')].map((li) => li.title)";
    let seen = open(
        &chromium,
        &at(&dir.join("replay.html"), at_step),
        &["--eval", titles],
    );
    assert_eq!(
        seen.card(0)["actions"],
        serde_json::json!([format!(
            "3 × construire_route 200 3 … 202 3 → {}",
            code(-12)
        )])
    );
    assert_eq!(
        *seen.eval(0),
        serde_json::json!(["3 refusals in a row; the first call's arguments, then the last one's"])
    );
}

#[test]
fn changed_cells_and_refused_targets_are_marked_on_the_board() {
    let Some(chromium) =
        common::browser_ready("changed_cells_and_refused_targets_are_marked_on_the_board")
    else {
        return;
    };
    let dir = temp_dir("marks");
    let (_, t) = actor_match(&dir);
    let page = dir.join("replay.html");
    // Seat 0 builds at (51, 50), then seat 1's house there is refused.
    let built = step_of(&t, 0, 1, "jouer");
    assert!(t.steps[built].cells.iter().any(|c| c[..2] == [51, 50]));
    let refused = step_of(&t, 1, 1, "jouer");
    assert_eq!(t.steps[refused].targets, vec![[51, 50, -9]]);
    assert!(t.steps[refused].cells.is_empty());
    let seen = open(
        &chromium,
        &at(&page, built),
        &[
            "--eval",
            &pixel(51, 50, 0.5, 0.04),
            "--eval",
            &pixel(51, 50, 0.5, 0.5),
        ],
    );
    let mark = rgb(seen.json["palette"]["--mark"].as_str().unwrap());
    assert_eq!(*seen.eval(0), mark, "the changed cell's outline");
    assert_ne!(
        *seen.eval(1),
        rgb(seen.json["palette"]["--refused"].as_str().unwrap())
    );
    let seen = open(
        &chromium,
        &at(&page, refused),
        &[
            "--eval",
            &pixel(51, 50, 0.5, 0.5),
            "--eval",
            &pixel(51, 50, 0.5, 0.04),
        ],
    );
    let cross = rgb(seen.json["palette"]["--refused"].as_str().unwrap());
    assert_eq!(*seen.eval(0), cross, "the refused target's cross");
    assert_ne!(*seen.eval(1), mark, "nothing changed there in this step");
    assert_eq!(
        seen.info("marks"),
        ["1 cell(s) aimed at (1 refused) in this step (outlined and crossed on the board)."]
    );
}

#[test]
fn bids_and_sales_wait_for_the_auction_which_explains_its_tie_and_lost_monuments() {
    let Some(chromium) = common::browser_ready(
        "bids_and_sales_wait_for_the_auction_which_explains_its_tie_and_lost_monuments",
    ) else {
        return;
    };
    let dir = temp_dir("auction");
    let (record, t) = actor_match(&dir);
    let page = dir.join("replay.html");
    let name = |s: usize| {
        format!(
            "{} ({}, seat {s})",
            record.seats[s].name,
            ["A", "B", "C"][s]
        )
    };
    // Turn 3's Phase II: seat 0 sells its house and bids 1, then seat 1 bids 1.
    let first = step_of(&t, 0, 3, "enchere");
    let second = step_of(&t, 1, 3, "enchere");
    assert!(first < second);
    let sale = &t.steps[first].pending.as_ref().unwrap().sales[0];
    let seen = open(&chromium, &at(&page, first), &[]);
    let pending0 = format!(
        "Pending until the auction: bid 1 · sells ({}, {}) +{}",
        sale[0], sale[1], sale[2]
    );
    assert_eq!(seen.card(0)["pending"], pending0.as_str());
    assert!(
        seen.card(1)["pending"].is_null(),
        "seat 1 has not played yet"
    );
    let seen = open(&chromium, &at(&page, second), &[]);
    assert_eq!(seen.card(0)["pending"], pending0.as_str());
    assert_eq!(seen.card(1)["pending"], "Pending until the auction: bid 1");
    // The auction: no more pending, the bids, the tie and the order that broke it.
    let auction = stage_end(&t, 3, 2);
    let tie = t.steps[auction].tie.as_ref().unwrap();
    assert_eq!((tie.bid, tie.seats.clone()), (1, vec![0, 1]));
    let winner = usize::from(t.steps[auction].winner.unwrap());
    let seen = open(
        &chromium,
        &at(&page, auction),
        &[
            "--eval",
            "[0, 1, 2].map((s) => document.getElementById('bid-' + s).textContent)",
        ],
    );
    for s in 0..3 {
        assert!(seen.card(s)["pending"].is_null());
    }
    let bids = t.steps[auction].bids.unwrap().map(|b| b.to_string());
    assert_eq!(*seen.eval(0), serde_json::json!(bids));
    let order: Vec<&str> = tie
        .order
        .iter()
        .map(|&s| ["A", "B", "C"][usize::from(s)])
        .collect();
    assert_eq!(
        seen.info("tie"),
        [format!(
            "Tie at 1 between {} and {}. The next turn's order is {}; of the tied seats, {} plays last in it, so it wins (rule 23).",
            name(0),
            name(1),
            order.join(", "),
            name(winner)
        )]
    );
    assert!(seen.info("auction")[0].contains(&format!("{} wins and pays 1", name(winner))));
    // The end of that Phase III: the winner's monument off the map was refused.
    let end = stage_end(&t, 3, 3);
    let lost = t.steps[end].lost.as_ref().unwrap();
    let seen = open(&chromium, &at(&page, end), &[]);
    assert_eq!(
        seen.info("lost"),
        [format!(
            "Monument {} {} is lost: {} won its auction, but construire_monument was refused: {} (rule 25).",
            lost.monument,
            t.monuments[usize::from(lost.monument)].name,
            name(winner),
            code(-12)
        )]
    );
    // A lost monument of the stopped seat says so.
    let stopped = t
        .steps
        .iter()
        .position(|s| s.lost.as_ref().is_some_and(|l| l.seat == 2))
        .expect("the stopped seat wins an all-zero auction");
    let seen = open(&chromium, &at(&page, stopped), &[]);
    assert!(seen.info("lost")[0].contains("it was stopped by a fault before its placement"));
}

#[test]
fn a_seat_is_greyed_from_the_fault_that_stopped_it() {
    let Some(chromium) = common::browser_ready("a_seat_is_greyed_from_the_fault_that_stopped_it")
    else {
        return;
    };
    let dir = temp_dir("stopped");
    let (_, t) = actor_match(&dir);
    let page = dir.join("replay.html");
    let from = t.seats[2].stopped_at.unwrap();
    assert_eq!(t.steps[from].kind, StepKind::Callback);
    assert_eq!(t.steps[from].faults[0].kind, "crash");
    let before = open(&chromium, &at(&page, from - 1), &[]);
    assert_eq!(before.card(2)["stopped"], false);
    assert_eq!(before.card(2)["faults"], "");
    for index in [from, t.steps.len() - 1] {
        let seen = open(&chromium, &at(&page, index), &[]);
        assert_eq!(seen.card(2)["stopped"], true, "step {index}");
        assert_eq!(
            seen.card(2)["stopped_note"],
            format!(
                "Stopped by its fault at step {}: it plays no more.",
                from + 1
            )
            .as_str()
        );
        assert!(seen.card(2)["faults"]
            .as_str()
            .unwrap()
            .starts_with("⚠ crash: "));
        assert_eq!(seen.card(0)["stopped"], false);
    }
}
