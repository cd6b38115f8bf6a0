//! The human seat's driver for the Game of the Amazons (protocol-amazons.md): the board
//! with its coordinates (a..j, 1..10) and the opponent's last move at each `jouer`; the
//! person types a move as `d1-d7/g7` or `d1 d7 g7`, sent as `deplacer`; a refused one is
//! shown with its code's name and the reason the `amazons` crate gives, and they try again;
//! a played one ends the callback. `init_game` and `end_game` need no one.

use crate::wire::{board_from_etat, deplacer_line};
use amazons::{Board, Cell, Color, Move, Square};
use arena::human::{Driver, Turn};
use std::fmt::Write;

/// The person's side of one seat of the Amazons.
#[derive(Default)]
pub struct AmazonsSeat {
    callback: String,
    me: Option<Color>,
    board: Option<Board>,
    /// The board after the person's last move (the start before any), to tell the
    /// opponent's move that followed.
    before: Option<Board>,
    /// The move sent, waiting for its answer.
    trying: Option<Move>,
    moves_played: usize,
}

impl AmazonsSeat {
    pub fn new() -> AmazonsSeat {
        AmazonsSeat::default()
    }

    fn me(&self) -> Color {
        self.me.unwrap_or(Color::White)
    }

    /// The board of an `etat` answer, with `to_move` to play.
    fn board_of(&self, etat: &str, to_move: Color) -> Board {
        let seen = board_from_etat(etat, self.me());
        let cells = std::array::from_fn(|i| seen.cell(Square::from_index(i).expect("on board")));
        Board::with(cells, to_move)
    }

    /// The board shown to the person.
    fn show(&self, board: &Board) -> String {
        let (mine, theirs) = match self.me() {
            Color::White => ("W", "B"),
            Color::Black => ("B", "W"),
        };
        format!("{board}(your amazons are {mine}, your opponent's {theirs}, x are arrows)\n")
    }

    /// A typed move, or why it is not one.
    fn parse_move(line: &str) -> Result<Move, String> {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        match words.as_slice() {
            [one] => one.parse(),
            [from, to, arrow] => {
                let square = |s: &str| s.parse::<Square>().map_err(|e| e.to_string());
                Ok(Move {
                    from: square(from)?,
                    to: square(to)?,
                    arrow: square(arrow)?,
                })
            }
            _ => Err(format!(
                "`{line}` is not a move: write from-to/arrow (d1-d7/g7) or the three squares \
                 (d1 d7 g7); `help` for more"
            )),
        }
    }

    /// The opponent's move between `before` and `after`, if they differ by one.
    fn their_move(&self, before: &Board, after: &Board) -> Option<Move> {
        let them = Cell::Amazon(self.me().other());
        let find = |f: &dyn Fn(Square) -> bool| Square::all().find(|&s| f(s));
        Some(Move {
            from: find(&|s| before.cell(s) == them && after.cell(s) != them)?,
            to: find(&|s| after.cell(s) == them && before.cell(s) != them)?,
            arrow: find(&|s| after.cell(s) == Cell::Arrow && before.cell(s) != Cell::Arrow)?,
        })
    }
}

/// The name of a `deplacer` code, as protocol-amazons.md gives it, and what it means.
fn code_meaning(code: i32) -> (&'static str, &'static str) {
    match code {
        0 => ("SUCCES", "played"),
        -1 => ("ACTION_INTERDITE", "not your turn, or you already moved"),
        -2 => ("HORS_PLATEAU", "a square is off the board"),
        -3 => (
            "PAS_TON_AMAZONE",
            "the first square is not one of your amazons",
        ),
        -4 => (
            "DEPLACEMENT_IMPOSSIBLE",
            "the amazon cannot reach the second square",
        ),
        -5 => ("TIR_IMPOSSIBLE", "the arrow cannot reach the third square"),
        _ => ("?", "unknown code"),
    }
}

const HELP: &str = "\
Your move: the amazon's square, where it goes (a queen move over empty squares), and where
it shoots its arrow from there (a queen line; the square it left counts as empty):
  d1-d7/g7  or  d1 d7 g7
Columns a..j, rows 1..10, as on the board. Also:
  board       the board again (`etat` too)
  moves       some of your legal moves
  case x y, couleur, numero_coup, mon_tour
              the requests of protocol-amazons.md (x y from 0 0 for a1 to 9 9 for j10)
  help        this list
A player who can move must move: `fin` alone does not end your turn. End of input
(Ctrl-D) gives up the game: your opponent wins.";

impl Driver for AmazonsSeat {
    fn begin(&mut self, callback: &str) -> Turn {
        self.callback = callback.to_string();
        self.trying = None;
        match callback {
            "init_game" => Turn::say(
                "You play the Game of the Amazons from this terminal: type `help` at the \
                 prompt for how to move.",
            )
            .then(["couleur", "fin"]),
            "end_game" => Turn::send(["numero_coup", "etat"]),
            _ => Turn::send(["etat"]),
        }
    }

