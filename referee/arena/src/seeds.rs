//! Seeds derived from seeds: per-seat seeds of a match, match seeds of a tournament. Pure
//! functions of their inputs, never of time or thread order.
//!
//! Two constructions, for two kinds of secrecy:
//!
//! - [`derive()`] (SplitMix64) feeds the streams no champion sees: the match seeds of a
//!   tournament and its group draws. It is fast and well mixed, but invertible: whoever
//!   holds an output and the stream and index can compute the seed. So one match seed of a
//!   tournament (in `matches.csv` or a record) gives away the tournament seed and every
//!   other match seed: publish none before the tournament is over.
//! - [`seat_seed`] makes the `PROLOGIN_SEED` each champion gets in its environment, so it
//!   must be one-way: it is HMAC-SHA256 keyed by the match seed, over a domain label and
//!   the seat number, cut to 64 bits. From its own seed a champion can learn neither the
//!   match seed (from which the engine draws the hidden setup: the monument of every turn)
//!   nor another seat's seed, short of trying every candidate match seed.
//!
//! That proviso is the limit: the match seed is the whole secret. A small or public one
//! (`--seed 42`, or a match of a tournament whose seed was announced, since match seeds
//! derive from it) is guessed or known, and then everything follows. A match that matters
//! should use the default seed, which `referee match` and `referee tournament` draw with
//! `rand::random` (the thread-local CSPRNG, seeded from the operating system), or a secret
//! one that is published only after the match.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// SplitMix64's finaliser: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of item `index` of stream `stream` under `seed`. Invertible: never show its
/// output to a champion (see the module doc).
///
/// ```
/// use arena::seeds::derive;
/// assert_eq!(derive(1, 2, 3), derive(1, 2, 3));
/// assert_ne!(derive(1, 2, 3), derive(1, 2, 4));
/// ```
pub fn derive(seed: u64, stream: u64, index: u64) -> u64 {
    mix(mix(seed ^ mix(stream.wrapping_add(0x9e37_79b9_7f4a_7c15))).wrapping_add(index))
}

// Stream 1 was the per-seat seeds, before they became `seat_seed`'s HMAC; it is not reused.
/// Stream of the match seeds of a tournament.
pub const MATCH_STREAM: u64 = 2;
/// Stream of the group draws of a tournament.
pub const GROUP_STREAM: u64 = 3;
/// Stream of the bootstrap resampling of a tournament's leaderboard (`confidence.rs`):
/// its RNG is seeded with `derive(tournament seed, BOOTSTRAP_STREAM, 0)`.
pub const BOOTSTRAP_STREAM: u64 = 4;
/// Stream of the order in which the two matches of a gauntlet's pair start
/// (`gauntlet.rs`): bit 0 of `derive(gauntlet seed, ORDER_STREAM, pair)`.
pub const ORDER_STREAM: u64 = 5;
/// Stream of chance in a match of a game on the model (`arena`): its draws come from
/// `draw::Stream::new(derive(match seed, CHANCE_STREAM, 0))`. A champion knows its own
/// `PROLOGIN_SEED`, a one-way function of the match seed, and nothing of this stream.
pub const CHANCE_STREAM: u64 = 6;

/// Domain label of the per-seat seeds, the start of the HMAC message.
const SEAT_LABEL: &[u8] = b"prologin-2009 seat seed";

/// The `PROLOGIN_SEED` of `seat` in the match of seed `match_seed`: the first 8 bytes,
/// little-endian, of HMAC-SHA256 with key `match_seed` (8 bytes, little-endian) over
/// `SEAT_LABEL` followed by the seat as one byte.
pub fn seat_seed(match_seed: u64, seat: u8) -> u64 {
    let mut mac = Hmac::<Sha256>::new_from_slice(&match_seed.to_le_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(SEAT_LABEL);
    mac.update(&[seat]);
    let tag = mac.finalize().into_bytes();
    let mut first = [0u8; 8];
    first.copy_from_slice(&tag[..8]);
    u64::from_le_bytes(first)
}

/// Each seat's `PROLOGIN_SEED` in a record is the one the match seed gives it
/// ([`seat_seed`]): an edited match seed or seat seed is refused, naming the seat.
pub fn check_seat_seeds(seed: u64, seats: &[crate::parts::SeatRecord]) -> Result<(), String> {
    for (i, seat) in seats.iter().enumerate() {
        let want = seat_seed(seed, i as u8);
        if seat.seed != want {
            return Err(format!(
                "seats[{i}].seed: the match seed {seed} gives {want}, the record says {}",
                seat.seed
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Known answers computed outside Rust, so that any change of the construction (key or
    /// message encoding, label, which bytes are kept) fails here. Each value comes from
    /// `python3 -c "import hmac,hashlib; print(int.from_bytes(hmac.new(K.to_bytes(8,'little'),
    /// b'prologin-2009 seat seed'+bytes([S]), hashlib.sha256).digest()[:8],'little'))"`
    /// with the match seed K and the seat S.
    #[test]
    fn seat_seed_known_answers() {
        assert_eq!(seat_seed(42, 0), 14641543572662419409);
        assert_eq!(seat_seed(42, 1), 9865397662501449256);
        assert_eq!(seat_seed(42, 2), 4943120827660719894);
        assert_eq!(seat_seed(u64::MAX, 2), 18279061903708728811);
    }

    #[test]
    fn seat_seeds_differ_per_seat_and_per_match_seed() {
        let match_seeds = [0, 1, 2, 3, 42, 2009, 1 << 32, u64::MAX - 1, u64::MAX];
        let mut seen = HashSet::new();
        for &m in &match_seeds {
            for seat in 0..3 {
                let s = seat_seed(m, seat);
                assert!(seen.insert(s), "seat_seed({m}, {seat}) = {s} repeats");
                assert_ne!(s, m, "seat_seed({m}, {seat}) is the match seed");
            }
        }
    }

    #[test]
    fn seat_seed_is_deterministic() {
        assert_eq!(seat_seed(7, 1), seat_seed(7, 1));
    }

    /// `derive` must stay as it is: tournament match seeds and group draws, and so the
    /// results of a tournament played again, depend on it. Values from this Python:
    ///
    /// ```text
    /// M = 2**64 - 1
    /// def mix(z):
    ///     z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    ///     z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    ///     return z ^ (z >> 31)
    /// def derive(seed, stream, index):
    ///     return mix((mix(seed ^ mix((stream + 0x9e3779b97f4a7c15) & M)) + index) & M)
    /// print(derive(0, 0, 0), derive(2009, 2, 7), derive(M, 3, M))
    /// ```
    #[test]
    fn derive_known_answers() {
        assert_eq!(derive(0, 0, 0), 3746585686858627171);
        assert_eq!(derive(2009, MATCH_STREAM, 7), 11518102753241931243);
        assert_eq!(
            derive(u64::MAX, GROUP_STREAM, u64::MAX),
            12435415213577732775
        );
    }
}
