//! The Amazons' first record ([`AmazonsRecord`], schema 1), written before every game had
//! one record: read, checked as it was ([`verify`]), and turned into the record of today
//! ([`to_game_record`]), so that the matches kept from then still replay, show and merge.

use amazons::{Board, Color, Move};
use arena::parts::{BudgetRecord, BudgetsRecord, SeatRecord, TimingRecord};
use arena::{CallbackEntry, GameFault, GameRecord, GAME_RECORD_SCHEMA};
use jail::fault::{Fault, FaultKind};
use serde::{Deserialize, Serialize};

/// A fault of schema 1, where it happened: the fields the 2009 record's faults had (the
/// referee of then wrote both alike); an Amazons fault is never in a callback's requests
/// (`callback` is always empty, `phase` 0, `turn` the moves played before it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRecord {
    pub seat: u8,
    pub turn: u8,
    pub phase: u8,
    pub callback: Option<String>,
    pub kind: FaultKind,
    pub message: String,
}

/// Version of the Amazons record.
pub const AMAZONS_SCHEMA: u32 = 1;

/// One Amazons match, as played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AmazonsRecord {
    pub schema: u32,
    /// Always `amazons`.
    pub game: String,
    pub seed: u64,
    /// Seat 0 plays White (moves first), seat 1 Black.
    pub seats: Vec<SeatRecord>,
    /// The sandbox line of the run (which layers were on).
    pub sandbox: String,
    /// Every move, in order (`d1-d7/g7`); White's are the even ones.
    pub moves: Vec<String>,
    /// The number of moves after which no amazon could reach one of the other colour any
    /// more (each player then only fills their own region), if that happened.
    pub isolated_after: Option<usize>,
    /// Every callback played: its seat, name and requests.
    pub callbacks: Vec<AmazonsCallback>,
    pub faults: Vec<FaultRecord>,
    /// The winning seat (`None` only if both seats faulted).
    pub winner: Option<u8>,
    /// Time used, one entry per element of `callbacks`: CPU, wall, and the bytes of the
    /// seat's stderr the callback wrote (its console on the replay page).
    pub timings: Vec<TimingRecord>,
    /// The callbacks' time allowances, as scaled (absent in records written before them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budgets: Option<BudgetsRecord>,
}

/// One callback of one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmazonsCallback {
    pub seat: u8,
    pub callback: String,
    pub requests: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
}

/// The winning seat of a game that ended on `board` with the seats `stopped` by faults
/// when it was decided: the one seat still playing, else the board's winner; `None` when
/// both were stopped. The referee (`Amazons::finish`) and the record check ([`verify`])
/// both decide by it.
fn winner(stopped: [bool; 2], board: &Board) -> Option<u8> {
    match stopped {
        [true, true] => None,
        [true, false] => Some(1),
        [false, true] => Some(0),
        [false, false] => board.winner().map(|c| u8::from(c == Color::Black)),
    }
}

/// Checks that `record` is what a match writes: its schema and game, two seats, every move
/// legal from the start, the callbacks in the order the referee sends them (`init_game` to
/// each seat that started, a `jouer` per move to the player to move while both play and it
/// can move, `end_game` to each seat still playing), the faults on seats of the match, and
/// the winner and the isolation that these moves and faults make. Returns the board before
/// the first move and after each one; otherwise what is wrong, with the move or callback.
///
/// A seat is stopped by a fault in one of its callbacks, or by one at its start (a seat
/// with no callback at all); a seat still playing at the end may hold only a `protocol`
/// fault (output after `end_game`), which changes no result.
pub fn verify(record: &AmazonsRecord) -> Result<Vec<Board>, String> {
    if record.game != "amazons" || record.schema != AMAZONS_SCHEMA {
        return Err(format!(
            "it is a record of game `{}`, schema {}; this referee reads Amazons records of \
             schema {AMAZONS_SCHEMA}",
            record.game, record.schema
        ));
    }
    if record.seats.len() != 2
        || record
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| usize::from(s.seat) != i)
    {
        return Err(format!(
            "an Amazons record has seats 0 and 1, this one {:?}",
            record.seats.iter().map(|s| s.seat).collect::<Vec<_>>()
        ));
    }
    if let Some(f) = record.faults.iter().find(|f| f.seat > 1) {
        return Err(format!(
            "a fault of seat {}, which is not in the match",
            f.seat
        ));
    }
    if let Some(c) = record.callbacks.iter().find(|c| c.seat > 1) {
        return Err(format!(
            "a callback of seat {}, which is not in the match",
            c.seat
        ));
    }
    let mut board = Board::start();
    let mut boards = vec![board.clone()];
    for (i, text) in record.moves.iter().enumerate() {
        let m: Move = text.parse().map_err(|e| format!("move {}: {e}", i + 1))?;
        board
            .play(m)
            .map_err(|e| format!("move {} `{m}` is illegal: {e}", i + 1))?;
        boards.push(board.clone());
    }
    // A seat without any callback could not start: it must hold that fault.
    let mut stopped: [bool; 2] =
        std::array::from_fn(|s| !record.callbacks.iter().any(|c| usize::from(c.seat) == s));
    for (s, &stopped) in stopped.iter().enumerate() {
        if stopped && !record.faults.iter().any(|f| usize::from(f.seat) == s) {
            return Err(format!(
                "seat {s} played no callback but holds no fault that kept it from starting"
            ));
        }
    }
    let mut callbacks = record.callbacks.iter().enumerate();
    let mut expect = |seat: usize, name: &str| -> Result<bool, String> {
        match callbacks.next() {
            Some((_, c)) if usize::from(c.seat) == seat && c.callback == name => {
                Ok(c.fault.is_some())
            }
            Some((i, c)) => Err(format!(
                "callback {} is `{}` of seat {}, where the referee sends `{name}` to seat {seat}",
                i + 1,
                c.callback,
                c.seat
            )),
            None => Err(format!(
                "the callbacks end where the referee sends `{name}` to seat {seat}"
            )),
        }
    };
    for (s, stopped) in stopped.iter_mut().enumerate() {
        if !*stopped && expect(s, "init_game")? {
            *stopped = true;
        }
    }
    let mut played = 0;
    while stopped == [false, false] && boards[played].can_move() {
        let seat = usize::from(boards[played].to_move() == Color::Black);
        if expect(seat, "jouer")? {
            stopped[seat] = true;
            // A move played before the fault stands.
            played = (played + 1).min(record.moves.len());
            break;
        }
        if played == record.moves.len() {
            return Err(format!(
                "the callback `jouer` after move {played} ended without a fault but the \
                 record holds no move {}",
                played + 1
            ));
        }
        played += 1;
    }
    if played != record.moves.len() {
        return Err(format!(
            "{} moves are recorded, but the callbacks play {played}",
            record.moves.len()
        ));
    }
    // The result is decided here: a fault in `end_game` changes nothing.
    let decided = stopped;
    for (s, stopped) in stopped.iter_mut().enumerate() {
        if !*stopped && expect(s, "end_game")? {
            *stopped = true;
        }
    }
    if let Some((i, c)) = callbacks.next() {
        return Err(format!(
            "callback {} (`{}` of seat {}) follows the end of the game",
            i + 1,
            c.callback,
            c.seat
        ));
    }
    if let Some(f) = record
        .faults
        .iter()
        .find(|f| !stopped[usize::from(f.seat)] && f.kind != jail::fault::FaultKind::Protocol)
    {
        return Err(format!(
            "seat {} played to the end, yet holds a `{}` fault",
            f.seat,
            f.kind.name()
        ));
    }
    let winner = winner(decided, boards.last().expect("the start at least"));
    if record.winner != winner {
        let seat = |w: Option<u8>| w.map_or("no seat".to_string(), |w| format!("seat {w}"));
        return Err(format!(
            "the moves and faults make {} the winner, the record says {}",
            seat(winner),
            seat(record.winner)
        ));
    }
    let isolated = boards.iter().position(Board::isolated);
    if isolated != record.isolated_after {
        return Err(format!(
            "the colours are isolated after move {isolated:?}, the record says {:?}",
            record.isolated_after
        ));
    }
    crate::v1_faults::check(record)?;
    Ok(boards)
}

