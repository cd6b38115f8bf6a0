//! Section 6 of docs/rules.md: every error code of every function, in the documented order
//! of checks. Each case is a stage, the money of every seat, calls made first (with their
//! expected codes), then the call under test; seat 0 always acts. A call that fails two
//! checks must report the first. A failed action must change nothing.

use crate::common::*;
use engine::constants::*;
use engine::{Game, Seat, Stage};

/// Where seat 0 stands when it makes the call.
#[derive(Clone, Copy, Debug)]
enum At {
    /// `init_game`.
    Init,
    /// Its own Phase I slot.
    Mine,
    /// Seat 1's Phase I slot.
    NotMine,
    /// Phase II.
    Auction,
    /// Phase III, as the auction winner.
    Winner,
    /// Phase III, seat 1 having won.
    Loser,
    /// `end_game`.
    End,
}

struct Case {
    name: &'static str,
    at: At,
    money: i32,
    before: &'static [(&'static str, i32)],
    call: &'static str,
    expect: i32,
}

const fn case(name: &'static str, at: At, call: &'static str, expect: i32) -> Case {
    Case {
        name,
        at,
        money: 10,
        before: &[],
        call,
        expect,
    }
}

const fn poor(name: &'static str, at: At, money: i32, call: &'static str, expect: i32) -> Case {
    Case {
        name,
        at,
        money,
        before: &[],
        call,
        expect,
    }
}

const fn after(
    name: &'static str,
    at: At,
    money: i32,
    before: &'static [(&'static str, i32)],
    call: &'static str,
    expect: i32,
) -> Case {
    Case {
        name,
        at,
        money,
        before,
        call,
        expect,
    }
}

/// The board of every case (top-left corner of the map):
/// - a corridor from the border to the road (5, 3): (5, 0), (5, 1), (5, 2) block, since the
///   other roads are walled in (rows 4 to 11, columns 0 to 12);
/// - roads (3, 7), (3, 8), (7, 8); seat 0's reservation (2, 7) and house (5, 7); seat 1's
///   reservation (4, 7) and houses (6, 7), (8, 8); seat 2's house (2, 8); a Restaurant
///   (+3, range 1) at (8, 7).
const BOARD: [&str; 12] = [
    ".............",
    "....H.H......",
    "....H.H......",
    "....HRH......",
    "HHHHHHHHHHHHH",
    "H...........H",
    "H...........H",
    "H.aRbAB.3...H",
    "H.CR...RB...H",
    "H...........H",
    "H...........H",
    "HHHHHHHHHHHHH",
];

fn game_at(at: At, money: i32) -> Game {
    let first = match at {
        At::NotMine | At::Loser => Seat(1),
        _ => Seat(0),
    };
    let mut game = Game::new(setup(
        engine::Board::from_rows(&BOARD),
        ORDER,
        first,
        [money; 3],
    ));
    match at {
        At::Init => {}
        At::Mine | At::NotMine => game.advance(),
        At::Auction => to_auction(&mut game),
        At::Winner | At::Loser => {
            to_placement(&mut game);
        }
        At::End => advance_until(&mut game, |s| s == Stage::End),
    }
    game
}

fn check(cases: &[Case]) {
    for case in cases {
        let mut game = game_at(case.at, case.money);
        for &(call, expected) in case.before {
            let got = run(&mut game, Seat(0), call);
            assert_eq!(
                code_name(got),
                code_name(expected),
                "{}: before, {call}",
                case.name
            );
        }
        let digest = game.digest();
        let got = run(&mut game, Seat(0), case.call);
        assert_eq!(
            code_name(got),
            code_name(case.expect),
            "{} ({:?}): {}",
            case.name,
            case.at,
            case.call
        );
        let is_action = case
            .call
            .parse::<engine::Call>()
            .unwrap()
            .function
            .is_action();
        if got != SUCCES || !is_action {
            assert_eq!(game.digest(), digest, "{}: changed the game", case.name);
        } else {
            assert_ne!(game.digest(), digest, "{}: changed nothing", case.name);
        }
    }
}

use At::*;

