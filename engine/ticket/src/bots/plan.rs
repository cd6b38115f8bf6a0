//! What the bots share: whether a route is open to a seat, how to pay for it from a hand,
//! and a plan (the routes to claim to complete its tickets by the shortest paths).

use crate::card::{Colour, ROUTE_COLOURS};
use crate::{connects, Action, Board, Ticket, View};
use std::collections::BinaryHeap;

/// Whether the seat of `view` may claim route `r` (rule 17), its wagons aside.
pub fn claimable(board: &Board, view: &View, r: usize) -> bool {
    if view.owners[r].is_some() {
        return false;
    }
    match board.routes[r].twin.and_then(|t| view.owners[t]) {
        Some(o) if o == view.seat => false,
        Some(_) => view.seats.len() > 3,
        None => true,
    }
}

/// The payment of route `r` from the hand of `view` that uses the fewest locomotives (on a
/// grey route, the colour held most), or `None` if the hand or the wagons do not cover it.
pub fn pay(board: &Board, view: &View, r: usize) -> Option<Action> {
    let route = &board.routes[r];
    if !claimable(board, view, r) || view.seats[view.seat].wagons < u32::from(route.length) {
        return None;
    }
    let locos = view.count(Colour::Locomotive);
    let colour = match route.colour {
        Some(c) => c,
        None => *ROUTE_COLOURS
            .iter()
            .max_by_key(|&&c| (view.count(c), std::cmp::Reverse(c)))?,
    };
    let have = view.count(colour).min(route.length);
    let claim = |colour, locomotives| Action::Claim {
        from: route.from,
        to: route.to,
        colour,
        locomotives,
    };
    match (have, locos) {
        (0, l) if l >= route.length => Some(claim(
            route.colour.unwrap_or(Colour::Locomotive),
            route.length,
        )),
        (0, _) => None,
        (h, l) if h + l >= route.length => Some(claim(colour, route.length - h)),
        _ => None,
    }
}

/// The routes a seat means to claim for its tickets, and what they cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub routes: Vec<usize>,
    /// Wagons the planned routes take.
    pub wagons: u32,
    /// Tickets the plan completes (with the routes it owns), and their points.
    pub reachable: usize,
    pub points: i64,
}

/// The seat's own routes in `view`.
pub fn mine(view: &View) -> Vec<usize> {
    (0..view.owners.len())
        .filter(|&r| view.owners[r] == Some(view.seat))
        .collect()
}

impl Plan {
    /// The plan for `tickets` (the most points first), each by the path of fewest wagons
    /// still to lay through routes the seat owns, has planned or may claim.
    pub fn make(board: &Board, view: &View, tickets: &[Ticket]) -> Plan {
        let owned = mine(view);
        let mut plan = Plan::default();
        let mut order: Vec<&Ticket> = tickets.iter().collect();
        order.sort_by_key(|t| std::cmp::Reverse(t.points));
        for t in order {
            if connects(board, &owned, t.from, t.to) {
                plan.reachable += 1;
                plan.points += t.points;
                continue;
            }
            let cost = |r: usize| -> Option<u32> {
                if view.owners[r] == Some(view.seat) || plan.routes.contains(&r) {
                    Some(0)
                } else if claimable(board, view, r) {
                    Some(u32::from(board.routes[r].length))
                } else {
                    None
                }
            };
            let Some(path) = shortest(board, t.from, t.to, cost) else {
                continue;
            };
            let new: Vec<usize> = path.into_iter().filter(|&r| cost(r) != Some(0)).collect();
            let extra: u32 = new.iter().map(|&r| u32::from(board.routes[r].length)).sum();
            if plan.wagons + extra > view.seats[view.seat].wagons {
                continue;
            }
            plan.wagons += extra;
            plan.reachable += 1;
            plan.points += t.points;
            plan.routes.extend(new);
        }
        plan
    }
}

/// The routes of the cheapest path from `from` to `to` (Dijkstra), each route's cost given
/// by `cost` (`None`: not usable); ties go to the lower city and route numbers.
pub fn shortest(
    board: &Board,
    from: usize,
    to: usize,
    cost: impl Fn(usize) -> Option<u32>,
) -> Option<Vec<usize>> {
    let n = board.cities.len();
    let mut best = vec![u32::MAX; n];
    let mut via: Vec<Option<usize>> = vec![None; n];
    let mut heap = BinaryHeap::new();
    best[from] = 0;
    heap.push(std::cmp::Reverse((0u32, from)));
    while let Some(std::cmp::Reverse((d, city))) = heap.pop() {
        if d > best[city] {
            continue;
        }
        if city == to {
            break;
        }
        for (r, route) in board.routes.iter().enumerate() {
            let next = match city {
                c if c == route.from => route.to,
                c if c == route.to => route.from,
                _ => continue,
            };
            let Some(c) = cost(r) else { continue };
            if d + c < best[next] {
                best[next] = d + c;
                via[next] = Some(r);
                heap.push(std::cmp::Reverse((d + c, next)));
            }
        }
    }
    if best[to] == u32::MAX {
        return None;
    }
    let mut path = Vec::new();
    let mut city = to;
    while city != from {
        let r = via[city]?;
        path.push(r);
        let route = &board.routes[r];
        city = if route.from == city {
            route.to
        } else {
            route.from
        };
    }
    Some(path)
}
