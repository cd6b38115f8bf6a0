//! The Game of the Amazons behind the runner's seam: `protocol-amazons.md` spoken to two
//! seats (seat 0 plays White and moves first), the `amazons` crate's rules, and the match
//! kept as an [`AmazonsRecord`].

use crate::endpoint::{CallLimits, CallTiming};
use crate::record::{BudgetRecord, BudgetsRecord, FaultRecord, SeatRecord, TimingRecord};
use crate::rules::{Reply, Rules, Step};
use amazons::{Board, Cell, Color, IllegalMove, Move, Square};
use jail::fault::Fault;
use serde::{Deserialize, Serialize};

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

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Init,
    Play,
    Over,
}

/// The Amazons side of one match.
pub struct Amazons {
    board: Board,
    stage: Stage,
    /// Per-callback allowances: `init_game`'s, then every other callback's.
    init_limits: CallLimits,
    call_limits: CallLimits,
    /// Seats stopped by a fault.
    stopped: [bool; 2],
    /// The seats stopped when the game ended (before `end_game`): they decide the result,
    /// and a fault in `end_game` changes nothing.
    stopped_at_end: Option<[bool; 2]>,
    /// The callback being played, and whether its seat has moved in it.
    callback: &'static str,
    moved: bool,
    requests: u64,
    record: AmazonsRecord,
}

/// The `deplacer` request of `m` (protocol-amazons.md section 3).
pub fn deplacer_line(m: Move) -> String {
    let (f, t, a) = (m.from, m.to, m.arrow);
    format!(
        "deplacer {} {} {} {} {} {}",
        f.column(),
        f.row(),
        t.column(),
        t.row(),
        a.column(),
        a.row()
    )
}

/// The board an `etat` answer describes, for the player `me` it was sent to (digits 1 are
/// its amazons), with `me` to move.
pub fn board_from_etat(etat: &str, me: Color) -> Board {
    let cells = std::array::from_fn(|i| match etat.as_bytes().get(i) {
        Some(b'0') => Cell::Empty,
        Some(b'1') => Cell::Amazon(me),
        Some(b'2') => Cell::Amazon(me.other()),
        _ => Cell::Arrow,
    });
    Board::with(cells, me)
}

/// A callback's allowance as the record keeps it.
fn budget(limits: CallLimits) -> BudgetRecord {
    BudgetRecord {
        cpu_us: limits.cpu.as_micros() as u64,
        wall_us: limits.wall.as_micros() as u64,
    }
}

/// The colour of `seat`.
fn color(seat: usize) -> Color {
    if seat == 0 {
        Color::White
    } else {
        Color::Black
    }
}

impl Amazons {
    /// A match about to start.
    pub fn new(
        seed: u64,
        seats: [SeatRecord; 2],
        sandbox: String,
        init_limits: CallLimits,
        call_limits: CallLimits,
    ) -> Amazons {
        Amazons {
            board: Board::start(),
            stage: Stage::Init,
            init_limits,
            call_limits,
            stopped: [false; 2],
            stopped_at_end: None,
            callback: "init_game",
            moved: false,
            requests: 0,
            record: AmazonsRecord {
                schema: AMAZONS_SCHEMA,
                game: "amazons".into(),
                seed,
                seats: seats.to_vec(),
                sandbox,
                moves: Vec::new(),
                isolated_after: None,
                callbacks: Vec::new(),
                faults: Vec::new(),
                winner: None,
                timings: Vec::new(),
                budgets: Some(BudgetsRecord {
                    init: budget(init_limits),
                    call: budget(call_limits),
                }),
            },
        }
    }

    /// The record of the finished match.
    pub fn finish(mut self) -> AmazonsRecord {
        self.record.winner = winner(self.stopped_at_end.unwrap_or(self.stopped), &self.board);
        self.record
    }

    /// The page's `case` of `square` for `seat`.
    fn case(&self, seat: usize, square: Square) -> u8 {
        match self.board.cell(square) {
            Cell::Empty => 0,
            Cell::Amazon(c) if c == color(seat) => 1,
            Cell::Amazon(_) => 2,
            Cell::Arrow => 3,
        }
    }

    /// `deplacer`'s answer (protocol-amazons.md section 3), playing the move if legal.
    fn deplacer(&mut self, args: &[i32]) -> i32 {
        if self.callback != "jouer" || self.moved {
            return -1;
        }
        let square = |x: i32, y: i32| {
            let x = u8::try_from(x).ok()?;
            let y = u8::try_from(y).ok()?;
            Square::new(x, y)
        };
        let (Some(from), Some(to), Some(arrow)) = (
            square(args[0], args[1]),
            square(args[2], args[3]),
            square(args[4], args[5]),
        ) else {
            return -2;
        };
        let m = Move { from, to, arrow };
        match self.board.play(m) {
            Ok(()) => {
                self.moved = true;
                self.record.moves.push(m.to_string());
                if self.record.isolated_after.is_none() && self.board.isolated() {
                    self.record.isolated_after = Some(self.record.moves.len());
                }
                0
            }
            Err(IllegalMove::NotYourAmazon(_)) => -3,
            Err(IllegalMove::CannotReach { .. }) => -4,
            Err(IllegalMove::CannotShoot { .. }) => -5,
        }
    }
}

