//! A tournament's standings on the game server's site change as each of its games ends
//! (`referee serve --web`, docs/server.md section 9), in headless Chromium: a league of two
//! rounds between this test's own client (which moves only when told) and the C client,
//! its page open from the start; after the first game the standings are
//! `leaderboard.csv`'s of one game, after the second of two, without a reload. As root and
//! as a user.
//!
//! Skipped, with a message, when `chromium`, `node` or `cc` is missing, except under
//! `CI=true`.

use crate::common;
use crate::serve::{c_client, serve_command, Client, Server, WAIT};
use crate::serve_web::Browser;

use common::users::{each_run_in, Who};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

/// `referee serve ARGS` on the test's store: its stdout, or a panic with its stderr.
fn organise(who: Who, dir: &Path, args: &[&str]) -> String {
    let out = serve_command(who, dir, args);
    assert!(
        out.status.success(),
        "serve {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The columns compared: the page shows them as `leaderboard.csv` writes them.
const COLUMNS: [&str; 7] = [
    "champion",
    "points",
    "mean_points",
    "mean_points_low",
    "mean_points_high",
    "p_ahead_of_next",
    "rating",
];

/// The tournament's `leaderboard.csv` once it is there and not `before`: the places of
/// [`COLUMNS`] in its rows, and its rows (their header dropped).
fn leaderboard(server: &Server, before: &str) -> (Vec<usize>, String) {
    let path = server.results.join("tournaments/cup/leaderboard.csv");
    let mut csv = String::new();
    common::wait_until("leaderboard.csv written again", WAIT, || {
        csv = std::fs::read_to_string(&path).unwrap_or_default();
        !csv.is_empty() && csv != before
    });
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let columns = COLUMNS
        .iter()
        .map(|c| head.iter().position(|h| h == c).unwrap())
        .collect();
    (columns, csv)
}

/// Whether the page's standings are `csv`'s, in `columns` (a script's expression).
fn standings_are(columns: &[usize], csv: &str) -> String {
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            columns.iter().map(|&c| cells[c]).collect()
        })
        .collect();
    format!(
        "JSON.stringify([...document.querySelectorAll('#standings tbody tr')].map(r => {}.map(c => r.cells[c] && r.cells[c].textContent))) === {}",
        serde_json::to_string(columns).unwrap(),
        serde_json::to_string(&serde_json::to_string(&rows).unwrap()).unwrap()
    )
}

/// The client's next game of the tournament, played to its end.
fn next_game(ann: &mut Client) -> String {
    let game = loop {
        match ann.must() {
            m if m == "NOT_READY" => continue,
            game => break game,
        }
    };
    ann.must(); // the board's sizes
    assert_eq!(ann.cmd("GET_GAME_DATA"), "OK");
    ann.must();
    let first = ann.must() == "0";
    ann.play_to_the_end(first);
    game
}

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
        let site = server
            .line_with("web site on http://")
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string();
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
        let mut ann = server.connect();
        assert_eq!(ann.cmd("CLIENT_NAME ann"), "OK");
        let token = organise(who, dir, &["register", "ann"]);
        assert_eq!(
            ann.cmd(&format!("WAIT_GAME TOURNAMENT cup token={token}")),
            "OK"
        );
        server.line_with("client ann: waits in tournament cup");
        let token = organise(who, dir, &["register", "bob"]);
        let mut bob = Command::new(&client)
            .args([
                &server.port.to_string(),
                "bob",
                "0",
                &format!("cup token={token}"),
            ])
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        server.line_with("client bob: waits in tournament cup");

        let mut browser = Browser::start(&chromium);
        browser.open(&format!("{site}tournament/cup"));
        browser.eval("window.kept = 'this page'");
        assert!(organise(who, dir, &["tournament", "start", "cup"]).contains("starts with"));

        // After the first game: its standings.
        let first = next_game(&mut ann);
        let (columns, after_first) = leaderboard(&server, "");
        browser.until(
            &standings_are(&columns, &after_first),
            "the standings after the first game",
        );
        assert!(after_first.lines().count() == 3, "{after_first}");

        // After the second: the standings of both games, in the same page.
        let second = next_game(&mut ann);
        assert_ne!(first, second);
        server.line_with("tournament cup: over");
        let (_, after_second) = leaderboard(&server, &after_first);
        browser.until(
            &format!(
                "{} && document.getElementById('state').textContent === 'finished'",
                standings_are(&columns, &after_second)
            ),
            "the standings after the second game",
        );
        assert_eq!(browser.eval("window.kept"), "this page", "no reload");
        assert!(bob.wait().unwrap().success());
        assert_eq!(
            browser.run(serde_json::json!(["errors"])),
            Value::Array(Vec::new())
        );
    });
}
