//! Helpers shared by the rule tables: games built from text boards, moving a game to a given
//! stage, calls written as text, a brute-force oracle for rule 21, and a tiny seeded random
//! player that only uses the public API (the benchmark includes this file too).
#![allow(dead_code)]

use engine::constants::*;
use engine::{Api, Board, Call, Cell, Game, Kind, Pos, Seat, Setup, Stage};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::collections::VecDeque;

/// The monument order 0, 1, ..., 13.
pub const ORDER: [u8; 14] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];

/// A board from text rows whose top-left corner is put at (`x0`, `y0`); the rest of the map
/// is empty (same characters as [`Board::from_rows`]).
pub fn board_at(x0: i32, y0: i32, rows: &[&str]) -> Board {
    let source = Board::from_rows(rows);
    let mut board = Board::empty();
    for (i, cell) in source.cells().iter().enumerate() {
        if cell.kind == Kind::Vide {
            continue;
        }
        let p = Pos::from_index(i);
        let to = Pos::new(i32::from(p.x) + x0, i32::from(p.y) + y0).expect("shifted on the map");
        match cell.monument {
            Some(id) => board.build_monument(to, id),
            None => board.set(to, *cell),
        }
    }
    board
}

/// A setup on `board` with the monument order `order`, `first` opening turn 1, and `money`.
pub fn setup(board: Board, order: [u8; 14], first: Seat, money: [i32; 3]) -> Setup {
    Setup {
        monument_order: order,
        first_player: first,
        board,
        money,
    }
}

/// A game on `board` (order 0..13, 10 roubles each) in Phase I of turn 1, `first` to play.
pub fn game_on(board: Board, first: Seat) -> Game {
    let mut game = Game::new(setup(board, ORDER, first, [ARGENT_INITIAL; 3]));
    game.advance();
    game
}

/// A game from rows (top-left at (0, 0)) in Phase I of turn 1, `first` to play.
pub fn game_from_rows(rows: &[&str], first: Seat) -> Game {
    game_on(Board::from_rows(rows), first)
}

/// Advance until `done(stage)` holds; panics if the game ends first.
pub fn advance_until(game: &mut Game, done: impl Fn(Stage) -> bool) {
    while !done(game.stage()) {
        assert_ne!(
            game.stage(),
            Stage::Over,
            "the game ended before the stage was reached"
        );
        game.advance();
    }
}

/// Advance to the next Phase II.
pub fn to_auction(game: &mut Game) {
    advance_until(game, |s| s == Stage::Auction);
}

/// Advance to the next Phase III (everyone passes the auction unless they bid before).
pub fn to_placement(game: &mut Game) -> Seat {
    advance_until(game, |s| matches!(s, Stage::Placement { .. }));
    match game.stage() {
        Stage::Placement { winner } => winner,
        _ => unreachable!(),
    }
}

/// Make the call written as text (`"construire_route 50 51"`) for `seat`.
pub fn run(game: &mut Game, seat: Seat, call: &str) -> i32 {
    let call: Call = call
        .parse()
        .unwrap_or_else(|e| panic!("bad call {call:?}: {e}"));
    call.apply(&mut game.player(seat))
}

/// Make every call for `seat`, asserting each returns `SUCCES`.
pub fn run_ok(game: &mut Game, seat: Seat, calls: &[&str]) {
    for call in calls {
        assert_eq!(run(game, seat, call), SUCCES, "{call} for seat {seat}");
    }
}

/// The name of a code, for readable failures.
pub fn code_name(code: i32) -> String {
    let name = match code {
        SUCCES => "SUCCES",
        PAS_DE_MAISON => "PAS_DE_MAISON",
        PAS_DE_MONUMENT => "PAS_DE_MONUMENT",
        FINANCES_DEPASSEES => "FINANCES_DEPASSEES",
        BLOCAGE => "BLOCAGE",
        JOUEUR_INCORRECT => "JOUEUR_INCORRECT",
        NON_CONNEXE => "NON_CONNEXE",
        CASE_OCCUPEE => "CASE_OCCUPEE",
        ACTION_INTERDITE => "ACTION_INTERDITE",
        HORS_TERRAIN => "HORS_TERRAIN",
        TROP_LOIN => "TROP_LOIN",
        INFINI => "INFINI",
        _ => return code.to_string(),
    };
    format!("{name} ({code})")
}

