//! The 2009 game through the arena (`games::loi_wire`, the game model) against today's 2009
//! stack (`game::play`): the same matches (seeds, line-ups of the built-in bots speaking
//! protocol.md through the Rust kit's client, a seat that faults) give every seat the
//! same conversation (each callback with its allowance, each answer, byte for byte), the
//! same final digest and the same scores; the arena's record passes its check.

use engine::model::Loi;
use jail::fault::{Fault, FaultKind};
use referee::arena::{GameRecord, Machine};
use referee::endpoint::{CallLimits, CallTiming, Endpoint, TimeLimits};
use referee::game::MatchSpec;
use referee::games::loi_wire::LoiWire;
use referee::record::SeatRecord;
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

/// A match: what each seat was sent, the final digest, the scores, and its record (today's
/// 2009 record made again as the arena's, through `games::loi_v4`; the arena's own).
type Outcome = (Vec<Vec<String>>, String, Vec<i64>, GameRecord);

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

/// Through today's 2009 stack.
fn today(seed: u64, names: [&'static str; 3], crash: Option<(usize, usize)>) -> Outcome {
    let setup = engine::Setup::from_seed(seed);
    let spec = MatchSpec {
        seed,
        monument_order: setup.monument_order,
        first_player: setup.first_player,
        seats: seat_records(names).try_into().unwrap(),
        limits: TimeLimits::default(),
        sandbox: "sandbox: in-process".into(),
    };
    let mut bots = seats(names, seed, crash);
    let [a, b, c] = &mut bots[..] else {
        unreachable!()
    };
    let record = referee::game::play(&spec, [a, b, c], [None, None, None]);
    let scores = record.result.final_scores.map(i64::from).to_vec();
    let sent = bots.iter().map(|b| b.sent.clone()).collect();
    let again = referee::games::loi_v4::to_game_record(&record, None)
        .unwrap_or_else(|e| panic!("seed {seed}: today's record made again: {e}"));
    (sent, record.result.digest, scores, again)
}

/// Through the arena's machine with the 2009 adapter; its record checked.
fn arena(seed: u64, names: [&'static str; 3], crash: Option<(usize, usize)>) -> Outcome {
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
    let mut bots = seats(names, seed, crash);
    let mut endpoints: Vec<&mut dyn Endpoint> =
        bots.iter_mut().map(|b| b as &mut dyn Endpoint).collect();
    referee::match_loop::run(&mut machine, &mut endpoints, vec![None; 3]);
    let record = machine.finish();
    referee::arena::check(&LoiWire, &record).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let digest = record.callbacks.last().unwrap().digest.clone();
    let sent = bots.iter().map(|b| b.sent.clone()).collect();
    (sent, digest, record.ranking.scores.clone(), record)
}

#[test]
fn the_arena_plays_the_2009_matches_of_today_byte_for_byte() {
    let lineups = [
        ["random", "random", "random"],
        ["greedy", "random", "random"],
        ["random", "greedy", "greedy"],
    ];
    for seed in 0..6u64 {
        let names = lineups[seed as usize % lineups.len()];
        // Odd seeds: a seat crashes at some line of its conversation.
        let crash = (seed % 2 == 1).then_some((seed as usize % 3, 40 + seed as usize * 97));
        let want = today(seed, names, crash);
        let got = arena(seed, names, crash);
        for seat in 0..3 {
            let (g, w) = (&got.0[seat], &want.0[seat]);
            if let Some(n) = (0..g.len().max(w.len())).find(|&n| g.get(n) != w.get(n)) {
                panic!(
                    "seed {seed}, seat {seat}: line {n} sent is {:?} through the arena, {:?} \
                     today",
                    g.get(n).map(|l| &l[..l.len().min(80)]),
                    w.get(n).map(|l| &l[..l.len().min(80)])
                );
            }
        }
        assert_eq!(got.1, want.1, "seed {seed}: final digest");
        assert_eq!(got.2, want.2, "seed {seed}: scores");
    }
}

/// The arena's record without the refused actions (today's 2009 record counts them only).
fn without_refused(mut record: GameRecord) -> GameRecord {
    for callback in &mut record.callbacks {
        callback
            .steps
            .retain(|s| !matches!(s, game::Step::Act { answer: Err(_), .. }));
    }
    record
}

/// Over many seeds and line-ups of the built-in bots, a seat crashing on some: the match
/// today's 2009 stack records, made again as the arena's record (`games::loi_v4`, what a
/// record of before becomes), is the record the arena writes of the same match (requests,
/// answers, digests, faults, scores and ranking), but for the refused actions the arena
/// keeps in their place and the 2009 record counted.
#[test]
fn a_2009_match_of_today_and_through_the_arena_is_the_same_record() {
    let names = ["random", "greedy"];
    let mut faulted = 0;
    for seed in 0..48u64 {
        let lineup = std::array::from_fn(|i| names[(seed as usize >> i) & 1]);
        let crash = (seed % 3 == 2).then_some((seed as usize % 3, 10 + seed as usize * 5));
        let want = today(seed, lineup, crash);
        let got = arena(seed, lineup, crash);
        assert_eq!(got.0, want.0, "seed {seed}: the lines sent");
        let (got, want) = (without_refused(got.3), want.3);
        if let Some(i) = (0..got.callbacks.len().max(want.callbacks.len()))
            .find(|&i| got.callbacks.get(i) != want.callbacks.get(i))
        {
            panic!(
                "seed {seed}: callback {i} is {:?} through the arena, {:?} today",
                got.callbacks.get(i),
                want.callbacks.get(i)
            );
        }
        assert_eq!(got, want, "seed {seed}");
        faulted += usize::from(!got.faults.is_empty());
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
        referee::arena::check(&LoiWire, &record)
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

/// The full log of a 2009 match through the arena (`--full-log` for every game) holds the
/// requests and answers today's 2009 stack logs, line for line, and `fin` as the action
/// that ends a callback; the arena's check of a record against it passes, and refuses it
/// with one answer edited.
#[test]
fn the_2009_full_log_through_the_arena_is_today_s_and_is_checked() {
    type Log = Vec<(usize, String, i32)>;
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..9u64 {
        let names = [
            ["random", "greedy", "random"],
            ["greedy", "greedy", "random"],
        ][seed as usize % 2];
        let crash = (seed % 3 == 1).then_some((seed as usize % 3, 15 + seed as usize * 9));
        let setup = engine::Setup::from_seed(seed);
        let spec = MatchSpec {
            seed,
            monument_order: setup.monument_order,
            first_player: setup.first_player,
            seats: seat_records(names).try_into().unwrap(),
            limits: TimeLimits::default(),
            sandbox: "sandbox: in-process".into(),
        };
        let mut today_log: Log = Vec::new();
        let mut bots = seats(names, seed, crash);
        let [a, b, c] = &mut bots[..] else {
            unreachable!()
        };
        referee::game::play_logged(&spec, [a, b, c], [None, None, None], Some(&mut today_log));

        let mut arena_log: Log = Vec::new();
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
        machine.log_to(&mut arena_log);
        let mut bots = seats(names, seed, crash);
        let mut endpoints: Vec<&mut dyn Endpoint> =
            bots.iter_mut().map(|b| b as &mut dyn Endpoint).collect();
        referee::match_loop::run(&mut machine, &mut endpoints, vec![None; 3]);
        let mut record = machine.finish();
        let without_fin: Log = arena_log.iter().filter(|e| e.1 != "fin").cloned().collect();
        assert_eq!(without_fin, today_log, "seed {seed}");

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
        record.full_log = Some(referee::arena::FullLogRecord {
            file: "requests.log.gz".into(),
            cap_mib: 64,
            cut: None,
        });
        referee::arena::check_log(&LoiWire, &record, &mut write(&arena_log))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut edited = arena_log.clone();
        let question = edited.iter().position(|e| e.1 != "fin").unwrap();
        edited[question].2 += 1;
        let refused = referee::arena::check_log(&LoiWire, &record, &mut write(&edited));
        assert!(refused.is_err(), "seed {seed}: an answer edited is taken");
    }
}
