//! The game server's web site (`referee serve --web`, docs/server.md section 9) against
//! visitors who want what they must not have or to take the site down: a player reading
//! every route and event stream of its own game while it is played finds neither the seed
//! the server drew (it deals every hand, ticket and card of the pile) nor a seat's hand or
//! tickets; a header line without end is refused at its bound; idle connections hold no
//! more than their source's share, and not for ever; event streams past their bound are
//! refused while pages are still served, one source's past its share; requests pipelined
//! behind an endless stream wait their turn in the door and take no other visitor's place;
//! requests smuggled in another's body (two lengths, a folded line, a bare CR) are never
//! read as requests;
//! a page number past every page logs nothing; a flood of pages that read every game of a
//! player, or of tournaments (the list, a tournament's page, the organiser's), never holds
//! the game server's store; a list of games is read a page at a time.
//! Real sockets on the real binary, as root and as a user.

use crate::serve::{Server, WAIT};
use crate::serve_web::{http, site_of};

use common::users::each_run_in;
use std::io::{Read, Write};
use std::net::TcpStream;

use crate::common;

/// An event stream of the site opened at `path`: its socket, its head read.
pub(crate) fn stream(site: &str, path: &str) -> TcpStream {
    let addr = site.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let head = until(&mut stream, "retry: 2000\n\n");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    stream
}

/// What `stream` says up to and including `end`.
pub(crate) fn until(stream: &mut TcpStream, end: &str) -> String {
    let mut said = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&said).ends_with(end) {
        let n = stream.read(&mut byte).expect("the stream goes on");
        assert_eq!(n, 1, "the stream ended: {}", String::from_utf8_lossy(&said));
        said.push(byte[0]);
    }
    String::from_utf8(said).unwrap()
}

/// The JSON of the replay page's data (`<script type="application/json" id="ticket">`).
fn page_data(page: &str) -> serde_json::Value {
    let (_, rest) = page
        .split_once(r#"<script type="application/json" id="ticket">"#)
        .expect("the page's data");
    let (json, _) = rest.split_once("</script>").unwrap();
    serde_json::from_str(json).unwrap()
}

/// No seat's hand nor tickets in any state of `data` (the live board's).
fn hides_the_cards(data: &serde_json::Value, route: &str) {
    assert_eq!(data["hidden"], true, "{route}");
    let states = data["states"].as_array().unwrap();
    assert!(!states.is_empty(), "{route}");
    for state in states {
        for seat in state["seats"].as_array().unwrap() {
            assert_eq!(seat["hand"], serde_json::json!([]), "{route}: {seat}");
            assert_eq!(seat["tickets"], serde_json::json!([]), "{route}: {seat}");
        }
    }
}

#[test]
fn a_game_in_play_shows_no_seed_nor_hidden_card_on_any_route() {
    each_run_in("serve", "web_no_seed", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let mut list_events = stream(&site, "/events");

        // A training game of a seed the server draws; two moves played.
        let mut client = server.connect();
        let (game, first) = client.start("alice", "map=small start=0 timeout=60");
        assert!(first);
        let (_, code) = client.play("4");
        assert_eq!(code, 0);
        let (_, code) = client.play("5 1 1 0");
        assert_eq!(code, 0);

        // Everything the site says of it while it is played.
        let mut said = vec![(
            "/events".to_string(),
            until(&mut list_events, "data: changed\n\n"),
        )];
        let mut game_events = stream(&site, &format!("/game/{game}/events"));
        said.push((
            format!("/game/{game}/events"),
            until(&mut game_events, "data: moved\n\n"),
        ));
        for route in [
            "/".to_string(),
            "/games".to_string(),
            "/games/rows".to_string(),
            "/games?player=alice&state=playing".to_string(),
            format!("/game/{game}"),
            format!("/game/{game}/summary"),
            format!("/game/{game}/board"),
            format!("/game/{game}/board.json"),
            "/player/alice".to_string(),
        ] {
            let (status, headers, body) = http(&site, "GET", &route);
            assert!(status.contains("200"), "{route}: {status}");
            said.push((route, format!("{status}\n{headers}\n\n{body}")));
        }
        let board = &said.iter().find(|(r, _)| r.ends_with("/board")).unwrap().1;
        hides_the_cards(&page_data(board), "board");
        let json = &said
            .iter()
            .find(|(r, _)| r.ends_with("board.json"))
            .unwrap()
            .1;
        let json: serde_json::Value =
            serde_json::from_str(json.split_once("\n\n").unwrap().1).unwrap();
        hides_the_cards(&json["data"], "board.json");

        // The game ends: its record names the seed the server drew.
        let (code, _) = client.play_to_the_end(false);
        assert!(code == 1 || code == -1);
        let record = std::fs::read_to_string(server.results.join(&game).join("record.json"))
            .expect("the game's record");
        let record: serde_json::Value = serde_json::from_str(&record).unwrap();
        let seed = record["seed"].as_u64().unwrap().to_string();
        assert!(seed.len() > 6, "a seed of 64 bits drawn: {seed}");
        for (route, text) in &said {
            assert!(
                !text.contains(&seed),
                "{route} showed the seed {seed} while the game was played:\n{text}"
            );
        }
        // Once the game ended (the site told), its replay page is its record's: the seed
        // with it.
        until(&mut game_events, "data: ended\n\n");
        common::wait_until("the record's replay page", WAIT, || {
            let (_, _, page) = http(&site, "GET", &format!("/game/{game}/board"));
            page.contains(&format!("seed {seed}"))
        });
    });
}

