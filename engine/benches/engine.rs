//! Benchmarks of the engine on divan: whole games of three random players, the stage driver
//! alone, the rule 21 pass, and `construction_possible` over the 10,000 cells of a late-game
//! board, each beside its limit (the same work with nothing around it). Run with
//! `cargo bench -p engine` (`cargo bench -p engine -- cells` runs the benchmarks whose name
//! holds `cells`); figures go to `engine/BENCHMARKS.md`.
//!
//! `cargo bench -p engine -- fixed [PART...]` does a fixed amount of work instead (no timing
//! loop), for instruction counts under `valgrind --tool=callgrind`, which are repeatable on a
//! loaded machine where times are not. The parts ([`FIXED`]): `games` (10 random games,
//! seeds 1-10), `replay` (the same games' calls replayed without the players: the engine's
//! share), `cells` (20 sweeps of `construction_possible` over the 10,000 cells, each right
//! after a change), `cells-limit` (the same answers read from the board with no API layer),
//! `rule21` (100 cold passes on the late-game board and 100 on a board built to the map's
//! edges), `driver` (20 runs of the stage driver). Each part prints a check of what it
//! computed, so that a before and an after binary are seen to do the same work.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{play_random, replay, Record};
use engine::{Api, Board, Cell, Game, Kind, Pos, Seat, Setup, Stage};
use std::hint::black_box;
use std::rc::Rc;

/// A part of `-- fixed`: its name, and the work, which returns a check of what it computed.
type Part = (&'static str, fn() -> u64);

/// The parts of `-- fixed`, in the order they run when none is named.
const FIXED: [Part; 6] = [
    ("games", fixed_games),
    ("replay", fixed_replay),
    ("cells", fixed_cells),
    ("cells-limit", fixed_cells_limit),
    ("rule21", fixed_rule21),
    ("driver", fixed_driver),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|a| a == "fixed") {
        let named: Vec<&str> = args[at + 1..]
            .iter()
            .map(String::as_str)
            .filter(|a| !a.starts_with('-'))
            .collect();
        for name in &named {
            if !FIXED.iter().any(|(part, _)| part == name) {
                let parts: Vec<&str> = FIXED.iter().map(|(part, _)| *part).collect();
                eprintln!(
                    "no fixed part `{name}`; the parts are: {}",
                    parts.join(", ")
                );
                std::process::exit(2);
            }
        }
        for (part, run) in FIXED {
            if named.is_empty() || named.contains(&part) {
                println!("fixed {part}: check {:016x}", run());
            }
        }
        return;
    }
    divan::main();
}

// ---------------------------------------------------------------------------------------
// Inputs.

/// A copy of `board` whose rule 21 cache is empty, as after any change.
fn changed(board: &Board) -> Board {
    let mut board = board.clone();
    let p = (0..board.cells().len())
        .map(Pos::from_index)
        .find(|&p| board.cell(p).kind == Kind::Vide)
        .expect("an empty cell");
    board.set(p, Cell::ROAD);
    board.set(p, Cell::EMPTY);
    board
}

/// A game on `board`, in Phase I of turn 1.
fn game_on(board: Board) -> Game {
    let mut setup = Setup::from_seed(0);
    setup.board = board;
    let mut game = Game::new(setup);
    game.advance();
    game
}

/// The board after a random game of seed 2009: 20 roads, 15 houses, 1 reservation, 10
/// monuments.
/// (A `Board` is not `Sync`: its rule 21 answer is cached in a `OnceCell`.)
fn late_board() -> Board {
    thread_local! {
        static LATE: Board = play_random(Setup::from_seed(2009), 2009, false, |_| {})
            .0
            .state()
            .board
            .clone();
    }
    LATE.with(Board::clone)
}

