//! The game server's web site (`referee serve --web ADDR`, docs/server.md section 9): the
//! games in play and finished, live, each game's board (the replay page's drawing, growing
//! while the game is played), each player's games, the tournaments (standings live, the
//! bracket of a knockout). Reading is open; the organiser's forms (start a game, create or
//! start a tournament) act only with the organiser's token (`forms.rs`). Its connections
//! come through a bounded door (`gate.rs`); `tiny_http` serves them behind it, one thread a
//! request (an event stream is a thread blocked on the server's changes, as a client's
//! session is), bounded in number.

mod computed;
mod forms;
mod forwarded;
mod gate;
mod head;
pub mod hub;
pub mod organiser;
mod pages;
mod respond;
mod stream;
mod tournaments;

use super::address::Source;
use super::Server;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Most requests served at once (event streams included); more are answered 503.
pub const MAX_REQUESTS: usize = 512;

/// Serves the site of `server` on `addr`, on threads of its own, its forms acting with the
/// token of the file `token` (`organiser.rs`), the visitors forwarded by `proxy` counted
/// as their own sources (`forwarded.rs`); the address bound.
pub fn start(
    addr: SocketAddr,
    server: &Arc<Server>,
    token: PathBuf,
    proxy: Option<IpAddr>,
) -> anyhow::Result<SocketAddr> {
    let listener = std::net::TcpListener::bind(addr).map_err(|e| {
        anyhow::anyhow!("cannot serve the web site on {addr}: {e} (another server on that port? choose another)")
    })?;
    let bound = listener.local_addr()?;
    server
        .files
        .keep(gate::files(), "the web site's connections")?;
    let (site, inner) = gate::socket_in(&server.results)?;
    let per_address = server.per_address();
    std::thread::Builder::new()
        .name("web door".into())
        .spawn(move || gate::serve(listener, site, per_address, proxy))?;
    server.web.serve();
    let server = Arc::clone(server);
    let token = Arc::new(token);
    std::thread::Builder::new()
        .name("web".into())
        .spawn(move || {
            let busy = Arc::new(AtomicUsize::new(0));
            // `tiny_http` stops for good when an `accept` fails: started again, said once.
            let mut said = false;
            loop {
                if let Ok(http) = inner.try_clone().map_err(|e| e.to_string()).and_then(|l| {
                    tiny_http::Server::from_listener(l, None).map_err(|e| e.to_string())
                }) {
                    answer(&http, &server, &busy, &token);
                }
                if !said {
                    println!("web: the site stopped accepting (out of open files?); started again");
                    said = true;
                }
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
        })?;
    Ok(bound)
}

/// Answers the requests of `http`, each on a thread of its own, until it stops. This
/// thread answers nothing itself (a busy site is answered on the request's thread): the
/// door passes each connection of the site one request, so no answer waits behind another.
fn answer(
    http: &tiny_http::Server,
    server: &Arc<Server>,
    busy: &Arc<AtomicUsize>,
    token: &Arc<PathBuf>,
) {
    for request in http.incoming_requests() {
        let (site, busy, token) = (Arc::clone(server), Arc::clone(busy), Arc::clone(token));
        let spawned = std::thread::Builder::new()
            .name("web request".into())
            .spawn(move || {
                struct Done(Arc<AtomicUsize>);
                impl Drop for Done {
                    fn drop(&mut self) {
                        self.0.fetch_sub(1, Ordering::SeqCst);
                    }
                }
                let over = busy.fetch_add(1, Ordering::SeqCst) >= MAX_REQUESTS;
                let _done = Done(busy);
                match over {
                    true => respond::busy(request),
                    false => route(request, &site, &token),
                }
            });
        if spawned.is_err() {
            server.refusals.say(
                Source::Loopback,
                "web: a request was dropped (no thread could start)",
            );
        }
    }
}

/// What a request asks: a page, a stream, a style or a script; or, POSTed, one of the
/// organiser's forms.
fn route(request: tiny_http::Request, server: &Arc<Server>, token: &Path) {
    if source_of(&request).is_none() {
        return respond::error(
            request,
            400,
            "This request did not come through the site's door (it names no source): the \
             site is reached on its web address only",
        );
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    if *request.method() == tiny_http::Method::Post {
        return match parts.as_slice() {
            ["organiser", "tournament"] => forms::new_tournament(request, server, token),
            ["organiser", "game"] => forms::new_game(request, server, token),
            ["tournament", name, "start"] => forms::start_tournament(request, server, token, name),
            _ => respond::error(
                request,
                405,
                "Only the organiser's forms are posted (/organiser); the rest of the site is \
                 read with GET",
            ),
        };
    }
    if *request.method() != tiny_http::Method::Get && *request.method() != tiny_http::Method::Head {
        return respond::error(
            request,
            405,
            "The site is read with GET; its forms are POSTed",
        );
    }
    match parts.as_slice() {
        [""] | ["games"] => pages::games(request, server, query, false),
        ["games", "rows"] => pages::games(request, server, query, true),
        ["events"] => stream::games(request, server),
        ["game", name] => pages::game(request, server, name),
        ["game", name, "board"] => pages::board(request, server, name),
        ["game", name, "board.json"] => pages::board_json(request, server, name),
        ["game", name, "summary"] => pages::summary(request, server, name),
        ["game", name, "events"] => stream::game(request, server, name),
        ["player", name] => pages::player(request, server, name, query),
        ["tournaments"] => tournaments::list(request, server),
        ["tournament", name] => tournaments::page(request, server, name, false),
        ["tournament", name, "parts"] => tournaments::page(request, server, name, true),
        ["tournament", name, "events"] => stream::tournament(request, server, name),
        ["organiser"] => forms::page(request, server),
        ["assets", file] => respond::asset(request, file),
        _ => respond::error(
            request,
            404,
            "No such page: the site has /, /game/NAME, /player/NAME, /tournaments, \
             /tournament/NAME and /organiser",
        ),
    }
}

/// The source of `request`, as the door named it in its one source line (the site's only
/// way in is the door, which puts that line in every request and drops a visitor's own);
/// `None` for a request without it, or with two: not one the door passed, refused
/// (`route`), never taken for the server's own machine.
pub(super) fn source_of(request: &tiny_http::Request) -> Option<Source> {
    let mut lines = request
        .headers()
        .iter()
        .filter(|h| h.field.equiv(head::SOURCE_HEADER));
    match (lines.next(), lines.next()) {
        (Some(line), None) => line.value.as_str().parse().ok(),
        _ => None,
    }
}

/// Whether `name` can be a game's or a player's name (letters, digits, `_`; 1 to 40), so
/// that no request names a path outside the results.
fn is_name(name: &str) -> bool {
    (1..=40).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}