#[test]
fn section_6_construire_route() {
    check(&[
        case(
            "not your turn, off the map",
            NotMine,
            "construire_route -1 -1",
            ACTION_INTERDITE,
        ),
        case(
            "Phase II, off the map",
            Auction,
            "construire_route -1 -1",
            ACTION_INTERDITE,
        ),
        case(
            "Phase II",
            Auction,
            "construire_route 4 8",
            ACTION_INTERDITE,
        ),
        case("init_game", Init, "construire_route 4 8", ACTION_INTERDITE),
        case("end_game", End, "construire_route 4 8", ACTION_INTERDITE),
        case(
            "Phase III, not the winner",
            Loser,
            "construire_route 4 8",
            ACTION_INTERDITE,
        ),
        case(
            "off the map, x = 100",
            Mine,
            "construire_route 100 0",
            HORS_TERRAIN,
        ),
        case(
            "off the map, x = -1",
            Mine,
            "construire_route -1 8",
            HORS_TERRAIN,
        ),
        case(
            "off the map, y = -1",
            Mine,
            "construire_route 3 -1",
            HORS_TERRAIN,
        ),
        case(
            "off the map, y = 100",
            Mine,
            "construire_route 0 100",
            HORS_TERRAIN,
        ),
        case(
            "a house, no road next to it",
            Mine,
            "construire_route 6 7",
            CASE_OCCUPEE,
        ),
        case(
            "others' reservation",
            Mine,
            "construire_route 4 7",
            CASE_OCCUPEE,
        ),
        case("a road", Mine, "construire_route 3 7", CASE_OCCUPEE),
        case("a monument", Mine, "construire_route 8 7", CASE_OCCUPEE),
        poor(
            "occupied, no money",
            Mine,
            0,
            "construire_route 6 7",
            CASE_OCCUPEE,
        ),
        after(
            "unconnected, no money",
            Mine,
            0,
            &[("construire_route 4 8", SUCCES)],
            "construire_route 10 9",
            NON_CONNEXE,
        ),
        case(
            "only a diagonal road",
            Mine,
            "construire_route 4 6",
            NON_CONNEXE,
        ),
        after(
            "price 1, no money",
            Mine,
            0,
            &[("construire_route 4 8", SUCCES)],
            "construire_route 3 9",
            FINANCES_DEPASSEES,
        ),
        poor(
            "the first road is free",
            Mine,
            0,
            "construire_route 4 8",
            SUCCES,
        ),
        case(
            "own reservation, next to a road",
            Mine,
            "construire_route 2 7",
            SUCCES,
        ),
        case(
            "a cell that would block a house",
            Mine,
            "construire_route 5 2",
            SUCCES,
        ),
        case(
            "Phase III, the winner",
            Winner,
            "construire_route 4 8",
            SUCCES,
        ),
    ]);
}

#[test]
fn section_6_construction_and_route_possible() {
    for at in [Init, Mine, NotMine, Auction, Winner, Loser, End] {
        check(&[
            case(
                "off the map",
                at,
                "construction_possible 12 -1",
                HORS_TERRAIN,
            ),
            case(
                "occupied, no road",
                at,
                "construction_possible 6 7",
                CASE_OCCUPEE,
            ),
            case("own house", at, "construction_possible 5 7", CASE_OCCUPEE),
            case(
                "others' reservation",
                at,
                "construction_possible 4 7",
                CASE_OCCUPEE,
            ),
            case(
                "blocking, no road",
                at,
                "construction_possible 5 1",
                BLOCAGE,
            ),
            case("blocking, road", at, "construction_possible 5 2", BLOCAGE),
            case("no road", at, "construction_possible 10 10", NON_CONNEXE),
            case("a diagonal road", at, "construction_possible 4 6", SUCCES),
            case("own reservation", at, "construction_possible 2 7", SUCCES),
            poor(
                "money plays no part",
                at,
                0,
                "construction_possible 7 7",
                SUCCES,
            ),
            case("off the map", at, "route_possible 99 100", HORS_TERRAIN),
            case("occupied, no road", at, "route_possible 6 7", CASE_OCCUPEE),
            case("a road", at, "route_possible 3 8", CASE_OCCUPEE),
            case("a diagonal road", at, "route_possible 4 6", NON_CONNEXE),
            case("blocking, next to a road", at, "route_possible 5 2", SUCCES),
            case("blocking, no road", at, "route_possible 5 1", NON_CONNEXE),
            case("next to a road", at, "route_possible 4 8", SUCCES),
        ]);
    }
}