// ---------------------------------------------------------------------------------------
// Rule 21, by brute force.

/// Rule 21 by flood fill, written from the text of the rule: from every border cell, walk
/// through `VIDE` cells (`extra` counts as an obstacle) and try to step onto a `ROUTE`; a
/// border cell that is a road counts. Returns a shortest witness walk (border cell first)
/// when the rule holds, `None` when it is broken.
pub fn open_witness(board: &Board, extra: Option<Pos>) -> Option<Vec<Pos>> {
    let size = TAILLE_CARTE;
    let kind = |p: Pos| {
        if Some(p) == extra {
            Kind::Maison
        } else {
            board.cell(p).kind
        }
    };
    let mut from = vec![usize::MAX; (size * size) as usize];
    let mut queue = VecDeque::new();
    for y in 0..size {
        for x in 0..size {
            let p = Pos::new(x, y).unwrap();
            if !p.is_border() {
                continue;
            }
            match kind(p) {
                Kind::Route => return Some(vec![p]),
                Kind::Vide => {
                    from[p.index()] = p.index();
                    queue.push_back(p);
                }
                _ => {}
            }
        }
    }
    while let Some(p) = queue.pop_front() {
        for n in p.neighbours4() {
            match kind(n) {
                Kind::Route => {
                    let mut walk = vec![p];
                    let mut i = p.index();
                    while from[i] != i {
                        i = from[i];
                        walk.push(Pos::from_index(i));
                    }
                    walk.reverse();
                    return Some(walk);
                }
                Kind::Vide if from[n.index()] == usize::MAX => {
                    from[n.index()] = p.index();
                    queue.push_back(n);
                }
                _ => {}
            }
        }
    }
    None
}

/// The empty cells where an obstacle would break rule 21, by brute force. Only cells of one
/// witness walk need a flood fill each: an obstacle off that walk leaves the walk intact.
/// A board already closed has no blocking cell (nothing can break it more).
pub fn blocking_oracle(board: &Board) -> Vec<Pos> {
    let Some(walk) = open_witness(board, None) else {
        return Vec::new();
    };
    let mut cells: Vec<Pos> = walk
        .into_iter()
        .filter(|&p| board.cell(p).kind == Kind::Vide && open_witness(board, Some(p)).is_none())
        .collect();
    cells.sort_by_key(|p| p.index());
    cells
}

/// The empty cells where `Board::is_blocking` holds, row-major.
pub fn blocking_engine(board: &Board) -> Vec<Pos> {
    (0..board.cells().len())
        .map(Pos::from_index)
        .filter(|&p| board.cell(p).kind == Kind::Vide && board.is_blocking(p))
        .collect()
}

/// The empty cells where `construction_possible` answers `BLOCAGE` for `seat`, row-major.
pub fn blocking_api(game: &mut Game, seat: Seat) -> Vec<Pos> {
    let mut api = game.player(seat);
    (0..(TAILLE_CARTE * TAILLE_CARTE) as usize)
        .map(Pos::from_index)
        .filter(|p| api.construction_possible(p.x.into(), p.y.into()) == BLOCAGE)
        .collect()
}

/// `(x, y)` pairs, for short assertions.
pub fn xy(cells: &[Pos]) -> Vec<(u8, u8)> {
    cells.iter().map(|p| (p.x, p.y)).collect()
}

// ---------------------------------------------------------------------------------------
// Independent recomputations used by the property tests.

/// `valeur_case` of every cell (row-major), recomputed from the monuments (rules 5-7).
pub fn values_oracle(board: &Board) -> Vec<i32> {
    let mut values = vec![0; board.cells().len()];
    for (i, cell) in board.cells().iter().enumerate() {
        let Some(id) = cell.monument else { continue };
        let m = Pos::from_index(i);
        let info = &engine::monument::MONUMENTS[usize::from(id)];
        for (j, value) in values.iter_mut().enumerate() {
            let p = Pos::from_index(j);
            let dx = (i32::from(m.x) - i32::from(p.x)).abs();
            let dy = (i32::from(m.y) - i32::from(p.y)).abs();
            if dx.max(dy) <= info.range {
                *value += info.prestige;
            }
        }
    }
    values
}

