//! `protocol-ticket-to-ride.md` on the game model: the callbacks (`init_game` to every
//! seat, `jouer` for each turn, `end_game`), what each line of a champion means (questions
//! answered from what its seat may see, the five moves for the rules, `fin`), and a refused
//! move as the fault that loses the match.

use crate::lines;
use arena::words::{integer, Words};
use arena::{Adapter, GameRecord, History, Line};
use game::{Illegal, State as _};
use ticket::{Action, TicketState, TicketToRide, FORMS};

/// Ticket to Ride's protocol.
pub struct TicketWire;

/// The questions, for the fault of an unknown request.
const QUESTIONS: &str =
    "game, board, city, routes, hand, row, status, seats, objectives, offered, moves, view, result";

impl Adapter for TicketWire {
    type Game = TicketToRide;

    fn game(&self) -> &TicketToRide {
        &TicketToRide
    }

    /// Without the match's history (the arena always reads with it: `read_with`), `moves`
    /// would answer none.
    fn read(
        &self,
        state: &TicketState,
        seat: usize,
        callback: &str,
        line: &str,
    ) -> Result<Line<Action>, String> {
        self.read_with(state, History::empty(), seat, callback, line)
    }

    fn read_with(
        &self,
        state: &TicketState,
        history: History<'_>,
        seat: usize,
        callback: &str,
        line: &str,
    ) -> Result<Line<Action>, String> {
        // protocol.md section 1's line rules, as every game reads its lines.
        let words = Words::of(line, callback)?;
        let quoted = || jail::fault::quote(words.line.as_bytes());
        let name = words.name();
        let arity = |n: usize| match words.arguments().len() == n {
            true => Ok(()),
            false => Err(format!(
                "wrong number of arguments in `{}` during {callback}: `{name}` takes {n}",
                quoted()
            )),
        };
        let number = |w: &str| {
            integer(w)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    format!(
                        "`{}` during {callback}: `{}` is not a number from 0 to {}",
                        quoted(),
                        jail::fault::quote(w.as_bytes()),
                        i32::MAX
                    )
                })
        };
        let view = || state.observe(seat);
        let board = state.board();
        let answer = match name {
            "fin" => {
                arity(0)?;
                return Ok(Line::End);
            }
            "blind" | "take" | "tickets" | "keep" | "claim" => {
                // Its numbers read as every integer is (a sign, leading zeros), the move
                // in its canonical form for the rules.
                let canonical: Vec<String> = words
                    .words
                    .iter()
                    .map(|&w| integer(w).map_or_else(|| w.to_string(), |n| n.to_string()))
                    .collect();
                let action: Action = canonical
                    .join(" ")
                    .parse()
                    .map_err(|e| format!("`{}` during {callback}: {e}", quoted()))?;
                return Ok(Line::Act(action));
            }
            "game" => {
                arity(0)?;
                format!(
                    "{} {seat} {} {} {} {}",
                    state.seats(),
                    board.cities.len(),
                    board.routes.len(),
                    board.tickets.len(),
                    board.wagons
                )
            }
            "board" => {
                arity(0)?;
                lines::board_json(board)
            }
            "city" => {
                arity(1)?;
                let i = number(words.arguments()[0])?;
                match board.cities.get(i) {
                    Some(c) => c.name.clone(),
                    None => {
                        return Err(format!(
                            "`{}` during {callback}: the cities are numbered 0 to {}",
                            quoted(),
                            board.cities.len() - 1
                        ))
                    }
                }
            }
            "routes" => {
                arity(0)?;
                lines::routes(state)
            }
            "hand" => {
                arity(0)?;
                lines::hand(&view())
            }
            "row" => {
                arity(0)?;
                lines::row(&view())
            }
            "status" => {
                arity(0)?;
                lines::status(&view())
            }
            "seats" => {
                arity(0)?;
                lines::seats(&view())
            }
            "objectives" => {
                arity(0)?;
                lines::tickets(&view().tickets)
            }
            "offered" => {
                arity(0)?;
                lines::tickets(&view().offered)
            }
            "moves" => {
                arity(1)?;
                lines::moves(history.steps(), seat, number(words.arguments()[0])?)
            }
            "view" => {
                arity(0)?;
                serde_json::to_string(&view()).expect("a view serialises")
            }
            "result" => {
                arity(0)?;
                match state.ranking() {
                    None => "-1".to_string(),
                    Some(r) => r
                        .places
                        .iter()
                        .zip(&r.scores)
                        .map(|(p, s)| format!("{p} {s}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                }
            }
            _ => {
                return Err(format!(
                    "unknown request `{}` during {callback}: expected a move ({FORMS}), \
                     fin, or a question ({QUESTIONS}) (protocol-ticket-to-ride.md sections 3 \
                     and 4); {}",
                    quoted(),
                    jail::fault::LOGS_ON_STDERR
                ))
            }
        };
        Ok(Line::Answer(answer))
    }

    /// A move the rules refuse is a fault (the seat leaves the match, rule 25).
    fn answer(&self, answer: &Result<String, Illegal>) -> Option<String> {
        answer.as_ref().ok().cloned()
    }

    /// Each seat's count at the end (routes, tickets won and lost, which tickets it
    /// completed, its longest path, the bonus, the score), how the match ended, and the
    /// moves played.
    fn summary(&self, record: &GameRecord) -> serde_json::Value {
        let Ok(state) = crate::play::final_state(record) else {
            return serde_json::Value::Null;
        };
        serde_json::json!({
            "end": state.end().map(|e| format!("{e:?}")),
            "counts": state.count(),
            "moves": record.actions().count(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{Acting, Game as _};

    /// protocol-ticket-to-ride.md's examples of how a line is read (section 4), each fed to
    /// the adapter in the first `jouer` of a match on the small board: read as the canonical
    /// line the page gives, or a fault whose message holds the page's words.
    #[test]
    fn the_protocol_page_s_example_lines_are_read_as_it_says() {
        let options =
            game::Options::parse(TicketToRide.options(), &["board=small".to_string()]).unwrap();
        let mut state = TicketToRide.start(2, &options).unwrap();
        let mut stream = draw::Stream::new(28);
        while let Acting::Chance(c) = state.acting() {
            state.chance(&c.draw(2, &mut stream)).unwrap();
        }
        let Acting::Seats(seats) = state.acting() else {
            panic!("a match starts with a turn")
        };
        let rows = arena::wire_examples::check(
            include_str!("../../../../protocol-ticket-to-ride.md"),
            |line| TicketWire.read(&state, seats[0], "jouer", line),
            Action::to_string,
        );
        assert!(rows >= 10, "{rows} examples read");
    }
}
