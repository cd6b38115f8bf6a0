//! One client's conversation, from its name to its last game: `CLIENT_NAME`, then for each
//! `WAIT_GAME` a training game or a free game (through the lobby) played by the arena (each
//! connected client's seat a [`RemoteSeat`]), recorded under the server's results; after
//! the game, a client that lost by a fault is told so at its next command. A registered
//! name is held only once its token is proven; a game the server fails to play (its own
//! failure, never a seat's) counts for no one.

use super::address::Source;
use super::games::Served;
use super::lines::LineSeat;
use super::lobby::{Joined, Seated};
use super::names::Held;
use super::remote::{Link, RemoteSeat};
use super::request::{self, Training};
use super::Server;
use crate::endpoint::{Endpoint, TimeLimits};
use crate::games::Seats;
use crate::roster::ChampionSpec;
use jail::untrusted::printable;
use std::cell::RefCell;
use std::net::TcpStream;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Longest silence of a client outside a game.
pub const IDLE: Duration = Duration::from_secs(120);

/// What a client is told of a game the server failed to play (its players are not at
/// fault: the game counts for no one).
pub const UNPLAYED: &str =
    "The server failed to play the game (not your program's fault): it counts for no one; \
     try again later";

/// Serves the client of `stream` until it leaves or breaks the protocol.
pub fn serve(stream: TcpStream, server: &Server) {
    let peer = stream.peer_addr();
    let source = peer
        .as_ref()
        .map_or(Source::Loopback, |a| Source::of(a.ip()));
    let peer = peer.map_or("?".to_string(), |a| a.to_string());
    let watch = stream.try_clone().ok();
    let mut link = Link::new(super::wire::Conn::new(stream));
    let (name, mut claim) = match named(&link, server, watch) {
        Ok(named) => named,
        Err(why) => {
            server
                .refusals
                .say(source, &format!("client {peer}: {}", printable(&why)));
            return;
        }
    };
    // Told to the tournaments when the connection ends, once it proved the name's token
    // for one: a stranger who merely gives a member's name never touches its games.
    let mut left = None;
    // Both lines of a connection, or neither: a source connecting in a loop is summed up.
    let logged = server
        .connection_lines
        .say(source, &format!("client {peer}: {name} connected"));
    let refuse = |link: &Rc<RefCell<Link>>, message: &str| {
        let _ = link.borrow_mut().conn.send(message);
        server.refusals.say(
            source,
            &format!("client {name}: refused: {}", printable(message)),
        );
    };
    while let Ok(command) = read_idle(&link) {
        if super::tournament::is_asked(&command) {
            if let Err(message) = claim.prove(server, &name, &link, request::token_of(&command)) {
                refuse(&link, &message);
                break;
            }
            let token = link.borrow().token.clone();
            left.get_or_insert_with(|| Left(server, name.clone(), None))
                .2 = token;
            match super::tournament::wait(server, source, &name, link, &command) {
                Some(back) if !back.borrow().close => link = back,
                _ => break,
            }
            continue;
        }
        // A training game's files are taken before its `OK`, so that a server out of them
        // refuses it as any request is refused; a game refused so is not counted among
        // its source's games.
        let asked = request::wait_game(&command).and_then(|wanted| {
            claim.prove(server, &name, &link, wanted.token.as_deref())?;
            let files = match wanted.bot {
                Some(_) => Some(server.files.take(wanted.seats - 1)?),
                None => None,
            };
            server.per_source.start(source, Instant::now())?;
            Ok((wanted, files))
        });
        let (wanted, files) = match asked {
            Ok(asked) => asked,
            Err(message) => {
                refuse(&link, &message);
                break;
            }
        };
        if link.borrow_mut().conn.send("OK").is_err() {
            break;
        }
        link.borrow_mut().lines = wanted.lines;
        let played = match wanted.bot {
            Some(_) => play(server, &[(name.clone(), link.clone())], &wanted, files)
                .map(|losses| tell_loss(&link, losses[0].as_deref())),
            None => match free(server, &name, link, &wanted) {
                Some((back, played)) => {
                    link = back;
                    played
                }
                None => break,
            },
        };
        if let Err(e) = played {
            println!("client {name}: the game could not be played (it counts for no one): {e:#}");
            break;
        }
        if link.borrow().close {
            break;
        }
    }
    if logged {
        println!("client {name}: disconnected");
    }
}

