//! Ticket to Ride's replay page in a real browser (headless Chromium driven by
//! `tests/browser/ticket.mjs`): the board drawn from the cities' coordinates, the routes
//! claimed in the seats' colours as the record's moves claimed them, the face-up cards,
//! each seat's hand and tickets shown or hidden, the tickets completed and the longest
//! paths as the rules count them (the record's summary), the console of each step, a fault
//! marked above the slider, the result at the last step.
//!
//! Skipped, with a message, when `chromium` or `node` is missing, except under `CI=true`,
//! where a missing browser fails the test (CI installs both, `scripts/ci-install.sh`).

use crate::common;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn play(dir: &Path, champions: [&str; 2]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["--game", "ticket-to-ride", "match"])
        .args(champions)
        .args(["--seed", "4", "--option", "board=small", "--html", "--out"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    serde_json::from_slice(&std::fs::read(dir.join("record.json")).unwrap()).unwrap()
}

/// The claims of each seat, from the record's moves.
fn claims(record: &Value, seats: usize) -> Vec<usize> {
    let mut claims = vec![0; seats];
    for callback in record["callbacks"].as_array().unwrap() {
        for step in callback["steps"].as_array().into_iter().flatten() {
            let act = &step["act"];
            if act["action"]
                .as_str()
                .is_some_and(|a| a.starts_with("claim "))
            {
                claims[act["seat"].as_u64().unwrap() as usize] += 1;
            }
        }
    }
    claims
}

#[test]
fn the_page_draws_the_board_the_claims_hands_tickets_and_longest_paths() {
    let Some(chromium) = common::browser_ready(
        "the_page_draws_the_board_the_claims_hands_tickets_and_longest_paths",
    ) else {
        return;
    };
    let dir = common::fresh_dir("ticket-frame", "page");
    let record = play(&dir.join("m"), ["strong", "random"]);
    let page = format!("{}#step=0", dir.join("m/replay.html").display());
    let json = common::drive_page(
        "ticket.mjs",
        &chromium,
        &page,
        &["key:End", "click:#show-hidden"],
    );
    let states = json["states"].as_array().unwrap();
    let (start, end, hidden) = (&states[0], &states[1], &states[2]);
    // The small board: its eight cities and eleven routes, none claimed at the start.
    assert_eq!(start["cities"].as_array().unwrap().len(), 8, "{start}");
    assert!(start["cities"].as_array().unwrap().contains(&"Zero".into()));
    assert_eq!(start["routes"], 11);
    assert!(start["owners"].as_array().unwrap().iter().all(|o| o == -1));
    assert_eq!(start["row"].as_array().unwrap().len(), 5, "{start}");
    // Each card says its colour in letters, one text per colour (greyscale reads them).
    for (a, ta) in start["row"]
        .as_array()
        .unwrap()
        .iter()
        .zip(start["row_text"].as_array().unwrap())
    {
        for (b, tb) in start["row"]
            .as_array()
            .unwrap()
            .iter()
            .zip(start["row_text"].as_array().unwrap())
        {
            assert!(!ta.as_str().unwrap().is_empty(), "{start}");
            assert_eq!(a == b, ta == tb, "{start}");
        }
    }
    assert!(start["banner"].is_null());
    // At the end: each seat's routes in its colour, as many as it claimed.
    let claimed = claims(&record, 2);
    for (s, n) in claimed.iter().enumerate() {
        let drawn = end["owners"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| **o == s as i64)
            .count();
        assert_eq!(drawn, *n, "seat {s}: {end}");
    }
    assert!(claimed.iter().sum::<usize>() > 0, "nobody claimed a route");
    // Each owner's mark along its routes, the one its panel's swatch shows, another for the
    // other seat: the seats differ where their colours do not (greyscale).
    let owners = end["owners"].as_array().unwrap();
    let marks = end["owner_marks"].as_array().unwrap();
    assert_eq!(marks.len(), owners.len(), "{end}");
    for (owner, mark) in owners.iter().zip(marks) {
        match owner.as_i64().unwrap() {
            -1 => assert!(mark.is_null(), "an unclaimed route marked: {end}"),
            s => assert_eq!(mark, &end["swatches"][s as usize], "seat {s}: {end}"),
        }
    }
    assert_ne!(end["swatches"][0], end["swatches"][1], "{end}");
    // Tickets completed and longest paths as the rules counted them.
    for s in 0..2 {
        let count = &record["summary"]["counts"][s];
        let seat = &end["seats"][s];
        let done = count["completed"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| **d == true)
            .count();
        assert_eq!(seat["done"], done, "seat {s}: {seat}");
        assert_eq!(
            seat["tickets"],
            count["completed"].as_array().unwrap().len()
        );
        let longest = format!("longest path: {}", count["longest"]);
        assert!(
            seat["longest"].as_str().unwrap().starts_with(&longest),
            "{seat}"
        );
        assert!(seat["name"]
            .as_str()
            .unwrap()
            .contains(["(Red)", "(Blue)"][s]));
    }
    let winner = record["ranking"]["places"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p == 1)
        .unwrap();
    let name = record["seats"][winner]["name"].as_str().unwrap();
    assert!(
        end["banner"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{name} (")),
        "{}",
        end["banner"]
    );
    assert_eq!(end["step"], end["last"]);
    assert!(end["console"].as_u64().unwrap() > 0, "{end}");
    assert_eq!(end["chart_lines"], 2);
    crate::assert_sandbox_in_words(&end["footer"]);
    // Hidden: the hands as counts only, no ticket listed.
    for s in 0..2 {
        let seat = &hidden["seats"][s];
        assert!(
            seat["hand"].as_str().unwrap().ends_with("cards (hidden)"),
            "{seat}"
        );
        assert_eq!(seat["tickets"], 0, "{seat}");
    }

    // A fault is marked above the slider.
    let faulty = play(
        &dir.join("f"),
        [
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/ticket/illegal_claim.py")
                .display()
                .to_string(),
            "do-nothing",
        ],
    );
    assert_eq!(faulty["faults"].as_array().unwrap().len(), 1);
    let json = common::drive_page("ticket.mjs", &chromium, dir.join("f/replay.html"), &[]);
    let marks = json["states"][0]["slider_marks"].as_array().unwrap();
    assert!(
        marks.iter().any(|m| m.as_str().unwrap().contains("fault")),
        "{marks:?}"
    );
}

/// `rgb(r, g, b)` as Chromium computes a colour, in 0..=1.
fn computed_rgb(colour: &Value) -> [f64; 3] {
    let text = colour
        .as_str()
        .unwrap_or_else(|| panic!("{colour}: not a colour"));
    let inner = text
        .strip_prefix("rgb(")
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{text}: not rgb(...)"));
    let parts: Vec<f64> = inner
        .split(',')
        .map(|p| p.trim().parse::<f64>().unwrap() / 255.0)
        .collect();
    [parts[0], parts[1], parts[2]]
}

/// Five seats, the most the game takes: each its own colour, its own mark along its routes
/// (an ink that stands out on its colour), its own dash on the chart and shape on the CPU
/// chart, and the console's bars in its colour (the console and the chart once knew three
/// seats' colours and four dashes: the black seat's curve was the red one's, solid).
#[test]
fn five_seats_differ_by_colour_mark_dash_and_shape() {
    let test = "five_seats_differ_by_colour_mark_dash_and_shape";
    let Some(chromium) = common::browser_ready(test) else {
        return;
    };
    let dir = common::fresh_dir("ticket-frame", "five");
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["--game", "ticket-to-ride", "match", "strong", "strong"])
        .args([
            "random", "random", "random", "--seed", "3", "--html", "--out",
        ])
        .arg(dir.join("m"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let page = format!("{}#step=0", dir.join("m/replay.html").display());
    let json = common::drive_page("ticket.mjs", &chromium, &page, &["key:End"]);
    let end = &json["states"][1];
    let distinct = |what: &str| {
        let all = end[what].as_array().unwrap();
        let set: std::collections::BTreeSet<String> = all.iter().map(|v| v.to_string()).collect();
        assert_eq!(all.len(), 5, "{what}: {end}");
        assert_eq!(set.len(), 5, "{what}: one a seat: {all:?}");
    };
    for what in ["swatches", "swatch_colours", "chart_dashes"] {
        distinct(what);
    }
    let colours = end["swatch_colours"].as_array().unwrap();
    let inks = end["swatch_inks"].as_array().unwrap();
    for (s, (colour, ink)) in colours.iter().zip(inks).enumerate() {
        let ratio = crate::view_palette::contrast(computed_rgb(colour), computed_rgb(ink));
        assert!(
            ratio >= 3.0,
            "seat {s}: its mark {ink} on {colour}: {ratio:.2}"
        );
    }
    // Along the routes, each owner's mark in its swatch's ink.
    let owners = end["owners"].as_array().unwrap();
    let mut owners_seen = std::collections::BTreeSet::new();
    for (owner, ink) in owners.iter().zip(end["mark_inks"].as_array().unwrap()) {
        if let Some(s) = owner.as_u64() {
            assert_eq!(ink, &inks[s as usize], "a route of seat {s}: {end}");
            owners_seen.insert(s);
        }
    }
    assert!(
        owners_seen.len() >= 4,
        "claims of most seats: {owners_seen:?}"
    );
    // Each claimed route edged so that it stands out from the cream board (3:1), the
    // yellow seat's too (its colour alone is 1.5:1 on it); an unclaimed one has no edge.
    let board = computed_rgb(&end["board"]);
    let edges = end["edge_inks"].as_array().unwrap();
    assert_eq!(edges.len(), owners.len(), "{end}");
    for (owner, edge) in owners.iter().zip(edges) {
        match owner.as_u64() {
            Some(s) => {
                let ratio = crate::view_palette::contrast(computed_rgb(edge), board);
                assert!(
                    ratio >= 3.0,
                    "a route of seat {s}: edge {edge} on the board: {ratio:.2}"
                );
            }
            None => assert!(edge.is_null(), "an unclaimed route's edge: {edge}"),
        }
    }
    assert!(
        owners_seen.contains(&3),
        "the yellow seat claims: {owners_seen:?}"
    );
    // The console and the CPU chart: each seat in its colour, the chart one shape a seat.
    for (seat, colour) in end["console_colours"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_u64().unwrap(), &c[1]))
    {
        assert_eq!(
            colour, &colours[seat as usize],
            "the console's seat {seat}: {end}"
        );
    }
    let mut shapes = std::collections::BTreeMap::new();
    for dot in end["cpu_dots"].as_array().unwrap() {
        let seat = dot[0].as_u64().unwrap();
        assert_eq!(&dot[1], &colours[seat as usize], "a CPU dot of seat {seat}");
        shapes
            .entry(seat)
            .or_insert_with(std::collections::BTreeSet::new)
            .insert(dot[2].as_str().unwrap().to_string());
    }
    let kinds: std::collections::BTreeSet<_> = shapes.values().collect();
    assert!(
        shapes.len() == 5 && shapes.values().all(|s| s.len() == 1) && kinds.len() == 5,
        "one shape a seat on the CPU chart: {shapes:?}"
    );
}

/// Five seats on the small board (nine tickets): the deck runs out at the fifth seat's
/// first draw, and rule 21 ends the game with nothing counted: every score the points of
/// the routes (0), the fewest tickets held first. The result says so, on the page and in
/// what `match` prints, where it once read "TicketsOut { drawer: 3 }" above counts of
/// -14 to -20 that no score was.
#[test]
fn a_game_the_ticket_deck_ended_says_nothing_was_counted() {
    let Some(chromium) =
        common::browser_ready("a_game_the_ticket_deck_ended_says_nothing_was_counted")
    else {
        return;
    };
    let dir = common::fresh_dir("ticket-frame", "tickets-out");
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["--game", "ticket-to-ride", "match"])
        .args(["random"; 5])
        .args(["--seed", "3", "--option", "board=small", "--html", "--out"])
        .arg(dir.join("m"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let said = common::text(&out.stdout);
    let rule = "fewer than three tickets were left when seat 3 drew (rule 21): the fewest \
                tickets held wins, the drawer first among equals; tickets not counted: each \
                score is the points of the routes";
    assert!(said.contains(&format!("ended: {rule}\n")), "{said}");
    assert!(
        said.contains("seat 0: 0 points from routes, 3 tickets held, 4 cards in hand\n"),
        "{said}"
    );
    assert!(
        !said.contains("-20 points") && !said.contains("TicketsOut"),
        "{said}"
    );
    let page = format!("{}#step=0", dir.join("m/replay.html").display());
    let json = common::drive_page("ticket.mjs", &chromium, &page, &["key:End"]);
    let banner = json["states"][1]["banner"].as_str().unwrap_or_default();
    assert_eq!(
        banner,
        format!(
            "random (Yellow) wins after 7 moves (scores: Red 0, Blue 0, Green 0, Yellow 0, \
             Black 0): {}",
            rule.replace("seat 3", "Yellow")
        ),
        "{}",
        json["states"][1]
    );
}