/// `score(seat)` recomputed: the sum of `max(value + 1, 0)` over the seat's houses (rule 9).
pub fn score_oracle(board: &Board, seat: Seat) -> i32 {
    let monuments: Vec<(Pos, u8)> = board
        .cells()
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.monument.map(|id| (Pos::from_index(i), id)))
        .collect();
    board
        .cells()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind == Kind::Maison && c.owner == Some(seat))
        .map(|(i, _)| {
            let p = Pos::from_index(i);
            let value: i32 = monuments
                .iter()
                .filter(|(m, id)| {
                    let info = &engine::monument::MONUMENTS[usize::from(*id)];
                    let dx = (i32::from(m.x) - i32::from(p.x)).abs();
                    let dy = (i32::from(m.y) - i32::from(p.y)).abs();
                    dx.max(dy) <= info.range
                })
                .map(|(_, id)| engine::monument::MONUMENTS[usize::from(*id)].prestige)
                .sum();
            (value + 1).max(0)
        })
        .sum()
}

/// Whether the roads form one 4-connected network.
pub fn roads_connected(board: &Board) -> bool {
    let roads: Vec<Pos> = (0..board.cells().len())
        .map(Pos::from_index)
        .filter(|&p| board.cell(p).kind == Kind::Route)
        .collect();
    let Some(&start) = roads.first() else {
        return true;
    };
    let mut seen = vec![false; board.cells().len()];
    seen[start.index()] = true;
    let mut stack = vec![start];
    let mut count = 0;
    while let Some(p) = stack.pop() {
        count += 1;
        for n in p.neighbours4() {
            if !seen[n.index()] && board.cell(n).kind == Kind::Route {
                seen[n.index()] = true;
                stack.push(n);
            }
        }
    }
    count == roads.len()
}

// ---------------------------------------------------------------------------------------
// A tiny seeded random player, written against the API only.

/// One callback's calls and their results, for replays.
pub type Log = Vec<(Call, i32)>;

