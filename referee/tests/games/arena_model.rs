//! The arena with a game of chance, hidden cards and seats acting at once, for 2 to 8
//! seats (`game::testing::HighCard` behind the tests' small protocol, `common/high_card.rs`:
//! `carte` asks one's own card, `garder`/`passer` choose, `fin`): matches played through the match loop
//! by scripted seats, their records checked by playing them again, chance drawn from the
//! match's own stream (the same seed deals the same cards, another seed others), an
//! edited deal, choice, answer or ranking refused, and a fault after the last callback
//! recorded and checked.

use crate::common;

use arena::{GameFault, GameRecord, Machine};
use common::high_card::HighCardWire;
use game::testing::HighCard;
use jail::fault::{Fault, FaultKind, WORKED_AFTER_LAST};
use referee::endpoint::{CallLimits, CallTiming, Endpoint, TimeLimits};
use referee::record::SeatRecord;
use std::collections::VecDeque;
use std::time::Duration;

/// A seat that asks its card and keeps it when it is at least `keep_from`.
struct Seat {
    keep_from: u32,
    out: VecDeque<String>,
    asked: bool,
    cards: Vec<u32>,
    /// What the check after its last callback finds, and its output after it.
    late: Option<Fault>,
    late_output: Option<String>,
    /// Its last callback (`end_game`) began.
    ended: bool,
}

impl Seat {
    fn new(keep_from: u32) -> Seat {
        Seat {
            keep_from,
            out: VecDeque::new(),
            asked: false,
            cards: Vec::new(),
            late: None,
            late_output: None,
            ended: false,
        }
    }
}

impl Endpoint for Seat {
    fn unexpected_output(&mut self) -> Option<String> {
        // Only once its last callback is over.
        self.ended.then(|| self.late_output.take()).flatten()
    }
    fn last_check(&mut self) -> Option<Fault> {
        self.late.take()
    }
    fn begin(&mut self, callback: &str, _: CallLimits) -> Result<(), Fault> {
        self.ended = callback == "end_game";
        if callback == "choisir" {
            self.out.push_back("carte".into());
            self.asked = true;
        } else {
            self.out.push_back("fin".into());
        }
        Ok(())
    }
    fn recv(&mut self) -> Result<String, Fault> {
        Ok(self.out.pop_front().expect("a line to send"))
    }
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        if std::mem::take(&mut self.asked) {
            let card: u32 = line.parse().expect("a card");
            self.cards.push(card);
            let choice = if card >= self.keep_from {
                "garder"
            } else {
                "passer"
            };
            self.out.push_back(choice.into());
        } else {
            assert_eq!(line, "ok");
            self.out.push_back("fin".into());
        }
        Ok(())
    }
    fn end(&mut self) -> CallTiming {
        CallTiming::default()
    }
    fn finish(&mut self, _: Duration) {}
    fn kill(&mut self) {}
}

/// A match of `n` seats of seed `seed`: its record (checked) and the card each seat saw.
fn play(n: usize, seed: u64) -> (GameRecord, Vec<Vec<u32>>) {
    play_late(n, seed, |_| {})
}

/// [`play`], each seat set up by `late` (what it does after its last callback).
fn play_late(n: usize, seed: u64, late: impl Fn(&mut Seat)) -> (GameRecord, Vec<Vec<u32>>) {
    let seats_records = (0..n)
        .map(|i| SeatRecord {
            seat: i as u8,
            name: format!("seat{i}"),
            ..SeatRecord::default()
        })
        .collect();
    let options = game::Options::parse(game::Game::options(&HighCard), &["deck=20"]).unwrap();
    let mut machine = Machine::new(
        &HighCardWire,
        &options,
        seed,
        seats_records,
        TimeLimits::default(),
        "sandbox: scripted".into(),
    )
    .unwrap();
    let mut seats: Vec<Seat> = (0..n).map(|i| Seat::new(10 + i as u32)).collect();
    seats.iter_mut().for_each(&late);
    let mut endpoints: Vec<&mut dyn Endpoint> =
        seats.iter_mut().map(|s| s as &mut dyn Endpoint).collect();
    arena::match_loop::run(&mut machine, &mut endpoints, vec![None; n]);
    let record = machine.finish();
    arena::check(&HighCardWire, &record).unwrap_or_else(|e| panic!("{e}\n{record:?}"));
    (record, seats.into_iter().map(|s| s.cards).collect())
}

#[test]
fn matches_of_2_to_8_seats_are_played_recorded_and_checked() {
    for n in 2..=8 {
        for seed in 0..5 {
            let (record, seen) = play(n, seed);
            // One deal before anyone plays; each seat saw one card, its own, all different.
            assert!(
                matches!(record.start.as_slice(), [game::Step::Chance(_)]),
                "{record:?}"
            );
            let game::Step::Chance(game::Drawn::Order(deck)) = &record.start[0] else {
                panic!("a deal")
            };
            assert_eq!(seen, (0..n).map(|s| vec![deck[s]]).collect::<Vec<_>>());
            // init_game to all, one choice each, end_game to all.
            assert_eq!(record.callbacks.len(), 3 * n);
            assert_eq!(record.ranking.places.len(), n);
            // The best card kept wins.
            let kept: Vec<usize> = (0..n).filter(|&s| deck[s] >= 10 + s as u32).collect();
            if let Some(&best) = kept.iter().max_by_key(|&&s| deck[s]) {
                assert_eq!(record.ranking.winners(), [best], "{record:?}");
            }
            // The same seed deals the same cards; the record is the same match.
            assert_eq!(play(n, seed).0, record);
        }
    }
    // Another seed, another deal.
    let deals: std::collections::BTreeSet<String> = (0..10)
        .map(|seed| format!("{:?}", play(3, seed).0.start))
        .collect();
    assert!(deals.len() > 5, "{deals:?}");
}

