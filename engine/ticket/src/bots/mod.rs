//! The built-in players, pure code that sees only a seat's [`View`]: `do-nothing` and
//! `random` as the subject describes its server's `DO_NOTHING` and `PLAY_RANDOM`, and
//! `strong`, which plans the shortest paths to its tickets and draws the colours they need.
//! [`play`] plays a match of them.

mod plan;
mod simple;
mod strong;

use crate::{Action, Board, TicketState, TicketToRide, View};
use game::{Acting, Game, Options, Ranking, State};

pub use plan::{claimable, pay, Plan};
pub use simple::{DoNothing, Random};
pub use strong::Strong;

/// The built-in players' names.
pub const NAMES: [&str; 3] = ["do-nothing", "random", "strong"];

/// A built-in player.
pub enum Player {
    DoNothing(DoNothing),
    Random(Random),
    Strong(Strong),
}

impl Player {
    /// The player called `name` ([`NAMES`]), its own randomness drawn from `seed`.
    pub fn by_name(name: &str, seed: u64) -> Option<Player> {
        match name {
            "do-nothing" => Some(Player::DoNothing(DoNothing::new(seed))),
            "random" => Some(Player::Random(Random::new(seed))),
            "strong" => Some(Player::Strong(Strong)),
            _ => None,
        }
    }

    /// Its move, seeing `view` of a match on `board` (a seat to move).
    pub fn choose(&mut self, board: &Board, view: &View) -> Action {
        match self {
            Player::DoNothing(p) => p.choose(view),
            Player::Random(p) => p.choose(board, view),
            Player::Strong(p) => p.choose(board, view),
        }
    }
}

/// A match played out: its ranking, the last state, and the moves the rules refused (a
/// seat that made one left the match: rule 25).
pub struct Played {
    pub ranking: Ranking,
    pub state: TicketState,
    pub refused: Vec<(usize, Action, String)>,
}

/// Plays a match of `players` (seat 0 first) with `options`, chance drawn from `seed`'s
/// stream; stops with an error after `max_moves` moves.
pub fn play(
    players: &mut [Player],
    options: &Options,
    seed: u64,
    max_moves: usize,
) -> Result<Played, String> {
    let mut state = TicketToRide.start(players.len(), options)?;
    let mut chance = draw::Stream::new(seed);
    let mut refused = Vec::new();
    for _ in 0..max_moves {
        match state.acting() {
            Acting::Over => {
                let ranking = state.ranking().ok_or("over without a ranking")?;
                return Ok(Played {
                    ranking,
                    state,
                    refused,
                });
            }
            Acting::Chance(c) => state.chance(&c.draw(seed, &mut chance))?,
            Acting::Seats(seats) => {
                let seat = seats[0];
                let view = state.view(seat);
                let action = players[seat].choose(state.board(), &view);
                if let Err(why) = state.play(seat, &action) {
                    refused.push((seat, action, why.0));
                    state.leave(seat);
                }
            }
        }
    }
    Err(format!("not over after {max_moves} moves"))
}