/// A board whose built area spans the whole map: the late-game board plus roads from
/// (50, 50) to near each edge, with a house here and there along them (the rule 21 pass
/// cannot restrict itself to a small part of the map).
fn wide_board() -> Board {
    let mut board = late_board();
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        for k in 1..49 {
            let p = Pos::new(50 + dx * k, 50 + dy * k).expect("on the map");
            if board.cell(p).kind == Kind::Vide {
                board.set(p, Cell::ROAD);
            }
            let side = Pos::new(50 + dx * k + dy, 50 + dy * k + dx).expect("on the map");
            if k % 3 == 0 && board.cell(side).kind == Kind::Vide {
                board.set(
                    side,
                    Cell {
                        kind: Kind::Maison,
                        owner: Some(Seat(0)),
                        monument: None,
                    },
                );
            }
        }
    }
    board
}

/// Every cell of the map as API coordinates, row-major.
fn all_cells() -> Vec<(i32, i32)> {
    (0..engine::board::CELLS)
        .map(Pos::from_index)
        .map(|p| (i32::from(p.x), i32::from(p.y)))
        .collect()
}

/// Random games of seeds 1-10 and their records, played once.
fn recorded_games() -> Rc<[(Setup, Record)]> {
    thread_local! {
        static GAMES: Rc<[(Setup, Record)]> = (1..=10)
            .map(|seed| {
                let setup = Setup::from_seed(seed);
                let (_, record) = play_random(setup.clone(), seed, false, |_| {});
                (setup, record)
            })
            .collect();
    }
    GAMES.with(Rc::clone)
}

// ---------------------------------------------------------------------------------------
// The measures, each written once and used by divan and by `-- fixed`.

/// One sweep of `construction_possible` over every cell of `game` for seat 0.
#[inline(never)] // a function of its own, for `--toggle-collect`
fn sweep(game: &mut Game, all: &[(i32, i32)]) -> u64 {
    let mut api = game.player(Seat(0));
    all.iter()
        .map(|&(x, y)| api.construction_possible(x, y) as u64)
        .fold(0, u64::wrapping_add)
}

/// The answers of [`sweep`] read from the board alone, with no API layer: the bound any
/// `construction_possible` stands against (the rule 21 pass, then a lookup and the cell's
/// neighbours per cell). Gives the same sum as [`sweep`].
#[inline(never)] // a function of its own, for `--toggle-collect`
fn sweep_limit(board: &Board) -> u64 {
    use engine::constants::{BLOCAGE, CASE_OCCUPEE, NON_CONNEXE, SUCCES};
    let cells = board.cells();
    let mut sum = 0u64;
    for (i, cell) in cells.iter().enumerate() {
        let p = Pos::from_index(i);
        let free = cell.kind == Kind::Vide
            || (cell.kind == Kind::Reservation && cell.owner == Some(Seat(0)));
        let code = if !free {
            CASE_OCCUPEE
        } else if cell.kind == Kind::Vide && board.is_blocking(p) {
            BLOCAGE
        } else if board.touches_road(p, true) {
            SUCCES
        } else {
            NON_CONNEXE
        };
        sum = sum.wrapping_add(code as u64);
    }
    sum
}

/// A whole game of three random players (the tests' player, API only).
#[inline(never)] // a function of its own, for `--toggle-collect`
fn random_game(seed: u64) -> Game {
    play_random(Setup::from_seed(seed), seed, false, |_| {}).0
}

/// The stage driver alone: a game where nobody acts.
#[inline(never)] // a function of its own, for `--toggle-collect`
fn driver_game() -> Game {
    let mut game = Game::new(Setup::from_seed(1));
    while game.stage() != Stage::Over {
        game.advance();
    }
    game
}

// ---------------------------------------------------------------------------------------
// divan.

/// A whole game of three random players: the player's choices and the engine's answers.
#[divan::bench]
fn game_random_players(bencher: divan::Bencher) {
    let mut seed = 0;
    bencher.bench_local(|| {
        seed = seed % 10 + 1;
        random_game(seed)
    });
}

/// Its limit: the same games' calls replayed with no player deciding (the engine alone).
#[divan::bench]
fn game_replay_limit(bencher: divan::Bencher) {
    let games = recorded_games();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % games.len();
        let (setup, record) = &games[i];
        replay(setup.clone(), record)
    });
}

