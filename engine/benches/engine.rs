//! Plain benchmark of the engine (no harness): whole games of three random players, the
//! stage driver alone, and `construction_possible` over the 10,000 cells of a late-game
//! board, cold (first query after a board change) and warm. Run with
//! `cargo bench -p engine`; figures go to `engine/BENCHMARKS.md`.
//!
//! `cargo bench -p engine -- fixed` does a fixed amount of work instead (no timing loop), for
//! instruction counts under `valgrind --tool=callgrind`: 10 random games (seeds 1-10), 100
//! cold rule 21 passes on the late-game board and 100 on a board built to the map's edges,
//! 20 runs of the stage driver.

#[path = "../tests/common/mod.rs"]
mod common;

use common::play_random;
use engine::{Api, Board, Cell, Game, Kind, Pos, Seat, Setup, Stage};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Run `f` repeatedly for at least `budget`, returning (iterations, elapsed).
fn measure(budget: Duration, mut f: impl FnMut()) -> (u32, Duration) {
    let start = Instant::now();
    let mut n = 0;
    while start.elapsed() < budget || n == 0 {
        f();
        n += 1;
    }
    (n, start.elapsed())
}

fn per(elapsed: Duration, n: u64) -> f64 {
    elapsed.as_nanos() as f64 / n as f64
}

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

fn game_on(board: Board) -> Game {
    let mut setup = Setup::from_seed(0);
    setup.board = board;
    let mut game = Game::new(setup);
    game.advance();
    game
}

fn main() {
    let budget = Duration::from_secs(3);
    println!(
        "engine benchmark ({} build)",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );

    // `cargo bench -p engine -- games` or `-- cells` runs one part only; `-- fixed` is the
    // fixed workload for callgrind (not part of the default run).
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |part: &str| only.is_empty() || only.iter().any(|a| a == part);

    if wants("games") {
        games(budget);
    }
    if wants("cells") {
        cells(budget);
    }
    if only.iter().any(|a| a == "fixed") {
        fixed();
    }
}

