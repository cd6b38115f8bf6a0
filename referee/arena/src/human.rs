//! The human seat's [`Endpoint`]: no process, no jail, no budget. It acts as a champion
//! would: at each callback its driver sends the requests it needs (the colour, the
//! state), shows the answers to the person on the console's output, reads what they type
//! from its input, and sends the requests that means; the driver's `fin` ends the
//! callback. End of input is the seat giving up: a `crash` fault, as a champion that
//! closes its output. It knows no game: the driver does.

use crate::endpoint::{CallLimits, CallTiming, Endpoint};
use jail::fault::{Fault, FaultKind};
use std::collections::VecDeque;
use std::io::Write;
use std::time::{Duration, Instant};

/// What a driver makes of an event: text to show the person, then requests to send (a
/// `fin` among them ends the callback; nothing after it is sent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    pub say: String,
    pub send: Vec<String>,
}

impl Turn {
    /// Only text.
    pub fn say(text: impl Into<String>) -> Turn {
        Turn {
            say: text.into(),
            send: Vec::new(),
        }
    }

    /// Only requests.
    pub fn send(lines: impl IntoIterator<Item = impl Into<String>>) -> Turn {
        Turn {
            say: String::new(),
            send: lines.into_iter().map(Into::into).collect(),
        }
    }

    /// These requests too, after this turn's.
    pub fn then(mut self, lines: impl IntoIterator<Item = impl Into<String>>) -> Turn {
        self.send.extend(lines.into_iter().map(Into::into));
        self
    }
}

/// One game's side of a human seat. Every line it sends must be a valid request of the
/// game's protocol: the person's typing errors are caught here, never sent (a malformed
/// request is a fault that would stop the seat).
pub trait Driver {
    /// A callback starts.
    fn begin(&mut self, callback: &str) -> Turn;
    /// The answer to `request`, sent by this driver.
    fn answer(&mut self, request: &str, answer: &str) -> Turn;
    /// A line the person typed (without its line end).
    fn typed(&mut self, line: &str) -> Turn;
    /// The prompt before reading a line.
    fn prompt(&self) -> String;
}

/// Where the person's lines come from: `read_line`'s contract (0 at the end of input).
pub type Input = Box<dyn FnMut(&mut String) -> std::io::Result<usize>>;

/// A person at a console, playing one seat.
pub struct HumanEndpoint {
    seat: usize,
    driver: Box<dyn Driver>,
    input: Input,
    output: Box<dyn Write>,
    /// Requests to send, in order.
    pending: VecDeque<String>,
    /// The request sent whose answer comes next.
    awaiting: Option<String>,
    started: Option<Instant>,
}

impl HumanEndpoint {
    /// The person playing `seat` with `driver`, reading `input` and writing to `output`.
    pub fn new(
        seat: usize,
        driver: Box<dyn Driver>,
        input: Input,
        output: Box<dyn Write>,
    ) -> HumanEndpoint {
        HumanEndpoint {
            seat,
            driver,
            input,
            output,
            pending: VecDeque::new(),
            awaiting: None,
            started: None,
        }
    }

    /// The person on the referee's stdin, shown everything on its stderr (stdout keeps the
    /// match's result). Each line is read through stdin's one shared buffer, so that two
    /// human seats of one match take turns on the same input. A line that is not UTF-8 (a
    /// terminal in another encoding, a stray byte) is read with its bad bytes replaced, and
    /// refused as any typing error: it is not the end of the input.
    pub fn console(seat: usize, driver: Box<dyn Driver>) -> HumanEndpoint {
        HumanEndpoint::new(
            seat,
            driver,
            Box::new(|line| read_line_lossy(&mut std::io::stdin().lock(), line)),
            Box::new(std::io::stderr()),
        )
    }

    /// Shows `turn` and queues its requests.
    fn take(&mut self, turn: Turn) {
        self.show(&turn.say);
        self.pending.extend(turn.send);
    }

    /// Best effort: a console that cannot be written to does not stop the match (its end
    /// of input will).
    fn show(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let _ = self.output.write_all(text.as_bytes());
        if !text.ends_with('\n') {
            let _ = self.output.write_all(b"\n");
        }
        let _ = self.output.flush();
    }

    /// The next line the person types, `None` at the end of input.
    fn read(&mut self) -> Option<String> {
        let prompt = self.driver.prompt();
        let _ = write!(self.output, "{prompt}");
        let _ = self.output.flush();
        let mut line = String::new();
        match (self.input)(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
        }
    }
}

/// `read_line` of `input` into `line`, bytes that are not UTF-8 replaced by U+FFFD
/// (`read_line` itself fails on them, which ended a person's game).
pub fn read_line_lossy(
    input: &mut dyn std::io::BufRead,
    line: &mut String,
) -> std::io::Result<usize> {
    let mut bytes = Vec::new();
    let n = input.read_until(b'\n', &mut bytes)?;
    line.push_str(&String::from_utf8_lossy(&bytes));
    Ok(n)
}

