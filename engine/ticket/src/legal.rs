//! The moves a seat may make, from what it sees (rule 26): its [`View`] and the board are
//! enough, so that the rules ([`crate::TicketState::legal`]) and a seat's own side (a
//! person's seat refusing an illegal move before it is sent) count them one way.

use crate::action::Action;
use crate::board::Board;
use crate::card::{Colour, ROUTE_COLOURS};
use crate::view::View;

/// Why `seat` may not claim route `r` of `board`, whose owners are `owners`, in a match of
/// `seats` seats, if it may not (taken; the twin taken, at 2 and 3 seats; the twin its
/// own, at 4 and 5: rule 17).
pub(crate) fn why_closed(
    board: &Board,
    owners: &[Option<usize>],
    seats: usize,
    seat: usize,
    r: usize,
) -> Option<String> {
    if let Some(owner) = owners[r] {
        return Some(format!("it is taken (by seat {owner})"));
    }
    let twin = board.routes[r].twin?;
    match owners[twin] {
        Some(o) if o == seat => {
            Some("you own its other track: nobody claims both tracks of a double route".into())
        }
        Some(o) if seats <= 3 => Some(format!(
            "seat {o} took its other track: at 2 and 3 seats a double route is claimed once"
        )),
        _ => None,
    }
}

impl View {
    /// The moves this seat may make now on `board`, each payment of a route in one
    /// spelling: what the rules accept of it, no more.
    pub fn legal(&self, board: &Board) -> Vec<Action> {
        if !self.to_move {
            return Vec::new();
        }
        match self.phase {
            "choose" => {
                // A seat that has kept tickets has started: it keeps one at least.
                let least = if self.tickets.is_empty() { 2 } else { 1 };
                (1..8u8)
                    .map(|m| [m & 1 != 0, m & 2 != 0, m & 4 != 0])
                    .filter(|k| k.iter().filter(|&&b| b).count() >= least)
                    .map(Action::Keep)
                    .collect()
            }
            "first" => vec![Action::Tickets],
            phase => {
                let second = phase == "second-card";
                let mut actions = vec![Action::Blind];
                let mut seen = Vec::new();
                for c in self.row.iter().flatten() {
                    let loco_second = second && *c == Colour::Locomotive;
                    if !seen.contains(c) && !loco_second {
                        seen.push(*c);
                        actions.push(Action::Take(*c));
                    }
                }
                if !second {
                    actions.push(Action::Tickets);
                    for r in 0..board.routes.len() {
                        for a in self.payments(board, r) {
                            if !actions.contains(&a) {
                                actions.push(a);
                            }
                        }
                    }
                }
                actions
            }
        }
    }

    /// Why this seat may not claim route `r` of `board`, if it may not.
    pub fn why_closed(&self, board: &Board, r: usize) -> Option<String> {
        why_closed(board, &self.owners, self.seats.len(), self.seat, r)
    }

    /// Every way this seat may pay for route `r` now: for each colour it may use, from the
    /// fewest locomotives to the most, at least one card of the colour; and all
    /// locomotives (spelled `locomotive` on a grey route, the route's colour otherwise).
    fn payments(&self, board: &Board, r: usize) -> Vec<Action> {
        let route = &board.routes[r];
        if self.why_closed(board, r).is_some()
            || self.seats[self.seat].wagons < u32::from(route.length)
        {
            return Vec::new();
        }
        let length = route.length;
        let locos = self.count(Colour::Locomotive);
        let claim = |colour, locomotives| Action::Claim {
            from: route.from,
            to: route.to,
            colour,
            locomotives,
        };
        let colours: Vec<Colour> = match route.colour {
            Some(c) => vec![c],
            None => ROUTE_COLOURS.to_vec(),
        };
        let mut out = Vec::new();
        for c in colours {
            let have = self.count(c);
            if have == 0 {
                continue;
            }
            let fewest = length.saturating_sub(have);
            for l in fewest..=locos.min(length - 1) {
                out.push(claim(c, l));
            }
        }
        if locos >= length {
            out.push(claim(route.colour.unwrap_or(Colour::Locomotive), length));
        }
        out
    }
}
