//! The visitor's address a trusted proxy forwards (`referee serve --web-proxy ADDR`): the
//! last hop of `X-Forwarded-For` or the last `for=` of `Forwarded` (RFC 7239), read only
//! on a connection from the proxy, where that last hop is the one the proxy wrote itself
//! (a proxy appends the address it saw; what a visitor sent is before it). A request that
//! carries both headers is refused: a proxy writes one of them, and the other, passed on
//! as the visitor sent it, could be the visitor's own.

use super::head::Refusal;
use std::net::{IpAddr, SocketAddr};

/// The address the proxy forwards in `headers` (name, value), `None` when it forwards
/// none that reads as an address (the proxy's own request, `for=unknown`, an obfuscated
/// name): the request then counts as the proxy's.
pub fn visitor(headers: &[(&str, &str)]) -> Result<Option<IpAddr>, Refusal> {
    let values = |name: &str| -> Vec<&str> {
        headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, v)| v)
            .collect()
    };
    let (x_forwarded, forwarded) = (values("X-Forwarded-For"), values("Forwarded"));
    if !x_forwarded.is_empty() && !forwarded.is_empty() {
        return Err((
            400,
            "Bad Request",
            "The request names its visitor in both X-Forwarded-For and Forwarded: the \
             site's proxy must write one and drop the other",
        ));
    }
    if let Some(last) = x_forwarded.last() {
        return Ok(last.rsplit(',').next().and_then(address));
    }
    // The last element of the last line; its `for=` parameter.
    let element = forwarded.last().and_then(|v| v.rsplit(',').next());
    Ok(element
        .into_iter()
        .flat_map(|e| e.split(';'))
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| key.trim().eq_ignore_ascii_case("for"))
        .and_then(|(_, node)| address(node)))
}

/// An address as a proxy writes a node: `192.0.2.1`, `2001:db8::1`, with a port
/// (`192.0.2.1:4711`, `[2001:db8::1]:4711`), in quotes or not.
fn address(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    let bracketed = node
        .strip_prefix('[')
        .and_then(|rest| rest.split(']').next());
    match bracketed {
        Some(inner) => inner.parse().ok(),
        None => node
            .parse()
            .ok()
            .or_else(|| node.parse::<SocketAddr>().ok().map(|a| a.ip())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(headers: &[(&str, &str)]) -> Option<String> {
        visitor(headers).unwrap().map(|ip| ip.to_string())
    }

    #[test]
    fn the_last_hop_is_the_proxy_s() {
        let some = |s: &str| Some(s.to_string());
        assert_eq!(of(&[("X-Forwarded-For", "192.0.2.1")]), some("192.0.2.1"));
        // What the visitor wrote comes first; the proxy appends the address it saw.
        assert_eq!(
            of(&[("x-forwarded-for", "127.0.0.1, 198.51.100.7")]),
            some("198.51.100.7")
        );
        assert_eq!(
            of(&[
                ("X-Forwarded-For", "127.0.0.1"),
                ("X-Forwarded-For", " 2001:db8::5 ")
            ]),
            some("2001:db8::5")
        );
        assert_eq!(
            of(&[("X-Forwarded-For", "192.0.2.1:4711")]),
            some("192.0.2.1")
        );
        assert_eq!(
            of(&[(
                "Forwarded",
                "for=127.0.0.1;proto=http, for=\"[2001:db8:cafe::17]:4711\";by=x"
            )]),
            some("2001:db8:cafe::17")
        );
        assert_eq!(
            of(&[("Forwarded", "proto=https;For=\"192.0.2.60:80\"")]),
            some("192.0.2.60")
        );
        for none in [
            &[][..],
            &[("Forwarded", "for=unknown")],
            &[("Forwarded", "for=192.0.2.1, for=_hidden;proto=http")],
            &[("Forwarded", "proto=http")],
            &[("X-Forwarded-For", "198.51.100.7, not-an-address")],
            &[("X-Forwarded-For", "")],
        ] {
            assert_eq!(of(none), None, "{none:?}");
        }
        // The last element has no address: never an earlier one the visitor wrote.
        assert_eq!(of(&[("Forwarded", "for=192.0.2.1, for=unknown")]), None);
    }

    #[test]
    fn both_headers_are_refused() {
        let both = [
            ("X-Forwarded-For", "192.0.2.1"),
            ("Forwarded", "for=192.0.2.2"),
        ];
        assert_eq!(visitor(&both).unwrap_err().0, 400);
    }
}
