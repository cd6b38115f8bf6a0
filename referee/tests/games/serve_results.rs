//! `referee serve`'s results and names against clients who want another's: a fault's
//! message quoting a forged result never rewrites its opponent's on the pages; a client
//! never takes a built-in champion's name; a name taken before it was registered is its
//! owner's once the owner proves its token, and no game is played under it without the
//! token. The real binary, real sockets, as root and as a user.

use crate::common;
use crate::serve::{serve_command, Client, Server};
use crate::serve_web::{http, site_of};

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
