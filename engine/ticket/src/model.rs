//! Ticket to Ride as a [`game::Game`]: 2 to 5 seats (2 by default, rule 1), one option
//! (`board`: `usa`, `small` or a board file, rule 2); chance draws the pile's and the
//! ticket deck's orders and the coin ([`game::Chance::Order`]); a seat's action is one
//! move of its turn.

use crate::action::Action;
use crate::board::Board;
use crate::state::TicketState;
use crate::view::View;
use game::options::Kind;
use game::{Acting, Drawn, Illegal, OptionSpec, Options, Ranking};
use std::sync::Arc;

/// Ticket to Ride.
pub struct TicketToRide;

/// Its options.
pub const OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "board",
    help: "the board: `usa`, `small`, or the path of a board file in their format (rule 2)",
    default: "usa",
    kind: Kind::Text,
}];

impl game::Game for TicketToRide {
    type State = TicketState;

    fn name(&self) -> &'static str {
        "ticket-to-ride"
    }

    fn title(&self) -> &'static str {
        "Ticket to Ride"
    }

    fn version(&self) -> u32 {
        1
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        2..=5
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    fn start(&self, seats: usize, options: &Options) -> Result<TicketState, String> {
        if !self.seats().contains(&seats) {
            return Err(format!("{seats} seats: Ticket to Ride is played by 2 to 5"));
        }
        let board = Board::load(options.get("board"))?;
        Ok(TicketState::new(Arc::new(board), seats))
    }
}

impl game::State for TicketState {
    type Action = Action;
    type Observation = View;

    fn acting(&self) -> Acting {
        if let Some(chance) = self.chance_needed() {
            return Acting::Chance(chance);
        }
        match self.end() {
            Some(_) => Acting::Over,
            None => Acting::Seats(vec![self.turn()]),
        }
    }

    fn chance(&mut self, drawn: &Drawn) -> Result<(), String> {
        self.apply_chance(drawn)
    }

    fn legal(&self, seat: usize) -> Vec<Action> {
        TicketState::legal(self, seat)
    }

    fn act(&mut self, seat: usize, action: &Action) -> Result<String, Illegal> {
        self.play(seat, action)
    }

    fn retire(&mut self, seat: usize) {
        self.leave(seat);
    }

    fn observe(&self, seat: usize) -> View {
        self.view(seat)
    }

    fn ranking(&self) -> Option<Ranking> {
        match self.chance_needed() {
            Some(_) => None,
            None => self.rank(),
        }
    }

    fn digest(&self) -> u64 {
        TicketState::digest(self)
    }
}
