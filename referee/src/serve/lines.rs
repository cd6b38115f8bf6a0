//! A connected program's seat in a game played in the game's own line protocol
//! (`protocol=lines`: `protocol-amazons.md`, `protocol-little-town.md`, ...): an
//! [`Endpoint`] that writes the arena's lines to the socket and reads the client's back, as
//! a spawned champion's stdin and stdout carry them, so that a kit plays spawned or
//! connected alike. Its clock is the wall clock only: the program runs on another machine.

use super::remote::Link;
use super::wire::WireError;
use crate::endpoint::{CallLimits, CallTiming, Endpoint};
use jail::fault::{Fault, FaultKind};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The remote seat of a game in the game's own protocol.
pub struct LineSeat {
    link: Rc<RefCell<Link>>,
    callback: String,
    started: Instant,
    deadline: Instant,
    wall: Duration,
    timed_out: bool,
}

impl LineSeat {
    pub fn new(link: Rc<RefCell<Link>>) -> LineSeat {
        link.borrow_mut().conn.lines_only();
        let now = Instant::now();
        LineSeat {
            link,
            callback: String::new(),
            started: now,
            deadline: now,
            wall: Duration::ZERO,
            timed_out: false,
        }
    }

    fn write(&self, line: &str) -> Result<(), Fault> {
        let mut link = self.link.borrow_mut();
        link.conn.send_line(line).map_err(|e| {
            link.close = true;
            Fault::new(
                FaultKind::Crash,
                format!("{e} during {} (a write failed)", self.callback),
            )
        })
    }
}

/// How a connection's answers are written: framed (the subject's protocol) or as lines (a
/// game's own protocol).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    Framed,
    Lines,
}

/// The next line of the client of `link` before `deadline`, or the fault of the callback
/// `callback` (whose wall allowance is `wall`) and whether it is a timeout; a line too long
/// is answered in the connection's own form (`answers`).
pub fn read_within(
    link: &Rc<RefCell<Link>>,
    deadline: Instant,
    wall: Duration,
    callback: &str,
    answers: Answers,
) -> Result<String, (Fault, bool)> {
    let read = link.borrow_mut().conn.read(deadline);
    read.map_err(|e| {
        let mut link = link.borrow_mut();
        let capped = link.game_ends.filter(|(end, _)| *end <= deadline);
        match e {
            WireError::TimedOut => (
                Fault::new(
                    FaultKind::Timeout,
                    match capped {
                        Some((_, cap)) => format!(
                            "the game passed the server's cap on a game's total time ({} s) \
                             during {callback}, this seat to move",
                            cap.as_secs()
                        ),
                        None => format!(
                            "no move within the game's timeout of {} s during {callback} \
                             (timeout=)",
                            wall.as_secs_f64(),
                        ),
                    },
                ),
                true,
            ),
            WireError::Closed => {
                link.close = true;
                (
                    Fault::new(
                        FaultKind::Crash,
                        link.why_gone(format!(
                            "the client closed the connection during {callback}"
                        )),
                    ),
                    false,
                )
            }
            WireError::TooLong => {
                let _ = match answers {
                    Answers::Framed => link.conn.send(&e.to_string()),
                    Answers::Lines => link.conn.send_line(&e.to_string()),
                };
                link.close = true;
                (
                    Fault::new(FaultKind::Protocol, format!("{e} during {callback}")),
                    false,
                )
            }
        }
    })
}

impl Endpoint for LineSeat {
    fn unexpected_output(&mut self) -> Option<String> {
        None
    }

    fn begin(&mut self, callback: &str, limits: CallLimits) -> Result<(), Fault> {
        self.callback = callback.to_string();
        self.started = Instant::now();
        self.wall = limits.wall;
        self.deadline = super::remote::deadline(&self.link, self.started, limits.wall);
        self.timed_out = false;
        self.write(callback)
    }

    fn recv(&mut self) -> Result<String, Fault> {
        let answers = Answers::Lines;
        read_within(
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

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.write(line)
    }

    fn end(&mut self) -> CallTiming {
        super::remote::timing(self.started, self.timed_out, self.wall)
    }

    fn finish(&mut self, _grace: Duration) {}

    fn kill(&mut self) {}
}
