//! The position: what stands on each square, whose turn it is; legal moves, playing one,
//! and the end.

use crate::square::{Square, SIZE};
use std::fmt;
use std::str::FromStr;

/// The eight queen directions.
const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// A player; White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// The other player.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Amazon(Color),
    Arrow,
}

/// A move: the amazon on `from` goes to `to`, then shoots an arrow to `arrow`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub arrow: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}/{}", self.from, self.to, self.arrow)
    }
}

impl FromStr for Move {
    type Err = String;

    /// `d1-d7/g7`.
    ///
    /// ```
    /// use amazons::Move;
    /// let m: Move = "d1-d7/g7".parse().unwrap();
    /// assert_eq!(m.to_string(), "d1-d7/g7");
    /// assert!("d1-d7".parse::<Move>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Move, String> {
        let shape = || format!("`{text}` is not a move: write from-to/arrow, e.g. d1-d7/g7");
        let (from, rest) = text.split_once('-').ok_or_else(shape)?;
        let (to, arrow) = rest.split_once('/').ok_or_else(shape)?;
        let square = |s: &str| s.parse::<Square>().map_err(|e| e.to_string());
        Ok(Move {
            from: square(from)?,
            to: square(to)?,
            arrow: square(arrow)?,
        })
    }
}

/// Why a move cannot be played, in words a player reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// `from` does not hold an amazon of the player to move.
    NotYourAmazon(Square),
    /// The amazon cannot reach `to` (not on a queen line, or the way is not free).
    CannotReach { from: Square, to: Square },
    /// The arrow cannot reach `arrow` from where the amazon landed.
    CannotShoot { from: Square, arrow: Square },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NotYourAmazon(s) => write!(f, "{s} does not hold one of your amazons"),
            IllegalMove::CannotReach { from, to } => write!(
                f,
                "the amazon on {from} cannot reach {to}: a queen move over empty squares only"
            ),
            IllegalMove::CannotShoot { from, arrow } => write!(
                f,
                "an arrow from {from} cannot reach {arrow}: a queen line over empty squares only"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Cell; (SIZE * SIZE) as usize],
    to_move: Color,
}

impl Board {
    /// The classic start: White on a4, d1, g1, j4; Black on a7, d10, g10, j7; White to move.
    pub fn start() -> Board {
        let mut cells = [Cell::Empty; (SIZE * SIZE) as usize];
        for (name, color) in [
            ("a4", Color::White),
            ("d1", Color::White),
            ("g1", Color::White),
            ("j4", Color::White),
            ("a7", Color::Black),
            ("d10", Color::Black),
            ("g10", Color::Black),
            ("j7", Color::Black),
        ] {
            let square: Square = name.parse().expect("a square");
            cells[square.index()] = Cell::Amazon(color);
        }
        Board {
            cells,
            to_move: Color::White,
        }
    }

    /// A position from its squares (`cells[square.index()]`) and the player to move.
    pub fn with(cells: [Cell; (SIZE * SIZE) as usize], to_move: Color) -> Board {
        Board { cells, to_move }
    }

    /// What stands on `square`.
    pub fn cell(&self, square: Square) -> Cell {
        self.cells[square.index()]
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The squares of `color`'s amazons, in square order.
    pub fn amazons(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        Square::all().filter(move |&s| self.cell(s) == Cell::Amazon(color))
    }

    /// The empty squares a queen on `from` reaches, `ignoring` one square (treated as empty:
    /// the square the amazon just left, for its arrow).
    fn reach(&self, from: Square, ignoring: Option<Square>) -> impl Iterator<Item = Square> + '_ {
        DIRECTIONS.into_iter().flat_map(move |direction| {
            std::iter::successors(from.step(direction), move |s| s.step(direction))
                .take_while(move |&s| self.cell(s) == Cell::Empty || Some(s) == ignoring)
        })
    }

    /// How many squares a queen on `from` reaches.
    pub fn reach_count(&self, from: Square) -> usize {
        self.reach(from, None).count()
    }

