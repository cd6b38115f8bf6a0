//! A connected program's seat in a Ticket to Ride match: an [`Endpoint`] whose lines come
//! from the socket. It speaks `protocol-ticket-to-ride.md` to the arena as a champion
//! would, and the subject's server protocol to the client: `GET_GAME_DATA` in `init_game`,
//! the opponent's moves for `GET_MOVE` (from `moves N`), `PLAY_MOVE` as one of our moves
//! and its answer as the subject's message and return code, `fin` when the turn is over.
//! Its clock is the wall clock only: the program runs on someone else's machine.

use super::codes;
use super::wire::Conn;
use crate::endpoint::{CallLimits, CallTiming, Endpoint};
use jail::fault::{Fault, FaultKind};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::{Duration, Instant};
use ticket::Board;

/// The connection and what the client is owed, shared by the seat and the session that
/// outlives the match.
pub struct Link {
    pub conn: Conn,
    /// A `PLAY_MOVE` was acknowledged and its message and code are not sent yet.
    pub pending_move: bool,
    /// The client was told how the game ended.
    pub told: bool,
    /// The connection is to be closed after the game (gone, or a protocol error).
    pub close: bool,
    /// The comments it sent (`SEND_COMMENT`), kept for the server's log: at most
    /// [`COMMENTS_A_GAME`], each cut to [`COMMENT_CHARS`].
    pub comments: Vec<String>,
    /// How many comments of this game were refused (over a bound): only counted.
    pub dropped: u64,
    /// The last messages of a game, sent once its record is written.
    pub ending: Vec<String>,
    /// The client speaks the game's own line protocol (`protocol=lines`): its seat is a
    /// [`super::lines::LineSeat`], and the game is the connection's last.
    pub lines: bool,
    /// When the game in play must end (its start and the server's cap on a game's total
    /// time) and that cap: no callback of the client's seat lasts past it.
    pub game_ends: Option<(Instant, Duration)>,
    /// Why the seat has no client, when the server knows (a tournament's member absent
    /// when its game began): its fault says this, not a connection closed.
    pub absent: Option<String>,
    /// The token the client gave with its last request (its `WAIT_GAME`), proven then:
    /// every seat it is given checks it again (`session::proves`), so that a
    /// token the organiser replaced since seats no one.
    pub token: Option<String>,
}

impl Link {
    /// What a fault says of the client's connection ended (`what`): why the seat had no
    /// client where the server knows it.
    pub fn why_gone(&self, what: String) -> String {
        match &self.absent {
            Some(why) => why.clone(),
            None => what,
        }
    }

    pub fn new(conn: Conn) -> Rc<RefCell<Link>> {
        Rc::new(RefCell::new(Link {
            conn,
            pending_move: false,
            told: false,
            close: false,
            comments: Vec::new(),
            dropped: 0,
            ending: Vec::new(),
            lines: false,
            game_ends: None,
            absent: None,
            token: None,
        }))
    }
}

/// The characters of a comment kept (the rest is cut).
pub const COMMENT_CHARS: usize = 100;
/// The comments kept of one callback (a turn) of a client, and of one game.
pub const COMMENTS_A_TURN: u32 = 10;
pub const COMMENTS_A_GAME: usize = 100;

/// A question the seat asks the arena for itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    Row,
    Hand,
    Status,
    Result,
    Moves,
    Seats,
    Objectives,
}

/// What to do once the questions are answered.
#[derive(Clone, Debug)]
enum Then {
    GameData,
    Display,
    AfterMove(String),
}

/// The remote seat.
pub struct RemoteSeat {
    link: Rc<RefCell<Link>>,
    seat: usize,
    board: Board,
    callback: String,
    started: Instant,
    deadline: Instant,
    wall: Duration,
    timed_out: bool,
    asks: VecDeque<Ask>,
    then: Option<Then>,
    /// The move sent to the arena and not answered yet.
    moving: Option<String>,
    answer: String,
    row: String,
    hand: String,
    status: String,
    result: String,
    seats: String,
    objectives: String,
    /// How many moves of `moves N` the seat has read.
    seen: usize,
    /// The opponent's moves not yet given to `GET_MOVE`: the subject's move and message.
    queue: VecDeque<(String, String)>,
    /// The opponent drew the first card of its turn already.
    drawing: bool,
    /// The opponent left the match.
    opponent_left: bool,
    /// `GET_GAME_DATA` was answered.
    gave_data: bool,
    /// The comments kept of the callback.
    turn_comments: u32,
}

