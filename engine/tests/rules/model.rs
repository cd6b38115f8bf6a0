//! The 2009 game on the game model (`engine::model`): it passes the model's conformance,
//! its options are checked, and the built-in bots play the same games through it as
//! through the engine's own driver, seat faults included: the same callbacks, the same
//! digest after each, the same final digest and scores.

use engine::bots::{by_name, Champion};
use engine::call::{Call, Function};
use engine::model::{Action, Loi, LoiState};
use engine::{Api, Callback, Game, Seat, Setup};
use game::{Acting, Game as _, Ranking, State as _};

#[test]
fn the_2009_game_passes_the_model_s_conformance() {
    game::testing::conformance(&Loi, 4, 200_000).unwrap();
}

#[test]
fn three_seats_and_options_are_checked() {
    assert!(Loi
        .start(2, &Loi.defaults())
        .unwrap_err()
        .contains("3 seats"));
    let parse = |given: &[&str]| game::Options::parse(Loi.options(), given);
    assert!(parse(&["first-player=3"]).unwrap_err().contains("0, 1, 2"));
    let order = "0-1-2-3-4-5-6-7-8-9-10-11-12-13";
    let options = parse(&[&format!("monuments={order}"), "first-player=2"]).unwrap();
    let mut state = Loi.start(3, &options).unwrap();
    assert_eq!(state.acting(), Acting::Chance(game::Chance::Seed));
    state.chance(&game::Drawn::Number(5)).unwrap();
    let expected = Game::new(Setup::with_order(std::array::from_fn(|i| i as u8), Seat(2)));
    assert_eq!(state.game().unwrap().digest(), expected.digest());
    for bad in ["0-1-2", "0-1-2-3-4-5-6-7-8-9-10-11-12-12", "a-b", "0.1"] {
        let options = parse(&[&format!("monuments={bad}")]).unwrap();
        let err = Loi.start(3, &options).unwrap_err();
        assert!(err.contains("monuments"), "{bad}: {err}");
    }
    // Only the first player given: the order is the seed's.
    let options = parse(&["first-player=1"]).unwrap();
    let mut state = Loi.start(3, &options).unwrap();
    state.chance(&game::Drawn::Number(9)).unwrap();
    let drawn = Setup::from_seed(9);
    let expected = Game::new(Setup::with_order(drawn.monument_order, Seat(1)));
    assert_eq!(state.game().unwrap().digest(), expected.digest());
}

#[test]
fn questions_are_no_actions_and_refusals_answer_the_api_s_code() {
    assert!("distance 1 2 3 4".parse::<Action>().is_err());
    assert!("fin 1".parse::<Action>().is_err());
    assert!(" fin".parse::<Action>().is_err());
    let mut state = Loi.start(3, &Loi.defaults()).unwrap();
    state.chance(&game::Drawn::Number(3)).unwrap();
    // init_game: every seat, and actions are refused with ACTION_INTERDITE.
    assert_eq!(state.acting(), Acting::Seats(vec![0, 1, 2]));
    let road: Action = "construire_route 50 49".parse().unwrap();
    let digest = state.digest();
    assert_eq!(
        state.act(1, &road),
        Err(game::Illegal(
            engine::constants::ACTION_INTERDITE.to_string()
        ))
    );
    assert_eq!(state.digest(), digest);
    assert_eq!(state.act(1, &Action::Fin), Ok(String::new()));
    assert_eq!(state.acting(), Acting::Seats(vec![0, 2]));
}

/// A seat's API through the model: questions through its look, actions taken by the rules
/// (their text read back first).
struct Through<'a> {
    state: &'a mut LoiState,
    seat: usize,
}

impl Through<'_> {
    fn ask(&mut self, function: Function, args: &[i32]) -> i32 {
        let call = Call::new(function, args).unwrap();
        call.apply(&mut self.state.look(self.seat).unwrap())
    }

    fn act(&mut self, function: Function, args: &[i32]) -> i32 {
        let text = Call::new(function, args).unwrap().to_string();
        let action: Action = text.parse().unwrap();
        assert_eq!(action.to_string(), text);
        match self.state.act(self.seat, &action) {
            Ok(answer) => answer.parse().unwrap(),
            Err(code) => code.0.parse().unwrap(),
        }
    }
}

macro_rules! through {
    ($how:ident: $($name:ident $function:ident($($arg:ident),*);)*) => {
        $(fn $name(&mut self, $($arg: i32),*) -> i32 {
            self.$how(Function::$function, &[$($arg),*])
        })*
    };
}

