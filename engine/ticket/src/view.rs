//! What a seat sees (rule 26): its own hand, tickets and the tickets it is choosing; of the
//! others, how many cards and tickets they hold; and everything public: the row, the sizes
//! of the pile, the discard and the ticket deck, wagons, points and the routes' owners.

use crate::board::Ticket;
use crate::card::{Colour, ALL};
use crate::state::{Phase, TicketState, ROW};
use std::collections::BTreeMap;

/// What every seat sees of one seat.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Seat {
    pub cards: usize,
    pub tickets: usize,
    pub wagons: u32,
    /// Points from routes.
    pub points: i64,
    pub out: bool,
}

/// What a seat sees.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct View {
    /// The seat seeing this.
    pub seat: usize,
    /// Whose turn it is.
    pub turn: usize,
    /// Whether this seat is to move now.
    pub to_move: bool,
    /// What its move is: `first` (draw tickets: rule 12), `turn`, `second-card`, `choose`.
    pub phase: &'static str,
    /// Its cards by colour (only colours it holds).
    pub hand: BTreeMap<Colour, u8>,
    /// Its tickets.
    pub tickets: Vec<Ticket>,
    /// The three tickets it is choosing among, when it is.
    pub offered: Vec<Ticket>,
    /// The face-up cards (`None`: an empty place, while the row waits for the discard's
    /// reshuffle or at the end).
    pub row: [Option<Colour>; ROW],
    pub pile: usize,
    pub discard: usize,
    pub ticket_deck: usize,
    pub seats: Vec<Seat>,
    /// Each route's owner, by route.
    pub owners: Vec<Option<usize>>,
    pub last_round: bool,
    pub over: bool,
}

impl TicketState {
    /// What `seat` sees now.
    pub fn view(&self, seat: usize) -> View {
        let ticket = |t: &u16| self.board.tickets[usize::from(*t)];
        let mine = self.turn == seat;
        View {
            seat,
            turn: self.turn,
            to_move: self.is_to_move(seat),
            phase: match self.phase {
                Phase::Turn if !self.started[self.turn] => "first",
                Phase::Turn => "turn",
                Phase::Second => "second-card",
                Phase::Choose(_) => "choose",
            },
            hand: ALL
                .iter()
                .filter(|&&c| self.hands[seat][c as usize] > 0)
                .map(|&c| (c, self.hands[seat][c as usize]))
                .collect(),
            tickets: self.tickets[seat].iter().map(ticket).collect(),
            offered: match self.phase {
                Phase::Choose(t) if mine => t.iter().map(ticket).collect(),
                _ => Vec::new(),
            },
            row: self.row,
            pile: self.pile_len(),
            discard: self.discard.len(),
            ticket_deck: self.deck.as_ref().map_or(0, Vec::len),
            seats: (0..self.seats())
                .map(|s| Seat {
                    cards: self.hands[s].iter().map(|&n| usize::from(n)).sum(),
                    tickets: self.tickets[s].len(),
                    wagons: self.wagons[s],
                    points: self.points[s],
                    out: self.out[s],
                })
                .collect(),
            owners: self.owners.clone(),
            last_round: self.last_round.is_some(),
            over: self.end.is_some(),
        }
    }
}

impl View {
    /// How many cards of `colour` it holds.
    pub fn count(&self, colour: Colour) -> u8 {
        self.hand.get(&colour).copied().unwrap_or(0)
    }
}
