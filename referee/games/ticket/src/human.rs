//! The human seat's driver for Ticket to Ride (protocol-ticket-to-ride.md): at each move of
//! the person's turn, the others' moves since their last turn, what their seat sees (the
//! face-up row, their hand and tickets, every seat's counts) and their legal moves
//! numbered, counted from that view as the rules count them ([`ticket::View::legal`]). They
//! type a number or a move's text; a move that is not legal is refused here with the
//! reason, never sent (the rules make it a fault that loses the match); a legal one is
//! sent, its answer shown, and the turn goes on until it is over.

use crate::bot::view_from_json;
use arena::human::{Driver, Turn};
use ticket::card::ALL;
use ticket::{Action, Board, Colour, View};

/// The legal moves shown at once; `legal` lists them all.
const SHOWN: usize = 40;

/// The person's side of one seat of Ticket to Ride.
#[derive(Default)]
pub struct TicketSeat {
    callback: String,
    board: Option<Board>,
    view: Option<View>,
    legal: Vec<Action>,
    /// The moves of the match already shown.
    seen: usize,
}

impl TicketSeat {
    pub fn new() -> TicketSeat {
        TicketSeat::default()
    }

    fn city(&self, c: usize) -> String {
        self.board
            .as_ref()
            .and_then(|b| b.cities.get(c))
            .map_or(format!("city {c}"), |c| c.name.clone())
    }

    /// `action` with the cities' names and the route's length and points.
    fn described(&self, action: &Action) -> String {
        let Action::Claim { from, to, .. } = *action else {
            return action.to_string();
        };
        let length = self
            .board
            .as_ref()
            .and_then(|b| b.between(from, to).next().map(|r| b.routes[r].length));
        match length {
            Some(l) => format!(
                "{action}  ({} - {}, {l} wagons, {} points)",
                self.city(from),
                self.city(to),
                ticket::route_points(l)
            ),
            None => action.to_string(),
        }
    }

    /// The legal moves, numbered from 1; the first `most` of them.
    fn listed(&self, most: usize) -> String {
        let mut out = String::new();
        for (i, a) in self.legal.iter().enumerate().take(most) {
            out.push_str(&format!("  {:>3}. {}\n", i + 1, self.described(a)));
        }
        if self.legal.len() > most {
            out.push_str(&format!(
                "  ... and {} more: `legal` lists them all\n",
                self.legal.len() - most
            ));
        }
        out
    }

    /// What the seat sees, as text.
    fn situation(&self, view: &View) -> String {
        let ticket = |t: &ticket::Ticket| {
            format!("{} - {} ({})", self.city(t.from), self.city(t.to), t.points)
        };
        let hand: Vec<String> = ALL
            .iter()
            .filter(|&&c| view.count(c) > 0)
            .map(|&c| format!("{} {c}", view.count(c)))
            .collect();
        let row: Vec<&str> = view
            .row
            .iter()
            .map(|c| c.map_or("none", Colour::name))
            .collect();
        let mut out = format!(
            "row: {}; pile {}, discard {}, tickets left {}{}\n",
            row.join(", "),
            view.pile,
            view.discard,
            view.ticket_deck,
            if view.last_round { "; last round" } else { "" }
        );
        out += &format!(
            "your hand: {}\n",
            if hand.is_empty() {
                "no card".to_string()
            } else {
                hand.join(", ")
            }
        );
        let tickets: Vec<String> = view.tickets.iter().map(ticket).collect();
        out += &format!(
            "your tickets: {}\n",
            if tickets.is_empty() {
                "none yet".to_string()
            } else {
                tickets.join("; ")
            }
        );
        for (i, t) in view.offered.iter().enumerate() {
            out += &format!("offered ticket {}: {}\n", i + 1, ticket(t));
        }
        for (s, seat) in view.seats.iter().enumerate() {
            let routes: Vec<String> = view
                .owners
                .iter()
                .enumerate()
                .filter(|(_, o)| **o == Some(s))
                .filter_map(|(r, _)| {
                    let route = self.board.as_ref()?.routes.get(r)?;
                    Some(format!("{}-{}", self.city(route.from), self.city(route.to)))
                })
                .collect();
            out += &format!(
                "seat {s}{}: {} wagons, {} points, {} cards, {} tickets{}; routes: {}\n",
                if s == view.seat { " (you)" } else { "" },
                seat.wagons,
                seat.points,
                seat.cards,
                seat.tickets,
                if seat.out { ", out" } else { "" },
                if routes.is_empty() {
                    "none".to_string()
                } else {
                    routes.join(", ")
                }
            );
        }
        out
    }

    /// Why `action`, which is not legal now, is refused.
    fn why_not(&self, action: &Action) -> String {
        let Some(view) = &self.view else {
            return "wait for your turn".into();
        };
        match (view.phase, action) {
            _ if !view.to_move => "it is not your turn".into(),
            ("first", _) => {
                "your first move draws tickets (`tickets`), and keeps at least two".into()
            }
            ("choose", Action::Keep(_)) => format!(
                "keep at least {} of the offered tickets (1 keeps one, 0 returns it)",
                if view.tickets.is_empty() { 2 } else { 1 }
            ),
            ("choose", _) => "you drew tickets: now keep some (`keep 1 0 1`)".into(),
            (_, Action::Keep(_)) => "`keep` follows `tickets` only".into(),
            ("second-card", Action::Take(Colour::Locomotive)) => {
                "a face-up locomotive cannot be your second card".into()
            }
            ("second-card", _) => "your second card: `blind`, or `take COLOUR` of the row".into(),
            (_, Action::Take(c)) => format!("no {c} card is face up"),
            (_, Action::Claim { from, to, .. }) => {
                let Some(board) = &self.board else {
                    return "no board yet".into();
                };
                let routes: Vec<usize> = board.between(*from, *to).collect();
                if routes.is_empty() {
                    return format!("no route joins {} and {}", self.city(*from), self.city(*to));
                }
                if let Some(why) = routes
                    .iter()
                    .map(|&r| view.why_closed(board, r))
                    .collect::<Option<Vec<String>>>()
                {
                    return format!("it cannot be claimed: {}", why[0]);
                }
                "your hand and wagons do not pay it so (the route's colour, or any one colour \
                 on a grey route, locomotives as jokers): see the claims in the list"
                    .into()
            }
            _ => "it is not one of your legal moves now".into(),
        }
    }

