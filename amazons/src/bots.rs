//! The built-in Amazons players, pure (the referee runs them as champions): `random`, which
//! enumerates every legal move first and then picks one uniformly (it never draws a move
//! that turns out illegal), and `mobility`, which moves the amazon, then shoots the arrow,
//! that leave it the most queen moves against its opponent's.

use crate::{Board, Color, Move};

/// The built-in players' names.
pub const NAMES: [&str; 2] = ["random", "mobility"];

/// A built-in player.
pub enum Player {
    Random(Random),
    Mobility,
}

impl Player {
    /// The player called `name` ([`NAMES`]), its randomness drawn from `seed`.
    pub fn by_name(name: &str, seed: u64) -> Option<Player> {
        match name {
            "random" => Some(Player::Random(Random::new(seed))),
            "mobility" => Some(Player::Mobility),
            _ => None,
        }
    }

    /// Its move, or `None` when the player to move has none.
    pub fn choose(&mut self, board: &Board) -> Option<Move> {
        match self {
            Player::Random(random) => random.choose(board),
            Player::Mobility => mobility_move(board),
        }
    }
}

/// A uniform choice among the legal moves, from a seeded stream.
pub struct Random {
    rng: draw::Stream,
}

impl Random {
    pub fn new(seed: u64) -> Random {
        Random {
            rng: draw::Stream::new(seed),
        }
    }

    /// A legal move, or `None` when there is none (the player has lost).
    pub fn choose(&mut self, board: &Board) -> Option<Move> {
        let moves = board.legal_moves();
        (!moves.is_empty()).then(|| moves[self.rng.below_usize(moves.len())])
    }
}

/// Queen moves of `color`'s amazons (each reachable square once per amazon).
fn mobility(board: &Board, color: Color) -> i32 {
    board
        .amazons(color)
        .map(|from| board.reach_count(from))
        .sum::<usize>() as i32
}

/// The mobility player: first the amazon move that maximises its amazons' queen moves
/// minus the opponent's (the arrow not yet shot), then the arrow that maximises the same
/// difference. Ties go to the first in legal-move order: deterministic.
pub fn mobility_move(board: &Board) -> Option<Move> {
    let me = board.to_move();
    let moves = board.legal_moves();
    let score = |m: Move, with_arrow: bool| {
        let mut next = board.clone();
        next.place(m, with_arrow);
        mobility(&next, me) - mobility(&next, me.other())
    };
    // Amazon moves first, each with its first legal arrow as a stand-in.
    let mut best_step: Option<(i32, Move)> = None;
    let mut last = None;
    for &m in &moves {
        if last == Some((m.from, m.to)) {
            continue;
        }
        last = Some((m.from, m.to));
        let s = score(m, false);
        if best_step.is_none_or(|(b, _)| s > b) {
            best_step = Some((s, m));
        }
    }
    let (_, step) = best_step?;
    moves
        .iter()
        .filter(|m| (m.from, m.to) == (step.from, step.to))
        .map(|&m| (score(m, true), m))
        .fold(None, |best: Option<(i32, Move)>, (s, m)| match best {
            Some((b, _)) if b >= s => best,
            _ => Some((s, m)),
        })
        .map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays a game; `mobility_is_white` says who moves first. Returns the winner.
    fn game(seed: u64, mobility_is_white: bool) -> (Color, usize) {
        let mut board = Board::start();
        let mut random = Random::new(seed);
        let mobility_color = if mobility_is_white {
            Color::White
        } else {
            Color::Black
        };
        let mut plies = 0;
        loop {
            let m = if board.to_move() == mobility_color {
                mobility_move(&board)
            } else {
                random.choose(&board)
            };
            let Some(m) = m else {
                return (board.to_move().other(), plies);
            };
            board.play(m).expect("the bots play legal moves");
            plies += 1;
        }
    }

    #[test]
    fn random_draws_among_the_legal_moves_only() {
        let board = Board::start();
        let mut a = Random::new(7);
        let mut b = Random::new(7);
        for _ in 0..50 {
            let m = a.choose(&board).unwrap();
            assert!(board.check(m).is_ok());
            assert_eq!(Some(m), b.choose(&board), "the same seed, the same moves");
        }
    }

    /// The mobility player beats `random` in at least 95 of 100 seeded games, 50 with each
    /// colour.
    #[test]
    fn mobility_beats_random() {
        let mut wins = 0;
        for seed in 0..100 {
            let white = seed % 2 == 0;
            let (winner, plies) = game(seed, white);
            assert!(plies <= 92, "a game lasts at most 92 moves");
            if (winner == Color::White) == white {
                wins += 1;
            }
        }
        eprintln!("mobility won {wins} of 100");
        assert!(wins >= 95, "mobility won {wins} of 100");
    }
}
