//! The auction as the timeline explains it, from the engine's state and the steps already
//! built (no rule is decided here: the winner is the engine's): a tie at the highest bid
//! and the next turn's Phase I order that broke it (rule 23), and why a monument was lost
//! (rule 25).

use super::step_actions::ActionView;
use super::terminal::code_name;
use super::timeline::{Step, StepKind};
use engine::{Callback, Function, Game};
use serde::Serialize;

/// Seats tied at the highest bid, and the next turn's Phase I order: of the tied seats, the
/// one playing last in it wins (rule 23).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TieView {
    pub bid: i32,
    /// The tied seats, in seat order.
    pub seats: Vec<u8>,
    /// The next turn's Phase I order (`commence()` first).
    pub order: [u8; 3],
}

/// A monument its auction's winner did not build in Phase III (rule 25), and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostView {
    pub monument: u8,
    /// The auction's winner.
    pub seat: u8,
    /// Why, in words: the winner's fault, its refused attempts, or no attempt.
    pub reason: String,
}

/// The tie of the auction `game` has just resolved, if two or three seats bid the most.
pub fn tie_of(game: &Game) -> Option<TieView> {
    let state = game.state();
    let bids = state.last_bids;
    let bid = *bids.iter().max()?;
    let seats: Vec<u8> = (0..3u8).filter(|&s| bids[usize::from(s)] == bid).collect();
    (seats.len() > 1).then(|| TieView {
        bid,
        seats,
        order: engine::turn::order(state.commence()).map(|s| s.0),
    })
}

/// The monument lost at the end of the Phase III `game` has just left, with its winner
/// (the reason is filled in by [`explain_lost`] once every step is known).
pub fn lost_of(game: &Game) -> Option<LostView> {
    let state = game.state();
    if state.monument_placed {
        return None;
    }
    Some(LostView {
        monument: state.current_monument?,
        seat: state.last_winner?.0,
        reason: String::new(),
    })
}

/// Fill in the reason of every lost monument of `steps`, from the winner's placement step
/// of that turn (its faults, actions and refused counts).
pub fn explain_lost(steps: &mut [Step]) {
    for i in 0..steps.len() {
        let Some(lost) = &steps[i].lost else {
            continue;
        };
        let (turn, seat) = (steps[i].turn, lost.seat);
        let placement = steps[..i].iter().rev().find(|s| {
            s.kind == StepKind::Callback
                && s.turn == turn
                && s.callback == Callback::Placement
                && s.seat == Some(seat)
        });
        let reason = reason(placement);
        if let Some(lost) = &mut steps[i].lost {
            lost.reason = reason;
        }
    }
}

fn reason(placement: Option<&Step>) -> String {
    let Some(step) = placement else {
        return "it was stopped by a fault before its placement".into();
    };
    if let Some(fault) = step.faults.iter().find(|f| Some(f.seat) == step.seat) {
        return format!("its placement ended with a {} fault", fault.kind);
    }
    let name = Function::ConstruireMonument.name();
    let mut refusals: Vec<String> = step
        .actions
        .iter()
        .filter(|a| a.call.split(' ').next() == Some(name) && a.code != 0)
        .map(|a: &ActionView| times(a.count.into(), a.code))
        .collect();
    refusals.extend(
        step.refused
            .iter()
            .filter(|(function, _, _)| function == name)
            .map(|&(_, code, n)| times(n, code)),
    );
    if refusals.is_empty() {
        format!("it did not call {name} in its placement")
    } else {
        format!("{name} was refused: {}", refusals.join(", "))
    }
}

