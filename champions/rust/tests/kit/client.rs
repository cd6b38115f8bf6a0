//! The client alone, on scripted input: the cache rules, local checks, and kit errors.

use engine::{Game, Seat, Setup};
use prologin::{Api, Champion, Client, KitError};

/// A champion running a closure in `jouer`.
struct Script<F: FnMut(&mut dyn Api)>(F);

impl<F: FnMut(&mut dyn Api)> Champion for Script<F> {
    fn jouer(&mut self, api: &mut dyn Api) {
        (self.0)(api)
    }
}

fn start_etat() -> String {
    let mut game = Game::new(Setup::from_seed(1));
    game.advance();
    prologin::etat::encode(&mut game.player(Seat(0)))
}

/// Run `champion` on `input`; what it sent and how it ended.
fn run(input: &str, champion: &mut dyn Champion) -> (String, Result<(), KitError>) {
    let mut client = Client::new(input.as_bytes(), Vec::new());
    let result = client.run(champion);
    (String::from_utf8(client.into_writer()).unwrap(), result)
}

#[test]
fn a_passive_champion_answers_fin() {
    let (sent, result) = run("init_game\njouer\nend_game\n", &mut Script(|_| {}));
    assert_eq!(sent, "fin\nfin\nfin\n");
    assert!(result.is_ok());
}

#[test]
fn cached_reads_cost_one_etat_until_an_action_succeeds() {
    let etat = start_etat();
    let input = format!("jouer\n{etat}\n-9\n0\n{etat}\njouer\n{etat}\nend_game\n");
    let mut seen = Vec::new();
    let (sent, result) = run(
        &input,
        &mut Script(|api| {
            seen.push(api.type_case(50, 50));
            if seen.len() == 1 {
                seen.push(api.finances(0));
                seen.push(api.type_case(100, 0)); // off the map: no round trip
                seen.push(api.score(3)); // bad player: no round trip
                seen.push(api.prestige_monument(0)); // table
                seen.push(api.construire_route(50, 50)); // refused: cache still good
                seen.push(api.valeur_case(0, 0));
                seen.push(api.construire_route(50, 51)); // done: dirty
                seen.push(api.mon_tour());
            }
        }),
    );
    assert!(result.is_ok(), "{result:?}");
    assert_eq!(
        sent,
        "etat\nconstruire_route 50 50\nconstruire_route 50 51\netat\nfin\netat\nfin\nfin\n"
    );
    assert_eq!(seen, vec![4, 10, -12, -7, 5, -9, 0, 0, 1, 4]);
}

#[test]
fn kit_errors_are_reported() {
    let cases: [(&str, &str); 5] = [
        (
            "init_game\n",
            "closed the input while waiting for a callback",
        ),
        ("hello\n", "expected a callback name"),
        (
            "jouer\n",
            "closed the input waiting for the answer to `distance 1 2 3 4`",
        ),
        (
            "jouer\nabc\n",
            "the answer to `distance 1 2 3 4` is not an integer: `abc`",
        ),
        ("jouer\n", "closed the input"),
    ];
    for (i, (input, message)) in cases.into_iter().enumerate() {
        let (_, result) = run(
            input,
            &mut Script(|api| {
                if i == 4 {
                    api.mon_tour();
                } else {
                    assert_ne!(api.distance(1, 2, 3, 4), 0);
                    assert_eq!(api.distance(1, 2, 3, 4), -10); // broken: no more I/O
                }
            }),
        );
        let error = result.expect_err(input).to_string();
        assert!(error.contains(message), "{input:?}: {error}");
    }
    let (_, result) = run(
        "jouer\n1 2 3\n",
        &mut Script(|api| {
            api.numero_tour();
        }),
    );
    assert!(matches!(result, Err(KitError::BadEtat(_))));
}
