//! The 2009 game's match logic through the arena (`arena::Machine` with `games::loi_wire`)
//! without processes: scripted endpoints say exactly what a champion sends and when it
//! fails, so every path of a match is checked in microseconds; every record passes the
//! arena's check, from its steps alone and against its full log.

use arena::rules::Rules;
use arena::{GameRecord, Machine};
use engine::{Kind, Seat};
use jail::fault::{Fault, FaultKind};
use referee::endpoint::{CallLimits, CallTiming, Endpoint, TimeLimits};
use referee::full_log;
use referee::games::loi_wire::LoiWire;
use referee::record::SeatRecord;
use std::collections::VecDeque;
use std::time::Duration;

/// What a scripted champion sends in one callback: lines, or a fault in place of a line.
type Lines = Vec<Result<String, Fault>>;

/// What a scripted champion sends in its `n`-th callback (counted from 0) named `callback`.
type Script = Box<dyn FnMut(&str, usize) -> Lines>;

/// A champion whose every callback is answered by `script(callback, n)` (n counts this
/// seat's callbacks from 0); after the script's lines it sends `fin`.
struct Scripted {
    script: Script,
    queue: VecDeque<Result<String, Fault>>,
    calls: usize,
    /// Every line the referee sent: callback names and answers.
    received: Vec<String>,
    /// Output the champion wrote between callbacks, before its `n`-th callback.
    out_of_turn: Option<(usize, String)>,
    /// Output the champion wrote after its `end_game`.
    after_end: Option<String>,
    finished: bool,
    killed: bool,
    /// The current callback's wall-clock allowance, all spent when the script times out
    /// (as a real timeout is: replay checks a timeout against its callback's time).
    wall: Duration,
    timed_out: bool,
}

impl Scripted {
    fn new(script: impl FnMut(&str, usize) -> Lines + 'static) -> Scripted {
        Scripted {
            script: Box::new(script),
            queue: VecDeque::new(),
            calls: 0,
            received: Vec::new(),
            out_of_turn: None,
            after_end: None,
            finished: false,
            killed: false,
            wall: Duration::ZERO,
            timed_out: false,
        }
    }

    fn passive() -> Scripted {
        Scripted::new(|_, _| Vec::new())
    }
}

impl Endpoint for Scripted {
    fn unexpected_output(&mut self) -> Option<String> {
        if self.received.last().is_some_and(|l| l == "end_game") {
            return self.after_end.take();
        }
        match &self.out_of_turn {
            Some((n, _)) if *n == self.calls => self.out_of_turn.take().map(|(_, line)| line),
            _ => None,
        }
    }
    fn begin(&mut self, callback: &str, limits: CallLimits) -> Result<(), Fault> {
        self.wall = limits.wall;
        self.timed_out = false;
        self.received.push(callback.to_string());
        self.queue = (self.script)(callback, self.calls).into();
        self.calls += 1;
        Ok(())
    }
    fn recv(&mut self) -> Result<String, Fault> {
        let next = self
            .queue
            .pop_front()
            .unwrap_or_else(|| Ok("fin".to_string()));
        self.timed_out |= matches!(&next, Err(f) if f.kind == FaultKind::Timeout);
        next
    }
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.received.push(line.to_string());
        Ok(())
    }
    fn end(&mut self) -> CallTiming {
        CallTiming {
            wall: if self.timed_out {
                self.wall
            } else {
                Duration::ZERO
            },
            ..CallTiming::default()
        }
    }
    fn finish(&mut self, _: Duration) {
        self.finished = true;
    }
    fn kill(&mut self) {
        self.killed = true;
    }
}

/// The seats' records of a scripted match.
fn seat_records() -> Vec<SeatRecord> {
    (0..3)
        .map(|i| SeatRecord {
            seat: i as u8,
            name: format!("scripted{i}"),
            path: "scripted".into(),
            sha256: String::new(),
            seed: i as u64,
        })
        .collect()
}

/// The 2009 game's options of a scripted match: the monuments in order, seat 0 first.
fn options() -> game::Options {
    let monuments: Vec<String> = (0..14).map(|i: u8| i.to_string()).collect();
    game::Options::parse(
        game::Game::options(&engine::model::Loi),
        &[
            "first-player=0".to_string(),
            format!("monuments={}", monuments.join("-")),
        ],
    )
    .unwrap()
}

fn run(seats: &mut [Scripted; 3], spawn_faults: [Option<Fault>; 3]) -> GameRecord {
    run_logged(seats, spawn_faults).0
}

