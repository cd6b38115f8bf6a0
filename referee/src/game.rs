//! "La loi du plus riche" behind the runner's seam ([`Rules`]): callbacks in the engine's
//! order, requests answered through the engine, and the match turned into a
//! [`MatchRecord`]. The runner's loop (`match_loop.rs`) drives it; a fault stops a seat for
//! the rest of the match (rule 28).

use crate::endpoint::{CallLimits, CallTiming, Endpoint};
use crate::full_log::Sink;
use crate::protocol::Request;
use crate::record::{
    BudgetsRecord, CallbackRecord, FaultRecord, MatchRecord, RequestLog, ResultRecord, SeatRecord,
    TimingRecord, RECORD_SCHEMA,
};
use crate::rules::{Reply, Rules, Step};
use engine::{Callback, Game, Kind, Seat, Setup, Stage};
use jail::fault::Fault;

pub use crate::endpoint::TimeLimits;

impl TimeLimits {
    /// The allowance of `callback`: its CPU budget, and a wall deadline of 3x that + 1 s.
    pub fn of(&self, callback: Callback) -> CallLimits {
        self.allowance(callback == Callback::InitGame)
    }
}

/// Everything a match needs besides the champions themselves.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    pub seed: u64,
    pub monument_order: [u8; 14],
    pub first_player: Seat,
    pub seats: [SeatRecord; 3],
    pub limits: TimeLimits,
    pub sandbox: String,
}

/// Play a whole match. `spawn_faults[s]` is the fault of a seat whose champion could not
/// start (its endpoint is then never used). Every champion is finished or killed on return.
pub fn play(
    spec: &MatchSpec,
    endpoints: [&mut dyn Endpoint; 3],
    spawn_faults: [Option<Fault>; 3],
) -> MatchRecord {
    play_logged(spec, endpoints, spawn_faults, None)
}

/// [`play`], sending every request to `full_log` as it is made (`--full-log`).
pub fn play_logged(
    spec: &MatchSpec,
    endpoints: [&mut dyn Endpoint; 3],
    spawn_faults: [Option<Fault>; 3],
    full_log: Option<&mut dyn Sink>,
) -> MatchRecord {
    let mut rules = Loi::new(spec, full_log);
    let mut endpoints = endpoints;
    crate::match_loop::run(&mut rules, &mut endpoints, spawn_faults.into());
    rules.finish()
}

/// The 2009 game's side of one match: the engine's game, the record being written, and the
/// callback being played.
pub struct Loi<'a> {
    game: Game,
    limits: TimeLimits,
    record: MatchRecord,
    full_log: Option<&'a mut dyn Sink>,
    /// The callback being played now, and for the seat playing it, its record and requests.
    callback: Option<Callback>,
    current: Option<(CallbackRecord, RequestLog)>,
}

impl<'a> Loi<'a> {
    /// A match of `spec` about to start.
    pub fn new(spec: &MatchSpec, full_log: Option<&'a mut dyn Sink>) -> Loi<'a> {
        Loi {
            game: Game::new(Setup::with_order(spec.monument_order, spec.first_player)),
            limits: spec.limits,
            record: MatchRecord {
                schema: RECORD_SCHEMA,
                seed: spec.seed,
                monument_order: spec.monument_order.to_vec(),
                first_player: spec.first_player.0,
                seats: spec.seats.to_vec(),
                sandbox: spec.sandbox.clone(),
                budgets: Some(BudgetsRecord::of(&spec.limits)),
                callbacks: Vec::new(),
                faults: Vec::new(),
                result: ResultRecord::default(),
                timings: Vec::new(),
                full_log: None,
                full_log_cap: None,
                full_log_cut: None,
            },
            full_log,
            callback: None,
            current: None,
        }
    }

    /// One callback alone, outside a match (the pre-run check plays `init_game` so):
    /// `callback` is the current one, for `seat`.
    pub fn single(callback: Callback, seat: usize) -> Loi<'static> {
        let spec = MatchSpec {
            seed: 0,
            monument_order: Setup::from_seed(0).monument_order,
            first_player: Seat(0),
            seats: std::array::from_fn(|_| SeatRecord::default()),
            limits: TimeLimits::default(),
            sandbox: String::new(),
        };
        let mut loi = Loi::new(&spec, None);
        loi.callback = Some(callback);
        loi.begin(seat);
        loi
    }

