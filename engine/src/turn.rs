//! The turn as ordered, named stages (rules 10-16, 27): who plays which callback, and when.

use crate::player::Seat;
use serde::{Deserialize, Serialize};

/// Where a game stands. Each stage is one round of callbacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// `init_game` for every seat, before turn 1.
    Init,
    /// Phase I: `slot` (0, 1, 2) in the turn's rotating order plays `jouer`.
    Build { slot: u8 },
    /// Phase II: a monument is drawn; every seat plays `enchere`, simultaneously (rule 12).
    Auction,
    /// Phase III: the auction winner plays `placement`.
    Placement { winner: Seat },
    /// `end_game` for every seat, after Phase I of the last turn.
    End,
    /// Nothing more to play.
    Over,
}

/// The five callbacks of a champion (rule 27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Callback {
    InitGame,
    Jouer,
    Enchere,
    Placement,
    EndGame,
}

impl Callback {
    /// All callbacks, in the order of a game.
    pub const ALL: [Callback; 5] = [
        Callback::InitGame,
        Callback::Jouer,
        Callback::Enchere,
        Callback::Placement,
        Callback::EndGame,
    ];

    /// The name of the callback, as the protocol and the kits spell it.
    pub fn name(self) -> &'static str {
        match self {
            Callback::InitGame => "init_game",
            Callback::Jouer => "jouer",
            Callback::Enchere => "enchere",
            Callback::Placement => "placement",
            Callback::EndGame => "end_game",
        }
    }

    /// The callback named `name`.
    pub fn from_name(name: &str) -> Option<Callback> {
        Callback::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl std::fmt::Display for Callback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Stage {
    /// The callback this stage plays, `None` when the game is over.
    pub fn callback(self) -> Option<Callback> {
        match self {
            Stage::Init => Some(Callback::InitGame),
            Stage::Build { .. } => Some(Callback::Jouer),
            Stage::Auction => Some(Callback::Enchere),
            Stage::Placement { .. } => Some(Callback::Placement),
            Stage::End => Some(Callback::EndGame),
            Stage::Over => None,
        }
    }

    /// The phase number (rules 11-13): 1, 2 or 3 during a turn, 0 outside turns.
    pub fn phase(self) -> u8 {
        match self {
            Stage::Build { .. } => 1,
            Stage::Auction => 2,
            Stage::Placement { .. } => 3,
            Stage::Init | Stage::End | Stage::Over => 0,
        }
    }
}

/// The Phase I order of a turn whose first player is `first`: the order rotates by one seat
/// each turn (rule 11).
pub fn order(first: Seat) -> [Seat; 3] {
    [first, first.after(1), first.after(2)]
}
