//! The board's rules in the C kit (`champions/c/kit/prologin_rules.c`, issue 32):
//! `construction_possible`, `route_possible` and `distance` answered from the cached
//! `etat`, at 2009's cost; and in the kits that call them through their foreign-function
//! interface (`prologin_rules_lib.c`): OCaml, Haskell, Pascal and Go (fixtures
//! `rules_ocaml`, `rules_haskell`, `rules_pascal`, `rules_go`), each held to the engine
//! and to groopy's pace as the C kit is.
//!
//! - On boards of our own (rule 21's traps: a ring of houses around the roads with a
//!   one-cell gap, reservations of each player, dense random boards), this test plays the
//!   referee's part of the protocol with the fixture `rules_c` built with `-DDUMP`: it
//!   answers `etat` with the board and reads every answer the kit gives, which must be the
//!   engine's (`engine::Board`'s rule 21, `engine::distance`); the champion's only requests
//!   are `etat` and `fin`: no call is a round trip.
//! - Built with `-DPROLOGIN_CHECK_RULES`, the kit asks the referee every answer too and
//!   stops at the first difference: whole matches through the real referee.
//! - Built as it is, `rules_c` asks 500,000 rules in every `jouer` (2009's `groopy` asked
//!   484,309 in its first) and plays whole matches within the default budget.

use crate::common;
use crate::kits2009::{has, play_with};

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use engine::{Board, Pos, Seat};

/// The repository's kit of `language` (`champions/<language>/kit`), as a `make` argument's
/// value.
fn kit(language: &str) -> String {
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../champions/{language}/kit"));
    kit.display().to_string()
}

/// Builds the fixture `fixture` (`rules_c`, `rules_haskell`, ...) in a fresh folder named
/// `name` with `make` and `args` (the kits named outright, flags).
fn build_fixture(fixture: &str, name: &str, args: &[String]) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/kits")
        .join(fixture);
    let dir = common::fresh_dir("kits_rules", name).join(name);
    std::fs::create_dir(&dir).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    common::run_ok(
        Command::new("make")
            .arg("-s")
            .arg("-C")
            .arg(&dir)
            .args(args),
    );
    dir
}

/// Builds the fixture `rules_c` with the repository's C kit and `flags` in a fresh folder.
fn rules_c(name: &str, flags: &str) -> PathBuf {
    build_fixture(
        "rules_c",
        name,
        &[format!("KIT={}", kit("c")), format!("CFLAGS={flags}")],
    )
}

/// Builds the fixture `rules_<language>` of a kit that links the C kit's rules.
fn rules_of(language: &str) -> PathBuf {
    build_fixture(
        &format!("rules_{language}"),
        language,
        &[
            format!("KIT={}", kit(language)),
            format!("KIT_C={}", kit("c")),
        ],
    )
}

/// The `etat` line of `board` as seat 0 sees it (figures all 0: the rules read none).
fn etat(board: &Board) -> String {
    let mut kinds = String::new();
    let mut owners = String::new();
    let mut monuments = String::new();
    for i in 0..engine::board::CELLS {
        let cell = board.cell(Pos::from_index(i));
        kinds.push(char::from(b'0' + cell.kind as u8));
        owners.push(match cell.owner {
            Some(seat) => char::from(b'0' + seat.0),
            None => '3',
        });
        monuments.push(cell.monument.map_or('.', |m| char::from(b'a' + m)));
    }
    let values = "@".repeat(engine::board::CELLS);
    format!(
        "{} {kinds} {owners} {monuments} {values}",
        ["0"; 16].join(" ")
    )
}

/// The code the fixture prints for an answer.
fn code(answer: i32) -> char {
    use engine::constants::*;
    match answer {
        SUCCES => 's',
        CASE_OCCUPEE => 'o',
        BLOCAGE => 'b',
        NON_CONNEXE => 'n',
        HORS_TERRAIN => 'h',
        _ => '?',
    }
}

