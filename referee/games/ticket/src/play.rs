//! Ticket to Ride's parts for the runner ([`Parts`]): a win earns 1 point (the seats
//! after it are counted by place in the leaderboard), the built-in players, a person's
//! seat, what `match` and `show` say of a match; and the states of a checked record. The
//! referee registers it with its replay page.

use crate::wire::TicketWire;
use arena::model::Parts;
use arena::standings::{MatchRow, PointsTable, WIN_LOSS};
use arena::GameRecord;
use game::{Replay, Step};
use ticket::card::ALL;
use ticket::{End, TicketState, TicketToRide};

/// The state after each action of `record` (a checked one): the state before the first
/// action first (chance's draws of the start applied), each action's chance after it.
pub fn states(record: &GameRecord) -> Result<Vec<TicketState>, String> {
    let mut replay =
        Replay::start(&TicketToRide, record.seats.len(), &record.options).map_err(|e| e.0)?;
    let mut states = Vec::new();
    for step in record.history() {
        if matches!(step, Step::Act { answer: Ok(_), .. }) {
            states.push(replay.state().clone());
        }
        replay.step(step).map_err(|e| e.0)?;
    }
    states.push(replay.state().clone());
    Ok(states)
}

/// How a match ended (`end`, its final state's), in words, each seat named by `seat`: the
/// rule that ended it and what ranks the seats, and whether the tickets were counted
/// (`docs/rules-ticket-to-ride.md`, rules 19 to 25). At the ends of rules 20, 21 and 25
/// nothing is counted: every score is the points of the seat's routes, its tickets neither
/// won nor lost, whatever they would have counted.
pub fn how_it_ended(end: Option<End>, seat: &dyn Fn(usize) -> String) -> String {
    const UNCOUNTED: &str = "tickets not counted: each score is the points of the routes";
    match end {
        None => "not yet".into(),
        Some(End::Counted) => {
            "after the last round, every ticket counted (rules 19 and 22 to 24)".into()
        }
        Some(End::CardsOut { drawer }) => format!(
            "no card was left to draw for {} (rule 20): the fewest cards in hand wins, the \
             drawer last among equals; {UNCOUNTED}",
            seat(drawer)
        ),
        Some(End::TicketsOut { drawer }) => format!(
            "fewer than three tickets were left when {} drew (rule 21): the fewest tickets \
             held wins, the drawer first among equals; {UNCOUNTED}",
            seat(drawer)
        ),
        Some(End::Retired) => format!("one player or none was left in (rule 25); {UNCOUNTED}"),
    }
}

/// The state at the end of `record`.
pub fn final_state(record: &GameRecord) -> Result<TicketState, String> {
    states(record).map(|mut s| s.pop().expect("one state at least"))
}

impl Parts for TicketWire {
    fn kits(&self) -> Option<arena::model::KitFolder> {
        Some(arena::model::KitFolder {
            folder: "champions/ticket",
            prefix: "ticket-",
        })
    }
    fn points(&self) -> PointsTable {
        WIN_LOSS
    }

    fn builtins(&self) -> &'static [&'static str] {
        &ticket::bots::NAMES
    }

    fn human(&self) -> Option<Box<dyn arena::human::Driver>> {
        Some(Box::new(crate::human::TicketSeat::new()))
    }

    /// Seat 0 moves first.
    fn check_row(&self, _row: &MatchRow, first_player: u8) -> Result<(), String> {
        match first_player {
            0 => Ok(()),
            n => Err(format!("first_player is {n}, but seat 0 moves first")),
        }
    }

    fn short_title(&self) -> &'static str {
        "Ticket to Ride"
    }

    /// The seats' colours on the replay page.
    fn marks(&self) -> &'static [&'static str] {
        &["Red", "Blue", "Green", "Yellow", "Black"]
    }

    fn no_winner(&self) -> &'static str {
        "every seat faulted"
    }

    fn first_mover(&self) -> &'static str {
        " (seat 0 moves first)"
    }

    /// How the match ended and each seat's count (at an end that counts nothing, its
    /// points from routes, and the tickets and cards that ranked it).
    fn describe(&self, record: &GameRecord) -> Vec<String> {
        let Ok(state) = final_state(record) else {
            return Vec::new();
        };
        let end = state.end();
        let mut lines = vec![format!(
            "ended: {}",
            how_it_ended(end, &|s| format!("seat {s}"))
        )];
        for (seat, c) in state.count().iter().enumerate() {
            lines.push(match end {
                Some(End::Counted) => format!(
                    "seat {seat}: {} points (routes {}, tickets {} with {} of {} completed, longest path {}{})",
                    c.score,
                    c.routes,
                    c.tickets,
                    c.completed.iter().filter(|&&d| d).count(),
                    c.completed.len(),
                    c.longest,
                    if c.bonus > 0 { ", +10 for it" } else { "" }
                ),
                _ => {
                    let view = state.view(seat);
                    let cards: u32 = ALL.iter().map(|&k| u32::from(view.count(k))).sum();
                    format!(
                        "seat {seat}: {} points from routes, {} tickets held, {cards} cards in hand",
                        c.routes,
                        c.completed.len(),
                    )
                }
            });
        }
        lines
    }

    /// The state after `step` actions, every hand shown (a replay is seen after the
    /// match), then the moves that led to it.
    fn show(&self, record: &GameRecord, step: usize) -> String {
        match states(record) {
            Ok(states) => {
                let state = &states[step.min(states.len() - 1)];
                let mut out = text(state);
                out += &recent(state.board(), record, step);
                out
            }
            Err(e) => format!("this record does not replay: {e}\n"),
        }
    }

    fn bot(&self, name: &str) -> anyhow::Result<()> {
        crate::bot::serve(name)
    }
}