/// The stage driver alone (75 `advance`, nobody acts).
#[divan::bench]
fn game_stage_driver() -> Game {
    driver_game()
}

/// `construction_possible` on all 10,000 cells right after a change (one rule 21 pass and
/// 9,999 cached answers).
#[divan::bench]
fn cells_after_change(bencher: divan::Bencher) {
    let all = all_cells();
    bencher
        .with_inputs(|| game_on(changed(&late_board())))
        .bench_local_refs(|game| sweep(game, &all));
}

/// Its limit: the same answers from the board, no API layer (the rule 21 pass included).
#[divan::bench]
fn cells_after_change_limit(bencher: divan::Bencher) {
    bencher
        .with_inputs(|| changed(&late_board()))
        .bench_local_refs(|board| sweep_limit(board));
}

/// `construction_possible` on all 10,000 cells, the rule 21 answer in cache.
#[divan::bench]
fn cells_warm(bencher: divan::Bencher) {
    let all = all_cells();
    let mut game = game_on(changed(&late_board()));
    sweep(&mut game, &all);
    bencher.bench_local(|| sweep(&mut game, &all));
}

/// `route_possible` on all cells (for scale: no rule 21).
#[divan::bench]
fn cells_route_possible(bencher: divan::Bencher) {
    let all = all_cells();
    let mut game = game_on(late_board());
    bencher.bench_local(|| {
        let mut api = game.player(Seat(0));
        all.iter()
            .map(|&(x, y)| api.route_possible(x, y) as u64)
            .fold(0, u64::wrapping_add)
    });
}

/// `distance` from (50, 50) to every 7th cell.
#[divan::bench]
fn cells_distance(bencher: divan::Bencher) {
    let some: Vec<(i32, i32)> = all_cells().into_iter().step_by(7).collect();
    let mut game = game_on(late_board());
    bencher.bench_local(|| {
        let mut api = game.player(Seat(0));
        some.iter()
            .map(|&(x, y)| api.distance(50, 50, x, y) as u64)
            .fold(0, u64::wrapping_add)
    });
}

/// The rule 21 pass, cold, on the late-game board.
#[divan::bench]
fn rule21_late_board(bencher: divan::Bencher) {
    bencher
        .with_inputs(|| changed(&late_board()))
        .bench_local_refs(|board| board.is_open());
}

/// The rule 21 pass, cold, on a board built out to the map's four edges.
#[divan::bench]
fn rule21_wide_board(bencher: divan::Bencher) {
    let wide = wide_board();
    bencher
        .with_inputs(|| changed(&wide))
        .bench_local_refs(|board| board.is_open());
}

// ---------------------------------------------------------------------------------------
// `-- fixed`: each part returns a check of what it computed.

fn fixed_games() -> u64 {
    (1..=10).fold(0, |check, seed| check ^ random_game(seed).digest())
}

fn fixed_replay() -> u64 {
    recorded_games().iter().fold(0, |check, (setup, record)| {
        check ^ black_box(replay(setup.clone(), record)).digest()
    })
}

fn fixed_cells() -> u64 {
    let all = all_cells();
    (0..20).fold(0, |check, _| {
        let mut game = game_on(changed(&late_board()));
        check.wrapping_add(sweep(&mut game, &all))
    })
}

fn fixed_cells_limit() -> u64 {
    (0..20).fold(0, |check, _| {
        check.wrapping_add(sweep_limit(&changed(&late_board())))
    })
}

fn fixed_rule21() -> u64 {
    let mut open = 0;
    for board in [late_board(), wide_board()] {
        let mut b = board;
        for _ in 0..100 {
            b = changed(&b);
            open += u64::from(black_box(b.is_open()));
        }
    }
    open
}

fn fixed_driver() -> u64 {
    (0..20).fold(0, |check: u64, _| {
        check.wrapping_add(black_box(driver_game()).digest())
    })
}
