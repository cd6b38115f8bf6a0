//! The one reading of a request the site's door makes (its head by `httparse`, strict), and
//! the request the door writes for the site in its place: the request line, the door's
//! source line, the visitor's header lines but those the door answers for (its source, its
//! length, `Transfer-Encoding`, `Expect`), one `Content-Length` it counted, the body. The
//! site (`tiny_http`) so reads exactly the request the door framed, whatever two parsers
//! could read differently in the visitor's bytes (two lengths, a folded line, a bare CR):
//! what the door cannot read as one request is refused, never passed on.

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
}

const TOO_LONG: Refusal = (
    431,
    "Request Header Fields Too Large",
    "The request's head is too long (16 KiB, 100 lines at most)",
);

fn bad(why: &'static str) -> Refusal {
    (400, "Bad Request", why)
}

/// The first request of `buffered` whole, as the site gets it from `source`, and the bytes
/// it used; `None` while it is not whole yet; the refusal of a head too long or not read
/// as one request, or of a body of no stated length or too long (`max_body`).
pub fn request(
    buffered: &[u8],
    source: Source,
    max_body: u64,
) -> Result<Option<(Request, usize)>, Refusal> {
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
    let mut head = format!("{method} {path} HTTP/1.{version}\r\n{SOURCE_HEADER}: {source}\r\n");
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
    }
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
    let whole = end + length as usize;
    if buffered.len() < whole {
        return Ok(None);
    }
    let close = match connection {
        Some(v) if v.contains("close") => true,
        Some(v) => version == 0 && !v.contains("keep-alive"),
        None => version == 0,
    };
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(&buffered[end..whole]);
    Ok(Some((Request { bytes, close }, whole)))
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

    fn read(text: &[u8]) -> Result<Option<(Request, usize)>, Refusal> {
        request(text, Source::Loopback, 64 * 1024)
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
}
