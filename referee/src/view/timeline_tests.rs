//! The timeline of a scripted match (no process: each seat's lines are given), built from
//! the record alone and from its full log: refused actions, their grouping and targets, the
//! Phase II bids and sales pending until the auction, the tie and the order that broke it,
//! a lost monument and why, the step from which a fault stopped a seat, each cell's worth;
//! and the walk under it, which tells the visitor done actions from refused ones.

use super::*;
use crate::endpoint::{CallLimits, CallTiming, Endpoint};
use crate::game::{play_logged, MatchSpec, TimeLimits};
use crate::record::SeatRecord;
use engine::constants::{HORS_TERRAIN, SUCCES};
use jail::fault::{Fault, FaultKind};
use std::collections::{HashMap, VecDeque};
use std::time::Duration;

/// What a seat sends in its `n`-th callback named `callback`: lines, or a fault.
type Script = fn(&str, usize) -> Vec<Result<String, Fault>>;

struct Scripted {
    script: Script,
    counts: HashMap<String, usize>,
    queue: VecDeque<Result<String, Fault>>,
}

impl Endpoint for Scripted {
    fn unexpected_output(&mut self) -> Option<String> {
        None
    }
    fn begin(&mut self, callback: &str, _: CallLimits) -> Result<(), Fault> {
        let n = self.counts.entry(callback.to_string()).or_default();
        self.queue = (self.script)(callback, *n).into();
        *n += 1;
        Ok(())
    }
    fn recv(&mut self) -> Result<String, Fault> {
        self.queue.pop_front().unwrap_or_else(|| Ok("fin".into()))
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

fn lines(lines: &[&str]) -> Vec<Result<String, Fault>> {
    lines.iter().map(|l| Ok(l.to_string())).collect()
}

/// Seat 0: 3 refused off-map roads, a refused house and a road in its first `jouer` (turn 1),
/// a crash in its fourth (turn 4); bids nothing.
fn seat0(callback: &str, n: usize) -> Vec<Result<String, Fault>> {
    match (callback, n) {
        ("jouer", 0) => lines(&[
            "construire_route 200 3",
            "construire_route 200 3",
            "construire_route 201 3",
            "construire_maison 0 0",
            "finances 0",
            "construire_route 50 51",
        ]),
        ("jouer", 3) => vec![Err(Fault::new(FaultKind::Crash, "exited with status 3"))],
        _ => Vec::new(),
    }
}

/// Seat 1: a house at (51, 50) in turn 1, sold in turn 1's auction with a bid of 2; builds
/// the monument it wins in turn 2 at (49, 50).
fn seat1(callback: &str, n: usize) -> Vec<Result<String, Fault>> {
    match (callback, n) {
        ("jouer", 0) => lines(&["construire_maison 51 50"]),
        ("enchere", 0) => lines(&["vendre_maison 51 50", "encherir 2"]),
        ("placement", 0) => lines(&["construire_monument 49 50"]),
        _ => Vec::new(),
    }
}

/// Seat 2: bids 2 in turn 1 and tries to build its monument off the map.
fn seat2(callback: &str, n: usize) -> Vec<Result<String, Fault>> {
    match (callback, n) {
        ("enchere", 0) => lines(&["encherir 2"]),
        ("placement", 0) => lines(&["construire_monument 200 200"]),
        _ => Vec::new(),
    }
}

/// The scripted match's record, and the directory holding its full log.
fn play() -> (MatchRecord, tempfile::TempDir) {
    let spec = MatchSpec {
        seed: 1,
        monument_order: std::array::from_fn(|i| i as u8),
        first_player: Seat(0),
        seats: std::array::from_fn(|i| SeatRecord {
            seat: i as u8,
            name: format!("scripted{i}"),
            ..SeatRecord::default()
        }),
        limits: TimeLimits::default(),
        sandbox: String::new(),
    };
    let mut seats = [seat0 as Script, seat1, seat2].map(|script| Scripted {
        script,
        counts: HashMap::new(),
        queue: VecDeque::new(),
    });
    let dir = tempfile::tempdir().unwrap();
    let mut writer = crate::full_log::Writer::create(
        &dir.path().join(crate::full_log::FILE),
        crate::full_log::DEFAULT_CAP_MIB,
    )
    .unwrap();
    let [a, b, c] = &mut seats;
    let mut record = play_logged(&spec, [a, b, c], Default::default(), Some(&mut writer));
    writer.finish().unwrap();
    record.full_log = Some(crate::full_log::FILE.to_string());
    (record, dir)
}

fn callback_step(t: &Timeline, seat: u8, turn: u8, callback: Callback) -> &Step {
    t.steps
        .iter()
        .find(|s| s.seat == Some(seat) && s.turn == turn && s.callback == callback)
        .unwrap_or_else(|| panic!("no {callback} of seat {seat} in turn {turn}"))
}

fn actions(step: &Step) -> Vec<(&str, i32, u32)> {
    step.actions
        .iter()
        .map(|a| (a.call.as_str(), a.code, a.count))
        .collect()
}

#[test]
fn the_full_log_gives_refused_actions_grouped_in_order_with_their_targets() {
    let (record, dir) = play();
    let logged = Timeline::build_in(&record, Some(dir.path())).unwrap();
    assert!(logged.full_log && logged.log_note.is_none());
    let step = callback_step(&logged, 0, 1, Callback::Jouer);
    let house = step.actions[1].code;
    assert!(house < 0, "the house at (0, 0) is refused");
    assert_eq!(
        actions(step),
        [
            ("construire_route 200 3", HORS_TERRAIN, 3),
            ("construire_maison 0 0", house, 1),
            ("construire_route 50 51", SUCCES, 1),
        ]
    );
    assert!(step.refused.is_empty());
    assert_eq!(step.targets, vec![[0, 0, house], [50, 51, SUCCES]]);
    assert_eq!(step.info, 1, "finances, the only information request");

    // The record alone: the road in `actions`, the refusals counted.
    let counted = Timeline::build_in(&record, None).unwrap();
    assert!(!counted.full_log);
    let step = callback_step(&counted, 0, 1, Callback::Jouer);
    assert_eq!(actions(step), [("construire_route 50 51", SUCCES, 1)]);
    assert_eq!(
        step.refused,
        vec![
            ("construire_maison".to_string(), house, 1),
            ("construire_route".to_string(), HORS_TERRAIN, 3),
        ]
    );
    assert_eq!(step.targets, vec![[50, 51, SUCCES]]);
    // Every request is counted once, either way.
    for timeline in [&logged, &counted] {
        let shown: u64 = timeline
            .steps
            .iter()
            .map(|s| {
                s.actions.iter().map(|a| u64::from(a.count)).sum::<u64>()
                    + s.refused.iter().map(|r| r.2).sum::<u64>()
                    + u64::from(s.info)
            })
            .sum();
        assert_eq!(shown as usize, timeline.requests);
    }
}

#[test]
fn a_missing_full_log_is_noted_and_the_record_used() {
    let (record, dir) = play();
    std::fs::remove_file(dir.path().join(crate::full_log::FILE)).unwrap();
    let timeline = Timeline::build_in(&record, Some(dir.path())).unwrap();
    assert!(!timeline.full_log);
    let note = timeline.log_note.as_deref().unwrap();
    assert!(note.contains(crate::full_log::FILE), "{note}");
    assert!(note.contains("refused actions are counted only"), "{note}");
}

#[test]
fn phase_two_bids_and_sales_are_pending_until_the_auction_that_breaks_the_tie() {
    let (record, _dir) = play();
    let t = Timeline::build(&record).unwrap();
    let seller = callback_step(&t, 1, 1, Callback::Enchere);
    assert_eq!(
        seller.pending,
        Some(PendingView {
            bid: Some(2),
            sales: vec![[51, 50, 1]],
        })
    );
    assert_eq!(callback_step(&t, 0, 1, Callback::Enchere).pending, None);
    // The house is still seat 1's, and its money unchanged, until the auction.
    let house = |i: usize| t.cells_at(i)[50 * 100 + 51];
    let at = t
        .steps
        .iter()
        .position(|s| std::ptr::eq(s, seller))
        .unwrap();
    assert_eq!(house(at)[2..4], [Kind::Maison as i32, 1]);
    let auction = t.stage_end(1, 2).unwrap();
    assert!(auction > at);
    assert_eq!(t.steps[auction - 1].money, t.steps[at].money);
    assert_eq!(
        house(auction)[3],
        3,
        "the sale takes effect: the town hall's"
    );
    let step = &t.steps[auction];
    assert_eq!(step.bids, Some([0, 2, 2]));
    // Seats 1 and 2 tied at 2; turn 2 begins with seat 1, so seat 2 plays last and wins.
    assert_eq!(
        step.tie,
        Some(TieView {
            bid: 2,
            seats: vec![1, 2],
            order: [1, 2, 0],
        })
    );
    assert_eq!(step.winner, Some(2));
    assert_eq!(
        step.money,
        [
            t.steps[at].money[0],
            t.steps[at].money[1] + 1,
            t.steps[at].money[2] - 2
        ],
        "the sale brings 1, the winner pays its bid, the other bid is not paid"
    );
}

#[test]
fn a_lost_monument_says_why_and_a_built_one_sets_worths() {
    let (record, dir) = play();
    for t in [
        Timeline::build(&record).unwrap(),
        Timeline::build_in(&record, Some(dir.path())).unwrap(),
    ] {
        let end = &t.steps[t.stage_end(1, 3).unwrap()];
        assert_eq!(
            end.lost,
            Some(LostView {
                monument: 0,
                seat: 2,
                reason: "construire_monument was refused: HORS_TERRAIN".into(),
            })
        );
        // Turn 2: nobody bids, the three tie at 0; turn 3 begins with seat 2, so seat 1
        // plays last and wins, and builds monument 1 (+4, range 1) at (49, 50).
        let auction = &t.steps[t.stage_end(2, 2).unwrap()];
        assert_eq!(auction.winner, Some(1));
        assert_eq!(auction.tie.as_ref().unwrap().order, [2, 0, 1]);
        let end = t.stage_end(2, 3).unwrap();
        assert_eq!(t.steps[end].lost, None);
        let cells = t.cells_at(end);
        for c in &cells {
            let near = (c[0] - 49).abs() <= 1 && (c[1] - 50).abs() <= 1;
            assert_eq!(c[5], if near { 4 } else { 0 }, "{c:?}");
            assert_eq!(c[6], (c[5] + 1).max(0), "rule 8: {c:?}");
        }
    }
}

#[test]
fn a_seat_is_stopped_from_the_step_of_its_fault() {
    let (record, _dir) = play();
    let t = Timeline::build(&record).unwrap();
    let crash = callback_step(&t, 0, 4, Callback::Jouer);
    let at = t.steps.iter().position(|s| std::ptr::eq(s, crash)).unwrap();
    assert_eq!(crash.faults[0].kind, "crash");
    assert_eq!(t.seats[0].stopped_at, Some(at));
    assert_eq!((t.seats[1].stopped_at, t.seats[2].stopped_at), (None, None));
    assert!(t.steps[at + 1..].iter().all(|s| s.seat != Some(0)));
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(json["seats"][0]["stopped_at"], at);
    assert!(json["seats"][1].get("stopped_at").is_none());
}

/// The walk the timeline is built on hands each action to the visitor as done (`request`)
/// or refused (`refused`), in order; refused ones only with the full log.
#[test]
fn the_walk_tells_done_actions_from_refused_ones() {
    #[derive(Default)]
    struct Seen(Vec<(&'static str, String, i32)>);
    impl crate::replay::Visitor for Seen {
        fn request(&mut self, _: usize, _: &CallbackRecord, call: &Call, answer: i32) {
            self.0.push(("done", call.to_string(), answer));
        }
        fn refused(&mut self, _: usize, _: &CallbackRecord, call: &Call, answer: i32) {
            self.0.push(("refused", call.to_string(), answer));
        }
    }
    let (record, dir) = play();
    let mut reader =
        crate::full_log::Reader::open(&dir.path().join(crate::full_log::FILE)).unwrap();
    let mut logged = Seen::default();
    walk_logged(&record, Some(&mut reader), &mut logged).unwrap();
    // Seat 0's first jouer, then seat 1's (see `seat0` and `seat1`).
    let house = logged.0[3].2;
    assert!(house < 0);
    let expected = [
        ("refused", "construire_route 200 3", HORS_TERRAIN),
        ("refused", "construire_route 200 3", HORS_TERRAIN),
        ("refused", "construire_route 201 3", HORS_TERRAIN),
        ("refused", "construire_maison 0 0", house),
        ("done", "construire_route 50 51", SUCCES),
        ("done", "construire_maison 51 50", SUCCES),
    ]
    .map(|(kind, call, answer)| (kind, call.to_string(), answer));
    assert_eq!(logged.0[..6], expected);
    assert!(logged
        .0
        .iter()
        .all(|(kind, _, answer)| (*kind == "done") == (*answer == SUCCES)));
    let mut counted = Seen::default();
    walk(&record, &mut counted).unwrap();
    assert!(counted.0.iter().all(|(kind, _, _)| *kind == "done"));
    let done = |seen: &Seen| {
        seen.0
            .iter()
            .filter(|s| s.0 == "done")
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(done(&logged), done(&counted));
    assert!(logged.0.len() > counted.0.len());
}

#[test]
fn the_initial_cells_are_the_first_road_and_an_empty_cell_is_ownerless_ground() {
    let (record, _dir) = play();
    let t = Timeline::build(&record).unwrap();
    // `[x, y, kind, owner, monument, value, worth]`: the road at (50, 50), nothing else.
    assert_eq!(t.initial, vec![[50, 50, Kind::Route as i32, 3, -1, 0, 1]]);
    assert_eq!(t.cells_at(0)[7 * 100 + 3], [3, 7, 0, 3, -1, 0, 1]);
    // The road at (50, 51), the house at (51, 50), the monument at (49, 50).
    assert_eq!(t.bounds, [49, 50, 51, 51], "the cells ever built on");
}
