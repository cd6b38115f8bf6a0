//! The champion of `protocol-amazons.md` (section 5), run as a process, plays whole games
//! through the protocol of that page against the `mobility` player, with either colour:
//! every `jouer` ends with one legal move, and every answer is the page's.
//!
//! The referee side here is the smallest driver of the page, written from it; the referee
//! proper takes its place with `--game amazons` (issue 13), and this test moves there.

use amazons::{bots, Board, Cell, Color, Move, Square};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The Python block of section 5 of the page.
fn doc_champion() -> String {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol-amazons.md"),
    )
    .unwrap();
    let start = page.find("```python\n").expect("a Python block") + "```python\n".len();
    let end = start + page[start..].find("```").unwrap();
    page[start..end].to_string()
}

struct Champion {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    color: Color,
}

impl Champion {
    fn line(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "the champion closed its stdout");
        line.trim_end().to_string()
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The page's answer to `case` of `square` for this champion.
    fn case(&self, board: &Board, square: Square) -> u8 {
        match board.cell(square) {
            Cell::Empty => 0,
            Cell::Amazon(c) if c == self.color => 1,
            Cell::Amazon(_) => 2,
            Cell::Arrow => 3,
        }
    }

    /// One callback: answers requests until `fin`. Returns the move made in `jouer`.
    fn callback(&mut self, name: &str, board: &mut Board, moves: u32) -> Option<Move> {
        self.send(name);
        let mut played = None;
        loop {
            let line = self.line();
            let words: Vec<&str> = line.split_ascii_whitespace().collect();
            let ints: Vec<i32> = words[1..].iter().map(|w| w.parse().unwrap()).collect();
            let square = |x: i32, y: i32| {
                u8::try_from(x)
                    .ok()
                    .zip(u8::try_from(y).ok())
                    .and_then(|(x, y)| Square::new(x, y))
            };
            let answer = match (words[0], ints.as_slice()) {
                ("fin", []) => break,
                ("etat", []) => Square::all()
                    .map(|s| char::from(b'0' + self.case(board, s)))
                    .collect(),
                ("case", &[x, y]) => square(x, y)
                    .map_or(-2, |s| i32::from(self.case(board, s)))
                    .to_string(),
                ("couleur", []) => u8::from(self.color == Color::Black).to_string(),
                ("numero_coup", []) => moves.to_string(),
                ("mon_tour", []) => i32::from(name == "jouer" && played.is_none()).to_string(),
                ("deplacer", &[x1, y1, x2, y2, x3, y3]) => {
                    let code = if name != "jouer" || played.is_some() {
                        -1
                    } else {
                        match (square(x1, y1), square(x2, y2), square(x3, y3)) {
                            (Some(from), Some(to), Some(arrow)) => {
                                let m = Move { from, to, arrow };
                                match board.play(m) {
                                    Ok(()) => {
                                        played = Some(m);
                                        0
                                    }
                                    Err(amazons::IllegalMove::NotYourAmazon(_)) => -3,
                                    Err(amazons::IllegalMove::CannotReach { .. }) => -4,
                                    Err(amazons::IllegalMove::CannotShoot { .. }) => -5,
                                }
                            }
                            _ => -2,
                        }
                    };
                    code.to_string()
                }
                _ => panic!("a request the page does not have: `{line}`"),
            };
            self.send(&answer);
        }
        played
    }
}

fn spawn(program: &Path, color: Color) -> Champion {
    let mut child = Command::new("python3")
        .arg(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    Champion {
        stdin: child.stdin.take().unwrap(),
        stdout: BufReader::new(child.stdout.take().unwrap()),
        child,
        color,
    }
}

/// Plays a whole game: the page's champion with `color`, `mobility` with the other.
fn game(program: &Path, color: Color) -> (Color, u32) {
    let mut board = Board::start();
    let mut champion = spawn(program, color);
    assert_eq!(champion.callback("init_game", &mut board, 0), None);
    let mut moves = 0;
    let winner = loop {
        if let Some(winner) = board.winner() {
            break winner;
        }
        if board.to_move() == color {
            let before = board.clone();
            let m = champion.callback("jouer", &mut board, moves);
            let m = m.expect("every jouer ends with a move");
            assert!(before.check(m).is_ok());
        } else {
            board.play(bots::mobility_move(&board).unwrap()).unwrap();
        }
        moves += 1;
    };
    assert_eq!(champion.callback("end_game", &mut board, moves), None);
    drop(champion.stdin);
    assert!(champion.child.wait().unwrap().success());
    (winner, moves)
}

#[test]
fn the_page_s_champion_plays_whole_games_legally() {
    let dir = std::env::temp_dir().join(format!("amazons-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("champion.py");
    std::fs::write(&program, doc_champion()).unwrap();
    for color in [Color::White, Color::Black] {
        let (winner, moves) = game(&program, color);
        assert!(moves <= 92, "{moves}");
        eprintln!("the page's champion as {color:?}: {winner:?} won after {moves} moves");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