/// A connection to the site, nothing sent yet.
pub(crate) fn connect(site: &str) -> TcpStream {
    let addr = site.trim_start_matches("http://").trim_end_matches('/');
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    stream
}

/// Everything `stream` says until it closes.
pub(crate) fn answer(mut stream: impl Read) -> String {
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .expect("an answer, then the end");
    String::from_utf8_lossy(&answer).into_owned()
}

/// What `stream` says until it closes or [`WAIT`] passed in all (an endless stream that
/// keeps talking ends the read too: the caller's assertions then see it).
fn answer_within_wait(mut stream: TcpStream) -> String {
    let end = std::time::Instant::now() + WAIT;
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let left = end.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            break;
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn a_request_head_without_end_is_refused_at_its_bound() {
    each_run_in("serve", "web_head_bomb", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        // A header line that never ends: twice the bound, then silence.
        let mut bomb = connect(&site);
        bomb.write_all(b"GET / HTTP/1.1\r\nX-Bomb: ").unwrap();
        let _ = bomb.write_all(&[b'a'; 32 * 1024]);
        let said = answer(bomb);
        assert!(
            said.starts_with("HTTP/1.1 431") && said.contains("too long"),
            "{said}"
        );
        let (status, ..) = http(&site, "GET", "/");
        assert!(status.contains("200"), "the site serves on: {status}");
    });
}

#[test]
fn idle_connections_are_bounded_by_source_and_by_time() {
    each_run_in("serve", "web_idle", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0", "--per-address", "3"]);
        let site = site_of(&server);
        // Three connections that send nothing hold the source's share...
        let idle: Vec<TcpStream> = (0..3).map(|_| connect(&site)).collect();
        let (status, _, body) = http(&site, "GET", "/");
        assert!(
            status.contains("503") && body.contains("from your machine"),
            "{status} {body}"
        );
        // ...until their time for a request is over: each is told, then closed.
        for stream in idle {
            let said = answer(stream);
            assert!(said.starts_with("HTTP/1.1 408"), "{said}");
        }
        // Closed, they are counted no more (the server sees the close a moment later).
        common::wait_until("the site serving again", WAIT, || {
            http(&site, "GET", "/").0.contains("200")
        });
    });
}

#[test]
fn event_streams_past_their_source_s_share_are_refused_and_pages_still_served() {
    each_run_in("serve", "web_streams", |who, dir| {
        let server =
            Server::start_with(who, dir, &["--web", "127.0.0.1:0", "--per-address", "100"]);
        let site = site_of(&server);
        // Streams that never read past their head, up to one source's share (8 of 64).
        let open: Vec<TcpStream> = (0..8).map(|_| self::stream(&site, "/events")).collect();
        let mut one_more = connect(&site);
        write!(one_more, "GET /events HTTP/1.0\r\n\r\n").unwrap();
        let head = until(&mut one_more, "\r\n\r\n");
        assert!(head.contains(" 503 "), "{head}");
        let said = answer(one_more);
        assert!(
            said.contains("Too many live pages are open from your machine"),
            "{said}"
        );
        let (status, ..) = http(&site, "GET", "/");
        assert!(status.contains("200"), "pages are still served: {status}");
        drop(open);
    });
}

