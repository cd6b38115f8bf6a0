//! Snapshots and digests: the board as compact text for serde, and a stable 64-bit digest of
//! a whole game, so that matches can be recorded, replayed and compared.

use crate::board::{Board, Cell, Kind, Pos, CELLS};
use crate::game::Game;
use crate::player::Seat;
use crate::state::State;
use crate::turn::Stage;
use serde::{Deserialize, Serialize};

/// A board as three strings of 10,000 characters, cell (x, y) at `y * 100 + x`: kinds
/// (`'0'..='4'`), owners (`'0'..='2'` a seat, `'3'` nobody) and monuments (`'.'` or
/// `'a' + id`). Values are derived from the monuments.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BoardText {
    pub kinds: String,
    pub owners: String,
    pub monuments: String,
}

impl From<Board> for BoardText {
    fn from(board: Board) -> BoardText {
        let cells = board.cells();
        BoardText {
            kinds: cells
                .iter()
                .map(|c| char::from(b'0' + c.kind as u8))
                .collect(),
            owners: cells
                .iter()
                .map(|c| char::from(b'0' + c.owner.map_or(3, |s| s.0)))
                .collect(),
            monuments: cells
                .iter()
                .map(|c| c.monument.map_or('.', |m| char::from(b'a' + m)))
                .collect(),
        }
    }
}

impl TryFrom<BoardText> for Board {
    type Error = String;

    fn try_from(text: BoardText) -> Result<Board, String> {
        let (kinds, owners, monuments) = (
            text.kinds.as_bytes(),
            text.owners.as_bytes(),
            text.monuments.as_bytes(),
        );
        if kinds.len() != CELLS || owners.len() != CELLS || monuments.len() != CELLS {
            return Err(format!("a board has {CELLS} characters per string"));
        }
        let mut board = Board::empty();
        for i in 0..CELLS {
            let kind = match kinds[i] {
                b'0' => Kind::Vide,
                b'1' => Kind::Maison,
                b'2' => Kind::Reservation,
                b'3' => Kind::Monument,
                b'4' => Kind::Route,
                other => return Err(format!("bad kind {:?} at cell {i}", char::from(other))),
            };
            let owner = match owners[i] {
                b @ b'0'..=b'2' => Some(Seat(b - b'0')),
                b'3' => None,
                other => return Err(format!("bad owner {:?} at cell {i}", char::from(other))),
            };
            let pos = Pos::from_index(i);
            match monuments[i] {
                b'.' if kind != Kind::Monument => board.set(
                    pos,
                    Cell {
                        kind,
                        owner,
                        monument: None,
                    },
                ),
                m @ b'a'..=b'n' if kind == Kind::Monument => board.build_monument(pos, m - b'a'),
                other => return Err(format!("bad monument {:?} at cell {i}", char::from(other))),
            }
        }
        Ok(board)
    }
}

/// FNV-1a, 64 bits: tiny, stable across platforms and Rust versions (unlike `DefaultHasher`).
struct Fnv(u64);

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn int(&mut self, v: i32) {
        self.write(&v.to_le_bytes());
    }
}

fn hash_state(h: &mut Fnv, state: &State) {
    let (stage, arg) = match state.stage {
        Stage::Init => (0, 0),
        Stage::Build { slot } => (1, slot),
        Stage::Auction => (2, 0),
        Stage::Placement { winner } => (3, winner.0),
        Stage::End => (4, 0),
        Stage::Over => (5, 0),
    };
    h.write(&[
        stage,
        arg,
        state.turn,
        state.first.0,
        state.monument_placed as u8,
    ]);
    h.write(&state.monument_order);
    h.write(&[
        state.current_monument.unwrap_or(255),
        state.last_winner.map_or(255, |s| s.0),
    ]);
    for i in 0..3 {
        h.int(state.money[i]);
        h.int(state.last_bids[i]);
        h.int(state.counters[i].roads as i32);
        h.int(state.counters[i].houses as i32);
    }
    for cell in state.board.cells() {
        h.write(&[
            cell.kind as u8,
            cell.owner.map_or(3, |s| s.0),
            cell.monument.unwrap_or(255),
        ]);
    }
    for &v in state.board.values_raw() {
        h.write(&[v as u8]);
    }
}

pub(crate) fn digest(game: &Game) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    hash_state(&mut h, &game.state);
    if let Some(privates) = &game.auction {
        for private in privates.iter() {
            hash_state(&mut h, &private.state);
            h.int(private.bid.unwrap_or(-1));
            for pos in &private.sales {
                h.write(&[pos.x, pos.y]);
            }
        }
    }
    h.0
}
