//! Line I/O with a champion over non-blocking pipes: writes that never block past a
//! deadline, reads in large chunks into a buffer (a champion may pipeline lines), and a
//! `poll` that also watches the main process through a pidfd.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use nix::libc;

/// How much unread output is buffered at most while the referee is writing (beyond it the
/// champion is left blocked on its own write, and the write deadline decides).
const MAX_BUFFERED_WHILE_SENDING: usize = 1 << 20;
/// Bytes asked from the kernel per read.
const READ_CHUNK: usize = 64 * 1024;

/// What a wait ended on.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Wake {
    /// New bytes were read into the buffer.
    Data,
    /// Stdout reached end of file (every writer closed it).
    Eof,
    /// The main process exited (pidfd readable).
    Exited,
    /// The timeout expired.
    Timeout,
}

/// Result of [`Channel::write_line`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum WriteEnd {
    Done,
    /// The deadline passed with `written` of `total` bytes written.
    Deadline {
        written: usize,
        total: usize,
    },
    /// The champion closed its stdin (EPIPE) or it was already closed by us.
    Closed,
    /// The main process exited while we were waiting to write.
    Exited,
}

/// Result of [`Channel::take_line`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A complete line, without its `\n`.
    Complete(String),
    /// No complete line buffered yet.
    Partial,
    /// A line longer than the limit: its first bytes (lossy), and the length seen so far.
    TooLong { start: String, len: usize },
    /// A line with a non-ASCII byte at `offset`.
    NotAscii { start: String, offset: usize },
}

/// The referee's ends of the champion's stdin and stdout, plus a pidfd on the main process.
pub(crate) struct Channel {
    stdin: Option<OwnedFd>,
    stdout: OwnedFd,
    pidfd: Option<OwnedFd>,
    buf: Vec<u8>,
    /// Start of unconsumed data in `buf`.
    start: usize,
    /// `buf[start..scanned]` is known to contain no `\n`.
    scanned: usize,
    wbuf: Vec<u8>,
    eof: bool,
}

impl Channel {
    /// Wraps the pipes (set non-blocking here) and opens a pidfd on `pid` when the kernel
    /// supports it.
    pub(crate) fn new(stdin: OwnedFd, stdout: OwnedFd, pid: i32) -> io::Result<Channel> {
        // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
        let raw = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        let pidfd = if raw >= 0 {
            // SAFETY: the syscall returned a fresh fd that nobody else owns.
            Some(unsafe { OwnedFd::from_raw_fd(raw as RawFd) })
        } else {
            None
        };
        Channel::with_watch(stdin, stdout, pidfd)
    }

    /// Wraps the pipes with `watch`, a descriptor that becomes readable when the main
    /// process exits (a pidfd, or a jail's control socket).
    pub(crate) fn with_watch(
        stdin: OwnedFd,
        stdout: OwnedFd,
        pidfd: Option<OwnedFd>,
    ) -> io::Result<Channel> {
        set_nonblocking(stdin.as_raw_fd())?;
        set_nonblocking(stdout.as_raw_fd())?;
        Ok(Channel {
            stdin: Some(stdin),
            stdout,
            pidfd,
            buf: Vec::with_capacity(READ_CHUNK),
            start: 0,
            scanned: 0,
            wbuf: Vec::with_capacity(1024),
            eof: false,
        })
    }

    /// Whether stdout reached end of file.
    pub(crate) fn is_eof(&self) -> bool {
        self.eof
    }

    /// Whether unread output is buffered.
    pub(crate) fn has_buffered(&self) -> bool {
        self.start < self.buf.len()
    }