/// A connection's name: held, or, a registered name, to be held once its token is proven
/// (a connection that merely gives a registered name never keeps its owner out).
enum Claim<'a> {
    /// Held until the connection ends (the name freed when dropped), or until a client
    /// proves a token of the name this one no longer gives (`register` replaced it).
    Held(Held<'a>),
    /// Not held yet; the socket's second handle, for the names to see it closed.
    Unproven(Option<TcpStream>),
}

impl<'a> Claim<'a> {
    /// Whether `name` may play with `token` (the store's check), its name then held and
    /// the token kept with the connection of `link` (each seat checks it again); the
    /// refusal for the client.
    fn prove(
        &mut self,
        server: &'a Server,
        name: &str,
        link: &RefCell<Link>,
        token: Option<&str>,
    ) -> Result<(), String> {
        server.store.check(name, token)?;
        match self {
            Claim::Unproven(watch) => {
                let is_current = |t: &str| server.store.check(name, Some(t)).is_ok();
                let held = server
                    .names
                    .take(name, watch.take(), token, &is_current)
                    .ok_or_else(|| taken(name))?;
                *self = Claim::Held(held);
            }
            Claim::Held(held) => held.proved(token),
        }
        link.borrow_mut().token = token.map(str::to_string);
        Ok(())
    }
}

/// Whether the client of `link` may still play as `name`, as a seat is given to it: the
/// token it proved is still the name's (none: the name is still nobody's), or the refusal
/// for the client. A name registered since the client proved it, or given a new token,
/// seats no one without the new token (docs/server.md, section 5).
pub(super) fn proves(server: &Server, name: &str, link: &Link) -> Result<(), String> {
    server.store.check(name, link.token.as_deref())
}

/// The refusal of a name another client connected holds.
fn taken(name: &str) -> String {
    format!("A client with the same name ('{name}') is already connected!")
}

/// A free game for `name`: it waits in the lobby (its connection there) until a table is
/// full, or fills one and plays the match. Its connection back and how the game went;
/// `None` when the client left while waiting or was lost in the match.
fn free(
    server: &Server,
    name: &str,
    link: Rc<RefCell<Link>>,
    wanted: &Training,
) -> Option<(Rc<RefCell<Link>>, anyhow::Result<()>)> {
    let own = Rc::into_inner(link)?.into_inner();
    // A waiter whose name was registered since it waits (or given a new token), without
    // the token, is never seated: its game would be recorded under the owner's name.
    let may_play = |name: &str, link: &Link| proves(server, name, link).is_ok();
    let (others, own) = match server.lobby.join(name, wanted, own, &may_play) {
        Joined::Wait(waiter) => {
            println!("client {name}: waits for a free game");
            let (back, loss) = server.lobby.wait(&waiter)?;
            let back = Rc::new(RefCell::new(back));
            tell_loss(&back, loss.as_deref());
            return Some((back, Ok(())));
        }
        Joined::Start(others, own) => (others, own),
        Joined::Gone => return None,
    };
    let own = Rc::new(RefCell::new(own));
    let mut waiters = Vec::new();
    let mut players = Vec::new();
    for (waiter, l) in others {
        players.push((waiter.name.clone(), Rc::new(RefCell::new(l))));
        waiters.push(waiter);
    }
    players.push((name.to_string(), own.clone()));
    let waiters = Seated(waiters);
    let mut wanted = wanted.clone();
    // A seed chosen by one player would let it know the others' hands: the game takes one
    // only when every player gave the same.
    if waiters.0.iter().any(|w| w.seed != wanted.seed) {
        wanted.seed = None;
    }
    let played = play_seated(server, &waiters, &mut players, &wanted);
    let played = played.map(|losses| tell_loss(&own, losses.last().cloned().flatten().as_deref()));
    Some((own, played))
}

/// Plays `wanted` for `players`, the first of whom are the lobby's `seated`: each of
/// those given its connection back after the game, with its loss (taken out of
/// `players`); each player's loss.
fn play_seated(
    server: &Server,
    seated: &Seated,
    players: &mut Vec<(String, Rc<RefCell<Link>>)>,
    wanted: &Training,
) -> anyhow::Result<Vec<Option<String>>> {
    let played = play(server, players, wanted, None);
    let losses = match &played {
        Ok(losses) => losses.clone(),
        Err(_) => vec![None; players.len()],
    };
    let waiters = players.drain(..seated.0.len());
    for ((waiter, (_, l)), loss) in seated.0.iter().zip(waiters).zip(losses) {
        waiter.give_back(Rc::into_inner(l).map(RefCell::into_inner), loss);
    }
    played
}