/// Every answer's status line in `said`, in order.
pub(crate) fn statuses(said: &str) -> Vec<&str> {
    said.match_indices("HTTP/1.1 ")
        .map(|(at, _)| &said[at..at + 12])
        .collect()
}

#[test]
fn requests_pipelined_behind_a_stream_wait_their_turn_and_take_nothing_from_others() {
    each_run_in("serve", "web_pipeline", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        // One connection: a stream that never ends, then 600 more asked behind it.
        let mut attacker = connect(&site);
        let ask = "GET /events HTTP/1.1\r\nHost: x\r\n\r\n";
        attacker.write_all(ask.repeat(601).as_bytes()).unwrap();
        let head = until(&mut attacker, "retry: 2000\n\n");
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        // Another visitor is served, its page and its own stream.
        let (status, ..) = http(&site, "GET", "/");
        assert!(status.contains("200"), "{status}");
        let _live = self::stream(&site, "/events");
        // The site started one stream for the attacker, not 601: its share is not spent.
        let more: Vec<TcpStream> = (0..6).map(|_| self::stream(&site, "/events")).collect();
        drop((attacker, more));

        // Pipelined pages on one kept-alive connection: answered each in turn, in order.
        let mut visitor = connect(&site);
        let page = "GET /assets/site.css HTTP/1.1\r\nHost: x\r\n\r\n";
        let last = "GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        visitor
            .write_all(format!("{}{last}", page.repeat(3)).as_bytes())
            .unwrap();
        let said = answer(visitor);
        assert_eq!(
            statuses(&said),
            [
                "HTTP/1.1 200",
                "HTTP/1.1 200",
                "HTTP/1.1 200",
                "HTTP/1.1 404"
            ],
            "{said}"
        );
    });
}

#[test]
fn a_request_smuggled_in_another_s_body_is_never_read_as_a_request() {
    each_run_in("serve", "web_smuggle", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        // Behind the carrier, requests the door would never see: nine streams said to come
        // from loopback (past the 8 of one source), then a page that names itself.
        let mut smuggled =
            "GET /events HTTP/1.1\r\nHost: x\r\nX-Referee-Source: loopback\r\n\r\n".repeat(9);
        smuggled.push_str("GET /smuggled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let n = smuggled.len();
        let carriers = [
            // Two lengths: the door once took the last, the site takes the first.
            (
                format!("GET /events HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: {n}\r\n\r\n"),
                "400",
            ),
            (
                format!("GET /events HTTP/1.1\r\nContent-Length: {n}\r\nContent-Length: 0\r\n\r\n"),
                "400",
            ),
            // A length in a folded line, a length past a bare CR, a length with a sign.
            (
                format!("GET /events HTTP/1.1\r\nX: a\r\n Content-Length: {n}\r\n\r\n"),
                "400",
            ),
            (
                format!("GET /events HTTP/1.1\r\nX: a\rContent-Length: {n}\r\n\r\n"),
                "400",
            ),
            (
                format!("GET /events HTTP/1.1\r\nContent-Length: +{n}\r\n\r\n"),
                "400",
            ),
            // Lines ended by LF alone: read as one request with its body, not as three.
            (
                format!(
                    "GET /assets/site.css HTTP/1.1\nContent-Length: {n}\nConnection: close\n\n"
                ),
                "200",
            ),
        ];
        for (carrier, status) in carriers {
            let mut attacker = connect(&site);
            attacker
                .write_all(format!("{carrier}{smuggled}").as_bytes())
                .unwrap();
            // Bounded: smuggled streams, were they answered, would never end the answer.
            let said = answer_within_wait(attacker);
            assert_eq!(
                statuses(&said),
                [format!("HTTP/1.1 {status}")],
                "one answer to {carrier:?}: {said}"
            );
            assert!(!said.contains("No such page"), "{said}");
        }
        // The organiser is served: its page and its own streams, loopback's share whole.
        let (status, ..) = http(&site, "GET", "/");
        assert!(status.contains("200"), "{status}");
        let _live: Vec<TcpStream> = (0..8).map(|_| self::stream(&site, "/events")).collect();
    });
}

