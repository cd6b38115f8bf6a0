//! What the 2009 game's tests read of a match's record (today's, `arena::GameRecord`): the
//! record checked, its timeline, its result as the rules give it at the end (each seat's
//! final score, money, houses and tournament points, and the engine's digest), and its
//! faults by seat (class, own message, callback and turn), through one reader, [`Match`].

use arena::GameRecord;
use referee::games::loi_play::{final_state, LOI};
use std::path::{Path, PathBuf};

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

/// A fault of a 2009 match, as a user reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatFault {
    pub seat: usize,
    /// Its class (`timeout`, `memory`, `crash`, `protocol`, ...).
    pub kind: String,
    /// The fault's own message (the record's list of faults puts the callback's name
    /// before it).
    pub message: String,
    /// The callback it ended (`None` for a seat that could not start, or for work after
    /// its last callback: outside every callback).
    pub callback: Option<String>,
    /// The turn of that callback (0 for `init_game` and `end_game`).
    pub turn: Option<u8>,
}

/// A 2009 match played by the referee: its folder and its checked record.
pub struct Match {
    pub dir: PathBuf,
    pub record: GameRecord,
}

impl Match {
    /// The match whose folder is `dir` (its `record.json` checked against the rules).
    pub fn read(dir: &Path) -> Match {
        Match {
            dir: dir.to_path_buf(),
            record: load_in(dir),
        }
    }

    /// [`Match::read`], or `None` when `dir` holds no record.
    pub fn read_if_any(dir: &Path) -> Option<Match> {
        dir.join("record.json").is_file().then(|| Match::read(dir))
    }

    /// Its record's path.
    pub fn path(&self) -> PathBuf {
        self.dir.join("record.json")
    }

    /// The match was played to its end (the rules' last stage reached).
    pub fn completed(&self) -> bool {
        final_state(&self.record)
            .ok()
            .and_then(|s| s.game().map(|g| g.callback().is_none()))
            .unwrap_or(false)
    }

    /// Its result at its end.
    pub fn result(&self) -> Result {
        result(&self.record)
    }

    /// Each seat's final score (rule 9).
    pub fn scores(&self) -> [i32; 3] {
        self.result().final_scores
    }

    /// The program of `seat`, as the record names it.
    pub fn seat_path(&self, seat: usize) -> &str {
        &self.record.seats[seat].path
    }

    /// The callbacks `seat` played, by name, in order.
    pub fn callbacks(&self, seat: usize) -> Vec<&str> {
        self.record
            .callbacks
            .iter()
            .filter(|c| usize::from(c.seat) == seat)
            .map(|c| c.callback.as_str())
            .collect()
    }

    /// Every fault, in order.
    pub fn faults(&self) -> Vec<SeatFault> {
        let turns = self.turns();
        self.record
            .faults
            .iter()
            .map(|f| {
                let entry = f.callback.and_then(|i| self.record.callbacks.get(i));
                SeatFault {
                    seat: usize::from(f.seat),
                    kind: f.kind.name().to_string(),
                    message: entry
                        .and_then(|c| c.fault.as_ref())
                        .map_or(f.message.clone(), |own| own.message.clone()),
                    callback: entry.map(|c| c.callback.clone()),
                    turn: f.callback.and_then(|i| turns.get(i).copied()),
                }
            })
            .collect()
    }

    /// The faults of `seat`, in order.
    pub fn faults_of(&self, seat: usize) -> Vec<SeatFault> {
        self.faults()
            .into_iter()
            .filter(|f| f.seat == seat)
            .collect()
    }

    /// The turn of each callback of the record, in order.
    fn turns(&self) -> Vec<u8> {
        timeline(&self.record)
            .steps
            .iter()
            .filter(|s| matches!(s.kind, referee::view::timeline::StepKind::Callback))
            .map(|s| s.turn)
            .collect()
    }
}

/// `referee match`'s table of a 2009 match with each fault's place (`in jouer of turn 1
/// phase I: `, which a record of before's table did not name) taken out: the columns the
/// tables of before and of today share.
pub fn without_fault_places(table: &str) -> String {
    let mut out = String::new();
    let mut rest = table;
    while let Some(at) = rest.find(": in ") {
        out.push_str(&rest[..at + 2]);
        let after = &rest[at + 5..];
        match after.find(": ") {
            Some(end) if !after[..end].contains('\n') => rest = &after[end + 2..],
            _ => {
                out.push_str("in ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
