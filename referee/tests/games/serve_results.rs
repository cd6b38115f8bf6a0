//! `referee serve`'s results and names against clients who want another's: a fault's
//! message quoting a forged result never rewrites its opponent's on the pages, nor closes
//! its quotation; a client never takes a built-in champion's name; a name taken before it
//! was registered, or by a token the organiser replaced since, is its owner's once the
//! owner proves its token, and no game (free, the organiser's, a tournament's) is played
//! under it without the token. The real binary, real sockets, as root and as a user.

use crate::common;
use crate::serve::{serve_command, Client, Server};
use crate::serve_tournament::{organise, register};
use crate::serve_web::{http, site_of};
use crate::serve_web_tournament::post;

use common::users::each_run_in;
use std::io::{BufRead, BufReader, Write};

/// Plays a free game of the Amazons in the game's own protocol (`protocol=lines`): asks
/// `wait` as `name`, then answers each `jouer` with `forged` (a line no rule knows) or,
/// without one, one legal move; the game's name.
fn amazons(mut client: Client, name: &str, wait: &str, forged: Option<&str>) -> String {
    assert_eq!(client.cmd(&format!("CLIENT_NAME {name}")), "OK");
    assert_eq!(client.cmd(&format!("WAIT_GAME {wait}")), "OK");
    let game = loop {
        match client.must() {
            m if m == "NOT_READY" => continue,
            game => break game,
        }
    };
    assert_eq!(client.must(), "amazons 2");
    let mut out = client.stream.try_clone().unwrap();
    let mut lines = BufReader::new(client.stream).lines();
    while let Some(Ok(line)) = lines.next() {
        let answer = match (line.as_str(), forged) {
            ("jouer", Some(forged)) => format!("{forged}\n"),
            ("jouer", None) => {
                out.write_all(b"couleur\n").unwrap();
                let white = lines.next().unwrap().unwrap() == "0";
                let m = if white { "0 3 0 4 0 5" } else { "0 6 0 5 0 4" };
                out.write_all(format!("deplacer {m}\n").as_bytes()).unwrap();
                lines.next();
                "fin\n".to_string()
            }
            ("init_game" | "end_game", _) => "fin\n".to_string(),
            _ => continue,
        };
        if out.write_all(answer.as_bytes()).is_err() {
            break;
        }
    }
    game
}

/// Red team 14, finding 1: the pages read each seat's result out of the outcome's text,
/// which quotes a fault's line: `mallory`, seated first, answered `jouer` with alice's
/// "result", and alice's page counted her win as a fault.
#[test]
fn a_fault_s_message_never_rewrites_its_opponent_s_result() {
    each_run_in("serve", "forged_result", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        // An odd seed given by both seats the one who fills the table first.
        let wait = "game=amazons protocol=lines seats=2 seed=1 timeout=30";
        let alice = server.connect();
        let alice = std::thread::spawn(move || amazons(alice, "alice", wait, None));
        server.line_with("client alice: waits for a free game");
        let forged = "x, alice (seat 1) lost by a crash fault: forged";
        let game = amazons(server.connect(), "mallory", wait, Some(forged));
        assert_eq!(alice.join().unwrap(), game);
        let ended = server.line_with(&format!("game {game}: "));
        assert!(
            ended.contains("mallory (seat 0) lost by a protocol fault"),
            "{ended}"
        );
        assert!(ended.contains(forged), "the fault quotes the line: {ended}");
        let (_, _, page) = http(&site, "GET", "/player/alice");
        assert!(page.contains("1 game · 1 won · 0 faults"), "{page}");
        assert!(page.contains("<td class=\"outcome\">won</td>"), "{page}");
        assert!(!page.contains("crash fault"), "{page}");
        let (_, _, page) = http(&site, "GET", "/player/mallory");
        assert!(page.contains("1 game · 0 won · 1 fault"), "{page}");
    });
}

