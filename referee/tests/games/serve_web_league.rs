//! A league's standings on the game server's site change as each of its games ends
//! (`referee serve --web`, docs/server.md section 9), in headless Chromium: a league of two
//! rounds between this test's own client (which asks its next game and moves only when
//! told) and the C client, its page open from the start, never reloaded. After the first
//! game the page's standings are `leaderboard.csv`'s of one game, confidence figures
//! included, while the second waits for this test's client, and the form that started it
//! is no longer shown; after the second, those of both games, the tournament finished.
//! As root and as a user.
//!
//! A league whose two members end equal on everything the standings rank by (each loses
//! one game on purpose, by an illegal move: the only way a client can give a game away)
//! says, once its last game ends and without a reload, why its winner is first: ranked
//! first with the other, the better seed of the draw; and each game's row, who won it and
//! how the other lost.
//!
//! With `REFEREE_WEB_SCREENSHOTS=DIR`, the pages are also shot at 1366x768 and 1920x1080
//! after each game.
//!
//! Skipped, with a message, when `chromium`, `node` or `cc` is missing, except under
//! `CI=true`.

use crate::common;
use crate::serve::{c_client, Client, Server, WAIT};
use crate::serve_tournament::register;
use crate::serve_web::{site_of, Browser};
use crate::serve_web_tournament::{ann_and_bob_join, organise};

use common::users::each_run_in;
use serde_json::{json, Value};

/// The columns compared: the page shows them as `leaderboard.csv` writes them, in its
/// order.
const COLUMNS: [&str; 7] = [
    "champion",
    "points",
    "mean_points",
    "mean_points_low",
    "mean_points_high",
    "p_ahead_of_next",
    "rating",
];

/// The tournament's `leaderboard.csv` once its rows count `games` games (its column
/// `matches`, the first row's), as it was then.
fn leaderboard(server: &Server, games: u32) -> String {
    let path = server.results.join("tournaments/cup/leaderboard.csv");
    let mut csv = String::new();
    common::wait_until(&format!("leaderboard.csv of {games} game(s)"), WAIT, || {
        csv = std::fs::read_to_string(&path).unwrap_or_default();
        let mut lines = csv.lines();
        let (Some(head), Some(row)) = (lines.next(), lines.next()) else {
            return false;
        };
        let column = head.split(',').position(|h| h == "matches").unwrap();
        row.split(',').nth(column) == Some(games.to_string().as_str())
    });
    csv
}

/// A script's expression: whether the page's standings show `csv`'s rows in
/// [`COLUMNS`] (the page's columns are the file's).
fn standings_are(csv: &str) -> String {
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let columns: Vec<usize> = COLUMNS
        .iter()
        .map(|c| head.iter().position(|h| h == c).unwrap())
        .collect();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            columns.iter().map(|&c| cells[c]).collect()
        })
        .collect();
    assert_eq!(rows.len(), 2, "{csv}");
    format!(
        "JSON.stringify([...document.querySelectorAll('#standings tbody tr')].map(r => {}.map(c => r.cells[c] ? r.cells[c].textContent : null))) === {}",
        serde_json::to_string(&columns).unwrap(),
        serde_json::to_string(&serde_json::to_string(&rows).unwrap()).unwrap()
    )
}

/// The page's standings as text, for a failure's message.
const SHOWN: &str = "[...document.querySelectorAll('#standings tbody tr')].map(r => [...r.cells].map(c => c.textContent).join(',')).join(' / ')";

#[test]
fn a_league_s_standings_change_as_each_of_its_games_ends() {
    let Some(chromium) =
        common::browser_ready("a_league_s_standings_change_as_each_of_its_games_ends")
    else {
        return;
    };
    each_run_in("serve", "web_league", |who, dir| {
        let Some(client) = c_client(dir) else { return };
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let new = [
            "tournament",
            "new",
            "cup",
            "--format",
            "league",
            "--rounds",
            "2",
            "--map",
            "small",
            "--timeout",
            "60",
        ];
        assert!(organise(who, dir, &new).contains("tournament cup created"));
        // ann, this test's client, asks each of its games when the test says; bob, the C
        // client, asks its next game as soon as one ends.
        let (mut ann, wait, mut bob) = ann_and_bob_join(who, dir, &server, &client);

        let mut browser = Browser::start(&chromium);
        browser.open(&format!("{site}tournament/cup"));
        browser.until(
            "document.getElementById('live-state').textContent === 'live'",
            "the page following the server",
        );
        browser.eval("window.kept = 'this page'");
        assert!(organise(who, dir, &["tournament", "start", "cup"]).contains("starts with"));

        // After the first game (the second waits for ann): its standings, one game each.
        let first = ann.next_tournament_game();
        let after_first = leaderboard(&server, 1);
        browser.until(
            &standings_are(&after_first),
            "the standings after the first game",
        );
        assert_eq!(
            browser.eval("document.getElementById('state').textContent"),
            "playing",
            "{}",
            browser.eval(SHOWN)
        );
        // The form that started it is gone from the page (it was open when opened).
        assert_eq!(
            browser.eval("document.getElementById('start').getClientRects().length"),
            0,
            "the form to start the tournament, once it started"
        );
        browser.shots("league-after-one", "true");

        // After the second: the standings of both games, the league over.
        assert_eq!(ann.cmd(&wait), "OK");
        let second = ann.next_tournament_game();
        assert_ne!(first, second);
        server.line_with("tournament cup: over");
        let after_second = leaderboard(&server, 2);
        assert_ne!(after_first, after_second);
        browser.until(
            &format!(
                "{} && document.getElementById('state').textContent === 'finished'",
                standings_are(&after_second)
            ),
            "the standings after the second game",
        );
        assert_eq!(browser.eval("window.kept"), "this page", "no reload");
        browser.shots("league-finished", "true");
        drop(ann);
        assert!(bob.wait().unwrap().success());
        assert_eq!(browser.run(json!(["errors"])), Value::Array(Vec::new()));
    });
}