impl RemoteSeat {
    pub fn new(link: Rc<RefCell<Link>>, seat: usize, board: Board) -> RemoteSeat {
        let now = Instant::now();
        RemoteSeat {
            link,
            seat,
            board,
            callback: String::new(),
            started: now,
            deadline: now,
            wall: Duration::ZERO,
            timed_out: false,
            asks: VecDeque::new(),
            then: None,
            moving: None,
            answer: String::new(),
            row: String::new(),
            hand: String::new(),
            status: String::new(),
            result: "-1".to_string(),
            seats: String::new(),
            objectives: String::new(),
            seen: 0,
            queue: VecDeque::new(),
            drawing: false,
            opponent_left: false,
            gave_data: false,
            turn_comments: 0,
        }
    }

    fn question(&self, ask: Ask) -> String {
        match ask {
            Ask::Row => "row".into(),
            Ask::Hand => "hand".into(),
            Ask::Status => "status".into(),
            Ask::Result => "result".into(),
            Ask::Moves => format!("moves {}", self.seen),
            Ask::Seats => "seats".into(),
            Ask::Objectives => "objectives".into(),
        }
    }

    fn tell(&self, text: &str) -> Result<(), Fault> {
        let mut link = self.link.borrow_mut();
        link.conn.send(text).map_err(|e| {
            link.close = true;
            let what = format!("{e} during {} (a write failed)", self.callback);
            Fault::new(FaultKind::Crash, link.why_gone(what))
        })
    }

    /// Sends `parts`, unless the game is over: then they wait in the link until its
    /// record is written (the session sends them), so that a client told the end finds
    /// the game's record.
    fn last(&self, parts: &[&str]) -> Result<(), Fault> {
        let mut link = self.link.borrow_mut();
        if link.told {
            link.ending = parts.iter().map(|p| p.to_string()).collect();
            return Ok(());
        }
        drop(link);
        parts.iter().try_for_each(|p| self.tell(p))
    }

    /// A protocol error: the client is told, the connection closed after the game.
    fn refuse(&self, message: String) -> Fault {
        let _ = self.tell(&message);
        self.link.borrow_mut().close = true;
        Fault::new(FaultKind::Protocol, message)
    }

    /// The next command of the client, within the callback's deadline.
    fn command(&mut self) -> Result<String, Fault> {
        let answers = super::lines::Answers::Framed;
        super::lines::read_within(
            &self.link,
            self.deadline,
            self.wall,
            &self.callback,
            answers,
        )
        .map_err(|(fault, timed_out)| {
            self.timed_out = timed_out;
            fault
        })
    }

    /// The opponent's moves of our `moves` answer put in the queue.
    fn read_moves(&mut self, answer: &str) {
        let mut parts = answer.split(';');
        self.seen = parts
            .next()
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(self.seen);
        for entry in parts {
            let Some((seat, public)) = entry.split_once(' ') else {
                continue;
            };
            if seat.parse() == Ok(self.seat) {
                continue;
            }
            if public == "leave" {
                self.opponent_left = true;
                continue;
            }
            let m = codes::opponent_move(public, &mut self.drawing, &self.row);
            self.queue.push_back(m);
        }
    }

    /// The client's place and the best other place, once the match is over.
    fn places(&self) -> Option<(u32, u32)> {
        let w: Vec<&str> = self.result.split_whitespace().collect();
        if w.len() < 4 {
            return None;
        }
        let place = |s: usize| w.get(2 * s)?.parse::<u32>().ok();
        let mine = place(self.seat)?;
        let best_other = (0..w.len() / 2)
            .filter(|&s| s != self.seat)
            .filter_map(place)
            .min()?;
        Some((mine, best_other))
    }

    /// How the game ended, for the client.
    fn ending(&self) -> String {
        let w: Vec<&str> = self.result.split_whitespace().collect();
        let scores: Vec<String> = w
            .chunks(2)
            .enumerate()
            .map(|(s, c)| {
                let who = if s == self.seat { "you" } else { "opponent" };
                format!(
                    "{who}: place {} with {} points",
                    c[0],
                    c.get(1).unwrap_or(&"?")
                )
            })
            .collect();
        format!("The game is over ({})", scores.join(", "))
    }

