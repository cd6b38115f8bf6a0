//! The site's door, in front of `tiny_http` (which reads a header line of any length and
//! keeps an idle connection for ever): every connection to the web address is counted (at
//! most [`MAX_CONNECTIONS`] at once, one source at most the game port's `--per-address`
//! share, their open files taken from the server's budget), its first request head must come whole within
//! [`HEAD_BYTES`] and [`HEAD_TIME`], a connection passes at most [`MAX_BYTES`] to the site
//! and is closed after [`IDLE`] of silence either way; what is over a bound is answered
//! (408, 431, 503) and closed. Admitted, its bytes go on to `tiny_http`, which listens on a
//! Unix socket only the server's user can reach. A failing `accept` is said once and
//! retried, as the game port's.

use crate::serve::address::{self, Source};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Most connections to the site at once (event streams included).
pub const MAX_CONNECTIONS: u32 = 256;
/// Open files of one connection: its socket and the copy that reads it, the Unix socket
/// to the site and its copy, and `tiny_http`'s end of it and its copy.
pub const PER_CONNECTION: u64 = 6;
/// The longest request head (request line and headers) of a connection's first request.
pub const HEAD_BYTES: usize = 16 * 1024;
/// The longest time for a connection's first request head.
pub const HEAD_TIME: Duration = Duration::from_secs(10);
/// The most bytes a connection passes to the site (heads and bodies of all its requests).
pub const MAX_BYTES: u64 = 64 * 1024;
/// The longest silence of a connection, reading or writing (an event stream says
/// something at least every 15 seconds).
pub const IDLE: Duration = Duration::from_secs(30);

/// The longest wait for a refused visitor to stop sending.
const LINGER: Duration = Duration::from_secs(1);

/// The open files of the site's connections, taken from the server's budget at start.
pub fn files() -> u64 {
    u64::from(MAX_CONNECTIONS) * PER_CONNECTION
}

/// The connections counted, in all and by source.
struct Counts {
    counted: Mutex<(u32, HashMap<Source, u32>)>,
    /// Most connections of one source.
    share: u32,
}

/// A connection counted, uncounted when dropped.
struct Counted(Arc<Counts>, Source);

impl Counts {
    fn admit(self: &Arc<Self>, source: Source) -> Result<Counted, &'static str> {
        let mut c = self.counted.lock().unwrap_or_else(|e| e.into_inner());
        if c.0 >= MAX_CONNECTIONS {
            return Err("The site is serving too many visitors; try again in a moment");
        }
        let here = c.1.entry(source).or_insert(0);
        if *here >= self.share {
            return Err("Too many connections to the site from your machine; close some pages");
        }
        *here += 1;
        c.0 += 1;
        Ok(Counted(Arc::clone(self), source))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut c = self.0.counted.lock().unwrap_or_else(|e| e.into_inner());
        c.0 -= 1;
        if let Some(n) = c.1.get_mut(&self.1) {
            *n -= 1;
            if *n == 0 {
                c.1.remove(&self.1);
            }
        }
    }
}

/// Accepts the connections of `listener` for ever, at most `per_address` of one source
/// (the game port's bound), each passed on to the site at `site` on a thread of its own.
pub fn serve(listener: TcpListener, site: PathBuf, per_address: u32) {
    let counts = Arc::new(Counts {
        counted: Mutex::default(),
        share: address::bound(MAX_CONNECTIONS, per_address),
    });
    let site = Arc::new(site);
    let refusing = Refusing(Arc::default());
    crate::serve::accept_each(&listener, "web site", |stream| {
        let Ok(peer) = stream.peer_addr() else { return };
        let counted = match counts.admit(Source::of(peer.ip())) {
            Ok(counted) => counted,
            Err(why) => return refusing.refuse(stream, why),
        };
        let site = Arc::clone(&site);
        let _ = std::thread::Builder::new()
            .name("web connection".into())
            .spawn(move || {
                let _counted = counted;
                pass(stream, &site);
            });
    });
}

/// Most refusals answered at once; past them a connection over the bounds is closed
/// unanswered.
const MAX_REFUSING: usize = 16;

/// The refusals being answered, each on a thread of its own (the accepting thread waits
/// for nobody).
struct Refusing(Arc<std::sync::atomic::AtomicUsize>);