/// A random player. It finds candidate cells on the board it sees (the 8-neighbours of
/// roads), asks the API what is possible, and checks that each action returns what the
/// information functions predicted.
pub struct RandomPlayer {
    rng: Pcg64,
    /// Also make random, mostly illegal, calls.
    pub junk: bool,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Pcg64::seed_from_u64(seed),
            junk: true,
        }
    }

    /// Play the callback due for `seat` in `game`, returning the calls made.
    pub fn play(&mut self, game: &mut Game, seat: Seat) -> Log {
        let mut log = Log::new();
        match game.stage() {
            Stage::Build { .. } => {
                let actions = self.rng.gen_range(0..7);
                for _ in 0..actions {
                    self.act(game, seat, &mut log, &[0, 0, 0, 1, 1, 2, 3, 4, 5]);
                }
            }
            Stage::Auction => {
                if self.rng.gen_bool(0.3) {
                    self.act(game, seat, &mut log, &[4]);
                }
                let money = self.call(game, seat, &mut log, "finances", &[0]);
                let bid = self.rng.gen_range(0..=money.min(6));
                let result = self.call(game, seat, &mut log, "encherir", &[bid]);
                assert_eq!(result, SUCCES, "a bid within one's money");
                if self.junk {
                    let result = self.call(game, seat, &mut log, "encherir", &[0]);
                    assert_eq!(result, ACTION_INTERDITE, "a second bid");
                }
            }
            Stage::Placement { .. } => {
                if self.rng.gen_bool(0.85) {
                    self.act(game, seat, &mut log, &[6]);
                }
                for _ in 0..self.rng.gen_range(0..3) {
                    self.act(game, seat, &mut log, &[0, 3, 5]);
                }
            }
            Stage::Init | Stage::End => {
                if self.junk {
                    let r = self.call(game, seat, &mut log, "construire_route", &[50, 51]);
                    assert_eq!(r, ACTION_INTERDITE);
                }
            }
            Stage::Over => {}
        }
        log
    }

    fn call(
        &mut self,
        game: &mut Game,
        seat: Seat,
        log: &mut Log,
        name: &str,
        args: &[i32],
    ) -> i32 {
        let function = engine::Function::from_name(name).expect("a function of the API");
        let call = Call::new(function, args).expect("the right arity");
        let result = call.apply(&mut game.player(seat));
        log.push((call, result));
        result
    }

    /// Cells next to a road (8-neighbours) that are empty or reserved, from `seat`'s view.
    fn candidates(game: &mut Game, seat: Seat) -> (Vec<Pos>, Vec<Pos>) {
        let player = game.player(seat);
        let board = &player.view().board;
        // Only the built cells are read (`Board::built`), and `seen` is a bitset on the
        // stack: a scan of the whole map and a 10,000-byte `vec!` for each action were nine
        // tenths of a random game's time (engine/BENCHMARKS.md).
        let mut seen = [0u64; engine::board::CELLS.div_ceil(64)];
        let mut near = Vec::new();
        let mut houses = Vec::new();
        for (p, cell) in board.built() {
            match cell.kind {
                Kind::Route => {
                    for n in p.neighbours8() {
                        let k = board.cell(n).kind;
                        let (word, bit) = (n.index() / 64, 1 << (n.index() % 64));
                        if seen[word] & bit == 0 && (k == Kind::Vide || k == Kind::Reservation) {
                            seen[word] |= bit;
                            near.push(n);
                        }
                    }
                }
                Kind::Maison => houses.push(p),
                _ => {}
            }
        }
        (near, houses)
    }

    /// One action of a kind drawn from `kinds`: 0 road, 1 house, 2 reservation, 3 destroy,
    /// 4 sell, 5 junk call, 6 monument.
    fn act(&mut self, game: &mut Game, seat: Seat, log: &mut Log, kinds: &[u8]) {
        let kind = kinds[self.rng.gen_range(0..kinds.len())];
        let (near, houses) = Self::candidates(game, seat);
        let pick = |rng: &mut Pcg64, cells: &[Pos]| -> Option<Pos> {
            (!cells.is_empty()).then(|| cells[rng.gen_range(0..cells.len())])
        };
        match kind {
            0 => {
                let Some(p) = pick(&mut self.rng, &near) else {
                    return;
                };
                let (x, y) = (i32::from(p.x), i32::from(p.y));
                let possible = self.call(game, seat, log, "route_possible", &[x, y]);
                let price = self.call(game, seat, log, "cout_achat_route", &[]);
                let money = self.call(game, seat, log, "finances", &[0]);
                let result = self.call(game, seat, log, "construire_route", &[x, y]);
                let expected = if possible != SUCCES {
                    possible
                } else if price > money {
                    FINANCES_DEPASSEES
                } else {
                    SUCCES
                };
                assert_eq!(result, expected, "construire_route {x} {y}");
            }
            1 | 2 | 6 => {
                let Some(p) = pick(&mut self.rng, &near) else {
                    return;
                };
                let (x, y) = (i32::from(p.x), i32::from(p.y));
                let possible = self.call(game, seat, log, "construction_possible", &[x, y]);
                let money = self.call(game, seat, log, "finances", &[0]);
                let (name, expected) = match kind {
                    1 => {
                        let price = self.call(game, seat, log, "cout_achat_maison", &[]);
                        let expected = match possible {
                            SUCCES if price == INFINI => ACTION_INTERDITE,
                            SUCCES if price > money => FINANCES_DEPASSEES,
                            other => other,
                        };
                        ("construire_maison", expected)
                    }
                    2 => {
                        let kind = self.call(game, seat, log, "type_case", &[x, y]);
                        let value = self.call(game, seat, log, "valeur_case", &[x, y]);
                        let expected = match possible {
                            SUCCES if kind == RESERVATION => CASE_OCCUPEE,
                            SUCCES if value.max(1) > money => FINANCES_DEPASSEES,
                            other => other,
                        };
                        ("reserver_case", expected)
                    }
                    _ => ("construire_monument", possible),
                };
                let result = self.call(game, seat, log, name, &[x, y]);
                assert_eq!(result, expected, "{name} {x} {y}");
            }
            3 => {
                let Some(p) = pick(&mut self.rng, &houses) else {
                    return;
                };
                let (x, y) = (i32::from(p.x), i32::from(p.y));
                let value = self.call(game, seat, log, "valeur_case", &[x, y]);
                let money = self.call(game, seat, log, "finances", &[0]);
                let result = self.call(game, seat, log, "detruire_maison", &[x, y]);
                let expected = if value.max(1) > money {
                    FINANCES_DEPASSEES
                } else {
                    SUCCES
                };
                assert_eq!(result, expected, "detruire_maison {x} {y}");
            }
            4 => {
                let Some(p) = pick(&mut self.rng, &houses) else {
                    return;
                };
                let (x, y) = (i32::from(p.x), i32::from(p.y));
                let owner = self.call(game, seat, log, "appartenance", &[x, y]);
                let result = self.call(game, seat, log, "vendre_maison", &[x, y]);
                let expected = if owner == 0 { SUCCES } else { ACTION_INTERDITE };
                assert_eq!(result, expected, "vendre_maison {x} {y}");
            }
            _ => {
                if !self.junk {
                    return;
                }
                let function =
                    engine::Function::ALL[self.rng.gen_range(0..engine::Function::ALL.len())];
                let args: Vec<i32> = (0..function.arity())
                    .map(|_| self.rng.gen_range(-2..=102))
                    .collect();
                self.call(game, seat, log, function.name(), &args);
            }
        }
    }
}