    /// Puts `m` on the board without checking it or passing the turn; the arrow only if
    /// `with_arrow` (for evaluating a move before its arrow is chosen).
    pub(crate) fn place(&mut self, m: Move, with_arrow: bool) {
        let color = self.to_move;
        self.cells[m.from.index()] = Cell::Empty;
        self.cells[m.to.index()] = Cell::Amazon(color);
        if with_arrow {
            self.cells[m.arrow.index()] = Cell::Arrow;
        }
    }

    /// Every legal move of the player to move, in a fixed order (amazons by square, then
    /// directions, then distance).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        for from in self.amazons(self.to_move) {
            for to in self.reach(from, None) {
                for arrow in self.reach(to, Some(from)) {
                    moves.push(Move { from, to, arrow });
                }
            }
        }
        moves
    }

    /// Whether the player to move has a legal move (cheaper than counting them).
    pub fn can_move(&self) -> bool {
        // An amazon that can step anywhere can shoot back where it came from.
        self.amazons(self.to_move)
            .any(|from| self.reach(from, None).next().is_some())
    }

    /// Checks `m` for the player to move.
    pub fn check(&self, m: Move) -> Result<(), IllegalMove> {
        if self.cell(m.from) != Cell::Amazon(self.to_move) {
            return Err(IllegalMove::NotYourAmazon(m.from));
        }
        if !self.reach(m.from, None).any(|s| s == m.to) {
            return Err(IllegalMove::CannotReach {
                from: m.from,
                to: m.to,
            });
        }
        if !self.reach(m.to, Some(m.from)).any(|s| s == m.arrow) {
            return Err(IllegalMove::CannotShoot {
                from: m.to,
                arrow: m.arrow,
            });
        }
        Ok(())
    }

    /// Plays `m` for the player to move, if it is legal; the other player is then to move.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.check(m)?;
        self.place(m, true);
        self.to_move = self.to_move.other();
        Ok(())
    }

    /// The winner, once the player to move cannot move.
    pub fn winner(&self) -> Option<Color> {
        (!self.can_move()).then_some(self.to_move.other())
    }

    /// Whether no amazon can ever reach an amazon of the other colour again: every region of
    /// squares connected (by king steps) through empty squares holds amazons of one colour.
    /// From then on each player only fills their own territory.
    pub fn isolated(&self) -> bool {
        let mut region = [u8::MAX; (SIZE * SIZE) as usize];
        for start in Square::all() {
            let Cell::Amazon(color) = self.cell(start) else {
                continue;
            };
            if region[start.index()] != u8::MAX {
                continue;
            }
            // Flood from this amazon over empty squares and amazons; meeting an amazon of
            // the other colour means the two still share a region.
            let mark = start.index() as u8;
            let mut stack = vec![start];
            region[start.index()] = mark;
            while let Some(square) = stack.pop() {
                for next in DIRECTIONS.into_iter().filter_map(|d| square.step(d)) {
                    match self.cell(next) {
                        Cell::Arrow => {}
                        Cell::Amazon(other) if other != color => return false,
                        _ if region[next.index()] == mark => {}
                        _ => {
                            region[next.index()] = mark;
                            stack.push(next);
                        }
                    }
                }
            }
        }
        true
    }

    /// Counts the move sequences of `depth` moves (perft): a check of move generation.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m).expect("generated moves are legal");
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// The board as text, row 10 at the top, with its coordinates: `W` and `B` amazons, `x`
/// arrows, `.` empty.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..SIZE).rev() {
            write!(f, "{:>2} ", row + 1)?;
            for column in 0..SIZE {
                let square = Square::new(column, row).expect("on the board");
                let c = match self.cell(square) {
                    Cell::Empty => '.',
                    Cell::Arrow => 'x',
                    Cell::Amazon(Color::White) => 'W',
                    Cell::Amazon(Color::Black) => 'B',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "    a b c d e f g h i j")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn m(text: &str) -> Move {
        text.parse().unwrap()
    }

    /// Known move counts from the start position (the literature's perft of 10x10
    /// Amazons: 2,176 then 4,307,152).
    #[test]
    fn perft_from_the_start() {
        let board = Board::start();
        assert_eq!(board.perft(1), 2_176);
        assert_eq!(board.legal_moves().len(), 2_176);
        // Black's replies to one opening, then the second ply in full (release builds are
        // fast; a debug build takes a few seconds).
        assert_eq!(board.perft(2), 4_307_152);
    }

    #[test]
    fn the_start_is_the_classic_one() {
        let text = Board::start().to_string();
        assert_eq!(
            text,
            "10  . . . B . . B . . .\n 9  . . . . . . . . . .\n 8  . . . . . . . . . .\n \
             7  B . . . . . . . . B\n 6  . . . . . . . . . .\n 5  . . . . . . . . . .\n \
             4  W . . . . . . . . W\n 3  . . . . . . . . . .\n 2  . . . . . . . . . .\n \
             1  . . . W . . W . . .\n    a b c d e f g h i j\n"
        );
        assert_eq!(Board::start().to_move(), Color::White);
    }

    #[test]
    fn a_move_plays_and_passes_the_turn() {
        let mut board = Board::start();
        board.play(m("d1-d7/g7")).unwrap();
        assert_eq!(board.cell(sq("d1")), Cell::Empty);
        assert_eq!(board.cell(sq("d7")), Cell::Amazon(Color::White));
        assert_eq!(board.cell(sq("g7")), Cell::Arrow);
        assert_eq!(board.to_move(), Color::Black);
    }

    #[test]
    fn the_arrow_may_fly_back_over_the_square_left() {
        let mut board = Board::start();
        // d1 to d5, arrow back to d1 (the square it left) and beyond is the board's edge.
        board.play(m("d1-d5/d1")).unwrap();
        assert_eq!(board.cell(sq("d1")), Cell::Arrow);
    }

    #[test]
    fn illegal_moves_say_why() {
        let board = Board::start();
        assert_eq!(
            board.check(m("a7-a6/a5")),
            Err(IllegalMove::NotYourAmazon(sq("a7")))
        );
        assert_eq!(
            board.check(m("e5-e6/e7")),
            Err(IllegalMove::NotYourAmazon(sq("e5")))
        );
        // Not a queen line.
        assert!(matches!(
            board.check(m("d1-e3/e4")),
            Err(IllegalMove::CannotReach { .. })
        ));
        // Through an amazon: a4 to a8 passes a7.
        assert!(matches!(
            board.check(m("a4-a8/a9")),
            Err(IllegalMove::CannotReach { .. })
        ));
        // The arrow: from d4 along row 4 to b4 is free; from g4 to j4 hits an amazon.
        assert!(board.check(m("d1-d4/b4")).is_ok());
        assert_eq!(
            board.check(m("g1-g4/j4")),
            Err(IllegalMove::CannotShoot {
                from: sq("g4"),
                arrow: sq("j4")
            })
        );
        // Every illegal move leaves the board as it was.
        let mut copy = board.clone();
        assert!(copy.play(m("d1-e3/e4")).is_err());
        assert_eq!(copy, board);
        // Every generated move passes the check, and moving onto an arrow does not.
        assert!(board
            .legal_moves()
            .iter()
            .all(|&mv| board.check(mv).is_ok()));
    }

    #[test]
    fn a_player_who_cannot_move_loses() {
        let mut board = Board::start();
        assert_eq!(board.winner(), None);
        // Wall in White's four amazons with arrows around them, by hand.
        for name in Square::all() {
            if board.cell(name) == Cell::Empty {
                board.cells[name.index()] = Cell::Arrow;
            }
        }
        assert!(!board.can_move());
        assert!(board.legal_moves().is_empty());
        assert_eq!(board.winner(), Some(Color::Black));
        assert!(board.isolated());
    }

    #[test]
    fn isolation_is_seen_when_arrows_separate_the_colours() {
        let mut board = Board::start();
        assert!(!board.isolated());
        // A wall of arrows across row 6 separates White (rows 1-4) from Black (rows 7-10).
        for column in 0..SIZE {
            board.cells[Square::new(column, 5).unwrap().index()] = Cell::Arrow;
        }
        assert!(board.isolated());
        // A gap in the wall joins them again (diagonal steps count).
        board.cells[sq("e6").index()] = Cell::Empty;
        assert!(!board.isolated());
    }
}
