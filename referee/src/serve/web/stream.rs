//! The site's event streams (server-sent events): `/events` says `changed` whenever a game
//! starts, moves or ends (the list fetches its rows again); `/game/NAME/events` says
//! `moved` while game NAME is played (its board fetches its data so far) and `ended` once
//! its record is written; `/tournament/NAME/events` says `changed` when tournament NAME
//! does (a game started or ended, players went on). A stream says at most one event each
//! `PACE`, however fast the games go, and a comment line when nothing happened for `QUIET`
//! (a browser gone is seen when that write fails, or at once when the visitor closes: the
//! door closes it). At most [`MAX_STREAMS`] are open at once (the site's other connections
//! stay for pages), [`SHARE`] of one source, [`KEPT`] of them only for the server's own
//! machine; one more is answered 503.

use crate::serve::address::Source;
use crate::serve::Server;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tiny_http::Request;

/// The shortest time between two events of one stream.
const PACE: Duration = Duration::from_millis(200);
/// The longest silence of a stream: its slot is freed at most this long after its
/// visitor left (the door closes the site's side at once; the next write fails).
const QUIET: Duration = Duration::from_secs(2);

/// Most event streams open at once: a quarter of the site's connections.
pub const MAX_STREAMS: usize = super::gate::MAX_CONNECTIONS as usize / 4;
/// Most event streams of one source: an eighth of all, so that a few machines never hold
/// them all.
pub const SHARE: usize = MAX_STREAMS / 8;
/// The streams kept for the server's own machine (loopback: the organiser's browser on
/// it, or a tunnel to it): other sources together never hold more than the rest.
pub const KEPT: usize = SHARE;

/// The event streams open, in all and by source (one site a server).
static OPEN: Mutex<(usize, Option<HashMap<Source, usize>>)> = Mutex::new((0, None));

fn open_streams() -> std::sync::MutexGuard<'static, (usize, Option<HashMap<Source, usize>>)> {
    OPEN.lock().unwrap_or_else(|e| e.into_inner())
}

/// An open stream of a source, counted until dropped.
#[derive(Debug)]
struct Counted(Source);

impl Counted {
    /// The stream of `source` counted, or why it is refused.
    fn of(source: Source) -> Result<Counted, &'static str> {
        let mut open = open_streams();
        let (all, by) = &mut *open;
        let by = by.get_or_insert_with(HashMap::new);
        let count = |s: &Source| by.get(s).copied().unwrap_or(0);
        // The others' streams never take the ones kept for the server's own machine.
        let others = *all - count(&Source::Loopback);
        let full = match source {
            Source::Loopback => *all >= MAX_STREAMS,
            _ => *all >= MAX_STREAMS || others >= MAX_STREAMS - KEPT,
        };
        if full {
            return Err(
                "Too many live pages are open on this site: this one is not kept up \
                        to date; reload it in a moment",
            );
        }
        if count(&source) >= SHARE {
            return Err(
                "Too many live pages are open from your machine: this one is not \
                        kept up to date; close one and reload it",
            );
        }
        // Counted only once admitted: a refused source leaves nothing behind.
        *by.entry(source).or_insert(0) += 1;
        *all += 1;
        Ok(Counted(source))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut open = open_streams();
        let (all, by) = &mut *open;
        *all -= 1;
        if let Some(by) = by.as_mut() {
            if let Some(n) = by.get_mut(&self.0) {
                *n -= 1;
                if *n == 0 {
                    by.remove(&self.0);
                }
            }
        }
    }
}

/// The stream's writer, its headers sent, counted; or the refusal of one too many. A
/// `HEAD` is answered the stream's head alone, at once, and holds no slot.
fn open(request: Request) -> Option<(Box<dyn Write + Send>, Counted)> {
    if *request.method() == tiny_http::Method::Head {
        let head = |name: &str, value: &str| {
            tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII")
        };
        let _ = request.respond(
            tiny_http::Response::empty(200)
                .with_header(head("Content-Type", "text/event-stream"))
                .with_header(head("Cache-Control", "no-store"))
                .with_header(head("X-Content-Type-Options", "nosniff")),
        );
        return None;
    }
    // A request reaches a stream only with its source (`route`).
    let source = super::source_of(&request).ok_or("This request names no source");
    let counted = match source.and_then(Counted::of) {
        Ok(counted) => counted,
        Err(why) => {
            super::respond::error(request, 503, why);
            return None;
        }
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_hold_a_share_each_and_leave_the_server_s_machine_its_streams() {
        let v4 = |i: u32| Source::V4(std::net::Ipv4Addr::from(0xc000_0200 + i));
        let mut held = Vec::new();
        let sources = (MAX_STREAMS - KEPT) / SHARE;
        for i in 0..sources {
            for _ in 0..SHARE {
                held.push(Counted::of(v4(i as u32)).unwrap());
            }
            if i + 1 < sources {
                assert!(Counted::of(v4(i as u32))
                    .unwrap_err()
                    .contains("your machine"));
            }
        }
        assert!(Counted::of(v4(99)).unwrap_err().contains("this site"));
        let organiser: Vec<_> = (0..KEPT)
            .map(|_| Counted::of(Source::Loopback).unwrap())
            .collect();
        held.pop();
        assert!(Counted::of(v4(99)).is_ok(), "a slot freed is free at once");
        drop((held, organiser));
        assert_eq!(open_streams().0, 0);
    }
}
