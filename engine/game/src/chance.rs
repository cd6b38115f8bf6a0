//! Chance: what a game asks the runner to draw ([`Chance`]), what was drawn ([`Drawn`]), and
//! the one way a stream of this project draws it, so that a seed plays the same forever.

use serde::{Deserialize, Serialize};

/// What a game asks chance for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Chance {
    /// The match's seed itself (a game that draws its own setup from a seed, as the 2009
    /// game always did: each seed plays the setup it played before the game model).
    Seed,
    /// A number in `0..n` (`n` at least 1), all alike.
    Below(u64),
    /// An order of `0..n` (a shuffled deck), all orders alike.
    Order(u32),
}

/// What chance drew, as a record keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Drawn {
    /// For [`Chance::Seed`] and [`Chance::Below`].
    Number(u64),
    /// For [`Chance::Order`].
    Order(Vec<u32>),
}

impl Chance {
    /// Draws it for a match of seed `seed` from its chance `stream`: `Seed` is `seed`
    /// (nothing drawn), `Below` one `below_u64`, `Order` the Fisher-Yates shuffle of `0..n`
    /// from its last place down (the 2009 setup's).
    ///
    /// ```
    /// use game::{Chance, Drawn};
    /// let drawn = Chance::Order(5).draw(0, &mut draw::Stream::new(1));
    /// assert!(Chance::Order(5).admits(&drawn));
    /// assert_eq!(drawn, Chance::Order(5).draw(0, &mut draw::Stream::new(1)));
    /// assert_eq!(Chance::Seed.draw(42, &mut draw::Stream::new(1)), Drawn::Number(42));
    /// ```
    pub fn draw(&self, seed: u64, stream: &mut draw::Stream) -> Drawn {
        match *self {
            Chance::Seed => Drawn::Number(seed),
            Chance::Below(n) => Drawn::Number(stream.below_u64(n.max(1))),
            Chance::Order(n) => {
                let mut order: Vec<u32> = (0..n).collect();
                for i in (1..order.len()).rev() {
                    let j = stream.below_usize(i + 1);
                    order.swap(i, j);
                }
                Drawn::Order(order)
            }
        }
    }

    /// Whether `drawn` is something this could have drawn (a record read back).
    pub fn admits(&self, drawn: &Drawn) -> bool {
        match (*self, drawn) {
            (Chance::Seed, Drawn::Number(_)) => true,
            (Chance::Below(n), Drawn::Number(k)) => *k < n.max(1),
            (Chance::Order(n), Drawn::Order(order)) => {
                let mut seen = vec![false; n as usize];
                order.len() == n as usize
                    && order.iter().all(|&k| {
                        seen.get_mut(k as usize)
                            .is_some_and(|s| !std::mem::replace(s, true))
                    })
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_is_the_2009_setups_shuffle() {
        // The 2009 setup draws the first player, then shuffles 14 monuments so.
        let mut stream = draw::Stream::new(7);
        stream.below_u8(3);
        let Drawn::Order(order) = Chance::Order(14).draw(0, &mut stream) else {
            panic!("an order")
        };
        let mut expected: Vec<u32> = (0..14).collect();
        let mut again = draw::Stream::new(7);
        again.below_u8(3);
        for i in (1..14).rev() {
            expected.swap(i, again.below_usize(i + 1));
        }
        assert_eq!(order, expected);
    }

    #[test]
    fn what_a_request_admits() {
        assert!(Chance::Below(3).admits(&Drawn::Number(2)));
        assert!(!Chance::Below(3).admits(&Drawn::Number(3)));
        assert!(Chance::Below(0).admits(&Drawn::Number(0)));
        assert!(Chance::Seed.admits(&Drawn::Number(u64::MAX)));
        assert!(!Chance::Seed.admits(&Drawn::Order(vec![])));
        assert!(Chance::Order(3).admits(&Drawn::Order(vec![2, 0, 1])));
        assert!(!Chance::Order(3).admits(&Drawn::Order(vec![2, 0, 0])));
        assert!(!Chance::Order(3).admits(&Drawn::Order(vec![2, 0, 3])));
        assert!(!Chance::Order(3).admits(&Drawn::Order(vec![0, 1])));
        assert!(!Chance::Order(2).admits(&Drawn::Number(1)));
    }

    #[test]
    fn below_draws_in_range_and_seed_is_the_match_s() {
        let mut stream = draw::Stream::new(3);
        for n in 1..50 {
            let Drawn::Number(k) = Chance::Below(n).draw(0, &mut stream) else {
                panic!("a number")
            };
            assert!(k < n);
        }
        // The seed is the match's, and the stream is left as it was.
        let mut stream = draw::Stream::new(9);
        assert_eq!(Chance::Seed.draw(77, &mut stream), Drawn::Number(77));
        assert_eq!(stream.next_u64(), draw::Stream::new(9).next_u64());
    }
}
