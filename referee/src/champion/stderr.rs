//! The champion's stderr: a thread drains the pipe into a file capped at a byte count (the
//! rest is dropped, once marked), so a chatty champion never blocks, and keeps the last few
//! KiB in memory for fault diagnosis.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Write};
use std::process::ChildStderr;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How much of the end of stderr is kept in memory for diagnosis.
const TAIL_BYTES: usize = 4096;
/// Appended once when output is dropped.
pub(crate) const TRUNCATED_MARKER: &str = "\n[stderr truncated]\n";

#[derive(Default)]
struct State {
    tail: VecDeque<u8>,
    eof: bool,
}

/// Handle on the draining thread.
pub(crate) struct Drain {
    shared: Arc<(Mutex<State>, Condvar)>,
}

impl Drain {
    /// Starts draining `pipe` into `file`, keeping at most `cap` bytes in the file.
    pub(crate) fn start(pipe: ChildStderr, file: File, cap: u64) -> std::io::Result<Drain> {
        let shared = Arc::new((Mutex::new(State::default()), Condvar::new()));
        let thread_shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("champion-stderr".into())
            .stack_size(64 * 1024)
            .spawn(move || run(pipe, file, cap, &thread_shared))?;
        Ok(Drain { shared })
    }

    /// Waits until every writer closed the pipe, at most `timeout`; true if it did.
    pub(crate) fn wait_eof(&self, timeout: Duration) -> bool {
        let (lock, cond) = &*self.shared;
        let deadline = Instant::now() + timeout;
        let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
        while !state.eof {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            state = cond
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }

    /// The last few KiB written so far (lossy UTF-8).
    pub(crate) fn tail(&self) -> String {
        let state = self.shared.0.lock().unwrap_or_else(|e| e.into_inner());
        let (a, b) = state.tail.as_slices();
        let mut bytes = Vec::with_capacity(a.len() + b.len());
        bytes.extend_from_slice(a);
        bytes.extend_from_slice(b);
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

fn run(mut pipe: ChildStderr, file: File, cap: u64, shared: &(Mutex<State>, Condvar)) {
    let mut file = Some(file);
    let mut written = 0u64;
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let chunk = &buf[..n];
        if let Some(f) = file.as_mut() {
            let room = cap.saturating_sub(written) as usize;
            let keep = room.min(n);
            let ok = f.write_all(&chunk[..keep]).is_ok();
            written += keep as u64;
            if keep < n || !ok {
                let _ = f.write_all(TRUNCATED_MARKER.as_bytes());
                file = None; // closes it; everything after is dropped
            }
        }
        let (lock, _) = shared;
        let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
        let tail = if n > TAIL_BYTES {
            &chunk[n - TAIL_BYTES..]
        } else {
            chunk
        };
        state.tail.extend(tail.iter().copied());
        let excess = state.tail.len().saturating_sub(TAIL_BYTES);
        state.tail.drain(..excess);
    }
    let (lock, cond) = shared;
    lock.lock().unwrap_or_else(|e| e.into_inner()).eof = true;
    cond.notify_all();
}