    /// Requests answered in the callback being played.
    pub fn requests(&self) -> u64 {
        self.current.as_ref().map_or(0, |(_, log)| log.len())
    }

    /// The record of the finished match.
    pub fn finish(mut self) -> MatchRecord {
        self.record.result = result_of(&self.game);
        self.record
    }

    fn fault_record(&self, seat: usize, fault: &Fault) -> FaultRecord {
        FaultRecord {
            seat: seat as u8,
            turn: self.game.state().turn,
            phase: self.game.stage().phase(),
            callback: self.callback,
            kind: fault.kind,
            message: fault.message.clone(),
        }
    }
}

impl Rules for Loi<'_> {
    fn next_step(&mut self) -> Option<Step> {
        let callback = self.game.callback()?;
        self.callback = Some(callback);
        Some(Step {
            name: callback.name(),
            limits: self.limits.of(callback),
            seats: self
                .game
                .seats_to_play()
                .into_iter()
                .map(Seat::index)
                .collect(),
        })
    }

    fn begin(&mut self, seat: usize) {
        let record = CallbackRecord {
            turn: self.game.state().turn,
            phase: self.game.stage().phase(),
            seat: seat as u8,
            callback: self.callback.expect("a callback is being played"),
            requests: 0,
            actions: Vec::new(),
            info: Default::default(),
            refused: Default::default(),
            digest: String::new(),
            fault: None,
        };
        self.current = Some((record, RequestLog::new()));
    }

    fn request(&mut self, seat: usize, line: &str) -> Result<Reply, String> {
        let callback = self.callback.expect("a callback is being played");
        let (_, log) = self.current.as_mut().expect("a callback is being played");
        let answer = match Request::parse(line, callback)? {
            Request::Fin => return Ok(Reply::End),
            Request::Etat => {
                log.etat();
                (
                    loi_protocol::etat::encode(&mut self.game.player(Seat(seat as u8))),
                    0,
                )
            }
            Request::Call(call) => {
                let answer = call.apply(&mut self.game.player(Seat(seat as u8)));
                log.call(&call, answer);
                (answer.to_string(), answer)
            }
        };
        if let Some(sink) = self.full_log.as_deref_mut() {
            sink.request(self.record.callbacks.len(), log.last_request(), answer.1);
        }
        Ok(Reply::Answer(answer.0))
    }

    fn end(&mut self, seat: usize, fault: Option<&Fault>, timing: CallTiming) {
        let (mut record, log) = self.current.take().expect("a callback is being played");
        log.into_record(&mut record);
        if let Some(fault) = fault {
            record.fault = Some(fault.clone());
            let fault = FaultRecord {
                turn: record.turn,
                phase: record.phase,
                ..self.fault_record(seat, fault)
            };
            self.record.faults.push(fault);
        }
        self.record.callbacks.push(record);
        self.record.timings.push(TimingRecord::from(timing));
    }

    fn advance(&mut self) {
        self.game.advance();
    }

    fn spawn_fault(&mut self, seat: usize, fault: &Fault) {
        self.record
            .faults
            .push(FaultRecord::outside(seat, 1, None, fault));
    }

    /// Rule 28: a seat stopped by a fault is ranked by its final score as any seat, so a
    /// fault after its last callback changes no score; the record and the row keep it.
    fn late_fault(&mut self, seat: usize, fault: &Fault) {
        let turn = self.game.state().turn;
        self.record.faults.push(FaultRecord::outside(
            seat,
            turn,
            Some(Callback::EndGame),
            fault,
        ));
    }

    fn late_output(&mut self, seat: usize, line: &str) {
        let turn = self.game.state().turn;
        self.record.faults.push(FaultRecord::late_output(
            seat,
            turn,
            Some(Callback::EndGame),
            line,
        ));
    }
}

/// The result of a finished game.
pub fn result_of(game: &Game) -> ResultRecord {
    let state = game.state();
    let outcome = game.outcome();
    let houses = Seat::ALL.map(|s| {
        state
            .board
            .cells()
            .iter()
            .filter(|c| c.kind == Kind::Maison && c.owner == Some(s))
            .count() as u32
    });
    debug_assert_eq!(game.stage(), Stage::Over);
    ResultRecord {
        final_scores: outcome.final_scores,
        money: state.money,
        houses,
        points: outcome.points,
        digest: format!("{:016x}", game.digest()),
    }
}