/// One stage of a recorded game: the calls of each seat that played it, in order.
pub type Record = Vec<Vec<(Seat, Log)>>;

/// Play a whole game of three random players from `setup`, checking `each_stage` after
/// every stage, and return the record of calls.
pub fn play_random(
    setup: Setup,
    seed: u64,
    junk: bool,
    mut each_stage: impl FnMut(&mut Game),
) -> (Game, Record) {
    let mut game = Game::new(setup);
    let mut players: Vec<RandomPlayer> = (0..3)
        .map(|i| {
            let mut p = RandomPlayer::new(seed.wrapping_mul(3).wrapping_add(i));
            p.junk = junk;
            p
        })
        .collect();
    let mut record = Record::new();
    while game.stage() != Stage::Over {
        let mut stage = Vec::new();
        for seat in game.seats_to_play() {
            let log = players[seat.index()].play(&mut game, seat);
            stage.push((seat, log));
        }
        each_stage(&mut game);
        record.push(stage);
        game.advance();
    }
    (game, record)
}

/// Replay `record` from `setup`: every call must give the same result again.
pub fn replay(setup: Setup, record: &Record) -> Game {
    let mut game = Game::new(setup);
    for stage in record {
        for (seat, log) in stage {
            for (call, result) in log {
                assert_eq!(
                    call.apply(&mut game.player(*seat)),
                    *result,
                    "replaying {call}"
                );
            }
        }
        game.advance();
    }
    assert_eq!(game.stage(), Stage::Over);
    game
}

/// A road cell, for boards built by hand.
pub const ROAD: Cell = Cell::ROAD;

/// Rule 26's points recomputed another way than `engine::outcome::points`: the seats sorted
/// by final score, each group of equal scores occupying a run of places and every seat of
/// the group getting the points of the last (lowest) place of its run.
pub fn points_oracle(final_scores: [i32; 3]) -> [u32; 3] {
    const BY_PLACE: [u32; 3] = [3, 1, 0];
    let mut order = [0usize, 1, 2];
    order.sort_by_key(|&seat| std::cmp::Reverse(final_scores[seat]));
    let mut points = [0; 3];
    let mut first = 0;
    while first < 3 {
        let mut last = first;
        while last + 1 < 3 && final_scores[order[last + 1]] == final_scores[order[first]] {
            last += 1;
        }
        for &seat in &order[first..=last] {
            points[seat] = BY_PLACE[last];
        }
        first = last + 1;
    }
    points
}