#[test]
fn section_6_construire_maison() {
    check(&[
        case(
            "not your turn, off the map",
            NotMine,
            "construire_maison -1 0",
            ACTION_INTERDITE,
        ),
        case(
            "Phase II",
            Auction,
            "construire_maison 4 6",
            ACTION_INTERDITE,
        ),
        case(
            "Phase III, the winner",
            Winner,
            "construire_maison 4 6",
            ACTION_INTERDITE,
        ),
        case("init_game", Init, "construire_maison 4 6", ACTION_INTERDITE),
        case("end_game", End, "construire_maison 4 6", ACTION_INTERDITE),
        case("off the map", Mine, "construire_maison 4 100", HORS_TERRAIN),
        case("occupied", Mine, "construire_maison 6 7", CASE_OCCUPEE),
        case(
            "blocking and no road",
            Mine,
            "construire_maison 5 1",
            BLOCAGE,
        ),
        case("blocking", Mine, "construire_maison 5 0", BLOCAGE),
        case("no road", Mine, "construire_maison 10 10", NON_CONNEXE),
        after(
            "a third house, occupied cell",
            Mine,
            10,
            &[
                ("construire_maison 4 6", SUCCES),
                ("construire_maison 4 9", SUCCES),
            ],
            "construire_maison 6 7",
            CASE_OCCUPEE,
        ),
        after(
            "a third house, no road",
            Mine,
            10,
            &[
                ("construire_maison 4 6", SUCCES),
                ("construire_maison 4 9", SUCCES),
            ],
            "construire_maison 10 10",
            NON_CONNEXE,
        ),
        after(
            "a third house, price INFINI",
            Mine,
            10,
            &[
                ("construire_maison 4 6", SUCCES),
                ("construire_maison 4 9", SUCCES),
            ],
            "construire_maison 4 8",
            ACTION_INTERDITE,
        ),
        after(
            "a third house without money: INFINI first",
            Mine,
            1,
            &[
                ("construire_maison 4 6", SUCCES),
                ("construire_maison 4 9", SUCCES),
            ],
            "construire_maison 4 8",
            ACTION_INTERDITE,
        ),
        after(
            "a second house without money",
            Mine,
            0,
            &[("construire_maison 4 6", SUCCES)],
            "construire_maison 4 9",
            FINANCES_DEPASSEES,
        ),
        after(
            "blocking before money",
            Mine,
            0,
            &[("construire_maison 4 6", SUCCES)],
            "construire_maison 5 2",
            BLOCAGE,
        ),
        poor(
            "the first house is free",
            Mine,
            0,
            "construire_maison 4 6",
            SUCCES,
        ),
        case("on own reservation", Mine, "construire_maison 2 7", SUCCES),
    ]);
}

#[test]
fn section_6_reserver_case() {
    check(&[
        case(
            "not your turn, off the map",
            NotMine,
            "reserver_case -1 0",
            ACTION_INTERDITE,
        ),
        case("Phase II", Auction, "reserver_case 4 6", ACTION_INTERDITE),
        case(
            "Phase III, the winner",
            Winner,
            "reserver_case 4 6",
            ACTION_INTERDITE,
        ),
        case("init_game", Init, "reserver_case 4 6", ACTION_INTERDITE),
        case("end_game", End, "reserver_case 4 6", ACTION_INTERDITE),
        case("off the map", Mine, "reserver_case -3 4", HORS_TERRAIN),
        poor(
            "others' reservation, no money",
            Mine,
            0,
            "reserver_case 4 7",
            CASE_OCCUPEE,
        ),
        poor("blocking, no money", Mine, 0, "reserver_case 5 2", BLOCAGE),
        poor(
            "no road, no money",
            Mine,
            0,
            "reserver_case 10 10",
            NON_CONNEXE,
        ),
        poor(
            "already reserved by you, no money",
            Mine,
            0,
            "reserver_case 2 7",
            CASE_OCCUPEE,
        ),
        poor("no money", Mine, 0, "reserver_case 4 6", FINANCES_DEPASSEES),
        poor(
            "value 3 costs 3",
            Mine,
            2,
            "reserver_case 7 7",
            FINANCES_DEPASSEES,
        ),
        poor(
            "value 3 costs 3, paid",
            Mine,
            3,
            "reserver_case 7 7",
            SUCCES,
        ),
        poor("value 0 costs 1", Mine, 1, "reserver_case 4 6", SUCCES),
        after(
            "after two houses",
            Mine,
            10,
            &[
                ("construire_maison 4 6", SUCCES),
                ("construire_maison 4 9", SUCCES),
            ],
            "reserver_case 4 8",
            SUCCES,
        ),
    ]);
}

