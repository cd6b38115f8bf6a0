//! Every game's board live on the game server's site (`referee serve --web`, docs/server.md
//! section 9), in headless Chromium: for the Amazons, Little Town and the 2009 game, a
//! connected program (the built-in `random`, `referee --game G bot random`, its lines
//! relayed by the test so that the game goes on only when the test lets it) plays a
//! training game while its page is watched. The board, drawn by the replay page's code,
//! grows as moves come without a reload (its footer, the count of moves, with it), a
//! watcher at the last step follows it, and the game ends with its result. No page nor JSON of the game in play shows its seed; the 2009
//! game's shows no monument not drawn yet and no bid before its auction is resolved (a seat
//! that watched the site would outbid the others). As root and as a user.
//!
//! With `REFEREE_WEB_SCREENSHOTS=DIR`, the pages are also shot at 1366x768 and 1920x1080
//! into DIR (`scripts/screenshot-web.sh`).
//!
//! Skipped, with a message, when `chromium` or `node` is missing, except under `CI=true`.

use crate::common;
use crate::serve::{record, results_shown, Server, REFEREE};
use crate::serve_web::{http, site_of, Browser};

use common::users::each_run_in;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::os::fd::OwnedFd;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

/// A built-in champion connected to the server, each line the server sends it let through
/// by the test: the game waits for it in between, its record so far unchanged.
struct Relayed {
    /// How many more of the server's lines to let through.
    permits: Sender<usize>,
    /// The line held, each time the relay waits for permits; closed at the game's end.
    held: Receiver<String>,
    bot: Child,
    relay: Option<JoinHandle<()>>,
}

impl Relayed {
    /// `referee --game game bot random` on `stream` (its game's lines already begun),
    /// holding the server's first line.
    fn start(game: &str, stream: &TcpStream) -> Relayed {
        stream.set_read_timeout(None).unwrap();
        let to_server = OwnedFd::from(stream.try_clone().unwrap());
        let mut bot = Command::new(REFEREE)
            .args(["--game", game, "bot", "random"])
            .env("PROLOGIN_SEED", "7")
            .stdin(Stdio::piped())
            .stdout(Stdio::from(to_server))
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = bot.stdin.take().unwrap();
        let (permits, wanted) = channel();
        let (holding, held) = channel();
        let from_server = BufReader::new(stream.try_clone().unwrap());
        let relay = std::thread::spawn(move || relay(from_server, input, &wanted, &holding));
        Relayed {
            permits,
            held,
            bot,
            relay: Some(relay),
        }
    }

    /// Lets `n` more lines through; the line the game then waits on the champion for
    /// (`None`: the server closed the connection, the game over).
    fn step(&mut self, n: usize) -> Option<String> {
        let _ = self.permits.send(n);
        self.held.recv().ok()
    }
}

impl Drop for Relayed {
    fn drop(&mut self) {
        let _ = self.bot.kill();
        let _ = self.bot.wait();
        // The relay ends with the connection (the server closes it at the game's end).
        if let Some(relay) = self.relay.take() {
            if std::thread::panicking() {
                return;
            }
            relay.join().unwrap();
        }
    }
}

/// The server's lines to the champion's input, each after a permit; says which line it
/// holds whenever it waits for one.
fn relay(
    mut from_server: BufReader<TcpStream>,
    mut to_bot: ChildStdin,
    wanted: &Receiver<usize>,
    holding: &Sender<String>,
) {
    let mut left = 0usize;
    loop {
        let mut line = String::new();
        match from_server.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        while left == 0 {
            if holding.send(line.clone()).is_err() {
                return;
            }
            match wanted.recv() {
                Ok(n) => left = n,
                Err(_) => return,
            }
        }
        left -= 1;
        if to_bot.write_all(line.as_bytes()).is_err() {
            return;
        }
    }
}

/// In the board's frame: `expr` of its document, once it is drawn.
fn board(expr: &str) -> String {
    format!("(() => {{ const f = document.getElementById('board'); const d = f && f.contentDocument; return d && d.documentElement.dataset.ready === '1' ? ({expr}) : undefined; }})()")
}

/// The steps of the board shown (its slider's last).
const LAST: &str = "Number(d.getElementById('step-slider').max)";

