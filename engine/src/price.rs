//! Rule 17: the price of roads and houses built within one callback.

use crate::constants::INFINI;

/// Roads and houses built so far in the current callback (reset at each callback).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counters {
    /// Roads built, `r`.
    pub roads: u32,
    /// Houses built, `m`.
    pub houses: u32,
}

/// Total price of `r` roads and `m` houses in one callback, `INFINI` for three houses or more.
///
/// ```
/// use engine::price::cost;
/// assert_eq!(cost(1, 1), 0); // one road and one house are free
/// assert_eq!(cost(4, 1), 2); // further roads cost 1 per two
/// assert_eq!(cost(4, 2), 2); // ... and four roads make the second house free
/// ```
pub fn cost(r: u32, m: u32) -> i32 {
    if m >= 3 {
        return INFINI;
    }
    let big_r = r.saturating_sub(1) as i32;
    let big_m = m.saturating_sub(1) as i32;
    big_m + (big_r - big_m + 1) / 2
}

impl Counters {
    /// `cout_achat_route`: the price of one more road.
    pub fn road_price(self) -> i32 {
        cost(self.roads + 1, self.houses) - cost(self.roads, self.houses)
    }

    /// `cout_achat_maison`: the price of one more house, `INFINI` past the second.
    pub fn house_price(self) -> i32 {
        match cost(self.roads, self.houses + 1) {
            INFINI => INFINI,
            next => next - cost(self.roads, self.houses),
        }
    }
}