#[test]
fn section_6_detruire_maison() {
    check(&[
        case(
            "off the map before the turn",
            NotMine,
            "detruire_maison -1 0",
            HORS_TERRAIN,
        ),
        case(
            "off the map in Phase II",
            Auction,
            "detruire_maison 0 -1",
            HORS_TERRAIN,
        ),
        case(
            "off the map in init_game",
            Init,
            "detruire_maison 100 100",
            HORS_TERRAIN,
        ),
        case(
            "not your turn",
            NotMine,
            "detruire_maison 6 7",
            ACTION_INTERDITE,
        ),
        case(
            "not your turn, no house",
            NotMine,
            "detruire_maison 4 8",
            ACTION_INTERDITE,
        ),
        case("Phase II", Auction, "detruire_maison 6 7", ACTION_INTERDITE),
        case(
            "Phase III, not the winner",
            Loser,
            "detruire_maison 6 7",
            ACTION_INTERDITE,
        ),
        case("init_game", Init, "detruire_maison 6 7", ACTION_INTERDITE),
        case("end_game", End, "detruire_maison 6 7", ACTION_INTERDITE),
        poor(
            "an empty cell, no money",
            Mine,
            0,
            "detruire_maison 4 8",
            PAS_DE_MAISON,
        ),
        case("a reservation", Mine, "detruire_maison 2 7", PAS_DE_MAISON),
        case("a road", Mine, "detruire_maison 3 7", PAS_DE_MAISON),
        case("a monument", Mine, "detruire_maison 8 7", PAS_DE_MAISON),
        poor(
            "no money",
            Mine,
            0,
            "detruire_maison 6 7",
            FINANCES_DEPASSEES,
        ),
        poor(
            "value 3 costs 3",
            Mine,
            2,
            "detruire_maison 8 8",
            FINANCES_DEPASSEES,
        ),
        poor(
            "value 3 costs 3, paid",
            Mine,
            3,
            "detruire_maison 8 8",
            SUCCES,
        ),
        poor("seat 1's house", Mine, 1, "detruire_maison 6 7", SUCCES),
        poor("seat 2's house", Mine, 1, "detruire_maison 2 8", SUCCES),
        poor("own house", Mine, 1, "detruire_maison 5 7", SUCCES),
        case(
            "Phase III, the winner",
            Winner,
            "detruire_maison 6 7",
            SUCCES,
        ),
    ]);
}

#[test]
fn section_6_vendre_maison() {
    check(&[
        case(
            "off the map before the turn",
            NotMine,
            "vendre_maison -1 0",
            HORS_TERRAIN,
        ),
        case(
            "off the map in end_game",
            End,
            "vendre_maison 0 100",
            HORS_TERRAIN,
        ),
        case(
            "not your turn",
            NotMine,
            "vendre_maison 5 7",
            ACTION_INTERDITE,
        ),
        case(
            "not your turn, not a house",
            NotMine,
            "vendre_maison 4 8",
            ACTION_INTERDITE,
        ),
        case(
            "Phase III, not the winner",
            Loser,
            "vendre_maison 5 7",
            ACTION_INTERDITE,
        ),
        case("init_game", Init, "vendre_maison 5 7", ACTION_INTERDITE),
        case("end_game", End, "vendre_maison 5 7", ACTION_INTERDITE),
        case("an empty cell", Mine, "vendre_maison 4 8", PAS_DE_MAISON),
        case("own reservation", Mine, "vendre_maison 2 7", PAS_DE_MAISON),
        case("a monument", Mine, "vendre_maison 8 7", PAS_DE_MAISON),
        case(
            "someone else's house",
            Mine,
            "vendre_maison 6 7",
            ACTION_INTERDITE,
        ),
        after(
            "sold already: the town hall's",
            Mine,
            10,
            &[("vendre_maison 5 7", SUCCES)],
            "vendre_maison 5 7",
            ACTION_INTERDITE,
        ),
        poor("own house, Phase I", Mine, 0, "vendre_maison 5 7", SUCCES),
        poor(
            "own house, Phase II",
            Auction,
            0,
            "vendre_maison 5 7",
            SUCCES,
        ),
        poor(
            "own house, Phase III",
            Winner,
            0,
            "vendre_maison 5 7",
            SUCCES,
        ),
    ]);
}

