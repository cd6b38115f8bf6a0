//! One client's conversation, from its name to its last game: `CLIENT_NAME`, then for each
//! `WAIT_GAME` a training game or a free game (through the lobby) played by the arena (each
//! connected client's seat a [`RemoteSeat`]), recorded under the server's results; after
//! the game, a client that lost by a fault is told so at its next command.

use super::games::Served;
use super::lines::LineSeat;
use super::lobby::Joined;
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

/// Serves the client of `stream` until it leaves or breaks the protocol.
pub fn serve(stream: TcpStream, server: &Server) {
    let peer = stream
        .peer_addr()
        .map_or("?".to_string(), |a| a.to_string());
    let watch = stream.try_clone().ok();
    let mut link = Link::new(super::wire::Conn::new(stream));
    let (name, _held) = match named(&link, server, watch) {
        Ok(named) => named,
        Err(why) => {
            println!("client {peer}: {}", printable(&why));
            return;
        }
    };
    let _left = Left(server, name.clone());
    println!("client {peer}: {name} connected");
    while let Ok(command) = read_idle(&link) {
        if super::tournament::is_asked(&command) {
            match super::tournament::wait(server, &name, link, &command) {
                Some(back) if !back.borrow().close => link = back,
                _ => break,
            }
            continue;
        }
        let wanted = match request::wait_game(&command) {
            Ok(t) => t,
            Err(message) => {
                let _ = link.borrow_mut().conn.send(&message);
                println!("client {name}: refused: {}", printable(&message));
                break;
            }
        };
        if let Err(message) = server.store.check(&name, wanted.token.as_deref()) {
            let _ = link.borrow_mut().conn.send(&message);
            println!("client {name}: refused: {}", printable(&message));
            break;
        }
        if link.borrow_mut().conn.send("OK").is_err() {
            break;
        }
        link.borrow_mut().lines = wanted.lines;
        let played = match wanted.bot {
            Some(_) => play(server, &[(name.clone(), link.clone())], &wanted)
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
            println!("client {name}: the game could not be played: {e:#}");
            let _ = link
                .borrow_mut()
                .conn
                .send("The server could not start the game; try again later");
            break;
        }
        if link.borrow().close {
            break;
        }
    }
    println!("client {name}: disconnected");
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
    let (others, own) = match server.lobby.join(name, wanted, own) {
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
    let mut wanted = wanted.clone();
    // A seed chosen by one player would let it know the others' hands: the game takes one
    // only when every player gave the same.
    if waiters.iter().any(|w| w.seed != wanted.seed) {
        wanted.seed = None;
    }
    let played = play(server, &players, &wanted);
    players.pop();
    let losses = match &played {
        Ok(losses) => losses.clone(),
        Err(_) => {
            for (_, l) in &players {
                let mut l = l.borrow_mut();
                let _ = l
                    .conn
                    .send("The server could not start the game; try again later");
                l.close = true;
            }
            vec![None; players.len()]
        }
    };
    for ((waiter, (_, l)), loss) in waiters.iter().zip(players).zip(losses) {
        waiter.give_back(Rc::into_inner(l).map(RefCell::into_inner), loss);
    }
    let played = played.map(|losses| tell_loss(&own, losses.last().cloned().flatten().as_deref()));
    Some((own, played))
}

/// Tells the tournaments a client gone (its name is freed by its [`Held`]).
struct Left<'a>(&'a Server, String);

impl Drop for Left<'_> {
    fn drop(&mut self) {
        self.0.tournaments.left(&self.1);
    }
}

fn read_idle(link: &Rc<RefCell<Link>>) -> Result<String, super::wire::WireError> {
    let read = link.borrow_mut().conn.read(Instant::now() + IDLE);
    if let Err(e @ super::wire::WireError::TooLong) = &read {
        let _ = link.borrow_mut().conn.send(&e.to_string());
    }
    read
}

/// The client's `CLIENT_NAME`, checked and held (`watch`: its socket, for a newcomer of
/// the same name to see it closed).
fn named<'a>(
    link: &Rc<RefCell<Link>>,
    server: &'a Server,
    watch: Option<TcpStream>,
) -> Result<(String, Held<'a>), String> {
    let command = read_idle(link).map_err(|e| e.to_string())?;
    let refuse = |message: String| {
        let _ = link.borrow_mut().conn.send(&message);
        message
    };
    let name = request::client_name(&command).map_err(refuse)?;
    let Some(held) = server.names.take(&name, watch) else {
        return Err(refuse(format!(
            "A client with the same name ('{name}') is already connected!"
        )));
    };
    if link.borrow_mut().conn.send("OK").is_err() {
        return Err("gone".into());
    }
    Ok((name, held))
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
) -> anyhow::Result<Vec<Option<String>>> {
    let kind = match wanted.bot {
        Some(_) => "training",
        None => "free",
    };
    play_game(server, players, wanted, kind).map(|(losses, ..)| losses)
}

/// [`play`], the game of `kind` in the store (`training`, `free`, `tournament`): each
/// player's loss by a fault, the game's name and its record.
pub(super) fn play_game(
    server: &Server,
    players: &[(String, Rc<RefCell<Link>>)],
    wanted: &Training,
    kind: &str,
) -> anyhow::Result<(Vec<Option<String>>, String, crate::arena::GameRecord)> {
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
    let given = match served {
        Served::Ticket => vec![format!("board={}", wanted.board)],
        _ => Vec::new(),
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
        None => {
            let n = players.len();
            (0..n).map(|s| Some((s + seed as usize) % n)).collect()
        }
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
    server.store.started(&game_name, kind, &names)?;
    let sizes = format!(
        "{} {}",
        board.cities.len(),
        super::codes::tracks(&board).len()
    );
    // A client of the game's own protocol is told the game and its seats; its lines
    // follow, unframed.
    let announced = format!("{} {}", game.name(), seats.champions.len());
    for (_, link) in players {
        let mut l = link.borrow_mut();
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
    let record = jail::interrupt::tolerating(|| served.play_match_with(&seats, &dir, &own))?;
    drop(own);
    let mut losses = vec![None; players.len()];
    let mut outcomes = Vec::new();
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
    if let Err(e) = server.store.finished(&game_name, &outcome) {
        println!("game {game_name}: the store could not note its end: {e:#}");
    }
    println!(
        "game {game_name}: {outcome}; record {}",
        dir.join("record.json").display()
    );
    for (name, link) in players {
        let mut l = link.borrow_mut();
        for comment in std::mem::take(&mut l.comments) {
            println!("game {game_name}: {name} says {}", printable(&comment));
        }
        let dropped = std::mem::take(&mut l.dropped);
        if dropped > 0 {
            println!(
                "game {game_name}: {name} sent {dropped} more comment{} over the bounds, dropped",
                if dropped == 1 { "" } else { "s" }
            );
        }
    }
    Ok((losses, game_name, record))
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
