//! The built-in bots: greedy clearly beats random over seeded games with rotated seats,
//! neither ever makes an action the engine refuses or reaches an impossible state, and a
//! game is a pure function of its seeds.

use engine::bots::{by_name, Champion, NAMES};
use engine::constants::SUCCES;
use engine::{Api, Game, Seat, Setup, Stage};

/// Passes every call through to the engine and counts the actions it refuses: the bots
/// list legal actions before acting, so there should be none.
struct Strict<'a, A: Api> {
    api: &'a mut A,
    refused: &'a mut Vec<String>,
}

macro_rules! pass {
    ($($name:ident($($arg:ident),*);)*) => {
        $(fn $name(&mut self, $($arg: i32),*) -> i32 { self.api.$name($($arg),*) })*
    };
}

macro_rules! act {
    ($($name:ident($($arg:ident),*);)*) => {
        $(fn $name(&mut self, $($arg: i32),*) -> i32 {
            let result = self.api.$name($($arg),*);
            if result != SUCCES {
                self.refused.push(format!("{}{:?} -> {result}", stringify!($name), ($($arg),*)));
            }
            result
        })*
    };
}

impl<A: Api> Api for Strict<'_, A> {
    pass! {
        type_case(x, y); valeur_case(x, y); appartenance(x, y); type_monument(x, y);
        portee_monument(m); prestige_monument(m); numero_tour(); commence();
        montant_encheres(j); vainqueur_encheres(); score(j); finances(j);
        monument_en_cours(); distance(a, b, c, d); route_possible(x, y);
        construction_possible(x, y); cout_achat_maison(); cout_achat_route(); mon_tour();
    }
    act! {
        construire_route(x, y); construire_maison(x, y); reserver_case(x, y);
        detruire_maison(x, y); vendre_maison(x, y); encherir(m); construire_monument(x, y);
    }
}

/// Play `seed` with the named bots on seats 0, 1, 2; return the game and refused actions.
fn play(seed: u64, names: [&str; 3]) -> (Game, Vec<String>) {
    let mut bots: Vec<Box<dyn Champion + Send>> = (0..3)
        .map(|i| by_name(names[i], seed * 3 + i as u64).expect("a built-in bot"))
        .collect();
    let mut game = Game::new(Setup::from_seed(seed));
    let mut refused = Vec::new();
    while let Some(callback) = game.callback() {
        for seat in game.seats_to_play() {
            let mut player = game.player(seat);
            let mut strict = Strict {
                api: &mut player,
                refused: &mut refused,
            };
            bots[seat.index()].play(callback, &mut strict);
        }
        game.advance();
        let state = game.state();
        assert!(state.board.is_open(), "seed {seed}: rule 21 broken");
        assert!(
            state.money.iter().all(|&m| m >= 0),
            "seed {seed}: negative money"
        );
    }
    assert_eq!(game.stage(), Stage::Over);
    (game, refused)
}

#[test]
fn names_are_known() {
    for name in NAMES {
        assert!(by_name(name, 0).is_some(), "{name}");
    }
    assert!(by_name("nobody", 0).is_none());
}

#[test]
fn greedy_beats_random_with_rotated_seats() {
    const GAMES: u64 = 100;
    let (mut wins, mut points, mut random_points) = (0, 0, 0);
    let (mut greedy_score, mut random_score) = (0i64, 0i64);
    for seed in 0..GAMES {
        let greedy = (seed % 3) as usize;
        let mut names = ["random"; 3];
        names[greedy] = "greedy";
        let (game, refused) = play(seed, names);
        assert!(
            refused.is_empty(),
            "seed {seed}: refused actions {refused:?}"
        );
        let outcome = game.outcome();
        wins += u32::from(outcome.points[greedy] == 3);
        points += outcome.points[greedy];
        for seat in Seat::ALL {
            if seat.index() == greedy {
                greedy_score += i64::from(outcome.final_scores[seat.index()]);
            } else {
                random_points += outcome.points[seat.index()];
                random_score += i64::from(outcome.final_scores[seat.index()]);
            }
        }
    }
    eprintln!(
        "greedy: {wins}/{GAMES} wins, {points} points, mean final score {:.1}; \
         random: {random_points} points over two seats, mean final score {:.1}",
        greedy_score as f64 / GAMES as f64,
        random_score as f64 / (2 * GAMES) as f64,
    );
    assert!(
        wins * 100 >= 80 * GAMES as u32,
        "greedy won only {wins}/{GAMES}"
    );
    assert!(points > 2 * random_points, "{points} vs {random_points}");
}

#[test]
fn games_are_deterministic() {
    for seed in [1, 17, 42] {
        let names = ["greedy", "random", "random"];
        assert_eq!(play(seed, names).0.digest(), play(seed, names).0.digest());
    }
}

#[test]
fn random_bots_alone_keep_the_rules() {
    for seed in 200..210 {
        let (_, refused) = play(seed, ["random"; 3]);
        assert!(refused.is_empty(), "seed {seed}: {refused:?}");
    }
}

#[test]
fn greedy_bots_alone_keep_the_rules() {
    for seed in 300..305 {
        let (_, refused) = play(seed, ["greedy"; 3]);
        assert!(refused.is_empty(), "seed {seed}: {refused:?}");
    }
}
