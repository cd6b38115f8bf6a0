//! What the 2009 game's tests read of a match's record (today's, `arena::GameRecord`): the
//! record checked, its timeline, and its result as the rules give it at the end (each
//! seat's final score, money, houses and tournament points, and the engine's digest).

use referee::arena::GameRecord;
use referee::games::loi_play::{final_state, LOI};
use std::path::Path;

/// The record at `path` (a `record.json`), checked against the rules.
pub fn load(path: &Path) -> GameRecord {
    LOI.load(path)
        .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()))
}

/// The record in the match folder `dir`.
pub fn load_in(dir: &Path) -> GameRecord {
    load(&dir.join("record.json"))
}

/// The timeline the views draw of `record`.
pub fn timeline(record: &GameRecord) -> referee::view::Timeline {
    referee::view::loi_arena::timeline(record).unwrap()
}

/// A 2009 match's result at its end.
#[derive(Debug, PartialEq, Eq)]
pub struct Result {
    pub final_scores: [i32; 3],
    pub money: [i32; 3],
    pub houses: [u32; 3],
    pub points: [u32; 3],
    /// The engine's digest of the final state (`matches.csv`'s `digest`).
    pub digest: String,
}

/// The result of `record` (a checked record of a match played to its end).
pub fn result(record: &GameRecord) -> Result {
    let state = final_state(record).unwrap();
    let game = state.game().expect("the setup was drawn");
    let outcome = game.outcome();
    let houses = engine::Seat::ALL.map(|s| {
        game.state()
            .board
            .cells()
            .iter()
            .filter(|c| c.kind == engine::Kind::Maison && c.owner == Some(s))
            .count() as u32
    });
    Result {
        final_scores: outcome.final_scores,
        money: game.state().money,
        houses,
        points: outcome.points,
        digest: format!("{:016x}", game.digest()),
    }
}