fn times(n: u64, code: i32) -> String {
    if n > 1 {
        format!("{n} × {}", code_name(code))
    } else {
        code_name(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::timeline::FaultView;
    use engine::{Api, Seat, Setup, Stage};

    /// A game at its first auction, with `bids` made, then resolved.
    fn auction(first: u8, bids: [i32; 3]) -> Game {
        let order = Setup::check_order(&(0..14).collect::<Vec<u8>>()).unwrap();
        let mut game = Game::new(Setup::with_order(order, Seat(first)));
        while game.stage() != Stage::Auction {
            game.advance();
        }
        for seat in Seat::ALL {
            let bid = bids[seat.index()];
            if bid > 0 {
                assert_eq!(game.player(seat).encherir(bid), 0);
            }
        }
        game.advance();
        game
    }

    #[test]
    fn a_tie_names_the_tied_seats_and_the_order_the_engine_broke_it_with() {
        for first in 0..3 {
            for bids in [[0, 0, 0], [3, 3, 1], [2, 5, 5], [4, 1, 4]] {
                let game = auction(first, bids);
                let tie = tie_of(&game).expect("a tie");
                let top = *bids.iter().max().unwrap();
                assert_eq!(tie.bid, top);
                let tied: Vec<u8> = (0..3).filter(|&s| bids[usize::from(s)] == top).collect();
                assert_eq!(tie.seats, tied);
                // The next turn begins with the second seat of this one (rule 11) ...
                assert_eq!(tie.order[0], (first + 1) % 3);
                // ... and the winner the engine chose plays last of the tied in that order.
                let last = tie
                    .order
                    .iter()
                    .rev()
                    .find(|s| tie.seats.contains(s))
                    .copied();
                assert_eq!(
                    last,
                    game.state().last_winner.map(|s| s.0),
                    "{first} {bids:?}"
                );
            }
        }
        assert_eq!(tie_of(&auction(0, [1, 2, 3])), None);
        assert_eq!(tie_of(&auction(2, [0, 4, 0])), None);
    }

    #[test]
    fn a_monument_not_built_is_lost_with_its_winner() {
        let mut game = auction(0, [0, 2, 0]);
        assert_eq!(game.stage(), Stage::Placement { winner: Seat(1) });
        game.advance();
        assert_eq!(
            lost_of(&game),
            Some(LostView {
                monument: 0,
                seat: 1,
                reason: String::new()
            })
        );
        // Built, it is not lost.
        let mut game = auction(0, [0, 2, 0]);
        let (x, y) = (0..100)
            .flat_map(|y| (0..100).map(move |x| (x, y)))
            .find(|&(x, y)| game.player(Seat(1)).construction_possible(x, y) == 0)
            .unwrap();
        assert_eq!(game.player(Seat(1)).construire_monument(x, y), 0);
        game.advance();
        assert_eq!(lost_of(&game), None);
    }

    fn step(kind: StepKind, callback: Callback, seat: Option<u8>) -> Step {
        let mut s = crate::view::timeline::blank(7, 3, kind, callback);
        s.seat = seat;
        s
    }

    fn lost_after(placement: Option<Step>) -> String {
        let mut end = step(StepKind::StageEnd, Callback::Placement, None);
        end.lost = Some(LostView {
            monument: 4,
            seat: 2,
            reason: String::new(),
        });
        let mut steps: Vec<Step> = placement.into_iter().collect();
        steps.push(end);
        explain_lost(&mut steps);
        steps.last().unwrap().lost.as_ref().unwrap().reason.clone()
    }

    #[test]
    fn the_reason_of_a_lost_monument() {
        assert_eq!(
            lost_after(None),
            "it was stopped by a fault before its placement"
        );
        let mut other_seat = step(StepKind::Callback, Callback::Placement, Some(1));
        other_seat.actions.push(ActionView {
            call: "construire_monument 1 1".into(),
            code: -9,
            count: 1,
        });
        assert_eq!(
            lost_after(Some(other_seat)),
            "it was stopped by a fault before its placement"
        );
        let placement = || step(StepKind::Callback, Callback::Placement, Some(2));
        assert_eq!(
            lost_after(Some(placement())),
            "it did not call construire_monument in its placement"
        );
        let mut faulted = placement();
        faulted.faults.push(FaultView {
            seat: 2,
            kind: "timeout".into(),
            message: "too slow".into(),
        });
        assert_eq!(
            lost_after(Some(faulted)),
            "its placement ended with a timeout fault"
        );
        let mut logged = placement();
        logged.actions = vec![
            ActionView {
                call: "construire_route 1 1".into(),
                code: -8,
                count: 1,
            },
            ActionView {
                call: "construire_monument 200 1".into(),
                code: -12,
                count: 3,
            },
            ActionView {
                call: "construire_monument 5 5".into(),
                code: -9,
                count: 1,
            },
        ];
        assert_eq!(
            lost_after(Some(logged)),
            "construire_monument was refused: 3 × HORS_TERRAIN, CASE_OCCUPEE"
        );
        let mut counted = placement();
        counted.refused = vec![
            ("construire_maison".into(), -9, 2),
            ("construire_monument".into(), -5, 2),
        ];
        assert_eq!(
            lost_after(Some(counted)),
            "construire_monument was refused: 2 × BLOCAGE"
        );
    }
}