/// The organiser's game (the web site's form): the waiting clients `taken` from the lobby
/// play `wanted` on a thread of its own, each given its connection back after it, as a
/// free game's players are. If no thread can start, they are let go (disconnected).
pub fn play_chosen(
    server: &std::sync::Arc<Server>,
    taken: super::lobby::Taken,
    wanted: Training,
) -> std::io::Result<()> {
    let (waiters, links): (Vec<_>, Vec<_>) = taken.into_iter().unzip();
    let seated = Seated(waiters);
    let server = std::sync::Arc::clone(server);
    std::thread::Builder::new()
        .name("organiser's game".into())
        .spawn(move || {
            let mut players = seated
                .0
                .iter()
                .zip(links)
                .map(|(w, l)| (w.name.clone(), Rc::new(RefCell::new(l))))
                .collect();
            let _ = play_seated(&server, &seated, &mut players, &wanted);
        })?;
    Ok(())
}

/// Tells the tournaments a client gone, once it proved its name for one (its name is
/// freed by its [`Held`]), with the token it proved: unless the name has another token
/// now (the organiser replaced a leaked one), whose holder's games its leaving never loses.
struct Left<'a>(&'a Server, String, Option<String>);

impl Drop for Left<'_> {
    fn drop(&mut self) {
        if self.0.store.check(&self.1, self.2.as_deref()).is_ok() {
            self.0.tournaments.left(&self.1);
        }
    }
}

fn read_idle(link: &Rc<RefCell<Link>>) -> Result<String, super::wire::WireError> {
    let read = link.borrow_mut().conn.read(Instant::now() + IDLE);
    if let Err(e @ super::wire::WireError::TooLong) = &read {
        let _ = link.borrow_mut().conn.send(&e.to_string());
    }
    read
}

/// The client's `CLIENT_NAME`, checked and held, or to be held once its token is proven
/// (`watch`: its socket, for a newcomer of the same name to see it closed).
fn named<'a>(
    link: &Rc<RefCell<Link>>,
    server: &'a Server,
    watch: Option<TcpStream>,
) -> Result<(String, Claim<'a>), String> {
    let command = read_idle(link).map_err(|e| e.to_string())?;
    let refuse = |message: String| {
        let _ = link.borrow_mut().conn.send(&message);
        message
    };
    let name = request::client_name(&command).map_err(refuse)?;
    // A registered name (or one the store cannot tell) is taken with its token.
    let claim = match server.store.check(&name, None) {
        Err(_) => Claim::Unproven(watch),
        Ok(()) => match server.names.take(&name, watch, None, &|_| true) {
            Some(held) => Claim::Held(held),
            None => return Err(refuse(taken(&name))),
        },
    };
    if link.borrow_mut().conn.send("OK").is_err() {
        return Err("gone".into());
    }
    Ok((name, claim))
}

/// The budgets of a match whose remote seat has `timeout` per callback: a wall allowance
/// of exactly `timeout` for every callback (3 x 1 s + 1 s, scaled by `timeout / 4`).
pub fn time_limits(timeout: Duration) -> TimeLimits {
    TimeLimits {
        init_cpu: Duration::from_secs(1),
        call_cpu: Duration::from_secs(1),
        scale: timeout.as_secs_f64() / 4.0,
    }
}

/// Plays the game `wanted` for the connected `players` (a training game: one, and the
/// bot), tells each the end, and gives the message of each one's loss by a fault.
fn play(
    server: &Server,
    players: &[(String, Rc<RefCell<Link>>)],
    wanted: &Training,
    files: Option<super::fds::Taken<'_>>,
) -> anyhow::Result<Vec<Option<String>>> {
    let kind = match wanted.bot {
        Some(_) => Kind::Training,
        None => Kind::Free,
    };
    play_game(server, players, wanted, kind, files).map(|(losses, ..)| losses)
}

/// What a game is in the store.
#[derive(Clone, Copy)]
pub(super) enum Kind<'a> {
    Training,
    Free,
    /// A game of tournament `name` in `phase` (`league`, `knockout 1`, ...): noted as the
    /// tournament's when it starts, so that its page shows it in play.
    Tournament {
        name: &'a str,
        phase: &'a str,
    },
}