    /// The moves of the others told by a `moves N` answer, with the cities' names.
    fn told(&mut self, answer: &str) -> String {
        let mut parts = answer.split(';');
        let total = parts
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(self.seen);
        self.seen = total;
        let me = self.view.as_ref().map(|v| v.seat);
        let mut out = String::new();
        for m in parts {
            let Some((seat, text)) = m.split_once(' ') else {
                continue;
            };
            if seat.parse().ok() == me {
                continue;
            }
            let shown = match text.parse::<Action>() {
                Ok(a) => self.described(&a),
                Err(_) => text.to_string(),
            };
            out += &format!("seat {seat} played {shown}\n");
        }
        out
    }
}

const HELP: &str = "\
Your turn is one of: draw two cards (`blind` from the pile, or `take COLOUR` from the
face-up row; a face-up locomotive is the whole turn), draw tickets (`tickets`, then
`keep 1 0 1` to keep the first and the third), or claim a route (`claim A B COLOUR N`: the
cities' numbers, the colour of the cards you pay, N of them locomotives).
Type the number of a move in the list, or its text. Also:
  view        what you see again
  legal       every legal move, numbered
  help        this list
End of input (Ctrl-D) gives up the match: you are placed last.";

impl Driver for TicketSeat {
    fn begin(&mut self, callback: &str) -> Turn {
        self.callback = callback.to_string();
        self.legal.clear();
        match callback {
            "init_game" => Turn::say(
                "You play Ticket to Ride from this terminal: type `help` at the prompt for \
                 how to play.",
            )
            .then(["board", "view", "fin"]),
            "end_game" => Turn::send(["view", "result", "fin"]),
            _ => Turn::send([format!("moves {}", self.seen), "view".to_string()]),
        }
    }

    fn answer(&mut self, request: &str, answer: &str) -> Turn {
        let name = request.split(' ').next().unwrap_or("");
        match name {
            "board" => match Board::parse(answer) {
                Ok(board) => {
                    let said = format!(
                        "the board: {} cities, {} routes",
                        board.cities.len(),
                        board.routes.len()
                    );
                    self.board = Some(board);
                    Turn::say(said)
                }
                Err(e) => Turn::say(format!("the board does not read: {e}")),
            },
            "moves" => Turn::say(self.told(answer)),
            "view" => {
                let Some(view) = view_from_json(answer) else {
                    return Turn::say("the referee's view does not read");
                };
                let turn = match self.callback.as_str() {
                    "init_game" => {
                        Turn::say(format!("You are seat {}; seat 0 moves first.", view.seat))
                    }
                    "jouer" if view.to_move => {
                        self.legal = self.board.as_ref().map_or_else(Vec::new, |b| view.legal(b));
                        Turn::say(format!(
                            "\n== your move ({}) ==\n{}your legal moves:\n{}type a number or \
                             a move, or `help`",
                            view.phase,
                            self.situation(&view),
                            self.listed(SHOWN)
                        ))
                    }
                    "jouer" => Turn::say("your turn is over").then(["fin"]),
                    _ => Turn::say(format!(
                        "\n== the match is over ==\n{}",
                        self.situation(&view)
                    )),
                };
                self.view = Some(view);
                turn
            }
            "result" => {
                let words: Vec<&str> = answer.split(' ').collect();
                let mut say = String::new();
                for (s, pair) in words.chunks(2).enumerate() {
                    if let [place, score] = pair {
                        say += &format!("seat {s}: place {place}, {score} points\n");
                    }
                }
                Turn::say(say)
            }
            "blind" | "take" | "tickets" | "keep" | "claim" => {
                Turn::say(format!("{request} -> {answer}")).then(["view"])
            }
            _ => Turn::say(format!("{request} -> {answer}")),
        }
    }

    fn typed(&mut self, line: &str) -> Turn {
        match line {
            "" => Turn::default(),
            "help" | "?" => Turn::say(HELP),
            "view" | "board" => Turn::send(["view"]),
            "legal" => Turn::say(self.listed(usize::MAX)),
            "fin" => Turn::say("your turn is not over: type a move, or `help`"),
            _ if self.callback != "jouer" || self.legal.is_empty() => {
                Turn::say("wait for your turn")
            }
            _ => {
                let action = match line.parse::<usize>() {
                    Ok(n) => match n.checked_sub(1).and_then(|i| self.legal.get(i)) {
                        Some(a) => *a,
                        None => {
                            return Turn::say(format!(
                                "there is no move {n}: the list goes from 1 to {}",
                                self.legal.len()
                            ))
                        }
                    },
                    Err(_) => match line.parse::<Action>() {
                        Ok(a) => a,
                        Err(e) => return Turn::say(format!("not sent: {e}")),
                    },
                };
                if !self.legal.contains(&action) {
                    return Turn::say(format!(
                        "`{action}` refused, not sent (the rules would end your match for \
                         it): {}",
                        self.why_not(&action)
                    ));
                }
                self.legal.clear();
                Turn::send([action.to_string()])
            }
        }
    }

    fn prompt(&self) -> String {
        "move> ".to_string()
    }
}
