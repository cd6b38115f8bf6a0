//! The server's open files: the soft `RLIMIT_NOFILE` raised to the hard one at start, and
//! a number of connections the limit cannot hold refused before listening (a server past
//! its limit fails every `accept` with "too many open files").

use nix::sys::resource::{getrlimit, setrlimit, Resource};

/// Open files counted for one connection: its socket, and the pipes and process handle
/// of the built-in champion its training game runs.
pub const PER_CONNECTION: u64 = 4;
/// Open files the server keeps besides its connections (listener, store, records, logs).
pub const RESERVE: u64 = 64;

/// Too few open files for the connections asked: what they need, the limit, and the
/// most connections it holds (the command line names its flag with them).
#[derive(Debug, PartialEq, Eq)]
pub struct TooFewFiles {
    pub max_connections: u32,
    pub needed: u64,
    pub limit: u64,
    pub fits: u64,
}

impl std::fmt::Display for TooFewFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} connections need {} open files and the limit is {} (the hard limit of open \
             files, RLIMIT_NOFILE): raise it (ulimit -Hn, or LimitNOFILE= of a service) or \
             serve {} connections or fewer",
            self.max_connections, self.needed, self.limit, self.fits
        )
    }
}

impl std::error::Error for TooFewFiles {}

/// Raises the soft limit of open files to the hard one; the limit now in force, or why
/// `max_connections` cannot be served under it.
pub fn raise_for(max_connections: u32) -> anyhow::Result<u64> {
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE)
        .map_err(|e| anyhow::anyhow!("cannot read the limit of open files: {e}"))?;
    let limit = if soft < hard && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok() {
        hard
    } else {
        soft
    };
    check(max_connections, limit)?;
    Ok(limit)
}

/// Whether `limit` open files hold `max_connections`.
pub fn check(max_connections: u32, limit: u64) -> Result<(), TooFewFiles> {
    let needed = u64::from(max_connections) * PER_CONNECTION + RESERVE;
    if needed <= limit {
        return Ok(());
    }
    Err(TooFewFiles {
        max_connections,
        needed,
        limit,
        fits: limit.saturating_sub(RESERVE) / PER_CONNECTION,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_too_low_names_the_bound_that_fits() {
        assert!(check(1024, 4160).is_ok());
        let why = check(1024, 256).unwrap_err();
        assert_eq!((why.needed, why.fits), (4160, 48), "{why}");
        assert!(
            why.to_string().contains("serve 48 connections or fewer"),
            "{why}"
        );
        assert_eq!(check(1, 0).unwrap_err().fits, 0);
    }
}
