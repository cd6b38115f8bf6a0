//! The 2009 game through the arena (`games::loi_wire`, the game model): matches of the
//! built-in bots speaking protocol.md through the Rust kit's client (seeds, line-ups, a
//! seat that crashes) give every seat the conversation, the final digest, the scores, the
//! record and the full log kept in `tests/golden/loi-matches.txt`, written by the 2009
//! stack of before the arena (`game::play`, byte for byte the same then: the test that
//! compared the two stacks match by match ended with that stack); each record passes the
//! arena's check, an `init_game` timeout is held to the start-up allowance, and a full log
//! with one answer edited is refused.
//!
//! `GOLDEN_WRITE=1 cargo test -p referee --test games loi_wire::` writes the file anew (only
//! for a deliberate change of what the 2009 game sends or records).

use arena::{GameRecord, Machine};
use engine::model::Loi;
use jail::fault::{Fault, FaultKind};
use referee::endpoint::{CallLimits, CallTiming, Endpoint, TimeLimits};
use referee::games::loi_wire::LoiWire;
use referee::record::SeatRecord;
use sha2::Digest;
use std::fmt::Write as _;
use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// The bot's input: the referee's lines.
struct FromReferee {
    lines: Receiver<String>,
    pending: Vec<u8>,
}

impl Read for FromReferee {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.lines.recv() {
                Ok(line) => self.pending = format!("{line}\n").into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// The bot's output: its lines, for the referee.
struct ToReferee {
    lines: Sender<String>,
    partial: Vec<u8>,
}

impl Write for ToReferee {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            match b {
                b'\n' => {
                    let line = String::from_utf8_lossy(&self.partial).into_owned();
                    self.partial.clear();
                    // A referee gone (a seat stopped) reads nothing more: not an error here.
                    let _ = self.lines.send(line);
                }
                b => self.partial.push(b),
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A built-in bot on a thread of its own, speaking protocol.md through the kit's client;
/// what the referee sent it is kept. With `crash_at`, it crashes at that line it sends.
struct BotSeat {
    to_bot: Option<Sender<String>>,
    from_bot: Receiver<String>,
    thread: Option<JoinHandle<()>>,
    sent: Vec<String>,
    lines: usize,
    crash_at: Option<usize>,
}

impl BotSeat {
    fn new(name: &'static str, seed: u64, crash_at: Option<usize>) -> BotSeat {
        let (to_bot, lines) = channel();
        let (out, from_bot) = channel();
        let thread = std::thread::spawn(move || {
            let mut champion = engine::bots::by_name(name, seed).expect("a built-in bot");
            let reader = BufReader::new(FromReferee {
                lines,
                pending: Vec::new(),
            });
            let writer = ToReferee {
                lines: out,
                partial: Vec::new(),
            };
            // Stopped by the referee (a crash planted), the client ends on its closed input.
            let _ = loi_protocol::Client::new(reader, writer).run(&mut champion);
        });
        BotSeat {
            to_bot: Some(to_bot),
            from_bot,
            thread: Some(thread),
            sent: Vec::new(),
            lines: 0,
            crash_at,
        }
    }

    fn say(&mut self, line: String) {
        if let Some(to_bot) = &self.to_bot {
            let _ = to_bot.send(line.clone());
        }
        self.sent.push(line);
    }

