//! Rules 17 and 18: the price of roads and houses within a callback (the full table, through
//! the API), reservations, destructions and sales.

use crate::common::*;
use engine::constants::*;
use engine::price::cost;
use engine::{Api, Board, Game, Pos, Seat, Stage};

/// cost(r, m) for r in 0..=6 (rows) and m in 0..=3 (columns), from rule 17.
const COST: [[i32; 4]; 7] = [
    [0, 0, 1, INFINI],
    [0, 0, 1, INFINI],
    [1, 1, 1, INFINI],
    [1, 1, 2, INFINI],
    [2, 2, 2, INFINI],
    [2, 2, 3, INFINI],
    [3, 3, 3, INFINI],
];

#[test]
fn rule_17_the_cost_table() {
    for (r, row) in COST.iter().enumerate() {
        for (m, &expected) in row.iter().enumerate() {
            assert_eq!(cost(r as u32, m as u32), expected, "cost({r}, {m})");
        }
    }
    assert_eq!(cost(100, 3), INFINI);
    assert_eq!(cost(0, 7), INFINI);
}

/// Cells for up to 7 roads (a line east of the centre) and 2 houses, none of them blocking.
const ROADS: [(i32, i32); 7] = [
    (51, 50),
    (52, 50),
    (53, 50),
    (54, 50),
    (55, 50),
    (56, 50),
    (57, 50),
];
const HOUSES: [(i32, i32); 3] = [(49, 49), (49, 51), (50, 49)];

/// Build `r` roads and `m` houses in one Phase I callback, in the given interleaving, and
/// check the marginal prices the API announces before each build.
fn build(game: &mut Game, seat: Seat, plan: &[char]) -> (usize, usize) {
    let (mut r, mut m) = (0usize, 0usize);
    let mut spent = 0;
    for &step in plan {
        let mut api = game.player(seat);
        let road_price = COST[r + 1][m] - COST[r][m];
        let house_price = if m + 1 >= 3 {
            INFINI
        } else {
            COST[r][m + 1] - COST[r][m]
        };
        assert_eq!(
            api.cout_achat_route(),
            road_price,
            "road after {r} roads, {m} houses"
        );
        assert_eq!(
            api.cout_achat_maison(),
            house_price,
            "house after {r} roads, {m} houses"
        );
        let result = match step {
            'r' => {
                let (x, y) = ROADS[r];
                r += 1;
                spent += road_price;
                api.construire_road_or_house(true, x, y)
            }
            _ => {
                let (x, y) = HOUSES[m];
                m += 1;
                spent += house_price;
                api.construire_road_or_house(false, x, y)
            }
        };
        assert_eq!(result, SUCCES, "{plan:?}");
        assert_eq!(api.finances(0), 20 - spent);
    }
    assert_eq!(spent, COST[r][m], "total spent for {plan:?}");
    (r, m)
}

trait Build {
    fn construire_road_or_house(&mut self, road: bool, x: i32, y: i32) -> i32;
}

impl<A: Api> Build for A {
    fn construire_road_or_house(&mut self, road: bool, x: i32, y: i32) -> i32 {
        if road {
            self.construire_route(x, y)
        } else {
            self.construire_maison(x, y)
        }
    }
}

fn rich_game(first: Seat) -> Game {
    let mut game = Game::new(setup(Board::default(), ORDER, first, [20; 3]));
    game.advance();
    game
}

#[test]
fn rule_17_marginal_prices_through_the_api_for_every_interleaving() {
    // Every (r, m) with r <= 5 and m <= 2, reached by three interleavings: houses first,
    // roads first, alternating.
    for r in 0..=5usize {
        for m in 0..=2usize {
            let houses_first: Vec<char> =
                "h".repeat(m).chars().chain("r".repeat(r).chars()).collect();
            let roads_first: Vec<char> =
                "r".repeat(r).chars().chain("h".repeat(m).chars()).collect();
            let mut alternating = Vec::new();
            for i in 0..r.max(m) {
                if i < m {
                    alternating.push('h');
                }
                if i < r {
                    alternating.push('r');
                }
            }
            for plan in [houses_first, roads_first, alternating] {
                let mut game = rich_game(Seat(1));
                assert_eq!(build(&mut game, Seat(1), &plan), (r, m));
                let mut api = game.player(Seat(1));
                // The prices at (r, m), once more after the last build.
                assert_eq!(api.cout_achat_route(), COST[r + 1][m] - COST[r][m]);
                let house = if m == 2 {
                    INFINI
                } else {
                    COST[r][m + 1] - COST[r][m]
                };
                assert_eq!(api.cout_achat_maison(), house);
            }
        }
    }
}

#[test]
fn rule_17_four_roads_for_two_roubles_make_the_second_house_free() {
    let mut game = rich_game(Seat(0));
    let prices: Vec<i32> = ROADS[..4]
        .iter()
        .map(|&(x, y)| {
            let mut api = game.player(Seat(0));
            let price = api.cout_achat_route();
            assert_eq!(api.construire_route(x, y), SUCCES);
            price
        })
        .collect();
    assert_eq!(prices, [0, 1, 0, 1]);
    let mut api = game.player(Seat(0));
    assert_eq!(api.finances(0), 18);
    assert_eq!(api.cout_achat_maison(), 0);
    assert_eq!(api.construire_maison(49, 49), SUCCES);
    assert_eq!(api.cout_achat_maison(), 0, "the second house is free");
    assert_eq!(api.construire_maison(49, 51), SUCCES);
    assert_eq!(api.finances(0), 18);
    // A third house: INFINI, refused with ACTION_INTERDITE whatever the money.
    assert_eq!(api.cout_achat_maison(), INFINI);
    assert_eq!(api.construction_possible(50, 49), SUCCES);
    assert_eq!(api.construire_maison(50, 49), ACTION_INTERDITE);
    // The checks of construction_possible come first.
    assert_eq!(api.construire_maison(50, 50), CASE_OCCUPEE);
    assert_eq!(api.construire_maison(80, 80), NON_CONNEXE);
    assert_eq!(api.construire_maison(100, 80), HORS_TERRAIN);
    assert_eq!(api.finances(0), 18);
    assert_eq!(api.type_case(50, 49), VIDE);
}

