//! The site's door, in front of `tiny_http` (which reads a header line of any length, keeps
//! an idle connection for ever, and starts a thread for every request pipelined on a
//! connection at once): every connection to the web address is counted (at most
//! [`MAX_CONNECTIONS`] at once, one source at most the game port's `--per-address` share,
//! their open files taken from the server's budget); on the trusted proxy's connections,
//! each request in flight is counted for the visitor it forwards, within the same share. The door reads the requests of a
//! connection itself, one at a time: a head whole within [`head::HEAD_BYTES`] (the first
//! within [`HEAD_TIME`]), a body of a stated length, at most [`MAX_BYTES`] in all; each goes
//! on to the site as the door writes it again (`head.rs`: the source named in it, one length
//! it counted), on an inner connection of its own that carries it alone, and the next only
//! once its answer is whole, so a connection has one request in flight (pipelined ones
//! wait in the door) and the site reads no request the door did not frame. A connection
//! silent for [`IDLE`] with no answer in flight is closed. A visitor who closes its side
//! is answered what it asked before (an event stream in flight is closed at once); a
//! visitor gone (reset) has nothing more computed: its request in flight is closed on the
//! site's side at once, those waiting are dropped. What is over a bound is answered (408,
//! 411, 413, 431, 503) and closed, a refused visitor heard for at most `LINGER` in all.
//! The site listens on a Unix socket only the server's user can reach, and answers only
//! the requests the door passed (`source_of`). A failing `accept` is said once and
//! retried, as the game port's.

use super::head::{self, Request};
use crate::serve::address::{self, Source};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{IpAddr, Shutdown, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Most connections to the site at once (event streams included).
pub const MAX_CONNECTIONS: u32 = 256;
/// Open files of one connection: its socket and the copy that reads it, the Unix socket
/// to the site and its copy, and `tiny_http`'s end of it and its copy.
pub const PER_CONNECTION: u64 = 6;
/// The longest time for a connection's first request head.
pub const HEAD_TIME: Duration = Duration::from_secs(10);
/// The most bytes a connection passes to the site (heads and bodies of all its requests);
/// past it the connection is closed.
pub const MAX_BYTES: u64 = 64 * 1024;
/// The longest silence of a connection between its requests, and of a write to it (an
/// event stream says something at least every 2 seconds).
pub const IDLE: Duration = Duration::from_secs(30);

/// The connections kept for the server's own machine (loopback: the organiser's browser on
/// it, or a tunnel to it): other sources together never hold more than the rest, however
/// many addresses they have.
pub const KEPT: u32 = 16;

/// The longest wait for a refused visitor to stop sending.
const LINGER: Duration = Duration::from_secs(1);

/// The open files of the site's connections and of the refusals being answered (a socket
/// each), taken from the server's budget at start.
pub fn files() -> u64 {
    u64::from(MAX_CONNECTIONS) * PER_CONNECTION + MAX_REFUSING as u64
}

/// The connections counted, in all and by source.
struct Counts {
    counted: Mutex<(u32, HashMap<Source, u32>)>,
    /// Most connections of one source.
    share: u32,
}

/// A connection or a request counted, uncounted when dropped: a connection in all, and by
/// its source unless it is the trusted proxy's; a request the proxy forwards by its
/// visitor alone.
struct Counted {
    counts: Arc<Counts>,
    in_all: bool,
    source: Option<Source>,
}

impl Counts {
    /// A connection of `source` counted, or why it is refused; the trusted proxy's
    /// (`proxied`) are bounded only by [`MAX_CONNECTIONS`] and take nothing of their
    /// source's share: each of their requests counts for the visitor it forwards instead
    /// ([`Counts::ask`]), the door knowing no visitor before a request's head.
    fn admit(self: &Arc<Self>, source: Source, proxied: bool) -> Result<Counted, &'static str> {
        let mut c = self.counted.lock().unwrap_or_else(|e| e.into_inner());
        let others = c.0 - c.1.get(&Source::Loopback).copied().unwrap_or(0);
        let kept = proxied || source != Source::Loopback;
        if c.0 >= MAX_CONNECTIONS || (kept && others >= MAX_CONNECTIONS - KEPT) {
            return Err("The site is serving too many visitors; try again in a moment");
        }
        if !proxied {
            let here = c.1.entry(source).or_insert(0);
            if *here >= self.share {
                return Err("Too many connections to the site from your machine; close some pages");
            }
            *here += 1;
        }
        c.0 += 1;
        Ok(Counted {
            counts: Arc::clone(self),
            in_all: true,
            source: (!proxied).then_some(source),
        })
    }

    /// A request the trusted proxy forwards for `visitor` counted against that visitor's
    /// share until its answer ends, or why it is refused. The proxy's own bound of a
    /// visitor (nginx's `limit_conn`) is freed when the visitor leaves, while the page it
    /// asked computes on: counted here, a visitor who leaves each request at once keeps
    /// no more pages computing than a visitor of its own would (red team 15).
    fn ask(self: &Arc<Self>, visitor: Source) -> Result<Counted, &'static str> {
        let mut c = self.counted.lock().unwrap_or_else(|e| e.into_inner());
        let here = c.1.entry(visitor).or_insert(0);
        if *here >= self.share {
            return Err(
                "Too many requests to the site from your machine at once; close some pages",
            );
        }
        *here += 1;
        Ok(Counted {
            counts: Arc::clone(self),
            in_all: false,
            source: Some(visitor),
        })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut c = self
            .counts
            .counted
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if self.in_all {
            c.0 -= 1;
        }
        let Some(source) = self.source else { return };
        if let Some(n) = c.1.get_mut(&source) {
            *n -= 1;
            if *n == 0 {
                c.1.remove(&source);
            }
        }
    }
}