/// The engine's answers for seat 0, in the fixture's format (`C y row`, `R y row`, the
/// off-map line, `D x1 y1 x2 y2 d`).
fn expected(board: &Board) -> Vec<String> {
    use engine::constants::*;
    use engine::Kind;
    let me = Seat(0);
    let buildable = |p: Pos| {
        let c = board.cell(p);
        c.kind == Kind::Vide || (c.kind == Kind::Reservation && c.owner == Some(me))
    };
    let construction = |x: i32, y: i32| match Pos::new(x, y) {
        None => HORS_TERRAIN,
        Some(p) if !buildable(p) => CASE_OCCUPEE,
        Some(p) if board.cell(p).kind == Kind::Vide && board.is_blocking(p) => BLOCAGE,
        Some(p) if !board.touches_road(p, true) => NON_CONNEXE,
        Some(_) => SUCCES,
    };
    let road = |x: i32, y: i32| match Pos::new(x, y) {
        None => HORS_TERRAIN,
        Some(p) if !buildable(p) => CASE_OCCUPEE,
        Some(p) if !board.touches_road(p, false) => NON_CONNEXE,
        Some(_) => SUCCES,
    };
    let mut lines = Vec::new();
    for y in -1..=100 {
        let row = |f: &dyn Fn(i32, i32) -> i32| (0..100).map(|x| code(f(x, y))).collect::<String>();
        lines.push(format!("C {y} {}", row(&construction)));
        lines.push(format!("R {y} {}", row(&road)));
    }
    lines.push(format!(
        "C -1x {} {}",
        code(construction(-1, 0)),
        code(construction(100, 0))
    ));
    for k in 0..7 {
        let (x1, y1) = (15 * k + 3, 97 - 14 * k);
        for dy in -13..=13 {
            for dx in -13..=13 {
                let (x2, y2) = (x1 + dx, y1 + dy);
                let d = match (Pos::new(x1, y1), Pos::new(x2, y2)) {
                    (Some(a), Some(b)) => {
                        engine::distance::distance(board, me, a, b).unwrap_or(TROP_LOIN)
                    }
                    _ => HORS_TERRAIN,
                };
                lines.push(format!("D {x1} {y1} {x2} {y2} {d}"));
            }
        }
    }
    lines
}

/// Plays the referee's part for one `jouer` on `board` with the DUMP build `champion`:
/// the requests it made and what it printed.
fn ask_champion(champion: &Path, board: &Board) -> (Vec<String>, Vec<String>) {
    let mut child = Command::new(champion.join("champion"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the champion starts");
    let mut stderr = child.stderr.take().unwrap();
    let printed = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut requests = Vec::new();
    for callback in ["jouer", "end_game"] {
        writeln!(to, "{callback}").unwrap();
        loop {
            let mut line = String::new();
            assert!(
                from.read_line(&mut line).unwrap() > 0,
                "the champion closed its output in {callback}"
            );
            let request = line.trim_end().to_string();
            if request == "etat" {
                writeln!(to, "{}", etat(board)).unwrap();
            }
            requests.push(request.clone());
            if request == "fin" {
                break;
            }
            assert_eq!(request, "etat", "a round trip for a rule in {callback}");
        }
    }
    drop(to);
    assert!(child.wait().unwrap().success(), "the champion failed");
    let printed = printed.join().unwrap();
    (requests, printed.lines().map(str::to_string).collect())
}

/// A board whose roads are enclosed by a ring of houses and reservations open by one cell
/// (50, 44): that cell, and the empty cells leading to it, are rule 21's `BLOCAGE`.
fn ring() -> Board {
    let mut rows = vec![String::from(".").repeat(100); 100];
    let mut put = |x: usize, y: usize, c: char| rows[y].replace_range(x..x + 1, &c.to_string());
    for i in 44..=56 {
        for (x, y) in [(i, 44), (i, 56), (44, i), (56, i)] {
            put(x, y, ['A', 'B', 'C', 'a', 'b', 'c', 'H'][(x * 7 + y) % 7]);
        }
    }
    for x in 46..=54 {
        put(x, 50, 'R');
    }
    put(50, 44, '.');
    // A corridor from the gap to the outside: every cell of it blocks.
    for y in 40..44 {
        put(49, y, 'A');
        put(51, y, 'b');
    }
    put(47, 52, 'a');
    put(52, 48, '3');
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    Board::from_rows(&refs)
}

/// A dense random board: obstacles of every kind around a network of roads.
fn random_board(seed: u64, density: u64) -> Board {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut rows: Vec<Vec<char>> = vec![vec!['.'; 100]; 100];
    let obstacles = ['A', 'B', 'C', 'a', 'b', 'c', 'H', '1', '7'];
    for row in rows.iter_mut() {
        for cell in row.iter_mut() {
            if next(100) < density {
                *cell = obstacles[next(obstacles.len() as u64) as usize];
            }
        }
    }
    let (mut x, mut y) = (50i64, 50i64);
    for _ in 0..400 {
        rows[y as usize][x as usize] = 'R';
        match next(4) {
            0 => x = (x + 1).min(97),
            1 => x = (x - 1).max(2),
            2 => y = (y + 1).min(97),
            _ => y = (y - 1).max(2),
        }
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    Board::from_rows(&refs)
}

#[test]
fn c_kit_answers_the_rules_as_the_engine_does_without_a_round_trip() {
    let _heavy = common::heavy();
    answers_as_the_engine_without_a_round_trip(&rules_c("dump", "-O2 -DDUMP"));
}

/// The champion's answers on rule 21's traps and dense random boards are the engine's,
/// and its only requests are `etat` and `fin`.
fn answers_as_the_engine_without_a_round_trip(champion: &Path) {
    let mut boards = vec![("ring", ring()), ("start", Board::default())];
    for (seed, density) in [(1, 35), (2, 45), (3, 50), (4, 55), (5, 60), (6, 40)] {
        boards.push(("random", random_board(seed, density)));
    }
    let mut blocages = 0;
    for (i, (name, board)) in boards.iter().enumerate() {
        let (requests, printed) = ask_champion(champion, board);
        assert_eq!(requests, ["etat", "fin", "fin"], "board {i} ({name})");
        let want = expected(board);
        let got: Vec<&String> = printed
            .iter()
            // Not the kit's own lines, nor the fixture's end_game log (`rules_<x>: end`).
            .filter(|l| !l.starts_with("prologin") && !l.starts_with("rules_"))
            .collect();
        assert_eq!(got.len(), want.len(), "board {i} ({name}): lines printed");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(
                *g, w,
                "board {i} ({name}): the kit (left) and the engine (right)"
            );
        }
        blocages += want
            .iter()
            .filter(|l| l.starts_with("C "))
            .map(|l| l.matches('b').count())
            .sum::<usize>();
    }
    assert!(
        blocages > 10,
        "the boards hold too few BLOCAGE cells ({blocages}) to test rule 21"
    );
}

#[test]
fn c_kit_rules_agree_with_the_referee_through_whole_matches() {
    let _heavy = common::heavy();
    let champion = rules_c("checked", "-O2 -DPROLOGIN_CHECK_RULES -DSCANS=1");
    for seed in [3, 8] {
        // Every answer is a round trip too: a generous budget.
        let seen = play_with(&champion, seed, &["--time-scale", "30"]);
        let (stdout, log) = (seen.stdout(), &seen.log);
        assert_eq!(seen.row0().1, "-", "seed {seed}:\n{stdout}\nlog:\n{log}");
        assert!(
            log.contains("rules_c: end"),
            "seed {seed}: no end_game:\n{log}"
        );
    }
}

#[test]
fn a_champion_asking_as_much_as_groopy_plays_within_the_default_budget() {
    let _heavy = common::heavy();
    plays_as_much_as_groopy(&rules_c("groopy_sized", "-O2"), "rules_c");
}

/// A whole match of `champion` (a fixture `rules_*` logging as `who`) with the default
/// budget: no fault, and at least as many rule calls in its first `jouer` as `groopy`.
fn plays_as_much_as_groopy(champion: &Path, who: &str) {
    let seen = play_with(champion, 5, &[]);
    let (stdout, log) = (seen.stdout(), &seen.log);
    assert_eq!(seen.row0().1, "-", "{stdout}\nlog:\n{log}");
    let first: u64 = log
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{who}: jouer tour 1: ")))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of the first jouer's calls:\n{log}"));
    assert!(first >= 484_309, "only {first} calls in the first jouer");
    assert!(log.contains(&format!("{who}: end")), "no end_game:\n{log}");
}