#[test]
fn section_6_encherir() {
    check(&[
        case("Phase I", Mine, "encherir 1", ACTION_INTERDITE),
        case("Phase I, negative", Mine, "encherir -1", ACTION_INTERDITE),
        case(
            "Phase I, someone else's slot",
            NotMine,
            "encherir 1",
            ACTION_INTERDITE,
        ),
        case(
            "Phase III, the winner",
            Winner,
            "encherir 1",
            ACTION_INTERDITE,
        ),
        case("init_game", Init, "encherir 0", ACTION_INTERDITE),
        case(
            "end_game, over the money",
            End,
            "encherir 100",
            ACTION_INTERDITE,
        ),
        case("negative", Auction, "encherir -1", ACTION_INTERDITE),
        poor(
            "negative and over the money",
            Auction,
            0,
            "encherir -100",
            ACTION_INTERDITE,
        ),
        case("over the money", Auction, "encherir 11", FINANCES_DEPASSEES),
        case("all the money", Auction, "encherir 10", SUCCES),
        poor("zero without money", Auction, 0, "encherir 0", SUCCES),
        after(
            "a refused bid is not recorded",
            Auction,
            10,
            &[("encherir 11", FINANCES_DEPASSEES)],
            "encherir 10",
            SUCCES,
        ),
        after(
            "a negative bid is not recorded",
            Auction,
            10,
            &[("encherir -1", ACTION_INTERDITE)],
            "encherir 0",
            SUCCES,
        ),
        after(
            "a second bid",
            Auction,
            10,
            &[("encherir 3", SUCCES)],
            "encherir 2",
            ACTION_INTERDITE,
        ),
        after(
            "a second bid of the same amount",
            Auction,
            10,
            &[("encherir 0", SUCCES)],
            "encherir 0",
            ACTION_INTERDITE,
        ),
        after(
            "a second bid over the money: the money check first",
            Auction,
            10,
            &[("encherir 3", SUCCES)],
            "encherir 11",
            FINANCES_DEPASSEES,
        ),
        after(
            "a second bid, negative",
            Auction,
            10,
            &[("encherir 3", SUCCES)],
            "encherir -1",
            ACTION_INTERDITE,
        ),
        after(
            "money from own sales counts",
            Auction,
            0,
            &[
                ("encherir 1", FINANCES_DEPASSEES),
                ("vendre_maison 5 7", SUCCES),
            ],
            "encherir 1",
            SUCCES,
        ),
    ]);
}

