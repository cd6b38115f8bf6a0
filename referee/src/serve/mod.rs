//! `referee serve`: the game server of the Ticket to Ride subject (docs/server.md).
//! Programs connect over TCP, name themselves and play training games against the
//! built-in champions with the subject's protocol; each game is a match of the arena,
//! recorded as any match is. One thread per connection; connections bounded in number,
//! per address, in command length and idle time.

pub mod address;
pub mod codes;
pub mod fds;
pub mod games;
pub mod lines;
pub mod lobby;
pub mod names;
pub mod rate;
pub mod remote;
pub mod request;
pub mod session;
pub mod store;
pub mod store_plays;
pub mod tournament;
pub mod tournament_new;
pub mod tournament_plan;
pub mod tournament_reads;
pub mod tournament_results;
pub mod tournament_store;
pub mod web;
pub mod wire;

use address::Source;
use jail::champion::Limits;
use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// The longest a game may last by default: an hour, four times a slow game of the USA
/// board at the subject's timeout (about 90 turns of 10 s at most).
pub const GAME_TIME: std::time::Duration = std::time::Duration::from_secs(3600);

/// What the server is started with.
pub struct Config {
    pub listen: SocketAddr,
    pub results: PathBuf,
    /// The store's file (players, games).
    pub store: PathBuf,
    pub max_connections: u32,
    pub per_address: u32,
    /// Most games one source starts in a minute.
    pub games_per_minute: u32,
    /// The built-in champions' limits (their sandbox).
    pub limits: Limits,
    /// Where the web site is served, if it is (`serve/web/`).
    pub web: Option<SocketAddr>,
    /// The site's trusted proxy, whose forwarded visitors count as their own sources.
    pub web_proxy: Option<std::net::IpAddr>,
    /// The longest a game may last: past it, the seat to move loses by a `timeout` fault.
    pub game_time: std::time::Duration,
}

/// What every connection shares.
pub struct Server {
    pub results: PathBuf,
    pub limits: Limits,
    /// The names of the clients connected.
    pub names: names::Names,
    /// The clients waiting for a free game.
    pub lobby: lobby::Lobby,
    /// Players and games.
    pub store: store::Store,
    /// The members of the tournaments this server plays or may play.
    pub tournaments: tournament::Tournaments,
    /// The games each source started in the last minute.
    pub per_source: rate::Games,
    /// The open files the games may hold.
    pub files: fds::Budget,
    /// The log's refusal lines, bounded by source.
    pub refusals: rate::Lines,
    /// The log's lines of connections (named, gone), bounded by source.
    pub connection_lines: rate::Lines,
    /// The games' events for the web site (fed by the sessions).
    pub web: Arc<web::hub::Hub>,
    /// The longest a game may last (a pair of clients each answering just under its
    /// turn's timeout would otherwise hold their seats, and a tournament's round, for
    /// hours): past it, the seat to move loses by a `timeout` fault.
    pub game_time: std::time::Duration,
    connections: Mutex<(u32, HashMap<Source, u32>)>,
    max_connections: u32,
    per_address: u32,
    games: AtomicU32,
}

impl Server {
    pub fn new(
        results: PathBuf,
        store: store::Store,
        limits: Limits,
        max_connections: u32,
        per_address: u32,
        games_per_minute: u32,
        game_time: std::time::Duration,
    ) -> Arc<Server> {
        Arc::new(Server {
            results,
            store,
            tournaments: tournament::Tournaments::default(),
            web: Arc::default(),
            game_time,
            limits,
            names: names::Names::default(),
            lobby: lobby::Lobby::default(),
            per_source: rate::Games::new(games_per_minute),
            files: fds::Budget::new(max_connections),
            refusals: rate::Lines::new("refusal"),
            connection_lines: rate::Lines::new("connection"),
            connections: Mutex::new((0, HashMap::new())),
            max_connections,
            per_address: address::bound(max_connections, per_address),
            games: AtomicU32::new(0),
        })
    }

    /// A new game's name, twelve hexadecimal digits, one no folder of the results has.
    /// With a seed the clients chose (`chosen`): its six digits (as the subject's server
    /// names games), then six of a counter. Else six and six drawn at random, apart from
    /// the seed: the name is sent before the game starts, and a seed the server drew must
    /// not show before the game ends (a client would replay the deal: hands, pile).
    pub fn game_name(&self, chosen: Option<u64>) -> String {
        loop {
            let name = match chosen {
                Some(seed) => {
                    let n = self.games.fetch_add(1, Ordering::Relaxed) & 0xFF_FFFF;
                    format!("{:06x}{n:06x}", seed & request::MAX_SEED)
                }
                None => format!("{:012x}", rand::random::<u64>() & 0xFFFF_FFFF_FFFF),
            };
            if !self.results.join(&name).exists() {
                return name;
            }
        }
    }