/// A client named as a built-in champion (or as one a page would show as one) would have
/// the bot's games and results mixed with its own: refused, and never registered.
#[test]
fn a_client_never_takes_a_built_in_champion_s_name() {
    each_run_in("serve", "bot_names", |who, dir| {
        for name in [
            "random",
            "greedy",
            "strong",
            "Random",
            "do_nothing",
            "PLAY_RANDOM",
        ] {
            let out = serve_command(who, dir, &["register", name]);
            assert!(!out.status.success(), "{name} registered");
            let why = String::from_utf8_lossy(&out.stderr);
            assert!(why.contains("built-in champion"), "{why}");
        }
        let server = Server::start(who, dir);
        for name in ["random", "greedy", "RANDOM", "Do_Nothing", "NICE_BOT"] {
            let mut client = server.connect();
            let answer = client.cmd(&format!("CLIENT_NAME {name}"));
            assert!(answer.contains("built-in champion"), "{name}: {answer}");
            assert_eq!(client.recv(), None, "closed after the refusal");
        }
        let mut client = server.connect();
        assert_eq!(client.cmd("CLIENT_NAME randomly"), "OK");
    });
}

/// Reads `client`'s messages until the server closes it.
fn closed(client: &mut Client) {
    while let Some(m) = client.recv() {
        assert_eq!(m, "NOT_READY", "no game for a squatter");
    }
}

/// Red team 14, finding 5: a client that took a name while it was nobody's kept it once
/// registered: its owner was refused as "already connected", and another client's free
/// game was played and recorded under the registered name, no token ever shown.
#[test]
fn a_name_registered_after_a_client_took_it_is_its_owner_s() {
    each_run_in("serve", "squat_before", |who, dir| {
        let server = Server::start(who, dir);
        // Two squatters wait for free games: erin at a table nobody asks, fred at dave's.
        let mut erin = server.connect();
        assert_eq!(erin.cmd("CLIENT_NAME erin"), "OK");
        assert_eq!(erin.cmd("WAIT_GAME map=usa timeout=119"), "OK");
        server.line_with("client erin: waits for a free game");
        let mut fred = server.connect();
        assert_eq!(fred.cmd("CLIENT_NAME fred"), "OK");
        assert_eq!(fred.cmd("WAIT_GAME map=small timeout=30"), "OK");
        server.line_with("client fred: waits for a free game");
        let token = |name: &str| {
            let out = serve_command(who, dir, &["register", name]);
            assert!(out.status.success());
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        let (erin_token, _) = (token("erin"), token("fred"));
        // dave is never seated with the squatter of fred: he waits, the squatter leaves.
        let mut dave = server.connect();
        assert_eq!(dave.cmd("CLIENT_NAME dave"), "OK");
        assert_eq!(dave.cmd("WAIT_GAME map=small timeout=30"), "OK");
        assert_eq!(dave.must(), "NOT_READY", "dave waits");
        closed(&mut fred);
        // erin's owner is not kept out: the squatter loses the name, the owner plays.
        let mut owner = server.connect();
        assert_eq!(owner.cmd("CLIENT_NAME erin"), "OK");
        let (game, first) = owner.train(&format!("map=small seed=5 token={erin_token}"));
        closed(&mut erin);
        owner.play_to_the_end(first);
        server.line_with(&format!("game {game}: "));
        drop(dave);
        // The only game played is the owner's.
        let listed = serve_command(who, dir, &["games"]);
        let listed = String::from_utf8_lossy(&listed.stdout);
        let games: Vec<&str> = listed
            .lines()
            .filter(|l| l.contains("erin") || l.contains("fred"))
            .collect();
        assert_eq!(games.len(), 1, "{listed}");
        assert!(games[0].contains(&game), "{listed}");
    });
}

/// The forged line of red team 15's finding 3: a backtick closing the quote a fault puts
/// around it, then a sentence of a result.
const CLOSES_ITS_QUOTE: &str = "`. alice (seat 1) lost by a time fault: 0 moves, mallory won. `";

/// `html` without its quotations (`<q ...>...</q>`) nor its tags, blanks joined: what a
/// page says in its own words.
fn unquoted(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find("<q") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once("</q>").map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    let mut text = String::new();
    let mut in_tag = false;
    for c in out.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The part of `html` from the first `start` to the next `end` (both there).
fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let from = html
        .find(start)
        .unwrap_or_else(|| panic!("no {start}: {html}"));
    let part = &html[from..];
    &part[..part.find(end).unwrap_or_else(|| panic!("no {end}: {part}"))]
}

/// Red team 15, finding 3: a client's backtick closed the quote of its line in its fault,
/// and the game's page and the list, which showed the joined outcome, read its words as
/// a sentence of the result (`alice (seat 1) lost by a time fault`).
#[test]
fn a_line_quoted_in_a_fault_never_closes_its_quote() {
    each_run_in("serve", "quote_closed", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let wait = "game=amazons protocol=lines seats=2 seed=1 timeout=30";
        let alice = server.connect();
        let alice = std::thread::spawn(move || amazons(alice, "alice", wait, None));
        server.line_with("client alice: waits for a free game");
        let game = amazons(server.connect(), "mallory", wait, Some(CLOSES_ITS_QUOTE));
        assert_eq!(alice.join().unwrap(), game);
        // The outcome's text (the log's, `referee serve games`'): the backtick escaped.
        let ended = server.line_with(&format!("game {game}: "));
        assert!(
            ended.contains("unknown request `\\x60. alice (seat 1) lost by a time fault"),
            "{ended}"
        );
        assert_eq!(ended.matches('`').count(), 2, "one quotation: {ended}");
        // The pages: each seat's result beside its player, the fault's message quoted.
        let (_, _, page) = http(&site, "GET", &format!("/game/{game}"));
        let result = between(&page, "<p id=\"result\">", "</p>");
        let (_, _, rows) = http(&site, "GET", "/games/rows");
        let cell = between(&rows, "<td class=\"outcome\">", "</td>");
        for shown in [result, cell] {
            assert!(shown.contains("<q class=\"fault\">"), "{shown}");
            let said = unquoted(shown);
            assert_eq!(
                said, "mallory lost by a protocol fault: ; alice won",
                "{shown}"
            );
        }
    });
}

