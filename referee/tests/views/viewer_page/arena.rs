//! A 2009 match the referee played and recorded in the 2009 game's own record (with its full
//! log), played again through the arena (`arena::Machine` with `games::loi_wire::LoiWire`,
//! the game model) by champions that say again, callback by callback, what the record and
//! its log say they said (every request, then `fin`, or the recorded fault), with each
//! callback's recorded time and stderr range: the arena's record of the same match, which
//! `arena::check` accepts.

use ::arena::{GameRecord, Machine};
use engine::model::Loi;
use jail::fault::Fault;
use referee::endpoint::{CallLimits, CallTiming, Endpoint, TimeLimits};
use referee::games::loi_wire::LoiWire;
use referee::record::{MatchRecord, TimingRecord};
use std::collections::VecDeque;
use std::path::Path;
use std::time::Duration;

/// One callback as a seat says it again.
struct Said {
    callback: String,
    lines: VecDeque<String>,
    fault: Option<Fault>,
    timing: TimingRecord,
}

/// A seat that says again what its record says.
struct Again {
    calls: VecDeque<Said>,
    current: Option<Said>,
}

impl Endpoint for Again {
    fn unexpected_output(&mut self) -> Option<String> {
        None
    }
    fn begin(&mut self, callback: &str, _: CallLimits) -> Result<(), Fault> {
        let said = self.calls.pop_front().expect("a callback the record holds");
        assert_eq!(
            said.callback, callback,
            "the arena plays the record's callbacks"
        );
        self.current = Some(said);
        Ok(())
    }
    fn recv(&mut self) -> Result<String, Fault> {
        let said = self.current.as_mut().expect("inside a callback");
        match (said.lines.pop_front(), &said.fault) {
            (Some(line), _) => Ok(line),
            (None, Some(fault)) => Err(fault.clone()),
            (None, None) => Ok("fin".into()),
        }
    }
    fn send(&mut self, _: &str) -> Result<(), Fault> {
        Ok(())
    }
    fn end(&mut self) -> CallTiming {
        let timing = self.current.take().map(|s| s.timing).unwrap_or_default();
        CallTiming {
            cpu: Duration::from_micros(timing.cpu_us),
            wall: Duration::from_micros(timing.wall_us),
            stderr: timing.stderr,
        }
    }
    fn finish(&mut self, _: Duration) {}
    fn kill(&mut self) {}
}

/// The arena's record of the match `record` (whose full log is in `dir`) records.
pub fn arena_record(record: &MatchRecord, dir: &Path) -> GameRecord {
    let name = record
        .full_log
        .as_deref()
        .expect("a match played with --full-log");
    let mut log = referee::full_log::Reader::open(&dir.join(name)).unwrap();
    let mut lines = vec![VecDeque::new(); record.callbacks.len()];
    while let Some((index, line, _)) = log.next_entry().unwrap() {
        lines[index].push_back(line);
    }
    let mut seats: Vec<Again> = (0..3)
        .map(|_| Again {
            calls: VecDeque::new(),
            current: None,
        })
        .collect();
    for ((callback, lines), timing) in record.callbacks.iter().zip(lines).zip(&record.timings) {
        seats[usize::from(callback.seat)].calls.push_back(Said {
            callback: callback.callback.to_string(),
            lines,
            fault: callback.fault.clone(),
            timing: *timing,
        });
    }
    let drawn = engine::Setup::from_seed(record.seed);
    let mut options = Vec::new();
    if drawn.first_player.0 != record.first_player {
        options.push(format!("first-player={}", record.first_player));
    }
    if drawn.monument_order[..] != record.monument_order[..] {
        let ids: Vec<String> = record.monument_order.iter().map(u8::to_string).collect();
        options.push(format!("monuments={}", ids.join("-")));
    }
    let options = game::Options::parse(game::Game::options(&Loi), &options).unwrap();
    let mut machine = Machine::new(
        &LoiWire,
        &options,
        record.seed,
        record.seats.clone(),
        TimeLimits::default(),
        record.sandbox.clone(),
    )
    .unwrap();
    // The 2009 game's record keeps every refused action, as the arena's of schema 5 did
    // (today's counts those past `REFUSALS_KEPT`): the views of the two then agree.
    machine.as_schema(::arena::OLDEST_GAME_RECORD_SCHEMA);
    let spawn_faults = (0..3u8)
        .map(|seat| {
            record
                .faults_of(seat)
                .find(|f| f.callback.is_none())
                .map(|f| Fault::new(f.kind, f.message.clone()))
        })
        .collect();
    let mut endpoints: Vec<&mut dyn Endpoint> =
        seats.iter_mut().map(|s| s as &mut dyn Endpoint).collect();
    ::arena::match_loop::run(&mut machine, &mut endpoints, spawn_faults);
    let mut arena = machine.finish();
    arena.budgets = record.budgets.expect("a record of schema 4");
    ::arena::check(&LoiWire, &arena).expect("the arena's record checks");
    arena
}
