//! The Game of the Amazons through the runner's loop (`match_loop::run`) and the seam
//! (`games::amazons`): the built-in players as in-process champions, the champion of
//! `protocol-amazons.md` as a real process, and champions that break the protocol. Every
//! record's moves are replayed through the rules.

use crate::common;

use amazons::{bots, Board, Color, Move};
use arena::process_endpoint::ProcessEndpoint;
use arena::{GameRecord, Machine};
use jail::champion::{Champion, LaunchSpec};
use jail::fault::{Fault, FaultKind};
use referee::endpoint::{CallLimits, CallTiming, Endpoint};
use referee::games::amazons_wire::{board_from_etat, deplacer_line, AmazonsWire};
use referee::record::SeatRecord;
use std::collections::VecDeque;
use std::time::Duration;

/// Which built-in player a [`Bot`] is.
#[derive(Clone, Copy, PartialEq)]
enum Brain {
    Random(u64),
    Mobility,
    /// Ends `jouer` without moving.
    Idle,
    /// Sends a line the protocol does not have.
    Chatty,
    /// Prints a debug line on stdout, words and numbers mixed.
    Debugging,
    /// Prints a debug line that starts with a request's name (`deplacer to d7`).
    DebuggingARequest,
}

/// A champion in the test process that speaks protocol-amazons.md: `etat`, then one
/// `deplacer`, then `fin`.
struct Bot {
    seat: usize,
    brain: Brain,
    random: Option<bots::Random>,
    out: VecDeque<String>,
    awaiting: Option<&'static str>,
}

impl Bot {
    fn new(seat: usize, brain: Brain) -> Bot {
        let random = match brain {
            Brain::Random(seed) => Some(bots::Random::new(seed)),
            _ => None,
        };
        Bot {
            seat,
            brain,
            random,
            out: VecDeque::new(),
            awaiting: None,
        }
    }

