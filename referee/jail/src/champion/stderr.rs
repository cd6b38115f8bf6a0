//! The champion's stderr: a thread drains the pipe into a file capped at a byte count (the
//! rest is dropped, once marked within the cap), so a chatty champion never blocks, keeps the last few
//! KiB in memory for fault diagnosis, and counts every byte the champion wrote so that the
//! runner can tell which callback wrote which bytes ([`Drain::written`]).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How much of the end of stderr is kept in memory for diagnosis.
const TAIL_BYTES: usize = 4096;
/// Appended once when output is dropped.
pub const TRUNCATED_MARKER: &str = "\n[stderr truncated]\n";

#[derive(Default)]
struct State {
    tail: VecDeque<u8>,
    eof: bool,
    /// Bytes taken out of the pipe so far (kept in the file or dropped past the cap).
    received: u64,
}

/// What the runner and the draining thread share. The thread reads the pipe only while it
/// holds `state` (after `poll` said it is readable, the pipe being non-blocking), so that
/// `received` plus what is still in the pipe is, at any moment, every byte written.
struct Shared {
    state: Mutex<State>,
    cond: Condvar,
    pipe: File,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Handle on the draining thread.
pub(crate) struct Drain {
    shared: Arc<Shared>,
}

impl Drain {
    /// Starts draining `pipe` into `file`, keeping at most `cap` bytes in the file.
    pub(crate) fn start(pipe: impl Into<OwnedFd>, file: File, cap: u64) -> std::io::Result<Drain> {
        let pipe = File::from(pipe.into());
        set_nonblocking(&pipe)?;
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            cond: Condvar::new(),
            pipe,
        });
        let thread_shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("champion-stderr".into())
            .stack_size(64 * 1024)
            .spawn(move || run(file, cap, &thread_shared))?;
        Ok(Drain { shared })
    }

    /// Waits until every writer closed the pipe, at most `timeout`; true if it did.
    pub(crate) fn wait_eof(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.shared.lock();
        while !state.eof {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            state = self
                .shared
                .cond
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }

    /// The last few KiB written so far (lossy UTF-8).
    pub(crate) fn tail(&self) -> String {
        let state = self.shared.lock();
        let (a, b) = state.tail.as_slices();
        let mut bytes = Vec::with_capacity(a.len() + b.len());
        bytes.extend_from_slice(a);
        bytes.extend_from_slice(b);
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Every byte the champion has written to stderr so far: those drained, and those
    /// still in the pipe. Never waits on the champion (the lock is held by the thread only
    /// for a non-blocking read); bytes it writes later count for the next call.
    pub(crate) fn written(&self) -> u64 {
        let state = self.shared.lock();
        let pending = if state.eof {
            0
        } else {
            pending(&self.shared.pipe)
        };
        state.received + pending
    }
}

/// Bytes waiting to be read in a pipe or a socket (`FIONREAD`), 0 if it cannot be told.
pub fn pending(pipe: &impl AsRawFd) -> u64 {
    let mut n: nix::libc::c_int = 0;
    // SAFETY: FIONREAD writes one c_int through the pointer, which points to `n`; the fd is
    // open as long as `pipe` (borrowed here) lives.
    let ok = unsafe { nix::libc::ioctl(pipe.as_raw_fd(), nix::libc::FIONREAD, &mut n) } == 0;
    if ok {
        u64::try_from(n).unwrap_or(0)
    } else {
        0
    }
}

fn set_nonblocking(pipe: &File) -> std::io::Result<()> {
    let fd = pipe.as_raw_fd();
    // SAFETY: F_GETFL and F_SETFL on an open descriptor take and return plain integers.
    let ok = unsafe {
        let flags = nix::libc::fcntl(fd, nix::libc::F_GETFL);
        flags >= 0 && nix::libc::fcntl(fd, nix::libc::F_SETFL, flags | nix::libc::O_NONBLOCK) >= 0
    };
    if ok {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Blocks until the pipe is readable or closed (or `poll` fails, which the read then
/// reports).
fn wait_readable(pipe: &File) {
    let mut fd = nix::libc::pollfd {
        fd: pipe.as_raw_fd(),
        events: nix::libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, and its count; no timeout.
    unsafe { nix::libc::poll(&mut fd, 1, -1) };
}

fn run(file: File, cap: u64, shared: &Shared) {
    let mut file = Some(file);
    let mut written = 0u64;
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        wait_readable(&shared.pipe);
        let n = {
            let mut state = shared.lock();
            let n = match (&shared.pipe).read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock
                    ) =>
                {
                    continue
                }
                Err(_) => break,
            };
            state.received += n as u64;
            let chunk = &buf[..n];
            let tail = if n > TAIL_BYTES {
                &chunk[n - TAIL_BYTES..]
            } else {
                chunk
            };
            state.tail.extend(tail.iter().copied());
            let excess = state.tail.len().saturating_sub(TAIL_BYTES);
            state.tail.drain(..excess);
            n
        };
        let chunk = &buf[..n];
        if let Some(f) = file.as_mut() {
            let room = cap.saturating_sub(written) as usize;
            let keep = room.min(n);
            let ok = f.write_all(&chunk[..keep]).is_ok();
            written += keep as u64;
            if keep < n || !ok {
                mark_truncated(f, written, cap);
                file = None; // closes it; everything after is dropped
            }
        }
    }
    shared.lock().eof = true;
    shared.cond.notify_all();
}

/// Ends a file of `written` bytes, capped at `cap`, with [`TRUNCATED_MARKER`], the whole
/// at most `cap` bytes: the marker takes the place of the last bytes kept if need be.
fn mark_truncated(f: &mut File, written: u64, cap: u64) {
    use std::io::{Seek, SeekFrom};
    let marker = TRUNCATED_MARKER.as_bytes();
    let end = written.min(cap.saturating_sub(marker.len() as u64));
    if end < written && (f.set_len(end).is_err() || f.seek(SeekFrom::Start(end)).is_err()) {
        return;
    }
    let room = cap.saturating_sub(end) as usize;
    let _ = f.write_all(&marker[..marker.len().min(room)]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pipe's ends as files.
    fn pipe() -> (File, File) {
        let (r, w) = nix::unistd::pipe().unwrap();
        (File::from(r), File::from(w))
    }

    /// Bytes still in the pipe count as written at once: what a callback wrote just before
    /// its last line is its own, however late the thread drains it.
    #[test]
    fn written_counts_the_bytes_still_in_the_pipe() {
        let (r, mut w) = pipe();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("err");
        let drain = Drain::start(r, File::create(&path).unwrap(), 10).unwrap();
        assert_eq!(drain.written(), 0);
        for round in 1..=200u64 {
            w.write_all(b"0123456789abcdef").unwrap();
            assert_eq!(drain.written(), round * 16, "round {round}");
        }
        drop(w);
        assert!(drain.wait_eof(Duration::from_secs(5)));
        assert_eq!(drain.written(), 3200);
        // The file keeps the cap, the marker included.
        let kept = std::fs::read_to_string(&path).unwrap();
        assert_eq!(kept, &TRUNCATED_MARKER[..10]);
    }

    /// Writes of `sizes` bytes into a drain capped at `cap`: what the file keeps.
    fn drained(cap: u64, sizes: &[usize]) -> Vec<u8> {
        let (r, mut w) = pipe();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("err");
        let drain = Drain::start(r, File::create(&path).unwrap(), cap).unwrap();
        for (i, &size) in sizes.iter().enumerate() {
            w.write_all(&vec![b'a' + i as u8; size]).unwrap();
            // Each write drained before the next: the cap is crossed between reads too.
            while drain.written() > drain.shared.lock().received {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        drop(w);
        assert!(drain.wait_eof(Duration::from_secs(5)));
        std::fs::read(&path).unwrap()
    }

    /// The file never exceeds its cap, the marker included: output of exactly the cap is
    /// kept whole and unmarked; one byte more, in the same write or a later one, and the
    /// marker replaces the end.
    #[test]
    fn the_file_never_exceeds_the_cap() {
        let marker = TRUNCATED_MARKER.as_bytes();
        assert_eq!(drained(100, &[100]), vec![b'a'; 100]);
        assert_eq!(drained(100, &[60, 40]).len(), 100);
        for sizes in [&[101][..], &[100, 1], &[50, 50, 50], &[99, 2], &[5000]] {
            let kept = drained(100, sizes);
            assert_eq!(kept.len(), 100, "{sizes:?}");
            assert!(kept.ends_with(marker), "{sizes:?}");
        }
        // A cap smaller than the marker keeps what of the marker fits.
        assert_eq!(drained(5, &[6]), &marker[..5]);
    }
}
