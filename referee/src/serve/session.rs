//! One client's conversation, from its name to its last game: `CLIENT_NAME`, then for each
//! `WAIT_GAME` a training game played by the arena (the client's seat a [`RemoteSeat`]),
//! recorded under the server's results; after the game, a client that lost by a fault is
//! told so at its next command.

use super::remote::{Link, RemoteSeat};
use super::request::{self, Training};
use super::Server;
use crate::endpoint::{Endpoint, TimeLimits};
use crate::games::ticket_play::TICKET;
use crate::games::{Game as _, Seats};
use crate::roster::ChampionSpec;
use game::Game as _;
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
    let link = Link::new(super::wire::Conn::new(stream));
    let name = match named(&link, server) {
        Ok(name) => name,
        Err(why) => {
            println!("client {peer}: {}", printable(&why));
            return;
        }
    };
    let _registered = Registered(server, name.clone());
    println!("client {peer}: {name} connected");
    while let Ok(command) = read_idle(&link) {
        let training = match request::wait_game(&command) {
            Ok(t) => t,
            Err(message) => {
                let _ = link.borrow_mut().conn.send(&message);
                println!("client {name}: refused: {}", printable(&message));
                break;
            }
        };
        if let Err(e) = play(&link, server, &name, &training) {
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

/// Frees the name of a client gone.
struct Registered<'a>(&'a Server, String);

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.0.names.lock().expect("names").remove(&self.1);
    }
}

fn read_idle(link: &Rc<RefCell<Link>>) -> Result<String, super::wire::WireError> {
    let read = link.borrow_mut().conn.read(Instant::now() + IDLE);
    if let Err(e @ super::wire::WireError::TooLong) = &read {
        let _ = link.borrow_mut().conn.send(&e.to_string());
    }
    read
}

/// The client's `CLIENT_NAME`, checked and registered.
fn named(link: &Rc<RefCell<Link>>, server: &Server) -> Result<String, String> {
    let command = read_idle(link).map_err(|e| e.to_string())?;
    let refuse = |message: String| {
        let _ = link.borrow_mut().conn.send(&message);
        message
    };
    let name = request::client_name(&command).map_err(refuse)?;
    if !server.names.lock().expect("names").insert(name.clone()) {
        return Err(refuse(format!(
            "A client with the same name ('{name}') is already connected!"
        )));
    }
    let sent = link.borrow_mut().conn.send("OK");
    if sent.is_err() {
        server.names.lock().expect("names").remove(&name);
        return Err("gone".into());
    }
    Ok(name)
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

/// Plays the training game `training` for the client `name`, and tells it the end.
fn play(
    link: &Rc<RefCell<Link>>,
    server: &Server,
    name: &str,
    training: &Training,
) -> anyhow::Result<()> {
    let seed = training
        .seed
        .unwrap_or_else(|| rand::random::<u64>() & request::MAX_SEED);
    let first = training.first.unwrap_or(seed.is_multiple_of(2));
    let seat = if first { 0 } else { 1 };
    // Made again if it was removed while the server runs.
    std::fs::create_dir_all(&server.results)?;
    let game_name = server.game_name(seed);
    let dir = server.results.join(&game_name);
    let board = ticket::Board::built_in(training.board)
        .ok_or_else(|| anyhow::anyhow!("no built-in board {}", training.board))?;
    let options = game::Options::parse(
        ticket::TicketToRide.options(),
        &[format!("board={}", training.board)],
    )
    .map_err(anyhow::Error::msg)?;
    let remote = ChampionSpec {
        name: name.to_string(),
        given: name.to_string(),
        program: Default::default(),
        args: Vec::new(),
        path: format!("{}{name}", crate::roster::REMOTE_PREFIX),
        sha256: String::new(),
        identity: String::new(),
        snapshot: None,
    };
    let bot = TICKET.resolve(training.bot)?;
    let champions = match first {
        true => vec![remote, bot],
        false => vec![bot, remote],
    };
    let seats = Seats {
        seed,
        champions,
        time: time_limits(training.timeout),
        limits: server.limits.clone(),
        pin: false,
        full_log: None,
        options,
    };
    {
        let mut l = link.borrow_mut();
        l.told = false;
        l.pending_move = false;
        l.ending.clear();
        let sizes = format!(
            "{} {}",
            board.cities.len(),
            super::codes::tracks(&board).len()
        );
        let sent = ["OK", &game_name, &sizes]
            .iter()
            .try_for_each(|m| l.conn.send(m));
        if sent.is_err() {
            l.close = true;
            return Ok(());
        }
    }
    let seat_link = link.clone();
    let own = move |_seat: usize| -> Box<dyn Endpoint> {
        Box::new(RemoteSeat::new(seat_link.clone(), seat, board.clone()))
    };
    jail::hidden::hide(&dir);
    let record = jail::interrupt::tolerating(|| TICKET.play_match_with(&seats, &dir, &own))?;
    // The end of the game, told once its record is written.
    {
        let mut l = link.borrow_mut();
        let ending = std::mem::take(&mut l.ending);
        if ending.iter().try_for_each(|m| l.conn.send(m)).is_err() {
            l.close = true;
        }
    }
    let fault = record.faults.iter().find(|f| usize::from(f.seat) == seat);
    let outcome = match (record.ranking.winners().as_slice(), fault) {
        (_, Some(f)) => format!("lost by a {} fault: {}", f.kind, printable(&f.message)),
        ([w], None) if *w == seat => "won".to_string(),
        _ => "lost".to_string(),
    };
    println!(
        "game {game_name}: {name} (seat {seat}) against {}: {outcome}; record {}",
        training.bot,
        dir.join("record.json").display()
    );
    for comment in std::mem::take(&mut link.borrow_mut().comments) {
        println!("game {game_name}: {name} says {}", printable(&comment));
    }
    if let Some(f) = fault {
        tell_loss(link, &format!("You lose: {}", f.message));
    }
    Ok(())
}

/// Tells a client that lost by a fault, at its pending move or at its next command.
fn tell_loss(link: &Rc<RefCell<Link>>, message: &str) {
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
    let Ok(command) = l.conn.read(Instant::now() + IDLE) else {
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
