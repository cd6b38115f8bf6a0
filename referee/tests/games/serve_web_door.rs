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
