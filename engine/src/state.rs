//! The whole state of a game at one instant: board, money, turn, auction results.

use crate::board::Board;
use crate::player::Seat;
use crate::price::Counters;
use crate::setup::Setup;
use crate::turn::{order, Stage};
use serde::{Deserialize, Serialize};

/// Everything the rules need to know; serialisable as a snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The map with its cells and values (rules 1-8).
    pub board: Board,
    /// Money of each seat, absolute (rule 4).
    pub money: [i32; 3],
    /// `numero_tour`, 1..=15.
    pub turn: u8,
    /// The first player of this turn's Phase I.
    pub first: Seat,
    /// The monuments, in the order they are drawn (rule 14).
    pub monument_order: [u8; 14],
    /// The most recently drawn monument (`monument_en_cours`).
    pub current_monument: Option<u8>,
    /// Whether the current monument has been built (Phase III).
    pub monument_placed: bool,
    /// Bids of the last resolved auction, absolute seats (rule 24).
    pub last_bids: [i32; 3],
    /// Winner of the last resolved auction.
    pub last_winner: Option<Seat>,
    /// Where the turn stands: whose callback is due (rules 10-16).
    pub stage: Stage,
    /// Roads and houses each seat built in its current callback (rule 17).
    pub counters: [Counters; 3],
}

impl State {
    /// The state of `setup` before `init_game`.
    pub fn new(setup: Setup) -> State {
        State {
            board: setup.board,
            money: setup.money,
            turn: 1,
            first: setup.first_player,
            monument_order: setup.monument_order,
            current_monument: None,
            monument_placed: false,
            last_bids: [0; 3],
            last_winner: None,
            stage: Stage::Init,
            counters: [Counters::default(); 3],
        }
    }

    /// The seat playing Phase I slot `slot` of this turn.
    pub fn slot_seat(&self, slot: u8) -> Seat {
        order(self.first)[usize::from(slot)]
    }

    /// `commence()`, absolute: the first player of this turn's Phase I, or of the next turn's
    /// during Phases II and III (rule 15).
    pub fn commence(&self) -> Seat {
        match self.stage {
            Stage::Auction | Stage::Placement { .. } => self.first.after(1),
            _ => self.first,
        }
    }

    /// `mon_tour()` for `seat` (rule 16).
    pub fn is_turn_of(&self, seat: Seat) -> bool {
        match self.stage {
            Stage::Build { slot } => self.slot_seat(slot) == seat,
            Stage::Auction => true,
            Stage::Placement { winner } => winner == seat,
            Stage::Init | Stage::End | Stage::Over => false,
        }
    }

    /// `score(j)`, absolute: the worth of the seat's houses (rule 9).
    pub fn score(&self, seat: Seat) -> i32 {
        self.board.houses_worth(seat)
    }

    /// The final score: money plus `score` (rule 9).
    pub fn final_score(&self, seat: Seat) -> i32 {
        self.money[seat.index()] + self.score(seat)
    }
}
