//! Re-runs a match record through the engine without the champions: every recorded request
//! is made again and must get the recorded answer, and the final digest must match.

use crate::game::result_of;
use crate::record::MatchRecord;
use engine::{Call, Game, Seat, Setup};

/// How a replay went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayReport {
    pub callbacks: usize,
    pub requests: usize,
    /// The digest the replay reached (hex).
    pub digest: String,
}

/// Replay `record`; an error says where the replay and the record part ways.
pub fn replay(record: &MatchRecord) -> Result<ReplayReport, String> {
    let order = Setup::check_order(&record.monument_order)
        .map_err(|e| format!("bad monument order: {e}"))?;
    if record.first_player > 2 {
        return Err(format!("bad first player {}", record.first_player));
    }
    let mut game = Game::new(Setup::with_order(order, Seat(record.first_player)));
    let mut callbacks = record.callbacks.iter().enumerate().peekable();
    let mut requests = 0;
    while let Some(callback) = game.callback() {
        for seat in game.seats_to_play() {
            let Some((index, played)) =
                callbacks.next_if(|(_, c)| c.seat == seat.0 && c.callback == callback)
            else {
                continue; // a stopped seat plays no more
            };
            let expected = (game.state().turn, game.stage().phase());
            if (played.turn, played.phase) != expected {
                return Err(format!(
                    "callback #{index} is recorded at turn {} phase {}, the engine is at turn {} phase {}",
                    played.turn, played.phase, expected.0, expected.1
                ));
            }
            let mut player = game.player(seat);
            for (line, answer) in &played.requests {
                requests += 1;
                if line == "etat" {
                    continue;
                }
                let call: Call = line
                    .parse()
                    .map_err(|e| format!("callback #{index}: request `{line}`: {e}"))?;
                let got = call.apply(&mut player);
                if got != *answer {
                    return Err(format!(
                        "callback #{index} ({callback} of seat {seat}, turn {}): `{line}` answers {got}, the record says {answer}",
                        played.turn
                    ));
                }
            }
        }
        game.advance();
    }
    if let Some((index, extra)) = callbacks.next() {
        return Err(format!(
            "callback #{index} ({} of seat {}) does not fit the game's order",
            extra.callback, extra.seat
        ));
    }
    let result = result_of(&game);
    if result != record.result {
        return Err(format!(
            "the replay ends with digest {} and scores {:?}, the record says digest {} and scores {:?}",
            result.digest, result.final_scores, record.result.digest, record.result.final_scores
        ));
    }
    Ok(ReplayReport {
        callbacks: record.callbacks.len(),
        requests,
        digest: result.digest,
    })
}
