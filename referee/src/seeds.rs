//! Seeds derived from seeds: per-seat seeds of a match, match seeds of a tournament. Pure
//! functions of their inputs, never of time or thread order.

/// SplitMix64's finaliser: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of item `index` of stream `stream` under `seed`.
///
/// ```
/// use referee::seeds::derive;
/// assert_eq!(derive(1, 2, 3), derive(1, 2, 3));
/// assert_ne!(derive(1, 2, 3), derive(1, 2, 4));
/// ```
pub fn derive(seed: u64, stream: u64, index: u64) -> u64 {
    mix(mix(seed ^ mix(stream.wrapping_add(0x9e37_79b9_7f4a_7c15))).wrapping_add(index))
}

/// Stream of the per-seat champion seeds of a match.
pub const SEAT_STREAM: u64 = 1;
/// Stream of the match seeds of a tournament.
pub const MATCH_STREAM: u64 = 2;
/// Stream of the group draws of a tournament.
pub const GROUP_STREAM: u64 = 3;

/// The `PROLOGIN_SEED` of `seat` in the match of seed `match_seed`.
pub fn seat_seed(match_seed: u64, seat: u8) -> u64 {
    derive(match_seed, SEAT_STREAM, u64::from(seat))
}