/// Plays with every request kept (`--full-log`), and checks the record from its steps
/// alone, then against the full log written to a file.
fn run_logged(
    seats: &mut [Scripted; 3],
    spawn_faults: [Option<Fault>; 3],
) -> (GameRecord, Vec<(usize, String, i32)>) {
    let mut log = Vec::new();
    let options = options();
    let mut machine = Machine::new(
        &LoiWire,
        &options,
        1,
        seat_records(),
        TimeLimits::default(),
        "sandbox: scripted".into(),
    )
    .unwrap();
    machine.log_to(&mut log);
    let mut endpoints: Vec<&mut dyn Endpoint> =
        seats.iter_mut().map(|s| s as &mut dyn Endpoint).collect();
    arena::match_loop::run(&mut machine, &mut endpoints, spawn_faults.into());
    let mut record = machine.finish();
    arena::check(&LoiWire, &record).expect("every record passes its check");
    let requests: u64 = record.callbacks.iter().map(|c| c.requests).sum();
    assert_eq!(log.len() as u64, requests);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(full_log::FILE);
    let mut writer = full_log::Writer::create(&path, full_log::DEFAULT_CAP_MIB).unwrap();
    for (index, line, answer) in &log {
        full_log::Sink::request(&mut writer, *index, line, *answer);
    }
    writer.finish().unwrap();
    let mut reader = full_log::Reader::open(&path).unwrap();
    let mut logged = record.clone();
    logged.full_log = Some(arena::FullLogRecord {
        file: full_log::FILE.into(),
        cap_mib: full_log::DEFAULT_CAP_MIB,
        cut: None,
    });
    arena::check_log(&LoiWire, &logged, &mut reader)
        .expect("every record passes its check against its full log");
    record.full_log = None;
    (record, log)
}

/// The game at the end of `record`.
fn final_game(record: &GameRecord) -> engine::Game {
    let state = referee::games::loi_play::final_state(record).unwrap();
    state.game().expect("a setup drawn").clone()
}

/// The houses each seat owns at the end of `record`.
fn houses(record: &GameRecord) -> [usize; 3] {
    let game = final_game(record);
    Seat::ALL.map(|s| {
        game.state()
            .board
            .cells()
            .iter()
            .filter(|c| c.kind == Kind::Maison && c.owner == Some(s))
            .count()
    })
}

fn lines(lines: &[&str]) -> Lines {
    lines.iter().map(|l| Ok(l.to_string())).collect()
}

#[test]
fn passive_champions_get_every_callback_in_order() {
    let mut seats = [
        Scripted::passive(),
        Scripted::passive(),
        Scripted::passive(),
    ];
    let record = run(&mut seats, Default::default());
    // init_game, 15 Phase I slots, 14 Phases II for all three, 14 placements, end_game.
    assert_eq!(record.callbacks.len(), 3 + 15 * 3 + 14 * 3 + 14 + 3);
    let names: Vec<&str> = seats[0].received.iter().map(String::as_str).collect();
    assert_eq!(names[0], "init_game");
    assert_eq!(names.last(), Some(&"end_game"));
    assert_eq!(names.iter().filter(|n| **n == "jouer").count(), 15);
    assert_eq!(names.iter().filter(|n| **n == "enchere").count(), 14);
    assert!(seats.iter().all(|s| s.finished && !s.killed));
    assert_eq!(record.ranking.scores, [10, 10, 10]);
    let row = record.row(referee::standings::RULE_26, String::new());
    assert_eq!(row.points, [0, 0, 0]);
    assert!(record.faults.is_empty());
    assert_eq!(record.timings.len(), record.callbacks.len());
}

#[test]
fn requests_are_answered_in_order_and_recorded() {
    let mut seats = [
        Scripted::new(|callback, _| match callback {
            "jouer" => lines(&[
                "mon_tour",
                "construire_route 50 51",
                "construire_route 50 51",
                "finances 0",
            ]),
            _ => Vec::new(),
        }),
        Scripted::passive(),
        Scripted::passive(),
    ];
    let (record, log) = run_logged(&mut seats, Default::default());
    let first_jouer = seats[0].received.iter().position(|l| l == "jouer").unwrap();
    assert_eq!(
        seats[0].received[first_jouer + 1..first_jouer + 5],
        ["1", "0", "-9", "10"]
    );
    let played = record
        .callbacks
        .iter()
        .find(|c| c.seat == 0 && c.callback == "jouer")
        .unwrap();
    let index = record.callbacks.iter().position(|c| c == played).unwrap();
    let log: Vec<(String, i32)> = log
        .into_iter()
        .filter(|(i, _, _)| *i == index)
        .map(|(_, line, answer)| (line, answer))
        .collect();
    assert_eq!(log[1], ("construire_route 50 51".to_string(), 0));
    assert_eq!(log[2], ("construire_route 50 51".to_string(), -9));
    // What the record keeps without the log: each action with its answer, the refused
    // one in its place, and `fin`, the action that ends the callback.
    let act = |action: &str, answer: Result<&str, &str>| game::Step::Act {
        seat: 0,
        action: action.into(),
        answer: answer
            .map(String::from)
            .map_err(|e| game::Illegal(e.into())),
    };
    assert_eq!(
        played.steps,
        [
            act("construire_route 50 51", Ok("0")),
            act("construire_route 50 51", Err("-9")),
            act("fin", Ok("")),
        ]
    );
    assert_eq!(played.requests, log.len() as u64);
}