impl Rules for Amazons {
    fn next_step(&mut self) -> Option<Step> {
        let live: Vec<usize> = (0..2).filter(|&s| !self.stopped[s]).collect();
        let (name, seats) = match self.stage {
            Stage::Init => {
                self.stage = Stage::Play;
                ("init_game", live)
            }
            Stage::Play if live.len() == 2 && self.board.can_move() => {
                let seat = usize::from(self.board.to_move() == Color::Black);
                ("jouer", vec![seat])
            }
            Stage::Play => {
                self.stage = Stage::Over;
                self.stopped_at_end = Some(self.stopped);
                ("end_game", live)
            }
            Stage::Over => return None,
        };
        self.callback = name;
        let limits = if name == "init_game" {
            self.init_limits
        } else {
            self.call_limits
        };
        Some(Step {
            name,
            limits,
            seats,
        })
    }

    fn begin(&mut self, _seat: usize) {
        self.moved = false;
        self.requests = 0;
    }

    fn request(&mut self, seat: usize, line: &str) -> Result<Reply, String> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let quoted = || jail::fault::quote(line.as_bytes());
        let mut words = line.split_ascii_whitespace();
        let name = words.next().unwrap_or("");
        let args: Vec<i32> = words
            .map(|w| w.parse::<i32>())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                format!(
                    "`{}` during {}: arguments are 32-bit integers",
                    quoted(),
                    self.callback
                )
            })?;
        let arity = |n: usize| {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!(
                    "wrong number of arguments in `{}` during {}: `{name}` takes {n}",
                    quoted(),
                    self.callback
                ))
            }
        };
        let answer = match name {
            "fin" => {
                arity(0)?;
                if self.callback == "jouer" && !self.moved {
                    return Err(
                        "ended jouer without a move; a player who can move must move \
                                (protocol-amazons.md section 2)"
                            .to_string(),
                    );
                }
                return Ok(Reply::End);
            }
            "etat" => {
                arity(0)?;
                let line = Square::all()
                    .map(|s| char::from(b'0' + self.case(seat, s)))
                    .collect();
                self.requests += 1;
                return Ok(Reply::Answer(line));
            }
            "case" => {
                arity(2)?;
                match (u8::try_from(args[0]), u8::try_from(args[1])) {
                    (Ok(x), Ok(y)) => {
                        Square::new(x, y).map_or(-2, |s| i32::from(self.case(seat, s)))
                    }
                    _ => -2,
                }
            }
            "couleur" => {
                arity(0)?;
                i32::from(color(seat) == Color::Black)
            }
            "numero_coup" => {
                arity(0)?;
                self.record.moves.len() as i32
            }
            "mon_tour" => {
                arity(0)?;
                i32::from(self.callback == "jouer" && !self.moved)
            }
            "deplacer" => {
                arity(6)?;
                self.deplacer(&args)
            }
            _ => {
                return Err(format!(
                    "unknown request `{}` during {}: expected case, couleur, numero_coup, \
                     mon_tour, deplacer, etat or fin (logs belong on stderr)",
                    quoted(),
                    self.callback
                ))
            }
        };
        self.requests += 1;
        Ok(Reply::Answer(answer.to_string()))
    }

    fn end(&mut self, seat: usize, fault: Option<&Fault>, timing: CallTiming) {
        if let Some(fault) = fault {
            self.stopped[seat] = true;
            self.record.faults.push(FaultRecord {
                seat: seat as u8,
                turn: self.record.moves.len() as u8,
                phase: 0,
                callback: None,
                kind: fault.kind,
                message: format!("{}: {}", self.callback, fault.message),
            });
        }
        self.record.callbacks.push(AmazonsCallback {
            seat: seat as u8,
            callback: self.callback.to_string(),
            requests: self.requests,
            fault: fault.cloned(),
        });
        self.record.timings.push(TimingRecord::from(timing));
    }

    fn advance(&mut self) {}

    fn spawn_fault(&mut self, seat: usize, fault: &Fault) {
        self.stopped[seat] = true;
        self.record
            .faults
            .push(FaultRecord::outside(seat, 0, None, fault));
    }

    fn late_output(&mut self, seat: usize, line: &str) {
        let turn = self.record.moves.len() as u8;
        self.record
            .faults
            .push(FaultRecord::late_output(seat, turn, None, line));
    }
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
    super::amazons_faults::check(record)?;
    Ok(boards)
}
