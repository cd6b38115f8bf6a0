//! A match's state and what chance does to it: the pile's and the ticket deck's orders
//! drawn when they are made (rules 5-6), the deal (rule 7), the face-up row laid and laid
//! again on three locomotives (rules 8-9), the discard reshuffled as soon as the pile is
//! empty (rule 10); and the state's digest and its invariants (nothing made or lost).

use crate::board::Board;
use crate::card::{self, Colour, Hand};
use game::{Chance, Drawn};
use std::sync::Arc;

/// Cards dealt to each seat at the start (rule 7).
pub const HAND: usize = 4;
/// Face-up cards (rule 7).
pub const ROW: usize = 5;
/// Locomotives face up that make the row be laid again (rule 8).
pub const ROW_LOCOMOTIVES: usize = 3;
/// Times in a row the row is laid again before the game ends (rule 8).
pub const ROW_RELAYS: u32 = 50;
/// Tickets drawn at a time (rule 15).
pub const DRAWN_TICKETS: usize = 3;

/// Where a seat is in its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The turn's first move.
    Turn,
    /// A first card was drawn: a second one now (rule 13).
    Second,
    /// Three tickets were drawn (indices into the board's tickets): keep some (rule 15).
    Choose([u16; 3]),
}

/// How the match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The last round was played (rule 19): counted by rules 22-24.
    Counted,
    /// A card was needed and neither the pile nor the discard had one (rule 20); `drawer`
    /// needed it.
    CardsOut { drawer: usize },
    /// Tickets were drawn from a deck of fewer than three (rule 21).
    TicketsOut { drawer: usize },
    /// One seat or none is left in (rule 25).
    Retired,
}

/// One match of Ticket to Ride.
#[derive(Clone, Debug)]
pub struct TicketState {
    pub(crate) board: Arc<Board>,
    /// The pile, its top last; `None` until its order is drawn.
    pub(crate) pile: Option<Vec<Colour>>,
    pub(crate) discard: Vec<Colour>,
    pub(crate) row: [Option<Colour>; ROW],
    /// The ticket deck (indices into the board's), its top last; `None` until drawn.
    pub(crate) deck: Option<Vec<u16>>,
    pub(crate) dealt: bool,
    pub(crate) hands: Vec<Hand>,
    pub(crate) tickets: Vec<Vec<u16>>,
    /// Each route's owner.
    pub(crate) owners: Vec<Option<usize>>,
    pub(crate) wagons: Vec<u32>,
    /// Points from routes (rule 18).
    pub(crate) points: Vec<i64>,
    pub(crate) turn: usize,
    pub(crate) phase: Phase,
    /// Whether each seat has played its first turn (rule 12).
    pub(crate) started: Vec<bool>,
    pub(crate) out: Vec<bool>,
    /// In the last round: the seats that still have their last turn to play (rule 19).
    pub(crate) last_round: Option<Vec<bool>>,
    /// Times the row was laid again in a row (rule 8).
    pub(crate) relays: u32,
    /// The seat whose draw is filling the row (the drawer of rule 20 if the cards run out).
    pub(crate) filler: usize,
    pub(crate) end: Option<End>,
    /// The coin of rule 24: an order of the seats, drawn only when it decides.
    pub(crate) coin: Option<Vec<u32>>,
}

