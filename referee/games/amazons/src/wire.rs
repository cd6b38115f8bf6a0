//! `protocol-amazons.md` on the game model: the Amazons' callbacks (`init_game` to both
//! seats, `jouer` to the seat to move, `end_game`), and what each line of a champion means
//! (questions answered from the board, `deplacer` a move for the rules, `fin`).

use amazons::{Amazons, AmazonsState, Board, Cell, Color, IllegalMove, Move, Square};
use arena::words::Words;
use arena::{Adapter, GameRecord, Line};
use game::Illegal;

/// The `deplacer` request of `m` (protocol-amazons.md section 3).
pub fn deplacer_line(m: Move) -> String {
    let (f, t, a) = (m.from, m.to, m.arrow);
    format!(
        "deplacer {} {} {} {} {} {}",
        f.column(),
        f.row(),
        t.column(),
        t.row(),
        a.column(),
        a.row()
    )
}
/// The board an `etat` answer describes, for the player `me` it was sent to (digits 1 are
/// its amazons), with `me` to move.
pub fn board_from_etat(etat: &str, me: Color) -> Board {
    let cells = std::array::from_fn(|i| match etat.as_bytes().get(i) {
        Some(b'0') => Cell::Empty,
        Some(b'1') => Cell::Amazon(me),
        Some(b'2') => Cell::Amazon(me.other()),
        _ => Cell::Arrow,
    });
    Board::with(cells, me)
}

/// The Amazons' protocol.
pub struct AmazonsWire;

/// The board after each action of `record` (a checked one): the start first.
pub fn boards(record: &GameRecord) -> Vec<Board> {
    let mut board = Board::start();
    let mut boards = vec![board.clone()];
    for action in record.actions() {
        let m: Move = action.parse().expect("a checked record's moves parse");
        board.play(m).expect("a checked record's moves are legal");
        boards.push(board.clone());
    }
    boards
}

/// The colour of `seat`.
fn color(seat: usize) -> Color {
    match seat {
        0 => Color::White,
        _ => Color::Black,
    }
}

/// The page's `case` of `square` for `seat`.
fn case(state: &AmazonsState, seat: usize, square: Square) -> i32 {
    match state.board().cell(square) {
        Cell::Empty => 0,
        Cell::Amazon(c) if c == color(seat) => 1,
        Cell::Amazon(_) => 2,
        Cell::Arrow => 3,
    }
}

impl Adapter for AmazonsWire {
    type Game = Amazons;

    fn game(&self) -> &Amazons {
        &Amazons
    }

    fn read(
        &self,
        state: &AmazonsState,
        seat: usize,
        callback: &str,
        line: &str,
    ) -> Result<Line<Move>, String> {
        // protocol.md section 1's line rules, as every game reads its lines.
        let words = Words::of(line, callback)?;
        let quoted = || jail::fault::quote(words.line.as_bytes());
        let name = words.name();
        // A stray line (a debug print on stdout) is named as such, whatever its words.
        const REQUESTS: [&str; 7] = [
            "case",
            "couleur",
            "numero_coup",
            "mon_tour",
            "deplacer",
            "etat",
            "fin",
        ];
        let unknown = || {
            format!(
                "unknown request `{}` during {callback}: expected case, couleur, numero_coup, \
                 mon_tour, deplacer, etat or fin (protocol-amazons.md section 3); {}",
                quoted(),
                jail::fault::LOGS_ON_STDERR
            )
        };
        if !REQUESTS.contains(&name) {
            return Err(unknown());
        }
        let args = words.integers().ok_or_else(|| {
            format!(
                "`{}` during {callback}: arguments are 32-bit integers (a debug print? logs \
                 belong on stderr)",
                quoted()
            )
        })?;
        let arity = |n: usize| match args.len() == n {
            true => Ok(()),
            false => Err(format!(
                "wrong number of arguments in `{}` during {callback}: `{name}` takes {n}",
                quoted()
            )),
        };
        let my_turn = callback == "jouer"
            && matches!(game::State::acting(state), game::Acting::Seats(s) if s.contains(&seat));
        let answer = match name {
            "fin" => {
                arity(0)?;
                if my_turn {
                    return Err(
                        "ended jouer without a move; a player who can move must move \
                                (protocol-amazons.md section 2)"
                            .to_string(),
                    );
                }
                return Ok(Line::End);
            }
            "etat" => {
                arity(0)?;
                let cases = Square::all()
                    .map(|s| char::from(b'0' + case(state, seat, s) as u8))
                    .collect();
                return Ok(Line::Answer(cases));
            }
            "case" => {
                arity(2)?;
                match (u8::try_from(args[0]), u8::try_from(args[1])) {
                    (Ok(x), Ok(y)) => Square::new(x, y).map_or(-2, |s| case(state, seat, s)),
                    _ => -2,
                }
            }
            "couleur" => {
                arity(0)?;
                i32::from(color(seat) == Color::Black)
            }
            "numero_coup" => {
                arity(0)?;
                state.moves() as i32
            }
            "mon_tour" => {
                arity(0)?;
                i32::from(my_turn)
            }
            "deplacer" => {
                arity(6)?;
                if !my_turn {
                    -1
                } else {
                    let square =
                        |x: i32, y: i32| Square::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?);
                    let (Some(from), Some(to), Some(arrow)) = (
                        square(args[0], args[1]),
                        square(args[2], args[3]),
                        square(args[4], args[5]),
                    ) else {
                        return Ok(Line::Answer("-2".into()));
                    };
                    let m = Move { from, to, arrow };
                    match state.board().check(m) {
                        Ok(()) => return Ok(Line::Act(m)),
                        Err(IllegalMove::NotYourAmazon(_)) => -3,
                        Err(IllegalMove::CannotReach { .. }) => -4,
                        Err(IllegalMove::CannotShoot { .. }) => -5,
                    }
                }
            }
            _ => return Err(unknown()),
        };
        Ok(Line::Answer(answer.to_string()))
    }

    fn answer(&self, answer: &Result<String, Illegal>) -> Option<String> {
        // `deplacer` is checked before it reaches the rules: a move they refuse is a fault.
        answer.as_ref().ok().map(|_| "0".to_string())
    }

    /// The moves, the winning seat (`null`: both faulted), and the number of moves after
    /// which no amazon could reach one of the other colour (each player then only filled
    /// their own region), if that happened.
    fn summary(&self, record: &GameRecord) -> serde_json::Value {
        let boards = boards(record);
        let winner = match record.ranking.winners().as_slice() {
            [w] => Some(*w),
            _ => None,
        };
        serde_json::json!({
            "moves": record.actions().collect::<Vec<_>>(),
            "winner": winner,
            "isolated_after": boards.iter().position(Board::isolated),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Game as _;

    /// protocol-amazons.md's examples of how a line is read (section 3), each fed to the
    /// adapter in White's first `jouer`: read as the canonical line the page gives, or a
    /// fault whose message holds the page's words.
    #[test]
    fn the_protocol_page_s_example_lines_are_read_as_it_says() {
        let state = Amazons
            .start(2, &game::Options::defaults(Amazons.options()))
            .unwrap();
        let rows = arena::wire_examples::check(
            include_str!("../../../../protocol-amazons.md"),
            |line| AmazonsWire.read(&state, 0, "jouer", line),
            |m| deplacer_line(*m),
        );
        assert!(rows >= 10, "{rows} examples read");
    }
}