/// The record of today of the match `old` (a schema-1 record that passes [`verify`]): its
/// history made again by the rules from its moves, callbacks, faults and timings.
pub fn to_game_record(old: &AmazonsRecord) -> Result<GameRecord, String> {
    verify(old)?;
    let has_callbacks = |seat: u8| old.callbacks.iter().any(|c| c.seat == seat);
    let mut moves = old.moves.iter();
    let callbacks: Vec<CallbackEntry> = old
        .callbacks
        .iter()
        .map(|c| CallbackEntry {
            seat: c.seat,
            callback: c.callback.clone(),
            // Each `jouer` played the next move (one that faulted, if the record holds it).
            steps: match c.callback.as_str() {
                "jouer" => moves
                    .next()
                    .map(|m| game::Step::Act {
                        seat: usize::from(c.seat),
                        action: m.clone(),
                        answer: Ok("ok".into()),
                    })
                    .into_iter()
                    .collect(),
                _ => Vec::new(),
            },
            refused: Default::default(),
            requests: c.requests,
            digest: String::new(),
            fault: c.fault.clone(),
        })
        .collect();
    // The faults outside callbacks: at the start (a seat without callbacks), or after the
    // end; a callback's own fault is written again from the callback.
    let mut faulted = old.callbacks.iter().filter(|c| c.fault.is_some());
    let mut next_faulted = faulted.next();
    let mut faults = Vec::new();
    for f in &old.faults {
        let of_callback = next_faulted.is_some_and(|c| {
            c.seat == f.seat
                && c.fault
                    .as_ref()
                    .is_some_and(|fault| f.message == format!("{}: {}", c.callback, fault.message))
        });
        if of_callback {
            next_faulted = faulted.next();
        } else {
            faults.push(GameFault {
                seat: f.seat,
                callback: None,
                kind: f.kind,
                message: f.message.clone(),
            });
        }
    }
    let zero = BudgetRecord {
        cpu_us: 0,
        wall_us: 0,
    };
    let inputs = GameRecord {
        schema: GAME_RECORD_SCHEMA,
        game: "amazons".into(),
        version: 1,
        options: game::Options::default(),
        seed: old.seed,
        seats: old.seats.clone(),
        sandbox: old.sandbox.clone(),
        budgets: old.budgets.unwrap_or(BudgetsRecord {
            init: zero,
            call: zero,
        }),
        start: (0..2)
            .filter(|&s| !has_callbacks(s as u8))
            .map(game::Step::Retire)
            .collect(),
        callbacks,
        faults,
        ranking: game::Ranking {
            places: vec![],
            scores: vec![],
        },
        summary: serde_json::Value::Null,
        full_log: None,
        timings: old.timings.clone(),
    };
    let record = arena::rebuild(&crate::wire::AmazonsWire, &inputs)?;
    let winner = record.ranking.winners();
    let same = match old.winner {
        Some(w) => winner == [usize::from(w)],
        None => winner.len() == 2,
    };
    match same && record.faults.len() == old.faults.len() {
        true => Ok(record),
        false => Err(format!(
            "its match made again ends ranked {:?} with {} faults, the record says winner \
             {:?} with {}",
            record.ranking,
            record.faults.len(),
            old.winner,
            old.faults.len()
        )),
    }
}