impl Api for Through<'_> {
    through! { ask:
        type_case TypeCase(x, y); valeur_case ValeurCase(x, y);
        appartenance Appartenance(x, y); type_monument TypeMonument(x, y);
        portee_monument PorteeMonument(m); prestige_monument PrestigeMonument(m);
        numero_tour NumeroTour(); commence Commence(); montant_encheres MontantEncheres(j);
        vainqueur_encheres VainqueurEncheres(); score Score(j); finances Finances(j);
        monument_en_cours MonumentEnCours(); distance Distance(a, b, c, d);
        route_possible RoutePossible(x, y); construction_possible ConstructionPossible(x, y);
        cout_achat_maison CoutAchatMaison(); cout_achat_route CoutAchatRoute();
        mon_tour MonTour();
    }
    through! { act:
        construire_route ConstruireRoute(x, y); construire_maison ConstruireMaison(x, y);
        reserver_case ReserverCase(x, y); detruire_maison DetruireMaison(x, y);
        vendre_maison VendreMaison(x, y); encherir Encherir(m);
        construire_monument ConstruireMonument(x, y);
    }
}

/// What a match gave: each callback played (seat, callback, the digest after its
/// actions), the final digest and final scores.
type Played = (Vec<(usize, Callback, u64)>, u64, [i32; 3]);

fn bots(names: [&str; 3], seed: u64) -> Vec<Box<dyn Champion + Send>> {
    (0..3)
        .map(|i| by_name(names[i], seed * 3 + i as u64).unwrap())
        .collect()
}

/// The match through the engine's driver, as the referee's loop drives it: the seat that
/// plays callback number `fault` (counted from 0) stops there and plays nothing more.
fn through_engine(seed: u64, names: [&str; 3], fault: Option<usize>) -> Played {
    let mut bots = bots(names, seed);
    let mut game = Game::new(Setup::from_seed(seed));
    let mut stopped = [false; 3];
    let mut played = Vec::new();
    while let Some(callback) = game.callback() {
        for seat in game.seats_to_play() {
            if stopped[seat.index()] {
                continue;
            }
            bots[seat.index()].play(callback, &mut game.player(seat));
            if fault == Some(played.len()) {
                stopped[seat.index()] = true;
            }
            played.push((seat.index(), callback, game.digest()));
        }
        game.advance();
    }
    (played, game.digest(), game.outcome().final_scores)
}

/// The same match through the model: the seat of callback `fault` retires there instead
/// of ending it with `fin`.
fn through_model(seed: u64, names: [&str; 3], fault: Option<usize>) -> (Played, Ranking) {
    let mut bots = bots(names, seed);
    let mut state = Loi.start(3, &Loi.defaults()).unwrap();
    let mut played = Vec::new();
    loop {
        match state.acting() {
            Acting::Chance(chance) => {
                let drawn = chance.draw(seed, &mut draw::Stream::new(0));
                state.chance(&drawn).unwrap();
            }
            Acting::Seats(seats) => {
                let seat = seats[0];
                let callback = state.callback().unwrap();
                bots[seat].play(
                    callback,
                    &mut Through {
                        state: &mut state,
                        seat,
                    },
                );
                played.push((seat, callback, state.digest()));
                match fault == Some(played.len() - 1) {
                    true => state.retire(seat),
                    false => assert_eq!(state.act(seat, &Action::Fin), Ok(String::new())),
                }
            }
            Acting::Over => break,
        }
    }
    let ranking = state.ranking().unwrap();
    let scores = state.game().unwrap().outcome().final_scores;
    ((played, state.digest(), scores), ranking)
}

/// Property: for every seed and line-up, with or without a seat stopped at some callback,
/// the model plays the engine's game exactly, and ranks it by the final scores.
#[test]
fn the_bots_play_the_same_games_through_the_model() {
    let lineups = [
        ["random", "random", "random"],
        ["greedy", "random", "random"],
        ["random", "greedy", "greedy"],
    ];
    for seed in 0..24u64 {
        let names = lineups[seed as usize % lineups.len()];
        let fault = (seed % 2 == 1).then_some((seed as usize * 37) % 90);
        let expected = through_engine(seed, names, fault);
        let (got, ranking) = through_model(seed, names, fault);
        assert_eq!(
            got.0.len(),
            expected.0.len(),
            "seed {seed}: callbacks played"
        );
        for (n, (g, e)) in got.0.iter().zip(&expected.0).enumerate() {
            assert_eq!(g, e, "seed {seed} {names:?} fault {fault:?}: callback {n}");
        }
        assert_eq!(got.1, expected.1, "seed {seed}: final digest");
        assert_eq!(got.2, expected.2, "seed {seed}: final scores");
        let scores: Vec<i64> = expected.2.iter().map(|&s| i64::from(s)).collect();
        assert_eq!(ranking, Ranking::by_scores(scores), "seed {seed}");
    }
}