impl Refusing {
    fn refuse(&self, stream: TcpStream, why: &'static str) {
        use std::sync::atomic::Ordering::SeqCst;
        if self.0.fetch_add(1, SeqCst) >= MAX_REFUSING {
            self.0.fetch_sub(1, SeqCst);
            return;
        }
        let count = Arc::clone(&self.0);
        let spawned = std::thread::Builder::new()
            .name("web refusal".into())
            .spawn(move || {
                refuse(stream, 503, "Service Unavailable", why);
                count.fetch_sub(1, SeqCst);
            });
        if spawned.is_err() {
            self.0.fetch_sub(1, SeqCst);
        }
    }
}

/// Answers `status` with `why` as text and closes. What the visitor sent meanwhile is
/// read and dropped first (for at most [`LINGER`], a bounded size), so that the answer is
/// not lost to a reset.
fn refuse(mut stream: TcpStream, status: u16, reason: &str, why: &str) {
    let _ = stream_times(&stream, LINGER);
    let _ = write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{why}\n",
        why.len() + 1
    );
    let _ = stream.shutdown(Shutdown::Write);
    let _ = std::io::copy(&mut (&mut stream).take(MAX_BYTES), &mut std::io::sink());
}

/// Bounds each read and write of `stream` to `time`.
fn stream_times(stream: &TcpStream, time: Duration) -> std::io::Result<()> {
    stream.set_read_timeout(Some(time))?;
    stream.set_write_timeout(Some(time))
}

/// The first request head of `stream` whole (with whatever followed it), or the answer
/// of a head too long, too slow, or never sent.
fn head(stream: &mut TcpStream) -> Result<Vec<u8>, Option<(u16, &'static str, &'static str)>> {
    let deadline = Instant::now() + HEAD_TIME;
    let mut head = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let late = Some((
            408,
            "Request Timeout",
            "The request did not come in time; send it again",
        ));
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return Err(late);
        }
        let n = match stream.read(&mut chunk) {
            Ok(0) => return Err(None),
            Ok(n) => n,
            Err(e) if is_timeout(&e) => return Err(late),
            Err(_) => return Err(None),
        };
        let from = head.len().saturating_sub(3);
        head.extend_from_slice(&chunk[..n]);
        if head[from..].windows(4).any(|w| w == b"\r\n\r\n") {
            return Ok(head);
        }
        if head.len() > HEAD_BYTES {
            return Err(Some((
                431,
                "Request Header Fields Too Large",
                "The request's head is too long (16 KiB at most)",
            )));
        }
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// Passes `stream` on to the site at `site` once its first head came, within the bounds.
fn pass(mut stream: TcpStream, site: &Path) {
    let first = match head(&mut stream) {
        Ok(first) => first,
        Err(Some((status, reason, why))) => return refuse(stream, status, reason, why),
        Err(None) => return,
    };
    let Ok(mut inner) = UnixStream::connect(site) else {
        return refuse(
            stream,
            503,
            "Service Unavailable",
            "The site cannot serve now; try again in a moment",
        );
    };
    if stream_times(&stream, IDLE).is_err() || inner.write_all(&first).is_err() {
        return;
    }
    // The visitor's next bytes, up to the bound, on another thread; the site's answers on
    // this one. Either end closed or silent too long closes both.
    let (Ok(mut from), Ok(mut to)) = (stream.try_clone(), inner.try_clone()) else {
        return;
    };
    let up = std::thread::Builder::new()
        .name("web request".into())
        .spawn(move || {
            let left = MAX_BYTES.saturating_sub(first.len() as u64);
            let _ = std::io::copy(&mut (&mut from).take(left), &mut to);
            let _ = to.shutdown(Shutdown::Write);
        });
    if up.is_ok() {
        let _ = std::io::copy(&mut inner, &mut stream);
    }
    let _ = stream.shutdown(Shutdown::Both);
    let _ = inner.shutdown(Shutdown::Both);
}

/// The Unix socket of the site, in a folder only the server's user may enter, under
/// `results`; made again at each start.
pub fn socket_in(results: &Path) -> anyhow::Result<(PathBuf, std::os::unix::net::UnixListener)> {
    use anyhow::Context;
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let dir = results.join(".web");
    std::fs::DirBuilder::new()
        .mode(0o700)
        .recursive(true)
        .create(&dir)
        .with_context(|| format!("cannot create {}", dir.display()))?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
        .with_context(|| format!("cannot make {} private", dir.display()))?;
    let path = dir.join("site");
    let _ = std::fs::remove_file(&path);
    let listener = std::os::unix::net::UnixListener::bind(&path).with_context(|| {
        format!(
            "cannot make the site's socket {} (a path of more than 107 bytes? choose \
             shorter results)",
            path.display()
        )
    })?;
    Ok((path, listener))
}
