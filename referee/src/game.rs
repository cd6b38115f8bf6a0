//! Plays one match between three endpoints and turns it into a [`MatchRecord`]: callbacks in
//! the engine's order, requests answered through the engine, faults contained (rule 28).

use crate::endpoint::{CallLimits, Endpoint};
use crate::fault::{Fault, FaultKind};
use crate::full_log::Sink;
use crate::protocol::{quote, Request};
use crate::record::{
    CallbackRecord, FaultRecord, MatchRecord, RequestLog, ResultRecord, SeatRecord, TimingRecord,
    RECORD_SCHEMA,
};
use engine::{Callback, Game, Kind, Seat, Setup, Stage};
use std::time::Duration;

/// Per-callback time allowances (protocol.md section 5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLimits {
    /// CPU budget of `init_game` (start-up included).
    pub init_cpu: Duration,
    /// CPU budget of every other callback.
    pub call_cpu: Duration,
    /// Multiplies every budget and deadline (slow machines, debuggers, quick tests).
    pub scale: f64,
}

impl Default for TimeLimits {
    fn default() -> TimeLimits {
        TimeLimits {
            init_cpu: Duration::from_secs(10),
            call_cpu: Duration::from_secs(1),
            scale: 1.0,
        }
    }
}

impl TimeLimits {
    /// The allowance of `callback`: its CPU budget, and a wall deadline of 3x that + 1 s.
    pub fn of(&self, callback: Callback) -> CallLimits {
        let cpu = if callback == Callback::InitGame {
            self.init_cpu
        } else {
            self.call_cpu
        };
        let wall = cpu * 3 + Duration::from_secs(1);
        CallLimits {
            cpu: cpu.mul_f64(self.scale),
            wall: wall.mul_f64(self.scale),
        }
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

/// A seat during the match: its endpoint, or why it was stopped.
struct Contestant<'a> {
    endpoint: &'a mut dyn Endpoint,
    stopped: bool,
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
    mut full_log: Option<&mut dyn Sink>,
) -> MatchRecord {
    let mut game = Game::new(Setup::with_order(spec.monument_order, spec.first_player));
    let mut record = MatchRecord {
        schema: RECORD_SCHEMA,
        seed: spec.seed,
        monument_order: spec.monument_order.to_vec(),
        first_player: spec.first_player.0,
        seats: spec.seats.to_vec(),
        sandbox: spec.sandbox.clone(),
        callbacks: Vec::new(),
        faults: Vec::new(),
        result: ResultRecord::default(),
        timings: Vec::new(),
        full_log: None,
    };
    let mut contestants: Vec<Contestant> = endpoints
        .into_iter()
        .map(|endpoint| Contestant {
            endpoint,
            stopped: false,
        })
        .collect();
    for (seat, fault) in spawn_faults.into_iter().enumerate() {
        if let Some(fault) = fault {
            contestants[seat].stopped = true;
            record.faults.push(FaultRecord {
                seat: seat as u8,
                turn: 1,
                phase: 0,
                callback: None,
                kind: fault.kind,
                message: fault.message,
            });
        }
    }
    while let Some(callback) = game.callback() {
        for seat in game.seats_to_play() {
            let contestant = &mut contestants[seat.index()];
            if contestant.stopped {
                continue;
            }
            let index = record.callbacks.len();
            let sink: Option<(&mut dyn Sink, usize)> = match full_log {
                Some(ref mut sink) => Some((&mut **sink, index)),
                None => None,
            };
            let (callback_record, timing) =
                play_callback(&mut game, seat, callback, contestant, spec.limits, sink);
            if let Some(fault) = &callback_record.fault {
                contestant.stopped = true;
                contestant.endpoint.kill();
                record.faults.push(FaultRecord {
                    seat: seat.0,
                    turn: callback_record.turn,
                    phase: callback_record.phase,
                    callback: Some(callback),
                    kind: fault.kind,
                    message: fault.message.clone(),
                });
            }
            record.callbacks.push(callback_record);
            record.timings.push(timing);
        }
        game.advance();
    }
    for (seat, contestant) in contestants.iter_mut().enumerate() {
        if contestant.stopped {
            continue;
        }
        // Output after end_game's `fin` is a protocol fault too; it changes no result.
        if let Some(line) = contestant.endpoint.unexpected_output() {
            record.faults.push(FaultRecord {
                seat: seat as u8,
                turn: game.state().turn,
                phase: 0,
                callback: Some(Callback::EndGame),
                kind: FaultKind::Protocol,
                message: format!(
                    "unexpected output `{}` after end_game: logs belong on stderr",
                    quote(&line)
                ),
            });
        }
        contestant.endpoint.finish(Duration::from_secs(1));
    }
    record.result = result_of(&game);
    record
}

/// One callback of one seat: send its name, answer requests until `fin` or a fault.
fn play_callback(
    game: &mut Game,
    seat: Seat,
    callback: Callback,
    contestant: &mut Contestant,
    limits: TimeLimits,
    full_log: Option<(&mut dyn Sink, usize)>,
) -> (CallbackRecord, TimingRecord) {
    let stage = game.stage();
    let mut record = CallbackRecord {
        turn: game.state().turn,
        phase: stage.phase(),
        seat: seat.0,
        callback,
        requests: 0,
        actions: Vec::new(),
        info: Default::default(),
        refused: Default::default(),
        digest: String::new(),
        fault: None,
    };
    let mut log = RequestLog::new(full_log);
    let endpoint = &mut *contestant.endpoint;
    if let Some(line) = endpoint.unexpected_output() {
        let message = format!(
            "unexpected output `{}` before {callback}: logs belong on stderr",
            quote(&line)
        );
        record.fault = Some(Fault::new(FaultKind::Protocol, message));
        log.into_record(&mut record);
        return (record, TimingRecord::default());
    }
    let outcome = converse(game, seat, callback, endpoint, limits, &mut log);
    log.into_record(&mut record);
    let timing = endpoint.end();
    record.fault = outcome.err();
    let timing = TimingRecord {
        cpu_us: timing.cpu.as_micros() as u64,
        wall_us: timing.wall.as_micros() as u64,
    };
    (record, timing)
}

/// Most requests in one callback (protocol.md section 5): the heaviest champion of 2009
/// asked about 700,000; every request is kept in the record, so a champion flooding cheap
/// requests must not grow it without bound.
pub const MAX_REQUESTS: usize = 2_000_000;

/// Send `callback` to `endpoint` and answer its requests for `seat` until `fin`; every
/// request is logged in `requests` with its answer. More than [`MAX_REQUESTS`] is a
/// `Protocol` fault.
pub fn converse(
    game: &mut Game,
    seat: Seat,
    callback: Callback,
    endpoint: &mut dyn Endpoint,
    limits: TimeLimits,
    requests: &mut RequestLog<'_>,
) -> Result<(), Fault> {
    endpoint.begin(callback.name(), limits.of(callback))?;
    let first = requests.len();
    loop {
        let line = endpoint.recv()?;
        if requests.len() - first >= MAX_REQUESTS as u64 && line != "fin" {
            return Err(Fault::new(
                FaultKind::Protocol,
                format!(
                    "sent more than {MAX_REQUESTS} requests in {callback}; a callback may make \
                     at most {MAX_REQUESTS} (protocol.md section 5)"
                ),
            ));
        }
        match Request::parse(&line, callback)
            .map_err(|message| Fault::new(FaultKind::Protocol, message))?
        {
            Request::Fin => return Ok(()),
            Request::Etat => {
                let answer = prologin::etat::encode(&mut game.player(seat));
                requests.etat();
                endpoint.send(&answer)?;
            }
            Request::Call(call) => {
                let answer = call.apply(&mut game.player(seat));
                requests.call(&call, answer);
                endpoint.send(&answer.to_string())?;
            }
        }
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