#[test]
fn etat_answers_the_whole_state_as_the_seat_sees_it() {
    let mut seats = [
        Scripted::passive(),
        Scripted::new(|callback, _| {
            if callback == "init_game" {
                lines(&["etat"])
            } else {
                Vec::new()
            }
        }),
        Scripted::passive(),
    ];
    run(&mut seats, Default::default());
    let etat = loi_protocol::etat::decode(&seats[1].received[1]).expect("a valid etat line");
    assert_eq!(etat.numero_tour, 1);
    assert_eq!(
        etat.commence, 2,
        "seat 0 opens turn 1: seat 1 sees it as player 2"
    );
    assert_eq!(etat.finances, [10, 10, 10]);
    assert_eq!(etat.kinds[50 * 100 + 50], 4);
}

#[test]
fn a_fault_stops_the_seat_for_the_rest_of_the_match_and_the_match_goes_on() {
    let mut seats = [
        Scripted::new(|callback, n| match (callback, n) {
            (_, 4) => vec![Err(Fault::new(FaultKind::Timeout, "scripted timeout"))],
            ("jouer", _) => lines(&["construire_maison 51 51"]),
            _ => Vec::new(),
        }),
        Scripted::passive(),
        Scripted::passive(),
    ];
    let record = run(&mut seats, Default::default());
    assert!(seats[0].killed && !seats[0].finished);
    assert_eq!(record.faults.len(), 1);
    let fault = &record.faults[0];
    assert_eq!((fault.seat, fault.kind), (0, FaultKind::Timeout));
    let at = record
        .callbacks
        .iter()
        .position(|c| c.fault.is_some())
        .unwrap();
    assert!(record.callbacks[at + 1..].iter().all(|c| c.seat != 0));
    // Its houses stay and count (rule 28): built in its first two jouer.
    assert!(houses(&record)[0] >= 1);
    assert!(seats[1].finished && seats[2].finished);
}

#[test]
fn a_malformed_line_is_a_protocol_fault_that_quotes_it() {
    let mut seats = [
        Scripted::new(|callback, _| {
            if callback == "jouer" {
                lines(&["construire_route 50"])
            } else {
                Vec::new()
            }
        }),
        Scripted::passive(),
        Scripted::passive(),
    ];
    let record = run(&mut seats, Default::default());
    let fault = &record.faults[0];
    assert_eq!(fault.kind, FaultKind::Protocol);
    assert!(
        fault.message.contains("construire_route 50") && fault.message.contains("takes 2"),
        "{}",
        fault.message
    );
}

#[test]
fn output_between_callbacks_and_after_end_game_are_protocol_faults() {
    let mut chatty = Scripted::passive();
    chatty.out_of_turn = Some((1, "hello".into()));
    let mut late = Scripted::passive();
    late.after_end = Some("bye".into());
    let mut seats = [chatty, Scripted::passive(), late];
    let record = run(&mut seats, Default::default());
    let between = record.faults.iter().find(|f| f.seat == 0).unwrap();
    assert!(between.message.contains("`hello`") && between.message.contains("stderr"));
    assert!(seats[0].killed);
    let after = record
        .faults
        .iter()
        .find(|f| f.seat == 2)
        .expect("a fault after end_game");
    // Outside any callback, shown on the last step (after the whole match).
    assert_eq!(after.callback, None);
    assert_eq!(record.callbacks.last().unwrap().callback, "end_game");
    let last = *record.callback_steps().last().unwrap();
    let at = record.faults.iter().position(|f| f.seat == 2).unwrap();
    assert_eq!(record.fault_steps()[at], last);
    assert!(after.message.contains("`bye`") && after.message.contains("end_game"));
}

