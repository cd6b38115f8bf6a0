//! `protocol-ticket-to-ride.md` on the game model: the callbacks (`init_game` to every
//! seat, `jouer` for each turn, `end_game`), what each line of a champion means (questions
//! answered from what its seat may see, the five moves for the rules, `fin`), and a refused
//! move as the fault that loses the match.

use super::ticket_lines as lines;
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

    fn opening(&self) -> &'static [&'static str] {
        &["init_game"]
    }

    fn closing(&self) -> &'static [&'static str] {
        &["end_game"]
    }

    fn turn(&self, _: &TicketState, _: usize) -> &'static str {
        "jouer"
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
        let line = line.strip_suffix('\r').unwrap_or(line);
        let quoted = || jail::fault::quote(line.as_bytes());
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let name = words.first().copied().unwrap_or("");
        let arity = |n: usize| match words.len() == n + 1 {
            true => Ok(()),
            false => Err(format!(
                "wrong number of arguments in `{}` during {callback}: `{name}` takes {n}",
                quoted()
            )),
        };
        let number = |w: &str| {
            w.parse::<usize>()
                .map_err(|_| format!("`{}` during {callback}: `{w}` is not a number", quoted()))
        };
        let view = || state.observe(seat);
        let board = state.board();
        let answer = match name {
            "fin" => {
                arity(0)?;
                return Ok(Line::End);
            }
            "blind" | "take" | "tickets" | "keep" | "claim" => {
                let action: Action = words
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
                let i = number(words[1])?;
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
                lines::moves(history.steps(), seat, number(words[1])?)
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
        let Ok(state) = super::ticket_play::final_state(record) else {
            return serde_json::Value::Null;
        };
        serde_json::json!({
            "end": state.end().map(|e| format!("{e:?}")),
            "counts": state.count(),
            "moves": record.actions().count(),
        })
    }
}