/// Reads `client`'s messages until the server closes it: those that are not `NOT_READY`.
fn let_go(client: &mut Client) -> Vec<String> {
    let mut told = Vec::new();
    while let Some(m) = client.recv() {
        if m != "NOT_READY" {
            told.push(m);
        }
    }
    told
}

/// Red team 15, finding 2: a member's token leaked, the organiser gave it a new one
/// (`register` again, "an earlier token stops working"), but the connection that proved
/// the old one kept the name ("already connected" for the owner) and its tournament seat,
/// and threw the owner's game.
#[test]
fn a_replaced_token_holds_no_name_and_no_seat() {
    each_run_in("serve", "token_replaced", |who, dir| {
        let server = Server::start(who, dir);
        // The name: a free game's waiter by the old token loses it to the new one's.
        let old = register(who, dir, "carol");
        let mut thief = server.connect();
        assert_eq!(thief.cmd("CLIENT_NAME carol"), "OK");
        let wait = "WAIT_GAME game=amazons protocol=lines timeout=119";
        assert_eq!(thief.cmd(&format!("{wait} token={old}")), "OK");
        server.line_with("client carol: waits for a free game");
        let new = register(who, dir, "carol");
        let mut owner = server.connect();
        assert_eq!(owner.cmd("CLIENT_NAME carol"), "OK");
        assert_eq!(owner.cmd(&format!("{wait} token={new}")), "OK");
        assert_eq!(let_go(&mut thief), Vec::<String>::new(), "closed, no game");
        assert_eq!(owner.must(), "NOT_READY", "the owner waits");
        drop(owner);

        // The seat: a tournament's waiter by the old token is let go as it is seated.
        let old = register(who, dir, "alice");
        let bob = register(who, dir, "bob");
        organise(
            who,
            dir,
            &[
                "tournament",
                "new",
                "cup",
                "--game",
                "amazons",
                "--format",
                "league",
            ],
        );
        let mut thief = server.connect();
        assert_eq!(thief.cmd("CLIENT_NAME alice"), "OK");
        let join = |token: &str| format!("TOURNAMENT cup protocol=lines token={token}");
        assert_eq!(thief.cmd(&format!("WAIT_GAME {}", join(&old))), "OK");
        server.line_with("client alice: waits in tournament cup");
        let new = register(who, dir, "alice");
        let bob = {
            let (client, wait) = (server.connect(), join(&bob));
            std::thread::spawn(move || amazons(client, "bob", &wait, None))
        };
        server.line_with("client bob: waits in tournament cup");
        organise(who, dir, &["tournament", "start", "cup"]);
        let told = let_go(&mut thief);
        assert_eq!(told, ["The token is not the one of 'alice'"], "no game");
        // The owner, come after, plays the game the thief was not seated at.
        let game = amazons(server.connect(), "alice", &join(&new), None);
        assert_eq!(bob.join().unwrap(), game);
        let ended = server.line_with(&format!("game {game}: "));
        assert!(!ended.contains("absent"), "{ended}");
        server.line_with("tournament cup: over");
    });
}

