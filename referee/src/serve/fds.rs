//! The server's open files: the soft `RLIMIT_NOFILE` raised to the hard one at start, and
//! a `--max-connections` the limit cannot hold refused before listening (a server past
//! its limit fails every `accept` with "too many open files").

use nix::sys::resource::{getrlimit, setrlimit, Resource};

/// Open files counted for one connection: its socket, and the pipes and process handle
/// of the built-in champion its training game runs.
pub const PER_CONNECTION: u64 = 4;
/// Open files the server keeps besides its connections (listener, store, records, logs).
pub const RESERVE: u64 = 64;

/// Raises the soft limit of open files to the hard one; the limit now in force, or why
/// `max_connections` cannot be served under it (the message names the fix).
pub fn raise_for(max_connections: u32) -> Result<u64, String> {
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE)
        .map_err(|e| format!("cannot read the limit of open files: {e}"))?;
    let limit = if soft < hard && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok() {
        hard
    } else {
        soft
    };
    check(max_connections, limit)?;
    Ok(limit)
}

/// Whether `limit` open files hold `max_connections`.
pub fn check(max_connections: u32, limit: u64) -> Result<(), String> {
    let needed = u64::from(max_connections) * PER_CONNECTION + RESERVE;
    if needed <= limit {
        return Ok(());
    }
    let fits = limit.saturating_sub(RESERVE) / PER_CONNECTION;
    Err(format!(
        "--max-connections {max_connections} needs {needed} open files and the limit is \
         {limit} (the hard limit of open files, RLIMIT_NOFILE): raise it (ulimit -Hn, or \
         LimitNOFILE= of a service) or give --max-connections {fits} or less"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_too_low_names_the_bound_that_fits() {
        assert!(check(1024, 4160).is_ok());
        let why = check(1024, 256).unwrap_err();
        assert!(why.contains("--max-connections 48 or less"), "{why}");
        assert!(check(1, 0)
            .unwrap_err()
            .contains("--max-connections 0 or less"));
    }
}