#[test]
fn a_champion_that_never_started_is_never_called_and_keeps_its_money() {
    let mut seats = [
        Scripted::passive(),
        Scripted::passive(),
        Scripted::passive(),
    ];
    let spawn = Some(Fault::new(FaultKind::Spawn, "scripted: no such file"));
    let record = run(&mut seats, [None, spawn, None]);
    assert!(seats[1].received.is_empty());
    assert_eq!(record.faults[0].kind, FaultKind::Spawn);
    assert_eq!(record.faults[0].callback, None);
    assert_eq!(record.ranking.scores[1], 10);
}

#[test]
fn an_auction_winner_stopped_in_its_enchere_places_nothing_and_the_monument_is_lost() {
    // Seat 2 bids 3 (the only bid) in the first auction, then crashes in that callback: its
    // bid stands (actions before a fault are kept), it wins and pays, but it acts no more.
    let mut seats = [
        Scripted::passive(),
        Scripted::passive(),
        Scripted::new(|callback, _| match callback {
            "enchere" => vec![
                Ok("encherir 3".into()),
                Err(Fault::new(FaultKind::Crash, "scripted crash")),
            ],
            _ => Vec::new(),
        }),
    ];
    let record = run(&mut seats, Default::default());
    // Turn 1's placements come after its auctions, before turn 2's first `jouer`.
    let names: Vec<&str> = record
        .callbacks
        .iter()
        .map(|c| c.callback.as_str())
        .collect();
    let auction = names.iter().position(|&n| n == "enchere").unwrap();
    let next_turn = auction + names[auction..].iter().position(|&n| n == "jouer").unwrap();
    assert!(
        names[..next_turn].iter().all(|&n| n != "placement"),
        "{names:?}"
    );
    assert!(names[next_turn..].contains(&"placement"));
    assert_eq!(final_game(&record).state().money[2], 7);
    assert_eq!(record.faults.len(), 1);
}

#[test]
fn a_record_file_reads_back_equal_with_one_callback_per_line() {
    let mut seats = [
        Scripted::passive(),
        Scripted::passive(),
        Scripted::passive(),
    ];
    let record = run(&mut seats, Default::default());
    let bytes = record.to_json();
    let back: GameRecord = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(back, record);
    let text = String::from_utf8(bytes).unwrap();
    let callback_lines = text
        .lines()
        .filter(|l| l.starts_with("    {\"seat\":") && l.contains("\"callback\":\""))
        .count();
    assert_eq!(callback_lines, record.callbacks.len());
    let head = format!("{{\n  \"schema\": {},\n", arena::GAME_RECORD_SCHEMA);
    assert!(text.starts_with(&head), "{}", &text[..40]);
}

/// A champion that sends `mon_tour` `count` times, then `fin`.
struct Flood {
    left: usize,
}

impl Endpoint for Flood {
    fn unexpected_output(&mut self) -> Option<String> {
        None
    }
    fn begin(&mut self, _: &str, _: CallLimits) -> Result<(), Fault> {
        Ok(())
    }
    fn recv(&mut self) -> Result<String, Fault> {
        if self.left == 0 {
            return Ok("fin".into());
        }
        self.left -= 1;
        Ok("mon_tour".into())
    }
    fn send(&mut self, _: &str) -> Result<(), Fault> {
        Ok(())
    }
    fn end(&mut self) -> CallTiming {
        CallTiming::default()
    }
    fn finish(&mut self, _: Duration) {}
    fn kill(&mut self) {}
}

#[test]
fn a_callback_may_make_max_requests_and_no_more() {
    use arena::match_loop::{converse, MAX_REQUESTS};
    let options = options();
    // Seat 0's `init_game` alone: the requests its record counts.
    let run = |count: usize| {
        let mut machine = Machine::new(
            &LoiWire,
            &options,
            1,
            seat_records(),
            TimeLimits::default(),
            String::new(),
        )
        .unwrap();
        let step = machine.next_step().expect("init_game");
        assert_eq!(step.name, "init_game");
        machine.begin(0);
        let outcome = converse(
            &mut machine,
            0,
            step.name,
            &mut Flood { left: count },
            step.limits,
        );
        machine.end(0, outcome.as_ref().err(), CallTiming::default());
        (outcome, machine.finish().callbacks[0].requests as usize)
    };
    let (outcome, kept) = run(MAX_REQUESTS);
    assert!(outcome.is_ok(), "{outcome:?}");
    // And `fin`, the action that ended it.
    assert_eq!(kept, MAX_REQUESTS + 1);
    let (outcome, kept) = run(MAX_REQUESTS + 1);
    let fault = outcome.unwrap_err();
    assert_eq!(fault.kind, FaultKind::Protocol);
    assert!(
        fault.message.contains("more than 2000000 requests"),
        "{}",
        fault.message
    );
    assert_eq!(kept, MAX_REQUESTS, "nothing past the cap is kept");
}