#[test]
fn haskell_kit_answers_the_rules_as_the_engine_does_without_a_round_trip() {
    if !has("ghc", "--version") {
        return;
    }
    let _heavy = common::heavy();
    answers_as_the_engine_without_a_round_trip(&rules_of("haskell"));
}

#[test]
fn a_haskell_champion_asking_as_much_as_groopy_plays_within_the_default_budget() {
    if !has("ghc", "--version") {
        return;
    }
    let _heavy = common::heavy();
    plays_as_much_as_groopy(&rules_of("haskell"), "rules_haskell");
}

#[test]
fn ocaml_kit_answers_the_rules_as_the_engine_does_without_a_round_trip() {
    if !has("ocamlopt", "-version") {
        return;
    }
    let _heavy = common::heavy();
    answers_as_the_engine_without_a_round_trip(&rules_of("ocaml"));
}

#[test]
fn an_ocaml_champion_asking_as_much_as_groopy_plays_within_the_default_budget() {
    if !has("ocamlopt", "-version") {
        return;
    }
    let _heavy = common::heavy();
    plays_as_much_as_groopy(&rules_of("ocaml"), "rules_ocaml");
}

#[test]
fn pascal_kit_answers_the_rules_as_the_engine_does_without_a_round_trip() {
    if !has("fpc", "-iV") {
        return;
    }
    let _heavy = common::heavy();
    answers_as_the_engine_without_a_round_trip(&rules_of("pascal"));
}

#[test]
fn a_pascal_champion_asking_as_much_as_groopy_plays_within_the_default_budget() {
    if !has("fpc", "-iV") {
        return;
    }
    let _heavy = common::heavy();
    plays_as_much_as_groopy(&rules_of("pascal"), "rules_pascal");
}

#[test]
fn go_kit_answers_the_rules_as_the_engine_does_without_a_round_trip() {
    if !has("go", "version") {
        return;
    }
    let _heavy = common::heavy();
    answers_as_the_engine_without_a_round_trip(&rules_of("go"));
}

#[test]
fn a_go_champion_asking_as_much_as_groopy_plays_within_the_default_budget() {
    if !has("go", "version") {
        return;
    }
    let _heavy = common::heavy();
    plays_as_much_as_groopy(&rules_of("go"), "rules_go");
}