#[test]
fn an_edited_deal_choice_answer_or_ranking_is_refused() {
    let (record, _) = play(4, 7);
    let edit = |f: &dyn Fn(&mut GameRecord)| {
        let mut r = record.clone();
        f(&mut r);
        assert_ne!(r, record, "the edit changes the record");
        arena::check(&HighCardWire, &r).expect_err("an edited record is refused")
    };
    // Another deal than the seed's (seat 0 takes seat 1's card).
    let err = edit(&|r| {
        let game::Step::Chance(game::Drawn::Order(deck)) = &mut r.start[0] else {
            panic!()
        };
        deck.swap(0, 1);
    });
    assert!(err.contains("the seed draws"), "{err}");
    // A choice: the answer then differs from nothing, but the ranking does.
    fn choice(r: &mut GameRecord) -> &mut game::Step {
        let entry = r
            .callbacks
            .iter_mut()
            .find(|c| c.callback == "choisir")
            .unwrap();
        &mut entry.steps[0]
    }
    let err = edit(&|r| {
        let game::Step::Act { action, .. } = choice(r) else {
            panic!()
        };
        *action = if action == "keep" {
            "fold".into()
        } else {
            "keep".into()
        };
    });
    assert!(err.contains("callback") || err.contains("ranked"), "{err}");
    let err = edit(&|r| {
        let game::Step::Act { answer, .. } = choice(r) else {
            panic!()
        };
        *answer = Ok("ko".into());
    });
    assert!(err.contains("its step 1"), "{err}");
    let err = edit(&|r| r.ranking.places[0] += 1);
    assert!(err.contains("ranked"), "{err}");
    let err = edit(&|r| r.callbacks.swap(4, 5));
    assert!(err.contains("where the referee sends"), "{err}");
    let err = edit(&|r| r.seed ^= 1);
    assert!(err.contains("the seed draws"), "{err}");
}

/// The check before the result (`Endpoint::last_check`: work done while frozen after the
/// last callback) gives a fault: recorded after every callback's fault and the seat's
/// output after its last callback, as a fault outside any callback; the seat is out as
/// after a fault in its last callback, so the ranking the rules decided stands; the record
/// checks. A late fault the referee does not write is refused: another kind or message
/// (a crash, a CPU timeout), one before the seat's output, twice, or of a seat already out.
#[test]
fn a_fault_after_the_last_callback_is_recorded_and_checked() {
    let work = Fault::new(
        FaultKind::Timeout,
        format!("{WORKED_AFTER_LAST} (2 of its processes ended after its callback ended)"),
    );
    let (honest, _) = play(3, 7);
    let (record, _) = play_late(3, 7, |seat| {
        if seat.keep_from == 11 {
            seat.late = Some(work.clone());
            seat.late_output = Some("bye".into());
        }
    });
    let late = GameFault {
        seat: 1,
        callback: None,
        kind: FaultKind::Timeout,
        message: work.message.clone(),
    };
    assert_eq!(record.faults.last(), Some(&late), "{:?}", record.faults);
    assert_eq!(
        record.faults.len(),
        2,
        "its output, then its work: {:?}",
        record.faults
    );
    assert_eq!(record.ranking, honest.ranking);
    assert_eq!(record.callbacks, honest.callbacks);
    let edit = |f: &dyn Fn(&mut GameRecord)| {
        let mut r = record.clone();
        f(&mut r);
        assert_ne!(r, record, "the edit changes the record");
        arena::check(&HighCardWire, &r).expect_err("an edited record is refused")
    };
    let err = edit(&|r| r.faults[1].kind = FaultKind::Crash);
    assert!(err.contains("outside every callback"), "{err}");
    let err = edit(&|r| r.faults[1].message = "used 9000 ms of CPU".into());
    assert!(err.contains("outside every callback"), "{err}");
    let err = edit(&|r| r.faults.swap(0, 1));
    assert!(err.contains("outside every callback"), "{err}");
    let err = edit(&|r| r.faults.push(late.clone()));
    assert!(err.contains("outside every callback"), "{err}");
    // A memory fault found by the same check is one too.
    let held = Fault::new(
        FaultKind::Memory,
        format!(
            "{}70 MiB of memory together; the limit is 64 MiB",
            jail::fault::HELD_TOO_MUCH
        ),
    );
    let (record, _) = play_late(3, 7, |seat| seat.late = Some(held.clone()));
    assert_eq!(record.faults.len(), 3, "{:?}", record.faults);
    assert_eq!(record.ranking, honest.ranking);
}