impl TicketState {
    /// A match of `seats` seats on `board`, before anything is drawn.
    pub fn new(board: Arc<Board>, seats: usize) -> TicketState {
        let routes = board.routes.len();
        let wagons = board.wagons;
        TicketState {
            board,
            pile: None,
            discard: Vec::new(),
            row: [None; ROW],
            deck: None,
            dealt: false,
            hands: vec![[0; 9]; seats],
            tickets: vec![Vec::new(); seats],
            owners: vec![None; routes],
            wagons: vec![wagons; seats],
            points: vec![0; seats],
            turn: 0,
            phase: Phase::Turn,
            started: vec![false; seats],
            out: vec![false; seats],
            last_round: None,
            relays: 0,
            filler: 0,
            end: None,
            coin: None,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// How many seats.
    pub fn seats(&self) -> usize {
        self.hands.len()
    }

    /// How the match ended, if it did.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The seat whose turn it is.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Seat `seat`'s hand.
    pub fn hand(&self, seat: usize) -> &Hand {
        &self.hands[seat]
    }

    /// The route each seat owns, by route.
    pub fn owners(&self) -> &[Option<usize>] {
        &self.owners
    }

    /// The face-up row.
    pub fn row(&self) -> [Option<Colour>; ROW] {
        self.row
    }

    /// The pile's size.
    pub fn pile_len(&self) -> usize {
        self.pile.as_ref().map_or(0, Vec::len)
    }

    /// The discard's size.
    pub fn discard_len(&self) -> usize {
        self.discard.len()
    }

    /// What chance must draw now, if anything.
    pub(crate) fn chance_needed(&self) -> Option<Chance> {
        if self.pile.is_none() {
            return Some(Chance::Order(card::CARDS as u32));
        }
        if self.deck.is_none() {
            return Some(Chance::Order(self.board.tickets.len() as u32));
        }
        if self.end.is_some() {
            return (self.coin.is_none() && self.coin_decides())
                .then_some(Chance::Order(self.seats() as u32));
        }
        (self.pile_len() == 0 && !self.discard.is_empty())
            .then_some(Chance::Order(self.discard.len() as u32))
    }

    /// Chance drew `drawn` for [`TicketState::chance_needed`].
    pub(crate) fn apply_chance(&mut self, drawn: &Drawn) -> Result<(), String> {
        let (Some(chance), Drawn::Order(order)) = (self.chance_needed(), drawn) else {
            return Err(format!("chance drew {drawn:?} where none is drawn"));
        };
        if !chance.admits(drawn) {
            return Err(format!("chance drew {drawn:?} for {chance:?}"));
        }
        if self.pile.is_none() {
            let deck = card::deck();
            self.pile = Some(order.iter().map(|&i| deck[i as usize]).collect());
        } else if self.deck.is_none() {
            self.deck = Some(order.iter().map(|&i| i as u16).collect());
        } else if self.end.is_some() {
            self.coin = Some(order.clone());
        } else {
            let discard = std::mem::take(&mut self.discard);
            self.pile = Some(order.iter().map(|&i| discard[i as usize]).collect());
        }
        self.settle();
        Ok(())
    }

    /// The pile's top card, if the pile has one.
    pub(crate) fn pop(&mut self) -> Option<Colour> {
        self.pile.as_mut().and_then(Vec::pop)
    }

    /// Deals the hands once both orders are drawn, then fills the row and lays it again on
    /// three locomotives, as far as the pile goes: the rest waits for the discard's
    /// reshuffle (chance), or ends the match when no card is left (rule 20).
    pub(crate) fn settle(&mut self) {
        if self.pile.is_none() || self.deck.is_none() || self.end.is_some() {
            return;
        }
        if !self.dealt {
            for seat in 0..self.seats() {
                for _ in 0..HAND {
                    let card = self.pop().expect("110 cards deal every hand");
                    self.hands[seat][card as usize] += 1;
                }
            }
            self.dealt = true;
        }
        loop {
            if let Some(slot) = self.row.iter().position(Option::is_none) {
                match self.pop() {
                    Some(card) => self.row[slot] = Some(card),
                    None if !self.discard.is_empty() => return,
                    None => {
                        self.end = Some(End::CardsOut {
                            drawer: self.filler,
                        });
                        return;
                    }
                }
            } else if self.row_locomotives() >= ROW_LOCOMOTIVES {
                if self.relays >= ROW_RELAYS {
                    self.end = Some(End::CardsOut {
                        drawer: self.filler,
                    });
                    return;
                }
                self.relays += 1;
                for slot in &mut self.row {
                    self.discard.extend(slot.take());
                }
            } else {
                self.relays = 0;
                return;
            }
        }
    }

    fn row_locomotives(&self) -> usize {
        self.row
            .iter()
            .filter(|c| **c == Some(Colour::Locomotive))
            .count()
    }

    /// A digest of the whole state.
    pub(crate) fn digest(&self) -> u64 {
        let mut b: Vec<u8> = self.board.digest().to_le_bytes().to_vec();
        let list = |b: &mut Vec<u8>, items: &mut dyn Iterator<Item = u8>| {
            let items: Vec<u8> = items.collect();
            b.extend((items.len() as u32).to_le_bytes());
            b.extend(items);
        };
        match &self.pile {
            None => b.push(0),
            Some(pile) => {
                b.push(1);
                list(&mut b, &mut pile.iter().map(|&c| c as u8));
            }
        }
        list(&mut b, &mut self.discard.iter().map(|&c| c as u8));
        list(
            &mut b,
            &mut self.row.iter().map(|c| c.map_or(9, |c| c as u8)),
        );
        match &self.deck {
            None => b.push(0),
            Some(deck) => {
                b.push(1);
                list(&mut b, &mut deck.iter().flat_map(|t| t.to_le_bytes()));
            }
        }
        b.push(self.dealt as u8);
        for seat in 0..self.seats() {
            b.extend(self.hands[seat]);
            list(
                &mut b,
                &mut self.tickets[seat].iter().flat_map(|t| t.to_le_bytes()),
            );
            b.extend(self.wagons[seat].to_le_bytes());
            b.extend(self.points[seat].to_le_bytes());
            b.push(self.started[seat] as u8 | (self.out[seat] as u8) << 1);
        }
        list(
            &mut b,
            &mut self.owners.iter().map(|o| o.map_or(255, |s| s as u8)),
        );
        b.push(self.turn as u8);
        match self.phase {
            Phase::Turn => b.push(0),
            Phase::Second => b.push(1),
            Phase::Choose(t) => {
                b.push(2);
                b.extend(t.iter().flat_map(|t| t.to_le_bytes()));
            }
        }
        match &self.last_round {
            None => b.push(0),
            Some(owed) => {
                b.push(1);
                b.extend(owed.iter().map(|&o| o as u8));
            }
        }
        b.extend(self.relays.to_le_bytes());
        b.push(self.filler as u8);
        match self.end {
            None => b.push(0),
            Some(End::Counted) => b.push(1),
            Some(End::CardsOut { drawer }) => b.extend([2, drawer as u8]),
            Some(End::TicketsOut { drawer }) => b.extend([3, drawer as u8]),
            Some(End::Retired) => b.push(4),
        }
        match &self.coin {
            None => b.push(0),
            Some(order) => {
                b.push(1);
                b.extend(order.iter().map(|&s| s as u8));
            }
        }
        game::fnv1a(&b)
    }

    /// The invariants every state keeps, or the first one broken: the 110 cards are all in
    /// the pile, the discard, the row and the hands (once the pile is made); every ticket is
    /// in the deck, a hand or being chosen (once the deck is made); each seat's wagons and
    /// its routes' lengths add up to the board's wagons, and its points to its routes'.
    pub fn audit(&self) -> Result<(), String> {
        if self.pile.is_some() {
            let mut count = [0usize; 9];
            let held = self.pile.iter().flatten().chain(&self.discard);
            for &c in held.chain(self.row.iter().flatten()) {
                count[c as usize] += 1;
            }
            for hand in &self.hands {
                for c in 0..9 {
                    count[c] += usize::from(hand[c]);
                }
            }
            let expected = |c: usize| match c {
                8 => card::LOCOMOTIVES,
                _ => card::PER_COLOUR,
            };
            if (0..9).any(|c| count[c] != expected(c)) {
                return Err(format!("cards by colour {count:?}, not 12 each and 14"));
            }
        }
        if let Some(deck) = &self.deck {
            let mut seen = vec![0; self.board.tickets.len()];
            let choosing = match self.phase {
                Phase::Choose(t) => t.to_vec(),
                _ => Vec::new(),
            };
            for &t in deck
                .iter()
                .chain(self.tickets.iter().flatten())
                .chain(&choosing)
            {
                seen[usize::from(t)] += 1;
            }
            if seen.iter().any(|&n| n != 1) {
                return Err(format!("tickets seen {seen:?}, not each once"));
            }
        }
        for seat in 0..self.seats() {
            let mine = || {
                self.owners
                    .iter()
                    .enumerate()
                    .filter(move |(_, o)| **o == Some(seat))
                    .map(|(r, _)| self.board.routes[r].length)
            };
            let laid: u32 = mine().map(u32::from).sum();
            if self.wagons[seat] + laid != self.board.wagons {
                return Err(format!(
                    "seat {seat}: {} wagons left and {laid} laid, not {}",
                    self.wagons[seat], self.board.wagons
                ));
            }
            let points: i64 = mine().map(crate::board::route_points).sum();
            if self.points[seat] != points {
                return Err(format!(
                    "seat {seat}: {} points for routes worth {points}",
                    self.points[seat]
                ));
            }
        }
        Ok(())
    }
}