/// How many recent moves `show` lists.
const RECENT: usize = 8;

/// `action` for people: a claim with its cities' names.
pub fn named(board: &ticket::Board, action: &str) -> String {
    match action.parse::<ticket::Action>() {
        Ok(ticket::Action::Claim { from, to, .. }) => {
            let city = |c: usize| board.cities.get(c).map_or("?", |c| c.name.as_str());
            format!("{action} ({} - {})", city(from), city(to))
        }
        _ => action.to_string(),
    }
}

/// The moves of `record` that led to the state after `step` actions: the last few.
fn recent(board: &ticket::Board, record: &GameRecord, step: usize) -> String {
    let moves = arena::model::recent_moves(record, step, RECENT);
    let mut out = String::new();
    if !moves.is_empty() {
        out += "recent moves:\n";
    }
    for (seat, action) in moves {
        out += &format!("  seat {seat}: {}\n", named(board, &action));
    }
    out
}

/// A state as text: whose turn, the row and the pile, each seat's hand, tickets (`done`
/// once its own routes join the cities), wagons and points, and the claimed routes.
pub fn text(state: &TicketState) -> String {
    let board = state.board();
    let view = state.view(0);
    let city = |c: usize| board.cities[c].name.as_str();
    let mut out = format!(
        "turn: seat {} ({}){}{}\nrow: {}\npile {}, discard {}, tickets {}\n",
        view.turn,
        view.phase,
        if view.last_round { ", last round" } else { "" },
        if view.over { ", over" } else { "" },
        crate::lines::row(&view),
        view.pile,
        view.discard,
        view.ticket_deck
    );
    for seat in 0..state.seats() {
        let v = state.view(seat);
        let hand: Vec<String> = ALL
            .iter()
            .filter(|&&c| v.count(c) > 0)
            .map(|&c| format!("{} {c}", v.count(c)))
            .collect();
        let own: Vec<usize> = (0..board.routes.len())
            .filter(|&r| state.owners()[r] == Some(seat))
            .collect();
        let tickets: Vec<String> = v
            .tickets
            .iter()
            .map(|t| {
                let done = ticket::connects(board, &own, t.from, t.to);
                format!(
                    "{}-{} ({}{})",
                    city(t.from),
                    city(t.to),
                    t.points,
                    if done { ", done" } else { "" }
                )
            })
            .collect();
        let s = &v.seats[seat];
        out += &format!(
            "seat {seat}{}: {} wagons, {} points; hand: {}; tickets: {}\n",
            if s.out { " (out)" } else { "" },
            s.wagons,
            s.points,
            if hand.is_empty() {
                "none".into()
            } else {
                hand.join(", ")
            },
            if tickets.is_empty() {
                "none".into()
            } else {
                tickets.join(", ")
            },
        );
    }
    for (r, owner) in state.owners().iter().enumerate() {
        if let Some(o) = owner {
            let route = &board.routes[r];
            out += &format!(
                "route {} - {} ({}, {}): seat {o}\n",
                city(route.from),
                city(route.to),
                route.length,
                route.colour.map_or("grey", |c| c.name())
            );
        }
    }
    out
}
