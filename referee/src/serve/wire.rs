//! A client's connection as the subject's game server frames it: commands read from the
//! socket (up to a newline for a line client, the end of each read for the subject's
//! library, which writes one command at a time with no terminator), answers written with
//! a six-digit length header; every read within a deadline, every command bounded.

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

/// One client's connection.
pub struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    /// Decided by the first read: whether commands end with a newline only.
    lines: Option<bool>,
}

impl Conn {
    pub fn new(stream: TcpStream) -> Conn {
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        Conn {
            stream,
            buf: Vec::new(),
            lines: None,
        }
    }

    /// The next command, blanks around it dropped (empty commands skipped), read before
    /// `deadline`.
    pub fn read(&mut self, deadline: Instant) -> Result<String, WireError> {
        let mut chunk = [0u8; 4096];
        loop {
            if let Some(end) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=end).collect();
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
            let lines = *self.lines.get_or_insert(got.contains(&b'\n'));
            self.buf.extend_from_slice(got);
            if !lines && self.buf.last() != Some(&b'\n') {
                self.buf.push(b'\n');
            }
        }
    }

    /// Sends one answer, framed; a client gone or not reading is `Closed`.
    pub fn send(&mut self, text: &str) -> Result<(), WireError> {
        let bytes = text.as_bytes();
        let bytes = &bytes[..bytes.len().min(MAX_ANSWER)];
        let mut framed = format!("{:06}", bytes.len()).into_bytes();
        framed.extend_from_slice(bytes);
        self.stream
            .write_all(&framed)
            .map_err(|_| WireError::Closed)
    }
}
