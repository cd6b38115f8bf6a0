//! `do-nothing` (the subject's `DO_NOTHING`: draws cards only, half the time blind, half a
//! face-up card that is no locomotive) and `random` (`PLAY_RANDOM`: keeps all its tickets,
//! claims a route it can pay for at random among those that touch a city of its tickets or
//! routes, and otherwise draws as `do-nothing`).

use super::plan::{mine, pay};
use crate::card::Colour;
use crate::{Action, Board, View};

/// Draws as the subject's bots draw: blind or a random face-up card other than a
/// locomotive, one chance in two each (blind when no such card is face up).
fn draw_card(rng: &mut draw::Stream, view: &View) -> Action {
    let faces: Vec<Colour> = view
        .row
        .iter()
        .flatten()
        .copied()
        .filter(|&c| c != Colour::Locomotive)
        .collect();
    match rng.below_u32(2) == 0 || faces.is_empty() {
        true => Action::Blind,
        false => Action::Take(faces[rng.index(faces.len())]),
    }
}

/// The subject's `DO_NOTHING`: its first move draws tickets and keeps the first two (the
/// rules make it: rule 12); then it only draws cards.
pub struct DoNothing {
    rng: draw::Stream,
}

impl DoNothing {
    pub fn new(seed: u64) -> DoNothing {
        DoNothing {
            rng: draw::Stream::new(seed),
        }
    }

    pub fn choose(&mut self, view: &View) -> Action {
        match view.phase {
            "first" => Action::Tickets,
            "choose" => Action::Keep([true, true, false]),
            _ => draw_card(&mut self.rng, view),
        }
    }
}

/// The subject's `PLAY_RANDOM`.
pub struct Random {
    rng: draw::Stream,
}

impl Random {
    pub fn new(seed: u64) -> Random {
        Random {
            rng: draw::Stream::new(seed),
        }
    }

    pub fn choose(&mut self, board: &Board, view: &View) -> Action {
        match view.phase {
            "first" => return Action::Tickets,
            "choose" => return Action::Keep([true, true, true]),
            "turn" => {}
            _ => return draw_card(&mut self.rng, view),
        }
        let mut cities: Vec<usize> = view.tickets.iter().flat_map(|t| [t.from, t.to]).collect();
        for r in mine(view) {
            cities.extend([board.routes[r].from, board.routes[r].to]);
        }
        let near: Vec<Action> = (0..board.routes.len())
            .filter(|&r| {
                let route = &board.routes[r];
                cities.contains(&route.from) || cities.contains(&route.to)
            })
            .filter_map(|r| pay(board, view, r))
            .collect();
        match near.is_empty() {
            true => draw_card(&mut self.rng, view),
            false => near[self.rng.index(near.len())],
        }
    }
}
