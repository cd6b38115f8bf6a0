//! The site's door (`referee serve --web`, docs/server.md section 9, `serve/web/gate.rs`)
//! against visitors who hold what they should give back or ask what they should not: a
//! refused visitor dripping a byte at a time is closed after the refusal's linger, however
//! slowly it drips; the head of an event stream (`HEAD /events`) holds no live page; a
//! visitor who closes its sending side is answered every request it sent, in order; a
//! visitor gone (its connection reset) has the requests it left waiting dropped, never
//! acted on; a request that reaches the site without the door's source line is refused,
//! never taken for the server's own machine. Real sockets on the real binary, as root and
//! as a user.

use crate::common;
use crate::serve::{Server, WAIT};
use crate::serve_web::{http, site_of};
use crate::serve_web_hostile::{answer, connect, statuses, stream, until};
use common::users::each_run_in;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

#[test]
fn a_refused_visitor_dripping_a_byte_at_a_time_is_closed_after_the_linger() {
    each_run_in("serve", "web_refused_drip", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0", "--per-address", "1"]);
        let site = site_of(&server);
        // The source's one connection held; the next is refused, and drips for ever.
        let _held = stream(&site, "/events");
        let mut dripper = connect(&site);
        let head = until(&mut dripper, "\r\n\r\n");
        assert!(head.starts_with("HTTP/1.1 503"), "{head}");
        // A byte every 50 ms: each read of the refusal's linger (1 s) once saw one and
        // waited again, up to 64 KiB (54 minutes) of them, the refusal's slot held.
        let start = Instant::now();
        let closed = loop {
            if dripper.write_all(b"a").is_err() {
                break true;
            }
            if start.elapsed() > WAIT {
                break false;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(closed, "the refusal still read the drip after {WAIT:?}");
    });
}

#[test]
fn the_head_of_an_event_stream_holds_no_live_page() {
    each_run_in("serve", "web_head_stream", |who, dir| {
        let server =
            Server::start_with(who, dir, &["--web", "127.0.0.1:0", "--per-address", "100"]);
        let site = site_of(&server);
        // Eight heads, one source's share of streams (8), each answered at once and whole.
        for _ in 0..8 {
            let mut head = connect(&site);
            head.write_all(b"HEAD /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .unwrap();
            let said = answer(head);
            assert!(said.starts_with("HTTP/1.1 200"), "{said}");
            assert!(
                said.to_ascii_lowercase()
                    .contains("content-type: text/event-stream"),
                "{said}"
            );
            assert!(said.ends_with("\r\n\r\n"), "a head, no body: {said:?}");
        }
        // The share is whole: eight live pages of that source open.
        let streams: Vec<TcpStream> = (0..8).map(|_| stream(&site, "/events")).collect();
        drop(streams);
    });
}

#[test]
fn a_visitor_who_closes_its_sending_side_is_answered_every_request_it_sent() {
    each_run_in("serve", "web_half_closed", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        let page = "GET /assets/site.css HTTP/1.1\r\nHost: x\r\n\r\n";
        let last = "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n";
        let mut visitor = connect(&site);
        visitor
            .write_all(format!("{}{last}", page.repeat(3)).as_bytes())
            .unwrap();
        visitor.shutdown(Shutdown::Write).unwrap();
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

/// A form that makes tournament `name`, as the site's page posts it (the token, the site's
/// origin), kept alive.
fn new_tournament(site: &str, token: &str, name: &str) -> String {
    let origin = site.trim_end_matches('/');
    let addr = origin.trim_start_matches("http://");
    let body = format!("token={token}&name={name}&format=league");
    format!(
        "POST /organiser/tournament HTTP/1.1\r\nHost: {addr}\r\nOrigin: {origin}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[test]
fn the_requests_a_visitor_gone_left_waiting_are_never_acted_on() {
    each_run_in("serve", "web_gone", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0", "--per-address", "1"]);
        let site = site_of(&server);
        let token = std::fs::read_to_string(server.results.join("organiser.token")).unwrap();
        let token = token.trim();
        // The form acts for a visitor who stays.
        let mut kept = connect(&site);
        let form = new_tournament(&site, token, "kept");
        kept.write_all(form.as_bytes()).unwrap();
        let head = until(&mut kept, "\r\n\r\n");
        assert!(head.starts_with("HTTP/1.1 303"), "{head}");
        drop(kept);
        // The source's one connection is free once the door is done with a visitor.
        let freed = |what: &str| {
            common::wait_until(what, WAIT, || http(&site, "GET", "/").0.contains("200"))
        };
        freed("the kept visitor's connection freed");
        // Forms waiting behind an endless stream, then the visitor's connection reset (its
        // connection admitted once the probe before it is uncounted).
        let mut asked = String::from("GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
        for n in 0..3 {
            asked.push_str(&new_tournament(&site, token, &format!("gone{n}")));
        }
        let mut gone = None;
        common::wait_until("the gone visitor's stream", WAIT, || {
            let mut visitor = connect(&site);
            visitor.write_all(asked.as_bytes()).unwrap();
            let mut status = [0u8; 12];
            let live = visitor.read_exact(&mut status).is_ok() && status == *b"HTTP/1.1 200";
            gone = live.then_some(visitor);
            live
        });
        let mut gone = gone.unwrap();
        until(&mut gone, "retry: 2000\n\n");
        let linger = nix::libc::linger {
            l_onoff: 1,
            l_linger: 0,
        };
        nix::sys::socket::setsockopt(&gone, nix::sys::socket::sockopt::Linger, &linger).unwrap();
        drop(gone);
        // The list, once the source's one connection is free: the door is done with the
        // gone visitor, every request it passed on answered.
        let mut list = String::new();
        common::wait_until("the gone visitor's connection freed", WAIT, || {
            let (status, _, body) = http(&site, "GET", "/tournaments");
            list = body;
            status.contains("200")
        });
        assert!(list.contains("kept"), "{list}");
        assert!(
            !list.contains("gone"),
            "a form of a visitor gone acted: {list}"
        );
    });
}

#[test]
fn a_request_that_did_not_come_through_the_door_is_refused() {
    each_run_in("serve", "web_no_door", |who, dir| {
        let server = Server::start_with(who, dir, &["--web", "127.0.0.1:0"]);
        let site = site_of(&server);
        // Through the door, a visitor's own source line is replaced by the door's.
        let mut visitor = connect(&site);
        visitor
            .write_all(
                b"GET /assets/site.css HTTP/1.1\r\nHost: x\r\nX-Referee-Source: 10.0.0.1\r\n\
                  Connection: close\r\n\r\n",
            )
            .unwrap();
        let said = answer(visitor);
        assert!(said.starts_with("HTTP/1.1 200"), "{said}");
        // On the site's own socket, without the door: no source line, two, or one the door
        // never writes. None is taken for the server's machine (a stream of its kept ones).
        let socket = server.results.join(".web/site");
        for lines in [
            "",
            "X-Referee-Source: loopback\r\nX-Referee-Source: loopback\r\n",
            "X-Referee-Source: the organiser\r\n",
        ] {
            let mut inner = std::os::unix::net::UnixStream::connect(&socket).unwrap();
            inner.set_read_timeout(Some(WAIT)).unwrap();
            write!(
                inner,
                "GET /events HTTP/1.1\r\nHost: x\r\n{lines}Connection: close\r\n\r\n"
            )
            .unwrap();
            let said = answer(inner);
            assert!(
                said.starts_with("HTTP/1.1 400") && said.contains("did not come through"),
                "{lines:?}: {said}"
            );
        }
    });
}

/// The opens of the file `path` from now on, counted by the kernel (inotify).
struct Opens(nix::sys::inotify::Inotify);

impl Opens {
    fn of(path: &std::path::Path) -> Opens {
        use nix::sys::inotify::{AddWatchFlags, InitFlags, Inotify};
        let watch = Inotify::init(InitFlags::IN_NONBLOCK | InitFlags::IN_CLOEXEC).unwrap();
        watch.add_watch(path, AddWatchFlags::IN_OPEN).unwrap();
        Opens(watch)
    }

    /// The opens since the last count (all the kernel queued: none is on its way).
    fn count(&self) -> usize {
        let mut opens = 0;
        while let Ok(events) = self.0.read_events() {
            opens += events.len();
        }
        opens
    }
}

/// A page whose visitor left is computed to its end (nothing tells its thread), so a
/// storm of visitors asking the heaviest page (a finished game's board: its record read
/// and replayed) and leaving at once, then reloads, costs one computation: its record is
/// opened once, however many ask.
#[test]
fn a_storm_of_visitors_asking_the_heaviest_page_and_leaving_costs_one_computation() {
    each_run_in("serve", "web_page_storm", |who, dir| {
        let server =
            Server::start_with(who, dir, &["--web", "127.0.0.1:0", "--per-address", "100"]);
        let site = site_of(&server);
        let mut client = server.connect();
        let (game, first) = client.start("alice", "map=small start=0 timeout=60");
        let mut events = stream(&site, &format!("/game/{game}/events"));
        client.play_to_the_end(first);
        until(&mut events, "data: ended\n\n");
        let board = format!("/game/{game}/board");
        let opens = Opens::of(&server.results.join(&game).join("record.json"));
        for _ in 0..40 {
            let mut visitor = connect(&site);
            write!(visitor, "GET {board} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            drop(visitor);
        }
        for _ in 0..5 {
            let (status, _, page) = http(&site, "GET", &board);
            assert!(status.contains("200") && page.contains("seed "), "{status}");
        }
        assert_eq!(opens.count(), 1, "the record read once for 45 visitors");
    });
}

/// Eight games in play, each watched (its board and its growth asked, as its page does),
/// leave a finished board computed once: their answers, a new version each callback, are
/// kept apart from finished boards (red team 15: they pushed the finished board out between
/// two visits, each visit replayed its record again).
#[test]
fn games_in_play_watched_leave_a_finished_board_computed_once() {
    each_run_in("serve", "web_board_kept", |who, dir| {
        let server =
            Server::start_with(who, dir, &["--web", "127.0.0.1:0", "--per-address", "100"]);
        let site = site_of(&server);
        let mut client = server.connect();
        let (game, first) = client.start("alice", "map=small start=0 timeout=60");
        let mut events = stream(&site, &format!("/game/{game}/events"));
        client.play_to_the_end(first);
        until(&mut events, "data: ended\n\n");
        let board = format!("/game/{game}/board");
        let opens = Opens::of(&server.results.join(&game).join("record.json"));
        let visit = || {
            let (status, _, page) = http(&site, "GET", &board);
            assert!(status.contains("200") && page.contains("seed "), "{status}");
        };
        visit();
        // Counted after each visit: the kernel folds an open into the one before it still
        // unread.
        assert_eq!(opens.count(), 1, "the record read for the first visit");
        // Eight games in play, each with a move in its record.
        let players: Vec<_> = (0..8)
            .map(|i| {
                let mut player = server.connect();
                let (live, first) = player.start(&format!("p{i}"), "map=small start=0 timeout=60");
                match first {
                    true => assert_eq!(player.play("4").1, 0),
                    false => assert_eq!(player.opponent().2, 0),
                }
                (player, live)
            })
            .collect();
        for (_, live) in &players {
            let growth = format!("/game/{live}/board.json");
            common::wait_until("a move drawn", WAIT, || {
                let (status, _, body) = http(&site, "GET", &growth);
                assert!(!body.contains("ended"), "{live} in play: {body}");
                status.contains("200")
            });
            let (status, _, _) = http(&site, "GET", &format!("/game/{live}/board"));
            assert!(status.contains("200"), "{status}");
        }
        visit();
        assert_eq!(
            opens.count(),
            0,
            "the record read again, games in play watched between"
        );
        drop(players);
    });
}

/// A connection to the site from the local address `from` (all of 127/8 is local).
fn connect_from(site: &str, from: [u8; 4]) -> TcpStream {
    use nix::sys::socket::{bind, connect, socket, AddressFamily, SockFlag, SockType, SockaddrIn};
    use std::os::fd::AsRawFd;
    let port: u16 = site
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let fd = socket(
        AddressFamily::Inet,
        SockType::Stream,
        SockFlag::SOCK_CLOEXEC,
        None,
    )
    .unwrap();
    let [a, b, c, d] = from;
    bind(fd.as_raw_fd(), &SockaddrIn::new(a, b, c, d, 0)).unwrap();
    connect(fd.as_raw_fd(), &SockaddrIn::new(127, 0, 0, 1, port)).unwrap();
    let stream = TcpStream::from(fd);
    stream.set_read_timeout(Some(WAIT)).unwrap();
    stream
}

/// The list's event stream asked from `from` with the header line `line`: the connection
/// and the answer's head.
fn stream_from(site: &str, from: [u8; 4], line: &str) -> (TcpStream, String) {
    let mut stream = connect_from(site, from);
    write!(stream, "GET /events HTTP/1.0\r\nHost: x\r\n{line}\r\n\r\n").unwrap();
    let head = until(&mut stream, "\r\n\r\n");
    (stream, head)
}

/// `--web-proxy ADDR`: the visitor the proxy forwards (the last hop it wrote) is the
/// source of each of its requests for the site's per-source bounds (8 live pages a
/// source), the proxy's connections past `--per-address`; a visitor naming another one
/// in the header directly is its own source still, and a proxied request naming its
/// visitor in both headers is refused.
#[test]
fn a_trusted_proxy_s_visitors_are_their_own_sources_and_a_forged_header_is_ignored() {
    each_run_in("serve", "web_proxy", |who, dir| {
        let server = Server::start_with(
            who,
            dir,
            &[
                "--web",
                "127.0.0.1:0",
                "--per-address",
                "12",
                "--web-proxy",
                "127.0.0.2",
            ],
        );
        let site = site_of(&server);
        let proxy = [127, 0, 0, 2];
        // A visitor's own forged hop comes first; the proxy's last.
        let held: Vec<TcpStream> = (0..8)
            .map(|_| {
                let line = "X-Forwarded-For: 192.0.2.77, 192.0.2.1";
                let (stream, head) = stream_from(&site, proxy, line);
                assert!(head.starts_with("HTTP/1.1 200"), "{head}");
                stream
            })
            .collect();
        let (over, head) = stream_from(&site, proxy, "X-Forwarded-For: 192.0.2.1");
        assert!(head.contains(" 503 "), "{head}");
        assert!(answer(over).contains("from your machine"));
        // Other visitors of the proxy: their own shares, past its 12 connections.
        let others: Vec<TcpStream> = (2..7)
            .map(|i| {
                let line = format!("Forwarded: for=\"192.0.2.{i}:4711\";proto=http");
                let (stream, head) = stream_from(&site, proxy, &line);
                assert!(head.starts_with("HTTP/1.1 200"), "{head}");
                stream
            })
            .collect();
        let (both, head) = stream_from(
            &site,
            proxy,
            "X-Forwarded-For: 192.0.2.9\r\nForwarded: for=192.0.2.9",
        );
        assert!(head.contains(" 400 "), "{head}");
        drop(both);
        // Straight from another address, every forwarded visitor is that address: one
        // source, its share of 8 whole at the ninth.
        let forger = [127, 0, 0, 3];
        let forged: Vec<TcpStream> = (0..8)
            .map(|i| {
                let line = format!("X-Forwarded-For: 198.51.100.{i}");
                let (stream, head) = stream_from(&site, forger, &line);
                assert!(head.starts_with("HTTP/1.1 200"), "{head}");
                stream
            })
            .collect();
        let (over, head) = stream_from(&site, forger, "Forwarded: for=198.51.100.99");
        assert!(head.contains(" 503 "), "{head}");
        assert!(answer(over).contains("from your machine"));
        drop((held, others, forged));
    });
}

/// Behind `--web-proxy`, each request counts for the visitor the proxy forwards until its
/// answer ends, within the `--per-address` share: a visitor holding its share (two live
/// pages here) is answered 503 for one more, whatever connection of the proxy carries it,
/// while another visitor of the proxy is served; once one of its pages ends, it is served
/// again (red team 15: one visitor who left each request at once kept 100+ pages
/// computing, the proxy's connections counted for nobody). A proxy named 127.0.0.1, the
/// address of the organiser's own browser, is said at start with the fix.
#[test]
fn a_proxied_visitor_holds_at_most_its_share_of_the_site() {
    each_run_in("serve", "web_proxy_share", |who, dir| {
        let server = Server::start_with(
            who,
            dir,
            &[
                "--web",
                "127.0.0.1:0",
                "--per-address",
                "2",
                "--web-proxy",
                "127.0.0.2",
            ],
        );
        let site = site_of(&server);
        let proxy = [127, 0, 0, 2];
        let visitor = "X-Forwarded-For: 192.0.2.1";
        let mut held: Vec<TcpStream> = (0..2)
            .map(|_| {
                let (stream, head) = stream_from(&site, proxy, visitor);
                assert!(head.starts_with("HTTP/1.1 200"), "{head}");
                stream
            })
            .collect();
        let page = |line: &str| {
            let mut asking = connect_from(&site, proxy);
            write!(asking, "GET / HTTP/1.0\r\nHost: x\r\n{line}\r\n\r\n").unwrap();
            answer(asking)
        };
        let over = page(visitor);
        assert!(
            over.starts_with("HTTP/1.1 503") && over.contains("from your machine"),
            "{over}"
        );
        // The site answers HTTP/1.0 in kind.
        let other = page("X-Forwarded-For: 192.0.2.2");
        assert!(other.starts_with("HTTP/1.0 200"), "{other}");
        // One of its pages closed: its request ends, the visitor is served again.
        drop(held.pop());
        common::wait_until("the visitor's page ended", WAIT, || {
            page(visitor).starts_with("HTTP/1.0 200")
        });
        drop(held);
        // Said before anything is served (here a results folder that cannot be made ends
        // the server at once).
        let file = dir.join("a-file");
        std::fs::write(&file, "").unwrap();
        let out = crate::serve::serve_command(
            who,
            &file,
            &["--web", "127.0.0.1:0", "--web-proxy", "127.0.0.1"],
        );
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("web proxy 127.0.0.1: a browser on this machine")
                && said.contains("proxy_bind 127.0.0.2"),
            "{said}"
        );
    });
}
