//! The one reading of a request the site's door makes (its head by `httparse`, strict), and
//! the request the door writes for the site in its place: the request line, the door's
//! source line, the visitor's header lines but those the door answers for (its source, its
//! length, `Transfer-Encoding`, `Expect`), one `Content-Length` it counted, the body. The
//! site (`tiny_http`) so reads exactly the request the door framed, whatever two parsers
//! could read differently in the visitor's bytes (two lengths, a folded line, a bare CR):
//! what the door cannot read as one request is refused, never passed on. Each head is
//! parsed once, when its empty line came ([`Framer`]).

use crate::serve::address::Source;

/// The name of the header line the door puts in each request it passes on: the source
/// of the connection, as [`Source`] writes it. A visitor's own line of that name is
/// dropped: the site believes only the door.
pub const SOURCE_HEADER: &str = "X-Referee-Source";

/// The longest request head (request line and headers).
pub const HEAD_BYTES: usize = 16 * 1024;
/// The most header lines of a request (a browser sends about twenty).
const HEADERS: usize = 100;

/// The refusal of a request: status, reason, why.
pub type Refusal = (u16, &'static str, &'static str);

/// A request whole, as the site gets it.
pub struct Request {
    /// The request written by the door: head, then body.
    pub bytes: Vec<u8>,
    /// Whether the visitor asked its connection closed after the answer (HTTP/1.0 without
    /// keep-alive, or `Connection: close`).
    pub close: bool,
    /// Its source, as its source line names it: the connection's, or on the trusted
    /// proxy's the visitor it forwards.
    pub source: Source,
}

const TOO_LONG: Refusal = (
    431,
    "Request Header Fields Too Large",
    "The request's head is too long (16 KiB, 100 lines at most)",
);

fn bad(why: &'static str) -> Refusal {
    (400, "Bad Request", why)
}

/// The door's reading of one connection's bytes: what is not passed on yet, and the head of
/// the request being read, parsed once (a head or a body dripped a byte at a time costs one
/// parse, not one a read). Leading empty lines before a request line are skipped (RFC 9112
/// section 2.2), so that a search for the head's end never starts at a blank line.
pub struct Framer {
    source: Source,
    /// Whether the connection is the trusted proxy's: each request's source is then the
    /// visitor it forwards (`forwarded.rs`).
    proxied: bool,
    max_body: u64,
    buffered: Vec<u8>,
    /// The head read of the request whose body is awaited.
    head: Option<Head>,
    /// How far `buffered` was searched for the head's end without finding it.
    searched: usize,
    /// The heads parsed, for the tests.
    parses: usize,
}

/// A head read, its body not whole yet.
struct Head {
    /// The head as the door writes it for the site.
    written: Vec<u8>,
    /// Its length in the visitor's bytes.
    end: usize,
    /// The body's.
    length: usize,
    close: bool,
    source: Source,
}

impl Framer {
    /// The reading of a connection from `source` (`proxied`: the trusted proxy), its
    /// bodies at most `max_body` long.
    pub fn new(source: Source, proxied: bool, max_body: u64) -> Framer {
        Framer {
            source,
            proxied,
            max_body,
            buffered: Vec::new(),
            head: None,
            searched: 0,
            parses: 0,
        }
    }

    /// Reads `bytes`, the next the visitor sent: the requests they make whole, in order,
    /// the last one the refusal of a request that cannot be passed on (the framer is then
    /// of no more use).
    pub fn read(&mut self, bytes: &[u8]) -> Vec<Result<Request, Refusal>> {
        self.buffered.extend_from_slice(bytes);
        let mut whole = Vec::new();
        loop {
            match self.next() {
                Ok(Some(request)) => whole.push(Ok(request)),
                Ok(None) => return whole,
                Err(refusal) => {
                    whole.push(Err(refusal));
                    return whole;
                }
            }
        }
    }

    /// The next request whole, if it is.
    fn next(&mut self) -> Result<Option<Request>, Refusal> {
        if self.head.is_none() {
            let blank = self
                .buffered
                .iter()
                .take_while(|&&b| b == b'\r' || b == b'\n')
                .count();
            self.buffered.drain(..blank);
            self.searched = self.searched.saturating_sub(blank);
            // A head ends with an empty line; until one came, there is nothing to parse.
            let from = self.searched.saturating_sub(2);
            let seen = &self.buffered[from..];
            let ended = (0..seen.len())
                .any(|i| seen[i..].starts_with(b"\n\n") || seen[i..].starts_with(b"\n\r\n"));
            self.searched = self.buffered.len();
            if !ended {
                return match self.buffered.len() > HEAD_BYTES {
                    true => Err(TOO_LONG),
                    false => Ok(None),
                };
            }
            self.parses += 1;
            let source = (self.source, self.proxied);
            match head(&self.buffered, source, self.max_body)? {
                Some(head) => self.head = Some(head),
                None if self.buffered.len() > HEAD_BYTES => return Err(TOO_LONG),
                None => return Ok(None),
            }
        }
        let Some(head) = &self.head else {
            return Ok(None);
        };
        let whole = head.end + head.length;
        if self.buffered.len() < whole {
            return Ok(None);
        }
        let head = self.head.take().expect("a head read");
        let mut bytes = head.written;
        bytes.extend_from_slice(&self.buffered[head.end..whole]);
        self.buffered.drain(..whole);
        self.searched = 0;
        Ok(Some(Request {
            bytes,
            close: head.close,
            source: head.source,
        }))
    }
}