    fn color(&self) -> Color {
        if self.seat == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl Endpoint for Bot {
    fn unexpected_output(&mut self) -> Option<String> {
        None
    }
    fn begin(&mut self, callback: &str, _: CallLimits) -> Result<(), Fault> {
        match (callback, self.brain) {
            ("jouer", Brain::Idle) => self.out.push_back("fin".into()),
            ("jouer", Brain::Chatty) => self.out.push_back("hello".into()),
            ("jouer", Brain::Debugging) => self.out.push_back("x = 3 y = 4".into()),
            ("jouer", Brain::DebuggingARequest) => self.out.push_back("deplacer to d7".into()),
            ("jouer", _) => {
                self.out.push_back("etat".into());
                self.awaiting = Some("etat");
            }
            _ => self.out.push_back("fin".into()),
        }
        Ok(())
    }
    fn recv(&mut self) -> Result<String, Fault> {
        Ok(self.out.pop_front().expect("a line to send"))
    }
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        match self.awaiting.take() {
            Some("etat") => {
                let board = board_from_etat(line, self.color());
                let m = match &mut self.random {
                    Some(random) => random.choose(&board),
                    None => bots::mobility_move(&board),
                }
                .expect("jouer is sent only to a player who can move");
                self.out.push_back(deplacer_line(m));
                self.awaiting = Some("deplacer");
            }
            Some(_) => {
                assert_eq!(line, "0", "a generated move is accepted");
                self.out.push_back("fin".into());
            }
            None => {}
        }
        Ok(())
    }
    fn end(&mut self) -> CallTiming {
        CallTiming::default()
    }
    fn finish(&mut self, _: Duration) {}
    fn kill(&mut self) {}
}

fn seats() -> Vec<SeatRecord> {
    (0..2)
        .map(|i| SeatRecord {
            seat: i as u8,
            name: format!("seat{i}"),
            ..SeatRecord::default()
        })
        .collect()
}

fn play(a: &mut dyn Endpoint, b: &mut dyn Endpoint) -> GameRecord {
    let options = game::Options::default();
    let time = referee::endpoint::TimeLimits::default();
    let mut machine = Machine::new(
        &AmazonsWire,
        &options,
        7,
        seats(),
        time,
        "sandbox: scripted".into(),
    )
    .unwrap();
    arena::match_loop::run(&mut machine, &mut [a, b], vec![None, None]);
    let record = machine.finish();
    arena::check(&AmazonsWire, &record).unwrap();
    record
}

/// Replays the record's moves through the rules; returns the final board.
fn replayed(record: &GameRecord) -> Board {
    let mut board = Board::start();
    for (i, m) in common::amazons::moves(record).iter().enumerate() {
        let m: Move = m.parse().unwrap();
        board
            .play(m)
            .unwrap_or_else(|e| panic!("move {i} `{m}`: {e}"));
    }
    board
}

#[test]
fn built_in_players_play_whole_games() {
    let mut wins = 0;
    for seed in 0..6 {
        let mobility_first = seed % 2 == 0;
        let (mut a, mut b) = if mobility_first {
            (
                Bot::new(0, Brain::Mobility),
                Bot::new(1, Brain::Random(seed)),
            )
        } else {
            (
                Bot::new(0, Brain::Random(seed)),
                Bot::new(1, Brain::Mobility),
            )
        };
        let record = play(&mut a, &mut b);
        assert!(record.faults.is_empty(), "{:?}", record.faults);
        let board = replayed(&record);
        // The game ended because the player to move could not move, and that player lost.
        assert!(!board.can_move());
        let loser = usize::from(board.to_move() == Color::Black);
        assert_eq!(common::amazons::winner(&record), Some(1 - loser as u8));
        if common::amazons::winner(&record) == Some(u8::from(!mobility_first)) {
            wins += 1;
        }
        // Callbacks: init_game for both, one jouer per move, end_game for both.
        assert_eq!(
            record.callbacks.len(),
            common::amazons::moves(&record).len() + 4
        );
        assert_eq!(record.timings.len(), record.callbacks.len());
        if let Some(after) = common::amazons::isolated_after(&record) {
            let mut board = Board::start();
            for m in &common::amazons::moves(&record)[..after] {
                board.play(m.parse().unwrap()).unwrap();
            }
            assert!(board.isolated());
        }
    }
    assert!(wins >= 5, "mobility won {wins} of 6");
}

#[test]
fn a_jouer_without_a_move_and_an_unknown_request_are_faults_that_lose() {
    for brain in [
        Brain::Idle,
        Brain::Chatty,
        Brain::Debugging,
        Brain::DebuggingARequest,
    ] {
        let mut a = Bot::new(0, brain);
        let mut b = Bot::new(1, Brain::Mobility);
        let record = play(&mut a, &mut b);
        assert_eq!(common::amazons::winner(&record), Some(1));
        assert_eq!(record.faults.len(), 1, "{:?}", record.faults);
        let fault = &record.faults[0];
        assert_eq!((fault.seat, fault.kind), (0, FaultKind::Protocol));
        let expected = match brain {
            Brain::Idle => "jouer: ended jouer without a move",
            Brain::Debugging => "jouer: unknown request `x = 3 y = 4`",
            Brain::DebuggingARequest => "jouer: `deplacer to d7` during jouer",
            _ => "jouer: unknown request `hello`",
        };
        if brain != Brain::Idle {
            assert!(
                fault.message.contains("logs belong on stderr"),
                "{}",
                fault.message
            );
        }
        assert!(fault.message.starts_with(expected), "{}", fault.message);
        // The faulty seat gets nothing more; the other ends the game.
        let last = record.callbacks.last().unwrap();
        assert_eq!((last.seat, last.callback.as_str()), (1, "end_game"));
    }
}

/// The Python champion of protocol-amazons.md, a real process, plays whole games with both
/// colours through the runner against the mobility player, without a fault.
#[test]
fn the_protocol_page_s_champion_plays_through_the_runner() {
    let dir = common::fresh_dir("amazons", "doc");
    let program = common::amazons_page_champion(&dir);
    for seat in [0usize, 1] {
        let spec = LaunchSpec::new(
            &program,
            dir.join("scratch"),
            dir.join(format!("{seat}.stderr")),
        );
        let mut champion = ProcessEndpoint::new(Champion::spawn(&spec).unwrap());
        let mut bot = Bot::new(1 - seat, Brain::Mobility);
        let record = if seat == 0 {
            play(&mut champion, &mut bot)
        } else {
            play(&mut bot, &mut champion)
        };
        assert!(record.faults.is_empty(), "{:?}", record.faults);
        let board = replayed(&record);
        assert!(!board.can_move());
        assert!(common::amazons::winner(&record).is_some());
    }
}
