//! The open files the matches played at once need at least (each seat its pipes, its jail,
//! its stderr file: `jail::usage::SEAT_FILES`; the referee its own), checked before anything
//! is started or written: under that floor a seat could not start for want of the
//! referee's open files, which is the operator's problem, never a champion's fault. The
//! floor is also what the walks of the champions' processes leave free of the limit
//! (`jail::usage::leave_open_files`): the files they keep never take a seat's.

use jail::usage::OWN_FILES as OWN;

/// The limit of open files, below the floor of the seats asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Short {
    /// The fewest open files the seats need.
    pub need: u64,
    /// The referee's limit (`RLIMIT_NOFILE`, raised to its hard limit).
    pub limit: u64,
}

impl Short {
    /// The most matches of `seats` seats each that fit in the limit (at least one).
    pub fn matches_of(&self, seats: usize) -> u64 {
        (self.limit.saturating_sub(OWN) / (seats as u64 * jail::usage::SEAT_FILES)).max(1)
    }
}

/// The referee's limit of open files (raised to its hard one) if `seats` seats played at
/// once fit in it.
pub(crate) fn check(seats: usize) -> Result<u64, Short> {
    let limit = jail::raise_open_files();
    let fits = floor(seats, limit)?;
    jail::usage::leave_open_files(seats as u64 * jail::usage::SEAT_FILES + OWN);
    Ok(fits)
}

fn floor(seats: usize, limit: u64) -> Result<u64, Short> {
    let need = seats as u64 * jail::usage::SEAT_FILES + OWN;
    match need > limit {
        true => Err(Short { need, limit }),
        false => Ok(limit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_counts_every_seat_and_the_referee_s_own() {
        let need = 3 * jail::usage::SEAT_FILES + OWN;
        assert_eq!(floor(3, need), Ok(need));
        let short = floor(6, need).unwrap_err();
        assert_eq!((short.need, short.limit), (need + need - OWN, need));
        assert_eq!(short.matches_of(3), 1);
        assert_eq!(floor(3, 35).unwrap_err().matches_of(3), 1, "never none");
    }
}