#[test]
fn rule_17_a_second_house_alone_costs_one_and_brings_a_road() {
    let mut game = rich_game(Seat(0));
    run_ok(
        &mut game,
        Seat(0),
        &["construire_maison 49 49", "construire_maison 49 51"],
    );
    let mut api = game.player(Seat(0));
    assert_eq!(api.finances(0), 19);
    assert_eq!(api.cout_achat_route(), 0, "cost(1, 2) = cost(0, 2)");
    assert_eq!(api.construire_route(51, 50), SUCCES);
    assert_eq!(api.cout_achat_route(), 0, "cost(2, 2) = cost(1, 2)");
    assert_eq!(api.construire_route(52, 50), SUCCES);
    assert_eq!(api.cout_achat_route(), 1);
    assert_eq!(api.finances(0), 19);
}

#[test]
fn rule_17_counters_reset_at_each_callback() {
    let mut game = rich_game(Seat(0));
    // Seat 0, turn 1: two houses and two roads.
    run_ok(
        &mut game,
        Seat(0),
        &[
            "construire_maison 49 49",
            "construire_maison 49 51",
            "construire_route 51 50",
            "construire_route 52 50",
        ],
    );
    assert_eq!(game.player(Seat(0)).cout_achat_maison(), INFINI);
    assert_eq!(game.player(Seat(0)).cout_achat_route(), 1);
    // Seat 1's slot: fresh counters.
    game.advance();
    assert_eq!(game.player(Seat(1)).cout_achat_maison(), 0);
    assert_eq!(game.player(Seat(1)).cout_achat_route(), 0);
    run_ok(
        &mut game,
        Seat(1),
        &["construire_route 53 50", "construire_maison 54 51"],
    );
    // Phase III, won by seat 0 (bids 1): fresh counters again.
    to_auction(&mut game);
    run_ok(&mut game, Seat(0), &["encherir 1"]);
    assert_eq!(to_placement(&mut game), Seat(0));
    let mut api = game.player(Seat(0));
    assert_eq!(api.cout_achat_route(), 0);
    assert_eq!(api.construire_route(50, 51), SUCCES);
    assert_eq!(api.cout_achat_route(), 1);
    assert_eq!(api.construire_route(50, 52), SUCCES);
    // Turn 2, seat 0 plays last; fresh counters in its slot.
    advance_until(&mut game, |s| s == Stage::Build { slot: 2 });
    assert_eq!(game.seats_to_play(), vec![Seat(0)]);
    let mut api = game.player(Seat(0));
    assert_eq!(api.cout_achat_maison(), 0);
    assert_eq!(api.cout_achat_route(), 0);
    assert_eq!(api.construire_maison(49, 52), SUCCES);
}

#[test]
fn rule_18_reserving_and_destroying_cost_max_1_value_and_selling_earns_the_worth() {
    // Château fort (+5, 1) at (1, 1); Déchetterie (-2, 1) at (7, 1); houses of seat 1.
    let mut board = Board::from_rows(&[
        "..B...B..", //
        ".0.R.R...",
        "..B......",
    ]);
    board.build_monument(Pos { x: 7, y: 1 }, 13);
    let mut game = game_on(board, Seat(0));
    let cases = [
        // (name, call, price)
        ("reserve in the castle's range", "reserver_case 2 1", 5),
        ("reserve under the dump", "reserver_case 6 1", 1),
        ("reserve, value 0", "reserver_case 4 1", 1),
        ("destroy a house worth 6", "detruire_maison 2 0", 5),
        ("destroy a house worth 0", "detruire_maison 6 0", 1),
    ];
    let mut money = 20;
    let mut game2 = Game::new(setup(game.state().board.clone(), ORDER, Seat(0), [20; 3]));
    game2.advance();
    for (name, call, price) in cases {
        assert_eq!(run(&mut game2, Seat(0), call), SUCCES, "{name}");
        money -= price;
        assert_eq!(game2.player(Seat(0)).finances(0), money, "{name}");
    }
    // A destroyed house leaves an empty cell, owned by nobody.
    assert_eq!(game2.player(Seat(0)).type_case(2, 0), VIDE);
    assert_eq!(game2.player(Seat(0)).appartenance(2, 0), MAIRIE);
    // Not enough money: 10 roubles pay two things at 5, nothing more.
    run_ok(
        &mut game,
        Seat(0),
        &["reserver_case 2 1", "detruire_maison 2 0"],
    );
    assert_eq!(game.player(Seat(0)).finances(0), 0);
    assert_eq!(
        run(&mut game, Seat(0), "reserver_case 4 1"),
        FINANCES_DEPASSEES
    );
    assert_eq!(
        run(&mut game, Seat(0), "detruire_maison 6 0"),
        FINANCES_DEPASSEES
    );
    // Selling (seat 1, in its slot): worth 6 and worth 0.
    game.advance();
    run_ok(
        &mut game,
        Seat(1),
        &["vendre_maison 2 2", "vendre_maison 6 0"],
    );
    assert_eq!(game.player(Seat(1)).finances(0), 16);
    assert_eq!(game.player(Seat(1)).score(0), 0);
    assert_eq!(game.player(Seat(0)).appartenance(2, 2), MAIRIE);
}
