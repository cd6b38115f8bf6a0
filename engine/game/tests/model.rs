//! The model through its users' eyes: the two small games pass the conformance every game
//! must pass, and a history edited anywhere is refused by the replay.

use game::testing::{conformance, random_match, Choice, HighCard, Nim};
use game::{Acting, Chance, Drawn, Game, Illegal, Options, Replay, State, Step};

#[test]
fn the_small_games_conform() {
    conformance(&Nim { heap: 21 }, 30, 1_000).unwrap();
    conformance(&HighCard, 30, 1_000).unwrap();
}

/// Replays `steps` of `game` with `seats` seats, and checks the final ranking of `played`.
fn replays<G: Game>(
    game: &G,
    seats: usize,
    steps: &[Step],
    ranking: &game::Ranking,
) -> Result<(), String> {
    let mut replay = Replay::start(game, seats, &game.defaults()).map_err(|d| d.0)?;
    for step in steps {
        replay.step(step).map_err(|d| d.0)?;
    }
    replay.finish(ranking).map(|_| ()).map_err(|d| d.0)
}

#[test]
fn an_edited_history_is_refused() {
    let game = HighCard;
    let played = random_match(&game, 4, &game.defaults(), 11, None, 100).unwrap();
    replays(&game, 4, &played.steps, &played.ranking).unwrap();
    let edit = |f: &dyn Fn(&mut Vec<Step>)| {
        let mut steps = played.steps.clone();
        f(&mut steps);
        replays(&game, 4, &steps, &played.ranking).unwrap_err()
    };
    // Another deal: the same cards in another order is another match, so its ranking is
    // not the record's (or its answers differ).
    let err = edit(&|s| {
        let Step::Chance(Drawn::Order(order)) = &mut s[0] else {
            panic!()
        };
        order.swap(0, 1);
        order.swap(1, 2);
    });
    assert!(err.contains("ranked"), "{err}");
    // A deal that is no deal.
    let err = edit(&|s| s[0] = Step::Chance(Drawn::Order(vec![0; 13])));
    assert!(err.contains("cannot draw"), "{err}");
    // An answer.
    let err = edit(&|s| {
        let Step::Act { answer, .. } = &mut s[1] else {
            panic!()
        };
        *answer = Ok("ko".into());
    });
    assert!(err.contains("answered"), "{err}");
    // An action written otherwise, no action at all, or by a seat that does not act.
    let err = edit(&|s| {
        let Step::Act { action, .. } = &mut s[1] else {
            panic!()
        };
        *action = "Keep".into();
    });
    assert!(err.contains("no action"), "{err}");
    let err = edit(&|s| {
        let Step::Act { seat, .. } = &mut s[1] else {
            panic!()
        };
        *seat = 9;
    });
    assert!(err.contains("wait for"), "{err}");
    // A step dropped at the end, a step added, chance where a seat acts.
    let err = edit(&|s| {
        s.pop();
    });
    assert!(err.contains("stops"), "{err}");
    let err = edit(&|s| s.push(Step::Chance(Drawn::Number(0))));
    assert!(err.contains("wait for Over"), "{err}");
    let err = edit(&|s| s.insert(1, Step::Chance(Drawn::Number(0))));
    assert!(err.contains("wait for Seats"), "{err}");
    let err = edit(&|s| s.insert(1, Step::Retire(7)));
    assert!(err.contains("4 seats"), "{err}");
    // Another ranking.
    let mut ranking = played.ranking.clone();
    ranking.scores[0] += 1;
    assert!(replays(&game, 4, &played.steps, &ranking)
        .unwrap_err()
        .contains("ranked"));
    // Seats the game does not take, options it does not know.
    assert!(Replay::start(&game, 9, &game.defaults()).is_err());
    let options = Options::parse(game.options(), &["deck=60"]);
    assert!(options.unwrap_err().contains("from 8 to 52"));
}

#[test]
fn a_digest_that_differs_is_named() {
    let game = Nim { heap: 10 };
    let played = random_match(&game, 3, &game.defaults(), 5, None, 100).unwrap();
    let mut replay = Replay::start(&game, 3, &game.defaults()).unwrap();
    replay.step(&played.steps[0]).unwrap();
    replay.digest_is(played.digests[0], "callback 1").unwrap();
    let err = replay
        .digest_is(played.digests[0] ^ 1, "callback 1")
        .unwrap_err();
    assert!(err.0.starts_with("callback 1: the state's digest"), "{err}");
}

#[test]
fn an_illegal_action_is_recorded_as_such_and_replays() {
    let game = Nim { heap: 2 };
    let mut state = game.start(2, &game.defaults()).unwrap();
    let answer = state.act(0, &3);
    assert_eq!(answer, Err(Illegal("cannot take 3 of 2".into())));
    state.retire(0);
    assert_eq!(state.acting(), Acting::Over);
    let steps = [
        Step::Act {
            seat: 0,
            action: "3".into(),
            answer,
        },
        Step::Retire(0),
    ];
    replays(&game, 2, &steps, &state.ranking().unwrap()).unwrap();
    assert_eq!(state.ranking().unwrap().places, [2, 1]);
}

/// A seat sees its own card and nobody else's until everyone chose.
#[test]
fn high_card_hides_the_other_cards() {
    let game = HighCard;
    let mut a = game.start(3, &game.defaults()).unwrap();
    let mut b = a.clone();
    assert_eq!(a.acting(), Acting::Chance(Chance::Order(13)));
    a.chance(&Drawn::Order((0..13).collect())).unwrap();
    b.chance(&Drawn::Order(
        [0, 5, 6]
            .into_iter()
            .chain((1..13).filter(|c| *c != 5 && *c != 6))
            .collect(),
    ))
    .unwrap();
    assert_eq!(a.observe(0), b.observe(0));
    assert_ne!(a.observe(1), b.observe(1));
    for s in 0..3 {
        a.act(s, &Choice::Keep).unwrap();
    }
    assert_eq!(a.observe(0).all, Some(vec![0, 1, 2]));
    assert_eq!(a.ranking().unwrap().places, [3, 2, 1]);
}
