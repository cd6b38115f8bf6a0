//! Little Town's records of version 1, written before every seat scored its gold (a seat
//! out scored minus the number of players still in when it went out): read, checked as
//! they were played ([`as_then`]: the same history, faults and places, version 1's
//! scores), and made again as the record of today, so that the matches kept from then
//! still replay, show and merge.

use crate::wire::TownWire;
use arena::{Adapter, GameRecord, OLDEST_GAME_RECORD_SCHEMA};
use game::{Game as _, Ranking};
use std::path::Path;
use town::{Town, TownState};

/// The version of Little Town's rules these records were played by.
pub const VERSION_1: u32 = 1;

/// The record `text` of schema `schema` read from `path`, if it is one of Little Town's of
/// version 1: checked as then and made again; `None` if it is not one.
pub fn legacy(schema: Option<u64>, text: &str, path: &Path) -> Option<Result<GameRecord, String>> {
    #[derive(serde::Deserialize)]
    struct Head {
        version: Option<u64>,
    }
    if schema != Some(u64::from(OLDEST_GAME_RECORD_SCHEMA)) {
        return None;
    }
    let head: Head = serde_json::from_str(text).ok()?;
    if head.version != Some(u64::from(VERSION_1)) {
        return None;
    }
    Some(
        serde_json::from_str::<GameRecord>(text)
            .map_err(|e| format!("not a Little Town record of version {VERSION_1} ({e})"))
            .and_then(|old| to_game_record(&old, path)),
    )
}

/// `old` (a record of version 1 read from `path`, its full log beside it if it kept one)
/// checked as it was played, then made again as the record of today: the same seats,
/// options, draws, actions, faults, timings and places, each seat's gold as its score.
pub fn to_game_record(old: &GameRecord, path: &Path) -> Result<GameRecord, String> {
    arena::seeds::check_seat_seeds(old.seed, &old.seats)?;
    let inputs = GameRecord {
        version: Town.version(),
        ..old.clone()
    };
    let record = arena::rebuild(&TownWire, &inputs)?;
    arena::compare(&as_then(&record), old)?;
    if let Some(log) = &record.full_log {
        let mut reader = arena::full_log::Reader::beside(path, &log.file)?;
        arena::check_log(&TownWire, &record, &mut reader)?;
    }
    Ok(record)
}

/// The record version 1 wrote of the match of `record` (one of today, made by the rules):
/// its ranking and summary by version 1's scores.
pub fn as_then(record: &GameRecord) -> GameRecord {
    let last = crate::play::states(record)
        .pop()
        .expect("the setup at least");
    let mut then = GameRecord {
        version: VERSION_1,
        ranking: ranking(&last),
        ..record.clone()
    };
    then.summary = TownWire.summary(&then);
    then
}

/// Version 1's rule 18: the same places as today's, but a seat out scores minus the number
/// of players still in when it went out (-4 for the first of four out, -3 for the next;
/// seats out at once alike), so that the scores alone gave the places.
pub fn ranking(state: &TownState) -> Ranking {
    let players = state.players();
    let scores = players
        .iter()
        .map(|p| match p.out {
            None => i64::from(p.stock.get(town::Resource::Gold)),
            Some((order, _)) => {
                let in_then = players
                    .iter()
                    .filter(|o| o.out.is_none_or(|(later, _)| later >= order));
                -(in_then.count() as i64)
            }
        })
        .collect();
    Ranking::by_scores(scores)
}