    fn answer(&mut self, request: &str, answer: &str) -> Turn {
        let value = answer.parse::<i32>().ok();
        let name = request.split_ascii_whitespace().next().unwrap_or("");
        match name {
            "couleur" => {
                self.me = Some(if value == Some(1) {
                    Color::Black
                } else {
                    Color::White
                });
                self.before = Some(Board::start());
                Turn::say(match self.me() {
                    Color::White => "You play White (W): you move first.",
                    Color::Black => "You play Black (B): White moves first.",
                })
            }
            "numero_coup" => {
                self.moves_played = value.map_or(0, |v| v as usize);
                Turn::default()
            }
            "etat" if self.callback == "end_game" => {
                // White moves after an even number of moves.
                let to_move = if self.moves_played.is_multiple_of(2) {
                    Color::White
                } else {
                    Color::Black
                };
                let board = self.board_of(answer, to_move);
                let mut say = format!(
                    "\n== the game is over after {} moves ==\n",
                    self.moves_played
                );
                say.push_str(&self.show(&board));
                match board.winner() {
                    Some(c) if c == self.me() => {
                        say.push_str("You win: your opponent cannot move.")
                    }
                    Some(_) => say.push_str("You lose: you cannot move."),
                    None => {
                        say.push_str("The game ended early: a player faulted (see the result).")
                    }
                }
                Turn::say(say).then(["fin"])
            }
            "etat" => {
                let board = self.board_of(answer, self.me());
                let mut say = String::new();
                // The first board of a `jouer` (not one asked again): what changed since.
                if let Some(before) = self.before.take().filter(|_| self.callback == "jouer") {
                    if let Some(m) = self.their_move(&before, &board) {
                        let _ = writeln!(say, "\nyour opponent played {m}");
                    }
                    let _ = writeln!(say, "\n== your move ==");
                }
                say.push_str(&self.show(&board));
                if self.callback == "jouer" {
                    say.push_str("type a move (d1-d7/g7 or d1 d7 g7), or `help`");
                }
                self.board = Some(board);
                Turn::say(say)
            }
            "deplacer" => {
                let Some(m) = self.trying.take() else {
                    return Turn::say(format!("{request} -> {answer}"));
                };
                match value {
                    Some(0) => {
                        let mut after = self.board.clone().unwrap_or_else(Board::start);
                        let _ = after.play(m);
                        self.before = Some(after.clone());
                        self.board = Some(after);
                        Turn::say(format!("you played {m}")).then(["fin"])
                    }
                    Some(code) => {
                        let (name, meaning) = code_meaning(code);
                        let reason = self
                            .board
                            .as_ref()
                            .and_then(|b| b.check(m).err())
                            .map_or(meaning.to_string(), |e| e.to_string());
                        Turn::say(format!(
                            "{m} refused, {name} ({code}): {reason}; try another move"
                        ))
                    }
                    None => Turn::say(format!("{request} -> {answer}")),
                }
            }
            "case" => {
                let word = match value {
                    Some(0) => "VIDE",
                    Some(1) => "MOI",
                    Some(2) => "ADVERSAIRE",
                    Some(3) => "FLECHE",
                    Some(-2) => "HORS_PLATEAU",
                    _ => "?",
                };
                Turn::say(format!("{request} -> {answer} ({word})"))
            }
            _ => Turn::say(format!("{request} -> {answer}")),
        }
    }

    fn typed(&mut self, line: &str) -> Turn {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let integers =
            |n: usize| words.len() == n + 1 && words[1..].iter().all(|w| w.parse::<i32>().is_ok());
        match words.first().copied().unwrap_or("") {
            "" => Turn::default(),
            "help" | "?" => Turn::say(HELP),
            "board" | "etat" => Turn::send(["etat"]),
            "moves" => {
                let Some(board) = &self.board else {
                    return Turn::say("no board yet");
                };
                let moves = board.legal_moves();
                let some: Vec<String> = moves.iter().take(8).map(Move::to_string).collect();
                Turn::say(format!(
                    "{} legal moves; some: {}",
                    moves.len(),
                    some.join(", ")
                ))
            }
            "fin" => Turn::say(
                "you must move before your turn ends (a player who can move must move): \
                 type a move, or `help`",
            ),
            "couleur" | "numero_coup" | "mon_tour" if integers(0) => Turn::send([words.join(" ")]),
            "case" if integers(2) => Turn::send([words.join(" ")]),
            "case" | "couleur" | "numero_coup" | "mon_tour" => Turn::say(
                "not sent: `case` takes two integers (x y), the others none; `help` for more",
            ),
            _ => match AmazonsSeat::parse_move(line) {
                Ok(m) => {
                    self.trying = Some(m);
                    Turn::send([deplacer_line(m)])
                }
                Err(e) => Turn::say(format!("not sent: {e}")),
            },
        }
    }

    fn prompt(&self) -> String {
        "move> ".to_string()
    }
}