impl Kind<'_> {
    /// Its word in the store's `games`.
    fn word(self) -> &'static str {
        match self {
            Kind::Training => "training",
            Kind::Free => "free",
            Kind::Tournament { .. } => "tournament",
        }
    }
}

/// [`play`], the game of `kind` in the store (`training`, `free`, `tournament`): each
/// player's loss by a fault, the game's name and its record; `files`, the game's open
/// files if the caller took them (else they are taken here). A game the server fails to
/// play (out of files, a bot it could not run, any error that is not a seat's) is an
/// error: its row is `failed`, its players told it counts for no one and disconnected.
pub(super) fn play_game(
    server: &Server,
    players: &[(String, Rc<RefCell<Link>>)],
    wanted: &Training,
    kind: Kind<'_>,
    files: Option<super::fds::Taken<'_>>,
) -> anyhow::Result<(Vec<Option<String>>, String, arena::GameRecord)> {
    let played = play_counted(server, players, wanted, kind, files);
    if let Err(e) = &played {
        let told = match e.downcast_ref::<Busy>() {
            Some(Busy(message)) => message.as_str(),
            None => UNPLAYED,
        };
        for (_, link) in players {
            let mut l = link.borrow_mut();
            let _ = l.conn.send(told);
            l.close = true;
        }
    }
    played
}

/// A game refused for want of the server's open files: the message for its players.
#[derive(Debug)]
struct Busy(String);

impl std::fmt::Display for Busy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Busy {}

/// A game's row in the store: `failed` unless noted finished, even if its thread
/// panics, so that no row is left `playing` by a game the server stopped playing (nor a
/// game in play on the web site).
struct Row<'a> {
    server: &'a Server,
    name: String,
    why: Option<String>,
}

impl Row<'_> {
    fn finished(mut self, outcome: &str, results: &[String]) {
        self.why = None;
        if let Err(e) = self.server.store.finished(&self.name, outcome, results) {
            println!(
                "game {}: the store could not note its end: {e:#}",
                self.name
            );
        }
    }

    /// The game failed: why, for the row and the log.
    fn failed(mut self, why: String) {
        self.why = Some(why);
    }
}

impl Drop for Row<'_> {
    fn drop(&mut self) {
        let Some(why) = self.why.take() else { return };
        self.server.web.ended(&self.name);
        println!("game {}: failed, it counts for no one: {why}", self.name);
        if let Err(e) = self.server.store.failed(&self.name, &why) {
            println!(
                "game {}: the store could not note its failure: {e:#}",
                self.name
            );
        }
    }
}