/// Accepts the connections of `listener` for ever, at most `per_address` of one source
/// (the game port's bound), each passed on to the site at `site` on a thread of its own.
/// The connections of `proxy` (`--web-proxy`) are the trusted proxy's: each of their
/// requests comes from the visitor it forwards (`forwarded.rs`), and counts for it.
pub fn serve(listener: TcpListener, site: PathBuf, per_address: u32, proxy: Option<IpAddr>) {
    let counts = Arc::new(Counts {
        counted: Mutex::default(),
        share: address::bound(MAX_CONNECTIONS, per_address),
    });
    let site = Arc::new(site);
    let refusing = Refusing(Arc::default());
    crate::serve::accept_each(&listener, "web site", |stream| {
        let Ok(peer) = stream.peer_addr() else { return };
        let source = Source::of(peer.ip());
        let proxied = proxy.is_some_and(|proxy| same_ip(proxy, peer.ip()));
        let counted = match counts.admit(source, proxied) {
            Ok(counted) => counted,
            Err(why) => return refusing.refuse(stream, why, source),
        };
        let site = Arc::clone(&site);
        let counts = Arc::clone(&counts);
        let _ = std::thread::Builder::new()
            .name("web connection".into())
            .spawn(move || {
                let _counted = counted;
                let proxied = proxied.then_some(&counts);
                pass(stream, &site, source, proxied);
            });
    });
}

/// Most refusals answered at once; past them a connection over the bounds is closed
/// unanswered.
const MAX_REFUSING: usize = 16;
/// The refusals kept for the server's own machine, so that its organiser is told why.
const KEPT_REFUSING: usize = 4;

/// The refusals being answered, each on a thread of its own (the accepting thread waits
/// for nobody).
struct Refusing(Arc<std::sync::atomic::AtomicUsize>);

