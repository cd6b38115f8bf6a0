//! `strong`: keeps the tickets it can complete for the most points, plans the shortest
//! paths to them (fewest wagons still to lay), claims the planned route it can pay for
//! (the longest first), draws the colours the plan still needs, draws new tickets when its
//! plan is done, and near the end claims what scores most.

use super::plan::{pay, Plan};
use crate::card::{Colour, ROUTE_COLOURS};
use crate::{Action, Board, Ticket, View, DRAWN_TICKETS};

/// The strong player (deterministic: no randomness of its own).
pub struct Strong;

/// Wagons the first tickets may ask for, of the 45 (the rest are for points and for the
/// routes taken from under it).
const FIRST_BUDGET: u32 = 30;
/// Wagons it keeps in hand before it draws more tickets.
const MORE_TICKETS: u32 = 12;

impl Strong {
    pub fn choose(&mut self, board: &Board, view: &View) -> Action {
        match view.phase {
            "first" => Action::Tickets,
            "choose" => self.keep(board, view),
            "second-card" => self.draw(board, view, false),
            _ => self.turn(board, view),
        }
    }

    /// The tickets to keep: of the allowed choices, those the plan completes for the most
    /// points within its budget; if none fits, the cheapest allowed.
    fn keep(&self, board: &Board, view: &View) -> Action {
        let first = view.tickets.is_empty();
        let least = if first { 2 } else { 1 };
        let wagons = view.seats[view.seat].wagons;
        let budget = if first {
            FIRST_BUDGET.min(wagons * 2 / 3)
        } else {
            wagons.saturating_sub(4)
        };
        let mut best: Option<(bool, i64, i64, [bool; 3])> = None;
        for m in 1..8u8 {
            let keep = [m & 1 != 0, m & 2 != 0, m & 4 != 0];
            if keep.iter().filter(|&&k| k).count() < least {
                continue;
            }
            let mut tickets: Vec<Ticket> = view.tickets.clone();
            tickets.extend(
                view.offered
                    .iter()
                    .zip(keep)
                    .filter(|(_, k)| *k)
                    .map(|(t, _)| *t),
            );
            let plan = Plan::make(board, view, &tickets);
            let complete = plan.reachable == tickets.len() && plan.wagons <= budget;
            let key = (
                complete,
                if complete { plan.points } else { 0 },
                -i64::from(plan.wagons),
                keep,
            );
            if best.is_none_or(|b| (key.0, key.1, key.2) > (b.0, b.1, b.2)) {
                best = Some(key);
            }
        }
        Action::Keep(best.map_or([true; DRAWN_TICKETS], |b| b.3))
    }

    fn turn(&self, board: &Board, view: &View) -> Action {
        let plan = Plan::make(board, view, &view.tickets);
        let me = &view.seats[view.seat];
        let ending = view.last_round || view.seats.iter().any(|s| !s.out && s.wagons <= 6);
        // A planned route it can pay for, the longest first.
        let mut planned: Vec<usize> = plan.routes.clone();
        planned.sort_by_key(|&r| std::cmp::Reverse(board.routes[r].length));
        if let Some(claim) = planned.iter().find_map(|&r| pay(board, view, r)) {
            return claim;
        }
        let no_card_left = view.pile == 0 && view.discard == 0;
        if plan.routes.is_empty() || ending || no_card_left {
            if plan.routes.is_empty()
                && !ending
                && me.wagons >= MORE_TICKETS
                && view.ticket_deck >= DRAWN_TICKETS
            {
                return Action::Tickets;
            }
            // Points: the longest route it can pay for.
            let best = (0..board.routes.len())
                .filter_map(|r| pay(board, view, r).map(|a| (board.routes[r].length, a)))
                .max_by_key(|(length, _)| *length);
            if let Some((length, claim)) = best {
                if length >= 3 || ending || no_card_left {
                    return claim;
                }
            }
        }
        self.draw(board, view, true)
    }

    /// A face-up card of a colour the plan lacks, else blind.
    fn draw(&self, board: &Board, view: &View, first: bool) -> Action {
        let plan = Plan::make(board, view, &view.tickets);
        let mut lacking = [0i32; 9];
        let mut grey = 0i32;
        for &r in &plan.routes {
            let route = &board.routes[r];
            match route.colour {
                Some(c) => lacking[c as usize] += i32::from(route.length),
                None => grey += i32::from(route.length),
            }
        }
        for c in ROUTE_COLOURS {
            lacking[c as usize] -= i32::from(view.count(c));
        }
        // Grey routes want one colour gathered: the one held most beyond the coloured
        // routes' needs.
        let gather = ROUTE_COLOURS
            .iter()
            .copied()
            .filter(|&c| lacking[c as usize] <= 0)
            .max_by_key(|&c| (-lacking[c as usize], std::cmp::Reverse(c)));
        let faces: Vec<Colour> = view
            .row
            .iter()
            .flatten()
            .copied()
            .filter(|&c| c != Colour::Locomotive)
            .collect();
        let wanted = faces
            .iter()
            .copied()
            .max_by_key(|&c| (lacking[c as usize], std::cmp::Reverse(c)));
        match wanted {
            Some(c) if lacking[c as usize] > 0 => Action::Take(c),
            _ if grey > 0 && gather.is_some_and(|g| faces.contains(&g)) => {
                Action::Take(gather.expect("some"))
            }
            _ if first
                && lacking.iter().sum::<i32>() > 4
                && view.row.contains(&Some(Colour::Locomotive)) =>
            {
                Action::Take(Colour::Locomotive)
            }
            _ => Action::Blind,
        }
    }
}