/// A game of `game` (`seats` its seats' line) watched from its start to its end: `end`
/// (of the board's document) says its record's page shows the result; `check` is asked of
/// each JSON its live board grew by. False: skipped (no browser).
fn watched(game: &str, seats: &str, end: &str, check: &dyn Fn(&Value)) -> bool {
    let Some(chromium) = common::browser_ready(&format!("serve_web_live {game}")) else {
        return false;
    };
    each_run_in("serve", &format!("web_live_{game}"), |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let mut client = server.connect();
        assert_eq!(client.cmd("CLIENT_NAME watched"), "OK");
        let ask = format!("WAIT_GAME TRAINING random game={game} start=0 timeout=60");
        assert_eq!(client.cmd(&ask), "OK");
        let name = client.must();
        assert_eq!(client.must(), seats);
        let mut bot = Relayed::start(game, &client.stream);
        assert!(bot.step(0).is_some(), "the game waits for its first line");
        // Line by line until its board is drawn (the 2009 game's once its setup is).
        while !http(&site, "GET", &format!("/game/{name}/board.json"))
            .0
            .contains("200")
        {
            assert!(
                bot.step(1).is_some(),
                "the game ended before its board was drawn"
            );
        }

        // Its page: the board of the start, live.
        let mut browser = Browser::start(&chromium);
        browser.open(&format!("{site}game/{name}"));
        let first = browser.until(&board(&format!("{LAST} + 1")), "the board drawn");
        let first = first.as_i64().unwrap() - 1;
        assert_eq!(
            browser.eval(&board("d.documentElement.dataset.live")),
            "1",
            "the live board"
        );
        browser.eval("document.getElementById('board').contentWindow.kept = 'this board'");
        let first_footer = browser.eval(&board("d.getElementById('footer').textContent"));
        let (status, _, page) = http(&site, "GET", &format!("/game/{name}/board"));
        assert!(status.contains("200"), "{status}");
        let mut seen = vec![page];

        // Line by line, until the board has grown by two steps: each JSON checked.
        let mut grown = first;
        while grown < first + 2 {
            assert!(
                bot.step(1).is_some(),
                "the game ended before its board grew"
            );
            let (status, _, body) = http(&site, "GET", &format!("/game/{name}/board.json"));
            assert!(status.contains("200"), "{status} {body}");
            let json: Value = serde_json::from_str(&body).unwrap();
            grown = json["frame"]["steps"].as_array().unwrap().len() as i64 - 1;
            seen.push(body);
        }
        browser.until(
            &board(&format!("{LAST} >= {grown}")),
            "the board showing the moves played",
        );
        assert_eq!(
            browser.eval("document.getElementById('board').contentWindow.kept"),
            "this board",
            "the board grew without a reload"
        );
        assert_eq!(
            browser.eval(&board(&format!("d.documentElement.dataset.step == {LAST}"))),
            true,
            "a watcher at the last step follows the game"
        );
        // The footer grew with the board (its count of moves): it is the frame's of the
        // steps shown, no longer the first one's.
        let footer = browser.eval(&board("d.getElementById('footer').textContent"));
        assert_ne!(footer, first_footer, "the footer of the first board");
        assert_eq!(
            browser.eval(&board(
                "d.getElementById('footer').textContent.startsWith(d.defaultView.viewer.F.footer.join(' · ') + ' · ready in ')"
            )),
            true,
            "{footer} is not the footer of the board shown"
        );
        browser.shots(&format!("{game}-live"), &board("true"));

        // Then on to the end, its board's JSON read at each callback of the champion (a
        // line that is a callback's name): the game's page says it ended, its board is its
        // record's.
        while let Some(line) = bot.step(1) {
            let line = line.trim();
            if !line.is_empty() && line.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                let (_, _, body) = http(&site, "GET", &format!("/game/{name}/board.json"));
                seen.push(body);
            }
        }
        let record = record(&server, &name);
        browser.until(
            "document.getElementById('state').textContent === 'finished'",
            "the game's end on its page",
        );
        // Each seat's result beside its player, as `/player/` says it, the client's first
        // (`start=0`).
        let result = browser.eval("document.getElementById('result').textContent.trim()");
        let shown = results_shown(&server, &name);
        assert_eq!(result, shown.as_str());
        assert!(shown.starts_with("watched "), "{shown}");
        browser.until(
            &board(&format!("!d.documentElement.dataset.live && ({end})")),
            "the record's board with its result",
        );
        browser.shots(&format!("{game}-finished"), &board("true"));
        assert_eq!(browser.run(json!(["errors"])), json!([]), "console errors");

        // Nothing seen while it was played showed its seed, its result, nor what `check`
        // keeps.
        let seed = record["seed"].as_u64().unwrap().to_string();
        for text in &seen {
            assert!(!text.contains(&seed), "the seed {seed} shown live: {text}");
            if let Ok(json) = serde_json::from_str::<Value>(text) {
                if !json["ended"].as_bool().unwrap_or(false) {
                    assert_eq!(json["frame"].get("result"), None, "a result live: {text}");
                    check(&json);
                }
            }
        }
    });
    true
}

#[test]
fn the_amazons_board_grows_live_and_ends_with_the_result() {
    watched(
        "amazons",
        "amazons 2",
        "!d.getElementById('banner').hidden && d.getElementById('result').textContent.includes('wins')",
        &|_| {},
    );
}

#[test]
fn little_town_s_board_grows_live_and_ends_with_the_result() {
    watched(
        "little-town",
        "little-town 4",
        "!d.getElementById('banner').hidden && !d.getElementById('result').textContent.includes('being played')",
        &|_| {},
    );
}

#[test]
fn the_2009_game_s_board_grows_live_and_ends_with_the_result() {
    watched(
        "loi",
        "loi 3",
        "d.querySelector('#stage-info .final') !== null",
        &|json| {
            let data = &json["data"];
            assert_eq!(data.get("result"), None, "the final scores live");
            let steps = data["steps"].as_array().unwrap();
            // The monuments drawn so far, no more of the order.
            let mut drawn: Vec<u64> = steps
                .iter()
                .filter_map(|s| s["monument"].as_u64())
                .collect();
            drawn.sort_unstable();
            drawn.dedup();
            assert_eq!(
                data["monument_order"].as_array().unwrap().len(),
                drawn.len(),
                "the monuments to come: {}",
                data["monument_order"]
            );
            // No bid nor sale of a Phase II whose auction is not resolved (rule 12).
            let resolved = steps
                .iter()
                .rposition(|s| s["kind"] == "stage_end" && s["phase"] == 2)
                .map_or(0, |at| at + 1);
            for step in &steps[resolved..] {
                if step["phase"] == 2 && step["kind"] == "callback" {
                    assert_eq!(step.get("pending"), None, "a bid live: {step}");
                    let actions = step["actions"].as_array().map_or(0, Vec::len);
                    assert_eq!(actions, 0, "an auction's call live: {step}");
                }
            }
        },
    );
}