    fn stop(&mut self) {
        self.to_bot = None;
        if let Some(thread) = self.thread.take() {
            thread.join().expect("the bot's thread ends");
        }
    }
}

impl Endpoint for BotSeat {
    fn unexpected_output(&mut self) -> Option<String> {
        None
    }
    fn begin(&mut self, callback: &str, limits: CallLimits) -> Result<(), Fault> {
        self.sent.push(format!("[{:?} cpu]", limits.cpu));
        self.say(callback.to_string());
        Ok(())
    }
    fn recv(&mut self) -> Result<String, Fault> {
        self.lines += 1;
        if self.crash_at == Some(self.lines) {
            return Err(Fault::new(FaultKind::Crash, "crashed (planted)"));
        }
        self.from_bot
            .recv()
            .map_err(|_| Fault::new(FaultKind::Crash, "the bot is gone"))
    }
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.say(line.to_string());
        Ok(())
    }
    fn end(&mut self) -> CallTiming {
        CallTiming::default()
    }
    fn finish(&mut self, _: Duration) {
        self.stop();
    }
    fn kill(&mut self) {
        self.stop();
    }
}

/// A match: what each seat was sent, the final digest, the scores, and its record.
type Outcome = (Vec<Vec<String>>, String, Vec<i64>, GameRecord);

/// Every request of a match with its answer's code, by callback (a full log's lines).
type Log = Vec<(usize, String, i32)>;

/// A match kept: its seed, its line-up, and the seat that crashes at which line.
type Kept = (u64, [&'static str; 3], Option<(usize, usize)>);

fn seats(names: [&'static str; 3], seed: u64, crash: Option<(usize, usize)>) -> Vec<BotSeat> {
    (0..3)
        .map(|i| {
            let crash_at = crash.filter(|c| c.0 == i).map(|c| c.1);
            BotSeat::new(names[i], seed * 3 + i as u64, crash_at)
        })
        .collect()
}

fn seat_records(names: [&'static str; 3]) -> Vec<SeatRecord> {
    (0..3)
        .map(|i| SeatRecord {
            seat: i as u8,
            name: names[i].to_string(),
            ..SeatRecord::default()
        })
        .collect()
}

/// A match of `names` through the arena's machine with the 2009 adapter, every request
/// sent to `log`; its record checked.
fn arena_logged(
    seed: u64,
    names: [&'static str; 3],
    crash: Option<(usize, usize)>,
    log: Option<&mut Log>,
) -> Outcome {
    let options = game::Game::defaults(&Loi);
    let mut machine = Machine::new(
        &LoiWire,
        &options,
        seed,
        seat_records(names),
        TimeLimits::default(),
        "sandbox: in-process".into(),
    )
    .unwrap();
    if let Some(log) = log {
        machine.log_to(log);
    }
    let mut bots = seats(names, seed, crash);
    let mut endpoints: Vec<&mut dyn Endpoint> =
        bots.iter_mut().map(|b| b as &mut dyn Endpoint).collect();
    arena::match_loop::run(&mut machine, &mut endpoints, vec![None; 3]);
    let record = machine.finish();
    arena::check(&LoiWire, &record).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let digest = record.callbacks.last().unwrap().digest.clone();
    let sent = bots.iter().map(|b| b.sent.clone()).collect();
    (sent, digest, record.ranking.scores.clone(), record)
}

fn arena(seed: u64, names: [&'static str; 3], crash: Option<(usize, usize)>) -> Outcome {
    arena_logged(seed, names, crash, None)
}

/// 16 hex digits of the SHA-256 of `text`.
fn short_hash(text: &str) -> String {
    sha2::Sha256::digest(text.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The record without its refused actions (the 2009 record of before counted them only,
/// and the kept listing was written from it).
fn without_refused(mut record: GameRecord) -> GameRecord {
    for callback in &mut record.callbacks {
        callback
            .steps
            .retain(|s| !matches!(s, game::Step::Act { answer: Err(_), .. }));
        callback.refused.clear();
    }
    // Schema 6 changed only how refused actions are kept: the hashes are those of schema 5.
    record.schema = arena::OLDEST_GAME_RECORD_SCHEMA;
    record
}

/// The line-ups and planted crashes of the matches kept: `(seed, line-up, crash)`.
fn conversations() -> Vec<Kept> {
    let lineups = [
        ["random", "random", "random"],
        ["greedy", "random", "random"],
        ["random", "greedy", "greedy"],
    ];
    (0..6u64)
        .map(|seed| {
            // Odd seeds: a seat crashes at some line of its conversation.
            let crash = (seed % 2 == 1).then_some((seed as usize % 3, 40 + seed as usize * 97));
            (seed, lineups[seed as usize % lineups.len()], crash)
        })
        .collect()
}

fn records() -> Vec<Kept> {
    let names = ["random", "greedy"];
    (0..48u64)
        .map(|seed| {
            let lineup = std::array::from_fn(|i| names[(seed as usize >> i) & 1]);
            let crash = (seed % 3 == 2).then_some((seed as usize % 3, 10 + seed as usize * 5));
            (seed, lineup, crash)
        })
        .collect()
}

fn logs() -> Vec<Kept> {
    (0..9u64)
        .map(|seed| {
            let names = [
                ["random", "greedy", "random"],
                ["greedy", "greedy", "random"],
            ][seed as usize % 2];
            let crash = (seed % 3 == 1).then_some((seed as usize % 3, 15 + seed as usize * 9));
            (seed, names, crash)
        })
        .collect()
}

/// The listing of the kept matches: each seat's lines, digest and scores; each record;
/// each full log (its requests, `fin` aside: the 2009 log of before had none).
fn listing(play: &dyn Fn(Kept) -> Outcome, logged: &dyn Fn(Kept) -> Log) -> String {
    let mut text = String::new();
    let crash_words = |crash: Option<(usize, usize)>| {
        crash.map_or("no crash".to_string(), |(s, at)| {
            format!("seat {s} crashes at line {at}")
        })
    };
    writeln!(
        text,
        "# the lines each seat was sent (SHA-256, 16 hex digits), the final digest, the scores"
    )
    .unwrap();
    for (seed, names, crash) in conversations() {
        let (sent, digest, scores, _) = play((seed, names, crash));
        let sent: Vec<String> = sent
            .iter()
            .map(|lines| short_hash(&lines.join("\n")))
            .collect();
        let scores: Vec<String> = scores.iter().map(i64::to_string).collect();
        writeln!(
            text,
            "{seed} {} ({}): sent {} digest {digest} scores {}",
            names.join(","),
            crash_words(crash),
            sent.join(" "),
            scores.join(",")
        )
        .unwrap();
    }
    writeln!(
        text,
        "# the lines sent and the record (its JSON, refused actions aside), SHA-256, 16 hex digits"
    )
    .unwrap();
    for (seed, names, crash) in records() {
        let (sent, _, _, record) = play((seed, names, crash));
        let record = without_refused(record);
        let sent: Vec<String> = sent.iter().map(|lines| lines.join("\n")).collect();
        writeln!(
            text,
            "{seed} {} ({}): sent {} record {} faults {}",
            names.join(","),
            crash_words(crash),
            short_hash(&sent.join("\n\n")),
            short_hash(&String::from_utf8(record.to_json()).unwrap()),
            record.faults.len()
        )
        .unwrap();
    }
    writeln!(
        text,
        "# the full log's requests and answers, SHA-256, 16 hex digits"
    )
    .unwrap();
    for (seed, names, crash) in logs() {
        let lines: Vec<String> = logged((seed, names, crash))
            .iter()
            .filter(|e| e.1 != "fin")
            .map(|(c, l, a)| format!("{c}\t{l}\t{a}"))
            .collect();
        writeln!(
            text,
            "{seed} {} ({}): log {}",
            names.join(","),
            crash_words(crash),
            short_hash(&lines.join("\n"))
        )
        .unwrap();
    }
    text
}

/// Over seeds and line-ups of the built-in bots, a seat crashing in some: the arena sends
/// each seat the lines (each callback with its allowance, each answer, byte for byte) and
/// writes the record and full log the 2009 stack of before did, and ends with its digest
/// and scores.
#[test]
fn the_arena_plays_the_2009_matches_kept_byte_for_byte() {
    let play = |(seed, names, crash): Kept| arena(seed, names, crash);
    let logged = |(seed, names, crash): Kept| {
        let mut log = Log::new();
        arena_logged(seed, names, crash, Some(&mut log));
        log
    };
    crate::common::assert_golden("loi-matches.txt", &listing(&play, &logged));
}

/// A planted crash is the seat's fault, and only its own: in every third match of the
/// listing's records, one fault.
#[test]
fn a_crashed_seat_is_one_fault_and_the_match_goes_on() {
    let mut faulted = 0;
    for (seed, names, crash) in records() {
        let (.., record) = arena(seed, names, crash);
        assert_eq!(
            record.faults.len(),
            usize::from(crash.is_some()),
            "seed {seed}"
        );
        if let Some((seat, _)) = crash {
            assert_eq!(record.faults[0].seat as usize, seat, "seed {seed}");
            assert_eq!(record.faults[0].kind, FaultKind::Crash, "seed {seed}");
            assert_eq!(record.callbacks.last().unwrap().callback, "end_game");
            faulted += 1;
        }
    }
    assert_eq!(faulted, 16, "a seat crashes in every third match");
}

/// The 2009 game's first callback, `init_game`, has the start-up allowance in the arena's
/// check as in the match (its adapter opens with a turn, not a callback of its own): a
/// `timeout` there below that allowance is refused, one over it taken.
#[test]
fn an_init_game_timeout_is_held_to_the_start_up_allowance() {
    // Seat 0 stops at its first line, in `init_game`: made a timeout of the CPU given.
    let (.., played) = arena(1, ["random", "random", "random"], Some((0, 1)));
    let timed_out = |cpu_us: u64| {
        let mut record = played.clone();
        let fault = record.callbacks[0].fault.as_mut().expect("seat 0 stopped");
        fault.kind = FaultKind::Timeout;
        record.faults[0].kind = FaultKind::Timeout;
        record.timings[0].cpu_us = cpu_us;
        record.timings[0].wall_us = cpu_us;
        arena::check(&LoiWire, &record)
    };
    let init = played.budgets.init.cpu_us;
    assert!(played.budgets.call.cpu_us < init / 2);
    let refused = timed_out(init / 2).expect_err("a timeout below init_game's allowance");
    assert!(
        refused.contains("disagrees with its recorded time"),
        "{refused}"
    );
    timed_out(init).expect("a timeout at init_game's allowance");
}

/// The full log of a 2009 match through the arena (`--full-log` for every game) holds `fin`
/// as the action that ends a callback; the arena's check of a record against it passes,
/// and refuses it with one answer edited.
#[test]
fn the_2009_full_log_through_the_arena_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    for (seed, names, crash) in logs() {
        let mut arena_log = Log::new();
        let (.., mut record) = arena_logged(seed, names, crash, Some(&mut arena_log));
        let fins = arena_log.iter().filter(|e| e.1 == "fin").count();
        let ended = record
            .callbacks
            .iter()
            .filter(|c| c.fault.is_none())
            .count();
        assert_eq!(
            fins, ended,
            "seed {seed}: a `fin` for each callback ended so"
        );

        let write = |log: &Log| {
            let text: String = log
                .iter()
                .map(|(c, l, a)| format!("{c}\t{l}\t{a}\n"))
                .collect();
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(text.as_bytes()).unwrap();
            let path = dir.path().join(format!("{seed}.log.gz"));
            std::fs::write(&path, gz.finish().unwrap()).unwrap();
            referee::full_log::Reader::open(&path).unwrap()
        };
        record.full_log = Some(arena::FullLogRecord {
            file: "requests.log.gz".into(),
            cap_mib: 64,
            cut: None,
        });
        arena::check_log(&LoiWire, &record, &mut write(&arena_log))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut edited = arena_log.clone();
        let question = edited.iter().position(|e| e.1 != "fin").unwrap();
        edited[question].2 += 1;
        let refused = arena::check_log(&LoiWire, &record, &mut write(&edited));
        assert!(refused.is_err(), "seed {seed}: an answer edited is taken");
    }
}