impl Refusing {
    /// Answers the refusal of `stream` (from `source`) on a thread of its own, unless
    /// [`MAX_REFUSING`] are being answered, or all but [`KEPT_REFUSING`] for another
    /// source than the server's own machine.
    fn refuse(&self, stream: TcpStream, why: &'static str, source: Source) {
        use std::sync::atomic::Ordering::SeqCst;
        let most = match source {
            Source::Loopback => MAX_REFUSING,
            _ => MAX_REFUSING - KEPT_REFUSING,
        };
        if self.0.fetch_add(1, SeqCst) >= most {
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

/// Answers `status` with `why` as text and closes. What the visitor sends meanwhile is
/// read and dropped (for at most [`LINGER`] in all, however slowly it drips, and at most
/// [`MAX_BYTES`]), so that the answer is not lost to a reset.
fn refuse(stream: TcpStream, status: u16, reason: &str, why: &str) {
    let until = Instant::now() + LINGER;
    if stream_times(&stream, LINGER).is_err() {
        return;
    }
    answer_refusal(&stream, status, reason, why);
    let (mut from, mut read, mut chunk) = (&stream, 0, [0u8; 4096]);
    while read <= MAX_BYTES {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || from.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match from.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n as u64,
        }
    }
}

/// Writes the answer `status` with `why` as text, then the end of the connection's
/// writing.
fn answer_refusal(mut stream: &TcpStream, status: u16, reason: &str, why: &str) {
    let _ = write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{why}\n",
        why.len() + 1
    );
    let _ = stream.shutdown(Shutdown::Write);
}

/// Bounds each read and write of `stream` to `time`.
fn stream_times(stream: &TcpStream, time: Duration) -> std::io::Result<()> {
    stream.set_read_timeout(Some(time))?;
    stream.set_write_timeout(Some(time))
}

/// What the visitor's reader hands the connection's thread: one request whole, as the door
/// wrote it (`head.rs`), or the refusal of what it sent.
enum Next {
    Request(Request),
    Refuse(u16, &'static str, &'static str),
}

/// The request in flight of a connection, as its reader sees it: the site's side of it,
/// whether its answer is an event stream (endless), and how much of the visitor is there.
#[derive(Default)]
struct Flight {
    inner: Option<UnixStream>,
    streaming: bool,
    /// The visitor closed its sending side: what it asked before is answered in turn (an
    /// event stream, which never ends, is closed).
    ended: bool,
    /// The visitor is gone (its connection reset or broken, silent past [`IDLE`], past
    /// [`MAX_BYTES`]): nothing more goes to the site, the request in flight is closed.
    left: bool,
}

fn lock(flight: &Mutex<Flight>) -> std::sync::MutexGuard<'_, Flight> {
    flight.lock().unwrap_or_else(|e| e.into_inner())
}

/// Serves the requests of `stream` one at a time: each goes on to the site on a
/// connection of its own once the answer before it is whole, so that pipelined requests
/// wait in the door (at most [`MAX_BYTES`] of them) and never hold the site's threads. The
/// first head must come within [`HEAD_TIME`]; the next within [`IDLE`] of the last answer.
/// On the trusted proxy's connection (`proxied`: the counts), each request is counted for
/// the visitor it forwards until its answer ends ([`Counts::ask`]), or refused (503).
fn pass(stream: TcpStream, site: &Path, source: Source, proxied: Option<&Arc<Counts>>) {
    if stream_times(&stream, IDLE).is_err() {
        return;
    }
    let Ok(from) = stream.try_clone() else { return };
    let flight = Arc::new(Mutex::new(Flight::default()));
    let (tx, rx) = mpsc::channel();
    let reader = {
        let flight = Arc::clone(&flight);
        let from_proxy = proxied.is_some();
        std::thread::Builder::new()
            .name("web visitor".into())
            .spawn(move || read_requests(from, (source, from_proxy), &tx, &flight))
    };
    if reader.is_err() {
        return;
    }
    let mut wait = HEAD_TIME;
    loop {
        let next = match rx.recv_timeout(wait) {
            Ok(next) => next,
            Err(mpsc::RecvTimeoutError::Timeout) if wait == HEAD_TIME => Next::Refuse(
                408,
                "Request Timeout",
                "The request did not come in time; send it again",
            ),
            Err(_) => break,
        };
        let asking = match (&next, proxied) {
            (Next::Request(request), Some(counts)) => Some(counts.ask(request.source)),
            _ => None,
        };
        let next = match asking {
            Some(Err(why)) => Next::Refuse(503, "Service Unavailable", why),
            _ => next,
        };
        match next {
            Next::Refuse(status, reason, why) => {
                answer_refusal(&stream, status, reason, why);
                // What the visitor still sends is read and dropped (for at most LINGER),
                // so that the answer is not lost to a reset.
                let until = Instant::now() + LINGER;
                while rx
                    .recv_timeout(until.saturating_duration_since(Instant::now()))
                    .is_ok()
                {}
                break;
            }
            Next::Request(request) => {
                if !forward(&stream, site, &request, &flight) {
                    break;
                }
            }
        }
        wait = IDLE;
    }
    let _ = stream.shutdown(Shutdown::Both);
    let inner = lock(&flight).inner.take();
    if let Some(inner) = inner {
        let _ = inner.shutdown(Shutdown::Both);
    }
}