    /// Answers a `GET_MOVE` from the queue; `None` when it holds none.
    fn give_move(&mut self) -> Result<bool, Fault> {
        let last_ending = self.places().is_some() && self.queue.len() == 1 && !self.opponent_left;
        if let Some((mv, msg)) = self.queue.pop_front() {
            let (code, msg) = match (last_ending, self.places()) {
                (true, Some((mine, other))) => {
                    self.link.borrow_mut().told = true;
                    let code = if other < mine { "1" } else { "-1" };
                    (code, format!("{msg}\n{}", self.ending()))
                }
                _ => ("0", msg),
            };
            self.tell("OK")?;
            self.last(&[&mv, &msg, code])?;
            return Ok(true);
        }
        if self.opponent_left && self.places().is_some() {
            self.link.borrow_mut().told = true;
            self.tell("OK")?;
            let msg = format!("Your opponent left the game. {}", self.ending());
            self.last(&["", &msg, "-1"])?;
            self.opponent_left = false;
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether the client still has something to be told in `end_game`.
    fn owed(&self) -> bool {
        !self.link.borrow().told && (!self.queue.is_empty() || self.opponent_left)
    }

    /// Does what waited for the questions' answers; `Some(line)` for the arena.
    fn carry_out(&mut self, then: Then) -> Result<Option<String>, Fault> {
        match then {
            Then::GameData => {
                self.tell("OK")?;
                self.tell(&codes::game_data(&self.board, &self.row, &self.hand))?;
                self.tell(if self.seat == 0 { "0" } else { "1" })?;
                self.gave_data = true;
                Ok(Some("fin".into()))
            }
            Then::Display => {
                self.tell("OK")?;
                let text = format!(
                    "Ticket to Ride, you are player {}\nstatus (turn phase last_round over \
                     pile discard tickets): {}\nseats (cards tickets wagons points out): {}\n\
                     face up: {}\nyour hand (purple..locomotive): {}\nyour tickets: {}\n",
                    self.seat, self.status, self.seats, self.row, self.hand, self.objectives
                );
                self.tell(&text)?;
                Ok(None)
            }
            Then::AfterMove(line) => {
                let mut msg = codes::move_message(&line, &self.answer, &self.row);
                let code = match self.places() {
                    Some((mine, other)) => {
                        self.link.borrow_mut().told = true;
                        msg = format!("{msg}\n{}", self.ending());
                        if mine < other {
                            "1"
                        } else {
                            "-1"
                        }
                    }
                    None => "0",
                };
                self.last(&[&msg, code])?;
                self.link.borrow_mut().pending_move = false;
                let s: Vec<&str> = self.status.split_whitespace().collect();
                let again = s.first() == Some(&self.seat.to_string().as_str())
                    && matches!(s.get(1), Some(&"second-card") | Some(&"choose"))
                    && s.get(3) == Some(&"0");
                Ok((!again).then(|| "fin".to_string()))
            }
        }
    }

    /// Handles one command of the client; `Some(line)` for the arena.
    fn handle(&mut self, command: &str) -> Result<Option<String>, Fault> {
        let (verb, rest) = command.split_once(' ').unwrap_or((command, ""));
        // Sent before the turn began (in another seat's turn), whatever came before it
        // (the subject's server refuses a `PLAY_MOVE` then).
        let early = self.link.borrow().conn.came_early();
        if self.callback == "init_game" && !self.gave_data {
            if verb != "GET_GAME_DATA" {
                return Err(
                    self.refuse("Bad protocol, should send 'GET_GAME_DATA' command".to_string())
                );
            }
            self.then = Some(Then::GameData);
            return Ok(None);
        }
        let playing = self.callback == "jouer";
        match verb {
            "GET_MOVE" => {
                if !self.give_move()? {
                    self.tell("It's our turn to play, so we cannot ask for a move!")?;
                }
                Ok(None)
            }
            "PLAY_MOVE" if self.callback == "end_game" && self.opponent_left => {
                let code = match self.places() {
                    Some((mine, other)) if mine < other => "1",
                    _ => "-1",
                };
                self.link.borrow_mut().told = true;
                self.opponent_left = false;
                self.tell("OK")?;
                let msg = format!("Your opponent left the game. {}", self.ending());
                self.last(&[&msg, code])?;
                Ok(None)
            }
            // Out of turn (before the turn began, or outside `jouer`): refused as the
            // subject's server refuses it, nothing played; the client goes on.
            "PLAY_MOVE" if !playing || early => {
                self.tell("It's not our turn to play, so we cannot play a move!")?;
                Ok(None)
            }
            "PLAY_MOVE" => {
                self.queue.clear();
                self.tell("OK")?;
                self.link.borrow_mut().pending_move = true;
                let line =
                    codes::move_line(rest).map_err(|m| Fault::new(FaultKind::Protocol, m))?;
                self.moving = Some(line.clone());
                Ok(Some(line))
            }
            "DISP_GAME" => {
                self.asks.extend([
                    Ask::Status,
                    Ask::Seats,
                    Ask::Row,
                    Ask::Hand,
                    Ask::Objectives,
                ]);
                self.then = Some(Then::Display);
                Ok(None)
            }
            "SEND_COMMENT" => {
                let mut link = self.link.borrow_mut();
                if self.turn_comments >= COMMENTS_A_TURN || link.comments.len() >= COMMENTS_A_GAME {
                    link.dropped += 1;
                    drop(link);
                    self.tell(&format!(
                        "Too many comments (at most {COMMENTS_A_TURN} a turn and \
                         {COMMENTS_A_GAME} a game): this one is dropped"
                    ))?;
                    return Ok(None);
                }
                self.turn_comments += 1;
                link.comments
                    .push(rest.chars().take(COMMENT_CHARS).collect());
                drop(link);
                self.tell("OK")?;
                Ok(None)
            }
            _ => Err(self.refuse(format!(
                "Bad protocol, command should not start with '{}' during the game \
                 (GET_MOVE, PLAY_MOVE, DISP_GAME or SEND_COMMENT)",
                super::request::quoted_cut(command)
            ))),
        }
    }
}

impl Endpoint for RemoteSeat {
    fn unexpected_output(&mut self) -> Option<String> {
        None
    }

    fn begin(&mut self, callback: &str, limits: CallLimits) -> Result<(), Fault> {
        // The client's turn begins now, but the first turn of the first seat: that one
        // began when `GET_GAME_DATA` told the client it plays first.
        let turn_began = callback == "jouer" && !(self.seat == 0 && self.callback == "init_game");
        self.link.borrow_mut().conn.mark_turn(turn_began);
        self.callback = callback.to_string();
        self.started = Instant::now();
        self.wall = limits.wall;
        self.deadline = deadline(&self.link, self.started, limits.wall);
        self.timed_out = false;
        self.turn_comments = 0;
        self.asks = match callback {
            "init_game" => [Ask::Row, Ask::Hand].into(),
            "end_game" => [Ask::Moves, Ask::Row, Ask::Result].into(),
            _ => [Ask::Row, Ask::Moves, Ask::Result].into(),
        };
        self.then = None;
        Ok(())
    }

    fn recv(&mut self) -> Result<String, Fault> {
        loop {
            if let Some(&ask) = self.asks.front() {
                return Ok(self.question(ask));
            }
            if let Some(then) = self.then.take() {
                if let Some(line) = self.carry_out(then)? {
                    return Ok(line);
                }
                continue;
            }
            // The game ended by another seat's fault with nothing owed to this client
            // (its opponent left before the client's first move, as a tournament's member
            // gone does): it is told at its next command, as when an opponent leaves.
            if self.callback == "end_game"
                && self.gave_data
                && self.queue.is_empty()
                && !self.link.borrow().told
            {
                self.opponent_left = true;
            }
            if self.callback == "end_game" && !self.owed() {
                return Ok("fin".into());
            }
            let command = self.command()?;
            if let Some(line) = self.handle(&command)? {
                return Ok(line);
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        if let Some(ask) = self.asks.pop_front() {
            let line = line.to_string();
            match ask {
                Ask::Row => self.row = line,
                Ask::Hand => self.hand = line,
                Ask::Status => self.status = line,
                Ask::Result => self.result = line,
                Ask::Moves => self.read_moves(&line),
                Ask::Seats => self.seats = line,
                Ask::Objectives => self.objectives = line,
            }
            return Ok(());
        }
        if let Some(moved) = self.moving.take() {
            self.answer = line.to_string();
            self.asks.extend([Ask::Status, Ask::Row, Ask::Result]);
            self.then = Some(Then::AfterMove(moved));
        }
        Ok(())
    }

    fn end(&mut self) -> CallTiming {
        super::remote::timing(self.started, self.timed_out, self.wall)
    }

    fn finish(&mut self, _grace: Duration) {}

    fn kill(&mut self) {}
}

/// The deadline of a connected seat's callback that starts at `started` with the wall
/// allowance `wall`: its allowance, or sooner the end of the game's total time.
pub(super) fn deadline(link: &Rc<RefCell<Link>>, started: Instant, wall: Duration) -> Instant {
    let own = started + wall;
    match link.borrow().game_ends {
        Some((end, _)) => own.min(end),
        None => own,
    }
}

/// A connected seat's callback as the arena counts it: no CPU of ours to measure, the wall
/// time since `started`, at least its allowance `wall` when it `timed_out`.
pub(super) fn timing(started: Instant, timed_out: bool, wall: Duration) -> CallTiming {
    let elapsed = started.elapsed();
    CallTiming {
        cpu: Duration::ZERO,
        wall: if timed_out {
            elapsed.max(wall)
        } else {
            elapsed
        },
        stderr: None,
    }
}