/// The tournament's next game of `client` (its `WAIT_GAME` sent): its name, once its data
/// is asked (`GET_GAME_DATA` written, not read).
fn game_of(client: &mut Client) -> String {
    let game = client.after_not_ready();
    client.must(); // the board's sizes
    client.write(b"GET_GAME_DATA\n");
    game
}

/// Whether `client` plays first, once the data it asked comes.
fn plays_first(client: &mut Client) -> bool {
    assert_eq!(client.must(), "OK");
    client.must();
    client.must() == "0"
}

/// One game of the league that `loser` gives away to `winner` by an illegal move in its
/// first turn (the winner, if it plays first, draws its tickets: no route, no point for
/// either); its name.
fn given_away(loser: &mut Client, winner: &mut Client) -> String {
    let game = game_of(loser);
    assert_eq!(game_of(winner), game);
    let loser_first = plays_first(loser);
    assert_ne!(loser_first, plays_first(winner));
    if !loser_first {
        winner.play("4");
        winner.play("5 1 1 1");
        loser.opponent();
        loser.opponent();
    }
    // The loss is told once the game is over: once the winner read its end.
    loser.write(b"PLAY_MOVE 9 9\n");
    let (_, told, _) = winner.opponent();
    assert!(told.contains("Your opponent left"), "{told}");
    assert_eq!(loser.must(), "OK");
    let lost = loser.must();
    assert!(lost.contains("You lose"), "{lost}");
    assert_eq!(loser.must(), "-1");
    game
}

#[test]
fn a_tied_league_s_page_says_its_winner_is_first_by_the_draw() {
    let Some(chromium) =
        common::browser_ready("a_tied_league_s_page_says_its_winner_is_first_by_the_draw")
    else {
        return;
    };
    each_run_in("serve", "web_league_tied", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let new = [
            "tournament",
            "new",
            "cup",
            "--format",
            "league",
            "--rounds",
            "2",
            "--map",
            "small",
            "--timeout",
            "60",
        ];
        assert!(organise(who, dir, &new).contains("tournament cup created"));
        let [(mut ann, ann_wait), (mut bob, bob_wait)] = ["ann", "bob"].map(|name| {
            let token = register(who, dir, name);
            let mut client = server.connect();
            assert_eq!(client.cmd(&format!("CLIENT_NAME {name}")), "OK");
            let wait = format!("WAIT_GAME TOURNAMENT cup token={token}");
            assert_eq!(client.cmd(&wait), "OK");
            server.line_with(&format!("client {name}: waits in tournament cup"));
            (client, wait)
        });

        let mut browser = Browser::start(&chromium);
        browser.open(&format!("{site}tournament/cup"));
        browser.until(
            "document.getElementById('live-state').textContent === 'live'",
            "the page following the server",
        );
        browser.eval("window.kept = 'this page'");
        assert!(organise(who, dir, &["tournament", "start", "cup"]).contains("starts with"));

        // ann gives the first game away: bob leads, nothing said of a winner.
        let first = given_away(&mut ann, &mut bob);
        leaderboard(&server, 1);
        browser.until(
            "document.querySelectorAll('#standings tbody tr').length === 2",
            "the standings after the first game",
        );
        assert_eq!(
            browser.eval(
                "[document.getElementById('state').textContent, document.getElementById('winner-why')]"
            ),
            json!(["playing", null]),
            "{}",
            browser.eval(SHOWN)
        );

        // bob gives the second away: equal on points, first places, mean score and faults.
        assert_eq!(ann.cmd(&ann_wait), "OK");
        assert_eq!(bob.cmd(&bob_wait), "OK");
        let second = given_away(&mut bob, &mut ann);
        assert_ne!(first, second);
        server.line_with("tournament cup: over");
        let csv = leaderboard(&server, 2);
        let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let rank = head.iter().position(|h| *h == "rank").unwrap();
        let ranks: Vec<&str> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(rank).unwrap())
            .collect();
        assert_eq!(ranks, ["1", "1"], "a tie: {csv}");
        let listed = organise(who, dir, &["tournament", "list"]);
        let winner = listed
            .split(" winner=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let other = if winner == "ann" { "bob" } else { "ann" };
        browser.until(
            "document.getElementById('state').textContent === 'finished' && \
             document.getElementById('winner-why') !== null",
            "the league finished, its winner said",
        );
        let said = browser.eval("document.getElementById('winner').textContent");
        let said = said.as_str().unwrap();
        assert!(
            said.starts_with(&format!("\u{2605} winner: {winner} (ranked 1 with {other} (1 point and equal on every tie-break")),
            "{said}"
        );
        assert!(
            said.ends_with("the better seed of the tournament's draw goes first)"),
            "{said}"
        );
        // Each game's row says how it ended for each seat (it once showed the phase).
        let rows = browser.eval(
            "[...document.querySelectorAll('#games tbody tr')].map(r => r.querySelector('.players').textContent)",
        );
        let rows: Vec<String> = serde_json::from_value(rows).unwrap();
        assert_eq!(rows.len(), 2, "{rows:?}");
        for row in &rows {
            assert!(
                row.contains(" (won)") && row.contains(" (lost by a protocol fault: "),
                "{rows:?}"
            );
        }
        assert_eq!(browser.eval("window.kept"), "this page", "no reload");
        browser.shots("league-tied", "true");
        assert_eq!(browser.run(json!(["errors"])), Value::Array(Vec::new()));
    });
}