/// Reads the visitor's requests from `from` and hands each whole to `to`, until the
/// visitor closes its side (an event stream in flight is then closed at once, its slot
/// freed, and the requests before are answered), leaves, stays silent [`IDLE`] with no
/// answer in flight, or passes [`MAX_BYTES`] (the request in flight is then closed at
/// once, and nothing more is passed on).
fn read_requests(
    mut from: TcpStream,
    (source, proxied): (Source, bool),
    to: &mpsc::Sender<Next>,
    flight: &Mutex<Flight>,
) {
    let mut framer = head::Framer::new(source, proxied, MAX_BYTES);
    let mut passed = 0u64;
    let mut refused = false;
    let mut chunk = [0u8; 4096];
    let left = loop {
        let n = match from.read(&mut chunk) {
            Ok(0) => break false,
            Ok(n) => n,
            Err(e) if is_timeout(&e) && lock(flight).inner.is_some() => continue,
            Err(_) => break true,
        };
        passed += n as u64;
        if refused {
            continue;
        }
        if passed > MAX_BYTES {
            let _ = from.shutdown(Shutdown::Both);
            break true;
        }
        for next in framer.read(&chunk[..n]) {
            let _ = to.send(match next {
                Ok(request) => Next::Request(request),
                Err((status, reason, why)) => {
                    refused = true;
                    Next::Refuse(status, reason, why)
                }
            });
        }
    };
    let mut flight = lock(flight);
    flight.left |= left;
    flight.ended = true;
    // A page in computation cannot be stopped (nothing tells the site's thread): the
    // connection waits for its end, counted for its source, so that a visitor who resets
    // after each request holds no more of the site than its share. A stream, which never
    // ends, is closed at once (its next write fails).
    if flight.streaming {
        if let Some(inner) = &flight.inner {
            let _ = inner.shutdown(Shutdown::Both);
        }
    }
}

/// Passes `request` to the site on a connection of its own and its answer back to the
/// visitor, whole; whether the visitor's connection may carry another request.
fn forward(stream: &TcpStream, site: &Path, request: &Request, flight: &Mutex<Flight>) -> bool {
    // A visitor gone has nothing more computed.
    if lock(flight).left {
        return false;
    }
    let Ok(mut inner) = UnixStream::connect(site) else {
        answer_refusal(
            stream,
            503,
            "Service Unavailable",
            "The site cannot serve now; try again in a moment",
        );
        return false;
    };
    // Its request whole, then the end: the site's connection carries no other.
    if inner.write_all(&request.bytes).is_err() || inner.shutdown(Shutdown::Write).is_err() {
        return false;
    }
    match inner.try_clone() {
        Ok(copy) => {
            let mut flight = lock(flight);
            // Gone while the request was written: the site's side closed, as the reader
            // closes it for a request already in flight.
            if flight.left {
                let _ = copy.shutdown(Shutdown::Both);
                return false;
            }
            flight.inner = Some(copy);
        }
        Err(_) => return false,
    }
    // The answer's head, read as it passes (up to 4 KiB), until it is whole.
    let mut head = Some(Vec::new());
    let mut chunk = [0u8; 8192];
    let mut out = stream;
    let mut again = !request.close;
    loop {
        let n = match inner.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(_) => {
                again = false;
                break;
            }
        };
        if let Some(seen) = head.as_mut() {
            seen.extend_from_slice(&chunk[..n.min(4096)]);
            if seen.len() >= 4096 || seen.windows(4).any(|w| w == b"\r\n\r\n") {
                let text = String::from_utf8_lossy(seen).to_ascii_lowercase();
                again &= !text.contains("\r\nconnection: close");
                if text.contains("\r\ncontent-type: text/event-stream") {
                    let mut flight = lock(flight);
                    if flight.ended {
                        return false;
                    }
                    flight.streaming = true;
                }
                head = None;
            }
        }
        if out.write_all(&chunk[..n]).is_err() {
            again = false;
            break;
        }
    }
    let mut flight = lock(flight);
    flight.inner = None;
    flight.streaming = false;
    again && !flight.left
}