/// A board whose built area spans the whole map: the late-game board plus roads from
/// (50, 50) to near each edge, with a house here and there along them (the rule 21 pass
/// cannot restrict itself to a small part of the map).
fn wide_board(late: &Board) -> Board {
    let mut board = late.clone();
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

/// Fixed work for callgrind (`-- fixed`); prints only what it did.
fn fixed() {
    let mut moves = 0;
    for seed in 1..=10 {
        let (game, _) = play_random(Setup::from_seed(seed), seed, false, |_| {});
        moves += black_box(game).state().turn as u64;
    }
    let (late, _) = play_random(Setup::from_seed(2009), 2009, false, |_| {});
    let late = late.state().board.clone();
    let wide = wide_board(&late);
    let mut open = 0;
    for board in [&late, &wide] {
        let mut b = board.clone();
        for _ in 0..100 {
            b = changed(&b);
            open += usize::from(black_box(b.is_open()));
        }
    }
    for _ in 0..20 {
        let mut game = Game::new(Setup::from_seed(1));
        while game.stage() != Stage::Over {
            game.advance();
        }
        black_box(game.outcome());
    }
    println!("fixed work done ({moves} turns, {open} open boards)");
}

/// 1. Whole games.
fn games(budget: Duration) {
    let mut seed = 0;
    let (n, t) = measure(budget, || {
        seed += 1;
        black_box(play_random(Setup::from_seed(seed), seed, false, |_| {}));
    });
    println!(
        "random games (3 random players, API only): {n} games in {:.2?}: {:.1} games/s, {:.2} ms/game",
        t,
        f64::from(n) / t.as_secs_f64(),
        t.as_secs_f64() * 1e3 / f64::from(n)
    );
    let mut calls = 0usize;
    let mut seed = 0;
    let (n, t) = measure(budget, || {
        seed += 1;
        let (_, record) = play_random(Setup::from_seed(seed), seed, false, |_| {});
        calls += record
            .iter()
            .flatten()
            .map(|(_, log)| log.len())
            .sum::<usize>();
    });
    println!(
        "  API calls per game: {:.0}, {:.0} ns per call on average (player included)",
        calls as f64 / f64::from(n),
        per(t, calls as u64)
    );
    let (n, t) = measure(budget, || {
        let mut game = Game::new(Setup::from_seed(1));
        while game.stage() != Stage::Over {
            game.advance();
        }
        black_box(game.outcome());
    });
    println!(
        "stage driver alone (nobody acts): {:.1} us/game ({} games)",
        per(t, u64::from(n)) / 1e3,
        n
    );
}

/// 2. construction_possible on a late-game board.
fn cells(budget: Duration) {
    let (late, _) = play_random(Setup::from_seed(2009), 2009, false, |_| {});
    let board = late.state().board.clone();
    let count = |k: Kind| board.cells().iter().filter(|c| c.kind == k).count();
    println!(
        "late-game board (seed 2009): {} roads, {} houses, {} reservations, {} monuments",
        count(Kind::Route),
        count(Kind::Maison),
        count(Kind::Reservation),
        count(Kind::Monument)
    );
    let all: Vec<(i32, i32)> = (0..board.cells().len())
        .map(Pos::from_index)
        .map(|p| (i32::from(p.x), i32::from(p.y)))
        .collect();

    // Cold: the first query after a change computes rule 21 for the whole board.
    let mut games: Vec<Game> = (0..200).map(|_| game_on(changed(&board))).collect();
    let start = Instant::now();
    for game in &mut games {
        black_box(game.player(Seat(0)).construction_possible(0, 0));
    }
    let cold = start.elapsed();
    println!(
        "construction_possible, cold (first query after a board change): {:.1} us per query",
        per(cold, games.len() as u64) / 1e3
    );
    let mut boards: Vec<Board> = (0..200).map(|_| changed(&board)).collect();
    let start = Instant::now();
    for b in &mut boards {
        black_box(b.is_open());
    }
    println!(
        "  of which the rule 21 pass (Board::is_open, cold): {:.1} us",
        per(start.elapsed(), boards.len() as u64) / 1e3
    );
    let mut boards: Vec<Board> = (0..200).map(|_| changed(&wide_board(&board))).collect();
    let start = Instant::now();
    for b in &mut boards {
        black_box(b.is_open());
    }
    println!(
        "  the rule 21 pass (cold) on a board built out to the map's edges: {:.1} us",
        per(start.elapsed(), boards.len() as u64) / 1e3
    );
    let mut hot = board.clone();
    let (n, t) = measure(budget, || {
        hot = changed(&hot);
        black_box(hot.is_open());
    });
    println!(
        "  the rule 21 pass again and again on one board (in cache, clone included): {:.1} us",
        per(t, u64::from(n)) / 1e3
    );
    // Cold sweep: all 10,000 cells right after a change (one rule 21 pass + 9,999 warm).
    let mut games: Vec<Game> = (0..20).map(|_| game_on(changed(&board))).collect();
    let start = Instant::now();
    for game in &mut games {
        let mut api = game.player(Seat(0));
        for &(x, y) in &all {
            black_box(api.construction_possible(x, y));
        }
    }
    println!(
        "construction_possible on all 10,000 cells after a change: {:.1} ns per cell",
        per(start.elapsed(), (games.len() * all.len()) as u64)
    );
    // Warm: the cache is filled.
    let mut game = game_on(changed(&board));
    game.player(Seat(0)).construction_possible(0, 0);
    let (n, t) = measure(budget, || {
        let mut api = game.player(Seat(0));
        for &(x, y) in &all {
            black_box(api.construction_possible(x, y));
        }
    });
    println!(
        "construction_possible on all 10,000 cells, warm: {:.1} ns per cell",
        per(t, u64::from(n) * all.len() as u64)
    );
    // For scale: route_possible (no rule 21) and distance over the same cells.
    let (n, t) = measure(budget, || {
        let mut api = game.player(Seat(0));
        for &(x, y) in &all {
            black_box(api.route_possible(x, y));
        }
    });
    println!(
        "route_possible, all cells: {:.1} ns per cell",
        per(t, u64::from(n) * all.len() as u64)
    );
    let (n, t) = measure(budget, || {
        let mut api = game.player(Seat(0));
        for &(x, y) in all.iter().step_by(7) {
            black_box(api.distance(50, 50, x, y));
        }
    });
    let queries = all.iter().step_by(7).count() as u64;
    println!(
        "distance from (50, 50), every 7th cell: {:.1} ns per query",
        per(t, u64::from(n) * queries)
    );
}
