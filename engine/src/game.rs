//! The playable game: the driver that moves from stage to stage and applies the end of each
//! phase (auction resolution, monument draw, end of the game).

use crate::api::Player;
use crate::board::Pos;
use crate::constants::LAST_TURN;
use crate::outcome::Outcome;
use crate::player::Seat;
use crate::price::Counters;
use crate::setup::Setup;
use crate::state::State;
use crate::turn::{order, Callback, Stage};
use serde::{Deserialize, Serialize};

/// One seat's private view during Phase II (rule 12): the state as Phase II began plus its
/// own actions, which are applied to the real state when all three have finished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Private {
    pub(crate) state: State,
    pub(crate) sales: Vec<Pos>,
    pub(crate) bid: Option<i32>,
}

/// A game in progress. Ask [`Game::stage`] and [`Game::seats_to_play`] who plays which
/// callback, let each of them act through [`Game::player`], then call [`Game::advance`].
///
/// ```
/// use engine::{Game, Setup, Stage};
/// let mut game = Game::new(Setup::from_seed(1));
/// while game.stage() != Stage::Over {
///     game.advance(); // nobody does anything
/// }
/// assert_eq!(game.outcome().points, [0, 0, 0]); // three tied at 10 roubles
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub(crate) state: State,
    pub(crate) auction: Option<Box<[Private; 3]>>,
}

// The referee plays matches on worker threads: a `Game` must stay `Send`.
const _: () = {
    const fn send<T: Send>() {}
    send::<Game>();
};

impl Game {
    /// A game about to play `init_game`.
    pub fn new(setup: Setup) -> Game {
        Game {
            state: State::new(setup),
            auction: None,
        }
    }

    /// The real state (during Phase II, as it was when Phase II began).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.state.stage
    }

    /// The callback of the current stage, `None` when the game is over.
    pub fn callback(&self) -> Option<Callback> {
        self.state.stage.callback()
    }

    /// The seats whose callback is due now, in the order to call them: everyone for
    /// `init_game`, `enchere` (in Phase I order) and `end_game`; one seat otherwise.
    pub fn seats_to_play(&self) -> Vec<Seat> {
        match self.state.stage {
            Stage::Init | Stage::End => Seat::ALL.to_vec(),
            Stage::Build { slot } => vec![self.state.slot_seat(slot)],
            Stage::Auction => order(self.state.first).to_vec(),
            Stage::Placement { winner } => vec![winner],
            Stage::Over => Vec::new(),
        }
    }

    /// The API seen by `seat` in the current stage.
    pub fn player(&mut self, seat: Seat) -> Player<'_> {
        Player::new(self, seat)
    }

    /// The API seen by `seat` for questions only (an `etat`, a referee answering a
    /// champion's question): every action is refused with `ACTION_INTERDITE`.
    pub fn look(&self, seat: Seat) -> Player<'_> {
        Player::look(self, seat)
    }

    /// End the current stage and enter the next one (rules 10-15, 23).
    pub fn advance(&mut self) {
        let next = match self.state.stage {
            Stage::Init => Stage::Build { slot: 0 },
            Stage::Build { slot } if slot < 2 => Stage::Build { slot: slot + 1 },
            Stage::Build { .. } if self.state.turn == LAST_TURN => Stage::End,
            Stage::Build { .. } => {
                let state = &mut self.state;
                state.current_monument = Some(state.monument_order[usize::from(state.turn - 1)]);
                state.monument_placed = false;
                Stage::Auction
            }
            Stage::Auction => Stage::Placement {
                winner: self.resolve_auction(),
            },
            Stage::Placement { .. } => {
                self.state.turn += 1;
                self.state.first = self.state.first.after(1);
                Stage::Build { slot: 0 }
            }
            Stage::End | Stage::Over => Stage::Over,
        };
        self.state.stage = next;
        self.state.counters = [Counters::default(); 3];
        if next == Stage::Auction {
            // Three views, not three copies: a `State` clone shares the board's cells and
            // values (`Arc`), and a view copies them only when its seat sells a house.
            let private = || Private {
                state: self.state.clone(),
                sales: Vec::new(),
                bid: None,
            };
            self.auction = Some(Box::new([private(), private(), private()]));
        }
    }

    /// Apply every seat's Phase II sales, then find the winner (highest bid; among equal
    /// bids, the one playing last in the next turn's Phase I) and make it pay (rules 12, 23).
    fn resolve_auction(&mut self) -> Seat {
        let privates = *self
            .auction
            .take()
            .expect("Phase II views exist during the auction");
        let bids: [i32; 3] = std::array::from_fn(|i| privates[i].bid.unwrap_or(0));
        // The views go before the sales are applied: the real board then owns its cells
        // alone again and is written in place instead of copied.
        let sales = privates.map(|private| private.sales);
        let state = &mut self.state;
        for (seat, sales) in Seat::ALL.into_iter().zip(&sales) {
            for &pos in sales {
                state.money[seat.index()] += state.board.worth(pos);
                let mut cell = state.board.cell(pos);
                cell.owner = None;
                state.board.set(pos, cell);
            }
        }
        let next_order = order(state.first.after(1));
        let winner = next_order
            .into_iter()
            .reduce(|best, seat| {
                if bids[seat.index()] >= bids[best.index()] {
                    seat
                } else {
                    best
                }
            })
            .expect("three seats");
        state.money[winner.index()] -= bids[winner.index()];
        state.last_bids = bids;
        state.last_winner = Some(winner);
        winner
    }

    /// Final scores and points; meaningful once the game is over.
    pub fn outcome(&self) -> Outcome {
        Outcome::from_scores(Seat::ALL.map(|s| self.state.final_score(s)))
    }

    /// A cheap 64-bit digest of the whole game (FNV-1a over a canonical encoding), stable
    /// across runs and platforms: equal digests mean equal games for every practical purpose.
    pub fn digest(&self) -> u64 {
        crate::snapshot::digest(self)
    }

    /// Where `seat` acts in the current stage: its Phase II view, or the real state.
    pub(crate) fn view(&self, seat: Seat) -> &State {
        match &self.auction {
            Some(privates) => &privates[seat.index()].state,
            None => &self.state,
        }
    }

    pub(crate) fn view_mut(&mut self, seat: Seat) -> &mut State {
        match &mut self.auction {
            Some(privates) => &mut privates[seat.index()].state,
            None => &mut self.state,
        }
    }

    pub(crate) fn private_mut(&mut self, seat: Seat) -> Option<&mut Private> {
        self.auction.as_mut().map(|p| &mut p[seat.index()])
    }
}