/// The head at the start of `buffered`, as the site gets it from `source` (with whether it
/// is the trusted proxy, whose requests come from the visitor it forwards); `None` while
/// it is not whole yet; the refusal of a head too long or not read as one request, or of a
/// body of no stated length or longer than `max_body`.
fn head(
    buffered: &[u8],
    (source, proxied): (Source, bool),
    max_body: u64,
) -> Result<Option<Head>, Refusal> {
    let mut headers = [httparse::EMPTY_HEADER; HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let end = match parsed.parse(buffered) {
        Ok(httparse::Status::Complete(end)) if end <= HEAD_BYTES => end,
        Ok(httparse::Status::Partial) if buffered.len() <= HEAD_BYTES => return Ok(None),
        Ok(_) | Err(httparse::Error::TooManyHeaders) => return Err(TOO_LONG),
        Err(httparse::Error::Version) => {
            return Err(bad("The site speaks HTTP/1.0 and HTTP/1.1 only"))
        }
        Err(_) => {
            return Err(bad(
                "The request's head is not one the site reads (each line `Name: value`, \
                 ended by CR LF, none folded, no space before a colon)",
            ))
        }
    };
    let (Some(method), Some(path), Some(version)) = (parsed.method, parsed.path, parsed.version)
    else {
        return Err(bad("The request has no request line"));
    };
    if !path.is_ascii() {
        return Err(bad("The request's path is not ASCII (percent-encode it)"));
    }
    let mut head = String::new();
    let mut all = Vec::with_capacity(parsed.headers.len());
    let mut length: Option<u64> = None;
    let mut connection = None;
    for header in parsed.headers.iter() {
        let name = header.name;
        let Some(value) = std::str::from_utf8(header.value)
            .ok()
            .filter(|v| v.is_ascii())
        else {
            return Err(bad("A header of the request is not ASCII"));
        };
        if name.eq_ignore_ascii_case("Transfer-Encoding") {
            return Err((
                411,
                "Length Required",
                "The site reads a body of a stated Content-Length only",
            ));
        }
        if name.eq_ignore_ascii_case("Content-Length") {
            if length.is_some() {
                return Err(bad("The request states its Content-Length more than once"));
            }
            length = Some(digits(value).ok_or(bad(
                "The request's Content-Length is not a number (digits only)",
            ))?);
            continue;
        }
        // The door has the whole body before the site sees the request: nothing to
        // continue (and no interim answer on the site's side).
        if name.eq_ignore_ascii_case(SOURCE_HEADER) || name.eq_ignore_ascii_case("Expect") {
            continue;
        }
        if name.eq_ignore_ascii_case("Connection") {
            connection = Some(value.to_ascii_lowercase());
        }
        head.push_str(&format!("{name}: {value}\r\n"));
        all.push((name, value));
    }
    let source = match proxied {
        true => super::forwarded::visitor(&all)?.map_or(source, Source::of),
        false => source,
    };
    let mut head =
        format!("{method} {path} HTTP/1.{version}\r\n{SOURCE_HEADER}: {source}\r\n{head}");
    let length = length.unwrap_or(0);
    if length > max_body {
        return Err((
            413,
            "Content Too Large",
            "The request's body is too long (64 KiB at most)",
        ));
    }
    if length > 0 {
        head.push_str(&format!("Content-Length: {length}\r\n"));
    }
    head.push_str("\r\n");
    let close = match connection {
        Some(v) if v.contains("close") => true,
        Some(v) => version == 0 && !v.contains("keep-alive"),
        None => version == 0,
    };
    Ok(Some(Head {
        written: head.into_bytes(),
        end,
        length: length as usize,
        close,
        source,
    }))
}

/// `value` as a length: ASCII digits only (no sign, no space inside).
fn digits(value: &str) -> Option<u64> {
    match !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        true => value.parse().ok(),
        false => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first request of `text` whole, and the bytes it left.
    fn read(text: &[u8]) -> Result<Option<(Request, usize)>, Refusal> {
        let mut framer = Framer::new(Source::Loopback, false, 64 * 1024);
        let whole = framer.read(text).into_iter().next().transpose()?;
        Ok(whole.map(|request| (request, text.len() - framer.buffered.len())))
    }

    fn status(text: &[u8]) -> u16 {
        match read(text) {
            Err((status, ..)) => status,
            Ok(_) => 0,
        }
    }

    #[test]
    fn the_site_gets_the_head_the_door_wrote_and_the_body_it_counted() {
        let text = b"POST /organiser/game HTTP/1.1\r\nHost: x\r\nX-Referee-Source: 10.0.0.9\r\n\
                     Expect: 100-continue\r\nContent-Length: 3\r\n\r\nabcGET /next HTTP/1.1\r\n";
        let (request, used) = read(text).unwrap().unwrap();
        assert_eq!(
            String::from_utf8(request.bytes).unwrap(),
            "POST /organiser/game HTTP/1.1\r\nX-Referee-Source: loopback\r\nHost: x\r\n\
             Content-Length: 3\r\n\r\nabc"
        );
        assert_eq!(&text[used..], b"GET /next HTTP/1.1\r\n");
        assert!(!request.close);
    }

    #[test]
    fn what_two_parsers_could_read_differently_is_refused() {
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 40\r\n\r\n"),
            400,
            "two lengths"
        );
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\n"),
            400,
            "two lengths, the same"
        );
        for length in ["+5", "5 5", "0x5", "-1", ""] {
            let text = format!("GET / HTTP/1.1\r\nContent-Length: {length}\r\n\r\n");
            assert_eq!(status(text.as_bytes()), 400, "{length:?}");
        }
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n"),
            400,
            "folded"
        );
        assert_eq!(status(b"GET / HTTP/1.1\r\nContent-Length : 5\r\n\r\n"), 400);
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nX: a\rContent-Length: 5\r\n\r\n"),
            400
        );
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nX: \xc3\xa9\r\n\r\n"),
            400,
            "not ASCII"
        );
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            411
        );
        assert_eq!(status(b"GET / HTTP/2.0\r\n\r\n"), 400);
    }

    #[test]
    fn a_head_is_bounded_and_waited_for_whole() {
        assert!(read(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap().is_none());
        assert!(read(b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc")
            .unwrap()
            .is_none());
        let long = format!("GET / HTTP/1.1\r\nX: {}", "a".repeat(HEAD_BYTES));
        assert_eq!(status(long.as_bytes()), 431);
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "X: a\r\n".repeat(HEADERS + 1));
        assert_eq!(status(many.as_bytes()), 431);
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n"),
            413
        );
    }

    #[test]
    fn http_1_0_closes_unless_kept_alive() {
        let close = |text: &[u8]| read(text).unwrap().unwrap().0.close;
        assert!(close(b"GET / HTTP/1.0\r\n\r\n"));
        assert!(!close(b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
        assert!(close(b"GET / HTTP/1.1\r\nConnection: Close\r\n\r\n"));
        assert!(!close(b"GET / HTTP/1.1\r\n\r\n"));
    }

    #[test]
    fn a_head_dripped_a_byte_at_a_time_is_parsed_once() {
        let mut framer = Framer::new(Source::Loopback, false, 64 * 1024);
        let head = format!(
            "POST /organiser/game HTTP/1.1\r\n{}Content-Length: 2000\r\n\r\n",
            "X-Long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n"
                .repeat(90)
        );
        let text = format!("{head}{}\r\nGET / HTTP/1.1\r\n\r\n", "b".repeat(2000));
        let mut whole = Vec::new();
        for byte in text.as_bytes() {
            for request in framer.read(std::slice::from_ref(byte)) {
                whole.push(request.unwrap());
            }
        }
        assert_eq!(
            whole.len(),
            2,
            "the post, then the page after its extra CR LF"
        );
        assert!(whole[0].bytes.ends_with(&[b'b'; 2000]));
        assert_eq!(framer.parses, 2, "one parse a head");
        assert!(framer.buffered.is_empty());
    }

    /// RFC 9112 section 2.2 lets a server take a lone LF as a line's end, as nginx does; the
    /// door writes the head again with CR LF, so the site never reads it another way.
    #[test]
    fn lines_ended_by_a_lone_lf_are_read_and_written_again_with_cr_lf() {
        let text = b"GET /a HTTP/1.1\nHost: x\nX: y\n\nGET /b HTTP/1.1\r\n\r\n";
        let mut framer = Framer::new(Source::Loopback, false, 64 * 1024);
        let heads: Vec<String> = framer
            .read(text)
            .into_iter()
            .map(|r| String::from_utf8(r.unwrap().bytes).unwrap())
            .collect();
        assert_eq!(
            heads,
            [
                "GET /a HTTP/1.1\r\nX-Referee-Source: loopback\r\nHost: x\r\nX: y\r\n\r\n",
                "GET /b HTTP/1.1\r\nX-Referee-Source: loopback\r\n\r\n"
            ]
        );
    }
}