    /// Counts a connection from `ip` (its [`Source`]), or says why it is refused; the
    /// count is given back when the [`Admitted`] is dropped, even by a thread that panics.
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Admitted, String> {
        let ip = Source::of(ip);
        let mut c = self.connections.lock().expect("connections");
        if c.0 >= self.max_connections {
            return Err("The server is full; try again later".into());
        }
        let here = c.1.entry(ip).or_insert(0);
        if *here >= self.per_address {
            return Err(format!(
                "Too many connections from your machine (at most {} from one address, all of \
                 loopback counted as one, an IPv6 address by its /56)",
                self.per_address
            ));
        }
        *here += 1;
        c.0 += 1;
        Ok(Admitted(Arc::clone(self), ip))
    }

    /// The most connections of one source (its web site's too).
    pub fn per_address(&self) -> u32 {
        self.per_address
    }

    /// How many connections are counted (all addresses).
    pub fn connections(&self) -> u32 {
        self.connections.lock().expect("connections").0
    }

    fn leave(&self, ip: Source) {
        let mut c = self.connections.lock().expect("connections");
        c.0 -= 1;
        if let Some(n) = c.1.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                c.1.remove(&ip);
            }
        }
    }
}

/// Listens and serves until the process is stopped; prints `listening on ADDR:PORT` first.
pub fn run(config: Config) -> anyhow::Result<()> {
    use anyhow::Context;
    fds::raise_for(config.max_connections)?;
    std::fs::create_dir_all(&config.results)
        .with_context(|| format!("cannot create {}", config.results.display()))?;
    jail::hidden::hide_root(&config.results);
    crate::kits::install();
    let listener = TcpListener::bind(config.listen).with_context(|| {
        format!(
            "cannot listen on {} (another server on that port? choose another)",
            config.listen
        )
    })?;
    println!("listening on {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let (store, interrupted) = store::Store::open(&config.store)?;
    if interrupted > 0 {
        println!(
            "store {}: {interrupted} game{} left playing by the last stop marked interrupted",
            config.store.display(),
            if interrupted == 1 { "" } else { "s" }
        );
    }
    let server = Server::new(
        config.results,
        store,
        config.limits,
        config.max_connections,
        config.per_address,
        config.games_per_minute,
        config.game_time,
    );
    tournament::watch(&server);
    if let Some(addr) = config.web {
        // The organiser's token, made at the first start; never printed.
        let token = web::organiser::path(&config.store);
        web::organiser::ensure(&token, false)?;
        let bound = web::start(addr, &server, token.clone(), config.web_proxy)?;
        println!("web site on http://{bound}/");
        println!(
            "the organiser's forms need the token of {} (referee serve token prints it)",
            token.display()
        );
        std::io::stdout().flush()?;
    }
    accept_each(&listener, "game port", |stream| accept(stream, &server));
    Ok(())
}

/// Gives `each` every connection `listener` accepts, for ever. A failing `accept` (out of
/// open files, or another failure) is retried after a pause that doubles while it lasts,
/// not at once (the loop would spin and starve the connections whose ends free the
/// files); said once a run of failures, with `what` listens.
pub(crate) fn accept_each(listener: &TcpListener, what: &str, mut each: impl FnMut(TcpStream)) {
    let mut pause = FIRST_PAUSE;
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                pause = FIRST_PAUSE;
                each(stream);
            }
            Err(e) => {
                if pause == FIRST_PAUSE {
                    println!("{what}: accept failed: {e}; retrying, more slowly while it fails");
                    let _ = std::io::stdout().flush();
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(LAST_PAUSE);
            }
        }
    }
}

/// The pauses after a failed `accept`: the first, and the longest.
const FIRST_PAUSE: std::time::Duration = std::time::Duration::from_millis(10);
const LAST_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

/// A connection counted by the server: uncounted when dropped (the session's end, its
/// thread's panic, or a thread that could not start).
struct Admitted(Arc<Server>, Source);

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.leave(self.1);
    }
}

/// Serves `stream` on a thread of its own, or refuses it.
fn accept(stream: TcpStream, server: &Arc<Server>) {
    let Ok(peer) = stream.peer_addr() else { return };
    let admitted = match server.admit(peer.ip()) {
        Ok(admitted) => admitted,
        Err(why) => return wire::refuse(stream, &why),
    };
    let shared = Arc::clone(server);
    let _ = std::thread::Builder::new()
        .name("client".into())
        .spawn(move || {
            let _admitted = admitted;
            session::serve(stream, &shared);
            let _ = std::io::stdout().flush();
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_that_panics_gives_its_connection_back() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = store::Store::open(&dir.path().join(store::FILE)).unwrap();
        let server = Server::new(
            PathBuf::from("unused"),
            store,
            Limits::default(),
            4,
            1,
            60,
            GAME_TIME,
        );
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        let admitted = server.admit(ip).unwrap();
        assert!(
            server.admit(ip).is_err(),
            "one connection from an address at most"
        );
        let session = std::thread::spawn(move || {
            let _admitted = admitted;
            panic!("a bug in a session");
        });
        assert!(session.join().is_err());
        assert_eq!(server.connections(), 0);
        assert!(server.admit(ip).is_ok(), "the address may connect again");
    }
}