    /// Closes the champion's stdin (it reads end of file).
    pub(crate) fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Whether the main process has exited, according to the pidfd (`None`: no pidfd).
    pub(crate) fn has_exited(&self) -> Option<bool> {
        let fd = self.pidfd.as_ref()?.as_raw_fd();
        let mut pfd = [libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        }];
        // SAFETY: one valid pollfd.
        let n = unsafe { libc::poll(pfd.as_mut_ptr(), 1, 0) };
        Some(n > 0 && pfd[0].revents != 0)
    }

    /// Waits up to `timeout` for the main process to exit; `None` if there is no pidfd.
    pub(crate) fn wait_exit(&self, timeout: Duration) -> Option<bool> {
        let fd = self.pidfd.as_ref()?.as_raw_fd();
        let deadline = Instant::now() + timeout;
        loop {
            let mut pfd = [libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            }];
            let ms = poll_ms(deadline.saturating_duration_since(Instant::now()));
            // SAFETY: one valid pollfd.
            let n = unsafe { libc::poll(pfd.as_mut_ptr(), 1, ms) };
            if n > 0 {
                return Some(true);
            }
            if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            if Instant::now() >= deadline {
                return Some(false);
            }
        }
    }

    /// Takes the next complete line out of the buffer, checking its length and bytes.
    pub(crate) fn take_line(&mut self, max_line: usize) -> Line {
        let data = &self.buf[self.start..];
        let from = self.scanned - self.start;
        match data[from..].iter().position(|&b| b == b'\n') {
            Some(i) => {
                let len = from + i;
                let line = &data[..len];
                if len > max_line {
                    return Line::TooLong {
                        start: quote_start(line),
                        len,
                    };
                }
                if let Some(offset) = line.iter().position(|b| !b.is_ascii()) {
                    return Line::NotAscii {
                        start: quote_start(line),
                        offset,
                    };
                }
                // SAFETY: checked ASCII just above.
                let text = unsafe { std::str::from_utf8_unchecked(line) }.to_owned();
                self.start += len + 1;
                self.scanned = self.start;
                if self.start == self.buf.len() {
                    self.buf.clear();
                    self.start = 0;
                    self.scanned = 0;
                }
                Line::Complete(text)
            }
            None => {
                self.scanned = self.buf.len();
                if data.len() > max_line {
                    Line::TooLong {
                        start: quote_start(data),
                        len: data.len(),
                    }
                } else {
                    Line::Partial
                }
            }
        }
    }

    /// Reads what is available without blocking. Returns the number of bytes read (0 at end
    /// of file or when nothing is ready).
    pub(crate) fn read_available(&mut self) -> io::Result<usize> {
        let mut total = 0;
        while !self.eof {
            match self.read_once()? {
                Some(0) => {}
                Some(n) => {
                    total += n;
                    continue;
                }
                None => break,
            }
        }
        Ok(total)
    }

    /// One read. `Some(0)`: end of file (sets `eof`), `Some(n)`: n bytes, `None`: would block.
    fn read_once(&mut self) -> io::Result<Option<usize>> {
        if self.start > 0 && self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
            self.scanned = 0;
        } else if self.start > 0 && self.buf.capacity() - self.buf.len() < READ_CHUNK / 4 {
            self.buf.drain(..self.start);
            self.scanned -= self.start;
            self.start = 0;
        }
        self.buf.reserve(READ_CHUNK);
        let spare = self.buf.spare_capacity_mut();
        let want = spare.len().min(READ_CHUNK * 4);
        loop {
            // SAFETY: reading into the vector's spare capacity, then setting the length to
            // what the kernel wrote.
            let n = unsafe {
                libc::read(
                    self.stdout.as_raw_fd(),
                    spare.as_mut_ptr() as *mut libc::c_void,
                    want,
                )
            };
            if n >= 0 {
                let n = n as usize;
                // SAFETY: the kernel initialised n bytes.
                unsafe { self.buf.set_len(self.buf.len() + n) };
                if n == 0 {
                    self.eof = true;
                }
                return Ok(Some(n));
            }
            let err = io::Error::last_os_error();
            match err.kind() {
                io::ErrorKind::Interrupted => continue,
                io::ErrorKind::WouldBlock => return Ok(None),
                _ => return Err(err),
            }
        }
    }

    /// Waits up to `timeout` for output or the main process's exit, reading what arrives.
    pub(crate) fn wait_readable(&mut self, timeout: Duration) -> io::Result<Wake> {
        if self.eof {
            return Ok(Wake::Eof);
        }
        // A read first: when the referee and the champion share a CPU, writing the answer
        // often switched to the champion, whose next line is then already in the pipe. If
        // not, the champion was woken but has not run: yield the CPU to it, and read again.
        // Only then `poll`, whose timer costs more than the yield and the reads
        // (BENCHMARKS.md, "Request round trip").
        for attempt in 0..2 {
            match self.read_once()? {
                Some(0) => return Ok(Wake::Eof),
                Some(_) => return Ok(Wake::Data),
                None if attempt == 0 => {
                    // SAFETY: sched_yield takes no argument and cannot fail on Linux.
                    unsafe { libc::sched_yield() };
                }
                None => {}
            }
        }
        let mut fds = [
            libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: self.pidfd.as_ref().map_or(-1, |f| f.as_raw_fd()),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let nfds = if self.pidfd.is_some() { 2 } else { 1 };
        // SAFETY: `nfds` valid pollfds.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), nfds, poll_ms(timeout)) };
        if n < 0 {
            let err = io::Error::last_os_error();
            return if err.kind() == io::ErrorKind::Interrupted {
                Ok(Wake::Timeout)
            } else {
                Err(err)
            };
        }
        if n == 0 {
            return Ok(Wake::Timeout);
        }
        if fds[0].revents != 0 {
            // One read: it takes all a default pipe holds, and a second one would mostly say
            // EAGAIN (a syscall per request on the hot path).
            match self.read_once()? {
                Some(0) => return Ok(Wake::Eof),
                Some(_) => return Ok(Wake::Data),
                None => {}
            }
        }
        if nfds == 2 && fds[1].revents != 0 {
            return Ok(Wake::Exited);
        }
        Ok(Wake::Timeout)
    }

    /// Writes `line` and a `\n`, never blocking past `deadline`. While waiting for room in
    /// the pipe, keeps reading the champion's output so that both sides cannot block on
    /// full pipes.
    pub(crate) fn write_line(&mut self, line: &str, deadline: Instant) -> io::Result<WriteEnd> {
        let Some(stdin) = self.stdin.as_ref() else {
            return Ok(WriteEnd::Closed);
        };
        let fd = stdin.as_raw_fd();
        self.wbuf.clear();
        self.wbuf.extend_from_slice(line.as_bytes());
        self.wbuf.push(b'\n');
        let total = self.wbuf.len();
        let mut written = 0;
        loop {
            // SAFETY: writing from an initialised buffer.
            let n = unsafe {
                libc::write(
                    fd,
                    self.wbuf[written..].as_ptr() as *const libc::c_void,
                    total - written,
                )
            };
            if n >= 0 {
                written += n as usize;
                if written == total {
                    return Ok(WriteEnd::Done);
                }
                continue;
            }
            let err = io::Error::last_os_error();
            match err.raw_os_error() {
                Some(libc::EINTR) => continue,
                Some(libc::EPIPE) => return Ok(WriteEnd::Closed),
                Some(libc::EAGAIN) => {}
                _ => return Err(err),
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(WriteEnd::Deadline { written, total });
            }
            let watch_out = !self.eof && self.buf.len() - self.start < MAX_BUFFERED_WHILE_SENDING;
            let mut fds = [
                libc::pollfd {
                    fd,
                    events: libc::POLLOUT,
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.pidfd.as_ref().map_or(-1, |f| f.as_raw_fd()),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: if watch_out {
                        self.stdout.as_raw_fd()
                    } else {
                        -1
                    },
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            // SAFETY: three pollfds; negative fds are ignored by poll.
            let r = unsafe { libc::poll(fds.as_mut_ptr(), 3, poll_ms(deadline - now)) };
            if r < 0 {
                let err = io::Error::last_os_error();
                if err.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(err);
            }
            if fds[2].revents != 0 {
                self.read_available()?;
            }
            if fds[1].revents != 0 && fds[0].revents & libc::POLLOUT == 0 {
                return Ok(WriteEnd::Exited);
            }
        }
    }
}

/// Milliseconds for poll, rounded up so a wait never ends before its deadline.
fn poll_ms(d: Duration) -> i32 {
    let ms = d.as_nanos().div_ceil(1_000_000);
    ms.min(i32::MAX as u128) as i32
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on an fd we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The start of an offending line, quoted as every fault quotes (protocol.md section 5).
pub(crate) fn quote_start(line: &[u8]) -> String {
    format!("`{}`", crate::fault::quote(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel_with(data: &[u8]) -> Channel {
        let (r, w) = nix::unistd::pipe().unwrap();
        let mut ch = Channel::new(w, r, 0).unwrap();
        ch.buf.extend_from_slice(data);
        ch
    }

    #[test]
    fn splits_pipelined_lines() {
        let mut ch = channel_with(b"a 1\nb 2\nc");
        assert_eq!(ch.take_line(10), Line::Complete("a 1".into()));
        assert_eq!(ch.take_line(10), Line::Complete("b 2".into()));
        assert_eq!(ch.take_line(10), Line::Partial);
        ch.buf.extend_from_slice(b"\n");
        assert_eq!(ch.take_line(10), Line::Complete("c".into()));
        assert!(!ch.has_buffered());
    }

    #[test]
    fn rejects_long_and_non_ascii() {
        let mut ch = channel_with(b"abcdef");
        assert!(matches!(ch.take_line(5), Line::TooLong { len: 6, .. }));
        let mut ch = channel_with(b"ab\xc3\xa9\n");
        assert!(matches!(ch.take_line(5), Line::NotAscii { offset: 2, .. }));
    }

    #[test]
    fn quotes_start() {
        assert_eq!(quote_start(b"a\tb"), "`a\\x09b`");
        assert!(quote_start(&[b'x'; 100]).ends_with("...`"));
    }
}