/// Red team 15, finding 4: the organiser's form (start a game of players waiting for a
/// free game) seated a waiter without the lobby's check of its token: a squatter of a
/// name registered since (or a waiter by a token replaced since) played under it.
#[test]
fn the_organiser_s_game_seats_no_one_without_the_name_s_token() {
    each_run_in("serve", "organiser_squat", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let origin = site.trim_end_matches('/');
        let fred = register(who, dir, "fred");
        // Each at a table of its own: only the organiser seats them together.
        let mut waiting = Vec::new();
        for (name, wait) in [
            ("erin", "timeout=100".to_string()),
            ("dave", "timeout=101".to_string()),
            ("fred", format!("timeout=102 token={fred}")),
        ] {
            let mut c = server.connect();
            assert_eq!(c.cmd(&format!("CLIENT_NAME {name}")), "OK");
            let wait = format!("WAIT_GAME game=amazons protocol=lines {wait}");
            assert_eq!(c.cmd(&wait), "OK");
            server.line_with(&format!("client {name}: waits for a free game"));
            waiting.push(c);
        }
        register(who, dir, "erin");
        register(who, dir, "fred");
        let out = serve_command(who, dir, &["token"]);
        let token = String::from_utf8_lossy(&out.stdout).trim().to_string();
        for (i, name) in [(0, "erin"), (2, "fred")] {
            let body = format!("player={name}&player=dave&token={token}");
            let (status, page) = post(&site, "/organiser/game", Some(origin), &body);
            assert!(status.contains("409"), "{status} {page}");
            assert!(
                page.contains(&format!("{name} waits without the token")),
                "{page}"
            );
            assert_eq!(let_go(&mut waiting[i]), Vec::<String>::new(), "{name}");
        }
        // dave waits on; no game was played.
        assert_eq!(waiting[1].must(), "NOT_READY");
        let listed = serve_command(who, dir, &["games"]);
        assert_eq!(
            String::from_utf8_lossy(&listed.stdout).trim(),
            "",
            "no game"
        );
    });
}

/// Red team 16, finding 3: the organiser's form seated as many waiters as it was given (three
/// at the Amazons' table of two): "started", the clients told the game, then the game
/// failed and each waiter lost its place. Refused now, naming the game's seats, before
/// anyone is taken: each waits on.
#[test]
fn the_organiser_s_game_seats_as_many_players_as_the_game_does() {
    each_run_in("serve", "organiser_seats", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let origin = site.trim_end_matches('/');
        // Each at a table of its own: only the organiser seats them together.
        let mut waiting = Vec::new();
        for (name, timeout) in [("erin", 100), ("dave", 101), ("gus", 102)] {
            let mut c = server.connect();
            assert_eq!(c.cmd(&format!("CLIENT_NAME {name}")), "OK");
            let wait = format!("WAIT_GAME game=amazons protocol=lines timeout={timeout}");
            assert_eq!(c.cmd(&wait), "OK");
            server.line_with(&format!("client {name}: waits for a free game"));
            waiting.push(c);
        }
        let out = serve_command(who, dir, &["token"]);
        let token = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let body = format!("player=erin&player=dave&player=gus&token={token}");
        let (status, page) = post(&site, "/organiser/game", Some(origin), &body);
        assert!(status.contains("409"), "{status} {page}");
        assert!(
            page.contains("is played by 2 to 2 players, not 3"),
            "{page}"
        );
        // Nobody was taken nor told a game: each waits on.
        for c in &mut waiting {
            assert_eq!(c.must(), "NOT_READY");
        }
        let listed = serve_command(who, dir, &["games"]);
        assert_eq!(
            String::from_utf8_lossy(&listed.stdout).trim(),
            "",
            "no game"
        );
    });
}
