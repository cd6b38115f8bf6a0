//! What a record of a game on the model gives the runner around it: the row of results
//! (places and scores from the ranking, points from the game's table by place, faults, times, a digest of the
//! history), and the page step of each callback and fault (the actions taken by then).

use super::record::GameRecord;
use crate::standings::{MatchRow, PointsTable, SeatTimes};
use game::Step;
use sha2::{Digest, Sha256};

/// The action of `step`, if it is one the rules took (not one they refused).
fn taken(step: &Step) -> Option<&str> {
    match step {
        Step::Act {
            action,
            answer: Ok(_),
            ..
        } => Some(action),
        _ => None,
    }
}

impl GameRecord {
    /// Every step of the match, in order: before the first callback, then each callback's.
    pub fn history(&self) -> impl Iterator<Item = &Step> {
        self.start
            .iter()
            .chain(self.callbacks.iter().flat_map(|c| c.steps.iter()))
    }

    /// The actions taken (those the rules took, not those they refused), as written.
    pub fn actions(&self) -> impl Iterator<Item = &str> {
        self.history().filter_map(taken)
    }

    /// The actions taken, each with the seat that took it, in order.
    pub fn moves(&self) -> impl Iterator<Item = (usize, &str)> {
        self.history().filter_map(|s| match s {
            Step::Act { seat, .. } => taken(s).map(|action| (*seat, action)),
            _ => None,
        })
    }

    /// The seat that acted first (0 when none did).
    pub fn first_player(&self) -> u8 {
        self.history()
            .find_map(|s| match s {
                Step::Act { seat, .. } => Some(*seat as u8),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// A digest of the match: SHA-256 (16 hex digits) of its actions and chance's draws in
    /// order, separated by spaces, so that two runs of a match agree on it exactly when they
    /// played alike. (For a game without chance, the SHA-256 of its actions: the Amazons'
    /// digest of its moves before every game had this record.)
    pub fn history_digest(&self) -> String {
        let words: Vec<String> = self
            .history()
            .filter_map(|s| match s {
                Step::Chance(drawn) => Some(serde_json::to_string(drawn).expect("draws serialise")),
                step => taken(step).map(String::from),
            })
            .collect();
        super::parts::hex(&Sha256::digest(words.join(" ").as_bytes())[..8])
    }

    /// The page step of each callback: the actions taken up to its end.
    pub fn callback_steps(&self) -> Vec<usize> {
        let mut done = 0;
        self.callbacks
            .iter()
            .map(|c| {
                done += c.steps.iter().filter_map(taken).count();
                done
            })
            .collect()
    }

    /// The page step of each fault, in order: its callback's, 0 for a seat that could not
    /// start, the last for output after the end.
    pub fn fault_steps(&self) -> Vec<usize> {
        let steps = self.callback_steps();
        let last = steps.last().copied().unwrap_or(0);
        let started = |seat: u8| self.callbacks.iter().any(|c| c.seat == seat);
        self.faults
            .iter()
            .map(|f| match f.callback {
                Some(i) => steps.get(i).copied().unwrap_or(last),
                None if !started(f.seat) => 0,
                None => last,
            })
            .collect()
    }

    /// The row of results (`id` and `duration_ms` are the runner's), points by `table`.
    pub fn row(&self, table: PointsTable, reproduce: String) -> MatchRow {
        let n = self.seats.len();
        let places = self.ranking.places.clone();
        let times = SeatTimes::of(
            n,
            self.callbacks
                .iter()
                .zip(&self.timings)
                .map(|(c, t)| (usize::from(c.seat), t.cpu_us)),
        );
        MatchRow {
            id: 0,
            seed: self.seed,
            champions: self.seats.iter().map(|s| s.name.clone()).collect(),
            points: crate::standings::points_with(table, &places),
            places,
            scores: self.ranking.scores.iter().map(|&s| s as i32).collect(),
            faults: (0..n as u8)
                .map(|s| self.faults_of(s).next().map(|f| f.kind))
                .collect(),
            calls: times.calls,
            cpu_us: times.cpu_us,
            max_cpu_us: times.max_cpu_us,
            duration_ms: 0,
            digest: self.history_digest(),
            reproduce,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::parts::{BudgetRecord, BudgetsRecord};
    use crate::{CallbackEntry, GameFault, GAME_RECORD_SCHEMA};
    use jail::fault::FaultKind;

    /// A record whose callbacks are `(seat, name, moves it made)`, its faults `(seat,
    /// callback)`.
    fn record(callbacks: &[(u8, &str, usize)], faults: &[(u8, Option<usize>)]) -> GameRecord {
        let zero = BudgetRecord {
            cpu_us: 0,
            wall_us: 0,
        };
        GameRecord {
            schema: GAME_RECORD_SCHEMA,
            game: "amazons".into(),
            version: 1,
            options: Default::default(),
            seed: 0,
            seats: Vec::new(),
            sandbox: String::new(),
            budgets: BudgetsRecord {
                init: zero,
                call: zero,
            },
            start: Vec::new(),
            callbacks: callbacks
                .iter()
                .map(|&(seat, name, moves)| CallbackEntry {
                    seat,
                    callback: name.into(),
                    steps: (0..moves)
                        .map(|_| Step::Act {
                            seat: usize::from(seat),
                            action: "d1-d7/g7".into(),
                            answer: Ok("ok".into()),
                        })
                        .chain([Step::Act {
                            seat: usize::from(seat),
                            action: "refused".into(),
                            answer: Err(game::Illegal("no".into())),
                        }])
                        .collect(),
                    refused: Default::default(),
                    requests: 0,
                    digest: String::new(),
                    fault: None,
                })
                .collect(),
            faults: faults
                .iter()
                .map(|&(seat, callback)| GameFault {
                    seat,
                    callback,
                    kind: FaultKind::Crash,
                    message: String::new(),
                })
                .collect(),
            ranking: game::Ranking {
                places: vec![],
                scores: vec![],
            },
            summary: serde_json::Value::Null,
            full_log: None,
            timings: Vec::new(),
        }
    }

    #[test]
    fn each_callback_and_fault_shows_on_the_step_it_left() {
        let whole = record(
            &[
                (0, "init_game", 0),
                (1, "init_game", 0),
                (0, "jouer", 1),
                (1, "jouer", 1),
                (0, "jouer", 0),
                (1, "end_game", 0),
            ],
            &[(0, Some(4)), (1, None), (2, None)],
        );
        // Refused actions are no step; a callback that faulted before acting shows on the
        // board it faced; output after the end on the last; a seat that never started on 0.
        assert_eq!(whole.callback_steps(), [0, 0, 1, 2, 2, 2]);
        assert_eq!(whole.fault_steps(), [2, 2, 0]);
        assert_eq!(whole.actions().count(), 2);
    }
}