/// [`play_game`] once its open files are counted.
fn play_counted(
    server: &Server,
    players: &[(String, Rc<RefCell<Link>>)],
    wanted: &Training,
    kind: Kind<'_>,
    files: Option<super::fds::Taken<'_>>,
) -> anyhow::Result<(Vec<Option<String>>, String, arena::GameRecord)> {
    let bots = wanted.bot.map_or(0, |_| wanted.seats - players.len());
    let _files = match files {
        Some(files) => files,
        None => server.files.take(bots).map_err(Busy)?,
    };
    // A seed the server draws has 64 bits: one of the subject's 24 would let a client try
    // every deal against its opening hand and know the others' cards and the pile.
    let seed = wanted.seed.unwrap_or_else(rand::random::<u64>);
    // Made again if it was removed while the server runs.
    std::fs::create_dir_all(&server.results)?;
    let game_name = server.game_name(wanted.seed);
    let dir = server.results.join(&game_name);
    let served = Served::by_name(wanted.game).expect("a game served");
    let game = served.runner();
    let board = ticket::Board::built_in(wanted.board)
        .ok_or_else(|| anyhow::anyhow!("no built-in board {}", wanted.board))?;
    // The board is Ticket to Ride's only option a client chooses (`map=`); every other
    // option of a game is its default.
    let given = if served == Served::TICKET {
        vec![format!("board={}", wanted.board)]
    } else {
        Vec::new()
    };
    let options = game::Options::parse(game.options(), &given).map_err(anyhow::Error::msg)?;
    let remote = |name: &str| ChampionSpec {
        name: name.to_string(),
        given: name.to_string(),
        program: Default::default(),
        args: Vec::new(),
        path: format!("{}{name}", crate::roster::REMOTE_PREFIX),
        sha256: String::new(),
        identity: String::new(),
        snapshot: None,
    };
    // Who sits where: `order[seat]` is a player's index, or `None` for the bot.
    let order: Vec<Option<usize>> = match wanted.bot {
        // A training game: the client and bots in the game's usual seats; the
        // client first (`start=0`), last (`start=1`), or where the seed puts it.
        Some(_) => {
            let n = wanted.seats;
            let client = match wanted.first {
                Some(true) => 0,
                Some(false) => n - 1,
                None => (seed % n as u64) as usize,
            };
            (0..n).map(|s| (s == client).then_some(0)).collect()
        }
        None => rotation(players.len(), seed)
            .into_iter()
            .map(Some)
            .collect(),
    };
    let mut champions = Vec::new();
    for who in &order {
        champions.push(match who {
            Some(p) => remote(&players[*p].0),
            None => game.resolve(wanted.bot.unwrap_or("random"))?,
        });
    }
    let seats = Seats {
        seed,
        champions,
        time: time_limits(wanted.timeout),
        limits: server.limits.clone(),
        pin: false,
        full_log: None,
        options,
    };
    let names: Vec<String> = seats.champions.iter().map(|c| c.name.clone()).collect();
    server
        .store
        .started(&game_name, game.name(), kind.word(), &names)?;
    if let Kind::Tournament { name, phase } = kind {
        server.store.tournament_game(name, &game_name, phase)?;
    }
    let row = Row {
        server,
        name: game_name.clone(),
        why: Some("the server stopped playing it (an error of its own: see its log)".into()),
    };
    server.web.started(&game_name, served);
    if let Kind::Tournament { name, .. } = kind {
        server.web.tournament_changed(name);
    }
    let sizes = format!(
        "{} {}",
        board.cities.len(),
        super::codes::tracks(&board).len()
    );
    // A client of the game's own protocol is told the game and its seats; its lines
    // follow, unframed.
    let announced = format!("{} {}", game.name(), seats.champions.len());
    let game_ends = (Instant::now() + server.game_time, server.game_time);
    for (_, link) in players {
        let mut l = link.borrow_mut();
        l.game_ends = Some(game_ends);
        let sizes = if l.lines { &announced } else { &sizes };
        l.told = false;
        l.pending_move = false;
        l.ending.clear();
        l.comments.clear();
        l.dropped = 0;
        if [game_name.as_str(), sizes]
            .iter()
            .try_for_each(|m| l.conn.send(m))
            .is_err()
        {
            l.close = true;
        }
    }
    let links: Vec<Option<Rc<RefCell<Link>>>> = order
        .iter()
        .map(|who| who.map(|p| players[p].1.clone()))
        .collect();
    let own = move |seat: usize| -> Box<dyn Endpoint> {
        let link = links[seat].clone().expect("a remote seat");
        let lines = link.borrow().lines;
        match lines {
            true => Box::new(LineSeat::new(link)),
            false => Box::new(RemoteSeat::new(link, seat, board.clone())),
        }
    };
    jail::hidden::hide(&dir);
    let record = server.web.watching(&game_name, || {
        jail::interrupt::tolerating(|| served.play_match_with(&seats, &dir, &own))
    });
    drop(own);
    for (_, link) in players {
        link.borrow_mut().game_ends = None;
    }
    let record = match record {
        Ok(record) => record,
        Err(e) => {
            row.failed(format!("{e:#}"));
            return Err(e);
        }
    };
    // A built-in champion is the server's own program: its fault (not started, out of
    // files, killed) is the server's failure, not a win of its opponents.
    let bot_fault = record
        .faults
        .iter()
        .find(|f| order[usize::from(f.seat)].is_none());
    if let Some(f) = bot_fault {
        let why = format!(
            "its built-in champion {} (seat {}) failed: {} fault: {}",
            wanted.bot.unwrap_or("random"),
            f.seat,
            f.kind,
            printable(&f.message)
        );
        row.failed(why.clone());
        anyhow::bail!(why);
    }
    let mut losses = vec![None; players.len()];
    let mut outcomes = Vec::new();
    let mut results = Vec::new();
    for (seat, who) in order.iter().enumerate() {
        let fault = record.faults.iter().find(|f| usize::from(f.seat) == seat);
        let outcome = match (record.ranking.winners().as_slice(), fault) {
            (_, Some(f)) => format!("lost by a {} fault: {}", f.kind, printable(&f.message)),
            ([w], None) if *w == seat => "won".to_string(),
            _ => "lost".to_string(),
        };
        let shown = match who {
            Some(p) => players[*p].0.clone(),
            None => wanted.bot.unwrap_or("random").to_string(),
        };
        outcomes.push(format!("{shown} (seat {seat}) {outcome}"));
        results.push(outcome);
        let Some(p) = who else { continue };
        // The end of the game, told once its record is written.
        let mut l = players[*p].1.borrow_mut();
        // A game in the game's own protocol is the connection's last: closed once the
        // record is written, as a spawned champion's stdin is at the match's end.
        if l.lines {
            l.close = true;
        }
        let ending = std::mem::take(&mut l.ending);
        if ending.iter().try_for_each(|m| l.conn.send(m)).is_err() {
            l.close = true;
        }
        losses[*p] = fault.map(|f| format!("You lose: {}", f.message));
    }
    let outcome = outcomes.join(", ");
    row.finished(&outcome, &results);
    println!(
        "game {game_name}: {outcome}; record {}",
        dir.join("record.json").display()
    );
    let mut said = Vec::new();
    for (name, link) in players {
        let mut l = link.borrow_mut();
        for comment in std::mem::take(&mut l.comments) {
            println!(
                "game {game_name}: {name} says {}",
                request::quoted(&comment)
            );
            said.push((name.clone(), comment));
        }
        let dropped = std::mem::take(&mut l.dropped);
        if dropped > 0 {
            println!(
                "game {game_name}: {name} sent {dropped} more comment{} over the bounds, dropped",
                if dropped == 1 { "" } else { "s" }
            );
        }
    }
    if let Err(e) = server.store.comments(&game_name, &said) {
        println!("game {game_name}: the store could not keep its comments: {e:#}");
    }
    server.web.ended(&game_name);
    Ok((losses, game_name, record))
}