impl Endpoint for HumanEndpoint {
    fn unexpected_output(&mut self) -> Option<String> {
        None
    }

    /// No budget applies to a person: `limits` is ignored.
    fn begin(&mut self, callback: &str, _limits: CallLimits) -> Result<(), Fault> {
        self.started = Some(Instant::now());
        self.pending.clear();
        self.awaiting = None;
        let turn = self.driver.begin(callback);
        self.take(turn);
        Ok(())
    }

    fn recv(&mut self) -> Result<String, Fault> {
        loop {
            if let Some(line) = self.pending.pop_front() {
                if line == "fin" {
                    self.pending.clear();
                } else {
                    self.awaiting = Some(line.clone());
                }
                return Ok(line);
            }
            let Some(typed) = self.read() else {
                let seat = self.seat;
                self.show(&format!(
                    "\nend of input: you give up seat {seat}; the match goes on without you"
                ));
                return Err(Fault::new(
                    FaultKind::Crash,
                    "gave up: the person playing this seat ended their input (end of file)"
                        .to_string(),
                ));
            };
            let turn = self.driver.typed(typed.trim());
            self.take(turn);
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let request = self.awaiting.take().unwrap_or_default();
        let turn = self.driver.answer(&request, line);
        self.take(turn);
        Ok(())
    }

    /// A person's time is their own: the wall time is kept, no CPU is counted.
    fn end(&mut self) -> CallTiming {
        CallTiming {
            cpu: Duration::ZERO,
            wall: self.started.take().map_or(Duration::ZERO, |s| s.elapsed()),
            stderr: None,
        }
    }

    fn finish(&mut self, _grace: Duration) {}

    fn kill(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;

    /// Sends `ask` at the start of each callback; a typed `go` sends `fin`, anything else
    /// is echoed.
    struct Echo;

    impl Driver for Echo {
        fn begin(&mut self, callback: &str) -> Turn {
            Turn::say(format!("begin {callback}")).then(["ask"])
        }
        fn answer(&mut self, request: &str, answer: &str) -> Turn {
            Turn::say(format!("{request} = {answer}"))
        }
        fn typed(&mut self, line: &str) -> Turn {
            match line {
                "go" => Turn::send(["fin", "never sent"]),
                _ => Turn::say(format!("echo {line}")),
            }
        }
        fn prompt(&self) -> String {
            "> ".into()
        }
    }

    fn endpoint(input: &str) -> (HumanEndpoint, std::rc::Rc<std::cell::RefCell<Vec<u8>>>) {
        struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.borrow_mut().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let out = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let mut input = std::io::Cursor::new(input.as_bytes().to_vec());
        let endpoint = HumanEndpoint::new(
            2,
            Box::new(Echo),
            Box::new(move |line| input.read_line(line)),
            Box::new(Shared(out.clone())),
        );
        (endpoint, out)
    }

    const LIMITS: CallLimits = CallLimits {
        cpu: Duration::from_millis(1),
        wall: Duration::from_millis(1),
    };

    #[test]
    fn the_driver_speaks_for_the_person_until_fin() {
        let (mut e, out) = endpoint("hello\ngo\n");
        e.begin("jouer", LIMITS).unwrap();
        assert_eq!(e.recv().unwrap(), "ask");
        e.send("7").unwrap();
        assert_eq!(e.recv().unwrap(), "fin");
        e.end();
        let shown = String::from_utf8(out.borrow().clone()).unwrap();
        assert_eq!(shown, "begin jouer\nask = 7\n> echo hello\n> ");
        // What followed `fin` in the same turn is dropped with the callback.
        e.begin("jouer", LIMITS).unwrap();
        assert_eq!(e.recv().unwrap(), "ask");
    }

    /// A line that is not UTF-8 is a typing error like any other, not the end of input.
    #[test]
    fn a_line_that_is_not_utf8_is_read_not_the_end() {
        let mut input = std::io::Cursor::new(b"caf\xe9\ngo\n".to_vec());
        let mut line = String::new();
        assert_eq!(read_line_lossy(&mut input, &mut line).unwrap(), 5);
        assert_eq!(line, "caf\u{fffd}\n");
        line.clear();
        assert_eq!(read_line_lossy(&mut input, &mut line).unwrap(), 3);
        assert_eq!(line, "go\n");
        line.clear();
        assert_eq!(read_line_lossy(&mut input, &mut line).unwrap(), 0);
    }

    #[test]
    fn end_of_input_gives_the_seat_up_as_a_crash() {
        let (mut e, out) = endpoint("");
        e.begin("jouer", LIMITS).unwrap();
        assert_eq!(e.recv().unwrap(), "ask");
        e.send("0").unwrap();
        let fault = e.recv().unwrap_err();
        assert_eq!(fault.kind, FaultKind::Crash);
        assert!(fault.message.contains("gave up"), "{}", fault.message);
        let shown = String::from_utf8(out.borrow().clone()).unwrap();
        assert!(shown.contains("you give up seat 2"), "{shown}");
    }
}