/// Whether `a` and `b` are one address (an IPv4 address and its IPv6 mapping alike).
fn same_ip(a: IpAddr, b: IpAddr) -> bool {
    a.to_canonical() == b.to_canonical()
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Many sources, each within its share, fill the site but for the connections kept
    /// for the server's own machine (red team 14: sixteen IPv4 addresses took all 256, the
    /// organiser on loopback was answered 503); the trusted proxy's take nothing of them.
    #[test]
    fn many_sources_leave_the_server_s_machine_its_connections() {
        let counts = Arc::new(Counts {
            counted: Mutex::default(),
            share: address::bound(MAX_CONNECTIONS, 16),
        });
        let source = |i: u32| Source::V4(std::net::Ipv4Addr::from(0x0a09_0000 + i));
        let others: Vec<Counted> = (0..MAX_CONNECTIONS)
            .filter_map(|i| counts.admit(source(i / 16), false).ok())
            .collect();
        assert_eq!(others.len() as u32, MAX_CONNECTIONS - KEPT);
        assert!(counts.admit(Source::Loopback, true).is_err(), "a proxy's");
        let organiser: Vec<Counted> = (0..KEPT)
            .map(|_| counts.admit(Source::Loopback, false).unwrap())
            .collect();
        assert!(counts.admit(Source::Loopback, false).is_err());
        drop(organiser);
        drop(others);
        assert_eq!(counts.counted.lock().unwrap().0, 0);
    }

    /// A site on a Unix socket in a folder of its own (kept while the folder is), and its
    /// door on loopback (`proxy` trusted), one connection a source.
    fn a_door(
        proxy: Option<IpAddr>,
    ) -> (
        tempfile::TempDir,
        std::os::unix::net::UnixListener,
        std::net::SocketAddr,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("site");
        let site = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let door = listener.local_addr().unwrap();
        std::thread::spawn(move || serve(listener, path, 1, proxy));
        (dir, site, door)
    }

    /// `stream` closed with a reset, as a visitor who aborts (or nginx for it).
    fn reset(stream: TcpStream) {
        let abort = nix::libc::linger {
            l_onoff: 1,
            l_linger: 0,
        };
        nix::sys::socket::setsockopt(&stream, nix::sys::socket::sockopt::Linger, &abort).unwrap();
    }

    /// Every request the site gets from now on answered, 200 and empty.
    fn answer_all(site: std::os::unix::net::UnixListener) {
        std::thread::spawn(move || {
            for mut page in site.incoming().flatten() {
                let _ = page.read_to_end(&mut Vec::new());
                let _ = page.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
            }
        });
    }

    /// A visitor who resets while its page is computed stays counted until the site's side
    /// of it ends (red team 14: resetting after each request, one source kept 4 times its
    /// share of pages computing).
    #[test]
    fn a_visitor_who_resets_stays_counted_until_its_page_is_answered() {
        let (_dir, site, door) = a_door(None);
        let ask = |visitor: &mut TcpStream| {
            visitor
                .write_all(b"GET /heavy HTTP/1.1\r\nHost: x\r\n\r\n")
                .unwrap();
        };
        let mut visitor = TcpStream::connect(door).unwrap();
        ask(&mut visitor);
        // The site has the request and computes it; the visitor resets.
        let (mut computing, _) = site.accept().unwrap();
        let mut request = Vec::new();
        computing.read_to_end(&mut request).unwrap();
        reset(visitor);
        // Its source's one connection is still the page's.
        for _ in 0..20 {
            let mut next = TcpStream::connect(door).unwrap();
            ask(&mut next);
            let mut said = String::new();
            let _ = next.read_to_string(&mut said);
            assert!(said.starts_with("HTTP/1.1 503"), "{said}");
        }
        // The page answered (to nobody): the connection is the source's again, as soon
        // as the door has seen that end.
        let _ = computing.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        drop(computing);
        answer_all(site);
        let served = (0..10_000).any(|_| {
            let mut next = TcpStream::connect(door).unwrap();
            ask(&mut next);
            next.shutdown(Shutdown::Write).unwrap();
            let mut said = String::new();
            let _ = next.read_to_string(&mut said);
            said.starts_with("HTTP/1.1 200")
        });
        assert!(served);
    }

    /// A connection to `door` from the local address `from` (all of 127/8 is local).
    fn connect_from(door: std::net::SocketAddr, from: [u8; 4]) -> TcpStream {
        use nix::sys::socket::SockaddrIn;
        use nix::sys::socket::{bind, connect, socket, AddressFamily, SockFlag, SockType};
        use std::os::fd::AsRawFd;
        let fd = socket(
            AddressFamily::Inet,
            SockType::Stream,
            SockFlag::SOCK_CLOEXEC,
            None,
        )
        .unwrap();
        let [a, b, c, d] = from;
        bind(fd.as_raw_fd(), &SockaddrIn::new(a, b, c, d, 0)).unwrap();
        connect(
            fd.as_raw_fd(),
            &SockaddrIn::from(match door {
                std::net::SocketAddr::V4(v4) => v4,
                std::net::SocketAddr::V6(_) => unreachable!("the door listens on 127.0.0.1"),
            }),
        )
        .unwrap();
        let stream = TcpStream::from(fd);
        // Only so that a door that never answers fails the test rather than hangs it.
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream
    }

    /// Behind the trusted proxy, a request counts for the visitor it forwards until the
    /// site's side of it ends, a page whose visitor left included (red team 15: one visitor
    /// who left each request at once kept 100+ pages computing, the proxy's connections
    /// counted for no source and the proxy's own bound of the visitor freed when it left);
    /// another visitor of the same proxy is served meanwhile.
    #[test]
    fn a_proxied_visitor_who_leaves_stays_counted_until_its_page_is_answered() {
        let proxy = [127, 0, 0, 2];
        let (_dir, site, door) = a_door(Some(IpAddr::from(proxy)));
        let ask = |for_visitor: &str| {
            let mut stream = connect_from(door, proxy);
            write!(
                stream,
                "GET /heavy HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {for_visitor}\r\n\r\n"
            )
            .unwrap();
            stream
        };
        let said = |mut stream: TcpStream| {
            stream.shutdown(Shutdown::Write).unwrap();
            let mut said = String::new();
            let _ = stream.read_to_string(&mut said);
            said
        };
        // The site has the visitor's request and computes it; the proxy's connection is
        // reset, as nginx resets it when its visitor aborts.
        let leaving = ask("203.0.113.7");
        let (mut computing, _) = site.accept().unwrap();
        let mut request = String::new();
        computing.read_to_string(&mut request).unwrap();
        assert!(
            request.contains("X-Referee-Source: 203.0.113.7\r\n"),
            "{request}"
        );
        reset(leaving);
        // Its share (one) is the page's: each of its next requests is refused.
        for _ in 0..20 {
            let answer = said(ask("203.0.113.7"));
            assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
        }
        // Another visitor of the proxy reaches the site.
        let other = ask("198.51.100.1");
        let (mut page, _) = site.accept().unwrap();
        let mut request = String::new();
        page.read_to_string(&mut request).unwrap();
        assert!(
            request.contains("X-Referee-Source: 198.51.100.1\r\n"),
            "{request}"
        );
        page.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
            .unwrap();
        drop(page);
        assert!(said(other).starts_with("HTTP/1.1 200"));
        // The page answered (to nobody): the visitor is served again, as soon as the door
        // has seen that end.
        let _ = computing.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        drop(computing);
        answer_all(site);
        let served = (0..10_000).any(|_| said(ask("203.0.113.7")).starts_with("HTTP/1.1 200"));
        assert!(served);
    }
}