/// Who sits where in a free game of `n` players and `seed`: `rotation[seat]` is a
/// player's index, the players' order turned by the seed (modulo the seats first: any
/// 64-bit seed).
pub(super) fn rotation(n: usize, seed: u64) -> Vec<usize> {
    let turn = (seed % n as u64) as usize;
    (0..n).map(|s| (s + turn) % n).collect()
}

/// Tells a client that lost by a fault (`message`), at its pending move or at its next
/// command.
pub(super) fn tell_loss(link: &Rc<RefCell<Link>>, message: Option<&str>) {
    tell_loss_within(link, message, IDLE);
}

/// [`tell_loss`], waiting at most `wait` for the client's next command (a tournament's
/// member waits its turn's clock, not [`IDLE`]: its next game waits for it).
pub(super) fn tell_loss_within(link: &Rc<RefCell<Link>>, message: Option<&str>, wait: Duration) {
    let Some(message) = message else { return };
    let mut l = link.borrow_mut();
    if l.close || l.told {
        return;
    }
    l.told = true;
    if l.pending_move {
        l.pending_move = false;
        let _ = l.conn.send(message);
        let _ = l.conn.send("-1");
        return;
    }
    let Ok(command) = l.conn.read(Instant::now() + wait) else {
        l.close = true;
        return;
    };
    let verb = command.split_whitespace().next().unwrap_or("");
    let sent = match verb {
        "PLAY_MOVE" => ["OK", message, "-1"]
            .iter()
            .try_for_each(|m| l.conn.send(m)),
        "GET_MOVE" => ["OK", "", message, "1"]
            .iter()
            .try_for_each(|m| l.conn.send(m)),
        _ => {
            let _ = l.conn.send(message);
            l.close = true;
            Ok(())
        }
    };
    if sent.is_err() {
        l.close = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_seed_seats_each_player_once() {
        for n in 1..=5 {
            for seed in [0, 1, 7, u64::MAX, u64::MAX - 1, 1 << 63, 0xFF_FFFF] {
                let mut seats = rotation(n, seed);
                assert_eq!(seats[0], (seed % n as u64) as usize, "{n} {seed}");
                seats.sort();
                assert_eq!(
                    seats,
                    (0..n).collect::<Vec<_>>(),
                    "{n} players, seed {seed}"
                );
            }
        }
    }
}
