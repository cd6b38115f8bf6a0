//! The site's event streams (server-sent events): `/events` says `changed` whenever a game
//! starts, moves or ends (the list fetches its rows again); `/game/NAME/events` says
//! `moved` while game NAME is played (its board fetches its data so far) and `ended` once
//! its record is written; `/tournament/NAME/events` says `changed` when tournament NAME
//! does (a game started or ended, players went on). A stream says at most one event each
//! `PACE`, however fast the games go, and a comment line when nothing happened for `QUIET`
//! (a browser gone is seen when that write fails). At most [`MAX_STREAMS`] are open at once (the site's other
//! connections stay for pages); one more is answered 503.

use crate::serve::Server;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tiny_http::Request;

/// The shortest time between two events of one stream.
const PACE: Duration = Duration::from_millis(200);
/// The longest silence of a stream.
const QUIET: Duration = Duration::from_secs(15);

/// Most event streams open at once: a quarter of the site's connections.
pub const MAX_STREAMS: usize = super::gate::MAX_CONNECTIONS as usize / 4;

/// The event streams open (one site a server).
static OPEN: AtomicUsize = AtomicUsize::new(0);

/// An open stream, counted until dropped.
struct Counted;

impl Drop for Counted {
    fn drop(&mut self) {
        OPEN.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The stream's writer, its headers sent, counted; or the refusal of one too many.
fn open(request: Request) -> Option<(Box<dyn Write + Send>, Counted)> {
    if OPEN.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        OPEN.fetch_sub(1, Ordering::SeqCst);
        super::respond::error(
            request,
            503,
            "Too many live pages are open on this site: this one is not kept up to date; \
             reload it in a moment",
        );
        return None;
    }
    let counted = Counted;
    let mut out = request.into_writer();
    out.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
          X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\nretry: 2000\n\n",
    )
    .ok()?;
    out.flush().ok()?;
    Some((out, counted))
}

fn event(out: &mut dyn Write, name: &str) -> std::io::Result<()> {
    out.write_all(format!("event: {name}\ndata: {name}\n\n").as_bytes())?;
    out.flush()
}

/// `/events`: every change of the games.
pub fn games(request: Request, server: &Server) {
    let Some((mut out, _counted)) = open(request) else {
        return;
    };
    let mut seen = server.web.version();
    loop {
        let now = server.web.wait(seen, Instant::now() + QUIET);
        let sent = match now > seen {
            true => event(&mut out, "changed"),
            false => out.write_all(b": quiet\n\n").and_then(|()| out.flush()),
        };
        if sent.is_err() {
            return;
        }
        seen = now;
        std::thread::sleep(PACE);
    }
}

/// `/game/NAME/events`: game NAME's moves and end.
pub fn game(request: Request, server: &Server, name: &str) {
    if !super::is_name(name) {
        return super::respond::error(request, 404, "No such game on this server");
    }
    let Some((mut out, _counted)) = open(request) else {
        return;
    };
    // The page was made before the stream opened: it is told where the game is now.
    let mut seen = server.web.version();
    let first = match server.web.live(name) {
        Some(_) => "moved",
        None => "ended",
    };
    if event(&mut out, first).is_err() || first == "ended" {
        return;
    }
    loop {
        let now = server.web.wait(seen, Instant::now() + QUIET);
        let sent = match server.web.news(name, seen) {
            Some(true) => {
                let _ = event(&mut out, "ended");
                return;
            }
            Some(false) => event(&mut out, "moved"),
            None if now == seen => out.write_all(b": quiet\n\n").and_then(|()| out.flush()),
            None => Ok(()),
        };
        if sent.is_err() {
            return;
        }
        seen = now;
        std::thread::sleep(PACE);
    }
}

/// `/tournament/NAME/events`: tournament NAME changed (a game started or ended, players
/// went on): its page fetches its parts again.
pub fn tournament(request: Request, server: &Server, name: &str) {
    if !super::is_name(name) {
        return super::respond::error(request, 404, "No such tournament on this server");
    }
    let Some((mut out, _counted)) = open(request) else {
        return;
    };
    let mut seen = server.web.version();
    loop {
        let now = server.web.wait(seen, Instant::now() + QUIET);
        let sent = match server.web.tournament_news(name, seen) {
            true => event(&mut out, "changed"),
            false if now == seen => out.write_all(b": quiet\n\n").and_then(|()| out.flush()),
            false => Ok(()),
        };
        if sent.is_err() {
            return;
        }
        seen = now;
        std::thread::sleep(PACE);
    }
}
