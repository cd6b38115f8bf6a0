//! The Game of the Amazons as a [`game::Game`]: two seats (seat 0 plays White and moves
//! first), no option, no chance; a seat's action is its move; an illegal move or a seat
//! that leaves loses the match.

use crate::{Board, Cell, Color, Move};
use game::{Acting, Drawn, Illegal, OptionSpec, Options, Ranking};

/// The Game of the Amazons.
pub struct Amazons;

/// One match: the board, and the seats that left it.
#[derive(Clone, Debug)]
pub struct AmazonsState {
    board: Board,
    moves: usize,
    out: [bool; 2],
}

/// What a seat sees: the whole board (nothing is hidden), from its own side: `1` its
/// amazons, `2` the other's, `3` arrows, `0` empty, square `a1` first, row by row; and
/// whether it is to move.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AmazonsView {
    pub cells: String,
    pub to_move: bool,
}

/// The colour of `seat`.
fn color(seat: usize) -> Color {
    match seat {
        0 => Color::White,
        _ => Color::Black,
    }
}

impl game::Game for Amazons {
    type State = AmazonsState;
    fn name(&self) -> &'static str {
        "amazons"
    }
    fn title(&self) -> &'static str {
        "The Game of the Amazons"
    }
    fn version(&self) -> u32 {
        1
    }
    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }
    fn options(&self) -> &'static [OptionSpec] {
        &[]
    }
    fn start(&self, _seats: usize, _options: &Options) -> Result<AmazonsState, String> {
        Ok(AmazonsState::new(Board::start()))
    }
}

impl AmazonsState {
    /// A match from `board` (a test's position; `Board::start()` for a match).
    pub fn new(board: Board) -> AmazonsState {
        AmazonsState {
            board,
            moves: 0,
            out: [false; 2],
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The moves played.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// The winning seat, once the match is over (`None` if both seats left).
    pub fn winner(&self) -> Option<usize> {
        match self.out {
            [true, true] => None,
            [true, false] => Some(1),
            [false, true] => Some(0),
            [false, false] => self.board.winner().map(|c| usize::from(c == Color::Black)),
        }
    }

    fn over(&self) -> bool {
        self.out.contains(&true) || !self.board.can_move()
    }
}

impl game::State for AmazonsState {
    type Action = Move;
    type Observation = AmazonsView;

    fn acting(&self) -> Acting {
        match self.over() {
            true => Acting::Over,
            false => Acting::Seats(vec![usize::from(self.board.to_move() == Color::Black)]),
        }
    }

    fn chance(&mut self, drawn: &Drawn) -> Result<(), String> {
        Err(format!("the Game of the Amazons draws nothing ({drawn:?})"))
    }

    fn legal(&self, seat: usize) -> Vec<Move> {
        match !self.over() && self.board.to_move() == color(seat) {
            true => self.board.legal_moves(),
            false => Vec::new(),
        }
    }

    fn act(&mut self, seat: usize, m: &Move) -> Result<String, Illegal> {
        if self.over() || self.board.to_move() != color(seat) {
            return Err(Illegal(format!("seat {seat} moved out of its turn")));
        }
        self.board
            .play(*m)
            .map_err(|e| Illegal(format!("illegal move {m}: {e}")))?;
        self.moves += 1;
        Ok("ok".to_string())
    }

    fn retire(&mut self, seat: usize) {
        self.out[seat] = true;
    }

    fn observe(&self, seat: usize) -> AmazonsView {
        let me = color(seat);
        let cells = crate::Square::all()
            .map(|s| match self.board.cell(s) {
                Cell::Empty => '0',
                Cell::Amazon(c) if c == me => '1',
                Cell::Amazon(_) => '2',
                Cell::Arrow => '3',
            })
            .collect();
        AmazonsView {
            cells,
            to_move: !self.over() && self.board.to_move() == me,
        }
    }

    fn ranking(&self) -> Option<Ranking> {
        if !self.over() {
            return None;
        }
        // The winner scores 1, the loser 0 (both 0 when both left).
        let scores = (0..2)
            .map(|s| i64::from(self.winner() == Some(s)))
            .collect();
        Some(Ranking::by_scores(scores))
    }

    fn digest(&self) -> u64 {
        let mut bytes: Vec<u8> = self.observe(0).cells.into_bytes();
        bytes.push(self.board.to_move() as u8);
        bytes.extend(self.out.map(u8::from));
        game::fnv1a(&bytes)
    }
}