#[test]
fn section_6_construire_monument() {
    check(&[
        case(
            "off the map before the phase",
            Mine,
            "construire_monument -1 0",
            HORS_TERRAIN,
        ),
        case(
            "off the map, not the winner",
            Loser,
            "construire_monument 0 100",
            HORS_TERRAIN,
        ),
        case(
            "off the map, init_game",
            Init,
            "construire_monument 100 0",
            HORS_TERRAIN,
        ),
        case("Phase I", Mine, "construire_monument 4 6", ACTION_INTERDITE),
        case(
            "Phase II",
            Auction,
            "construire_monument 4 6",
            ACTION_INTERDITE,
        ),
        case(
            "Phase III, not the winner",
            Loser,
            "construire_monument 4 6",
            ACTION_INTERDITE,
        ),
        case(
            "Phase III, not the winner, occupied",
            Loser,
            "construire_monument 6 7",
            ACTION_INTERDITE,
        ),
        case(
            "init_game",
            Init,
            "construire_monument 4 6",
            ACTION_INTERDITE,
        ),
        case("end_game", End, "construire_monument 4 6", ACTION_INTERDITE),
        after(
            "placed already",
            Winner,
            10,
            &[("construire_monument 4 6", SUCCES)],
            "construire_monument 4 9",
            ACTION_INTERDITE,
        ),
        after(
            "placed already, occupied cell",
            Winner,
            10,
            &[("construire_monument 4 6", SUCCES)],
            "construire_monument 6 7",
            ACTION_INTERDITE,
        ),
        after(
            "placed already, off the map",
            Winner,
            10,
            &[("construire_monument 4 6", SUCCES)],
            "construire_monument -1 6",
            HORS_TERRAIN,
        ),
        after(
            "a failed placement leaves the monument to place",
            Winner,
            10,
            &[("construire_monument 6 7", CASE_OCCUPEE)],
            "construire_monument 4 6",
            SUCCES,
        ),
        case("occupied", Winner, "construire_monument 6 7", CASE_OCCUPEE),
        case(
            "others' reservation",
            Winner,
            "construire_monument 4 7",
            CASE_OCCUPEE,
        ),
        case(
            "blocking, no road",
            Winner,
            "construire_monument 5 1",
            BLOCAGE,
        ),
        case("no road", Winner, "construire_monument 10 10", NON_CONNEXE),
        poor(
            "free of charge",
            Winner,
            0,
            "construire_monument 4 6",
            SUCCES,
        ),
        poor(
            "on own reservation",
            Winner,
            0,
            "construire_monument 2 7",
            SUCCES,
        ),
    ]);
}

#[test]
fn section_6_information_functions() {
    for at in [Init, Mine, NotMine, Auction, Winner, Loser, End] {
        check(&[
            case("type_case off", at, "type_case 0 -1", HORS_TERRAIN),
            case("type_case", at, "type_case 2 7", RESERVATION),
            case("valeur_case off", at, "valeur_case 100 0", HORS_TERRAIN),
            case("valeur_case", at, "valeur_case 7 7", 3),
            case("appartenance off", at, "appartenance -1 -1", HORS_TERRAIN),
            case("appartenance own reservation", at, "appartenance 2 7", 0),
            case("appartenance seat 1's house", at, "appartenance 6 7", 1),
            case("appartenance seat 2's house", at, "appartenance 2 8", 2),
            case("appartenance a road", at, "appartenance 3 7", MAIRIE),
            case("appartenance a monument", at, "appartenance 8 7", MAIRIE),
            case("type_monument off", at, "type_monument 0 100", HORS_TERRAIN),
            case("type_monument", at, "type_monument 8 7", 3),
            case(
                "type_monument, a house",
                at,
                "type_monument 6 7",
                PAS_DE_MONUMENT,
            ),
            case(
                "portee_monument -1",
                at,
                "portee_monument -1",
                PAS_DE_MONUMENT,
            ),
            case(
                "portee_monument 14",
                at,
                "portee_monument 14",
                PAS_DE_MONUMENT,
            ),
            case("portee_monument 13", at, "portee_monument 13", 1),
            case(
                "prestige_monument 14",
                at,
                "prestige_monument 14",
                PAS_DE_MONUMENT,
            ),
            case("prestige_monument 13", at, "prestige_monument 13", -2),
            case("score -1", at, "score -1", JOUEUR_INCORRECT),
            case("score 3", at, "score 3", JOUEUR_INCORRECT),
            case("score 1 (worth 1 and 4)", at, "score 1", 5),
            case("finances -1", at, "finances -1", JOUEUR_INCORRECT),
            case("finances 3", at, "finances 3", JOUEUR_INCORRECT),
            case("finances 2", at, "finances 2", 10),
            case(
                "montant_encheres -1",
                at,
                "montant_encheres -1",
                JOUEUR_INCORRECT,
            ),
            case(
                "montant_encheres 3",
                at,
                "montant_encheres 3",
                JOUEUR_INCORRECT,
            ),
            case("distance off", at, "distance 0 0 0 -1", HORS_TERRAIN),
            case("distance", at, "distance 4 9 9 9", 5),
        ]);
    }
}
