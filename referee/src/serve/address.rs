//! Where a connection comes from, as the per-address bound counts it: one machine is one
//! source whatever address of its own it uses: all of loopback (127/8, ::1) is one source,
//! an IPv6 address counts by its /56, an IPv4 address (or one mapped in IPv6) by itself.
//! Why /56: a provider gives one customer (a home, a rented server) a /56 or a /48, not a
//! /64 (RIPE-690 advises a /56 at least), so counted by /64 one customer would hold 256
//! shares; a /56 is the least one customer has, and a network of many machines behind one
//! /56 shares one share, as many machines behind one IPv4 address do.

use std::net::{IpAddr, Ipv4Addr};

/// A source of connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    Loopback,
    V4(Ipv4Addr),
    /// The first 56 bits of an IPv6 address.
    V6(u64),
}

impl Source {
    pub fn of(ip: IpAddr) -> Source {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match ip {
            ip if ip.is_loopback() => Source::Loopback,
            IpAddr::V4(v4) => Source::V4(v4),
            IpAddr::V6(v6) => Source::V6((v6.to_bits() >> 72) as u64),
        }
    }
}

/// As the log names a source: `loopback`, an IPv4 address, an IPv6 /56 prefix.
impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Loopback => f.write_str("loopback"),
            Source::V4(v4) => write!(f, "{v4}"),
            Source::V6(prefix) => {
                let ip = std::net::Ipv6Addr::from_bits(u128::from(*prefix) << 72);
                write!(f, "{ip}/56")
            }
        }
    }
}

/// A source as [`Source`]'s `Display` writes it (the web site's door passes it so).
impl std::str::FromStr for Source {
    type Err = std::net::AddrParseError;

    fn from_str(s: &str) -> Result<Source, Self::Err> {
        if s == "loopback" {
            return Ok(Source::Loopback);
        }
        let ip: IpAddr = s.split('/').next().unwrap_or(s).parse()?;
        Ok(Source::of(ip))
    }
}

/// The connections one source may hold: `per_address`, and never more than half of
/// `max_connections` (at least one), so that one source leaves room for the others.
pub fn bound(max_connections: u32, per_address: u32) -> u32 {
    per_address.min((max_connections / 2).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(ip: &str) -> Source {
        Source::of(ip.parse().unwrap())
    }

    #[test]
    fn one_machine_is_one_source() {
        assert_eq!(of("127.0.0.2"), of("127.255.3.4"));
        assert_eq!(of("::1"), of("127.0.0.1"));
        assert_eq!(of("::ffff:127.0.0.9"), Source::Loopback);
        assert_eq!(of("2001:db8:1:2::1"), of("2001:db8:1:2:ffff::9"));
        assert_eq!(of("2001:db8:1:2::1"), of("2001:db8:1:ff::1"), "one /56");
        assert_ne!(of("2001:db8:1:2::1"), of("2001:db8:1:102::1"));
        assert_eq!(of("::ffff:192.0.2.1"), of("192.0.2.1"));
        assert_ne!(of("192.0.2.1"), of("192.0.2.2"));
        for ip in ["2001:db8:1:2::1", "192.0.2.7", "::1"] {
            assert_eq!(of(ip).to_string().parse::<Source>(), Ok(of(ip)), "{ip}");
        }
    }

    #[test]
    fn one_source_leaves_room() {
        assert_eq!(bound(1024, 16), 16);
        assert_eq!(bound(8, 16), 4);
        assert_eq!(bound(1, 16), 1);
    }
}
