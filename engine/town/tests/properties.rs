//! Properties over 10,000 seeded random matches (every board kind, 2 to 4 seats, options
//! varied, some seats breaking rules or failing): none panics, each ends within its
//! rounds, every player's stock changes exactly as the rules say (resources appear only
//! from mines and buildings' earnings and supplies, the powers' gold at a round's end and
//! the objectives' at the match's end when they are on, leave only as values, costs paid
//! to a player out, upkeep and the gold of a player out), the same seed plays the same
//! match; and the checks every game of the model passes.

use game::{Acting, Chance, Game, Options, State};
use town::board::Pos;
use town::board::Shape;
use town::{upkeep, Action, Cell, Kind, Resource, Stock, Town, TownState};

/// The options of match `i`.
fn options_of(i: u64) -> Options {
    let mut given = vec![
        format!("board={}", Shape::NAMES[(i / 3 % 5) as usize]),
        format!("width={}", 5 + i % 4),
        format!("height={}", 6 + i / 7 % 3),
    ];
    if i % 4 == 1 {
        given.push(format!("upkeep={}", i / 4 % 4));
        given.push(format!("food_price={}", 1 + i / 16 % 5));
        given.push(format!("spread_draws={}", 1 + i % 3));
    }
    if i % 6 == 2 {
        given.push(format!("rounds={}", 1 + i / 6 % 8));
        given.push("max_buildings=2".to_string());
    }
    // The fourth extension in two matches of five: objectives, powers, or both.
    match i % 10 {
        3 => given.push("objectives=on".to_string()),
        7 => given.push("powers=on".to_string()),
        5 | 9 => given.extend(["objectives=on".to_string(), "powers=on".to_string()]),
        _ => {}
    }
    Options::parse(Town.options(), &given).unwrap()
}

/// The board of `before` once `seat` took `action` there (workers still on it): each
/// position's building and owner, and whether a worker stands there.
type Board = Vec<(Option<(Kind, usize)>, bool)>;

fn board_after(before: &TownState, seat: usize, action: &Action) -> Board {
    let grid = &before.rules().grid;
    (0..grid.len() as Pos)
        .map(|p| {
            let xy = grid.xy(p);
            let mut building = match before.cell(xy) {
                Some(Cell::Building { kind, owner }) => Some((kind, owner)),
                _ => None,
            };
            let mut worker = before.worker(xy).is_some();
            if xy == action.at() {
                worker = true;
                if let Action::Build { kind, .. } = action {
                    building = Some((*kind, seat));
                }
            }
            (building, worker)
        })
        .collect()
}

/// The positions joined to `start` through neighbours where `keep` holds.
fn group_of(before: &TownState, start: Pos, keep: &dyn Fn(Pos) -> bool) -> usize {
    let grid = &before.rules().grid;
    let mut seen = vec![false; grid.len()];
    let mut stack = vec![start];
    seen[usize::from(start)] = true;
    let mut size = 0;
    while let Some(p) = stack.pop() {
        size += 1;
        for &n in grid.neighbours(p) {
            if keep(n) && !seen[usize::from(n)] {
                seen[usize::from(n)] = true;
                stack.push(n);
            }
        }
    }
    size
}

/// Rule 22, counted again: the gold each seat's buildings earn at the round's end.
fn powers(before: &TownState, board: &Board) -> Vec<u32> {
    let grid = &before.rules().grid;
    let mut gold = vec![0; before.players().len()];
    for p in 0..grid.len() as Pos {
        let Some((kind, owner)) = board[usize::from(p)].0 else {
            continue;
        };
        let near = grid.neighbours(p);
        let mine = |n: Pos| matches!(before.cell(grid.xy(n)), Some(Cell::Mine(_)));
        gold[owner] += match kind {
            Kind::Cathedral => near.iter().filter(|&&n| board[usize::from(n)].1).count(),
            Kind::Castle => group_of(before, p, &|n| board[usize::from(n)].0.is_some()),
            Kind::Watchtower => near
                .iter()
                .filter(|&&n| board[usize::from(n)] == (None, false))
                .count(),
            Kind::Market => near.iter().filter(|&&n| mine(n)).count(),
            _ => 0,
        } as u32;
    }
    gold
}

/// Rule 21, counted again: the gold of the objectives `seat`, holding `stock`, meets.
fn objectives(before: &TownState, board: &Board, seat: usize, stock: &Stock) -> u32 {
    let grid = &before.rules().grid;
    let own = |p: Pos| matches!(board[usize::from(p)].0, Some((_, o)) if o == seat);
    let owned: Vec<Pos> = (0..grid.len() as Pos).filter(|&p| own(p)).collect();
    let corn = owned
        .iter()
        .filter(|&&p| {
            matches!(
                board[usize::from(p)].0,
                Some((Kind::Farm | Kind::Cathedral, _))
            )
        })
        .count();
    let mut gold = 0;
    if owned.len() > usize::from(before.rules().workers) {
        gold += 3;
    }
    if corn >= 2 {
        gold += 2;
    }
    if owned.iter().any(|&p| group_of(before, p, &own) >= 3) {
        gold += 2;
    }
    if Resource::MINED.iter().all(|&r| stock.get(r) > 0) {
        gold += 2;
    }
    gold
}

