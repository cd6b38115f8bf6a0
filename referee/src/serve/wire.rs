//! A client's connection as the subject's game server frames it: commands read from the
//! socket (up to a newline for a line client, the end of each read for the subject's
//! library, which writes one command at a time with no terminator), answers written with
//! a six-digit length header; every read within a deadline, every command bounded. In a
//! game of the game's own protocol, lines both ways (`send_line`, `lines_only`).

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Longest command a client may send, in bytes.
pub const MAX_COMMAND: usize = 1024;
/// Longest a write may block (a client that does not read is disconnected).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest answer: its length must fit the six-digit header.
const MAX_ANSWER: usize = 999_999;

/// Why no command came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    /// The client closed the connection (or it broke).
    Closed,
    /// Nothing complete came before the deadline.
    TimedOut,
    /// A command longer than [`MAX_COMMAND`].
    TooLong,
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::Closed => write!(f, "the client closed the connection"),
            WireError::TimedOut => write!(f, "the client sent nothing in time"),
            WireError::TooLong => write!(
                f,
                "the client sent a command longer than {MAX_COMMAND} bytes"
            ),
        }
    }
}

impl std::error::Error for WireError {}

/// Refuses a connection on the accepting thread: one write that never blocks (a client
/// that does not read loses the message, not the server its time), then the close.
pub fn refuse(stream: TcpStream, why: &str) {
    if stream.set_nonblocking(true).is_ok() {
        let _ = (&stream).write(&framed(why));
        let _ = stream.shutdown(std::net::Shutdown::Write);
    }
}

/// An answer as the wire carries it: a six-digit length, then the text (cut to fit it).
fn framed(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let bytes = &bytes[..bytes.len().min(MAX_ANSWER)];
    let mut framed = format!("{:06}", bytes.len()).into_bytes();
    framed.extend_from_slice(bytes);
    framed
}

/// Whether a client whose first read is `first` ends its commands with a newline. The
/// subject's library writes `CLIENT_NAME <name>` whole in one write and no newline: only
/// a first read that is exactly such a command makes a client one whose reads are its
/// commands. Any other first read (a newline in it, or a part of a command, as from a
/// client that sends a byte at a time) makes a line client, whose partial lines are kept
/// until their newline comes.
fn is_line_client(first: &[u8]) -> bool {
    if first.contains(&b'\n') {
        return true;
    }
    let text = String::from_utf8_lossy(first);
    super::request::client_name(text.trim()).is_err()
}

/// What a client's socket holds, seen without waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Peeked {
    /// Nothing yet: the client is connected.
    Nothing,
    /// Bytes not read yet.
    Bytes,
    /// The end: the client closed the connection.
    End,
}

/// One client's connection.
pub struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    /// Decided by the first read: whether commands end with a newline only.
    lines: Option<bool>,
    /// Bytes that came before the client's turn began ([`Conn::mark_turn`]) and are not
    /// read yet: the first of `buf`'s, then of the socket's.
    before_turn: usize,
    /// The last command read began among them: it was sent before the turn began.
    early: bool,
}

impl Conn {
    pub fn new(stream: TcpStream) -> Conn {
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        Conn {
            stream,
            buf: Vec::new(),
            lines: None,
            before_turn: 0,
            early: false,
        }
    }

    /// The next command, blanks around it dropped (empty commands skipped), read before
    /// `deadline`.
    pub fn read(&mut self, deadline: Instant) -> Result<String, WireError> {
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=end).collect();
                self.early = self.before_turn > 0;
                self.before_turn = self.before_turn.saturating_sub(line.len());
                if line.len() > MAX_COMMAND + 1 {
                    return Err(WireError::TooLong);
                }
                let text = String::from_utf8_lossy(&line).trim().to_string();
                if text.is_empty() {
                    continue;
                }
                return Ok(text);
            }
            if self.buf.len() > MAX_COMMAND {
                return Err(WireError::TooLong);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(WireError::TimedOut);
            }
            let _ = self
                .stream
                .set_read_timeout(Some(left.max(Duration::from_millis(1))));
            let n = match self.stream.read(&mut chunk) {
                Ok(0) => return Err(WireError::Closed),
                Ok(n) => n,
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                    ) =>
                {
                    continue
                }
                Err(_) => return Err(WireError::Closed),
            };
            let got = &chunk[..n];
            let lines = *self.lines.get_or_insert_with(|| is_line_client(got));
            self.buf.extend_from_slice(got);
            if !lines && self.buf.last() != Some(&b'\n') {
                // A newline between two bytes that came before the turn is one of them.
                if self.before_turn > self.buf.len() {
                    self.before_turn += 1;
                }
                self.buf.push(b'\n');
            }
        }
    }

    /// A second handle on the connection's socket (whose options its handles share).
    #[cfg(test)]
    pub fn handle(&self) -> std::io::Result<TcpStream> {
        self.stream.try_clone()
    }

    /// Whether the client is still connected, without waiting: a closed connection reads
    /// as an end of file at once; bytes it sent early are left for [`Conn::read`].
    pub fn is_alive(&self) -> bool {
        matches!(self.peek(), Some(Peeked::Nothing | Peeked::Bytes))
    }

    /// The client's turn begins now (`began`) or not: every command among the bytes it
    /// sent before (read or not) is early ([`Conn::came_early`]); none when not `began`.
    pub fn mark_turn(&mut self, began: bool) {
        self.before_turn = match began {
            true => self.buf.len() + jail::champion::pending(&self.stream) as usize,
            false => 0,
        };
    }

    /// Whether the last command read began among the bytes the client sent before its
    /// turn began: one sent in another seat's turn.
    pub fn came_early(&self) -> bool {
        self.early
    }

    /// What the socket holds now, without waiting nor taking it; `None` when it broke.
    fn peek(&self) -> Option<Peeked> {
        self.stream.set_nonblocking(true).ok()?;
        let mut byte = [0u8; 1];
        let peeked = match self.stream.peek(&mut byte) {
            Ok(0) => Peeked::End,
            Ok(_) => Peeked::Bytes,
            Err(e) if e.kind() == ErrorKind::WouldBlock => Peeked::Nothing,
            Err(_) => return None,
        };
        self.stream.set_nonblocking(false).ok()?;
        Some(peeked)
    }

    /// From now on, commands end with a newline only (a game in the game's own line
    /// protocol, whose lines are a champion's).
    pub fn lines_only(&mut self) {
        self.lines = Some(true);
    }

    /// Sends one line of a game's own protocol, as a champion's stdin has it: the text
    /// and a newline, not framed.
    pub fn send_line(&mut self, text: &str) -> Result<(), WireError> {
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        self.stream.write_all(&bytes).map_err(|_| WireError::Closed)
    }

    /// Sends one answer, framed; a client gone or not reading is `Closed`.
    pub fn send(&mut self, text: &str) -> Result<(), WireError> {
        self.stream
            .write_all(&framed(text))
            .map_err(|_| WireError::Closed)
    }

    /// Sends one answer, framed, without waiting (where others wait on the sender): a
    /// client whose buffers cannot take it all at once, one that does not read, is
    /// `Closed` (the part written breaks its framing: the connection is to be dropped).
    pub fn try_send(&mut self, text: &str) -> Result<(), WireError> {
        let framed = framed(text);
        if self.stream.set_nonblocking(true).is_err() {
            return Err(WireError::Closed);
        }
        let sent = (&self.stream).write(&framed);
        let blocking = self.stream.set_nonblocking(false);
        match sent {
            Ok(n) if n == framed.len() && blocking.is_ok() => Ok(()),
            _ => Err(WireError::Closed),
        }
    }
}
