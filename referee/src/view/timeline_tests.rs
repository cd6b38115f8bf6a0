//! The timeline of a scripted match played through the arena (no process: each seat's
//! lines are given), built from its record (`view::loi_arena::timeline`): refused actions,
//! their grouping and targets, the Phase II bids and sales pending until the auction, the
//! tie and the order that broke it, a lost monument and why, the step from which a fault
//! stopped a seat, each cell's worth; and the record under it, which keeps done actions
//! and refused ones in their order.

use super::*;
use crate::endpoint::{CallLimits, CallTiming, Endpoint, TimeLimits};
use crate::games::loi_wire::LoiWire;
use crate::record::SeatRecord;
use arena::{GameRecord, Machine};
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

/// The scripted match's record (monuments in order, seat 0 first).
fn play() -> GameRecord {
    let monuments: Vec<String> = (0..14).map(|i: u8| i.to_string()).collect();
    let options = game::Options::parse(
        game::Game::options(&engine::model::Loi),
        &[
            "first-player=0".to_string(),
            format!("monuments={}", monuments.join("-")),
        ],
    )
    .unwrap();
    let seats = (0..3)
        .map(|i| SeatRecord {
            seat: i as u8,
            name: format!("scripted{i}"),
            ..SeatRecord::default()
        })
        .collect();
    let mut machine = Machine::new(
        &LoiWire,
        &options,
        1,
        seats,
        TimeLimits::default(),
        String::new(),
    )
    .unwrap();
    let mut seats = [seat0 as Script, seat1, seat2].map(|script| Scripted {
        script,
        counts: HashMap::new(),
        queue: VecDeque::new(),
    });
    let mut endpoints: Vec<&mut dyn Endpoint> =
        seats.iter_mut().map(|s| s as &mut dyn Endpoint).collect();
    arena::match_loop::run(&mut machine, &mut endpoints, vec![None; 3]);
    machine.finish()
}

/// The timeline of the scripted match.
fn timeline() -> Timeline {
    crate::view::loi_arena::timeline(&play()).unwrap()
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

/// Refused actions with their arguments, in order, grouped where they repeat, a group of
/// calls that differed naming its first and last (the record
/// keeps each in its place, as a full log did for the records of before).
#[test]
fn refused_actions_are_grouped_in_order_with_their_targets() {
    let logged = timeline();
    assert!(logged.full_log && logged.log_note.is_none());
    let step = callback_step(&logged, 0, 1, Callback::Jouer);
    let house = step.actions[1].code;
    assert!(house < 0, "the house at (0, 0) is refused");
    assert_eq!(
        actions(step),
        [
            // Three calls that differed: the group says the first and the last.
            ("construire_route 200 3 … 201 3", HORS_TERRAIN, 3),
            ("construire_maison 0 0", house, 1),
            ("construire_route 50 51", SUCCES, 1),
        ]
    );
    assert!(step.refused.is_empty());
    assert_eq!(step.targets, vec![[0, 0, house], [50, 51, SUCCES]]);
    assert_eq!(step.info, 1, "finances, the only information request");
    // Every request is counted once.
    let shown: u64 = logged
        .steps
        .iter()
        .map(|s| {
            s.actions.iter().map(|a| u64::from(a.count)).sum::<u64>()
                + s.refused.iter().map(|r| r.2).sum::<u64>()
                + u64::from(s.info)
        })
        .sum();
    assert_eq!(shown as usize, logged.requests);
}

#[test]
fn phase_two_bids_and_sales_are_pending_until_the_auction_that_breaks_the_tie() {
    let t = timeline();
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
    {
        let t = timeline();
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
    let t = timeline();
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

/// The record the timeline is built from keeps each action as done (its answer `Ok`) or
/// refused (`Err`, the API's code), in order.
#[test]
fn the_record_tells_done_actions_from_refused_ones() {
    let record = play();
    let seen: Vec<(&str, String, i32)> = record
        .history()
        .filter_map(|step| match step {
            game::Step::Act { action, answer, .. } if action != "fin" => Some(match answer {
                Ok(code) => ("done", action.clone(), code.parse().unwrap()),
                Err(game::Illegal(code)) => ("refused", action.clone(), code.parse().unwrap()),
            }),
            _ => None,
        })
        .collect();
    // Seat 0's first jouer, then seat 1's (see `seat0` and `seat1`).
    let house = seen[3].2;
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
    assert_eq!(seen[..6], expected);
    assert!(seen
        .iter()
        .all(|(kind, _, answer)| (*kind == "done") == (*answer == SUCCES)));
}

#[test]
fn the_initial_cells_are_the_first_road_and_an_empty_cell_is_ownerless_ground() {
    let t = timeline();
    // `[x, y, kind, owner, monument, value, worth]`: the road at (50, 50), nothing else.
    assert_eq!(t.initial, vec![[50, 50, Kind::Route as i32, 3, -1, 0, 1]]);
    assert_eq!(t.cells_at(0)[7 * 100 + 3], [3, 7, 0, 3, -1, 0, 1]);
    // The road at (50, 51), the house at (51, 50), the monument at (49, 50).
    assert_eq!(t.bounds, [49, 50, 51, 51], "the cells ever built on");
}
