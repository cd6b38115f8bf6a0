//! How a game starts: the monument order and first player, drawn from a seed or given.

use crate::board::Board;
use crate::constants::ARGENT_INITIAL;
use crate::player::Seat;
use serde::{Deserialize, Serialize};

/// The starting conditions of a game. Unchecked on purpose: tests and fixtures may start
/// from any board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The monuments in draw order, a permutation of `0..14` (rule 14).
    pub monument_order: [u8; 14],
    /// The seat that opens Phase I of turn 1 (rule 11).
    pub first_player: Seat,
    /// The starting board (rule 1 unless a test says otherwise).
    pub board: Board,
    /// The starting money of each seat.
    pub money: [i32; 3],
}

impl Setup {
    /// The setup drawn from `seed`: first player, then the monument order (Fisher-Yates).
    ///
    /// ```
    /// use engine::Setup;
    /// assert_eq!(Setup::from_seed(7), Setup::from_seed(7));
    /// ```
    pub fn from_seed(seed: u64) -> Setup {
        let mut stream = draw::Stream::new(seed);
        let first_player = Seat(stream.below_u8(3));
        let mut monument_order: [u8; 14] = std::array::from_fn(|i| i as u8);
        for i in (1..monument_order.len()).rev() {
            let j = stream.below_usize(i + 1);
            monument_order.swap(i, j);
        }
        Setup::with_order(monument_order, first_player)
    }

    /// A standard game with a given monument order and first player (the 2009 reference
    /// setup is `with_order([0, 1, ..., 13], first)`).
    pub fn with_order(monument_order: [u8; 14], first_player: Seat) -> Setup {
        Setup {
            monument_order,
            first_player,
            board: Board::default(),
            money: [ARGENT_INITIAL; 3],
        }
    }

    /// Check that `order` is a permutation of `0..14`.
    pub fn check_order(order: &[u8]) -> Result<[u8; 14], String> {
        let array: [u8; 14] = order
            .try_into()
            .map_err(|_| format!("a monument order has 14 ids, this one has {}", order.len()))?;
        let mut seen = [false; 14];
        for &id in &array {
            match seen.get_mut(usize::from(id)) {
                None => return Err(format!("monument id {id} is not in 0..=13")),
                Some(true) => return Err(format!("monument id {id} appears twice")),
                Some(s) => *s = true,
            }
        }
        Ok(array)
    }
}