#[test]
fn a_page_number_past_every_page_is_the_last_one_and_logs_nothing() {
    each_run_in("serve", "web_page_number", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let mut visitor = connect(&site);
        let ask = "GET /?page=18446744073709551615 HTTP/1.1\r\nHost: x\r\n\r\n";
        let last = "GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        visitor
            .write_all(format!("{}{last}", ask.repeat(30)).as_bytes())
            .unwrap();
        let said = answer(visitor);
        let mut expected = vec!["HTTP/1.1 200"; 30];
        expected.push("HTTP/1.1 404");
        assert_eq!(statuses(&said), expected, "{said}");
        // The site's answers are all in: nothing of theirs is in the log.
        server.line_with("web site on");
        assert_eq!(server.lines_with("web:"), Vec::<String>::new());
    });
}

#[test]
fn a_flood_of_pages_never_holds_the_game_server() {
    each_run_in("serve", "web_page_flood", |who, dir| {
        // A store of 150,000 finished games of alice: her page reads them all.
        let first = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        site_of(&first);
        drop(first);
        let mut store = rusqlite::Connection::open(dir.join("results/server.sqlite")).unwrap();
        let tx = store.transaction().unwrap();
        for i in 0..150_000u32 {
            tx.execute(
                "INSERT INTO games (name, game, kind, seats, state, outcome, started)
                 VALUES (?1, 'ticket-to-ride', 'free', 'alice,bob', 'finished',
                 'alice (seat 0) won, bob (seat 1) lost', ?2)",
                rusqlite::params![format!("{i:012x}"), 1_000 + i],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        drop(store);
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);

        // Six visitors ask alice's page at once; each answer is told in order.
        let (told, heard) = std::sync::mpsc::channel();
        let flood: Vec<_> = (0..6)
            .map(|_| {
                let (site, told) = (site.clone(), told.clone());
                std::thread::spawn(move || {
                    let (status, ..) = http(&site, "GET", "/player/alice");
                    let _ = told.send(format!("page {status}"));
                })
            })
            .collect();
        // Once a page is answered, the others are being read: a client names itself
        // (the store checks its name) and is answered before the next page.
        let first = heard.recv().unwrap();
        assert!(first.contains("200"), "{first}");
        let mut client = server.connect();
        let named = client.cmd("CLIENT_NAME carol");
        told.send(format!("client {named}")).unwrap();
        let next = heard.recv().unwrap();
        assert!(
            next.starts_with("client"),
            "the client waited for a page: {next}"
        );
        for visitor in flood {
            visitor.join().unwrap();
        }
    });
}

#[test]
fn a_flood_of_tournament_pages_never_holds_the_game_server() {
    each_run_in("serve", "web_tournament_flood", |who, dir| {
        // A store after a season: 40 finished leagues of 64 players, 2,016 games each.
        let first = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        site_of(&first);
        drop(first);
        let mut store = rusqlite::Connection::open(dir.join("results/server.sqlite")).unwrap();
        let tx = store.transaction().unwrap();
        for t in 0..40u32 {
            let name = format!("season{t}");
            tx.execute(
                "INSERT INTO tournaments (name, format, seats, rounds, pool, qualify, advance,
                 map, timeout, state, winner, created, max_players)
                 VALUES (?1, 'league', 2, 1, 4, 2, 1, 'usa', 10, 'finished', 'p0', ?2, 64)",
                rusqlite::params![name, 1_000 + t],
            )
            .unwrap();
            for p in 0..64u32 {
                tx.execute(
                    "INSERT INTO tournament_players (tournament, player, joined, rank, points)
                     VALUES (?1, ?2, ?3, ?3, ?3)",
                    rusqlite::params![name, format!("p{p}"), p + 1],
                )
                .unwrap();
                for q in p + 1..64 {
                    let game = format!("{t:04x}{p:04x}{q:04x}");
                    tx.execute(
                        "INSERT INTO games (name, game, kind, seats, state, outcome, started)
                         VALUES (?1, 'ticket-to-ride', 'tournament', ?2, 'finished',
                         'won, lost', 1000)",
                        rusqlite::params![game, format!("p{p},p{q}")],
                    )
                    .unwrap();
                    tx.execute(
                        "INSERT INTO tournament_games (tournament, game, phase)
                         VALUES (?1, ?2, 'league')",
                        rusqlite::params![name, game],
                    )
                    .unwrap();
                }
            }
        }
        tx.commit().unwrap();
        drop(store);
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let (_, _, list) = http(&site, "GET", "/tournaments");
        assert_eq!(list.matches("data-tournament=").count(), 40, "{list}");
        assert!(list.contains("<td class=\"n\">2016</td>"), "{list}");

        // Visitors ask every tournament page at once, a season's page the most (2,016
        // games); each answer is told in order.
        let (told, heard) = std::sync::mpsc::channel();
        let pages = [
            "/tournament/season0",
            "/tournaments",
            "/tournament/season1",
            "/organiser",
        ];
        let flood: Vec<_> = (0..12)
            .map(|i| {
                let (site, told, page) = (site.clone(), told.clone(), pages[i % 4]);
                std::thread::spawn(move || {
                    let (status, ..) = http(&site, "GET", page);
                    let _ = told.send(format!("page {page} {status}"));
                })
            })
            .collect();
        // Once a page is answered, the others are being read: a client names itself
        // (the store checks its name) and is answered before the flood is over.
        let first = heard.recv().unwrap();
        assert!(first.contains("200"), "{first}");
        let mut client = server.connect();
        let named = client.cmd("CLIENT_NAME carol");
        told.send(format!("client {named}")).unwrap();
        for visitor in flood {
            visitor.join().unwrap();
        }
        drop(told);
        let order: Vec<String> = heard.iter().collect();
        assert!(
            order
                .iter()
                .all(|said| said.ends_with("200 OK") || said.starts_with("client")),
            "{order:?}"
        );
        assert_ne!(
            order.last().map(|said| &said[..6]),
            Some("client"),
            "the client waited for every page: {order:?}"
        );
    });
}