/// Each player's stock after `seat` takes `action` in `before`, as the rules say
/// (rules 12 to 14, 16, 21 and 22), the round's end included when it ends, and the
/// match's when it is `over`.
fn expected(
    before: &TownState,
    seat: usize,
    action: &Action,
    ends_round: bool,
    over: bool,
) -> Vec<Stock> {
    let grid = &before.rules().grid;
    let mut stocks: Vec<Stock> = before.players().iter().map(|p| p.stock).collect();
    match action {
        Action::Collect { at, activate } => {
            let pos = grid.at(at.0, at.1).unwrap();
            for &n in grid.neighbours(pos) {
                if let Some(Cell::Mine(r)) = before.cell(grid.xy(n)) {
                    stocks[seat] = stocks[seat] + Stock::of(r, 1);
                }
            }
            for b in activate {
                let Some(Cell::Building { kind, owner }) = before.cell(*b) else {
                    panic!("a legal activation of no building")
                };
                stocks[seat] = stocks[seat] + kind.supplies();
                if owner != seat {
                    stocks[seat] = stocks[seat] - kind.costs();
                    if before.players()[owner].out.is_none() {
                        stocks[owner] = stocks[owner] + kind.costs();
                    }
                }
            }
        }
        Action::Build { kind, .. } => stocks[seat] = stocks[seat] - kind.value() + kind.earns(),
    }
    let board = board_after(before, seat, action);
    let mut out: Vec<bool> = before.players().iter().map(|p| p.out.is_some()).collect();
    if ends_round {
        let rules = before.rules();
        let need = rules.upkeep * u32::from(rules.workers);
        let gold = match rules.powers {
            true => powers(before, &board),
            false => vec![0; stocks.len()],
        };
        for (s, stock) in stocks.iter_mut().enumerate() {
            if out[s] {
                continue;
            }
            *stock = *stock + Stock::of(Resource::Gold, gold[s]);
            match upkeep(stock, need, rules.food_price) {
                Some(paid) => *stock = *stock - paid,
                None => {
                    stock.set(Resource::Gold, 0);
                    out[s] = true;
                }
            }
        }
    }
    if over && before.rules().objectives {
        for (s, stock) in stocks.iter_mut().enumerate() {
            if !out[s] {
                let gold = objectives(before, &board, s, stock);
                *stock = *stock + Stock::of(Resource::Gold, gold);
            }
        }
    }
    stocks
}

/// Plays match `i` with random seats (some breaking a rule, some failing) and checks each
/// step; returns the digest after each step.
fn play(i: u64) -> Vec<u64> {
    let options = options_of(i);
    let seats = 2 + (i % 3) as usize;
    let rounds = options.integer("rounds") as u8;
    let mut state = Town.start(seats, &options).unwrap();
    let mut chance = draw::Stream::new(i);
    let mut players = draw::Stream::new(i ^ 0x5eed);
    let mut digests = Vec::new();
    let mut first_players = 0;
    let bound = 10 + 8 * 4 * 12 * 3;
    for _ in 0..bound {
        assert!(
            state.round() <= rounds,
            "match {i}: round {}",
            state.round()
        );
        match state.acting() {
            Acting::Over => {
                assert!(first_players <= rounds, "match {i}: {first_players} rounds");
                let ranking = state.ranking().unwrap();
                assert_eq!(ranking.places.len(), seats);
                return digests;
            }
            Acting::Chance(c) => {
                if matches!(c, Chance::Below(_)) && state.round() >= 1 {
                    first_players += 1;
                }
                state.chance(&c.draw(i, &mut chance)).unwrap();
            }
            Acting::Seats(acting) => {
                let seat = acting[0];
                let before = state.clone();
                let roll = players.below_u32(400);
                if roll == 0 {
                    // A seat that fails: it leaves, without its gold.
                    let gold = state.players()[seat].stock.get(Resource::Gold);
                    state.retire(seat);
                    let after = &state.players()[seat];
                    assert!(after.out.is_some() && after.stock.get(Resource::Gold) == 0);
                    assert_eq!(
                        before.players()[seat].stock.total() - u64::from(gold),
                        after.stock.total()
                    );
                } else if roll == 1 {
                    // A seat that breaks a rule: nothing changes, then it is excluded.
                    let bad: Action = "collect 99,99".parse().unwrap();
                    assert!(state.act(seat, &bad).is_err());
                    assert_eq!(state.digest(), before.digest());
                    state.retire(seat);
                } else {
                    let legal = state.legal(seat);
                    let action = players
                        .choose(&legal)
                        .expect("a seat with no action")
                        .clone();
                    state.act(seat, &action).unwrap();
                    let ends = state.round() != before.round() || state.is_over();
                    let stocks: Vec<Stock> = state.players().iter().map(|p| p.stock).collect();
                    assert_eq!(
                        stocks,
                        expected(&before, seat, &action, ends, state.is_over()),
                        "match {i}: {action}"
                    );
                }
            }
        }
        digests.push(state.digest());
    }
    panic!("match {i} not over after {bound} steps");
}

#[test]
fn ten_thousand_random_matches_end_in_their_rounds_and_conserve_resources() {
    for i in 0..10_000 {
        let digests = play(i);
        if i % 50 == 0 {
            assert_eq!(play(i), digests, "match {i}: the same seed, another match");
        }
    }
}

#[test]
fn the_model_s_conformance_checks() {
    game::testing::conformance(&Town, 30, 10_000).unwrap();
    for board in Shape::NAMES {
        let options = Options::parse(Town.options(), &[format!("board={board}")]).unwrap();
        for seed in 0..5 {
            let played =
                game::testing::random_match(&Town, 4, &options, seed, None, 10_000).unwrap();
            assert_eq!(played.ranking.places.len(), 4);
        }
    }
}
