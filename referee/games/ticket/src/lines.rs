//! The text of Ticket to Ride's answers (`protocol-ticket-to-ride.md` section 3), each on
//! one line: the board in its file format, the routes, a seat's hand, the face-up row, the
//! seats, tickets, and the match's moves in the form a seat may see them.

use game::Step;
use ticket::card::ALL;
use ticket::{Board, Colour, Ticket, TicketState, View};

/// The board in the board file format (what `Board::parse` reads back), on one line:
/// the board a champion plays whatever file the referee read it from.
pub fn board_json(board: &Board) -> String {
    let colour = |c: Option<Colour>| match c {
        None => "Multicolor".to_string(),
        Some(c) => {
            let name = c.name();
            name[..1].to_ascii_uppercase() + &name[1..]
        }
    };
    let name = |i: usize| board.cities[i].name.clone();
    let mut tracks = Vec::new();
    for (i, r) in board.routes.iter().enumerate() {
        match r.twin {
            Some(t) if t < i => continue,
            Some(t) => tracks.push(serde_json::json!({
                "from": name(r.from), "to": name(r.to), "length": r.length,
                "colors": [colour(r.colour), colour(board.routes[t].colour)],
            })),
            None => tracks.push(serde_json::json!({
                "from": name(r.from), "to": name(r.to), "length": r.length,
                "colors": [colour(r.colour)],
            })),
        }
    }
    let value = serde_json::json!({
        "map": board.name,
        "wagons_per_player": board.wagons,
        "cities": board.cities.iter().map(|c| serde_json::json!({
            "name": c.name, "x": c.x, "y": c.y,
        })).collect::<Vec<_>>(),
        "tracks": tracks,
        "objectives": board.tickets.iter().map(|t| serde_json::json!({
            "from": name(t.from), "to": name(t.to), "points": t.points,
        })).collect::<Vec<_>>(),
    });
    serde_json::to_string(&value).expect("JSON values serialise")
}

/// A route's colour on the wire: its name, `grey` for a grey route.
fn route_colour(c: Option<Colour>) -> &'static str {
    c.map_or("grey", Colour::name)
}

/// Every route, six words each: `from to length colour twin owner` (`-1`: none).
pub fn routes(state: &TicketState) -> String {
    let board = state.board();
    let signed = |o: Option<usize>| o.map_or(-1, |n| n as i64);
    board
        .routes
        .iter()
        .zip(state.owners())
        .map(|(r, &owner)| {
            format!(
                "{} {} {} {} {} {}",
                r.from,
                r.to,
                r.length,
                route_colour(r.colour),
                signed(r.twin),
                signed(owner)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The cards of each colour a seat holds, in colour order (purple ... locomotive).
pub fn hand(view: &View) -> String {
    words(ALL.iter().map(|&c| view.count(c)))
}

/// The five face-up cards, `none` for an empty place.
pub fn row(view: &View) -> String {
    words(view.row.iter().map(|c| c.map_or("none", Colour::name)))
}

/// `n` then each ticket's `from to points`.
pub fn tickets(list: &[Ticket]) -> String {
    let mut out = list.len().to_string();
    for t in list {
        out += &format!(" {} {} {}", t.from, t.to, t.points);
    }
    out
}

/// Whose turn, the phase of it, and the public counts: `turn phase last_round over pile
/// discard ticket_deck`.
pub fn status(view: &View) -> String {
    format!(
        "{} {} {} {} {} {} {}",
        view.turn,
        view.phase,
        u8::from(view.last_round),
        u8::from(view.over),
        view.pile,
        view.discard,
        view.ticket_deck
    )
}

/// Each seat's `cards tickets wagons points out`, in seat order.
pub fn seats(view: &View) -> String {
    view.seats
        .iter()
        .map(|s| {
            format!(
                "{} {} {} {} {}",
                s.cards,
                s.tickets,
                s.wagons,
                s.points,
                u8::from(s.out)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The moves of the match as `seat` may see them, from the `from`-th on: the count of all
/// of them, then `;<seat> <move>` each (section 4).
pub fn moves<'a>(steps: impl Iterator<Item = &'a Step>, seat: usize, from: usize) -> String {
    let public: Vec<String> = steps.filter_map(|s| public_move(s, seat)).collect();
    let mut out = public.len().to_string();
    for m in public.iter().skip(from) {
        out.push(';');
        out += m;
    }
    out
}

/// One step as `seat` sees it: a card drawn blind is told to its drawer only, tickets are
/// told by their number; chance's draws and refused moves are no moves.
pub fn public_move(step: &Step, seat: usize) -> Option<String> {
    match step {
        Step::Chance(_) | Step::Act { answer: Err(_), .. } => None,
        Step::Retire(s) => Some(format!("{s} leave")),
        Step::Act {
            seat: s,
            action,
            answer: Ok(answer),
        } => {
            let shown = match action.split(' ').next() {
                Some("blind") if *s == seat && answer.parse::<Colour>().is_ok() => {
                    format!("blind {answer}")
                }
                Some("keep") => format!("keep {answer}"),
                _ => action.clone(),
            };
            Some(format!("{s} {shown}"))
        }
    }
}

fn words<T: ToString>(items: impl Iterator<Item = T>) -> String {
    items.map(|i| i.to_string()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_line_reads_back_as_the_board() {
        for name in ticket::BUILT_IN {
            let board = Board::built_in(name).unwrap();
            let line = board_json(&board);
            assert!(!line.contains('\n'));
            assert_eq!(Board::parse(&line).unwrap(), board, "{name}");
        }
    }

    #[test]
    fn a_blind_card_is_told_to_its_drawer_only() {
        let step = |action: &str, answer: &str| Step::Act {
            seat: 1,
            action: action.into(),
            answer: Ok(answer.into()),
        };
        assert_eq!(
            public_move(&step("blind", "red"), 1).unwrap(),
            "1 blind red"
        );
        assert_eq!(public_move(&step("blind", "red"), 0).unwrap(), "1 blind");
        assert_eq!(
            public_move(&step("tickets", "1 2 5, 3 4 6, 0 7 9"), 0).unwrap(),
            "1 tickets"
        );
        assert_eq!(
            public_move(&step("keep 1 0 1", "2"), 0).unwrap(),
            "1 keep 2"
        );
        assert_eq!(public_move(&Step::Retire(0), 1).unwrap(), "0 leave");
        let steps = [
            step("tickets", "x"),
            step("keep 1 1 0", "2"),
            step("take red", "red"),
        ];
        assert_eq!(moves(steps.iter(), 0, 1), "3;1 keep 2;1 take red");
        assert_eq!(moves(steps.iter(), 0, 3), "3");
    }
}