#[test]
fn the_lists_are_read_a_page_at_a_time_their_filters_kept() {
    each_run_in("serve", "web_pages", |who, dir| {
        // A store of 120 finished games of alice (every other one lost by a fault).
        let first = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        site_of(&first);
        drop(first);
        let store = rusqlite::Connection::open(dir.join("results/server.sqlite")).unwrap();
        for i in 0..120u32 {
            // Each seat's result on its own line, as the server keeps them.
            let (outcome, results) = match i % 2 {
                0 => ("alice (seat 0) won, bob (seat 1) lost", "won\nlost"),
                _ => (
                    "alice (seat 0) lost by a protocol fault: jouer: bad, bob (seat 1) won",
                    "lost by a protocol fault: jouer: bad\nwon",
                ),
            };
            store
                .execute(
                    "INSERT INTO games (name, game, kind, seats, state, outcome, results, started)
                     VALUES (?1, 'ticket-to-ride', 'free', 'alice,bob', 'finished', ?2, ?3, ?4)",
                    rusqlite::params![format!("{i:012x}"), outcome, results, 1_000 + i],
                )
                .unwrap();
        }
        drop(store);
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let rows = |body: &str| body.matches("<tr class=\"game").count();

        let (_, _, first) = http(&site, "GET", "/");
        assert_eq!(rows(&first), 50, "{first}");
        assert!(first.contains("page 1 of 3 · 120 games"), "{first}");
        assert!(first.contains("data-game=\"000000000077\""), "newest first");
        assert!(first.contains("href=\"?page=2\""), "{first}");
        let (_, _, last) = http(&site, "GET", "/games/rows?page=3");
        assert_eq!(rows(&last), 20, "{last}");
        assert!(last.contains("data-game=\"000000000000\""), "oldest last");

        let (_, _, kept) = http(&site, "GET", "/?player=alice&state=finished&page=2");
        assert_eq!(rows(&kept), 50);
        assert!(
            kept.contains("href=\"?player=alice&amp;state=finished&amp;page=3\"")
                && kept.contains("href=\"?player=alice&amp;state=finished&amp;page=1\""),
            "{kept}"
        );
        let (_, _, none) = http(&site, "GET", "/?player=carol");
        assert_eq!(rows(&none), 0);
        assert!(none.contains("page 1 of 1 · 0 games"), "{none}");

        let (_, _, alice) = http(&site, "GET", "/player/alice?page=2");
        assert_eq!(rows(&alice), 50, "{alice}");
        assert!(
            alice.contains("120 games · 60 won · 60 faults"),
            "counts of all the games: {alice}"
        );
    });
}
